/* Synthetic sender paths for the one-sender experiments and their tests:
 * a car driving with a random, smoothly varying speed and turn rate.
 *
 * Contracts:
 *   synthpath_make(rec, seed, seconds, period_ms, err)  fills rec (one car,
 *        source "synthetic") with samples every period_ms for seconds;
 *        speed 4..16 cw/s and turn rate within +-1.5 rad/s, both changing
 *        every 0.5..2.5 s; deterministic per seed. Free with recording_free.
 *   synthpath_segments(rec, seconds, period_ms, segment_ms, speeds, turns,
 *        nseg, err)  piecewise constant speed and heading: segment k moves
 *        straight at speeds[k] cw/s with heading turns[k] rad, so the
 *        velocity only changes every segment_ms (test scenarios).
 *   synthpath_tank(rec, seed, seconds, period_ms, err)  a BZFlag-like tank
 *        (the kind of motion the accuracy and fairness papers traced): one
 *        vehicle, source "tank", alternating
 *          - straight runs of 1 to 4 s at full speed (SYNTH_TANK_SPEED_CW),
 *            one run in four at half speed;
 *          - turns in place at the tank's angular speed
 *            (SYNTH_TANK_TURN_RAD_S), left or right, 30 to 180 degrees;
 *          - stops of 0.3 to 2 s;
 *        after a run: a turn (60 %), a stop (20 %) or another run at a new
 *        speed (20 %); after a turn or a stop: a run. Speed and turn rate
 *        change at once (BZFlag's default: no inertia), so the velocity is
 *        piecewise constant and dead reckoning errs at every change. The
 *        motion is integrated exactly (1 ms steps inside a sample period).
 *        Units: a tank is 1 cw wide (BZFlag's 2.8 units); 25 units/s is
 *        8.93 cw/s; pi/4 rad/s. Deterministic per seed.
 *   synthpath_tank_arcs(...)  the same tank and the same draws, but a turn
 *        keeps the speed of the run before it (BZFlag lets a tank drive and
 *        turn at once): arcs of radius v / (pi/4 rad/s), 11.4 cw at full
 *        speed, where linear dead reckoning errs all along; source
 *        "tank-arcs".
 */
#ifndef NR_SYNTHPATH_H
#define NR_SYNTHPATH_H

#include "recording.h"

bool synthpath_make(Recording *rec, uint64_t seed, double seconds, int32_t period_ms, NrError *err);
#define SYNTH_TANK_SPEED_CW (25.0 / 2.8) /* BZFlag tank speed / tank width */
#define SYNTH_TANK_TURN_RAD_S (0.25 * NR_PI)

bool synthpath_tank(Recording *rec, uint64_t seed, double seconds, int32_t period_ms, NrError *err);
bool synthpath_tank_arcs(Recording *rec, uint64_t seed, double seconds, int32_t period_ms, NrError *err);
bool synthpath_segments(Recording *rec, double seconds, int32_t period_ms, int32_t segment_ms,
                        const double *speeds, const double *headings, int nseg, NrError *err);

#endif
