/* The network window's state, shared by its race screen (netwin.c) and its
 * study screens (netwin_study.c): netwin.h says what the window does.
 *
 * Contracts (netwin_study.c, called by netwin.c's screen when cfg->study):
 *   netwin_study_attach(nw)    a new race's session attached (or none):
 *        the rating state of the race before dropped.
 *   netwin_study_event(nw, ev)  one SDL event: the window closed or Ctrl-Q
 *        (the study stops), the mark key while racing, the rating keys and
 *        pad; Q, Esc, Tab and H do nothing (a subject cannot leave a race by
 *        a slip).
 *   netwin_study_advance(nw, dt)  the screen's clock; the finish held, then
 *        the rating screen once cfg->study->can_rate says so.
 *   netwin_study_draws(nw, nr, w, h)  the study's own screens (no race
 *        attached, before the race, rating, thank-you, the end) drawn:
 *        true; false when the race screen is drawn (netwin.c).
 *   netwin_study_boxes(nw, nr, w, h)  over the race: "Finished".
 *   netwin_study_hud(nw, nr, buf, n)  the HUD's right text under blinding:
 *        "race i of n" only (no scheme, no clock, no round trip).
 */
#ifndef NR_NETWIN_INTERNAL_H
#define NR_NETWIN_INTERNAL_H

#include "netwin.h"
#include "netwin_race.h"
#include "overwin.h"
#include "play_internal.h"
#include "studyrate.h"

typedef enum NetWinStudyPhase {
    NWS_WAIT,     /* no race's session yet, or between two */
    NWS_RACE,     /* the race's session: card, countdown, race, finish */
    NWS_RATE,     /* this end's player rates */
    NWS_THANKS,   /* rated: waiting for the other end */
} NetWinStudyPhase;

/* The study's screens across the races' sessions (netwin_study.c). */
typedef struct NetWinStudyState {
    NetWinStudyPhase phase;
    int64_t clock_us;     /* the screen's clock (the frames' time, stalls clipped) */
    int64_t finished_us;  /* clock_us when the race was seen finished; -1 not yet */
    NetStudyRace race;    /* the attached session's study race (the last one between races) */
    bool have_race;
    StudyQuestion q[STUDY_MAX_QUESTIONS];
    bool given[STUDY_MAX_QUESTIONS];
    StudyRater rater;
    bool done_said;       /* the hooks heard this race's done */
    bool over;            /* netwin_study_over: the last screen */
    bool complete;
    char why[160];
    int font_base;
} NetWinStudyState;

struct NetWin {
    const NetWinConfig *cfg;
    Session *session;    /* NULL between a study's races */
    WinLoop loop;
    AppState *view;      /* heap; made when the track is known (the joiner learns it from the host) */
    const Track *view_track;
    Gfx gfx0;            /* text before the track (and the view's fonts) exist */
    bool have_gfx0;
    WidgetSprites sprites;
    OverWin watch;       /* every scheme's overview in a second window (Tab, --watch) */
    bool want_watch;
    NetHistory *hist;    /* the overview's charts (heap), kept from the start */
    RaceData data;       /* the overview's data of this frame */
    PlayKeys keys;
    PlayPads pads;
    const Uint8 *key_state;
    double steer;        /* keyboard steering after the ramp */
    double throttle;     /* the throttle read this frame (the engine's sound) */
    DriveHud hud;        /* the game's camera, gap, feedback of hits (drivehud.h) */
    Sound snd;           /* the game's sounds (sound.h) */
    int lights_beeped;
    bool quit, help, shot, fullscreen;
    bool after_race;     /* the standings are up: Enter closes them too */
    bool failed;         /* the race failed: msg says why, in a box until closed */
    char msg[256];
    int msg_frames;
    volatile sig_atomic_t *stop;
    bool lag;            /* the lagometer shown (F2; never in a study) */
    LagNetHist *net;     /* the clock sync's round trips for it (heap) */
    RecMark marks[PLAY_MARKS]; /* this terminal's marks, for the strips and the charts */
    int nmarks, marks_total;
    NetWinStudyState st;
};

/* The mark keys (Shift / a pad's Y: dissatisfied; F3: mark) into the log. */
void netwin_mark(NetWin *nw, const char *kind);
void netwin_study_attach(NetWin *nw);
void netwin_study_event(NetWin *nw, const SDL_Event *ev);
void netwin_study_advance(NetWin *nw, int64_t wall_dt_us);
bool netwin_study_draws(NetWin *nw, const NetRace *nr, int w, int h);
void netwin_study_boxes(NetWin *nw, const NetRace *nr, int w, int h);
void netwin_study_hud(const NetWin *nw, char *buf, size_t n);

#endif
