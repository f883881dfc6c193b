/* Window state without a window: setup, the app clock, live controls and
 * input events (keys and mouse). The engine is changed only through its
 * live-change calls. */
#include "app_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void app_set_message(AppState *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->msg, sizeof s->msg, fmt, ap);
    va_end(ap);
    s->msg_frames = 300; /* about 5 s at 60 fps */
}

void app_clear_trails(AppState *s)
{
    memset(s->trail, 0, sizeof s->trail);
    s->trail_t = -1;
}

int64_t app_period_us(const Engine *e)
{
    int64_t period = engine_params(e)->period_us;
    return period > 0 ? period : 33 * NR_US_PER_MS;
}

int64_t app_sample_floor(const Engine *e, int64_t t_us)
{
    int64_t period = app_period_us(e);
    return t_us <= 0 ? 0 : t_us / period * period;
}

void app_step_to(AppState *s, int64_t t_us)
{
    const LinkChange *last = NULL;
    NrError err = {{0}};
    if (linkscript_run_to(s->cfg.script, &s->script_next, s->e, t_us, linkscript_step_replay, s->rp, &last, &err) < 0)
        app_set_message(s, "link script: %s", err.msg);
    else if (last) {
        char line[LINK_TEXT_MAX + 96];
        app_set_message(s, "%s", linkscript_describe(last, line, sizeof line));
    }
}

void app_restart(AppState *s)
{
    replay_restart(s->rp);
    if (s->cfg.script) {
        NrError err = {{0}};
        for (int d = 0; d < 2; d++)
            if (!engine_set_link(s->e, d, &s->link0[d], &err))
                app_set_message(s, "restart: %s", err.msg);
        s->script_next = 0;
    }
    /* an older message (a script change at 16 s) would read as current */
    app_set_message(s, "restart: t = 0%s", s->cfg.script ? ", links as at the start, the script plays again" : "");
    s->gtext_valid = false;
    app_clear_trails(s);
    s->race_frac_us = 0;
}

int64_t app_now_us(const AppState *s)
{
    return s->e ? engine_now(s->e) : s->data.now_us;
}

int64_t app_end_us(const AppState *s)
{
    return s->rp ? replay_end_us(s->rp) : engine_now(s->e);
}

int64_t app_mark_origin_us(const AppState *s)
{
    if (!s->rp)
        return 0; /* a live race has one heat */
    const Recording *rec = replay_recording(s->rp);
    return replay_end_us(s->rp) - (int64_t)(rec->nsamples - 1) * rec->period_ms * NR_US_PER_MS;
}

static void track_geometry(AppState *s, const Track *t, const AppConfig *cfg, SDL_Renderer *r);

bool app_state_init(AppState *s, Replay *rp, const AppConfig *cfg, SDL_Renderer *r, NrError *err)
{
    return app_state_init_engine(s, replay_engine(rp), rp, cfg, r, err);
}

bool app_state_init_engine(AppState *s, Engine *e, Replay *rp, const AppConfig *cfg, SDL_Renderer *r, NrError *err)
{
    memset(s, 0, sizeof *s);
    s->rp = rp;
    s->e = e;
    s->cfg = *cfg;
    s->r = r;
    s->paused = cfg->paused;
    s->loop = cfg->loop;
    s->speed = app_speed_nearest(cfg->speed > 0 ? cfg->speed : 1.0);
    s->scale = cfg->scale > 0 ? cfg->scale : 1.0;
    s->focus = cfg->focus >= 0 && cfg->focus < engine_scheme_count(e) ? cfg->focus : -1;
    s->overlays = cfg->overlays;
    s->lag = cfg->lagometer;
    if (rp) { /* a replay draws its recording's marks */
        s->marks = replay_recording(rp)->marks;
        s->nmarks = replay_recording(rp)->nmarks;
    }
    s->trail_t = -1;
    s->sel = app_links_fixed(s) ? CTL_DELTA : 0;
    /* both the thumbnails and a focused scheme zoom on the cars (a whole
     * track in a thumbnail leaves cars of a few pixels); Z toggles */
    s->follow[0] = s->follow[1] = true;
    for (int d = 0; d < 2 && cfg->script; d++)
        if (!linkspec_copy(&s->link0[d], engine_link(e, d)))
            return nr_error_set(err, "out of memory");
    track_geometry(s, engine_track(e), cfg, r);
    racedata_from_engine(&s->data, e, app_end_us(s)); /* keys before the first frame see the schemes */
    return true;
}

void app_state_init_track(AppState *s, const Track *t, const AppConfig *cfg, SDL_Renderer *r)
{
    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
    s->r = r;
    s->focus = -1;
    s->scale = cfg->scale > 0 ? cfg->scale : 1.0;
    s->follow[0] = s->follow[1] = true;
    track_geometry(s, t, cfg, r);
}

/* Fonts and the track in world units: centre line, both edges, the walls. */
static void track_geometry(AppState *s, const Track *t, const AppConfig *cfg, SDL_Renderer *r)
{
    char font[512];
    gfx_pick_font(cfg->font_path, font, sizeof font);
    gfx_init(&s->gfx, r, font[0] ? font : NULL);

    s->track = t;
    double len = track_length(t), half = track_width(t) / 2.0;
    int n = (int)ceil(len / 1.0);
    n = n < 128 ? 128 : n > APP_TRACK_PTS_MAX ? APP_TRACK_PTS_MAX : n;
    s->npts = n;
    s->bx0 = s->by0 = INFINITY;
    s->bx1 = s->by1 = -INFINITY;
    for (int i = 0; i < n; i++) {
        double x, y, h;
        track_point(t, len * i / n, &x, &y, &h);
        double nx = -sin(h), ny = cos(h); /* left normal */
        s->cx[i] = x;
        s->cy[i] = y;
        s->lx[i] = x + nx * half;
        s->ly[i] = y + ny * half;
        s->rx[i] = x - nx * half;
        s->ry[i] = y - ny * half;
        double wo = half + cfg->wall_cw;
        s->lwx[i] = x + nx * wo;
        s->lwy[i] = y + ny * wo;
        s->rwx[i] = x - nx * wo;
        s->rwy[i] = y - ny * wo;
        s->bx0 = fmin(s->bx0, fmin(s->lx[i], s->rx[i]));
        s->bx1 = fmax(s->bx1, fmax(s->lx[i], s->rx[i]));
        s->by0 = fmin(s->by0, fmin(s->ly[i], s->ry[i]));
        s->by1 = fmax(s->by1, fmax(s->ly[i], s->ry[i]));
    }
    double m = half + 2.0;
    s->bx0 -= m;
    s->by0 -= m;
    s->bx1 += m;
    s->by1 += m;
    app_track_prepare(s);
}

/* Every texture the drawing keeps between frames, forgotten: made and
 * drawn again when next needed. */
static void textures_free(AppState *s)
{
    for (int i = 0; i < 2; i++)
        if (s->track_tex[i])
            SDL_DestroyTexture(s->track_tex[i]);
    memset(s->track_tex, 0, sizeof s->track_tex);
    app_track_layer_free(s);
    app_track_tiles_free(s);
    if (s->dial_tex)
        SDL_DestroyTexture(s->dial_tex);
    s->dial_tex = NULL;
    AppLayer *layers[3] = {&s->chart_layer[0], &s->chart_layer[1], &s->bar_layer};
    for (int i = 0; i < 3; i++) {
        if (layers[i]->tex)
            SDL_DestroyTexture(layers[i]->tex);
        memset(layers[i], 0, sizeof *layers[i]);
    }
}

bool app_render_reset(AppState *s, const SDL_Event *ev)
{
    if (ev->type != SDL_RENDER_TARGETS_RESET && ev->type != SDL_RENDER_DEVICE_RESET)
        return false;
    if (s) {
        textures_free(s);
        if (ev->type == SDL_RENDER_DEVICE_RESET) /* every texture lost, the labels' too */
            gfx_forget_textures(&s->gfx);
    }
    return true;
}

void app_state_free(AppState *s)
{
    if (!s)
        return;
    textures_free(s);
    gfx_free(&s->gfx);
    linkspec_free(&s->link0[0]);
    linkspec_free(&s->link0[1]);
}

void app_advance(AppState *s, int64_t wall_dt_us)
{
    if (s->paused || wall_dt_us <= 0 || !s->rp) /* live: the game steps the engine */
        return;
    if (wall_dt_us > 250000) /* a stalled frame (window drag, debugger) does not jump the race */
        wall_dt_us = 250000;
    double dt = (double)wall_dt_us * s->speed + s->race_frac_us;
    if (replay_done(s->rp)) {
        if (!s->loop)
            return;
        app_restart(s);
        dt = (double)wall_dt_us * s->speed;
    }
    /* The engine stops at the last sample instant the app clock has passed:
     * the metrics are taken at sample instants, so every car, badge and
     * frame drawn is the state they measured (between two samples the
     * schemes would show the remote car moved on and the own car held,
     * screens the metrics never saw). The rest waits in race_frac_us. */
    int64_t now = engine_now(s->e);
    int64_t at = app_sample_floor(s->e, now + (int64_t)floor(dt));
    if (at < now)
        at = now;
    s->race_frac_us = dt - (double)(at - now);
    app_step_to(s, at);
}

