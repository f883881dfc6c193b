/* `netrace merge`: the two terminal logs of a network race joined into one
 * race recording (source: network) and the measured one-way delays. */
#include "cli.h"
#include "netmerge.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The delays file, written to DELAYS.part and renamed when complete. */
static int write_delays(const char *cmd, const char *path, const char *schemes, const NetDelayRow *rows, int64_t n)
{
    NrPartFile out;
    int rc = CLI_OK;
    FILE *f = cli_out_open(cmd, &out, path, &rc);
    if (!f)
        return rc;
    bool ok = netmerge_write_delays(f, schemes, rows, n);
    if (!ok)
        cli_fail(cmd, "%s: cannot write", out.part);
    if (!cli_out_close(cmd, &out, ok, &rc))
        return rc == CLI_OK ? CLI_FAIL : rc;
    cli_wrote(path);
    return CLI_OK;
}

static int merge_logs(const char *cmd, const char *pa, const char *pb, TermLog *a, TermLog *b, const char *out,
                      const char *delays)
{
    NrError err = {{0}};
    if (!termlog_load(a, pa, &err) || !termlog_load(b, pb, &err))
        return cli_fail(cmd, "%s", err.msg);
    if (!netmerge_check(a, b, &err))
        return cli_fail(cmd, "%s and %s: %s", pa, pb, err.msg);
    Recording rec;
    if (!netmerge_recording(a, b, &rec, &err))
        return cli_fail(cmd, "%s", err.msg);
    /* what replay and info would refuse is not written (positions, speeds) */
    char both[8400];
    snprintf(both, sizeof both, "%s + %s", pa, pb);
    if (!recording_in_range(&rec, both, &err)) {
        recording_free(&rec);
        return cli_fail(cmd, "%s", err.msg);
    }
    NetDelayRow *rows = NULL;
    int64_t nrows = 0;
    if (delays && !netmerge_delays(a, b, &rows, &nrows, &err)) {
        recording_free(&rec);
        return cli_fail(cmd, "%s", err.msg);
    }
    bool ok = recording_save(&rec, out, &err);
    recording_free(&rec);
    int rc = ok ? CLI_OK : cli_fail(cmd, "%s", err.msg);
    if (ok)
        cli_wrote(out);
    if (ok && delays)
        rc = write_delays(cmd, delays, (a->host ? a : b)->schemes, rows, nrows);
    free(rows);
    if (rc != CLI_OK)
        return rc;
    /* What was merged, as key: value lines. */
    const TermLog *c1 = a->car == 1 ? a : b, *c2 = c1 == a ? b : a;
    const char *p1 = c1 == a ? pa : pb, *p2 = c1 == a ? pb : pa;
    int n = netmerge_samples(a, b);
    printf("samples: %d\n", n);
    printf("duration_s: %.3f\n", (double)(n - 1) * a->period_ms / 1000.0);
    printf("car1: %s (%s, %d samples%s)\n", p1, c1->host ? "host" : "joiner", c1->nown, c1->cut ? ", cut short" : "");
    printf("car2: %s (%s, %d samples%s)\n", p2, c2->host ? "host" : "joiner", c2->nown, c2->cut ? ", cut short" : "");
    for (int d = 0; d < 2; d++) {
        NetCounts k;
        if (!netmerge_counts(a, b, d, &k))
            return cli_fail(cmd, "out of memory counting packets");
        const char *dn = d == 0 ? "12" : "21";
        printf("sent%s: %" PRId64 "\nreceived%s: %" PRId64 "\nduplicates%s: %" PRId64 "\nlost%s: %" PRId64 "\n",
               dn, k.sent, dn, k.received, dn, k.extra_copies, dn, k.lost);
    }
    if (a->nown != b->nown || a->cut || b->cut) {
        const TermLog *s = a->nown <= b->nown ? a : b;
        fprintf(stderr, "netrace merge: merged the %d samples both logs have (%s has %d, %s has %d)%s\n", n, pa,
                a->nown, pb, b->nown,
                s->cut ? ": the shorter log was cut short (a killed terminal)" : "");
    }
    return CLI_OK;
}

static int run_merge(int argc, char **argv)
{
    const char *cmd = "merge";
    const char *in[2] = {NULL, NULL}, *out = NULL, *delays = NULL;
    int nin = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_flag_is(a, "--out")) {
            if (!cli_value(argc, argv, &i, cmd, &out))
                return CLI_USAGE;
        } else if (cli_flag_is(a, "--delays")) {
            if (!cli_value(argc, argv, &i, cmd, &delays))
                return CLI_USAGE;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_unknown_option(cmd, a);
        } else if (nin == 2) {
            return cli_usage_error(cmd, "expected two logs, got '%s' too", a);
        } else {
            in[nin++] = a;
        }
    }
    if (nin < 2)
        return cli_usage_error(cmd, "expected two terminal logs (the host's and the joiner's)");
    if (!out)
        return cli_usage_error(cmd, "--out RACE.csv is required");
    if (cli_same_file(in[0], in[1]) || strcmp(in[0], in[1]) == 0)
        return cli_usage_error(cmd, "'%s' given twice: expected the two terminals' logs", in[0]);
    struct stat st;
    if (stat(out, &st) == 0) /* a race recording is never overwritten */
        return cli_usage_error(cmd, "--out %s: exists (not overwritten: give another name)", out);
    int rc = cli_out_check(cmd, "--out", out, in, 2);
    if (rc == CLI_OK && delays)
        rc = cli_out_check(cmd, "--delays", delays, in, 2);
    if (rc == CLI_OK)
        rc = cli_out_distinct(cmd, "--out", out, "--delays", delays);
    if (rc != CLI_OK)
        return rc;
    TermLog a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    rc = merge_logs(cmd, in[0], in[1], &a, &b, out, delays);
    termlog_free(&a);
    termlog_free(&b);
    return rc;
}

const CliCommand cmd_merge = {
    .name = "merge",
    .summary = "join two terminal logs of a network race into a recording and measured delays",
    .usage = "netrace merge A.log B.log --out RACE.csv [--delays DELAYS.csv]",
    .help = "A and B are the logs of the two terminals of one network race (netrace host /\n"
            "join --log; a killed terminal's FILE.part is read up to its last whole line).\n"
            "They must be of one session (token), one of car 1 and one of car 2, with the\n"
            "same period and track. The race recording (source: network) holds the samples\n"
            "both logs have; the delays file one row per MU received, in the format of the\n"
            "link form 'trace FILE' (docs/link.md \"Trace\"), so\n"
            "  netrace replay RACE.csv --link12 \"trace DELAYS.csv\" --link21 \"trace DELAYS.csv\"\n"
            "replays the race over the network's own delays. Prints what it merged as\n"
            "key: value lines (samples, duration_s, car1, car2, and per direction sent,\n"
            "received, duplicates, lost).\n\n"
            "  --out RACE.csv       the race recording (RACE.csv.part must not exist)\n"
            "  --delays DELAYS.csv  the measured one-way delays per direction",
    .run = run_merge,
};
