/* The game's window loop (the app's wall clock drives the race), the
 * overview window of every scheme beside it, the replay window after the
 * finish, and the frame-time benchmark. */
#include "play_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The second window: the replay window's overview on the live engine. */
typedef struct Watch {
    SDL_Window *win;
    SDL_Renderer *r;
    AppState *s;
} Watch;

static void watch_close(Watch *w)
{
    if (w->s) {
        app_state_free(w->s);
        free(w->s);
    }
    if (w->r)
        SDL_DestroyRenderer(w->r);
    if (w->win)
        SDL_DestroyWindow(w->win);
    memset(w, 0, sizeof *w);
}

/* Beside the game window when the display holds both, else both shrunk to
 * half the display side by side (cascaded only on a display under 640
 * pixels wide). */
static void watch_place(Watch *w, SDL_Window *game)
{
    int gx, gy, gw, gh, ww, wh;
    SDL_GetWindowPosition(game, &gx, &gy);
    SDL_GetWindowSize(game, &gw, &gh);
    SDL_GetWindowSize(w->win, &ww, &wh);
    SDL_Rect b;
    int d = SDL_GetWindowDisplayIndex(game);
    if (d >= 0 && SDL_GetDisplayUsableBounds(d, &b) == 0 && gw + ww <= b.w) {
        SDL_SetWindowPosition(game, b.x, gy);
        SDL_SetWindowPosition(w->win, b.x + gw, gy);
    } else if (d >= 0 && SDL_GetDisplayUsableBounds(d, &b) == 0 && b.w >= 640) {
        /* both do not fit at their size (two 1280x720 on a 1920x1080
         * projector): each gets half the display, 16:9, side by side, so
         * the class sees the drivers' screens and every scheme at once */
        int hw = b.w / 2, hh = hw * 9 / 16;
        hh = hh > b.h ? b.h : hh;
        SDL_SetWindowSize(game, hw, hh);
        SDL_SetWindowSize(w->win, hw, hh);
        SDL_SetWindowPosition(game, b.x, b.y);
        SDL_SetWindowPosition(w->win, b.x + hw, b.y);
    } else {
        SDL_SetWindowPosition(w->win, gx + 48, gy + 48);
    }
}

static bool watch_open(Watch *w, PlayState *ps, SDL_Window *game, int width, int height)
{
    memset(w, 0, sizeof *w);
    w->win = SDL_CreateWindow("netrace - every scheme, live", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, width,
                              height, SDL_WINDOW_RESIZABLE);
    w->r = w->win ? app_create_renderer(w->win) : NULL;
    w->s = w->r ? calloc(1, sizeof *w->s) : NULL;
    NrError err = {{0}};
    AppConfig ac = app_config_default();
    ac.font_path = ps->cfg->font_path;
    ac.live = true;
    ac.wall_cw = CAR_GRASS_CW;
    if (!w->s || !app_state_init_engine(w->s, liverace_engine(ps->lr), NULL, &ac, w->r, &err)) {
        play_message(ps, "cannot open the overview window: %s", w->s ? err.msg : SDL_GetError());
        watch_close(w);
        return false;
    }
    if (ps->icon)
        SDL_SetWindowIcon(w->win, ps->icon);
    watch_place(w, game);
    return true;
}

static void watch_draw(Watch *w, PlayState *ps)
{
    if (!w->s)
        return;
    w->s->e = liverace_engine(ps->lr); /* a restart made a new engine */
    int ww, wh;
    SDL_GetRendererOutputSize(w->r, &ww, &wh);
    app_draw(w->s, ww, wh);
    SDL_RenderPresent(w->r);
}

/* A key the players drive with never reaches the overview (its D, arrows
 * and others would change links and views). */
static bool player_key(const PlayState *ps, SDL_Scancode sc)
{
    for (int j = 0; j < PLAY_PLAYERS; j++)
        for (int a = 0; a < PK_ACTIONS; a++)
            for (int i = 0; i < PLAYKEYS_PER_ACTION; i++)
                if (ps->keys.key[j][a][i] == sc)
                    return true;
    return false;
}

static void shot(PlayState *ps, int w, int h)
{
    char path[2048], stamp[32];
    time_t now = time(NULL);
    struct tm tmv;
    gmtime_r(&now, &tmv);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tmv);
    char defdir[1024];
    const char *dir = ps->cfg->shot_dir;
    if (!dir) { /* the replay window's folder, not the current directory */
        app_default_shot_dir(defdir, sizeof defdir);
        dir = defdir;
    }
    snprintf(path, sizeof path, "%s/netrace-play-%s-t%06.1f.png", dir, stamp, (double)ps->race_us / 1e6);
    NrError err = {{0}};
    if (gfx_save_png(ps->r, w, h, path, &err)) {
        play_message(ps, "screenshot: %s", path);
        fprintf(stderr, "wrote %s\n", path);
    } else
        play_message(ps, "%s", err.msg);
}

/* Starts the race at once (no grid, no lights): the benchmark's frames are
 * racing frames. */
static void skip_to_start(PlayState *ps)
{
    RaceFlow *rf = liverace_flow(ps->lr);
    raceflow_go(rf, ps->flow_us);
    ps->flow_us += RACEFLOW_LIGHTS * RACEFLOW_LIGHT_US;
    raceflow_tick(rf, ps->flow_us);
}

static void run_bench(PlayState *ps, Watch *watch)
{
    int n = ps->cfg->bench_frames;
    double *ms = malloc(sizeof(double) * (size_t)n);
    if (!ms) {
        fprintf(stderr, "netrace: out of memory for %d frame times\n", n);
        return;
    }
    skip_to_start(ps);
    uint64_t freq = SDL_GetPerformanceFrequency();
    double cpu0 = app_cpu_seconds();
    long rss0 = app_max_rss_kb();
    int w = 0, h = 0, restarts = 0, done = 0;
    for (int i = 0; i < n && !ps->want_quit; i++) {
        SDL_Event ev;
        while (SDL_PollEvent(&ev)) /* nobody drives in a benchmark; SIGINT / SIGTERM still end it */
            if (ev.type == SDL_QUIT)
                ps->want_quit = true;
        uint64_t t0 = SDL_GetPerformanceCounter();
        if (liverace_done(ps->lr)) {
            NrError err = {{0}};
            if (!play_restart(ps, &err)) {
                fprintf(stderr, "netrace play: %s\n", err.msg);
                break;
            }
            skip_to_start(ps);
            restarts++;
        }
        play_frame(ps, 16667);
        SDL_GetRendererOutputSize(ps->r, &w, &h);
        play_draw(ps, w, h);
        SDL_RenderPresent(ps->r);
        watch_draw(watch, ps);
        ms[i] = (double)(SDL_GetPerformanceCounter() - t0) * 1000.0 / (double)freq;
        done = i + 1;
    }
    double cpu = app_cpu_seconds() - cpu0;
    if (done == 0) {
        free(ms);
        return;
    }
    n = done;
    SDL_RendererInfo info;
    SDL_GetRendererInfo(ps->r, &info);
    int ww = 0, wh = 0;
    if (watch->r)
        SDL_GetRendererOutputSize(watch->r, &ww, &wh);
    printf("bench: %d frames, play: 2 driving screens (scheme %s), %dx%d", n,
           engine_scheme(liverace_engine(ps->lr), ps->cfg->race.shown)->name, w, h);
    if (watch->s)
        printf(" + overview of %d schemes %dx%d", engine_scheme_count(liverace_engine(ps->lr)), ww, wh);
    printf(", renderer %s, video %s, races restarted %d\n", info.name, SDL_GetCurrentVideoDriver(), restarts);
    app_bench_report(ms, n, cpu, rss0);
    free(ms);
    if (ps->cfg->shot_dir) {
        play_draw(ps, w, h);
        shot(ps, w, h);
        printf("bench: %s\n", ps->msg);
    }
}

/* The replay window on the race just driven; the game's window waits. */
static void open_replay(PlayState *ps, SDL_Window *win)
{
    if (!ps->cfg->open_replay || !ps->rec_path[0]) {
        play_message(ps, "no recording of this race to replay (--out none?)");
        return;
    }
    SDL_HideWindow(win);
    int rc = ps->cfg->open_replay(ps->cfg->make_ctx, ps->rec_path);
    SDL_ShowWindow(win);
    SDL_RaiseWindow(win);
    if (rc != 0)
        play_message(ps, "could not open the replay of %s", ps->rec_path);
}

int play_run_window(const PlayConfig *cfg)
{
    if (!app_video_start(cfg->bench_frames > 0))
        return 1;
    if (SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER) != 0)
        fprintf(stderr, "netrace play: no gamepad support (%s): keys only\n", SDL_GetError());
    NrError err = {{0}};
    bool ttf_here = !TTF_WasInit();
    int rc = 1;
    SDL_Window *win = NULL;
    SDL_Renderer *r = NULL;
    PlayState *ps = NULL;
    Watch watch;
    memset(&watch, 0, sizeof watch);
    if (!gfx_ttf_start(&err)) {
        fprintf(stderr, "netrace: %s\n", err.msg);
        goto done;
    }
    int w = cfg->width > 0 ? cfg->width : 1280, h = cfg->height > 0 ? cfg->height : 720;
    Uint32 wflags = SDL_WINDOW_RESIZABLE | (cfg->fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
    win = SDL_CreateWindow(cfg->title ? cfg->title : "netrace play", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w,
                           h, wflags);
    r = win ? app_create_renderer(win) : NULL;
    ps = r ? calloc(1, sizeof *ps) : NULL;
    if (!win || !r || !ps) {
        fprintf(stderr, "netrace: cannot open the window (%s): no window\n", SDL_GetError());
        goto done;
    }
    SDL_SetWindowMinimumSize(win, 640, 360);
    if (!play_state_init(ps, cfg, r, &err)) {
        fprintf(stderr, "netrace play: %s\n", err.msg);
        goto done;
    }
    if (ps->icon)
        SDL_SetWindowIcon(win, ps->icon);
    if (cfg->watch)
        watch_open(&watch, ps, win, w, h);
    if (cfg->bench_frames > 0) {
        run_bench(ps, &watch);
        rc = 0;
        goto done;
    }
    Uint32 main_id = SDL_GetWindowID(win);
    bool fullscreen = cfg->fullscreen;
    uint64_t freq = SDL_GetPerformanceFrequency(), last = SDL_GetPerformanceCounter();
    while (!ps->want_quit) {
        SDL_Event ev;
        while (SDL_PollEvent(&ev)) {
            Uint32 wid = 0;
            if (ev.type == SDL_WINDOWEVENT)
                wid = ev.window.windowID;
            else if (ev.type == SDL_KEYDOWN || ev.type == SDL_KEYUP)
                wid = ev.key.windowID;
            else if (ev.type == SDL_MOUSEBUTTONDOWN || ev.type == SDL_MOUSEBUTTONUP)
                wid = ev.button.windowID;
            else if (ev.type == SDL_MOUSEWHEEL)
                wid = ev.wheel.windowID;
            if (watch.win && wid == SDL_GetWindowID(watch.win)) {
                bool drive_key = (ev.type == SDL_KEYDOWN || ev.type == SDL_KEYUP) && player_key(ps, ev.key.keysym.scancode);
                bool game_key = ev.type == SDL_KEYDOWN && (ev.key.keysym.scancode == SDL_SCANCODE_TAB ||
                                                            ev.key.keysym.scancode == SDL_SCANCODE_ESCAPE ||
                                                            ev.key.keysym.scancode == SDL_SCANCODE_P);
                if (game_key)
                    play_handle_event(ps, &ev); /* pause / close the overview from either window */
                else if (!drive_key)
                    app_handle_event(watch.s, &ev);
                if (watch.s && watch.s->want_quit)
                    watch_close(&watch);
                continue;
            }
            if (ev.type == SDL_WINDOWEVENT && ev.window.event == SDL_WINDOWEVENT_CLOSE && wid == main_id)
                ps->want_quit = true;
            play_handle_event(ps, &ev);
        }
        if (ps->want_watch) {
            ps->want_watch = false;
            if (watch.win)
                watch_close(&watch);
            else
                watch_open(&watch, ps, win, w, h);
        }
        if (ps->want_fullscreen) {
            ps->want_fullscreen = false;
            fullscreen = !fullscreen;
            SDL_SetWindowFullscreen(win, fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
        }
        if (ps->want_replay) {
            ps->want_replay = false;
            open_replay(ps, win);
            last = SDL_GetPerformanceCounter();
        }
        uint64_t now = SDL_GetPerformanceCounter();
        int64_t dt_us = (int64_t)((double)(now - last) * 1e6 / (double)freq);
        last = now;
        /* input read, race advanced and drawn in this one frame: what was
         * pressed before this frame moves the car on the frame presented now */
        play_frame(ps, dt_us);
        int fw, fh;
        SDL_GetRendererOutputSize(r, &fw, &fh);
        play_draw(ps, fw, fh);
        if (ps->want_shot) {
            ps->want_shot = false;
            shot(ps, fw, fh);
        }
        SDL_RenderPresent(r);
        watch_draw(&watch, ps);
        double spent_ms = (double)(SDL_GetPerformanceCounter() - now) * 1000.0 / (double)freq;
        if (spent_ms < 16.0)
            SDL_Delay((Uint32)(16.0 - spent_ms));
    }
    rc = 0;
done:
    watch_close(&watch);
    if (ps) {
        play_state_free(ps); /* finalises the recording */
        free(ps);
    }
    if (r)
        SDL_DestroyRenderer(r);
    if (win)
        SDL_DestroyWindow(win);
    if (ttf_here)
        TTF_Quit();
    SDL_QuitSubSystem(SDL_INIT_GAMECONTROLLER);
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    return rc;
}
