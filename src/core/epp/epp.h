/* Extrapolated Parity Packets (Cheung & Sakamoto, NetGames 2007): motion
 * models, optimal dead reckoning, EP construction and recovery, expected-error
 * approximations, packetisation choice and token-bucket scheduling.
 *
 * Every index below is an update index n (updates are sent every T = 1/rate s).
 * A "window" w[] holds the newest updates first: w[0] = x[n], w[1] = x[n-1],
 * w[2] = x[n-2]. The order of a model is the number of updates its predictor
 * reads: rd/cd/xd 1, rv/cv/xv 2, ra/ca/xa 3.
 *
 * Contracts:
 *   epp_model_parse(name, out)   "rd"|"rv"|"ra" (also the predictor names
 *        cd/cv/ca and EP names xd/xv/xa); false when unknown.
 *   epp_model_name(m), epp_dr_name(m), epp_ep_name(m)   "rd", "cd", "xd" ...
 *   epp_order(m)                  1, 2 or 3.
 *   epp_noise(r, p, s)            one draw of w[n] (eq. 24).
 *   epp_noise_var(p, s)           E[w^2] = (1-p) s^2 / 3 (closed form of eq. 24).
 *   epp_model_step(m, w, noise)   x[n+1] from the window (eqs. 1, 3, 5).
 *   epp_alpha(k, a)               a[0..2] = alpha_0..2[k] of eq. 6, k >= 1.
 *   epp_coeffs(m, h, c)           c[0..order-1]: x^[n+h] = sum c[i] w[i]
 *                                 (cd; eq. 7 cv; eq. 8 ca), h >= 1.
 *   epp_predict(m, h, w)          that prediction.
 *   epp_noise_gain(m, h)          sum of squared noise coefficients of the
 *                                 h-step error: h (rd), sum i^2 (rv),
 *                                 sum alpha_2[i]^2 (ra); error = gain * sigma^2.
 *   epp_recover(m, D, y, w, miss) recovers w[miss] from EP y = x^[n+D] and the
 *                                 other window entries (eqs. 9-13); false when
 *                                 miss is outside the window.
 *   epp_recover_all(m, eps, n, u)  THE receiver's loss recovery, shared by
 *        the simulation (epp_sim.c) and the racing schemes (epp_race.c):
 *        eqs. 9-13 to a fixed point. Every EP of eps (visited in the order
 *        given) whose window seq, seq-1, ..., seq-order+1 misses exactly one
 *        update of u restores it (u->known, x, y set); repeated while
 *        something was restored. Every window must lie in u's range.
 *        Returns the number restored.
 *   epp_expected(m, D, pd, s2, out)  eqs. 14-21; pd[i] = p[D+i], i = 0..3.
 *   epp_choose(m, D, pd, C, R, rate, out)  eqs. 22-23 (see epp.c for the
 *                                 weighting); xd is always independent.
 *   epp_horizon(mean_delay_us, rate_hz)  D = ceil(mean delay / T), at least 1.
 *   epp_stream_bps(rate_hz)       R = rate * (H + L) * 8.
 *   epp_bucket_init / epp_bucket_update   Section 7.2's token bucket;
 *   epp_bucket_init_budget   the same with the budget in bits per update.
 *   epp_gamma_p(a, x)             regularised lower incomplete gamma P(a, x).
 */
#ifndef NR_EPP_H
#define NR_EPP_H

#include "nr_common.h"
#include "rng.h"

#define EPP_HEADER_BYTES 28  /* H, Section 8.1 */
#define EPP_PAYLOAD_BYTES 25 /* L, Section 8.1 */
#define EPP_NOISE_P 0.5      /* eq. 24 */
#define EPP_NOISE_S 10.0     /* eq. 24 */
#define EPP_MAX_ORDER 3

typedef enum EppModel { EPP_RD = 0, EPP_RV = 1, EPP_RA = 2 } EppModel;

/* How EPs travel: not at all (raw), in the update packet, or on their own. */
typedef enum EppPack { EPP_PACK_NONE = 0, EPP_PACK_PIGGYBACK, EPP_PACK_INDEPENDENT } EppPack;

bool epp_model_parse(const char *name, EppModel *out);
const char *epp_model_name(EppModel m);
const char *epp_dr_name(EppModel m);
const char *epp_ep_name(EppModel m);
int epp_order(EppModel m);

double epp_noise(Rng *r, double p, double s);
double epp_noise_var(double p, double s);
double epp_model_step(EppModel m, const double *w, double noise);

void epp_alpha(int k, double a[3]);
int epp_coeffs(EppModel m, int h, double c[EPP_MAX_ORDER]);
double epp_predict(EppModel m, int h, const double *w);
double epp_noise_gain(EppModel m, int h);
bool epp_recover(EppModel m, int D, double y, double *w, int miss);

/* An EP as a receiver holds it: built at update seq for update seq + d. */
typedef struct EppEp {
    int32_t seq;
    int d;
    double x, y;
} EppEp;

/* The updates a receiver knows: update j is entry j - first. */
typedef struct EppUpdates {
    int32_t first;
    unsigned char *known;
    double *x, *y;
} EppUpdates;

int64_t epp_recover_all(EppModel m, const EppEp *eps, int n, EppUpdates *u);

/* Expected receiver square errors, in the paper's notation. */
typedef struct EppExpected {
    double dr;    /* E[theta_c*]: no EP (eqs. 14-16) */
    double piggy; /* E[Theta^P_x*] (eqs. 17-18; eq. 14 for xd) */
    double indep; /* E[Theta^I_x*] (eqs. 19-21) */
} EppExpected;

void epp_expected(EppModel m, int D, const double pd[4], double sigma2, EppExpected *out);

typedef struct EppChoice {
    EppPack pack;          /* the smaller cost */
    double cost_piggy;     /* eq. 23's objective for m = P (sigma^2 = 1) */
    double cost_indep;     /* for m = I */
    double share_piggy;    /* share of updates that can carry an EP: min(1, T / T^P) */
    double share_indep;
} EppChoice;

void epp_choose(EppModel m, int D, const double pd[4], int64_t c_bps, int64_t r_bps, int rate_hz,
                EppChoice *out);

int epp_horizon(double mean_delay_us, int rate_hz);
int64_t epp_stream_bps(int rate_hz);

/* Token bucket of Section 7.2, in exact integer units of 1/rate_hz bit: it
 * fills at C - R bps; an EPP of `size` bytes is released at the first update
 * time at which the bucket holds size bytes, and then drained by size. The
 * bucket starts empty at update 0 and holds at most size plus one period of
 * tokens (never binding while EPPs are rarer than updates). */
typedef struct EppBucket {
    int64_t tokens; /* units: bit / rate_hz */
    int64_t fill;   /* added per update period: C - R */
    int64_t size;   /* EPP size: bytes * 8 * rate_hz */
    int64_t cap;
    int64_t updates; /* updates seen so far */
} EppBucket;

void epp_bucket_init(EppBucket *b, int64_t c_bps, int64_t r_bps, int rate_hz, int size_bytes);
/* The same bucket with its budget given directly in bits per update period
 * (units: bits). */
void epp_bucket_init_budget(EppBucket *b, int64_t budget_bits_per_update, int size_bytes);
/* Call once per update instant n = 0, 1, 2, ...; true when an EPP goes out with
 * this update. */
bool epp_bucket_update(EppBucket *b);

double epp_gamma_p(double a, double x);

#endif
