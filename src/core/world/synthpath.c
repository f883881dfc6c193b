/* Synthetic sender paths (random smooth driving and piecewise straight). */
#include "synthpath.h"

#include "rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool alloc_rec(Recording *rec, double seconds, int32_t period_ms, NrError *err)
{
    memset(rec, 0, sizeof *rec);
    if (period_ms <= 0)
        return nr_error_set(err, "synthetic path: period %d ms; expected > 0", (int)period_ms);
    if (!(seconds > 0.0) || seconds > 24.0 * 3600.0)
        return nr_error_set(err, "synthetic path: %g s; expected 0 < seconds <= 86400", seconds);
    int n = (int)floor(seconds * 1000.0 / period_ms) + 1;
    rec->samples = calloc((size_t)n, sizeof *rec->samples);
    if (!rec->samples)
        return nr_error_set(err, "synthetic path: out of memory");
    rec->version = RECORDING_VERSION;
    snprintf(rec->source, sizeof rec->source, "synthetic");
    rec->period_ms = period_ms;
    rec->ncars = 1;
    rec->nsamples = n;
    return true;
}

bool synthpath_make(Recording *rec, uint64_t seed, double seconds, int32_t period_ms, NrError *err)
{
    if (!alloc_rec(rec, seconds, period_ms, err))
        return false;
    Rng r;
    rng_seed(&r, seed, 0x70617468);
    double dt = period_ms / 1000.0;
    double x = 0, y = 0, h = 0, v = 10.0, w = 0.0;
    double v_goal = 10.0, w_goal = 0.0, left = 0.0;
    for (int i = 0; i < rec->nsamples; i++) {
        RecSample *s = &rec->samples[i];
        s->t_ms = i * period_ms;
        s->x = x;
        s->y = y;
        s->heading = nr_wrap_angle(h);
        s->speed = v;
        if (left <= 0.0) {
            v_goal = 4.0 + 12.0 * rng_uniform(&r);
            w_goal = (rng_uniform(&r) * 2.0 - 1.0) * 1.5;
            left = 0.5 + 2.0 * rng_uniform(&r);
        }
        left -= dt;
        /* first-order approach to the goals (time constants 0.5 s, 0.2 s) */
        v += (v_goal - v) * (dt / 0.5);
        w += (w_goal - w) * (dt / 0.2 > 1.0 ? 1.0 : dt / 0.2);
        h += w * dt;
        x += v * cos(h) * dt;
        y += v * sin(h) * dt;
    }
    return true;
}

enum { TANK_RUN, TANK_TURN, TANK_STOP };

/* arcs: a turn keeps the speed of the run before it (same draws) */
static bool tank_path(Recording *rec, uint64_t seed, double seconds, int32_t period_ms, bool arcs, NrError *err)
{
    if (!alloc_rec(rec, seconds, period_ms, err))
        return false;
    snprintf(rec->source, sizeof rec->source, "%s", arcs ? "tank-arcs" : "tank");
    Rng r;
    rng_seed(&r, seed, 0x74616e6b); /* "tank" */
    double x = 0, y = 0, h = 0, v = 0, w = 0, v_run = 0;
    int state = TANK_STOP;
    int64_t left_ms = 0; /* time left in the current state */
    int64_t t_ms = 0;
    for (int i = 0; i < rec->nsamples; i++) {
        RecSample *s = &rec->samples[i];
        s->t_ms = (int32_t)t_ms;
        s->x = x;
        s->y = y;
        s->heading = nr_wrap_angle(h);
        s->speed = v;
        /* 1 ms steps to the next sample: state changes fall on whole ms */
        for (int64_t k = 0; k < period_ms; k++, t_ms++) {
            if (left_ms <= 0) {
                double u = rng_uniform(&r);
                int next = state != TANK_RUN ? TANK_RUN : u < 0.6 ? TANK_TURN : u < 0.8 ? TANK_STOP : TANK_RUN;
                state = next;
                if (state == TANK_RUN) {
                    v = rng_uniform(&r) < 0.25 ? 0.5 * SYNTH_TANK_SPEED_CW : SYNTH_TANK_SPEED_CW;
                    v_run = v;
                    w = 0;
                    left_ms = 1000 + (int64_t)(3000.0 * rng_uniform(&r));
                } else if (state == TANK_TURN) {
                    double angle = (30.0 + 150.0 * rng_uniform(&r)) * NR_PI / 180.0;
                    v = arcs ? v_run : 0.0;
                    w = (rng_uniform(&r) < 0.5 ? -1.0 : 1.0) * SYNTH_TANK_TURN_RAD_S;
                    left_ms = (int64_t)llround(angle / SYNTH_TANK_TURN_RAD_S * 1000.0);
                } else {
                    v = 0;
                    w = 0;
                    left_ms = 300 + (int64_t)(1700.0 * rng_uniform(&r));
                }
            }
            /* constant v and w within the ms: straight or in place exact,
             * an arc to first order (0.8 mrad of heading per ms) */
            x += v * cos(h) * 0.001;
            y += v * sin(h) * 0.001;
            h += w * 0.001;
            left_ms--;
        }
    }
    return true;
}

bool synthpath_tank(Recording *rec, uint64_t seed, double seconds, int32_t period_ms, NrError *err)
{
    return tank_path(rec, seed, seconds, period_ms, false, err);
}

bool synthpath_tank_arcs(Recording *rec, uint64_t seed, double seconds, int32_t period_ms, NrError *err)
{
    return tank_path(rec, seed, seconds, period_ms, true, err);
}

bool synthpath_segments(Recording *rec, double seconds, int32_t period_ms, int32_t segment_ms,
                        const double *speeds, const double *headings, int nseg, NrError *err)
{
    if (nseg < 1 || segment_ms <= 0)
        return nr_error_set(err, "synthetic path: need segments of a positive length");
    if (!alloc_rec(rec, seconds, period_ms, err))
        return false;
    double x = 0, y = 0;
    for (int i = 0; i < rec->nsamples; i++) {
        int64_t t = (int64_t)i * period_ms;
        int k = (int)((t / segment_ms) % nseg);
        RecSample *s = &rec->samples[i];
        s->t_ms = (int32_t)t;
        s->x = x;
        s->y = y;
        s->heading = headings[k];
        s->speed = speeds[k];
        /* move to the next sample along this segment's velocity; a segment
         * boundary inside the step is honoured exactly */
        int64_t t1 = t + period_ms, b = (t / segment_ms + 1) * segment_ms;
        if (b < t1) {
            int k2 = (int)((b / segment_ms) % nseg);
            x += speeds[k] * cos(headings[k]) * (double)(b - t) / 1000.0 +
                 speeds[k2] * cos(headings[k2]) * (double)(t1 - b) / 1000.0;
            y += speeds[k] * sin(headings[k]) * (double)(b - t) / 1000.0 +
                 speeds[k2] * sin(headings[k2]) * (double)(t1 - b) / 1000.0;
        } else {
            x += speeds[k] * cos(headings[k]) * period_ms / 1000.0;
            y += speeds[k] * sin(headings[k]) * period_ms / 1000.0;
        }
    }
    return true;
}
