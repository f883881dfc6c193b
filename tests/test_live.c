/* The engine fed sample by sample (engine_push), as a driven race feeds it:
 * the same metrics bit for bit as the file replay, any medium, constant
 * memory over an hour. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "race_fixture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixedmedium.h"
#include "replay.h"
#include "rng.h"

#define MS NR_US_PER_MS

/* ---- allocation counter: malloc, calloc, realloc of the code under test
 * go through these (linked with -Wl,--wrap=...). ---------------------------- */
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);

static long allocations;

void *__wrap_malloc(size_t n)
{
    allocations++;
    return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t m)
{
    allocations++;
    return __real_calloc(n, m);
}

void *__wrap_realloc(void *p, size_t n)
{
    allocations++;
    return __real_realloc(p, n);
}

/* ---- fixtures ------------------------------------------------------------ */

static void source_path(char *buf, size_t n, const char *rel)
{
    const char *src = getenv("NETRACE_SOURCE_DIR");
    snprintf(buf, n, "%s/%s", src ? src : ".", rel);
}

static Track *circle_track(void)
{
    return circle_of(300, 96);
}

static LinkSpec spec(const char *text)
{
    LinkSpec s;
    NrError err;
    memset(&s, 0, sizeof s);
    if (!linkspec_parse(&s, text, NULL, &err))
        fprintf(stderr, "%s\n", err.msg);
    return s;
}

static void base_config(EngineConfig *cfg, const Track *t, const char *schemes)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->track = t;
    cfg->period_ms = 33;
    cfg->seed = 5;
    cfg->params = scheme_default_params();
    NrError err;
    cfg->nschemes = scheme_parse_list(schemes, cfg->schemes, SCHEME_MAX, &err);
    assert_true(cfg->nschemes > 0);
}

static void file_pose(const Recording *rec, int i, CarPose p[2])
{
    for (int c = 0; c < 2; c++) {
        const RecSample *s = recording_at(rec, c, i);
        p[c] = (CarPose){s->x, s->y, s->heading, s->speed};
    }
}

/* Bit-identical doubles (memcmp: -0.0 and NaN compare as bits). */
static bool same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static bool same_sample(const MetricSample *a, const MetricSample *b)
{
    return a->t_us == b->t_us && same_bits(a->d1, b->d1) && same_bits(a->d2, b->d2) &&
           a->inconsistent == b->inconsistent && same_bits(a->rate, b->rate) &&
           same_bits(a->mean_d1_d2, b->mean_d1_d2);
}

/* ---- tests --------------------------------------------------------------- */

/* The bundled race pushed one sample at a time, the engine stepped at
 * irregular times (before, at and between samples, sometimes several
 * samples at once), every scheme, jittered lossy duplicating links and
 * drifting clocks: the metrics, counters and history are bit-identical to
 * the file replay, whose progress comes precomputed from the whole file. */
static void push_by_sample_equals_file_replay(void **state)
{
    (void)state;
    char path[4096];
    NrError err;
    source_path(path, sizeof path, "tracks/default.track");
    Track *t = track_load(path, &err);
    assert_non_null(t);
    Recording rec;
    source_path(path, sizeof path, "recordings/default.csv");
    assert_true(recording_load(&rec, path, &err));
    LinkSpec l12 = spec("delay 120ms 60ms distribution paretonormal loss 5% duplicate 3%");
    LinkSpec l21 = spec("delay 40ms 30ms loss 2%");
    EngineConfig cfg;
    base_config(&cfg, t, "all");
    cfg.link[0] = &l12;
    cfg.link[1] = &l21;
    cfg.keep_history = true;
    cfg.clock[0] = (TerminalClock){4 * MS, 80.0};
    cfg.clock[1] = (TerminalClock){-2 * MS, -40.0};

    Replay *file = replay_new(&cfg, &rec, false, &err);
    assert_non_null(file);
    replay_step_to(file, replay_end_us(file));

    cfg.history_cap = rec.nsamples;
    Engine *live = engine_new(&cfg, &err);
    assert_non_null(live);
    Rng rng;
    rng_seed(&rng, 99, 0);
    int i = 0;
    int64_t t_us = 0;
    while (i < rec.nsamples) {
        int burst = 1 + (int)rng_below(&rng, 4);
        for (int b = 0; b < burst && i < rec.nsamples; b++, i++) {
            CarPose p[2];
            file_pose(&rec, i, p);
            assert_true(engine_push(live, p, 2, 0));
        }
        /* Step somewhere up to the last pushed sample, in uneven strides. */
        int64_t last = engine_pushed_us(live);
        t_us += (int64_t)rng_below(&rng, 90 * MS);
        if (t_us > last || last - t_us > (ENGINE_PUSH_AHEAD - 8) * 33 * MS) /* keep the ring from filling */
            t_us = last - (int64_t)rng_below(&rng, 3) * MS;
        engine_step_to(live, t_us);
        assert_true(engine_now(live) <= last);
    }
    engine_finish(live);
    engine_step_to(live, INT64_MAX / 2);
    assert_true(engine_done(live));
    assert_int_equal(engine_now(live), replay_end_us(file));

    const Engine *fe = replay_engine(file);
    for (int k = 0; k < cfg.nschemes; k++) {
        assert_memory_equal(engine_metrics(fe, k), engine_metrics(live, k), sizeof(Metrics));
        int na, nb;
        const MetricSample *ha = engine_history(fe, k, &na), *hb = engine_history(live, k, &nb);
        assert_int_equal(na, rec.nsamples);
        assert_int_equal(na, nb);
        for (int q = 0; q < na; q++) /* field by field: the struct's padding is indeterminate */
            assert_true(same_sample(&ha[q], &hb[q]));
    }
    /* The traffic was really hostile enough to matter. */
    assert_true(engine_metrics(live, 0)->dir[0].lost > 0);
    assert_true(engine_metrics(live, 0)->dir[0].duplicated > 0);
    assert_true(engine_metrics(live, 0)->inconsistent > 0);
    engine_free(live);
    replay_free(file);
    linkspec_free(&l12);
    linkspec_free(&l21);
    recording_free(&rec);
    track_free(t);
}

/* Car c on the circle's centre line at s0 + v t. */
static void circle_poses(const Track *t, int i, CarPose p[2])
{
    const double s0[2] = {0.0, 5.0}, v[2] = {30.0, 20.0};
    for (int c = 0; c < 2; c++) {
        double s = s0[c] + v[c] * i * 0.033;
        track_point(t, s, &p[c].x, &p[c].y, &p[c].heading);
        p[c].speed = v[c];
    }
}

/* The engine runs over any Medium: a lossless FIFO of 66 ms (two periods)
 * each way makes NC show MU k - 2 at sample k, so d1 = 30 cw/s * 0.066 s and
 * d2 = 20 cw/s * 0.066 s from sample 2 on (by hand, as with a DelayLine of
 * "delay 66ms"); every MU sent is delivered but the last two each way. */
static void engine_over_a_fixed_medium(void **state)
{
    (void)state;
    Track *t = circle_track();
    FixedMedium f[2];
    NrError err;
    Medium m[2];
    for (int d = 0; d < 2; d++) {
        assert_true(fixedmedium_init(&f[d], 66 * MS, 64, &err));
        m[d] = fixedmedium_medium(&f[d]);
    }
    EngineConfig cfg;
    base_config(&cfg, t, "nc,causality");
    cfg.medium[0] = &m[0];
    cfg.medium[1] = &m[1];
    cfg.keep_history = true;
    Engine *e = engine_new(&cfg, &err);
    assert_non_null(e);
    const int n = 100;
    for (int i = 0; i < n; i++) {
        CarPose p[2];
        circle_poses(t, i, p);
        assert_true(engine_push(e, p, 2, 0));
        engine_step_to(e, engine_pushed_us(e));
        InFlight fl[8];
        assert_int_equal(engine_in_flight(e, 0, 0, fl, 8), i >= 2 ? 2 : i + 1);
    }
    engine_finish(e);
    engine_step_to(e, INT64_MAX / 2);
    int hn;
    const MetricSample *h = engine_history(e, 0, &hn);
    assert_int_equal(hn, n);
    for (int k = 2; k < n; k++) {
        assert_true(fabs(h[k].d1 - 30.0 * 0.066) < 1e-6);
        assert_true(fabs(h[k].d2 - 20.0 * 0.066) < 1e-6);
    }
    const Metrics *nc = engine_metrics(e, 0);
    assert_int_equal(nc->dir[0].sent, n);
    assert_int_equal(nc->dir[0].delivered, n - 2);
    assert_int_equal(nc->dir[0].lost, 0);
    /* Causality with 66 ms < Delta = 100 ms: consistent throughout. */
    assert_int_equal(engine_metrics(e, 1)->inconsistent, 0);
    /* A caller's medium has no link spec to change. */
    LinkSpec l = spec("delay 10ms");
    assert_false(engine_set_link(e, 0, &l, &err));
    linkspec_free(&l);
    engine_free(e);
    fixedmedium_free(&f[0]);
    fixedmedium_free(&f[1]);
    track_free(t);
}

/* One hour of live race (109,091 samples of 33 ms) with every scheme, the
 * history and the lagometer's rings on and lossy jittered links: not one
 * allocation after engine_new, the history held at its capacity, the rings
 * full, every sample measured. */
static void one_hour_in_constant_memory(void **state)
{
    (void)state;
    Track *t = circle_track();
    LinkSpec l12 = spec("delay 80ms 40ms loss 2% duplicate 1%"), l21 = spec("delay 60ms 20ms");
    EngineConfig cfg;
    base_config(&cfg, t, "all");
    cfg.link[0] = &l12;
    cfg.link[1] = &l21;
    cfg.keep_history = true;
    cfg.history_cap = 1000;
    cfg.lagometer = true;
    NrError err;
    Engine *e = engine_new(&cfg, &err);
    assert_non_null(e);
    const int n = 109091; /* 3600 s / 33 ms */
    long before = allocations;
    for (int i = 0; i < n; i++) {
        CarPose p[2];
        circle_poses(t, i, p);
        assert_true(engine_push(e, p, 2, 0));
        engine_step_to(e, engine_pushed_us(e));
    }
    engine_finish(e);
    engine_step_to(e, engine_pushed_us(e));
    assert_int_equal(allocations - before, 0);
    for (int k = 0; k < cfg.nschemes; k++) {
        int hn;
        engine_history(e, k, &hn);
        assert_true(hn > 0 && hn <= 1000);
        assert_int_equal(engine_metrics(e, k)->samples, n);
        assert_int_equal(lagring_count(engine_lag(e, k, 1)), LAG_EVENTS_PER_SENDER);
        assert_int_equal(lagring_shown_count(engine_lag(e, k, 0)), LAG_SHOWN);
    }
    assert_int_equal(engine_now(e), (int64_t)(n - 1) * 33 * MS);
    /* The counter does count: a new engine allocates. */
    before = allocations;
    Engine *e2 = engine_new(&cfg, &err);
    assert_true(allocations > before);
    engine_free(e2);
    engine_free(e);
    linkspec_free(&l12);
    linkspec_free(&l21);
    track_free(t);
}

/* Pushing is bounded and checked; stepping never runs past the last pushed
 * sample; after engine_finish nothing more is taken. */
static void push_contract(void **state)
{
    (void)state;
    Track *t = circle_track();
    EngineConfig cfg;
    base_config(&cfg, t, "nc");
    NrError err;
    Engine *e = engine_new(&cfg, &err);
    assert_non_null(e);
    assert_int_equal(engine_pushed_us(e), -1);
    CarPose p[2];
    circle_poses(t, 0, p);
    CarPose bad[2] = {p[0], p[1]};
    bad[1].y = NAN;
    assert_false(engine_push(e, bad, 2, 0));
    assert_false(engine_push(e, p, 3, 0));
    for (int i = 0; i < ENGINE_PUSH_AHEAD; i++) {
        circle_poses(t, i, p);
        assert_true(engine_push(e, p, 2, 0));
    }
    assert_false(engine_push(e, p, 2, 0)); /* the ring is full: step first */
    engine_step_to(e, 10 * NR_US_PER_S);
    int64_t last = (int64_t)(ENGINE_PUSH_AHEAD - 1) * 33 * MS;
    assert_int_equal(engine_now(e), last);
    assert_int_equal(engine_metrics(e, 0)->samples, ENGINE_PUSH_AHEAD);
    assert_false(engine_done(e));
    engine_finish(e);
    assert_true(engine_done(e));
    assert_false(engine_push(e, p, 2, 0));
    engine_free(e);
    track_free(t);
}

/* A looping replay: each heat restarts the terminals on the grid, clears
 * the history, keeps counting metrics; the end moves with the heat. */
static void looping_replay_runs_heats(void **state)
{
    (void)state;
    Track *t = circle_track();
    Recording rec;
    memset(&rec, 0, sizeof rec);
    rec.version = RECORDING_VERSION;
    rec.period_ms = 33;
    rec.ncars = 2;
    rec.nsamples = 90;
    rec.samples = calloc(2 * 90, sizeof(RecSample));
    for (int i = 0; i < 90; i++) {
        CarPose p[2];
        circle_poses(t, i, p);
        for (int c = 0; c < 2; c++)
            rec.samples[c * 90 + i] = (RecSample){i * 33, p[c].x, p[c].y, p[c].heading, p[c].speed};
    }
    EngineConfig cfg;
    base_config(&cfg, t, "nc");
    LinkSpec l = spec("delay 50ms");
    cfg.link[0] = cfg.link[1] = &l;
    cfg.keep_history = true;
    NrError err;
    Replay *r = replay_new(&cfg, &rec, true, &err);
    assert_non_null(r);
    int64_t heat = 90 * 33 * MS;
    assert_int_equal(replay_end_us(r), 89 * 33 * MS);
    replay_step_to(r, 2 * heat + 10 * 33 * MS);
    const Engine *e = replay_engine(r);
    assert_false(replay_done(r));
    assert_int_equal(engine_metrics(e, 0)->samples, 2 * 90 + 11);
    int hn;
    engine_history(e, 0, &hn);
    assert_int_equal(hn, 11);
    assert_int_equal(replay_end_us(r), 2 * heat + 89 * 33 * MS);
    /* At the heat's sample 0 both terminals show the grid again: NC shows
     * the remote car's grid pose until its first MU arrives (50 ms). */
    replay_restart(r);
    replay_step_to(r, heat);
    EngineView v;
    engine_view(e, 0, 1, &v);
    assert_int_equal(v.pose[0].seq, 0);
    replay_set_loop(r, false);
    replay_step_to(r, 3 * heat);
    assert_true(replay_done(r));
    assert_int_equal(engine_now(e), heat + 89 * 33 * MS);
    replay_free(r);
    linkspec_free(&l);
    recording_free(&rec);
    track_free(t);
}

/* A medium that hands over a hostile MU: it reaches no scheme and is
 * counted as rejected in the direction's counters. */
typedef struct Hostile {
    bool sent;
    int64_t due;
    Mu mu;
} Hostile;

static int ho_send(void *ctx, int k, int from, int to, const Mu *mu, int64_t now_us)
{
    (void)k, (void)from, (void)to;
    Hostile *h = ctx;
    if (!h->sent) {
        h->sent = true;
        h->due = now_us + 10 * MS;
        h->mu = *mu;
        h->mu.car = 5;
        h->mu.gen_us = INT64_MAX;
    }
    return 0;
}

static int64_t ho_next(const void *ctx)
{
    const Hostile *h = ctx;
    return h->sent && h->due >= 0 ? h->due : INT64_MAX;
}

static bool ho_pop(void *ctx, int64_t t_us, MediumDelivery *out)
{
    Hostile *h = ctx;
    if (!h->sent || h->due < 0 || h->due > t_us)
        return false;
    *out = (MediumDelivery){.scheme = 0, .from = 0, .to = 1, .sent_us = h->due - 10 * MS, .due_us = h->due,
                            .mu = h->mu};
    h->due = -1;
    return true;
}

static const MediumType hostile_type = {.name = "hostile", .send = ho_send, .next_due = ho_next, .pop_due = ho_pop};

static void hostile_mu_from_a_medium_is_counted(void **state)
{
    (void)state;
    Track *t = circle_track();
    Hostile h = {0};
    Medium m = {&hostile_type, &h};
    EngineConfig cfg;
    base_config(&cfg, t, "causality");
    cfg.medium[0] = &m;
    NrError err;
    Engine *e = engine_new(&cfg, &err);
    assert_non_null(e);
    for (int i = 0; i < 5; i++) {
        CarPose p[2];
        circle_poses(t, i, p);
        assert_true(engine_push(e, p, 2, 0));
    }
    engine_step_to(e, engine_pushed_us(e));
    const DirCounters *c = &engine_metrics(e, 0)->dir[0];
    assert_int_equal(c->delivered, 1);
    assert_int_equal(c->rejected, 1);
    assert_int_equal(c->late, 0);
    assert_int_equal(terminal_rejected(engine_terminal(e, 1), MU_BAD_CAR), 1);
    engine_free(e);
    track_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(push_by_sample_equals_file_replay),
        cmocka_unit_test(engine_over_a_fixed_medium),
        cmocka_unit_test(one_hour_in_constant_memory),
        cmocka_unit_test(push_contract),
        cmocka_unit_test(looping_replay_runs_heats),
        cmocka_unit_test(hostile_mu_from_a_medium_is_counted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
