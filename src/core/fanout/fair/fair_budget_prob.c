/* budget-prob: one budget of DR vectors per trigger, receivers drawn by
 * their accumulated export error (fairness paper Section 5.1). */
#include "fair_budget.h"

#include <math.h>

int budget_prob_pick(const double *a, const bool *chosen, int n, double u)
{
    double sum = 0.0;
    for (int m = 0; m < n; m++)
        if (!chosen[m])
            sum += a[m] > 0.0 ? a[m] : 0.0;
    if (!(sum > 0.0))
        return -1;
    u *= sum;
    int pick = -1;
    for (int m = 0; m < n; m++) {
        if (chosen[m] || !(a[m] > 0.0))
            continue;
        pick = m;
        u -= a[m];
        if (u < 0.0)
            break;
    }
    return pick;
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
    double a[FAIR_MAX_RECEIVERS]; /* a_m of the configured reading */
    belief_weights(&b->b, a);
    for (int j = 0; j < k; j++) {
        bool weighted = false; /* some receiver left has a weight > 0 */
        int left = 0;
        for (int m = 0; m < n; m++)
            if (!chosen[m]) {
                weighted |= a[m] > 0.0;
                left++;
            }
        int pick = -1;
        if (weighted) {
            pick = budget_prob_pick(a, chosen, n, rng_uniform(rng));
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

const FairAlgo fair_algo_budget_prob = {
    .name = "budget-prob",
    .summary = "budget of N/3 vectors per trigger, receivers drawn by accumulated error (Section 5.1)",
    .state_size = sizeof(BudgetState),
    .lowered_threshold = true,
    .init = budget_init,
    .on_trigger = prob_trigger,
    .on_feedback = budget_feedback,
};
