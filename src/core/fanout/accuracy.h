/* Local- versus global-clock placement of DR vectors (accuracy paper,
 * Aggarwal et al., NetGames'04, Sections 2-3): one sender, receivers at
 * fixed delays, the instantaneous distance between the real path and the
 * placed path with each method, and the before / after export error split.
 *
 * The sender computes DR vectors with the fairsim trigger rule (threshold on
 * the prediction error of the current vector, at the recording's sample
 * instants) and stamps each with its own clock s(T) = T + offset + drift T.
 * Receivers read their clock r(t) = t + r_offset + r_drift t.
 *   local-clock receiver: places (x, y) on receipt at t_a and extrapolates
 *     with its own clock from then on: x + v (r(t) - r(t_a)) (the stamp is
 *     ignored; only the receivers' drift matters).
 *   global-clock receiver: extrapolates from the stamp: x + v (r(t) - s(T)).
 *     With perfect clocks this is the exported vector itself, so its after
 *     export error is exactly 0; an offset between the clocks shifts it.
 * DR_0 (the first sample) is known to every receiver at t = 0.
 *
 * Contracts:
 *   accuracy_run(cfg, out, err)   fills out (caller frees with
 *        accuracy_result_free); false + err on a bad config.
 *   accuracy_write_csv(res, f, err)  delay_ms,t_s,local_error,global_error,
 *        one row per delay per sample.
 */
#ifndef NR_ACCURACY_H
#define NR_ACCURACY_H

#include "fairsim.h"

#define ACCURACY_MAX_DELAYS 64

typedef struct AccuracyConfig {
    const Recording *rec;
    int car;                 /* 0-based */
    int64_t duration_us;     /* 0 = whole recording */
    double threshold_cw;     /* 0 = 0.25 */
    FairVelocity velocity;
    int ndelays;
    const int64_t *delay_us; /* [ndelays], >= 0 */
    int64_t clock_offset_us; /* sender clock minus true time at t = 0 */
    double clock_drift_ppm;  /* sender clock rate error */
    int64_t recv_offset_us;  /* receivers' clock minus true time at t = 0 */
    double recv_drift_ppm;   /* receivers' clock rate error */
} AccuracyConfig;

typedef struct AccuracyResult {
    int ndelays;
    int nsamples;
    int64_t delay_us[ACCURACY_MAX_DELAYS];
    double *t_s;          /* [nsamples] */
    double *local_err;    /* [d * nsamples + i] cw, real vs local-clock placed */
    double *global_err;   /* [d * nsamples + i] cw, real vs global-clock placed */
    double mean_local[ACCURACY_MAX_DELAYS], mean_global[ACCURACY_MAX_DELAYS];
    /* export error (exported vs placed path), cw*s */
    double before_local[ACCURACY_MAX_DELAYS], after_local[ACCURACY_MAX_DELAYS];
    double before_global[ACCURACY_MAX_DELAYS], after_global[ACCURACY_MAX_DELAYS];
    int64_t triggers;
} AccuracyResult;

bool accuracy_run(const AccuracyConfig *cfg, AccuracyResult *out, NrError *err);
void accuracy_result_free(AccuracyResult *r);
bool accuracy_write_csv(const AccuracyResult *r, FILE *f, NrError *err);

#endif
