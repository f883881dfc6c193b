/* Clock synchronisation estimator: NTP-style four-timestamp exchanges,
 * filtered by the smallest round-trip times, continuous during a race
 * (DESIGN.md "Network play"; the arithmetic of RFC 5905 Section 8).
 *
 * A client sends a probe at t1 (its clock); the server receives it at t2 and
 * replies at t3 (its clock); the client receives the reply at t4 (its
 * clock). With a symmetric path the server's clock leads the client's by
 *     offset = ((t2 - t1) + (t3 - t4)) / 2,   round trip = (t4 - t1) - (t3 - t2),
 * and whatever the asymmetry the true offset lies within +/- round trip / 2
 * of that value. Exchanges that met queueing have larger round trips and
 * less certain offsets, so the estimate is the offset of the exchange with
 * the smallest round trip among the last CLOCKSYNC_WINDOW samples, advanced
 * by the drift estimated between the best exchanges (a least-squares line
 * through the per-window minima), when enough time has passed to measure it.
 * The bound is proven, not assumed: the drift applied is held inside the
 * range the chosen exchange and the stored minima allow (each pins the
 * offset within +/- its rtt / 2; within +/- 100 ppm, quartz, where no pair
 * 2 s apart confines it), and the bound grows with age at the farther
 * end of that range from the drift applied (at most 200 ppm). A fit
 * through minima that met queueing (a loaded machine) thus moves neither
 * the estimate nor the bound past what the exchanges show.
 *
 * Contracts:
 *   clocksync_init(cs)                 empty.
 *   clocksync_add(cs, t1, t2, t3, t4)  one exchange (microseconds); false
 *        (ignored) when the stamps are inconsistent: t4 < t1, t3 < t2, or a
 *        round trip below zero.
 *   clocksync_offset(cs, t_local)      the server-minus-client offset at the
 *        client's local time t_local (0 before any sample).
 *   clocksync_error_bound(cs, t_local)  half the chosen exchange's round
 *        trip plus the drift range's width from the drift applied times the
 *        age; INT64_MAX before any. The true offset lies within it whenever
 *        every exchange's stamps were causal (t1 before the probe left, t2
 *        after it arrived, t3 before the reply left, t4 after it arrived)
 *        and the drift is constant (within 100 ppm if nothing shows more).
 *   clocksync_rtt(cs)                  the chosen exchange's round trip.
 *   clocksync_drift_ppm(cs)            the drift the estimate applies: the
 *        fitted drift of the server's clock against the client's (parts per
 *        million) within the proven range; 0 until measured.
 *   clocksync_count(cs)                exchanges accepted so far.
 *   The chosen exchange and the drift range change with an exchange only:
 *   clocksync_add keeps them, and every answer reads them (the same
 *   answers, bit for bit, as computing them on each call:
 *   tests/test_clocksync.c).
 */
#ifndef NR_CLOCKSYNC_H
#define NR_CLOCKSYNC_H

#include "nr_common.h"

#define CLOCKSYNC_WINDOW 16     /* exchanges the minimum round trip is taken over */
#define CLOCKSYNC_MINIMA 32     /* past window minima the drift is fitted to */

typedef struct ClockSample {
    int64_t t4_us;     /* local time of the reply's arrival */
    int64_t offset_us; /* ((t2 - t1) + (t3 - t4)) / 2 */
    int64_t rtt_us;    /* (t4 - t1) - (t3 - t2) */
} ClockSample;

typedef struct ClockSync {
    ClockSample win[CLOCKSYNC_WINDOW];
    int nwin, next;
    ClockSample minima[CLOCKSYNC_MINIMA]; /* best exchange of each full window */
    int nmin, next_min;
    int64_t count;
    double drift_ppm;
    bool have_drift;
    /* what the answers read, kept by clocksync_add (they change with an
     * exchange only): the chosen exchange win[best], the drift range the
     * exchanges prove and the drift applied within it */
    int best;
    double lo_ppm, hi_ppm, applied_ppm;
} ClockSync;

void clocksync_init(ClockSync *cs);
bool clocksync_add(ClockSync *cs, int64_t t1, int64_t t2, int64_t t3, int64_t t4);
int64_t clocksync_offset(const ClockSync *cs, int64_t t_local);
int64_t clocksync_error_bound(const ClockSync *cs, int64_t t_local);
int64_t clocksync_rtt(const ClockSync *cs);
double clocksync_drift_ppm(const ClockSync *cs);
int64_t clocksync_count(const ClockSync *cs);

#endif
