/* Budget based DR vector sending: the parts shared by budget-prob and
 * budget-det (fairness paper Section 5.2 steps 2-5). */
#include "fair_budget.h"

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

bool budget_init(void *st, FairSim *s, NrError *err)
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

void budget_feedback(void *st, FairSim *s, int m, int64_t id, int64_t send_us, int64_t da_us)
{
    BudgetState *b = st;
    belief_feedback(&b->b, s, m, id, send_us, da_us);
}
