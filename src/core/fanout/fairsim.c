/* One sender, N receivers: event-driven simulation of DR vector delivery
 * and exact export error (fairness paper Sections 3-5). */
#include "fairsim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FAIR_QUEUE 1024 /* messages in flight per receiver and direction */

typedef struct FairMsg {
    int64_t at_us;   /* arrival */
    int64_t id;      /* DR vector id */
    int64_t send_us; /* time the sender sent the vector */
    int64_t rev_us;  /* feedback delay drawn for this vector */
} FairMsg;

typedef struct FairHeap {
    FairMsg m[FAIR_QUEUE];
    int n;
} FairHeap;

typedef struct FairRecv {
    Link fwd, rev;
    FairHeap to_recv;   /* DR vectors in flight */
    FairHeap to_sender; /* feedback in flight */
    bool pending;       /* a send of the current vector is scheduled */
    int64_t pending_id, pending_us;
    LinkDraw draw_fwd, draw_rev; /* fate of the current vector on each link */
    ExportAcc truth;
} FairRecv;

struct FairSim {
    FairConfig cfg;
    const FairAlgo *algo;
    void *algo_state;
    FairRecv *r;     /* [nrecv] */
    DrVec *vec;      /* [maxvec] every DR vector computed, by id */
    int64_t maxvec;
    int64_t cur;     /* id of the current (latest) vector */
    int64_t period_us;
    int sample;      /* next recording sample to look at */
    int64_t next_snap_us;
    int64_t now_us;
    int64_t sent;
    bool overflow;
    Rng rng;
    FairSeries *out; /* series being filled, or NULL */
    int snap;
    /* --measure-from: the accumulated errors and vectors sent at its start,
     * subtracted from every snapshot (cw*s, copies) */
    double err0[FAIR_MAX_RECEIVERS];
    int64_t sent0;
};

/* ---- min-heap of messages ordered by (arrival, id) ---- */

static bool msg_less(const FairMsg *a, const FairMsg *b)
{
    return a->at_us < b->at_us || (a->at_us == b->at_us && a->id < b->id);
}

static bool heap_push(FairHeap *h, const FairMsg *m)
{
    if (h->n >= FAIR_QUEUE)
        return false;
    int i = h->n++;
    h->m[i] = *m;
    while (i > 0) {
        int p = (i - 1) / 2;
        if (!msg_less(&h->m[i], &h->m[p]))
            break;
        FairMsg t = h->m[i];
        h->m[i] = h->m[p];
        h->m[p] = t;
        i = p;
    }
    return true;
}

static FairMsg heap_pop(FairHeap *h)
{
    FairMsg top = h->m[0];
    h->m[0] = h->m[--h->n];
    int i = 0;
    for (;;) {
        int l = 2 * i + 1, r = l + 1, s = i;
        if (l < h->n && msg_less(&h->m[l], &h->m[s]))
            s = l;
        if (r < h->n && msg_less(&h->m[r], &h->m[s]))
            s = r;
        if (s == i)
            break;
        FairMsg t = h->m[i];
        h->m[i] = h->m[s];
        h->m[s] = t;
        i = s;
    }
    return top;
}

static int64_t heap_top(const FairHeap *h)
{
    return h->n ? h->m[0].at_us : INT64_MAX;
}

/* ---- setup ---- */

void fairseries_free(FairSeries *fs)
{
    if (!fs)
        return;
    free(fs->t_s);
    free(fs->mean);
    free(fs->sd);
    free(fs->dr_sent);
    free(fs->err);
    memset(fs, 0, sizeof *fs);
}

static bool fairseries_alloc(FairSeries *fs, const char *algo, uint64_t seed, int nrecv, int nsnap)
{
    memset(fs, 0, sizeof *fs);
    snprintf(fs->algo, sizeof fs->algo, "%s", algo);
    fs->seed = seed;
    fs->nrecv = nrecv;
    fs->nsnap = nsnap;
    fs->t_s = calloc((size_t)nsnap, sizeof *fs->t_s);
    fs->mean = calloc((size_t)nsnap, sizeof *fs->mean);
    fs->sd = calloc((size_t)nsnap, sizeof *fs->sd);
    fs->dr_sent = calloc((size_t)nsnap, sizeof *fs->dr_sent);
    fs->err = calloc((size_t)nsnap * (size_t)nrecv, sizeof *fs->err);
    if (!fs->t_s || !fs->mean || !fs->sd || !fs->dr_sent || !fs->err) {
        fairseries_free(fs);
        return false;
    }
    return true;
}

void fair_sample_vec(const Recording *rec, int car, int64_t period_us, FairVelocity velocity, int i, DrVec *v)
{
    const RecSample *p = recording_at(rec, car, i);
    v->t_us = (int64_t)i * period_us;
    v->x = p->x;
    v->y = p->y;
    if (velocity == FAIR_VEL_DIFF) {
        if (i == 0) {
            v->vx = v->vy = 0.0;
        } else {
            const RecSample *q = recording_at(rec, car, i - 1);
            double dt = (double)period_us / (double)NR_US_PER_S;
            v->vx = (p->x - q->x) / dt;
            v->vy = (p->y - q->y) / dt;
        }
    } else {
        v->vx = p->speed * cos(p->heading);
        v->vy = p->speed * sin(p->heading);
    }
}

/* Resolves the readings' defaults in cfg and checks them. */
static bool fair_readings_check(FairConfig *cfg, NrError *err)
{
    FairReadings *r = &cfg->readings;
    if (r->accumulated < FAIR_ACC_GAME || r->accumulated > FAIR_ACC_SINCE_LAST)
        return nr_error_set(err, "accumulated error reading %d; expected 0 to 2", (int)r->accumulated);
    if (r->error_source < FAIR_ERR_ESTIMATE || r->error_source > FAIR_ERR_FEEDBACK)
        return nr_error_set(err, "error source reading %d; expected 0 or 1", (int)r->error_source);
    if (r->third_first == 0)
        r->third_first = 3;
    if (r->third_first < 1 || r->third_first > 3)
        return nr_error_set(err, "base-third's first trigger %d; expected 1, 2 or 3", r->third_first);
    if (r->heartbeat_us < 0)
        return nr_error_set(err, "heartbeat must be >= 0");
    /* whole snapshots, so that the first row is the start of the measure */
    r->measure_from_us -= r->measure_from_us % cfg->snapshot_us;
    if (r->measure_from_us < 0 || r->measure_from_us >= cfg->duration_us)
        return nr_error_set(err, "measuring from %.3f s; expected 0 to less than the run (%.3f s)",
                            (double)r->measure_from_us / 1e6, (double)cfg->duration_us / 1e6);
    return true;
}

FairSim *fairsim_new(const FairConfig *cfg_in, const FairAlgo *algo, NrError *err)
{
    FairConfig cfg = *cfg_in;
    if (!algo)
        return nr_error_set(err, "no algorithm given"), NULL;
    if (!cfg.rec || cfg.rec->nsamples < 2 || cfg.rec->period_ms <= 0)
        return nr_error_set(err, "the sender's path needs at least 2 samples and a period > 0 ms"), NULL;
    if (cfg.car < 0 || cfg.car >= cfg.rec->ncars)
        return nr_error_set(err, "car %d not in the recording (it has %d cars)", cfg.car + 1,
                            cfg.rec->ncars),
               NULL;
    if (cfg.nrecv < 1 || cfg.nrecv > FAIR_MAX_RECEIVERS)
        return nr_error_set(err, "%d receivers; expected 1 to %d", cfg.nrecv, FAIR_MAX_RECEIVERS), NULL;
    if (!cfg.fwd || !cfg.rev)
        return nr_error_set(err, "link specs missing"), NULL;
    int64_t period_us = (int64_t)cfg.rec->period_ms * NR_US_PER_MS;
    int64_t rec_len_us = (int64_t)(cfg.rec->nsamples - 1) * period_us;
    if (cfg.duration_us <= 0 || cfg.duration_us > rec_len_us)
        cfg.duration_us = rec_len_us;
    if (cfg.threshold_cw == 0.0)
        cfg.threshold_cw = 0.25;
    if (!(cfg.threshold_cw > 0.0))
        return nr_error_set(err, "threshold %g cw; expected > 0", cfg.threshold_cw), NULL;
    if (cfg.snapshot_us == 0)
        cfg.snapshot_us = 100 * NR_US_PER_MS;
    if (cfg.snapshot_us < 0)
        return nr_error_set(err, "snapshot period must be > 0"), NULL;
    /* whole snapshot periods only, so that the last row is the final state */
    cfg.duration_us -= cfg.duration_us % cfg.snapshot_us;
    if (cfg.duration_us < cfg.snapshot_us)
        return nr_error_set(err, "the run (%.3f s of path) is shorter than one snapshot period",
                            (double)rec_len_us / 1e6),
               NULL;
    if (cfg.budget == 0.0)
        cfg.budget = cfg.nrecv / 3.0;
    if (!(cfg.budget > 0.0))
        return nr_error_set(err, "budget %g per trigger; expected > 0", cfg.budget), NULL;
    if (cfg.max_delta_us == 0)
        cfg.max_delta_us = 2 * NR_US_PER_S;
    if (cfg.max_delta_us < 0)
        return nr_error_set(err, "max delta must be > 0"), NULL;
    if (cfg.ewma_gain == 0.0)
        cfg.ewma_gain = 1.0 / 8.0;
    if (cfg.ewma_var_gain == 0.0)
        cfg.ewma_var_gain = 1.0 / 4.0;
    if (!(cfg.ewma_gain > 0.0 && cfg.ewma_gain <= 1.0 && cfg.ewma_var_gain > 0.0 && cfg.ewma_var_gain <= 1.0))
        return nr_error_set(err, "EWMA gains must be in (0, 1]"), NULL;
    if (!fair_readings_check(&cfg, err))
        return NULL;

    FairSim *s = calloc(1, sizeof *s);
    if (!s)
        return nr_error_set(err, "out of memory"), NULL;
    s->cfg = cfg;
    s->algo = algo;
    s->period_us = period_us;
    s->maxvec = cfg.duration_us / period_us + 2;
    s->r = calloc((size_t)cfg.nrecv, sizeof *s->r);
    s->vec = calloc((size_t)s->maxvec, sizeof *s->vec);
    s->algo_state = algo->state_size ? calloc(1, algo->state_size) : NULL;
    if (!s->r || !s->vec || (algo->state_size && !s->algo_state)) {
        fairsim_free(s);
        return nr_error_set(err, "out of memory"), NULL;
    }
    rng_seed(&s->rng, cfg.seed, 0x66616972); /* the algorithm's own stream */
    fair_sample_vec(cfg.rec, cfg.car, s->period_us, cfg.velocity, 0, &s->vec[0]);
    s->cur = 0;
    s->sample = 1;
    s->next_snap_us = cfg.readings.measure_from_us;
    for (int m = 0; m < cfg.nrecv; m++) {
        FairRecv *r = &s->r[m];
        link_init(&r->fwd, &cfg.fwd[m], cfg.seed, 2 * (uint64_t)m + 1);
        link_init(&r->rev, &cfg.rev[m], cfg.seed, 2 * (uint64_t)m + 2);
        exportacc_init(&r->truth, &s->vec[0], 0, 0);
    }
    if (algo->init && !algo->init(s->algo_state, s, err)) {
        fairsim_free(s);
        return NULL;
    }
    return s;
}

void fairsim_free(FairSim *s)
{
    if (!s)
        return;
    if (s->r)
        for (int m = 0; m < s->cfg.nrecv; m++) {
            link_free(&s->r[m].fwd);
            link_free(&s->r[m].rev);
        }
    free(s->r);
    free(s->vec);
    free(s->algo_state);
    free(s);
}

/* ---- services ---- */

int64_t fairsim_now_us(const FairSim *s) { return s->now_us; }
int64_t fairsim_triggers(const FairSim *s) { return s->cur; }
int64_t fairsim_sent(const FairSim *s) { return s->sent; }
double fairsim_true_error(const FairSim *s, int m) { return exportacc_total(&s->r[m].truth); }
void *fairsim_algo_state(FairSim *s) { return s->algo_state; }
const FairConfig *fairsim_config(const FairSim *s) { return &s->cfg; }
int fairsim_nrecv(const FairSim *s) { return s->cfg.nrecv; }
const DrVec *fairsim_vec(const FairSim *s, int64_t id) { return &s->vec[id]; }
int64_t fairsim_cur_id(const FairSim *s) { return s->cur; }
Rng *fairsim_rng(FairSim *s) { return &s->rng; }

void fairsim_send_at(FairSim *s, int m, int64_t t_us)
{
    FairRecv *r = &s->r[m];
    r->pending = true;
    r->pending_id = s->cur;
    r->pending_us = t_us < s->now_us ? s->now_us : t_us;
}

bool fairsim_pending(const FairSim *s, int m, int64_t *id)
{
    if (!s->r[m].pending)
        return false;
    if (id)
        *id = s->r[m].pending_id;
    return true;
}

void fairsim_cancel(FairSim *s, int m)
{
    s->r[m].pending = false;
}

/* ---- the event loop ---- */

static int64_t delay_of(const LinkDraw *d)
{
    return d->delay_us > 0 ? d->delay_us : 0; /* negative delay: send now */
}

static void do_send(FairSim *s, int m)
{
    FairRecv *r = &s->r[m];
    r->pending = false;
    if (r->pending_id != s->cur)
        return; /* a stale schedule (never happens: triggers flush) */
    s->sent++;
    if (r->draw_fwd.lost)
        return;
    FairMsg msg = {.id = r->pending_id, .send_us = s->now_us, .rev_us = delay_of(&r->draw_rev)};
    msg.at_us = link_fifo_due(&r->fwd, s->now_us + delay_of(&r->draw_fwd));
    if (!heap_push(&r->to_recv, &msg))
        s->overflow = true;
}

static void do_arrival(FairSim *s, int m)
{
    FairRecv *r = &s->r[m];
    FairMsg msg = heap_pop(&r->to_recv);
    exportacc_place(&r->truth, s->now_us, &s->vec[msg.id], msg.id);
    /* Feedback: the receiver knows the send time from the stamp and its own
     * synchronised clock (Section 4.1). */
    FairMsg fb = msg;
    fb.at_us = link_fifo_due(&r->rev, s->now_us + msg.rev_us);
    fb.rev_us = s->now_us - msg.send_us; /* da carried in the feedback */
    if (!heap_push(&r->to_sender, &fb))
        s->overflow = true;
}

static void do_feedback(FairSim *s, int m)
{
    FairMsg fb = heap_pop(&s->r[m].to_sender);
    if (s->algo->on_feedback)
        s->algo->on_feedback(s->algo_state, s, m, fb.id, fb.send_us, fb.rev_us);
}

/* Trigger (Section 3, footnote 2): the true position v has drifted more
 * than the threshold from the path exported by the current vector cur; with
 * a heartbeat (BZFlag's MaxUpdateTime reading) also when cur is that old. */
static bool trigger_due(const FairConfig *cfg, double threshold_cw, const DrVec *cur, const DrVec *v)
{
    if (drvec_exceeds(cur, v->t_us, v->x, v->y, threshold_cw))
        return true;
    return cfg->readings.heartbeat_us > 0 && v->t_us - cur->t_us >= cfg->readings.heartbeat_us;
}

int64_t fair_count_triggers(const FairConfig *cfg, double threshold_cw)
{
    int64_t period_us = (int64_t)cfg->rec->period_ms * NR_US_PER_MS, n = 0;
    int64_t end_us = cfg->duration_us > 0 ? cfg->duration_us : INT64_MAX; /* 0: the whole path */
    DrVec cur, v;
    fair_sample_vec(cfg->rec, cfg->car, period_us, cfg->velocity, 0, &cur);
    for (int i = 1; i < cfg->rec->nsamples && (int64_t)i * period_us <= end_us; i++) {
        fair_sample_vec(cfg->rec, cfg->car, period_us, cfg->velocity, i, &v);
        if (trigger_due(cfg, threshold_cw, &cur, &v)) {
            cur = v;
            n++;
        }
    }
    return n;
}

static void do_sample(FairSim *s)
{
    DrVec v;
    fair_sample_vec(s->cfg.rec, s->cfg.car, s->period_us, s->cfg.velocity, s->sample, &v);
    s->sample++;
    if (!trigger_due(&s->cfg, s->cfg.threshold_cw, &s->vec[s->cur], &v))
        return;
    if (s->cur + 1 >= s->maxvec)
        return;
    s->cur++;
    s->vec[s->cur] = v;
    for (int m = 0; m < s->cfg.nrecv; m++) {
        FairRecv *r = &s->r[m];
        exportacc_export(&r->truth, s->now_us, &v, s->cur);
        link_draw(&r->fwd, &r->draw_fwd);
        link_draw(&r->rev, &r->draw_rev);
    }
    if (s->algo->on_trigger)
        s->algo->on_trigger(s->algo_state, s, s->cur, s->now_us);
}

static void do_snapshot(FairSim *s)
{
    FairSeries *o = s->out;
    int n = s->cfg.nrecv;
    if (s->now_us == s->cfg.readings.measure_from_us && s->now_us > 0) {
        /* --measure-from: the errors and copies so far are not measured */
        for (int m = 0; m < n; m++)
            s->err0[m] = exportacc_total(&s->r[m].truth);
        s->sent0 = s->sent;
    }
    if (o && s->snap < o->nsnap) {
        double sum = 0.0;
        for (int m = 0; m < n; m++) {
            double e = exportacc_total(&s->r[m].truth) - s->err0[m];
            o->err[(size_t)s->snap * (size_t)n + (size_t)m] = e;
            sum += e;
        }
        double mean = sum / n, ss = 0.0;
        for (int m = 0; m < n; m++) {
            double d = o->err[(size_t)s->snap * (size_t)n + (size_t)m] - mean;
            ss += d * d;
        }
        o->t_s[s->snap] = (double)s->now_us / (double)NR_US_PER_S;
        o->mean[s->snap] = mean;
        o->sd[s->snap] = sqrt(ss / n);
        o->dr_sent[s->snap] = s->sent - s->sent0;
        s->snap++;
    }
    s->next_snap_us += s->cfg.snapshot_us;
}

static int64_t next_sample_us(const FairSim *s)
{
    int64_t t = (int64_t)s->sample * s->period_us;
    return s->sample < s->cfg.rec->nsamples ? t : INT64_MAX;
}

/* Process all messages due at now (zero delays may chain). */
static void drain_now(FairSim *s)
{
    bool progress = true;
    while (progress) {
        progress = false;
        for (int m = 0; m < s->cfg.nrecv; m++) {
            FairRecv *r = &s->r[m];
            while (heap_top(&r->to_recv) <= s->now_us) {
                do_arrival(s, m);
                progress = true;
            }
            while (heap_top(&r->to_sender) <= s->now_us) {
                do_feedback(s, m);
                progress = true;
            }
            if (r->pending && r->pending_us <= s->now_us) {
                do_send(s, m);
                progress = true;
            }
        }
    }
}

bool fairsim_step(FairSim *s)
{
    int64_t t = next_sample_us(s);
    if (s->next_snap_us < t)
        t = s->next_snap_us;
    for (int m = 0; m < s->cfg.nrecv; m++) {
        const FairRecv *r = &s->r[m];
        int64_t a = heap_top(&r->to_recv), b = heap_top(&r->to_sender);
        if (a < t)
            t = a;
        if (b < t)
            t = b;
        if (r->pending && r->pending_us < t)
            t = r->pending_us;
    }
    if (t > s->cfg.duration_us)
        return false;
    s->now_us = t;
    for (int m = 0; m < s->cfg.nrecv; m++)
        exportacc_advance(&s->r[m].truth, t);
    /* Order at one instant: deliveries and feedback, sends that were due,
     * then the sample (a trigger may flush schedules and send at once),
     * then the snapshot of the state after everything at this instant. */
    drain_now(s);
    if (next_sample_us(s) == t) {
        do_sample(s);
        drain_now(s);
    }
    if (s->next_snap_us == t)
        do_snapshot(s);
    return true;
}

bool fairsim_run(FairSim *s, FairSeries *out, NrError *err)
{
    int64_t measured_us = s->cfg.duration_us - s->cfg.readings.measure_from_us;
    int nsnap = (int)(measured_us / s->cfg.snapshot_us) + 1;
    if (!fairseries_alloc(out, s->algo->name, s->cfg.seed, s->cfg.nrecv, nsnap))
        return nr_error_set(err, "out of memory");
    s->out = out;
    while (fairsim_step(s)) {
    }
    out->nsnap = s->snap;
    out->triggers = s->cur;
    s->out = NULL;
    if (s->overflow) {
        fairseries_free(out);
        return nr_error_set(err, "more than %d messages in flight to one receiver; "
                                 "shorten the delays or raise the threshold", FAIR_QUEUE);
    }
    return true;
}
