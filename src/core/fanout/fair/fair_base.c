/* base: every DR vector to every receiver at once (fairness paper Section
 * 4.7, the base case). */
#include "fairsim.h"

static void base_trigger(void *st, FairSim *s, int64_t id, int64_t t_us)
{
    (void)st;
    (void)id;
    for (int m = 0; m < fairsim_nrecv(s); m++)
        fairsim_send_at(s, m, t_us);
}

const FairAlgo fair_algo_base = {
    .name = "base",
    .summary = "every trigger to every receiver at once",
    .state_size = 0,
    .on_trigger = base_trigger,
};
