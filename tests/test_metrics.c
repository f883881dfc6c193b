/* Metrics against hand-computed values (racing paper Section 2). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "metrics.h"

static void d1_d2_and_inconsistency(void **state)
{
    (void)state;
    Metrics m;
    metrics_reset(&m);
    /* p[terminal][car]. Terminal 1 sees car 1 at 10, car 2 at 8 (car 1 ahead);
     * terminal 2 sees car 1 at 7, car 2 at 9 (car 2 ahead): inconsistent.
     * d1 = 10 - 7 = 3, d2 = 9 - 8 = 1. */
    const double a[2][2] = {{10, 8}, {7, 9}};
    MetricSample s = metrics_add_sample(&m, 0, &a[0][0], 2);
    assert_true(s.d1 == 3.0 && s.d2 == 1.0 && s.inconsistent);
    /* Both see car 2 ahead: consistent. d1 = 5 - 4 = 1, d2 = 6 - 7 = -1. */
    const double b[2][2] = {{5, 7}, {4, 6}};
    s = metrics_add_sample(&m, 33000, &b[0][0], 2);
    assert_true(s.d1 == 1.0 && s.d2 == -1.0 && !s.inconsistent);
    assert_true(metrics_inconsistency_rate(&m) == 0.5);
    /* mean(d1 - d2) = ((3 - 1) + (1 + 1)) / 2 = 2 */
    assert_true(metrics_mean_d1_minus_d2(&m) == 2.0);
    assert_true(metrics_mean_abs_d2(&m) == 1.0);
    assert_true(metrics_mean_d2(&m) == 0.0);
    assert_true(metrics_mean_abs_d1(&m) == 2.0);
}

static void recent_window_is_five_seconds(void **state)
{
    (void)state;
    Metrics m;
    metrics_reset(&m);
    const double bad[2][2] = {{2, 1}, {1, 2}}, good[2][2] = {{2, 1}, {2, 1}};
    /* 100 inconsistent samples every 33 ms (0 .. 3.267 s) then consistent
     * ones up to 8 s. At t = 8.019 s the window (3.019 s, 8.019 s] holds the
     * samples 92..243, of which 92..99 are inconsistent: 8 of 152. */
    int k = 0;
    for (; k < 100; k++)
        metrics_add_sample(&m, (int64_t)k * 33000, &bad[0][0], 2);
    for (; k <= 243; k++)
        metrics_add_sample(&m, (int64_t)k * 33000, &good[0][0], 2);
    assert_int_equal(m.recent_n, 152);
    assert_true(fabs(metrics_recent_rate(&m) - 8.0 / 152.0) < 1e-12);
    assert_true(fabs(metrics_inconsistency_rate(&m) - 100.0 / 244.0) < 1e-12);
}

/* Three cars, two samples, p[terminal][car] worked by hand. */
static void three_cars_by_hand(void **state)
{
    (void)state;
    Metrics m;
    metrics_reset(&m);
    /* Sample 1. Orders: T0 sees 10 > 8 > 6 (0,1,2), T1 sees 9 > 8 > 6
     * (0,1,2), T2 sees 8 > 7 > 6 (1,0,2). Pairs: (0,1) T0 yes, T1 yes, T2 no -> disagree;
     * (0,2) all yes; (1,2) all yes. Inconsistent, 1 of 3 pairs.
     * d_01 = 10 - 9 = 1, d_02 = 10 - 7 = 3 -> d_0 = 2;
     * d_10 = 8 - 8 = 0, d_12 = 8 - 8 = 0 -> d_1 = 0;
     * d_20 = 6 - 6 = 0, d_21 = 6 - 6 = 0 -> d_2 = 0. */
    const double a[3][3] = {{10, 8, 6}, {9, 8, 6}, {7, 8, 6}};
    MetricSample s = metrics_add_sample(&m, 0, &a[0][0], 3);
    assert_true(s.inconsistent);
    assert_true(s.pair_rate == 1.0 / 3.0);
    /* Sample 2: every terminal sees {4, 5, 6} but car 2's own terminal sees
     * it at 7: orders 2,1,0 everywhere, consistent, no pair disagrees.
     * d_0 = 0, d_1 = 0, d_2 = (7 - 6 + 7 - 6) / 2 = 1. */
    const double b[3][3] = {{4, 5, 6}, {4, 5, 6}, {4, 5, 7}};
    s = metrics_add_sample(&m, 33000, &b[0][0], 3);
    assert_false(s.inconsistent);
    assert_true(metrics_inconsistency_rate(&m) == 0.5);
    assert_true(metrics_pair_rate(&m) == 1.0 / 6.0);
    /* mean d = (2 + 0) / 2 = 1, 0, (0 + 1) / 2 = 0.5; mean of them 0.5;
     * disadvantages 0.5, -0.5, 0; spread sqrt((0.25 + 0.25 + 0) / 3). */
    assert_true(metrics_mean_d(&m, 0) == 1.0 && metrics_mean_d(&m, 1) == 0.0 && metrics_mean_d(&m, 2) == 0.5);
    assert_true(metrics_disadvantage(&m, 0) == 0.5);
    assert_true(metrics_disadvantage(&m, 1) == -0.5);
    assert_true(metrics_disadvantage(&m, 2) == 0.0);
    assert_true(fabs(metrics_fairness_spread(&m) - sqrt(0.5 / 3.0)) < 1e-15);
    assert_true(s.spread == metrics_fairness_spread(&m));
}

/* N = 2: both rates are the paper's rate and disadvantage_1 -
 * disadvantage_2 is mean d1 - mean d2, exactly (values on a 1/4 grid, so
 * every sum is exact). */
static void two_cars_reduce_to_the_paper(void **state)
{
    (void)state;
    Metrics m;
    metrics_reset(&m);
    uint32_t x = 12345; /* a fixed LCG: deterministic, varied orders */
    for (int i = 0; i < 500; i++) {
        double p[4];
        for (int c = 0; c < 4; c++) {
            x = x * 1103515245u + 12345u;
            p[c] = (double)((x >> 16) % 64) * 0.25;
        }
        metrics_add_sample(&m, (int64_t)i * 33000, p, 2);
    }
    assert_true(m.inconsistent > 0 && m.inconsistent < 500);
    assert_true(metrics_pair_rate(&m) == metrics_inconsistency_rate(&m));
    assert_true(metrics_disadvantage(&m, 0) - metrics_disadvantage(&m, 1) ==
                metrics_mean_d1(&m) - metrics_mean_d2(&m));
    assert_true(metrics_mean_d(&m, 0) == metrics_mean_d1(&m) && metrics_mean_d(&m, 1) == metrics_mean_d2(&m));
    assert_true(metrics_mean_d1(&m) - metrics_mean_d2(&m) == metrics_mean_d1_minus_d2(&m));
    /* Two cars: the spread is half the gap between the two players. */
    assert_true(metrics_fairness_spread(&m) == fabs(metrics_mean_d1(&m) - metrics_mean_d2(&m)) / 2.0);
}

/* The order checks against their definition, pair by pair and terminal by
 * terminal (metrics.h): random samples of 2 to 8 cars on a coarse grid, so
 * that ties and whole orders repeat, in runs where the order carries over
 * from sample to sample and where it jumps. */
static void orders_match_their_definition(void **state)
{
    (void)state;
    uint32_t x = 777;
    for (int nc = 2; nc <= METRICS_MAX_CARS; nc++) {
        Metrics m;
        metrics_reset(&m);
        int64_t want_bad = 0, want_pairs = 0;
        double base[METRICS_MAX_CARS] = {0}, p[METRICS_MAX_CARS * METRICS_MAX_CARS];
        for (int i = 0; i < 3000; i++) {
            /* every car moves on a grid of 1 (ties happen), by jumps now
             * and then; each terminal shows it off by 1 or 2 in 1 of 12 */
            for (int c = 0; c < nc; c++) {
                x = x * 1103515245u + 12345u;
                base[c] = i % 50 == 0 ? (double)((x >> 8) % 9) : base[c] + (double)((x >> 16) % 3);
            }
            for (int v = 0; v < nc * nc; v++) {
                x = x * 1103515245u + 12345u;
                p[v] = base[v % nc] + ((x >> 12) % 12 == 0 ? (double)((x >> 20) % 5) - 2.0 : 0.0);
            }
            int bad = 0;
            for (int a = 0; a < nc; a++)
                for (int b = a + 1; b < nc; b++) {
                    bool differ = false;
                    for (int j = 1; j < nc; j++)
                        differ |= (p[j * nc + a] > p[j * nc + b]) != (p[a] > p[b]);
                    bad += differ;
                }
            want_pairs += bad;
            want_bad += bad > 0;
            MetricSample s = metrics_add_sample(&m, (int64_t)i * 33000, p, nc);
            assert_int_equal(s.inconsistent, bad > 0);
        }
        assert_int_equal(m.inconsistent, want_bad);
        assert_int_equal(m.pair_inconsistent, want_pairs);
        assert_true(want_bad > 0 && want_bad < 3000); /* both kinds of sample occurred */
    }
}

/* A NaN displayed progress compares false both ways: the pair is counted
 * as the definition counts it (car b ahead), never as agreeing by default. */
static void nan_progress_counts_as_behind(void **state)
{
    (void)state;
    Metrics m;
    metrics_reset(&m);
    /* T0: 3 > 2 > 1; T1: car 0 NaN (pairs (0,1), (0,2): b ahead), 2 > 1;
     * T2 as T0. Pairs (0,1) and (0,2) disagree. */
    const double p[3][3] = {{3, 2, 1}, {NAN, 2, 1}, {3, 2, 1}};
    MetricSample s = metrics_add_sample(&m, 0, &p[0][0], 3);
    assert_true(s.inconsistent);
    assert_int_equal(m.pair_inconsistent, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(d1_d2_and_inconsistency),
        cmocka_unit_test(recent_window_is_five_seconds),
        cmocka_unit_test(three_cars_by_hand),
        cmocka_unit_test(two_cars_reduce_to_the_paper),
        cmocka_unit_test(orders_match_their_definition),
        cmocka_unit_test(nan_progress_counts_as_behind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
