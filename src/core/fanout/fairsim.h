/* One sender, N receivers: the world of the fairness paper (Aggarwal et al.,
 * NetGames'05, Sections 3-5). The sender's true path is one car of a
 * recording; DR vectors are computed at the recording's sample instants when
 * the exported vector's prediction error exceeds a threshold (Section 3,
 * footnote 2); a fairness algorithm decides when each receiver is sent each
 * vector; DR vectors and the receivers' delay feedback travel through
 * emulated links; the true accumulated export error at every receiver is
 * integrated exactly (drvec.h) and sampled every snapshot period.
 *
 * Model decisions (the papers are silent):
 *   - DR_0 (the first sample) is known to every receiver at t = 0 (every
 *     terminal knows the grid) and is not counted as sent.
 *   - The exported path is the sequence of every computed DR vector, sent or
 *     not, so every algorithm sees the same triggers and the same vectors.
 *   - Receivers place vectors with the global clock (timestamped, after
 *     export error 0); an older vector than the placed one is ignored.
 *   - Common random numbers: at every trigger the sim draws one forward and
 *     one reverse link fate per receiver, whether or not the algorithm sends,
 *     so algorithms differ only by their own decisions.
 *   - Feedback is reliable (the paper assumes it): reverse loss is ignored,
 *     the reverse delay applies. A lost DR vector yields no feedback.
 *
 * Contracts:
 *   fair_sample_vec(rec, car, period_us, velocity, i, &v)  the sender's DR
 *        vector at sample i (position; recorded or backward-difference
 *        velocity, 0 at i = 0 for the difference).
 *   fairsim_new(cfg, algo, err)  allocate everything; NULL + err on bad cfg.
 *   fairsim_step(s)     process every event at the next event time; false
 *                       when the run is over (time past cfg->duration_us).
 *   fairsim_run(s, out, err)  step to the end and fill out (a FairSeries
 *                       owned by the caller; free with fairseries_free).
 *   fairsim_free(s)     NULL-safe.
 *   fair_count_triggers(cfg, threshold_cw)  the DR vectors (after DR_0) the
 *        sender computes on cfg's path up to cfg->duration_us at that
 *        threshold, with cfg's trigger rule (heartbeat); cfg->rec must be
 *        valid; duration_us 0 = the whole path (not rounded to snapshots).
 *   Queries: fairsim_now_us, fairsim_triggers (DR vectors computed after
 *   DR_0), fairsim_sent, fairsim_true_error(s, m) (cw*s, integrated up to
 *   now), fairsim_algo_state (the algorithm's own struct, for tests).
 *   Services for algorithms (only the current vector can be sent):
 *   fairsim_vec(s, id), fairsim_cur_id, fairsim_send_at(s, m, t_us) (replaces
 *   any unsent schedule of m), fairsim_pending(s, m, &id) (scheduled and not
 *   yet sent), fairsim_cancel(s, m) (Section 4.6 flush), fairsim_rng.
 *
 * Experiments: fair_experiment_run runs every algorithm for every seed and
 * keeps every series as data (FairResults) for the CLI and the window; with
 * budget_threshold_auto it first finds the lowered threshold of Section
 * 5.1 step a) (the largest with t' >= n t / B triggers, t the triggers at
 * cfg.threshold_cw) and reports it in FairResults.budget_threshold_cw;
 * fair_results_write_csv writes the long-format CSV; fair_results_summary
 * averages final values over seeds.
 */
#ifndef NR_FAIRSIM_H
#define NR_FAIRSIM_H

#include "drvec.h"
#include "link.h"
#include "nr_common.h"
#include "recording.h"
#include "rng.h"

#include <stdio.h>

#define FAIR_MAX_RECEIVERS 64
#define FAIR_MAX_ALGOS 16

typedef enum FairVelocity {
    FAIR_VEL_RECORDED = 0, /* speed and heading columns of the recording */
    FAIR_VEL_DIFF = 1      /* backward difference of the last two samples */
} FairVelocity;

/* The readings of the fairness paper's Sections 4.6 and 5 where the text
 * allows more than one (docs/fairness.md lists each with the phrase it comes
 * from). Zero is the default: the reading the text supports best. */
typedef enum FairAccumulated {
    FAIR_ACC_GAME = 0,      /* a_m: m's accumulated export error since the start of the game */
    FAIR_ACC_RELATIVE = 1,  /* a_m: m's accumulated relative export error R (Section 4.2), sum of A - S */
    FAIR_ACC_SINCE_LAST = 2 /* a_m: what m accumulated since the last vector sent to it */
} FairAccumulated;

typedef enum FairErrorSource {
    FAIR_ERR_ESTIMATE = 0, /* a vector counts its estimate S when sent, corrected by A - S on feedback */
    FAIR_ERR_FEEDBACK = 1  /* a vector counts nothing until its feedback brings A */
} FairErrorSource;

typedef struct FairReadings {
    FairAccumulated accumulated; /* the budget algorithms' weights a_m (Section 5.1) */
    FairErrorSource error_source; /* every belief user (Sections 4.6 second case, 5.1) */
    int third_first;              /* base-third: first trigger sent (1, 2 or 3); 0 = 3 */
    int64_t heartbeat_us;         /* also trigger when a vector is this old (BZFlag's MaxUpdateTime); 0 = never */
    int64_t measure_from_us;      /* snapshots and accumulation start here (whole snapshots); 0 = game start */
} FairReadings;

typedef struct FairConfig {
    const Recording *rec;
    int car;                  /* 0-based car of rec that is the sender */
    int64_t duration_us;      /* 0 or more than the path = whole path; rounded down to whole snapshots */
    double threshold_cw;      /* DR trigger threshold; 0 = 0.25 */
    FairVelocity velocity;
    int nrecv;                /* 1..FAIR_MAX_RECEIVERS */
    const LinkSpec *fwd;      /* [nrecv] sender -> receiver */
    const LinkSpec *rev;      /* [nrecv] receiver -> sender (feedback) */
    uint64_t seed;
    int64_t snapshot_us;      /* 0 = 100 ms */
    double budget;            /* budget-*: DR vectors per trigger; 0 = nrecv / 3 */
    int64_t max_delta_us;     /* fair-schedule: cap on delta; 0 = 2 s */
    double ewma_gain;         /* fair-schedule: delay EWMA gain; 0 = 1/8 */
    double ewma_var_gain;     /* fair-schedule: deviation EWMA gain; 0 = 1/4 */
    FairReadings readings;    /* zero = the default readings */
} FairConfig;

typedef struct FairSim FairSim;

/* An algorithm: a vtable plus its own state (state_size bytes, zeroed). */
typedef struct FairAlgo {
    const char *name;
    const char *summary;
    size_t state_size;
    bool lowered_threshold; /* a budget algorithm: runs at FairExperiment's budget threshold */
    bool (*init)(void *state, FairSim *s, NrError *err);
    /* DR vector id was computed at t_us (it is fairsim_cur_id). */
    void (*on_trigger)(void *state, FairSim *s, int64_t id, int64_t t_us);
    /* feedback of receiver m: vector id was sent at send_us and took da_us. */
    void (*on_feedback)(void *state, FairSim *s, int m, int64_t id, int64_t send_us, int64_t da_us);
} FairAlgo;

extern const FairAlgo *const fair_algos[]; /* NULL-terminated, fair/fair_registry.c */
const FairAlgo *fair_algo_find(const char *name);

/* Per-snapshot series of one (algorithm, seed) run, as data. */
typedef struct FairSeries {
    char algo[32];
    uint64_t seed;
    int nrecv;
    int nsnap;
    double *t_s;      /* [nsnap] */
    double *mean;     /* [nsnap] mean of the accumulated export errors, cw*s */
    double *sd;       /* [nsnap] population standard deviation across receivers */
    int64_t *dr_sent; /* [nsnap] DR vectors sent so far (one per receiver copy) */
    double *err;      /* [nsnap * nrecv] accumulated export error of receiver m */
    int64_t triggers; /* DR vectors computed (after DR_0) */
} FairSeries;

void fairseries_free(FairSeries *fs);

/* The sender's DR vector at sample i of car: the sample's position with the
 * velocity velocity says (shared by fairsim and accuracy). */
void fair_sample_vec(const Recording *rec, int car, int64_t period_us, FairVelocity velocity, int i, DrVec *v);
FairSim *fairsim_new(const FairConfig *cfg, const FairAlgo *algo, NrError *err);
bool fairsim_step(FairSim *s);
bool fairsim_run(FairSim *s, FairSeries *out, NrError *err);
void fairsim_free(FairSim *s);
int64_t fair_count_triggers(const FairConfig *cfg, double threshold_cw);

int64_t fairsim_now_us(const FairSim *s);
int64_t fairsim_triggers(const FairSim *s);
int64_t fairsim_sent(const FairSim *s);
double fairsim_true_error(const FairSim *s, int m);
void *fairsim_algo_state(FairSim *s);

const FairConfig *fairsim_config(const FairSim *s);
int fairsim_nrecv(const FairSim *s);
const DrVec *fairsim_vec(const FairSim *s, int64_t id);
int64_t fairsim_cur_id(const FairSim *s);
void fairsim_send_at(FairSim *s, int m, int64_t t_us);
bool fairsim_pending(const FairSim *s, int m, int64_t *id);
void fairsim_cancel(FairSim *s, int m);
Rng *fairsim_rng(FairSim *s);

/* Experiments: every algorithm x every seed (seed, seed + 1, ...). */
typedef struct FairExperiment {
    FairConfig cfg;   /* cfg.seed is the first seed */
    /* Section 5.1 step a): the budget algorithms' lowered DR threshold
     * (cw); 0 = cfg.threshold_cw, as in the paper's experiments, which keep
     * the threshold and compare with base-third instead. */
    double budget_threshold_cw;
    /* Section 5.1 step a) read literally: lower the budget algorithms'
     * threshold until they have n/B times base's triggers (n't' = nt);
     * overrides budget_threshold_cw. */
    bool budget_threshold_auto;
    const FairAlgo *algos[FAIR_MAX_ALGOS];
    int nalgos;
    int runs;
    /* With item_range, only items [item_first, item_end) of the nalgos x
     * runs (item = algo * runs + run, algorithm-major as the series): one
     * shard's part (`--shard I/N`); without, all of them. */
    bool item_range;
    int64_t item_first, item_end;
} FairExperiment;

typedef struct FairResults {
    int nseries;       /* nalgos * runs (or the items run), algorithm-major */
    int nrecv;         /* receivers, for the CSV header of no series */
    FairSeries *series;
    double budget_threshold_cw; /* what the budget algorithms ran at (cw) */
    int64_t budget_triggers_want, budget_triggers_got; /* auto threshold: t' wanted and reached */
} FairResults;

typedef struct FairSummary {
    const char *algo;
    double final_mean; /* cw*s, mean over seeds */
    double final_sd;
    double dr_sent;
    double triggers;
    int nrecv;
    double final_err[FAIR_MAX_RECEIVERS]; /* receiver m's final accumulated error */
} FairSummary;

bool fair_experiment_run(const FairExperiment *ex, FairResults *out, NrError *err);
void fair_results_free(FairResults *r);
bool fair_results_write_csv(const FairResults *r, FILE *f, NrError *err);
/* The same rows, each after the text `values` (e.g. "300,100,"), and the
 * header (after `names`, e.g. "r1,jitter,") only when header is set: the
 * CSV of several experiments, one column per varied parameter. */
bool fair_results_write_csv_prefixed(const FairResults *r, FILE *f, const char *names, const char *values,
                                     bool header, NrError *err);
/* rows[nalgos]; series are grouped by algorithm name in order of appearance. */
int fair_results_summary(const FairResults *r, FairSummary *rows, int max_rows);

#endif
