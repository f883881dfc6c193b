/* The study screen's drawing (studywin.h): the cards over the game's
 * screens, the finish, and each player's rating screen on their half. The
 * players' halves never name the condition. */
#include "studywin_internal.h"
#include "widgets.h"

#include <stdio.h>
#include <string.h>


/* A panel centred in player j's half (its top at top_frac of the height),
 * one line per entry in its own font and colour. */
static void half_box(Gfx *g, int j, int w, int h, float top_frac, const char *const *lines, const int *font,
                     const SDL_Color *col, int n)
{
    float half = (float)w / 2, pad = (float)gfx_line_h(g, GFX_NORMAL);
    float bh = 2 * pad, maxw = 0;
    for (int i = 0; i < n; i++) {
        int tw, th;
        gfx_text_size(g, font[i], lines[i], &tw, &th);
        maxw = (float)tw > maxw ? (float)tw : maxw;
        bh += (float)gfx_line_h(g, font[i]) * 1.15f;
    }
    float bw = maxw + 2 * pad;
    if (bw > half - pad)
        bw = half - pad;
    float x = (float)j * half + (half - bw) / 2, y = (float)h * top_frac;
    widget_panel(g->r, x, y, bw, bh, pal_car(j));
    float ty = y + pad;
    for (int i = 0; i < n; i++) {
        gfx_text(g, font[i], (int)((float)j * half + half / 2), (int)ty, GFX_CENTER, col[i], "%s", lines[i]);
        ty += (float)gfx_line_h(g, font[i]) * 1.15f;
    }
}

/* How player j says "ready" (or joins with a pad first). */
static void ready_line(const StudyWin *sw, int j, char *buf, size_t n)
{
    const PlayState *ps = sw->ps;
    PlayerKind k = sw->cfg->play.kind[j];
    if (sw->ready[j])
        snprintf(buf, n, k == PLAYER_BOT || k == PLAYER_SCRIPT ? "the bot is ready" : "Ready - waiting for player %d",
                 2 - j);
    else if (k == PLAYER_PAD && !pads_has(&ps->pads, j))
        snprintf(buf, n, "Press a button on a gamepad to join");
    else if (k == PLAYER_PAD)
        snprintf(buf, n, "Ready? Press A");
    else
        snprintf(buf, n, "Ready? Press %s", playkeys_key_name(&ps->keys, j, PK_THROTTLE));
}

static void draw_card(StudyWin *sw, int w, int h)
{
    Gfx *g = &sw->ps->view->gfx;
    const StudyStep *st = &sw->step;
    char title[64], sub[96], rd[96];
    bool brk = sw->phase == SW_BREAK;
    float top = brk ? 0.36f : 0.16f; /* a race's card leaves its grid in view */
    if (brk) {
        snprintf(title, sizeof title, "Break");
        snprintf(sub, sizeof sub, "%d rated race%s done, %d to go", st->rated_done, st->rated_done == 1 ? "" : "s",
                 st->rated_left);
    } else {
        snprintf(title, sizeof title, "Race %d of %d", st->race, st->nraces);
        snprintf(sub, sizeof sub, "%s", st->shown[0]     ? st->shown
                                        : st->practice ? "a practice race: not rated"
                                                       : "rate it when it ends");
    }
    for (int j = 0; j < 2; j++) {
        ready_line(sw, j, rd, sizeof rd);
        const char *lines[3] = {title, sub, rd};
        const int font[3] = {GFX_BIG, GFX_NORMAL, GFX_NORMAL};
        const SDL_Color col[3] = {PAL_ACCENT, PAL_FG, sw->ready[j] ? PAL_GO : PAL_FG};
        half_box(g, j, w, h, top, lines, font, col, 3);
    }
}

static void draw_finished(StudyWin *sw, int w, int h)
{
    Gfx *g = &sw->ps->view->gfx;
    for (int j = 0; j < 2; j++) {
        const char *lines[1] = {"Finished"};
        const int font[1] = {GFX_BIG};
        const SDL_Color col[1] = {PAL_ACCENT};
        half_box(g, j, w, h, 0.16f, lines, font, col, 1);
    }
}

/* Player j's hint for the rating screen, in their own keys or pad. */
static void rate_hint(const StudyWin *sw, int j, char *buf, size_t n)
{
    const PlayKeys *k = &sw->ps->keys;
    if (sw->cfg->play.kind[j] == PLAYER_PAD) {
        snprintf(buf, n, "d-pad or stick: choose · A: confirm");
        return;
    }
    const char *mark = playkeys_key_name(k, j, PK_MARK);
    snprintf(buf, n, "%s / %s: choose · %s%s%s: confirm", playkeys_key_name(k, j, PK_THROTTLE),
             playkeys_key_name(k, j, PK_BRAKE), playkeys_key_name(k, j, PK_RIGHT), strcmp(mark, "-") ? " or " : "",
             strcmp(mark, "-") ? mark : "");
}

static void draw_rater(StudyWin *sw, int j, int w, int h)
{
    char hint[160], waiting[64];
    rate_hint(sw, j, hint, sizeof hint);
    snprintf(waiting, sizeof waiting, "waiting for player %d", 2 - j);
    StudyRateLook lk = {.seat = j, .x0 = (float)j * (float)w / 2, .width = (float)w / 2, .h = h, .m = sw->font_base,
                        .race = sw->step.race, .nraces = sw->step.nraces, .hint = hint, .waiting = waiting};
    studyrate_draw(&sw->ps->view->gfx, &sw->rater[j], sw->cfg->plan->q, sw->cfg->plan->nq, &lk);
}

/* The rating and closing screens' own text size: larger than the race's,
 * from the window (a half is w / 2 wide) and the game's text scale. */
static void own_scale(StudyWin *sw, int w, int h)
{
    Gfx *g = &sw->ps->view->gfx;
    int base = studyrate_base_px(w, h, sw->ps->view->scale);
    sw->font_base = base;
    gfx_begin_frame(g);
    gfx_set_scale(g, base);
    SDL_Color bg = PAL_BG;
    SDL_SetRenderDrawColor(g->r, bg.r, bg.g, bg.b, 255);
    SDL_RenderClear(g->r);
}

static void draw_done(StudyWin *sw, int w, int h)
{
    Gfx *g = &sw->ps->view->gfx;
    bool over = sw->phase == SW_OVER; /* a hook failed: the experimenter's terminal says why */
    bool part = sw->step.stopped;     /* --stop-after: the rest another time */
    for (int j = 0; j < 2; j++) {
        const char *lines[3] = {over ? "The session stopped" : "Thank you!",
                                over   ? "Please call the experimenter."
                                : part ? "That is all for now."
                                       : "The session is complete.",
                                over ? "" : "Esc closes the window"};
        const int font[3] = {GFX_BIG, GFX_NORMAL, GFX_NORMAL};
        const SDL_Color col[3] = {PAL_ACCENT, PAL_FG, PAL_DIM};
        half_box(g, j, w, h, 0.36f, lines, font, col, 3);
    }
}

void studywin_draw(StudyWin *sw, int w, int h)
{
    switch (sw->phase) {
    case SW_RATE:
        own_scale(sw, w, h);
        for (int j = 0; j < 2; j++)
            draw_rater(sw, j, w, h);
        gfx_fill(sw->ps->r, (float)w / 2 - 1, 0, 2, (float)h, gfx_rgb(10, 10, 10));
        break;
    case SW_DONE:
    case SW_OVER:
        own_scale(sw, w, h);
        draw_done(sw, w, h);
        break;
    case SW_BREAK: /* no race on the screens: the players rest */
        own_scale(sw, w, h);
        draw_card(sw, w, h);
        break;
    default: /* the game's screens, and the card or the finish over them */
        play_draw(sw->ps, w, h);
        if (sw->phase == SW_CARD)
            draw_card(sw, w, h);
        else if (sw->phase == SW_FINISHED)
            draw_finished(sw, w, h);
        break;
    }
}
