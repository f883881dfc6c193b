/* Autopilot: a race of bots on the car physics (World + bot.h), sampled
 * like a driven race (autopilot.h). */
#include "autopilot.h"
#include "bot.h"
#include "inputs.h"
#include "raceloop.h"

#include <stdlib.h>
#include <string.h>

void autopilot_config_default(AutopilotConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->seed = 1;
    cfg->ncars = 2;
    cfg->duration_ms = 30000;
    cfg->period_ms = WORLD_SAMPLE_US / 1000;
    for (int i = 0; i < RECORDING_MAX_CARS; i++) {
        cfg->driver[i].skill = 0.9;
        cfg->driver[i].noise = 0.5;
    }
    cfg->track_file = "default.track";
    cfg->created = "";
}

static bool check_config(const Track *t, const AutopilotConfig *cfg, NrError *err)
{
    int slots = track_grid_slots(t);
    int max = slots < WORLD_MAX_CARS ? slots : WORLD_MAX_CARS;
    if (max > RECORDING_MAX_CARS)
        max = RECORDING_MAX_CARS;
    if (cfg->ncars < 1 || cfg->ncars > max)
        return nr_error_set(err, "autopilot: %d cars, the track has %d grid slots (at most %d cars)", cfg->ncars,
                            slots, max);
    /* Samples fall on control times (every WORLD_CONTROL_US), so that the
     * inputs file re-simulates every one of them. */
    int32_t step_ms = WORLD_CONTROL_US / 1000;
    if (cfg->period_ms < step_ms || cfg->period_ms > 1000 || cfg->period_ms % step_ms != 0)
        return nr_error_set(err, "autopilot: period %ld ms, expected a multiple of %ld ms up to 1000", (long)cfg->period_ms,
                            (long)step_ms);
    if (cfg->duration_ms < 0 || cfg->duration_ms > AUTOPILOT_MAX_MS)
        return nr_error_set(err, "autopilot: duration %ld ms, expected 0 to %d", (long)cfg->duration_ms,
                            AUTOPILOT_MAX_MS);
    for (int i = 0; i < cfg->ncars; i++) {
        const AutopilotDriver *d = &cfg->driver[i];
        if (!(d->skill >= BOT_SKILL_MIN && d->skill <= 1) || !(d->noise >= 0 && d->noise <= 1))
            return nr_error_set(err, "autopilot: car %d: skill %g noise %g, expected skill in [%g, 1] and noise in "
                                "[0, 1]", i + 1, d->skill, d->noise, BOT_SKILL_MIN);
    }
    const char *tf = cfg->track_file ? cfg->track_file : "";
    const char *cr = cfg->created ? cfg->created : "";
    Recording probe;
    if (strlen(tf) >= sizeof probe.track || strlen(cr) >= sizeof probe.created)
        return nr_error_set(err, "autopilot: track name or creation time too long");
    return true;
}

/* What the loop's hooks of one autopilot race share. */
typedef struct Drive {
    const World *w;
    Bot **bots;
    RecSample *samples;
    int nsamples, k; /* samples taken so far */
    InputsWriter *iw;
    NrError *err;
    bool failed;
} Drive;

/* Sample k (at k * period): every car's world_sample; the last one stops
 * the loop, so no input is read past it. */
static bool drive_sample(void *ctx, int64_t t_us)
{
    (void)t_us;
    Drive *d = ctx;
    for (int c = 0; c < d->w->ncars; c++)
        world_sample(d->w, c, &d->samples[(size_t)c * (size_t)d->nsamples + (size_t)d->k]);
    return ++d->k < d->nsamples;
}

static bool drive_control(void *ctx, const World *w, int car, int64_t t_us, CarInput *out)
{
    Drive *d = ctx;
    bot_input(d->bots[car], w, car, out);
    if (d->iw && !inputs_writer_add(d->iw, (int32_t)(t_us / 1000), car, out, d->err)) {
        d->failed = true;
        return false;
    }
    return true;
}

/* Drives the world through the one physics loop (raceloop.h) to every
 * sample time, as a live race does, and writes the inputs. */
static bool drive(World *w, Bot **bots, const AutopilotConfig *cfg, RecSample *samples, int nsamples,
                  InputsWriter *iw, NrError *err)
{
    Drive d = {.w = w, .bots = bots, .samples = samples, .nsamples = nsamples, .iw = iw, .err = err};
    RaceLoop loop;
    raceloop_init(&loop, w, 0, (int64_t)cfg->period_ms * 1000, &(RaceLoopHooks){&d, drive_sample, drive_control});
    raceloop_run(&loop, INT64_MAX);
    return !d.failed;
}

bool autopilot_race(const Track *t, const AutopilotConfig *cfg, Recording *out, NrError *err)
{
    memset(out, 0, sizeof *out);
    if (!check_config(t, cfg, err))
        return false;
    int nsamples = cfg->duration_ms / cfg->period_ms + 1;
    World w;
    if (!world_init(&w, t, cfg->ncars, err))
        return false;
    Bot *bots[WORLD_MAX_CARS] = {NULL};
    bool ok = true;
    for (int c = 0; ok && c < cfg->ncars; c++) {
        BotDriver d = {.skill = cfg->driver[c].skill, .noise = cfg->driver[c].noise};
        bots[c] = bot_new(t, &w.params, d, cfg->seed, (uint64_t)c + 1, err);
        ok = bots[c] != NULL;
    }
    RecSample *samples = ok ? calloc((size_t)nsamples * (size_t)cfg->ncars, sizeof *samples) : NULL;
    if (ok && !samples)
        ok = nr_error_set(err, "autopilot: out of memory");
    InputsWriter *iw = NULL;
    if (ok && cfg->inputs_path) {
        iw = inputs_writer_open(cfg->inputs_path, err);
        ok = iw != NULL;
    }
    if (ok)
        ok = drive(&w, bots, cfg, samples, nsamples, iw, err);
    if (iw) {
        NrError e2;
        if (!inputs_writer_close(iw, &e2) && ok) {
            *err = e2;
            ok = false;
        }
    }
    for (int c = 0; c < cfg->ncars; c++)
        bot_free(bots[c]);
    if (!ok) {
        free(samples);
        return false;
    }
    out->version = RECORDING_VERSION;
    snprintf(out->track, sizeof out->track, "%s", cfg->track_file ? cfg->track_file : "");
    snprintf(out->source, sizeof out->source, "autopilot");
    snprintf(out->created, sizeof out->created, "%s", cfg->created ? cfg->created : "");
    out->period_ms = cfg->period_ms;
    out->ncars = cfg->ncars;
    out->nsamples = nsamples;
    out->samples = samples;
    out->truncated = false;
    return true;
}
