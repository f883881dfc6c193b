/* EPP mathematics: motion models, optimal DR, EP recovery, expected errors,
 * packetisation choice and token bucket (Cheung & Sakamoto 2007, Sections 3-7). */
#include "epp.h"

#include <math.h>
#include <string.h>

static const char *const model_names[3] = {"rd", "rv", "ra"};
static const char *const dr_names[3] = {"cd", "cv", "ca"};
static const char *const ep_names[3] = {"xd", "xv", "xa"};

bool epp_model_parse(const char *name, EppModel *out)
{
    for (int i = 0; i < 3; i++) {
        if (strcmp(name, model_names[i]) == 0 || strcmp(name, dr_names[i]) == 0 ||
            strcmp(name, ep_names[i]) == 0) {
            *out = (EppModel)i;
            return true;
        }
    }
    return false;
}

const char *epp_model_name(EppModel m) { return model_names[m]; }
const char *epp_dr_name(EppModel m) { return dr_names[m]; }
const char *epp_ep_name(EppModel m) { return ep_names[m]; }
int epp_order(EppModel m) { return (int)m + 1; }

/* Eq. 24: 0 with probability p, otherwise +-U[0, s) with equal probability. */
double epp_noise(Rng *r, double p, double s)
{
    double u = rng_uniform(r);
    if (u < p)
        return 0.0;
    double mag = s * rng_uniform(r);
    return u < p + 0.5 * (1.0 - p) ? mag : -mag;
}

/* E[w^2] = (1-p) E[U^2] = (1-p) s^2 / 3; the mean is 0 by symmetry. */
double epp_noise_var(double p, double s) { return (1.0 - p) * s * s / 3.0; }

/* Eqs. 1, 3, 5. */
double epp_model_step(EppModel m, const double *w, double noise)
{
    switch (m) {
    case EPP_RD:
        return w[0] + noise;
    case EPP_RV:
        return 2.0 * w[0] - w[1] + noise;
    case EPP_RA:
    default:
        return 3.0 * w[0] - 3.0 * w[1] + w[2] + noise;
    }
}

/* Eq. 6's coefficients, written as the paper's sums. */
void epp_alpha(int k, double a[3])
{
    double a0 = 3.0, a1 = -3.0, a2 = 0.0;
    for (int i = 2; i <= k; i++) {
        a0 += i + 1;
        a1 -= 2 * i + 1;
    }
    for (int i = 1; i <= k; i++)
        a2 += i;
    a[0] = a0;
    a[1] = a1;
    a[2] = a2;
}

/* cd: x^[n+h] = x[n]; cv (eq. 7): (h+1) x[n] - h x[n-1]; ca (eq. 8): alpha[h]. */
int epp_coeffs(EppModel m, int h, double c[EPP_MAX_ORDER])
{
    c[0] = 1.0;
    c[1] = 0.0;
    c[2] = 0.0;
    if (m == EPP_RV) {
        c[0] = h + 1.0;
        c[1] = -(double)h;
    } else if (m == EPP_RA) {
        epp_alpha(h, c);
    }
    return epp_order(m);
}

double epp_predict(EppModel m, int h, const double *w)
{
    double c[EPP_MAX_ORDER];
    int n = epp_coeffs(m, h, c);
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += c[i] * w[i];
    return s;
}

/* The h-step error of the optimal predictor is sum_i g_i w[n+h-i] (eqs. 2, 4,
 * 6) with g_i = 1, i, alpha_2[i]; its mean square is sigma^2 sum g_i^2. */
double epp_noise_gain(EppModel m, int h)
{
    double s = 0.0;
    for (int i = 1; i <= h; i++) {
        double g = 1.0;
        if (m == EPP_RV)
            g = i;
        else if (m == EPP_RA)
            g = i * (i + 1) / 2.0; /* alpha_2[i] = sum_{j=1}^{i} j */
        s += g * g;
    }
    return s;
}

/* Eqs. 9-13 (and Section 5.1 for xd): y = sum c[i] w[i], solved for w[miss]. */
bool epp_recover(EppModel m, int D, double y, double *w, int miss)
{
    double c[EPP_MAX_ORDER];
    int n = epp_coeffs(m, D, c);
    if (miss < 0 || miss >= n || c[miss] == 0.0)
        return false;
    double rest = y;
    for (int i = 0; i < n; i++)
        if (i != miss)
            rest -= c[i] * w[i];
    w[miss] = rest / c[miss];
    return true;
}

int64_t epp_recover_all(EppModel m, const EppEp *eps, int n, EppUpdates *u)
{
    const int o = epp_order(m);
    int64_t restored = 0;
    bool changed = true;
    while (changed) { /* a restored update may complete another EP's window */
        changed = false;
        for (int i = 0; i < n; i++) {
            const EppEp *e = &eps[i];
            const int32_t top = e->seq - u->first; /* entry of the window's newest update */
            int miss = -1, nmiss = 0;
            for (int k = 0; k < o; k++) {
                if (!u->known[top - k]) {
                    miss = k;
                    nmiss++;
                }
            }
            if (nmiss != 1)
                continue;
            double wx[EPP_MAX_ORDER], wy[EPP_MAX_ORDER];
            for (int k = 0; k < o; k++) {
                wx[k] = k == miss ? 0.0 : u->x[top - k];
                wy[k] = k == miss ? 0.0 : u->y[top - k];
            }
            if (!epp_recover(m, e->d, e->x, wx, miss) || !epp_recover(m, e->d, e->y, wy, miss))
                continue;
            u->x[top - miss] = wx[miss];
            u->y[top - miss] = wy[miss];
            u->known[top - miss] = 1;
            restored++;
            changed = true;
        }
    }
    return restored;
}

/* Eqs. 14-21. pd[i] = p[D+i]. With order o = l + 1 and gain g(h):
 *   no EP:      prod_{i<o} p[D+i] g(D) + (1-p[D]) prod_{1<=i<=o} p[D+i] g(D+1)
 *   piggyback:  p[D] g(D) + (1-p[D]) prod_{1<=i<=o} p[D+i] g(D+1)
 *   independent:(p[D] + (1-p[D]) prod_{i<o} p[D+i]) g(D)
 * all times sigma^2. For xd piggyback is eq. 14 itself (Section 6.1). */
void epp_expected(EppModel m, int D, const double pd[4], double sigma2, EppExpected *out)
{
    int o = epp_order(m);
    double g0 = epp_noise_gain(m, D), g1 = epp_noise_gain(m, D + 1);
    double head = 1.0, tail = 1.0;
    for (int i = 0; i < o; i++)
        head *= pd[i];
    for (int i = 1; i <= o; i++)
        tail *= pd[i];
    out->dr = sigma2 * (head * g0 + (1.0 - pd[0]) * tail * g1);
    out->piggy = m == EPP_RD ? out->dr : sigma2 * (pd[0] * g0 + (1.0 - pd[0]) * tail * g1);
    out->indep = sigma2 * (pd[0] + (1.0 - pd[0]) * head) * g0;
}

/* Eqs. 22-23. The share of updates that can carry an EP is s_m = T / T^m
 * (capped at 1): eq. 22 gives 1/T^m = (C-R)/size. Eq. 23 as printed weighs
 * E[Theta^m] by (T^m - T)/T^m, the share of updates WITHOUT an EP, which
 * would make a scheme that can afford no EP at all (T^m -> infinity) cost
 * E[Theta^m]; we read it as the intended mixture
 *   s_m E[Theta^m] + (1 - s_m) E[theta_c]
 * (documented in docs/epp.md). Ties go to independent packetisation. */
void epp_choose(EppModel m, int D, const double pd[4], int64_t c_bps, int64_t r_bps, int rate_hz,
                EppChoice *out)
{
    EppExpected e;
    epp_expected(m, D, pd, 1.0, &e);
    double extra = (double)(c_bps - r_bps);
    if (extra < 0.0)
        extra = 0.0;
    double per_update_bits = extra / rate_hz; /* (C-R) T */
    double sp = per_update_bits / (8.0 * EPP_PAYLOAD_BYTES);
    double si = per_update_bits / (8.0 * (EPP_HEADER_BYTES + EPP_PAYLOAD_BYTES));
    out->share_piggy = sp > 1.0 ? 1.0 : sp;
    out->share_indep = si > 1.0 ? 1.0 : si;
    out->cost_piggy = out->share_piggy * e.piggy + (1.0 - out->share_piggy) * e.dr;
    out->cost_indep = out->share_indep * e.indep + (1.0 - out->share_indep) * e.dr;
    if (m == EPP_RD)
        out->pack = EPP_PACK_INDEPENDENT; /* Section 7.1: xd must go alone */
    else
        out->pack = out->cost_piggy < out->cost_indep ? EPP_PACK_PIGGYBACK : EPP_PACK_INDEPENDENT;
}

/* D: the mean delay in update periods, rounded up so that the update x[n]
 * has on average arrived at (n+D)T; at least 1 (Section 3.2: D >= 1). */
int epp_horizon(double mean_delay_us, int rate_hz)
{
    double periods = mean_delay_us * rate_hz / 1e6;
    double d = ceil(periods - 1e-9);
    if (!(d >= 1.0))
        return 1;
    if (d > 1e6)
        return 1000000;
    return (int)d;
}

int64_t epp_stream_bps(int rate_hz)
{
    return (int64_t)rate_hz * (EPP_HEADER_BYTES + EPP_PAYLOAD_BYTES) * 8;
}

void epp_bucket_init(EppBucket *b, int64_t c_bps, int64_t r_bps, int rate_hz, int size_bytes)
{
    b->tokens = 0;
    b->fill = c_bps > r_bps ? c_bps - r_bps : 0;
    b->size = (int64_t)size_bytes * 8 * rate_hz;
    b->cap = b->size + b->fill;
    b->updates = 0;
}

void epp_bucket_init_budget(EppBucket *b, int64_t budget_bits_per_update, int size_bytes)
{
    b->tokens = 0;
    b->fill = budget_bits_per_update > 0 ? budget_bits_per_update : 0;
    b->size = (int64_t)size_bytes * 8;
    b->cap = b->size + b->fill;
    b->updates = 0;
}

bool epp_bucket_update(EppBucket *b)
{
    if (b->updates++ > 0) {
        b->tokens += b->fill;
        if (b->tokens > b->cap)
            b->tokens = b->cap;
    }
    if (b->fill > 0 && b->tokens >= b->size) {
        b->tokens -= b->size;
        return true;
    }
    return false;
}

/* Regularised lower incomplete gamma: series for x < a + 1, otherwise the
 * continued fraction of Q = 1 - P (modified Lentz). */
double epp_gamma_p(double a, double x)
{
    if (!(x > 0.0) || !(a > 0.0))
        return 0.0;
    double lead = -x + a * log(x) - lgamma(a);
    if (x < a + 1.0) {
        double term = 1.0 / a, sum = term, ap = a;
        for (int n = 0; n < 1000; n++) {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if (fabs(term) < fabs(sum) * 1e-16)
                break;
        }
        return sum * exp(lead);
    }
    const double tiny = 1e-300;
    double b = x + 1.0 - a, c = 1.0 / tiny, d = 1.0 / b, h = d;
    for (int i = 1; i < 1000; i++) {
        double an = -i * (i - a);
        b += 2.0;
        d = an * d + b;
        if (fabs(d) < tiny)
            d = tiny;
        c = b + an / c;
        if (fabs(c) < tiny)
            c = tiny;
        d = 1.0 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1.0) < 1e-16)
            break;
    }
    return 1.0 - exp(lead) * h;
}
