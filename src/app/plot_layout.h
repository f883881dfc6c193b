/* A chart panel's layout, shared by the window's strip charts (SDL,
 * plot_draw.c) and the batch figures (cairo, plot_cairo.c): data ranges on
 * round ticks, the symmetric log scale, tick labels, the plot area inside
 * the panel, the legend's rows. Pure maths: no SDL, no cairo; text is
 * measured through the caller's PlotMeasure. All lengths in pixels (or
 * points for PDF/SVG, the same numbers).
 *
 * Contracts:
 *   plot_axes_layout(m, x, y, w, h, p, A)  fills A for panel p drawn in
 *        the box (x, y, w, h): ranges, steps, the plot area, legend rows,
 *        the x label (dropped when the area would hold fewer than two y
 *        ticks 1.4 lines apart); false when the box is too small to draw (A then unusable).
 *   plot_ax_px(A, v) / plot_ax_py(A, v)  data to pixel (y on the symlog
 *        scale when A->sl > 0).
 *   plot_lin_tick(A, axis_y, i, v)  the i-th linear tick (0, 1, ...) of
 *        the x or y axis; false past the last.
 *   plot_symlog_ticks(A, v, max)  the symlog y ticks to label, at least
 *        1.4 lines apart on each side of zero (1 when that leaves fewer
 *        than two); returns how many (<= max).
 *   plot_fmt_tick(buf, n, v, step)  a tick label with as many decimals as
 *        step needs (at most 6); plot_fmt_symlog for a symlog tick ("%g").
 *   plot_legend_place(m, p, x, w, ex, erow)  each series' legend entry: its
 *        x and row (0..) when entries are laid out left to right in rows of
 *        width w from x; returns the number of rows (0 when no series).
 *   plot_nice_step(range, nticks)  1, 2 or 5 x 10^k near range / nticks
 *        (plot_tick_step in plot.h bounds the count).
 *   plot_theme_dark() (the window) / plot_theme_light() (the figures).
 */
#ifndef NR_PLOT_LAYOUT_H
#define NR_PLOT_LAYOUT_H

#include "plot.h"

#include <stddef.h>

/* Text measure of the drawing back end: the width of s in the small font,
 * a small line's height and the base font size (px). */
typedef struct PlotMeasure {
    int (*text_w)(void *ctx, const char *s);
    void *ctx;
    float flh;   /* a small text line's height */
    int base_px; /* the base font size, for paddings and line widths */
} PlotMeasure;

typedef struct PlotAxes {
    double x0, x1, y0, y1; /* data ranges */
    double xs, ys;         /* tick steps */
    double sl;             /* symmetric log threshold; 0 = linear */
    double Y0, Y1;         /* the y range on the drawn scale */
    float left, right, top, bottom, pw, ph; /* the plot area */
    float pad, flh, thick; /* padding, a small line's height, curve width */
    int lrows;             /* legend rows under the axis */
    bool xlabel;           /* the x label drawn (a short panel drops it) */
} PlotAxes;

#define PLOT_MAX_TICKS 40

bool plot_axes_layout(const PlotMeasure *m, float x, float y, float w, float h, const PlotPanel *p, PlotAxes *A);
float plot_ax_px(const PlotAxes *A, double v);
float plot_ax_py(const PlotAxes *A, double v);
bool plot_lin_tick(const PlotAxes *A, bool axis_y, int i, double *v);
int plot_symlog_ticks(const PlotAxes *A, double *v, int max);
void plot_fmt_tick(char *buf, size_t n, double v, double step);
void plot_fmt_symlog(char *buf, size_t n, double v);
int plot_legend_place(const PlotMeasure *m, const PlotPanel *p, float x, float w, float *ex, int *erow);
double plot_nice_step(double range, int nticks);
PlotTheme plot_theme_dark(void);
PlotTheme plot_theme_light(void);

#endif
