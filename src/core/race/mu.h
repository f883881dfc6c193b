/* The one boundary every received MU crosses before any scheme sees it
 * (DESIGN.md "Network play": every field validated on receipt).
 *
 * Contracts:
 *   mu_validate(mu, ncars, own_car, now_us, window_us)  MU_OK when mu may be
 *        handed to a scheme at a terminal owning own_car whose clock reads
 *        now_us; otherwise the first reason it may not (checked in the order
 *        of MuCheck). Pure; never reads past *mu. The checks:
 *          car in 0..ncars-1 and not own_car (a peer never speaks for the
 *            receiver's own car);
 *          seq >= 0;
 *          kind MU_UPDATE or MU_PARITY; nbytes >= 0;
 *          x, y, vx, vy, heading, speed, aux[] finite; |x|, |y|, |aux| at
 *            most RECORDING_MAX_POS car widths, |speed|, |vx|, |vy| at most
 *            RECORDING_MAX_SPEED cw/s (beyond that DR arithmetic overflows);
 *          |gen_us - now_us| <= window_us (so gen_us + Delta and
 *            now_us - gen_us never overflow; window_us <= MU_WINDOW_MAX_US).
 *   mu_fields_ok(mu)   the checks that do not depend on the receiver: seq,
 *        kind and nbytes, the numbers. Pure.
 *   mu_validate_known(mu, fields_ok, ncars, own_car, now_us, window_us)
 *        mu_validate's answer, given fields_ok = mu_fields_ok(mu) computed
 *        once for these bytes (an MU stored once for every receiver): then
 *        only the car and the time are checked here; false checks all.
 *   mu_check_name(c)   short name of a MuCheck ("car", "time", ...).
 */
#ifndef NR_MU_H
#define NR_MU_H

#include "scheme.h"

/* Default receive window: the longest link delay the emulator accepts
 * (LINK_TIME_MAX_US, ~35.8 min) twice over, plus an hour of clock offset. */
#define MU_WINDOW_DEFAULT_US (INT64_C(2) * INT64_C(2147483647) + INT64_C(3600000000))
/* The size an update MU counts for (nbytes of a sampled MU): a header of
 * 28 B plus car, seq, time, x, y, heading, speed, as the racing paper's. */
#define MU_WIRE_BYTES 48
#define MU_WINDOW_MAX_US (INT64_C(1) << 50) /* ~35 years: sums stay far from overflow */

typedef enum MuCheck {
    MU_OK = 0,
    MU_BAD_CAR,
    MU_BAD_SEQ,
    MU_BAD_KIND,
    MU_BAD_NUMBER,
    MU_BAD_TIME,
    MU_CHECK_COUNT /* number of MuCheck values */
} MuCheck;

MuCheck mu_validate(const Mu *mu, int ncars, int own_car, int64_t now_us, int64_t window_us);
bool mu_fields_ok(const Mu *mu);
MuCheck mu_validate_known(const Mu *mu, bool fields_ok, int ncars, int own_car, int64_t now_us, int64_t window_us);
const char *mu_check_name(MuCheck c);

#endif
