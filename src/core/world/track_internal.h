/* Private to track.c, track_build.c and track_parse.c: the Track structure, its limits and
 * the small geometry helpers both the queries and the builder use. */
#ifndef NR_TRACK_INTERNAL_H
#define NR_TRACK_INTERNAL_H

#include "track.h"

#include <math.h>

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

static inline double seg_len(const Track *t, int k)
{
    return t->vs[k + 1] - t->vs[k];
}

/* Squared distance from (x, y) to segment k; *f gets the clamped fraction. */
static inline double seg_dist2(const Track *t, int k, double x, double y, double *f)
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

static inline int cell_of(const Track *t, double v, double v0, int nmax)
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


/* track_build.c: the steps of track_parse after the text is read. Each
 * fills its part of t or returns false with err naming the file and line. */
bool track_build_polyline(Track *t, const double *px, const double *py, const char *name, NrError *err);
bool track_build_grid(Track *t, const char *name, NrError *err);
bool track_check_geometry(const Track *t, const char *name, NrError *err);

#endif
