/* fair-schedule: per-receiver sending delays that equalise the accumulated
 * export error (fairness paper Section 4, equation (1)). */
#include "fair_schedule.h"

int64_t fair_schedule_delta(const FairBelief *b, const FairSim *s, int m, double target, int64_t cap_us,
                            bool *capped)
{
    *capped = false;
    if (!(target > 0.0))
        return 0;
    double base = belief_err_after(b, s, m, 0);
    if (belief_err_after(b, s, m, cap_us) - base < target) {
        *capped = true;
        return cap_us;
    }
    int64_t lo = 0, hi = cap_us; /* f(lo) < target <= f(hi) */
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (belief_err_after(b, s, m, mid) - base >= target)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

static bool fs_init(void *st, FairSim *s, NrError *err)
{
    (void)err;
    FairScheduleState *f = st;
    belief_init(&f->b, s);
    return true;
}

static void fs_trigger(void *st, FairSim *s, int64_t id, int64_t t_us)
{
    (void)id;
    (void)t_us;
    FairScheduleState *f = st;
    int n = fairsim_nrecv(s);
    belief_begin_trigger(&f->b, s);
    double emax = 0.0;
    for (int m = 0; m < n; m++) {
        f->acc_before[m] = f->b.acc[m];
        f->e_before[m] = belief_estimate(&f->b, s, m, 0);
        if (m == 0 || f->e_before[m] > emax)
            emax = f->e_before[m];
    }
    int64_t cap = fairsim_config(s)->max_delta_us;
    for (int m = 0; m < n; m++) {
        f->delta_us[m] = fair_schedule_delta(&f->b, s, m, emax - f->e_before[m], cap, &f->capped[m]);
        f->e_after[m] = belief_estimate(&f->b, s, m, f->delta_us[m]);
        belief_commit(&f->b, s, m, f->delta_us[m]);
    }
    f->schedules++;
}

static void fs_feedback(void *st, FairSim *s, int m, int64_t id, int64_t send_us, int64_t da_us)
{
    FairScheduleState *f = st;
    belief_feedback(&f->b, s, m, id, send_us, da_us);
}

const FairAlgo fair_algo_fair_schedule = {
    .name = "fair-schedule",
    .summary = "per-receiver delays equalising accumulated export error (Section 4)",
    .state_size = sizeof(FairScheduleState),
    .init = fs_init,
    .on_trigger = fs_trigger,
    .on_feedback = fs_feedback,
};
