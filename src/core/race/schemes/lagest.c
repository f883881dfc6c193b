/* Observed-delay quantile over a sliding window, and a slew-limited lag. */
#include "lagest.h"

#include <math.h>
#include <string.h>

void lagest_init(LagEst *e, const SchemeParams *p)
{
    e->head = 0;
    e->n = 0;
    e->window = p->adapt_window < 1 ? 1 : p->adapt_window > LAGEST_WINDOW_MAX ? LAGEST_WINDOW_MAX : p->adapt_window;
    e->quantile = !(p->adapt_quantile >= 0.0) ? 0.0 : p->adapt_quantile > 1.0 ? 1.0 : p->adapt_quantile;
}

/* Index of the first sorted delay >= d (binary search, n <= 256). */
static int lower_bound(const LagEst *e, int64_t d)
{
    int lo = 0, hi = e->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (e->sorted[mid] < d)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void lagest_observe(LagEst *e, int64_t delay_us)
{
    if (delay_us < 0) /* clock error larger than the delay */
        delay_us = 0;
    if (delay_us > SCHEME_DELTA_MAX_US)
        delay_us = SCHEME_DELTA_MAX_US;
    if (e->n == e->window) { /* the oldest delay leaves both orders */
        int64_t old = e->fifo[e->head];
        int i = lower_bound(e, old);
        memmove(&e->sorted[i], &e->sorted[i + 1], (size_t)(e->n - i - 1) * sizeof e->sorted[0]);
        e->head = (e->head + 1) % e->window;
        e->n--;
    }
    e->fifo[(e->head + e->n) % e->window] = delay_us;
    int i = lower_bound(e, delay_us);
    memmove(&e->sorted[i + 1], &e->sorted[i], (size_t)(e->n - i) * sizeof e->sorted[0]);
    e->sorted[i] = delay_us;
    e->n++;
}

bool lagest_ready(const LagEst *e)
{
    return e->n > 0;
}

int64_t lagest_value(const LagEst *e)
{
    if (e->n == 0)
        return 0;
    /* ceil(q n) delays at or below the value; the 1e-9 keeps q n = 60.0
     * from rounding up to 61 through a last-bit error. */
    int k = (int)ceil(e->quantile * (double)e->n - 1e-9);
    if (k < 1)
        k = 1;
    if (k > e->n)
        k = e->n;
    return e->sorted[k - 1];
}

void lag_init(Lag *l, int64_t lag_us, double slew)
{
    l->t0_us = 0;
    l->lag0_us = lag_us;
    l->target_us = lag_us;
    l->slew = !(slew > 0.0) ? 1e-6 : slew > 1.0 ? 1.0 : slew;
}

int64_t lag_at(const Lag *l, int64_t now_us)
{
    if (l->target_us == l->lag0_us || now_us <= l->t0_us)
        return l->lag0_us;
    /* Floor: the lag reaches its target at t0 + |target - lag0| / slew. */
    int64_t step = (int64_t)floor(l->slew * (double)(now_us - l->t0_us));
    if (l->target_us > l->lag0_us)
        return l->lag0_us + step < l->target_us ? l->lag0_us + step : l->target_us;
    return l->lag0_us - step > l->target_us ? l->lag0_us - step : l->target_us;
}

void lag_retarget(Lag *l, int64_t target_us, int64_t now_us)
{
    if (target_us == l->target_us)
        return; /* keep t0: the lag is already on its way */
    l->lag0_us = lag_at(l, now_us);
    l->t0_us = now_us;
    l->target_us = target_us;
}

int64_t lag_clamp(const SchemeParams *p, int64_t us)
{
    int64_t hi = p->adapt_max_us < SCHEME_DELTA_MAX_US ? p->adapt_max_us : SCHEME_DELTA_MAX_US;
    if (us > hi)
        us = hi;
    return us < p->adapt_min_us ? p->adapt_min_us : us;
}
