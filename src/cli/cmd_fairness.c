/* netrace fairness: one sender, N receivers; mean and standard deviation of
 * the accumulated export error under each DR sending algorithm (fairness
 * paper, Sections 4-5). */
#include "cli.h"
#include "plot.h"
#include "stats.h"
#include "fair_cli.h"
#include "fairsim.h"
#include "shard.h"
#include "vary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CMD "fairness"
#define FAIR_CLI_MAX_BYTES 2e9 /* series kept in memory */

/* The CSV of a run, a shard's opening with its mark (shard.h). */
typedef struct FairCsv {
    const FairResults *res;
    const Shard *shard;
} FairCsv;

static bool write_results(const void *ctx, FILE *f, NrError *err)
{
    const FairCsv *c = ctx;
    if (c->shard->n)
        shard_mark(f, c->shard);
    return fair_results_write_csv(c->res, f, err);
}

static int parse_algos(const char *val, FairExperiment *ex)
{
    if (strcmp(val, "all") == 0) {
        ex->nalgos = 0;
        for (int i = 0; fair_algos[i] && ex->nalgos < FAIR_MAX_ALGOS; i++)
            ex->algos[ex->nalgos++] = fair_algos[i];
        return CLI_OK;
    }
    char buf[512];
    if (strlen(val) >= sizeof buf)
        return cli_usage_error(CMD, "--algorithms: list too long");
    snprintf(buf, sizeof buf, "%s", val);
    ex->nalgos = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        const FairAlgo *a = fair_algo_find(t);
        if (!a) {
            char names[256] = "";
            for (int i = 0; fair_algos[i]; i++) {
                strncat(names, fair_algos[i]->name, sizeof names - strlen(names) - 1);
                if (fair_algos[i + 1])
                    strncat(names, ", ", sizeof names - strlen(names) - 1);
            }
            return cli_usage_error(CMD, "--algorithms: unknown algorithm '%s'; expected some of: %s, or all", t,
                                   names);
        }
        for (int i = 0; i < ex->nalgos; i++)
            if (ex->algos[i] == a)
                return cli_usage_error(CMD, "--algorithms: '%s' given twice", t);
        if (ex->nalgos >= FAIR_MAX_ALGOS)
            return cli_usage_error(CMD, "--algorithms: too many");
        ex->algos[ex->nalgos++] = a;
    }
    if (ex->nalgos == 0)
        return cli_usage_error(CMD, "--algorithms: expected a comma-separated list of names");
    return CLI_OK;
}

/* Checks the path against the flags, then runs every algorithm x seed. */
static int run_on_path(FairExperiment *ex, const FcliOpts *o, const Recording *rec, bool generated, FairResults *res)
{
    if (o->car > rec->ncars)
        return cli_usage_error(CMD, "--car %lld: the recording has %d cars", (long long)o->car, rec->ncars);
    if (rec->nsamples < 2)
        return cli_fail(CMD, "%s: %d sample%s per car: the sender's path needs at least 2",
                        o->recording ? o->recording : "the recording", rec->nsamples, rec->nsamples == 1 ? "" : "s");
    double have = (double)(rec->nsamples - 1) * rec->period_ms / 1000.0;
    double seconds = o->seconds > 0 ? o->seconds : generated ? 60.0 : have; /* default: the whole recording */
    double run_s = seconds < have ? seconds : have;
    double snapshot_ms = (double)ex->cfg.snapshot_us / 1000.0;
    if (snapshot_ms > 1000.0 * run_s)
        return cli_usage_error(CMD, "--snapshot %g ms is longer than the run (%.3f s)", snapshot_ms, run_s);
    double from_s = (double)ex->cfg.readings.measure_from_us / 1e6;
    if (from_s > 0 && from_s + snapshot_ms / 1000.0 > run_s + 1e-9)
        return cli_usage_error(CMD, "--measure-from %g s leaves less than one snapshot of the run (%.3f s)", from_s,
                               run_s);
    /* Every series is kept (FairResults): refuse what would not fit rather
     * than be killed hours later (--runs 10000 --seconds 3600 is ~100 GB). */
    double nsnap = floor(run_s * 1e6 / (double)ex->cfg.snapshot_us) + 1.0;
    double bytes = (double)ex->nalgos * (double)ex->runs * nsnap * 8.0 * (4.0 + ex->cfg.nrecv);
    if (bytes > FAIR_CLI_MAX_BYTES)
        return cli_usage_error(CMD, "--runs %d x %d algorithms x %.0f snapshots x %d receivers would keep %.1f GB of "
                               "series; expected at most %.0f GB (fewer --runs, a shorter run or a longer --snapshot)",
                               ex->runs, ex->nalgos, nsnap, ex->cfg.nrecv, bytes / 1e9, FAIR_CLI_MAX_BYTES / 1e9);
    if (have + 1e-9 < seconds)
        fprintf(stderr, "netrace %s: note: the path lasts %.3f s; running %.3f s, not %g\n", CMD, have, have,
                seconds);
    ex->cfg.rec = rec;
    ex->cfg.car = (int)o->car - 1;
    ex->cfg.duration_us = (int64_t)(seconds * 1e6 + 0.5);
    ex->cfg.threshold_cw = o->threshold;
    ex->cfg.velocity = o->velocity;
    ex->cfg.seed = o->seed;
    NrError err = {{0}};
    if (!fair_experiment_run(ex, res, &err))
        return cli_fail(CMD, "%s", err.msg);
    return CLI_OK;
}

/* Figs. 4-6 layout: mean and standard deviation of the accumulated export
 * error across receivers against time, one curve per algorithm (mean over
 * seeds, with a band of its 95 % interval across seeds), and the DR vectors
 * sent. */
static int write_plot(const FairResults *res, const char *path, const char *title)
{
    FairSummary rows[FAIR_MAX_ALGOS];
    int na = fair_results_summary(res, rows, FAIR_MAX_ALGOS);
    int nsnap = res->nseries > 0 ? res->series[0].nsnap : 0;
    for (int i = 0; i < res->nseries; i++)
        if (res->series[i].nsnap < nsnap)
            nsnap = res->series[i].nsnap;
    if (na <= 0 || nsnap <= 0)
        return cli_fail(CMD, "--plot: nothing to plot");
    /* per algorithm and metric: mean over seeds, then its 95 % interval */
    size_t per = (size_t)nsnap * 3;
    double *y = calloc((size_t)na * 3 * per, sizeof *y);
    double *runv = calloc((size_t)res->nseries + 1, sizeof *runv);
    PlotSeries *ser = calloc((size_t)na * 3, sizeof *ser);
    if (!y || !ser || !runv) {
        free(y);
        free(ser);
        free(runv);
        return cli_fail(CMD, "out of memory");
    }
    int runs_max = 0;
    for (int a = 0; a < na; a++)
        for (int m = 0; m < 3; m++) {
            double *mean = &y[(size_t)(3 * a + m) * per], *lo = mean + nsnap, *hi = lo + nsnap;
            for (int k = 0; k < nsnap; k++) {
                int runs = 0;
                for (int i = 0; i < res->nseries; i++) {
                    const FairSeries *fs = &res->series[i];
                    if (strcmp(fs->algo, rows[a].algo) == 0)
                        runv[runs++] = m == 0 ? fs->mean[k] : m == 1 ? fs->sd[k] : (double)fs->dr_sent[k];
                }
                double half;
                stats_mean_ci95(runv, runs, 1, &mean[k], &half);
                /* Error, deviation and counts are never negative: the
                 * symmetric t interval is cut at 0 (a band below 0 showed a
                 * negative standard deviation). */
                lo[k] = mean[k] - half > 0 ? mean[k] - half : 0.0;
                hi[k] = mean[k] + half;
                runs_max = runs > runs_max ? runs : runs_max;
            }
            ser[m * na + a] = (PlotSeries){rows[a].algo, res->series[0].t_s, mean, nsnap, false,
                                           runs_max > 1 ? lo : NULL, runs_max > 1 ? hi : NULL};
        }
    free(runv);
    PlotPanel panels[3] = {
        {.title = "mean accumulated export error", .xlabel = "time (s)",
         .ylabel = "error (car width s), 95 % band",
         .series = &ser[0], .nseries = na},
        {.title = "standard deviation across receivers", .xlabel = "time (s)",
         .ylabel = "error (car width s)", .series = &ser[na], .nseries = na},
        {.title = "DR vectors sent", .xlabel = "time (s)", .ylabel = "vectors", .series = &ser[2 * na],
         .nseries = na},
    };
    PlotFigure fig = {.title = title, .panels = panels, .npanels = 3, .cols = 3, .width = 1800, .height = 640};
    NrError err = {{0}};
    int rc = plot_write(&fig, path, &err) == 0 ? CLI_OK : cli_fail(CMD, "%s", err.msg);
    free(y);
    free(ser);
    return rc;
}

/* Everything the command line sets, defaults included. */
typedef struct FairOpts {
    FcliOpts o;
    double means[FAIR_MAX_RECEIVERS];
    int nmeans;
    double jitter_ms, budget_threshold, snapshot_ms, budget, max_delta_ms, measure_from_s, heartbeat_ms;
    bool budget_auto;
    int64_t runs, third_first;
    const char *dist, *plot;
    const char *links[FAIR_MAX_RECEIVERS + 1], *rlinks[FAIR_MAX_RECEIVERS + 1];
    int nlinks, nrlinks;
    FairReadings readings;
    FairExperiment ex;
    Shard shard; /* --shard I/N */
    VaryAxis axes[2]; /* --vary over the table below */
    int naxes;
    FILE *vcsv;             /* with --vary: the one CSV of every point */
    char vnames[64], vvalues[64]; /* its first columns' names, this point's values */
    bool vheader;                 /* its header is written */
} FairOpts;

/* --vary NAME=LIST of fairness: receiver N's mean delay (dirs = N) or the
 * jitter of every receiver (dirs = 0), from --receivers / --jitter. */
static const VaryParam fair_vary[] = {
    {"r1", "ms", VARY_DELAY, 1, 0, 600000, "receiver 1's mean delay"},
    {"r2", "ms", VARY_DELAY, 2, 0, 600000, "receiver 2's mean delay"},
    {"r3", "ms", VARY_DELAY, 3, 0, 600000, "receiver 3's mean delay"},
    {"r4", "ms", VARY_DELAY, 4, 0, 600000, "receiver 4's mean delay"},
    {"jitter", "ms", VARY_JITTER, 0, 0, 600000, "every receiver's jitter"},
    {NULL, NULL, 0, 0, 0, 0, NULL},
};

/* A word of a fixed set: its index, or -1 after the usage line. */
static int parse_word(const char *flag, const char *val, const char *const *words)
{
    char list[128] = "";
    for (int k = 0; words[k]; k++) {
        if (strcmp(val, words[k]) == 0)
            return k;
        strncat(list, k ? (words[k + 1] ? ", " : " or ") : "", sizeof list - strlen(list) - 1);
        strncat(list, words[k], sizeof list - strlen(list) - 1);
    }
    cli_usage_error(CMD, "%s: expected %s, got '%s'", flag, list, val);
    return -1;
}

/* The readings of Sections 4.6 and 5 (docs/fairness.md): FCLI_TAKEN,
 * FCLI_NOT_MINE or FCLI_BAD after the usage line. */
static int reading_flag(FairOpts *f, const char *a, const char *v)
{
    static const char *const acc[] = {"game", "relative", "since-last", NULL};
    static const char *const src[] = {"estimate", "feedback", NULL};
    int k = 0;
    if (cli_flag_is(a, "--accumulated")) {
        if ((k = parse_word("--accumulated", v, acc)) < 0)
            return FCLI_BAD;
        f->readings.accumulated = (FairAccumulated)k;
    } else if (cli_flag_is(a, "--error-source")) {
        if ((k = parse_word("--error-source", v, src)) < 0)
            return FCLI_BAD;
        f->readings.error_source = (FairErrorSource)k;
    } else if (cli_flag_is(a, "--third-first")) {
        if (!cli_int(CMD, "--third-first", v, 1, 3, &f->third_first))
            return FCLI_BAD;
    } else if (cli_flag_is(a, "--heartbeat")) {
        if (!cli_double(CMD, "--heartbeat", v, 0, 600000, &f->heartbeat_ms))
            return FCLI_BAD;
    } else if (cli_flag_is(a, "--measure-from")) {
        if (!cli_double(CMD, "--measure-from", v, 0, 3600, &f->measure_from_s))
            return FCLI_BAD;
    } else if (cli_flag_is(a, "--budget-threshold")) {
        f->budget_auto = strcmp(v, "auto") == 0;
        if (!f->budget_auto && (!nr_parse_double(v, &f->budget_threshold) || !(f->budget_threshold >= 1e-6) ||
                                f->budget_threshold > 1e6))
            return cli_usage_error(CMD, "--budget-threshold: expected auto or a number of cw from 1e-06 to "
                                        "1e+06, got '%s'", v),
                   FCLI_BAD;
    } else {
        return FCLI_NOT_MINE;
    }
    return FCLI_TAKEN;
}

/* The command's own flags other than the readings. */
static int own_flag(FairOpts *f, const char *a, const char *v)
{
    if (cli_flag_is(a, "--receivers"))
        return fcli_ms_list(CMD, "--receivers", v, f->means, FAIR_MAX_RECEIVERS, &f->nmeans) ? CLI_OK : CLI_USAGE;
    if (cli_flag_is(a, "--jitter"))
        return cli_double(CMD, "--jitter", v, 0, 600000, &f->jitter_ms) ? CLI_OK : CLI_USAGE;
    if (cli_flag_is(a, "--distribution")) {
        f->dist = v;
    } else if (cli_flag_is(a, "--link")) {
        if (f->nlinks >= FAIR_MAX_RECEIVERS)
            return cli_usage_error(CMD, "--link: more than %d receivers; expected 1 to %d", FAIR_MAX_RECEIVERS,
                                   FAIR_MAX_RECEIVERS);
        f->links[f->nlinks++] = v;
    } else if (cli_flag_is(a, "--rlink")) {
        if (f->nrlinks >= FAIR_MAX_RECEIVERS)
            return cli_usage_error(CMD, "--rlink: more than %d receivers", FAIR_MAX_RECEIVERS);
        f->rlinks[f->nrlinks++] = v;
    } else if (cli_flag_is(a, "--runs")) {
        return cli_int(CMD, "--runs", v, 1, 10000, &f->runs) ? CLI_OK : CLI_USAGE;
    } else if (cli_flag_is(a, "--algorithms")) {
        return parse_algos(v, &f->ex);
    } else if (cli_flag_is(a, "--snapshot")) {
        return cli_double(CMD, "--snapshot", v, 1, 3600000, &f->snapshot_ms) ? CLI_OK : CLI_USAGE;
    } else if (cli_flag_is(a, "--budget")) {
        return cli_double(CMD, "--budget", v, 1e-3, FAIR_MAX_RECEIVERS, &f->budget) ? CLI_OK : CLI_USAGE;
    } else if (cli_flag_is(a, "--plot")) {
        f->plot = v;
    } else if (cli_flag_is(a, "--shard")) {
        return shard_parse(CMD, v, &f->shard) ? CLI_OK : CLI_USAGE;
    } else if (cli_flag_is(a, "--vary")) {
        NrError err = {{0}};
        if (f->naxes == 2 || !vary_parse_in(fair_vary, v, &f->axes[f->naxes], &err))
            return cli_usage_error(CMD, "%s", f->naxes == 2 ? "--vary: at most 2 parameters" : err.msg);
        f->naxes++;
    } else if (cli_flag_is(a, "--max-delta")) {
        return cli_double(CMD, "--max-delta", v, 1, 600000, &f->max_delta_ms) ? CLI_OK : CLI_USAGE;
    } else {
        return cli_unknown_option(CMD, a);
    }
    return CLI_OK;
}

static int parse_args(FairOpts *f, int argc, char **argv)
{
    memset(f, 0, sizeof *f);
    f->means[0] = 800, f->means[1] = 500, f->means[2] = 200;
    f->nmeans = 3;
    f->jitter_ms = 100, f->snapshot_ms = 100, f->max_delta_ms = 2000;
    f->runs = 10;
    f->third_first = 3;
    f->dist = "normal";
    fcli_opts_init(&f->o);
    int rc = parse_algos("all", &f->ex);
    static const char *const own[] = {"--receivers", "--jitter", "--distribution", "--link", "--rlink", "--runs",
                                      "--algorithms", "--budget-threshold", "--snapshot", "--budget",
                                      "--max-delta", "--plot", "--accumulated", "--error-source",
                                      "--third-first", "--heartbeat", "--measure-from", "--shard", "--vary", NULL};
    for (int i = 1; i < argc && rc == CLI_OK; i++) {
        const char *a, *v;
        int mine = fcli_next(&f->o, argc, argv, &i, CMD, own, &a, &v);
        if (mine == FCLI_NOT_MINE)
            mine = reading_flag(f, a, v);
        if (mine == FCLI_BAD)
            return CLI_USAGE;
        if (mine == FCLI_NOT_MINE)
            rc = own_flag(f, a, v);
    }
    if (rc != CLI_OK)
        return rc;
    /* --link replaces --receivers/--jitter; --rlink pairs with them. */
    bool had_receivers = false;
    for (int i = 1; i < argc; i++)
        had_receivers |= cli_flag_is(argv[i], "--receivers") || cli_flag_is(argv[i], "--jitter");
    if (f->nlinks && had_receivers)
        return cli_usage_error(CMD, "--link gives full link specs: use it or --receivers/--jitter, not both");
    int n = f->nlinks ? f->nlinks : f->nmeans;
    if (f->nrlinks && f->nrlinks != n)
        return cli_usage_error(CMD, "--rlink: %d given for %d receivers; give one per receiver or none", f->nrlinks,
                               n);
    if (f->shard.n && (f->plot || !f->o.out))
        return cli_usage_error(CMD, "--shard needs --out and no --plot: join the parts' CSVs with 'netrace "
                                    "join-shards', plot an unsharded run");
    for (int a = 0; a < f->naxes; a++)
        if (f->nlinks || f->shard.n || f->plot || f->axes[a].param->dirs > f->nmeans)
            return cli_usage_error(CMD, "--vary %s: needs --receivers (as many as it names) and no --link, --shard "
                                        "or --plot", f->axes[a].param->name);
    f->readings.third_first = (int)f->third_first;
    f->readings.heartbeat_us = (int64_t)(f->heartbeat_ms * 1000 + 0.5);
    f->readings.measure_from_us = (int64_t)(f->measure_from_s * 1e6 + 0.5);
    return CLI_OK;
}

/* Each receiver's forward and reverse link spec; *parsed pairs to free. */
static int build_links(const FairOpts *f, int n, LinkSpec *fwd, LinkSpec *rev, int *parsed)
{
    *parsed = 0;
    for (int m = 0; m < n; m++) {
        char text[LINK_TEXT_MAX];
        if (f->nlinks)
            snprintf(text, sizeof text, "%s", f->links[m]);
        else if (f->jitter_ms > 0)
            snprintf(text, sizeof text, "delay %gms %gms distribution %s", f->means[m], f->jitter_ms, f->dist);
        else
            snprintf(text, sizeof text, "delay %gms", f->means[m]);
        NrError err = {{0}};
        if (!linkspec_parse(&fwd[m], text, NULL, &err))
            return cli_usage_error(CMD, "receiver %d link '%s': %s", m + 1, text, err.msg);
        const char *rtext = f->nrlinks ? f->rlinks[m] : text;
        if (!linkspec_parse(&rev[m], rtext, NULL, &err)) {
            linkspec_free(&fwd[m]);
            return cli_usage_error(CMD, "receiver %d reverse link '%s': %s", m + 1, rtext, err.msg);
        }
        (*parsed)++;
    }
    return CLI_OK;
}

/* The readings line, printed only when one differs from the default, so
 * that the default output stays what it was. */
static void print_readings(const FairOpts *f, const FairResults *res)
{
    static const char *const acc[] = {"game", "relative", "since-last"};
    static const char *const src[] = {"estimate", "feedback"};
    const FairReadings *r = &f->readings;
    if (r->accumulated == FAIR_ACC_GAME && r->error_source == FAIR_ERR_ESTIMATE && r->third_first == 3 &&
        r->heartbeat_us == 0 && r->measure_from_us == 0 && !f->budget_auto)
        return;
    printf("readings: accumulated %s, error source %s, base-third from trigger %d, heartbeat %g ms, "
           "measured from %g s\n", acc[r->accumulated], src[r->error_source], r->third_first, f->heartbeat_ms,
           f->measure_from_s);
    if (f->budget_auto)
        printf("budget threshold auto: %.6g cw, %lld triggers for the %lld wanted (n t / B)\n",
               res->budget_threshold_cw, (long long)res->budget_triggers_got, (long long)res->budget_triggers_want);
}

static void print_summary(const FairOpts *f, const FairResults *res, const LinkSpec *fwd, const LinkSpec *rev,
                          int n, const char *desc)
{
    printf("fairness: %d receiver%s, %.3f s of %s (car %lld), %lld runs from seed %llu\n", n, n == 1 ? "" : "s",
           res->series[0].nsnap > 0 ? res->series[0].t_s[res->series[0].nsnap - 1] : 0.0, desc, (long long)f->o.car,
           (long long)f->runs, (unsigned long long)f->o.seed);
    for (int m = 0; m < n; m++)
        printf("  r%d: %s%s%s\n", m + 1, fwd[m].text, f->nrlinks ? "  back: " : "", f->nrlinks ? rev[m].text : "");
    print_readings(f, res);
    printf("accumulated export error at the end (car-width seconds), mean over runs:\n");
    bool per_recv = n <= 8;
    printf("%-14s %12s %12s %10s %10s", "algorithm", "final_mean", "final_sd", "dr_sent", "triggers");
    for (int m = 0; per_recv && m < n; m++)
        printf(" %9s%d", "r", m + 1);
    printf("\n");
    FairSummary rows[FAIR_MAX_ALGOS];
    int nr = fair_results_summary(res, rows, FAIR_MAX_ALGOS);
    for (int k = 0; k < nr; k++) {
        printf("%-14s %12.4f %12.4f %10.1f %10.1f", rows[k].algo, rows[k].final_mean, rows[k].final_sd,
               rows[k].dr_sent, rows[k].triggers);
        for (int m = 0; per_recv && m < n; m++)
            printf(" %10.3f", rows[k].final_err[m]);
        printf("\n");
    }
    if (f->o.out && !f->naxes)
        cli_wrote(f->o.out);
}

/* Output paths, the sender's path, the runs, the CSV, the summary, the plot. */
static int run_with_links(FairOpts *f, int n, const LinkSpec *fwd, const LinkSpec *rev)
{
    FcliOpts *o = &f->o;
    const char *input = o->recording ? o->recording : "recordings/default.csv";
    int rc = CLI_OK;
    if (o->out)
        rc = cli_out_check(CMD, "--out", o->out, &input, 1);
    if (rc == CLI_OK && f->plot)
        rc = cli_out_check(CMD, "--plot", f->plot, &input, 1);
    if (rc == CLI_OK)
        rc = cli_out_distinct(CMD, "--out", o->out, "--plot", f->plot);
    if (rc == CLI_OK && f->plot)
        rc = cli_plot_check(CMD, f->plot);
    Recording rec;
    memset(&rec, 0, sizeof rec);
    char desc[4200];
    bool generated = false;
    FairResults res = {0};
    if (rc == CLI_OK && fcli_sender_path(CMD, o->recording, o->seconds > 0 ? o->seconds : 60.0, o->seed, &rec, desc,
                                         sizeof desc, &generated, &rc)) {
        FairExperiment *ex = &f->ex;
        ex->cfg.nrecv = n;
        ex->cfg.fwd = fwd;
        ex->cfg.rev = rev;
        ex->cfg.snapshot_us = (int64_t)(f->snapshot_ms * 1000 + 0.5);
        ex->cfg.budget = f->budget;
        ex->cfg.max_delta_us = (int64_t)(f->max_delta_ms * 1000 + 0.5);
        ex->cfg.readings = f->readings;
        ex->budget_threshold_cw = f->budget_threshold;
        ex->budget_threshold_auto = f->budget_auto;
        ex->runs = (int)f->runs;
        ex->item_range = f->shard.n > 0;
        shard_range(&f->shard, (int64_t)ex->nalgos * ex->runs, &ex->item_first, &ex->item_end);
        rc = run_on_path(ex, o, &rec, generated, &res);
    }
    FairCsv csv = {&res, &f->shard};
    NrError err = {{0}};
    if (rc == CLI_OK && f->vcsv && !fair_results_write_csv_prefixed(&res, f->vcsv, f->vnames, f->vvalues,
                                                                   !f->vheader, &err))
        rc = cli_fail(CMD, "%s", err.msg);
    f->vheader |= f->vcsv != NULL;
    if (rc == CLI_OK && o->out && !f->naxes)
        fcli_write_csv(CMD, o->out, write_results, &csv, &rc);
    if (rc == CLI_OK && f->shard.n)
        shard_summary(&f->shard, f->ex.item_first, f->ex.item_end, (int64_t)f->ex.nalgos * f->ex.runs);
    else if (rc == CLI_OK)
        print_summary(f, &res, fwd, rev, n, desc);
    if (rc == CLI_OK && f->plot) {
        char title[4400], name[4096];
        cli_strip_dirs(desc, name, sizeof name); /* the race file, not its local path */
        snprintf(title, sizeof title, "netrace fairness: %s, %d receiver%s, %lld runs from seed %llu", name, n,
                 n == 1 ? "" : "s", (long long)f->runs, (unsigned long long)o->seed);
        rc = write_plot(&res, f->plot, title);
        if (rc == CLI_OK)
            cli_wrote(f->plot);
    }
    fair_results_free(&res);
    recording_free(&rec);
    return rc;
}

/* One experiment on the receivers' links of f. */
static int run_point(FairOpts *f)
{
    int n = f->nlinks ? f->nlinks : f->nmeans, parsed = 0;
    LinkSpec *fwd = calloc((size_t)n, sizeof *fwd), *rev = calloc((size_t)n, sizeof *rev);
    int rc = fwd && rev ? build_links(f, n, fwd, rev, &parsed) : cli_fail(CMD, "out of memory");
    if (rc == CLI_OK)
        rc = run_with_links(f, n, fwd, rev);
    for (int m = 0; m < parsed; m++) {
        linkspec_free(&fwd[m]);
        linkspec_free(&rev[m]);
    }
    free(fwd);
    free(rev);
    return rc;
}

/* --vary: every point of the grid, one summary each, one CSV with a column
 * per varied parameter before the usual ones. */
static int run_grid(FairOpts *f)
{
    NrPartFile part;
    int rc = CLI_OK;
    const char *input = f->o.recording ? f->o.recording : "recordings/default.csv";
    if (f->o.out && (rc = cli_out_check(CMD, "--out", f->o.out, &input, 1)) == CLI_OK)
        f->vcsv = cli_out_open(CMD, &part, f->o.out, &rc);
    int w = 0;
    for (int a = 0; a < f->naxes; a++)
        w += snprintf(f->vnames + w, sizeof f->vnames - (size_t)w, "%s,", f->axes[a].param->name);
    const char *out = f->o.out;
    f->o.out = NULL; /* run_with_links checks no second output */
    int64_t npts = vary_grid_size(f->axes, f->naxes);
    for (int64_t p = 0; p < npts && rc == CLI_OK; p++) {
        double v[2];
        vary_point(f->axes, f->naxes, p, v);
        w = 0;
        printf("%s== point", p ? "\n" : "");
        for (int a = 0; a < f->naxes; a++) {
            const VaryParam *q = f->axes[a].param;
            *(q->dirs ? &f->means[q->dirs - 1] : &f->jitter_ms) = v[a];
            w += snprintf(f->vvalues + w, sizeof f->vvalues - (size_t)w, "%g,", v[a]);
            printf(" %s %g %s", q->name, v[a], q->unit);
        }
        printf("\n");
        rc = run_point(f);
    }
    f->o.out = out;
    if (f->vcsv && cli_out_close(CMD, &part, rc == CLI_OK, &rc))
        cli_wrote(out);
    return rc;
}

static int run(int argc, char **argv)
{
    FairOpts *f = calloc(1, sizeof *f);
    if (!f)
        return cli_fail(CMD, "out of memory");
    int rc = parse_args(f, argc, argv);
    if (rc == CLI_OK)
        rc = f->naxes ? run_grid(f) : run_point(f);
    free(f);
    return rc;
}

const CliCommand cmd_fairness = {
    .name = "fairness",
    .summary = "one sender, N receivers: export error under fair DR sending algorithms",
    .usage = "netrace fairness [--receivers MS,MS,...] [--jitter MS] [--distribution NAME]\n"
             "[--link SPEC]... [--rlink SPEC]... [--seconds S] [--runs N] [--seed N]\n"
             "[--recording FILE|autopilot|synthetic|tank|tank-arcs] [--car N] [--algorithms LIST|all]\n"
             "[--threshold CW] [--budget-threshold CW|auto] [--snapshot MS] [--budget B] [--max-delta MS]\n"
             "[--velocity recorded|diff] [--out FILE.csv] [--plot FIG.png|svg|pdf] [--shard I/N] [--vary NAME=LIST]\n"
             "[--accumulated game|relative|since-last] [--error-source estimate|feedback]\n"
             "[--third-first 1|2|3] [--heartbeat MS] [--measure-from S]",
    .help = "Replays car 1 of a recording as the sender of DR vectors to N receivers (default: mean\n"
            "delays 800, 500 and 200 ms with 100 ms normal jitter, as the fairness paper's testbed) and\n"
            "runs each algorithm (base, base-third, fair-schedule, budget-prob, budget-det) on the same\n"
            "triggers and the same link draws. Every 100 ms it records each receiver's accumulated\n"
            "export error (car-width seconds), their mean and standard deviation and the DR vectors\n"
            "sent. --link SPEC (repeatable, netem grammar) gives each receiver's link instead of\n"
            "--receivers; feedback travels the reverse link (--rlink, default the same spec).\n"
            "--out writes algorithm,seed,t_s,mean_error,sd_error,dr_sent,err_r1,... (long format);\n"
            "--plot draws the mean and sd of the error and the vectors sent against time.\n"
            "--vary NAME=LIST (A:B:STEP or a,b,c; at most two, full factorial): NAME r1..r4 (a\n"
            "receiver's mean delay, ms) or jitter (every receiver's, ms), from --receivers/--jitter;\n"
            "a summary per point, one CSV with a column per varied parameter first.\n"
            "--shard I/N runs the I-th of N parts of the algorithm x run items (needs --out;\n"
            "'netrace join-shards' joins the parts into the whole run's CSV; docs/sweeps.md).\n"
            "The readings of the paper's Sections 4.6 and 5 (docs/fairness.md): --accumulated (the budget\n"
            "algorithms' a_i), --error-source, --third-first (base-third's cycle), --budget-threshold auto\n"
            "(t' = n t / B triggers), --heartbeat (also trigger every MS, as BZFlag), --measure-from.",
    .run = run,
};
