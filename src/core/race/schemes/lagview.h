/* What the four schemes after the papers share: every car's received MUs in a
 * ring, shown a lag behind now, the lag following the observed delay
 * (lagest.h). Each scheme file chooses its policy with LagViewFlags and
 * states its rule; this file only carries it out.
 *
 * Contracts:
 *   lagview_init(v, p, own, grid, flags)  as SchemeType.init; the lag starts
 *        at Delta (p->delta_us), or at 0 with LAGV_START_ZERO, clamped to
 *        the adapt bounds.
 *   lagview_set_params(v, p)     live change; the window restarts only when
 *        its size or quantile changed.
 *   lagview_local(v, mu, now, tx)  keeps the own sample and sends it (with
 *        LAGV_GROUP, the terminal's delay statistic rides in aux[0], aux[1] =
 *        1 once it has one).
 *   lagview_receive(v, mu, now)  observes now - gen, retargets the lag, and
 *        keeps the MU: RX_USED when it came within its limit gen + lag(now),
 *        else RX_DISCARDED (LAGV_DISCARD_LATE) or RX_LATE_USED.
 *   lagview_display(v, car, now, out)  car's newest kept MU generated at or
 *        before now - lag(now); with LAGV_OWN_NOW the own car's newest sample.
 *   lagview_lag(v, now)          the lag at now (us), for tests and gauges.
 */
#ifndef NR_LAGVIEW_H
#define NR_LAGVIEW_H

#include "lagest.h"
#include "scheme_util.h"

typedef enum LagViewFlags {
    LAGV_DISCARD_LATE = 1, /* an MU past gen + lag is discarded (causality) */
    LAGV_GROUP = 2,        /* target from the larger of both directions' statistics */
    LAGV_OWN_NOW = 4,      /* the lag delays the other car only */
    LAGV_NO_MARGIN = 8,    /* target = statistic, without adapt_margin */
    LAGV_START_ZERO = 16,  /* the lag starts at 0, not at Delta */
} LagViewFlags;

typedef struct LagView {
    int own, flags;
    SchemeParams p;
    LagEst est;
    Lag lag;
    int64_t peer_us; /* the other terminal's statistic (its incoming delay), -1 = unknown */
    MuRing ring[2];
} LagView;

void lagview_init(LagView *v, const SchemeParams *p, int own_car, const Mu grid[2], int flags);
/* self is a LagView: these four are the SchemeType entries of every scheme
 * built on it (only init differs, by its flags). */
void lagview_set_params(void *self, const SchemeParams *p);
void lagview_local(void *self, const Mu *mu, int64_t now_us, Transport *tx);
RxResult lagview_receive(void *self, const Mu *mu, int64_t now_us);
void lagview_display(const void *self, int car, int64_t now_us, Pose *out);
int64_t lagview_lag(const LagView *v, int64_t now_us);

#endif
