/* Autopilot: a race of bots on the car physics (World + bot.h), sampled
 * like a driven race (autopilot.h). */
#include "autopilot.h"
#include "bot.h"
#include "inputs.h"

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
        if (!(d->skill >= 0 && d->skill <= 1) || !(d->noise >= 0 && d->noise <= 1))
            return nr_error_set(err, "autopilot: car %d: skill %g noise %g, both must be in [0, 1]", i + 1,
                                d->skill, d->noise);
    }
    const char *tf = cfg->track_file ? cfg->track_file : "";
    const char *cr = cfg->created ? cfg->created : "";
    Recording probe;
    if (strlen(tf) >= sizeof probe.track || strlen(cr) >= sizeof probe.created)
        return nr_error_set(err, "autopilot: track name or creation time too long");
    return true;
}

/* Drives the world to every sample time, reading the bots every control
 * period exactly as a live race does (liverace.c), and writes the inputs. */
static bool drive(World *w, Bot **bots, const AutopilotConfig *cfg, RecSample *samples, int nsamples,
                  InputsWriter *iw, NrError *err)
{
    CarInput held[WORLD_MAX_CARS];
    memset(held, 0, sizeof held);
    for (int k = 0; k < nsamples; k++) {
        int64_t target = (int64_t)k * cfg->period_ms * 1000;
        while (w->t_us < target) {
            if (w->t_us % WORLD_CONTROL_US == 0)
                for (int c = 0; c < cfg->ncars; c++) {
                    bot_input(bots[c], w, c, &held[c]);
                    if (iw && !inputs_writer_add(iw, (int32_t)(w->t_us / 1000), c, &held[c], err))
                        return false;
                }
            world_step(w, held);
        }
        for (int c = 0; c < cfg->ncars; c++)
            world_sample(w, c, &samples[(size_t)c * (size_t)nsamples + (size_t)k]);
    }
    return true;
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
