/* A terminal's clock: monotonic, with an optional artificial offset and
 * drift (netclock.h). */
#include "netclock.h"

#include <time.h>

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void netclock_init(NetClock *c, int64_t offset_us, double drift_ppm)
{
    c->origin_ns = mono_ns();
    c->offset_us = offset_us;
    c->drift_ppm = drift_ppm;
}

int64_t netclock_now_us(const NetClock *c)
{
    int64_t us = (mono_ns() - c->origin_ns) / 1000;
    if (c->drift_ppm != 0.0)
        us += (int64_t)((double)us * c->drift_ppm * 1e-6);
    /* The base is the machine's monotonic clock, not the process start: two
     * processes on one machine then differ by exactly their artificial
     * offsets (plus drift since each started), a known truth for tests. */
    return c->origin_ns / 1000 + us + c->offset_us;
}
