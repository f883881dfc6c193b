/* fair-schedule: the DR vector scheduling algorithm of the fairness paper,
 * Section 4 (equation (1), Sections 4.5 and 4.6).
 *
 * At every trigger the sender computes E_m = (its belief of m's accumulated
 * export error, fair/fair_belief.h) + Err(DR_i vs placed, T_i, T_i + dt_m) for
 * every receiver, takes the largest, E_max (the paper's text says "smallest",
 * but only the largest can be reached by delaying the others, as its own
 * two-receiver derivation shows), gives that receiver delta = 0 and solves
 * E_m + Err(DR_i, T_i + dt_m, T_i + dt_m + delta_m) = E_max for the others.
 * The left side is non-decreasing in delta (an integral of a distance), so
 * bisection on whole microseconds finds the smallest delta that reaches
 * E_max; delta is capped at cfg->max_delta_us (2 s) when the two paths are
 * too close to ever catch up.
 *
 * Contracts:
 *   fair_schedule_delta(b, s, m, target, cap_us, &capped) smallest delta
 *        (us) with belief_err_after(delta) - belief_err_after(0) >= target.
 */
#ifndef NR_FAIR_SCHEDULE_H
#define NR_FAIR_SCHEDULE_H

#include "fair_belief.h"

typedef struct FairScheduleState {
    FairBelief b;
    /* at the last trigger, for tests and plots: */
    double e_before[FAIR_MAX_RECEIVERS]; /* E_m with delta = 0 */
    double e_after[FAIR_MAX_RECEIVERS];  /* E_m with the chosen delta */
    double acc_before[FAIR_MAX_RECEIVERS]; /* belief before the new estimate */
    int64_t delta_us[FAIR_MAX_RECEIVERS];
    bool capped[FAIR_MAX_RECEIVERS];
    int64_t schedules;
} FairScheduleState;

int64_t fair_schedule_delta(const FairBelief *b, const FairSim *s, int m, double target, int64_t cap_us,
                            bool *capped);

#endif
