/* What the four schemes after the papers share: every car's received MUs in a
 * ring, shown a lag behind now, the lag following the observed delay
 * (lagest.h). Each scheme file chooses its policy with LagViewFlags and
 * states its rule; this file only carries it out.
 *
 * N cars (docs/schemes.md): each other car's delays have their own window,
 * and the terminal's statistic is the largest of their quantiles (the
 * slowest line in, which the lag must cover); a group takes the largest of
 * its own and every other terminal's. With two cars there is one other car:
 * the two-car rule unchanged.
 *
 * Contracts:
 *   lagview_init(v, p, own, ncars, grid, flags)  as SchemeType.init; the lag starts
 *        at Delta (p->delta_us), or at 0 with LAGV_START_ZERO, clamped to
 *        the adapt bounds.
 *   lagview_set_params(v, p)     live change; the window restarts only when
 *        its size or quantile changed.
 *   lagview_local(v, mu, now, tx)  keeps the own sample and sends it (with
 *        LAGV_GROUP, the terminal's delay statistic rides in aux[0], aux[1] =
 *        1 once it has one).
 *   lagview_receive(v, mu, now)  observes now - gen in mu->car's window,
 *        retargets the lag, and
 *        keeps the MU: RX_USED when it came within its limit gen + lag(now),
 *        else RX_DISCARDED (LAGV_DISCARD_LATE) or RX_LATE_USED.
 *   lagview_display(v, car, now, out)  car's newest kept MU generated at or
 *        before now - lag(now); with LAGV_OWN_NOW the own car's newest sample.
 *   lagview_output_time(v, mu, now)  when a kept MU is shown: gen + lag(now)
 *        (the lag may still move before then; SchemeType.output_time).
 *   lagview_lag(v, now)          the lag at now (us), for tests and gauges.
 */
#ifndef NR_LAGVIEW_H
#define NR_LAGVIEW_H

#include "lagest.h"
#include "scheme_util.h"

typedef enum LagViewFlags {
    LAGV_DISCARD_LATE = 1, /* an MU past gen + lag is discarded (causality) */
    LAGV_GROUP = 2,        /* target from the largest of every terminal's statistic */
    LAGV_OWN_NOW = 4,      /* the lag delays the other cars only */
    LAGV_NO_MARGIN = 8,    /* target = statistic, without adapt_margin */
    LAGV_START_ZERO = 16,  /* the lag starts at 0, not at Delta */
} LagViewFlags;

/* What a terminal keeps of one car (the own car: its ring only). */
typedef struct LagCar {
    MuRing ring;     /* the car's kept MUs */
    LagEst est;      /* the delays observed of its MUs */
    int64_t peer_us; /* its terminal's statistic (its incoming delay), -1 = unknown */
} LagCar;

typedef struct LagView {
    int own, ncars, flags;
    SchemeParams p;
    Lag lag;
    LagCar car[SCHEME_MAX_CARS]; /* by car; last: a race of n cars uses n (car_size) */
} LagView;

void lagview_init(LagView *v, const SchemeParams *p, int own_car, int ncars, const Mu *grid, int flags);
/* self is a LagView: these four are the SchemeType entries of every scheme
 * built on it (only init differs, by its flags). */
void lagview_set_params(void *self, const SchemeParams *p);
void lagview_local(void *self, const Mu *mu, int64_t now_us, Transport *tx);
RxResult lagview_receive(void *self, const Mu *mu, int64_t now_us);
void lagview_display(const void *self, int car, int64_t now_us, Pose *out);
int64_t lagview_output_time(const void *self, const Mu *mu, int64_t now_us);
int64_t lagview_lag(const LagView *v, int64_t now_us);

#endif
