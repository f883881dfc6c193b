/* The game's boxes that list the players: on the grid (who is ready, who
 * still has to press a button on a pad) and the results (the order and
 * lap times as each player's screen showed them, and the truth). */
#include "play_internal.h"

#include <stdio.h>

#define BOARD_TEXT 160

void play_grid_box(PlayState *ps, int w, int h)
{
    char buf[PLAY_SEATS + 1][BOARD_TEXT];
    const char *lines[PLAY_SEATS + 3];
    int n = 0;
    lines[n++] = "On the grid";
    for (int j = 0; j < ps->nseats; j++) {
        char who[96];
        if (ps->cfg->kind[j] == PLAYER_PAD && !pads_has(&ps->pads, j))
            snprintf(buf[j], BOARD_TEXT, "P%d: press a button on a gamepad to join", j + 1);
        else
            snprintf(buf[j], BOARD_TEXT, "P%d ready: %s", j + 1, play_kind_text(ps, j, who, sizeof who));
        lines[n++] = buf[j];
    }
    lines[n++] = "Space / Enter (or Start on a pad): start the race";
    lines[n++] = "H help · Tab overview of every scheme · Q quit";
    widget_text_box(&ps->view->gfx, w, h, lines, n, PAL_ACCENT);
}

void play_results_box(PlayState *ps, int w, int h)
{
    const RaceFlow *rf = liverace_flow(ps->lr);
    char title[BOARD_TEXT];
    snprintf(title, sizeof title, "Results (%s): %s", engine_scheme(liverace_engine(ps->lr), ps->cfg->race.shown)->name,
             rf->cfg.duration_us > 0 ? "standings at the time limit" : "finishing order and lap times");
    char label[PLAY_SEATS][BOARD_TEXT];
    const char *who[PLAY_SEATS + 1];
    int views[PLAY_SEATS + 1];
    for (int j = 0; j < ps->nseats; j++) {
        snprintf(label[j], BOARD_TEXT, "as P%d's screen showed it:", j + 1);
        who[j] = label[j];
        views[j] = j;
    }
    who[ps->nseats] = "the truth (physics):";
    views[ps->nseats] = RACEFLOW_TRUTH;
    widget_results(&ps->view->gfx, w, h, rf, title, views, who, ps->nseats + 1,
                   "Enter race again · O replay this race · Tab overview · Q quit");
}
