/* netrace epp: Extrapolated Parity Packets experiments (Cheung & Sakamoto
 * 2007, Tables 1-3 and Fig. 5) on the shifted-gamma lossy link. */
#include "cli.h"
#include "epp_opts.h"
#include "cli_load.h"
#include "epp.h"
#include "epp_experiment.h"
#include "link.h"
#include "netrace_config.h"
#include "plot.h"
#include "recording.h"

#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The bandwidths of every cell: the tables', then the sweep's not already
 * among them. */
typedef struct Plan {
    int nbwall;
    int64_t bwall[2 * MAX_LIST];
    EppResults res;
} Plan;

static const EppCell *cell(const Plan *p, int s, int r, int q, int b, int sc)
{
    return epp_results_cell(&p->res, s, r, q, b, sc);
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* ---- output ---- */

static void fmt_bps(int64_t bps, char *buf, size_t n)
{
    if (bps % 1000 == 0)
        snprintf(buf, n, "%lldk", (long long)(bps / 1000));
    else if (bps % 100 == 0)
        snprintf(buf, n, "%.1fk", (double)bps / 1000.0);
    else
        snprintf(buf, n, "%lld", (long long)bps);
}

static void print_cell(const EppCell *c)
{
    if (c && c->valid && c->runs > 0)
        printf(" %12.3f", c->sum / c->runs);
    else
        printf(" %12s", "-");
}

/* ---- the experiment ---- */

static int bw_index(const Plan *p, int64_t bps);

/* Fig. 5: EP-i's mean error against the bandwidth, one panel per update
 * rate on one y axis, one curve per motion model and loss rate; points
 * below the stream's own rate R are gaps. */
static int write_plot(const Plan *plan, const Opts *o, const EppSource *src, int nmodels_src)
{
    int ncurves = nmodels_src * o->nloss;
    if (o->nsweep < 1 || ncurves < 1 || ncurves > PLOT_MAX_SERIES)
        return cli_fail(CMD, "--plot: Fig. 5 needs --sweep bandwidths and 1 to %d model x loss curves", PLOT_MAX_SERIES);
    double *x = calloc((size_t)o->nsweep, sizeof *x);
    double *y = calloc((size_t)o->nrate * (size_t)ncurves * (size_t)o->nsweep, sizeof *y);
    PlotSeries *ser = calloc((size_t)o->nrate * (size_t)ncurves, sizeof *ser);
    PlotPanel *pn = calloc((size_t)o->nrate, sizeof *pn);
    char(*labels)[64] = calloc((size_t)ncurves, sizeof *labels);
    char(*titles)[96] = calloc((size_t)o->nrate, sizeof *titles);
    int rc = CLI_OK;
    if (!x || !y || !ser || !pn || !labels || !titles) {
        rc = cli_fail(CMD, "out of memory");
        goto done;
    }
    for (int b = 0; b < o->nsweep; b++)
        x[b] = (double)o->sweep[b] / 1000.0;
    double ymax = 0;
    for (int r = 0; r < o->nrate; r++) {
        for (int s = 0; s < nmodels_src; s++)
            for (int q = 0; q < o->nloss; q++) {
                int c = s * o->nloss + q;
                snprintf(labels[c], sizeof labels[c], "%s, loss %g%%", src[s].name, o->loss[q] * 100.0);
                double *yy = &y[((size_t)r * (size_t)ncurves + (size_t)c) * (size_t)o->nsweep];
                for (int b = 0; b < o->nsweep; b++) {
                    const EppCell *cl = cell(plan, s, r, q, bw_index(plan, o->sweep[b]), SC_EPI);
                    yy[b] = cl->valid && cl->runs > 0 ? cl->sum / cl->runs : NAN;
                    if (isfinite(yy[b]))
                        ymax = fmax(ymax, yy[b]);
                }
                ser[r * ncurves + c] = (PlotSeries){labels[c], x, yy, o->nsweep, true, NULL, NULL};
            }
        snprintf(titles[r], sizeof titles[r], "EP-i, %d updates/s", o->rate[r]);
        pn[r] = (PlotPanel){.title = titles[r], .xlabel = "bandwidth C (kbit/s)",
                            .ylabel = "mean prediction error (model units)", .series = &ser[r * ncurves],
                            .nseries = ncurves};
    }
    for (int r = 0; r < o->nrate; r++) { /* the panels compare: one x and one y range for all */
        pn[r].fixed_x = pn[r].fixed_y = true;
        double lo = x[0], hi = x[0];
        for (int b = 1; b < o->nsweep; b++) {
            lo = fmin(lo, x[b]);
            hi = fmax(hi, x[b]);
        }
        pn[r].xmin = lo;
        pn[r].xmax = hi > lo ? hi : lo + 1;
        pn[r].ymin = 0;
        pn[r].ymax = ymax > 0 ? ymax * 1.05 : 1;
    }
    char title[256];
    snprintf(title, sizeof title, "netrace epp: Fig. 5, link '%.120s', %d runs x %d samples", o->link, o->runs,
             o->samples);
    PlotFigure fig = {.title = title, .panels = pn, .npanels = o->nrate, .cols = o->nrate,
                      .width = 800 * (o->nrate < 3 ? o->nrate : 3), .height = 640};
    NrError err = {{0}};
    if (plot_write_png(&fig, o->plot, &err) != 0)
        rc = cli_fail(CMD, "%s", err.msg);
    else
        cli_wrote(o->plot);
done:
    free(x);
    free(y);
    free(ser);
    free(pn);
    free(labels);
    free(titles);
    return rc;
}

static int bw_index(const Plan *p, int64_t bps)
{
    for (int i = 0; i < p->nbwall; i++)
        if (p->bwall[i] == bps)
            return i;
    return -1;
}

static int run_epp(int argc, char **argv)
{
    Opts o;
    int rc = epp_parse_args(argc, argv, &o);
    if (rc != CLI_OK)
        return rc;

    /* Link: the delay part from --link, the loss from --loss. */
    NrError err = {{0}};
    LinkSpec base;
    if (!linkspec_parse(&base, o.link, NULL, &err))
        return cli_usage_error(CMD, "--link: %s", err.msg);
    bool has_loss = base.loss_kind != LINK_LOSS_NONE;
    /* "none" must stand alone: the loss is appended to an empty delay part. */
    const char *delay_part = strcmp(base.text, "none") == 0 ? "" : o.link;
    linkspec_free(&base);
    if (has_loss)
        return cli_usage_error(CMD, "--link '%s' has a loss; give the loss rates with --loss instead", o.link);

    EppCondition *cond = calloc((size_t)o.nrate * (size_t)o.nloss, sizeof *cond);
    Recording *recs = calloc(MAX_TRACES, sizeof *recs);
    EppSource *src = calloc(3 + MAX_TRACES * RECORDING_MAX_CARS, sizeof *src);
    Plan plan = {0};
    FILE *csv = NULL;
    NrPartFile csv_out = {0};
    int nrecs = 0;
    rc = CLI_FAIL;
    if (!cond || !recs || !src) {
        rc = cli_fail(CMD, "out of memory");
        goto done;
    }
    for (int r = 0; r < o.nrate; r++) {
        for (int q = 0; q < o.nloss; q++) {
            if (!epp_condition_init(&cond[r * o.nloss + q], delay_part, o.loss[q], o.rate[r], &err)) {
                rc = cli_usage_error(CMD, "%s", err.msg);
                goto done;
            }
        }
    }

    /* Sources: the motion models, then every car of every trace. */
    int nsrc = 0;
    for (int m = 0; m < o.nmodels; m++) {
        src[nsrc].is_model = true;
        src[nsrc].model = o.models[m];
        snprintf(src[nsrc].name, sizeof src[nsrc].name, "%s", epp_model_name(o.models[m]));
        nsrc++;
    }
    bool want_traces = !o.no_traces && (o.scheme_on[SC_RAW] || o.scheme_on[SC_XD] || o.scheme_on[SC_XV] ||
                                        o.scheme_on[SC_XA]);
    glob_t g;
    memset(&g, 0, sizeof g);
    bool globbed = false;
    const char *const *paths = o.traces;
    int npaths = o.ntraces;
    bool explicit_traces = o.ntraces > 0;
    if (want_traces && !explicit_traces) {
        if (glob("recordings/*.csv", 0, NULL, &g) != 0) {
            globfree(&g);
            memset(&g, 0, sizeof g);
            char pat[4200];
            snprintf(pat, sizeof pat, "%s/recordings/*.csv", NETRACE_SOURCE_DIR);
            if (glob(pat, 0, NULL, &g) != 0) {
                globfree(&g);
                memset(&g, 0, sizeof g);
            }
        }
        globbed = true;
        paths = (const char *const *)g.gl_pathv;
        npaths = (int)g.gl_pathc;
        if (npaths > MAX_TRACES)
            npaths = MAX_TRACES;
        if (npaths == 0)
            fprintf(stderr, "netrace epp: note: no recordings/*.csv found; trace table skipped\n");
    }
    int orc = o.out ? cli_out_check(CMD, "--out", o.out, paths, want_traces ? npaths : 0) : CLI_OK;
    if (orc == CLI_OK && o.plot)
        orc = cli_out_check(CMD, "--plot", o.plot, paths, want_traces ? npaths : 0);
    if (orc == CLI_OK && o.plot && o.out)
        orc = cli_out_distinct(CMD, "--out", o.out, "--plot", o.plot);
    if (orc != CLI_OK) {
        rc = orc;
        if (globbed)
            globfree(&g);
        goto done;
    }
    for (int i = 0; want_traces && i < npaths; i++) {
        if (!cli_load_recording(paths[i], &recs[nrecs], &err)) {
            if (explicit_traces) {
                rc = cli_fail(CMD, "%s", err.msg);
                if (globbed)
                    globfree(&g);
                goto done;
            }
            fprintf(stderr, "netrace epp: note: skipping %s\n", err.msg);
            continue;
        }
        Recording *rec = &recs[nrecs++];
        char stem[128];
        snprintf(stem, sizeof stem, "%s", base_name(paths[i]));
        char *dot = strrchr(stem, '.');
        if (dot)
            *dot = '\0';
        for (int c = 0; c < rec->ncars && c < RECORDING_MAX_CARS; c++) {
            src[nsrc].is_model = false;
            src[nsrc].rec = rec;
            src[nsrc].car = c;
            snprintf(src[nsrc].name, sizeof src[nsrc].name, "%s/car%d", stem, c + 1);
            nsrc++;
        }
    }
    if (globbed)
        globfree(&g);

    /* All bandwidths: the tables' and the sweep's. */
    for (int b = 0; b < o.nbw; b++)
        plan.bwall[plan.nbwall++] = o.bw[b];
    for (int b = 0; b < o.nsweep; b++)
        if (bw_index(&plan, o.sweep[b]) < 0)
            plan.bwall[plan.nbwall++] = o.sweep[b];

    /* Open the output before the work so a bad path fails at once; the file
     * appears under its name only when complete (temp file + rename). */
    if (o.out) {
        csv = cli_out_open(CMD, &csv_out, o.out, &rc);
        if (!csv)
            goto done;
    }

    EppExperiment ex = {
        .src = src,
        .nsrc = nsrc,
        .rate = o.rate,
        .nrate = o.nrate,
        .loss = o.loss,
        .nloss = o.nloss,
        .cond = cond,
        .bw = plan.bwall,
        .nbw = plan.nbwall,
        .ntable = o.nbw,
        .raw_dr = o.raw_dr,
        .runs = o.runs,
        .samples = o.samples,
        .seed = o.seed,
    };
    memcpy(ex.scheme_on, o.scheme_on, sizeof ex.scheme_on);
    if (!epp_experiment_run(&ex, &plan.res, &err)) {
        rc = cli_fail(CMD, "%s", err.msg);
        goto done;
    }
    for (int s = 0; s < nsrc; s++)
        for (int r = 0; r < o.nrate; r++)
            if (epp_results_avail(&plan.res, s, r) >= 0)
                fprintf(stderr, "netrace epp: note: %s has only %d updates at %d/s; skipped\n", src[s].name,
                        epp_results_avail(&plan.res, s, r), o.rate[r]);

    /* ---- stdout: conditions, Tables 1-2 (models), Table 3 (traces), Fig. 5 ---- */
    printf("netrace epp: %d runs x %d locations, seed %llu, link '%s', H = %d B, L = %d B\n", o.runs, o.samples,
           (unsigned long long)o.seed, o.link, EPP_HEADER_BYTES, EPP_PAYLOAD_BYTES);
    printf("error = mean Euclidean distance between true and displayed position "
           "(model units; car widths for traces)\n\n");
    for (int r = 0; r < o.nrate; r++)
        for (int q = 0; q < o.nloss; q++) {
            const EppCondition *c = &cond[r * o.nloss + q];
            printf("rate %d/s, loss %g%%: T = %.1f ms, D = %d, p[D..D+3] = %.4f %.4f %.4f %.4f (%s)\n", o.rate[r],
                   o.loss[q] * 100, 1000.0 / o.rate[r], c->D, c->pd[0], c->pd[1], c->pd[2], c->pd[3],
                   c->closed ? "closed form, eq. 25" : "Monte Carlo");
        }
    int nmodels_src = o.nmodels;
    int table_no = 1;
    for (int b = 0; b < o.nbw && nmodels_src > 0; b++) {
        for (int r = 0; r < o.nrate; r++) {
            char bws[32];
            fmt_bps(o.bw[b], bws, sizeof bws);
            printf("\nTable %d: motion models, %d updates/s, bandwidth %s bps\n", table_no++, o.rate[r], bws);
            printf("%-8s", "scheme");
            for (int s = 0; s < nmodels_src; s++)
                for (int q = 0; q < o.nloss; q++) {
                    char h[40];
                    snprintf(h, sizeof h, "%s q=%g", src[s].name, o.loss[q]);
                    printf(" %12s", h);
                }
            printf("\n");
            for (int k = SC_RAW; k <= SC_EPI; k++) {
                if (!o.scheme_on[k])
                    continue;
                printf("%-8s", epp_exp_scheme_name(k));
                for (int s = 0; s < nmodels_src; s++)
                    for (int q = 0; q < o.nloss; q++)
                        print_cell(cell(&plan, s, r, q, b, k));
                printf("\n");
            }
            printf("%-8s", "eq.23");
            for (int s = 0; s < nmodels_src; s++)
                for (int q = 0; q < o.nloss; q++) {
                    const EppCondition *c = &cond[r * o.nloss + q];
                    EppChoice ch;
                    epp_choose(src[s].model, c->D, c->pd, o.bw[b], epp_stream_bps(o.rate[r]), o.rate[r], &ch);
                    printf(" %12s", ch.pack == EPP_PACK_PIGGYBACK ? "EP-p" : "EP-i");
                }
            printf("\n");
        }
    }
    if (nsrc > nmodels_src) {
        for (int b = 0; b < o.nbw; b++) {
            for (int r = 0; r < o.nrate; r++) {
                char bws[32];
                fmt_bps(o.bw[b], bws, sizeof bws);
                printf("\nTable %d: recorded traces, %d updates/s, bandwidth %s bps (raw uses %s)\n", table_no++,
                       o.rate[r], bws, epp_dr_name(o.raw_dr));
                printf("%-8s", "scheme");
                for (int s = nmodels_src; s < nsrc; s++)
                    for (int q = 0; q < o.nloss; q++) {
                        char h[200];
                        snprintf(h, sizeof h, "%s q=%g", src[s].name, o.loss[q]);
                        printf(" %22s", h);
                    }
                printf("\n");
                const int rows[4] = {SC_RAW, SC_XD, SC_XV, SC_XA};
                for (int i = 0; i < 4; i++) {
                    int k = rows[i];
                    if (!o.scheme_on[k])
                        continue;
                    printf("%-8s", epp_exp_scheme_name(k));
                    for (int s = nmodels_src; s < nsrc; s++)
                        for (int q = 0; q < o.nloss; q++) {
                            const EppCell *x = cell(&plan, s, r, q, b, k);
                            char v[40] = "-";
                            if (x->valid && x->runs > 0 && k == SC_RAW) {
                                snprintf(v, sizeof v, "%.3f    ", x->sum / x->runs);
                            } else if (x->valid && x->runs > 0) {
                                const EppCondition *c = &cond[r * o.nloss + q];
                                EppChoice ch;
                                epp_choose((EppModel)(k - SC_XD), c->D, c->pd, o.bw[b], epp_stream_bps(o.rate[r]),
                                           o.rate[r], &ch);
                                snprintf(v, sizeof v, "%.3f %s", x->sum / x->runs,
                                         ch.pack == EPP_PACK_PIGGYBACK ? "(p)" : "(i)");
                            }
                            printf(" %22s", v);
                        }
                    printf("\n");
                }
            }
        }
        printf("(p)/(i): piggyback / independent EPPs, chosen by eq. 23\n");
    }
    for (int k = SC_EPI; k >= SC_EPP && o.nsweep > 0 && nmodels_src > 0; k--) {
        if (!o.scheme_on[k])
            continue;
        for (int r = 0; r < o.nrate; r++) {
            printf("\n%s: %s error against bandwidth, %d updates/s (- : below R = %lld bps)\n",
                   k == SC_EPI ? "Fig. 5" : "Fig. 5 companion", epp_exp_scheme_name(k), o.rate[r],
                   (long long)epp_stream_bps(o.rate[r]));
            printf("%-12s", "model loss");
            for (int b = 0; b < o.nsweep; b++) {
                char bws[32];
                fmt_bps(o.sweep[b], bws, sizeof bws);
                printf(" %9s", bws);
            }
            printf("\n");
            for (int s = 0; s < nmodels_src; s++)
                for (int q = 0; q < o.nloss; q++) {
                    char h[40];
                    snprintf(h, sizeof h, "%s %g", src[s].name, o.loss[q]);
                    printf("%-12s", h);
                    for (int b = 0; b < o.nsweep; b++) {
                        const EppCell *x = cell(&plan, s, r, q, bw_index(&plan, o.sweep[b]), k);
                        if (x->valid && x->runs > 0)
                            printf(" %9.3f", x->sum / x->runs);
                        else
                            printf(" %9s", "-");
                    }
                    printf("\n");
                }
        }
    }

    if (o.nsweep > 0 && nmodels_src > 0 && (o.scheme_on[SC_EPP] || o.scheme_on[SC_EPI])) {
        for (int r = 0; r < o.nrate; r++) {
            const int64_t R = epp_stream_bps(o.rate[r]);
            printf("\nEq. 23's choice against bandwidth, %d updates/s (p: EP-p, i: EP-i)\n", o.rate[r]);
            printf("%-12s", "model loss");
            for (int b = 0; b < o.nsweep; b++) {
                char bws[32];
                fmt_bps(o.sweep[b], bws, sizeof bws);
                printf(" %9s", bws);
            }
            printf("\n");
            for (int s = 0; s < nmodels_src; s++)
                for (int q = 0; q < o.nloss; q++) {
                    const EppCondition *c = &cond[r * o.nloss + q];
                    char h[40];
                    snprintf(h, sizeof h, "%s %g", src[s].name, o.loss[q]);
                    printf("%-12s", h);
                    for (int b = 0; b < o.nsweep; b++) {
                        EppChoice ch;
                        epp_choose(src[s].model, c->D, c->pd, o.sweep[b], R, o.rate[r], &ch);
                        printf(" %9s", o.sweep[b] < R ? "-" : ch.pack == EPP_PACK_PIGGYBACK ? "p" : "i");
                    }
                    printf("\n");
                }
        }
    }

    if (csv) {
        fprintf(csv, "source,loss,rate_hz,bandwidth_bps,scheme,mean_error,runs\n");
        for (int s = 0; s < nsrc; s++)
            for (int r = 0; r < o.nrate; r++)
                for (int q = 0; q < o.nloss; q++)
                    for (int b = 0; b < plan.nbwall; b++)
                        for (int k = 0; k < SC_COUNT; k++) {
                            const EppCell *x = cell(&plan, s, r, q, b, k);
                            if (!x->valid || x->runs == 0)
                                continue;
                            fprintf(csv, "%s,%g,%d,%lld,%s,%.6f,%d\n", src[s].name, o.loss[q], o.rate[r],
                                    (long long)plan.bwall[b], epp_exp_scheme_name(k), x->sum / x->runs, x->runs);
                        }
        csv = NULL;
        if (!cli_out_close(CMD, &csv_out, true, &rc)) /* renamed, or removed */
            goto done;
        cli_wrote(o.out);
    }
    if (o.plot) {
        rc = write_plot(&plan, &o, src, nmodels_src);
        if (rc != CLI_OK)
            goto done;
    }
    rc = CLI_OK;

done:
    nr_part_abort(&csv_out); /* removes the .part unless it was renamed */
    epp_results_free(&plan.res);
    if (cond)
        for (int i = 0; i < o.nrate * o.nloss; i++)
            epp_condition_free(&cond[i]);
    free(cond);
    for (int i = 0; recs && i < nrecs; i++)
        recording_free(&recs[i]);
    free(recs);
    free(src);
    return rc;
}

const CliCommand cmd_epp = {
    .name = "epp",
    .summary = "Extrapolated Parity Packets: Tables 1-3 and Fig. 5 of Cheung & Sakamoto",
    .usage = "netrace epp [--models LIST] [--schemes LIST] [--loss LIST] [--rate LIST] [--bandwidth LIST]\n"
             "    [--sweep LIST|none] [--link SPEC] [--trace FILE]... [--no-traces] [--raw-dr cd|cv|ca]\n"
             "    [--runs N] [--samples N] [--seed N] [--out FILE.csv] [--plot FILE.png]",
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
            "  --plot FILE.png   Fig. 5: EP-i's error against the --sweep bandwidths, a panel per rate\n"
            "See docs/epp.md.",
    .run = run_epp,
};
