/* A race being driven: world, controllers, engine, recording, race flow. */
#include "liverace.h"

#include "inputs.h"
#include "raceheader.h"
#include "raceloop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct LiveRace {
    LiveRaceConfig cfg;
    World world;
    RaceLoop loop;    /* the physics loop over world (raceloop.h) */
    Engine *engine;
    RaceFlow flow;
    RecWriter *rec;
    InputsWriter *inputs;
    int ncars;
    CarInput ext[ENGINE_MAX_CARS]; /* held inputs of external controllers */
    bool finished;    /* engine_finish called */
    bool write_failed;
    int script_next;              /* cursor into cfg.script */
    int script_applied;
    const LinkChange *script_last;
    bool step_failed;             /* a write failed inside a scripted step */
    NrError step_err;
    bool loop_failed;             /* a write failed in this raceloop_run */
    NrError loop_err, loop_first;
    RecMark *marks;               /* liverace_mark */
    int nmarks;
};

/* The race flow reads each metrics sample of the shown scheme: the truth
 * and what each terminal displays (engine.h on_sample). The grid sample,
 * taken before the lights go out, is not part of the race. */
static void flow_sample(void *ctx, const EngineSample *es)
{
    LiveRace *lr = ctx;
    if (es->t_us == 0 && lr->flow.phase < RF_RACING)
        return;
    RaceProgress p;
    engine_sample_race_progress(es, lr->cfg.shown, &p);
    raceflow_sample(&lr->flow, es->t_us, &p);
}

/* Every car's pose at sample time t: pushed to the engine (which takes the
 * metrics and feeds the race flow) and appended to the recording. */
static bool push_sample(LiveRace *lr, int64_t t_us, NrError *err)
{
    CarPose poses[ENGINE_MAX_CARS];
    RecSample s[ENGINE_MAX_CARS];
    for (int c = 0; c < lr->ncars; c++) {
        world_sample(&lr->world, c, &s[c]);
        poses[c] = (CarPose){.x = s[c].x, .y = s[c].y, .heading = s[c].heading, .speed = s[c].speed};
    }
    if (!engine_push(lr->engine, poses, lr->ncars, t_us == 0 ? ENGINE_PUSH_NEW_HEAT : 0))
        return nr_error_set(err, "engine refused the sample at %lld ms", (long long)(lr->world.t_us / 1000));
    engine_step_to(lr->engine, t_us);
    bool ok = true;
    for (int c = 0; c < lr->ncars && lr->rec && !lr->write_failed; c++)
        if (!recwriter_append(lr->rec, c, &s[c], err)) {
            lr->write_failed = true;
            ok = false;
        }
    return ok;
}

/* The loop's hooks: a sample (false once the race is done), a control. */
static bool loop_sample(void *ctx, int64_t t_us)
{
    LiveRace *lr = ctx;
    if (!push_sample(lr, t_us, &lr->loop_err) && !lr->loop_failed) {
        lr->loop_failed = true;
        lr->loop_first = lr->loop_err;
    }
    return lr->flow.phase != RF_DONE;
}

static bool loop_control(void *ctx, const World *w, int car, int64_t t_us, CarInput *out)
{
    LiveRace *lr = ctx;
    if (lr->cfg.ctl[car])
        controller_input(lr->cfg.ctl[car], w, car, out);
    else
        *out = lr->ext[car];
    if (lr->inputs && !lr->write_failed &&
        !inputs_writer_add(lr->inputs, (int32_t)(t_us / 1000), car, out, &lr->loop_err)) {
        lr->write_failed = true;
        if (!lr->loop_failed) {
            lr->loop_failed = true;
            lr->loop_first = lr->loop_err;
        }
    }
    return true; /* the race goes on unrecorded */
}

/* The condition the race is driven under, as recording header lines. */
static bool condition_meta(const LiveRaceConfig *cfg, const EngineConfig *ec, Recording *meta, NrError *err)
{
    char v[RECORDING_META_VALUE];
    bool ok = recording_meta_add(meta, "scheme", ec->schemes[cfg->shown]->name);
    /* the topology of a wide race, every line of it, the clocks (raceheader.h) */
    ok = raceheader_add(meta, ec) && ok;
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
    lr->ncars = cfg->ncars ? cfg->ncars : 2;
    if (!world_init(&lr->world, cfg->track, lr->ncars, err)) {
        free(lr);
        return NULL;
    }
    raceloop_init(&lr->loop, &lr->world, WORLD_SAMPLE_US, WORLD_SAMPLE_US,
                  &(RaceLoopHooks){lr, loop_sample, loop_control});
    EngineConfig ec = cfg->engine;
    ec.track = cfg->track;
    ec.period_ms = (int32_t)(WORLD_SAMPLE_US / 1000);
    ec.ncars = lr->ncars;
    ec.hooks = (EngineHooks){.ctx = lr, .on_sample = flow_sample};
    lr->engine = engine_new(&ec, err);
    if (!lr->engine) {
        free(lr);
        return NULL;
    }
    RaceFlowConfig fc = cfg->flow;
    fc.lap_cw = track_length(cfg->track);
    fc.ncars = lr->ncars;
    raceflow_init(&lr->flow, &fc);
    if (cfg->rec_path) {
        Recording meta;
        memset(&meta, 0, sizeof meta);
        meta.version = RECORDING_VERSION;
        snprintf(meta.track, sizeof meta.track, "%s", cfg->track_file ? cfg->track_file : "");
        snprintf(meta.source, sizeof meta.source, "%s", cfg->source ? cfg->source : "human");
        snprintf(meta.created, sizeof meta.created, "%s", cfg->created ? cfg->created : "");
        meta.period_ms = (int32_t)(WORLD_SAMPLE_US / 1000);
        meta.ncars = lr->ncars;
        if (!condition_meta(cfg, &ec, &meta, err)) { /* no file opened yet: nothing to remove */
            liverace_free(lr);
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
    if (!push_sample(lr, 0, err)) { /* the grid, sample 0 */
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
    free(lr->marks);
    free(lr);
}

void liverace_set_input(LiveRace *lr, int car, const CarInput *in)
{
    if (car >= 0 && car < lr->ncars)
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
    lr->loop_failed = false;
    raceloop_run(&lr->loop, t_us);
    if (lr->loop_failed) {
        *err = lr->loop_first;
        ok = false;
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

bool liverace_mark(LiveRace *lr, int player, const char *kind, NrError *err)
{
    if (lr->flow.phase != RF_RACING && lr->flow.phase != RF_FINISHING)
        return false;
    RecMark m;
    memset(&m, 0, sizeof m);
    m.t_ms = lr->world.t_us / 1000;
    m.player = player;
    snprintf(m.kind, sizeof m.kind, "%s", kind);
    if (!recmark_valid(&m, lr->ncars) || strlen(kind) >= sizeof m.kind)
        return nr_error_set(err, "mark '%s' of player %d is not a valid mark", kind, player);
    if (lr->nmarks >= RECORDING_MAX_MARKS)
        return nr_error_set(err, "more than %d marks in one race", RECORDING_MAX_MARKS);
    RecMark *grown = realloc(lr->marks, (size_t)(lr->nmarks + 1) * sizeof *grown);
    if (!grown)
        return nr_error_set(err, "out of memory");
    lr->marks = grown;
    lr->marks[lr->nmarks++] = m;
    if (!lr->rec || lr->write_failed)
        return true;
    if (!recwriter_mark(lr->rec, &m, err)) {
        lr->write_failed = true; /* as a row that cannot be written: the race goes on unrecorded */
        return false;
    }
    return true;
}

const RecMark *liverace_marks(const LiveRace *lr, int *n)
{
    *n = lr->nmarks;
    return lr->marks;
}
