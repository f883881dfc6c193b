/* The experiment engine: replays a recording over two emulated links with
 * every scheme side by side on common random numbers (DESIGN.md "Delay
 * emulator", "Metrics"). */
#include "engine.h"
#include "scheme_util.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MU_WIRE_BYTES 48 /* header 28 B + car, seq, time, x, y, heading, speed */

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

typedef struct Packet {
    int64_t due_us;
    uint64_t order;
    int64_t sent_us;
    Mu mu;
} Packet;

/* Binary min-heap of packets by (due, order): packets leave in due order and
 * equal due times keep their sending order. */
typedef struct PQueue {
    Packet *v;
    int n, cap;
    int64_t last_due_us; /* for `order fifo` */
} PQueue;

typedef struct Engine Engine;

typedef struct TxCtx {
    Engine *e;
    int k, dir;
} TxCtx;

typedef struct Slot {
    const SchemeType *type;
    void *inst[2];
    PQueue q[2];
    Metrics m;
    MetricSample *hist;
    int hist_n;
    TxCtx txctx[2];
    Transport tx[2];
    bool used_primary[2]; /* this sample's primary draw already taken */
} Slot;

struct Engine {
    const Recording *rec;
    const Track *track;
    LinkSpec spec[2];
    Link link[2]; /* primary draws: one per MU slot and direction */
    Link aux[2];  /* draws for extra packets sent in the same slot */
    LinkDraw draw[2], auxdraw[2];
    bool need_aux;       /* some scheme sends extra packets: draw aux every slot */
    bool aux_drawn[2];   /* this slot's aux draw exists */
    uint64_t seed;
    SchemeParams params;
    TerminalClock clock[2];
    bool loop, keep_history;
    int n;
    Slot s[SCHEME_MAX];
    int64_t period_us;
    int64_t now_us;
    int64_t base_us;   /* global time of sample 0 of the current loop */
    int next_sample;   /* index of the next sample to generate */
    int cur_sample;    /* index of the latest generated sample */
    uint64_t order;
    const double *prog[2]; /* true unwrapped progress per sample and car */
    double *own_prog[2];   /* allocated when the config brings none */
    int hist_cap;
};

/* ---- packet queue ------------------------------------------------------ */

static bool pq_less(const Packet *a, const Packet *b)
{
    return a->due_us < b->due_us || (a->due_us == b->due_us && a->order < b->order);
}

static bool pq_push(PQueue *q, const Packet *p)
{
    if (q->n == q->cap)
        return false;
    int i = q->n++;
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!pq_less(p, &q->v[parent]))
            break;
        q->v[i] = q->v[parent];
        i = parent;
    }
    q->v[i] = *p;
    return true;
}

static void pq_pop(PQueue *q, Packet *out)
{
    *out = q->v[0];
    Packet last = q->v[--q->n];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= q->n)
            break;
        if (c + 1 < q->n && pq_less(&q->v[c + 1], &q->v[c]))
            c++;
        if (!pq_less(&q->v[c], &last))
            break;
        q->v[i] = q->v[c];
        i = c;
    }
    if (q->n > 0)
        q->v[i] = last;
}

/* ---- clocks ------------------------------------------------------------ */

static int64_t local_time(const Engine *e, int terminal, int64_t t_us)
{
    const TerminalClock *c = &e->clock[terminal];
    if (c->drift_ppm == 0.0)
        return t_us + c->offset_us;
    return t_us + c->offset_us + (int64_t)llround((double)t_us * c->drift_ppm * 1e-6);
}

/* ---- setup ------------------------------------------------------------- */

static void make_mu(const Engine *e, int car, int seq, Mu *mu)
{
    const RecSample *r = recording_at(e->rec, car, seq);
    *mu = (Mu){
        .car = car,
        .seq = seq,
        .gen_us = local_time(e, car, e->base_us + (int64_t)seq * e->period_us),
        .x = r->x,
        .y = r->y,
        .heading = r->heading,
        .speed = r->speed,
        .kind = MU_UPDATE,
        .nbytes = MU_WIRE_BYTES,
    };
}

static void tx_send(void *ctx, const Mu *mu);

static void init_instances(Engine *e, bool first)
{
    Mu grid[2];
    make_mu(e, 0, 0, &grid[0]);
    make_mu(e, 1, 0, &grid[1]);
    for (int k = 0; k < e->n; k++) {
        Slot *s = &e->s[k];
        for (int j = 0; j < 2; j++) {
            Mu g[2] = {grid[0], grid[1]};
            /* Each terminal knows the grid in its own clock. */
            g[0].gen_us = g[1].gen_us = local_time(e, j, e->base_us);
            if (!first)
                memset(s->inst[j], 0, s->type->state_size); /* calloc'd at first */
            s->type->init(s->inst[j], &e->params, j, g);
            s->q[j].n = 0;
            s->q[j].last_due_us = INT64_MIN;
        }
        s->hist_n = 0;
    }
    e->next_sample = 0;
    e->cur_sample = 0;
}

static void init_links(Engine *e)
{
    for (int d = 0; d < 2; d++) {
        link_free(&e->link[d]);
        link_free(&e->aux[d]);
        link_init(&e->link[d], &e->spec[d], e->seed, (uint64_t)(2 * d));
        link_init(&e->aux[d], &e->spec[d], e->seed, (uint64_t)(2 * d + 1));
    }
}

Engine *engine_new(const EngineConfig *cfg, NrError *err)
{
    if (!cfg->rec || !cfg->track) {
        nr_error_set(err, "engine: a recording and a track are required");
        return NULL;
    }
    if (cfg->rec->ncars < 2 || cfg->rec->nsamples < 1) {
        nr_error_set(err, "engine: the recording needs two cars and at least one sample");
        return NULL;
    }
    if (cfg->rec->period_ms <= 0) {
        nr_error_set(err, "engine: the recording's period must be positive");
        return NULL;
    }
    if (cfg->nschemes < 1 || cfg->nschemes > SCHEME_MAX) {
        nr_error_set(err, "engine: between 1 and %d schemes", SCHEME_MAX);
        return NULL;
    }
    Engine *e = calloc(1, sizeof *e);
    if (!e) {
        nr_error_set(err, "engine: out of memory");
        return NULL;
    }
    e->rec = cfg->rec;
    e->track = cfg->track;
    e->seed = cfg->seed;
    e->params = cfg->params;
    e->period_us = (int64_t)cfg->rec->period_ms * NR_US_PER_MS;
    e->params.period_us = e->period_us;
    e->clock[0] = cfg->clock[0];
    e->clock[1] = cfg->clock[1];
    if (e->params.delta_us < 0 || e->params.delta_us > delta_max_us(e->period_us, e->clock)) {
        nr_error_set(err, "engine: Delta %" PRId64 " ms is outside 0 to %" PRId64
                     " ms, what the schemes' buffers hold at this recording's %d ms period and these clocks",
                     e->params.delta_us / NR_US_PER_MS, delta_max_us(e->period_us, e->clock) / NR_US_PER_MS,
                     (int)cfg->rec->period_ms);
        free(e);
        return NULL;
    }
    e->loop = cfg->loop;
    e->keep_history = cfg->keep_history;
    e->n = cfg->nschemes;
    bool ok = true;
    for (int d = 0; d < 2 && ok; d++) {
        if (cfg->link[d])
            ok = linkspec_copy(&e->spec[d], cfg->link[d]);
        else
            ok = linkspec_parse(&e->spec[d], "", NULL, err);
    }
    int ns = cfg->rec->nsamples;
    e->hist_cap = ns;
    for (int c = 0; c < 2 && ok; c++) {
        if (cfg->progress[c]) {
            e->prog[c] = cfg->progress[c];
            continue;
        }
        e->own_prog[c] = malloc(sizeof(double) * (size_t)ns);
        ok = e->own_prog[c] != NULL && recording_progress(e->rec, e->track, c, e->own_prog[c]);
        e->prog[c] = e->own_prog[c];
    }
    for (int k = 0; k < e->n && ok; k++) {
        Slot *s = &e->s[k];
        s->type = cfg->schemes[k];
        e->need_aux |= s->type->extra_packets;
        for (int j = 0; j < 2 && ok; j++) {
            s->inst[j] = calloc(1, s->type->state_size);
            s->q[j].v = malloc(sizeof(Packet) * ENGINE_QUEUE_LIMIT);
            s->q[j].cap = ENGINE_QUEUE_LIMIT;
            ok = s->inst[j] && s->q[j].v;
            s->txctx[j] = (TxCtx){e, k, j};
            s->tx[j] = (Transport){&s->txctx[j], tx_send};
        }
        if (ok && e->keep_history) {
            s->hist = malloc(sizeof(MetricSample) * (size_t)ns);
            ok = s->hist != NULL;
        }
    }
    if (!ok) {
        engine_free(e);
        nr_error_set(err, "engine: out of memory");
        return NULL;
    }
    init_links(e);
    init_instances(e, true);
    for (int k = 0; k < e->n; k++)
        metrics_reset(&e->s[k].m);
    e->now_us = -1;
    engine_step_to(e, 0);
    return e;
}

void engine_free(Engine *e)
{
    if (!e)
        return;
    for (int k = 0; k < e->n; k++) {
        for (int j = 0; j < 2; j++) {
            free(e->s[k].inst[j]);
            free(e->s[k].q[j].v);
        }
        free(e->s[k].hist);
    }
    for (int d = 0; d < 2; d++) {
        link_free(&e->link[d]);
        link_free(&e->aux[d]);
        linkspec_free(&e->spec[d]);
    }
    free(e->own_prog[0]);
    free(e->own_prog[1]);
    free(e);
}

/* ---- transport over the emulated link ---------------------------------- */

static void enqueue(Engine *e, Slot *s, int dir, const Mu *mu, int64_t delay_us)
{
    PQueue *q = &s->q[dir];
    DirCounters *c = &s->m.dir[dir];
    Packet p = {.sent_us = e->now_us, .mu = *mu, .order = e->order++};
    if (q->n == q->cap) { /* netem's queue limit: the packet is dropped */
        c->overflow++;
        return;
    }
    p.due_us = linkspec_order_due(&e->spec[dir], &q->last_due_us,
                                  e->now_us + (delay_us > 0 ? delay_us : 0));
    pq_push(q, &p);
}

static void tx_send(void *ctx, const Mu *mu)
{
    TxCtx *t = ctx;
    Engine *e = t->e;
    Slot *s = &e->s[t->k];
    int dir = t->dir;
    /* Common random numbers: the first update MU a scheme sends in a sample
     * slot takes that slot's draw, shared by every scheme; anything more
     * takes the slot's auxiliary draw. */
    const LinkDraw *d;
    if (mu->kind == MU_UPDATE && !s->used_primary[dir]) {
        d = &e->draw[dir];
        s->used_primary[dir] = true;
    } else {
        if (!e->aux_drawn[dir]) { /* a scheme that did not declare extra packets */
            link_draw(&e->aux[dir], &e->auxdraw[dir]);
            e->aux_drawn[dir] = true;
        }
        d = &e->auxdraw[dir];
    }
    DirCounters *c = &s->m.dir[dir];
    c->sent++;
    c->bytes += mu->nbytes > 0 ? mu->nbytes : MU_WIRE_BYTES;
    if (d->lost) {
        c->lost++;
        return;
    }
    enqueue(e, s, dir, mu, d->delay_us);
    if (d->dup) {
        c->duplicated++;
        enqueue(e, s, dir, mu, d->dup_delay_us);
    }
}

/* ---- stepping ---------------------------------------------------------- */

static double displayed_progress(const Engine *e, int car, const Pose *p, int sample)
{
    if (p->seq >= 0 && p->seq < e->rec->nsamples)
        return e->prog[car][p->seq];
    return track_progress(e->track, p->x, p->y, e->prog[car][sample]);
}

static void take_metrics(Engine *e, int64_t t_us)
{
    for (int k = 0; k < e->n; k++) {
        Slot *s = &e->s[k];
        double p[2][2];
        for (int j = 0; j < 2; j++) {
            int64_t lt = local_time(e, j, t_us);
            for (int c = 0; c < 2; c++) {
                Pose pose;
                s->type->display(s->inst[j], c, lt, &pose);
                p[j][c] = displayed_progress(e, c, &pose, e->cur_sample);
            }
        }
        MetricSample ms = metrics_add_sample(&s->m, t_us, p[0], p[1]);
        if (s->hist && s->hist_n < e->hist_cap)
            s->hist[s->hist_n++] = ms;
    }
}

static void deliver(Engine *e, int k, int dir)
{
    Slot *s = &e->s[k];
    Packet p;
    pq_pop(&s->q[dir], &p);
    e->now_us = p.due_us;
    int to = 1 - dir;
    RxResult r = s->type->on_receive(s->inst[to], &p.mu, local_time(e, to, p.due_us));
    DirCounters *c = &s->m.dir[dir];
    c->delivered++;
    if (r != RX_USED)
        c->late++;
    if (r == RX_DISCARDED)
        c->discarded++;
}

/* The packet due first over every scheme and direction, or NULL. */
static const Packet *next_packet(const Engine *e, int *bk, int *bd)
{
    const Packet *best = NULL;
    for (int k = 0; k < e->n; k++)
        for (int d = 0; d < 2; d++) {
            const PQueue *q = &e->s[k].q[d];
            if (q->n > 0 && (!best || pq_less(&q->v[0], best))) {
                best = &q->v[0];
                *bk = k;
                *bd = d;
            }
        }
    return best;
}

static void do_sample(Engine *e)
{
    int i = e->next_sample;
    int64_t t = e->base_us + (int64_t)i * e->period_us;
    e->now_us = t;
    e->cur_sample = i;
    for (int d = 0; d < 2; d++) {
        link_draw(&e->link[d], &e->draw[d]);
        e->aux_drawn[d] = e->need_aux;
        if (e->need_aux)
            link_draw(&e->aux[d], &e->auxdraw[d]);
    }
    for (int car = 0; car < 2; car++) {
        Mu mu;
        make_mu(e, car, i, &mu);
        int64_t lt = local_time(e, car, t);
        for (int k = 0; k < e->n; k++) {
            Slot *s = &e->s[k];
            s->used_primary[car] = false;
            s->type->on_local(s->inst[car], &mu, lt, &s->tx[car]);
        }
    }
    /* MUs sent now without delay are due now: they arrive before the
     * metrics sample of this instant, as every packet due at or before t. */
    int bk = -1, bd = -1;
    const Packet *p;
    while ((p = next_packet(e, &bk, &bd)) != NULL && p->due_us <= t)
        deliver(e, bk, bd);
    take_metrics(e, t);
    e->next_sample++;
}

int64_t engine_end_us(const Engine *e)
{
    return e->base_us + (int64_t)(e->rec->nsamples - 1) * e->period_us;
}

static void start_loop(Engine *e)
{
    e->base_us += (int64_t)e->rec->nsamples * e->period_us;
    init_instances(e, false);
}

void engine_step_to(Engine *e, int64_t t_us)
{
    for (;;) {
        int64_t t_sample = INT64_MAX;
        if (e->next_sample < e->rec->nsamples)
            t_sample = e->base_us + (int64_t)e->next_sample * e->period_us;
        else if (e->loop)
            t_sample = e->base_us + (int64_t)e->rec->nsamples * e->period_us;
        int bk = -1, bd = -1;
        const Packet *best = next_packet(e, &bk, &bd);
        bool arrivals_live = e->next_sample < e->rec->nsamples || e->loop;
        if (best && arrivals_live && best->due_us <= t_sample && best->due_us <= t_us) {
            deliver(e, bk, bd);
            continue;
        }
        if (t_sample <= t_us) {
            if (e->next_sample >= e->rec->nsamples)
                start_loop(e);
            do_sample(e);
            continue;
        }
        break;
    }
    int64_t end = engine_end_us(e);
    if (t_us > e->now_us)
        e->now_us = (!e->loop && t_us > end) ? (end > e->now_us ? end : e->now_us) : t_us;
}

/* ---- queries and live changes ------------------------------------------ */

int64_t engine_now(const Engine *e)
{
    return e->now_us;
}

bool engine_done(const Engine *e)
{
    return !e->loop && e->next_sample >= e->rec->nsamples;
}

int engine_scheme_count(const Engine *e)
{
    return e->n;
}

const SchemeType *engine_scheme(const Engine *e, int k)
{
    return e->s[k].type;
}

void engine_view(const Engine *e, int k, int terminal, EngineView *out)
{
    const Slot *s = &e->s[k];
    int64_t lt = local_time(e, terminal, e->now_us);
    double len = track_length(e->track);
    for (int c = 0; c < 2; c++) {
        s->type->display(s->inst[terminal], c, lt, &out->pose[c]);
        out->progress[c] = displayed_progress(e, c, &out->pose[c], e->cur_sample);
        out->lap[c] = (int)floor(out->progress[c] / len);
        if (out->lap[c] < 0)
            out->lap[c] = 0;
    }
    out->leader = out->progress[0] > out->progress[1] ? 0 : 1;
}

void engine_truth(const Engine *e, int car, Pose *out, double *progress)
{
    const RecSample *r = recording_at(e->rec, car, e->cur_sample);
    out->x = r->x;
    out->y = r->y;
    out->heading = r->heading;
    out->seq = e->cur_sample;
    if (progress)
        *progress = e->prog[car][e->cur_sample];
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
    LinkSpec copy;
    memset(&copy, 0, sizeof copy);
    if (!linkspec_copy(&copy, spec))
        return nr_error_set(err, "engine: out of memory copying the link spec");
    linkspec_free(&e->spec[dir]);
    e->spec[dir] = copy;
    link_set_spec(&e->link[dir], &e->spec[dir]);
    link_set_spec(&e->aux[dir], &e->spec[dir]);
    return true;
}

const LinkSpec *engine_link(const Engine *e, int dir)
{
    return &e->spec[dir];
}

void engine_set_params(Engine *e, const SchemeParams *p)
{
    e->params = *p;
    e->params.period_us = e->period_us;
    if (e->params.delta_us > delta_max_us(e->period_us, e->clock))
        e->params.delta_us = delta_max_us(e->period_us, e->clock);
    if (e->params.delta_us < 0)
        e->params.delta_us = 0;
    for (int k = 0; k < e->n; k++)
        for (int j = 0; j < 2; j++)
            e->s[k].type->set_params(e->s[k].inst[j], &e->params);
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
}

void engine_restart(Engine *e)
{
    e->base_us = 0;
    e->order = 0;
    init_links(e);
    init_instances(e, false);
    engine_reset_metrics(e);
    e->now_us = -1;
    engine_step_to(e, 0);
}

int engine_in_flight(const Engine *e, int k, int dir, InFlight *out, int max)
{
    const PQueue *q = &e->s[k].q[dir];
    int n = 0;
    for (int i = 0; i < q->n && n < max; i++, n++) {
        out[n].mu = q->v[i].mu;
        out[n].sent_us = q->v[i].sent_us;
        out[n].due_us = q->v[i].due_us;
    }
    return n;
}

const Track *engine_track(const Engine *e)
{
    return e->track;
}

const Recording *engine_recording(const Engine *e)
{
    return e->rec;
}
