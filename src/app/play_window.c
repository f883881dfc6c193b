/* The game's screen on the one window loop (winloop.h): the app's wall
 * clock drives the race; the overview of every scheme in a second window
 * (overwin.h); the replay window after the finish. */
#include "overwin.h"
#include "play_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct PlayWin {
    PlayState *ps;
    WinLoop *loop;
    OverWin watch;
    bool bench;   /* a benchmark: a finished race starts again at once */
    int restarts; /* races restarted by the benchmark */
} PlayWin;

/* Starts the race at once (no grid, no lights): the benchmark's frames are
 * racing frames. */
static void skip_to_start(PlayState *ps)
{
    RaceFlow *rf = liverace_flow(ps->lr);
    raceflow_go(rf, ps->flow_us);
    ps->flow_us += RACEFLOW_LIGHTS * RACEFLOW_LIGHT_US;
    raceflow_tick(rf, ps->flow_us);
}

/* The replay window on the race just driven; the game's window waits. */
static void open_replay(PlayState *ps, SDL_Window *win)
{
    if (!ps->cfg->open_replay || !ps->rec_path[0]) {
        play_message(ps, "no recording of this race to replay (--out none?)");
        return;
    }
    char why[PLAY_MSG_MAX] = "";
    SDL_HideWindow(win);
    int rc = ps->cfg->open_replay(ps->cfg->make_ctx, ps->rec_path, why, sizeof why);
    SDL_ShowWindow(win);
    SDL_RaiseWindow(win);
    if (rc != 0)
        play_message(ps, "%s", why[0] ? why : "could not open the replay of this race");
}

static void watch_toggle(PlayWin *pw)
{
    if (overwin_is_open(&pw->watch)) {
        overwin_close(&pw->watch); /* the game's window back as it was */
        return;
    }
    NrError err = {{0}};
    PlayState *ps = pw->ps;
    OverWinConfig oc = {.game = pw->loop->win, .game_r = pw->loop->r, .e = liverace_engine(ps->lr),
                        .font_path = ps->cfg->font_path, .icon = ps->sprites.icon, .scale = ps->view->scale,
                        .shot_dir = ps->cfg->shot_dir, .links_text = ps->cfg->links_text};
    if (!overwin_open(&pw->watch, &oc, &err))
        play_message(ps, "cannot open the overview window: %s", err.msg);
    else
        pw->watch.s->lag = ps->lag; /* opens with the lagometers as the game shows them (F2 in each) */
}

/* The overview reads the race's engine (a restart made a new one) and
 * draws the game's marks. */
static void watch_engine(PlayWin *pw)
{
    if (pw->watch.s) {
        pw->watch.s->e = liverace_engine(pw->ps->lr);
        pw->watch.s->marks = pw->ps->marks;
        pw->watch.s->nmarks = pw->ps->nmarks;
    }
}

/* An event of the overview window goes to it, except the driving keys
 * (its D, arrows and others would change links and views) and the game's
 * Tab, Esc, P and F3 (pause, close the overview, mark from either window). */
static void scr_event(void *ctx, const SDL_Event *ev)
{
    PlayWin *pw = ctx;
    PlayState *ps = pw->ps;
    if (app_render_reset(ps->view, ev)) { /* names no window: both windows' textures */
        app_render_reset(pw->watch.s, ev);
        return;
    }
    if (overwin_owns(&pw->watch, ev)) {
        bool key = ev->type == SDL_KEYDOWN || ev->type == SDL_KEYUP;
        SDL_Scancode sc = key ? ev->key.keysym.scancode : SDL_SCANCODE_UNKNOWN;
        bool game_key = ev->type == SDL_KEYDOWN && (sc == SDL_SCANCODE_TAB || sc == SDL_SCANCODE_ESCAPE ||
                                                    sc == SDL_SCANCODE_P || sc == SDL_SCANCODE_F3);
        if (game_key)
            play_handle_event(ps, ev);
        else if (!(key && playkeys_drives(&ps->keys, sc)) && overwin_event(&pw->watch, ev))
            overwin_close(&pw->watch);
        return;
    }
    if (ev->type == SDL_WINDOWEVENT && ev->window.event == SDL_WINDOWEVENT_CLOSE &&
        ev->window.windowID == SDL_GetWindowID(pw->loop->win))
        ps->want_quit = true;
    play_handle_event(ps, ev);
}

static void scr_advance(void *ctx, int64_t wall_dt_us)
{
    PlayWin *pw = ctx;
    PlayState *ps = pw->ps;
    if (ps->want_watch) {
        ps->want_watch = false;
        watch_toggle(pw);
    }
    if (ps->want_replay) {
        ps->want_replay = false;
        open_replay(ps, pw->loop->win);
        winloop_rewind(pw->loop);
        wall_dt_us = 0; /* the race waited */
    }
    if (pw->bench && liverace_done(ps->lr)) {
        NrError err = {{0}};
        if (!play_restart(ps, &err)) {
            fprintf(stderr, "netrace play: %s\n", err.msg);
            ps->want_quit = true;
            return;
        }
        skip_to_start(ps);
        pw->restarts++;
    }
    play_frame(ps, wall_dt_us);
}

static void scr_draw(void *ctx, int w, int h)
{
    PlayWin *pw = ctx;
    if (overwin_in_place(&pw->watch)) { /* the overview instead of the race until Tab */
        watch_engine(pw);
        overwin_draw_here(&pw->watch, w, h);
    } else {
        play_draw(pw->ps, w, h);
    }
}

static unsigned scr_requests(void *ctx)
{
    PlayWin *pw = ctx;
    PlayState *ps = pw->ps;
    unsigned r = (ps->want_quit ? WIN_QUIT : 0) | (ps->want_fullscreen ? WIN_FULLSCREEN : 0) |
                 (ps->want_shot ? WIN_SHOT : 0) | overwin_requests(&pw->watch);
    ps->want_fullscreen = ps->want_shot = false;
    return r;
}

static double scr_time(void *ctx)
{
    return (double)((PlayWin *)ctx)->ps->race_us / 1e6;
}

static void scr_message(void *ctx, const char *text)
{
    play_message(((PlayWin *)ctx)->ps, "%s", text);
}

static void scr_after(void *ctx)
{
    PlayWin *pw = ctx;
    watch_engine(pw);
    overwin_draw(&pw->watch);
}

static void scr_bench_begin(void *ctx)
{
    PlayWin *pw = ctx;
    pw->bench = true;
    skip_to_start(pw->ps);
}

static void scr_bench_title(void *ctx, int w, int h, char *buf, size_t n)
{
    PlayWin *pw = ctx;
    const Engine *e = liverace_engine(pw->ps->lr);
    int len = snprintf(buf, n, "play: %d driving screens (scheme %s), %dx%d", pw->ps->nseats,
                       engine_scheme(e, pw->ps->cfg->race.shown)->name, w, h);
    if (overwin_is_open(&pw->watch) && len > 0 && (size_t)len < n) {
        int ww = 0, wh = 0;
        SDL_GetRendererOutputSize(pw->watch.r, &ww, &wh);
        len += snprintf(buf + len, n - (size_t)len, " + overview of %d schemes %dx%d%s", engine_scheme_count(e), ww, wh,
                        overwin_in_place(&pw->watch) ? " in place of the race" : "");
    }
    if (len > 0 && (size_t)len < n)
        snprintf(buf + len, n - (size_t)len, ", races restarted %d", pw->restarts);
}

int play_run_window(const PlayConfig *cfg)
{
    WinLoopConfig wc = {.title = cfg->title ? cfg->title : "netrace play", .width = cfg->width, .height = cfg->height,
                        .fullscreen = cfg->fullscreen, .invisible_ok = cfg->bench_frames > 0, .gamepads = true,
                        .shot_dir = cfg->shot_dir};
    WinLoop L;
    if (!winloop_open(&L, &wc))
        return 1;
    PlayWin pw;
    memset(&pw, 0, sizeof pw);
    pw.loop = &L;
    pw.ps = calloc(1, sizeof *pw.ps);
    NrError err = {{0}};
    int rc = 1;
    if (!pw.ps) {
        fprintf(stderr, "netrace play: out of memory\n");
    } else if (!play_state_init(pw.ps, cfg, L.r, &err)) {
        fprintf(stderr, "netrace play: %s\n", err.msg);
    } else {
        if (pw.ps->sprites.icon)
            SDL_SetWindowIcon(L.win, pw.ps->sprites.icon);
        sound_set_muted(&pw.ps->snd, cfg->mute);
        if (cfg->watch)
            watch_toggle(&pw);
        WinScreen scr = {.ctx = &pw, .shot_prefix = "netrace-play", .event = scr_event, .advance = scr_advance,
                         .draw = scr_draw, .requests = scr_requests, .race_time_s = scr_time, .message = scr_message,
                         .after = scr_after, .bench_begin = scr_bench_begin, .bench_title = scr_bench_title};
        if (cfg->bench_frames > 0)
            winloop_bench(&L, &scr, cfg->bench_frames);
        else
            winloop_run(&L, &scr);
        rc = 0;
    }
    overwin_close(&pw.watch);
    if (pw.ps) {
        play_state_free(pw.ps); /* finalises the recording */
        free(pw.ps);
    }
    winloop_close(&L);
    return rc;
}
