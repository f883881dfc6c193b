/* `netrace delays`: draw one-way delays from a link spec (the emulator's own
 * view of a netem spec), one per line or as summary statistics. */
#include "cli.h"
#include "link.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DELAYS_N_MAX INT64_C(10000000)
#define DELAYS_DEFAULT_LINK "delay 75ms 10ms distribution paretonormal"

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Print microseconds as milliseconds with three decimals, exactly. */
static void put_ms(FILE *f, int64_t us)
{
    fprintf(f, "%lld.%03lld", (long long)(us / 1000), (long long)(us % 1000));
}

/* Nearest-rank percentile of a sorted array: the ceil(q * n)-th value. */
static int64_t percentile(const int64_t *v, int64_t n, double q)
{
    int64_t k = (int64_t)ceil(q * (double)n);
    if (k < 1)
        k = 1;
    if (k > n)
        k = n;
    return v[k - 1];
}

/* The command line of `netrace delays`. */
typedef struct DelaysArgs {
    const char *spec_text;
    const char *tables; /* NULL: $TC_LIB_DIR or the system's */
    int64_t n;
    uint64_t seed;
    bool stats;
} DelaysArgs;

static int parse_args(DelaysArgs *d, int argc, char **argv)
{
    const char *cmd = "delays";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        if (cli_flag_is(a, "--link")) {
            if (!cli_value(argc, argv, &i, cmd, &val))
                return CLI_USAGE;
            d->spec_text = val;
        } else if (cli_flag_is(a, "-n") || cli_flag_is(a, "--count")) {
            if (!cli_value(argc, argv, &i, cmd, &val) || !cli_int(cmd, "-n", val, 1, DELAYS_N_MAX, &d->n))
                return CLI_USAGE;
        } else if (cli_flag_is(a, "--seed")) {
            if (!cli_value(argc, argv, &i, cmd, &val) || !cli_u64(cmd, "--seed", val, &d->seed))
                return CLI_USAGE;
        } else if (cli_flag_is(a, "--tables")) {
            if (!cli_value(argc, argv, &i, cmd, &val))
                return CLI_USAGE;
            d->tables = val;
        } else if (strcmp(a, "--stats") == 0) {
            d->stats = true;
        } else if (a[0] == '-') {
            return cli_unknown_option(cmd, a);
        } else {
            return cli_usage_error(cmd, "unexpected argument '%s'", a);
        }
    }
    return CLI_OK;
}

/* A trace that ran out before the n slots: one line on stderr saying so
 * (the slots past its last seq are "past end", not losses). */
static void note_past_end(const Link *link, int64_t n, int64_t past)
{
    if (past > 0)
        fprintf(stderr,
                "netrace delays: the trace's last seq is %ld: %lld of the %lld slots are past its end "
                "(reported as past end, not as lost)\n",
                (long)linktrace_last_seq(&link->spec.trace, 0), (long long)past, (long long)n);
}

/* One line per slot: the delay in ms, 'lost', 'past end' after a trace's
 * last seq, and 'dup MS' after a duplicated one. */
static void print_draws(Link *link, int64_t n)
{
    int64_t past = 0;
    for (int64_t k = 0; k < n; k++) {
        LinkDraw d;
        link_draw(link, &d);
        if (d.past_end) {
            fputs("past end\n", stdout);
            past++;
            continue;
        }
        if (d.lost) {
            fputs("lost\n", stdout);
            continue;
        }
        put_ms(stdout, d.delay_us);
        fputc('\n', stdout);
        if (d.dup) {
            fputs("dup ", stdout);
            put_ms(stdout, d.dup_delay_us);
            fputc('\n', stdout);
        }
    }
    note_past_end(link, n, past);
}

/* Mean, sample sd and the nearest-rank percentiles of the m delays in v
 * (sorted here), in ms; nan with none. */
static void print_spread(int64_t *v, int64_t m)
{
    if (m == 0) {
        printf("mean: nan\nsd: nan\nmin: nan\np1: nan\np50: nan\np99: nan\nmax: nan\n");
        return;
    }
    double s = 0, s2 = 0;
    for (int64_t k = 0; k < m; k++)
        s += (double)v[k];
    double mean = s / (double)m;
    for (int64_t k = 0; k < m; k++)
        s2 += ((double)v[k] - mean) * ((double)v[k] - mean);
    double sd = m > 1 ? sqrt(s2 / (double)(m - 1)) : 0.0;
    qsort(v, (size_t)m, sizeof *v, cmp_i64);
    printf("mean: %.3f\n", mean / 1000.0);
    printf("sd: %.3f\n", sd / 1000.0);
    const char *keys[] = {"min", "p1", "p50", "p99", "max"};
    int64_t vals[] = {v[0], percentile(v, m, 0.01), percentile(v, m, 0.50), percentile(v, m, 0.99), v[m - 1]};
    for (int k = 0; k < 5; k++) {
        printf("%s: ", keys[k]);
        put_ms(stdout, vals[k]);
        putchar('\n');
    }
}

/* --stats: n slots drawn, then 'key: value' lines over the delivered
 * copies (a duplicate counts as one more). Slots past a trace's end are
 * counted apart (past_end, a trace's line only) and left out of the rates:
 * the trace has nothing to say about them. */
static int print_stats(Link *link, int64_t n)
{
    int64_t *v = malloc((size_t)n * 2 * sizeof *v);
    if (!v)
        return cli_fail("delays", "out of memory for %lld samples", (long long)n);
    int64_t m = 0, lost = 0, dups = 0, past = 0;
    for (int64_t k = 0; k < n; k++) {
        LinkDraw d;
        link_draw(link, &d);
        past += d.past_end;
        if (d.past_end)
            continue;
        if (d.lost) {
            lost++;
            continue;
        }
        v[m++] = d.delay_us;
        if (d.dup) {
            dups++;
            v[m++] = d.dup_delay_us;
        }
    }
    printf("count: %lld\n", (long long)n);
    printf("delivered: %lld\n", (long long)m);
    print_spread(v, m);
    double in = (double)(n - past); /* slots the trace speaks of; none: nan */
    printf("loss_rate: %.6f\n", in > 0 ? (double)lost / in : NAN);
    printf("dup_rate: %.6f\n", in > 0 ? (double)dups / in : NAN);
    if (link->spec.trace.on)
        printf("past_end: %lld\n", (long long)past);
    printf("expected_mean: %.3f\n", linkspec_mean_ms(&link->spec));
    printf("expected_loss_rate: %.6f\n", linkspec_loss_rate(&link->spec));
    printf("spec: %s\n", link->spec.text);
    note_past_end(link, n, past);
    free(v);
    return CLI_OK;
}

static int run_delays(int argc, char **argv)
{
    DelaysArgs d = {.spec_text = DELAYS_DEFAULT_LINK, .tables = getenv("TC_LIB_DIR"), .n = 10, .seed = 1};
    if (d.tables && !*d.tables)
        d.tables = NULL;
    int rc = parse_args(&d, argc, argv);
    if (rc != CLI_OK)
        return rc;
    LinkSpec spec;
    NrError err = {{0}};
    if (!linkspec_parse(&spec, d.spec_text, d.tables, &err))
        return cli_usage_error("delays", "--link: %s", err.msg);
    Link link;
    link_init(&link, &spec, d.seed, 0);
    linkspec_free(&spec);
    if (d.stats)
        rc = print_stats(&link, d.n);
    else
        print_draws(&link, d.n);
    link_free(&link);
    return rc; /* main checks that stdout took everything */
}

const CliCommand cmd_delays = {
    .name = "delays",
    .summary = "draw one-way delays from a netem link spec",
    .usage = "netrace delays [--link SPEC] [-n N] [--seed S] [--stats] [--tables DIR]",
    .help =
        "Draws N packet slots from the delay emulator with the given netem-style spec\n"
        "(default '" DELAYS_DEFAULT_LINK "') and prints one line per slot: the\n"
        "one-way delay in ms (3 decimals), 'lost' for a lost packet, and a second line\n"
        "'dup MS' when the packet is duplicated (the copy's own delay). A trace's slots\n"
        "after its last seq print 'past end' (not a loss; a line on stderr says so).\n"
        "\n"
        "  --link SPEC   delay TIME [JITTER [CORR%]] [distribution NAME|PATH]\n"
        "                [gamma SHAPE SCALE] [loss [random] P% [CORR%] |\n"
        "                loss gemodel P [R [1-H [1-K]]]] [duplicate P% [CORR%]]\n"
        "                [order fifo]; TIME needs a unit (us, ms, s). See docs/link.md.\n"
        "  -n N          packet slots to draw (default 10, at most 10000000)\n"
        "  --seed S      random seed (default 1); the same seed gives the same output\n"
        "  --stats       print count, delivered, mean, sd, min, p1, p50, p99, max (ms,\n"
        "                over delivered copies), loss_rate, dup_rate (per slot) and the\n"
        "                spec's expected mean and loss rate as 'key: value' lines; for a\n"
        "                trace also past_end, the slots after its last seq (left out of\n"
        "                the rates)\n"
        "  --tables DIR  look up distribution NAME as DIR/NAME.dist (default: $TC_LIB_DIR,\n"
        "                else the system's iproute2 tc directories, else built-in tables)",
    .run = run_delays,
};
