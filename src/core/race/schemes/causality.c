/* Delta-causality control (racing paper Section 3): every MU, local ones
 * included, is output at its generation time + Delta; an MU that arrives
 * after that limit is discarded. Cars are displayed as of now - Delta. */
#include "scheme_util.h"

typedef struct Causality {
    int own;
    int64_t delta_us;
    MuRing ring[SCHEME_MAX_CARS]; /* by car; last: car_size */
} Causality;

static void ca_init(void *self, const SchemeParams *p, int own_car, int ncars, const Mu *grid)
{
    Causality *s = self;
    s->own = own_car;
    s->delta_us = p->delta_us;
    for (int c = 0; c < ncars; c++)
        muring_clear(&s->ring[c], &grid[c]);
}

static void ca_set_params(void *self, const SchemeParams *p)
{
    Causality *s = self;
    s->delta_us = p->delta_us;
}

static void ca_on_local(void *self, const Mu *mu, int64_t now_us, Transport *tx)
{
    (void)now_us;
    Causality *s = self;
    muring_insert(&s->ring[s->own], mu);
    transport_send(tx, mu);
}

static RxResult ca_on_receive(void *self, const Mu *mu, int64_t now_us)
{
    Causality *s = self;
    if (now_us > mu->gen_us + s->delta_us)
        return RX_DISCARDED;
    muring_insert(&s->ring[mu->car], mu);
    return RX_USED;
}

/* Output at generation + Delta (the hold the lagometer shows). */
static int64_t ca_output_time(const void *self, const Mu *mu, int64_t now_us)
{
    (void)now_us;
    const Causality *s = self;
    return mu->gen_us + s->delta_us;
}

static void ca_display(const void *self, int car, int64_t now_us, Pose *out)
{
    const Causality *s = self;
    pose_from_kept(muring_latest_before(&s->ring[car], now_us - s->delta_us), out);
}

static void ca_display_all(const void *self, int ncars, int64_t now_us, Pose *out)
{
    const Causality *s = self;
    for (int c = 0; c < ncars; c++)
        pose_from_kept(muring_latest_before(&s->ring[c], now_us - s->delta_us), &out[c]);
}

const SchemeType scheme_causality = {
    .name = "causality",
    .title = "Causality",
    .abbr = "Caus.",
    .summary = "Delta-causality: output at generation + Delta, late MUs discarded",
    .state_size = sizeof(Causality),
    .car_size = sizeof(MuRing),
    .holds_delta = true,
    .every_sample = true,
    .init = ca_init,
    .set_params = ca_set_params,
    .on_local = ca_on_local,
    .on_receive = ca_on_receive,
    .display = ca_display,
    .display_all = ca_display_all,
    .output_time = ca_output_time,
};
