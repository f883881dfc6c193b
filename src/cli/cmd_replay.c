/* `netrace replay`: a recorded race over the emulated links with every
 * selected scheme side by side; the window, or the headless gauge table. */
#include "cli.h"
#include "experiment.h"
#include "race_opts.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void print_table(FILE *f, const RunResult *r, int n)
{
    fprintf(f, "%-14s %8s %9s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s\n", "scheme", "incons",
            "d1-d2", "|d1|", "|d2|", "sent12", "sent21", "lost12", "lost21", "late12", "late21",
            "disc12", "disc21");
    for (int k = 0; k < n; k++) {
        const DirCounters *a = &r[k].dir[0], *b = &r[k].dir[1];
        fprintf(f,
                "%-14s %8.4f %9.4f %7.3f %7.3f %7" PRId64 " %7" PRId64 " %7" PRId64 " %7" PRId64
                " %7" PRId64 " %7" PRId64 " %7" PRId64 " %7" PRId64 "\n",
                r[k].scheme->name, r[k].inconsistency_rate, r[k].mean_d1_minus_d2, r[k].mean_abs_d1,
                r[k].mean_abs_d2, a->sent, b->sent, a->lost, b->lost, a->late, b->late, a->discarded,
                b->discarded);
    }
}

/* Per-sample series of every scheme, long format. */
static bool write_series(const char *cmd, const char *path, const EngineConfig *cfg, int *rc)
{
    EngineConfig c = *cfg;
    c.keep_history = true;
    NrError err = {{0}};
    Engine *e = engine_new(&c, &err);
    if (!e) {
        *rc = cli_fail(cmd, "%s", err.msg);
        return false;
    }
    engine_step_to(e, engine_end_us(e));
    char tmp[4096];
    FILE *f = cli_out_open(cmd, path, tmp, sizeof tmp, rc);
    if (!f) {
        engine_free(e);
        return false;
    }
    fputs("scheme,t_ms,d1,d2,inconsistent,inconsistency_rate,mean_d1_minus_d2\n", f);
    for (int k = 0; k < engine_scheme_count(e); k++) {
        int n;
        const MetricSample *h = engine_history(e, k, &n);
        for (int i = 0; i < n; i++)
            fprintf(f, "%s,%" PRId64 ",%.6f,%.6f,%d,%.6f,%.6f\n", engine_scheme(e, k)->name,
                    h[i].t_us / NR_US_PER_MS, h[i].d1, h[i].d2, h[i].inconsistent ? 1 : 0, h[i].rate,
                    h[i].mean_d1_d2);
    }
    engine_free(e);
    return cli_out_close(cmd, f, path, tmp, true, rc);
}

static int replay_run(int argc, char **argv)
{
    const char *cmd = "replay";
    RaceOpts o;
    race_opts_init(&o);
    bool headless = false, csv = false, have_file = false;
    const char *series = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int r = race_opts_flag(&o, argc, argv, &i, cmd);
        if (r == RACE_FLAG_BAD)
            return CLI_USAGE;
        if (r == RACE_FLAG_TAKEN)
            continue;
        if (strcmp(a, "--headless") == 0) {
            headless = true;
        } else if (strcmp(a, "--csv") == 0) {
            csv = true;
        } else if (cli_flag_is(a, "--series")) {
            if (!cli_value(argc, argv, &i, cmd, &series))
                return CLI_USAGE;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_usage_error(cmd, "unknown option '%s'", a);
        } else if (have_file) {
            return cli_usage_error(cmd, "only one recording, got '%s' too", a);
        } else {
            o.recording = a;
            have_file = true;
        }
    }
    (void)headless; /* the window arrives with the app layer */
    int rc = series ? cli_out_check(cmd, "--series", series, &o.recording, 1) : CLI_OK;
    if (rc != CLI_OK) {
        race_opts_free(&o);
        return rc;
    }
    rc = race_opts_load(&o, cmd);
    if (rc != CLI_OK) {
        race_opts_free(&o);
        return rc;
    }
    EngineConfig cfg;
    race_opts_engine_config(&o, &cfg);
    RunResult res[SCHEME_MAX];
    NrError err = {{0}};
    if (!experiment_run(&cfg, res, &err)) {
        race_opts_free(&o);
        return cli_fail(cmd, "%s", err.msg);
    }
    if (csv) {
        RunKey key = {
            .delay12_ms = (double)o.link[0].delay_us / 1000.0,
            .jitter12_ms = (double)o.link[0].jitter_us / 1000.0,
            .delay21_ms = (double)o.link[1].delay_us / 1000.0,
            .jitter21_ms = (double)o.link[1].jitter_us / 1000.0,
            .delta_ms = (double)o.params.delta_us / 1000.0,
            .tdr = o.params.tdr_cw,
            .seed = o.seed,
        };
        result_csv_header(stdout);
        for (int k = 0; k < cfg.nschemes; k++)
            result_csv_row(stdout, &key, &res[k]);
    } else {
        printf("race:   %s (%.1f s, track %s)\n", o.recording,
               (double)(o.rec.nsamples - 1) * o.rec.period_ms / 1000.0, track_name(o.track));
        printf("link12: %s\nlink21: %s\n", o.link[0].text, o.link[1].text);
        printf("delta %.0f ms, T_dr %.3g cw, seed %" PRIu64 "\n\n", (double)o.params.delta_us / 1000.0,
               o.params.tdr_cw, o.seed);
        print_table(stdout, res, cfg.nschemes);
    }
    if (series && !write_series(cmd, series, &cfg, &rc)) {
        race_opts_free(&o);
        return rc;
    }
    race_opts_free(&o);
    return CLI_OK;
}

const CliCommand cmd_replay = {
    .name = "replay",
    .summary = "replay a recorded race with every scheme side by side",
    .usage = "netrace replay [FILE] [--headless] [--csv] [--series OUT.csv] [--link12 SPEC]\n"
             "  [--link21 SPEC] [--delta MS] [--tdr W] [--schemes LIST] [--seed S]",
    .help = "FILE defaults to recordings/default.csv. Without --headless the window opens\n"
            "when a display is available; otherwise one row per scheme is printed:\n"
            "inconsistency rate, mean d1-d2, mean |d1|, mean |d2| (car widths) and the MU\n"
            "counters of each direction (12 = terminal 1 to 2).\n\n"
            "  --headless        no window: print the gauge table\n"
            "  --csv             print the table as CSV (the sweep's columns)\n"
            "  --series OUT.csv  write every 33 ms metric sample of every scheme\n" RACE_OPTS_HELP,
    .run = replay_run,
};
