/* The adaptive lag shared by the schemes after the papers (adaptive-causality,
 * local-lag, group-sync, equalize): an estimate of the one-way delay from what
 * a terminal observes, and a lag that follows it at a bounded speed.
 *
 * Observed delay of an MU = its arrival time - its generation timestamp, both
 * on the synchronised clock (DESIGN.md: the papers assume one); never the
 * emulator's settings. The statistic is a quantile of the last W observed
 * delays; the lag's target is statistic + margin within [min, max]; the lag
 * moves toward its target at `slew` ms per ms, so the shown time never runs
 * backwards (slew <= 1) nor jumps.
 *
 * Following a step of the delay from D to D' (docs/schemes.md): the quantile
 * reaches D' after m = W - ceil(q W) + 1 arrivals at the new delay (m = 4 at
 * the defaults), the first of which arrives at most D' + T after the step
 * (T = sampling period); the lag then needs |D' - D| / slew. So the lag has
 * followed within D' + m T + |D' - D| / slew of the step.
 *
 * Contracts:
 *   lagest_init(e, p)          empty window sized by p (adapt_window,
 *        adapt_quantile; out-of-range values are clamped to 1..MAX, 0..1).
 *   lagest_observe(e, delay_us)  one observed delay (negative counts as 0,
 *        above SCHEME_DELTA_MAX_US as that); the oldest leaves a full window.
 *   lagest_ready(e)            true once a delay was observed.
 *   lagest_value(e)            the smallest observed delay d with at least
 *        ceil(q n) of the window's n delays <= d; 0 before any.
 *   lag_init(l, lag_us, slew)  a lag at lag_us from t = 0, its own target;
 *        slew is clamped to (0, 1] (0 or less: 1e-6).
 *   lag_at(l, now_us)          the lag at now (pure), between its value at the
 *        last retarget and its target.
 *   lag_retarget(l, target_us, now_us)  the lag heads for target from now.
 *   lag_clamp(p, us)           us within [adapt_min_us, adapt_max_us].
 */
#ifndef NR_LAGEST_H
#define NR_LAGEST_H

#include "scheme.h"

typedef struct LagEst {
    int64_t fifo[LAGEST_WINDOW_MAX];   /* arrival order, from head */
    int64_t sorted[LAGEST_WINDOW_MAX]; /* the same delays, ascending */
    int head, n, window;
    double quantile;
} LagEst;

void lagest_init(LagEst *e, const SchemeParams *p);
void lagest_observe(LagEst *e, int64_t delay_us);
bool lagest_ready(const LagEst *e);
int64_t lagest_value(const LagEst *e);

typedef struct Lag {
    int64_t t0_us, lag0_us, target_us; /* lag0 at t0, heading for target */
    double slew;                       /* ms of lag per ms of time */
} Lag;

void lag_init(Lag *l, int64_t lag_us, double slew);
int64_t lag_at(const Lag *l, int64_t now_us);
void lag_retarget(Lag *l, int64_t target_us, int64_t now_us);
int64_t lag_clamp(const SchemeParams *p, int64_t us);

#endif
