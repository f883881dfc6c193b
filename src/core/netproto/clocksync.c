/* Clock synchronisation estimator: four timestamps, minimum round trip,
 * drift fitted through the window minima (clocksync.h). */
#include "clocksync.h"

#include <string.h>

/* Stamps from the network are untrusted: within +/- 2^61 us (73,000 years)
 * every difference and sum below fits in 64 bits. */
#define STAMP_MAX (INT64_C(1) << 61)
/* Drift assumed for the error bound before it has been measured: quartz
 * oscillators stay within 100 ppm. */
#define DRIFT_UNKNOWN_PPM 100.0
/* A drift fit needs minima spread over at least this much time. */
#define DRIFT_SPAN_US (10 * NR_US_PER_S)

void clocksync_init(ClockSync *cs)
{
    memset(cs, 0, sizeof *cs);
}

static bool stamp_ok(int64_t t)
{
    return t >= -STAMP_MAX && t <= STAMP_MAX;
}

static const ClockSample *best(const ClockSync *cs)
{
    const ClockSample *b = NULL;
    for (int i = 0; i < cs->nwin; i++) /* smallest round trip; ties: the latest */
        if (!b || cs->win[i].rtt_us < b->rtt_us ||
            (cs->win[i].rtt_us == b->rtt_us && cs->win[i].t4_us > b->t4_us))
            b = &cs->win[i];
    return b;
}

/* Least-squares slope of offset against time through the stored minima. */
static void fit_drift(ClockSync *cs)
{
    if (cs->nmin < 4)
        return;
    int64_t t0 = cs->minima[0].t4_us, tmin = t0, tmax = t0;
    for (int i = 0; i < cs->nmin; i++) {
        tmin = cs->minima[i].t4_us < tmin ? cs->minima[i].t4_us : tmin;
        tmax = cs->minima[i].t4_us > tmax ? cs->minima[i].t4_us : tmax;
    }
    if (tmax - tmin < DRIFT_SPAN_US)
        return;
    double mt = 0, mo = 0;
    for (int i = 0; i < cs->nmin; i++) {
        mt += (double)(cs->minima[i].t4_us - t0);
        mo += (double)(cs->minima[i].offset_us - cs->minima[0].offset_us);
    }
    mt /= cs->nmin;
    mo /= cs->nmin;
    double sxy = 0, sxx = 0;
    for (int i = 0; i < cs->nmin; i++) {
        double x = (double)(cs->minima[i].t4_us - t0) - mt;
        double y = (double)(cs->minima[i].offset_us - cs->minima[0].offset_us) - mo;
        sxy += x * y;
        sxx += x * x;
    }
    if (sxx > 0) {
        cs->drift_ppm = sxy / sxx * 1e6;
        cs->have_drift = true;
    }
}

bool clocksync_add(ClockSync *cs, int64_t t1, int64_t t2, int64_t t3, int64_t t4)
{
    if (!stamp_ok(t1) || !stamp_ok(t2) || !stamp_ok(t3) || !stamp_ok(t4) || t4 < t1 || t3 < t2)
        return false;
    int64_t rtt = (t4 - t1) - (t3 - t2);
    if (rtt < 0)
        return false;
    /* ((t2 - t1) + (t3 - t4)) / 2, rounded to the nearest microsecond. */
    int64_t sum = (t2 - t1) + (t3 - t4);
    int64_t off = sum >= 0 ? (sum + 1) / 2 : -((-sum + 1) / 2);
    cs->win[cs->next] = (ClockSample){t4, off, rtt};
    cs->next = (cs->next + 1) % CLOCKSYNC_WINDOW;
    if (cs->nwin < CLOCKSYNC_WINDOW)
        cs->nwin++;
    cs->count++;
    if (cs->count % CLOCKSYNC_WINDOW == 0) {
        /* A full window: keep its best exchange for the drift fit. */
        cs->minima[cs->next_min] = *best(cs);
        cs->next_min = (cs->next_min + 1) % CLOCKSYNC_MINIMA;
        if (cs->nmin < CLOCKSYNC_MINIMA)
            cs->nmin++;
        fit_drift(cs);
    }
    return true;
}

int64_t clocksync_offset(const ClockSync *cs, int64_t t_local)
{
    const ClockSample *b = best(cs);
    if (!b)
        return 0;
    if (!cs->have_drift)
        return b->offset_us;
    return b->offset_us + (int64_t)((double)(t_local - b->t4_us) * cs->drift_ppm * 1e-6);
}

int64_t clocksync_error_bound(const ClockSync *cs, int64_t t_local)
{
    const ClockSample *b = best(cs);
    if (!b)
        return INT64_MAX;
    double age = (double)(t_local > b->t4_us ? t_local - b->t4_us : b->t4_us - t_local);
    /* Measured drift is corrected; what is left is its fitting error,
     * taken as a tenth of the unknown-drift allowance. */
    double ppm = cs->have_drift ? DRIFT_UNKNOWN_PPM / 10 : DRIFT_UNKNOWN_PPM;
    return (b->rtt_us + 1) / 2 + (int64_t)(age * ppm * 1e-6);
}

int64_t clocksync_rtt(const ClockSync *cs)
{
    const ClockSample *b = best(cs);
    return b ? b->rtt_us : 0;
}

double clocksync_drift_ppm(const ClockSync *cs)
{
    return cs->have_drift ? cs->drift_ppm : 0.0;
}

int64_t clocksync_count(const ClockSync *cs)
{
    return cs->count;
}
