/* A terminal's clock: monotonic or simulated, with an optional artificial
 * offset and drift (netclock.h). */
#include "netclock.h"

#include <time.h>

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t drifted(int64_t us, double drift_ppm)
{
    return drift_ppm != 0.0 ? us + (int64_t)((double)us * drift_ppm * 1e-6) : us;
}

static int64_t real_now(const NetClock *c)
{
    int64_t us = drifted((mono_ns() - c->origin_ns) / 1000, c->drift_ppm);
    /* The base is the machine's monotonic clock, not the process start: two
     * processes on one machine then differ by exactly their artificial
     * offsets (plus drift since each started), a known truth for tests. */
    return c->origin_ns / 1000 + us + c->offset_us;
}

static int64_t sim_now(const NetClock *c)
{
    return drifted(*c->truth, c->drift_ppm) + c->offset_us;
}

void netclock_real(NetClock *c, int64_t offset_us, double drift_ppm)
{
    *c = (NetClock){.now_us = real_now, .origin_ns = mono_ns(), .offset_us = offset_us, .drift_ppm = drift_ppm};
}

void netclock_sim(NetClock *c, const int64_t *truth, int64_t offset_us, double drift_ppm)
{
    *c = (NetClock){.now_us = sim_now, .truth = truth, .offset_us = offset_us, .drift_ppm = drift_ppm};
}
