/* Consistency and fairness metrics of one scheme (racing paper Section 2).
 *
 * d1 = progress(car 1 at terminal 1) - progress(car 1 at terminal 2)
 * d2 = progress(car 2 at terminal 2) - progress(car 2 at terminal 1)
 * A sample is inconsistent when the car shown ahead differs between the two
 * terminals. Fairness is the mean of d1 - d2 (> 0: player 1 disadvantaged).
 *
 * Contracts:
 *   metrics_reset(m)                    zero everything.
 *   metrics_add_sample(m, t_us, at1, at2)  atJ[c] = displayed progress of car c
 *        at terminal J; updates sums, current d1/d2 and the 5 s window;
 *        returns the sample (for histories).
 *   metrics_inconsistency_rate(m)       inconsistent / samples (0 if none).
 *   metrics_recent_rate(m)              the same over the last 5 s of samples.
 *   metrics_mean_d1_minus_d2 / _mean_abs_d1 / _mean_abs_d2 / _mean_d1 / _mean_d2
 */
#ifndef NR_METRICS_H
#define NR_METRICS_H

#include "nr_common.h"

#define METRICS_RECENT_MAX 256 /* samples in the recent window (>= 5 s / 33 ms) */
#define METRICS_RECENT_US (5 * NR_US_PER_S)

typedef struct MetricSample {
    int64_t t_us;
    double d1, d2;
    bool inconsistent;
    double rate;        /* cumulative inconsistency rate after this sample */
    double mean_d1_d2;  /* cumulative mean of d1 - d2 after this sample */
} MetricSample;

typedef struct DirCounters {
    int64_t sent, bytes, delivered, lost, duplicated, late, discarded, overflow;
    int64_t rejected; /* delivered MUs refused by mu_validate (counted in delivered too) */
} DirCounters;

typedef struct Metrics {
    int64_t samples, inconsistent;
    double sum_d1, sum_d2, sum_abs_d1, sum_abs_d2;
    double d1, d2;          /* latest sample */
    bool inconsistent_now;
    /* ring of the last samples' inconsistency flags with their times */
    int64_t recent_t[METRICS_RECENT_MAX];
    bool recent_bad[METRICS_RECENT_MAX];
    int recent_head, recent_n, recent_bad_n;
    DirCounters dir[2]; /* [0] = 1->2, [1] = 2->1 */
} Metrics;

void metrics_reset(Metrics *m);
MetricSample metrics_add_sample(Metrics *m, int64_t t_us, const double at1[2], const double at2[2]);
double metrics_inconsistency_rate(const Metrics *m);
double metrics_recent_rate(const Metrics *m);
double metrics_mean_d1_minus_d2(const Metrics *m);
double metrics_mean_d1(const Metrics *m);
double metrics_mean_d2(const Metrics *m);
double metrics_mean_abs_d1(const Metrics *m);
double metrics_mean_abs_d2(const Metrics *m);

#endif
