/* Autopilot: deterministic, seeded bot drivers that race a track.
 *
 * Each car is a point with a heading driven by a pure-pursuit steering
 * controller towards a racing line (inside of bends, plus a slowly wandering
 * personal offset), with a speed target limited by the curvature ahead
 * (grip) and a braking envelope, acceleration and braking limits, noise on
 * throttle and steering (Ornstein-Uhlenbeck processes), a slowly wandering
 * pace, and occasional mistakes (lifting off for a moment, running wide).
 * Cars do not collide (they are ghosts to each other). docs/formats.md
 * gives every constant.
 *
 * Contracts:
 *   autopilot_config_default(cfg)  2 cars, 30 s, 33 ms, seed 1, every driver
 *        skill 0.9 noise 0.5, track "default.track", created "".
 *   autopilot_race(track, cfg, out, err)  simulates the race and fills out
 *        (a fresh Recording owning its samples; free with recording_free):
 *        source "autopilot", samples at t = 0, period, ... <= duration, car
 *        c starting from grid slot c at rest. Same cfg and track, same
 *        doubles out (values are quantised to 1e-4 car widths / radians and
 *        1e-3 cw/s so files stay short). False + err on a bad cfg (cars
 *        beyond the grid slots, skill or noise outside [0, 1], ...).
 */
#ifndef NR_AUTOPILOT_H
#define NR_AUTOPILOT_H

/* Longest race: an hour (the command line's --seconds limit) plus a
 * second, the margin callers add to cover their last snapshot at the hour. */
#define AUTOPILOT_MAX_MS (3600 * 1000 + 1000)

#include "nr_common.h"
#include "recording.h"
#include "track.h"

typedef struct AutopilotDriver {
    double skill; /* 0..1: share of grip, top speed and braking used */
    double noise; /* 0..1: throttle/steering/pace noise and mistake rate */
} AutopilotDriver;

typedef struct AutopilotConfig {
    uint64_t seed;
    int ncars;           /* 1..min(RECORDING_MAX_CARS, track grid slots) */
    int32_t duration_ms; /* race length, 0 to AUTOPILOT_MAX_MS */
    int32_t period_ms;   /* sample period (33) */
    AutopilotDriver driver[RECORDING_MAX_CARS];
    const char *track_file; /* written as the recording's 'track' */
    const char *created;    /* written as 'created' (core reads no clock) */
} AutopilotConfig;

void autopilot_config_default(AutopilotConfig *cfg);
bool autopilot_race(const Track *track, const AutopilotConfig *cfg, Recording *out, NrError *err);

#endif
