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
#include "track.h"
#include "nr_file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRACK_VERSION 1
#define TRACK_STEP_CW 0.25       /* longest polyline piece, car widths */
#define TRACK_MIN_PIECES 8       /* pieces per spline segment at least */
#define TRACK_MAX_POINTS 10000   /* control points */
#define TRACK_MAX_COORD 1.0e5    /* |x|, |y| of control points */
#define TRACK_MAX_LENGTH 1.0e5   /* control polygon perimeter, car widths */
#define TRACK_MAX_WIDTH 1000.0
#define TRACK_MAX_SLOTS 32
#define TRACK_MAX_CELLS 4000000
#define TRACK_LINE_MAX 1024
#define TRACK_CHUNK 4

struct Track {
    char name[128];
    double width;
    int npoints;       /* control points */
    int *point_line;   /* source line of each control point */
    int n;             /* polyline vertices (= segments, closed) */
    double *vx, *vy;   /* vertices */
    double *vs;        /* arc length at each vertex, [n + 1], vs[n] = length */
    double *vh;        /* tangent heading at each vertex (rad) */
    double *vk;        /* signed curvature at each vertex (1/cw) */
    int *vseg;         /* control segment each vertex belongs to */
    double length;
    struct Seg {
        double ax, ay, dx, dy, inv_l2; /* start, direction, 1 / |d|^2 */
    } *seg;                            /* [n], for the projection's hot loop */
    /* grid */
    double gx0, gy0, cell;
    int gw, gh;
    /* Projection index: chunks of TRACK_CHUNK consecutive segments with
     * their bounding boxes, listed per cell; a query skips every chunk
     * whose box is farther than the best distance found so far. */
    int nchunks;
    double *chunk_box; /* [4 * nchunks]: x0, y0, x1, y1 */
    int *chunk_start;  /* [gw * gh + 1] */
    int *chunk_items;  /* chunk indices */
    /* start grid */
    int slots;
    double grid_spacing, grid_offset;
};

/* ---- small geometry helpers ------------------------------------------- */

static double seg_len(const Track *t, int k)
{
    return t->vs[k + 1] - t->vs[k];
}

/* Squared distance from (x, y) to segment k; *f gets the clamped fraction. */
static double seg_dist2(const Track *t, int k, double x, double y, double *f)
{
    const struct Seg *g = &t->seg[k];
    double ax = g->ax, ay = g->ay, dx = g->dx, dy = g->dy;
    double u = ((x - ax) * dx + (y - ay) * dy) * g->inv_l2;
    if (u < 0)
        u = 0;
    else if (u > 1)
        u = 1;
    double px = ax + u * dx - x, py = ay + u * dy - y;
    *f = u;
    return px * px + py * py;
}

static int cell_of(const Track *t, double v, double v0, int nmax)
{
    double c = floor((v - v0) / t->cell);
    if (c < 0)
        return 0;
    if (c >= nmax)
        return nmax - 1;
    return (int)c;
}

/* Distance from v to [lo, hi] on one axis (0 inside); no libm call. */
static inline double axis_gap(double v, double lo, double hi)
{
    return v < lo ? lo - v : v > hi ? v - hi : 0.0;
}

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

/* ---- building ---------------------------------------------------------- */

/* Hermite form of the centripetal Catmull-Rom segment P1 -> P2 (u in [0, 1]):
 * p(u) = h00 P1 + h10 m1 + h01 P2 + h11 m2 with the tangents below. */
typedef struct Hermite {
    double p1x, p1y, p2x, p2y, m1x, m1y, m2x, m2y;
} Hermite;

static Hermite cr_segment(const double *px, const double *py, int n, int i)
{
    int i0 = (i + n - 1) % n, i1 = i, i2 = (i + 1) % n, i3 = (i + 2) % n;
    double d01 = sqrt(hypot(px[i1] - px[i0], py[i1] - py[i0]));
    double d12 = sqrt(hypot(px[i2] - px[i1], py[i2] - py[i1]));
    double d23 = sqrt(hypot(px[i3] - px[i2], py[i3] - py[i2]));
    Hermite h = {px[i1], py[i1], px[i2], py[i2], 0, 0, 0, 0};
    /* Tangent at P1 (per unit of the knot interval, scaled to u in [0,1]). */
    h.m1x = d12 * ((px[i1] - px[i0]) / d01 - (px[i2] - px[i0]) / (d01 + d12) + (px[i2] - px[i1]) / d12);
    h.m1y = d12 * ((py[i1] - py[i0]) / d01 - (py[i2] - py[i0]) / (d01 + d12) + (py[i2] - py[i1]) / d12);
    h.m2x = d12 * ((px[i2] - px[i1]) / d12 - (px[i3] - px[i1]) / (d12 + d23) + (px[i3] - px[i2]) / d23);
    h.m2y = d12 * ((py[i2] - py[i1]) / d12 - (py[i3] - py[i1]) / (d12 + d23) + (py[i3] - py[i2]) / d23);
    return h;
}

static void hermite_eval(const Hermite *h, double u, double *x, double *y, double *dx, double *dy,
                         double *ddx, double *ddy)
{
    double u2 = u * u, u3 = u2 * u;
    double h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
    double d00 = 6 * u2 - 6 * u, d10 = 3 * u2 - 4 * u + 1, d01 = -6 * u2 + 6 * u, d11 = 3 * u2 - 2 * u;
    double e00 = 12 * u - 6, e10 = 6 * u - 4, e01 = -12 * u + 6, e11 = 6 * u - 2;
    *x = h00 * h->p1x + h10 * h->m1x + h01 * h->p2x + h11 * h->m2x;
    *y = h00 * h->p1y + h10 * h->m1y + h01 * h->p2y + h11 * h->m2y;
    *dx = d00 * h->p1x + d10 * h->m1x + d01 * h->p2x + d11 * h->m2x;
    *dy = d00 * h->p1y + d10 * h->m1y + d01 * h->p2y + d11 * h->m2y;
    *ddx = e00 * h->p1x + e10 * h->m1x + e01 * h->p2x + e11 * h->m2x;
    *ddy = e00 * h->p1y + e10 * h->m1y + e01 * h->p2y + e11 * h->m2y;
}

static bool build_polyline(Track *t, const double *px, const double *py, const char *name, NrError *err)
{
    int np = t->npoints;
    int total = 0;
    int *pieces = malloc((size_t)np * sizeof *pieces);
    if (!pieces)
        return nr_error_set(err, "%s: out of memory", name);
    for (int i = 0; i < np; i++) {
        /* Piece count from the Hermite control polygon length, an upper
         * bound of the segment's arc length. */
        Hermite h = cr_segment(px, py, np, i);
        double poly = hypot(h.m1x, h.m1y) / 3 + hypot(h.m2x, h.m2y) / 3 +
                      hypot(h.p2x - h.m2x / 3 - h.p1x - h.m1x / 3, h.p2y - h.m2y / 3 - h.p1y - h.m1y / 3);
        double m = ceil(poly / TRACK_STEP_CW);
        if (m < TRACK_MIN_PIECES)
            m = TRACK_MIN_PIECES;
        if (m > 1e6) {
            free(pieces);
            return nr_error_set(err, "%s:%d: centre line too long", name, t->point_line[i]);
        }
        pieces[i] = (int)m;
        total += (int)m;
    }
    t->n = total;
    t->vx = malloc((size_t)total * sizeof *t->vx);
    t->vy = malloc((size_t)total * sizeof *t->vy);
    t->vs = malloc((size_t)(total + 1) * sizeof *t->vs);
    t->vh = malloc((size_t)total * sizeof *t->vh);
    t->vk = malloc((size_t)total * sizeof *t->vk);
    t->vseg = malloc((size_t)total * sizeof *t->vseg);
    if (!t->vx || !t->vy || !t->vs || !t->vh || !t->vk || !t->vseg) {
        free(pieces);
        return nr_error_set(err, "%s: out of memory", name);
    }
    int v = 0;
    for (int i = 0; i < np; i++) {
        Hermite h = cr_segment(px, py, np, i);
        for (int j = 0; j < pieces[i]; j++, v++) {
            double x, y, dx, dy, ddx, ddy;
            hermite_eval(&h, (double)j / pieces[i], &x, &y, &dx, &dy, &ddx, &ddy);
            double sp = hypot(dx, dy);
            t->vx[v] = x;
            t->vy[v] = y;
            t->vh[v] = atan2(dy, dx);
            t->vk[v] = sp > 0 ? (dx * ddy - dy * ddx) / (sp * sp * sp) : 0.0;
            t->vseg[v] = i;
        }
    }
    free(pieces);
    t->vs[0] = 0;
    for (int k = 0; k < total; k++) {
        int k1 = k + 1 == total ? 0 : k + 1;
        double l = hypot(t->vx[k1] - t->vx[k], t->vy[k1] - t->vy[k]);
        if (!(l > 1e-9)) {
            int line = t->point_line[t->vseg[k]];
            return nr_error_set(err, "%s:%d: the centre line has a cusp after this point (move or remove it)",
                                name, line);
        }
        t->vs[k + 1] = t->vs[k] + l;
    }
    t->length = t->vs[total];
    t->seg = malloc((size_t)total * sizeof *t->seg);
    if (!t->seg)
        return nr_error_set(err, "%s: out of memory", name);
    for (int k = 0; k < total; k++) {
        int k1 = k + 1 == total ? 0 : k + 1;
        double dx = t->vx[k1] - t->vx[k], dy = t->vy[k1] - t->vy[k];
        t->seg[k] = (struct Seg){t->vx[k], t->vy[k], dx, dy, 1.0 / (dx * dx + dy * dy)};
    }
    return true;
}

/* Lists each of n boxes in every grid cell it overlaps (CSR layout). */
static bool build_csr(const Track *t, const double *box, int n, int **start_out, int **items_out)
{
    size_t ncell = (size_t)t->gw * (size_t)t->gh;
    int *start = calloc(ncell + 1, sizeof *start);
    if (!start)
        return false;
    int *items = NULL, *fill = NULL;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            for (size_t c = 0; c < ncell; c++)
                start[c + 1] += start[c];
            items = malloc(((size_t)start[ncell] + 1) * sizeof *items);
            fill = malloc(ncell * sizeof *fill);
            if (!items || !fill) {
                free(start);
                free(items);
                free(fill);
                return false;
            }
            memcpy(fill, start, ncell * sizeof *fill);
        }
        for (int k = 0; k < n; k++) {
            const double *b = &box[4 * k];
            int ia = cell_of(t, b[0], t->gx0, t->gw), ib = cell_of(t, b[2], t->gx0, t->gw);
            int ja = cell_of(t, b[1], t->gy0, t->gh), jb = cell_of(t, b[3], t->gy0, t->gh);
            for (int j = ja; j <= jb; j++)
                for (int i = ia; i <= ib; i++) {
                    size_t c = (size_t)j * t->gw + i;
                    if (pass == 0)
                        start[c + 1]++;
                    else
                        items[fill[c]++] = k;
                }
        }
    }
    free(fill);
    *start_out = start;
    *items_out = items;
    return true;
}

static bool build_grid(Track *t, const char *name, NrError *err)
{
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (int k = 0; k < t->n; k++) {
        x0 = fmin(x0, t->vx[k]);
        x1 = fmax(x1, t->vx[k]);
        y0 = fmin(y0, t->vy[k]);
        y1 = fmax(y1, t->vy[k]);
    }
    double cell = t->width / 2;
    if (cell < 1)
        cell = 1;
    double margin = t->width + cell;
    x0 -= margin;
    y0 -= margin;
    x1 += margin;
    y1 += margin;
    while ((x1 - x0) / cell * ((y1 - y0) / cell) > TRACK_MAX_CELLS)
        cell *= 2;
    t->cell = cell;
    t->gx0 = x0;
    t->gy0 = y0;
    t->gw = (int)ceil((x1 - x0) / cell);
    t->gh = (int)ceil((y1 - y0) / cell);
    /* Boxes of chunks of TRACK_CHUNK segments, listed per cell (queries). */
    t->nchunks = (t->n + TRACK_CHUNK - 1) / TRACK_CHUNK;
    t->chunk_box = malloc((size_t)t->nchunks * 4 * sizeof *t->chunk_box);
    if (!t->chunk_box)
        return nr_error_set(err, "%s: out of memory", name);
    for (int k = 0; k < t->n; k++) {
        int k1 = k + 1 == t->n ? 0 : k + 1;
        double b[4] = {fmin(t->vx[k], t->vx[k1]), fmin(t->vy[k], t->vy[k1]), fmax(t->vx[k], t->vx[k1]),
                       fmax(t->vy[k], t->vy[k1])};
        double *cb = &t->chunk_box[4 * (k / TRACK_CHUNK)];
        if (k % TRACK_CHUNK == 0) {
            memcpy(cb, b, sizeof b);
        } else {
            cb[0] = fmin(cb[0], b[0]);
            cb[1] = fmin(cb[1], b[1]);
            cb[2] = fmax(cb[2], b[2]);
            cb[3] = fmax(cb[3], b[3]);
        }
    }
    bool ok = build_csr(t, t->chunk_box, t->nchunks, &t->chunk_start, &t->chunk_items);
    if (!ok)
        return nr_error_set(err, "%s: out of memory", name);
    return true;
}

static double orient(double ax, double ay, double bx, double by, double cx, double cy)
{
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/* The centre line as the load-time checks see it: every m-th vertex of the
 * polyline (m = 1 up to width 16). The checks compare every vertex with
 * every segment within a width of it, which costs length x width on the
 * full polyline (11 s for a 15000-cw track 1000 wide). Chords m vertices
 * apart on a curve whose curvature is at most 2 / width (check 3) stray
 * at most h^2 / (4 width) from it for a chord of length h <= width / 32:
 * width / 4096, which the checks' width-sized thresholds do not notice.
 * The cost becomes proportional to the length alone. */
typedef struct CheckLine {
    int n, m;          /* vertices (chords, closed); stride in polyline vertices */
    const Track *t;
} CheckLine;

static int cl_vertex(const CheckLine *c, int i) /* polyline vertex of check vertex i */
{
    return i * c->m;
}

static void cl_point(const CheckLine *c, int i, double *x, double *y)
{
    int v = cl_vertex(c, i % c->n);
    *x = c->t->vx[v];
    *y = c->t->vy[v];
}

static double cl_s(const CheckLine *c, int i)
{
    return c->t->vs[cl_vertex(c, i)];
}

/* Squared distance from (x, y) to chord i; *f gets the arc length there. */
static double cl_dist2(const CheckLine *c, int i, double x, double y, double *s)
{
    double ax, ay, bx, by;
    cl_point(c, i, &ax, &ay);
    cl_point(c, i + 1, &bx, &by);
    double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
    double u = l2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / l2 : 0;
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    double s0 = cl_s(c, i), s1 = i + 1 == c->n ? c->t->length : cl_s(c, i + 1);
    *s = s0 + u * (s1 - s0);
    double px = ax + u * dx - x, py = ay + u * dy - y;
    return px * px + py * py;
}

static bool chords_cross(const CheckLine *c, int a, int b)
{
    double ax, ay, a1x, a1y, bx, by, b1x, b1y, s;
    cl_point(c, a, &ax, &ay);
    cl_point(c, a + 1, &a1x, &a1y);
    cl_point(c, b, &bx, &by);
    cl_point(c, b + 1, &b1x, &b1y);
    double o1 = orient(ax, ay, a1x, a1y, bx, by), o2 = orient(ax, ay, a1x, a1y, b1x, b1y);
    double o3 = orient(bx, by, b1x, b1y, ax, ay), o4 = orient(bx, by, b1x, b1y, a1x, a1y);
    if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0)))
        return true;
    /* Touching or collinear overlap: a vertex lying on the other chord. */
    return cl_dist2(c, a, bx, by, &s) == 0 || cl_dist2(c, b, ax, ay, &s) == 0;
}

static int cl_line(const CheckLine *c, int i) /* source line of chord i's control point */
{
    return c->t->point_line[c->t->vseg[cl_vertex(c, i)]];
}

static bool check_geometry(const Track *t, const char *name, NrError *err)
{
    CheckLine cl = {0, 1, t};
    int m = (int)floor(t->width / 16.0);
    cl.m = m > 1 ? m : 1;
    cl.n = (t->n + cl.m - 1) / cl.m;
    if (cl.n < 3) {
        cl.m = 1;
        cl.n = t->n;
    }
    /* Chord boxes listed per grid cell. */
    double *box = malloc((size_t)cl.n * 4 * sizeof *box);
    int *start = NULL, *items = NULL;
    if (!box)
        return nr_error_set(err, "%s: out of memory", name);
    for (int i = 0; i < cl.n; i++) {
        double ax, ay, bx, by;
        cl_point(&cl, i, &ax, &ay);
        cl_point(&cl, i + 1, &bx, &by);
        box[4 * i] = fmin(ax, bx);
        box[4 * i + 1] = fmin(ay, by);
        box[4 * i + 2] = fmax(ax, bx);
        box[4 * i + 3] = fmax(ay, by);
    }
    bool built = build_csr(t, box, cl.n, &start, &items);
    free(box);
    if (!built)
        return nr_error_set(err, "%s: out of memory", name);
    bool ok = true;
    /* 1. The centre line must not cross itself. Two crossing chords share
     * at least one grid cell (the one holding the crossing point). */
    size_t ncell = (size_t)t->gw * (size_t)t->gh;
    for (size_t c = 0; c < ncell && ok; c++) {
        for (int p = start[c]; p < start[c + 1] && ok; p++) {
            for (int q = p + 1; q < start[c + 1] && ok; q++) {
                int a = items[p], b = items[q];
                int gap = abs(a - b);
                if (gap <= 1 || gap == cl.n - 1)
                    continue; /* neighbours share a vertex */
                if (chords_cross(&cl, a, b)) {
                    int la = cl_line(&cl, a), lb = cl_line(&cl, b);
                    ok = nr_error_set(err,
                                      "%s:%d: self-intersecting centre line: the curve after this point "
                                      "crosses the curve after the point on line %d",
                                      name, la < lb ? la : lb, la < lb ? lb : la);
                }
            }
        }
    }
    /* 2. The track surface must not overlap itself: two centre-line parts
     * farther apart along the track than a half turn of radius width/2
     * (pi * width / 2) must stay at least one width apart. */
    double sep_min = NR_PI * t->width / 2;
    int reach = (int)ceil(t->width / t->cell);
    for (int k = 0; k < cl.n && ok; k++) {
        double kx, ky;
        cl_point(&cl, k, &kx, &ky);
        double sk = cl_s(&cl, k);
        int cx = cell_of(t, kx, t->gx0, t->gw), cy = cell_of(t, ky, t->gy0, t->gh);
        for (int j = cy - reach; j <= cy + reach && ok; j++) {
            if (j < 0 || j >= t->gh)
                continue;
            for (int i = cx - reach; i <= cx + reach && ok; i++) {
                if (i < 0 || i >= t->gw)
                    continue;
                int c = j * t->gw + i;
                for (int p = start[c]; p < start[c + 1] && ok; p++) {
                    int b = items[p];
                    double sb, d2 = cl_dist2(&cl, b, kx, ky, &sb);
                    if (d2 >= t->width * t->width)
                        continue;
                    double sep = fabs(sb - sk);
                    if (sep > t->length / 2)
                        sep = t->length - sep;
                    if (sep > sep_min) {
                        int la = cl_line(&cl, k), lb = cl_line(&cl, b);
                        ok = nr_error_set(err,
                                          "%s:%d: the track surface overlaps itself: the centre line "
                                          "after this point passes %.3g from the part after line %d, "
                                          "closer than the width %.3g",
                                          name, la < lb ? la : lb, sqrt(d2), la < lb ? lb : la, t->width);
                    }
                }
            }
        }
    }
    free(start);
    free(items);
    if (!ok)
        return false;
    /* 3. No bend tighter than half the width: the inner edge would fold. */
    for (int k = 0; k < t->n; k++) {
        if (fabs(t->vk[k]) * t->width / 2 > 1.0) {
            return nr_error_set(err,
                                "%s:%d: the bend after this point has radius %.3g, less than half the "
                                "width (%.3g); spread the points out or narrow the track",
                                name, t->point_line[t->vseg[k]], 1.0 / fabs(t->vk[k]), t->width / 2);
        }
    }
    return true;
}

/* ---- parsing ------------------------------------------------------------ */

typedef struct Parser {
    const char *name;
    double *px, *py;
    int np, cap;
    int *lines;
} Parser;

static bool parse_num(const char *tok, const char *what, const char *name, int line, double *out,
                      NrError *err)
{
    if (!tok)
        return nr_error_set(err, "%s:%d: missing %s (expected a number)", name, line, what);
    if (!nr_parse_double(tok, out)) {
        char *end;
        double v = strtod(tok, &end);
        if (end != tok && *end == '\0' && !isfinite(v))
            return nr_error_set(err, "%s:%d: %s is '%s', expected a finite number", name, line, what, tok);
        return nr_error_set(err, "%s:%d: %s is '%s', expected a number", name, line, what, tok);
    }
    return true;
}

static Track *fail_parse(Track *t, Parser *p)
{
    free(p->px);
    free(p->py);
    free(p->lines);
    track_free(t);
    return NULL;
}

Track *track_parse(const char *text, const char *name, NrError *err)
{
    if (!name)
        name = "track";
    Parser p = {name, NULL, NULL, 0, 0, NULL};
    Track *t = calloc(1, sizeof *t);
    if (!t) {
        nr_error_set(err, "%s: out of memory", name);
        return NULL;
    }
    bool have_version = false, have_name = false, have_width = false, have_grid = false;
    int line = 0, version_line = 0;
    const char *cur = text;
    char buf[TRACK_LINE_MAX];
    while (*cur) {
        line++;
        const char *nl = strchr(cur, '\n');
        size_t len = nl ? (size_t)(nl - cur) : strlen(cur);
        if (len >= sizeof buf) {
            nr_error_set(err, "%s:%d: line too long (at most %d characters)", name, line, TRACK_LINE_MAX - 1);
            return fail_parse(t, &p);
        }
        memcpy(buf, cur, len);
        buf[len] = '\0';
        cur += len + (nl ? 1 : 0);
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *save = NULL;
        char *kw = strtok_r(buf, " \t\r", &save);
        if (!kw)
            continue;
        if (!have_version) {
            if (strcmp(kw, "netrace-track") != 0) {
                nr_error_set(err, "%s:%d: expected the header 'netrace-track %d', got '%s'", name, line,
                             TRACK_VERSION, kw);
                return fail_parse(t, &p);
            }
            char *ver = strtok_r(NULL, " \t\r", &save);
            int64_t v;
            if (!ver || !nr_parse_int64(ver, &v) || strtok_r(NULL, " \t\r", &save)) {
                nr_error_set(err, "%s:%d: expected the header 'netrace-track %d'", name, line, TRACK_VERSION);
                return fail_parse(t, &p);
            }
            if (v != TRACK_VERSION) {
                nr_error_set(err, "%s:%d: track format version %lld is not supported (expected %d)", name,
                             line, (long long)v, TRACK_VERSION);
                return fail_parse(t, &p);
            }
            have_version = true;
            version_line = line;
            continue;
        }
        if (strcmp(kw, "name") == 0) {
            char *rest = save ? save + strspn(save, " \t") : NULL;
            if (have_name) {
                nr_error_set(err, "%s:%d: second 'name' line (a track has one name)", name, line);
                return fail_parse(t, &p);
            }
            if (!rest || !*rest) {
                nr_error_set(err, "%s:%d: 'name' needs a text", name, line);
                return fail_parse(t, &p);
            }
            size_t rl = strlen(rest);
            while (rl > 0 && (rest[rl - 1] == ' ' || rest[rl - 1] == '\t' || rest[rl - 1] == '\r'))
                rest[--rl] = '\0';
            if (!nr_text_is_printable(rest)) {
                nr_error_set(err, "%s:%d: name holds a control character, expected printable text", name, line);
                return fail_parse(t, &p);
            }
            if (rl >= sizeof t->name) {
                nr_error_set(err, "%s:%d: name longer than %zu characters", name, line, sizeof t->name - 1);
                return fail_parse(t, &p);
            }
            memcpy(t->name, rest, rl + 1);
            have_name = true;
            continue;
        }
        char *f[4];
        int nf = 0;
        char *tok;
        while ((tok = strtok_r(NULL, " \t\r", &save)) != NULL) {
            if (nf == 4) {
                nr_error_set(err, "%s:%d: too many fields after '%s'", name, line, kw);
                return fail_parse(t, &p);
            }
            f[nf++] = tok;
        }
        for (int i = nf; i < 4; i++)
            f[i] = NULL;
        if (strcmp(kw, "width") == 0) {
            if (have_width) {
                nr_error_set(err, "%s:%d: second 'width' line", name, line);
                return fail_parse(t, &p);
            }
            if (nf > 1) {
                nr_error_set(err, "%s:%d: 'width' takes one number (car widths)", name, line);
                return fail_parse(t, &p);
            }
            if (!parse_num(f[0], "width", name, line, &t->width, err))
                return fail_parse(t, &p);
            if (!(t->width > 0) || t->width > TRACK_MAX_WIDTH) {
                nr_error_set(err, "%s:%d: width %g out of range (expected more than 0, at most %g car widths)",
                             name, line, t->width, TRACK_MAX_WIDTH);
                return fail_parse(t, &p);
            }
            have_width = true;
        } else if (strcmp(kw, "point") == 0) {
            double x, y;
            if (nf != 2) {
                nr_error_set(err, "%s:%d: 'point' takes two numbers X Y, got %d fields", name, line, nf);
                return fail_parse(t, &p);
            }
            if (!parse_num(f[0], "X", name, line, &x, err) || !parse_num(f[1], "Y", name, line, &y, err))
                return fail_parse(t, &p);
            if (fabs(x) > TRACK_MAX_COORD || fabs(y) > TRACK_MAX_COORD) {
                nr_error_set(err, "%s:%d: point (%g, %g) out of range (|X|, |Y| at most %g)", name, line, x, y,
                             TRACK_MAX_COORD);
                return fail_parse(t, &p);
            }
            if (p.np > 0 && x == p.px[p.np - 1] && y == p.py[p.np - 1]) {
                nr_error_set(err, "%s:%d: duplicate point (%g, %g), same as the previous point on line %d",
                             name, line, x, y, p.lines[p.np - 1]);
                return fail_parse(t, &p);
            }
            if (p.np == TRACK_MAX_POINTS) {
                nr_error_set(err, "%s:%d: too many points (at most %d)", name, line, TRACK_MAX_POINTS);
                return fail_parse(t, &p);
            }
            if (p.np == p.cap) {
                int cap = p.cap ? p.cap * 2 : 64;
                double *nx = realloc(p.px, (size_t)cap * sizeof *nx);
                if (nx)
                    p.px = nx;
                double *ny = realloc(p.py, (size_t)cap * sizeof *ny);
                if (ny)
                    p.py = ny;
                int *nl2 = realloc(p.lines, (size_t)cap * sizeof *nl2);
                if (nl2)
                    p.lines = nl2;
                if (!nx || !ny || !nl2) {
                    nr_error_set(err, "%s: out of memory", name);
                    return fail_parse(t, &p);
                }
                p.cap = cap;
            }
            p.px[p.np] = x;
            p.py[p.np] = y;
            p.lines[p.np] = line;
            p.np++;
        } else if (strcmp(kw, "grid") == 0) {
            double slots, spacing, offset;
            if (have_grid) {
                nr_error_set(err, "%s:%d: second 'grid' line", name, line);
                return fail_parse(t, &p);
            }
            if (nf != 3) {
                nr_error_set(err, "%s:%d: 'grid' takes SLOTS SPACING OFFSET, got %d fields", name, line, nf);
                return fail_parse(t, &p);
            }
            if (!parse_num(f[0], "grid SLOTS", name, line, &slots, err) ||
                !parse_num(f[1], "grid SPACING", name, line, &spacing, err) ||
                !parse_num(f[2], "grid OFFSET", name, line, &offset, err))
                return fail_parse(t, &p);
            if (slots != floor(slots) || slots < 2 || slots > TRACK_MAX_SLOTS) {
                nr_error_set(err, "%s:%d: grid SLOTS is %g, expected a whole number from 2 to %d", name, line,
                             slots, TRACK_MAX_SLOTS);
                return fail_parse(t, &p);
            }
            if (!(spacing > 0)) {
                nr_error_set(err, "%s:%d: grid SPACING is %g, expected more than 0 car widths", name, line,
                             spacing);
                return fail_parse(t, &p);
            }
            if (offset < 0) {
                nr_error_set(err, "%s:%d: grid OFFSET is %g, expected 0 or more car widths", name, line,
                             offset);
                return fail_parse(t, &p);
            }
            t->slots = (int)slots;
            t->grid_spacing = spacing;
            t->grid_offset = offset;
            have_grid = true;
        } else {
            nr_error_set(err, "%s:%d: unknown keyword '%s' (expected name, width, point or grid)", name, line,
                         kw);
            return fail_parse(t, &p);
        }
    }
    int last = line > 0 ? line : 1;
    if (!have_version) {
        nr_error_set(err, "%s:%d: %s (expected the header 'netrace-track %d')", name, last,
                     line == 0 ? "empty file" : "no header", TRACK_VERSION);
        return fail_parse(t, &p);
    }
    if (!have_name) {
        nr_error_set(err, "%s:%d: missing 'name' line", name, version_line);
        return fail_parse(t, &p);
    }
    if (!have_width) {
        nr_error_set(err, "%s:%d: missing 'width' line", name, version_line);
        return fail_parse(t, &p);
    }
    if (p.np < 3) {
        nr_error_set(err, "%s:%d: %d point%s, a closed centre line needs at least 3", name, last, p.np,
                     p.np == 1 ? "" : "s");
        return fail_parse(t, &p);
    }
    if (p.px[0] == p.px[p.np - 1] && p.py[0] == p.py[p.np - 1]) {
        nr_error_set(err, "%s:%d: duplicate point: the last point repeats the first (the line closes by itself)",
                     name, p.lines[p.np - 1]);
        return fail_parse(t, &p);
    }
    double perim = 0;
    for (int i = 0; i < p.np; i++) {
        int j = (i + 1) % p.np;
        perim += hypot(p.px[j] - p.px[i], p.py[j] - p.py[i]);
    }
    if (perim > TRACK_MAX_LENGTH) {
        nr_error_set(err, "%s:%d: centre line about %.0f car widths long, at most %.0f", name, p.lines[0], perim,
                     TRACK_MAX_LENGTH);
        return fail_parse(t, &p);
    }
    if (!have_grid) {
        t->slots = 2;
        t->grid_spacing = 2.0;
        t->grid_offset = t->width / 4;
    }
    if (t->grid_offset + 0.5 > t->width / 2) {
        nr_error_set(err, "%s:%d: grid OFFSET %g puts cars off a track %g wide (at most %g)", name, last,
                     t->grid_offset, t->width, t->width / 2 - 0.5);
        return fail_parse(t, &p);
    }
    t->npoints = p.np;
    t->point_line = p.lines;
    p.lines = NULL;
    if (!build_polyline(t, p.px, p.py, name, err) || !build_grid(t, name, err) || !check_geometry(t, name, err))
        return fail_parse(t, &p);
    if (t->slots * t->grid_spacing > t->length / 2) {
        nr_error_set(err, "%s:%d: the start grid (%d slots every %g) is longer than half the track (%g)", name,
                     last, t->slots, t->grid_spacing, t->length);
        return fail_parse(t, &p);
    }
    free(p.px);
    free(p.py);
    return t;
}

Track *track_load(const char *path, NrError *err)
{
    FILE *f = nr_file_open(path, "a track", err);
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    if (!text) {
        fclose(f);
        nr_error_set(err, "%s: out of memory", path);
        return NULL;
    }
    size_t got;
    while ((got = fread(text + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (memchr(text + len - got, '\0', got)) {
            free(text);
            fclose(f);
            nr_error_set(err, "%s: binary data (NUL byte) in a text file", path);
            return NULL;
        }
        if (len + 1 == cap) {
            if (cap > (size_t)64 << 20) {
                free(text);
                fclose(f);
                nr_error_set(err, "%s: file larger than 64 MiB", path);
                return NULL;
            }
            char *n2 = realloc(text, cap * 2);
            if (!n2) {
                free(text);
                fclose(f);
                nr_error_set(err, "%s: out of memory", path);
                return NULL;
            }
            text = n2;
            cap *= 2;
        }
    }
    bool ioerr = ferror(f);
    fclose(f);
    if (ioerr) {
        free(text);
        nr_error_set(err, "%s: read error", path);
        return NULL;
    }
    text[len] = '\0';
    Track *t = track_parse(text, path, err);
    free(text);
    return t;
}
