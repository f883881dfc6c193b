/* The game's tests' common steps (test_play.c, test_play4.c): a key press,
 * the pending SDL events (virtual pads) into the game, and a race taken
 * from the grid through the five lights. Header-only: static inline.
 * Include after cmocka.h and play_internal.h. */
#ifndef NR_TEST_PLAY_FIXTURE_H
#define NR_TEST_PLAY_FIXTURE_H

#include <string.h>

/* One key event: type SDL_KEYDOWN or SDL_KEYUP, with modifiers mod. */
static inline void play_key_event(PlayState *ps, Uint32 type, SDL_Scancode sc, Uint16 mod)
{
    SDL_Event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = type;
    ev.key.keysym.scancode = sc;
    ev.key.keysym.sym = SDL_GetKeyFromScancode(sc);
    ev.key.keysym.mod = mod;
    play_handle_event(ps, &ev);
}

/* A key pressed and released alone (a Shift mark key acts on its release). */
static inline void play_key(PlayState *ps, SDL_Scancode sc)
{
    play_key_event(ps, SDL_KEYDOWN, sc, KMOD_NONE);
    play_key_event(ps, SDL_KEYUP, sc, KMOD_NONE);
}

/* Ctrl + as typed on a US keyboard's main row: Ctrl, Shift, =, released in
 * the reverse order (shift_first: Shift goes down before Ctrl). */
static inline void play_ctrl_plus(PlayState *ps, bool shift_first)
{
    SDL_Scancode a = shift_first ? SDL_SCANCODE_LSHIFT : SDL_SCANCODE_LCTRL;
    SDL_Scancode b = shift_first ? SDL_SCANCODE_LCTRL : SDL_SCANCODE_LSHIFT;
    Uint16 ma = shift_first ? KMOD_LSHIFT : KMOD_LCTRL, both = KMOD_LCTRL | KMOD_LSHIFT;
    play_key_event(ps, SDL_KEYDOWN, a, ma);
    play_key_event(ps, SDL_KEYDOWN, b, both);
    play_key_event(ps, SDL_KEYDOWN, SDL_SCANCODE_EQUALS, both);
    play_key_event(ps, SDL_KEYUP, SDL_SCANCODE_EQUALS, both);
    play_key_event(ps, SDL_KEYUP, b, ma);
    play_key_event(ps, SDL_KEYUP, a, KMOD_NONE);
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
