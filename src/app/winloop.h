/* The one window loop of every screen (the replay overview, the game, the
 * network window): SDL video started once, a window and its renderer, then
 * each frame the events, the screen's advance on the wall time elapsed, its
 * drawing, a screenshot when asked, present and pacing; the frame-time
 * benchmark (--bench-frames) on the same frame. A screen is a table of
 * callbacks on its own state (WinScreen), so the loop knows nothing of
 * engines, races or sessions.
 *
 * Contracts:
 *   winloop_video_start(invisible_ok)  SDL video for a window: the software
 *        renderer's hint, a display check (no DISPLAY / WAYLAND_DISPLAY: one
 *        line, false), x11 unless told otherwise; an invisible driver
 *        (offscreen, dummy) only when invisible_ok. Pair with
 *        SDL_QuitSubSystem(SDL_INIT_VIDEO) (winloop_close does it).
 *   winloop_open(L, cfg)   starts video (and game controllers with
 *        cfg->gamepads), SDL_ttf unless running, opens the window and its
 *        renderer: cfg's size, or without one the default that fits the
 *        display's usable area (winloop_default_size), placed on it (never
 *        off its left or top edge); fullscreen with cfg->fullscreen. False
 *        after one line on stderr; L is then closed.
 *   winloop_default_size(bw, bh, &w, &h)  1280 x 720, each side capped at
 *        the usable area bw x bh (a 1024x768 projector: 1024 x 720).
 *   winfull_toggle(f, win)  fullscreen on and off (F, F11, --fullscreen)
 *        for any window: SDL's desktop fullscreen through the window
 *        manager, or where none runs (a bare X server: SDL's request would
 *        go unanswered, the picture drawn for a display-sized window cut)
 *        a borderless window over the whole display; off restores the
 *        window as it was.
 *   winloop_close(L)       renderer, window, SDL_ttf if it started it, the
 *        subsystems it started. Safe on a closed or zeroed L.
 *   winloop_frame(L, scr, pace)  one frame: every pending event to
 *        scr->event, the screen's requests (fullscreen), scr->advance with
 *        the wall time since the last frame (L->fixed_dt_us when set), scr->draw at the renderer's
 *        size, a screenshot when requested, present, scr->after; with pace,
 *        sleeps to about 60 frames per second (the software renderer has no
 *        vsync). Returns false once the screen asks to quit.
 *   winloop_run(L, scr)    frames with pacing until the screen quits.
 *   winloop_rewind(L)      the next frame's wall time starts now (after a
 *        blocking call such as another window run in between).
 *   winloop_bench(L, scr, n)  n frames as fast as possible, each advancing
 *        1/60 s, only SDL_QUIT (SIGINT, SIGTERM) and the
 *        renderer resets (passed to scr->event) heeded; prints the
 *        screen's header line, the frame-time statistics and, with a shot
 *        folder, a screenshot of the last frame.
 *   winloop_shot(L, scr, w, h)  the renderer's frame to
 *        DIR/PREFIX-YYYYMMDD-HHMMSS-tTTTT.T.png; the path (or why not) goes
 *        to scr->message, and "wrote PATH" (or "netrace: " and why not)
 *        to stderr.
 *   winloop_default_shot_dir(buf, n)  $XDG_PICTURES_DIR/netrace, else
 *        $HOME/Pictures/netrace, else /tmp/netrace-shots, created when
 *        missing (never the directory netrace was started from).
 *   winloop_create_renderer(win)  software unless SDL_RENDER_DRIVER names one.
 *   winloop_cpu_seconds / winloop_max_rss_kb / winloop_bench_report(ms, n,
 *        cpu_s, rss0_kb)  the benchmark's measures and its two report lines
 *        (sorts ms).
 */
#ifndef NR_WINLOOP_H
#define NR_WINLOOP_H

#include <SDL.h>
#include <stdbool.h>
#include <stdint.h>

#include "nr_common.h"

/* What a screen asks of the loop (bits of WinScreen.requests). */
enum {
    WIN_QUIT = 1u << 0,
    WIN_FULLSCREEN = 1u << 1, /* toggle */
    WIN_SHOT = 1u << 2,
};

typedef struct WinScreen {
    void *ctx;
    const char *shot_prefix; /* screenshot names: "netrace", "netrace-play" */
    void (*event)(void *ctx, const SDL_Event *ev);
    void (*advance)(void *ctx, int64_t wall_dt_us);
    void (*draw)(void *ctx, int w, int h);
    /* WIN_* bits asked since the last call; fullscreen and shot are
     * cleared by the call, quit stays */
    unsigned (*requests)(void *ctx);
    double (*race_time_s)(void *ctx); /* in the screenshot's name */
    void (*message)(void *ctx, const char *text);
    void (*after)(void *ctx);        /* after present (a second window); NULL = none */
    void (*bench_begin)(void *ctx);  /* before the benchmark's frames; NULL = none */
    /* the benchmark's header line (without "bench: "), at the frame's size */
    void (*bench_title)(void *ctx, int w, int h, char *buf, size_t n);
} WinScreen;

typedef struct WinFull {
    bool on;         /* fullscreen asked for */
    bool borderless; /* no window manager: a borderless window over the display */
    SDL_Rect was;    /* the window before (position and size) */
} WinFull;

typedef struct WinLoopConfig {
    const char *title;
    int width, height;    /* 0 = 1280 x 720 */
    int min_w, min_h;     /* smallest window size */
    bool fullscreen;
    bool invisible_ok;    /* SDL's offscreen / dummy drivers allowed (benchmarks, tests) */
    bool gamepads;        /* start SDL's game controller subsystem too */
    const char *shot_dir; /* screenshots; NULL = winloop_default_shot_dir */
} WinLoopConfig;

typedef struct WinLoop {
    SDL_Window *win;
    SDL_Renderer *r;
    WinFull full;
    bool video, pads, ttf_here; /* what open started, for close */
    const char *shot_dir;
    uint64_t last;        /* performance counter at the last frame */
    int64_t fixed_dt_us;  /* > 0: every frame advances this much (tests on simulated time) */
} WinLoop;

bool winloop_video_start(bool invisible_ok);
void winloop_default_size(int bw, int bh, int *w, int *h);
void winfull_toggle(WinFull *f, SDL_Window *win);
bool winloop_open(WinLoop *L, const WinLoopConfig *cfg);
void winloop_close(WinLoop *L);
bool winloop_frame(WinLoop *L, const WinScreen *scr, bool pace);
void winloop_run(WinLoop *L, const WinScreen *scr);
void winloop_rewind(WinLoop *L);
void winloop_bench(WinLoop *L, const WinScreen *scr, int nframes);
void winloop_shot(WinLoop *L, const WinScreen *scr, int w, int h);
void winloop_default_shot_dir(char *buf, size_t n);
SDL_Renderer *winloop_create_renderer(SDL_Window *win);
double winloop_cpu_seconds(void);
long winloop_max_rss_kb(void);
void winloop_bench_report(double *ms, int n, double cpu_s, long rss0_kb);

#endif
