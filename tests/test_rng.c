/* Seeded streams: determinism, independence and moments against closed forms;
 * and the lowest-bit index (nr_common.h) against a loop, on such a stream. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "nr_common.h"
#include "rng.h"

static void same_seed_same_sequence(void **state)
{
    (void)state;
    Rng a, b, c;
    rng_seed(&a, 42, 7);
    rng_seed(&b, 42, 7);
    rng_seed(&c, 42, 8);
    int differ = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = rng_u64(&a), y = rng_u64(&b), z = rng_u64(&c);
        assert_true(x == y);
        differ += x != z;
    }
    assert_true(differ > 990);
}

static void uniform_moments(void **state)
{
    (void)state;
    Rng r;
    rng_seed(&r, 1, 0);
    const int n = 200000;
    double s = 0, s2 = 0;
    for (int i = 0; i < n; i++) {
        double u = rng_uniform(&r);
        assert_true(u >= 0.0 && u < 1.0);
        s += u;
        s2 += u * u;
    }
    double mean = s / n, var = s2 / n - mean * mean;
    /* U(0,1): mean 1/2, variance 1/12; 5 standard errors. */
    assert_true(fabs(mean - 0.5) < 5 * sqrt(1.0 / 12 / n));
    assert_true(fabs(var - 1.0 / 12) < 0.002);
}

static void below_is_in_range_and_even(void **state)
{
    (void)state;
    Rng r;
    rng_seed(&r, 3, 0);
    int counts[7] = {0};
    for (int i = 0; i < 70000; i++) {
        uint64_t v = rng_below(&r, 7);
        assert_true(v < 7);
        counts[v]++;
    }
    for (int k = 0; k < 7; k++)
        assert_true(abs(counts[k] - 10000) < 500);
}

static void normal_moments(void **state)
{
    (void)state;
    Rng r;
    rng_seed(&r, 5, 1);
    const int n = 200000;
    double s = 0, s2 = 0;
    for (int i = 0; i < n; i++) {
        double x = rng_normal(&r);
        s += x;
        s2 += x * x;
    }
    double mean = s / n, var = s2 / n - mean * mean;
    assert_true(fabs(mean) < 5 / sqrt(n));
    assert_true(fabs(var - 1.0) < 0.02);
}

static void gamma_moments(void **state)
{
    (void)state;
    /* Gamma(k, theta): mean k*theta, variance k*theta^2. */
    const double shapes[] = {0.5, 1.0, 3.0, 9.0};
    for (int j = 0; j < 4; j++) {
        Rng r;
        rng_seed(&r, 11, (uint64_t)j);
        const int n = 200000;
        const double k = shapes[j], theta = 10.0;
        double s = 0, s2 = 0;
        for (int i = 0; i < n; i++) {
            double x = rng_gamma(&r, k, theta);
            assert_true(x >= 0.0);
            s += x;
            s2 += x * x;
        }
        double mean = s / n, var = s2 / n - mean * mean;
        double sd = sqrt(k) * theta;
        assert_true(fabs(mean - k * theta) < 5 * sd / sqrt(n));
        assert_true(fabs(var / (k * theta * theta) - 1.0) < 0.05);
    }
}

/* The index of the lowest set bit, counted by shifting until it shows. */
static int lowest_bit_by_loop(uint32_t m)
{
    int i = 0;
    while (!(m & 1u)) {
        m >>= 1;
        i++;
    }
    return i;
}

static void lowest_bit_is_the_loops(void **state)
{
    (void)state;
    for (int b = 0; b < 32; b++) {
        assert_int_equal(nr_lowest_bit(UINT32_C(1) << b), b);
        assert_int_equal(nr_lowest_bit(UINT32_C(0xFFFFFFFF) << b), b);
    }
    Rng r;
    rng_seed(&r, 5, 1);
    for (int i = 0; i < 100000; i++) {
        uint32_t m = (uint32_t)rng_u64(&r) >> (i % 32); /* fewer bits as the shift grows */
        if (m)
            assert_int_equal(nr_lowest_bit(m), lowest_bit_by_loop(m));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_seed_same_sequence),
        cmocka_unit_test(uniform_moments),
        cmocka_unit_test(below_is_in_range_and_even),
        cmocka_unit_test(normal_moments),
        cmocka_unit_test(gamma_moments),
        cmocka_unit_test(lowest_bit_is_the_loops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
