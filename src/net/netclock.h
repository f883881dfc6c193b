/* The clock a network terminal runs on, swappable (as Redis's
 * getMonotonicUs): the machine's monotonic clock, optionally with an
 * artificial offset and drift so the clock synchronisation can be checked
 * against a known truth (--clock-offset / --clock-drift), or a simulated one
 * that a test moves by hand.
 *
 * Contracts:
 *   netclock_now_us(c)   c's time in microseconds; never goes back.
 *   netclock_real(c, offset_us, drift_ppm)  the monotonic clock: its value
 *        at init, plus the time since init scaled by (1 + drift_ppm 1e-6),
 *        plus offset_us: processes on one machine share the base, so their
 *        clocks differ by their offsets (and drifts). Safe from any thread.
 *   netclock_sim(c, truth, offset_us, drift_ppm)  *truth (microseconds of
 *        simulated true time, moved by the test) scaled by
 *        (1 + drift_ppm 1e-6), plus offset_us.
 */
#ifndef NR_NETCLOCK_H
#define NR_NETCLOCK_H

#include "nr_common.h"

typedef struct NetClock NetClock;
struct NetClock {
    int64_t (*now_us)(const NetClock *c);
    int64_t origin_ns;      /* real: CLOCK_MONOTONIC at init */
    const int64_t *truth;   /* simulated: the test's true time */
    int64_t offset_us;
    double drift_ppm;
};

void netclock_real(NetClock *c, int64_t offset_us, double drift_ppm);
void netclock_sim(NetClock *c, const int64_t *truth, int64_t offset_us, double drift_ppm);

static inline int64_t netclock_now_us(const NetClock *c)
{
    return c->now_us(c);
}

#endif
