/* Sender-side estimate of every receiver's accumulated export error. */
#include "fair_belief.h"

#include <math.h>

void belief_init(FairBelief *b, const FairSim *s)
{
    const FairConfig *cfg = fairsim_config(s);
    b->n = cfg->nrecv;
    b->gain = cfg->ewma_gain;
    b->var_gain = cfg->ewma_var_gain;
    b->source = cfg->readings.error_source;
    b->weight = cfg->readings.accumulated;
    for (int m = 0; m < b->n; m++) {
        b->acc[m] = 0.0;
        b->rel[m] = 0.0;
        b->acc_at_send[m] = 0.0;
        b->acc_at_prev_send[m] = 0.0;
        b->placed[m] = 0;
        b->dt_us[m] = linkspec_mean_ms(&cfg->fwd[m]) * (double)NR_US_PER_MS;
        if (!(b->dt_us[m] >= 0.0))
            b->dt_us[m] = 0.0;
        b->dev_us[m] = b->dt_us[m] / 2.0;
        b->sched[m] = false;
        b->nrec[m] = 0;
    }
    b->dropped = 0;
}

static int find_rec(const FairBelief *b, int m, int64_t id)
{
    for (int k = b->nrec[m] - 1; k >= 0; k--)
        if (b->rec[m][k].id == id)
            return k;
    return -1;
}

static void remove_rec(FairBelief *b, int m, int k)
{
    b->rec[m][k] = b->rec[m][b->nrec[m] - 1];
    b->nrec[m]--;
}

void belief_begin_trigger(FairBelief *b, FairSim *s)
{
    int64_t cur = fairsim_cur_id(s);
    int64_t p = cur - 1; /* the vector that stops being the exported one */
    if (p < 0)
        return;
    for (int m = 0; m < b->n; m++)
        b->acc_at_trigger[m] = b->acc[m];
    const DrVec *vp = fairsim_vec(s, p);
    int64_t t_now = fairsim_vec(s, cur)->t_us;
    for (int m = 0; m < b->n; m++) {
        int64_t pid;
        if (b->sched[m] && fairsim_pending(s, m, &pid) && pid == p) {
            /* Section 4.6, first case: flush the unsent schedule; the error
             * of DR_p at m is exactly Err(DR_p, T_p, T_{p+1}). */
            fairsim_cancel(s, m);
            int k = find_rec(b, m, p);
            if (k >= 0) {
                BeliefRec r = b->rec[m][k];
                remove_rec(b, m, k);
                b->placed[m] = r.prev_id;
                b->acc[m] += drvec_err(vp, fairsim_vec(s, r.prev_id), vp->t_us, t_now) - r.s;
            }
        } else if (!b->sched[m]) {
            b->acc[m] += drvec_err(vp, fairsim_vec(s, b->placed[m]), vp->t_us, t_now);
        }
        b->sched[m] = false;
        b->acc_at_trigger[m] = b->acc[m];
    }
    b->triggers++;
}

double belief_err_after(const FairBelief *b, const FairSim *s, int m, int64_t delta_us)
{
    const DrVec *v = fairsim_vec(s, fairsim_cur_id(s));
    int64_t end = v->t_us + delta_us + (int64_t)llround(b->dt_us[m]);
    return drvec_err(v, fairsim_vec(s, b->placed[m]), v->t_us, end);
}

double belief_estimate(const FairBelief *b, const FairSim *s, int m, int64_t delta_us)
{
    return b->acc[m] + belief_err_after(b, s, m, delta_us);
}

void belief_commit(FairBelief *b, FairSim *s, int m, int64_t delta_us)
{
    int64_t cur = fairsim_cur_id(s);
    double est = belief_err_after(b, s, m, delta_us);
    if (b->nrec[m] >= BELIEF_RING) {
        /* drop the oldest record (remove_rec reorders, so not slot 0) */
        int old = 0;
        for (int k = 1; k < b->nrec[m]; k++)
            if (b->rec[m][k].id < b->rec[m][old].id)
                old = k;
        remove_rec(b, m, old);
        b->dropped++;
    }
    /* FAIR_ERR_FEEDBACK: nothing is counted before the receiver confirms */
    double counted = b->source == FAIR_ERR_FEEDBACK ? 0.0 : est;
    BeliefRec r = {.id = cur, .prev_id = b->placed[m], .send_us = fairsim_vec(s, cur)->t_us + delta_us,
                   .s = counted, .est = est};
    b->rec[m][b->nrec[m]++] = r;
    b->acc_at_prev_send[m] = b->acc_at_send[m];
    b->acc_at_send[m] = b->acc[m];
    b->acc[m] += counted;
    b->placed[m] = cur;
    b->sched[m] = true;
    fairsim_send_at(s, m, r.send_us);
}

void belief_feedback(FairBelief *b, const FairSim *s, int m, int64_t id, int64_t send_us, int64_t da_us)
{
    double da = (double)da_us;
    b->dev_us[m] = (1.0 - b->var_gain) * b->dev_us[m] + b->var_gain * fabs(b->dt_us[m] - da);
    b->dt_us[m] = (1.0 - b->gain) * b->dt_us[m] + b->gain * da;
    int k = find_rec(b, m, id);
    if (k < 0)
        return;
    BeliefRec r = b->rec[m][k];
    remove_rec(b, m, k);
    const DrVec *v = fairsim_vec(s, id);
    /* Relative export error R = A - S (Section 4.2, Theorem 4.1's sign). */
    double actual = drvec_err(v, fairsim_vec(s, r.prev_id), v->t_us, send_us + da_us);
    b->acc[m] += actual - r.s;
    b->rel[m] += actual - r.est;
}

void belief_weights(const FairBelief *b, double *w)
{
    for (int m = 0; m < b->n; m++) {
        /* since-last: since the last vector sent before this trigger, so a
         * receiver just sent the current one is weighed by its whole gap */
        double since = b->acc[m] - (b->sched[m] ? b->acc_at_prev_send[m] : b->acc_at_send[m]);
        w[m] = b->weight == FAIR_ACC_RELATIVE ? b->rel[m] : b->weight == FAIR_ACC_SINCE_LAST ? since : b->acc[m];
    }
}
