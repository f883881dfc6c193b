/* The receive boundary: every MU is checked here before a scheme sees it. */
#include "mu.h"
#include "recording.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* |v| <= limit on the bits: for a non-negative double the IEEE 754 bit
 * pattern orders like the value, and NaN and the infinities have larger
 * patterns than any finite limit, so one integer compare per field rejects
 * them too (every delivered MU comes here). */
static uint64_t magnitude_bits(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u & ~(UINT64_C(1) << 63);
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* The largest magnitude of each group against its bound: one compare per
 * group instead of one per field. */
static bool numbers_ok(const Mu *mu)
{
    uint64_t pos = max_u64(magnitude_bits(mu->x), magnitude_bits(mu->y));
    for (int i = 0; i < 6; i++)
        pos = max_u64(pos, magnitude_bits(mu->aux[i]));
    uint64_t vel = max_u64(magnitude_bits(mu->speed), max_u64(magnitude_bits(mu->vx), magnitude_bits(mu->vy)));
    return (pos <= magnitude_bits(RECORDING_MAX_POS)) & (vel <= magnitude_bits(RECORDING_MAX_SPEED)) &
           (magnitude_bits(mu->heading) <= magnitude_bits(DBL_MAX));
}

_Static_assert(sizeof ((Mu *)0)->aux == 6 * sizeof(double), "numbers_ok checks six aux values");

/* The car's and the time's checks: the ones that depend on the receiver. */
static bool car_ok(const Mu *mu, int ncars, int own_car)
{
    return (mu->car >= 0) & (mu->car < ncars) & (mu->car != own_car);
}

static bool time_ok(const Mu *mu, int64_t now_us, int64_t window_us)
{
    if (window_us < 0 || window_us > MU_WINDOW_MAX_US)
        window_us = MU_WINDOW_MAX_US;
    /* |gen - now| <= window, written so that nothing overflows whatever
     * gen_us holds: now is a real clock reading, far from the int64 ends. */
    return (mu->gen_us >= now_us - window_us) & (mu->gen_us <= now_us + window_us);
}

static bool kind_ok(const Mu *mu)
{
    return ((mu->kind == MU_UPDATE) | (mu->kind == MU_PARITY)) & (mu->nbytes >= 0);
}

bool mu_fields_ok(const Mu *mu)
{
    return (mu->seq >= 0) & kind_ok(mu) & numbers_ok(mu);
}

MuCheck mu_validate(const Mu *mu, int ncars, int own_car, int64_t now_us, int64_t window_us)
{
    bool car = car_ok(mu, ncars, own_car);
    bool kind = kind_ok(mu);
    bool time = time_ok(mu, now_us, window_us);
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

MuCheck mu_validate_known(const Mu *mu, bool fields_ok, int ncars, int own_car, int64_t now_us, int64_t window_us)
{
    if (!fields_ok)
        return mu_validate(mu, ncars, own_car, now_us, window_us);
    if (!car_ok(mu, ncars, own_car))
        return MU_BAD_CAR; /* the first check: as mu_validate orders them */
    return time_ok(mu, now_us, window_us) ? MU_OK : MU_BAD_TIME;
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
