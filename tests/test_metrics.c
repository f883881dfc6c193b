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
    MetricSample s = metrics_add_sample(&m, 0, a[0], a[1]);
    assert_true(s.d1 == 3.0 && s.d2 == 1.0 && s.inconsistent);
    /* Both see car 2 ahead: consistent. d1 = 5 - 4 = 1, d2 = 6 - 7 = -1. */
    const double b[2][2] = {{5, 7}, {4, 6}};
    s = metrics_add_sample(&m, 33000, b[0], b[1]);
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
        metrics_add_sample(&m, (int64_t)k * 33000, bad[0], bad[1]);
    for (; k <= 243; k++)
        metrics_add_sample(&m, (int64_t)k * 33000, good[0], good[1]);
    assert_int_equal(m.recent_n, 152);
    assert_true(fabs(metrics_recent_rate(&m) - 8.0 / 152.0) < 1e-12);
    assert_true(fabs(metrics_inconsistency_rate(&m) - 100.0 / 244.0) < 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(d1_d2_and_inconsistency),
        cmocka_unit_test(recent_window_is_five_seconds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
