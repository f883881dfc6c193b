/* base-third: every third trigger to every receiver (fairness paper Section
 * 5.1, the "1/3 base case"): triggers 3, 6, 9, ... are sent by default;
 * FairReadings.third_first 1 or 2 starts the cycle at trigger 1 or 2. */
#include "fairsim.h"

static void third_trigger(void *st, FairSim *s, int64_t id, int64_t t_us)
{
    (void)st;
    int64_t first = fairsim_config(s)->readings.third_first;
    if (id < first || (id - first) % 3 != 0)
        return;
    for (int m = 0; m < fairsim_nrecv(s); m++)
        fairsim_send_at(s, m, t_us);
}

const FairAlgo fair_algo_base_third = {
    .name = "base-third",
    .summary = "every third trigger to every receiver",
    .state_size = 0,
    .on_trigger = third_trigger,
};
