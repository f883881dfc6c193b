/* Everything the network window reads of the network race and hands to it,
 * in one place: the only file of src/app that calls the session
 * (src/net/session.h) and the network terminal (netterm.h). When those are
 * renamed or replaced, this file changes and nothing else in the window.
 *
 * Contracts:
 *   netwin_race_read(s, &nr)   the frame's picture of the race: the session's
 *        status, the track (NULL until known), this terminal's car, the shown
 *        scheme, both cars as its screen shows them (the own car at its
 *        physics pose when the scheme shows it where it is), speeds, the own
 *        car's contacts, the race flow; racing false until the race's
 *        settings are known and the countdown began.
 *   netwin_race_data(s, hist, &d)  the overview's data (racedata.h): every
 *        scheme's live metrics, the history kept in hist (one sample added
 *        per frame in which the metrics moved on), this terminal's view of
 *        each scheme, and the peer's as its latest VIEW packet said
 *        (netwin_race_peer); the lagometer's rings of this terminal (the
 *        peer's MUs are not known here) and Delta. False before the race
 *        exists.
 *   netwin_race_peer(e, k, peer, now_us, d)  the peer's screen under scheme
 *        k from engine e's latest view of remote terminal peer
 *        (engine_remote_view) into d->view[k][peer], d->known[k][peer] and
 *        d->late_us[peer] (race time now_us minus that view's sample time:
 *        one network delay and up to a sample period). False, known false,
 *        when no view of the peer has arrived yet.
 *   netwin_race_pause_text(st, why, n)  the pause box's reason into why
 *        (which end stopped: this terminal stalled for X s, the peer
 *        silent for X s, or the peer asked) and returns its last line (how
 *        the race goes on).
 *   netwin_race_wait_text(nr, l2, l3, n)  the screen before the race is
 *        known: returns its title; l2 the join code (the host's, for the
 *        joiner to type; the joiner's, as given), l3 what to do or what it
 *        waits for (n bytes each).
 *   netwin_race_error(s)  why the race did not complete (session_error).
 *   netwin_race_input(s, in)   this terminal's controls to the session.
 *   netwin_race_mark(s, kind, &race_us, &logged)  a mark key (session_mark).
 *   netwin_race_own_car(s)     this terminal's car (1-based; 0 a server).
 *   netwin_race_pose(countdown, shown, grid, &out)  the pose a screen draws
 *        for a car: its grid slot in the countdown (the terminal starts at
 *        race time 0), else what the scheme shows, a prediction (seq -1)
 *        included.
 *   netwin_race_run(s, frame, ctx, stop)  runs the session to its end with
 *        frame(ctx) called on its loop (false from it leaves the race);
 *        true when the race completed.
 *   netwin_race_attach(s, frame, ctx)  frame(ctx, s) called on the session's
 *        loop from now on (a caller's own loop of session_step).
 *   netwin_race_study_rested(s)  this end's player is done with the break
 *        before the race (session_study_rested).
 *   netwin_race_study(s)  the session's study race (NULL: none, or not
 *        known yet).
 */
#ifndef NR_NETWIN_RACE_H
#define NR_NETWIN_RACE_H

#include "racedata.h"
#include "raceflow.h"
#include "session.h"

#define NETWIN_HIST 4096 /* metric samples kept per scheme (the older half dropped when full) */

typedef struct NetRace {
    SessionStatus st;
    const Track *track;   /* NULL until the host's track is known */
    bool host;
    unsigned port;        /* the UDP port of this terminal */
    char code[WIRECRYPT_CODE_TEXT]; /* the join code as shown (XXXXX-XXXXX); "" in clear */
    bool racing;          /* the race exists and the countdown began */
    int me;               /* this terminal's car */
    const char *shown;    /* the scheme on the screen */
    int ncars;            /* the race's cars (2 to 8) */
    Pose pose[ENGINE_MAX_CARS]; /* every car as this screen shows them */
    double speed;         /* own speed along the heading (cw/s) */
    const WorldContact *contact; /* own car's contacts (the wall); NULL before the race */
    const RaceFlow *rf;
    /* the lagometer of this screen: the shown scheme's ring at this
     * terminal (NULL when the engine keeps none), the engine's race time,
     * the sampling period and Delta when the scheme holds MUs (else 0) */
    const LagRing *lag;
    int64_t lag_now_us, period_us, limit_us;
} NetRace;

typedef struct NetHistory {
    MetricSample s[SCHEME_MAX][NETWIN_HIST];
    int n[SCHEME_MAX];
    int64_t seen[SCHEME_MAX]; /* the metrics' sample count at the last one added */
} NetHistory;

void netwin_race_read(Session *s, NetRace *nr);
void netwin_race_pose(bool countdown, const Pose *shown, const Pose *grid, Pose *out);
bool netwin_race_data(Session *s, NetHistory *hist, RaceData *d);
bool netwin_race_peer(const Engine *e, int k, int peer, int64_t now_us, RaceData *d);
const char *netwin_race_pause_text(const SessionStatus *st, char *why, size_t n);
const char *netwin_race_wait_text(const NetRace *nr, char *l2, char *l3, size_t n);
const char *netwin_race_error(const Session *s);
void netwin_race_input(Session *s, const CarInput *in);
bool netwin_race_mark(Session *s, const char *kind, int64_t *race_us, bool *logged);
int netwin_race_own_car(Session *s);
bool netwin_race_run(Session *s, bool (*frame)(void *ctx), void *ctx, volatile sig_atomic_t *stop);
void netwin_race_attach(Session *s, bool (*frame)(void *ctx, Session *s), void *ctx);
const NetStudyRace *netwin_race_study(const Session *s);
void netwin_race_study_rested(Session *s);

#endif
