/* The one physics loop of every driven race (DESIGN.md "one physics loop"):
 * the autopilot (autopilot.h), local play (liverace.h) and each terminal of
 * a network race (netterm.h) drive their World through it, so all three
 * sample, read the controls and step in the same order and a race
 * re-simulates bit for bit from its inputs file.
 *
 * Time is the world's (world->t_us, microseconds of race time); the loop
 * reads no clock: the caller says how far race time has come.
 *
 * Order, for every physics step whose start time t (world->t_us) is at or
 * before the target of raceloop_run:
 *   1. a sample time, t == next sample time, every period_us from the first
 *      one: the sample hook runs with t; false stops the loop there (no
 *      control, no step at t) for good;
 *   2. a control time, t % WORLD_CONTROL_US == 0: the control hook gives
 *      car c's input for c = 0 .. world->ncars - 1, in car order; the input
 *      is held until the next control time; false stops the loop for good
 *      before the step;
 *   3. world_step with the held inputs (t += WORLD_DT_US).
 * So a sample at t sees the world as the inputs up to t left it, an input
 * read at t already moves the car during the step from t, and the steps of
 * one call end at the first step start after the target.
 *
 * Contracts:
 *   raceloop_init(l, w, first_sample_us, period_us, hooks)  w is borrowed
 *        (it must outlive the loop); the hooks are copied; held inputs start
 *        at zero. first_sample_us: the time of the next sample (0 when the
 *        loop takes the grid sample itself, one period when the caller took
 *        it). period_us must be a positive multiple of WORLD_DT_US.
 *   raceloop_run(l, t_us)   the steps above up to t_us; false once stopped
 *        (a hook said so, now or in an earlier call), true otherwise.
 *   raceloop_stopped(l) / raceloop_next_sample_us(l)
 *   raceloop_held(l, c)     car c's input in force (read at the last
 *        control time; zero before the first).
 */
#ifndef NR_RACELOOP_H
#define NR_RACELOOP_H

#include "world.h"

typedef struct RaceLoopHooks {
    void *ctx;
    /* One sample at race time t_us; false: the race is over, stop. */
    bool (*sample)(void *ctx, int64_t t_us);
    /* Car `car`'s input at the control time t_us into *out (the previous
     * input is there on entry); false: stop (a failure the caller keeps). */
    bool (*control)(void *ctx, const World *w, int car, int64_t t_us, CarInput *out);
} RaceLoopHooks;

typedef struct RaceLoop {
    World *world;
    RaceLoopHooks hooks;
    int64_t period_us;
    int64_t next_sample_us;
    CarInput held[WORLD_MAX_CARS];
    bool stopped;
} RaceLoop;

void raceloop_init(RaceLoop *l, World *w, int64_t first_sample_us, int64_t period_us, const RaceLoopHooks *hooks);
bool raceloop_run(RaceLoop *l, int64_t t_us);
bool raceloop_stopped(const RaceLoop *l);
int64_t raceloop_next_sample_us(const RaceLoop *l);
const CarInput *raceloop_held(const RaceLoop *l, int car);

#endif
