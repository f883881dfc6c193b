/* The netrace window: every scheme's two player views side by side, live
 * gauges, strip charts and live controls; the same drawing offscreen to PNG.
 *
 * The app owns the wall clock and steps the replay (replay.h) to (wall time
 * x speed); it only draws what the engine says (engine_view, engine_truth,
 * engine_metrics, engine_history, engine_in_flight) and changes the engine
 * only through its live-change calls (engine_set_link, engine_set_params,
 * engine_reset_metrics, replay_restart).
 *
 * Contracts:
 *   app_run_window(cfg)   opens a resizable window on cfg->replay and runs the
 *        live replay until the window is closed, Q / Ctrl-Q is pressed, or
 *        SIGINT / SIGTERM arrives. With cfg->bench_frames > 0 it instead
 *        renders that many overview frames as fast as possible, prints the
 *        frame-time statistics to stdout and returns. Returns 0 on a clean
 *        exit, 1 when the display, renderer or font could not be opened (one
 *        line on stderr), never exits the process.
 *   app_render_snapshot(r, cfg, t_us, png, w, h, err)  steps replay r to the
 *        last sample instant at or before race time t_us (restarting it
 *        first when t_us < engine_now) and writes what the
 *        window would show at that time, w x h pixels, to png. Needs no
 *        display: it draws into a memory surface with SDL's software
 *        renderer. A missing font prints one line and draws without text.
 *        With cfg->script, e must be fresh (t = 0, its initial links): the
 *        script's changes are applied on the way to t_us.
 *        Returns 0 on success, 1 + err on failure (bad size, unwritable file).
 */
#ifndef NR_APP_H
#define NR_APP_H

#include "linkscript.h"
#include "replay.h"

enum {
    APP_OVERLAY_GHOST = 1u << 0,    /* the remote car's true position */
    APP_OVERLAY_TRAILS = 1u << 1,   /* recent displayed positions */
    APP_OVERLAY_INFLIGHT = 1u << 2, /* MUs in flight towards the terminal */
};

typedef struct AppConfig {
    Replay *replay;          /* borrowed; app_run_window steps it */
    const char *title;       /* shown in the title bar (e.g. the recording); NULL ok */
    const char *font_path;   /* NULL: gfx_default_font */
    const char *table_dir;   /* netem tables for live link changes; NULL = system */
    const char *shot_dir;    /* where F12 / P screenshots go; NULL = ~/Pictures/netrace (see docs/window.md) */
    int width, height;       /* initial window size; 0 = 1280 x 720 */
    double speed;            /* replay speed, 0 = 1.0; clamped to 0.25 .. 8 */
    bool fullscreen;
    bool paused;             /* start paused */
    bool loop;               /* restart at the race end */
    int focus;               /* -1 = overview, k = scheme k large; 0 is a valid focus */
    unsigned overlays;       /* APP_OVERLAY_* bits */
    int bench_frames;        /* > 0: render N overview frames, print timings, return */
    bool quiet;              /* no informative lines on stdout */
    double wall_cw;          /* draw a wall this far beyond each track edge (car
                              * widths; the physics' CAR_GRASS_CW); 0 = none */
    bool live;               /* someone else drives the engine (the game's overview
                              * window): no pause, step, restart, loop or speed */
    const LinkScript *script; /* borrowed; link changes applied at their race
                               * times (shown in the top bar); NULL = none.
                               * A restart (R, loop) puts the links back as
                               * they were at the start and replays it. */
    bool lagometer;          /* start with the lagometer shown (F2 toggles; the
                              * engine must keep its rings: EngineConfig.lagometer) */
} AppConfig;

/* A zeroed AppConfig with focus = -1 (overview) and speed 1. */
AppConfig app_config_default(void);

int app_run_window(const AppConfig *cfg);
int app_render_snapshot(Replay *r, const AppConfig *cfg, int64_t t_us, const char *png_path,
                        int w, int h, NrError *err);

#endif
