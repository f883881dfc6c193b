/* Lagged display of received MUs with an adaptive lag (lagview.h). */
#include "lagview.h"

#include <math.h>

void lagview_init(LagView *v, const SchemeParams *p, int own_car, int ncars, const Mu *grid, int flags)
{
    v->own = own_car;
    v->ncars = ncars;
    v->flags = flags;
    v->p = *p;
    lag_init(&v->lag, lag_clamp(p, (flags & LAGV_START_ZERO) ? 0 : p->delta_us), p->adapt_slew);
    for (int c = 0; c < ncars; c++) {
        lagest_init(&v->car[c].est, p);
        v->car[c].peer_us = -1;
        muring_clear(&v->car[c].ring, &grid[c]);
    }
}

void lagview_set_params(void *self, const SchemeParams *p)
{
    LagView *v = self;
    if (p->adapt_window != v->p.adapt_window || p->adapt_quantile != v->p.adapt_quantile)
        for (int c = 0; c < v->ncars; c++)
            lagest_init(&v->car[c].est, p);
    v->p = *p;
    v->lag.slew = !(p->adapt_slew > 0.0) ? 1e-6 : p->adapt_slew > 1.0 ? 1.0 : p->adapt_slew;
}

/* This terminal's statistic: the largest quantile of the cars it has
 * observed (the slowest line in); false before any. */
static bool own_stat(const LagView *v, int64_t *stat)
{
    bool have = false;
    *stat = 0;
    for (int c = 0; c < v->ncars; c++)
        if (c != v->own && lagest_ready(&v->car[c].est)) {
            int64_t q = lagest_value(&v->car[c].est);
            *stat = have && *stat > q ? *stat : q;
            have = true;
        }
    return have;
}

/* The lag's target from what this terminal knows: its own statistic and,
 * for a group, every other terminal's; nothing known yet: no change. */
static void retarget(LagView *v, int64_t now_us)
{
    int64_t stat;
    bool have = own_stat(v, &stat);
    for (int c = 0; c < v->ncars; c++)
        if ((v->flags & LAGV_GROUP) && c != v->own && v->car[c].peer_us >= 0) {
            stat = v->car[c].peer_us > stat ? v->car[c].peer_us : stat;
            have = true;
        }
    if (!have)
        return;
    if (!(v->flags & LAGV_NO_MARGIN))
        stat += v->p.adapt_margin_us;
    lag_retarget(&v->lag, lag_clamp(&v->p, stat), now_us);
}

void lagview_local(void *self, const Mu *mu, int64_t now_us, Transport *tx)
{
    LagView *v = self;
    (void)now_us;
    muring_insert(&v->car[v->own].ring, mu);
    if (!(v->flags & LAGV_GROUP)) {
        transport_send(tx, mu);
        return;
    }
    Mu out = *mu;
    int64_t stat;
    bool have = own_stat(v, &stat);
    out.aux[0] = have ? (double)stat : 0.0;
    out.aux[1] = have ? 1.0 : 0.0;
    transport_send(tx, &out);
}

RxResult lagview_receive(void *self, const Mu *mu, int64_t now_us)
{
    LagView *v = self;
    LagCar *c = &v->car[mu->car]; /* in range, not the own car (mu.h) */
    lagest_observe(&c->est, now_us - mu->gen_us);
    /* The other terminal's statistic is untrusted like every received
     * field: only a finite value within the lag's range counts. */
    if ((v->flags & LAGV_GROUP) && mu->aux[1] == 1.0 && isfinite(mu->aux[0]) && mu->aux[0] >= 0.0 &&
        mu->aux[0] <= (double)SCHEME_DELTA_MAX_US)
        c->peer_us = (int64_t)mu->aux[0];
    retarget(v, now_us);
    bool late = now_us > mu->gen_us + lag_at(&v->lag, now_us);
    if (late && (v->flags & LAGV_DISCARD_LATE))
        return RX_DISCARDED;
    muring_insert(&c->ring, mu);
    return late ? RX_LATE_USED : RX_USED;
}

void lagview_display(const void *self, int car, int64_t now_us, Pose *out)
{
    const LagView *v = self;
    int64_t shown_us = (car == v->own && (v->flags & LAGV_OWN_NOW)) ? now_us : now_us - lag_at(&v->lag, now_us);
    pose_from_kept(muring_latest_before(&v->car[car].ring, shown_us), out);
}

int64_t lagview_output_time(const void *self, const Mu *mu, int64_t now_us)
{
    const LagView *v = self;
    return mu->gen_us + lag_at(&v->lag, now_us);
}

int64_t lagview_lag(const LagView *v, int64_t now_us)
{
    return lag_at(&v->lag, now_us);
}
