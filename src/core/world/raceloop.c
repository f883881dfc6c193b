/* The one physics loop: sample, read the controls, step (raceloop.h). */
#include "raceloop.h"

#include <string.h>

void raceloop_init(RaceLoop *l, World *w, int64_t first_sample_us, int64_t period_us, const RaceLoopHooks *hooks)
{
    memset(l, 0, sizeof *l);
    l->world = w;
    l->hooks = *hooks;
    l->period_us = period_us;
    l->next_sample_us = first_sample_us;
}

bool raceloop_run(RaceLoop *l, int64_t t_us)
{
    World *w = l->world;
    while (!l->stopped && w->t_us <= t_us) {
        int64_t now = w->t_us;
        if (now == l->next_sample_us) {
            l->next_sample_us += l->period_us;
            if (!l->hooks.sample(l->hooks.ctx, now)) {
                l->stopped = true;
                break;
            }
        }
        if (now % WORLD_CONTROL_US == 0)
            for (int c = 0; c < w->ncars && !l->stopped; c++)
                l->stopped = !l->hooks.control(l->hooks.ctx, w, c, now, &l->held[c]);
        if (l->stopped)
            break;
        world_step(w, l->held);
    }
    return !l->stopped;
}

bool raceloop_stopped(const RaceLoop *l)
{
    return l->stopped;
}

int64_t raceloop_next_sample_us(const RaceLoop *l)
{
    return l->next_sample_us;
}

const CarInput *raceloop_held(const RaceLoop *l, int car)
{
    return &l->held[car];
}
