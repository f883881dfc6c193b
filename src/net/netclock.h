/* The clock a network terminal runs on: the monotonic clock, optionally
 * with an artificial offset and drift so the clock synchronisation can be
 * checked against a known truth (netrace's --clock-offset / --clock-drift).
 *
 * Contracts:
 *   netclock_init(c, offset_us, drift_ppm)  starts the clock.
 *   netclock_now_us(c)   the machine's monotonic clock in microseconds at
 *        init, plus the time since init scaled by (1 + drift_ppm 1e-6), plus
 *        offset_us: processes on one machine share the base, so their clocks
 *        differ by their offsets (and drifts). Monotonic for drift_ppm > -1e6.
 */
#ifndef NR_NETCLOCK_H
#define NR_NETCLOCK_H

#include "nr_common.h"

typedef struct NetClock {
    int64_t origin_ns; /* CLOCK_MONOTONIC at init */
    int64_t offset_us;
    double drift_ppm;
} NetClock;

void netclock_init(NetClock *c, int64_t offset_us, double drift_ppm);
int64_t netclock_now_us(const NetClock *c);

#endif
