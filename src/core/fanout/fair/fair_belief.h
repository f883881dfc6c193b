/* The sender's belief of each receiver's accumulated export error
 * (fairness paper Sections 4.1, 4.2 and 4.6), shared by the algorithms that
 * need it (fair-schedule, budget-prob, budget-det).
 *
 * For every vector scheduled to receiver m the sender adds its estimate
 * S = Err(DR_i vs placed, T_i, T_i + delta + dt_m) with its delay estimate
 * dt_m; when m's feedback da arrives it adds the relative export error
 * A - S with A = Err(DR_i vs placed, T_i, T_i + delta + da) (Section 4.1;
 * late feedback is folded in whenever it comes, Section 4.6 second case).
 * A vector not sent to m (skipped, or scheduled and flushed by the next
 * trigger, Section 4.6 first case) adds the exact error of the interval it
 * was the exported one: Err(DR_i vs placed, T_i, T_{i+1}); a flushed
 * estimate is taken back. The placed vector the sender assumes at m is the
 * last one sent to m.
 *
 * Readings (FairReadings, docs/fairness.md):
 *   error_source FAIR_ERR_FEEDBACK: a vector sent to m is accounted 0 (not
 *     S) until its feedback adds A; a flushed one adds its exact error.
 *   belief_weights gives the budget algorithms' a_m: acc (FAIR_ACC_GAME),
 *     rel, the sum of A - S over the feedback received (FAIR_ACC_RELATIVE,
 *     Section 4.2's R), or what m accumulated since the last vector sent
 *     to it before the current trigger (FAIR_ACC_SINCE_LAST: acc minus acc
 *     just before that commit; a receiver already sent the current vector
 *     counts its whole last gap and the new vector's estimate; DR_0 at
 *     t = 0 counts as the first vector).
 *
 * Delay estimate: an EWMA like TCP's smoothed RTT (RFC 6298 gains):
 *   dev <- (1 - beta) dev + beta |est - da|;  est <- (1 - alpha) est + alpha da
 * with alpha = cfg->ewma_gain (1/8) and beta = cfg->ewma_var_gain (1/4).
 * The estimate starts at the link's nominal mean (what the clock
 * synchronisation handshake measures before the game starts).
 *
 * Contracts:
 *   belief_init(b, s)              from the sim's config.
 *   belief_begin_trigger(b, s)     at a trigger, before scheduling the new
 *        vector: closes the previous vector for every receiver (flushes
 *        unsent schedules in the sim).
 *   belief_estimate(b, s, m, delta_us)  acc_m + S for the current vector.
 *   belief_err_after(b, s, m, delta_us) S alone, the estimate's integral.
 *   belief_commit(b, s, m, delta_us)    schedule the current vector to m at
 *        T + delta and account its estimate.
 *   belief_feedback(b, s, m, id, send_us, da_us)
 *   belief_weights(b, s, w)  w[m] = a_m of the configured reading (cw*s,
 *        may be negative for FAIR_ACC_RELATIVE: callers clip at 0).
 */
#ifndef NR_FAIR_BELIEF_H
#define NR_FAIR_BELIEF_H

#include "fairsim.h"

#define BELIEF_RING 256

typedef struct BeliefRec {
    int64_t id, prev_id, send_us;
    double s;   /* what was accounted when scheduled: S, or 0 with FAIR_ERR_FEEDBACK */
    double est; /* the estimate S itself */
} BeliefRec;

typedef struct FairBelief {
    int n;
    double gain, var_gain;
    FairErrorSource source;
    FairAccumulated weight;
    double acc[FAIR_MAX_RECEIVERS];      /* cw*s */
    double rel[FAIR_MAX_RECEIVERS];      /* sum of A - S over feedback received, cw*s */
    double acc_at_send[FAIR_MAX_RECEIVERS]; /* acc just before the last commit to m */
    double acc_at_prev_send[FAIR_MAX_RECEIVERS]; /* ... and just before the one before */
    double acc_at_trigger[FAIR_MAX_RECEIVERS]; /* acc after the last begin_trigger */
    int64_t triggers;                    /* begin_trigger calls */
    int64_t placed[FAIR_MAX_RECEIVERS];  /* id the sender assumes placed at m */
    double dt_us[FAIR_MAX_RECEIVERS];    /* smoothed delay estimate */
    double dev_us[FAIR_MAX_RECEIVERS];   /* smoothed deviation */
    bool sched[FAIR_MAX_RECEIVERS];      /* current vector scheduled to m */
    int nrec[FAIR_MAX_RECEIVERS];
    BeliefRec rec[FAIR_MAX_RECEIVERS][BELIEF_RING]; /* awaiting feedback */
    int64_t dropped;                     /* records lost to a full ring */
} FairBelief;

void belief_init(FairBelief *b, const FairSim *s);
void belief_begin_trigger(FairBelief *b, FairSim *s);
double belief_err_after(const FairBelief *b, const FairSim *s, int m, int64_t delta_us);
double belief_estimate(const FairBelief *b, const FairSim *s, int m, int64_t delta_us);
void belief_commit(FairBelief *b, FairSim *s, int m, int64_t delta_us);
void belief_feedback(FairBelief *b, const FairSim *s, int m, int64_t id, int64_t send_us, int64_t da_us);
void belief_weights(const FairBelief *b, double *w);

#endif
