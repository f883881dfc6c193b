/* A constant-speed race for tests: a circle track (radius 200 cw, width
 * 10) and two cars (or N) at 20 cw/s, each 10 cw ahead of the one before,
 * sampled every 33 ms.
 * Header-only: static inline helpers (unused ones cost nothing) for the
 * test programs that include it (after cmocka.h). */
#ifndef NR_RACE_FIXTURE_H
#define NR_RACE_FIXTURE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recording.h"
#include "track.h"

/* A circle of the given radius (cw) through npoints points, width 10
 * (asserts it parses). */
static inline Track *circle_of(double radius, int npoints)
{
    char text[8192];
    int w = snprintf(text, sizeof text, "netrace-track 1\nname circle\nwidth 10\n");
    for (int i = 0; i < npoints; i++) {
        double a = 2.0 * NR_PI * i / npoints;
        w += snprintf(text + w, sizeof text - (size_t)w, "point %.9f %.9f\n", radius * cos(a), radius * sin(a));
    }
    NrError err;
    Track *t = track_parse(text, "circle", &err);
    assert_non_null(t);
    return t;
}

/* The fixture's circle: radius 200 cw, 64 points. */
static inline Track *circle(void)
{
    return circle_of(200, 64);
}

/* ncars cars, car c 10 c cw ahead of car 1, n samples each (0 .. 33 (n - 1)
 * ms); free with recording_free. */
static inline void race_n(Recording *rec, const Track *t, int ncars, int n)
{
    memset(rec, 0, sizeof *rec);
    rec->version = RECORDING_VERSION;
    strcpy(rec->track, "circle");
    strcpy(rec->source, "autopilot");
    rec->period_ms = 33;
    rec->ncars = ncars;
    rec->nsamples = n;
    rec->samples = calloc((size_t)(ncars * n), sizeof(RecSample));
    for (int c = 0; c < ncars; c++)
        for (int i = 0; i < n; i++) {
            RecSample *s = &rec->samples[c * n + i];
            s->t_ms = i * 33;
            track_point(t, 10.0 * c + 20.0 * i * 0.033, &s->x, &s->y, &s->heading);
            s->speed = 20.0;
        }
}

/* The two cars of the fixture, n samples each. */
static inline void race(Recording *rec, const Track *t, int n)
{
    race_n(rec, t, 2, n);
}

#endif
