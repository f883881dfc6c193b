/* The engine's lagometer rings (engine_lag, lagring.h): one per local
 * terminal per scheme, filled from the receive path, the medium's fate at
 * sending and each sample's views. Allocated once in engine_new when asked;
 * every call here is behind an `if (e->lag)` on the engine's paths. */
#include "engine_internal.h"

#include <stdlib.h>

static LagRing *ring_of(Engine *e, int k, int j)
{
    return &e->lag[(size_t)j * (size_t)e->n + (size_t)k];
}

bool engine_alloc_lag(Engine *e)
{
    int cap = 2;
    while (cap < LAG_EVENTS_PER_SENDER * (e->ncars - 1))
        cap *= 2;
    size_t rings = (size_t)e->n * (size_t)e->ncars;
    e->lag = calloc(rings, sizeof *e->lag);
    e->lag_ev = calloc(rings * (size_t)cap, sizeof *e->lag_ev);
    if (!e->lag || !e->lag_ev)
        return false;
    for (size_t i = 0; i < rings; i++)
        lagring_init(&e->lag[i], e->lag_ev + i * (size_t)cap, cap);
    return true;
}

void engine_clear_lag(Engine *e)
{
    for (size_t i = 0; i < (size_t)e->n * (size_t)e->ncars; i++)
        lagring_clear(&e->lag[i]);
}

/* An MU of scheme k from `from` reached local terminal `to` at t_us and the
 * scheme said r: its delay and hold as `to` sees them on its own clock. */
void engine_lag_arrival(Engine *e, int k, int from, int to, const Mu *mu, int64_t t_us, RxResult r)
{
    int64_t local = engine_local_time(e, to, t_us);
    int64_t delay = 0, hold = 0;
    if (r != RX_REJECTED) /* validated: gen_us is within the receive window */
        delay = local - mu->gen_us;
    if (r == RX_USED)
        hold = terminal_output_time(e->term[to], k, mu, local) - local;
    /* From a medium here the loss is known at sending (engine_lag_lost);
     * over the network only a gap in the samples of a scheme that sends
     * every sample says an MU was lost. */
    int64_t gap = e->remote[from] && e->types[k]->every_sample ? e->period_us : 0;
    lagring_arrival(ring_of(e, k, to), mu, t_us, delay, hold, r, gap);
}

/* The medium lost (or dropped from a full queue) scheme k's MU for `to`,
 * sent now. */
void engine_lag_lost(Engine *e, int k, int to, const Mu *mu)
{
    if (to < 0 || to >= e->ncars || e->remote[to])
        return;
    lagring_lost(ring_of(e, k, to), mu, e->now_us);
}

/* Local terminal j's view of the sample at t_us (car[k * ncars + c]): the
 * other cars it showed at a predicted pose (no exact sample). */
void engine_lag_shown(Engine *e, int j, int64_t t_us, const ShownCar *car)
{
    const int nc = e->ncars;
    for (int k = 0; k < e->n; k++) {
        unsigned mask = 0;
        for (int c = 0; c < nc; c++)
            if (c != j && car[k * nc + c].seq < 0)
                mask |= 1u << c;
        lagring_shown(ring_of(e, k, j), t_us, mask);
    }
}

const LagRing *engine_lag(const Engine *e, int k, int j)
{
    if (!e->lag || k < 0 || k >= e->n || j < 0 || j >= e->ncars || e->remote[j])
        return NULL;
    return &e->lag[(size_t)j * (size_t)e->n + (size_t)k];
}
