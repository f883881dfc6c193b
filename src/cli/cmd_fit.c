/* `netrace fit DELAYS`: the netem spec that fits measured one-way delays
 * best (linkfit.h; docs/link.md "Fit"). */
#include "cli.h"
#include "linkfit.h"
#include "nr_file.h"

#include <inttypes.h>
#include <string.h>

static int fit_run(int argc, char **argv)
{
    const char *cmd = "fit", *path = NULL, *tables = NULL, *v = NULL;
    int64_t dir = 12;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_flag_is(a, "--direction")) {
            if (!cli_value(argc, argv, &i, cmd, &v))
                return CLI_USAGE;
            if (!nr_parse_int64(v, &dir) || (dir != 12 && dir != 21))
                return cli_usage_error(cmd, "--direction: expected 12 or 21, got '%s'", v);
        } else if (cli_flag_is(a, "--tables")) {
            if (!cli_value(argc, argv, &i, cmd, &tables))
                return CLI_USAGE;
        } else if (a[0] == '-' && a[1]) {
            return cli_unknown_option(cmd, a);
        } else if (path) {
            return cli_usage_error(cmd, "one delays file, got '%s' and '%s'", path, a);
        } else {
            path = a;
        }
    }
    if (!path)
        return cli_usage_error(cmd, "expected a delays file");
    NrError err = {{0}};
    FILE *f = nr_file_open(path, "a delays file", &err);
    if (!f)
        return cli_fail(cmd, "%s", err.msg);
    DelaySeries s;
    bool ok = delays_read(f, path, (int)dir, &s, &err);
    fclose(f);
    if (!ok)
        return cli_fail(cmd, "%s", err.msg);
    LinkFit fit;
    ok = linkfit_run(&s, tables, &fit, &err);
    delays_free(&s);
    if (!ok)
        return cli_fail(cmd, "%s: %s", path, err.msg);
    const FitCandidate *b = &fit.cand[fit.best];
    printf("spec: %s\n", fit.spec);
    printf("ks: %.4f (%s)\n", b->ks, b->table);
    for (int c = 0; c < LINKFIT_CANDIDATES; c++)
        printf("candidate: %-12s ks %.4f  delay %.3f ms  jitter %.3f ms\n", fit.cand[c].table, fit.cand[c].ks,
               fit.cand[c].mu_ms, fit.cand[c].sigma_ms);
    printf("slots: %" PRId64 "\ndelivered: %" PRId64 "\nmean_ms: %.3f\nsd_ms: %.3f\n", fit.slots, fit.delivered,
           fit.mean_ms, fit.sd_ms);
    printf("loss_rate: %.5f\nloss_runs: %" PRId64 "\nmean_burst: %.3f (independent losses: %.3f)\n", fit.loss_rate,
           fit.runs, fit.mean_burst, fit.loss_rate < 1 ? 1.0 / (1.0 - fit.loss_rate) : 0.0);
    return CLI_OK;
}

const CliCommand cmd_fit = {
    .name = "fit",
    .summary = "the netem spec that fits measured one-way delays best (KS distance)",
    .usage = "netrace fit DELAYS [--direction 12|21] [--tables DIR]",
    .help = "DELAYS: a 'merge --delays' file (its --direction, default 12; missing seqs are\n"
            "lost), the output of 'netrace delays' (ms per line, 'lost'), or any one-column\n"
            "file of delays in ms. Prints the spec (mean, jitter, the distribution table among\n"
            "normal, pareto, paretonormal and uniform with the smallest Kolmogorov-Smirnov\n"
            "distance, loss; Gilbert-Elliott when the losses come in bursts), the KS distance\n"
            "of each candidate, and the sample's figures (docs/link.md \"Fit\").\n\n"
            "  --direction 12|21  the direction of a merge --delays file (default 12)\n"
            "  --tables DIR       look distribution tables up in DIR (as delays --tables)\n",
    .run = fit_run,
};
