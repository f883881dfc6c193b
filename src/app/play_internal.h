/* The game's state, frame step and drawing without a window: the tests
 * drive these on a software renderer bound to a memory surface.
 *
 * Contracts:
 *   play_state_init(ps, cfg, r, err)  binds the renderer (not owned), loads
 *        the key map, the pad mappings and the assets (a missing asset: one
 *        line on stderr, plain shapes), starts the first race on its grid.
 *        False + err on a bad key map / mapping file or a race that cannot
 *        start (recording not creatable).
 *   play_state_free(ps)             finalises the recording, frees all.
 *   play_handle_event(ps, ev)       one SDL event of the game window (keys,
 *        pads, resize, quit); window-level requests land in ps->want_*.
 *   play_frame(ps, wall_dt_us)      one frame's logic: reads the controls,
 *        runs the grid / countdown on the app clock, advances the race by
 *        the wall time (nothing while paused or on the results screen).
 *   play_draw(ps, w, h)             draws every player's screen, the lights,
 *        the overlays (pause, help, results).
 *   play_screen_rect(ps, j, w, h)   player j's screen in a w x h window
 *        (play_layout.c): two players side by side (P1 left), three or four
 *        in a 2 x 2 grid (P1 top left, P2 top right, P3 bottom left, P4
 *        bottom right); the screens do not overlap and leave a 2 px frame
 *        between them.
 *   play_message_rect(ps, w, h, bw, bh)  where the transient message's box
 *        of bw x bh goes: centred, just above the bottom row's instruments
 *        (speedometer, minimap, lagometer), so it covers none of them (it
 *        sat on P2's "cw/s" at the bottom).
 *   play_screen_xform(ps, j, w, h, &x)  the camera of player j's screen.
 *   play_view_xform(ps, j, viewport, &x)  the camera of player j in any
 *        viewport rectangle (each screen is drawn from its rectangle only):
 *        its DriveHud's (drivehud.h), which play_frame moves on.
 *   play_place(v, ncars, j)         car j's place (1 = first) in view v: the
 *        cars shown further along, a tie to the later car (engine_view).
 *   play_links_text(ps, j, buf, n)  the lines that bring the other cars to
 *        screen j, in short ("links →3 75±10 ms"; "cs relay ↑75±10 ms
 *        ↓150±20 ms": the others' uplinks, then the server's line to j);
 *        false for two cars over p2p without pair lines (the HUD
 *        then names the live link 2→1 / 1→2 as it always did).
 *   play_screen_pan(ps, j)          where player j's screen sits, for its
 *        sounds: -1 left .. 1 right.
 *   play_lights_to_go(ps)           the race time the start lights show:
 *        negative in the countdown, INT64_MIN on the grid (widget_lights).
 *   play_feedback(ps, dt_s)         the screens' cameras, gaps and hits and
 *        the sounds, after a frame's logic (play_frame calls it).
 *   play_shown_pose(ps, j, car, &p) the pose player j's screen shows for car:
 *        the engine's view of terminal j under the shown scheme; for the own
 *        car, when the scheme shows it where it truly is, the physics pose
 *        of this instant (so the own car moves every frame, not every 33 ms
 *        sample).
 *   play_restart(ps, err)           a new race on the grid (the current
 *        recording finalised; the next one gets the next name).
 *   play_next_race(ps, cfg, err)    a new race on the grid under another
 *        config (a study's next race: its own links, scheme, recording):
 *        the current race finalised, keys, pads and sprites kept, the view
 *        rebuilt when the track differs. cfg is borrowed until the next call
 *        or play_state_free.
 *   play_mark(ps, player, kind)     the one path of the mark keys while
 *        racing (liverace_mark): a player's Shift / pad Y (player 1..N,
 *        kind dissatisfied: their screen shows "marked" for a second) or
 *        F3 (player 0, kind mark: the message line says where it went).
 *        The recording gets it at once; the latest PLAY_MARKS are kept for
 *        the lagometers and the overview's charts. False (F3: said) when
 *        the race is not running or the mark cannot be written.
 */
#ifndef NR_PLAY_INTERNAL_H
#define NR_PLAY_INTERNAL_H

#include "app_internal.h"
#include "play.h"
#include "play_input.h"
#include "drivehud.h"
#include "sound.h"
#include "widgets.h"

#define PLAY_MSG_FRAMES 240
#define PLAY_MSG_MAX 256
#define PLAY_MARKS 256 /* marks drawn (the latest; the recording keeps every one) */

typedef struct PlayState {
    const PlayConfig *cfg;
    int nseats;           /* players = cars = terminals (2 to PLAY_SEATS) */
    SDL_Renderer *r;
    AppState *view;       /* drawing context: fonts, track geometry, the track and car shapes */
    LiveRace *lr;
    Controller ctl[PLAY_SEATS]; /* bots and scripts */
    PlayKeys keys;
    PlayPads pads;
    const Uint8 *key_state; /* SDL_GetKeyboardState, or a test's array */
    WidgetSprites sprites; /* the cars (NULL: plain shapes) and the window icon */

    int64_t flow_us;       /* app clock, pauses excluded */
    int64_t race_us;       /* race time driven */
    int race_no;           /* 1, 2, ... (restarts) */
    char rec_path[4096];   /* this race's recording */
    char inputs_path[4096];
    bool rec_failed;
    bool announced;        /* "wrote FILE" said for this race's files */
    int script_seen;       /* link-script changes already announced */

    bool paused, help;
    bool help_paused;      /* the help overlay paused the race (closing it resumes) */
    char pause_why[160];   /* e.g. which player lost the gamepad */
    double steer[PLAY_SEATS];  /* keyboard steering after the ramp */
    PlayControl in[PLAY_SEATS]; /* the controls read this frame */

    DriveHud hud[PLAY_SEATS]; /* each screen's camera, gaps, feedback of hits */
    DriveCamMode cam_mode;
    Sound snd;             /* opened by the window (play_run_window); zero: silent */
    int lights_beeped;     /* drivehud_lights_sound's */

    bool want_quit, want_shot, want_fullscreen, want_watch, want_replay;
    char msg[PLAY_MSG_MAX];
    int msg_frames;
    int64_t marked_until_us[PLAY_SEATS]; /* flow time until which "marked" shows */

    bool lag;              /* the lagometers shown (F2) */
    RecMark marks[PLAY_MARKS]; /* this race's marks (every key's), in time order */
    int nmarks, marks_total;
} PlayState;

bool play_state_init(PlayState *ps, const PlayConfig *cfg, SDL_Renderer *r, NrError *err);
void play_state_free(PlayState *ps);
void play_handle_event(PlayState *ps, const SDL_Event *ev);
void play_frame(PlayState *ps, int64_t wall_dt_us);
void play_draw(PlayState *ps, int w, int h);
SDL_FRect play_screen_rect(const PlayState *ps, int j, int w, int h);
SDL_FRect play_message_rect(const PlayState *ps, int w, int h, float bw, float bh);
void play_screen_xform(const PlayState *ps, int j, int w, int h, AppXform *x);
void play_view_xform(const PlayState *ps, int j, const SDL_FRect *viewport, AppXform *x);
int play_place(const EngineView *v, int ncars, int j);
bool play_links_text(const PlayState *ps, int j, char *buf, size_t n);
/* The frame between the screens and, with three players, the fourth cell
 * (play_layout.c); the start lights where the layout puts them. */
void play_layout_frame(PlayState *ps, int w, int h);
void play_layout_lights(PlayState *ps, int w, int h);
/* Screen j's start lights in the 2 x 2 grid (three or four players): the
 * base they are drawn at and their panel, inside the screen; at least a
 * legible floor (LIGHTS_BASE_MIN, play_layout.c) unless the screen is
 * smaller than that, over the instruments when they leave less room. */
typedef struct PlayLights {
    float base;
    SDL_FRect panel;
} PlayLights;
PlayLights play_lights_place(const PlayState *ps, int j, int w, int h);
/* The grid box and the results box of N players (play_board.c). */
void play_grid_box(PlayState *ps, int w, int h);
void play_results_box(PlayState *ps, int w, int h);
/* What player j drives with, for the HUD and the grid: "keys W/A/S/D",
 * the pad's name, "bot", "script". */
const char *play_kind_text(const PlayState *ps, int j, char *buf, size_t n);
double play_screen_pan(const PlayState *ps, int j);
int64_t play_lights_to_go(const PlayState *ps);
void play_feedback(PlayState *ps, double dt_s);
void play_shown_pose(const PlayState *ps, int j, int car, Pose *out);
bool play_restart(PlayState *ps, NrError *err);
bool play_next_race(PlayState *ps, const PlayConfig *cfg, NrError *err);
bool play_mark(PlayState *ps, int player, const char *kind);
/* The HUD's right side of player j's screen: the scheme and the link that
 * brings the other car ("nc · link 2→1 75±10 ms"), or under blinding only
 * cfg->hud_note; "MARKED" for a second after the player's mark. */
void play_hud_right(const PlayState *ps, int j, char *buf, size_t n);
#define PLAY_MARK_SHOW_US (1000 * NR_US_PER_MS)
void play_message(PlayState *ps, const char *fmt, ...) NR_PRINTF(2, 3);
/* A driving screen's frame starts: text sizes follow the window (a base of
 * 1/42 of its height or 1/72 of its width, 10 to 40 px). */
void play_frame_scale(AppState *v, int w, int h);
/* Steering of a digital (key) control after the ramp: moves towards target
 * at PLAY_STEER_RATE per second, back to centre at PLAY_CENTRE_RATE. */
double play_steer_ramp(double current, double target, double dt_s);
/* The H overlay's lines (n of them): keys, pads, reversing, the scheme. */
const char *const *play_help_lines(int *n);
/* The same in a session (a study's race): driving, the mark key, pause. */
const char *const *play_session_help_lines(int *n);
#define PLAY_STEER_RATE 6.0   /* full lock in about 0.17 s */
#define PLAY_CENTRE_RATE 10.0 /* centred in 0.1 s */

#endif
