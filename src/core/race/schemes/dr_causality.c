/* DR + Delta-causality (racing paper Section 3): the DR sender rule; an MU
 * received within its limit (generation + Delta) is held until the limit and
 * then used for prediction; one received after its limit is used at the next
 * output time. Every car, the own one included, is displayed as of
 * now - Delta (the newest sample instant by then). */
#include "scheme_util.h"

#define DRC_PENDING_MAX 128
/* Release time of a late MU: the terminal's next output time, i.e. its next
 * own sample (on_local), whatever its clock's offset or drift. */
#define DRC_NEXT_OUTPUT INT64_MAX

typedef struct Held {
    MuKept mu;
    int64_t release_us;
} Held;

/* What this terminal holds of one other car: the predictor built from its
 * released MUs and its MUs waiting for their release, sorted by release time
 * (DRC_PENDING_MAX per car). */
typedef struct DrcCar {
    DrPred rx;
    Held pending[DRC_PENDING_MAX];
    int npending;
} DrcCar;

typedef struct DrCausality {
    int own, ncars;
    int64_t delta_us;
    DrSender snd;
    MuRing own_ring;
    /* by peer: car c at [c < own ? c : c - 1]; last: car_size */
    DrcCar car[SCHEME_MAX_CARS - 1];
} DrCausality;

static DrcCar *peer_of(DrCausality *s, int car)
{
    return &s->car[car < s->own ? car : car - 1];
}

static void dc_init(void *self, const SchemeParams *p, int own_car, int ncars, const Mu *grid)
{
    DrCausality *s = self;
    s->own = own_car;
    s->ncars = ncars;
    s->delta_us = p->delta_us;
    drsender_init(&s->snd, &grid[own_car], p->tdr_cw);
    muring_clear(&s->own_ring, &grid[own_car]);
    for (int c = 0; c < ncars; c++) {
        if (c == own_car)
            continue;
        drpred_reset(&peer_of(s, c)->rx, &grid[c]);
        peer_of(s, c)->npending = 0;
    }
}

static void dc_set_params(void *self, const SchemeParams *p)
{
    DrCausality *s = self;
    s->delta_us = p->delta_us;
    s->snd.tdr_cw = p->tdr_cw;
}

/* Use every held MU of one car whose release time has come, in release
 * order; at an output instant, i.e. an own sample, also the late ones
 * waiting for it. */
static void dc_release(DrcCar *s, int64_t now_us, bool at_output)
{
    int i = 0, end = s->npending;
    while (i < end && s->pending[i].release_us <= now_us)
        drpred_push(&s->rx, &s->pending[i++].mu);
    if (at_output) {
        while (end > i && s->pending[end - 1].release_us == DRC_NEXT_OUTPUT)
            end--;
        for (int j = end; j < s->npending; j++)
            drpred_push(&s->rx, &s->pending[j].mu);
    }
    for (int j = i; j < end; j++)
        s->pending[j - i] = s->pending[j];
    s->npending = end - i;
}

static void dc_on_local(void *self, const Mu *mu, int64_t now_us, Transport *tx)
{
    DrCausality *s = self;
    Mu out;
    for (int p = 0; p < s->ncars - 1; p++)
        dc_release(&s->car[p], now_us, true);
    muring_insert(&s->own_ring, mu);
    if (drsender_sample(&s->snd, mu, &out))
        transport_send(tx, &out);
}

static RxResult dc_on_receive(void *self, const Mu *mu, int64_t now_us)
{
    DrCausality *d = self;
    int64_t limit = mu->gen_us + d->delta_us;
    DrcCar *s = peer_of(d, mu->car);
    dc_release(s, now_us, false);
    RxResult r = RX_USED;
    int64_t release = limit;
    if (now_us > limit) {
        /* Late: used at the next output time, the next own sample (an MU
         * arriving at a sample instant is delivered before that sample). */
        release = DRC_NEXT_OUTPUT;
        r = RX_LATE_USED;
    }
    if (s->npending == DRC_PENDING_MAX) {
        drpred_push(&s->rx, &s->pending[0].mu);
        for (int j = 1; j < s->npending; j++)
            s->pending[j - 1] = s->pending[j];
        s->npending--;
    }
    int i = s->npending;
    while (i > 0 && s->pending[i - 1].release_us > release) {
        s->pending[i] = s->pending[i - 1];
        i--;
    }
    s->pending[i].mu = mu_kept(mu);
    s->pending[i].release_us = release;
    s->npending++;
    return r;
}

/* A taken MU is released at its limit, generation + Delta (dc_on_receive). */
static int64_t dc_output_time(const void *self, const Mu *mu, int64_t now_us)
{
    (void)now_us;
    const DrCausality *s = self;
    return mu->gen_us + s->delta_us;
}

/* Car `car` as shown at now, given the own car's frame shown then; the
 * heading of a predicted car only when `heading` (scheme.h display_all). */
static void dc_show(const DrCausality *s, const MuKept *own, int car, int64_t now_us, bool heading, Pose *out)
{
    int64_t shown_us = own->gen_us;
    if (car == s->own) {
        pose_from_kept(own, out);
        return;
    }
    const DrcCar *h = &s->car[car < s->own ? car : car - 1];
    const DrPred *use = &h->rx;
    DrPred d;
    if (h->npending > 0 && h->pending[0].release_us <= now_us) { /* due, not yet applied */
        d = h->rx;
        for (int i = 0; i < h->npending && h->pending[i].release_us <= now_us; i++)
            drpred_push(&d, &h->pending[i].mu);
        use = &d;
    }
    out->heading = 0.0;
    drpred_at(use, shown_us, &out->x, &out->y, heading ? &out->heading : NULL);
    out->seq = shown_us == use->last.gen_us ? use->last.seq : -1;
}

/* The frame shown at now is the one generated at or before now - Delta:
 * the own car's newest sample by then. The other cars are predicted for
 * that same instant, so every car is shown as of one moment. */
static void dc_display(const void *self, int car, int64_t now_us, Pose *out)
{
    const DrCausality *s = self;
    dc_show(s, muring_latest_before(&s->own_ring, now_us - s->delta_us), car, now_us, true, out);
}

static void dc_display_all(const void *self, int ncars, int64_t now_us, Pose *out)
{
    const DrCausality *s = self;
    const MuKept *own = muring_latest_before(&s->own_ring, now_us - s->delta_us);
    for (int c = 0; c < ncars; c++)
        dc_show(s, own, c, now_us, false, &out[c]);
}

const SchemeType scheme_dr_causality = {
    .name = "dr-causality",
    .title = "DR+Causality",
    .abbr = "DR+C",
    .summary = "DR sender rule, received MUs held until generation + Delta",
    .state_size = sizeof(DrCausality),
    .car_size = sizeof(DrcCar),
    .holds_delta = true,
    .init = dc_init,
    .set_params = dc_set_params,
    .on_local = dc_on_local,
    .on_receive = dc_on_receive,
    .display = dc_display,
    .display_all = dc_display_all,
    .output_time = dc_output_time,
};
