/* netrace epp: Extrapolated Parity Packets experiments (Cheung & Sakamoto
 * 2007, Tables 1-3 and Fig. 5) on the shifted-gamma lossy link. */
#include "cli.h"
#include "epp_opts.h"
#include "epp_report.h"
#include "cli_load.h"
#include "epp.h"
#include "epp_experiment.h"
#include "link.h"
#include "netrace_config.h"
#include "recording.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* ---- setting up ---- */

/* The delay part of every condition's link: --link, which must carry no
 * loss (the loss comes from --loss). "none" must stand alone: the loss is
 * appended to an empty delay part. */
static int link_delay_part(const Opts *o, const char **delay_part)
{
    NrError err = {{0}};
    LinkSpec base;
    if (!linkspec_parse(&base, o->link, NULL, &err))
        return cli_usage_error(CMD, "--link: %s", err.msg);
    bool has_loss = base.loss_kind != LINK_LOSS_NONE;
    *delay_part = strcmp(base.text, "none") == 0 ? "" : o->link;
    linkspec_free(&base);
    if (has_loss)
        return cli_usage_error(CMD, "--link '%s' has a loss; give the loss rates with --loss instead", o->link);
    return CLI_OK;
}

/* The arrays of run (conditions, recordings, sources), the conditions set
 * up and the motion models as the first sources. */
static int prepare(EppRun *run, const char *delay_part)
{
    const Opts *o = &run->o;
    run->cond = calloc((size_t)o->nrate * (size_t)o->nloss, sizeof *run->cond);
    run->recs = calloc(MAX_TRACES, sizeof *run->recs);
    run->src = calloc(3 + MAX_TRACES * RECORDING_MAX_CARS, sizeof *run->src);
    if (!run->cond || !run->recs || !run->src)
        return cli_fail(CMD, "out of memory");
    NrError err = {{0}};
    for (int r = 0; r < o->nrate; r++)
        for (int q = 0; q < o->nloss; q++)
            if (!epp_condition_init(&run->cond[r * o->nloss + q], delay_part, o->loss[q], o->rate[r], &err))
                return cli_usage_error(CMD, "%s", err.msg);
    for (int m = 0; m < o->nmodels; m++) {
        EppSource *s = &run->src[run->nsrc++];
        s->is_model = true;
        s->model = o->models[m];
        snprintf(s->name, sizeof s->name, "%s", epp_model_name(o->models[m]));
    }
    return CLI_OK;
}

static void release(EppRun *run)
{
    epp_results_free(&run->plan.res);
    if (run->cond)
        for (int i = 0; i < run->o.nrate * run->o.nloss; i++)
            epp_condition_free(&run->cond[i]);
    free(run->cond);
    for (int i = 0; run->recs && i < run->nrecs; i++)
        recording_free(&run->recs[i]);
    free(run->recs);
    free(run->src);
}

/* The traces to read: --trace's, else every .csv in recordings/ here or in
 * the source tree (a bad one of those is skipped with a note). */
typedef struct Traces {
    glob_t g;
    bool globbed, explicit;
    const char *const *paths;
    int n;
} Traces;

static void find_traces(const Opts *o, bool want, Traces *t)
{
    memset(t, 0, sizeof *t);
    t->paths = o->traces;
    t->n = o->ntraces;
    t->explicit = o->ntraces > 0;
    if (!want || t->explicit)
        return;
    if (glob("recordings/*.csv", 0, NULL, &t->g) != 0) {
        globfree(&t->g);
        memset(&t->g, 0, sizeof t->g);
        char pat[4200];
        snprintf(pat, sizeof pat, "%s/recordings/*.csv", NETRACE_SOURCE_DIR);
        if (glob(pat, 0, NULL, &t->g) != 0) {
            globfree(&t->g);
            memset(&t->g, 0, sizeof t->g);
        }
    }
    t->globbed = true;
    t->paths = (const char *const *)t->g.gl_pathv;
    t->n = (int)t->g.gl_pathc;
    if (t->n > MAX_TRACES)
        t->n = MAX_TRACES;
    if (t->n == 0)
        fprintf(stderr, "netrace epp: note: no recordings/*.csv found; trace table skipped\n");
}

/* --out and --plot: files, not the traces read, not one another. */
static int check_outputs(const Opts *o, const Traces *t, bool want)
{
    int rc = o->out ? cli_out_check(CMD, "--out", o->out, t->paths, want ? t->n : 0) : CLI_OK;
    if (rc == CLI_OK && o->plot)
        rc = cli_out_check(CMD, "--plot", o->plot, t->paths, want ? t->n : 0);
    if (rc == CLI_OK && o->plot && o->out)
        rc = cli_out_distinct(CMD, "--out", o->out, "--plot", o->plot);
    return rc;
}

/* Every car of every trace as a source named "stem/carN". */
static int load_traces(EppRun *run, const Traces *t)
{
    NrError err = {{0}};
    for (int i = 0; i < t->n; i++) {
        if (!cli_load_recording(t->paths[i], &run->recs[run->nrecs], &err)) {
            if (t->explicit)
                return cli_fail(CMD, "%s", err.msg);
            fprintf(stderr, "netrace epp: note: skipping %s\n", err.msg);
            continue;
        }
        Recording *rec = &run->recs[run->nrecs++];
        char stem[128];
        snprintf(stem, sizeof stem, "%s", base_name(t->paths[i]));
        char *dot = strrchr(stem, '.');
        if (dot)
            *dot = '\0';
        for (int c = 0; c < rec->ncars && c < RECORDING_MAX_CARS; c++) {
            EppSource *s = &run->src[run->nsrc++];
            s->is_model = false;
            s->rec = rec;
            s->car = c;
            snprintf(s->name, sizeof s->name, "%s/car%d", stem, c + 1);
        }
    }
    return CLI_OK;
}

static int add_traces(EppRun *run)
{
    const Opts *o = &run->o;
    bool want = !o->no_traces && (o->scheme_on[SC_RAW] || o->scheme_on[SC_XD] || o->scheme_on[SC_XV] ||
                                  o->scheme_on[SC_XA]);
    Traces t;
    find_traces(o, want, &t);
    int rc = check_outputs(o, &t, want);
    if (rc == CLI_OK && want)
        rc = load_traces(run, &t);
    if (t.globbed)
        globfree(&t.g);
    return rc;
}

/* ---- running ---- */

static int run_experiment(EppRun *run)
{
    const Opts *o = &run->o;
    EppExperiment ex = {
        .src = run->src,
        .nsrc = run->nsrc,
        .rate = o->rate,
        .nrate = o->nrate,
        .loss = o->loss,
        .nloss = o->nloss,
        .cond = run->cond,
        .bw = run->plan.bwall,
        .nbw = run->plan.nbwall,
        .ntable = o->nbw,
        .raw_dr = o->raw_dr,
        .runs = o->runs,
        .samples = o->samples,
        .seed = o->seed,
        .item_range = o->shard.n > 0,
    };
    shard_range(&o->shard, (int64_t)run->nsrc * o->nrate, &ex.item_first, &ex.item_end);
    memcpy(ex.scheme_on, o->scheme_on, sizeof ex.scheme_on);
    NrError err = {{0}};
    if (!epp_experiment_run(&ex, &run->plan.res, &err))
        return cli_fail(CMD, "%s", err.msg);
    for (int s = 0; s < run->nsrc; s++)
        for (int r = 0; r < o->nrate; r++)
            if (epp_results_avail(&run->plan.res, s, r) >= 0)
                fprintf(stderr, "netrace epp: note: %s has only %d updates at %d/s; skipped\n", run->src[s].name,
                        epp_results_avail(&run->plan.res, s, r), o->rate[r]);
    return CLI_OK;
}

/* Sets up, runs and reports. --out is opened before the work so that a bad
 * path fails at once; the file appears under its name only when complete
 * (nr_part.h). */
static int run_epp(int argc, char **argv)
{
    EppRun run = {0};
    int rc = epp_parse_args(argc, argv, &run.o);
    if (rc != CLI_OK)
        return rc;
    const char *delay_part = "";
    rc = link_delay_part(&run.o, &delay_part);
    if (rc != CLI_OK)
        return rc;
    NrPartFile csv_out = {0};
    FILE *csv = NULL;
    rc = prepare(&run, delay_part);
    if (rc == CLI_OK)
        rc = add_traces(&run);
    if (rc == CLI_OK) {
        epp_plan_bandwidths(&run.plan, &run.o);
        if (run.o.out && !(csv = cli_out_open(CMD, &csv_out, run.o.out, &rc)))
            rc = CLI_FAIL;
    }
    if (rc == CLI_OK)
        rc = run_experiment(&run);
    if (rc == CLI_OK) {
        int64_t first, end, total = (int64_t)run.nsrc * run.o.nrate;
        shard_range(&run.o.shard, total, &first, &end);
        if (run.o.shard.n)
            shard_summary(&run.o.shard, first, end, total);
        else
            epp_print_report(&run);
        if (csv) {
            if (run.o.shard.n)
                shard_mark(csv, &run.o.shard);
            epp_write_csv(&run, csv);
            if (cli_out_close(CMD, &csv_out, true, &rc)) /* renamed, or removed */
                cli_wrote(run.o.out);
        }
    }
    if (rc == CLI_OK && run.o.plot)
        rc = epp_write_plot(&run);
    nr_part_abort(&csv_out); /* removes the .part unless it was renamed */
    release(&run);
    return rc;
}

const CliCommand cmd_epp = {
    .name = "epp",
    .summary = "Extrapolated Parity Packets: Tables 1-3 and Fig. 5 of Cheung & Sakamoto",
    .usage = "netrace epp [--models LIST] [--schemes LIST] [--loss LIST] [--rate LIST] [--bandwidth LIST]\n"
             "    [--sweep LIST|none] [--link SPEC] [--trace FILE]... [--no-traces] [--raw-dr cd|cv|ca]\n"
             "    [--runs N] [--samples N] [--seed N] [--out FILE.csv] [--plot FIG.png|svg|pdf] [--shard I/N]",
    .help = "Simulates dead reckoning over a lossy shifted-gamma link with and without\n"
            "Extrapolated Parity Packets and prints the mean Euclidean prediction error.\n"
            "  --models LIST     motion models rd,rv,ra (default all; 'none' for traces only)\n"
            "  --schemes LIST    raw,EP-p,EP-i (models) and raw,xd,xv,xa (traces); default all\n"
            "  --loss LIST       loss rates, 5% or 0.05 (default 5%,10%)\n"
            "  --rate LIST       updates per second (default 10,15)\n"
            "  --bandwidth LIST  bandwidth C of Tables 1-3 in bit/s (default 10k); items are\n"
            "                    values (10000, 10k, 2.5k) or ranges A..B[:STEP] (STEP 2.5k)\n"
            "  --sweep LIST      bandwidths of Fig. 5 (default 5k..20k:2.5k; none to skip)\n"
            "  --link SPEC       delay part of the link (default 'delay 50ms gamma 3 10ms')\n"
            "  --trace FILE      a recording (repeatable); default recordings/*.csv\n"
            "  --no-traces       skip the trace table\n"
            "  --raw-dr NAME     dead reckoning of raw on traces: cd, cv (default) or ca\n"
            "  --runs N          runs per data point (default 100)\n"
            "  --samples N       locations per run (default 1000)\n"
            "  --seed N          seed (default 1)\n"
            "  --out FILE.csv    long format: source,loss,rate_hz,bandwidth_bps,scheme,mean_error,runs\n"
            "  --shard I/N       run the I-th of N parts of the (source, rate) items (needs --out;\n"
            "                    'netrace join-shards' joins the parts into the whole CSV)\n"
            "  --plot FIGURE     Fig. 5: EP-i's error against the --sweep bandwidths, a panel per rate\n"
            "See docs/epp.md.",
    .run = run_epp,
};
