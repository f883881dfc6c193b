/* `netrace sweep`: the racing paper's Figs. 6-7 experiment. The mean delay
 * from terminal 1 to 2 is swept for each jitter, every scheme runs on the
 * same traffic, R seeds per point; long-format CSV and a summary table. */
#include "cli.h"
#include "experiment.h"
#include "plot.h"
#include "stats.h"
#include "race_opts.h"

#include <math.h>

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct Job {
    const RaceOpts *o;
    const SweepPoint *pts;
    const LinkSpec *links; /* link12 per point */
    int npts, runs, nschemes;
    RunResult *results; /* [(point * runs + run) * nschemes + k] */
    int next;           /* next work item */
    int done;
    bool failed;
    NrError err;
    pthread_mutex_t mu;
    bool progress;
} Job;

static void show_progress(Job *j)
{
    int total = j->npts * j->runs;
    int width = 40, fill = total ? j->done * width / total : width;
    fprintf(stderr, "\rsweep [%.*s%*s] %d/%d runs", fill, "########################################",
            width - fill, "", j->done, total);
    if (j->done == total)
        fputc('\n', stderr);
    fflush(stderr);
}

static void *worker(void *arg)
{
    Job *j = arg;
    for (;;) {
        pthread_mutex_lock(&j->mu);
        int item = j->next++;
        bool stop = j->failed;
        pthread_mutex_unlock(&j->mu);
        if (stop || item >= j->npts * j->runs)
            return NULL;
        int p = item / j->runs, r = item % j->runs;
        EngineConfig cfg;
        race_opts_engine_config(j->o, &cfg);
        cfg.link[0] = &j->links[p];
        race_topo_sweep_line(j->o, &cfg, &j->links[p]);
        cfg.seed = j->o->seed + (uint64_t)r;
        NrError err = {{0}};
        bool ok = experiment_run_scripted(&cfg, &j->o->rec, j->o->script.n ? &j->o->script : NULL,
                                          &j->results[(size_t)item * (size_t)j->nschemes], &err);
        pthread_mutex_lock(&j->mu);
        if (!ok && !j->failed) {
            j->failed = true;
            j->err = err;
        }
        j->done++;
        if (j->progress)
            show_progress(j);
        pthread_mutex_unlock(&j->mu);
    }
}

/* "A:B:STEP" (inclusive) or "a,b,c" of whole milliseconds >= 0. */
static bool parse_ms_list(const char *cmd, const char *flag, const char *val, int64_t *out, int *n)
{
    char buf[512];
    *n = 0;
    if (strlen(val) >= sizeof buf || !*val)
        return cli_usage_error(cmd, "%s: expected A:B:STEP or a comma list of ms, got '%s'", flag, val), false;
    strcpy(buf, val);
    if (strchr(buf, ':')) {
        char *p1 = strchr(buf, ':'), *p2 = p1 ? strchr(p1 + 1, ':') : NULL;
        int64_t a, b, st;
        if (!p2)
            return cli_usage_error(cmd, "%s: expected A:B:STEP, got '%s'", flag, val), false;
        *p1 = *p2 = '\0';
        if (!nr_parse_int64(buf, &a) || !nr_parse_int64(p1 + 1, &b) || !nr_parse_int64(p2 + 1, &st) ||
            a < 0 || b < a || st <= 0 || b > 100000)
            return cli_usage_error(cmd, "%s: expected A:B:STEP with 0 <= A <= B <= 100000 and STEP > 0, got '%s'",
                                   flag, val), false;
        for (int64_t v = a; v <= b; v += st) {
            if (*n >= SWEEP_MAX_VALUES)
                return cli_usage_error(cmd, "%s: at most %d values", flag, SWEEP_MAX_VALUES), false;
            out[(*n)++] = v;
        }
        return true;
    }
    char *items[SWEEP_MAX_VALUES];
    int k = cli_list(cmd, flag, val, buf, sizeof buf, items, SWEEP_MAX_VALUES);
    if (k < 0)
        return false;
    for (int i = 0; i < k; i++) {
        int64_t v;
        if (!nr_parse_int64(items[i], &v) || v < 0 || v > 100000)
            return cli_usage_error(cmd, "%s: '%s' is not a whole number of ms from 0 to 100000", flag, items[i]), false;
        out[(*n)++] = v;
    }
    return true;
}

static void print_summary(const Job *j, const RaceOpts *o)
{
    printf("sweep of link12 mean delay; link21: %s; delta %.0f ms, T_dr %.3g cw; %d seeds per point\n",
           o->link[1].text, (double)o->params.delta_us / 1000.0, o->params.tdr_cw, j->runs);
    printf("mean over seeds of the inconsistency rate / mean d1-d2 (car widths)\n\n");
    printf("%9s %9s", "delay12", "jitter12");
    for (int k = 0; k < j->nschemes; k++)
        printf(" %21s", o->schemes[k]->name);
    printf("\n%19s", "");
    for (int k = 0; k < j->nschemes; k++)
        printf(" %10s %10s", "incons", "d1-d2");
    printf("\n");
    for (int p = 0; p < j->npts; p++) {
        printf("%7" PRId64 "ms %7" PRId64 "ms", j->pts[p].delay_ms, j->pts[p].jitter_ms);
        for (int k = 0; k < j->nschemes; k++) {
            double inc = 0, fair = 0;
            for (int r = 0; r < j->runs; r++) {
                const RunResult *x = &j->results[((size_t)p * (size_t)j->runs + (size_t)r) * (size_t)j->nschemes + (size_t)k];
                inc += x->inconsistency_rate;
                fair += x->mean_d1_minus_d2;
            }
            printf(" %10.4f %10.4f", inc / j->runs, fair / j->runs);
        }
        printf("\n");
    }
}

/* Mean over the seeds of point p for scheme k, and the half-width of its
 * 95 % interval (NAN with one seed). */
static double seed_mean(const Job *j, int p, int k, bool fairness, double *half)
{
    double v[1024], mean;
    int n = j->runs < 1024 ? j->runs : 1024;
    for (int r = 0; r < n; r++) {
        const RunResult *x = &j->results[((size_t)p * (size_t)j->runs + (size_t)r) * (size_t)j->nschemes + (size_t)k];
        /* fairness: mean d1 - d2, or with N cars / cs the fairness spread */
        v[r] = !fairness ? 100.0 * x->inconsistency_rate : race_topo_wide(j->o) ? x->spread : x->mean_d1_minus_d2;
    }
    stats_mean_ci95(v, n, 1, &mean, half);
    return mean;
}

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
static void fill_curve(PlotData *d, const Job *j, const RaceOpts *o, const SweepSpec *spec, int m, int jt, int k)
{
    int nd = d->nd;
    size_t at = (((size_t)m * (size_t)d->nj + (size_t)jt) * (size_t)d->ns + (size_t)k) * (size_t)nd * 3;
    double *yy = &d->y[at], *lo = yy + nd, *hi = lo + nd;
    for (int di = 0; di < nd; di++) {
        yy[di] = lo[di] = hi[di] = NAN;
        for (int p = 0; p < j->npts; p++)
            if (j->pts[p].delay_ms == spec->delays_ms[di] && j->pts[p].jitter_ms == spec->jitters_ms[jt]) {
                double half;
                yy[di] = seed_mean(j, p, k, m == 1, &half);
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
        (PlotSeries){o->schemes[k]->name, d->x, yy, nd, true, j->runs > 1 ? lo : NULL, j->runs > 1 ? hi : NULL};
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

/* The Figs. 6-7 layout: per jitter, the inconsistency rate and mean d1 - d2
 * against the mean delay 1 -> 2, one curve per scheme, with error bars of
 * the 95 % interval across seeds (--runs >= 2). Panels of the same metric
 * share their axes, so jitters compare at a glance. A curve that runs away
 * (e.g. Causality once every MU is late and the car stays on the grid)
 * would flatten all others: the d1 - d2 axes are then symmetric
 * logarithmic, and the panels say so; the CSV keeps the exact values. */
/* Every configuration's curves; the compared panels share their axes.
 * True when a curve runs away. */
static bool fill_all(PlotData *d, const Job *jobs, int nt, const SweepSpec *spec)
{
    bool runaway = false;
    for (int t = 0; t < nt; t++) {
        for (int di = 0; di < d[t].nd; di++)
            d[t].x[di] = (double)spec->delays_ms[di];
        for (int jt = 0; jt < d[t].nj; jt++)
            for (int m = 0; m < 2; m++)
                for (int k = 0; k < d[t].ns; k++)
                    fill_curve(&d[t], &jobs[t], jobs[t].o, spec, m, jt, k);
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

static int write_plot(const Job *jobs, int nt, const SweepSpec *spec, const char *path)
{
    const Job *j = &jobs[0];
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
    bool runaway = fill_all(d, jobs, nt, spec);
    double xlo = INFINITY, xhi = -INFINITY;
    for (int p = 0; p < j->npts; p++) {
        xlo = fmin(xlo, (double)j->pts[p].delay_ms);
        xhi = fmax(xhi, (double)j->pts[p].delay_ms);
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
        snprintf(name, sizeof name, "%s | %d players, %s | other lines %s | delta %.0f ms | %d seeds", o->recording,
                 o->ncars, nt > 1 ? "topologies side by side" : race_topo_name(o), o->link_default.text,
                 (double)o->params.delta_us / 1000.0, j->runs);
    else
        snprintf(name, sizeof name, "%s | link 2->1 %s | delta %.0f ms | T_dr %.3g cw | %d seeds", o->recording,
                 o->link[1].text, (double)o->params.delta_us / 1000.0, o->params.tdr_cw, j->runs);
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

/* The command line of one sweep. */
typedef struct SweepArgs {
    RaceOpts o;
    SweepSpec spec;
    int64_t runs, threads; /* threads 0: one per core */
    const char *out, *plot;
} SweepArgs;

/* One of the sweep's own flags at argv[*i]: CLI_OK, or the exit code after
 * one line on stderr. */
static int sweep_flag(SweepArgs *w, int argc, char **argv, int *i)
{
    const char *cmd = "sweep", *a = argv[*i], *v = NULL;
    SweepSpec *spec = &w->spec;
    bool ok = true;
    if (cli_flag_is(a, "--runs")) {
        ok = cli_value(argc, argv, i, cmd, &v) && cli_int(cmd, "--runs", v, 1, 100000, &w->runs);
    } else if (cli_flag_is(a, "--threads")) {
        ok = cli_value(argc, argv, i, cmd, &v) && cli_int(cmd, "--threads", v, 1, 256, &w->threads);
    } else if (cli_flag_is(a, "--delays")) {
        ok = cli_value(argc, argv, i, cmd, &v) && parse_ms_list(cmd, "--delays", v, spec->delays_ms, &spec->ndelays);
    } else if (cli_flag_is(a, "--jitters")) {
        ok = cli_value(argc, argv, i, cmd, &v) &&
             parse_ms_list(cmd, "--jitters", v, spec->jitters_ms, &spec->njitters);
    } else if (cli_flag_is(a, "--distribution")) {
        if (!cli_value(argc, argv, i, cmd, &v))
            return CLI_USAGE;
        if (strlen(v) >= sizeof spec->distribution)
            return cli_usage_error(cmd, "--distribution: name too long");
        strcpy(spec->distribution, strcmp(v, "uniform") == 0 ? "" : v);
    } else if (cli_flag_is(a, "--extra")) {
        if (!cli_value(argc, argv, i, cmd, &v))
            return CLI_USAGE;
        if (strlen(v) >= sizeof spec->extra)
            return cli_usage_error(cmd, "--extra: spec too long");
        strcpy(spec->extra, v);
    } else if (cli_flag_is(a, "--recording")) {
        ok = cli_value(argc, argv, i, cmd, &w->o.recording);
    } else if (cli_flag_is(a, "--out")) {
        ok = cli_value(argc, argv, i, cmd, &w->out);
    } else if (cli_flag_is(a, "--plot")) {
        ok = cli_value(argc, argv, i, cmd, &w->plot);
    } else {
        return cli_unknown_option(cmd, a);
    }
    return ok ? CLI_OK : CLI_USAGE;
}

static int parse_args(SweepArgs *w, int argc, char **argv)
{
    const char *cmd = "sweep";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int r = race_opts_flag(&w->o, argc, argv, &i, cmd);
        if (r == RACE_FLAG_NOT_MINE)
            r = race_topo_flag(&w->o, argc, argv, &i, cmd);
        if (r == RACE_FLAG_BAD)
            return CLI_USAGE;
        if (r == RACE_FLAG_TAKEN) {
            if (cli_flag_is(a, "--link12"))
                return cli_usage_error(cmd, "--link12 is what the sweep varies: use --delays, --jitters, --distribution, --extra");
            continue;
        }
        int rc = sweep_flag(w, argc, argv, &i);
        if (rc != CLI_OK)
            return rc;
    }
    return CLI_OK;
}

/* Every point's link12, validated before any work starts; *nlinks of them
 * parsed (to free) whatever the outcome. */
static int parse_links(const SweepSpec *spec, const SweepPoint *pts, int npts, LinkSpec *links, int *nlinks)
{
    for (int p = 0; p < npts; p++) {
        char text[LINK_TEXT_MAX];
        NrError err = {{0}};
        sweep_link_text(spec, &pts[p], text, sizeof text);
        if (!linkspec_parse(&links[p], text, NULL, &err))
            return cli_usage_error("sweep", "link12 of point %" PRId64 "ms/%" PRId64 "ms: %s", pts[p].delay_ms,
                                   pts[p].jitter_ms, err.msg);
        (*nlinks)++;
    }
    return CLI_OK;
}

/* The recording and the output files, checked before the work. */
static int load_and_check(SweepArgs *w)
{
    const char *cmd = "sweep";
    int rc = race_opts_load(&w->o, cmd);
    if (rc == CLI_OK)
        rc = race_topo_resolve(&w->o, cmd);
    if (rc == CLI_OK && w->out)
        rc = race_opts_check_out(&w->o, cmd, "--out", w->out);
    if (rc == CLI_OK && w->plot)
        rc = race_opts_check_out(&w->o, cmd, "--plot", w->plot);
    if (rc == CLI_OK)
        rc = cli_out_distinct(cmd, "--out", w->out, "--plot", w->plot);
    if (rc == CLI_OK && w->plot)
        rc = cli_plot_check(cmd, w->plot);
    return rc;
}

/* Every (point, seed) run by `threads` workers (0: one per core, never
 * more than the runs), or here when no thread starts. */
static int run_all(Job *j, int64_t threads)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int nt = threads > 0 ? (int)threads : (cores > 0 ? (int)cores : 1);
    if (nt > j->npts * j->runs)
        nt = j->npts * j->runs;
    pthread_t th[256];
    if (nt > 256) /* more cores than th[] holds */
        nt = 256;
    int started = 0;
    for (int t = 0; t < nt; t++)
        if (pthread_create(&th[t], NULL, worker, j) == 0)
            started++;
    if (started == 0)
        worker(j);
    for (int t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    return j->failed ? cli_fail("sweep", "%s", j->err.msg) : CLI_OK;
}

/* One row per configuration x scheme x point x seed. */
static int write_csv(const Job *jobs, int nt, const char *out)
{
    int rc = CLI_OK;
    NrPartFile csv;
    FILE *f = cli_out_open("sweep", &csv, out, &rc);
    if (!f)
        return rc;
    bool wide = race_topo_wide(jobs[0].o);
    result_csv_header_fields(f);
    if (wide)
        race_topo_csv_extra_header(f, jobs[0].o->ncars);
    fputc('\n', f);
    for (int t = 0; t < nt; t++) {
        const Job *j = &jobs[t];
        const RaceOpts *o = j->o;
        for (int p = 0; p < j->npts; p++)
            for (int r = 0; r < j->runs; r++)
                for (int k = 0; k < j->nschemes; k++) {
                    RunKey key = {
                        .delay12_ms = (double)j->pts[p].delay_ms,
                        .jitter12_ms = (double)j->pts[p].jitter_ms,
                        .delay21_ms = (double)o->link[1].delay_us / 1000.0,
                        .jitter21_ms = (double)o->link[1].jitter_us / 1000.0,
                        .delta_ms = (double)o->params.delta_us / 1000.0,
                        .tdr = o->params.tdr_cw,
                        .seed = o->seed + (uint64_t)r,
                    };
                    const RunResult *x =
                        &j->results[((size_t)p * (size_t)j->runs + (size_t)r) * (size_t)j->nschemes + (size_t)k];
                    result_csv_row_fields(f, &key, x);
                    if (wide)
                        race_topo_csv_extra(f, o, x);
                    fputc('\n', f);
                }
    }
    if (cli_out_close("sweep", &csv, true, &rc))
        cli_wrote(out);
    return rc;
}

/* Every configuration's runs (one without a comparison), then the CSV,
 * the summaries and the plot. */
static int run_configs(SweepArgs *w, const SweepPoint *pts, int npts, const LinkSpec *links)
{
    RaceOpts cfg_o[3];
    Job jobs[3];
    int nt = race_topo_configs(&w->o, cfg_o, 3), made = 0, rc = CLI_OK;
    for (int t = 0; t < nt && rc == CLI_OK; t++) {
        jobs[t] = (Job){.o = &cfg_o[t], .pts = pts, .links = links, .npts = npts, .runs = (int)w->runs,
                        .nschemes = w->o.nschemes};
        jobs[t].results = calloc((size_t)npts * (size_t)w->runs * (size_t)w->o.nschemes, sizeof(RunResult));
        jobs[t].progress = isatty(2);
        pthread_mutex_init(&jobs[t].mu, NULL);
        made++;
        rc = jobs[t].results ? run_all(&jobs[t], w->threads) : cli_fail("sweep", "out of memory");
    }
    if (rc == CLI_OK && w->out)
        rc = write_csv(jobs, nt, w->out);
    for (int t = 0; t < nt && rc == CLI_OK; t++) {
        if (nt > 1)
            printf("%s== %s\n", t ? "\n" : "", race_topo_name(jobs[t].o));
        print_summary(&jobs[t], jobs[t].o);
    }
    if (rc == CLI_OK && w->plot)
        rc = write_plot(jobs, nt, &w->spec, w->plot);
    for (int t = 0; t < made; t++) {
        pthread_mutex_destroy(&jobs[t].mu);
        free(jobs[t].results);
    }
    return rc;
}

static int sweep_run(int argc, char **argv)
{
    const char *cmd = "sweep";
    SweepArgs w = {.runs = 10};
    race_opts_init(&w.o, "racing");
    w.o.allow_compare = true;
    parse_ms_list(cmd, "--delays", "0:200:25", w.spec.delays_ms, &w.spec.ndelays);
    parse_ms_list(cmd, "--jitters", "10,30", w.spec.jitters_ms, &w.spec.njitters);
    strcpy(w.spec.distribution, "paretonormal");
    int rc = parse_args(&w, argc, argv), nlinks = 0;
    SweepPoint pts[SWEEP_MAX_POINTS];
    int npts = rc == CLI_OK ? sweep_points(&w.spec, pts, SWEEP_MAX_POINTS) : 0;
    if (rc == CLI_OK && npts == 0)
        rc = cli_usage_error(cmd, "no point left: every jitter exceeds every mean delay");
    LinkSpec *links = rc == CLI_OK ? calloc((size_t)npts, sizeof *links) : NULL;
    if (rc == CLI_OK)
        rc = links ? parse_links(&w.spec, pts, npts, links, &nlinks) : cli_fail(cmd, "out of memory");
    if (rc == CLI_OK)
        rc = load_and_check(&w);
    if (rc == CLI_OK)
        race_warn_delta(&w.o, cmd, links, npts);
    if (rc == CLI_OK)
        rc = run_configs(&w, pts, npts, links);
    for (int p = 0; p < nlinks; p++)
        linkspec_free(&links[p]);
    free(links);
    race_opts_free(&w.o);
    return rc;
}

const CliCommand cmd_sweep = {
    .name = "sweep",
    .summary = "sweep the link 1->2 delay: inconsistency and fairness per scheme (Figs. 6-7)",
    .usage = "netrace sweep [--delays A:B:STEP|LIST] [--jitters LIST] [--distribution NAME]\n"
             "  [--runs R] [--out FILE.csv] [--plot FIG.png|svg|pdf] [--link21 SPEC] [--schemes LIST] ...",
    .help = "For each jitter J of --jitters (default 10,30 ms) and each mean delay D of --delays\n"
            "(default 0:200:25 ms) with J <= D, link12 is 'delay Dms Jms distribution NAME'\n"
            "(default paretonormal) and every scheme runs R seeds (seed S..S+R-1). Points whose\n"
            "jitter exceeds the mean are skipped, as in the paper. Uses every core.\n"
            "--schemes defaults to 'racing': nc, causality, dr, dr-causality.\n\n"
            "  --delays A:B:STEP|a,b,c  mean delays of link12 in ms\n"
            "  --jitters a,b,c          jitters of link12 in ms\n"
            "  --distribution NAME      netem table for link12 (uniform: none)\n"
            "  --extra SPEC             appended to every link12 spec, e.g. 'loss 2%'\n"
            "  --recording FILE         the race (default recordings/default.csv)\n"
            "  --runs R                 seeds per point (default 10)\n"
            "  --threads N              worker threads (default: number of cores)\n"
            "  --out FILE.csv           one row per scheme x point x seed\n"
            "  --plot FIGURE            the two panels (inconsistency, d1-d2) per jitter\n" RACE_OPTS_HELP_NO_LINK12
            "With more cars (--recording recordings/four.csv) or --topology cs, the swept line is\n"
            "every line out of terminal 1 (p2p 1-J, cs 1-s), the others keep their links, the CSV\n"
            "gets the N-car columns and the plot's second panel is the fairness spread\n"
            "(docs/nplayers.md). Lists compare topologies side by side: --topology p2p,cs\n"
            "--server relay,sync runs p2p, cs relay and cs sync on the same seeds (CSV rows of\n"
            "each, the plot's panels side by side):\n" RACE_TOPO_HELP,
    .run = sweep_run,
};
