/* A study session in the window (docs/studies.md): every race of a pair's
 * order in one window with no experimenter input between races. For each
 * race a card ("Race 3 of 10", practice races and breaks too) until both
 * players are ready, the countdown and the race on the game's screens
 * (play_*.c, blind unless the plan says otherwise), a moment to see the
 * finish, then a rating screen on each player's half; then the next race.
 * The screen is one WinScreen of the one window loop (winloop.h).
 *
 * The session (src/cli) decides what comes next and keeps what is given,
 * through hooks: this screen knows no files, no order and no plan beyond
 * its questions.
 *
 * Rating: each player on their own half, each at their own pace, on a
 * rater (studyrate.h: one question at a time, the ACR grades or yes / no);
 * the player's up and down (keys: throttle and brake, W / S and Up / Down
 * by default; pads: d-pad or left stick) move the choice and confirm
 * (keys: the player's right or mark key; pads: A or d-pad right) gives it:
 * the answer goes to the hooks at once with its response time. An answer
 * given is final. A player done waits for the other.
 *
 * Contracts:
 *   studywin_open(sw, cfg, r, err)  the game's state on cfg->play (its race:
 *        an unrecorded race on the first condition's track, shown behind
 *        the first card), then the first step from hooks.next. False + err
 *        (nothing held) when the game cannot start; a failing hook leaves
 *        the screen over at once (studywin_result STUDYWIN_FAILED).
 *   studywin_screen(sw)     the WinScreen of the session (winloop_run it;
 *        a test drives winloop_frame itself).
 *   studywin_result(sw)     STUDYWIN_DONE after the last step was reached,
 *        STUDYWIN_FAILED after a hook failed (the hook said why),
 *        STUDYWIN_CLOSED when the window was closed or Ctrl-Q pressed
 *        before (--resume continues).
 *   studywin_close(sw)      finalises the race in progress (a race cut
 *        short is kept as its recording says: liverace.h), frees all.
 *   studywin_run(cfg)       opens the window (winloop.h), runs the session,
 *        closes; the StudyWinResult, or STUDYWIN_FAILED after one line on
 *        stderr when the window or the game cannot open.
 */
#ifndef NR_STUDYWIN_H
#define NR_STUDYWIN_H

#include "play.h"
#include "studyplan.h"
#include "studyrate.h"
#include "winloop.h"

#define STUDYWIN_FINISH_US (2000 * NR_US_PER_MS) /* the finished race stays on screen */

typedef enum StudyStepKind { STUDY_STEP_RACE, STUDY_STEP_RATE, STUDY_STEP_BREAK, STUDY_STEP_DONE } StudyStepKind;

/* What comes next, as the session says it. */
typedef struct StudyStep {
    StudyStepKind kind;
    int race;                 /* RACE, RATE: 1-based index in the order */
    int nraces;               /* races in the order */
    bool practice;            /* RACE: an unrated practice race */
    int rated_done, rated_left; /* BREAK: rated races driven and still to come */
    const PlayConfig *play;   /* RACE: the race (the session's until its next step after this one) */
    bool given[2][STUDY_MAX_QUESTIONS]; /* RATE: answers given before (a resumed session) */
    bool stopped;             /* DONE: the session stops here for now (--stop-after) */
    char shown[96];           /* RACE: the condition for the players' card when the plan does
                               * not blind them ("condition B: dr"); "" under blinding */
} StudyStep;

typedef struct StudyWinHooks {
    void *ctx;
    /* the step after the current one (the first: at open); false + err
     * ends the session */
    bool (*next)(void *ctx, StudyStep *step, NrError *err);
    /* the RACE step's race reached its end (RF_DONE, recording closed) */
    bool (*race_done)(void *ctx, LiveRace *lr, NrError *err);
    /* player (1, 2) answered question q of race (score as ratings.csv has
     * it: 1..5, or 1 yes / 0 no) after response_ms */
    bool (*answer)(void *ctx, int race, int player, int q, int score, int64_t response_ms, NrError *err);
} StudyWinHooks;

typedef struct StudyWinConfig {
    StudyWinHooks hooks;
    const StudyPlan *plan; /* the questions */
    PlayConfig play;       /* the window and the players; its race: unrecorded, the first track */
} StudyWinConfig;

typedef enum StudyWinResult { STUDYWIN_DONE, STUDYWIN_CLOSED, STUDYWIN_FAILED } StudyWinResult;

typedef struct StudyWin StudyWin;

bool studywin_open(StudyWin **sw, const StudyWinConfig *cfg, SDL_Renderer *r, NrError *err);
WinScreen studywin_screen(StudyWin *sw);
StudyWinResult studywin_result(const StudyWin *sw);
void studywin_close(StudyWin *sw);
StudyWinResult studywin_run(const StudyWinConfig *cfg);

#endif
