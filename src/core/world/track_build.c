/* Building a track: the centripetal Catmull-Rom centre line resampled by arc
 * length, the projection grid and the load-time geometry checks (track.h). */
#include "track_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

bool track_build_polyline(Track *t, const double *px, const double *py, const char *name, NrError *err)
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

bool track_build_grid(Track *t, const char *name, NrError *err)
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

/* The chords of cl (every m-th vertex; m about width / 16 so that a wide
 * track checks fewer, longer chords) and their boxes listed per grid cell
 * (build_csr). False when memory runs out. */
static bool index_chords(CheckLine *cl, int **start, int **items)
{
    const Track *t = cl->t;
    int m = (int)floor(t->width / 16.0);
    cl->m = m > 1 ? m : 1;
    cl->n = (t->n + cl->m - 1) / cl->m;
    if (cl->n < 3) {
        cl->m = 1;
        cl->n = t->n;
    }
    double *box = malloc((size_t)cl->n * 4 * sizeof *box);
    if (!box)
        return false;
    for (int i = 0; i < cl->n; i++) {
        double ax, ay, bx, by;
        cl_point(cl, i, &ax, &ay);
        cl_point(cl, i + 1, &bx, &by);
        box[4 * i] = fmin(ax, bx);
        box[4 * i + 1] = fmin(ay, by);
        box[4 * i + 2] = fmax(ax, bx);
        box[4 * i + 3] = fmax(ay, by);
    }
    bool built = build_csr(t, box, cl->n, start, items);
    free(box);
    return built;
}

/* 1. The centre line must not cross itself. Two crossing chords share at
 * least one grid cell (the one holding the crossing point). */
static bool check_crossings(const CheckLine *cl, const int *start, const int *items, const char *name, NrError *err)
{
    const Track *t = cl->t;
    size_t ncell = (size_t)t->gw * (size_t)t->gh;
    for (size_t c = 0; c < ncell; c++) {
        for (int p = start[c]; p < start[c + 1]; p++) {
            for (int q = p + 1; q < start[c + 1]; q++) {
                int a = items[p], b = items[q];
                int gap = abs(a - b);
                if (gap <= 1 || gap == cl->n - 1)
                    continue; /* neighbours share a vertex */
                if (chords_cross(cl, a, b)) {
                    int la = cl_line(cl, a), lb = cl_line(cl, b);
                    return nr_error_set(err,
                                        "%s:%d: self-intersecting centre line: the curve after this point "
                                        "crosses the curve after the point on line %d",
                                        name, la < lb ? la : lb, la < lb ? lb : la);
                }
            }
        }
    }
    return true;
}

/* Check 2 for vertex k of the chords against the chords listed in cell c:
 * one closer than the width must be near k along the track. */
static bool check_overlap_cell(const CheckLine *cl, int k, int c, const int *start, const int *items,
                               const char *name, NrError *err)
{
    const Track *t = cl->t;
    double sep_min = NR_PI * t->width / 2;
    double kx, ky;
    cl_point(cl, k, &kx, &ky);
    double sk = cl_s(cl, k);
    for (int p = start[c]; p < start[c + 1]; p++) {
        int b = items[p];
        double sb, d2 = cl_dist2(cl, b, kx, ky, &sb);
        if (d2 >= t->width * t->width)
            continue;
        double sep = fabs(sb - sk);
        if (sep > t->length / 2)
            sep = t->length - sep;
        if (sep > sep_min) {
            int la = cl_line(cl, k), lb = cl_line(cl, b);
            return nr_error_set(err,
                                "%s:%d: the track surface overlaps itself: the centre line "
                                "after this point passes %.3g from the part after line %d, "
                                "closer than the width %.3g",
                                name, la < lb ? la : lb, sqrt(d2), la < lb ? lb : la, t->width);
        }
    }
    return true;
}

/* 2. The track surface must not overlap itself: two centre-line parts
 * farther apart along the track than a half turn of radius width/2
 * (pi * width / 2) must stay at least one width apart. */
static bool check_overlap(const CheckLine *cl, const int *start, const int *items, const char *name, NrError *err)
{
    const Track *t = cl->t;
    int reach = (int)ceil(t->width / t->cell);
    for (int k = 0; k < cl->n; k++) {
        double kx, ky;
        cl_point(cl, k, &kx, &ky);
        int cx = cell_of(t, kx, t->gx0, t->gw), cy = cell_of(t, ky, t->gy0, t->gh);
        for (int j = cy - reach; j <= cy + reach; j++) {
            if (j < 0 || j >= t->gh)
                continue;
            for (int i = cx - reach; i <= cx + reach; i++) {
                if (i >= 0 && i < t->gw && !check_overlap_cell(cl, k, j * t->gw + i, start, items, name, err))
                    return false;
            }
        }
    }
    return true;
}

/* 3. No bend tighter than half the width: the inner edge would fold. */
static bool check_bends(const Track *t, const char *name, NrError *err)
{
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

bool track_check_geometry(const Track *t, const char *name, NrError *err)
{
    CheckLine cl = {0, 1, t};
    int *start = NULL, *items = NULL;
    if (!index_chords(&cl, &start, &items)) {
        free(start);
        free(items);
        return nr_error_set(err, "%s: out of memory", name);
    }
    bool ok = check_crossings(&cl, start, items, name, err) && check_overlap(&cl, start, items, name, err);
    free(start);
    free(items);
    return ok && check_bends(t, name, err);
}
