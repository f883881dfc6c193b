/* A chart panel's layout (plot_layout.h): ranges, ticks, symlog, the plot
 * area and the legend rows, for both the SDL and the cairo drawing. */
#include "plot_layout.h"

#include <math.h>
#include <stdio.h>

/* Round tick step for a range: 1, 2 or 5 times a power of ten. */
double plot_nice_step(double range, int nticks)
{
    if (!(range > 0))
        return 1.0;
    double raw = range / nticks;
    double p = pow(10.0, floor(log10(raw)));
    double f = raw / p;
    double m = f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10;
    return m * p;
}

double plot_tick_step(double range, double pixels, double min_gap_px)
{
    int most = min_gap_px > 0 ? (int)(pixels / min_gap_px) : 1;
    if (most < 1)
        most = 1;
    double step = plot_nice_step(range, most);
    while (range / step > most + 1e-9) /* nice_step may round the step down */
        step *= 2;
    return step;
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

void plot_fmt_tick(char *buf, size_t n, double v, double step)
{
    if (fabs(v) < step * 1e-6)
        v = 0;
    int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
    if (dec > 6)
        dec = 6;
    snprintf(buf, n, "%.*f", dec, v);
}

void plot_fmt_symlog(char *buf, size_t n, double v)
{
    snprintf(buf, n, "%g", v);
}

float plot_ax_px(const PlotAxes *A, double v)
{
    return A->left + (float)((v - A->x0) / (A->x1 - A->x0)) * A->pw;
}

float plot_ax_py(const PlotAxes *A, double v)
{
    return A->bottom - (float)((sym_t(A->sl, v) - A->Y0) / (A->Y1 - A->Y0)) * A->ph;
}

bool plot_lin_tick(const PlotAxes *A, bool axis_y, int i, double *v)
{
    double lo = axis_y ? A->y0 : A->x0, hi = axis_y ? A->y1 : A->x1, st = axis_y ? A->ys : A->xs;
    if (i < 0 || i > 1000 || (axis_y && A->sl > 0))
        return false;
    *v = (ceil(lo / st - 1e-9) + i) * st;
    return *v <= hi + st * 1e-9;
}

int plot_legend_place(const PlotMeasure *m, const PlotPanel *p, float x, float w, float *ex, int *erow)
{
    float lh = m->flh;
    if (lh <= 0 || p->nseries <= 0)
        return 0;
    float cx = x, sw = lh * 1.4f, gap = lh * 0.9f;
    int rows = 1;
    for (int s = 0; s < p->nseries; s++) {
        const char *label = p->series[s].label ? p->series[s].label : "";
        float iw = sw + lh * 0.3f + (float)m->text_w(m->ctx, label);
        if (cx > x && cx + iw > x + w) {
            rows++;
            cx = x;
        }
        if (ex)
            ex[s] = cx;
        if (erow)
            erow[s] = rows - 1;
        cx += iw + gap;
    }
    return rows;
}

/* The widest y tick label of the ranges in A (px). */
static int ytick_width(const PlotMeasure *m, const PlotAxes *A)
{
    char buf[64];
    int ylw = 0;
    double v;
    for (int i = 0; plot_lin_tick(A, true, i, &v); i++) {
        plot_fmt_tick(buf, sizeof buf, v, A->ys);
        int w = m->text_w(m->ctx, buf);
        ylw = w > ylw ? w : ylw;
    }
    for (int i = 0; A->sl > 0 && i < PLOT_MAX_TICKS; i++) {
        if (!sym_tick(A->sl, A->y0, A->y1, i, &v)) {
            if (i > 0 && i % 2 == 0)
                break;
            continue;
        }
        plot_fmt_symlog(buf, sizeof buf, v);
        int w = m->text_w(m->ctx, buf);
        ylw = w > ylw ? w : ylw;
    }
    return ylw;
}

/* The data ranges on round ticks for a panel w x h. */
static void axes_ranges(float w, float h, const PlotPanel *p, PlotAxes *A)
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
    A->xs = plot_nice_step(A->x1 - A->x0, w > 500 ? 8 : 5);
    A->ys = plot_nice_step(A->y1 - A->y0, h > 300 ? 6 : 4);
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
    /* a symmetric log axis spans its data, at least to its first tick on
     * each side the data reach (a spread under 0.1 cw kept the lone tick
     * "0": issue 22's trial), with a twentieth to spare */
    if (A->sl > 0 && !p->fixed_y) {
        A->y1 = A->y1 > 0 && A->y1 < A->sl ? A->sl : A->y1;
        A->y0 = A->y0 < 0 && A->y0 > -A->sl ? -A->sl : A->y0;
    }
    A->Y0 = sym_t(A->sl, A->y0);
    A->Y1 = sym_t(A->sl, A->y1);
    if (A->sl > 0 && !p->fixed_y) {
        double mg = (A->Y1 - A->Y0) * 0.05;
        A->Y0 -= mg;
        A->Y1 += mg;
    }
}

/* The plot area inside the box (title, rotated y label, tick labels, x
 * label and legend around it); false when too small to draw. */
bool plot_axes_layout(const PlotMeasure *m, float x, float y, float w, float h, const PlotPanel *p, PlotAxes *A)
{
    axes_ranges(w, h, p, A);
    int fs = m->base_px > 0 ? m->base_px : 12;
    A->flh = m->flh;
    A->pad = (float)fs * 0.4f;
    A->thick = fs >= 20 ? 3.0f : 2.0f;
    float pad = A->pad, flh = A->flh;
    /* the y label runs up the left edge, a line wide, then the tick labels */
    A->left = x + pad + (p->ylabel ? flh * 1.2f : 0) + (float)ytick_width(m, A) + pad;
    A->right = x + w - pad - flh * 0.6f; /* room for the last x tick label */
    A->top = y + pad / 2 + (p->title ? flh * 1.1f : 0) + flh * 0.6f; /* half the top tick label */
    A->lrows = plot_legend_place(m, p, A->left, A->right - A->left, NULL, NULL);
    A->xlabel = p->xlabel != NULL;
    A->bottom = y + h - flh * (1.1f + (A->xlabel ? 1.0f : 0.0f) + (float)A->lrows) - pad / 2;
    if (A->lrows > 0 && A->bottom - A->top < flh * 4) { /* a short panel keeps its curves, not the legend */
        A->bottom += flh * (float)A->lrows;
        A->lrows = 0;
    }
    if (A->xlabel && A->bottom - A->top < flh * 2.4f) { /* two y tick labels 1.4 lines apart, not the x label */
        A->bottom += flh;
        A->xlabel = false;
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
        /* the widened range's labels may be wider ("100" where "40" was) */
        float left = x + pad + (p->ylabel ? flh * 1.2f : 0) + (float)ytick_width(m, A) + pad;
        if (left > A->left) {
            A->left = left;
            A->pw = A->right - A->left;
            if (A->pw < 20)
                return false;
        }
    }
    return true;
}

static int symlog_ticks_apart(const PlotAxes *A, double *v, int max, float gap)
{
    float last_y[2] = {-1e9f, -1e9f};
    int n = 0;
    double tv;
    for (int i = 0; i < PLOT_MAX_TICKS && n < max; i++) {
        if (!sym_tick(A->sl, A->y0, A->y1, i, &tv)) {
            if (i > 0 && i % 2 == 0)
                break;
            continue;
        }
        float y = plot_ax_py(A, tv);
        int side = tv < 0;
        if (y < A->top - 1 || y > A->bottom + 1 || fabsf(y - last_y[side]) < gap ||
            (i > 0 && fabsf(y - plot_ax_py(A, 0.0)) < gap && A->y0 <= 0 && A->y1 >= 0))
            continue;
        last_y[side] = y;
        v[n++] = tv;
    }
    return n;
}

/* 1.4 lines apart, else (a short panel) as close as labels may stand, so
 * that the scale keeps two ticks (issue 22: a lone "0" read as no scale). */
int plot_symlog_ticks(const PlotAxes *A, double *v, int max)
{
    int n = symlog_ticks_apart(A, v, max, A->flh * 1.4f);
    return n >= 2 ? n : symlog_ticks_apart(A, v, max, A->flh);
}
