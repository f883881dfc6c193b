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
 * (progress, index), a strict total order on numbers that are not NaN. */
static bool ahead_of(const double *p, int a, int b)
{
    return p[a] > p[b] || (p[a] == p[b] && a > b);
}

/* The pair {a, b}'s bit in a mask of pairs. */
static uint64_t pair_bit(int a, int b)
{
    return UINT64_C(1) << (a < b ? a * METRICS_MAX_CARS + b : b * METRICS_MAX_CARS + a);
}

/* Sorts order[0..nc) by "ahead" at p by insertion; returns the pairs it
 * swapped: the pairs the order given and the one at p disagree on (each
 * inversion is swapped once). */
static uint64_t sort_order(uint8_t *order, const double *p, int nc)
{
    uint64_t swapped = 0;
    for (int i = 1; i < nc; i++) {
        uint8_t c = order[i];
        int k = i;
        while (k > 0 && ahead_of(p, c, order[k - 1])) {
            swapped |= pair_bit(c, order[k - 1]);
            order[k] = order[k - 1];
            k--;
        }
        order[k] = c;
    }
    return swapped;
}

/* Every car ahead of the next in order at p (later[i]: order[i] is the
 * later car of order[i] and order[i + 1], so a tie keeps them in order). */
static bool in_order(const uint8_t *order, const bool *later, const double *p, int nc)
{
    double prev = p[order[0]];
    bool ok = true;
    for (int i = 1; i < nc; i++) {
        double v = p[order[i]];
        ok &= (prev > v) | ((prev == v) & later[i - 1]);
        prev = v;
    }
    return ok;
}

/* The definition pair by pair, for samples with a NaN (which "ahead"
 * does not order): a pair disagrees when some terminal shows it otherwise
 * than terminal 0. */
static uint64_t pairs_by_definition(const double *seen, int nc)
{
    uint64_t differ = 0;
    for (int a = 0; a < nc; a++)
        for (int b = a + 1; b < nc; b++)
            for (int j = 1; j < nc; j++)
                if ((seen[j * nc + a] > seen[j * nc + b]) != (seen[a] > seen[b]))
                    differ |= pair_bit(a, b);
    return differ;
}

/* The pairs on whose order the terminals disagree. Terminal 0's order is
 * sorted once (from the previous sample's, so mostly in order already);
 * each other terminal sorts a copy of it by its own progress, and the
 * pairs that sort swaps are those it disagrees with terminal 0 on. */
static bool row_has_nan(const double *p, int nc)
{
    bool nan = false;
    for (int c = 0; c < nc; c++)
        nan |= p[c] != p[c];
    return nan;
}

static int pairs_disagreeing(Metrics *m, const double *seen, int nc)
{
    if (nc == 2) /* one pair, two terminals: the definition itself */
        return (seen[0] > seen[1]) != (seen[2] > seen[3]);
    uint64_t differ = 0;
    bool nan = row_has_nan(seen, nc);
    bool later[METRICS_MAX_CARS];
    if (!nan) {
        if (m->samples == 0 || m->ncars != nc)
            for (int c = 0; c < nc; c++)
                m->order[c] = (uint8_t)c;
        (void)sort_order(m->order, seen, nc);
        for (int i = 0; i + 1 < nc; i++)
            later[i] = m->order[i] > m->order[i + 1];
    }
    for (int j = 1; j < nc && !nan; j++) {
        const double *p = seen + j * nc;
        if (in_order(m->order, later, p, nc))
            continue; /* the same order as terminal 0's */
        nan = row_has_nan(p, nc);
        uint8_t o[METRICS_MAX_CARS];
        memcpy(o, m->order, sizeof o);
        differ |= sort_order(o, p, nc);
    }
    if (nan)
        differ = pairs_by_definition(seen, nc);
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
    double own[METRICS_MAX_CARS], sum[METRICS_MAX_CARS] = {0};
    for (int i = 0; i < nc; i++)
        own[i] = seen[i * nc + i];
    for (int j = 0; j < nc; j++) { /* sum[i] adds terminal j's term in j order */
        const double *row = seen + j * nc;
        for (int i = 0; i < j; i++)
            sum[i] += own[i] - row[i];
        for (int i = j + 1; i < nc; i++)
            sum[i] += own[i] - row[i];
    }
    for (int i = 0; i < nc; i++) {
        double d = sum[i] / (double)(nc - 1);
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
