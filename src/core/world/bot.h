/* The bot: a seeded driver on the car physics that races the other cars
 * for position. A Controller like a keyboard or a gamepad.
 *
 * It follows a racing line (outside, inside, outside of each bend) by pure
 * pursuit, drives a speed profile planned from the track's curvature and its
 * own grip, and races: behind another car it tows in its slipstream at a
 * following gap, dives up the inside of the next bend (or pulls out on a
 * straight with a speed surplus), never drives into it; side by side both
 * cars hold their side of the track and race on; ahead it covers on the
 * straights, and under pressure makes more mistakes. Off the racing line it
 * drives the bend at its own radius; it keeps its drive and braking within
 * the friction circle and slows when too fast for the bend where it is.
 * Skill scales the grip and top speed it dares to use (0..1: the racing
 * bot); below 0 a novice (down to BOT_SKILL_MIN): slower in the bends and
 * on the straights on the same racing line, and forgiving: it attacks and
 * covers nobody and makes way alongside. Noise drives a
 * wandering pace (with slow phases: tyres, attention) and line
 * (Ornstein-Uhlenbeck processes) and occasional mistakes. docs/driving.md
 * gives the constants.
 *
 * Contracts:
 *   bot_new(track, params, driver, seed, stream, err)  plans the speed profile
 *        (the only allocation); NULL + err on a bad driver (skill outside
 *        [BOT_SKILL_MIN, 1] or noise outside [0, 1]).
 *   bot_free(b)                  NULL-safe.
 *   bot_controller(b)            the Controller driving with b.
 *   bot_input(b, w, car, out)    the input for car at w->t_us (advances the
 *        bot's random streams by one control period).
 *   bot_line(b, s)               the racing line's lateral offset (cw, left
 *        positive) at progress s (cw, any lap): where the bot aims to be
 *        before wander, racecraft and mistakes (benchmarks and tests measure
 *        how far a car strays from it).
 */
#ifndef NR_BOT_H
#define NR_BOT_H

#include "controller.h"

#define BOT_SKILL_MIN (-1.0) /* the slowest novice: about 1.6 times skill 1's lap time */

typedef struct BotDriver {
    double skill; /* BOT_SKILL_MIN..1; below 0 a novice */
    double noise; /* 0..1 */
} BotDriver;

typedef struct Bot Bot;

Bot *bot_new(const Track *track, const CarParams *params, BotDriver driver, uint64_t seed, uint64_t stream,
             NrError *err);
void bot_free(Bot *b);
void bot_input(Bot *b, const World *w, int car, CarInput *out);
Controller bot_controller(Bot *b);
double bot_line(const Bot *b, double s);

#endif
