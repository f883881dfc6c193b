/* A chart panel (plot.h's PlotPanel): axes on round ticks with units, a
 * symmetric log scale when asked, a light grid, one curve per series
 * (dashed past the sixth), spreads as bars or bands, the legend. The
 * window's strip charts and the batch commands' PNG figures both draw here. */
#include "app_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Dash on and off lengths in pixels, over the curve's length, so a dense
 * curve (a point per column) dashes too. */
#define PLOT_DASH_ON 9.0f
#define PLOT_DASH_OFF 5.0f

/* One segment of a curve: solid, or the dashed pieces of it that fall on
 * the "on" part of the pattern, *phase carrying the length already drawn.
 * fast: w one-pixel lines a pixel apart (the window), else a thick line. */
static void curve_segment(SDL_Renderer *r, bool fast, bool dashed, float x0, float y0, float x1, float y1, float w,
                          SDL_Color c, float *phase)
{
    float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
    float t = 0;
    while (t < len || (len == 0 && t == 0)) {
        float pos = fmodf(*phase, PLOT_DASH_ON + PLOT_DASH_OFF);
        bool on = !dashed || pos < PLOT_DASH_ON;
        float piece = !dashed ? len : on ? PLOT_DASH_ON - pos : PLOT_DASH_ON + PLOT_DASH_OFF - pos;
        if (piece > len - t)
            piece = len - t;
        if (on) {
            float ax = len > 0 ? x0 + dx * t / len : x0, ay = len > 0 ? y0 + dy * t / len : y0;
            float bx = len > 0 ? x0 + dx * (t + piece) / len : x1, by = len > 0 ? y0 + dy * (t + piece) / len : y1;
            if (fast) {
                SDL_SetRenderDrawColor(r, c.r, c.g, c.b, 255);
                for (int o = 0; o < (int)w; o++)
                    SDL_RenderDrawLineF(r, ax, ay + (float)o, bx, by + (float)o);
            } else {
                gfx_thick_line(r, ax, ay, bx, by, w, c);
            }
        }
        if (len == 0)
            break;
        t += piece;
        *phase += piece;
    }
}

static void data_range(const PlotPanel *p, bool xaxis, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int s = 0; s < p->nseries; s++) {
        const PlotSeries *se = &p->series[s];
        for (int i = 0; i < se->n; i++) {
            double v = xaxis ? se->x[i] : se->y[i];
            double other = xaxis ? se->y[i] : se->x[i];
            if (!isfinite(v) || !isfinite(other))
                continue;
            *lo = fmin(*lo, v);
            *hi = fmax(*hi, v);
            if (!xaxis && se->lo && se->hi && isfinite(se->lo[i]) && isfinite(se->hi[i])) {
                *lo = fmin(*lo, se->lo[i]);
                *hi = fmax(*hi, se->hi[i]);
            }
        }
    }
    if (!isfinite(*lo)) {
        *lo = 0;
        *hi = 1;
    }
    if (p->zero_line && !xaxis) {
        *lo = fmin(*lo, 0);
        *hi = fmax(*hi, 0);
    }
    if (*hi - *lo < 1e-12) {
        if (fabs(*lo) < 1e-12 && !xaxis) { /* all zero: show 0..1 above the axis */
            *hi = 1.0;
            return;
        }
        double d = fabs(*lo) > 1e-12 ? fabs(*lo) * 0.1 : 1.0;
        *lo -= d;
        *hi += d;
    }
}

/* The y coordinate a value is drawn at: v itself, or on a symmetric log
 * scale with linear threshold c: sign(v) log10(1 + |v| / c). */
static double sym_t(double c, double v)
{
    return c > 0 ? copysign(log10(1.0 + fabs(v) / c), v) : v;
}

/* The i-th tick of a symmetric log axis over [lo, hi]: 0, then +-10^k from
 * the first power of ten at or above c; false past the last. */
static bool sym_tick(double c, double lo, double hi, int i, double *v)
{
    if (i == 0) {
        *v = 0;
        return lo <= 0 && hi >= 0;
    }
    double d = pow(10.0, ceil(log10(c) - 1e-9) + (double)((i - 1) / 2));
    *v = (i % 2) ? d : -d;
    return d <= fmax(fabs(lo), fabs(hi)) * 1.0001;
}

static void fmt_tick(char *buf, size_t n, double v, double step)
{
    if (fabs(v) < step * 1e-6)
        v = 0;
    int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
    if (dec > 6)
        dec = 6;
    snprintf(buf, n, "%.*f", dec, v);
}

/* Legend entries laid out in rows under the plot: the number of rows for
 * width w, and (when draw) the entries themselves from y. */
static int legend_rows(Gfx *g, const PlotPanel *p, float x, float y, float w, bool draw, float thick, SDL_Color fg)
{
    int lh = gfx_line_h(g, GFX_SMALL);
    if (lh <= 0 || p->nseries <= 0)
        return 0;
    float cx = x, sw = (float)lh * 1.4f, gap = (float)lh * 0.9f;
    int rows = 1;
    for (int s = 0; s < p->nseries; s++) {
        const char *label = p->series[s].label ? p->series[s].label : "";
        int tw, th;
        gfx_text_size(g, GFX_SMALL, label, &tw, &th);
        float iw = sw + (float)lh * 0.3f + (float)tw;
        if (cx > x && cx + iw > x + w) {
            rows++;
            cx = x;
        }
        if (draw) {
            float ry = y + (float)(lh * (rows - 1));
            float phase = 0, sy = ry + (float)lh / 2;
            curve_segment(g->r, false, plot_series_dashed(s), cx, sy, cx + sw, sy, thick, plot_rgb(plot_series_colour(s)),
                          &phase);
            gfx_text(g, GFX_SMALL, (int)(cx + sw + (float)lh * 0.3f), (int)ry, GFX_LEFT, fg, "%s", label);
        }
        cx += iw + gap;
    }
    return rows;
}

/* A panel's axes: data ranges, tick steps, the plot area in pixels. */
typedef struct PlotAxes {
    double x0, x1, y0, y1; /* data ranges */
    double xs, ys;         /* tick steps */
    double sl;             /* symmetric log threshold; 0 = linear */
    double Y0, Y1;         /* the y range on the drawn scale (sym_t) */
    float left, right, top, bottom, pw, ph; /* the plot area */
    float pad, flh, thick; /* padding, a small line's height, curve width (px) */
    int lrows;             /* legend rows under the axis */
} PlotAxes;

static float ax_px(const PlotAxes *A, double v)
{
    return A->left + (float)((v - A->x0) / (A->x1 - A->x0)) * A->pw;
}

static float ax_py(const PlotAxes *A, double v)
{
    return A->bottom - (float)((sym_t(A->sl, v) - A->Y0) / (A->Y1 - A->Y0)) * A->ph;
}

/* The data ranges on round ticks; returns the widest y tick label (px). */
static int axes_ranges(Gfx *g, SDL_FRect a, const PlotPanel *p, PlotAxes *A)
{
    if (p->fixed_x) {
        A->x0 = p->xmin;
        A->x1 = p->xmax;
    } else {
        data_range(p, true, &A->x0, &A->x1);
    }
    if (p->fixed_y) {
        A->y0 = p->ymin;
        A->y1 = p->ymax;
    } else {
        data_range(p, false, &A->y0, &A->y1);
    }
    if (!(A->x1 > A->x0))
        A->x1 = A->x0 + 1;
    if (!(A->y1 > A->y0))
        A->y1 = A->y0 + 1;
    A->xs = plot_nice_step(A->x1 - A->x0, a.w > 500 ? 8 : 5);
    A->ys = plot_nice_step(A->y1 - A->y0, a.h > 300 ? 6 : 4);
    /* data ranges end on round ticks */
    if (!p->fixed_x) {
        A->x0 = floor(A->x0 / A->xs + 1e-9) * A->xs;
        A->x1 = ceil(A->x1 / A->xs - 1e-9) * A->xs;
    }
    A->sl = p->symlog > 0 ? p->symlog : 0;
    if (!p->fixed_y && A->sl == 0) {
        A->y0 = floor(A->y0 / A->ys + 1e-9) * A->ys;
        A->y1 = ceil(A->y1 / A->ys - 1e-9) * A->ys;
    }
    /* tick label widths decide the left margin */
    char buf[64];
    int ylw = 0, w, h;
    for (double v = ceil(A->y0 / A->ys - 1e-9) * A->ys; A->sl == 0 && v <= A->y1 + A->ys * 1e-9; v += A->ys) {
        fmt_tick(buf, sizeof buf, v, A->ys);
        gfx_text_size(g, GFX_SMALL, buf, &w, &h);
        ylw = w > ylw ? w : ylw;
    }
    double tv;
    for (int i = 0; A->sl > 0 && i < 40; i++) {
        if (!sym_tick(A->sl, A->y0, A->y1, i, &tv)) {
            if (i > 0 && i % 2 == 0)
                break;
            continue;
        }
        snprintf(buf, sizeof buf, "%g", tv);
        gfx_text_size(g, GFX_SMALL, buf, &w, &h);
        ylw = w > ylw ? w : ylw;
    }
    /* a symmetric log axis spans its data, with a twentieth to spare */
    A->Y0 = sym_t(A->sl, A->y0);
    A->Y1 = sym_t(A->sl, A->y1);
    if (A->sl > 0 && !p->fixed_y) {
        double m = (A->Y1 - A->Y0) * 0.05;
        A->Y0 -= m;
        A->Y1 += m;
    }
    return ylw;
}

/* The plot area inside panel a (title, y label, tick labels, x label and
 * legend around it); false when too small to draw. */
static bool axes_area(Gfx *g, SDL_FRect a, const PlotPanel *p, int ylw, SDL_Color fg, PlotAxes *A)
{
    int fs = g->base_px ? g->base_px : 12;
    A->flh = (float)gfx_line_h(g, GFX_SMALL);
    A->pad = (float)fs * 0.4f;
    A->thick = fs >= 20 ? 3.0f : 2.0f;
    float pad = A->pad, flh = A->flh;
    A->left = a.x + pad + (float)ylw + pad;
    A->right = a.x + a.w - pad - flh * 0.6f; /* room for the last x tick label */
    /* the y label has a line of its own, the top tick label half a line below it */
    A->top = a.y + pad / 2 + (p->title ? flh * 1.1f : 0) + (p->ylabel ? flh * 1.6f : flh * 0.5f);
    A->lrows = legend_rows(g, p, A->left, 0, A->right - A->left, false, A->thick, fg);
    A->bottom = a.y + a.h - flh * (1.1f + (p->xlabel ? 1.0f : 0.0f) + (float)A->lrows) - pad / 2;
    if (A->lrows > 0 && A->bottom - A->top < flh * 4) { /* a short panel keeps its curves, not the legend */
        A->bottom += flh * (float)A->lrows;
        A->lrows = 0;
    }
    if (A->right - A->left < 20 || A->bottom - A->top < 20)
        return false;
    A->pw = A->right - A->left;
    A->ph = A->bottom - A->top;
    /* a short panel gets fewer y ticks: labels at least 1.4 lines apart */
    double ys_fit = plot_tick_step(A->y1 - A->y0, A->ph, flh * 1.4);
    if (ys_fit > A->ys && A->sl == 0) {
        A->ys = ys_fit;
        if (!p->fixed_y) {
            A->y0 = floor(A->y0 / A->ys + 1e-9) * A->ys;
            A->y1 = ceil(A->y1 / A->ys - 1e-9) * A->ys;
            /* the axis spans the widened range: a top tick drawn above the
             * panel went through the title */
            A->Y0 = A->y0;
            A->Y1 = A->y1;
        }
    }
    return true;
}

/* Symmetric log y ticks: decades, each label at least 1.4 lines from the
 * last one drawn on its side of zero. */
static void symlog_ticks(Gfx *g, const PlotAxes *A, SDL_Color fg, SDL_Color grid)
{
    float last_y[2] = {-1e9f, -1e9f};
    char buf[64];
    double tv;
    for (int i = 0; i < 40; i++) {
        if (!sym_tick(A->sl, A->y0, A->y1, i, &tv)) {
            if (i > 0 && i % 2 == 0)
                break;
            continue;
        }
        float y = ax_py(A, tv);
        int side = tv < 0;
        if (y < A->top - 1 || y > A->bottom + 1 || fabsf(y - last_y[side]) < A->flh * 1.4f ||
            (i > 0 && fabsf(y - ax_py(A, 0.0)) < A->flh * 1.4f && A->y0 <= 0 && A->y1 >= 0))
            continue;
        last_y[side] = y;
        gfx_fill(g->r, A->left, y, A->pw, 1, grid);
        snprintf(buf, sizeof buf, "%g", tv);
        gfx_text(g, GFX_SMALL, (int)(A->left - A->pad), (int)(y - A->flh / 2), GFX_RIGHT, fg, "%s", buf);
    }
}

/* Title, y label, grid, ticks and their labels, axes, x label, legend. */
static void draw_axes(Gfx *g, SDL_FRect a, const PlotPanel *p, const PlotAxes *A, const PlotTheme *th)
{
    SDL_Renderer *r = g->r;
    SDL_Color fg = plot_rgb(th->fg), grid = plot_rgb(th->grid), axis = plot_rgb(th->axis);
    float pad = A->pad, flh = A->flh, ty = a.y + pad / 2;
    char buf[64];
    if (p->title) {
        gfx_text(g, GFX_SMALL, (int)(A->left + A->pw / 2), (int)ty, GFX_CENTER, fg, "%s", p->title);
        ty += flh * 1.1f;
    }
    if (p->ylabel) /* horizontal, above the y axis: no rotated text needed */
        gfx_text(g, GFX_SMALL, (int)(a.x + pad), (int)ty, GFX_LEFT, fg, "%s", p->ylabel);
    for (double v = ceil(A->y0 / A->ys - 1e-9) * A->ys; A->sl == 0 && v <= A->y1 + A->ys * 1e-9; v += A->ys) {
        float y = ax_py(A, v);
        gfx_fill(r, A->left, y, A->pw, 1, grid);
        fmt_tick(buf, sizeof buf, v, A->ys);
        gfx_text(g, GFX_SMALL, (int)(A->left - pad), (int)(y - flh / 2), GFX_RIGHT, fg, "%s", buf);
    }
    if (A->sl > 0)
        symlog_ticks(g, A, fg, grid);
    for (double v = ceil(A->x0 / A->xs - 1e-9) * A->xs; v <= A->x1 + A->xs * 1e-9; v += A->xs) {
        float x = ax_px(A, v);
        gfx_fill(r, x, A->top, 1, A->ph, grid);
        gfx_fill(r, x, A->bottom, 1, pad, axis);
        fmt_tick(buf, sizeof buf, v, A->xs);
        gfx_text(g, GFX_SMALL, (int)x, (int)A->bottom + 1, GFX_CENTER, fg, "%s", buf);
    }
    if (p->zero_line && A->y0 < 0 && A->y1 > 0)
        gfx_fill(r, A->left, ax_py(A, 0.0), A->pw, 1, axis);
    gfx_fill(r, A->left, A->top, 1, A->ph, axis);
    gfx_fill(r, A->left, A->bottom, A->pw, 1, axis);
    float by = A->bottom + flh * 1.05f;
    if (p->xlabel) {
        gfx_text(g, GFX_SMALL, (int)(A->left + A->pw / 2), (int)by, GFX_CENTER, fg, "%s", p->xlabel);
        by += flh;
    }
    if (A->lrows > 0)
        legend_rows(g, p, A->left, by, A->pw, true, A->thick, fg);
}

/* The window's curves: polyline runs of up to 256 points drawn w times one
 * pixel apart (cheap; no dashes, no spread). */
static void fast_curve(SDL_Renderer *r, const PlotAxes *A, const PlotSeries *se, float w, SDL_Color c)
{
    SDL_FPoint run[256];
    int m = 0;
    SDL_SetRenderDrawColor(r, c.r, c.g, c.b, 255);
    for (int i = 0; i <= se->n; i++) {
        bool ok = i < se->n && isfinite(se->x[i]) && isfinite(se->y[i]);
        if (ok) {
            run[m].x = ax_px(A, se->x[i]);
            run[m].y = ax_py(A, se->y[i]);
            m++;
        }
        if (!ok || m == 256) {
            for (int o = 0; o < (int)w && m > 1; o++) {
                for (int q = 0; q < m; q++)
                    run[q].y += o == 0 ? 0.0f : 1.0f;
                SDL_RenderDrawLinesF(r, run, m);
            }
            if (m == 256) { /* continue the curve from the last point */
                run[0].x = run[m - 1].x;
                run[0].y = ax_py(A, se->y[i]);
                m = 1;
            } else {
                m = 0;
            }
        }
    }
}

/* The spread of a series: error bars with caps at marked points, else a
 * translucent band. */
static void spread(SDL_Renderer *r, const PlotAxes *A, const PlotSeries *se, float w, SDL_Color c)
{
    SDL_Color band = c;
    band.a = 64;
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    for (int i = 0; i < se->n; i++) {
        bool ok = isfinite(se->x[i]) && isfinite(se->lo[i]) && isfinite(se->hi[i]);
        if (ok && se->markers) {
            float qx = ax_px(A, se->x[i]), y0p = ax_py(A, se->lo[i]), y1p = ax_py(A, se->hi[i]);
            gfx_fill(r, qx - w / 2, y1p, w, y0p - y1p + 1, c);
            gfx_fill(r, qx - w * 2.5f, y1p - w / 2, w * 5, w, c);
            gfx_fill(r, qx - w * 2.5f, y0p - w / 2, w * 5, w, c);
        } else if (ok && !se->markers && i + 1 < se->n && isfinite(se->x[i + 1]) && isfinite(se->lo[i + 1]) &&
                   isfinite(se->hi[i + 1])) {
            float ax = ax_px(A, se->x[i]), bx = ax_px(A, se->x[i + 1]);
            SDL_Vertex v[4] = {
                {{ax, ax_py(A, se->hi[i])}, band, {0, 0}}, {{bx, ax_py(A, se->hi[i + 1])}, band, {0, 0}},
                {{bx, ax_py(A, se->lo[i + 1])}, band, {0, 0}}, {{ax, ax_py(A, se->lo[i])}, band, {0, 0}},
            };
            static const int quad[6] = {0, 1, 2, 0, 2, 3};
            SDL_RenderGeometry(r, NULL, v, 4, quad, 6);
        }
    }
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
}

/* One series: its spread, its curve (dashed past the sixth), its markers. */
static void draw_series(SDL_Renderer *r, const PlotPanel *p, const PlotAxes *A, const PlotTheme *th, int s)
{
    const PlotSeries *se = &p->series[s];
    SDL_Color c = plot_rgb(plot_series_colour(s));
    float w = (p->highlight == s + 1) ? A->thick * 2 : A->thick;
    bool dashed = plot_series_dashed(s);
    if (th->fast_lines && !dashed) {
        fast_curve(r, A, se, w, c);
        return;
    }
    if (se->lo && se->hi && !th->fast_lines)
        spread(r, A, se, w, c);
    bool have = false;
    float px = 0, py = 0, phase = 0;
    for (int i = 0; i < se->n; i++) {
        if (!isfinite(se->x[i]) || !isfinite(se->y[i])) {
            have = false;
            continue;
        }
        float qx = ax_px(A, se->x[i]), qy = ax_py(A, se->y[i]);
        if (have)
            curve_segment(r, th->fast_lines, dashed, px, py, qx, qy, w, c, &phase);
        if (se->markers && !th->fast_lines)
            gfx_disc(r, qx, qy, w * 1.3f, c);
        px = qx;
        py = qy;
        have = true;
    }
}

void plot_draw_panel(Gfx *g, SDL_FRect a, const PlotPanel *p, const PlotTheme *th)
{
    SDL_Renderer *r = g->r;
    SDL_Rect panel = {(int)a.x, (int)a.y, (int)a.w, (int)a.h};
    SDL_RenderSetClipRect(r, &panel);
    PlotAxes A;
    memset(&A, 0, sizeof A);
    int ylw = axes_ranges(g, a, p, &A);
    if (axes_area(g, a, p, ylw, plot_rgb(th->fg), &A)) {
        draw_axes(g, a, p, &A, th);
        /* curves, clipped to the plot area */
        SDL_Rect clip = {(int)A.left, (int)A.top, (int)A.pw + 1, (int)A.ph + 1};
        SDL_RenderSetClipRect(r, &clip);
        for (int s = 0; s < p->nseries; s++)
            draw_series(r, p, &A, th, s);
    }
    SDL_RenderSetClipRect(r, NULL);
}
