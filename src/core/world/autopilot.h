/* Autopilot: a race of seeded bot drivers (bot.h) on the car physics
 * (world.h), recorded like a driven race: the same World, control period and
 * 33 ms samples as a live race, solid cars that never overlap.
 *
 * Contracts:
 *   autopilot_config_default(cfg)  2 cars, 30 s, 33 ms, seed 1, every driver
 *        skill 0.9 noise 0.5, track "default.track", created "", no inputs
 *        file.
 *   autopilot_race(track, cfg, out, err)  races and fills out (a fresh
 *        Recording owning its samples; free with recording_free): source
 *        "autopilot", samples at t = 0, period, ... <= duration (world_sample
 *        values, quantised to 1e-4 car widths / radians and 1e-3 cw/s), car
 *        c from grid slot c at rest, driven by bot c (seed cfg->seed, stream
 *        c + 1). With cfg->inputs_path it also writes every car's inputs there
 *        (inputs.h, through PATH.part), from which the race re-simulates bit
 *        for bit. Same cfg and track, same doubles and bytes out. False + err
 *        on a bad cfg (cars beyond the grid slots, a period that is not a
 *        multiple of the 11 ms control period, skill or noise outside [0, 1],
 *        ...) or an inputs file that cannot be written (out is then empty).
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
    double skill; /* 0..1 (BotDriver) */
    double noise; /* 0..1 (BotDriver) */
} AutopilotDriver;

typedef struct AutopilotConfig {
    uint64_t seed;
    int ncars;           /* 1..min(RECORDING_MAX_CARS, track grid slots) */
    int32_t duration_ms; /* race length, 0 to AUTOPILOT_MAX_MS */
    int32_t period_ms;   /* sample period (33), a multiple of WORLD_CONTROL_US */
    AutopilotDriver driver[RECORDING_MAX_CARS];
    const char *track_file; /* written as the recording's 'track' */
    const char *created;    /* written as 'created' (core reads no clock) */
    const char *inputs_path; /* every car's inputs (inputs.h); NULL = none */
} AutopilotConfig;

void autopilot_config_default(AutopilotConfig *cfg);
bool autopilot_race(const Track *track, const AutopilotConfig *cfg, Recording *out, NrError *err);

#endif
