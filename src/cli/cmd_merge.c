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

/* The link matrix of the race's measured delays (docs/nplayers.md "On
 * the command line"): one line per ordered pair, the delays file's rows
 * of that line, for `replay --links`. */
static int write_links(const char *cmd, const char *path, const char *delays, int n, bool served)
{
    NrPartFile out;
    int rc = CLI_OK;
    FILE *f = cli_out_open(cmd, &out, path, &rc);
    if (!f)
        return rc;
    fprintf(f, "# the measured delays of every line of a %d-car network race (netrace merge)\n", n);
    for (int i = 1; i <= n && served; i++) /* each hop: the served topology replays (docs/nplayers.md) */
        fprintf(f, "%d-s trace %s direction %ds\ns-%d trace %s direction s%d\n", i, delays, i, i, delays, i);
    for (int i = 1; i <= n && !served; i++)
        for (int j = 1; j <= n; j++)
            if (i != j)
                fprintf(f, "%d-%d trace %s direction %d%d\n", i, j, delays, i, j);
    bool ok = !ferror(f);
    if (!ok)
        cli_fail(cmd, "%s: cannot write", out.part);
    if (!cli_out_close(cmd, &out, ok, &rc))
        return rc == CLI_OK ? CLI_FAIL : rc;
    cli_wrote(path);
    return CLI_OK;
}

/* What was merged, as key: value lines (two logs: as they always were). */
static int print_merged(const char *cmd, const char *const *paths, const TermLog *const *logs, int n)
{
    int ns = netmerge_samples_all(logs, n);
    printf("samples: %d\n", ns);
    printf("duration_s: %.3f\n", (double)(ns - 1) * logs[0]->period_ms / 1000.0);
    for (int c = 1; c <= n; c++)
        for (int i = 0; i < n; i++)
            if (logs[i]->car == c)
                printf("car%d: %s (%s, %d samples%s)\n", c, paths[i], logs[i]->role,
                       logs[i]->nown, logs[i]->cut ? ", cut short" : "");
    for (int a = 1; a <= n; a++)
        for (int b = 1; b <= n; b++) {
            NetCounts k;
            if (a == b || (n == 2 && a == 2)) /* two cars: 12 then 21 */
                continue;
            if (!netmerge_counts_pair(logs, n, a, b, &k))
                return cli_fail(cmd, "out of memory counting packets");
            printf("sent%d%d: %lld\nreceived%d%d: %lld\nduplicates%d%d: %lld\nlost%d%d: %lld\n", a, b,
                   (long long)k.sent, a, b, (long long)k.received, a, b, (long long)k.extra_copies, a, b,
                   (long long)k.lost);
            if (n == 2) {
                if (!netmerge_counts_pair(logs, n, b, a, &k))
                    return cli_fail(cmd, "out of memory counting packets");
                printf("sent%d%d: %lld\nreceived%d%d: %lld\nduplicates%d%d: %lld\nlost%d%d: %lld\n", b, a,
                       (long long)k.sent, b, a, (long long)k.received, b, a, (long long)k.extra_copies, b, a,
                       (long long)k.lost);
            }
        }
    bool uneven = false;
    for (int i = 0; i < n; i++)
        uneven |= logs[i]->nown != ns || logs[i]->cut;
    if (uneven && n == 2) { /* as it always said */
        const TermLog *a = logs[0], *b = logs[1], *sh = a->nown <= b->nown ? a : b;
        fprintf(stderr, "netrace merge: merged the %d samples both logs have (%s has %d, %s has %d)%s\n", ns, paths[0],
                a->nown, paths[1], b->nown, sh->cut ? ": the shorter log was cut short (a killed terminal)" : "");
    } else if (uneven) {
        fprintf(stderr, "netrace merge: merged the %d samples every log has (", ns);
        for (int i = 0; i < n; i++)
            fprintf(stderr, "%s%s has %d%s", i ? ", " : "", paths[i], logs[i]->nown, logs[i]->cut ? ", cut short" : "");
        fprintf(stderr, ")\n");
    }
    return CLI_OK;
}

/* Every log loaded; the terminals' in lp (their paths in tp), a server's
 * log in *srv (its path in *srv_path; NULL: none given). */
static int load_logs(const CliMerge *j, TermLog *logs, const TermLog **lp, const char **tp, int *n,
                     const TermLog **srv, const char **srv_path)
{
    const char *cmd = j->cmd;
    NrError err = {{0}};
    *n = 0;
    *srv = NULL;
    for (int i = 0; i < j->n; i++) {
        if (!termlog_load(&logs[i], j->paths[i], &err))
            return cli_fail(cmd, "%s", err.msg);
        if (logs[i].server && *srv)
            return cli_fail(cmd, "%s and %s are both a server's log: a race has one server", *srv_path, j->paths[i]);
        if (logs[i].server) {
            *srv = &logs[i];
            *srv_path = j->paths[i];
        } else if (*n < TERMLOG_MAX_CARS) {
            tp[*n] = j->paths[i];
            lp[(*n)++] = &logs[i];
        } else {
            return cli_fail(cmd, "more than %d terminals' logs (one per car)", TERMLOG_MAX_CARS);
        }
    }
    if (*n < 2)
        return cli_fail(cmd, "expected the logs of 2 to %d terminals, got %d%s", TERMLOG_MAX_CARS, *n,
                        *srv ? " and a server's" : "");
    return CLI_OK;
}

static int merge_logs(const CliMerge *j, TermLog *logs)
{
    const char *cmd = j->cmd, *out = j->out, *delays = j->delays, *links = j->links, *paths[TERMLOG_MAX_CARS];
    int n;
    NrError err = {{0}};
    const TermLog *lp[TERMLOG_MAX_CARS] = {0}, *srv = NULL;
    const char *srv_path = NULL;
    int rc0 = load_logs(j, logs, lp, paths, &n, &srv, &srv_path);
    if (rc0 != CLI_OK)
        return rc0;
    if (!netmerge_check_all(lp, n, &err)) {
        if (n == 2)
            return cli_fail(cmd, "%s and %s: %s", paths[0], paths[1], err.msg);
        return cli_fail(cmd, "%s ... %s (%d logs): %s", paths[0], paths[n - 1], n, err.msg);
    }
    if (srv && !netmerge_check_server(srv, lp, n, &err))
        return cli_fail(cmd, "%s: %s", srv_path, err.msg);
    Recording rec;
    if (!netmerge_recording_all(lp, n, &rec, &err))
        return cli_fail(cmd, "%s", err.msg);
    if (srv && !netmerge_server_links(srv, n, &rec)) {
        recording_free(&rec);
        return cli_fail(cmd, "%s: the downlinks do not fit the recording's header", srv_path);
    }
    /* what replay and info would refuse is not written (positions, speeds) */
    char all[8400];
    size_t len = 0;
    all[0] = '\0';
    for (int i = 0; i < n && len < sizeof all; i++)
        len += (size_t)snprintf(all + len, sizeof all - len, "%s%s", i ? " + " : "", paths[i]);
    if (!recording_in_range(&rec, all, &err)) {
        recording_free(&rec);
        return cli_fail(cmd, "%s", err.msg);
    }
    NetDelayRow *rows = NULL;
    int64_t nrows = 0;
    if (delays && (!netmerge_delays_all(lp, n, &rows, &nrows, &err) ||
                   (srv && !netmerge_hops(srv, lp, n, &rows, &nrows, &err)))) {
        free(rows);
        recording_free(&rec);
        return cli_fail(cmd, "%s", err.msg);
    }
    bool ok = recording_save(&rec, out, &err);
    recording_free(&rec);
    int rc = ok ? CLI_OK : cli_fail(cmd, "%s", err.msg);
    if (ok && !j->quiet)
        cli_wrote(out);
    if (ok && j->inputs) { /* every car's inputs: the race re-simulates from them */
        ok = netmerge_inputs_all(lp, n, j->inputs, &err);
        rc = ok ? CLI_OK : cli_fail(cmd, "%s", err.msg);
        if (ok && !j->quiet)
            cli_wrote(j->inputs);
    }
    if (ok && delays)
        rc = write_delays(cmd, delays, lp[0]->schemes, rows, nrows);
    free(rows);
    if (rc == CLI_OK && links)
        rc = write_links(cmd, links, delays, n, srv != NULL);
    if (rc == CLI_OK && !j->quiet)
        rc = print_merged(cmd, paths, lp, n);
    if (rc == CLI_OK && !j->quiet && srv)
        printf("server: %s (server, %lld MUs arrived)\n", srv_path, (long long)srv->nrx);
    return rc;
}

int cli_merge(const CliMerge *j)
{
    TermLog logs[TERMLOG_MAX_CARS + 1];
    memset(logs, 0, sizeof logs);
    int rc = merge_logs(j, logs);
    for (int i = 0; i < j->n; i++)
        termlog_free(&logs[i]);
    return rc;
}

static int run_merge(int argc, char **argv)
{
    const char *cmd = "merge";
    const char *in[TERMLOG_MAX_CARS + 1], *out = NULL, *delays = NULL, *links = NULL, *inputs = NULL;
    int nin = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_flag_is(a, "--out")) {
            if (!cli_value(argc, argv, &i, cmd, &out))
                return CLI_USAGE;
        } else if (cli_flag_is(a, "--delays")) {
            if (!cli_value(argc, argv, &i, cmd, &delays))
                return CLI_USAGE;
        } else if (cli_flag_is(a, "--links")) {
            if (!cli_value(argc, argv, &i, cmd, &links))
                return CLI_USAGE;
        } else if (cli_flag_is(a, "--inputs")) {
            if (!cli_value(argc, argv, &i, cmd, &inputs))
                return CLI_USAGE;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_unknown_option(cmd, a);
        } else if (nin == TERMLOG_MAX_CARS + 1) {
            return cli_usage_error(cmd, "expected at most %d logs (one per car and a server's), got '%s' too",
                                   TERMLOG_MAX_CARS + 1, a);
        } else {
            in[nin++] = a;
        }
    }
    if (nin < 2)
        return cli_usage_error(cmd, "expected the terminal logs of a race, one per car (two or more)");
    if (!out)
        return cli_usage_error(cmd, "--out RACE.csv is required");
    if (links && !delays)
        return cli_usage_error(cmd, "--links names the --delays file: give --delays DELAYS.csv too");
    for (int i = 0; i < nin; i++)
        for (int j = 0; j < i; j++)
            if (cli_same_file(in[i], in[j]) || strcmp(in[i], in[j]) == 0)
                return cli_usage_error(cmd, "'%s' given twice: expected each terminal's log once", in[i]);
    struct stat st;
    if (stat(out, &st) == 0) /* a race recording is never overwritten */
        return cli_usage_error(cmd, "--out %s: exists (not overwritten: give another name)", out);
    int rc = cli_out_check(cmd, "--out", out, in, nin);
    if (rc == CLI_OK && delays)
        rc = cli_out_check(cmd, "--delays", delays, in, nin);
    if (rc == CLI_OK && links)
        rc = cli_out_check(cmd, "--links", links, in, nin);
    if (rc == CLI_OK)
        rc = cli_out_distinct(cmd, "--out", out, "--delays", delays);
    if (rc == CLI_OK && links)
        rc = cli_out_distinct(cmd, "--links", links, "--delays", delays);
    if (rc == CLI_OK && links)
        rc = cli_out_distinct(cmd, "--links", links, "--out", out);
    if (rc == CLI_OK && inputs && stat(inputs, &st) == 0)
        rc = cli_usage_error(cmd, "--inputs %s: exists (not overwritten: give another name)", inputs);
    if (rc == CLI_OK && inputs)
        rc = cli_out_check(cmd, "--inputs", inputs, in, nin);
    const char *others[3] = {out, delays, links};
    for (int k = 0; k < 3 && rc == CLI_OK && inputs; k++)
        if (others[k])
            rc = cli_out_distinct(cmd, "--inputs", inputs, k == 0 ? "--out" : k == 1 ? "--delays" : "--links",
                                  others[k]);
    if (rc != CLI_OK)
        return rc;
    return cli_merge(&(CliMerge){cmd, in, nin, out, delays, links, inputs, false});
}

const CliCommand cmd_merge = {
    .name = "merge",
    .summary = "join the terminal logs of a network race into a recording and measured delays",
    .usage = "netrace merge LOG LOG [LOG...] --out RACE.csv [--delays DELAYS.csv [--links LINKS.txt]]\n"
             "  [--inputs RACE.inputs.csv]",
    .help = "The logs of every terminal of one network race (netrace host / join --log; a\n"
            "killed terminal's FILE.part is read up to its last whole line), one per car:\n"
            "the host's and the joiners' (`netrace host`, --cars N), or the N clients' of a\n"
            "`netrace serve` race. They must be of one session, one per car 1..N, with the\n"
            "same period and track. The race recording (source: network) holds the samples\n"
            "every log has; the delays\n"
            "file one row per MU received, direction IJ (car I to car J; through a server:\n"
            "end to end), in the format of the link form 'trace FILE' (docs/link.md\n"
            "\"Trace\"), so\n"
            "  netrace replay RACE.csv --link12 \"trace DELAYS.csv\" --link21 \"trace DELAYS.csv\"\n"
            "replays a two-car race over the network's own delays, and with --links\n"
            "  netrace replay RACE.csv --links LINKS.txt\n"
            "any race. A served race's server log (netrace serve --log), given among them,\n"
            "adds each client's downlink link_s_J to the recording, each MU's two hops to\n"
            "the delays (Is: client I to the server, IsJ: on from the server to J) and makes\n"
            "the link matrix of hops (I-s, s-J), so the replay runs the served topology.\n"
            "Prints what it merged as key: value lines (samples, duration_s, carI, per\n"
            "line IJ sent, received, duplicates, lost; server).\n\n"
            "  --out RACE.csv       the race recording (RACE.csv.part must not exist)\n"
            "  --delays DELAYS.csv  the measured one-way delays of every line\n"
            "  --links LINKS.txt    the link matrix: each line I-J as 'trace DELAYS.csv direction IJ'\n"
            "                       (with a server's log: I-s and s-J over the hops)\n"
            "  --inputs FILE        every car's inputs (the logs' input rows) as an input script:\n"
            "                       each car re-simulates bit for bit from it (docs/netlog.md)",
    .run = run_merge,
};
