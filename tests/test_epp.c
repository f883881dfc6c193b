/* EPP: coefficients, recovery, optimal-predictor error, noise moments, token
 * bucket schedule, expected errors and receiver invariants, each against hand
 * computation or a closed form from the paper's equations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "epp.h"
#include "epp_experiment.h"
#include "epp_link.h"
#include "epp_sim.h"

/* Eq. 6: alpha_0[k] = 3 + sum_{i=2}^{k}(i+1), alpha_1[k] = -3 - sum_{i=2}^{k}(2i+1),
 * alpha_2[k] = sum_{i=1}^{k} i. By hand:
 *   k=1: alpha_0 = 3,            alpha_1 = -3,              alpha_2 = 1
 *   k=2: alpha_0 = 3+3 = 6,      alpha_1 = -3-5 = -8,       alpha_2 = 1+2 = 3
 *   k=3: alpha_0 = 6+4 = 10,     alpha_1 = -8-7 = -15,      alpha_2 = 3+3 = 6
 *   k=4: alpha_0 = 10+5 = 15,    alpha_1 = -15-9 = -24,     alpha_2 = 6+4 = 10
 * Cross-check by iterating eq. 5 (x[n+1] = 3x[n] - 3x[n-1] + x[n-2]):
 *   x[n+2] = 3(3,-3,1) - 3(1,0,0) + (0,1,0) = (6,-8,3). Each row sums to 1. */
static void alpha_by_hand(void **state)
{
    (void)state;
    const double want[4][3] = {{3, -3, 1}, {6, -8, 3}, {10, -15, 6}, {15, -24, 10}};
    for (int k = 1; k <= 4; k++) {
        double a[3];
        epp_alpha(k, a);
        for (int i = 0; i < 3; i++)
            assert_true(a[i] == want[k - 1][i]);
        double c[3];
        assert_int_equal(epp_coeffs(EPP_RA, k, c), 3);
        for (int i = 0; i < 3; i++)
            assert_true(c[i] == want[k - 1][i]);
    }
    /* eq. 7: cv with D = 3 is 4 x[n] - 3 x[n-1]. */
    double c[3];
    assert_int_equal(epp_coeffs(EPP_RV, 3, c), 2);
    assert_true(c[0] == 4.0 && c[1] == -3.0);
    assert_int_equal(epp_coeffs(EPP_RD, 3, c), 1);
    assert_true(c[0] == 1.0);
}

/* cv extrapolates a straight line exactly, ca a parabola exactly. */
static void predictors_are_exact_on_polynomials(void **state)
{
    (void)state;
    for (int h = 1; h <= 6; h++) {
        /* x[i] = 2 + 3 i, window ending at n = 5 */
        double line[3] = {17, 14, 11};
        assert_true(fabs(epp_predict(EPP_RV, h, line) - (2 + 3 * (5 + h))) < 1e-9);
        /* x[i] = i^2 - i + 1 at n = 4: 13, 7, 3 */
        double par[3] = {13, 7, 3};
        double n = 4 + h;
        assert_true(fabs(epp_predict(EPP_RA, h, par) - (n * n - n + 1)) < 1e-9);
    }
}

/* Eqs. 9-13: every single loss of the window is recovered from the EP, on
 * random windows, for D = 1..6; eqs. 9 and 10 also written out by hand. */
static void recovery_of_each_single_loss(void **state)
{
    (void)state;
    Rng r;
    rng_seed(&r, 2024, 5);
    const EppModel ms[] = {EPP_RD, EPP_RV, EPP_RA};
    for (int trial = 0; trial < 2000; trial++) {
        for (int mi = 0; mi < 3; mi++) {
            EppModel m = ms[mi];
            int D = 1 + (int)rng_below(&r, 6);
            double w[3];
            for (int i = 0; i < 3; i++)
                w[i] = 200.0 * rng_uniform(&r) - 100.0;
            double y = epp_predict(m, D, w);
            for (int miss = 0; miss < epp_order(m); miss++) {
                double v[3] = {w[0], w[1], w[2]};
                v[miss] = 12345.0; /* garbage in the lost slot */
                assert_true(epp_recover(m, D, y, v, miss));
                assert_true(fabs(v[miss] - w[miss]) < 1e-9 * (1 + fabs(w[miss])));
            }
            assert_false(epp_recover(m, D, y, w, epp_order(m)));
            if (m == EPP_RV) {
                double eq9 = (y + D * w[1]) / (D + 1);
                double eq10 = ((D + 1) * w[0] - y) / D;
                assert_true(fabs(eq9 - w[0]) < 1e-9 * (1 + fabs(w[0])));
                assert_true(fabs(eq10 - w[1]) < 1e-9 * (1 + fabs(w[1])));
            }
        }
    }
}

/* Eq. 24 closed forms: P(w = 0) = p, E[w] = 0, E[w^2] = (1-p) S^2/3,
 * E|w| = (1-p) S/2. Tolerances: 5 standard errors with
 * Var(w) = 100/6 and Var(w^2) = E[w^4] - E[w^2]^2 = (1-p)S^4/5 - ((1-p)S^2/3)^2
 * = 1000 - 277.8 = 722.2 for p = 0.5, S = 10. */
static void noise_moments(void **state)
{
    (void)state;
    Rng r;
    rng_seed(&r, 9, 1);
    const int n = 400000;
    const double p = 0.5, S = 10.0;
    double s = 0, s2 = 0, sa = 0;
    int zeros = 0;
    for (int i = 0; i < n; i++) {
        double w = epp_noise(&r, p, S);
        assert_true(w > -S && w < S);
        zeros += w == 0.0;
        s += w;
        s2 += w * w;
        sa += fabs(w);
    }
    double var = (1 - p) * S * S / 3;
    assert_true(fabs(epp_noise_var(p, S) - 100.0 / 6.0) < 1e-12);
    assert_true(fabs(s / n) < 5 * sqrt(var / n));
    assert_true(fabs(s2 / n - var) < 5 * sqrt(722.2 / n));
    assert_true(fabs(sa / n - (1 - p) * S / 2) < 5 * sqrt((var - 6.25) / n));
    assert_true(fabs((double)zeros / n - p) < 5 * sqrt(p * (1 - p) / n));
}

/* Section 3.2: the optimal D-step predictor leaves sum_i g_i w[n+D-i], so its
 * mean square error is sigma^2 sum g_i^2 (= D sigma^2 for rd). Tolerance: the
 * mean of N independent squared errors Y^2 has variance (E[Y^4] - E[Y^2]^2)/N
 * with E[Y^4] = (mu4 - 3 sigma^4) sum g^4 + 3 (sigma^2 sum g^2)^2 and
 * mu4 = E[w^4] = (1-p) S^4 / 5; 5 standard errors. Errors are measured on
 * non-overlapping blocks of one long trajectory, which are independent. */
static void optimal_predictor_error(void **state)
{
    (void)state;
    const double p = EPP_NOISE_P, S = EPP_NOISE_S;
    const double s2 = (1 - p) * S * S / 3, mu4 = (1 - p) * S * S * S * S / 5;
    const EppModel ms[] = {EPP_RD, EPP_RV, EPP_RA};
    for (int mi = 0; mi < 3; mi++) {
        for (int D = 1; D <= 4; D++) {
            EppModel m = ms[mi];
            Rng r;
            rng_seed(&r, 77, (uint64_t)(mi * 10 + D));
            double h[3] = {0, 0, 0}; /* newest first */
            const int N = 60000;
            double sum = 0;
            for (int b = 0; b < N; b++) {
                double pred = epp_predict(m, D, h);
                for (int s = 0; s < D; s++) {
                    double nx = epp_model_step(m, h, epp_noise(&r, p, S));
                    h[2] = h[1];
                    h[1] = h[0];
                    h[0] = nx;
                }
                double e = pred - h[0];
                sum += e * e;
            }
            double g2 = 0, g4 = 0;
            for (int i = 1; i <= D; i++) {
                double g = m == EPP_RD ? 1.0 : m == EPP_RV ? i : i * (i + 1) / 2.0;
                g2 += g * g;
                g4 += g * g * g * g;
            }
            if (m == EPP_RD)
                assert_true(g2 == D);
            assert_true(epp_noise_gain(m, D) == g2);
            double ey2 = s2 * g2, ey4 = (mu4 - 3 * s2 * s2) * g4 + 3 * ey2 * ey2;
            double se = sqrt((ey4 - ey2 * ey2) / N);
            assert_true(fabs(sum / N - ey2) < 5 * se);
        }
    }
}

/* Section 7.2 at C = 10 kbps, 15 updates/s, H = 28, L = 25:
 * R = 15 * 53 * 8 = 6360 bps, so the bucket gains 3640/15 bits per period.
 * In units of 1/15 bit: +3640 per period, an independent EPP costs
 * 53*8*15 = 6360, a piggyback one 25*8*15 = 3000. Independent, by hand:
 *   n=1 3640 no | n=2 7280 send ->920 | n=3 4560 | n=4 8200 ->1840 | n=5 5480
 *   n=6 9120 ->2760 | n=7 6400 ->40 | n=8 3680 | n=9 7320 ->960 | n=10 4600
 *   n=11 8240 ->1880 | n=12 5520 | n=13 9160 ->2800 | n=14 6440 ->80
 *   n=15 3720 | n=16 7360 ->1000
 * Piggyback at C = 7000 (gain 640): 5 updates reach 3200 -> send at 5 (200
 * left), at 10 (3400 -> 400), 14 has 2960 < 3000, so 15 (3600). */
static void token_bucket_schedule(void **state)
{
    (void)state;
    assert_true(epp_stream_bps(15) == 6360);
    assert_true(epp_stream_bps(10) == 4240);
    EppBucket b;
    epp_bucket_init(&b, 10000, 6360, 15, EPP_HEADER_BYTES + EPP_PAYLOAD_BYTES);
    const int indep[] = {2, 4, 6, 7, 9, 11, 13, 14, 16};
    int at = 0;
    for (int n = 0; n <= 16; n++) {
        bool sent = epp_bucket_update(&b);
        bool want = at < 9 && indep[at] == n;
        assert_int_equal(sent, want);
        at += want;
    }
    assert_int_equal(at, 9);

    epp_bucket_init(&b, 7000, 6360, 15, EPP_PAYLOAD_BYTES);
    for (int n = 0; n <= 15; n++)
        assert_int_equal(epp_bucket_update(&b), n == 5 || n == 10 || n == 15);

    /* 10 updates/s, 10 kbps: 576 bits = 72 bytes per period > 53, so every
     * update after the first carries an EPP. */
    epp_bucket_init(&b, 10000, 4240, 10, EPP_HEADER_BYTES + EPP_PAYLOAD_BYTES);
    for (int n = 0; n < 100; n++)
        assert_int_equal(epp_bucket_update(&b), n > 0);

    /* No spare bandwidth, no EPP. */
    epp_bucket_init(&b, 4240, 4240, 10, EPP_PAYLOAD_BYTES);
    for (int n = 0; n < 100; n++)
        assert_false(epp_bucket_update(&b));
}

/* Regularised incomplete gamma against the Erlang closed form
 * P(3, x) = 1 - e^{-x} (1 + x + x^2/2) and P(1, x) = 1 - e^{-x}, on both the
 * series (x < a+1) and continued-fraction branches. */
static void gamma_cdf_closed_form(void **state)
{
    (void)state;
    const double xs[] = {0.1, 0.5, 1.0, 2.0, 3.9, 4.1, 5.0, 8.0, 20.0};
    for (int i = 0; i < 9; i++) {
        double x = xs[i];
        double p3 = 1 - exp(-x) * (1 + x + x * x / 2);
        assert_true(fabs(epp_gamma_p(3.0, x) - p3) < 1e-12);
        assert_true(fabs(epp_gamma_p(1.0, x) - (1 - exp(-x))) < 1e-12);
    }
    assert_true(epp_gamma_p(3.0, 0.0) == 0.0);
    assert_true(epp_gamma_p(3.0, -1.0) == 0.0);
}

/* D = ceil(mean delay / T), at least 1: 80 ms at 10/s is 0.8 -> 1; at 15/s
 * 1.2 -> 2; exactly 100 ms at 10/s -> 1; 250 ms at 10/s -> 3. */
static void horizon_rounding(void **state)
{
    (void)state;
    assert_int_equal(epp_horizon(80000, 10), 1);
    assert_int_equal(epp_horizon(80000, 15), 2);
    assert_int_equal(epp_horizon(100000, 10), 1);
    assert_int_equal(epp_horizon(250000, 10), 3);
    assert_int_equal(epp_horizon(0, 10), 1);
}

/* Eqs. 14-21 by hand with p[D+i] = 0.9 for all i, sigma^2 = 1:
 *  rd, D=1: eq. 14 0.9*1 + 0.1*0.9*2 = 1.08; eq. 19 (0.9 + 0.1*0.9)*1 = 0.99
 *  rv, D=1: eq. 15 0.81*1 + 0.1*0.81*(1+4) = 1.215; eq. 17 0.9 + 0.405 = 1.305;
 *           eq. 20 (0.9 + 0.1*0.81)*1 = 0.981
 *  ra, D=2: g(2) = 1 + 9 = 10, g(3) = 10 + 36 = 46; eq. 16 0.729*10 +
 *           0.1*0.729*46 = 10.6434; eq. 18 9 + 3.3534 = 12.3534;
 *           eq. 21 (0.9 + 0.0729)*10 = 9.729
 * With every p = 1 all three equal g(D). */
static void expected_errors_by_hand(void **state)
{
    (void)state;
    const double pd[4] = {0.9, 0.9, 0.9, 0.9};
    EppExpected e;
    epp_expected(EPP_RD, 1, pd, 1.0, &e);
    assert_true(fabs(e.dr - 1.08) < 1e-12 && fabs(e.indep - 0.99) < 1e-12 && e.piggy == e.dr);
    epp_expected(EPP_RV, 1, pd, 1.0, &e);
    assert_true(fabs(e.dr - 1.215) < 1e-12);
    assert_true(fabs(e.piggy - 1.305) < 1e-12);
    assert_true(fabs(e.indep - 0.981) < 1e-12);
    epp_expected(EPP_RA, 2, pd, 1.0, &e);
    assert_true(fabs(e.dr - 10.6434) < 1e-9);
    assert_true(fabs(e.piggy - 12.3534) < 1e-9);
    assert_true(fabs(e.indep - 9.729) < 1e-9);
    const double one[4] = {1, 1, 1, 1};
    epp_expected(EPP_RA, 3, one, 2.0, &e);
    assert_true(e.dr == 2.0 * 46 && e.piggy == e.dr && e.indep == e.dr);

    /* Eq. 22: at 10/s, C = 10 kbps, (C-R)T = 576 bits: both shares are 1, so
     * eq. 23 compares E^P = 1.305 with E^I = 0.981 -> independent for rv. At
     * C = 4500: (C-R)T = 26 bits, shares 26/200 and 26/424. */
    EppChoice ch;
    epp_choose(EPP_RV, 1, pd, 10000, 4240, 10, &ch);
    assert_true(ch.share_piggy == 1.0 && ch.share_indep == 1.0);
    assert_int_equal(ch.pack, EPP_PACK_INDEPENDENT);
    epp_choose(EPP_RV, 1, pd, 4500, 4240, 10, &ch);
    assert_true(fabs(ch.share_piggy - 26.0 / 200) < 1e-12);
    assert_true(fabs(ch.share_indep - 26.0 / 424) < 1e-12);
    assert_true(fabs(ch.cost_indep - (26.0 / 424 * 0.981 + (1 - 26.0 / 424) * 1.215)) < 1e-12);
    epp_choose(EPP_RD, 1, pd, 4500, 4240, 10, &ch);
    assert_int_equal(ch.pack, EPP_PACK_INDEPENDENT);
}

static double run_error(const EppTraffic *t, EppModel m, EppPack pack, int D, int64_t c, int rate,
                        EppWork *w, EppRunStats *st)
{
    EppScheme s = {.method = m, .pack = pack, .D = D, .c_bps = c, .rate_hz = rate};
    epp_run(t, &s, 40, t->n, w, st);
    return st->err_sum;
}

/* With no loss and no packet later than D periods, EPs are never needed:
 * raw, EP-p and EP-i give the same receiver error. (With a random delay that
 * can exceed DT, late updates act as losses and EP-i can help even at loss 0.) */
static void loss_zero_makes_schemes_equal(void **state)
{
    (void)state;
    const int n = 1500, rate = 10;
    EppTraffic t;
    EppWork w;
    assert_true(epp_traffic_alloc(&t, n, NULL));
    assert_true(epp_work_alloc(&w, n, NULL));
    epp_traffic_times(&t, rate);
    Rng r;
    rng_seed(&r, 31, 0);
    for (int mi = 0; mi < 3; mi++) {
        EppModel m = (EppModel)mi;
        epp_traffic_model(&t, m, &r, EPP_NOISE_P, EPP_NOISE_S);
        for (int j = 0; j < n; j++) {
            /* delays uniform in [50, 95] ms < DT = 100 ms */
            t.upd_arr_us[j] = t.t_us[j] + 50000 + (int64_t)rng_below(&r, 45001);
            t.ep_arr_us[j] = t.t_us[j] + 50000 + (int64_t)rng_below(&r, 45001);
        }
        EppRunStats a, b, c;
        double raw = run_error(&t, m, EPP_PACK_NONE, 1, 10000, rate, &w, &a);
        double pig = run_error(&t, m, EPP_PACK_PIGGYBACK, 1, 10000, rate, &w, &b);
        double ind = run_error(&t, m, EPP_PACK_INDEPENDENT, 1, 10000, rate, &w, &c);
        assert_true(raw > 0.0);
        assert_true(raw == pig && raw == ind);
        assert_true(c.eps_sent > 0 && b.eps_sent > 0);
        assert_true(b.recovered == 0 && c.recovered == 0 && c.ep_shown == 0);
    }
    epp_work_free(&w);
    epp_traffic_free(&t);
}

/* Isolated update losses with every EP delivered: xv and xa recover each lost
 * update exactly (eqs. 9-13), so EP-i matches the lossless error while raw is
 * worse; at the same time the error without losses does not depend on EPs. */
static void single_losses_recovered_in_simulation(void **state)
{
    (void)state;
    const int n = 1200, rate = 10;
    EppTraffic t;
    EppWork w;
    assert_true(epp_traffic_alloc(&t, n, NULL));
    assert_true(epp_work_alloc(&w, n, NULL));
    epp_traffic_times(&t, rate);
    Rng r;
    rng_seed(&r, 5, 3);
    for (int mi = 1; mi < 3; mi++) {
        EppModel m = (EppModel)mi;
        epp_traffic_model(&t, m, &r, EPP_NOISE_P, EPP_NOISE_S);
        for (int j = 0; j < n; j++)
            t.upd_arr_us[j] = t.ep_arr_us[j] = t.t_us[j] + 50000;
        EppRunStats st;
        double clean = run_error(&t, m, EPP_PACK_NONE, 1, 10000, rate, &w, &st);
        int lost = 0;
        for (int j = 45; j < n; j += 7) {
            t.upd_arr_us[j] = EPP_NEVER;
            lost++;
        }
        double raw = run_error(&t, m, EPP_PACK_NONE, 1, 10000, rate, &w, &st);
        double ind = run_error(&t, m, EPP_PACK_INDEPENDENT, 1, 10000, rate, &w, &st);
        assert_true(raw > clean);
        assert_true(fabs(ind - clean) < 1e-6 * clean);
        assert_true(st.recovered >= lost);
        /* piggyback EPs die with their update: no recovery of x[n] itself */
        double pig = run_error(&t, m, EPP_PACK_PIGGYBACK, 1, 10000, rate, &w, &st);
        assert_true(pig >= clean);
    }
    epp_work_free(&w);
    epp_traffic_free(&t);
}

/* Two consecutive updates lost with the EP sent at the first of them
 * delivered: the EP itself is shown (Section 5.2's multi-loss case). */
static void multiple_losses_show_the_ep(void **state)
{
    (void)state;
    const int n = 60, rate = 10;
    EppTraffic t;
    EppWork w;
    assert_true(epp_traffic_alloc(&t, n, NULL));
    assert_true(epp_work_alloc(&w, n, NULL));
    epp_traffic_times(&t, rate);
    for (int j = 0; j < n; j++) {
        t.x[j] = 0.5 * j * j; /* a parabola: cv's D-step error is known */
        t.y[j] = -(double)j;
        t.upd_arr_us[j] = t.ep_arr_us[j] = t.t_us[j] + 50000;
    }
    /* lose x[29] and x[30]: at k = 31 (D = 1) the newest complete cv window
     * ends at 28 (h = 3 > D); the EP sent at 30 is built from x[30], x[29]. */
    t.upd_arr_us[29] = t.upd_arr_us[30] = EPP_NEVER;
    t.ep_arr_us[29] = EPP_NEVER; /* else it restores x[29], then x[30] */
    EppScheme s = {.method = EPP_RV, .pack = EPP_PACK_INDEPENDENT, .D = 1, .c_bps = 10000, .rate_hz = rate};
    EppRunStats st;
    epp_run(&t, &s, 31, 32, &w, &st);
    /* EP: 2 x[30] - x[29] = 900 - 420.5 = 479.5; true 480.5 -> error 1 in x,
     * y exact (a line). */
    assert_int_equal(st.ep_shown, 1);
    assert_true(fabs(st.err_sum - 1.0) < 1e-9);
    /* raw: cv from (28, 27) with h = 3: 4*392 - 3*364.5 = 474.5 -> error 6 */
    s.pack = EPP_PACK_NONE;
    epp_run(&t, &s, 31, 32, &w, &st);
    assert_true(fabs(st.err_sum - 6.0) < 1e-9);
    epp_work_free(&w);
    epp_traffic_free(&t);
}

/* rd over a link with a constant 50 ms delay (D = 1 at 10/s) and independent
 * random loss q: the newest update the receiver has at kT is x[k-h] with
 * P(h) = (1-q) q^(h-1), so the per-coordinate mean square error of raw is
 * sigma^2 sum h (1-q) q^(h-1) = sigma^2 / (1-q) (exact, not eq. 14's
 * truncation). With an independent xd EP on every update, index k-h is
 * missing only when both packets are lost (q^2): sigma^2 / (1-q^2).
 * Tolerance 3%: per-display squared errors have sd ~ 27 around ~21; with
 * 2 x 200000 samples and a correlation factor of at most ~4 between
 * overlapping displays the standard error is ~0.5%, so 3% is ~6 SE, while a
 * wrong loss model (1/(1-q) = 1.25 against 1/(1-q^2) = 1.04) is off by 20%. */
static void receiver_matches_geometric_closed_form(void **state)
{
    (void)state;
    const int n = 200040, rate = 10;
    const double q = 0.2, s2 = epp_noise_var(EPP_NOISE_P, EPP_NOISE_S);
    EppTraffic t;
    EppWork w;
    assert_true(epp_traffic_alloc(&t, n, NULL));
    assert_true(epp_work_alloc(&w, n, NULL));
    epp_traffic_times(&t, rate);
    Rng r;
    rng_seed(&r, 4242, 0);
    epp_traffic_model(&t, EPP_RD, &r, EPP_NOISE_P, EPP_NOISE_S);
    for (int j = 0; j < n; j++) {
        t.upd_arr_us[j] = rng_uniform(&r) < q ? EPP_NEVER : t.t_us[j] + 50000;
        t.ep_arr_us[j] = rng_uniform(&r) < q ? EPP_NEVER : t.t_us[j] + 50000;
    }
    EppRunStats st;
    run_error(&t, EPP_RD, EPP_PACK_NONE, 1, 10000, rate, &w, &st);
    double mse = st.sq_sum / (2.0 * (double)st.count);
    assert_true(fabs(mse / (s2 / (1 - q)) - 1.0) < 0.03);
    run_error(&t, EPP_RD, EPP_PACK_INDEPENDENT, 1, 10000, rate, &w, &st);
    mse = st.sq_sum / (2.0 * (double)st.count);
    assert_true(fabs(mse / (s2 / (1 - q * q)) - 1.0) < 0.03);
    epp_work_free(&w);
    epp_traffic_free(&t);
}

/* p[D] (eq. 25) from the link spec. Default link at 10/s, D = 1, loss 5%:
 * (1 - 0.05) P(3, (100 - 50) / 10) = 0.95 (1 - e^-5 (1 + 5 + 12.5)); windows
 * of 2..4 periods: 0.95 P(3, 15), 0.95 P(3, 25), 0.95 P(3, 35).
 * With duplication a slot is lost only when the packet is lost and not
 * duplicated (netem_enqueue: a duplicated and lost packet leaves one copy):
 * `delay 50ms loss 10% duplicate 100%` delivers every slot within 50 ms, so
 * p = 1; with `duplicate 50%`, p = 1 - 0.5 * 0.1 = 0.95 (Monte Carlo over
 * 200000 draws: sd 0.0005, tolerance 0.003). The loss-only closed form
 * (1 - q) = 0.9 is wrong for both. */
static void delivery_probability(void **state)
{
    (void)state;
    LinkSpec s;
    double pd[4];
    bool closed = false;
    assert_true(linkspec_parse(&s, "delay 50ms gamma 3 10ms loss 5%", NULL, NULL));
    epp_pd(&s, 10, 1, pd, &closed);
    assert_true(closed);
    for (int i = 0; i < 4; i++) {
        double x = 5.0 + 10.0 * i;
        assert_true(fabs(pd[i] - 0.95 * (1 - exp(-x) * (1 + x + x * x / 2))) < 1e-12);
    }
    linkspec_free(&s);

    assert_true(linkspec_parse(&s, "delay 50ms loss 10% duplicate 100%", NULL, NULL));
    epp_pd(&s, 10, 1, pd, &closed);
    for (int i = 0; i < 4; i++)
        assert_true(pd[i] == 1.0);
    linkspec_free(&s);

    assert_true(linkspec_parse(&s, "delay 50ms loss 10% duplicate 50%", NULL, NULL));
    epp_pd(&s, 10, 1, pd, &closed);
    for (int i = 0; i < 4; i++)
        assert_true(fabs(pd[i] - 0.95) < 0.003);
    linkspec_free(&s);
}

/* An update that has arrived by its own display time is shown as it is, even
 * when an older update of its window is missing: zero delay, x[29] lost, at
 * k = 30 the receiver holds x[30] itself (error 0). cv from the newest
 * complete window (28, 27) with h = 2 would show 3 x[28] - 2 x[27] =
 * 1176 - 729 = 447 against 450 on the parabola 0.5 j^2 (error 3). */
static void arrived_update_is_shown(void **state)
{
    (void)state;
    const int n = 60, rate = 10;
    EppTraffic t;
    EppWork w;
    assert_true(epp_traffic_alloc(&t, n, NULL));
    assert_true(epp_work_alloc(&w, n, NULL));
    epp_traffic_times(&t, rate);
    for (int j = 0; j < n; j++) {
        t.x[j] = 0.5 * j * j;
        t.y[j] = -(double)j;
        t.upd_arr_us[j] = t.ep_arr_us[j] = t.t_us[j];
    }
    t.upd_arr_us[29] = EPP_NEVER;
    EppScheme s = {.method = EPP_RV, .pack = EPP_PACK_NONE, .D = 1, .c_bps = 10000, .rate_hz = rate};
    EppRunStats st;
    epp_run(&t, &s, 30, 31, &w, &st);
    assert_int_equal(st.count, 1);
    assert_true(st.err_sum == 0.0);
    s.method = EPP_RA;
    epp_run(&t, &s, 31, 32, &w, &st); /* x[31] arrived, x[29] missing */
    assert_true(st.err_sum == 0.0);
    epp_work_free(&w);
    epp_traffic_free(&t);
}

/* The one recovery (eqs. 9-13 to a fixed point), by hand with cv, D = 1:
 * an EP built at n carries x^[n+1] = 2 x[n] - x[n-1]. Updates 4 and 7 are
 * known (3 and 9); EP 5 restores x[5] = (y5 + x[4]) / 2, which completes
 * EP 6's window so x[6] = (y6 + x[5]) / 2 on the second pass, although EP 6
 * comes first in the list; EP 9's window (9, 8) misses two updates and
 * restores nothing. */
static void recover_all_by_hand(void **state)
{
    (void)state;
    unsigned char known[6] = {1, 0, 0, 1, 0, 0}; /* updates 4..9 */
    double x[6] = {3, 0, 0, 9, 0, 0}, y[6] = {30, 0, 0, 90, 0, 0};
    EppUpdates u = {4, known, x, y};
    /* true x: x4 = 3, x5 = 5, x6 = 7, x7 = 9, x8 = 11 (a line), y likewise x 10 */
    EppEp eps[3] = {
        {6, 1, 2 * 7.0 - 5.0, 2 * 70.0 - 50.0},  /* x^[7] from (6, 5) */
        {5, 1, 2 * 5.0 - 3.0, 2 * 50.0 - 30.0},  /* x^[6] from (5, 4) */
        {9, 1, 2 * 13.0 - 11.0, 2 * 130.0 - 110.0}, /* window (9, 8): both unknown */
    };
    assert_int_equal(epp_recover_all(EPP_RV, eps, 3, &u), 2);
    assert_true(known[1] && known[2] && !known[4] && !known[5]);
    assert_true(fabs(x[1] - 5.0) < 1e-12 && fabs(x[2] - 7.0) < 1e-12);
    assert_true(fabs(y[1] - 50.0) < 1e-12 && fabs(y[2] - 70.0) < 1e-12);
    /* Nothing more to restore: a second call restores none. */
    assert_int_equal(epp_recover_all(EPP_RV, eps, 3, &u), 0);
}

/* The experiment loop (epp_experiment.h). Over a link without delay or
 * loss every update is on time, so every scheme shows the true position at
 * every display time: error exactly 0, for models and a trace alike. A
 * trace too short for the warm-up is skipped and says how many updates it
 * had (25 samples of 33 ms at 10/s: floor(24 * 33 ms * 10 / s) + 1 = 8). */
static void experiment_perfect_link_and_short_trace(void **state)
{
    (void)state;
    Recording rec;
    memset(&rec, 0, sizeof rec);
    rec.period_ms = 33;
    rec.ncars = 1;
    rec.nsamples = 25;
    RecSample smp[25];
    for (int i = 0; i < 25; i++)
        smp[i] = (RecSample){i * 33, 0.1 * i, 0.0, 0.0, 3.0};
    rec.samples = smp;
    EppSource src[2] = {{.name = "ra", .is_model = true, .model = EPP_RA},
                        {.name = "short/car1", .rec = &rec, .car = 0}};
    int rate[1] = {10};
    double loss[1] = {0.0};
    EppCondition cond;
    NrError err;
    assert_true(epp_condition_init(&cond, "delay 0ms", 0.0, 10, &err));
    assert_int_equal(cond.D, 1);
    int64_t bw[2] = {20000, 40000};
    EppExperiment ex = {.src = src, .nsrc = 2, .rate = rate, .nrate = 1, .loss = loss, .nloss = 1,
                        .cond = &cond, .bw = bw, .nbw = 2, .ntable = 1, .raw_dr = EPP_RV,
                        .runs = 3, .samples = 200, .seed = 9};
    for (int k = 0; k < EPPX_COUNT; k++)
        ex.scheme_on[k] = true;
    EppResults res;
    assert_true(epp_experiment_run(&ex, &res, &err));
    for (int b = 0; b < 2; b++)
        for (int k = EPPX_RAW; k <= EPPX_EPI; k++) {
            const EppCell *c = epp_results_cell(&res, 0, 0, 0, b, k);
            assert_true(c->valid);
            assert_int_equal(c->runs, 3);
            assert_true(c->sum == 0.0);
        }
    assert_int_equal(epp_results_avail(&res, 0, 0), -1);
    assert_int_equal(epp_results_avail(&res, 1, 0), 8);
    assert_false(epp_results_cell(&res, 1, 0, 0, 0, EPPX_RAW)->valid);
    epp_results_free(&res);
    epp_condition_free(&cond);
}

/* Streams are keyed by what a run is: the same source, rate and loss give
 * the same cells whether or not other rates and losses run beside them. */
static void experiment_subset_reproduces_cells(void **state)
{
    (void)state;
    EppSource src[1] = {{.name = "rv", .is_model = true, .model = EPP_RV}};
    int rate[2] = {10, 15};
    double loss[2] = {0.05, 0.10};
    EppCondition cond[4];
    NrError err;
    for (int r = 0; r < 2; r++)
        for (int q = 0; q < 2; q++)
            assert_true(epp_condition_init(&cond[r * 2 + q], "delay 50ms gamma 3 10ms", loss[q], rate[r], &err));
    int64_t bw[1] = {10000};
    EppExperiment all = {.src = src, .nsrc = 1, .rate = rate, .nrate = 2, .loss = loss, .nloss = 2,
                         .cond = cond, .bw = bw, .nbw = 1, .ntable = 1, .raw_dr = EPP_RV,
                         .runs = 4, .samples = 300, .seed = 3};
    for (int k = 0; k < EPPX_COUNT; k++)
        all.scheme_on[k] = true;
    EppExperiment one = all; /* rate 15, loss 10 % only */
    one.rate = &rate[1];
    one.nrate = 1;
    one.loss = &loss[1];
    one.nloss = 1;
    one.cond = &cond[3];
    EppResults ra, ro;
    assert_true(epp_experiment_run(&all, &ra, &err));
    assert_true(epp_experiment_run(&one, &ro, &err));
    for (int k = EPPX_RAW; k <= EPPX_EPI; k++) {
        const EppCell *a = epp_results_cell(&ra, 0, 1, 1, 0, k), *o = epp_results_cell(&ro, 0, 0, 0, 0, k);
        assert_true(a->valid && o->valid);
        assert_true(a->sum == o->sum);
        assert_true(a->sum > 0.0); /* 10 % loss: not perfect */
    }
    /* EPs help over the raw stream at 10 % loss (Table 1's direction). */
    assert_true(epp_results_cell(&ra, 0, 1, 1, 0, EPPX_EPI)->sum < epp_results_cell(&ra, 0, 1, 1, 0, EPPX_RAW)->sum);
    epp_results_free(&ra);
    epp_results_free(&ro);
    for (int i = 0; i < 4; i++)
        epp_condition_free(&cond[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(alpha_by_hand),
        cmocka_unit_test(predictors_are_exact_on_polynomials),
        cmocka_unit_test(recovery_of_each_single_loss),
        cmocka_unit_test(noise_moments),
        cmocka_unit_test(optimal_predictor_error),
        cmocka_unit_test(token_bucket_schedule),
        cmocka_unit_test(gamma_cdf_closed_form),
        cmocka_unit_test(horizon_rounding),
        cmocka_unit_test(expected_errors_by_hand),
        cmocka_unit_test(loss_zero_makes_schemes_equal),
        cmocka_unit_test(single_losses_recovered_in_simulation),
        cmocka_unit_test(multiple_losses_show_the_ep),
        cmocka_unit_test(receiver_matches_geometric_closed_form),
        cmocka_unit_test(delivery_probability),
        cmocka_unit_test(arrived_update_is_shown),
        cmocka_unit_test(recover_all_by_hand),
        cmocka_unit_test(experiment_perfect_link_and_short_trace),
        cmocka_unit_test(experiment_subset_reproduces_cells),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
