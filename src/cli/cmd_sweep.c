/* `netrace sweep`: the racing paper's Figs. 6-7 experiment. The mean delay
 * from terminal 1 to 2 is swept for each jitter, every scheme runs on the
 * same traffic, R seeds per point; long-format CSV and a summary table. */
#include "cli.h"
#include "experiment.h"
#include "plot.h"
#include "race_opts.h"
#include "sweep_job.h"
#include "sweep_vary.h"

#include <math.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static void print_summary(const SweepJob *j, const SweepPoint *pts, const RaceOpts *o)
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
        printf("%7" PRId64 "ms %7" PRId64 "ms", pts[p].delay_ms, pts[p].jitter_ms);
        for (int k = 0; k < j->nschemes; k++) {
            double inc = 0, fair = 0;
            for (int r = 0; r < j->runs; r++) {
                const RunResult *x = sweep_job_result(j, p, r, k);
                inc += x->inconsistency_rate;
                fair += x->mean_d1_minus_d2;
            }
            printf(" %10.4f %10.4f", inc / j->runs, fair / j->runs);
        }
        printf("\n");
    }
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
static void fill_curve(PlotData *d, const SweepJob *j, const SweepPoint *pts, const RaceOpts *o, const SweepSpec *spec, int m, int jt, int k)
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
                         int m, int jt, bool runaway, double xlo, double xhi)
{
    snprintf(title, ntitle, "%s, jitter 1->2 %lld ms%s", m == 0 ? "inconsistency rate" : "mean d1 - d2",
             (long long)spec->jitters_ms[jt], m == 1 && runaway ? " (log scale)" : "");
    pn->title = title;
    pn->xlabel = "mean delay 1->2 (ms)";
    pn->ylabel = m == 0 ? "inconsistency (%), 95% interval" : "d1 - d2 (car widths), 95% interval";
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
static int write_plot(const SweepJob *j, const SweepPoint *pts, const RaceOpts *o, const SweepSpec *spec, const char *path)
{
    PlotData d = {.nd = spec->ndelays, .ns = j->nschemes, .nj = spec->njitters};
    size_t cells = (size_t)d.nj * (size_t)d.ns * (size_t)d.nd;
    d.x = malloc(sizeof(double) * (size_t)d.nd);
    d.y = malloc(sizeof(double) * cells * 2 * 3); /* mean, lo, hi */
    d.series = calloc(cells ? (size_t)d.nj * (size_t)d.ns * 2 : 1, sizeof *d.series);
    PlotPanel *panels = calloc((size_t)d.nj * 2, sizeof *panels);
    char(*titles)[96] = calloc((size_t)d.nj * 2, sizeof *titles);
    int rc = CLI_OK;
    if (!d.x || !d.y || !d.series || !panels || !titles) {
        rc = cli_fail("sweep", "out of memory");
        goto done;
    }
    for (int di = 0; di < d.nd; di++)
        d.x[di] = (double)spec->delays_ms[di];
    for (int jt = 0; jt < d.nj; jt++)
        for (int m = 0; m < 2; m++)
            for (int k = 0; k < d.ns; k++)
                fill_curve(&d, j, pts, o, spec, m, jt, k);
    bool runaway = runs_away(&d);
    double xlo = INFINITY, xhi = -INFINITY;
    for (int p = 0; p < j->npts; p++) {
        xlo = fmin(xlo, (double)pts[p].delay_ms);
        xhi = fmax(xhi, (double)pts[p].delay_ms);
    }
    for (int jt = 0; jt < d.nj; jt++)
        for (int m = 0; m < 2; m++)
            layout_panel(&panels[jt * 2 + m], titles[jt * 2 + m], sizeof titles[0], &d, spec, m, jt, runaway, xlo,
                         xhi);
    char ftitle[LINK_TEXT_MAX + 128];
    snprintf(ftitle, sizeof ftitle, "link 2->1 %s | delta %.0f ms | T_dr %.3g cw | %d seeds",
             o->link[1].text, (double)o->params.delta_us / 1000.0, o->params.tdr_cw, j->runs);
    PlotFigure fig = {.title = ftitle, .panels = panels, .npanels = d.nj * 2, .cols = 2,
                      .width = 1400, .height = 500 * d.nj + 60};
    NrError err = {{0}};
    if (plot_write_png(&fig, path, &err) != 0)
        rc = cli_fail("sweep", "%s", err.msg);
    else
        cli_wrote(path);
done:
    free(d.x);
    free(d.y);
    free(d.series);
    free(panels);
    free(titles);
    return rc;
}

/* The command line of one sweep. */
typedef struct SweepArgs {
    RaceOpts o;
    SweepSpec spec;
    SweepCommon c;
    VaryAxis axes[VARY_MAX_AXES]; /* --vary, in order */
    int naxes;
    const char *delay_flag; /* a flag of the delay sweep, refused with --vary */
    bool link12;            /* --link12: the base link12 of --vary */
} SweepArgs;

/* --vary NAME=LIST: one more axis, or the exit code after one line. */
static int vary_flag(SweepArgs *w, const char *v)
{
    NrError err = {{0}};
    if (w->naxes == VARY_MAX_AXES)
        return cli_usage_error("sweep", "--vary: at most %d parameters", VARY_MAX_AXES);
    if (!vary_parse(v, &w->axes[w->naxes], &err)) {
        const char *names[64];
        int n = 0;
        for (const VaryParam *p = vary_params(); p->name && n < 63; p++)
            names[n++] = p->name;
        names[n] = NULL;
        char name[64];
        size_t len = strcspn(v, "=");
        snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), v);
        const char *near = !vary_find(name) ? cli_suggest_word(name, names) : NULL;
        if (near)
            return cli_usage_error("sweep", "%s (did you mean %s?)", err.msg, near);
        return cli_usage_error("sweep", "%s", err.msg);
    }
    for (int k = 0; k < w->naxes; k++)
        if (w->axes[k].param == w->axes[w->naxes].param)
            return cli_usage_error("sweep", "--vary %s: given twice", w->axes[k].param->name);
    w->naxes++;
    return CLI_OK;
}

/* One of the sweep's own flags at argv[*i]: CLI_OK, or the exit code after
 * one line on stderr. */
static int sweep_flag(SweepArgs *w, int argc, char **argv, int *i)
{
    const char *cmd = "sweep", *a = argv[*i], *v = NULL;
    SweepSpec *spec = &w->spec;
    bool ok = true;
    if (cli_flag_is(a, "--delays") || cli_flag_is(a, "--jitters") || cli_flag_is(a, "--distribution") ||
        cli_flag_is(a, "--extra"))
        w->delay_flag = a;
    if (cli_flag_is(a, "--runs")) {
        ok = cli_value(argc, argv, i, cmd, &v) && cli_int(cmd, "--runs", v, 1, 100000, &w->c.runs);
    } else if (cli_flag_is(a, "--threads")) {
        ok = cli_value(argc, argv, i, cmd, &v) && cli_int(cmd, "--threads", v, 1, 256, &w->c.threads);
    } else if (cli_flag_is(a, "--vary")) {
        if (!cli_value(argc, argv, i, cmd, &v))
            return CLI_USAGE;
        return vary_flag(w, v);
    } else if (cli_flag_is(a, "--shard")) {
        ok = cli_value(argc, argv, i, cmd, &v) && shard_parse(cmd, v, &w->c.shard);
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
        ok = cli_value(argc, argv, i, cmd, &w->c.out);
    } else if (cli_flag_is(a, "--plot")) {
        ok = cli_value(argc, argv, i, cmd, &w->c.plot);
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
        if (r == RACE_FLAG_BAD)
            return CLI_USAGE;
        if (r == RACE_FLAG_TAKEN) {
            w->link12 |= cli_flag_is(a, "--link12");
            continue;
        }
        int rc = sweep_flag(w, argc, argv, &i);
        if (rc != CLI_OK)
            return rc;
    }
    if (w->link12 && w->naxes == 0)
        return cli_usage_error(cmd, "--link12 is what the sweep varies: use --delays, --jitters, --distribution, --extra "
                                    "(or --vary, which starts from --link12)");
    if (w->delay_flag && w->naxes > 0)
        return cli_usage_error(cmd, "%s belongs to the delay sweep: with --vary, vary delay12 / jitter12 and give "
                                    "--link12 for the rest", w->delay_flag);
    if (w->c.shard.n && w->c.plot)
        return cli_usage_error(cmd, "--plot draws the whole sweep: run it without --shard (join-shards joins the CSVs)");
    if (w->c.shard.n && !w->c.out)
        return cli_usage_error(cmd, "--shard needs --out: a shard's rows are joined with 'netrace join-shards'");
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

/* One row per scheme x point x seed, of the job's items (a shard's CSV
 * opens with its mark line). */
static int write_csv(const SweepJob *j, const SweepPoint *pts, const RaceOpts *o, const Shard *shard, const char *out)
{
    int rc = CLI_OK;
    NrPartFile csv;
    FILE *f = cli_out_open("sweep", &csv, out, &rc);
    if (!f)
        return rc;
    if (shard->n)
        shard_mark(f, shard);
    result_csv_header(f);
    for (int64_t item = j->first; item < j->end; item++) {
        int p = (int)(item / j->runs), r = (int)(item % j->runs);
        for (int k = 0; k < j->nschemes; k++) {
            RunKey key = {
                .delay12_ms = (double)pts[p].delay_ms,
                .jitter12_ms = (double)pts[p].jitter_ms,
                .delay21_ms = (double)o->link[1].delay_us / 1000.0,
                .jitter21_ms = (double)o->link[1].jitter_us / 1000.0,
                .delta_ms = (double)o->params.delta_us / 1000.0,
                .tdr = o->params.tdr_cw,
                .seed = o->seed + (uint64_t)r,
            };
            result_csv_row(f, &key, sweep_job_result(j, p, r, k));
        }
    }
    if (cli_out_close("sweep", &csv, true, &rc))
        cli_wrote(out);
    return rc;
}

/* The paper's delay sweep: link12 per (delay, jitter) point. */
static int delay_sweep(SweepArgs *w)
{
    const char *cmd = "sweep";
    SweepPoint pts[SWEEP_MAX_POINTS];
    int npts = sweep_points(&w->spec, pts, SWEEP_MAX_POINTS);
    if (npts == 0)
        return cli_usage_error(cmd, "no point left: every jitter exceeds every mean delay");
    LinkSpec *links = calloc((size_t)npts, sizeof *links);
    if (!links)
        return cli_fail(cmd, "out of memory");
    int nlinks = 0;
    int rc = parse_links(&w->spec, pts, npts, links, &nlinks);
    if (rc == CLI_OK)
        rc = sweep_load_and_check(&w->o, &w->c);
    SweepJob j = {.o = &w->o, .link12 = links, .npts = npts, .runs = (int)w->c.runs, .nschemes = w->o.nschemes};
    shard_range(&w->c.shard, (int64_t)npts * w->c.runs, &j.first, &j.end);
    if (rc == CLI_OK) {
        j.results = calloc((size_t)npts * (size_t)w->c.runs * (size_t)w->o.nschemes, sizeof(RunResult));
        j.progress = isatty(2);
        if (!j.results)
            rc = cli_fail(cmd, "out of memory");
    }
    if (rc == CLI_OK)
        rc = sweep_job_run(&j, w->c.threads);
    if (rc == CLI_OK && w->c.out)
        rc = write_csv(&j, pts, &w->o, &w->c.shard, w->c.out);
    if (rc == CLI_OK && w->c.shard.n)
        shard_summary(&w->c.shard, j.first, j.end, (int64_t)npts * w->c.runs);
    else if (rc == CLI_OK)
        print_summary(&j, pts, &w->o);
    if (rc == CLI_OK && w->c.plot)
        rc = write_plot(&j, pts, &w->o, &w->spec, w->c.plot);
    free(j.results);
    for (int p = 0; p < nlinks; p++)
        linkspec_free(&links[p]);
    free(links);
    return rc;
}

static int sweep_run(int argc, char **argv)
{
    const char *cmd = "sweep";
    SweepArgs w = {.c.runs = 10};
    race_opts_init(&w.o, "racing");
    parse_ms_list(cmd, "--delays", "0:200:25", w.spec.delays_ms, &w.spec.ndelays);
    parse_ms_list(cmd, "--jitters", "10,30", w.spec.jitters_ms, &w.spec.njitters);
    strcpy(w.spec.distribution, "paretonormal");
    int rc = parse_args(&w, argc, argv);
    if (rc == CLI_OK && w.naxes > 0)
        rc = sweep_vary_run(&w.o, w.axes, w.naxes, &w.c);
    else if (rc == CLI_OK)
        rc = delay_sweep(&w);
    race_opts_free(&w.o);
    return rc;
}

const CliCommand cmd_sweep = {
    .name = "sweep",
    .summary = "sweep the link 1->2 delay: inconsistency and fairness per scheme (Figs. 6-7)",
    .usage = "netrace sweep [--delays A:B:STEP|LIST] [--jitters LIST] [--distribution NAME]\n"
             "  [--runs R] [--out FILE.csv] [--plot FILE.png] [--link21 SPEC] [--schemes LIST] ...\n"
             "netrace sweep --vary NAME=A:B:STEP|LIST [--vary ...] [--link12 SPEC] ... [--shard I/N]",
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
            "  --plot FILE.png          the two panels (inconsistency, d1-d2) per jitter\n"
            "  --vary NAME=LIST         instead of the delay sweep: vary NAME over LIST (A:B:STEP or\n"
            "                           a,b,c), repeatable, full factorial, from --link12/--link21;\n"
            "                           NAME: delay12 jitter12 loss12 delay21 jitter21 loss21 (ms, %),\n"
            "                           loss (both links, %), burst (mean loss burst, packets:\n"
            "                           1 random, > 1 Gilbert-Elliott of the same rate), delta (ms),\n"
            "                           tdr (cw), converge (ms); the CSV starts with one column\n"
            "                           each; --plot: the first on x, a row of panels per value of\n"
            "                           the others (docs/sweeps.md)\n"
            "  --shard I/N              run the I-th of N parts (needs --out; join the parts with\n"
            "                           'netrace join-shards': the bytes of the whole run)\n"
            "  --link12 SPEC            with --vary: the base link 1->2\n" RACE_OPTS_HELP_NO_LINK12,
    .run = sweep_run,
};
