/* budget-det: the deterministic budget schedule with ceiling and credit
 * (fairness paper Section 5.2). */
#include "fair_budget.h"

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
        double a[FAIR_MAX_RECEIVERS]; /* a_m of the configured reading */
        belief_weights(&b->b, a);
        budget_frequencies(a, n, budget, b->freq);
    }
    for (int m = 0; m < n; m++)
        if (sent[m])
            b->tag[m] = id + budget_det_gap(b->freq[m], &b->credit[m]); /* step 6 */
}

const FairAlgo fair_algo_budget_det = {
    .name = "budget-det",
    .summary = "deterministic budget schedule with ceiling and credit (Section 5.2)",
    .state_size = sizeof(BudgetState),
    .lowered_threshold = true,
    .init = budget_init,
    .on_trigger = det_trigger,
    .on_feedback = budget_feedback,
};
