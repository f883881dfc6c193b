/* `netrace sweep`: the racing paper's Figs. 6-7 experiment. The mean delay
 * from terminal 1 to 2 is swept for each jitter, every scheme runs on the
 * same traffic, R seeds per point; long-format CSV and a summary table.
 * Topology lists run each configuration on the same seeds, side by side;
 * --vary sweeps other parameters (sweep_vary.c). */
#include "cli.h"
#include "experiment.h"
#include "race_opts.h"
#include "sweep_job.h"
#include "sweep_plot.h"
#include "sweep_vary.h"

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
        if (r == RACE_FLAG_NOT_MINE)
            r = race_topo_flag(&w->o, argc, argv, &i, cmd);
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

/* One row per configuration x scheme x point x seed of the jobs' items (a
 * shard's CSV opens with its mark line); the N-car columns when wide. */
static int write_csv(const SweepJob *jobs, int nt, const SweepPoint *pts, const Shard *shard, const char *out)
{
    int rc = CLI_OK;
    NrPartFile csv;
    FILE *f = cli_out_open("sweep", &csv, out, &rc);
    if (!f)
        return rc;
    bool wide = race_topo_wide(jobs[0].o);
    if (shard->n)
        shard_mark(f, shard);
    result_csv_header_fields(f);
    if (wide)
        race_topo_csv_extra_header(f, jobs[0].o->ncars);
    fputc('\n', f);
    for (int t = 0; t < nt; t++) {
        const SweepJob *j = &jobs[t];
        const RaceOpts *o = j->o;
        for (int64_t item = j->first; item < j->end; item++) {
            int p = (int)(item / j->runs), r = (int)(item % j->runs);
            RunKey key = {
                .delay12_ms = (double)pts[p].delay_ms,
                .jitter12_ms = (double)pts[p].jitter_ms,
                .delay21_ms = (double)o->link[1].delay_us / 1000.0,
                .jitter21_ms = (double)o->link[1].jitter_us / 1000.0,
                .delta_ms = (double)o->params.delta_us / 1000.0,
                .tdr = o->params.tdr_cw,
                .seed = o->seed + (uint64_t)r,
            };
            for (int k = 0; k < j->nschemes; k++) {
                const RunResult *x = sweep_job_result(j, p, r, k);
                result_csv_row_fields(f, &key, x);
                if (wide)
                    race_topo_csv_extra(f, o, x);
                fputc('\n', f);
            }
        }
    }
    if (cli_out_close("sweep", &csv, true, &rc))
        cli_wrote(out);
    return rc;
}

/* Every configuration's runs on the one worker pool (one configuration
 * without a comparison), then the CSV, the summaries and the plot. */
static int run_configs(SweepArgs *w, const SweepPoint *pts, int npts, const LinkSpec *links)
{
    RaceOpts cfg_o[3];
    SweepJob jobs[3];
    int nt = race_topo_configs(&w->o, cfg_o, 3), made = 0, rc = CLI_OK;
    int64_t total = (int64_t)npts * w->c.runs;
    if (nt > 1 && w->c.shard.n) /* join-shards joins the rows of one configuration */
        return cli_usage_error("sweep", "--shard splits one race configuration: run each of --topology / --server "
                                        "on its own");
    for (int t = 0; t < nt && rc == CLI_OK; t++) {
        jobs[t] = (SweepJob){.o = &cfg_o[t], .link12 = links, .npts = npts, .runs = (int)w->c.runs,
                             .nschemes = w->o.nschemes, .progress = isatty(2)};
        shard_range(&w->c.shard, total, &jobs[t].first, &jobs[t].end);
        jobs[t].results = calloc((size_t)total * (size_t)w->o.nschemes, sizeof(RunResult));
        made++;
        rc = jobs[t].results ? sweep_job_run(&jobs[t], w->c.threads) : cli_fail("sweep", "out of memory");
    }
    if (rc == CLI_OK && w->c.out)
        rc = write_csv(jobs, nt, pts, &w->c.shard, w->c.out);
    if (rc == CLI_OK && w->c.shard.n)
        shard_summary(&w->c.shard, jobs[0].first, jobs[0].end, total);
    for (int t = 0; t < nt && rc == CLI_OK && !w->c.shard.n; t++) {
        if (nt > 1)
            printf("%s== %s\n", t ? "\n" : "", race_topo_name(jobs[t].o));
        print_summary(&jobs[t], pts, jobs[t].o);
    }
    if (rc == CLI_OK && w->c.plot)
        rc = sweep_plot_write(jobs, nt, pts, &w->spec, w->c.plot);
    for (int t = 0; t < made; t++)
        free(jobs[t].results);
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
    if (rc == CLI_OK)
        race_warn_delta(&w->o, cmd, links, npts);
    if (rc == CLI_OK)
        rc = run_configs(w, pts, npts, links);
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
    w.o.allow_compare = true;
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
             "  [--runs R] [--out FILE.csv] [--plot FIG.png|svg|pdf] [--link21 SPEC] [--schemes LIST] ...\n"
             "netrace sweep --vary NAME=A:B:STEP|LIST [--vary ...] [--link12 SPEC] ... [--shard I/N]",
    .help = "For each jitter J of --jitters (default 10,30 ms) and each mean delay D of --delays\n"
            "(default 0:200:25 ms) with J <= D, link12 is 'delay Dms Jms distribution NAME'\n"
            "(default paretonormal) and every scheme runs R seeds (seed S..S+R-1). Points whose\n"
            "jitter exceeds the mean are skipped, as in the paper.\n"
            "--schemes defaults to 'racing': nc, causality, dr, dr-causality.\n\n"
            "  --delays A:B:STEP|a,b,c  mean delays of link12 in ms\n"
            "  --jitters a,b,c          jitters of link12 in ms\n"
            "  --distribution NAME      netem table for link12 (uniform: none)\n"
            "  --extra SPEC             appended to every link12 spec, e.g. 'loss 2%'\n"
            "  --recording FILE         the race (default recordings/default.csv)\n"
            "  --runs R                 seeds per point (default 10)\n"
            "  --threads N              worker threads (default: one per core)\n"
            "  --out FILE.csv           one row per scheme x point x seed\n"
            "  --plot FIGURE            the two panels (inconsistency, d1-d2) per jitter\n"
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
            "  --link12 SPEC            with --vary: the base link 1->2\n" RACE_OPTS_HELP_NO_LINK12
            "With more cars (--recording recordings/four.csv) or --topology cs, the swept line is\n"
            "every line out of terminal 1 (p2p 1-J, cs 1-s), the CSV gets the N-car columns, the\n"
            "plot's second panel the fairness spread (docs/nplayers.md). --topology p2p,cs --server\n"
            "relay,sync compare p2p, cs relay and cs sync on the same seeds, side by side (--vary:\n"
            "two-car p2p races only; --shard: one configuration):\n" RACE_TOPO_HELP,
    .run = sweep_run,
};
