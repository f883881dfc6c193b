/* netrace accuracy: local- versus global-clock placement of DR vectors at
 * receivers with fixed delays (accuracy paper, Sections 2-3). */
#include "accuracy.h"
#include "cli.h"
#include "fair_cli.h"
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define CMD "accuracy"

static bool write_results(const void *ctx, FILE *f, NrError *err)
{
    return accuracy_write_csv(ctx, f, err);
}

/* Two panels on one y axis: the distance between the real and the placed
 * path over time with the local clock and with the global clock, one curve
 * per delay. */
static int write_plot(const AccuracyResult *res, const char *path, const char *title)
{
    PlotSeries ser[2 * ACCURACY_MAX_DELAYS];
    char labels[ACCURACY_MAX_DELAYS][32];
    double ymax = 0;
    for (int d = 0; d < res->ndelays; d++) {
        snprintf(labels[d], sizeof labels[d], "delay %g ms", (double)res->delay_us[d] / 1000.0);
        for (int m = 0; m < 2; m++) {
            const double *y = &(m ? res->global_err : res->local_err)[(size_t)d * (size_t)res->nsamples];
            ser[m * res->ndelays + d] = (PlotSeries){labels[d], res->t_s, y, res->nsamples, false, NULL, NULL};
            for (int i = 0; i < res->nsamples; i++)
                if (isfinite(y[i]))
                    ymax = fmax(ymax, y[i]);
        }
    }
    PlotPanel panels[2] = {
        {.title = "local clock: placed from the receipt time", .xlabel = "time (s)",
         .ylabel = "real vs placed (car widths)", .series = ser, .nseries = res->ndelays},
        {.title = "global clock: placed from the timestamp", .xlabel = "time (s)",
         .ylabel = "real vs placed (car widths)", .series = ser + res->ndelays, .nseries = res->ndelays},
    };
    for (int m = 0; m < 2; m++) { /* one y axis for both: the methods compare */
        panels[m].fixed_y = true;
        panels[m].ymin = 0;
        panels[m].ymax = ymax > 0 ? ymax * 1.05 : 1;
    }
    PlotFigure fig = {.title = title, .panels = panels, .npanels = 2, .cols = 2, .width = 1600, .height = 640};
    NrError err = {{0}};
    if (plot_write(&fig, path, &err) != 0)
        return cli_fail(CMD, "%s", err.msg);
    cli_wrote(path);
    return CLI_OK;
}

/* The command line: fairness's shared options (fair_cli.h) and its own. */
typedef struct AccArgs {
    FcliOpts o;
    double delays_ms[ACCURACY_MAX_DELAYS];
    int nd;
    double offset_ms, drift_ppm, roffset_ms, rdrift_ppm;
    const char *plot;
} AccArgs;

static int parse_args(AccArgs *g, int argc, char **argv)
{
    static const char *const own[] = {"--delays", "--clock-offset", "--clock-drift", "--receiver-offset",
                                      "--receiver-drift", "--plot", NULL};
    for (int i = 1; i < argc; i++) {
        const char *a, *v;
        int mine = fcli_next(&g->o, argc, argv, &i, CMD, own, &a, &v);
        if (mine == FCLI_BAD)
            return CLI_USAGE;
        if (mine == FCLI_TAKEN)
            continue;
        bool ok = true;
        if (cli_flag_is(a, "--delays"))
            ok = fcli_ms_list(CMD, "--delays", v, g->delays_ms, ACCURACY_MAX_DELAYS, &g->nd);
        else if (cli_flag_is(a, "--clock-offset"))
            ok = cli_double(CMD, "--clock-offset", v, -3600000, 3600000, &g->offset_ms);
        else if (cli_flag_is(a, "--clock-drift"))
            ok = cli_double(CMD, "--clock-drift", v, -1e5, 1e5, &g->drift_ppm);
        else if (cli_flag_is(a, "--receiver-offset"))
            ok = cli_double(CMD, "--receiver-offset", v, -3600000, 3600000, &g->roffset_ms);
        else if (cli_flag_is(a, "--receiver-drift"))
            ok = cli_double(CMD, "--receiver-drift", v, -1e5, 1e5, &g->rdrift_ppm);
        else if (cli_flag_is(a, "--plot"))
            g->plot = v;
        else
            return cli_unknown_option(CMD, a);
        if (!ok)
            return CLI_USAGE;
    }
    return CLI_OK;
}

/* --out and --plot: files, not the recording read, not one another. */
static int check_outputs(const AccArgs *g)
{
    const char *input = g->o.recording ? g->o.recording : "recordings/default.csv";
    int rc = g->o.out ? cli_out_check(CMD, "--out", g->o.out, &input, 1) : CLI_OK;
    if (rc == CLI_OK && g->plot)
        rc = cli_out_check(CMD, "--plot", g->plot, &input, 1);
    if (rc == CLI_OK && g->plot && g->o.out)
        rc = cli_out_distinct(CMD, "--out", g->o.out, "--plot", g->plot);
    if (rc == CLI_OK && g->plot)
        rc = cli_plot_check(CMD, g->plot);
    return rc;
}

/* The table on stdout: per delay the mean distances and the export error
 * split of both methods. */
static void print_results(const AccArgs *g, const AccuracyResult *res, const char *desc)
{
    printf("accuracy: %.3f s of %s (car %lld), %lld DR vectors after the first\n", res->t_s[res->nsamples - 1], desc,
           (long long)g->o.car, (long long)res->triggers);
    printf("clocks: sender %+g ms %+g ppm, receivers %+g ms %+g ppm\n", g->offset_ms, g->drift_ppm, g->roffset_ms,
           g->rdrift_ppm);
    printf("mean distance real vs placed path (car widths); export error before/after receipt (cw*s):\n");
    printf("%9s %11s %12s %12s %12s %12s %12s\n", "delay_ms", "local_mean", "global_mean", "local_before",
           "local_after", "glob_before", "glob_after");
    for (int d = 0; d < g->nd; d++)
        printf("%9.1f %11.4f %12.4f %12.4f %12.4f %12.4f %12.4f\n", (double)res->delay_us[d] / 1000.0,
               res->mean_local[d], res->mean_global[d], res->before_local[d], res->after_local[d],
               res->before_global[d], res->after_global[d]);
}

/* Runs the sender's path rec (described by desc) to every delay and
 * writes what was asked. */
static int run_path(AccArgs *g, const Recording *rec, const char *desc)
{
    int64_t delay_us[ACCURACY_MAX_DELAYS];
    for (int d = 0; d < g->nd; d++)
        delay_us[d] = (int64_t)(g->delays_ms[d] * 1000 + 0.5);
    AccuracyConfig cfg = {
        .rec = rec,
        .car = (int)g->o.car - 1,
        .duration_us = (int64_t)(g->o.seconds * 1e6 + 0.5), /* 0: the whole path */
        .threshold_cw = g->o.threshold,
        .velocity = g->o.velocity,
        .ndelays = g->nd,
        .delay_us = delay_us,
        .clock_offset_us = (int64_t)(g->offset_ms * 1000 + (g->offset_ms < 0 ? -0.5 : 0.5)),
        .clock_drift_ppm = g->drift_ppm,
        .recv_offset_us = (int64_t)(g->roffset_ms * 1000 + (g->roffset_ms < 0 ? -0.5 : 0.5)),
        .recv_drift_ppm = g->rdrift_ppm,
    };
    AccuracyResult res;
    NrError err = {{0}};
    if (!accuracy_run(&cfg, &res, &err))
        return cli_fail(CMD, "%s: %s", desc, err.msg); /* which path, as fairness says */
    int rc = CLI_OK;
    if (g->o.out)
        fcli_write_csv(CMD, g->o.out, write_results, &res, &rc);
    if (rc == CLI_OK) {
        print_results(g, &res, desc);
        if (g->o.out)
            cli_wrote(g->o.out);
    }
    if (rc == CLI_OK && g->plot) {
        char title[4400], name[4096];
        cli_strip_dirs(desc, name, sizeof name); /* the race file, not its local path */
        snprintf(title, sizeof title, "netrace accuracy: %s, car %lld", name, (long long)g->o.car);
        rc = write_plot(&res, g->plot, title);
    }
    accuracy_result_free(&res);
    return rc;
}

static int run(int argc, char **argv)
{
    AccArgs g = {.delays_ms = {100, 300, 800}, .nd = 3};
    fcli_opts_init(&g.o);
    int rc = parse_args(&g, argc, argv);
    if (rc == CLI_OK)
        rc = check_outputs(&g);
    if (rc != CLI_OK)
        return rc;
    Recording rec;
    memset(&rec, 0, sizeof rec);
    char desc[4200];
    bool generated = false;
    if (!fcli_sender_path(CMD, g.o.recording, g.o.seconds > 0 ? g.o.seconds : 60.0, g.o.seed, &rec, desc,
                          sizeof desc, &generated, &rc))
        return rc;
    if (g.o.seconds <= 0 && generated)
        g.o.seconds = 60.0; /* else 0: the whole recording */
    if (g.o.car > rec.ncars)
        rc = cli_usage_error(CMD, "--car %lld: the recording has %d cars", (long long)g.o.car, rec.ncars);
    else
        rc = run_path(&g, &rec, desc);
    recording_free(&rec);
    return rc;
}

const CliCommand cmd_accuracy = {
    .name = "accuracy",
    .summary = "local- vs global-clock DR placement at fixed delays (accuracy paper)",
    .usage = "netrace accuracy [--delays MS,MS,...] [--seconds S] [--recording FILE|autopilot|synthetic|tank|tank-arcs] [--car N]\n"
             "[--seed N] [--threshold CW] [--clock-offset MS] [--clock-drift PPM]\n"
             "[--receiver-offset MS] [--receiver-drift PPM]\n"
             "[--velocity recorded|diff] [--out FILE.csv] [--plot FIG.png|svg|pdf]",
    .help = "Replays car 1 of a recording as a DR sender to receivers at fixed delays (default 100,\n"
            "300 and 800 ms). Each receiver places every vector twice: with its local clock\n"
            "(extrapolating from the receipt time, no timestamps) and with the global clock\n"
            "(extrapolating from the vector's timestamp). --clock-offset/--clock-drift make the\n"
            "sender's clock (and so its timestamps) wrong, --receiver-offset/--receiver-drift the\n"
            "receivers' clocks (the local method feels only the drift). --out writes\n"
            "delay_ms,t_s,local_error,global_error: the distance (car widths) between the real path\n"
            "and each placed path at every 33 ms sample. --plot draws those distances against\n"
            "time, local clock beside global clock on one y axis, one curve per delay.",
    .run = run,
};
