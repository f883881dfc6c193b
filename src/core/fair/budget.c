/* Budget based DR vector sending, probabilistic and deterministic
 * (fairness paper Sections 5.1 and 5.2). */
#include "budget.h"

#include <math.h>

void budget_frequencies(const double *acc, int n, double budget, double *freq)
{
    double sum = 0.0;
    for (int m = 0; m < n; m++)
        sum += acc[m] > 0.0 ? acc[m] : 0.0;
    for (int m = 0; m < n; m++) {
        double p = sum > 0.0 ? (acc[m] > 0.0 ? acc[m] : 0.0) / sum : 1.0 / n;
        freq[m] = p * budget; /* step 2 */
    }
    /* Step 3: cap at 1 (one copy per trigger at most) and spread the surplus
     * equally over the receivers still below 1, until none exceeds 1. */
    for (int round = 0; round < n + 1; round++) {
        double surplus = 0.0;
        int below = 0;
        for (int m = 0; m < n; m++) {
            if (freq[m] > 1.0) {
                surplus += freq[m] - 1.0;
                freq[m] = 1.0;
            } else if (freq[m] < 1.0) {
                below++;
            }
        }
        if (surplus <= 0.0 || below == 0)
            break;
        for (int m = 0; m < n; m++)
            if (freq[m] < 1.0)
                freq[m] += surplus / below;
    }
}

int64_t budget_det_gap(double freq, double *credit)
{
    if (freq < BUDGET_MIN_FREQ)
        freq = BUDGET_MIN_FREQ;
    double sched = 1.0 / freq - *credit; /* step 4 */
    /* ceil, ignoring rounding noise far below one trigger */
    double gap = ceil(sched - 1e-9);
    if (gap < 1.0)
        gap = 1.0;
    *credit = gap - sched; /* step 5 */
    if (*credit < 0.0)
        *credit = 0.0;
    return (int64_t)gap;
}

static bool budget_init(void *st, FairSim *s, NrError *err)
{
    (void)err;
    BudgetState *b = st;
    belief_init(&b->b, s);
    for (int m = 0; m < fairsim_nrecv(s); m++) {
        b->tag[m] = 1; /* the first trigger goes to everyone */
        b->credit[m] = 0.0;
    }
    return true;
}

static void budget_feedback(void *st, FairSim *s, int m, int64_t id, int64_t send_us, int64_t da_us)
{
    BudgetState *b = st;
    belief_feedback(&b->b, s, m, id, send_us, da_us);
}

static void prob_trigger(void *st, FairSim *s, int64_t id, int64_t t_us)
{
    (void)id;
    (void)t_us;
    BudgetState *b = st;
    int n = fairsim_nrecv(s);
    double budget = fairsim_config(s)->budget;
    belief_begin_trigger(&b->b, s);
    Rng *rng = fairsim_rng(s);
    int k = (int)floor(budget);
    double frac = budget - floor(budget);
    if (frac > 0.0 && rng_uniform(rng) < frac)
        k++;
    if (k > n)
        k = n;
    bool chosen[FAIR_MAX_RECEIVERS] = {false};
    for (int j = 0; j < k; j++) {
        double sum = 0.0;
        int left = 0;
        for (int m = 0; m < n; m++)
            if (!chosen[m]) {
                sum += b->b.acc[m] > 0.0 ? b->b.acc[m] : 0.0;
                left++;
            }
        int pick = -1;
        if (sum > 0.0) {
            double u = rng_uniform(rng) * sum;
            for (int m = 0; m < n; m++) {
                if (chosen[m] || !(b->b.acc[m] > 0.0))
                    continue;
                pick = m;
                u -= b->b.acc[m];
                if (u < 0.0)
                    break;
            }
        } else {
            int r = (int)rng_below(rng, (uint64_t)left);
            for (int m = 0; m < n; m++)
                if (!chosen[m] && r-- == 0) {
                    pick = m;
                    break;
                }
        }
        if (pick < 0)
            break;
        chosen[pick] = true;
    }
    for (int m = 0; m < n; m++) {
        b->freq[m] = chosen[m] ? 1.0 : 0.0;
        if (chosen[m])
            belief_commit(&b->b, s, m, 0);
    }
}

static void det_trigger(void *st, FairSim *s, int64_t id, int64_t t_us)
{
    (void)t_us;
    BudgetState *b = st;
    int n = fairsim_nrecv(s);
    double budget = fairsim_config(s)->budget;
    belief_begin_trigger(&b->b, s);
    bool sent[FAIR_MAX_RECEIVERS] = {false};
    bool any = false;
    for (int m = 0; m < n; m++)
        if (b->tag[m] <= id) { /* step 1 */
            belief_commit(&b->b, s, m, 0);
            sent[m] = any = true;
        }
    if (!any)
        return;
    if (id == 1) {
        double even[FAIR_MAX_RECEIVERS] = {0.0};
        budget_frequencies(even, n, budget, b->freq); /* relative probability 1/n */
    } else {
        budget_frequencies(b->b.acc, n, budget, b->freq);
    }
    for (int m = 0; m < n; m++)
        if (sent[m])
            b->tag[m] = id + budget_det_gap(b->freq[m], &b->credit[m]); /* step 6 */
}

const FairAlgo fair_algo_budget_prob = {
    .name = "budget-prob",
    .summary = "budget of N/3 vectors per trigger, receivers drawn by accumulated error (Section 5.1)",
    .state_size = sizeof(BudgetState),
    .init = budget_init,
    .on_trigger = prob_trigger,
    .on_feedback = budget_feedback,
};

const FairAlgo fair_algo_budget_det = {
    .name = "budget-det",
    .summary = "deterministic budget schedule with ceiling and credit (Section 5.2)",
    .state_size = sizeof(BudgetState),
    .init = budget_init,
    .on_trigger = det_trigger,
    .on_feedback = budget_feedback,
};
