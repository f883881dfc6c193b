/* The delay sweep's plot: curves per scheme over the delays, panels per
 * jitter and metric, configurations side by side. */
#include "sweep_plot.h"

#include "plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What the plot draws: per metric m (0: inconsistency %, 1: d1 - d2), jitter
 * jt and scheme k a curve of means over the delays with its 95 % interval,
 * and the ranges the panels share. */
typedef struct PlotData {
    int nd, nj, ns;       /* delays, jitters, schemes */
    double *x;            /* the delays (ms), nd */
    double *y;            /* per curve: mean, lo, hi, nd each */
    PlotSeries *series;   /* [(m * nj + jt) * ns + k] */
    double ylo[2], yhi[2]; /* per metric, over every curve and interval */
    double maxabs[SCHEME_MAX]; /* per scheme, the largest |mean d1 - d2| */
} PlotData;

/* Curve (m, jt, k): the mean over seeds at each delay of the spec that is
 * a point of the sweep (NAN elsewhere: a gap), the interval's ends. */
static void fill_curve(PlotData *d, const SweepJob *j, const SweepPoint *pts, const SweepSpec *spec, int m, int jt,
                       int k)
{
    int nd = d->nd;
    size_t at = (((size_t)m * (size_t)d->nj + (size_t)jt) * (size_t)d->ns + (size_t)k) * (size_t)nd * 3;
    double *yy = &d->y[at], *lo = yy + nd, *hi = lo + nd;
    for (int di = 0; di < nd; di++) {
        yy[di] = lo[di] = hi[di] = NAN;
        for (int p = 0; p < j->npts; p++)
            if (pts[p].delay_ms == spec->delays_ms[di] && pts[p].jitter_ms == spec->jitters_ms[jt]) {
                double half;
                yy[di] = sweep_seed_mean(j, p, k, m == 1, &half);
                lo[di] = yy[di] - half;
                hi[di] = yy[di] + half;
                double a = isfinite(half) ? lo[di] : yy[di], b = isfinite(half) ? hi[di] : yy[di];
                d->ylo[m] = fmin(d->ylo[m], a);
                d->yhi[m] = fmax(d->yhi[m], b);
                if (m == 1)
                    d->maxabs[k] = fmax(d->maxabs[k], fabs(yy[di]));
            }
    }
    d->series[((size_t)m * (size_t)d->nj + (size_t)jt) * (size_t)d->ns + (size_t)k] =
        (PlotSeries){j->o->schemes[k]->name, d->x, yy, nd, true, j->runs > 1 ? lo : NULL, j->runs > 1 ? hi : NULL};
}

/* A curve that runs away: the largest scheme's |d1 - d2| more than ten
 * times every other's. */
static bool runs_away(const PlotData *d)
{
    int big = 0;
    for (int k = 1; k < d->ns; k++)
        if (d->maxabs[k] > d->maxabs[big])
            big = k;
    double rest = 0;
    for (int k = 0; k < d->ns; k++)
        if (k != big)
            rest = fmax(rest, d->maxabs[k]);
    return d->ns > 1 && rest > 0 && d->maxabs[big] > 10 * rest;
}

/* Panel of metric m at jitter jt; axes shared by every panel of a metric
 * (xlo..xhi: the sweep's delays), symmetric-log for d1 - d2 that runs away. */
static void layout_panel(PlotPanel *pn, char *title, size_t ntitle, const PlotData *d, const SweepSpec *spec,
                         int m, int jt, bool runaway, double xlo, double xhi, bool wide)
{
    snprintf(title, ntitle, wide ? "%s, jitter out of 1 %lld ms%s" : "%s, jitter 1->2 %lld ms%s",
             m == 0 ? "inconsistency rate" : wide ? "fairness spread" : "mean d1 - d2",
             (long long)spec->jitters_ms[jt], m == 1 && runaway ? " (log scale)" : "");
    pn->title = title;
    pn->xlabel = wide ? "mean delay of every line out of terminal 1 (ms)" : "mean delay 1->2 (ms)";
    pn->ylabel = m == 0 ? "inconsistency (%), 95% interval"
                 : wide ? "spread of d_i (car widths), 95% interval" : "d1 - d2 (car widths), 95% interval";
    pn->series = &d->series[((size_t)m * (size_t)d->nj + (size_t)jt) * (size_t)d->ns];
    pn->nseries = d->ns;
    pn->zero_line = m == 1;
    /* shared axes: every panel of a metric spans all jitters' data, with
     * 3 % of room at each end: the first and last points' error bars are
     * not cut in half by the axes */
    double xpad = 0.03 * (xhi > xlo ? xhi - xlo : 1);
    pn->fixed_x = true;
    pn->xmin = xlo - xpad;
    pn->xmax = (xhi > xlo ? xhi : xlo + 1) + xpad;
    pn->fixed_y = true;
    double span = d->yhi[m] - d->ylo[m] > 0 ? d->yhi[m] - d->ylo[m] : 1;
    pn->ymin = m == 0 ? 0 : d->ylo[m] - 0.05 * span;
    pn->ymax = d->yhi[m] + 0.05 * span;
    if (m == 1 && runaway) { /* half a decade to spare on a log axis */
        pn->symlog = 0.1;
        pn->ymin = d->ylo[m] < 0 ? d->ylo[m] * 1.5 : d->ylo[m];
        pn->ymax = d->yhi[m] * 1.5;
    }
}

/* Every configuration's curves; the compared panels share their axes.
 * True when a curve runs away. */
static bool fill_all(PlotData *d, const SweepJob *jobs, int nt, const SweepPoint *pts, const SweepSpec *spec)
{
    bool runaway = false;
    for (int t = 0; t < nt; t++) {
        for (int di = 0; di < d[t].nd; di++)
            d[t].x[di] = (double)spec->delays_ms[di];
        for (int jt = 0; jt < d[t].nj; jt++)
            for (int m = 0; m < 2; m++)
                for (int k = 0; k < d[t].ns; k++)
                    fill_curve(&d[t], &jobs[t], pts, spec, m, jt, k);
        runaway |= runs_away(&d[t]);
    }
    for (int t = 1; t < nt; t++)
        for (int m = 0; m < 2; m++) {
            d[0].ylo[m] = fmin(d[0].ylo[m], d[t].ylo[m]);
            d[0].yhi[m] = fmax(d[0].yhi[m], d[t].yhi[m]);
        }
    for (int t = 1; t < nt; t++) {
        memcpy(d[t].ylo, d[0].ylo, sizeof d[t].ylo);
        memcpy(d[t].yhi, d[0].yhi, sizeof d[t].yhi);
    }
    return runaway;
}

/* The Figs. 6-7 layout: per jitter, the inconsistency rate and mean d1 - d2
 * against the mean delay 1 -> 2, one curve per scheme, with error bars of
 * the 95 % interval across seeds (--runs >= 2). Panels of the same metric
 * share their axes, so jitters compare at a glance. A curve that runs away
 * (e.g. Causality once every MU is late and the car stays on the grid)
 * would flatten all others: the d1 - d2 axes are then symmetric
 * logarithmic, and the panels say so; the CSV keeps the exact values. */
int sweep_plot_write(const SweepJob *jobs, int nt, const SweepPoint *pts, const SweepSpec *spec, const char *path)
{
    const SweepJob *j = &jobs[0];
    const RaceOpts *o = j->o;
    PlotData d[3] = {{0}};
    size_t cells = (size_t)spec->njitters * (size_t)j->nschemes * (size_t)spec->ndelays;
    size_t npanels = (size_t)spec->njitters * 2 * (size_t)nt;
    PlotPanel *panels = calloc(npanels, sizeof *panels);
    char(*titles)[128] = calloc(npanels, sizeof *titles);
    int rc = panels && titles ? CLI_OK : CLI_FAIL;
    for (int t = 0; t < nt; t++) {
        d[t] = (PlotData){.nd = spec->ndelays, .ns = j->nschemes, .nj = spec->njitters};
        d[t].x = malloc(sizeof(double) * (size_t)d[t].nd);
        d[t].y = malloc(sizeof(double) * cells * 2 * 3); /* mean, lo, hi */
        d[t].series = calloc(cells ? (size_t)d[t].nj * (size_t)d[t].ns * 2 : 1, sizeof *d[t].series);
        rc = d[t].x && d[t].y && d[t].series ? rc : CLI_FAIL;
    }
    if (rc != CLI_OK) {
        rc = cli_fail("sweep", "out of memory");
        goto done;
    }
    bool runaway = fill_all(d, jobs, nt, pts, spec);
    double xlo = INFINITY, xhi = -INFINITY;
    for (int p = 0; p < j->npts; p++) {
        xlo = fmin(xlo, (double)pts[p].delay_ms);
        xhi = fmax(xhi, (double)pts[p].delay_ms);
    }
    for (int t = 0; t < nt; t++) {
        for (int jt = 0; jt < d[t].nj; jt++)
            for (int m = 0; m < 2; m++) {
                size_t at = ((size_t)jt * 2 + (size_t)m) * (size_t)nt + (size_t)t;
                layout_panel(&panels[at], titles[at], sizeof titles[0], &d[t], spec, m, jt, runaway, xlo, xhi,
                             race_topo_wide(o));
                if (nt > 1) { /* side by side: each panel names its topology */
                    char tmp[128];
                    snprintf(tmp, sizeof tmp, "%s: %s", race_topo_name(jobs[t].o), titles[at]);
                    memcpy(titles[at], tmp, sizeof tmp);
                }
            }
    }
    char ftitle[LINK_TEXT_MAX + 160], name[LINK_TEXT_MAX + 160];
    if (race_topo_wide(o))
        snprintf(name, sizeof name, "%s | %d players, %s | other lines %s | delta %.0f ms | %d seed%s", o->recording,
                 o->ncars, nt > 1 ? "topologies side by side" : race_topo_name(o), o->link_default.text,
                 (double)o->params.delta_us / 1000.0, j->runs, j->runs == 1 ? "" : "s");
    else
        snprintf(name, sizeof name, "%s | link 2->1 %s | delta %.0f ms | T_dr %.3g cw | %d seed%s", o->recording,
                 o->link[1].text, (double)o->params.delta_us / 1000.0, o->params.tdr_cw, j->runs, j->runs == 1 ? "" : "s");
    cli_strip_dirs(name, ftitle, sizeof ftitle); /* the race and trace files, not their local paths */
    /* one topology: a row per jitter (inconsistency, fairness); several: a
     * row per (jitter, metric), a column per topology */
    PlotFigure fig = {.title = ftitle, .panels = panels, .npanels = (int)npanels, .cols = nt > 1 ? nt : 2,
                      .width = nt > 1 ? 600 * nt : 1400,
                      .height = nt > 1 ? 450 * 2 * spec->njitters + 60 : 500 * spec->njitters + 60};
    NrError err = {{0}};
    if (plot_write(&fig, path, &err) != 0)
        rc = cli_fail("sweep", "%s", err.msg);
    else
        cli_wrote(path);
done:
    for (int t = 0; t < nt; t++) {
        free(d[t].x);
        free(d[t].y);
        free(d[t].series);
    }
    free(panels);
    free(titles);
    return rc;
}
