/* The replay screen on the one window loop (winloop.h): the app's wall
 * clock drives the replay; offscreen snapshots. */
#include "app_internal.h"
#include "winloop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- the replay screen's callbacks (WinScreen) ------------------------- */

static void scr_event(void *ctx, const SDL_Event *ev)
{
    app_handle_event(ctx, ev);
}

static void scr_advance(void *ctx, int64_t wall_dt_us)
{
    app_advance(ctx, wall_dt_us);
}

static void scr_draw(void *ctx, int w, int h)
{
    app_draw(ctx, w, h);
}

unsigned app_requests(AppState *s)
{
    unsigned r = (s->want_quit ? WIN_QUIT : 0) | (s->want_fullscreen ? WIN_FULLSCREEN : 0) |
                 (s->want_shot ? WIN_SHOT : 0);
    s->want_fullscreen = s->want_shot = false;
    return r;
}

static unsigned scr_requests(void *ctx)
{
    return app_requests(ctx);
}

static double scr_time(void *ctx)
{
    return (double)app_now_us(ctx) / 1e6;
}

static void scr_message(void *ctx, const char *text)
{
    app_set_message(ctx, "%s", text);
}

static void scr_bench_begin(void *ctx)
{
    AppState *s = ctx;
    s->paused = false; /* the overview unless --focus asked for one scheme */
    s->loop = true;
}

static void scr_bench_title(void *ctx, int w, int h, char *buf, size_t n)
{
    AppState *s = ctx;
    snprintf(buf, n, "%s of %d schemes, %dx%d", s->focus >= 0 ? "focus" : "overview", s->data.n, w, h);
}

WinScreen app_screen(AppState *s)
{
    WinScreen scr = {.ctx = s,
                     .shot_prefix = "netrace",
                     .event = scr_event,
                     .advance = scr_advance,
                     .draw = scr_draw,
                     .requests = scr_requests,
                     .race_time_s = scr_time,
                     .message = scr_message,
                     .bench_begin = scr_bench_begin,
                     .bench_title = scr_bench_title};
    return scr;
}

int app_run_window(const AppConfig *cfg)
{
    if (!cfg || !cfg->replay) {
        fprintf(stderr, "netrace: no engine to show\n");
        return 1;
    }
    char title[256];
    snprintf(title, sizeof title, "netrace%s%s", cfg->title ? " - " : "", cfg->title ? cfg->title : "");
    WinLoopConfig wc = {.title = title, .width = cfg->width, .height = cfg->height, .min_w = 640, .min_h = 400,
                        .fullscreen = cfg->fullscreen, .invisible_ok = cfg->bench_frames > 0,
                        .shot_dir = cfg->shot_dir};
    WinLoop L;
    if (!winloop_open(&L, &wc))
        return 1;
    AppState *s = calloc(1, sizeof *s);
    NrError err = {{0}};
    int rc = 1;
    if (!s)
        fprintf(stderr, "netrace: out of memory\n");
    else if (!app_state_init(s, cfg->replay, cfg, L.r, &err))
        fprintf(stderr, "netrace: %s\n", err.msg);
    else {
        WinScreen scr = app_screen(s);
        if (cfg->bench_frames > 0)
            winloop_bench(&L, &scr, cfg->bench_frames);
        else
            winloop_run(&L, &scr);
        rc = 0;
    }
    if (s) {
        app_state_free(s);
        free(s);
    }
    winloop_close(&L);
    return rc;
}
