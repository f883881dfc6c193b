/* The one window loop (winloop.h): video start, window, frames, pacing,
 * screenshots and the frame-time benchmark for every screen. */
#include "winloop.h"

#include "gfx.h"

#include <SDL_syswm.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#ifdef NETRACE_X11
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#endif

#define WIN_FRAME_MS 16.0   /* about 60 frames per second */
#define WIN_BENCH_DT_US 16667 /* race time per benchmark frame: 1/60 s */

bool winloop_video_start(bool invisible_ok)
{
    /* The software renderer writes straight into the window's surface; without
     * this hint SDL would upload that surface through OpenGL every frame
     * (measured: see docs/window.md). An environment setting still wins. */
    SDL_SetHintWithPriority(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0", SDL_HINT_DEFAULT);
    /* Without a display SDL would fall back to its invisible "offscreen"
     * driver and run a window nobody sees: say so and let the caller go
     * headless. An explicit SDL_VIDEODRIVER is obeyed (offscreen and dummy
     * only for --bench-frames and tests). */
    const char *want = getenv("SDL_VIDEODRIVER"), *x11 = getenv("DISPLAY"), *wl = getenv("WAYLAND_DISPLAY");
    bool explicit_driver = want && *want;
    if (!explicit_driver && !(x11 && *x11) && !(wl && *wl)) {
        fprintf(stderr, "netrace: no display (neither DISPLAY nor WAYLAND_DISPLAY is set): no window\n");
        return false;
    }
    if (!explicit_driver && !(wl && *wl))
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11");
    if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "netrace: cannot open the display (%s): no window\n", SDL_GetError());
        return false;
    }
    const char *drv_name = SDL_GetCurrentVideoDriver();
    if (!invisible_ok && drv_name && (strcmp(drv_name, "offscreen") == 0 || strcmp(drv_name, "dummy") == 0)) {
        fprintf(stderr, "netrace: cannot open the display (video driver '%s' shows nothing): no window\n", drv_name);
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
        return false;
    }
    return true;
}

SDL_Renderer *winloop_create_renderer(SDL_Window *win)
{
    const char *drv = getenv("SDL_RENDER_DRIVER");
    return SDL_CreateRenderer(win, -1, drv && *drv ? 0 : SDL_RENDERER_SOFTWARE);
}

void winloop_default_size(int bw, int bh, int *w, int *h)
{
    *w = bw > 0 && bw < 1280 ? bw : 1280;
    *h = bh > 0 && bh < 720 ? bh : 720;
}

/* Whether a window manager runs on the window's display: on X11 the root
 * window names one in _NET_SUPPORTING_WM_CHECK (EWMH); elsewhere (Wayland,
 * other systems) the compositor is assumed to handle fullscreen. */
static bool window_manager(SDL_Window *win)
{
#ifdef NETRACE_X11
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(win, &info) || info.subsystem != SDL_SYSWM_X11)
        return true;
    Display *d = info.info.x11.display;
    Atom check = XInternAtom(d, "_NET_SUPPORTING_WM_CHECK", True), type;
    if (check == None)
        return false;
    int format;
    unsigned long n = 0, after;
    unsigned char *data = NULL;
    int rc = XGetWindowProperty(d, DefaultRootWindow(d), check, 0, 1, False, XA_WINDOW, &type, &format, &n, &after,
                                &data);
    bool wm = rc == Success && data && n == 1;
    if (data)
        XFree(data);
    return wm;
#else
    (void)win;
    return true;
#endif
}

void winfull_toggle(WinFull *f, SDL_Window *win)
{
    if (!f->on) {
        SDL_GetWindowPosition(win, &f->was.x, &f->was.y);
        SDL_GetWindowSize(win, &f->was.w, &f->was.h);
        f->on = true;
        SDL_Rect b;
        int d = SDL_GetWindowDisplayIndex(win);
        f->borderless = !window_manager(win) && d >= 0 && SDL_GetDisplayBounds(d, &b) == 0;
        if (!f->borderless) {
            SDL_SetWindowFullscreen(win, SDL_WINDOW_FULLSCREEN_DESKTOP);
            return;
        }
        /* nobody to ask for fullscreen (a bare X server): cover the display */
        SDL_SetWindowBordered(win, SDL_FALSE);
        SDL_SetWindowPosition(win, b.x, b.y);
        SDL_SetWindowSize(win, b.w, b.h);
        SDL_RaiseWindow(win);
        return;
    }
    f->on = false;
    if (f->borderless) {
        f->borderless = false;
        SDL_SetWindowBordered(win, SDL_TRUE);
        SDL_SetWindowSize(win, f->was.w, f->was.h);
        SDL_SetWindowPosition(win, f->was.x, f->was.y);
    } else {
        SDL_SetWindowFullscreen(win, 0);
    }
}

bool winloop_open(WinLoop *L, const WinLoopConfig *c)
{
    memset(L, 0, sizeof *L);
    L->shot_dir = c->shot_dir;
    if (!winloop_video_start(c->invisible_ok))
        return false;
    L->video = true;
    if (c->gamepads) {
        if (SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER) != 0)
            fprintf(stderr, "netrace: no gamepad support (%s): keys only\n", SDL_GetError());
        else
            L->pads = true;
    }
    NrError err = {{0}};
    L->ttf_here = !TTF_WasInit();
    if (!gfx_ttf_start(&err)) {
        L->ttf_here = false;
        fprintf(stderr, "netrace: %s\n", err.msg);
        winloop_close(L);
        return false;
    }
    int w = c->width, h = c->height;
    SDL_Rect b = {0, 0, 1280, 720};
    if (SDL_GetDisplayUsableBounds(0, &b) != 0)
        b = (SDL_Rect){0, 0, 1280, 720};
    if (w <= 0 || h <= 0) /* the default fits the display (a 1024x768 projector) */
        winloop_default_size(b.w, b.h, &w, &h);
    /* centred on the display, never off its left or top edge */
    int x = b.x + (b.w > w ? (b.w - w) / 2 : 0), y = b.y + (b.h > h ? (b.h - h) / 2 : 0);
    Uint32 flags = SDL_WINDOW_RESIZABLE; /* no HIGHDPI: mouse and pixels share one scale */
    L->win = SDL_CreateWindow(c->title ? c->title : "netrace", x, y, w, h, flags);
    L->r = L->win ? winloop_create_renderer(L->win) : NULL;
    if (!L->r) {
        fprintf(stderr, "netrace: cannot open the window (%s): no window\n", SDL_GetError());
        winloop_close(L);
        return false;
    }
    SDL_SetWindowMinimumSize(L->win, c->min_w > 0 ? c->min_w : 640, c->min_h > 0 ? c->min_h : 360);
    if (c->fullscreen)
        winfull_toggle(&L->full, L->win);
    L->last = SDL_GetPerformanceCounter();
    return true;
}

void winloop_close(WinLoop *L)
{
    if (L->r)
        SDL_DestroyRenderer(L->r);
    if (L->win)
        SDL_DestroyWindow(L->win);
    if (L->ttf_here) /* a window opened from another keeps the other's fonts */
        TTF_Quit();
    if (L->pads)
        SDL_QuitSubSystem(SDL_INIT_GAMECONTROLLER);
    if (L->video)
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
    memset(L, 0, sizeof *L);
}

void winloop_rewind(WinLoop *L)
{
    L->last = SDL_GetPerformanceCounter();
}

void winloop_default_shot_dir(char *buf, size_t n)
{
    const char *pics = getenv("XDG_PICTURES_DIR"), *home = getenv("HOME");
    char parent[900];
    if (pics && pics[0] == '/')
        snprintf(parent, sizeof parent, "%s", pics);
    else if (home && home[0] == '/')
        snprintf(parent, sizeof parent, "%s/Pictures", home);
    else
        snprintf(parent, sizeof parent, "/tmp");
    snprintf(buf, n, "%s/%s", parent, strcmp(parent, "/tmp") == 0 ? "netrace-shots" : "netrace");
    mkdir(parent, 0777); /* EEXIST is fine; a real failure shows when the PNG is written */
    mkdir(buf, 0777);
}

/* Writes the screenshot; said: the path written, or why not. */
static void shot_said(WinLoop *L, const WinScreen *scr, int w, int h, char *said, size_t n)
{
    char path[2048], defdir[1024], stamp[32];
    const char *dir = L->shot_dir;
    if (!dir) {
        winloop_default_shot_dir(defdir, sizeof defdir);
        dir = defdir;
    }
    time_t now = time(NULL);
    struct tm tmv;
    gmtime_r(&now, &tmv);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tmv);
    double t_s = scr->race_time_s ? scr->race_time_s(scr->ctx) : 0.0;
    int len = snprintf(path, sizeof path, "%s/%s-%s-t%06.1f.png", dir, scr->shot_prefix, stamp, t_s);
    NrError err = {{0}};
    if (len < 0 || (size_t)len >= sizeof path) {
        snprintf(said, n, "screenshot: folder name too long");
    } else if (gfx_save_png(L->r, w, h, path, &err)) {
        snprintf(said, n, "screenshot: %s", path);
        fprintf(stderr, "wrote %s\n", path);
        return;
    } else {
        snprintf(said, n, "%s", err.msg);
    }
    fprintf(stderr, "netrace: %s\n", said); /* the failure in full: the screen may cut a long line */
}

void winloop_shot(WinLoop *L, const WinScreen *scr, int w, int h)
{
    char said[2200];
    shot_said(L, scr, w, h, said, sizeof said);
    scr->message(scr->ctx, said);
}

bool winloop_frame(WinLoop *L, const WinScreen *scr, bool pace)
{
    SDL_Event ev;
    while (SDL_PollEvent(&ev))
        scr->event(scr->ctx, &ev);
    unsigned req = scr->requests(scr->ctx);
    if (req & WIN_FULLSCREEN)
        winfull_toggle(&L->full, L->win);
    uint64_t freq = SDL_GetPerformanceFrequency(), now = SDL_GetPerformanceCounter();
    int64_t dt_us = (int64_t)((double)(now - L->last) * 1e6 / (double)freq);
    L->last = now;
    if (L->fixed_dt_us > 0)
        dt_us = L->fixed_dt_us;
    /* input read, the race advanced and drawn in this one frame: what was
     * pressed before this frame moves what is presented now */
    scr->advance(scr->ctx, dt_us);
    int w, h;
    SDL_GetRendererOutputSize(L->r, &w, &h);
    scr->draw(scr->ctx, w, h);
    if (req & WIN_SHOT)
        winloop_shot(L, scr, w, h);
    SDL_RenderPresent(L->r);
    if (scr->after)
        scr->after(scr->ctx);
    if (pace) {
        double spent_ms = (double)(SDL_GetPerformanceCounter() - now) * 1000.0 / (double)freq;
        if (spent_ms < WIN_FRAME_MS)
            SDL_Delay((Uint32)(WIN_FRAME_MS - spent_ms));
    }
    return !(scr->requests(scr->ctx) & WIN_QUIT);
}

void winloop_run(WinLoop *L, const WinScreen *scr)
{
    winloop_rewind(L);
    while (winloop_frame(L, scr, true))
        ;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double winloop_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

long winloop_max_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

void winloop_bench_report(double *ms, int n, double cpu_s, long rss0_kb)
{
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += ms[i];
    qsort(ms, (size_t)n, sizeof *ms, cmp_double);
    int p99 = (int)ceil(0.99 * n) - 1;
    printf("bench: frame time mean %.2f ms, p50 %.2f ms, p99 %.2f ms, max %.2f ms; CPU %.2f ms/frame\n", sum / n,
           ms[n / 2], ms[p99 < 0 ? 0 : p99], ms[n - 1], cpu_s * 1000.0 / n);
    printf("bench: max RSS %ld kB before, %ld kB after\n", rss0_kb, winloop_max_rss_kb());
}

void winloop_bench(WinLoop *L, const WinScreen *scr, int nframes)
{
    double *ms = malloc(sizeof(double) * (size_t)(nframes > 0 ? nframes : 1));
    if (!ms) {
        fprintf(stderr, "netrace: out of memory for %d frame times\n", nframes);
        return;
    }
    if (scr->bench_begin)
        scr->bench_begin(scr->ctx);
    uint64_t freq = SDL_GetPerformanceFrequency();
    double cpu0 = winloop_cpu_seconds();
    long rss0 = winloop_max_rss_kb();
    int w = 0, h = 0, done = 0;
    bool stop = false;
    for (int i = 0; i < nframes && !stop && !(scr->requests(scr->ctx) & WIN_QUIT); i++) {
        SDL_Event ev;
        while (SDL_PollEvent(&ev)) { /* nobody drives a benchmark; SIGINT / SIGTERM still end it */
            stop |= ev.type == SDL_QUIT;
            if (ev.type == SDL_RENDER_TARGETS_RESET || ev.type == SDL_RENDER_DEVICE_RESET)
                scr->event(scr->ctx, &ev); /* the screen's textures to draw again */
        }
        uint64_t t0 = SDL_GetPerformanceCounter();
        scr->advance(scr->ctx, WIN_BENCH_DT_US);
        SDL_GetRendererOutputSize(L->r, &w, &h);
        scr->draw(scr->ctx, w, h);
        SDL_RenderPresent(L->r);
        if (scr->after)
            scr->after(scr->ctx);
        ms[i] = (double)(SDL_GetPerformanceCounter() - t0) * 1000.0 / (double)freq;
        done = i + 1;
    }
    double cpu = winloop_cpu_seconds() - cpu0;
    if (done > 0) {
        char title[512];
        scr->bench_title(scr->ctx, w, h, title, sizeof title);
        SDL_RendererInfo info;
        SDL_GetRendererInfo(L->r, &info);
        const char *fb = SDL_GetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION);
        printf("bench: %d frames, %s, renderer %s, SDL_FRAMEBUFFER_ACCELERATION=%s, video %s\n", done, title,
               info.name, fb ? fb : "(unset)", SDL_GetCurrentVideoDriver());
        winloop_bench_report(ms, done, cpu, rss0);
    }
    free(ms);
    if (done > 0 && L->shot_dir) { /* the last frame, as the window shows it */
        char said[2200];
        scr->draw(scr->ctx, w, h);
        shot_said(L, scr, w, h, said, sizeof said);
        scr->message(scr->ctx, said);
        printf("bench: %s\n", said);
    }
}
