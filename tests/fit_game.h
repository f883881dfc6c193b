/* The fit tests' game (test_fit.c, test_hud_clear.c): player 1 on the
 * keys, bots in the other seats, every scheme, 20 s against the clock.
 *
 *   game_open(c, bots, ncars, cfg)  a PlayState drawing on c's renderer
 *                                   (NULL + a line on stderr when it fails)
 *   key(ps, scancode)               a key press as the window would pass it */
#ifndef NR_FIT_GAME_H
#define NR_FIT_GAME_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "fit_fixture.h"
#include "netrace_config.h"
#include "play_internal.h"

typedef struct Bots {
    const Track *track;
    int ncars;
    Bot *bot[PLAY_SEATS];
} Bots;

static inline bool make_bots(void *ctx, Controller ctl[PLAY_SEATS], NrError *err)
{
    Bots *b = ctx;
    CarParams p;
    car_params_default(&p);
    for (int j = 1; j < b->ncars; j++) { /* player 1 on the keys: the grid waits for Space */
        bot_free(b->bot[j]);
        b->bot[j] = bot_new(b->track, &p, (BotDriver){.skill = 0.9, .noise = 0.3}, 5, (uint64_t)j, err);
        if (!b->bot[j])
            return false;
        ctl[j] = bot_controller(b->bot[j]);
    }
    return true;
}

static inline void key(PlayState *ps, SDL_Scancode sc)
{
    SDL_Event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = SDL_KEYDOWN;
    ev.key.keysym.scancode = sc;
    ev.key.keysym.sym = SDL_GetKeyFromScancode(sc);
    play_handle_event(ps, &ev);
}

/* A game of ncars (player 1 on the keys, bots in the other seats) with
 * every scheme, 20 s against the clock, the lagometers' rings kept. */
static inline PlayState *game_open(Canvas *c, Bots *bots, int ncars, PlayConfig *cfg)
{
    NrError err = {{0}};
    memset(cfg, 0, sizeof *cfg);
    LiveRaceConfig *lc = &cfg->race;
    lc->track = bots->track;
    lc->track_file = "default.track";
    lc->ncars = ncars;
    lc->engine.nschemes = scheme_parse_list("every", lc->engine.schemes, SCHEME_MAX, &err);
    lc->engine.seed = 3;
    lc->engine.params = scheme_default_params();
    lc->engine.keep_history = true;
    lc->engine.lagometer = true;
    lc->shown = 3;
    lc->flow.laps = 1;
    lc->flow.duration_us = 20 * NR_US_PER_S; /* nobody drives car 1: a race against the clock */
    lc->source = "human";
    lc->created = "test";
    cfg->kind[0] = PLAYER_KEYS;
    for (int j = 1; j < PLAY_SEATS; j++)
        cfg->kind[j] = PLAYER_BOT;
    bots->ncars = ncars;
    cfg->make_ctl = make_bots;
    cfg->make_ctx = bots;
    cfg->assets_dir = NETRACE_SOURCE_DIR "/assets";
    PlayState *ps = calloc(1, sizeof *ps);
    if (ps && !play_state_init(ps, cfg, c->r, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        free(ps);
        ps = NULL;
    }
    return ps;
}

#endif
