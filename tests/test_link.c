/* Delay emulator: netem's tabledist arithmetic by hand, moments against
 * closed forms and the tables themselves, loss / Gilbert-Elliott /
 * duplication rates, correlation, FIFO order, determinism and bad specs;
 * measured-delay traces (`trace FILE`): the delays file by hand, its fates,
 * the DelayLine on a trace and a replayed race delivering at the trace's
 * delays. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "delayline.h"
#include "engine.h"
#include "link.h"
#include "replay.h"

/* ---- helpers ---------------------------------------------------------------- */

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* A temp file with the given content; path receives its name. */
static void temp_file(char *path, size_t n, const char *text)
{
    snprintf(path, n, "/tmp/nr_link_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    write_file(path, text);
}

static LinkSpec parse_ok(const char *text, const char *dir)
{
    LinkSpec s;
    NrError err = {{0}};
    bool ok = linkspec_parse(&s, text, dir, &err);
    if (!ok)
        fail_msg("'%s' should parse: %s", text, err.msg);
    return s;
}

typedef struct Moments {
    double mean, sd, lag1;
    int64_t n, lost, dups, zeros;
    int64_t min, max;
} Moments;

/* Draw n slots; moments of the delivered originals' delays. */
static Moments draw_moments(const char *text, uint64_t seed, int64_t n)
{
    LinkSpec s = parse_ok(text, NULL);
    Link l;
    link_init(&l, &s, seed, 0);
    Moments m = {0};
    m.min = INT64_MAX;
    m.max = INT64_MIN;
    double sum = 0, sum2 = 0, sxy = 0, prev = 0;
    int64_t pairs = 0;
    for (int64_t k = 0; k < n; k++) {
        LinkDraw d;
        link_draw(&l, &d);
        if (d.lost) {
            m.lost++;
            continue;
        }
        m.dups += d.dup;
        double x = (double)d.delay_us;
        if (m.n > 0) {
            sxy += x * prev;
            pairs++;
        }
        prev = x;
        sum += x;
        sum2 += x * x;
        m.n++;
        m.zeros += d.delay_us == 0;
        if (d.delay_us < m.min)
            m.min = d.delay_us;
        if (d.delay_us > m.max)
            m.max = d.delay_us;
    }
    m.mean = sum / (double)m.n;
    double var = sum2 / (double)m.n - m.mean * m.mean;
    m.sd = sqrt(var);
    m.lag1 = pairs > 0 && var > 0 ? (sxy / (double)pairs - m.mean * m.mean) / var : 0.0;
    link_free(&l);
    linkspec_free(&s);
    return m;
}

/* Lag-1 autocorrelation of a 0/1 sequence. */
static double lag1_of(const unsigned char *x, int64_t n)
{
    double mean = 0, var = 0, cov = 0;
    for (int64_t i = 0; i < n; i++)
        mean += x[i];
    mean /= (double)n;
    for (int64_t i = 0; i < n; i++)
        var += (x[i] - mean) * (x[i] - mean);
    for (int64_t i = 1; i < n; i++)
        cov += (x[i] - mean) * (x[i - 1] - mean);
    return var > 0 ? cov / var : 0.0;
}

/* ---- tabledist by hand ------------------------------------------------------ */

static void tabledist_uniform_by_hand(void **state)
{
    (void)state;
    /* rnd mod 2 sigma + mu - sigma with mu = 75000, sigma = 10000. */
    assert_int_equal(link_tabledist(75000, 10000, 0, NULL), 65000);
    assert_int_equal(link_tabledist(75000, 10000, 19999, NULL), 84999);
    assert_int_equal(link_tabledist(75000, 10000, 20000, NULL), 65000);
    /* 123456789 = 20000 * 6172 + 16789 */
    assert_int_equal(link_tabledist(75000, 10000, 123456789u, NULL), 81789);
    /* 4294967295 = 20000 * 214748 + 7295 */
    assert_int_equal(link_tabledist(75000, 10000, UINT32_MAX, NULL), 72295);
    /* sigma 0: constant mu whatever the random value */
    assert_int_equal(link_tabledist(75000, 0, 12345u, NULL), 75000);
    /* below zero stays below zero here; the link clamps it (send now) */
    assert_int_equal(link_tabledist(5000, 10000, 0, NULL), -5000);
}

static const int16_t hand_t[8] = {0, 8192, -12305, 4095, 32767, -32768, 4096, -4096};
/* mu + sigma * t / 8192 rounded half away from zero, mu 75 ms, sigma 10 ms:
 * 10000 * t / 8192 = 0, 10000, -15020.87, 4998.78, 39998.78, -40000, 5000, -5000 */
static const int64_t hand_d[8] = {75000, 85000, 59979, 79999, 114999, 35000, 80000, 70000};

static void tabledist_table_by_hand(void **state)
{
    (void)state;
    char path[64];
    temp_file(path, sizeof path, "# hand table\n0 8192 -12305 4095\n 32767 -32768\t4096 -4096\n");
    char text[160];
    snprintf(text, sizeof text, "delay 75ms 10ms distribution %s", path);
    LinkSpec s = parse_ok(text, NULL);
    assert_int_equal(s.table.n, 8);
    for (int i = 0; i < 8; i++) {
        assert_int_equal(s.table.v[i], hand_t[i]);
        assert_int_equal(link_tabledist(75000, 10000, (uint32_t)i, &s.table), hand_d[i]);
        /* the entry is picked by rnd mod n */
        assert_int_equal(link_tabledist(75000, 10000, (uint32_t)(8 * 1000 + i), &s.table), hand_d[i]);
    }
    /* Halves round away from zero: sigma * t / 8192 = +-0.5, +-1.5, 4096.5 */
    DistTable h = {.n = 2, .v = (int16_t[]){4096, -4096}};
    assert_int_equal(link_tabledist(1000, 1, 0, &h), 1001);
    assert_int_equal(link_tabledist(1000, 1, 1, &h), 999);
    assert_int_equal(link_tabledist(1000, 3, 0, &h), 1002);
    assert_int_equal(link_tabledist(1000, 3, 1, &h), 998);
    assert_int_equal(link_tabledist(0, 8193, 0, &h), 4097);
    assert_int_equal(link_tabledist(0, 8193, 1, &h), -4097);

    /* Draws from the link take only the hand values, each about 1/8 of the time. */
    Link l;
    link_init(&l, &s, 7, 1);
    int counts[8] = {0};
    const int n = 80000;
    for (int k = 0; k < n; k++) {
        LinkDraw d;
        link_draw(&l, &d);
        assert_false(d.lost);
        int idx = -1;
        for (int i = 0; i < 8; i++)
            if (d.delay_us == hand_d[i])
                idx = i;
        assert_true(idx >= 0);
        counts[idx]++;
    }
    for (int i = 0; i < 8; i++) /* binomial sd = sqrt(80000 / 8 * 7 / 8) = 93.5; 5 sd */
        assert_true(abs(counts[i] - n / 8) < 470);
    /* Expected delay from the table: mean of the hand values. */
    double want = 0;
    for (int i = 0; i < 8; i++)
        want += (double)hand_d[i] / 8.0;
    assert_true(fabs(linkspec_mean_ms(&s) - want / 1000.0) < 1e-9);
    link_free(&l);
    linkspec_free(&s);
    unlink(path);
}

/* ---- moments ---------------------------------------------------------------- */

static void uniform_moments(void **state)
{
    (void)state;
    const int64_t n = 200000;
    Moments m = draw_moments("delay 50ms 20ms", 11, n);
    /* integers 30000 .. 69999 equally likely: mean 49999.5, var ((2s)^2-1)/12 */
    double sd = sqrt((40000.0 * 40000.0 - 1.0) / 12.0);
    assert_true(m.min >= 30000 && m.max <= 69999);
    assert_true(m.min < 30100 && m.max > 69900);
    assert_true(fabs(m.mean - 49999.5) < 5 * sd / sqrt((double)n));
    assert_true(fabs(m.sd / sd - 1.0) < 0.01);
    LinkSpec s = parse_ok("delay 50ms 20ms", NULL);
    assert_true(fabs(linkspec_mean_ms(&s) - 49.9995) < 1e-9);
    linkspec_free(&s);
}

/* mean and sd of a table's entries, in units of sigma */
static void table_stats(const DistTable *t, double *mean, double *sd)
{
    double s = 0, s2 = 0;
    for (int i = 0; i < t->n; i++) {
        s += t->v[i];
        s2 += (double)t->v[i] * t->v[i];
    }
    *mean = s / t->n / LINK_DIST_SCALE;
    *sd = sqrt(s2 / t->n - (s / t->n) * (s / t->n)) / LINK_DIST_SCALE;
}

static void table_moments(void **state)
{
    (void)state;
    const char *names[] = {"normal", "pareto", "paretonormal"};
    const int64_t n = 200000;
    for (int k = 0; k < 3; k++) {
        char text[128];
        snprintf(text, sizeof text, "delay 100ms 10ms distribution %s", names[k]);
        LinkSpec s = parse_ok(text, NULL);
        assert_int_equal(s.table.n, 4096);
        double tm, tsd;
        table_stats(&s.table, &tm, &tsd);
        if (k == 0) { /* the normal table is a standard normal */
            assert_true(fabs(tm) < 0.01);
            assert_true(fabs(tsd - 1.0) < 0.01);
        }
        double want_mean = 100000.0 + 10000.0 * tm, want_sd = 10000.0 * tsd;
        /* linkspec_mean_ms is exact; it differs from the closed form only by
         * the per-entry rounding (at most 0.5 us). */
        assert_true(fabs(linkspec_mean_ms(&s) * 1000.0 - want_mean) <= 0.5);
        Moments m = draw_moments(text, 100 + (uint64_t)k, n);
        assert_true(fabs(m.mean - want_mean) < 5 * want_sd / sqrt((double)n));
        assert_true(fabs(m.sd / want_sd - 1.0) < 0.03);
        linkspec_free(&s);
    }
}

static void gamma_moments(void **state)
{
    (void)state;
    const int64_t n = 200000;
    Moments m = draw_moments("delay 50ms gamma 3 10ms", 5, n);
    /* kappa + Gamma(3, 10 ms): mean 50 + 30 ms, sd sqrt(3) * 10 ms */
    double sd = sqrt(3.0) * 10000.0;
    assert_true(m.min >= 50000);
    assert_true(fabs(m.mean - 80000.0) < 5 * sd / sqrt((double)n));
    assert_true(fabs(m.sd / sd - 1.0) < 0.02);
    LinkSpec s = parse_ok("delay 50ms gamma 3 10ms", NULL);
    assert_true(fabs(linkspec_mean_ms(&s) - 80.0) < 1e-9);
    linkspec_free(&s);
}

static void mean_closed_forms(void **state)
{
    (void)state;
    struct {
        const char *spec;
        double ms;
    } cases[] = {
        {"", 0.0},
        {"delay 10ms", 10.0},
        {"delay 75ms 10ms", 74.9995},   /* (65000 + 84999) / 2 us */
        {"delay 5ms 10ms", 5.624625},   /* sum 1..14999 / 20000 us, negatives sent at 0 */
        {"delay 0ms 1ms", 0.24975},     /* sum 1..999 / 2000 us */
        {"delay 50ms gamma 2 5ms", 60.0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        LinkSpec s = parse_ok(cases[i].spec, NULL);
        if (fabs(linkspec_mean_ms(&s) - cases[i].ms) > 1e-9)
            fail_msg("%s: mean %.9f, expected %.9f", cases[i].spec, linkspec_mean_ms(&s), cases[i].ms);
        linkspec_free(&s);
    }
}

static void negative_delay_sent_now(void **state)
{
    (void)state;
    const int64_t n = 200000;
    Moments m = draw_moments("delay 5ms 10ms", 9, n);
    /* -5000 .. 0 (5001 of 20000 values) leave at once */
    double p = 5001.0 / 20000.0;
    assert_int_equal(m.min, 0);
    assert_true(fabs((double)m.zeros / (double)n - p) < 5 * sqrt(p * (1 - p) / (double)n));
}

/* ---- built-in tables ----------------------------------------------------------- */

static void builtin_tables_match_installed(void **state)
{
    (void)state;
    const char *names[] = {"normal", "pareto", "paretonormal"};
    int compared = 0;
    for (int k = 0; k < 3; k++) {
        char path[128];
        snprintf(path, sizeof path, "/usr/lib/x86_64-linux-gnu/tc/%s.dist", names[k]);
        if (access(path, R_OK) != 0)
            continue;
        DistTable f, g;
        NrError err;
        assert_true(disttable_load(&f, path, &err));
        assert_true(disttable_generate(&g, names[k]));
        assert_int_equal(f.n, g.n);
        /* Tolerance: every entry within 1, at most 8 of 4096 differing (the
         * generator bisects the x grid instead of accumulating it). */
        int differ = 0;
        for (int i = 0; i < g.n; i++) {
            assert_true(abs(f.v[i] - g.v[i]) <= 1);
            differ += f.v[i] != g.v[i];
        }
        assert_true(differ <= 8);
        disttable_free(&f);
        disttable_free(&g);
        compared++;
    }
    if (compared == 0)
        skip();
}

static void builtin_tables_by_hand(void **state)
{
    (void)state;
    char dir[] = "/tmp/nr_link_dir_XXXXXX";
    assert_non_null(mkdtemp(dir));
    /* An empty table dir: the built-in tables are used. */
    LinkSpec s = parse_ok("delay 75ms 10ms distribution pareto", dir);
    assert_int_equal(s.table.n, 4096);
    /* u = 1: (1 - 1.5) * 4/3 * 8192 = -5461.33; u = 16/65536: (16 - 1.5) * 4/3 * 8192 > 32767 */
    assert_int_equal(s.table.v[0], -5461);
    assert_int_equal(s.table.v[4095], 32767);
    for (int i = 1; i < 4096; i++)
        assert_true(s.table.v[i] >= s.table.v[i - 1]);
    linkspec_free(&s);
    s = parse_ok("delay 75ms 10ms distribution normal", dir);
    /* point 8192 of 16384: the last grid x (step 0.00005) below the median
     * bin's edge is 0.00005, and rint(0.00005 * 8192) = 0; the tails clamp. */
    assert_int_equal(s.table.v[2048], 0);
    assert_int_equal(s.table.v[0], -32768);
    linkspec_free(&s);
    /* No built-in experimental table. */
    NrError err = {{0}};
    assert_false(linkspec_parse(&s, "delay 75ms 10ms distribution experimental", dir, &err));
    assert_non_null(strstr(err.msg, "experimental"));
    /* A NAME.dist in the table dir is found by name. */
    char path[96];
    snprintf(path, sizeof path, "%s/mine.dist", dir);
    write_file(path, "-8192 8192\n");
    s = parse_ok("delay 20ms 1ms distribution mine", dir);
    assert_int_equal(s.table.n, 2);
    assert_string_equal(s.table.name, "mine");
    linkspec_free(&s);
    /* A NUL byte inside a line is an error, not the end of the line. */
    FILE *nul = fopen(path, "wb");
    assert_non_null(nul);
    assert_int_equal(fwrite("1 2\0 3\n", 1, 7, nul), 7);
    fclose(nul);
    assert_false(linkspec_parse(&s, "delay 20ms 1ms distribution mine", dir, &err));
    assert_non_null(strstr(err.msg, "mine.dist:1: binary data (NUL byte)"));
    unlink(path);
    rmdir(dir);
}

/* ---- loss and duplication --------------------------------------------------------- */

static double loss_rate_of(const char *text, uint64_t seed, int64_t n)
{
    Moments m = draw_moments(text, seed, n);
    return (double)m.lost / (double)n;
}

static void random_loss_rate(void **state)
{
    (void)state;
    const int64_t n = 200000;
    assert_true(fabs(loss_rate_of("delay 10ms loss 10%", 3, n) - 0.10) < 5 * sqrt(0.09 / n));
    assert_true(fabs(loss_rate_of("loss random 2.5%", 4, n) - 0.025) < 5 * sqrt(0.025 * 0.975 / n));
    assert_true(loss_rate_of("loss 0%", 5, 10000) == 0.0);
    assert_true(loss_rate_of("loss 100%", 6, 10000) == 1.0);
}

static void gemodel_loss_rate(void **state)
{
    (void)state;
    /* pi_bad = p / (p + r) = 0.05 / 0.25; loss = 0.8 * 1% + 0.2 * 70% = 0.148 */
    LinkSpec s = parse_ok("loss gemodel 5% 20% 70% 1%", NULL);
    assert_true(fabs(linkspec_loss_rate(&s) - 0.148) < 1e-12);
    linkspec_free(&s);
    /* The chain mixes with 1 - p - r = 0.75: the variance of the mean grows
     * about (1 + 0.75) / (1 - 0.75) = 7 fold; 5 such standard errors. */
    const int64_t n = 400000;
    double tol = 5 * sqrt(0.148 * 0.852 * 7 / n);
    assert_true(fabs(loss_rate_of("loss gemodel 5% 20% 70% 1%", 8, n) - 0.148) < tol);
    /* tc's defaults: r = 1 - p, 1-h = 100%, 1-k = 0: loss rate p, no memory */
    s = parse_ok("loss gemodel 10%", NULL);
    assert_true(fabs(s.ge_r - 0.9) < 1e-12 && s.ge_h == 1.0 && s.ge_k == 0.0);
    assert_true(fabs(linkspec_loss_rate(&s) - 0.1) < 1e-12);
    linkspec_free(&s);
    assert_true(fabs(loss_rate_of("loss gemodel 10%", 9, n) - 0.1) < 5 * sqrt(0.09 / n));
}

static void gemodel_burst_length(void **state)
{
    (void)state;
    /* Simple Gilbert (1-h = 100%, 1-k = 0): losses come in runs that last as
     * long as the bad state, geometric with mean 1 / r = 10 packets; the loss
     * rate is p / (p + r) = 1/11. */
    LinkSpec s = parse_ok("loss gemodel 1% 10%", NULL);
    Link l;
    link_init(&l, &s, 21, 0);
    const int64_t n = 1000000;
    int64_t lost = 0, runs = 0;
    bool prev = false;
    for (int64_t k = 0; k < n; k++) {
        LinkDraw d;
        link_draw(&l, &d);
        lost += d.lost;
        runs += d.lost && !prev;
        prev = d.lost;
    }
    double mean_run = (double)lost / (double)runs;
    /* about 9000 runs, run sd sqrt(0.9) / 0.1 = 9.5: standard error 0.1 */
    assert_true(fabs(mean_run - 10.0) < 0.5);
    assert_true(fabs((double)lost / (double)n - 1.0 / 11.0) < 0.006);
    link_free(&l);
    linkspec_free(&s);
}

static void duplicate_rate(void **state)
{
    (void)state;
    const int64_t n = 200000;
    Moments m = draw_moments("delay 10ms duplicate 20% loss 10%", 12, n);
    /* netem: duplicate then loss; one copy survives a loss of a duplicated
     * packet, and the copy faces its own loss draw. */
    double p_lost = 0.8 * 0.1, p_dup = 0.2 * 0.9 * 0.9;
    assert_true(fabs((double)m.lost / n - p_lost) < 5 * sqrt(p_lost * (1 - p_lost) / n));
    assert_true(fabs((double)m.dups / n - p_dup) < 5 * sqrt(p_dup * (1 - p_dup) / n));

    /* The copy has its own delay draw. */
    LinkSpec s = parse_ok("delay 50ms 20ms duplicate 100%", NULL);
    Link l;
    link_init(&l, &s, 13, 0);
    int same = 0;
    for (int k = 0; k < 10000; k++) {
        LinkDraw d;
        link_draw(&l, &d);
        assert_true(d.dup && !d.lost);
        assert_true(d.dup_delay_us >= 30000 && d.dup_delay_us < 70000);
        same += d.dup_delay_us == d.delay_us;
    }
    assert_true(same < 10); /* P(equal) = 1 / 40000 */
    link_free(&l);
    linkspec_free(&s);
}

/* ---- correlation ------------------------------------------------------------------- */

static void corr_by_hand(void **state)
{
    (void)state;
    LinkCorr c = {.last = 1000, .rho = 0};
    assert_int_equal(link_corr_next(&c, 3000), 3000);
    assert_int_equal(c.last, 1000); /* no correlation: state untouched */
    /* rho + 1 = 2^31: (3000 * 2^31 + 1000 * 2^31) >> 32 = 2000 */
    c.rho = 2147483647u;
    assert_int_equal(link_corr_next(&c, 3000), 2000);
    assert_int_equal(c.last, 2000);
    /* rho = ~0 (100%): the value never moves */
    c.rho = UINT32_MAX;
    assert_int_equal(link_corr_next(&c, 123456), 2000);
    /* rho + 1 = 2^30: (4000 * 3 * 2^30 + 2000 * 2^30) >> 32 = 3500 */
    c.rho = (1u << 30) - 1;
    assert_int_equal(link_corr_next(&c, 4000), 3500);
}

static void corr_stream_is_ar1(void **state)
{
    (void)state;
    /* next = (1 - rho) fresh + rho last is AR(1): lag-1 autocorrelation rho. */
    LinkCorr c = {.last = 1u << 31, .rho = (uint32_t)rint(0.75 * UINT32_MAX)};
    Rng r;
    rng_seed(&r, 17, 0);
    const int n = 200000;
    double s = 0, s2 = 0, sxy = 0, prev = 0;
    for (int i = 0; i < n; i++) {
        double x = (double)link_corr_next(&c, (uint32_t)(rng_u64(&r) >> 32)) / 4294967296.0;
        s += x;
        s2 += x * x;
        if (i > 0)
            sxy += x * prev;
        prev = x;
    }
    double mean = s / n, var = s2 / n - mean * mean;
    double lag1 = (sxy / (n - 1) - mean * mean) / var;
    assert_true(fabs(lag1 - 0.75) < 0.01);
    assert_true(fabs(mean - 0.5) < 0.01);
    /* variance of AR(1) with U(0,1) innovations: (1-rho)^2 / 12 / (1 - rho^2) */
    assert_true(fabs(var - 0.0625 / 12.0 / 0.4375) < 0.001);
}

static void correlation_raises_lag1(void **state)
{
    (void)state;
    const int64_t n = 200000;
    unsigned char *x = malloc((size_t)n);
    assert_non_null(x);
    const char *specs[] = {"loss 30%", "loss 30% 75%", "duplicate 30%", "duplicate 30% 75%"};
    double lag[4], rate[4];
    for (int k = 0; k < 4; k++) {
        LinkSpec s = parse_ok(specs[k], NULL);
        Link l;
        link_init(&l, &s, 31, 0);
        int64_t hits = 0;
        for (int64_t i = 0; i < n; i++) {
            LinkDraw d;
            link_draw(&l, &d);
            x[i] = k < 2 ? d.lost : d.dup;
            hits += x[i];
        }
        lag[k] = lag1_of(x, n);
        rate[k] = (double)hits / n;
        link_free(&l);
        linkspec_free(&s);
    }
    /* uncorrelated: standard error 1/sqrt(n) = 0.0022 */
    assert_true(fabs(lag[0]) < 0.012 && fabs(lag[2]) < 0.012);
    assert_true(lag[1] > 0.2 && lag[3] > 0.2);
    /* netem's approximation concentrates the correlated value around its
     * mean (variance 0.143 of the uniform's at 75%), so the rate of events
     * below a 30% threshold falls well under 30% (docs/link.md). */
    assert_true(rate[1] < 0.2 && rate[3] < 0.2);
    assert_true(fabs(rate[0] - 0.3) < 0.01 && fabs(rate[2] - 0.3) < 0.01);
    free(x);
}

static void delay_correlation_as_netem(void **state)
{
    (void)state;
    /* netem takes the correlated value modulo 2 sigma (or the table size),
     * which keeps only its low bits: the delays stay nearly uncorrelated and
     * uniform. netrace reproduces that (docs/link.md). */
    const int64_t n = 200000;
    Moments m0 = draw_moments("delay 100ms 20ms", 41, n);
    Moments m1 = draw_moments("delay 100ms 20ms 75%", 41, n);
    assert_true(fabs(m0.lag1) < 0.012);
    assert_true(fabs(m1.lag1) < 0.012);
    double sd = 40000.0 / sqrt(12.0);
    assert_true(fabs(m1.mean - 99999.5) < 5 * sd / sqrt((double)n));
}

/* ---- order ---------------------------------------------------------------------------- */

static void fifo_versus_reorder(void **state)
{
    (void)state;
    LinkSpec fifo = parse_ok("delay 100ms 50ms order fifo", NULL);
    LinkSpec due = parse_ok("delay 100ms 50ms", NULL);
    assert_true(fifo.fifo);
    assert_false(due.fifo);
    /* by hand */
    int64_t last = INT64_MIN;
    assert_int_equal(linkspec_order_due(&fifo, &last, 100), 100);
    assert_int_equal(linkspec_order_due(&fifo, &last, 90), 100);
    assert_int_equal(linkspec_order_due(&fifo, &last, 150), 150);
    last = INT64_MIN;
    assert_int_equal(linkspec_order_due(&due, &last, 100), 100);
    assert_int_equal(linkspec_order_due(&due, &last, 90), 90);
    assert_int_equal(linkspec_order_due(&due, &last, 150), 150);

    /* MUs every 33 ms over +-50 ms of jitter: due times reorder often unless fifo. */
    Link lf, lr;
    link_init(&lf, &fifo, 50, 0);
    link_init(&lr, &due, 50, 0);
    int64_t prev_f = INT64_MIN, prev_r = INT64_MIN;
    int inversions = 0;
    const int n = 10000;
    for (int k = 0; k < n; k++) {
        int64_t send = 33000 * (int64_t)k;
        LinkDraw df, dr;
        link_draw(&lf, &df);
        link_draw(&lr, &dr);
        assert_int_equal(df.delay_us, dr.delay_us); /* same seed, same draws */
        int64_t own = send + df.delay_us;
        int64_t tf = link_fifo_due(&lf, own);
        int64_t tr = link_fifo_due(&lr, send + dr.delay_us);
        assert_true(tf >= own);
        assert_true(tf >= prev_f);
        assert_int_equal(tr, send + dr.delay_us);
        inversions += tr < prev_r;
        prev_f = tf;
        prev_r = tr;
    }
    /* P(d_k - d_{k-1} < -33 ms) for the difference of two U(-50, 50) ms is
     * (100 - 33)^2 / 2 / 100^2 = 0.224 */
    assert_true(fabs((double)inversions / n - 0.22445) < 0.02);
    link_free(&lf);
    link_free(&lr);
    linkspec_free(&fifo);
    linkspec_free(&due);
}

/* ---- determinism ------------------------------------------------------------------------ */

static void seed_determinism(void **state)
{
    (void)state;
    LinkSpec s = parse_ok("delay 75ms 10ms 25% distribution paretonormal loss 5% 10% duplicate 5%", NULL);
    Link a, b, c;
    link_init(&a, &s, 99, 3);
    link_init(&b, &s, 99, 3);
    link_init(&c, &s, 99, 4);
    int differ = 0;
    for (int k = 0; k < 5000; k++) {
        LinkDraw x, y, z;
        link_draw(&a, &x);
        link_draw(&b, &y);
        link_draw(&c, &z);
        assert_true(x.lost == y.lost && x.delay_us == y.delay_us && x.dup == y.dup &&
                    x.dup_delay_us == y.dup_delay_us);
        differ += x.lost != z.lost || x.delay_us != z.delay_us;
    }
    assert_true(differ > 4000);
    /* A live change to the same spec leaves the streams where they are. */
    link_set_spec(&a, &s);
    for (int k = 0; k < 1000; k++) {
        LinkDraw x, y;
        link_draw(&a, &x);
        link_draw(&b, &y);
        assert_true(x.lost == y.lost && x.delay_us == y.delay_us);
    }
    /* A live change to another spec takes effect at once. */
    LinkSpec t = parse_ok("delay 10ms", NULL);
    link_set_spec(&a, &t);
    for (int k = 0; k < 100; k++) {
        LinkDraw x;
        link_draw(&a, &x);
        assert_true(!x.lost && x.delay_us == 10000);
    }
    link_free(&a);
    link_free(&b);
    link_free(&c);
    linkspec_free(&s);
    linkspec_free(&t);
}

/* ---- grammar ------------------------------------------------------------------------------ */

static void canonical_round_trip(void **state)
{
    (void)state;
    struct {
        const char *in, *out;
    } cases[] = {
        {"", "none"},
        {"none", "none"},
        {"  delay   75ms  10ms distribution paretonormal ", "delay 75ms 10ms distribution paretonormal"},
        {"latency 1.5s 100usec 25 drop 2", "delay 1500ms 100us 25% loss 2%"},
        {"delay 75000us 0.01s", "delay 75ms 10ms"},
        {"loss random 3% 5% duplicate 1% 10% order fifo delay 5ms", "delay 5ms loss 3% 5% duplicate 1% 10% order fifo"},
        {"delay 50ms gamma 3 10ms loss 5%", "delay 50ms gamma 3 10ms loss 5%"},
        {"loss gemodel 1%", "loss gemodel 1% 99% 100% 0%"},
        {"delay 2S order due", "delay 2s"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        LinkSpec s = parse_ok(cases[i].in, NULL);
        assert_string_equal(s.text, cases[i].out);
        LinkSpec t = parse_ok(s.text, NULL);
        assert_string_equal(t.text, s.text);
        assert_true(t.delay_us == s.delay_us && t.jitter_us == s.jitter_us && t.loss_kind == s.loss_kind &&
                    t.loss_p == s.loss_p && t.dup_p == s.dup_p && t.fifo == s.fifo && t.gamma == s.gamma);
        linkspec_free(&s);
        linkspec_free(&t);
    }
    LinkSpec s = parse_ok("delay 75ms 10ms 25% loss 2% 50% duplicate 1%", NULL);
    assert_true(s.delay_us == 75000 && s.jitter_us == 10000);
    assert_true(fabs(s.delay_corr - 0.25) < 1e-12 && fabs(s.loss_p - 0.02) < 1e-12);
    assert_true(fabs(s.loss_corr - 0.5) < 1e-12 && fabs(s.dup_p - 0.01) < 1e-12);
    assert_int_equal(s.loss_kind, LINK_LOSS_RANDOM);
    LinkSpec c;
    assert_true(linkspec_copy(&c, &s));
    assert_string_equal(c.text, s.text);
    linkspec_free(&s);
    linkspec_free(&c);
}

static void bad_specs(void **state)
{
    (void)state;
    char bad1[64], bad2[64], bad3[64], bad4[64];
    temp_file(bad1, sizeof bad1, "1 2 x3\n");
    temp_file(bad2, sizeof bad2, "# comment\n1 2\n\n3 abc\n");
    temp_file(bad3, sizeof bad3, "# only a comment\n\n");
    temp_file(bad4, sizeof bad4, "0 40000\n");
    char empty_dir[] = "/tmp/nr_link_dir_XXXXXX";
    assert_non_null(mkdtemp(empty_dir));
    char s1[192], s2[192], s3[192], s4[192];
    snprintf(s1, sizeof s1, "delay 75ms 10ms distribution %s", bad1);
    snprintf(s2, sizeof s2, "delay 75ms 10ms distribution %s", bad2);
    snprintf(s3, sizeof s3, "delay 75ms 10ms distribution %s", bad3);
    snprintf(s4, sizeof s4, "delay 75ms 10ms distribution %s", bad4);
    char w1[192], w2[192], w3[192], w4[192];
    snprintf(w1, sizeof w1, "%s:1: expected integers from -32768 to 32767, got 'x3'", bad1);
    snprintf(w2, sizeof w2, "%s:4:", bad2);
    snprintf(w3, sizeof w3, "%s:2: no table entries", bad3);
    snprintf(w4, sizeof w4, "%s:1: value 40000 out of range", bad4);
    struct {
        const char *spec, *want;
    } cases[] = {
        {"delay 75", "delay '75': missing unit"},
        {"delay 75ms 10", "jitter '10': missing unit"},
        {"delay 75ms -10ms", "negative jitter '-10ms'"},
        {"delay -5ms", "negative delay '-5ms'"},
        {"delay 10parsecs", "unknown unit 'parsecs'"},
        {"delay 3000s", "too large"},
        {"delay", "'delay' at the end"},
        {"loss 150%", "loss '150%': expected a percentage from 0% to 100%"},
        {"loss", "'loss' at the end"},
        {"loss sometimes", "loss 'sometimes'"},
        {"loss gemodel", "'loss gemodel' at the end"},
        {"loss gemodel 1% 200%", "loss gemodel r '200%'"},
        {"loss state 1%", "not supported"},
        {"duplicate -5%", "duplicate '-5%': expected a percentage from 0% to 100%"},
        {"delay 10ms 5ms 120%", "delay correlation '120%'"},
        {"frob", "unknown keyword 'frob'"},
        {"delay 10ms 5ms 25% 3%", "unexpected number '3%'"},
        {"delay 10ms delay 20ms", "'delay' given twice"},
        {"loss 1% drop 2%", "'drop' given twice"},
        {"order lifo", "order 'lifo'"},
        {"delay 50ms 5ms gamma 3 10ms", "gamma with jitter"},
        {"delay 50ms 5ms distribution normal gamma 3 10ms", "gamma with jitter"},
        {"delay 50ms distribution normal gamma 3 10ms", "gamma with distribution"},
        {"gamma 0 10ms", "gamma shape '0'"},
        {"gamma 3", "'gamma SHAPE' at the end"},
        {"gamma 3 10", "gamma scale '10': missing unit"},
        {"gamma 3 0ms", "gamma scale '0ms'"},
        {"reorder 25%", "netem option 'reorder' is not supported"},
        {"none delay 10ms", "'none' must be the whole spec"},
        {"delay 75ms 10ms distribution /nonexistent/x.dist", "/nonexistent/x.dist: cannot open"},
        {"delay 75ms 10ms distribution", "'distribution' at the end"},
        {"delay 75ms 10ms distribution no*such", "distribution 'no*such'"},
        {s1, w1},
        {s2, w2},
        {s3, w3},
        {s4, w4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        LinkSpec s;
        NrError err = {{0}};
        if (linkspec_parse(&s, cases[i].spec, NULL, &err))
            fail_msg("'%s' should be rejected", cases[i].spec);
        if (!strstr(err.msg, cases[i].want))
            fail_msg("'%s': message '%s' lacks '%s'", cases[i].spec, err.msg, cases[i].want);
        assert_null(strchr(err.msg, '\n'));
        assert_string_equal(s.text, "none");
        assert_int_equal(s.table.n, 0);
        linkspec_free(&s);
    }
    LinkSpec s;
    NrError err = {{0}};
    assert_false(linkspec_parse(&s, "delay 10ms 1ms distribution nosuchtable", empty_dir, &err));
    assert_non_null(strstr(err.msg, "distribution 'nosuchtable'"));
    unlink(bad1);
    unlink(bad2);
    unlink(bad3);
    unlink(bad4);
    rmdir(empty_dir);
}

/* ---- measured-delay traces ------------------------------------------------ */

#define MS NR_US_PER_MS

/* The hand-written trace of most tests. Direction 12: seq 0 at 40 ms, seq 1
 * at 50 ms, seq 2 missing (lost), seq 3 at 30 ms with a second copy at
 * 61 ms (rows in reverse order: the earlier arrival is the packet), seq 4
 * measured at -2 ms (clock error: sent at once). Direction 21: seq 0 at
 * 70 ms, seq 1 at 20 ms plus a parity packet of seq 1 at 25 ms. */
static const char *TRACE_TEXT = "# netrace delays 1\n"
                                "direction,seq,kind,sent_us,arrival_us,delay_us\n"
                                "12,0,update,0,40000,40000\n"
                                "12,1,update,33000,83000,50000\n"
                                "12,3,update,99000,160000,61000\n"
                                "12,3,update,99000,129000,30000\n"
                                "\n"
                                "12,4,update,132000,130000,-2000\n"
                                "21,0,update,0,70000,70000\n"
                                "21,1,update,33000,53000,20000\n"
                                "21,1,parity,33000,58000,25000\n";

static void expect_fate(const LinkTrace *t, int dir, int32_t seq, bool aux, bool lost, int64_t delay_us,
                        int64_t dup_us)
{
    LinkDraw d;
    linktrace_fate(t, dir, seq, aux, &d);
    assert_int_equal(d.lost, lost);
    if (lost)
        return;
    assert_int_equal(d.delay_us, delay_us);
    assert_int_equal(d.dup, dup_us >= 0);
    if (dup_us >= 0)
        assert_int_equal(d.dup_delay_us, dup_us);
}

/* An N-car race's delays file (netrace merge of 3 logs): `trace FILE
 * direction 13` takes the rows of line 1 -> 3 alone, as direction 12 is
 * taken; the other lines' rows (12 and 21 too) are skipped and counted
 * (before, 12's rows joined 13's: extra copies that the replay delivered). */
static void trace_of_one_line_of_many(void **state)
{
    (void)state;
    char path[64];
    temp_file(path, sizeof path,
              "direction,seq,kind,sent_us,arrival_us,delay_us\n"
              "12,0,update,0,40000,40000\n13,0,update,0,7000,7000\n13,1,update,33000,45000,12000\n"
              "31,0,update,0,9000,9000\n32,1,update,33000,34000,1000\n21,0,update,0,5000,5000\n");
    LinkSpec s;
    NrError err = {{0}};
    char spec[128];
    snprintf(spec, sizeof spec, "trace %s direction 13", path);
    assert_true(linkspec_parse(&s, spec, NULL, &err));
    assert_int_equal(s.trace.named, 13);
    assert_int_equal(s.trace.rows, 2); /* 13's alone */
    assert_int_equal(s.trace.other_directions, 4);
    LinkDraw d;
    for (int dir = 0; dir < 5; dir++) { /* whatever line the engine draws it for */
        linktrace_fate(&s.trace, dir, 0, false, &d);
        assert_false(d.lost);
        assert_int_equal(d.delay_us, 7000);
        linktrace_fate(&s.trace, dir, 1, false, &d);
        assert_int_equal(d.delay_us, 12000);
    }
    linkspec_free(&s);
    assert_int_equal(linktrace_direction("87"), 87);
    assert_int_equal(linktrace_direction("88"), 0);
    assert_int_equal(linktrace_direction("09"), 0);
    assert_int_equal(linktrace_direction("123"), 0);
    remove(path);
}

static void fates_by_hand(void **state)
{
    (void)state;
    char path[64];
    temp_file(path, sizeof path, TRACE_TEXT);
    LinkTrace t;
    NrError err = {{0}};
    assert_true(linktrace_load(&t, path, &err));
    assert_true(t.on);
    assert_int_equal(t.rows, 8);
    assert_int_equal(t.n[0], 4); /* seqs 0, 1, 3, 4 */
    assert_int_equal(t.n[1], 2);
    assert_false(t.parity[0]);
    assert_true(t.parity[1]);
    expect_fate(&t, 0, 0, false, false, 40 * MS, -1);
    expect_fate(&t, 0, 1, false, false, 50 * MS, -1);
    expect_fate(&t, 0, 2, false, true, 0, -1);          /* not in the trace: lost */
    expect_fate(&t, 0, 3, false, false, 30 * MS, 61 * MS); /* earliest is the packet */
    expect_fate(&t, 0, 4, false, false, 0, -1);          /* negative: at once */
    expect_fate(&t, 0, 5, false, true, 0, -1);           /* past the end: lost */
    expect_fate(&t, 0, -1, false, true, 0, -1);
    /* No parity rows on 12: a slot's further packets share its fate. */
    expect_fate(&t, 0, 1, true, false, 50 * MS, -1);
    expect_fate(&t, 0, 2, true, true, 0, -1);
    expect_fate(&t, 1, 0, false, false, 70 * MS, -1);
    expect_fate(&t, 1, 1, false, false, 20 * MS, -1);
    /* Parity rows on 21: the parity packet's own fate, lost where absent. */
    expect_fate(&t, 1, 1, true, false, 25 * MS, -1);
    expect_fate(&t, 1, 0, true, true, 0, -1);
    /* A named direction overrides the link's. */
    t.named = 21;
    expect_fate(&t, 0, 0, false, false, 70 * MS, -1);
    t.named = 0;
    /* A deep copy outlives the original. */
    LinkTrace c;
    assert_true(linktrace_copy(&c, &t));
    linktrace_free(&t);
    expect_fate(&c, 0, 3, false, false, 30 * MS, 61 * MS);
    linktrace_free(&c);
    linktrace_free(&c); /* freeing twice is safe */
    unlink(path);
}

/* Copies beyond the second of one packet are counted and ignored. */
static void third_copy_ignored(void **state)
{
    (void)state;
    char path[64];
    temp_file(path, sizeof path, "seq,delay_us,direction\n5,9000,12\n5,7000,12\n5,8000,12\n");
    LinkTrace t;
    NrError err = {{0}};
    assert_true(linktrace_load(&t, path, &err));
    assert_int_equal(t.extra_copies, 1);
    expect_fate(&t, 0, 5, false, false, 7 * MS, 8 * MS);
    linktrace_free(&t);
    unlink(path);
}

/* Several packets of one slot (live play sends an EPP scheme's piggybacked
 * update apart from the shared one): the packet naming the most schemes is
 * taken, then the earliest; copies are rows of the same pkt_seq. */
static void slot_takes_the_shared_packet(void **state)
{
    (void)state;
    char path[64];
    temp_file(path, sizeof path,
              "direction,seq,pkt_seq,schemes,delay_us\n"
              "12,5,10,1,20000\n"  /* one scheme's own packet, earliest */
              "12,5,11,7,45000\n"  /* the shared packet's second copy */
              "12,5,11,7,30000\n"  /* the shared packet (3 schemes) */
              "12,6,12,3,10000\n"
              "12,6,13,3,8000\n"); /* same schemes count: the earlier */
    LinkTrace t;
    NrError err = {{0}};
    if (!linktrace_load(&t, path, &err))
        fail_msg("%s", err.msg);
    expect_fate(&t, 0, 5, false, false, 30 * MS, 45 * MS);
    expect_fate(&t, 0, 6, false, false, 8 * MS, -1);
    assert_int_equal(t.other_packets, 2);
    assert_int_equal(t.extra_copies, 0);
    linktrace_free(&t);
    unlink(path);
}

/* Columns in any order, unknown ones ignored, R's quoted header. */
static void columns_by_name(void **state)
{
    (void)state;
    char path[64];
    temp_file(path, sizeof path, "\"\",\"delay_us\",\"note\",\"seq\",\"direction\"\r\n\"1\",12000,x,0,\"21\"\r\n");
    LinkTrace t;
    NrError err = {{0}};
    if (!linktrace_load(&t, path, &err))
        fail_msg("%s", err.msg);
    expect_fate(&t, 1, 0, false, false, 12 * MS, -1);
    expect_fate(&t, 0, 0, false, true, 0, -1);
    linktrace_free(&t);
    unlink(path);
}

static void expect_bad(const char *text, const char *msg)
{
    char path[64];
    temp_file(path, sizeof path, text);
    LinkTrace t;
    NrError err = {{0}};
    assert_false(linktrace_load(&t, path, &err));
    assert_false(t.on);
    assert_null(t.slot[0]);
    char want[600];
    snprintf(want, sizeof want, "%s:%s", path, msg);
    if (strcmp(err.msg, want) != 0)
        fail_msg("got '%s', expected '%s'", err.msg, want);
    unlink(path);
}

static void bad_files(void **state)
{
    (void)state;
    const char *H = "direction,seq,delay_us\n";
    char buf[512];
    expect_bad("", "1: no header row: expected 'direction,seq,kind,sent_us,arrival_us,delay_us'");
    expect_bad("# only a comment\n", "1: no header row: expected 'direction,seq,kind,sent_us,arrival_us,delay_us'");
    expect_bad("direction,seq\n12,0\n", "1: no column 'delay_us': expected a header row naming direction, seq "
                                        "and delay_us (optional: kind, sent_us, arrival_us)");
    expect_bad("seq,seq,direction,delay_us\n", "1: column 'seq' twice: expected each column once");
    snprintf(buf, sizeof buf, "%s12,0,40000\n19,1,5\n", H);
    expect_bad(buf, "3: direction '19': expected two terminals IJ of 1 to 8 such as 12 (terminal 1 to 2) or 21, "
                    "or a served race's hop Is or IsJ");
    snprintf(buf, sizeof buf, "%s12,0,40000\n33,1,5\n", H);
    expect_bad(buf, "3: direction '33': expected two terminals IJ of 1 to 8 such as 12 (terminal 1 to 2) or 21, "
                    "or a served race's hop Is or IsJ");
    snprintf(buf, sizeof buf, "%s12,-1,40000\n", H);
    expect_bad(buf, "2: seq '-1': expected an integer from 0 to 2147483647");
    snprintf(buf, sizeof buf, "%s12,0,4.5\n", H);
    expect_bad(buf, "2: delay_us '4.5': expected an integer from -2147483647 to 2147483647");
    snprintf(buf, sizeof buf, "%s12,0,9999999999\n", H);
    expect_bad(buf, "2: delay_us '9999999999': expected an integer from -2147483647 to 2147483647");
    snprintf(buf, sizeof buf, "%s12,0\n", H);
    expect_bad(buf, "2: 2 fields: expected 3 as in the header");
    expect_bad("direction,seq,kind,delay_us\n12,0,ack,5\n", "2: kind 'ack': expected update or parity");
    expect_bad("direction,seq,sent_us,arrival_us,delay_us\n12,0,100,200,99\n",
               "2: delay_us 99 is not arrival_us - sent_us = 100");
    expect_bad("direction,seq,sent_us,arrival_us,delay_us\n12,0,1e3,200,99\n",
               "2: sent_us '1e3': expected an integer from -9007199254740992 to 9007199254740992");
    expect_bad("direction,\x01seq,delay_us\n", "1: column 2: control characters in the header");
    /* More fields than any header may have. */
    char many[256] = "";
    for (int i = 0; i < 40; i++)
        strcat(many, "a,");
    strcat(many, "\n");
    expect_bad(many, "1: more than 32 fields");
    /* A NUL byte in a line. */
    char path[64];
    snprintf(path, sizeof path, "/tmp/nr_trace_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "direction,seq,delay_us\n12,\0,5\n", 30), 30);
    close(fd);
    LinkTrace t;
    NrError err = {{0}};
    assert_false(linktrace_load(&t, path, &err));
    assert_non_null(strstr(err.msg, ":2: binary data (NUL byte)"));
    unlink(path);
    /* Not a file. */
    assert_false(linktrace_load(&t, "/tmp", &err));
    assert_string_equal(err.msg, "/tmp: is a directory, expected a delays file");
    assert_false(linktrace_load(&t, "/nonexistent/x.csv", &err));
    assert_non_null(strstr(err.msg, "/nonexistent/x.csv: cannot open a delays file"));
}

static void spec_grammar(void **state)
{
    (void)state;
    char path[64], text[256];
    temp_file(path, sizeof path, TRACE_TEXT);
    snprintf(text, sizeof text, "  trace %s  ", path);
    LinkSpec s = parse_ok(text, NULL);
    assert_true(s.trace.on);
    assert_int_equal(s.trace.named, 0);
    char want[256];
    snprintf(want, sizeof want, "trace %s", path);
    assert_string_equal(s.text, want);
    /* Expectations of direction 12 by hand: delivered updates 40, 50, 30,
     * 0 ms -> mean 30 ms; slots 0..4, seq 2 missing -> loss 1/5. */
    assert_true(fabs(linkspec_mean_ms(&s) - 30.0) < 1e-9);
    assert_true(fabs(linkspec_loss_rate(&s) - 0.2) < 1e-12);
    /* link_draw walks seqs 0, 1, 2, ... of direction 12. */
    Link l;
    link_init(&l, &s, 99, 0);
    LinkDraw d;
    const int64_t want_delay[6] = {40 * MS, 50 * MS, -1, 30 * MS, 0, -1};
    for (int i = 0; i < 6; i++) {
        link_draw(&l, &d);
        assert_int_equal(d.lost, want_delay[i] < 0);
        if (want_delay[i] >= 0)
            assert_int_equal(d.delay_us, want_delay[i]);
        assert_int_equal(d.dup, i == 3);
    }
    link_free(&l);
    linkspec_free(&s);

    snprintf(text, sizeof text, "order fifo trace %s direction 21", path);
    s = parse_ok(text, NULL);
    snprintf(want, sizeof want, "trace %s direction 21 order fifo", path);
    assert_string_equal(s.text, want);
    assert_true(s.fifo);
    assert_int_equal(s.trace.named, 21);
    assert_true(fabs(linkspec_mean_ms(&s) - 45.0) < 1e-9); /* 70 and 20 ms */
    assert_true(fabs(linkspec_loss_rate(&s)) < 1e-12);
    /* The canonical text parses to the same spec. */
    LinkSpec b = parse_ok(s.text, NULL);
    assert_string_equal(b.text, s.text);
    assert_int_equal(b.trace.named, 21);
    linkspec_free(&b);
    linkspec_free(&s);

    const struct {
        const char *tail, *msg;
    } bad[] = {
        {" delay 10ms", "trace with delay: a trace gives every delay and loss; expected only 'direction' and "
                        "'order' with it"},
        {" loss 2%", "trace with loss: a trace gives every delay and loss; expected only 'direction' and "
                     "'order' with it"},
        {" direction 19", "direction '19': expected two terminals IJ of 1 to 8 such as 12 (terminal 1 to 2) or 21, "
                         "or a served race's hop Is, sJ or IsJ"},
        {" direction", "'direction' at the end: expected 12 or 21 after it"},
        {" trace x.csv", "'trace' given twice: expected it at most once"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text, "trace %s%s", path, bad[i].tail);
        NrError err = {{0}};
        assert_false(linkspec_parse(&s, text, NULL, &err));
        if (strcmp(err.msg, bad[i].msg) != 0)
            fail_msg("'%s': got '%s', expected '%s'", text, err.msg, bad[i].msg);
        assert_false(s.trace.on);
    }
    NrError err = {{0}};
    assert_false(linkspec_parse(&s, "delay 5ms direction 12", NULL, &err));
    assert_string_equal(err.msg, "direction without trace: expected 'trace FILE direction 12|21'");
    assert_false(linkspec_parse(&s, "trace", NULL, &err));
    assert_string_equal(err.msg, "'trace' at the end: expected a delays FILE (docs/link.md \"Trace\") after it");
    /* A bad file through the spec: the reader's FILE:LINE message. */
    char badp[64];
    temp_file(badp, sizeof badp, "direction,seq,delay_us\n12,x,5\n");
    snprintf(text, sizeof text, "trace %s", badp);
    assert_false(linkspec_parse(&s, text, NULL, &err));
    snprintf(want, sizeof want, "%s:2: seq 'x': expected an integer from 0 to 2147483647", badp);
    assert_string_equal(err.msg, want);
    unlink(badp);
    unlink(path);
}

/* The DelayLine of each direction takes its own rows: every packet is due
 * at sent + the trace's delay; a seq without a row is lost; a parity packet
 * takes the parity row. */
static void delayline_on_trace(void **state)
{
    (void)state;
    char path[64], text[128];
    temp_file(path, sizeof path, TRACE_TEXT);
    snprintf(text, sizeof text, "trace %s", path);
    LinkSpec s = parse_ok(text, NULL);
    DelayLine dl[2];
    for (int d = 0; d < 2; d++)
        assert_true(delayline_init(&dl[d], &s, 1, d, 1, false));
    Medium m[2] = {delayline_medium(&dl[0]), delayline_medium(&dl[1])};
    const int64_t P = 33 * MS;
    int fate[2][5];
    for (int seq = 0; seq < 5; seq++)
        for (int d = 0; d < 2; d++) {
            medium_slot(&m[d], d, seq, seq * P);
            Mu mu = {.car = d, .seq = seq, .kind = MU_UPDATE, .gen_us = seq * P};
            fate[d][seq] = medium_send(&m[d], 0, d, 1 - d, &mu, seq * P);
            if (d == 1 && seq == 1) { /* and a parity packet of slot 1 */
                mu.kind = MU_PARITY;
                assert_int_equal(medium_send(&m[d], 0, d, 0, &mu, seq * P), 0);
            }
        }
    assert_int_equal(fate[0][0], 0);
    assert_int_equal(fate[0][2], MEDIUM_LOST);
    assert_int_equal(fate[0][3], MEDIUM_DUPLICATED);
    assert_int_equal(fate[1][2], MEDIUM_LOST);
    /* Deliveries in due order, each at sent + delay (ms): 12: seq 0 at
     * 0+40, 1 at 33+50, 3 at 99+30 and its copy at 99+61, 4 at 132+0. */
    const struct {
        int32_t seq;
        int64_t due_ms;
        int kind;
    } want[2][5] = {
        {{0, 40, MU_UPDATE}, {1, 83, MU_UPDATE}, {3, 129, MU_UPDATE}, {4, 132, MU_UPDATE}, {3, 160, MU_UPDATE}},
        {{1, 53, MU_UPDATE}, {1, 58, MU_PARITY}, {0, 70, MU_UPDATE}, {-1, 0, 0}, {-1, 0, 0}},
    };
    for (int d = 0; d < 2; d++) {
        MediumDelivery out;
        int n = 0;
        while (medium_pop_due(&m[d], INT64_MAX, &out)) {
            assert_true(n < 5 && want[d][n].seq >= 0);
            assert_int_equal(out.mu.seq, want[d][n].seq);
            assert_int_equal(out.mu.kind, want[d][n].kind);
            assert_int_equal(out.due_us, want[d][n].due_ms * MS);
            assert_int_equal(out.due_us - out.sent_us, out.due_us - out.mu.seq * P);
            n++;
        }
        assert_int_equal(n, d == 0 ? 5 : 3);
        delayline_free(&dl[d]);
    }
    linkspec_free(&s);
    unlink(path);
}

/* With a schemes column and a `# schemes:` line each scheme takes the fate
 * of the packet that carried it (live play sends DR's MU apart when NC's
 * differs); without the names, the shared packet's fate. */
static void each_scheme_takes_its_own_packet(void **state)
{
    (void)state;
    char path[64], text[128];
    temp_file(path, sizeof path,
              "# schemes: nc,dr\n"
              "direction,seq,pkt_seq,schemes,delay_us\n"
              "12,0,1,1,10000\n"  /* nc's packet */
              "12,0,2,2,12000\n"  /* dr's own packet */
              "12,1,3,3,20000\n"  /* one packet for both */
              "12,1,3,3,26000\n"  /* and its duplicate */
              "12,2,4,2,5000\n"); /* only dr's arrived */
    snprintf(text, sizeof text, "trace %s", path);
    LinkSpec s = parse_ok(text, NULL);
    assert_string_equal(s.trace.schemes, "nc,dr");
    assert_int_equal(linktrace_scheme_bit(&s.trace, "dr"), 1);
    assert_int_equal(linktrace_scheme_bit(&s.trace, "causality"), -1);
    const struct {
        const char *names[2];
        int64_t want[2][3]; /* delay ms of scheme k at seq 0..2, -1 lost */
        int dup[2][3];
    } cases[] = {
        {{"nc", "dr"}, {{10, 20, -1}, {12, 20, 5}}, {{0, 1, 0}, {0, 1, 0}}},
        {{"dr", "nc"}, {{12, 20, 5}, {10, 20, -1}}, {{0, 1, 0}, {0, 1, 0}}},
        /* unnamed: every scheme the slot's packet naming the most schemes
         * (seq 0: a tie, the earlier), dr's lone packet at seq 2 included */
        {{NULL, NULL}, {{10, 20, 5}, {10, 20, 5}}, {{0, 1, 0}, {0, 1, 0}}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        DelayLine dl;
        assert_true(delayline_init(&dl, &s, 1, 0, 2, false));
        if (cases[c].names[0])
            delayline_set_schemes(&dl, cases[c].names, 2);
        Medium m = delayline_medium(&dl);
        for (int seq = 0; seq < 3; seq++) {
            medium_slot(&m, 0, seq, seq * 33 * MS);
            for (int k = 0; k < 2; k++) {
                Mu mu = {.car = 0, .seq = seq, .kind = MU_UPDATE, .gen_us = seq * 33 * MS};
                int fate = medium_send(&m, k, 0, 1, &mu, seq * 33 * MS);
                int64_t w = cases[c].want[k][seq];
                assert_int_equal(fate, w < 0 ? MEDIUM_LOST : cases[c].dup[k][seq] ? MEDIUM_DUPLICATED : 0);
            }
        }
        MediumDelivery out;
        int got[2][3] = {{0}};
        while (medium_pop_due(&m, INT64_MAX, &out)) {
            int64_t w = cases[c].want[out.scheme][out.mu.seq];
            int64_t d_ms = (out.due_us - out.sent_us) / MS;
            if (got[out.scheme][out.mu.seq]++ == 0)
                assert_int_equal(d_ms, w);
            else
                assert_int_equal(d_ms, 26); /* the duplicate */
        }
        delayline_free(&dl);
    }
    linkspec_free(&s);
    unlink(path);
}

/* A class admitted at once (delayline_admit_class, a route's sends of one
 * instant) leaves a scheme named in the trace to its own packet: with the
 * names, nc's copy is due at 10 ms and dr's at 12 ms, so the class is
 * refused and nothing moves; without them both take the slot's packet
 * (10 ms) together. */
static void class_leaves_named_schemes_their_packets(void **state)
{
    (void)state;
    char path[64], text[128];
    temp_file(path, sizeof path,
              "# schemes: nc,dr\n"
              "direction,seq,pkt_seq,schemes,delay_us\n"
              "12,0,1,1,10000\n"
              "12,0,2,2,12000\n");
    snprintf(text, sizeof text, "trace %s", path);
    LinkSpec s = parse_ok(text, NULL);
    const char *names[2] = {"nc", "dr"};
    for (int named = 0; named < 2; named++) {
        DelayLine dl;
        assert_true(delayline_init_fates(&dl, &s, 1, 0, 2, false));
        if (named)
            delayline_set_schemes(&dl, names, 2);
        delayline_slot(&dl, 0);
        int k[2] = {0, 1};
        int64_t due = -1;
        assert_int_equal(delayline_admit_class(&dl, k, 2, 5 * MS, &due), named ? -1 : 0);
        assert_int_equal(due, named ? -1 : 15 * MS);
        assert_int_equal(dl.q[0].n, !named);
        assert_int_equal(dl.q[1].n, !named);
        delayline_free(&dl);
    }
    linkspec_free(&s);
    unlink(path);
}

/* A replayed race over a trace, NC: car 1 as shown at terminal 2 is, at
 * every millisecond, the MU whose arrival (seq * 33 ms + the trace's delay)
 * is the latest at or before that time. The trace (long enough to cover the
 * race) is built by hand with a pattern of delays, losses and reordering. */
static void replay_delivers_at_trace_delays(void **state)
{
    (void)state;
    enum { N = 40 };
    const int64_t P = 33 * MS;
    /* delay of seq i on 12 in ms, -1 = no row (lost) */
    int delay_ms[N];
    char text[8192];
    int w = snprintf(text, sizeof text, "direction,seq,delay_us\n");
    for (int i = 0; i < N; i++) {
        delay_ms[i] = i % 7 == 5 ? -1 : 20 + (i * 37) % 90; /* 20..109 ms: reorders */
        if (delay_ms[i] >= 0)
            w += snprintf(text + w, sizeof text - (size_t)w, "12,%d,%d\n", i, delay_ms[i] * 1000);
        w += snprintf(text + w, sizeof text - (size_t)w, "21,%d,%d\n", i, 10000);
    }
    char path[64], spec_text[128];
    temp_file(path, sizeof path, text);
    snprintf(spec_text, sizeof spec_text, "trace %s", path);
    LinkSpec s = parse_ok(spec_text, NULL);

    NrError err = {{0}};
    Track *t = track_parse("netrace-track 1\nname sq\nwidth 8\npoint 0 0\npoint 400 0\npoint 400 400\n"
                           "point 0 400\n", "sq", &err);
    assert_non_null(t);
    Recording rec;
    memset(&rec, 0, sizeof rec);
    rec.version = RECORDING_VERSION;
    rec.period_ms = 33;
    rec.ncars = 2;
    rec.nsamples = N;
    rec.samples = calloc(2 * N, sizeof(RecSample));
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < N; i++) /* car 1 (c = 0) at x = 100 + i: its seq is its x */
            rec.samples[c * N + i] = (RecSample){i * 33, 100.0 + i, c == 0 ? 1.0 : -1.0, 0.0, 30.0};
    EngineConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.track = t;
    cfg.period_ms = 33;
    cfg.link[0] = &s;
    cfg.link[1] = &s;
    cfg.seed = 3;
    cfg.params = scheme_default_params();
    cfg.nschemes = scheme_parse_list("nc", cfg.schemes, SCHEME_MAX, &err);
    assert_int_equal(cfg.nschemes, 1);
    Replay *rp = replay_new(&cfg, &rec, false, &err);
    assert_non_null(rp);
    Engine *e = replay_engine(rp);
    int64_t end = replay_end_us(rp);
    int checked = 0;
    for (int64_t now = 0; now <= end; now += MS) {
        replay_step_to(rp, now);
        int shown = -1; /* the grid: seq 0's pose */
        int64_t best = -1;
        for (int i = 0; i < N; i++) {
            if (delay_ms[i] < 0)
                continue;
            int64_t arr = i * P + delay_ms[i] * MS;
            if (arr <= now && arr >= best) { /* ties: the later sent leaves later */
                best = arr;
                shown = i;
            }
        }
        EngineView v;
        engine_view(e, 0, 1, &v);
        double want_x = 100.0 + (shown < 0 ? 0 : shown);
        if (fabs(v.pose[0].x - want_x) > 1e-9)
            fail_msg("t = %lld us: terminal 2 shows car 1 at x = %g, expected %g", (long long)now, v.pose[0].x,
                     want_x);
        checked++;
    }
    assert_true(checked > 1000);
    /* Counters: every sample sent; the missing seqs lost; the rest
     * delivered, except those due after the race's last sample. */
    const Metrics *m = engine_metrics(e, 0);
    int lost = 0, late = 0;
    for (int i = 0; i < N; i++) {
        lost += delay_ms[i] < 0;
        late += delay_ms[i] >= 0 && i * P + delay_ms[i] * MS > end;
    }
    assert_int_equal(m->dir[0].sent, N);
    assert_int_equal(m->dir[0].lost, lost);
    assert_int_equal(m->dir[0].delivered, N - lost - late);
    assert_int_equal(m->dir[1].lost, 0);
    replay_free(rp);
    recording_free(&rec);
    track_free(t);
    linkspec_free(&s);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tabledist_uniform_by_hand),
        cmocka_unit_test(tabledist_table_by_hand),
        cmocka_unit_test(uniform_moments),
        cmocka_unit_test(table_moments),
        cmocka_unit_test(gamma_moments),
        cmocka_unit_test(mean_closed_forms),
        cmocka_unit_test(negative_delay_sent_now),
        cmocka_unit_test(builtin_tables_match_installed),
        cmocka_unit_test(builtin_tables_by_hand),
        cmocka_unit_test(random_loss_rate),
        cmocka_unit_test(gemodel_loss_rate),
        cmocka_unit_test(gemodel_burst_length),
        cmocka_unit_test(duplicate_rate),
        cmocka_unit_test(corr_by_hand),
        cmocka_unit_test(corr_stream_is_ar1),
        cmocka_unit_test(correlation_raises_lag1),
        cmocka_unit_test(delay_correlation_as_netem),
        cmocka_unit_test(fifo_versus_reorder),
        cmocka_unit_test(seed_determinism),
        cmocka_unit_test(canonical_round_trip),
        cmocka_unit_test(bad_specs),
        cmocka_unit_test(fates_by_hand),
        cmocka_unit_test(trace_of_one_line_of_many),
        cmocka_unit_test(third_copy_ignored),
        cmocka_unit_test(slot_takes_the_shared_packet),
        cmocka_unit_test(columns_by_name),
        cmocka_unit_test(bad_files),
        cmocka_unit_test(spec_grammar),
        cmocka_unit_test(delayline_on_trace),
        cmocka_unit_test(each_scheme_takes_its_own_packet),
        cmocka_unit_test(class_leaves_named_schemes_their_packets),
        cmocka_unit_test(replay_delivers_at_trace_delays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
