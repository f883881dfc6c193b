/* `netrace join-shards`: the CSVs of `--shard I/N` runs (sweep, fairness,
 * epp) joined into the bytes the unsharded run writes (docs/sweeps.md). */
#include "cli.h"
#include "nr_file.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MARK "# netrace-shard: "

typedef struct Part {
    const char *path;
    int64_t i, n;
} Part;

/* Line 1 of part (its mark) and line 2 (the CSV header, into header). */
static int read_head(Part *pt, char *header, size_t cap)
{
    NrError err = {{0}};
    char line[NR_LINE_MAX];
    size_t len;
    FILE *f = nr_file_open(pt->path, "a shard's CSV", &err);
    if (!f)
        return cli_fail("join-shards", "%s", err.msg);
    int rc = CLI_OK;
    char *slash;
    if (nr_line_read(f, line, sizeof line, &len) != NR_LINE_OK || strncmp(line, MARK, strlen(MARK)) != 0 ||
        !(slash = strchr(line, '/'))) {
        rc = cli_fail("join-shards", "%s:1: expected '" MARK "I/N' (written by --shard)", pt->path);
    } else {
        *slash = '\0';
        nr_trim(slash + 1);
        if (!nr_parse_int64(line + strlen(MARK), &pt->i) || !nr_parse_int64(slash + 1, &pt->n) || pt->n < 1 ||
            pt->i < 1 || pt->i > pt->n)
            rc = cli_fail("join-shards", "%s:1: expected '" MARK "I/N' with 1 <= I <= N", pt->path);
        else if (nr_line_read(f, header, cap, &len) != NR_LINE_OK)
            rc = cli_fail("join-shards", "%s:2: expected the CSV header line", pt->path);
    }
    fclose(f);
    return rc;
}

/* Every part read, one of each shard 1..N with one header; order[i - 1] is
 * the part of shard i. */
static int check_parts(Part *parts, int n, int *order, char *header, size_t cap)
{
    char other[NR_LINE_MAX];
    for (int k = 0; k < n; k++) {
        int rc = read_head(&parts[k], k == 0 ? header : other, k == 0 ? cap : sizeof other);
        if (rc != CLI_OK)
            return rc;
        if (parts[k].n != parts[0].n)
            return cli_fail("join-shards", "%s: shard %" PRId64 "/%" PRId64 ", but %s is of %" PRId64, parts[k].path,
                            parts[k].i, parts[k].n, parts[0].path, parts[0].n);
        /* before order[] is indexed by the part's I <= N: N must be n */
        if (parts[k].n != n)
            return cli_fail("join-shards", "%d parts given, the shards are %" PRId64 ": every part is needed", n,
                            parts[k].n);
        if (k > 0 && strcmp(other, header) != 0)
            return cli_fail("join-shards", "%s:2: its CSV header differs from %s's", parts[k].path, parts[0].path);
        if (order[parts[k].i - 1] >= 0)
            return cli_fail("join-shards", "%s: shard %" PRId64 " is also %s", parts[k].path, parts[k].i,
                            parts[order[parts[k].i - 1]].path);
        order[parts[k].i - 1] = k;
    }
    return CLI_OK;
}

/* Part k's rows (from line 3) appended to out. */
static int copy_rows(const Part *pt, FILE *out)
{
    NrError err = {{0}};
    char line[NR_LINE_MAX];
    size_t len;
    FILE *f = nr_file_open(pt->path, "a shard's CSV", &err);
    if (!f)
        return cli_fail("join-shards", "%s", err.msg);
    int rc = CLI_OK;
    for (long no = 1;; no++) {
        NrLine r = nr_line_read(f, line, sizeof line, &len);
        if (r == NR_LINE_EOF)
            break;
        if (r != NR_LINE_OK) {
            rc = cli_fail("join-shards", "%s:%ld: %s", pt->path, no,
                          r == NR_LINE_LONG ? "line too long" : r == NR_LINE_NUL ? "NUL byte" : "read error");
            break;
        }
        if (no > 2)
            fwrite(line, 1, len, out);
    }
    fclose(f);
    return rc;
}

static int join_run(int argc, char **argv)
{
    const char *out = NULL;
    Part *parts = calloc((size_t)argc, sizeof *parts);
    int *order = malloc(sizeof(int) * (size_t)argc);
    int n = 0, rc = CLI_OK;
    if (!parts || !order)
        rc = cli_fail("join-shards", "out of memory");
    for (int i = 1; i < argc && rc == CLI_OK; i++) {
        if (cli_flag_is(argv[i], "--out")) {
            if (!cli_value(argc, argv, &i, "join-shards", &out))
                rc = CLI_USAGE;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            rc = cli_unknown_option("join-shards", argv[i]);
        } else {
            parts[n++].path = argv[i];
        }
    }
    if (rc == CLI_OK && (!out || n == 0))
        rc = cli_usage_error("join-shards", "expected --out FILE.csv and the shards' CSVs");
    for (int k = 0; k < argc && order; k++)
        order[k] = -1;
    char header[NR_LINE_MAX];
    if (rc == CLI_OK)
        rc = check_parts(parts, n, order, header, sizeof header);
    if (rc == CLI_OK)
        rc = cli_out_check("join-shards", "--out", out, NULL, 0);
    NrPartFile csv;
    FILE *f = rc == CLI_OK ? cli_out_open("join-shards", &csv, out, &rc) : NULL;
    if (f) {
        fputs(header, f);
        for (int s = 0; s < n && rc == CLI_OK; s++)
            rc = copy_rows(&parts[order[s]], f);
        if (cli_out_close("join-shards", &csv, rc == CLI_OK, &rc))
            cli_wrote(out);
    }
    free(parts);
    free(order);
    return rc;
}

const CliCommand cmd_join_shards = {
    .name = "join-shards",
    .summary = "join the CSVs of a sweep, fairness or epp run split with --shard I/N",
    .usage = "netrace join-shards --out FILE.csv PART.csv...",
    .help = "Each PART is the --out of one '--shard I/N' run; every I from 1 to N once, in any\n"
            "order. The joined file is byte for byte what the run without --shard writes:\n"
            "the header once, then the parts' rows in shard order (docs/sweeps.md).\n\n"
            "  --out FILE.csv    the joined CSV\n",
    .run = join_run,
};
