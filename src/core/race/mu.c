/* The receive boundary: every MU is checked here before a scheme sees it. */
#include "mu.h"
#include "recording.h"

#include <float.h>
#include <math.h>

/* fabs(v) <= limit is false for NaN and the infinities too (every
 * comparison with NaN is). */
static bool numbers_ok(const Mu *mu)
{
    const double P = RECORDING_MAX_POS, V = RECORDING_MAX_SPEED;
    return (fabs(mu->x) <= P) & (fabs(mu->y) <= P) & (fabs(mu->heading) <= DBL_MAX) &
           (fabs(mu->speed) <= V) & (fabs(mu->vx) <= V) & (fabs(mu->vy) <= V) &
           (fabs(mu->aux[0]) <= P) & (fabs(mu->aux[1]) <= P) & (fabs(mu->aux[2]) <= P) &
           (fabs(mu->aux[3]) <= P) & (fabs(mu->aux[4]) <= P) & (fabs(mu->aux[5]) <= P);
}

_Static_assert(sizeof ((Mu *)0)->aux == 6 * sizeof(double), "numbers_ok checks six aux values");

MuCheck mu_validate(const Mu *mu, int ncars, int own_car, int64_t now_us, int64_t window_us)
{
    if (window_us < 0 || window_us > MU_WINDOW_MAX_US)
        window_us = MU_WINDOW_MAX_US;
    /* |gen - now| <= window, written so that nothing overflows whatever
     * gen_us holds: now is a real clock reading, far from the int64 ends. */
    bool car = (mu->car >= 0) & (mu->car < ncars) & (mu->car != own_car);
    bool kind = ((mu->kind == MU_UPDATE) | (mu->kind == MU_PARITY)) & (mu->nbytes >= 0);
    bool time = (mu->gen_us >= now_us - window_us) & (mu->gen_us <= now_us + window_us);
    if (car & (mu->seq >= 0) & kind & time & numbers_ok(mu))
        return MU_OK; /* every delivered MU comes here: one branch */
    if (!car)
        return MU_BAD_CAR;
    if (mu->seq < 0)
        return MU_BAD_SEQ;
    if (!kind)
        return MU_BAD_KIND;
    if (!numbers_ok(mu))
        return MU_BAD_NUMBER;
    return MU_BAD_TIME;
}

const char *mu_check_name(MuCheck c)
{
    switch (c) {
    case MU_OK: return "ok";
    case MU_BAD_CAR: return "car";
    case MU_BAD_SEQ: return "seq";
    case MU_BAD_KIND: return "kind";
    case MU_BAD_NUMBER: return "number";
    case MU_BAD_TIME: return "time";
    case MU_CHECK_COUNT: break;
    }
    return "unknown";
}
