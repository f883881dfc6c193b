/* The live race loop (world + controllers + engine + recording + race
 * flow) without a window: an input set before a call moves the car within
 * that call, samples reach the engine every 33 ms, a timed race ends at its
 * limit with the engine finished, the recording is finalised on free. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "liverace.h"
#include "netrace_config.h"

static Track *load_track(void)
{
    NrError err;
    Track *t = track_load(NETRACE_SOURCE_DIR "/tracks/default.track", &err);
    if (!t)
        fprintf(stderr, "%s\n", err.msg);
    assert_non_null(t);
    return t;
}

static void config(LiveRaceConfig *c, const Track *t)
{
    memset(c, 0, sizeof *c);
    c->track = t;
    c->track_file = "default.track";
    NrError err;
    c->engine.nschemes = scheme_parse_list("nc,causality", c->engine.schemes, SCHEME_MAX, &err);
    assert_int_equal(c->engine.nschemes, 2);
    c->engine.params = scheme_default_params();
    c->engine.seed = 9;
    c->flow.laps = 1;
    c->source = "human";
}

static void start(LiveRace *lr)
{
    RaceFlow *rf = liverace_flow(lr);
    raceflow_go(rf, 0);
    assert_true(raceflow_tick(rf, RACEFLOW_LIGHTS * RACEFLOW_LIGHT_US));
}

static void test_input_moves_the_car_within_the_call(void **st)
{
    (void)st;
    Track *t = load_track();
    LiveRaceConfig c;
    config(&c, t);
    NrError err;
    LiveRace *lr = liverace_new(&c, &err);
    assert_non_null(lr);
    start(lr);
    Pose p0, p1;
    liverace_pose(lr, 0, &p0);
    /* nothing pressed: the car stands on its grid slot */
    assert_true(liverace_advance(lr, 100 * NR_US_PER_MS, &err));
    liverace_pose(lr, 0, &p1);
    assert_true(p1.x == p0.x && p1.y == p0.y);
    /* full throttle set before a call of one 60 Hz frame: moved after it */
    CarInput go = {.throttle = 1.0};
    liverace_set_input(lr, 0, &go);
    assert_true(liverace_advance(lr, 100 * NR_US_PER_MS + 16667, &err));
    liverace_pose(lr, 0, &p1);
    assert_true(p1.x != p0.x || p1.y != p0.y);
    assert_true(liverace_speed(lr, 0) > 0.0);
    assert_true(liverace_speed(lr, 1) == 0.0); /* the other car had no input */
    /* samples reach the engine every 33 ms up to the time advanced to */
    assert_true(liverace_advance(lr, 1000 * NR_US_PER_MS, &err));
    assert_int_equal(engine_pushed_us(liverace_engine(lr)), 990 * NR_US_PER_MS);
    /* the engine never runs past the last pushed sample (engine.h) */
    assert_int_equal(engine_now(liverace_engine(lr)), 990 * NR_US_PER_MS);
    liverace_free(lr);
    track_free(t);
}

static void test_timed_race_and_recording(void **st)
{
    (void)st;
    Track *t = load_track();
    char dir[] = "/tmp/netrace-live-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char rec[96], inputs[96], part[104];
    snprintf(rec, sizeof rec, "%s/r.csv", dir);
    snprintf(inputs, sizeof inputs, "%s/r.inputs.csv", dir);
    snprintf(part, sizeof part, "%s.part", rec);
    LiveRaceConfig c;
    config(&c, t);
    c.flow.duration_us = 2 * NR_US_PER_S;
    c.rec_path = rec;
    c.inputs_path = inputs;
    c.created = "test";
    NrError err;
    LiveRace *lr = liverace_new(&c, &err);
    assert_non_null(lr);
    assert_int_equal(access(part, F_OK), 0); /* opened at once as .part */
    assert_false(liverace_mark(lr, 1, RECORDING_MARK_DISSATISFIED, &err)); /* on the grid: no mark */
    start(lr);
    CarInput go = {.throttle = 1.0, .steer = 0.0};
    liverace_set_input(lr, 0, &go);
    liverace_set_input(lr, 1, &go);
    int64_t tt = 0;
    int frame = 0;
    while (!liverace_done(lr) && tt < 10 * NR_US_PER_S) {
        tt += 16667;
        assert_true(liverace_advance(lr, tt, &err));
        if (++frame == 30 || frame == 31 || frame == 80) /* a mark lands in the file at once */
            assert_true(liverace_mark(lr, frame == 80 ? 2 : 1, RECORDING_MARK_DISSATISFIED, &err));
        if (frame == 50) /* the experimenter's key (F3): nobody's */
            assert_true(liverace_mark(lr, 0, RECORDING_MARK_KEY, &err));
    }
    assert_false(liverace_mark(lr, 1, RECORDING_MARK_DISSATISFIED, &err)); /* after the race: none */
    assert_true(liverace_done(lr));
    /* the first sample at or after 2 s: 61 x 33 ms = 2.013 s */
    assert_int_equal(liverace_flow(lr)->over_us, 2013 * NR_US_PER_MS);
    assert_true(engine_done(liverace_engine(lr)));
    /* finished: closed and renamed already, before free */
    assert_int_equal(access(part, F_OK), -1);
    Recording r;
    assert_true(recording_load(&r, rec, &err));
    assert_int_equal(r.nsamples, 62); /* samples 0 .. 61 */
    /* the marks at the physics time of their frames, as the race kept them */
    int nm;
    const RecMark *m = liverace_marks(lr, &nm);
    assert_int_equal(nm, 4);
    assert_int_equal(r.nmarks, 4);
    static const int want_player[4] = {1, 1, 0, 2};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(r.marks[i].t_ms, m[i].t_ms);
        assert_int_equal(r.marks[i].player, want_player[i]);
        assert_string_equal(r.marks[i].kind, i == 2 ? "mark" : "dissatisfied");
    }
    assert_true(m[0].t_ms >= 30 * 16667 / 1000 - 6 && m[0].t_ms <= 30 * 16667 / 1000);
    assert_true(m[3].t_ms > m[2].t_ms && m[2].t_ms > m[1].t_ms && m[1].t_ms > m[0].t_ms);
    /* the live file is what recording_save writes of it: marks where a
     * saved recording puts them */
    char again[110];
    snprintf(again, sizeof again, "%s/again.csv", dir);
    assert_true(recording_save(&r, again, &err));
    FILE *fa = fopen(rec, "rb"), *fb = fopen(again, "rb");
    assert_true(fa && fb);
    int ca, cb;
    do {
        ca = fgetc(fa);
        cb = fgetc(fb);
    } while (ca == cb && ca != EOF);
    assert_int_equal(ca, cb);
    fclose(fa);
    fclose(fb);
    remove(again);
    assert_int_equal(r.samples[61].t_ms, 2013);
    assert_string_equal(r.source, "human");
    /* the recorded poses are the engine's truth at each sample */
    Pose truth;
    engine_truth(liverace_engine(lr), 0, &truth, NULL);
    assert_true(truth.x == r.samples[61].x && truth.y == r.samples[61].y);
    recording_free(&r);
    liverace_free(lr);
    remove(rec);
    remove(inputs);
    rmdir(dir);
    track_free(t);
}

static void test_bad_config(void **st)
{
    (void)st;
    Track *t = load_track();
    LiveRaceConfig c;
    config(&c, t);
    c.shown = 2;
    NrError err;
    assert_null(liverace_new(&c, &err));
    assert_non_null(strstr(err.msg, "shown scheme"));
    config(&c, t);
    c.rec_path = "/nonexistent-dir/x.csv";
    assert_null(liverace_new(&c, &err));
    assert_non_null(strstr(err.msg, "/nonexistent-dir/x.csv"));
    track_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_input_moves_the_car_within_the_call),
        cmocka_unit_test(test_timed_race_and_recording),
        cmocka_unit_test(test_bad_config),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
