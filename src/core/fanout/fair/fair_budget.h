/* Budget based algorithms (fairness paper Section 5): one budget of B DR
 * vectors per trigger (B = cfg->budget, N/3 by default: the rate of the
 * base-third case, 1 for the paper's three receivers), shared out by the
 * receivers' accumulated export errors a_m as the sender believes them
 * (fair/fair_belief.h; which accumulated error is a reading,
 * FairReadings.accumulated, read by belief_weights).
 *
 *   budget-prob (5.1): at every trigger floor(B) receivers, plus one more
 *     with probability frac(B), are drawn without replacement with
 *     probability a_m / sum(a) (uniform while every a_m is 0).
 *   budget-det (5.2): receivers tagged for this trigger are sent the vector;
 *     if any was, frequencies f_m = B a_m / sum(a) are computed (step 2),
 *     capped at 1 with the surplus spread equally over the receivers still
 *     below 1 until none exceeds 1 (step 3), and every receiver just sent
 *     is tagged again gap = ceil(1/f_m - credit_m) triggers later, keeping
 *     credit_m = gap - (1/f_m - credit_m) (steps 4-6). The first trigger
 *     goes to every receiver with f_m = B/n. A frequency below 1/1000 is
 *     raised to 1/1000 so that no receiver is starved for ever.
 *
 * Contracts:
 *   budget_frequencies(acc, n, budget, freq)  steps 2-3; sum(freq) =
 *        min(budget, n) and every freq in [0, 1].
 *   budget_det_gap(freq, &credit)  steps 4-5; returns the gap (>= 1).
 *   budget_prob_pick(a, chosen, n, u)  Section 5.1's draw: with the weights
 *        a_m clipped at 0 over the receivers not yet chosen laid end to end
 *        (m = 0 first), the receiver whose stretch holds u * sum, for a
 *        uniform u in [0, 1); -1 when every such weight is 0 (the caller
 *        then draws uniformly).
 */
#ifndef NR_FAIR_BUDGET_H
#define NR_FAIR_BUDGET_H

#include "fair_belief.h"

#define BUDGET_MIN_FREQ 1e-3

void budget_frequencies(const double *acc, int n, double budget, double *freq);
int64_t budget_det_gap(double freq, double *credit);
int budget_prob_pick(const double *a, const bool *chosen, int n, double u);

typedef struct BudgetState {
    FairBelief b;
    int64_t tag[FAIR_MAX_RECEIVERS];  /* budget-det: trigger id of the next send */
    double credit[FAIR_MAX_RECEIVERS];
    double freq[FAIR_MAX_RECEIVERS];  /* last frequencies / probabilities */
} BudgetState;

/* shared vtable entries of budget-prob and budget-det */
bool budget_init(void *state, FairSim *s, NrError *err);
void budget_feedback(void *state, FairSim *s, int m, int64_t id, int64_t send_us, int64_t da_us);

#endif
