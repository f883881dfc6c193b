/* Clock synchronisation estimator: four timestamps, minimum round trip,
 * drift fitted through the window minima (clocksync.h). */
#include "clocksync.h"

#include <math.h>
#include <string.h>

/* Stamps from the network are untrusted: within +/- 2^61 us (73,000 years)
 * every difference and sum below fits in 64 bits. */
#define STAMP_MAX (INT64_C(1) << 61)
/* Drift assumed for the error bound before it has been measured: quartz
 * oscillators stay within 100 ppm. */
#define DRIFT_UNKNOWN_PPM 100.0
/* A drift fit needs minima spread over at least this much time. */
#define DRIFT_SPAN_US (10 * NR_US_PER_S)
/* Two exchanges closer than this confine the drift too loosely to count. */
#define DRIFT_PAIR_US (2 * NR_US_PER_S)

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

static void keep_answers(ClockSync *cs);

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
    keep_answers(cs);
    return true;
}

/* The drift the exchanges allow, in ppm: [*lo, *hi]. Each exchange pins the
 * true offset at its t4 within +/- rtt / 2 (the stamps' causality), so
 * the best exchange b and a stored window minimum m further than
 * DRIFT_PAIR_US away confine the slope between them; without such a pair
 * the quartz allowance +/- DRIFT_UNKNOWN_PPM stands. The intersection is
 * what the data prove; when it excludes the allowance (a drift beyond
 * 100 ppm shown by the stamps) the data win. */
static void drift_range(const ClockSync *cs, const ClockSample *b, double *lo, double *hi)
{
    double dlo = -1e300, dhi = 1e300;
    for (int i = 0; i < cs->nmin; i++) {
        const ClockSample *m = &cs->minima[i];
        double dt = (double)(b->t4_us - m->t4_us);
        if (dt < DRIFT_PAIR_US && dt > -DRIFT_PAIR_US)
            continue;
        double hb = (double)(b->rtt_us + 1) / 2, hm = (double)(m->rtt_us + 1) / 2;
        double a = ((double)b->offset_us - hb - ((double)m->offset_us + hm)) / dt * 1e6;
        double c = ((double)b->offset_us + hb - ((double)m->offset_us - hm)) / dt * 1e6;
        dlo = fmax(dlo, fmin(a, c));
        dhi = fmin(dhi, fmax(a, c));
    }
    if (dlo > dhi || dlo < -1e299) { /* no pair (or stamps that contradict a line) */
        dlo = -DRIFT_UNKNOWN_PPM;
        dhi = DRIFT_UNKNOWN_PPM;
    } else if (dlo <= DRIFT_UNKNOWN_PPM && dhi >= -DRIFT_UNKNOWN_PPM) {
        dlo = fmax(dlo, -DRIFT_UNKNOWN_PPM);
        dhi = fmin(dhi, DRIFT_UNKNOWN_PPM);
    }
    *lo = dlo;
    *hi = dhi;
}

/* The drift the estimate applies: the fitted one inside the proven range
 * (a fit through minima that met queueing can leave it), else 0 if the
 * range holds 0, else the range's nearer end. */
static double drift_applied(const ClockSync *cs, double lo, double hi)
{
    double d = cs->have_drift ? cs->drift_ppm : 0.0;
    return d < lo ? lo : d > hi ? hi : d;
}

/* The chosen exchange, the drift range and the drift applied, for the
 * answers below until the next exchange. */
static void keep_answers(ClockSync *cs)
{
    const ClockSample *b = best(cs);
    cs->best = (int)(b - cs->win);
    drift_range(cs, b, &cs->lo_ppm, &cs->hi_ppm);
    cs->applied_ppm = drift_applied(cs, cs->lo_ppm, cs->hi_ppm);
}

int64_t clocksync_offset(const ClockSync *cs, int64_t t_local)
{
    if (cs->nwin == 0)
        return 0;
    const ClockSample *b = &cs->win[cs->best];
    return b->offset_us + (int64_t)llround((double)(t_local - b->t4_us) * cs->applied_ppm * 1e-6);
}

/* The truth lies within b's offset +/- rtt / 2, moved by the true drift
 * (somewhere in [lo, hi]) times the age; the estimate moved by the drift
 * applied, so the bound is b's half round trip plus the age times the
 * farther end of the range from it (RFC 5905's dispersion growth, with the
 * growth rate proven by the exchanges instead of assumed). */
int64_t clocksync_error_bound(const ClockSync *cs, int64_t t_local)
{
    if (cs->nwin == 0)
        return INT64_MAX;
    const ClockSample *b = &cs->win[cs->best];
    double d = cs->applied_ppm, age = fabs((double)(t_local - b->t4_us));
    double ppm = fmax(cs->hi_ppm - d, d - cs->lo_ppm);
    return (b->rtt_us + 1) / 2 + (int64_t)ceil(age * ppm * 1e-6);
}

int64_t clocksync_rtt(const ClockSync *cs)
{
    return cs->nwin > 0 ? cs->win[cs->best].rtt_us : 0;
}

double clocksync_drift_ppm(const ClockSync *cs)
{
    return cs->nwin > 0 ? cs->applied_ppm : 0.0;
}

int64_t clocksync_count(const ClockSync *cs)
{
    return cs->count;
}
