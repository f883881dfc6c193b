/* The full-factorial sweep of `sweep --vary`: grid, runs, CSV, summary, plot. */
#include "sweep_vary.h"

#include "plot.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct Grid {
    const VaryAxis *axes;
    int naxes, npts;
    LinkSpec *link12, *link21; /* per point, owned */
    SchemeParams *params;
    int built;                 /* points whose links are owned (to free) */
} Grid;

static void grid_free(Grid *g)
{
    for (int p = 0; p < g->built; p++) {
        linkspec_free(&g->link12[p]);
        linkspec_free(&g->link21[p]);
    }
    free(g->link12);
    free(g->link21);
    free(g->params);
}

/* Every point's links and parameters from the base ones, checked before
 * any work. */
static int grid_build(Grid *g, const RaceOpts *o)
{
    g->link12 = calloc((size_t)g->npts, sizeof *g->link12);
    g->link21 = calloc((size_t)g->npts, sizeof *g->link21);
    g->params = calloc((size_t)g->npts, sizeof *g->params);
    if (!g->link12 || !g->link21 || !g->params)
        return cli_fail("sweep", "out of memory");
    for (int p = 0; p < g->npts; p++) {
        VaryTarget t = {.params = o->params, .burst = 1.0};
        if (!linkspec_copy(&t.link[0], &o->link[0]) || !linkspec_copy(&t.link[1], &o->link[1])) {
            linkspec_free(&t.link[0]);
            return cli_fail("sweep", "out of memory");
        }
        g->link12[p] = t.link[0];
        g->link21[p] = t.link[1];
        g->built++;
        double v[VARY_MAX_AXES];
        vary_point(g->axes, g->naxes, p, v);
        NrError err = {{0}};
        for (int a = 0; a < g->naxes; a++)
            if (!vary_apply(&t, g->axes[a].param, v[a], &err))
                return cli_usage_error("sweep", "%s", err.msg);
        vary_finish(&t);
        g->link12[p] = t.link[0];
        g->link21[p] = t.link[1];
        g->params[p] = t.params;
        if (!scheme_params_check(&t.params, &err))
            return cli_usage_error("sweep", "%s", err.msg);
    }
    return CLI_OK;
}

static void put_values(FILE *f, const Grid *g, int p)
{
    double v[VARY_MAX_AXES];
    vary_point(g->axes, g->naxes, p, v);
    for (int a = 0; a < g->naxes; a++)
        fprintf(f, "%g,", v[a]);
}

static int write_csv(const SweepJob *j, const Grid *g, const SweepCommon *c)
{
    int rc = CLI_OK;
    NrPartFile csv;
    FILE *f = cli_out_open("sweep", &csv, c->out, &rc);
    if (!f)
        return rc;
    if (c->shard.n)
        shard_mark(f, &c->shard);
    for (int a = 0; a < g->naxes; a++)
        fprintf(f, "%s,", g->axes[a].param->name);
    result_csv_header(f);
    for (int64_t item = j->first; item < j->end; item++) {
        int p = (int)(item / j->runs), r = (int)(item % j->runs);
        RunKey key = {
            .delay12_ms = (double)g->link12[p].delay_us / 1000.0,
            .jitter12_ms = (double)g->link12[p].jitter_us / 1000.0,
            .delay21_ms = (double)g->link21[p].delay_us / 1000.0,
            .jitter21_ms = (double)g->link21[p].jitter_us / 1000.0,
            .delta_ms = (double)g->params[p].delta_us / 1000.0,
            .tdr = g->params[p].tdr_cw,
            .seed = j->o->seed + (uint64_t)r,
        };
        for (int k = 0; k < j->nschemes; k++) {
            put_values(f, g, p);
            result_csv_row(f, &key, sweep_job_result(j, p, r, k));
        }
    }
    if (cli_out_close("sweep", &csv, true, &rc))
        cli_wrote(c->out);
    return rc;
}

static void print_summary(const SweepJob *j, const Grid *g)
{
    printf("sweep of");
    for (int a = 0; a < g->naxes; a++)
        printf(" %s (%s)", g->axes[a].param->name, g->axes[a].param->unit);
    printf("; base link12: %s; link21: %s; %d seeds per point\n", j->o->link[0].text, j->o->link[1].text, j->runs);
    printf("mean over seeds of the inconsistency rate (%%) / mean d1-d2 (car widths)\n\n");
    for (int a = 0; a < g->naxes; a++)
        printf("%10s", g->axes[a].param->name);
    for (int k = 0; k < j->nschemes; k++)
        printf(" %21s", j->o->schemes[k]->name);
    printf("\n");
    for (int p = 0; p < g->npts; p++) {
        double v[VARY_MAX_AXES], half;
        vary_point(g->axes, g->naxes, p, v);
        for (int a = 0; a < g->naxes; a++)
            printf("%10g", v[a]);
        for (int k = 0; k < j->nschemes; k++)
            printf(" %10.3f %10.4f", sweep_seed_mean(j, p, k, 0, &half), sweep_seed_mean(j, p, k, 1, &half));
        printf("\n");
    }
}

/* The panels' titles: the metric and the values of every axis but the
 * first, e.g. "inconsistency rate | burst 4 packets". */
static void panel_title(char *buf, size_t n, const Grid *g, int p, int m)
{
    double v[VARY_MAX_AXES];
    vary_point(g->axes, g->naxes, p, v);
    int w = snprintf(buf, n, "%s", m ? "mean d1 - d2" : "inconsistency rate");
    for (int a = 1; a < g->naxes && w >= 0 && (size_t)w < n; a++)
        w += snprintf(buf + w, n - (size_t)w, "%s%s %g %s", a == 1 ? " | " : ", ", g->axes[a].param->name, v[a],
                      g->axes[a].param->unit);
}

typedef struct VaryPlot {
    double *x, *y;         /* x: the first axis; y: per curve mean, lo, hi */
    PlotSeries *series;    /* [(group * 2 + m) * ns + k] */
    PlotPanel *panels;     /* [group * 2 + m] */
    char (*titles)[160];
    char xlabel[64];
} VaryPlot;

/* Curves of group gi (the points p = i + n0 gi), metric m, scheme k. */
static void fill_group(VaryPlot *vp, const SweepJob *j, const Grid *g, int gi, int m)
{
    int n0 = g->axes[0].n, ns = j->nschemes;
    for (int k = 0; k < ns; k++) {
        size_t at = (((size_t)gi * 2 + (size_t)m) * (size_t)ns + (size_t)k) * (size_t)n0 * 3;
        double *y = &vp->y[at], *lo = y + n0, *hi = lo + n0;
        for (int i = 0; i < n0; i++) {
            double half;
            y[i] = sweep_seed_mean(j, i + n0 * gi, k, m, &half);
            lo[i] = y[i] - half;
            hi[i] = y[i] + half;
        }
        vp->series[(gi * 2 + m) * ns + k] =
            (PlotSeries){j->o->schemes[k]->name, vp->x, y, n0, true, j->runs > 1 ? lo : NULL, j->runs > 1 ? hi : NULL};
    }
    PlotPanel *pn = &vp->panels[gi * 2 + m];
    panel_title(vp->titles[gi * 2 + m], sizeof vp->titles[0], g, n0 * gi, m);
    pn->title = vp->titles[gi * 2 + m];
    pn->xlabel = vp->xlabel;
    pn->ylabel = m ? "d1 - d2 (car widths), 95% interval" : "inconsistency (%), 95% interval";
    pn->series = &vp->series[(gi * 2 + m) * ns];
    pn->nseries = ns;
    pn->zero_line = m == 1;
}

/* The first parameter on the x axis; per value combination of the others a
 * row of two panels (inconsistency rate, mean d1 - d2), one curve per
 * scheme with the 95 % interval across seeds. */
static int write_plot(const SweepJob *j, const Grid *g, const char *path)
{
    int n0 = g->axes[0].n, ngroups = g->npts / n0, ns = j->nschemes;
    VaryPlot vp = {0};
    vp.x = malloc(sizeof(double) * (size_t)n0);
    vp.y = malloc(sizeof(double) * (size_t)ngroups * 2 * (size_t)ns * (size_t)n0 * 3);
    vp.series = calloc((size_t)ngroups * 2 * (size_t)ns, sizeof *vp.series);
    vp.panels = calloc((size_t)ngroups * 2, sizeof *vp.panels);
    vp.titles = calloc((size_t)ngroups * 2, sizeof *vp.titles);
    int rc = CLI_OK;
    if (!vp.x || !vp.y || !vp.series || !vp.panels || !vp.titles) {
        rc = cli_fail("sweep", "out of memory");
    } else {
        snprintf(vp.xlabel, sizeof vp.xlabel, "%s (%s)", g->axes[0].param->name, g->axes[0].param->unit);
        for (int i = 0; i < n0; i++)
            vp.x[i] = g->axes[0].v[i];
        for (int gi = 0; gi < ngroups; gi++)
            for (int m = 0; m < 2; m++)
                fill_group(&vp, j, g, gi, m);
        char ftitle[2 * LINK_TEXT_MAX + 4200], name[2 * LINK_TEXT_MAX + 4200];
        snprintf(name, sizeof name, "%s | base link 1->2 %s | 2->1 %s | %d seed%s", j->o->recording,
                 j->o->link[0].text, j->o->link[1].text, j->runs, j->runs == 1 ? "" : "s");
        cli_strip_dirs(name, ftitle, sizeof ftitle); /* the race and trace files, not their local paths */
        PlotFigure fig = {.title = ftitle, .panels = vp.panels, .npanels = ngroups * 2, .cols = 2,
                          .width = 1400, .height = 420 * ngroups + 60};
        NrError err = {{0}};
        if (plot_write(&fig, path, &err) != 0)
            rc = cli_fail("sweep", "%s", err.msg);
        else
            cli_wrote(path);
    }
    free(vp.x);
    free(vp.y);
    free(vp.series);
    free(vp.panels);
    free(vp.titles);
    return rc;
}

int sweep_vary_run(RaceOpts *o, const VaryAxis *axes, int naxes, const SweepCommon *c)
{
    int64_t npts = vary_grid_size(axes, naxes);
    if (npts == 0)
        return cli_usage_error("sweep", "--vary: the grid has more than %d points", VARY_MAX_POINTS);
    if (c->plot && npts / axes[0].n > 32)
        return cli_usage_error("sweep", "--plot: %" PRId64 " panel rows, at most 32 (fewer values of the 2nd.. parameters)",
                               npts / axes[0].n);
    int rc = sweep_load_and_check(o, c);
    if (rc != CLI_OK)
        return rc;
    /* the varied parameters name the two-player links 1-2 / 2-1 and its
     * CSV columns; an N-car or cs race sweeps with --delays */
    if (race_topo_wide(o))
        return cli_usage_error("sweep", "--vary sweeps one two-car p2p race (here %d cars%s): sweep N cars, cs or "
                                        "topology lists with --delays / --jitters", o->ncars,
                               o->compare ? ", a topology comparison" : o->topology == ROUTE_CS ? ", cs" : "");
    Grid g = {.axes = axes, .naxes = naxes, .npts = (int)npts};
    rc = grid_build(&g, o);
    SweepJob j = {.o = o, .link12 = g.link12, .link21 = g.link21, .params = g.params, .npts = g.npts,
                  .runs = (int)c->runs, .nschemes = o->nschemes};
    shard_range(&c->shard, npts * c->runs, &j.first, &j.end);
    if (rc == CLI_OK) {
        j.results = calloc((size_t)npts * (size_t)c->runs * (size_t)o->nschemes, sizeof(RunResult));
        j.progress = isatty(2);
        if (!j.results)
            rc = cli_fail("sweep", "out of memory");
    }
    if (rc == CLI_OK)
        rc = sweep_job_run(&j, c->threads);
    if (rc == CLI_OK && c->out)
        rc = write_csv(&j, &g, c);
    if (rc == CLI_OK && c->shard.n)
        shard_summary(&c->shard, j.first, j.end, npts * c->runs);
    else if (rc == CLI_OK)
        print_summary(&j, &g);
    if (rc == CLI_OK && c->plot)
        rc = write_plot(&j, &g, c->plot);
    free(j.results);
    grid_free(&g);
    return rc;
}
