/* Network play's driving window, its parts shared by the loop (netwin.c)
 * and the drawing (netwin_draw.c): the window's state and the functions
 * between them.
 *
 * Contracts:
 *   netwin_hud_in(nr)          what the driving screen's instruments read of
 *        the race (drivehud.h).
 *   netwin_view_make(nw, nr)   the view (AppState) once the track is known.
 *   netwin_frame_draw(nw, nr, w, h)  one frame: waiting, the race or the
 *        track, the boxes over it (clock sync, pause, results, help, a
 *        message, a failure).
 */
#ifndef NR_NETWIN_INTERNAL_H
#define NR_NETWIN_INTERNAL_H

#include "netwin.h"
#include "netwin_race.h"
#include "overwin.h"
#include "play_internal.h"
#include "widgets.h"

typedef struct NetWin {
    const NetWinConfig *cfg;
    Session *session;
    WinLoop loop;
    AppState *view;      /* heap; made when the track is known (the joiner learns it from the host) */
    Gfx gfx0;            /* text before the track (and the view's fonts) exist */
    bool have_gfx0;
    WidgetSprites sprites;
    OverWin watch;       /* every scheme's overview in a second window (Tab, --watch) */
    bool want_watch;
    NetHistory *hist;    /* the overview's charts (heap), kept from the start */
    RaceData data;       /* the overview's data of this frame */
    bool have_data;      /* data filled at least once */
    PlayKeys keys;
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
    bool lag;            /* the lagometer shown (F2) */
    LagNetHist *net;     /* the clock sync's round trips for it (heap) */
    RecMark marks[PLAY_MARKS]; /* this terminal's marks (F3), for the strips and the charts */
    int nmarks, marks_total;
} NetWin;

DriveHudIn netwin_hud_in(const NetRace *nr);
void netwin_view_make(NetWin *nw, const NetRace *nr);
void netwin_frame_draw(NetWin *nw, const NetRace *nr, int w, int h);

#endif
