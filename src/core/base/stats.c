/* 95 % confidence intervals of means across seeds (Student's t). */
#include "stats.h"

#include <math.h>

/* t_{0.975, df} for df = 1 .. 30, from the standard table. */
static const double t975_table[30] = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

double stats_t975(int df)
{
    if (df < 1)
        return NAN;
    if (df <= 30)
        return t975_table[df - 1];
    /* Cornish-Fisher expansion of t around the normal quantile z */
    double z = 1.959963984540054, n = (double)df;
    double z3 = z * z * z, z5 = z3 * z * z;
    return z + (z3 + z) / (4 * n) + (5 * z5 + 16 * z3 + 3 * z) / (96 * n * n);
}

void stats_mean_ci95(const double *v, int n, size_t stride, double *mean, double *half)
{
    double sum = 0;
    int m = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(v[(size_t)i * stride])) {
            sum += v[(size_t)i * stride];
            m++;
        }
    *mean = m > 0 ? sum / m : NAN;
    *half = NAN;
    if (m < 2)
        return;
    double ss = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(v[(size_t)i * stride])) {
            double d = v[(size_t)i * stride] - *mean;
            ss += d * d;
        }
    *half = stats_t975(m - 1) * sqrt(ss / (m - 1)) / sqrt((double)m);
}

double stats_ci95_sums(int n, double sum, double sum2)
{
    if (n < 2)
        return NAN;
    double var = (sum2 - sum * sum / n) / (n - 1); /* sample variance */
    return stats_t975(n - 1) * sqrt(var > 0 ? var : 0) / sqrt((double)n);
}
