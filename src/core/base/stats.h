/* Spread across seeds: the 95 % confidence interval of a mean from n
 * independent runs (Student's t), for the plots' bands and error bars.
 *
 * Contracts:
 *   stats_t975(df)   the 0.975 quantile of Student's t with df degrees of
 *        freedom: exact table values (3 decimals) for df 1..30, the
 *        Cornish-Fisher expansion beyond (error < 0.001), NAN for df < 1.
 *   stats_mean_ci95(v, n, stride, &mean, &half)  mean of v[0], v[stride],
 *        ... (n values) and the half-width of its 95 % interval,
 *        t975(n - 1) * sd / sqrt(n) with the sample sd (n - 1); half is NAN
 *        for n < 2, mean NAN for n < 1. NaN values are skipped (n counts
 *        the finite ones).
 *   stats_ci95_sums(n, sum, sum2)  the same half-width from the running
 *        sums of n values and of their squares (when the values are not
 *        kept); NAN for n < 2, 0 when rounding makes the variance negative.
 */
#ifndef NR_STATS_H
#define NR_STATS_H

#include <stddef.h>

double stats_t975(int df);
void stats_mean_ci95(const double *v, int n, size_t stride, double *mean, double *half);
double stats_ci95_sums(int n, double sum, double sum2);

#endif
