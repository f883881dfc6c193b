/* Building blocks shared by the schemes: a gen-ordered MU ring (causality
 * buffers) and the first-order DR predictor of the racing paper (Section 3).
 * Both keep of an MU only what a display reads (MuKept): a third of the
 * bytes of an Mu, so a terminal's buffers of eight cars stay in cache.
 *
 * Contracts:
 *   mu_kept(mu)                      the kept fields of mu, unchanged.
 *   pose_from_mu / pose_from_kept    the pose an MU shows (its seq too).
 *   muring_clear(r, base)            empty ring whose fallback is base.
 *   muring_insert(r, mu)             keeps the ring sorted by gen; when full the
 *        oldest entry becomes the fallback (it was output long ago).
 *   muring_latest_before(r, t)       newest MU with gen <= t, else the fallback.
 *   drpred_reset(d, mu)              prediction from one MU, velocity 0.
 *   drpred_push(d, kept)             kept becomes the last MU, the old last the
 *        previous; returns false (and changes nothing) unless mu is newer.
 *   drpred_velocity(d, &vx, &vy)     (last - prev) / (gen_last - gen_prev).
 *   drpred_at(d, t, &x, &y, &heading)  last + v * (t - gen_last); the heading
 *        that of v (the last MU's when v = 0), found only when heading != NULL.
 */
#ifndef NR_SCHEME_UTIL_H
#define NR_SCHEME_UTIL_H

#include "scheme.h"

#define MURING_CAP 128 /* holds Delta up to ~4 s of 33 ms samples */

/* What the schemes keep of an MU: its time, pose and sample (the fields a
 * display, a prediction and the DR sender rule read). */
typedef struct MuKept {
    int64_t gen_us;
    double x, y, heading;
    int32_t seq;
} MuKept;

static inline MuKept mu_kept(const Mu *mu)
{
    return (MuKept){mu->gen_us, mu->x, mu->y, mu->heading, mu->seq};
}

/* Circular buffer sorted by gen from v[head] (oldest) onward. */
typedef struct MuRing {
    MuKept v[MURING_CAP];
    int head, n;
    MuKept base;
} MuRing;

void muring_clear(MuRing *r, const Mu *base);
void muring_insert(MuRing *r, const Mu *mu);
const MuKept *muring_latest_before(const MuRing *r, int64_t t_us);

typedef struct DrPred {
    double vx, vy; /* of the last two MUs, cached at each push */
    bool has_prev;
    MuKept last, prev; /* last first: a prediction reads it and the three above */
} DrPred;

void drpred_reset(DrPred *d, const Mu *mu);
bool drpred_push(DrPred *d, const MuKept *mu);
void drpred_velocity(const DrPred *d, double *vx, double *vy);
void drpred_at(const DrPred *d, int64_t t_us, double *x, double *y, double *heading);

/* The DR sender rule shared by every DR scheme: predict the own car at the
 * sample's time from the last two transmitted MUs and transmit when the
 * prediction error exceeds T_dr (racing paper Section 3). The transmitted MU
 * carries the velocity the receivers will extrapolate with. */
typedef struct DrSender {
    DrPred tx;
    double tdr_cw;
} DrSender;

void drsender_init(DrSender *s, const Mu *grid, double tdr_cw);
bool drsender_sample(DrSender *s, const Mu *mu, Mu *out);

void pose_from_mu(const Mu *mu, Pose *out);
void pose_from_kept(const MuKept *mu, Pose *out);

#endif
