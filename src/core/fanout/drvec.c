/* Linear DR vectors and the closed-form export error integral. */
#include "drvec.h"

#include <math.h>

void drvec_at(const DrVec *v, int64_t t_us, double *x, double *y)
{
    double dt = (double)(t_us - v->t_us) / (double)NR_US_PER_S;
    *x = v->x + v->vx * dt;
    *y = v->y + v->vy * dt;
}

bool drvec_exceeds(const DrVec *v, int64_t t_us, double x, double y, double threshold_cw)
{
    double px, py;
    drvec_at(v, t_us, &px, &py);
    /* Squares, not hypot: this runs at every sample of every DR sender, and
     * positions are bounded (RECORDING_MAX_POS) so nothing overflows. */
    double ex = x - px, ey = y - py;
    return ex * ex + ey * ey > threshold_cw * threshold_cw;
}

/* H(z) = integral of sqrt(z^2 + m^2) dz = (z sqrt(z^2+m^2) + m^2 asinh(z/m)) / 2.
 * The textbook form has ln(z + sqrt(z^2 + m^2)), which loses every digit for
 * z << 0 (the two terms cancel); asinh is odd and accurate on both sides and
 * differs from that logarithm by the constant m^2 ln(m) / 2, which cancels in
 * a definite integral. m = 0 (the b^2 = 4ac case: the two paths cross) gives
 * z |z| / 2 exactly. */
static double antideriv(double z, double m)
{
    double r = sqrt(z * z + m * m);
    if (m == 0.0 || m < 1e-300 * fabs(z))
        return 0.5 * z * fabs(z);
    return 0.5 * (z * r + m * m * asinh(z / m));
}

double sqrtquad_integral(double a, double b, double c, double t1, double t2)
{
    if (a < 0.0 || !isfinite(a) || !isfinite(b) || !isfinite(c))
        return NAN;
    if (t1 == t2)
        return 0.0;
    if (a == 0.0) {
        if (b == 0.0)
            return sqrt(c > 0.0 ? c : 0.0) * (t2 - t1);
        /* integral of sqrt(b t + c) = (2 / 3b) (b t + c)^(3/2) */
        double u1 = b * t1 + c, u2 = b * t2 + c;
        u1 = u1 > 0.0 ? u1 : 0.0;
        u2 = u2 > 0.0 ? u2 : 0.0;
        return 2.0 / (3.0 * b) * (u2 * sqrt(u2) - u1 * sqrt(u1));
    }
    /* Nearly constant distance (sqrt(a) |t2 - t1| <= 1e-3 of the distance at
     * t1): the completed square below cancels (h = b / 2a huge); one Simpson
     * panel is exact to ~1e-15 relative there (see dist_integral). */
    double q1 = (a * t1 + b) * t1 + c;
    if (q1 > 0.0 && sqrt(a) * fabs(t2 - t1) <= 1e-3 * sqrt(q1)) {
        double tm = 0.5 * (t1 + t2), qm = (a * tm + b) * tm + c, q2 = (a * t2 + b) * t2 + c;
        return (t2 - t1) / 6.0 * (sqrt(q1) + 4.0 * sqrt(qm > 0.0 ? qm : 0.0) + sqrt(q2 > 0.0 ? q2 : 0.0));
    }
    /* Complete the square: a t^2 + b t + c = a ((t + h)^2 + k^2) with
     * h = b / 2a and k^2 = (4ac - b^2) / 4a^2 (>= 0 for a squared distance;
     * rounding may make it slightly negative: clamp). */
    double h = b / (2.0 * a);
    double k2 = (4.0 * a * c - b * b) / (4.0 * a * a);
    double k = k2 > 0.0 ? sqrt(k2) : 0.0;
    double s = sqrt(a);
    /* substitute z = t + h: integral = sqrt(a) [H(z)] */
    return s * (antideriv(t2 + h, k) - antideriv(t1 + h, k));
}

double dist_integral(double dx, double dy, double qx, double qy, double len_s)
{
    double a = qx * qx + qy * qy;
    if (len_s == 0.0)
        return 0.0;
    if (a == 0.0)
        return hypot(dx, dy) * len_s;
    /* |d + q u| = sqrt(a) sqrt((u + h)^2 + k^2) with h = d.q / a and
     * k = |d x q| / a: the discriminant comes from the cross product, so the
     * b^2 - 4ac cancellation of the coefficient form never happens. With
     * z = |q| (u + h) and m = |d x q| / |q| (the closest approach of the two
     * paths): integral = [H(z)] / |q|. */
    double s = sqrt(a);
    /* Nearly the same velocity: when the offset changes by less than 1e-3 of
     * itself over the interval (|q| len <= 1e-3 |d|), h is huge and [H(z)]
     * is a difference of two nearly equal numbers (all digits lost at
     * |q| len ~ 1e-16 |d|). The distance is then smooth and far from 0, and
     * one Simpson panel is exact to ~1e-15 relative (error ~ (|q| len /
     * |d|)^4 / 1000). */
    double dn = hypot(dx, dy);
    if (s * fabs(len_s) <= 1e-3 * dn) {
        double hl = 0.5 * len_s;
        return len_s / 6.0 *
               (dn + 4.0 * hypot(dx + qx * hl, dy + qy * hl) + hypot(dx + qx * len_s, dy + qy * len_s));
    }
    double h = (dx * qx + dy * qy) / a;
    double m = fabs(dx * qy - dy * qx) / s;
    return (antideriv(s * (len_s + h), m) - antideriv(s * h, m)) / s;
}

double drvec_err(const DrVec *e, const DrVec *p, int64_t t1_us, int64_t t2_us)
{
    if (t1_us == t2_us)
        return 0.0;
    double ex, ey, px, py;
    drvec_at(e, t1_us, &ex, &ey);
    drvec_at(p, t1_us, &px, &py);
    double len = (double)(t2_us - t1_us) / (double)NR_US_PER_S;
    return dist_integral(ex - px, ey - py, e->vx - p->vx, e->vy - p->vy, len);
}

void exportacc_init(ExportAcc *a, const DrVec *v0, int64_t id0, int64_t t0_us)
{
    a->exported = *v0;
    a->placed = *v0;
    a->exp_id = id0;
    a->placed_id = id0;
    a->t_us = t0_us;
    a->before = 0.0;
    a->after = 0.0;
}

void exportacc_advance(ExportAcc *a, int64_t t_us)
{
    if (t_us <= a->t_us)
        return;
    double e = drvec_err(&a->exported, &a->placed, a->t_us, t_us);
    if (a->placed_id == a->exp_id)
        a->after += e;
    else
        a->before += e;
    a->t_us = t_us;
}

void exportacc_export(ExportAcc *a, int64_t t_us, const DrVec *v, int64_t id)
{
    exportacc_advance(a, t_us);
    a->exported = *v;
    a->exp_id = id;
}

bool exportacc_place(ExportAcc *a, int64_t t_us, const DrVec *v, int64_t id)
{
    exportacc_advance(a, t_us);
    if (id <= a->placed_id)
        return false;
    a->placed = *v;
    a->placed_id = id;
    return true;
}

double exportacc_total(const ExportAcc *a)
{
    return a->before + a->after;
}
