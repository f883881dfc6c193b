/* The network window's state, shared by its loop (netwin.c), its drawing
 * (netwin_draw.c) and its study screens (netwin_study.c): netwin.h says
 * what the window does.
 *
 * Contracts (netwin.c):
 *   netwin_mark(nw, kind)      a mark key (Shift / a pad's Y: dissatisfied;
 *        F3: mark) into the log, kept for the strips; the screen says so.
 *   netwin_scale_key(nw, k)    Ctrl + / - / 0 taken (the text scale, the
 *        view's too): true; false for any other key.
 *   netwin_view_drop(nw)       the view freed (its track is the race
 *        before's); netwin_view_make makes the next.
 * Contracts (netwin_draw.c):
 *   netwin_hud_in(nr)          what the driving screen's instruments read of
 *        the race (drivehud.h).
 *   netwin_view_make(nw, nr)   the view (AppState) once the track is known;
 *        a new one when the track changed (a study's next race).
 *   netwin_frame_draw(nw, nr, w, h)  one frame: waiting, a study's own
 *        screens, the race or the track, the boxes over it (clock sync,
 *        pause, results, help, a message, a failure).
 * Contracts (netwin_study.c, called by the screen when cfg->study):
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
#include "widgets.h"

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
    bool rested;          /* a race after a plan's break: this end's player pressed a key */
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
    bool have_data;      /* data filled at least once */
    PlayKeys keys;
    PlayKeyGate gate; /* a player's key acts alone (playkeys_gate) */
    PlayPads pads;
    const Uint8 *key_state;
    double steer;        /* keyboard steering after the ramp */
    double throttle;     /* the throttle read this frame (the engine's sound) */
    DriveHud hud;        /* the game's camera, gap, feedback of hits (drivehud.h) */
    Sound snd;           /* the game's sounds (sound.h) */
    int lights_beeped;
    bool quit, help, shot, fullscreen;
    double scale;        /* text scale: --scale, then Ctrl +/- */
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

void netwin_mark(NetWin *nw, const char *kind);
bool netwin_scale_key(NetWin *nw, const SDL_KeyboardEvent *k);
void netwin_view_drop(NetWin *nw);
DriveHudIn netwin_hud_in(const NetRace *nr);
void netwin_view_make(NetWin *nw, const NetRace *nr);
void netwin_frame_draw(NetWin *nw, const NetRace *nr, int w, int h);
void netwin_study_attach(NetWin *nw);
void netwin_study_event(NetWin *nw, const SDL_Event *ev);
void netwin_study_advance(NetWin *nw, int64_t wall_dt_us);
bool netwin_study_draws(NetWin *nw, const NetRace *nr, int w, int h);
void netwin_study_boxes(NetWin *nw, const NetRace *nr, int w, int h);
void netwin_study_hud(const NetWin *nw, char *buf, size_t n);

#endif
