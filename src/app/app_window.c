/* The window loop (the app's wall clock drives the engine), offscreen
 * snapshots, the frame-time benchmark and the default font lookup. */
#include "app_internal.h"

#include <SDL_image.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

AppConfig app_config_default(void)
{
    AppConfig c;
    memset(&c, 0, sizeof c);
    c.focus = -1;
    c.speed = 1.0;
    return c;
}

int app_render_snapshot(Replay *rp, const AppConfig *cfg, int64_t t_us, const char *png_path, int w, int h,
                        NrError *err)
{
    if (w < 64 || h < 64 || w > 16384 || h > 16384) {
        nr_error_set(err, "%s: snapshot size %dx%d out of range (64..16384)", png_path, w, h);
        return 1;
    }
    if (t_us < 0) {
        nr_error_set(err, "%s: snapshot time must be >= 0", png_path);
        return 1;
    }
    t_us = app_sample_floor(replay_engine(rp), t_us); /* as the window: the instant the metrics measured */
    GfxOffscreen o;
    if (!gfx_offscreen_open(&o, w, h, png_path, err))
        return 1;
    int rc = 1;
    AppState *s = calloc(1, sizeof *s);
    AppConfig c = *cfg;
    c.replay = rp;
    if (!s)
        nr_error_set(err, "%s: out of memory", png_path);
    else if (app_state_init(s, rp, &c, o.r, err)) {
        if (t_us < engine_now(s->e))
            app_restart(s);
        app_step_to(s, t_us); /* the script's changes on the way, the last one in the top bar */
        s->snapshot = true;
        app_draw(s, w, h);
        SDL_RenderPresent(o.r);
        rc = gfx_save_png(o.r, w, h, png_path, err) ? 0 : 1;
        app_state_free(s);
    }
    free(s);
    gfx_offscreen_close(&o);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double app_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

long app_max_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static void screenshot(AppState *s, int w, int h);

void app_bench_report(double *ms, int n, double cpu_s, long rss0_kb)
{
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += ms[i];
    qsort(ms, (size_t)n, sizeof *ms, cmp_double);
    int p99 = (int)ceil(0.99 * n) - 1;
    printf("bench: frame time mean %.2f ms, p50 %.2f ms, p99 %.2f ms, max %.2f ms; CPU %.2f ms/frame\n", sum / n,
           ms[n / 2], ms[p99 < 0 ? 0 : p99], ms[n - 1], cpu_s * 1000.0 / n);
    printf("bench: max RSS %ld kB before, %ld kB after\n", rss0_kb, app_max_rss_kb());
}

/* N overview frames as fast as possible, the race advancing 1/60 s per frame. */
static void run_bench(AppState *s, SDL_Window *win, int nframes)
{
    double *ms = malloc(sizeof(double) * (size_t)nframes);
    if (!ms) {
        fprintf(stderr, "netrace: out of memory for %d frame times\n", nframes);
        return;
    }
    SDL_RendererInfo info;
    SDL_GetRendererInfo(s->r, &info);
    s->paused = false; /* the overview unless --focus asked for one scheme */
    s->loop = true;
    uint64_t freq = SDL_GetPerformanceFrequency();
    double cpu0 = app_cpu_seconds();
    long rss0 = app_max_rss_kb();
    int w = 0, h = 0;
    for (int i = 0; i < nframes && !s->want_quit; i++) {
        SDL_Event ev;
        while (SDL_PollEvent(&ev))
            app_handle_event(s, &ev);
        uint64_t t0 = SDL_GetPerformanceCounter();
        app_advance(s, 16667);
        SDL_GetRendererOutputSize(s->r, &w, &h);
        app_draw(s, w, h);
        SDL_RenderPresent(s->r);
        ms[i] = (double)(SDL_GetPerformanceCounter() - t0) * 1000.0 / (double)freq;
    }
    double cpu = app_cpu_seconds() - cpu0;
    const char *fb = SDL_GetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION);
    printf("bench: %d frames, %s of %d schemes, %dx%d, renderer %s, SDL_FRAMEBUFFER_ACCELERATION=%s, video %s\n",
           nframes, s->focus >= 0 ? "focus" : "overview", engine_scheme_count(s->e), w, h, info.name,
           fb ? fb : "(unset)", SDL_GetCurrentVideoDriver());
    app_bench_report(ms, nframes, cpu, rss0);
    free(ms);
    if (s->cfg.shot_dir) { /* the last frame, as the window shows it */
        app_draw(s, w, h);
        screenshot(s, w, h);
        printf("bench: %s\n", s->msg);
    }
    (void)win;
}

/* The screenshot folder when --shots is not given: $XDG_PICTURES_DIR/netrace,
 * else $HOME/Pictures/netrace, else /tmp/netrace-shots; created when missing
 * (never the directory netrace was started from, often the repository). */
void app_default_shot_dir(char *buf, size_t n)
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

static void screenshot(AppState *s, int w, int h)
{
    char path[2048], defdir[1024];
    const char *dir = s->cfg.shot_dir;
    if (!dir) {
        app_default_shot_dir(defdir, sizeof defdir);
        dir = defdir;
    }
    time_t now = time(NULL);
    struct tm tmv;
    gmtime_r(&now, &tmv);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tmv);
    NrError err = {{0}};
    int len = snprintf(path, sizeof path, "%s/netrace-%s-t%06.1f.png", dir, stamp, (double)engine_now(s->e) / 1e6);
    if (len < 0 || (size_t)len >= sizeof path) {
        app_set_message(s, "screenshot: folder name too long");
        return;
    }
    if (gfx_save_png(s->r, w, h, path, &err)) {
        app_set_message(s, "screenshot: %s", path);
        fprintf(stderr, "wrote %s\n", path);
    } else
        app_set_message(s, "%s", err.msg);
}

SDL_Renderer *app_create_renderer(SDL_Window *win)
{
    const char *drv = getenv("SDL_RENDER_DRIVER");
    return SDL_CreateRenderer(win, -1, drv && *drv ? 0 : SDL_RENDERER_SOFTWARE);
}

bool app_video_start(bool invisible_ok)
{
    /* The software renderer writes straight into the window's surface; without
     * this hint SDL would upload that surface through OpenGL every frame
     * (measured: see docs/window.md). An environment setting still wins. */
    SDL_SetHintWithPriority(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0", SDL_HINT_DEFAULT);
    /* Without a display SDL would fall back to its invisible "offscreen"
     * driver and run a window nobody sees: say so and let the caller go
     * headless. An explicit SDL_VIDEODRIVER is obeyed (offscreen and dummy
     * only for --bench-frames). */
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
    /* an invisible driver only makes sense for the benchmark */
    if (!invisible_ok && drv_name && (strcmp(drv_name, "offscreen") == 0 || strcmp(drv_name, "dummy") == 0)) {
        fprintf(stderr, "netrace: cannot open the display (video driver '%s' shows nothing): no window\n", drv_name);
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
        return false;
    }
    return true;
}

int app_run_window(const AppConfig *cfg)
{
    if (!cfg || !cfg->replay) {
        fprintf(stderr, "netrace: no engine to show\n");
        return 1;
    }
    if (!app_video_start(cfg->bench_frames > 0))
        return 1;
    NrError err = {{0}};
    bool ttf_here = !TTF_WasInit();
    if (!gfx_ttf_start(&err)) {
        fprintf(stderr, "netrace: %s\n", err.msg);
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
        return 1;
    }
    int w = cfg->width > 0 ? cfg->width : 1280, h = cfg->height > 0 ? cfg->height : 720;
    Uint32 wflags = SDL_WINDOW_RESIZABLE; /* no HIGHDPI: mouse and pixels share one scale */
    if (cfg->fullscreen)
        wflags |= SDL_WINDOW_FULLSCREEN_DESKTOP;
    SDL_Window *win = SDL_CreateWindow("netrace", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h, wflags);
    SDL_Renderer *r = win ? app_create_renderer(win) : NULL;
    AppState *s = r ? calloc(1, sizeof *s) : NULL;
    int rc = 1;
    if (!win || !r || !s) {
        fprintf(stderr, "netrace: cannot open the window (%s): no window\n", SDL_GetError());
        goto done;
    }
    SDL_SetWindowMinimumSize(win, 640, 400);
    if (!app_state_init(s, cfg->replay, cfg, r, &err)) {
        fprintf(stderr, "netrace: %s\n", err.msg);
        goto done;
    }
    if (cfg->title) {
        char t[256];
        snprintf(t, sizeof t, "netrace - %s", cfg->title);
        SDL_SetWindowTitle(win, t);
    }
    if (cfg->bench_frames > 0) {
        run_bench(s, win, cfg->bench_frames);
        rc = 0;
        goto done;
    }
    bool fullscreen = cfg->fullscreen;
    uint64_t freq = SDL_GetPerformanceFrequency(), last = SDL_GetPerformanceCounter();
    while (!s->want_quit) {
        SDL_Event ev;
        while (SDL_PollEvent(&ev))
            app_handle_event(s, &ev);
        if (s->want_fullscreen) {
            s->want_fullscreen = false;
            fullscreen = !fullscreen;
            SDL_SetWindowFullscreen(win, fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
        }
        uint64_t now = SDL_GetPerformanceCounter();
        int64_t dt_us = (int64_t)((double)(now - last) * 1e6 / (double)freq);
        last = now;
        app_advance(s, dt_us);
        SDL_GetRendererOutputSize(r, &w, &h);
        app_draw(s, w, h);
        if (s->want_shot) {
            s->want_shot = false;
            screenshot(s, w, h);
        }
        SDL_RenderPresent(r);
        /* about 60 frames per second: the software renderer has no vsync */
        double spent_ms = (double)(SDL_GetPerformanceCounter() - now) * 1000.0 / (double)freq;
        if (spent_ms < 16.0)
            SDL_Delay((Uint32)(16.0 - spent_ms));
    }
    rc = 0;
done:
    if (s) {
        app_state_free(s);
        free(s);
    }
    if (r)
        SDL_DestroyRenderer(r);
    if (win)
        SDL_DestroyWindow(win);
    if (ttf_here) /* a window opened from the game keeps the game's fonts */
        TTF_Quit();
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    return rc;
}
