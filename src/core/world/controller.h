/* Controllers: whatever drives a car. A bot, a scripted input file, a
 * keyboard or a gamepad (src/app) all produce the same CarInput, read once
 * per WORLD_CONTROL_US of race time.
 *
 * Contracts:
 *   controller_input(c, w, car, out)  the input of car `car` at w->t_us.
 *        May change the controller's own state (a bot's random streams);
 *        never the world.
 */
#ifndef NR_CONTROLLER_H
#define NR_CONTROLLER_H

#include "world.h"

typedef struct Controller {
    void *self;
    void (*input)(void *self, const World *w, int car, CarInput *out);
} Controller;

static inline void controller_input(const Controller *c, const World *w, int car, CarInput *out)
{
    c->input(c->self, w, car, out);
}

#endif
