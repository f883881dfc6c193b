/* The game's tests' common steps (test_play.c, test_play4.c): a key press,
 * the pending SDL events (virtual pads) into the game, and a race taken
 * from the grid through the five lights. Header-only: static inline.
 * Include after cmocka.h and play_internal.h. */
#ifndef NR_TEST_PLAY_FIXTURE_H
#define NR_TEST_PLAY_FIXTURE_H

#include <string.h>

static inline void play_key(PlayState *ps, SDL_Scancode sc)
{
    SDL_Event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = SDL_KEYDOWN;
    ev.key.keysym.scancode = sc;
    ev.key.keysym.sym = SDL_GetKeyFromScancode(sc);
    play_handle_event(ps, &ev);
}

static inline void play_pump(PlayState *ps)
{
    SDL_PumpEvents();
    SDL_Event ev;
    while (SDL_PollEvent(&ev))
        play_handle_event(ps, &ev);
}

/* Space on the grid, then 5 s of lights at 60 frames a second. */
static inline void play_go_racing(PlayState *ps)
{
    play_key(ps, SDL_SCANCODE_SPACE);
    assert_int_equal(liverace_flow(ps->lr)->phase, RF_COUNTDOWN);
    for (int i = 0; i < 5 * 60 + 2; i++)
        play_frame(ps, 16667);
    assert_int_equal(liverace_flow(ps->lr)->phase, RF_RACING);
}

#endif
