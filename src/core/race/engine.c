/* The race engine: two terminals, one medium per direction, every scheme
 * side by side on common random numbers, fed sample by sample (DESIGN.md
 * "Live play", "Delay emulator", "Metrics"). */
#include "engine.h"
#include "scheme_util.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NCARS 2          /* the interfaces take a car count; races of more are a later step */

/* The schemes' buffers (MuRing, DR+Causality's held MUs) keep 128 samples:
 * the largest Delta they honour is that many periods, less a margin for the
 * MUs that wait past their limit, as the slower terminal clock counts them.
 * SCHEME_DELTA_MAX_US fits at 33 ms with drifts down to -22000 ppm. */
static int64_t delta_max_us(int64_t period_us, const TerminalClock clock[2]);

int64_t engine_delta_max_us(int32_t period_ms, const TerminalClock clock[2])
{
    return delta_max_us((int64_t)period_ms * NR_US_PER_MS, clock);
}

static int64_t delta_max_us(int64_t period_us, const TerminalClock clock[2])
{
    double rate = 1.0;
    for (int j = 0; j < 2; j++)
        if (1.0 + clock[j].drift_ppm * 1e-6 < rate)
            rate = 1.0 + clock[j].drift_ppm * 1e-6;
    return (int64_t)((double)((MURING_CAP - 4) * period_us) * (rate > 0.0 ? rate : 0.0));
}

/* A pushed sample waiting to be processed. */
typedef struct Pushed {
    CarPose pose[NCARS];
    int64_t t_us;  /* global sample time */
    int32_t seq;   /* index within its heat */
    bool new_heat;
} Pushed;

typedef struct Slot {
    Metrics m;
    MetricSample *hist; /* history_cap entries, oldest first */
    int hist_n;
} Slot;

typedef struct Engine Engine;

typedef struct SinkCtx {
    Engine *e;
    int from;
} SinkCtx;

struct Engine {
    const Track *track;
    int n;
    const SchemeType *types[SCHEME_MAX];
    SchemeParams params;
    TerminalClock clock[NCARS];
    Terminal *term[NCARS];
    SinkCtx sinkctx[NCARS];
    TerminalSink sink[NCARS];
    DelayLine dl[2];
    bool own_dl[2];
    Medium med[2];
    int64_t due[2];      /* medium_next_due(med[d]) when !due_stale[d] */
    bool due_stale[2];   /* med[d] changed since due[d] was read */
    LinkSpec none; /* engine_link of a caller's medium */
    Slot *s; /* n of them (a Slot holds a Metrics of about 2.6 kB) */
    bool keep_history;
    int hist_cap;
    int64_t period_us;
    int64_t now_us;
    /* push side */
    Pushed ring[ENGINE_PUSH_AHEAD];
    int64_t pushed, processed; /* samples since the (re)start */
    int64_t push_next_us;      /* time of the next push */
    int32_t push_seq;          /* its index within its heat */
    int64_t last_pushed_us;
    bool finished;
    /* processing side: the current heat and sample */
    int64_t heat_first;        /* processed index of the heat's sample 0 */
    int32_t cur_seq;
    CarPose cur[NCARS];
    double cur_prog[NCARS];
    double *prog[NCARS];       /* ring of true progress by processed index */
    int prog_cap;
    const double *given_prog[NCARS];
    int given_n;
};

/* ---- setup ------------------------------------------------------------- */

static void sink_send(void *ctx, int k, int to, const Mu *mu);
static void reset_race(Engine *e);

static bool check_config(const EngineConfig *cfg, NrError *err)
{
    if (!cfg->track)
        return nr_error_set(err, "engine: a track is required");
    if (cfg->ncars != 0 && cfg->ncars != NCARS)
        return nr_error_set(err, "engine: %d cars (this engine races %d)", cfg->ncars, NCARS);
    if (cfg->period_ms <= 0)
        return nr_error_set(err, "engine: the sampling period must be positive");
    if (cfg->nschemes < 1 || cfg->nschemes > SCHEME_MAX)
        return nr_error_set(err, "engine: between 1 and %d schemes", SCHEME_MAX);
    if (cfg->history_cap < 0 || cfg->ring_samples < 0 || cfg->progress_n < 0)
        return nr_error_set(err, "engine: negative history, ring or progress size");
    int64_t period_us = (int64_t)cfg->period_ms * NR_US_PER_MS;
    int64_t dmax = delta_max_us(period_us, cfg->clock);
    if (cfg->params.delta_us < 0 || cfg->params.delta_us > dmax)
        return nr_error_set(err, "engine: Delta %" PRId64 " ms is outside 0 to %" PRId64
                            " ms, what the schemes' buffers hold at this recording's %d ms period and these clocks",
                            cfg->params.delta_us / NR_US_PER_MS, dmax / NR_US_PER_MS, (int)cfg->period_ms);
    return true;
}

static bool make_media(Engine *e, const EngineConfig *cfg, NrError *err)
{
    bool need_aux = false;
    for (int k = 0; k < e->n; k++)
        need_aux |= e->types[k]->extra_packets;
    if (!linkspec_parse(&e->none, "", NULL, err))
        return false;
    for (int d = 0; d < 2; d++) {
        if (cfg->medium[d]) {
            e->med[d] = *cfg->medium[d];
            continue;
        }
        const LinkSpec *spec = cfg->link[d] ? cfg->link[d] : &e->none;
        if (!delayline_init(&e->dl[d], spec, cfg->seed, d, e->n, need_aux))
            return nr_error_set(err, "engine: out of memory");
        const char *names[SCHEME_MAX];
        for (int k = 0; k < e->n; k++)
            names[k] = e->types[k]->name;
        delayline_set_schemes(&e->dl[d], names, e->n);
        e->own_dl[d] = true;
        e->med[d] = delayline_medium(&e->dl[d]);
    }
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
    memcpy(e->types, cfg->schemes, sizeof e->types);
    e->params = cfg->params;
    e->period_us = (int64_t)cfg->period_ms * NR_US_PER_MS;
    e->params.period_us = e->period_us;
    e->clock[0] = cfg->clock[0];
    e->clock[1] = cfg->clock[1];
    e->keep_history = cfg->keep_history;
    e->hist_cap = cfg->history_cap > 0 ? cfg->history_cap : ENGINE_HISTORY_DEFAULT;
    e->prog_cap = cfg->ring_samples > 0 ? cfg->ring_samples : ENGINE_RING_DEFAULT;
    e->given_n = cfg->progress[0] && cfg->progress[1] ? cfg->progress_n : 0;
    e->given_prog[0] = cfg->progress[0];
    e->given_prog[1] = cfg->progress[1];
    e->s = calloc((size_t)e->n, sizeof *e->s);
    bool ok = e->s != NULL;
    if (!ok)
        nr_error_set(err, "engine: out of memory");
    ok = ok && make_media(e, cfg, err);
    for (int j = 0; j < NCARS && ok; j++) {
        TerminalConfig tc = {.car = j, .ncars = NCARS, .params = e->params,
                             .schemes = e->types, .nschemes = e->n};
        e->term[j] = terminal_new(&tc, err);
        ok = e->term[j] != NULL;
        e->sinkctx[j] = (SinkCtx){e, j};
        e->sink[j] = (TerminalSink){&e->sinkctx[j], sink_send};
        if (ok) {
            e->prog[j] = malloc(sizeof(double) * (size_t)e->prog_cap);
            ok = e->prog[j] != NULL;
            if (!ok)
                nr_error_set(err, "engine: out of memory");
        }
    }
    for (int k = 0; k < e->n && ok && e->keep_history; k++) {
        e->s[k].hist = malloc(sizeof(MetricSample) * (size_t)e->hist_cap);
        ok = e->s[k].hist != NULL;
        if (!ok)
            nr_error_set(err, "engine: out of memory");
    }
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
    for (int j = 0; j < NCARS; j++) {
        terminal_free(e->term[j]);
        free(e->prog[j]);
    }
    for (int d = 0; d < 2; d++)
        if (e->own_dl[d])
            delayline_free(&e->dl[d]);
    linkspec_free(&e->none);
    free(e);
}

/* ---- feeding ----------------------------------------------------------- */

bool engine_push(Engine *e, const CarPose *poses, int ncars, unsigned flags)
{
    if (ncars != NCARS || e->finished || e->pushed - e->processed >= ENGINE_PUSH_AHEAD)
        return false;
    /* v * 0 is 0 for a finite v and NaN for NaN or an infinity: the sum is 0
     * exactly when every number is finite (one compare per push). */
    double zero = 0.0;
    for (int c = 0; c < NCARS; c++)
        zero += poses[c].x * 0.0 + poses[c].y * 0.0 + poses[c].heading * 0.0 + poses[c].speed * 0.0;
    if (zero != 0.0)
        return false;
    bool new_heat = e->pushed == 0 || (flags & ENGINE_PUSH_NEW_HEAT);
    if (new_heat)
        e->push_seq = 0;
    Pushed *p = &e->ring[(uint64_t)e->pushed % ENGINE_PUSH_AHEAD];
    memcpy(p->pose, poses, sizeof p->pose);
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

/* ---- stepping ---------------------------------------------------------- */

static int64_t local_time(const Engine *e, int terminal, int64_t t_us)
{
    return terminal_clock_local(&e->clock[terminal], t_us);
}

static void sink_send(void *ctx, int k, int to, const Mu *mu)
{
    SinkCtx *x = ctx;
    Engine *e = x->e;
    int dir = x->from; /* direction 0 carries terminal 0 -> 1 */
    DirCounters *c = &e->s[k].m.dir[dir];
    c->sent++;
    c->bytes += mu->nbytes > 0 ? mu->nbytes : MU_WIRE_BYTES;
    int fate = medium_send(&e->med[dir], k, x->from, to, mu, e->now_us);
    e->due_stale[dir] = true;
    c->lost += (fate & MEDIUM_LOST) != 0;
    c->duplicated += (fate & MEDIUM_DUPLICATED) != 0;
    c->overflow += ((fate & MEDIUM_OVERFLOW) != 0) + ((fate & MEDIUM_DUP_OVERFLOW) != 0);
}

/* True progress of the current heat's sample seq of car, if still known. */
static bool known_progress(const Engine *e, int car, int32_t seq, double *out)
{
    if (seq < e->given_n) {
        *out = e->given_prog[car][seq];
        return true;
    }
    int64_t i = e->heat_first + seq;
    if (i >= e->processed || i < e->processed - e->prog_cap)
        return false;
    *out = e->prog[car][i % e->prog_cap];
    return true;
}

static double displayed_progress(const Engine *e, int car, const Pose *p)
{
    double v;
    if (p->seq >= 0 && known_progress(e, car, p->seq, &v))
        return v;
    return track_progress(e->track, p->x, p->y, e->cur_prog[car]);
}

static void take_metrics(Engine *e, int64_t t_us)
{
    for (int k = 0; k < e->n; k++) {
        Slot *s = &e->s[k];
        double p[2][2];
        for (int j = 0; j < NCARS; j++) {
            int64_t lt = local_time(e, j, t_us);
            for (int c = 0; c < NCARS; c++) {
                Pose pose;
                terminal_display(e->term[j], k, c, lt, &pose);
                p[j][c] = displayed_progress(e, c, &pose);
            }
        }
        MetricSample ms = metrics_add_sample(&s->m, t_us, p[0], p[1]);
        if (!s->hist)
            continue;
        if (s->hist_n == e->hist_cap) { /* drop the older half: constant memory */
            int drop = (e->hist_cap + 1) / 2;
            memmove(s->hist, s->hist + drop, sizeof *s->hist * (size_t)(s->hist_n - drop));
            s->hist_n -= drop;
        }
        s->hist[s->hist_n++] = ms;
    }
}

static void deliver_from(Engine *e, int d, int64_t t_us)
{
    MediumDelivery m;
    e->due_stale[d] = true;
    if (!medium_pop_due(&e->med[d], t_us, &m))
        return;
    e->now_us = m.due_us;
    int to = m.to;
    if (m.scheme < 0 || m.scheme >= e->n || to < 0 || to >= NCARS || to == d)
        return; /* not addressed to anything of this race */
    RxResult r = terminal_receive(e->term[to], m.scheme, &m.mu, local_time(e, to, m.due_us));
    DirCounters *c = &e->s[m.scheme].m.dir[d];
    c->delivered++;
    if (r == RX_REJECTED) {
        c->rejected++;
        return;
    }
    if (r != RX_USED)
        c->late++;
    if (r == RX_DISCARDED)
        c->discarded++;
}

/* The direction whose next delivery is due first, or -1; *due gets it. */
static int next_direction(Engine *e, int64_t *due)
{
    for (int d = 0; d < 2; d++)
        if (e->due_stale[d]) {
            e->due[d] = medium_next_due(&e->med[d]);
            e->due_stale[d] = false;
        }
    int64_t a = e->due[0], b = e->due[1];
    *due = a <= b ? a : b;
    if (*due == INT64_MAX)
        return -1;
    return a <= b ? 0 : 1;
}

static Mu make_mu(const Engine *e, int car, const Pushed *p)
{
    const CarPose *c = &p->pose[car];
    return (Mu){
        .car = car,
        .seq = p->seq,
        .gen_us = local_time(e, car, p->t_us),
        .x = c->x,
        .y = c->y,
        .heading = c->heading,
        .speed = c->speed,
        .kind = MU_UPDATE,
        .nbytes = MU_WIRE_BYTES,
    };
}

/* Every terminal restarts on this sample as the grid; traffic of the old
 * heat is dropped; metrics and random streams continue. */
static void start_heat(Engine *e, const Pushed *p)
{
    e->heat_first = e->processed;
    Mu grid[NCARS];
    for (int c = 0; c < NCARS; c++) {
        grid[c] = make_mu(e, c, p);
        double near = 0;
        if (c < track_grid_slots(e->track))
            track_grid(e->track, c, NULL, NULL, NULL, &near);
        e->cur_prog[c] = near; /* the projection hint of sample 0 */
    }
    for (int j = 0; j < NCARS; j++)
        terminal_start(e->term[j], grid, local_time(e, j, p->t_us));
    for (int d = 0; d < 2; d++) {
        medium_clear(&e->med[d]);
        e->due_stale[d] = true;
    }
    for (int k = 0; k < e->n; k++)
        e->s[k].hist_n = 0;
}

static void do_sample(Engine *e)
{
    const Pushed *p = &e->ring[(uint64_t)e->processed % ENGINE_PUSH_AHEAD];
    int64_t t = p->t_us;
    e->now_us = t;
    if (p->new_heat)
        start_heat(e, p);
    e->cur_seq = p->seq;
    for (int c = 0; c < NCARS; c++) {
        e->cur[c] = p->pose[c];
        /* Progress unwrapped sample to sample: the previous value is the
         * hint (recording_progress does the same over a whole file). */
        if (p->seq < e->given_n) { /* known: the ring is not needed */
            e->cur_prog[c] = e->given_prog[c][p->seq];
            continue;
        }
        double v = track_progress(e->track, p->pose[c].x, p->pose[c].y, e->cur_prog[c]);
        e->cur_prog[c] = v;
        e->prog[c][e->processed % e->prog_cap] = v;
    }
    for (int d = 0; d < 2; d++)
        medium_slot(&e->med[d], d, p->seq, t);
    for (int car = 0; car < NCARS; car++) {
        Mu mu = make_mu(e, car, p);
        terminal_local(e->term[car], &mu, mu.gen_us, &e->sink[car]);
    }
    /* The sample counts as processed from here: progress lookups of this
     * sample's seq find it. MUs sent now without delay are due now: they
     * arrive before the metrics sample of this instant, as every packet due
     * at or before t. */
    e->processed++;
    int64_t due;
    int d;
    while ((d = next_direction(e, &due)) >= 0 && due <= t)
        deliver_from(e, d, t);
    take_metrics(e, t);
}

void engine_step_to(Engine *e, int64_t t_us)
{
    for (;;) {
        bool waiting = e->processed < e->pushed;
        int64_t t_sample = waiting ? e->ring[(uint64_t)e->processed % ENGINE_PUSH_AHEAD].t_us : INT64_MAX;
        int64_t due;
        int d = next_direction(e, &due);
        /* Deliveries run up to the next pushed sample: past the last one
         * they wait for the next push, or never come after engine_finish. */
        if (d >= 0 && waiting && due <= t_sample && due <= t_us) {
            deliver_from(e, d, due);
            continue;
        }
        if (waiting && t_sample <= t_us) {
            do_sample(e);
            continue;
        }
        break;
    }
    int64_t lim = e->pushed > 0 && t_us > e->last_pushed_us ? e->last_pushed_us : t_us;
    if (e->pushed > 0 && lim > e->now_us)
        e->now_us = lim;
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

const SchemeType *engine_scheme(const Engine *e, int k)
{
    return e->types[k];
}

void engine_view(const Engine *e, int k, int terminal, EngineView *out)
{
    int64_t lt = local_time(e, terminal, e->now_us);
    double len = track_length(e->track);
    for (int c = 0; c < NCARS; c++) {
        terminal_display(e->term[terminal], k, c, lt, &out->pose[c]);
        out->progress[c] = displayed_progress(e, c, &out->pose[c]);
        out->lap[c] = (int)floor(out->progress[c] / len);
        if (out->lap[c] < 0)
            out->lap[c] = 0;
    }
    out->leader = out->progress[0] > out->progress[1] ? 0 : 1;
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
    if (!e->own_dl[dir])
        return nr_error_set(err, "engine: direction %d runs over the caller's medium, not a link spec", dir);
    return delayline_set_spec(&e->dl[dir], spec, err);
}

const LinkSpec *engine_link(const Engine *e, int dir)
{
    return e->own_dl[dir] ? delayline_spec(&e->dl[dir]) : &e->none;
}

void engine_set_params(Engine *e, const SchemeParams *p)
{
    e->params = *p;
    e->params.period_us = e->period_us;
    if (e->params.delta_us > delta_max_us(e->period_us, e->clock))
        e->params.delta_us = delta_max_us(e->period_us, e->clock);
    if (e->params.delta_us < 0)
        e->params.delta_us = 0;
    for (int j = 0; j < NCARS; j++)
        terminal_set_params(e->term[j], &e->params);
}

const SchemeParams *engine_params(const Engine *e)
{
    return &e->params;
}

void engine_reset_metrics(Engine *e)
{
    for (int k = 0; k < e->n; k++) {
        metrics_reset(&e->s[k].m);
        e->s[k].hist_n = 0;
    }
    for (int j = 0; j < NCARS; j++)
        terminal_reset_counters(e->term[j]);
}

void engine_restart(Engine *e)
{
    for (int d = 0; d < 2; d++) {
        if (e->own_dl[d])
            delayline_reset(&e->dl[d]);
        else
            medium_clear(&e->med[d]);
    }
    reset_race(e);
}

/* Everything but the media back to before the first push. */
static void reset_race(Engine *e)
{
    e->due_stale[0] = e->due_stale[1] = true;
    engine_reset_metrics(e);
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
