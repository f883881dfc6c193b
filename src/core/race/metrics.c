/* Consistency and fairness metrics (racing paper Section 2: positional
 * errors d1, d2, inconsistency rate of the positional relation, d1 - d2). */
#include "metrics.h"

#include <math.h>
#include <string.h>

void metrics_reset(Metrics *m)
{
    memset(m, 0, sizeof *m);
}

/* Car 0 ("car 1") is shown ahead at a terminal when its progress is strictly
 * greater; an exact tie counts as car 2 ahead at both terminals alike. */
static bool car1_ahead(const double p[2])
{
    return p[0] > p[1];
}

MetricSample metrics_add_sample(Metrics *m, int64_t t_us, const double at1[2], const double at2[2])
{
    double d1 = at1[0] - at2[0];
    double d2 = at2[1] - at1[1];
    bool bad = car1_ahead(at1) != car1_ahead(at2);

    m->samples++;
    m->inconsistent += bad;
    m->sum_d1 += d1;
    m->sum_d2 += d2;
    m->sum_abs_d1 += fabs(d1);
    m->sum_abs_d2 += fabs(d2);
    m->d1 = d1;
    m->d2 = d2;
    m->inconsistent_now = bad;

    /* Drop samples older than the window, then append this one. */
    while (m->recent_n > 0) {
        int tail = (m->recent_head - m->recent_n + METRICS_RECENT_MAX) % METRICS_RECENT_MAX;
        if (m->recent_n < METRICS_RECENT_MAX && t_us - m->recent_t[tail] < METRICS_RECENT_US)
            break;
        m->recent_bad_n -= m->recent_bad[tail];
        m->recent_n--;
    }
    m->recent_t[m->recent_head] = t_us;
    m->recent_bad[m->recent_head] = bad;
    m->recent_head = (m->recent_head + 1) % METRICS_RECENT_MAX;
    m->recent_n++;
    m->recent_bad_n += bad;

    MetricSample s = {
        .t_us = t_us,
        .d1 = d1,
        .d2 = d2,
        .inconsistent = bad,
        .rate = metrics_inconsistency_rate(m),
        .mean_d1_d2 = metrics_mean_d1_minus_d2(m),
    };
    return s;
}

static double mean_of(const Metrics *m, double sum)
{
    return m->samples ? sum / (double)m->samples : 0.0;
}

double metrics_inconsistency_rate(const Metrics *m)
{
    return mean_of(m, (double)m->inconsistent);
}

double metrics_recent_rate(const Metrics *m)
{
    return m->recent_n ? (double)m->recent_bad_n / m->recent_n : 0.0;
}

double metrics_mean_d1_minus_d2(const Metrics *m)
{
    return mean_of(m, m->sum_d1 - m->sum_d2);
}

double metrics_mean_d1(const Metrics *m)
{
    return mean_of(m, m->sum_d1);
}

double metrics_mean_d2(const Metrics *m)
{
    return mean_of(m, m->sum_d2);
}

double metrics_mean_abs_d1(const Metrics *m)
{
    return mean_of(m, m->sum_abs_d1);
}

double metrics_mean_abs_d2(const Metrics *m)
{
    return mean_of(m, m->sum_abs_d2);
}
