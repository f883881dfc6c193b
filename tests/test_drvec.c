/* DR vectors: the closed-form export error integral against quadrature and
 * hand values, and the before / after export error split. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "drvec.h"
#include "rng.h"

/* composite Simpson with n (even) intervals of f(t) = sqrt(max(0, a t^2 + b t + c)) */
static double simpson(double a, double b, double c, double t1, double t2, int n)
{
    double h = (t2 - t1) / n, s = 0.0;
    for (int i = 0; i <= n; i++) {
        double t = t1 + h * i;
        double q = a * t * t + b * t + c;
        double f = sqrt(q > 0.0 ? q : 0.0);
        s += f * (i == 0 || i == n ? 1.0 : (i % 2 ? 4.0 : 2.0));
    }
    return s * h / 3.0;
}

static void close_rel(double got, double want, double rel)
{
    double tol = rel * (fabs(want) > 1.0 ? fabs(want) : 1.0);
    if (!(fabs(got - want) <= tol))
        fail_msg("got %.17g, expected %.17g (tolerance %g)", got, want, tol);
}

static void hand_values(void **state)
{
    (void)state;
    /* integral_0^1 |t| = 1/2 (c = 0 and b^2 = 4ac) */
    close_rel(sqrtquad_integral(1, 0, 0, 0, 1), 0.5, 1e-15);
    /* integral_-1^1 |t| = 1: the paths cross inside the interval */
    close_rel(sqrtquad_integral(1, 0, 0, -1, 1), 1.0, 1e-15);
    /* a = 0, b = 0: constant distance 2 over 2 s */
    close_rel(sqrtquad_integral(0, 0, 4, 0, 2), 4.0, 1e-15);
    /* a = 0: integral_0^3 sqrt(t) = (2/3) 3^(3/2) */
    close_rel(sqrtquad_integral(0, 1, 0, 0, 3), 2.0 / 3.0 * pow(3.0, 1.5), 1e-14);
    /* integral_0^1 sqrt(1 + t^2) = (sqrt 2 + asinh 1) / 2 */
    close_rel(sqrtquad_integral(1, 0, 1, 0, 1), (sqrt(2.0) + asinh(1.0)) / 2.0, 1e-15);
    /* (t + 1)^2 = t^2 + 2t + 1 (b^2 = 4ac) over [-3, 0]: integral |t+1| = 2 + 1/2 */
    close_rel(sqrtquad_integral(1, 2, 1, -3, 0), 2.5, 1e-14);
    /* reversed limits give the oriented value */
    close_rel(sqrtquad_integral(1, 0, 1, 1, 0), -(sqrt(2.0) + asinh(1.0)) / 2.0, 1e-15);
    assert_true(isnan(sqrtquad_integral(-1, 0, 1, 0, 1)));
}

/* The one DR trigger: a vector from (0, 0) at 10 cw/s along x places the
 * car at (1, 0) after 0.1 s; the trigger fires strictly beyond the
 * threshold (a 0.3-0.4-0.5 triangle is 0.5 cw off). */
static void dr_trigger_by_hand(void **state)
{
    (void)state;
    DrVec v = {0, 0.0, 0.0, 10.0, 0.0};
    int64_t t = 100 * NR_US_PER_MS;
    assert_false(drvec_exceeds(&v, t, 1.0, 0.0, 0.25));
    assert_false(drvec_exceeds(&v, t, 1.0, 0.25, 0.25)); /* exactly T: no update */
    assert_true(drvec_exceeds(&v, t, 1.0, 0.2501, 0.25));
    assert_true(drvec_exceeds(&v, t, 1.3, 0.4, 0.49));
    assert_false(drvec_exceeds(&v, t, 1.3, 0.4, 0.51));
    /* Before the vector's time it extrapolates backwards: (-1, 0) at -0.1 s. */
    assert_false(drvec_exceeds(&v, -t, -1.0, 0.0, 0.01));
}

static void cancellation(void **state)
{
    (void)state;
    /* far on the negative side with a tiny closest approach: the textbook
     * logarithm ln(2at + b + 2 sqrt(a) sqrt(q)) cancels to nothing here.
     * integral_{-1000}^{-999} sqrt(t^2 + 1e-6) = (1000^2 - 999^2)/2 + O(1e-9) */
    double want = (1000.0 * 1000.0 - 999.0 * 999.0) / 2.0 + 0.5e-6 * log(1000.0 / 999.0);
    close_rel(sqrtquad_integral(1, 0, 1e-6, -1000, -999), want, 1e-12);
    close_rel(dist_integral(-1000, 1e-3, 1, 0, 1), want, 1e-12);
    /* parallel paths with a constant offset: distance 0.3 over 2.5 s */
    close_rel(dist_integral(0.3, 0.0, 0.0, 0.0, 2.5), 0.75, 1e-15);
}

/* Nearly the same velocity (a = |q|^2 close to 0 but not 0): h = d.q / a is
 * huge, so len + h (and the difference of the two antiderivatives) loses
 * the interval. Closed forms: d = (1, 0), q = (e, 0): |d + q u| = 1 + e u,
 * integral over [0, 1] = 1 + e / 2. q = (0, e): integral of sqrt(1 + e^2 u^2)
 * = (sqrt(1 + e^2) + asinh(e) / e) / 2. q = (e, e): between those, 1 + e/2
 * up to e^2. */
static void nearly_equal_velocities(void **state)
{
    (void)state;
    const double eps[] = {1e-6, 1e-9, 1e-12, 1e-14, 1e-16, 1e-18};
    for (int i = 0; i < 6; i++) {
        double e = eps[i];
        close_rel(dist_integral(1, 0, e, 0, 1), 1.0 + e / 2.0, 1e-13);
        close_rel(dist_integral(1, 0, -e, 0, 1), 1.0 - e / 2.0, 1e-13);
        close_rel(dist_integral(1, 0, 0, e, 1), (sqrt(1.0 + e * e) + asinh(e) / e) / 2.0, 1e-13);
        close_rel(dist_integral(1, 0, e, e, 1), 1.0 + e / 2.0, 1e-11);
        /* the coefficient form of the first: (1 + e t)^2 = e^2 t^2 + 2e t + 1 */
        close_rel(sqrtquad_integral(e * e, 2.0 * e, 1.0, 0.0, 1.0), 1.0 + e / 2.0, 1e-13);
    }
    /* two DR vectors whose velocities differ in the last bit (a velocity
     * from a backward difference on a straight line), 0.3 cw apart, over
     * one 33 ms sample: 0.3 * 0.033 */
    DrVec v = {.t_us = 0, .x = 5, .y = 0.3, .vx = 10, .vy = 0};
    DrVec w = {.t_us = 0, .x = 5, .y = 0, .vx = nextafter(10.0, 11.0), .vy = 0};
    close_rel(drvec_err(&v, &w, 1000000, 1033000) / 0.033, 0.3, 1e-12);
}

static void random_against_simpson(void **state)
{
    (void)state;
    Rng r;
    rng_seed(&r, 2024, 1);
    for (int k = 0; k < 400; k++) {
        double dx = rng_uniform(&r) * 20 - 10, dy = rng_uniform(&r) * 20 - 10;
        double qx = rng_uniform(&r) * 20 - 10, qy = rng_uniform(&r) * 20 - 10;
        int kind = k % 4;
        if (kind == 1) /* a = 0: same velocity */
            qx = qy = 0.0;
        if (kind == 2) { /* b^2 = 4ac: the offset is parallel to the relative velocity */
            double lam = rng_uniform(&r) * 4 - 2;
            dx = lam * qx;
            dy = lam * qy;
        }
        if (kind == 3) /* c = 0: the paths start at the same point */
            dx = dy = 0.0;
        double a = qx * qx + qy * qy, b = 2 * (dx * qx + dy * qy), c = dx * dx + dy * dy;
        double t1 = rng_uniform(&r) * 4 - 2, len = rng_uniform(&r) * 3;
        double want = simpson(a, b, c, t1, t1 + len, 200000);
        close_rel(sqrtquad_integral(a, b, c, t1, t1 + len), want, 1e-7);
        /* dist_integral starts at u = 0: shift the offset to t1 */
        close_rel(dist_integral(dx + qx * t1, dy + qy * t1, qx, qy, len), want, 1e-7);
    }
}

static void drvec_err_values(void **state)
{
    (void)state;
    DrVec v = {.t_us = 500000, .x = 1, .y = 2, .vx = 3, .vy = -4};
    assert_true(drvec_err(&v, &v, 0, 7000000) == 0.0);
    /* same velocity, offset (3, 4): distance 5 for 2 s */
    DrVec w = v;
    w.x += 3;
    w.y += 4;
    close_rel(drvec_err(&v, &w, 1000000, 3000000), 10.0, 1e-15);
    /* a re-stamped copy (local clock, 0.2 s later) lags by |v| * 0.2 = 1 */
    DrVec l = v;
    l.t_us += 200000;
    close_rel(drvec_err(&v, &l, 1000000, 2000000), 1.0, 1e-14);
}

/* Straight along +x at 1 cw/s, then at T = 1 s a turn to +y at 1 cw/s,
 * received 0.2 s later. Before export error: distance |(-1, 1)| u for u in
 * [0, 0.2] -> sqrt(2) 0.02. After: 0 with the global clock; with the local
 * clock the placed path lags by 0.2 cw from 1.2 s to 2 s -> 0.16. */
static void before_after_split(void **state)
{
    (void)state;
    DrVec v0 = {.t_us = 0, .x = 0, .y = 0, .vx = 1, .vy = 0};
    DrVec v1 = {.t_us = 1000000, .x = 1, .y = 0, .vx = 0, .vy = 1};
    ExportAcc g, l;
    exportacc_init(&g, &v0, 0, 0);
    exportacc_init(&l, &v0, 0, 0);
    exportacc_export(&g, 1000000, &v1, 1);
    exportacc_export(&l, 1000000, &v1, 1);
    DrVec v1l = v1;
    v1l.t_us = 1200000;
    assert_true(exportacc_place(&g, 1200000, &v1, 1));
    assert_true(exportacc_place(&l, 1200000, &v1l, 1));
    assert_false(exportacc_place(&g, 1300000, &v0, 0)); /* older vector ignored */
    exportacc_advance(&g, 2000000);
    exportacc_advance(&l, 2000000);
    close_rel(g.before, sqrt(2.0) * 0.02, 1e-14);
    close_rel(l.before, sqrt(2.0) * 0.02, 1e-14);
    assert_true(g.after == 0.0);
    close_rel(l.after, 0.16, 1e-14);
    close_rel(exportacc_total(&l), sqrt(2.0) * 0.02 + 0.16, 1e-14);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hand_values),
        cmocka_unit_test(dr_trigger_by_hand),
        cmocka_unit_test(cancellation),
        cmocka_unit_test(nearly_equal_velocities),
        cmocka_unit_test(random_against_simpson),
        cmocka_unit_test(drvec_err_values),
        cmocka_unit_test(before_after_split),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
