/* 95 % intervals across seeds: t quantiles against the printed table and the
 * normal limit; intervals of hand-computed samples; the unsigned zero of
 * printed means. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "nr_common.h"
#include "stats.h"

#include <stdio.h>
#include <string.h>

static void t_quantiles(void **state)
{
    (void)state;
    assert_true(isnan(stats_t975(0)));
    assert_float_equal(stats_t975(1), 12.706, 1e-9);
    assert_float_equal(stats_t975(9), 2.262, 1e-9);
    /* beyond the table: printed values for 40, 60, 120 and the normal limit */
    assert_float_equal(stats_t975(40), 2.021, 0.001);
    assert_float_equal(stats_t975(60), 2.000, 0.001);
    assert_float_equal(stats_t975(120), 1.980, 0.001);
    assert_float_equal(stats_t975(1000000), 1.960, 0.001);
    /* continuous at the table's end and decreasing */
    assert_true(fabs(stats_t975(31) - 2.040) < 0.001);
    for (int df = 1; df < 200; df++)
        assert_true(stats_t975(df + 1) < stats_t975(df));
}

static void intervals(void **state)
{
    (void)state;
    /* 1, 2, 3, 4, 5: mean 3, sample sd sqrt(2.5), half = 2.776 sqrt(2.5) / sqrt(5) */
    double v[] = {1, 99, 2, 99, 3, 99, 4, 99, 5, 99};
    double mean, half;
    stats_mean_ci95(v, 5, 2, &mean, &half);
    assert_float_equal(mean, 3.0, 1e-12);
    assert_float_equal(half, 2.776 * sqrt(2.5) / sqrt(5.0), 1e-12);
    /* a NaN is skipped: 2, 4 -> mean 3, sd sqrt(2), half 12.706 */
    double w[] = {2, NAN, 4};
    stats_mean_ci95(w, 3, 1, &mean, &half);
    assert_float_equal(mean, 3.0, 1e-12);
    assert_float_equal(half, 12.706 * sqrt(2.0) / sqrt(2.0), 1e-12);
    /* one value: no interval; none: no mean */
    stats_mean_ci95(w, 1, 1, &mean, &half);
    assert_float_equal(mean, 2.0, 1e-12);
    assert_true(isnan(half));
    stats_mean_ci95(w, 0, 1, &mean, &half);
    assert_true(isnan(mean));
    /* equal values: a zero-width interval */
    double c[] = {7, 7, 7};
    stats_mean_ci95(c, 3, 1, &mean, &half);
    assert_float_equal(half, 0.0, 1e-12);
}

/* A mean that prints as zero prints without a sign; anything that prints
 * as a digit keeps it (half a unit of the 4th place is 0.00005). */
/* From running sums (epp's cells keep no values): 1, 2, 3 have sum 6 and
 * sum of squares 14, sample variance (14 - 36 / 3) / 2 = 1, so the half
 * width is t975(2) / sqrt(3) = 4.303 / 1.7321 = 2.4843, as from the values. */
static void intervals_from_sums(void **state)
{
    (void)state;
    assert_true(fabs(stats_ci95_sums(3, 6.0, 14.0) - 4.303 / sqrt(3.0)) < 1e-9);
    double v[3] = {1, 2, 3}, mean, half;
    stats_mean_ci95(v, 3, 1, &mean, &half);
    assert_true(fabs(stats_ci95_sums(3, 6.0, 14.0) - half) < 1e-9);
    assert_true(isnan(stats_ci95_sums(1, 5.0, 25.0)));
    /* equal values: rounding may make the variance a hair negative, never NaN */
    assert_true(stats_ci95_sums(3, 0.3, 0.03) >= 0);
    assert_true(stats_ci95_sums(3, 0.3, 0.03) < 1e-6);
}

static void unsigned_zero(void **state)
{
    (void)state;
    char buf[32];
    snprintf(buf, sizeof buf, "%.4f", nr_unsigned_zero(-0.000047, 4));
    assert_string_equal(buf, "0.0000");
    snprintf(buf, sizeof buf, "%+.2f", nr_unsigned_zero(-0.004, 2));
    assert_string_equal(buf, "+0.00");
    snprintf(buf, sizeof buf, "%.4f", nr_unsigned_zero(-0.00006, 4));
    assert_string_equal(buf, "-0.0001");
    snprintf(buf, sizeof buf, "%+.2f", nr_unsigned_zero(-0.0051, 2));
    assert_string_equal(buf, "-0.01");
    assert_true(nr_unsigned_zero(-184.0, 0) == -184.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_quantiles),
        cmocka_unit_test(intervals),
        cmocka_unit_test(intervals_from_sums),
        cmocka_unit_test(unsigned_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
