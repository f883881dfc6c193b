/* `netrace epp`'s report: the tables of Cheung & Sakamoto (Tables 1-3, Fig. 5
 * and eq. 23's choice) on stdout, the long-format CSV and Fig. 5's plot. */
#include "epp_report.h"
#include "epp.h"
#include "plot.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const EppCell *cell(const Plan *p, int s, int r, int q, int b, int sc)
{
    return epp_results_cell(&p->res, s, r, q, b, sc);
}

static int bw_index(const Plan *p, int64_t bps)
{
    for (int i = 0; i < p->nbwall; i++)
        if (p->bwall[i] == bps)
            return i;
    return -1;
}

void epp_plan_bandwidths(Plan *plan, const Opts *o)
{
    for (int b = 0; b < o->nbw; b++)
        plan->bwall[plan->nbwall++] = o->bw[b];
    for (int b = 0; b < o->nsweep; b++)
        if (bw_index(plan, o->sweep[b]) < 0)
            plan->bwall[plan->nbwall++] = o->sweep[b];
}

static void fmt_bps(int64_t bps, char *buf, size_t n)
{
    if (bps % 1000 == 0)
        snprintf(buf, n, "%lldk", (long long)(bps / 1000));
    else if (bps % 100 == 0)
        snprintf(buf, n, "%.1fk", (double)bps / 1000.0);
    else
        snprintf(buf, n, "%lld", (long long)bps);
}

/* "NAME SEP VALUE SUFFIX" of a source and loss, cut to n - 1 bytes (a long
 * trace name is cut: the column keeps its width). */
static void source_label(char *buf, size_t n, const char *name, const char *sep, double v, const char *suffix)
{
    int k = snprintf(buf, n, "%s", name);
    if (k >= 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, "%s%g%s", sep, v, suffix);
}

static void print_cell(const EppCell *c)
{
    if (c && c->valid && c->runs > 0)
        printf(" %12.3f", c->sum / c->runs);
    else
        printf(" %12s", "-");
}

/* The run's settings and, per rate and loss, the delivery probabilities. */
static void print_conditions(const EppRun *run)
{
    const Opts *o = &run->o;
    printf("netrace epp: %d runs x %d locations, seed %llu, link '%s', H = %d B, L = %d B\n", o->runs, o->samples,
           (unsigned long long)o->seed, o->link, EPP_HEADER_BYTES, EPP_PAYLOAD_BYTES);
    printf("error = mean Euclidean distance between true and displayed position "
           "(model units; car widths for traces)\n\n");
    for (int r = 0; r < o->nrate; r++)
        for (int q = 0; q < o->nloss; q++) {
            const EppCondition *c = &run->cond[r * o->nloss + q];
            printf("rate %d/s, loss %g%%: T = %.1f ms, D = %d, p[D..D+3] = %.4f %.4f %.4f %.4f (%s)\n", o->rate[r],
                   o->loss[q] * 100, 1000.0 / o->rate[r], c->D, c->pd[0], c->pd[1], c->pd[2], c->pd[3],
                   c->closed ? "closed form, eq. 25" : "Monte Carlo");
        }
}

/* Tables 1-2 of one bandwidth and rate: a row per model scheme, a column per
 * model and loss, and eq. 23's choice. */
static void print_model_table(const EppRun *run, int b, int r, int table_no)
{
    const Opts *o = &run->o;
    char bws[32];
    fmt_bps(o->bw[b], bws, sizeof bws);
    printf("\nTable %d: motion models, %d updates/s, bandwidth %s bps\n", table_no, o->rate[r], bws);
    printf("%-8s", "scheme");
    for (int s = 0; s < o->nmodels; s++)
        for (int q = 0; q < o->nloss; q++) {
            char h[40];
            source_label(h, sizeof h, run->src[s].name, " q=", o->loss[q], "");
            printf(" %12s", h);
        }
    printf("\n");
    for (int k = SC_RAW; k <= SC_EPI; k++) {
        if (!o->scheme_on[k])
            continue;
        printf("%-8s", epp_exp_scheme_name(k));
        for (int s = 0; s < o->nmodels; s++)
            for (int q = 0; q < o->nloss; q++)
                print_cell(cell(&run->plan, s, r, q, b, k));
        printf("\n");
    }
    printf("%-8s", "eq.23");
    for (int s = 0; s < o->nmodels; s++)
        for (int q = 0; q < o->nloss; q++) {
            const EppCondition *c = &run->cond[r * o->nloss + q];
            EppChoice ch;
            epp_choose(run->src[s].model, c->D, c->pd, o->bw[b], epp_stream_bps(o->rate[r]), o->rate[r], &ch);
            printf(" %12s", ch.pack == EPP_PACK_PIGGYBACK ? "EP-p" : "EP-i");
        }
    printf("\n");
}

/* One cell of Table 3: the mean error, and for the EPP schemes the packing
 * eq. 23 chooses; "-" when the cell did not run. */
static void trace_cell_text(const EppRun *run, int s, int r, int q, int b, int k, char *v, size_t n)
{
    const Opts *o = &run->o;
    const EppCell *x = cell(&run->plan, s, r, q, b, k);
    snprintf(v, n, "-");
    if (x->valid && x->runs > 0 && k == SC_RAW) {
        snprintf(v, n, "%.3f    ", x->sum / x->runs);
    } else if (x->valid && x->runs > 0) {
        const EppCondition *c = &run->cond[r * o->nloss + q];
        EppChoice ch;
        epp_choose((EppModel)(k - SC_XD), c->D, c->pd, o->bw[b], epp_stream_bps(o->rate[r]), o->rate[r], &ch);
        snprintf(v, n, "%.3f %s", x->sum / x->runs, ch.pack == EPP_PACK_PIGGYBACK ? "(p)" : "(i)");
    }
}

/* Trace columns per block of Table 3: 8 + 4 x 23 = 100 characters a line
 * (all the columns on one line made 376 or more with a few recordings). */
#define TRACE_COLS_PER_BLOCK 4

/* Columns [c0, c1) of Table 3 (column c: trace car c / nloss, loss c %
 * nloss), under their header. */
static void print_trace_block(const EppRun *run, int b, int r, int c0, int c1)
{
    const Opts *o = &run->o;
    printf("%-8s", "scheme");
    for (int c = c0; c < c1; c++) {
        char h[200];
        source_label(h, sizeof h, run->src[o->nmodels + c / o->nloss].name, " q=", o->loss[c % o->nloss], "");
        printf(" %22s", h);
    }
    printf("\n");
    const int rows[4] = {SC_RAW, SC_XD, SC_XV, SC_XA};
    for (int i = 0; i < 4; i++) {
        int k = rows[i];
        if (!o->scheme_on[k])
            continue;
        printf("%-8s", epp_exp_scheme_name(k));
        for (int c = c0; c < c1; c++) {
            char v[40];
            trace_cell_text(run, o->nmodels + c / o->nloss, r, c % o->nloss, b, k, v, sizeof v);
            printf(" %22s", v);
        }
        printf("\n");
    }
}

/* Table 3 of one bandwidth and rate: a column per trace car and loss, in
 * blocks of TRACE_COLS_PER_BLOCK columns a blank line apart. */
static void print_trace_table(const EppRun *run, int b, int r, int table_no)
{
    const Opts *o = &run->o;
    char bws[32];
    fmt_bps(o->bw[b], bws, sizeof bws);
    printf("\nTable %d: recorded traces, %d updates/s, bandwidth %s bps (raw uses %s)\n", table_no, o->rate[r], bws,
           epp_dr_name(o->raw_dr));
    int ncols = (run->nsrc - o->nmodels) * o->nloss;
    for (int c0 = 0; c0 < ncols; c0 += TRACE_COLS_PER_BLOCK) {
        if (c0 > 0)
            printf("\n");
        print_trace_block(run, b, r, c0, c0 + TRACE_COLS_PER_BLOCK < ncols ? c0 + TRACE_COLS_PER_BLOCK : ncols);
    }
}

/* The header row of the tables against the sweep's bandwidths. */
static void print_sweep_header(const Opts *o)
{
    printf("%-12s", "model loss");
    for (int b = 0; b < o->nsweep; b++) {
        char bws[32];
        fmt_bps(o->sweep[b], bws, sizeof bws);
        printf(" %9s", bws);
    }
    printf("\n");
}

/* Fig. 5 (EP-i) and its companion (EP-p) as tables: error against the
 * sweep's bandwidths, a row per model and loss. */
static void print_sweep_tables(const EppRun *run)
{
    const Opts *o = &run->o;
    for (int k = SC_EPI; k >= SC_EPP && o->nsweep > 0 && o->nmodels > 0; k--) {
        if (!o->scheme_on[k])
            continue;
        for (int r = 0; r < o->nrate; r++) {
            printf("\n%s: %s error against bandwidth, %d updates/s (- : below R = %lld bps)\n",
                   k == SC_EPI ? "Fig. 5" : "Fig. 5 companion", epp_exp_scheme_name(k), o->rate[r],
                   (long long)epp_stream_bps(o->rate[r]));
            print_sweep_header(o);
            for (int s = 0; s < o->nmodels; s++)
                for (int q = 0; q < o->nloss; q++) {
                    char h[40];
                    source_label(h, sizeof h, run->src[s].name, " ", o->loss[q], "");
                    printf("%-12s", h);
                    for (int b = 0; b < o->nsweep; b++) {
                        const EppCell *x = cell(&run->plan, s, r, q, bw_index(&run->plan, o->sweep[b]), k);
                        if (x->valid && x->runs > 0)
                            printf(" %9.3f", x->sum / x->runs);
                        else
                            printf(" %9s", "-");
                    }
                    printf("\n");
                }
        }
    }
}

/* Eq. 23's packing choice against the sweep's bandwidths. */
static void print_choice_tables(const EppRun *run)
{
    const Opts *o = &run->o;
    if (!(o->nsweep > 0 && o->nmodels > 0 && (o->scheme_on[SC_EPP] || o->scheme_on[SC_EPI])))
        return;
    for (int r = 0; r < o->nrate; r++) {
        const int64_t R = epp_stream_bps(o->rate[r]);
        printf("\nEq. 23's choice against bandwidth, %d updates/s (p: EP-p, i: EP-i)\n", o->rate[r]);
        print_sweep_header(o);
        for (int s = 0; s < o->nmodels; s++)
            for (int q = 0; q < o->nloss; q++) {
                const EppCondition *c = &run->cond[r * o->nloss + q];
                char h[40];
                source_label(h, sizeof h, run->src[s].name, " ", o->loss[q], "");
                printf("%-12s", h);
                for (int b = 0; b < o->nsweep; b++) {
                    EppChoice ch;
                    epp_choose(run->src[s].model, c->D, c->pd, o->sweep[b], R, o->rate[r], &ch);
                    printf(" %9s", o->sweep[b] < R ? "-" : ch.pack == EPP_PACK_PIGGYBACK ? "p" : "i");
                }
                printf("\n");
            }
    }
}

void epp_print_report(const EppRun *run)
{
    const Opts *o = &run->o;
    print_conditions(run);
    int table_no = 1;
    for (int b = 0; b < o->nbw && o->nmodels > 0; b++)
        for (int r = 0; r < o->nrate; r++)
            print_model_table(run, b, r, table_no++);
    if (run->nsrc > o->nmodels) {
        for (int b = 0; b < o->nbw; b++)
            for (int r = 0; r < o->nrate; r++)
                print_trace_table(run, b, r, table_no++);
        printf("(p)/(i): piggyback / independent EPPs, chosen by eq. 23\n");
    }
    print_sweep_tables(run);
    print_choice_tables(run);
}

void epp_write_csv(const EppRun *run, FILE *f)
{
    const Opts *o = &run->o;
    fprintf(f, "source,loss,rate_hz,bandwidth_bps,scheme,mean_error,runs\n");
    for (int s = 0; s < run->nsrc; s++)
        for (int r = 0; r < o->nrate; r++)
            for (int q = 0; q < o->nloss; q++)
                for (int b = 0; b < run->plan.nbwall; b++)
                    for (int k = 0; k < SC_COUNT; k++) {
                        const EppCell *x = cell(&run->plan, s, r, q, b, k);
                        if (!x->valid || x->runs == 0)
                            continue;
                        fprintf(f, "%s,%g,%d,%lld,%s,%.6f,%d\n", run->src[s].name, o->loss[q], o->rate[r],
                                (long long)run->plan.bwall[b], epp_exp_scheme_name(k), x->sum / x->runs, x->runs);
                    }
}

/* The panels compare: one x range (the sweep's) and one y range (0 to the
 * largest error plus 5 %) for all. */
static void share_ranges(PlotPanel *pn, int npanels, const double *x, int nx, double ymax)
{
    for (int r = 0; r < npanels; r++) {
        pn[r].fixed_x = pn[r].fixed_y = true;
        double lo = x[0], hi = x[0];
        for (int b = 1; b < nx; b++) {
            lo = fmin(lo, x[b]);
            hi = fmax(hi, x[b]);
        }
        pn[r].xmin = lo;
        pn[r].xmax = hi > lo ? hi : lo + 1;
        pn[r].ymin = 0;
        pn[r].ymax = ymax > 0 ? ymax * 1.05 : 1;
    }
}

/* One curve's points: the mean error over the runs at each bandwidth and
 * its 95 % interval (yy[0..n), lo, hi after it); returns the largest top. */
static double curve_points(const EppRun *run, int s, int r, int q, double *yy)
{
    const Opts *o = &run->o;
    double top = 0, *lo = yy + o->nsweep, *hi = lo + o->nsweep;
    for (int b = 0; b < o->nsweep; b++) {
        const EppCell *cl = cell(&run->plan, s, r, q, bw_index(&run->plan, o->sweep[b]), SC_EPI);
        yy[b] = cl->valid && cl->runs > 0 ? cl->sum / cl->runs : NAN;
        double h = cl->valid ? stats_ci95_sums(cl->runs, cl->sum, cl->sum2) : NAN;
        lo[b] = yy[b] - h;
        hi[b] = yy[b] + h;
        top = isfinite(hi[b]) ? fmax(top, hi[b]) : isfinite(yy[b]) ? fmax(top, yy[b]) : top;
    }
    return top;
}

/* Fig. 5: EP-i's mean error against the bandwidth with its 95 % interval
 * over the runs, one panel per update rate on one y axis, one curve per
 * motion model and loss rate; points below the stream's own rate R are
 * gaps. */
int epp_write_plot(const EppRun *run)
{
    const Opts *o = &run->o;
    int ncurves = o->nmodels * o->nloss;
    if (o->nsweep < 1 || ncurves < 1 || ncurves > PLOT_MAX_SERIES)
        return cli_fail(CMD, "--plot: Fig. 5 needs --sweep bandwidths and 1 to %d model x loss curves", PLOT_MAX_SERIES);
    double *x = calloc((size_t)o->nsweep, sizeof *x);
    double *y = calloc((size_t)o->nrate * (size_t)ncurves * (size_t)o->nsweep * 3, sizeof *y); /* mean, lo, hi */
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
        for (int s = 0; s < o->nmodels; s++)
            for (int q = 0; q < o->nloss; q++) {
                int c = s * o->nloss + q;
                source_label(labels[c], sizeof labels[c], run->src[s].name, ", loss ", o->loss[q] * 100.0, "%");
                double *yy = &y[((size_t)r * (size_t)ncurves + (size_t)c) * (size_t)o->nsweep * 3];
                ymax = fmax(ymax, curve_points(run, s, r, q, yy));
                ser[r * ncurves + c] = (PlotSeries){labels[c], x, yy, o->nsweep, true, yy + o->nsweep,
                                                    yy + 2 * o->nsweep};
            }
        snprintf(titles[r], sizeof titles[r], "EP-i, %d updates/s", o->rate[r]);
        pn[r] = (PlotPanel){.title = titles[r], .xlabel = "bandwidth C (kbit/s)",
                            .ylabel = "mean error (model units), 95 % CI", .series = &ser[r * ncurves],
                            .nseries = ncurves};
    }
    share_ranges(pn, o->nrate, x, o->nsweep, ymax);
    char title[256], name[256];
    snprintf(name, sizeof name, "netrace epp: Fig. 5, link '%.120s', %d runs x %d samples", o->link, o->runs,
             o->samples);
    cli_strip_dirs(name, title, sizeof title); /* a trace file, not its local path */
    PlotFigure fig = {.title = title, .panels = pn, .npanels = o->nrate, .cols = o->nrate,
                      .width = 800 * (o->nrate < 3 ? o->nrate : 3), .height = 640};
    NrError err = {{0}};
    if (plot_write(&fig, o->plot, &err) != 0)
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
