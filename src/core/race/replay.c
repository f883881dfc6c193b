/* Replay of a recorded race: pushes the file's samples into the engine
 * ahead of the time it is stepped to. */
#include "replay.h"

#include <stdlib.h>

struct Replay {
    Engine *e;
    const Recording *rec;
    bool loop;
    int next;         /* file index of the next sample to push */
    int ncars;        /* the race's: the file's first ncars cars */
    int64_t heat_us;  /* n * period: one heat of the file */
    double *prog[ENGINE_MAX_CARS]; /* the file's true progress, per car */
};

Replay *replay_new(const EngineConfig *cfg, const Recording *rec, bool loop, NrError *err)
{
    int ncars = cfg->ncars ? cfg->ncars : 2;
    if (!rec || rec->ncars < 2 || rec->nsamples < 1) {
        nr_error_set(err, "replay: the recording needs two cars and at least one sample");
        return NULL;
    }
    if (ncars > rec->ncars) {
        nr_error_set(err, "replay: a race of %d cars, the recording has %d", ncars, rec->ncars);
        return NULL;
    }
    if (rec->period_ms <= 0) {
        nr_error_set(err, "replay: the recording's period must be positive");
        return NULL;
    }
    if (!cfg->track) {
        nr_error_set(err, "replay: a track is required");
        return NULL;
    }
    Replay *r = calloc(1, sizeof *r);
    if (!r) {
        nr_error_set(err, "replay: out of memory");
        return NULL;
    }
    r->rec = rec;
    r->loop = loop;
    r->ncars = ncars;
    r->heat_us = (int64_t)rec->nsamples * rec->period_ms * NR_US_PER_MS;
    EngineConfig c = *cfg;
    c.period_ms = rec->period_ms;
    c.ncars = ncars;
    /* The whole file stays in the history; the progress ring is not needed:
     * the file's progress is given for every sample of a heat. */
    c.history_cap = rec->nsamples;
    c.ring_samples = 1; /* every seq of a heat has its progress given */
    c.progress_n = rec->nsamples;
    for (int car = 0; car < ncars; car++) {
        if (cfg->progress[car] && cfg->progress_n == rec->nsamples)
            continue;
        r->prog[car] = malloc(sizeof(double) * (size_t)rec->nsamples);
        if (!r->prog[car] || !recording_progress(rec, cfg->track, car, r->prog[car])) {
            replay_free(r);
            nr_error_set(err, "replay: out of memory");
            return NULL;
        }
        c.progress[car] = r->prog[car];
    }
    r->e = engine_new(&c, err);
    if (!r->e) {
        replay_free(r);
        return NULL;
    }
    replay_restart(r);
    return r;
}

void replay_free(Replay *r)
{
    if (!r)
        return;
    engine_free(r->e);
    for (int c = 0; c < ENGINE_MAX_CARS; c++)
        free(r->prog[c]);
    free(r);
}

/* Pushes the next file sample (a new heat after the file's end when
 * looping); finishes the race at the end otherwise. False when the engine's
 * push ring is full or the race is finished. */
static bool push_next(Replay *r)
{
    unsigned flags = 0;
    if (r->next == r->rec->nsamples) {
        if (!r->loop) {
            engine_finish(r->e);
            return false;
        }
        r->next = 0;
        flags = ENGINE_PUSH_NEW_HEAT;
    }
    CarPose p[ENGINE_MAX_CARS];
    for (int c = 0; c < r->ncars; c++) {
        const RecSample *s = recording_at(r->rec, c, r->next);
        p[c] = (CarPose){s->x, s->y, s->heading, s->speed};
    }
    if (!engine_push(r->e, p, r->ncars, flags)) {
        if (flags)
            r->next = r->rec->nsamples; /* retry the new heat next time */
        return false;
    }
    r->next++;
    return true;
}

void replay_step_to(Replay *r, int64_t t_us)
{
    /* Keep the first sample after t_us pushed: deliveries due before it are
     * then delivered, as in a race that goes on. */
    while (!engine_done(r->e) && engine_pushed_us(r->e) <= t_us) {
        if (push_next(r))
            continue;
        if (engine_done(r->e) || engine_pushed_us(r->e) > t_us)
            break;
        engine_step_to(r->e, engine_pushed_us(r->e)); /* ring full: drain it */
        if (engine_done(r->e))
            break;
    }
    engine_step_to(r->e, t_us);
}

int64_t replay_end_us(const Replay *r)
{
    int64_t now = engine_now(r->e);
    int64_t heat = now > 0 ? now / r->heat_us : 0;
    return heat * r->heat_us + (int64_t)(r->rec->nsamples - 1) * r->rec->period_ms * NR_US_PER_MS;
}

bool replay_done(const Replay *r)
{
    return !r->loop && engine_done(r->e);
}

void replay_set_loop(Replay *r, bool loop)
{
    r->loop = loop;
}

void replay_restart(Replay *r)
{
    engine_restart(r->e);
    r->next = 0;
    replay_step_to(r, 0);
}

Engine *replay_engine(Replay *r)
{
    return r->e;
}

const Recording *replay_recording(const Replay *r)
{
    return r->rec;
}
