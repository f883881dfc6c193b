/* Linear dead-reckoning vectors and their export error (accuracy paper
 * Section 2; fairness paper Sections 3 and 4.3).
 *
 * A DrVec (T, x, y, vx, vy) is exported by a sender at time T: the position
 * it implies at time t is (x + vx (t - T), y + vy (t - T)). Positions are in
 * car widths (cw), velocities in cw/s, times in integer microseconds.
 * Export error = integral over time of the Euclidean distance between two
 * linear trajectories, in cw*s.
 *
 * Contracts:
 *   drvec_at(v, t_us, &x, &y)   position implied by v at time t_us.
 *   drvec_exceeds(v, t_us, x, y, threshold_cw)  THE dead-reckoning trigger of
 *        every DR sender (racing paper Section 3, accuracy paper Section 2,
 *        fairness paper Section 3 footnote 2): true when the true position
 *        (x, y) at t_us is more than threshold_cw (strictly) from where v
 *        places it, i.e. when a new vector must be sent.
 *   sqrtquad_integral(a, b, c, t1, t2)  closed form of the integral of
 *        sqrt(a t^2 + b t + c) over [t1, t2] (seconds), for a >= 0 and a
 *        quadratic that is non-negative on [t1, t2] (a squared distance).
 *        a = 0, b^2 = 4ac and c = 0 are handled exactly; the logarithm of
 *        the textbook form is written as asinh so that it does not cancel
 *        for negative arguments. Returns NAN when a < 0. t2 < t1 gives the
 *        oriented (negative) value.
 *   dist_integral(dx, dy, qx, qy, len_s)  integral over u in [0, len_s] of
 *        |(dx, dy) + (qx, qy) u|: the same closed form with the discriminant
 *        taken from a cross product (no cancellation).
 *   drvec_err(e, p, t1_us, t2_us)  Err of the papers: integral over
 *        [t1_us, t2_us] of the distance between the trajectories of e and p;
 *        exactly 0 when e and p are the same vector; oriented when t2 < t1.
 *   ExportAcc   accumulated export error at one receiver: the exported path
 *        (the sender's latest DR vector) against the placed path (the vector
 *        the receiver renders). Time only moves forward.
 *   exportacc_init(a, v0, id0, t0_us)   both paths start as v0.
 *   exportacc_advance(a, t_us)          integrate up to t_us; a segment
 *        counts as "after export" error when the placed vector is the
 *        exported one (same id), "before export" error otherwise.
 *   exportacc_export(a, t_us, v, id)    advance, then the sender exports v.
 *   exportacc_place(a, t_us, v, id)     advance, then the receiver places v
 *        (v as the receiver uses it: the global-clock receiver places the
 *        vector unchanged, the local-clock receiver re-stamps T with its
 *        receipt time). A vector older than the placed one (id <= placed id)
 *        is ignored and false returned.
 */
#ifndef NR_DRVEC_H
#define NR_DRVEC_H

#include "nr_common.h"

typedef struct DrVec {
    int64_t t_us; /* T: time the vector was computed (sender's clock) */
    double x, y;  /* cw */
    double vx, vy; /* cw/s */
} DrVec;

void drvec_at(const DrVec *v, int64_t t_us, double *x, double *y);
bool drvec_exceeds(const DrVec *v, int64_t t_us, double x, double y, double threshold_cw);
double sqrtquad_integral(double a, double b, double c, double t1, double t2);
double dist_integral(double dx, double dy, double qx, double qy, double len_s);
double drvec_err(const DrVec *e, const DrVec *p, int64_t t1_us, int64_t t2_us);

typedef struct ExportAcc {
    DrVec exported;
    int64_t exp_id;
    DrVec placed;
    int64_t placed_id;
    int64_t t_us;  /* integrated up to here */
    double before; /* cw*s while the placed vector is an older one */
    double after;  /* cw*s while the placed vector is the exported one */
} ExportAcc;

void exportacc_init(ExportAcc *a, const DrVec *v0, int64_t id0, int64_t t0_us);
void exportacc_advance(ExportAcc *a, int64_t t_us);
void exportacc_export(ExportAcc *a, int64_t t_us, const DrVec *v, int64_t id);
bool exportacc_place(ExportAcc *a, int64_t t_us, const DrVec *v, int64_t id);
double exportacc_total(const ExportAcc *a);

#endif
