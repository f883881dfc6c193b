/* The receive boundary: every MU is checked here before a scheme sees it. */
#include "mu.h"
#include "recording.h"

#include <math.h>

static bool within(double v, double limit)
{
    return isfinite(v) && fabs(v) <= limit;
}

static bool numbers_ok(const Mu *mu)
{
    if (!within(mu->x, RECORDING_MAX_POS) || !within(mu->y, RECORDING_MAX_POS) ||
        !isfinite(mu->heading) || !within(mu->speed, RECORDING_MAX_SPEED) ||
        !within(mu->vx, RECORDING_MAX_SPEED) || !within(mu->vy, RECORDING_MAX_SPEED))
        return false;
    for (int i = 0; i < (int)(sizeof mu->aux / sizeof mu->aux[0]); i++)
        if (!within(mu->aux[i], RECORDING_MAX_POS))
            return false;
    return true;
}

MuCheck mu_validate(const Mu *mu, int ncars, int own_car, int64_t now_us, int64_t window_us)
{
    if (mu->car < 0 || mu->car >= ncars || mu->car == own_car)
        return MU_BAD_CAR;
    if (mu->seq < 0)
        return MU_BAD_SEQ;
    if ((mu->kind != MU_UPDATE && mu->kind != MU_PARITY) || mu->nbytes < 0)
        return MU_BAD_KIND;
    if (!numbers_ok(mu))
        return MU_BAD_NUMBER;
    if (window_us < 0 || window_us > MU_WINDOW_MAX_US)
        window_us = MU_WINDOW_MAX_US;
    /* |gen - now| <= window, written so that nothing overflows whatever
     * gen_us holds: now is a real clock reading, far from the int64 ends. */
    if (mu->gen_us < now_us - window_us || mu->gen_us > now_us + window_us)
        return MU_BAD_TIME;
    return MU_OK;
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
