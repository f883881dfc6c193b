/* The study screen's state, its step and its drawing without a window:
 * the tests drive these (studywin.h says what the screen does).
 *
 * Contracts:
 *   studywin_event(sw, ev)      one SDL event: the race's keys and pads go
 *        to the game while a race runs; on the cards and rating screens each
 *        player's own keys and pad (keys: throttle up, brake down, right or
 *        mark confirm; pads: d-pad or left stick, A or d-pad right).
 *   studywin_advance(sw, dt)    the screen's clock, the race, the holds.
 *   studywin_draw(sw, w, h)     the phase's screen (studywin_draw.c): each
 *        player's rater (studyrate.h) on their half.
 */
#ifndef NR_STUDYWIN_INTERNAL_H
#define NR_STUDYWIN_INTERNAL_H

#include "play_internal.h"
#include "studyrate.h"
#include "studywin.h"

typedef enum StudyPhase {
    SW_CARD,     /* "Race 3 of 10": waiting for both players */
    SW_RACE,     /* countdown and race (the game) */
    SW_FINISHED, /* the finished race held on screen */
    SW_RATE,     /* the rating screens */
    SW_BREAK,    /* a break: waiting for both players */
    SW_DONE,     /* the session is complete */
    SW_OVER,     /* a hook failed: the window closes */
} StudyPhase;

struct StudyWin {
    const StudyWinConfig *cfg;
    PlayState *ps;
    StudyStep step;
    StudyPhase phase;
    int64_t clock_us;   /* wall time since open, stalls clipped */
    int64_t phase_us;   /* clock_us when the phase began */
    bool ready[2];      /* on a card: the player pressed a key */
    StudyRater rater[2];
    StudyWinResult result;
    bool want_quit, want_shot, want_fullscreen;
    int font_base;      /* the text size of the cards and rating screens */
};

void studywin_event(StudyWin *sw, const SDL_Event *ev);
void studywin_advance(StudyWin *sw, int64_t wall_dt_us);
void studywin_draw(StudyWin *sw, int w, int h);

#endif
