/* Window state without a window: setup, the app clock, live controls and
 * input events (keys and mouse). The engine is changed only through its
 * live-change calls. */
#include "app_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const dist_names[] = {"none", "normal", "pareto", "paretonormal"};
#define NDIST 4

static const double speeds[] = {0.25, 0.5, 1, 2, 4, 8};
#define NSPEEDS 6

void app_set_message(AppState *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->msg, sizeof s->msg, fmt, ap);
    va_end(ap);
    s->msg_frames = 300; /* about 5 s at 60 fps */
}

/* Name of a spec's distribution table as the cycle knows it. */
static void spec_dist(const LinkSpec *l, char *buf, size_t n)
{
    if (l->table.n <= 0) {
        snprintf(buf, n, "none");
        return;
    }
    const char *base = strrchr(l->table.name, '/');
    base = base ? base + 1 : l->table.name;
    snprintf(buf, n, "%s", base);
    char *dot = strstr(buf, ".dist");
    if (dot)
        *dot = '\0';
}

static void fmt_time(char *buf, size_t n, int64_t us)
{
    if (us % 1000 == 0)
        snprintf(buf, n, "%lldms", (long long)(us / 1000));
    else
        snprintf(buf, n, "%lldus", (long long)us);
}

bool app_link_text(const LinkSpec *l, int64_t delay_us, int64_t jitter_us, double loss_p,
                   const char *dist, char *buf, size_t n)
{
    char d[32], j[32], tmp[96];
    size_t len = 0;
    buf[0] = '\0';
#define ADD(...)                                                                                   \
    do {                                                                                           \
        snprintf(tmp, sizeof tmp, __VA_ARGS__);                                                    \
        size_t tl = strlen(tmp);                                                                   \
        if (len + tl + 1 > n)                                                                      \
            return false;                                                                          \
        memcpy(buf + len, tmp, tl + 1);                                                            \
        len += tl;                                                                                 \
    } while (0)
    fmt_time(d, sizeof d, delay_us);
    ADD("delay %s", d);
    if (jitter_us > 0) {
        fmt_time(j, sizeof j, jitter_us);
        ADD(" %s", j);
        if (l->delay_corr > 0)
            ADD(" %g%%", l->delay_corr * 100.0);
        if (dist && strcmp(dist, "none") != 0)
            ADD(" distribution %s", dist);
    }
    if (loss_p > 0) {
        ADD(" loss %g%%", loss_p * 100.0);
        if (l->loss_kind == LINK_LOSS_RANDOM && l->loss_corr > 0)
            ADD(" %g%%", l->loss_corr * 100.0);
    } else if (loss_p < 0 && l->loss_kind == LINK_LOSS_GEMODEL) {
        /* loss untouched: keep the Gilbert-Elliott model as it was */
        ADD(" loss gemodel %g%% %g%% %g%% %g%%", l->ge_p * 100.0, l->ge_r * 100.0, l->ge_h * 100.0,
            l->ge_k * 100.0);
    }
    if (l->dup_p > 0)
        ADD(" duplicate %g%%", l->dup_p * 100.0);
    if (l->fifo)
        ADD(" order fifo");
#undef ADD
    return true;
}

/* Current loss probability of a spec as the loss control shows it. */
static double spec_loss(const LinkSpec *l)
{
    return l->loss_kind == LINK_LOSS_RANDOM ? l->loss_p : 0.0;
}

/* Rebuild direction dir's spec with one field changed and hand it to the engine. */
static void change_link(AppState *s, int dir, int64_t delay_us, int64_t jitter_us, double loss_p,
                        const char *dist)
{
    const LinkSpec *cur = engine_link(s->e, dir);
    char text[LINK_TEXT_MAX];
    if (!app_link_text(cur, delay_us, jitter_us, loss_p, dist, text, sizeof text)) {
        app_set_message(s, "link %s: spec too long", dir == 0 ? "1->2" : "2->1");
        return;
    }
    LinkSpec spec;
    memset(&spec, 0, sizeof spec);
    NrError err = {{0}};
    if (!linkspec_parse(&spec, text, s->cfg.table_dir, &err)) {
        app_set_message(s, "link %s '%s': %s", dir == 0 ? "1->2" : "2->1", text, err.msg);
        linkspec_free(&spec);
        return;
    }
    if (!engine_set_link(s->e, dir, &spec, &err))
        app_set_message(s, "link %s: %s", dir == 0 ? "1->2" : "2->1", err.msg);
    linkspec_free(&spec);
}

static int speed_index(double v)
{
    int best = 0;
    for (int i = 1; i < NSPEEDS; i++)
        if (fabs(speeds[i] - v) < fabs(speeds[best] - v))
            best = i;
    return best;
}

void app_ctl_value(const AppState *s, int ctl, char *buf, size_t n)
{
    int dir = (ctl >= CTL_DELAY21 && ctl <= CTL_LOSS21) ? 1 : 0;
    const LinkSpec *l = engine_link(s->e, dir);
    const SchemeParams *p = engine_params(s->e);
    if (l->trace.on && ctl >= CTL_DELAY12 && ctl <= CTL_LOSS21) {
        snprintf(buf, n, "trace"); /* the measured trace gives them */
        return;
    }
    switch (ctl) {
    case CTL_DELAY12:
    case CTL_DELAY21:
        snprintf(buf, n, "%.0f ms", (double)l->delay_us / 1000.0);
        break;
    case CTL_JITTER12:
    case CTL_JITTER21:
        snprintf(buf, n, "%.0f ms", (double)l->jitter_us / 1000.0);
        break;
    case CTL_LOSS12:
    case CTL_LOSS21:
        snprintf(buf, n, "%g %%", spec_loss(l) * 100.0);
        break;
    case CTL_DIST:
        spec_dist(engine_link(s->e, 0), buf, n);
        break;
    case CTL_DELTA:
        snprintf(buf, n, "%.0f ms", (double)p->delta_us / 1000.0);
        break;
    case CTL_TDR:
        snprintf(buf, n, "%.2f cw", p->tdr_cw);
        break;
    case CTL_SPEED:
        snprintf(buf, n, "%gx", s->speed);
        break;
    default:
        buf[0] = '\0';
    }
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

void app_ctl_change(AppState *s, int ctl, int dir, bool big)
{
    if (s->cfg.live && ctl == CTL_SPEED)
        return; /* the race runs at the drivers' pace */
    int step = dir * (big ? 5 : 1);
    int ld = (ctl >= CTL_DELAY21 && ctl <= CTL_LOSS21) ? 1 : 0;
    const LinkSpec *l = engine_link(s->e, ld);
    char dist[64];
    spec_dist(l, dist, sizeof dist);
    double keep_loss = l->loss_kind == LINK_LOSS_GEMODEL ? -1.0 : spec_loss(l);
    SchemeParams p = *engine_params(s->e);
    if (l->trace.on && ctl >= CTL_DELAY12 && ctl <= CTL_LOSS21) {
        /* Rebuilding a netem spec would silently drop the measured trace. */
        app_set_message(s, "link %s is a trace: its delays and losses come from the file (--link%s)",
                        ld == 0 ? "1->2" : "2->1", ld == 0 ? "12" : "21");
        return;
    }
    switch (ctl) {
    case CTL_DELAY12:
    case CTL_DELAY21: {
        int64_t v = clamp64((l->delay_us / 10000 + step) * 10000, 0, 2000000);
        change_link(s, ld, v, l->jitter_us, keep_loss, dist);
        break;
    }
    case CTL_JITTER12:
    case CTL_JITTER21: {
        int64_t v = clamp64((l->jitter_us / 5000 + step) * 5000, 0, 1000000);
        change_link(s, ld, l->delay_us, v, keep_loss, dist);
        break;
    }
    case CTL_LOSS12:
    case CTL_LOSS21: {
        double v = floor(spec_loss(l) * 100.0 + 0.5) + step;
        v = v < 0 ? 0 : v > 90 ? 90 : v;
        change_link(s, ld, l->delay_us, l->jitter_us, v / 100.0, dist);
        break;
    }
    case CTL_DIST: {
        int cur = 0;
        for (int i = 0; i < NDIST; i++)
            if (strcmp(dist, dist_names[i]) == 0)
                cur = i;
        int next = ((cur + (dir >= 0 ? 1 : -1)) % NDIST + NDIST) % NDIST;
        for (int d = 0; d < 2; d++) {
            const LinkSpec *ll = engine_link(s->e, d);
            if (ll->trace.on)
                continue; /* a trace has no jitter to shape */
            change_link(s, d, ll->delay_us, ll->jitter_us,
                        ll->loss_kind == LINK_LOSS_GEMODEL ? -1.0 : spec_loss(ll), dist_names[next]);
        }
        if (engine_link(s->e, 0)->jitter_us == 0 && engine_link(s->e, 1)->jitter_us == 0)
            app_set_message(s, "distribution applies to the jitter: set a jitter first");
        break;
    }
    case CTL_DELTA:
        p.delta_us = clamp64((p.delta_us / 10000 + step) * 10000, 0, SCHEME_DELTA_MAX_US);
        engine_set_params(s->e, &p);
        break;
    case CTL_TDR: {
        double v = floor(p.tdr_cw * 20.0 + 0.5) + step;
        v = v < 1 ? 1 : v > 100 ? 100 : v;
        p.tdr_cw = v / 20.0;
        engine_set_params(s->e, &p);
        break;
    }
    case CTL_SPEED: {
        int i = speed_index(s->speed) + (dir > 0 ? 1 : -1);
        s->speed = speeds[i < 0 ? 0 : i >= NSPEEDS ? NSPEEDS - 1 : i];
        break;
    }
    default:
        break;
    }
}

static void clear_trails(AppState *s)
{
    memset(s->trail, 0, sizeof s->trail);
    s->trail_t = -1;
}

static int64_t sample_period_us(const Engine *e)
{
    int64_t period = engine_params(e)->period_us;
    return period > 0 ? period : 33 * NR_US_PER_MS;
}

int64_t app_sample_floor(const Engine *e, int64_t t_us)
{
    int64_t period = sample_period_us(e);
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
    clear_trails(s);
    s->race_frac_us = 0;
}

static void single_step(AppState *s)
{
    s->paused = true;
    int64_t period = sample_period_us(s->e);
    if (replay_done(s->rp) && s->loop)
        app_restart(s);
    app_step_to(s, engine_now(s->e) + period);
}

void app_ctl_press(AppState *s, int ctl)
{
    if (s->cfg.live && (ctl == BTN_PAUSE || ctl == BTN_STEP || ctl == BTN_RESTART || ctl == BTN_LOOP)) {
        app_set_message(s, "the race is being driven: pause or restart it in the game window");
        return;
    }
    switch (ctl) {
    case BTN_PAUSE:
        s->paused = !s->paused;
        break;
    case BTN_STEP:
        single_step(s);
        break;
    case BTN_RESTART:
        app_restart(s);
        break;
    case BTN_LOOP:
        s->loop = !s->loop;
        break;
    case BTN_RESET:
        engine_reset_metrics(s->e);
        s->gtext_valid = false;
        app_set_message(s, "gauges reset at t = %.1f s", (double)engine_now(s->e) / 1e6);
        break;
    case BTN_GHOST:
        s->overlays ^= APP_OVERLAY_GHOST;
        break;
    case BTN_TRAILS:
        s->overlays ^= APP_OVERLAY_TRAILS;
        if (s->overlays & APP_OVERLAY_TRAILS)
            clear_trails(s); /* no stale positions from the last time they were on */
        break;
    case BTN_INFLIGHT:
        s->overlays ^= APP_OVERLAY_INFLIGHT;
        break;
    case BTN_ZOOM:
        s->follow[s->focus >= 0] = !s->follow[s->focus >= 0];
        break;
    case BTN_HELP:
        s->help = !s->help;
        break;
    default:
        break;
    }
}

int64_t app_end_us(const AppState *s)
{
    return s->rp ? replay_end_us(s->rp) : engine_now(s->e);
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
    s->speed = speeds[speed_index(cfg->speed > 0 ? cfg->speed : 1.0)];
    s->focus = cfg->focus >= 0 && cfg->focus < engine_scheme_count(e) ? cfg->focus : -1;
    s->overlays = cfg->overlays;
    s->trail_t = -1;
    /* both the thumbnails and a focused scheme zoom on the cars (a whole
     * track in a thumbnail leaves cars of a few pixels); Z toggles */
    s->follow[0] = s->follow[1] = true;
    for (int d = 0; d < 2 && cfg->script; d++)
        if (!linkspec_copy(&s->link0[d], engine_link(e, d)))
            return nr_error_set(err, "out of memory");
    track_geometry(s, engine_track(e), cfg, r);
    return true;
}

void app_state_init_track(AppState *s, const Track *t, const AppConfig *cfg, SDL_Renderer *r)
{
    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
    s->r = r;
    s->focus = -1;
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
}

void app_state_free(AppState *s)
{
    if (!s)
        return;
    for (int i = 0; i < 2; i++)
        if (s->track_tex[i])
            SDL_DestroyTexture(s->track_tex[i]);
    memset(s->track_tex, 0, sizeof s->track_tex);
    AppLayer *layers[3] = {&s->chart_layer[0], &s->chart_layer[1], &s->bar_layer};
    for (int i = 0; i < 3; i++) {
        if (layers[i]->tex)
            SDL_DestroyTexture(layers[i]->tex);
        memset(layers[i], 0, sizeof *layers[i]);
    }
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

static bool in_rect(const SDL_FRect *r, float x, float y)
{
    return r->w > 0 && x >= r->x && x < r->x + r->w && y >= r->y && y < r->y + r->h;
}

static void handle_click(AppState *s, float x, float y, int button)
{
    const AppLayout *L = &s->lay;
    for (int c = 0; c < CTL_NVALUES; c++) {
        if (in_rect(&L->minus[c], x, y)) {
            s->sel = c;
            app_ctl_change(s, c, -1, false);
            return;
        }
        if (in_rect(&L->plus[c], x, y)) {
            s->sel = c;
            app_ctl_change(s, c, +1, false);
            return;
        }
        if (in_rect(&L->ctl[c], x, y)) {
            s->sel = c;
            return;
        }
    }
    for (int c = CTL_NVALUES; c < CTL_COUNT; c++)
        if (in_rect(&L->ctl[c], x, y)) {
            app_ctl_press(s, c);
            return;
        }
    if (s->help) {
        s->help = false;
        return;
    }
    if (button == SDL_BUTTON_RIGHT) {
        s->focus = -1;
        return;
    }
    int n = engine_scheme_count(s->e);
    if (s->focus >= 0) {
        if (in_rect(&L->main, x, y))
            s->focus = -1;
        return;
    }
    for (int k = 0; k < n; k++)
        if (in_rect(&L->row[k], x, y)) {
            s->focus = k;
            return;
        }
}

static void handle_key(AppState *s, const SDL_KeyboardEvent *k)
{
    SDL_Keycode sym = k->keysym.sym;
    Uint16 mod = k->keysym.mod;
    bool shift = (mod & KMOD_SHIFT) != 0, ctrl = (mod & KMOD_CTRL) != 0;
    int n = engine_scheme_count(s->e);
    if (ctrl && (sym == SDLK_q || sym == SDLK_w || sym == SDLK_c)) {
        s->want_quit = true;
        return;
    }
    switch (sym) {
    case SDLK_q:
        s->want_quit = true;
        break;
    case SDLK_ESCAPE:
        if (s->help)
            s->help = false;
        else
            s->focus = -1;
        break;
    case SDLK_SPACE:
        app_ctl_press(s, BTN_PAUSE);
        break;
    case SDLK_n:
    case SDLK_PERIOD:
        app_ctl_press(s, BTN_STEP);
        break;
    case SDLK_PLUS:
    case SDLK_EQUALS:
    case SDLK_KP_PLUS:
        app_ctl_change(s, CTL_SPEED, +1, false);
        break;
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
        app_ctl_change(s, CTL_SPEED, -1, false);
        break;
    case SDLK_r:
        app_ctl_press(s, BTN_RESTART);
        break;
    case SDLK_l:
        app_ctl_press(s, BTN_LOOP);
        break;
    case SDLK_c:
        app_ctl_press(s, BTN_RESET);
        break;
    case SDLK_g:
        app_ctl_press(s, BTN_GHOST);
        break;
    case SDLK_t:
        app_ctl_press(s, BTN_TRAILS);
        break;
    case SDLK_m:
        app_ctl_press(s, BTN_INFLIGHT);
        break;
    case SDLK_z:
        app_ctl_press(s, BTN_ZOOM);
        break;
    case SDLK_d:
        app_ctl_change(s, CTL_DIST, shift ? -1 : +1, false);
        break;
    case SDLK_h:
    case SDLK_F1:
    case SDLK_QUESTION:
        app_ctl_press(s, BTN_HELP);
        break;
    case SDLK_SLASH:
        if (shift)
            app_ctl_press(s, BTN_HELP);
        break;
    case SDLK_f:
    case SDLK_F11:
        s->want_fullscreen = true;
        break;
    case SDLK_p:
    case SDLK_F12:
        s->want_shot = true;
        break;
    case SDLK_TAB:
        if (n > 0)
            s->focus = shift ? (s->focus <= 0 ? n - 1 : s->focus - 1) : (s->focus + 1 >= n ? -1 : s->focus + 1);
        break;
    case SDLK_0:
    case SDLK_KP_0:
        s->focus = -1;
        break;
    case SDLK_UP:
        s->sel = (s->sel + CTL_NVALUES - 1) % CTL_NVALUES;
        break;
    case SDLK_DOWN:
        s->sel = (s->sel + 1) % CTL_NVALUES;
        break;
    case SDLK_LEFT:
    case SDLK_LEFTBRACKET:
        app_ctl_change(s, s->sel, -1, shift);
        break;
    case SDLK_RIGHT:
    case SDLK_RIGHTBRACKET:
        app_ctl_change(s, s->sel, +1, shift);
        break;
    default: {
        /* 1-9 focus schemes 1-9, Shift+1-9 schemes 10-18 (12 schemes, and
         * more, without Tab) */
        int k = -1;
        if (sym >= SDLK_1 && sym <= SDLK_9)
            k = (int)(sym - SDLK_1) + (shift ? 9 : 0);
        else if (sym >= SDLK_KP_1 && sym <= SDLK_KP_9)
            k = (int)(sym - SDLK_KP_1) + (shift ? 9 : 0);
        if (k >= 0 && k < n)
            s->focus = k;
        break;
    }
    }
}

void app_handle_event(AppState *s, const SDL_Event *ev)
{
    switch (ev->type) {
    case SDL_QUIT:
        s->want_quit = true;
        break;
    case SDL_WINDOWEVENT: /* one of several windows closed (the game's overview) */
        if (ev->window.event == SDL_WINDOWEVENT_CLOSE)
            s->want_quit = true;
        break;
    case SDL_KEYDOWN:
        handle_key(s, &ev->key);
        break;
    case SDL_MOUSEBUTTONDOWN:
        handle_click(s, (float)ev->button.x, (float)ev->button.y, ev->button.button);
        break;
    case SDL_MOUSEWHEEL: {
        int mx = 0, my = 0;
        SDL_GetMouseState(&mx, &my);
        for (int c = 0; c < CTL_NVALUES; c++)
            if (in_rect(&s->lay.ctl[c], (float)mx, (float)my) && ev->wheel.y != 0) {
                s->sel = c;
                app_ctl_change(s, c, ev->wheel.y > 0 ? +1 : -1, false);
            }
        break;
    }
    default:
        break;
    }
}
