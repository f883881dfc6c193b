/* `netrace play`: two to four players on one machine, split screen (side
 * by side for two, a 2 x 2 grid for three or four), each screen showing the
 * race as that player's terminal displays it under the chosen scheme; race flow (grid, lights, laps, finish, results per terminal),
 * pause / restart / quit, the live overview of every scheme (--watch), the
 * replay window on the race just driven, recording while driving.
 *
 * The app owns the wall clock: each frame it reads the controls, advances
 * the live race (liverace.h) by the wall time elapsed (unless paused), and
 * draws. docs/play.md has the keys and the layout.
 *
 * Contracts:
 *   play_run_window(cfg)  opens the window and runs races until quit (Q on
 *        the pause or results screen, Ctrl-Q, window close, SIGINT/SIGTERM);
 *        every recording is finalised before it returns. With
 *        cfg->bench_frames > 0 it drives that many frames with the race
 *        advancing 1/60 s per frame (bots or scripts at the wheel, keys and
 *        pads idle), prints frame-time statistics and returns. Returns 0, or
 *        1 when the display or window could not be opened, a recording
 *        could not be created or the seats are not 2 to PLAY_SEATS (one
 *        line on stderr), never exits.
 */
#ifndef NR_PLAY_H
#define NR_PLAY_H

#include "liverace.h"

typedef enum PlayerKind { PLAYER_KEYS, PLAYER_PAD, PLAYER_BOT, PLAYER_SCRIPT } PlayerKind;

/* Seats of a game: players 1 and 2 may drive with keys, every seat with a
 * pad, a bot or a script. The race has race.ncars of them (0 = 2). */
#define PLAY_SEATS 4

/* Makes the core controllers of a race (again: a restart rewinds scripts and
 * reseeds bots): fills ctl[j] for the bot and script players; the previous
 * ones made through the same ctx are no longer used. */
typedef bool (*PlayMakeControllers)(void *ctx, Controller ctl[PLAY_SEATS], NrError *err);

typedef struct PlayConfig {
    LiveRaceConfig race;      /* rec_path = the first race's recording; ncars the seats (2 to PLAY_SEATS) */
    PlayerKind kind[PLAY_SEATS];
    PlayMakeControllers make_ctl;
    void *make_ctx;
    /* the recording and inputs paths of race n = 2, 3, ... (restarts) */
    bool (*next_rec_path)(void *ctx, int n, char *rec, char *inputs, size_t len);
    /* opens the replay window on a finished race's recording (0 = shown;
     * else why holds one line for the screen) */
    int (*open_replay)(void *ctx, const char *rec_path, char *why, size_t n);
    const char *keys_path;    /* key map file; NULL = defaults */
    const char *pad_mappings; /* SDL gamecontroller mappings; NULL = none */
    const char *assets_dir;   /* NULL = assets/ found like the bundled files */
    const char *font_path;    /* NULL = gfx_default_font */
    const char *shot_dir;     /* F12 screenshots; NULL = "." */
    const char *title;
    int width, height;        /* 0 = 1280 x 720 */
    bool fullscreen;
    double scale;             /* text scale (--scale, Ctrl +/-); 0 = 1 */
    const char *links_text;   /* N cars or cs: the race's links for the overview's
                               * status line (no link controls); NULL = two-car p2p */
    bool watch;               /* open the overview window at the start (and in
                               * the benchmark, draw it every frame) */
    bool camera_rotate;       /* the screens turn with the car (C toggles) */
    bool mute;                /* no sound (M toggles) */
    bool lagometer;           /* start with the lagometers shown (F2; the engine
                               * keeps its rings: race.engine.lagometer) */
    int bench_frames;
    /* Blinding (a study): the players' screens name no scheme and no link;
     * the HUD's right side shows hud_note instead (NULL = nothing). */
    bool blind;
    const char *hud_note;
    /* A session drives the races (a study's screen, studywin.h): no restart,
     * replay, overview or quit keys (Ctrl-Q and closing the window end the
     * session), no grid or results box; the countdown starts when the
     * session says. */
    bool session;
} PlayConfig;

int play_run_window(const PlayConfig *cfg);

#endif
