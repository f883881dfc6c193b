/* A race being driven: world, controllers, engine, recording, race flow. */
#include "liverace.h"

#include "inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct LiveRace {
    LiveRaceConfig cfg;
    World world;
    Engine *engine;
    RaceFlow flow;
    RecWriter *rec;
    InputsWriter *inputs;
    CarInput ext[2];  /* held inputs of external controllers */
    CarInput held[2]; /* inputs in force (read at the last control time) */
    int64_t next_sample_us;
    bool finished;    /* engine_finish called */
    bool write_failed;
    int script_next;              /* cursor into cfg.script */
    int script_applied;
    const LinkChange *script_last;
    bool step_failed;             /* a write failed inside a scripted step */
    NrError step_err;
};

static bool push_sample(LiveRace *lr, NrError *err)
{
    CarPose poses[2];
    RecSample s[2];
    for (int c = 0; c < 2; c++) {
        world_sample(&lr->world, c, &s[c]);
        poses[c] = (CarPose){.x = s[c].x, .y = s[c].y, .heading = s[c].heading, .speed = s[c].speed};
    }
    bool first = lr->next_sample_us == 0;
    if (!engine_push(lr->engine, poses, 2, first ? ENGINE_PUSH_NEW_HEAT : 0))
        return nr_error_set(err, "engine refused the sample at %lld ms", (long long)(lr->world.t_us / 1000));
    engine_step_to(lr->engine, lr->next_sample_us);
    bool ok = true;
    for (int c = 0; c < 2 && lr->rec && !lr->write_failed; c++)
        if (!recwriter_append(lr->rec, c, &s[c], err)) {
            lr->write_failed = true;
            ok = false;
        }
    if (lr->next_sample_us > 0 || lr->flow.phase >= RF_RACING) {
        RaceProgress p;
        for (int c = 0; c < 2; c++) {
            Pose tp;
            engine_truth(lr->engine, c, &tp, &p.truth[c]);
        }
        for (int j = 0; j < 2; j++) {
            EngineView v;
            engine_view(lr->engine, lr->cfg.shown, j, &v);
            p.seen[j][0] = v.progress[0];
            p.seen[j][1] = v.progress[1];
        }
        raceflow_sample(&lr->flow, lr->next_sample_us, &p);
    }
    lr->next_sample_us += WORLD_SAMPLE_US;
    return ok;
}

/* The condition the race is driven under, as recording header lines. */
static bool condition_meta(const LiveRaceConfig *cfg, Recording *meta, NrError *err)
{
    const EngineConfig *ec = &cfg->engine;
    char v[RECORDING_META_VALUE];
    bool ok = recording_meta_add(meta, "scheme", ec->schemes[cfg->shown]->name);
    for (int d = 0; d < 2; d++) {
        const char *text = ec->medium[d] ? "medium" : ec->link[d] ? ec->link[d]->text : "none";
        ok = recording_meta_add(meta, d ? "link21" : "link12", text[0] ? text : "none") && ok;
    }
    snprintf(v, sizeof v, "%lld", (long long)(ec->params.delta_us / NR_US_PER_MS));
    ok = recording_meta_add(meta, "delta_ms", v) && ok;
    nr_format_double(v, sizeof v, ec->params.tdr_cw);
    ok = recording_meta_add(meta, "tdr_cw", v) && ok;
    snprintf(v, sizeof v, "%lld", (long long)(ec->params.converge_us / NR_US_PER_MS));
    ok = recording_meta_add(meta, "converge_ms", v) && ok;
    snprintf(v, sizeof v, "%llu", (unsigned long long)ec->seed);
    ok = recording_meta_add(meta, "seed", v) && ok;
    for (int i = 0; i < cfg->nmeta && ok; i++)
        if (!recording_meta_add(meta, cfg->meta[i].key, cfg->meta[i].value))
            return nr_error_set(err, "%s: header line '%s' refused (key, value or count)", cfg->rec_path,
                                cfg->meta[i].key);
    return ok || nr_error_set(err, "%s: the condition does not fit the header", cfg->rec_path);
}

LiveRace *liverace_new(const LiveRaceConfig *cfg, NrError *err)
{
    if (cfg->shown < 0 || cfg->shown >= cfg->engine.nschemes) {
        nr_error_set(err, "the shown scheme %d is not one of the %d selected", cfg->shown, cfg->engine.nschemes);
        return NULL;
    }
    LiveRace *lr = calloc(1, sizeof *lr);
    if (!lr) {
        nr_error_set(err, "out of memory");
        return NULL;
    }
    lr->cfg = *cfg;
    if (!world_init(&lr->world, cfg->track, 2, err)) {
        free(lr);
        return NULL;
    }
    EngineConfig ec = cfg->engine;
    ec.track = cfg->track;
    ec.period_ms = (int32_t)(WORLD_SAMPLE_US / 1000);
    ec.ncars = 2;
    lr->engine = engine_new(&ec, err);
    if (!lr->engine) {
        free(lr);
        return NULL;
    }
    RaceFlowConfig fc = cfg->flow;
    fc.lap_cw = track_length(cfg->track);
    raceflow_init(&lr->flow, &fc);
    if (cfg->rec_path) {
        Recording meta;
        memset(&meta, 0, sizeof meta);
        meta.version = RECORDING_VERSION;
        snprintf(meta.track, sizeof meta.track, "%s", cfg->track_file ? cfg->track_file : "");
        snprintf(meta.source, sizeof meta.source, "%s", cfg->source ? cfg->source : "human");
        snprintf(meta.created, sizeof meta.created, "%s", cfg->created ? cfg->created : "");
        meta.period_ms = (int32_t)(WORLD_SAMPLE_US / 1000);
        meta.ncars = 2;
        if (!condition_meta(cfg, &meta, err)) { /* nothing opened yet: nothing to remove */
            engine_free(lr->engine);
            free(lr);
            return NULL;
        }
        lr->rec = recwriter_open(cfg->rec_path, &meta, err);
        if (!lr->rec) {
            liverace_free(lr);
            return NULL;
        }
    }
    if (cfg->inputs_path) {
        lr->inputs = inputs_writer_open(cfg->inputs_path, err);
        if (!lr->inputs) {
            liverace_free(lr);
            return NULL;
        }
    }
    if (!push_sample(lr, err)) { /* the grid, sample 0 */
        liverace_free(lr);
        return NULL;
    }
    return lr;
}

bool liverace_close_recording(LiveRace *lr, NrError *err)
{
    bool ok = true;
    if (lr->rec) {
        ok = recwriter_close(lr->rec, err) && ok;
        lr->rec = NULL;
    }
    if (lr->inputs) {
        NrError e2 = {{0}};
        if (!inputs_writer_close(lr->inputs, &e2)) {
            if (ok)
                *err = e2;
            ok = false;
        }
        lr->inputs = NULL;
    }
    return ok;
}

void liverace_free(LiveRace *lr)
{
    if (!lr)
        return;
    NrError err = {{0}};
    bool started = lr->flow.phase >= RF_RACING;
    liverace_close_recording(lr, &err); /* a race quit half way is kept */
    if (!started) { /* quit on the grid: only the grid was written, nothing to keep */
        if (lr->cfg.rec_path)
            remove(lr->cfg.rec_path);
        if (lr->cfg.inputs_path)
            remove(lr->cfg.inputs_path);
    }
    engine_free(lr->engine);
    free(lr);
}

void liverace_set_input(LiveRace *lr, int car, const CarInput *in)
{
    if (car >= 0 && car < 2)
        lr->ext[car] = car_input_clamp(*in);
}

static bool advance_to(LiveRace *lr, int64_t t_us, NrError *err)
{
    bool ok = true;
    if (lr->flow.phase != RF_RACING && lr->flow.phase != RF_FINISHING) {
        if (!lr->finished)
            engine_step_to(lr->engine, t_us);
        return true;
    }
    while (lr->world.t_us <= t_us && lr->flow.phase != RF_DONE) {
        int64_t now = lr->world.t_us;
        if (now == lr->next_sample_us && now > 0) {
            if (!push_sample(lr, err))
                ok = false;
            if (lr->flow.phase == RF_DONE)
                break;
        }
        if (now % WORLD_CONTROL_US == 0) {
            for (int c = 0; c < 2; c++) {
                if (lr->cfg.ctl[c])
                    controller_input(lr->cfg.ctl[c], &lr->world, c, &lr->held[c]);
                else
                    lr->held[c] = lr->ext[c];
                if (lr->inputs && !lr->write_failed &&
                    !inputs_writer_add(lr->inputs, (int32_t)(now / 1000), c, &lr->held[c], err)) {
                    lr->write_failed = true;
                    ok = false;
                }
            }
        }
        world_step(&lr->world, lr->held);
    }
    if (lr->flow.phase == RF_DONE && !lr->finished) {
        engine_finish(lr->engine);
        lr->finished = true;
        NrError e2 = {{0}};
        if (!liverace_close_recording(lr, &e2) && ok) {
            *err = e2;
            ok = false;
        }
    }
    engine_step_to(lr->engine, t_us);
    return ok;
}

/* advance_to as a LinkScriptStep: the first failure is kept for the caller */
static void scripted_step(void *ctx, int64_t t_us)
{
    LiveRace *lr = ctx;
    NrError e = {{0}};
    if (!advance_to(lr, t_us, &e) && !lr->step_failed) {
        lr->step_failed = true;
        lr->step_err = e;
    }
}

bool liverace_advance(LiveRace *lr, int64_t t_us, NrError *err)
{
    if (!lr->cfg.script)
        return advance_to(lr, t_us, err);
    lr->step_failed = false;
    bool ok = true;
    for (;;) {
        const LinkChange *last = NULL;
        NrError serr = {{0}};
        int before = lr->script_next;
        int n = linkscript_run_to(lr->cfg.script, &lr->script_next, lr->engine, t_us, scripted_step, lr, &last,
                                  &serr);
        /* the cursor passed exactly the changes applied */
        lr->script_applied += lr->script_next - before;
        if (last)
            lr->script_last = last;
        if (n >= 0)
            break;
        /* the engine refused change script_next: skip it, say so once */
        if (ok)
            *err = serr;
        ok = false;
        lr->script_next++;
    }
    if (lr->step_failed && ok) {
        *err = lr->step_err;
        ok = false;
    }
    return ok;
}

int64_t liverace_run_headless(LiveRace *lr, bool *write_ok, NrError *err)
{
    raceflow_go(&lr->flow, 0);
    raceflow_tick(&lr->flow, RACEFLOW_LIGHTS * RACEFLOW_LIGHT_US);
    int64_t t = 0;
    *write_ok = true;
    while (!liverace_done(lr)) {
        t += WORLD_SAMPLE_US;
        NrError e = {{0}};
        if (!liverace_advance(lr, t, &e) && *write_ok) {
            *write_ok = false;
            *err = e;
        }
    }
    engine_step_to(lr->engine, t);
    return t;
}

const LinkChange *liverace_last_change(const LiveRace *lr, int *count)
{
    if (count)
        *count = lr->script_applied;
    return lr->script_last;
}

RaceFlow *liverace_flow(LiveRace *lr)
{
    return &lr->flow;
}

Engine *liverace_engine(LiveRace *lr)
{
    return lr->engine;
}

const World *liverace_world(const LiveRace *lr)
{
    return &lr->world;
}

int64_t liverace_now(const LiveRace *lr)
{
    return lr->world.t_us;
}

bool liverace_done(const LiveRace *lr)
{
    return lr->flow.phase == RF_DONE;
}

void liverace_pose(const LiveRace *lr, int car, Pose *out)
{
    const Car *c = &lr->world.car[car];
    out->x = c->x;
    out->y = c->y;
    out->heading = c->heading;
    out->seq = 0;
}

double liverace_speed(const LiveRace *lr, int car)
{
    return car_speed(&lr->world.car[car]);
}
