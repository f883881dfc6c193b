/* Registry of the fairness algorithms (one sender, N receivers), by name. */
#include "fairsim.h"

extern const FairAlgo fair_algo_base;
extern const FairAlgo fair_algo_base_third;
extern const FairAlgo fair_algo_fair_schedule;
extern const FairAlgo fair_algo_budget_prob;
extern const FairAlgo fair_algo_budget_det;

const FairAlgo *const fair_algos[] = {
    &fair_algo_base,
    &fair_algo_base_third,
    &fair_algo_fair_schedule,
    &fair_algo_budget_prob,
    &fair_algo_budget_det,
    NULL,
};
