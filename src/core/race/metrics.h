/* Consistency and fairness metrics of one scheme (racing paper Section 2,
 * extended to N cars as its Section 6 asks; docs/nplayers.md).
 *
 * Two cars (the paper's measures):
 * d1 = progress(car 1 at terminal 1) - progress(car 1 at terminal 2)
 * d2 = progress(car 2 at terminal 2) - progress(car 2 at terminal 1)
 * A sample is inconsistent when the car shown ahead differs between the two
 * terminals. Fairness is the mean of d1 - d2 (> 0: player 1 disadvantaged).
 *
 * N cars (terminal i owns car i; "a ahead of b" at a terminal: a's displayed
 * progress strictly greater, a tie counts as the later car ahead):
 * a sample is inconsistent when the order of the N cars is not the same at
 * every terminal; a (pair, sample) is pair-inconsistent when the terminals
 * disagree on that pair's order. d_ij = progress of car i at terminal i -
 * its progress at terminal j, d_i = mean over j != i (so d_0 = d1 and
 * d_1 = d2 for two cars). Disadvantage of player i = mean d_i - mean over k
 * of mean d_k; the fairness spread = population sd of the mean d_i. For two
 * cars both rates are the paper's rate and disadvantage_1 - disadvantage_2
 * = mean d1 - mean d2.
 *
 * Contracts:
 *   metrics_reset(m)                    zero everything.
 *   metrics_add_sample(m, t_us, seen, ncars)  seen[j * ncars + c] =
 *        displayed progress of car c at terminal j (ncars in
 *        2..METRICS_MAX_CARS); updates sums, current d1/d2 (cars 0 and 1)
 *        and the 5 s window; returns the sample (for histories).
 *   metrics_add(m, t_us, seen, ncars)   the same without building the sample.
 *   metrics_sample(m, t_us)             the sample of the latest metrics_add.
 *   metrics_inconsistency_rate(m)       inconsistent / samples (0 if none).
 *   metrics_pair_rate(m)                pair_inconsistent / pair_samples.
 *   metrics_mean_d(m, i)                mean d_i of car i (0 if no sample).
 *   metrics_disadvantage(m, i)          mean d_i - mean over cars of mean d_k.
 *   metrics_fairness_spread(m)          population sd of the mean d_i.
 *   metrics_recent_rate(m)              the same over the last 5 s of samples.
 *   metrics_mean_d1_minus_d2 / _mean_abs_d1 / _mean_abs_d2 / _mean_d1 / _mean_d2
 */
#ifndef NR_METRICS_H
#define NR_METRICS_H

#include "nr_common.h"

#define METRICS_RECENT_MAX 256 /* samples in the recent window (>= 5 s / 33 ms) */
#define METRICS_RECENT_US (5 * NR_US_PER_S)
#define METRICS_MAX_CARS 8

typedef struct MetricSample {
    int64_t t_us;
    double d1, d2;
    bool inconsistent;
    double rate;        /* cumulative inconsistency rate after this sample */
    double mean_d1_d2;  /* cumulative mean of d1 - d2 after this sample */
    double pair_rate;   /* cumulative pairwise rate after this sample */
    double spread;      /* fairness spread (cw) after this sample */
} MetricSample;

typedef struct DirCounters {
    int64_t sent, bytes, delivered, lost, duplicated, late, discarded, overflow;
    int64_t rejected; /* delivered MUs refused by mu_validate (counted in delivered too) */
} DirCounters;

typedef struct Metrics {
    int ncars;             /* of the samples taken (0 before the first) */
    int64_t samples, inconsistent;
    int64_t pair_samples, pair_inconsistent;
    double sum_d1, sum_d2, sum_abs_d1, sum_abs_d2;
    double sum_d[METRICS_MAX_CARS];     /* sum of d_i over samples */
    double sum_abs_d[METRICS_MAX_CARS]; /* sum of |d_i| */
    double d1, d2;          /* latest sample */
    bool inconsistent_now;
    /* ring of the last samples' inconsistency flags with their times */
    int64_t recent_t[METRICS_RECENT_MAX];
    bool recent_bad[METRICS_RECENT_MAX];
    int recent_head, recent_n, recent_bad_n;
    uint8_t order[METRICS_MAX_CARS]; /* the cars as terminal 0 last showed them, ahead first */
    DirCounters dir[METRICS_MAX_CARS]; /* by sending terminal: [0] = 1->2, [1] = 2->1 with two cars */
} Metrics;

void metrics_reset(Metrics *m);
MetricSample metrics_add_sample(Metrics *m, int64_t t_us, const double *seen, int ncars);
void metrics_add(Metrics *m, int64_t t_us, const double *seen, int ncars);
MetricSample metrics_sample(const Metrics *m, int64_t t_us);
double metrics_pair_rate(const Metrics *m);
double metrics_mean_d(const Metrics *m, int car);
double metrics_disadvantage(const Metrics *m, int car);
double metrics_fairness_spread(const Metrics *m);
double metrics_inconsistency_rate(const Metrics *m);
double metrics_recent_rate(const Metrics *m);
double metrics_mean_d1_minus_d2(const Metrics *m);
double metrics_mean_d1(const Metrics *m);
double metrics_mean_d2(const Metrics *m);
double metrics_mean_abs_d1(const Metrics *m);
double metrics_mean_abs_d2(const Metrics *m);

#endif
