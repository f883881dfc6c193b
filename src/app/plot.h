/* Line charts for the batch commands (sweep, fairness, accuracy, epp,
 * study) as PNG, SVG or PDF through cairo, laid out by the same code as the
 * window's strip charts (plot_layout.h). Needs no display.
 *
 * A figure is a grid of panels; a panel has a title, axis labels (put the
 * unit in the label: "delay 1->2 (ms)"), and one curve per series. Series
 * take plain arrays; a NaN y leaves a gap (e.g. skipped sweep points).
 * Series with the same index in different panels get the same colour, and
 * the legend of each panel lists its series.
 *
 * Contracts:
 *   plot_path_ok(path, err)   true when path ends in .png, .svg or .pdf (any
 *        case, a name before it): the format follows the extension, never
 *        PNG bytes under a .jpg name; false + err "PATH: unknown plot
 *        format: ..." otherwise. Check before computing.
 *   plot_write(fig, path, err)  renders fig->width x fig->height pixels
 *        (0 = 1200 x 800) as PNG; SVG and PDF get a page PLOT_PAGE_PT
 *        points wide (a paper's full text width, 7 in) or PLOT_PANEL_PT a
 *        column of panels if wider, as tall as the figure's aspect gives
 *        (at least 3/4 PLOT_PANEL_PT a row of panels), laid out at that size, so the text prints at 8 to 15 pt
 *        where the pixel sizes shrunk to a page would print at 4; in the
 *        format of path's extension, written through the atomic .part writer (nr_part.h);
 *        the arrays are only read. Axis ranges come from the data (with a
 *        margin and round ticks) unless the panel's fixed_x / fixed_y is
 *        set. The y label runs up along the axis. Text is DejaVu Sans
 *        through fontconfig (vector glyphs in SVG and PDF). Returns 0, or
 *        1 + err (bad extension or size, no panels, unwritable file).
 *   plot_tick_step(range, pixels, min_gap_px)  a round step (1, 2, 5 x 10^k,
 *        or twice one) with at most pixels / min_gap_px steps over range, so
 *        tick labels on a short axis never overlap.
 *   plot_series_dashed(i)     series 7 and on (i >= 6) are drawn dashed, in the
 *        curves and the legend: twelve hues alone do not read apart.
 *   plot_series_colour(i, rgb)  the colour of series i (also used by the
 *        window for scheme i), as 0xRRGGBB.
 *
 * Example (two panels, one curve per scheme):
 *   PlotSeries s[2] = {{"nc", x, y0, n, false}, {"dr", x, y1, n, false}};
 *   PlotPanel p[2] = {{.title = "Inconsistency", .xlabel = "delay 1->2 (ms)",
 *                      .ylabel = "rate (%)", .series = s, .nseries = 2}, ...};
 *   PlotFigure f = {.title = "jitter 10 ms", .panels = p, .npanels = 2, .cols = 2};
 *   if (plot_write(&f, "sweep.svg", &err)) ...
 */
#ifndef NR_PLOT_H
#define NR_PLOT_H

#define PLOT_PAGE_PT 504 /* SVG and PDF page width: 7 in at 72 pt an inch */
#define PLOT_PANEL_PT 252 /* and at least this per column of panels (3.5 in),
                          * 3/4 of it per row (and a title's 30 pt) */

#include "nr_common.h"

#define PLOT_MAX_SERIES 24
#define PLOT_MAX_PANELS 16

typedef struct PlotSeries {
    const char *label; /* legend text */
    const double *x;   /* n values, any order is drawn as given */
    const double *y;   /* n values; NaN = gap */
    int n;
    bool markers;      /* draw a dot at each point */
    /* optional (NULL = none): the spread across seeds at each point, e.g.
     * the 95 % interval of the mean (stats_mean_ci95): error bars with
     * markers, a translucent band without */
    const double *lo, *hi;
} PlotSeries;

typedef struct PlotPanel {
    const char *title;
    const char *xlabel; /* with the unit, e.g. "delay 1->2 (ms)" */
    const char *ylabel;
    const PlotSeries *series;
    int nseries;
    bool fixed_x, fixed_y; /* use the ranges below instead of the data's */
    double xmin, xmax, ymin, ymax;
    bool zero_line;        /* draw y = 0 */
    int highlight;         /* 1 + index of a series drawn thicker; 0 = none */
    double symlog;         /* > 0: y on a symmetric log scale, linear within
                            * +-symlog, ticks at 0 and +-powers of ten (one
                            * outlier does not flatten every other curve) */
    const char *title_short; /* the window's charts: the title when the full
                              * one does not fit (NULL: drop it) */
    const double *marks;   /* x of vertical lines (the window's marks, issue 22);
                            * drawn by the window's charts only; NULL = none */
    int nmarks;
} PlotPanel;

typedef struct PlotFigure {
    const char *title;     /* above all panels; NULL = none */
    const PlotPanel *panels;
    int npanels;
    int cols;              /* panels per row; 0 = all in one row */
    int width, height;     /* pixels (points in SVG, PDF); 0 = 1200 x 800 */
} PlotFigure;

typedef struct PlotTheme {
    uint32_t bg, fg, grid, axis; /* 0xRRGGBB */
} PlotTheme;

bool plot_path_ok(const char *path, NrError *err);
int plot_write(const PlotFigure *fig, const char *path, NrError *err);
uint32_t plot_series_colour(int i);
bool plot_series_dashed(int i);
double plot_tick_step(double range, double pixels, double min_gap_px);

#endif
