/* The race engine: its terminals (local or remote), one medium per sending
 * terminal, every scheme side by side on common random numbers, fed sample
 * by sample (DESIGN.md "Live play", "Delay emulator", "Metrics"). Setup,
 * feeding and queries; engine_step.c processes, engine_views.c takes the
 * metrics. */
#include "engine_internal.h"
#include "scheme_util.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The schemes' buffers (MuRing, DR+Causality's held MUs) keep 128 samples:
 * the largest Delta they honour is that many periods, less a margin for the
 * MUs that wait past their limit, as the slowest terminal clock counts them.
 * SCHEME_DELTA_MAX_US fits at 33 ms with drifts down to -22000 ppm. */
static int64_t delta_max_us(int64_t period_us, const TerminalClock *clock, int nclocks)
{
    double rate = 1.0;
    for (int j = 0; j < nclocks; j++)
        if (1.0 + clock[j].drift_ppm * 1e-6 < rate)
            rate = 1.0 + clock[j].drift_ppm * 1e-6;
    return (int64_t)((double)((MURING_CAP - 4) * period_us) * (rate > 0.0 ? rate : 0.0));
}

int64_t engine_delta_max_us(int32_t period_ms, const TerminalClock *clock, int nclocks)
{
    return delta_max_us((int64_t)period_ms * NR_US_PER_MS, clock, nclocks);
}

/* ---- setup ------------------------------------------------------------- */

static void reset_race(Engine *e);

static bool check_config(const EngineConfig *cfg, NrError *err)
{
    if (!cfg->track)
        return nr_error_set(err, "engine: a track is required");
    if (cfg->ncars != 0 && (cfg->ncars < 2 || cfg->ncars > ENGINE_MAX_CARS))
        return nr_error_set(err, "engine: %d cars (expected 2 to %d)", cfg->ncars, ENGINE_MAX_CARS);
    if (cfg->topology != ROUTE_P2P && cfg->topology != ROUTE_CS)
        return nr_error_set(err, "engine: unknown topology %d", (int)cfg->topology);
    if (cfg->server != ROUTE_RELAY && cfg->server != ROUTE_SYNC)
        return nr_error_set(err, "engine: unknown server behaviour %d", (int)cfg->server);
    if (cfg->period_ms <= 0)
        return nr_error_set(err, "engine: the sampling period must be positive");
    if (cfg->nschemes < 1 || cfg->nschemes > SCHEME_MAX)
        return nr_error_set(err, "engine: between 1 and %d schemes", SCHEME_MAX);
    if (cfg->history_cap < 0 || cfg->ring_samples < 0 || cfg->progress_n < 0)
        return nr_error_set(err, "engine: negative history, ring or progress size");
    int ncars = cfg->ncars ? cfg->ncars : 2;
    int local = 0;
    for (int j = 0; j < ncars; j++)
        local += !cfg->remote[j];
    if (local == 0)
        return nr_error_set(err, "engine: every terminal is remote");
    if (local < ncars && !cfg->hooks.forward)
        return nr_error_set(err, "engine: a remote terminal needs the forward hook");
    int64_t period_us = (int64_t)cfg->period_ms * NR_US_PER_MS;
    int64_t dmax = delta_max_us(period_us, cfg->clock, ncars);
    if (cfg->params.delta_us < 0 || cfg->params.delta_us > dmax)
        return nr_error_set(err, "engine: Delta %" PRId64 " ms is outside 0 to %" PRId64
                            " ms, what the schemes' buffers hold at this recording's %d ms period and these clocks",
                            cfg->params.delta_us / NR_US_PER_MS, dmax / NR_US_PER_MS, (int)cfg->period_ms);
    return true;
}

/* Two cars peer to peer without pair links: the two-player DelayLines. */
static bool uses_routes(const EngineConfig *cfg, int ncars)
{
    if (ncars > 2 || cfg->topology != ROUTE_P2P)
        return true;
    return cfg->pair_link[0][1] || cfg->pair_link[1][0];
}

/* The race's RouteMedium: every line's spec from the config (route.h). */
static bool make_route(Engine *e, const EngineConfig *cfg, bool need_aux, const char *const *names, NrError *err)
{
    RouteConfig rc = {.topology = cfg->topology, .server = cfg->server, .ncars = e->ncars,
                      .hold_us = cfg->params.delta_us, .seed = cfg->seed, .nschemes = e->n,
                      .need_aux = need_aux, .names = names};
    for (int i = 0; i < e->ncars; i++) {
        for (int j = 0; j < e->ncars; j++) {
            if (cfg->topology == ROUTE_P2P)
                rc.link[i][j] = cfg->pair_link[i][j] ? cfg->pair_link[i][j] : cfg->link[i];
            else
                rc.link[i][j] = cfg->down_link[j];
        }
        rc.up[i] = cfg->up_link[i] ? cfg->up_link[i] : cfg->link[i];
    }
    e->route = calloc(1, sizeof *e->route);
    if (!e->route)
        return nr_error_set(err, "engine: out of memory");
    return route_init(e->route, &rc, err); /* route_init leaves it safe to free, even on failure */
}

/* One medium per local sending terminal: the caller's, a DelayLine of
 * link[d] drawing stream d of the seed, or the race's RouteMedium (route.h),
 * one for every direction it carries, listed once in med_dir. */
static bool make_media(Engine *e, const EngineConfig *cfg, NrError *err)
{
    bool need_aux = false;
    for (int k = 0; k < e->n; k++)
        need_aux |= e->types[k]->extra_packets;
    if (!linkspec_parse(&e->none, "", NULL, err))
        return false;
    e->dl = calloc((size_t)e->ncars, sizeof *e->dl);
    if (!e->dl)
        return nr_error_set(err, "engine: out of memory");
    const char *names[SCHEME_MAX];
    for (int k = 0; k < e->n; k++)
        names[k] = e->types[k]->name;
    bool routes = uses_routes(cfg, e->ncars);
    int route_first = -1;
    for (int d = 0; d < e->ncars; d++) {
        if (e->remote[d])
            continue; /* its MUs come over the network */
        e->has_med[d] = true;
        e->due_of[d] = d;
        e->ahead[d] = true;
        for (int to = 0; to < e->ncars; to++)
            e->ahead[d] &= to == d || e->remote[to];
        if (cfg->medium[d]) {
            e->med[d] = *cfg->medium[d];
            e->med_dir[e->nmed++] = d;
            continue;
        }
        if (routes) {
            if (!e->route && !make_route(e, cfg, need_aux, names, err))
                return false;
            e->med[d] = route_medium(e->route);
            e->own_route[d] = true;
            if (route_first < 0)
                e->med_dir[e->nmed++] = route_first = d;
            e->due_of[d] = route_first;
            continue;
        }
        e->med_dir[e->nmed++] = d;
        const LinkSpec *spec = cfg->link[d] ? cfg->link[d] : &e->none;
        if (!delayline_init(&e->dl[d], spec, cfg->seed, d, e->n, need_aux))
            return nr_error_set(err, "engine: out of memory");
        e->own_dl[d] = true;
        delayline_set_schemes(&e->dl[d], names, e->n);
        e->med[d] = delayline_medium(&e->dl[d]);
    }
    return true;
}

/* Terminals, progress rings, histories and views: every allocation. */
static bool make_state(Engine *e, bool cfg_lag, NrError *err)
{
    for (int j = 0; j < e->ncars; j++) {
        e->sinkctx[j] = (SinkCtx){e, j};
        e->sink[j] = (TerminalSink){&e->sinkctx[j], engine_sink_send};
        e->fan[j] = (TerminalFan){&e->sinkctx[j], engine_sink_send_many};
        if (!e->remote[j]) {
            TerminalConfig tc = {.car = j, .ncars = e->ncars, .params = e->params, .schemes = e->types,
                                 .nschemes = e->n};
            e->term[j] = terminal_new(&tc, err);
            if (!e->term[j])
                return false;
        }
        e->prog[j] = malloc(sizeof(double) * (size_t)e->prog_cap);
        e->ptag[j] = malloc(sizeof(int64_t) * (size_t)e->prog_cap);
        if (!e->prog[j] || !e->ptag[j])
            return nr_error_set(err, "engine: out of memory");
    }
    for (int k = 0; k < e->n && e->keep_history; k++) {
        e->s[k].hist = malloc(sizeof(MetricSample) * (size_t)e->hist_cap);
        if (!e->s[k].hist)
            return nr_error_set(err, "engine: out of memory");
    }
    if (!engine_alloc_views(e) || (cfg_lag && !engine_alloc_lag(e)))
        return nr_error_set(err, "engine: out of memory");
    e->ring_pose = malloc(sizeof *e->ring_pose * ENGINE_PUSH_AHEAD * (size_t)e->ncars);
    if (!e->ring_pose)
        return nr_error_set(err, "engine: out of memory");
    for (int i = 0; i < ENGINE_PUSH_AHEAD; i++)
        e->ring[i].pose = e->ring_pose + (size_t)i * (size_t)e->ncars;
    return true;
}

Engine *engine_new(const EngineConfig *cfg, NrError *err)
{
    if (!check_config(cfg, err))
        return NULL;
    Engine *e = calloc(1, sizeof *e);
    if (!e) {
        nr_error_set(err, "engine: out of memory");
        return NULL;
    }
    e->track = cfg->track;
    e->n = cfg->nschemes;
    e->ncars = cfg->ncars ? cfg->ncars : 2;
    e->topology = cfg->topology;
    memcpy(e->types, cfg->schemes, sizeof e->types);
    e->params = cfg->params;
    e->hooks = cfg->hooks;
    e->period_us = (int64_t)cfg->period_ms * NR_US_PER_MS;
    e->params.period_us = e->period_us;
    bool given = true;
    e->all_local = true;
    for (int j = 0; j < e->ncars; j++) {
        e->clock[j] = cfg->clock[j];
        e->remote[j] = cfg->remote[j];
        e->all_local &= !cfg->remote[j];
        e->given_prog[j] = cfg->progress[j];
        given &= cfg->progress[j] != NULL;
    }
    e->keep_history = cfg->keep_history;
    e->hist_cap = cfg->history_cap > 0 ? cfg->history_cap : ENGINE_HISTORY_DEFAULT;
    e->prog_cap = cfg->ring_samples > 0 ? cfg->ring_samples : ENGINE_RING_DEFAULT;
    e->given_n = given ? cfg->progress_n : 0;
    e->s = calloc((size_t)e->n, sizeof *e->s);
    bool ok = e->s != NULL;
    if (!ok)
        nr_error_set(err, "engine: out of memory");
    ok = ok && make_media(e, cfg, err) && make_state(e, cfg->lagometer, err);
    if (!ok) {
        engine_free(e);
        return NULL;
    }
    reset_race(e);
    return e;
}

void engine_free(Engine *e)
{
    if (!e)
        return;
    for (int k = 0; k < e->n && e->s; k++)
        free(e->s[k].hist);
    free(e->s);
    for (int j = 0; j < e->ncars; j++) {
        terminal_free(e->term[j]);
        free(e->prog[j]);
        free(e->ptag[j]);
        if (e->own_dl[j])
            delayline_free(&e->dl[j]);
    }
    route_free(e->route);
    free(e->dl);
    free(e->route);
    free(e->ring_pose);
    free(e->lag);
    free(e->lag_ev);
    engine_free_views(e);
    linkspec_free(&e->none);
    free(e);
}

/* ---- feeding ----------------------------------------------------------- */

bool engine_push(Engine *e, const CarPose *poses, int ncars, unsigned flags)
{
    if (ncars != e->ncars || e->finished || e->pushed - e->processed >= ENGINE_PUSH_AHEAD)
        return false;
    /* v * 0 is 0 for a finite v and NaN for NaN or an infinity: the sum is 0
     * exactly when every number is finite (one compare per push). */
    double zero = 0.0;
    for (int c = 0; c < e->ncars; c++)
        zero += poses[c].x * 0.0 + poses[c].y * 0.0 + poses[c].heading * 0.0 + poses[c].speed * 0.0;
    if (zero != 0.0)
        return false;
    bool new_heat = e->pushed == 0 || (flags & ENGINE_PUSH_NEW_HEAT);
    if (new_heat)
        e->push_seq = 0;
    Pushed *p = &e->ring[(uint64_t)e->pushed % ENGINE_PUSH_AHEAD];
    memcpy(p->pose, poses, sizeof *p->pose * (size_t)e->ncars);
    p->t_us = e->push_next_us;
    p->seq = e->push_seq++;
    p->new_heat = new_heat;
    e->last_pushed_us = p->t_us;
    e->push_next_us += e->period_us;
    e->pushed++;
    return true;
}

void engine_finish(Engine *e)
{
    e->finished = true;
}

/* ---- queries and live changes ------------------------------------------ */

int64_t engine_now(const Engine *e)
{
    return e->now_us;
}

int64_t engine_pushed_us(const Engine *e)
{
    return e->pushed > 0 ? e->last_pushed_us : -1;
}

bool engine_done(const Engine *e)
{
    return e->finished && e->processed == e->pushed;
}

int engine_scheme_count(const Engine *e)
{
    return e->n;
}

int engine_car_count(const Engine *e)
{
    return e->ncars;
}

RouteTopology engine_topology(const Engine *e)
{
    return e->topology;
}

const SchemeType *engine_scheme(const Engine *e, int k)
{
    return e->types[k];
}

void engine_truth(const Engine *e, int car, Pose *out, double *progress)
{
    out->x = e->cur[car].x;
    out->y = e->cur[car].y;
    out->heading = e->cur[car].heading;
    out->seq = e->cur_seq;
    if (progress)
        *progress = e->cur_prog[car];
}

const Metrics *engine_metrics(const Engine *e, int k)
{
    return &e->s[k].m;
}

const MetricSample *engine_history(const Engine *e, int k, int *n)
{
    *n = e->s[k].hist_n;
    return e->s[k].hist;
}

bool engine_set_link(Engine *e, int dir, const LinkSpec *spec, NrError *err)
{
    if (dir < 0 || dir >= e->ncars || !e->own_dl[dir])
        return nr_error_set(err, "engine: direction %d runs over the caller's medium, the network or an N-car route, "
                                 "not a link spec", dir);
    return delayline_set_spec(&e->dl[dir], spec, err);
}

bool engine_set_line(Engine *e, int from, int to, const LinkSpec *spec, NrError *err)
{
    int sender = from == ENGINE_SERVER ? to : from;
    if (sender >= 0 && sender < e->ncars && e->own_route[sender])
        return route_set_line(e->route, from, to, spec, err);
    if (from >= 0 && from < e->ncars && to == 1 - from && e->ncars == 2)
        return engine_set_link(e, from, spec, err);
    char a[12], b[12];
    snprintf(a, sizeof a, "%d", from + 1);
    snprintf(b, sizeof b, "%d", to + 1);
    return nr_error_set(err, "engine: no line %s-%s of emulated links in this race", from == ENGINE_SERVER ? "s" : a,
                        to == ENGINE_SERVER ? "s" : b);
}

const LinkSpec *engine_link(const Engine *e, int dir)
{
    return dir >= 0 && dir < e->ncars && e->own_dl[dir] ? delayline_spec(&e->dl[dir]) : &e->none;
}

void engine_set_params(Engine *e, const SchemeParams *p)
{
    e->params = *p;
    e->params.period_us = e->period_us;
    int64_t dmax = delta_max_us(e->period_us, e->clock, e->ncars);
    if (e->params.delta_us > dmax)
        e->params.delta_us = dmax;
    if (e->params.delta_us < 0)
        e->params.delta_us = 0;
    for (int j = 0; j < e->ncars; j++)
        if (e->term[j])
            terminal_set_params(e->term[j], &e->params);
}

const SchemeParams *engine_params(const Engine *e)
{
    return &e->params;
}

void engine_set_clock(Engine *e, int j, const TerminalClock *clock)
{
    if (j >= 0 && j < e->ncars)
        e->clock[j] = *clock;
}

void engine_reset_metrics(Engine *e)
{
    for (int k = 0; k < e->n; k++) {
        metrics_reset(&e->s[k].m);
        e->s[k].hist_n = 0;
    }
    for (int j = 0; j < e->ncars; j++)
        if (e->term[j])
            terminal_reset_counters(e->term[j]);
}

void engine_restart(Engine *e)
{
    for (int d = 0; d < e->ncars; d++) {
        if (e->own_dl[d])
            delayline_reset(&e->dl[d]);
        else if (e->has_med[d] && !e->own_route[d])
            medium_clear(&e->med[d]);
    }
    if (e->route)
        route_reset(e->route);
    reset_race(e);
}

/* Everything but the media back to before the first push. */
static void reset_race(Engine *e)
{
    for (int d = 0; d < e->ncars; d++) {
        e->due_stale[d] = true;
        for (int i = 0; i < e->prog_cap; i++)
            e->ptag[d][i] = -1; /* no sample's progress is known */
    }
    engine_reset_metrics(e);
    engine_reset_views(e);
    if (e->lag)
        engine_clear_lag(e);
    e->pushed = e->processed = 0;
    e->push_next_us = 0;
    e->push_seq = 0;
    e->last_pushed_us = -1;
    e->finished = false;
    e->heat_first = 0;
    e->cur_seq = 0;
    memset(e->cur, 0, sizeof e->cur);
    memset(e->cur_prog, 0, sizeof e->cur_prog);
    e->now_us = -1;
}

int engine_in_flight(const Engine *e, int k, int dir, InFlight *out, int max)
{
    if (dir < 0 || dir >= e->ncars || !e->has_med[dir])
        return 0;
    if (e->own_route[dir])
        return route_in_flight(e->route, k, dir, out, max);
    return medium_in_flight(&e->med[dir], k, out, max);
}

const Track *engine_track(const Engine *e)
{
    return e->track;
}

const Terminal *engine_terminal(const Engine *e, int j)
{
    return e->term[j];
}
