/* What a loaded recording says about its race (recording.h): each car's
 * unwrapped progress along the track, the lead changes, the gap between two
 * cars. */
#include "recording.h"
#include "track.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool recording_progress(const Recording *rec, const Track *t, int car, double *out)
{
    if (car < 0 || car >= rec->ncars)
        return false;
    double near;
    if (car < track_grid_slots(t))
        track_grid(t, car, NULL, NULL, NULL, &near);
    else
        near = 0;
    for (int i = 0; i < rec->nsamples; i++) {
        const RecSample *s = recording_at(rec, car, i);
        near = track_progress(t, s->x, s->y, near);
        out[i] = near;
    }
    return true;
}

int recording_lead_changes(const Recording *rec, const Track *t)
{
    if (rec->ncars < 2)
        return -1;
    if (rec->nsamples == 0)
        return 0;
    double *p = malloc(2 * (size_t)rec->nsamples * sizeof *p);
    if (!p)
        return -1;
    double *p1 = p, *p2 = p + rec->nsamples;
    recording_progress(rec, t, 0, p1);
    recording_progress(rec, t, 1, p2);
    int changes = 0, last = 0;
    for (int i = 0; i < rec->nsamples; i++) {
        double d = p1[i] - p2[i];
        int sign = d > 0 ? 1 : d < 0 ? -1 : 0;
        if (sign == 0)
            continue; /* exact ties change nothing */
        if (last != 0 && sign != last)
            changes++;
        last = sign;
    }
    free(p);
    return changes;
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* How close the racing is: the order of cars closer than a couple of car
 * widths is what a delay can swap (and what solid bodies must keep apart). */
bool recording_gap_stats(const Recording *rec, int a, int b, RecGapStats *out)
{
    int n = rec->nsamples;
    if (a < 0 || b < 0 || a >= rec->ncars || b >= rec->ncars || a == b || n <= 0)
        return false;
    double *d = malloc((size_t)n * sizeof *d);
    if (!d)
        return false;
    int below1 = 0, below2 = 0;
    for (int i = 0; i < n; i++) {
        const RecSample *p = recording_at(rec, a, i), *q = recording_at(rec, b, i);
        d[i] = hypot(p->x - q->x, p->y - q->y);
        below1 += d[i] < 1.0;
        below2 += d[i] < 2.0;
    }
    qsort(d, (size_t)n, sizeof *d, cmp_double);
    out->median_cw = n % 2 ? d[n / 2] : 0.5 * (d[n / 2 - 1] + d[n / 2]);
    out->min_cw = d[0];
    out->below1 = (double)below1 / n;
    out->below2 = (double)below2 / n;
    free(d);
    return true;
}
