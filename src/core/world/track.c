/* Race tracks: the versioned text format, centre-line geometry and fast projection.
 *
 * Format (docs/formats.md has the user's version):
 *   netrace-track 1            first non-comment line: magic and version
 *   name TEXT                  once, required (rest of the line)
 *   width W                    once, required; full track width, car widths
 *   point X Y                  >= 3, the closed centre line in racing order;
 *                              the first point is the start/finish line
 *   grid SLOTS SPACING OFFSET  optional, once: SLOTS staggered grid slots,
 *                              slot k at arc length -(k+1)*SPACING, lateral
 *                              offset +OFFSET (left) for even k, -OFFSET for odd
 *   # ...                      comment to the end of the line
 *
 * Geometry: a closed centripetal Catmull-Rom spline through the control
 * points (tangents of the non-uniform Catmull-Rom form with knot intervals
 * |P(i+1) - P(i)|^0.5), sampled into a dense polyline (pieces of at most
 * TRACK_STEP_CW). The polyline *is* the centre line: arc length is its exact
 * length, so track_point, track_project and track_length agree with each
 * other to rounding. Heading and curvature come from the spline derivatives
 * at the polyline vertices and are interpolated linearly between them.
 *
 * Projection uses a uniform grid over the bounding box; every polyline
 * segment is listed in each cell its bounding box overlaps. A query visits
 * square rings of cells around the point and stops once the best distance
 * found is no more than the distance to the unvisited rings.
 */
#include "track_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Squared distance from (x, y) to grid cell (i, j); 0 inside it. */
static double cell_dist2(const Track *t, int i, int j, double x, double y)
{
    double x0 = t->gx0 + i * t->cell, y0 = t->gy0 + j * t->cell;
    double dx = axis_gap(x, x0, x0 + t->cell);
    double dy = axis_gap(y, y0, y0 + t->cell);
    return dx * dx + dy * dy;
}

/* Segments of chunk ch into the running best (smallest squared distance,
 * then smallest index). */
static void chunk_nearest(const Track *t, int ch, double x, double y, int *bk, double *bf, double *best)
{
    const double *b = &t->chunk_box[4 * ch];
    double bx = axis_gap(x, b[0], b[2]);
    double by = axis_gap(y, b[1], b[3]);
    if (bx * bx + by * by > *best)
        return;
    int kend = (ch + 1) * TRACK_CHUNK < t->n ? (ch + 1) * TRACK_CHUNK : t->n;
    for (int k = ch * TRACK_CHUNK; k < kend; k++) {
        double f, d2 = seg_dist2(t, k, x, y, &f);
        if (d2 < *best || (d2 == *best && k < *bk)) {
            *best = d2;
            *bk = k;
            *bf = f;
        }
    }
}

/* Nearest segment to (x, y): index, fraction along it, squared distance.
 *
 * Near the track (every position a race produces) the square rings of grid
 * cells around the point end after a ring or two. Far from the centre line
 * inside its box (the middle of a large circle) the rings would cover most
 * of the grid: once they have visited as many cells as there are chunks, a
 * pass over every chunk box finishes the search at a bounded cost. */
static void nearest(const Track *t, double x, double y, int *kbest, double *fbest, double *d2best)
{
    double best = INFINITY, bf = 0;
    int bk = 0;
    double gx1 = t->gx0 + t->gw * t->cell, gy1 = t->gy0 + t->gh * t->cell;
    bool inside = x >= t->gx0 && x < gx1 && y >= t->gy0 && y < gy1;
    int cx = inside ? cell_of(t, x, t->gx0, t->gw) : 0, cy = inside ? cell_of(t, y, t->gy0, t->gh) : 0;
    int rmax = t->gw > t->gh ? t->gw : t->gh;
    bool done = false;
    long visited = 0;
    for (int r = 0; inside && r <= rmax && !done; r++) {
        if (visited > t->nchunks)
            break; /* finish with the flat pass below */
        for (int j = cy - r; j <= cy + r; j++) {
            if (j < 0 || j >= t->gh)
                continue;
            bool edge_row = j == cy - r || j == cy + r;
            for (int i = cx - r; i <= cx + r; i += edge_row ? 1 : 2 * r) {
                visited++;
                if (i >= 0 && i < t->gw && cell_dist2(t, i, j, x, y) < best) {
                    int c = j * t->gw + i;
                    for (int p = t->chunk_start[c]; p < t->chunk_start[c + 1]; p++)
                        chunk_nearest(t, t->chunk_items[p], x, y, &bk, &bf, &best);
                }
                if (r == 0)
                    break;
            }
        }
        /* Every unvisited cell lies outside the square of visited cells, at
         * least as far as the square's nearest edge. */
        double ex0 = x - (t->gx0 + (cx - r) * t->cell), ex1 = t->gx0 + (cx + r + 1) * t->cell - x;
        double ey0 = y - (t->gy0 + (cy - r) * t->cell), ey1 = t->gy0 + (cy + r + 1) * t->cell - y;
        double reach = fmin(fmin(ex0, ex1), fmin(ey0, ey1));
        done = best <= reach * reach;
    }
    if (!done) /* outside the box (never on track), or the rings grew too wide */
        for (int ch = 0; ch < t->nchunks; ch++)
            chunk_nearest(t, ch, x, y, &bk, &bf, &best);
    *kbest = bk;
    *fbest = bf;
    *d2best = best;
}

/* ---- public geometry --------------------------------------------------- */

double track_length(const Track *t)
{
    return t->length;
}

double track_width(const Track *t)
{
    return t->width;
}

const char *track_name(const Track *t)
{
    return t->name;
}

int track_control_points(const Track *t)
{
    return t->npoints;
}

int track_grid_slots(const Track *t)
{
    return t->slots;
}

static double wrap_s(const Track *t, double s)
{
    double w = fmod(s, t->length);
    if (w < 0)
        w += t->length;
    if (w >= t->length)
        w = 0;
    return w;
}

/* Segment index k with vs[k] <= s < vs[k+1], s in [0, length). */
static int find_seg(const Track *t, double s)
{
    /* Vertices are close to evenly spaced: guess, then step to the segment. */
    int g = (int)(s / t->length * t->n);
    if (g >= 0 && g < t->n) {
        for (int i = 0; i < 8; i++) {
            if (t->vs[g] > s && g > 0)
                g--;
            else if (t->vs[g + 1] <= s && g + 1 < t->n)
                g++;
            else if (t->vs[g] <= s && s < t->vs[g + 1])
                return g;
            else
                break;
        }
    }
    int lo = 0, hi = t->n; /* vs[lo] <= s < vs[hi] */
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        if (t->vs[mid] <= s)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

void track_point(const Track *t, double s, double *x, double *y, double *heading)
{
    s = wrap_s(t, s);
    int k = find_seg(t, s);
    int k1 = k + 1 == t->n ? 0 : k + 1;
    double l = seg_len(t, k);
    double f = l > 0 ? (s - t->vs[k]) / l : 0.0;
    if (x)
        *x = t->vx[k] + f * (t->vx[k1] - t->vx[k]);
    if (y)
        *y = t->vy[k] + f * (t->vy[k1] - t->vy[k]);
    if (heading)
        *heading = nr_wrap_angle(t->vh[k] + f * nr_wrap_angle(t->vh[k1] - t->vh[k]));
}

double track_curvature(const Track *t, double s)
{
    s = wrap_s(t, s);
    int k = find_seg(t, s);
    int k1 = k + 1 == t->n ? 0 : k + 1;
    double l = seg_len(t, k);
    double f = l > 0 ? (s - t->vs[k]) / l : 0.0;
    return t->vk[k] + f * (t->vk[k1] - t->vk[k]);
}

double track_project(const Track *t, double x, double y)
{
    int k;
    double f, d2;
    nearest(t, x, y, &k, &f, &d2);
    double s = t->vs[k] + f * seg_len(t, k);
    return s >= t->length ? 0.0 : s;
}

/* Walks the polyline from the segment at near_s towards (x, y) while the
 * distance falls. A point within half the width of the centre line has one
 * nearest part of the centre line (the loader refuses tracks whose surface
 * overlaps itself or bends tighter than half the width), so a local minimum
 * that close is the nearest point; anything farther takes the grid search.
 * Returns false when the walk cannot vouch for its answer. */
static bool walk_nearest(const Track *t, double x, double y, double near_s, int *kout, double *fout)
{
    int k = find_seg(t, wrap_s(t, near_s));
    /* Jump by the point's displacement along the local tangent: the walk
     * then starts within a segment or two of the answer. */
    for (int jump = 0; jump < 2; jump++) {
        int k1 = k + 1 == t->n ? 0 : k + 1;
        double dx = t->vx[k1] - t->vx[k], dy = t->vy[k1] - t->vy[k];
        double l = seg_len(t, k);
        if (l <= 0)
            break;
        double ds = ((x - t->vx[k]) * dx + (y - t->vy[k]) * dy) / l;
        if (ds >= 0 && ds < l)
            break;
        /* Short jumps step along the vertices; long ones search. */
        double target = t->vs[k] + ds;
        int steps = 0;
        while (steps < 64 && target < t->vs[k] && target >= 0) {
            k--;
            steps++;
        }
        while (steps < 64 && target >= t->vs[k + 1] && target < t->length) {
            k++;
            steps++;
        }
        if (steps == 64 || target < 0 || target >= t->length)
            k = find_seg(t, wrap_s(t, target));
    }
    double f, d2 = seg_dist2(t, k, x, y, &f);
    for (int dir = 1, steps = 0; steps < t->n; steps++) {
        int kn = (k + dir + t->n) % t->n;
        double fn, dn = seg_dist2(t, kn, x, y, &fn);
        if (dn < d2) {
            k = kn;
            d2 = dn;
            f = fn;
        } else if (steps == 0 && dir == 1) {
            dir = -1; /* the first step forward did not help: try backward */
        } else {
            break;
        }
    }
    double half = t->width / 2;
    if (d2 > half * half)
        return false;
    *kout = k;
    *fout = f;
    return true;
}

double track_progress(const Track *t, double x, double y, double near_s)
{
    int k;
    double f, d2, s;
    if (!walk_nearest(t, x, y, near_s, &k, &f)) {
        nearest(t, x, y, &k, &f, &d2);
    }
    s = t->vs[k] + f * seg_len(t, k);
    if (s >= t->length)
        s = 0.0;
    double laps = nearbyint((near_s - s) / t->length);
    return s + laps * t->length;
}

double track_offset(const Track *t, double x, double y)
{
    int k;
    double f, d2;
    nearest(t, x, y, &k, &f, &d2);
    int k1 = k + 1 == t->n ? 0 : k + 1;
    double dx = t->vx[k1] - t->vx[k], dy = t->vy[k1] - t->vy[k];
    double px = t->vx[k] + f * dx, py = t->vy[k] + f * dy;
    double cross = dx * (y - py) - dy * (x - px);
    double d = sqrt(d2);
    return cross < 0 ? -d : d;
}

bool track_on_track(const Track *t, double x, double y)
{
    return fabs(track_offset(t, x, y)) <= t->width / 2;
}

void track_grid(const Track *t, int car, double *x, double *y, double *heading, double *s)
{
    if (car < 0)
        car = 0;
    double s_nom = -(car + 1) * t->grid_spacing;
    double off = car % 2 == 0 ? t->grid_offset : -t->grid_offset;
    double cx, cy, h;
    track_point(t, s_nom, &cx, &cy, &h);
    double px = cx - sin(h) * off, py = cy + cos(h) * off;
    if (x)
        *x = px;
    if (y)
        *y = py;
    if (heading)
        *heading = h;
    if (s)
        *s = track_progress(t, px, py, s_nom);
}

void track_free(Track *t)
{
    if (!t)
        return;
    free(t->point_line);
    free(t->vx);
    free(t->vy);
    free(t->vs);
    free(t->vh);
    free(t->vk);
    free(t->vseg);
    free(t->seg);
    free(t->chunk_box);
    free(t->chunk_start);
    free(t->chunk_items);
    free(t);
}
