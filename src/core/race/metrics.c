/* Consistency and fairness metrics (racing paper Section 2: positional
 * errors d1, d2, inconsistency rate of the positional relation, d1 - d2;
 * their N-car extension of metrics.h). */
#include "metrics.h"

#include <math.h>
#include <string.h>

void metrics_reset(Metrics *m)
{
    memset(m, 0, sizeof *m);
}

/* One sample's order checks. Car a is shown ahead of car b at a terminal
 * when its progress is strictly greater; an exact tie counts as b ahead at
 * every terminal alike (with two cars: car 2): "ahead" orders the cars by
 * (progress, index), a total order on finite numbers. Terminal 0's order is
 * sorted once (from the previous sample's, so mostly already in order);
 * every terminal whose cars stand in that order agrees with it on every
 * pair. Only the terminals that do not are compared pair by pair. */
static bool ahead_of(const double *p, int a, int b)
{
    return (p[a] > p[b]) | ((p[a] == p[b]) & (a > b));
}

/* order[0..nc) sorted so that each car is ahead of the next at p. */
static void sort_order(uint8_t *order, const double *p, int nc)
{
    for (int i = 1; i < nc; i++) {
        uint8_t c = order[i];
        int k = i;
        while (k > 0 && ahead_of(p, c, order[k - 1])) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = c;
    }
}

/* Every car ahead of the next in order at p; false as well when a NaN
 * takes part, so the caller then compares pair by pair. */
static bool in_order(const uint8_t *order, const double *p, int nc)
{
    bool ok = true;
    for (int i = 0; i + 1 < nc; i++)
        ok &= ahead_of(p, order[i], order[i + 1]);
    return ok;
}

/* One bit per pair (a, b), a < b: a ahead of b. */
static uint32_t order_bits(const double *p, int nc)
{
    uint32_t bits = 0;
    int bit = 0;
    for (int a = 0; a < nc; a++)
        for (int b = a + 1; b < nc; b++)
            bits |= (uint32_t)(p[a] > p[b]) << bit++;
    return bits;
}

_Static_assert(METRICS_MAX_CARS * (METRICS_MAX_CARS - 1) / 2 <= 32, "the pairs fit one 32-bit word");

/* The pairs on whose order the terminals disagree. */
static int pairs_disagreeing(Metrics *m, const double *seen, int nc)
{
    if (m->samples == 0 || m->ncars != nc)
        for (int c = 0; c < nc; c++)
            m->order[c] = (uint8_t)c;
    sort_order(m->order, seen, nc);
    uint32_t first = 0, differ = 0;
    bool have_first = false;
    for (int j = 0; j < nc; j++) {
        if (in_order(m->order, seen + j * nc, nc))
            continue;
        if (!have_first) {
            first = order_bits(seen, nc);
            have_first = true;
        }
        differ |= order_bits(seen + j * nc, nc) ^ first;
    }
    int bad = 0;
    for (; differ; differ &= differ - 1)
        bad++;
    return bad;
}

void metrics_add(Metrics *m, int64_t t_us, const double *seen, int ncars)
{
    const int nc = ncars < 2 ? 2 : ncars > METRICS_MAX_CARS ? METRICS_MAX_CARS : ncars;
    /* d_i: car i at its own terminal minus car i at each other terminal,
     * averaged over those (two cars: d_0 = d1, d_1 = d2, divided by 1). */
    for (int i = 0; i < nc; i++) {
        const double own = seen[i * nc + i];
        double sum = 0.0;
        for (int j = 0; j < i; j++)
            sum += own - seen[j * nc + i];
        for (int j = i + 1; j < nc; j++)
            sum += own - seen[j * nc + i];
        double d = sum / (double)(nc - 1);
        m->sum_d[i] += d;
        m->sum_abs_d[i] += fabs(d);
    }
    double d1 = seen[0] - seen[nc];
    double d2 = seen[nc + 1] - seen[1];
    int bad_pairs = pairs_disagreeing(m, seen, nc);
    bool bad = bad_pairs > 0;

    m->ncars = nc;
    m->samples++;
    m->inconsistent += bad;
    m->pair_samples += nc * (nc - 1) / 2;
    m->pair_inconsistent += bad_pairs;
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
}

MetricSample metrics_sample(const Metrics *m, int64_t t_us)
{
    return (MetricSample){
        .t_us = t_us,
        .d1 = m->d1,
        .d2 = m->d2,
        .inconsistent = m->inconsistent_now,
        .rate = metrics_inconsistency_rate(m),
        .mean_d1_d2 = metrics_mean_d1_minus_d2(m),
        .pair_rate = metrics_pair_rate(m),
        .spread = metrics_fairness_spread(m),
    };
}

MetricSample metrics_add_sample(Metrics *m, int64_t t_us, const double *seen, int ncars)
{
    metrics_add(m, t_us, seen, ncars);
    return metrics_sample(m, t_us);
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

double metrics_pair_rate(const Metrics *m)
{
    return m->pair_samples ? (double)m->pair_inconsistent / (double)m->pair_samples : 0.0;
}

double metrics_mean_d(const Metrics *m, int car)
{
    return car >= 0 && car < METRICS_MAX_CARS ? mean_of(m, m->sum_d[car]) : 0.0;
}

static double mean_of_means(const Metrics *m)
{
    double sum = 0.0;
    for (int k = 0; k < m->ncars; k++)
        sum += metrics_mean_d(m, k);
    return m->ncars ? sum / m->ncars : 0.0;
}

double metrics_disadvantage(const Metrics *m, int car)
{
    return metrics_mean_d(m, car) - mean_of_means(m);
}

/* Population sd, as the fairness paper's spread across receivers. */
double metrics_fairness_spread(const Metrics *m)
{
    if (!m->ncars)
        return 0.0;
    double mu = mean_of_means(m), ss = 0.0;
    for (int k = 0; k < m->ncars; k++) {
        double v = metrics_mean_d(m, k) - mu;
        ss += v * v;
    }
    return sqrt(ss / m->ncars);
}
