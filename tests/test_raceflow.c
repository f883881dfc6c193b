/* Race flow and per-terminal lap bookkeeping on races whose crossings are
 * known by hand: progress that grows by exactly one car width per 100 ms
 * sample, terminals that show a car a whole number of samples late. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "raceflow.h"

#define STEP_US (100 * NR_US_PER_MS)

static void start(RaceFlow *rf, int laps, int64_t duration_us)
{
    RaceFlowConfig c = {.laps = laps, .duration_us = duration_us, .lap_cw = 100.0};
    raceflow_init(rf, &c);
    raceflow_go(rf, 0);
    assert_true(raceflow_tick(rf, RACEFLOW_LIGHTS * RACEFLOW_LIGHT_US));
}

static void test_countdown_lights(void **st)
{
    (void)st;
    RaceFlow rf;
    RaceFlowConfig c = {.laps = 3, .lap_cw = 100.0};
    raceflow_init(&rf, &c);
    assert_int_equal(rf.phase, RF_GRID);
    assert_false(raceflow_tick(&rf, 1000 * NR_US_PER_S)); /* the grid waits for go */
    assert_int_equal(raceflow_lights(&rf, 5), 0);
    raceflow_go(&rf, 10);
    assert_int_equal(rf.phase, RF_COUNTDOWN);
    assert_int_equal(raceflow_lights(&rf, 10), 1);
    assert_int_equal(raceflow_lights(&rf, 10 + RACEFLOW_LIGHT_US - 1), 1);
    assert_int_equal(raceflow_lights(&rf, 10 + RACEFLOW_LIGHT_US), 2);
    assert_int_equal(raceflow_lights(&rf, 10 + 4 * RACEFLOW_LIGHT_US), 5);
    assert_false(raceflow_tick(&rf, 10 + 5 * RACEFLOW_LIGHT_US - 1));
    assert_int_equal(raceflow_lights(&rf, 10 + 5 * RACEFLOW_LIGHT_US - 1), 5);
    assert_true(raceflow_tick(&rf, 10 + 5 * RACEFLOW_LIGHT_US));
    assert_int_equal(rf.phase, RF_RACING);
    assert_int_equal(raceflow_lights(&rf, 10 + 5 * RACEFLOW_LIGHT_US), 0); /* lights out: go */
    assert_false(raceflow_tick(&rf, 10 + 6 * RACEFLOW_LIGHT_US)); /* only once */
    raceflow_go(&rf, 0); /* no second countdown */
    assert_int_equal(rf.phase, RF_RACING);
}

/* Two laps of 100 cw. Truth: car 0 at i - 2, car 1 at i + 3 after sample i.
 * Terminal 1 shows car 1 eight samples late, terminal 2 shows car 0 eight
 * samples late: each player sees himself win, the truth has car 1 first. */
static void feed_two_lap_race(RaceFlow *rf, int upto, double freeze_seen_car0_at_t2)
{
    for (int i = 0; i <= upto; i++) {
        RaceProgress p = {{i - 2.0, i + 3.0}, {{i - 2.0, i + 3.0 - 8.0}, {i - 2.0 - 8.0, i + 3.0}}};
        if (freeze_seen_car0_at_t2 > -1e9 && p.seen[1][0] > freeze_seen_car0_at_t2)
            p.seen[1][0] = freeze_seen_car0_at_t2;
        raceflow_sample(rf, i * STEP_US, &p);
    }
}

static void test_laps_each_terminal(void **st)
{
    (void)st;
    RaceFlow rf;
    start(&rf, 2, 0);
    feed_two_lap_race(&rf, 201, -1e10);
    assert_int_equal(rf.phase, RF_RACING); /* car 0 not over its line yet */
    feed_two_lap_race(&rf, 202, -1e10);   /* i = 202: car 0 at 200 cw */
    assert_int_equal(rf.phase, RF_FINISHING);
    assert_int_equal(rf.over_us, 202 * STEP_US);
    feed_two_lap_race(&rf, 209, -1e10);
    assert_int_equal(rf.phase, RF_FINISHING); /* terminal 2 shows car 0 at 199 */
    feed_two_lap_race(&rf, 210, -1e10);
    assert_int_equal(rf.phase, RF_DONE);

    RaceResult t, a, b;
    raceflow_result(&rf, RACEFLOW_TRUTH, &t);
    raceflow_result(&rf, 0, &a);
    raceflow_result(&rf, 1, &b);
    /* truth: car 1 crosses 100 at i = 97 and 200 at i = 197 */
    assert_int_equal(t.order[0], 1);
    assert_int_equal(t.order[1], 0);
    assert_true(t.finished[0] && t.finished[1]);
    assert_int_equal(t.finish_us[1], 197 * STEP_US);
    assert_int_equal(t.lap_us[1][0], 97 * STEP_US);
    assert_int_equal(t.lap_us[1][1], 100 * STEP_US);
    assert_int_equal(t.lap_us[0][0], 102 * STEP_US);
    assert_int_equal(t.finish_us[0], 202 * STEP_US);
    /* terminal 1: car 1 shown at i - 5, finishing at i = 205, after car 0 */
    assert_int_equal(a.order[0], 0);
    assert_int_equal(a.finish_us[0], 202 * STEP_US);
    assert_int_equal(a.finish_us[1], 205 * STEP_US);
    assert_int_equal(a.lap_us[1][0], 105 * STEP_US);
    /* terminal 2: car 0 shown at i - 10, finishing at i = 210 */
    assert_int_equal(b.order[0], 1);
    assert_int_equal(b.finish_us[0], 210 * STEP_US);
    assert_int_equal(b.finish_us[1], 197 * STEP_US);
    assert_true(raceflow_orders_differ(&rf));
}

static void test_tail_ends_a_finish_never_shown(void **st)
{
    (void)st;
    RaceFlow rf;
    start(&rf, 2, 0);
    /* terminal 2 never shows car 0 beyond 150 cw (a link slower than Delta) */
    feed_two_lap_race(&rf, 251, 150.0);
    assert_int_equal(rf.phase, RF_FINISHING); /* over at 20.2 s, tail until 25.2 s */
    feed_two_lap_race(&rf, 252, 150.0);
    assert_int_equal(rf.phase, RF_DONE);
    RaceResult b;
    raceflow_result(&rf, 1, &b);
    assert_false(b.finished[0]);
    assert_int_equal(b.finish_us[0], -1);
    assert_int_equal(b.laps_done[0], 1);
    assert_int_equal(b.order[0], 1);
    assert_true(b.progress[0] == 150.0);
}

static void test_grace_after_first_finisher(void **st)
{
    (void)st;
    RaceFlow rf;
    start(&rf, 2, 0);
    /* car 1 stops at 50 cw; car 0 finishes at i = 202 (progress i - 2) */
    for (int i = 0; i <= 502; i++) {
        double p0 = i - 2.0, p1 = i < 50 ? i : 50.0;
        RaceProgress p = {{p0, p1}, {{p0, p1}, {p0, p1}}};
        raceflow_sample(&rf, i * STEP_US, &p);
        if (i == 501)
            assert_int_equal(rf.phase, RF_RACING); /* 20.2 s + 30 s grace not over */
    }
    assert_int_equal(rf.over_us, 502 * STEP_US);
    assert_int_equal(rf.phase, RF_DONE); /* every shown finish already seen */
    RaceResult t;
    raceflow_result(&rf, RACEFLOW_TRUTH, &t);
    assert_int_equal(t.order[0], 0);
    assert_true(t.finished[0]);
    assert_false(t.finished[1]);
    assert_int_equal(t.laps_done[1], 0);
}

/* The paper's fixed-length race: standings by progress at the limit. */
static void test_time_mode(void **st)
{
    (void)st;
    RaceFlow rf;
    start(&rf, 1, 3 * NR_US_PER_S);
    for (int i = 0; i <= 31; i++) {
        RaceProgress p = {{i, i + 0.5}, {{i, i - 2 + 0.5}, {i - 2.0, i + 0.5}}};
        raceflow_sample(&rf, i * STEP_US, &p);
        if (i == 29)
            assert_int_equal(rf.phase, RF_RACING);
        if (i == 30)
            assert_int_equal(rf.phase, RF_DONE);
    }
    RaceResult t, a, b;
    raceflow_result(&rf, RACEFLOW_TRUTH, &t);
    raceflow_result(&rf, 0, &a);
    raceflow_result(&rf, 1, &b);
    assert_int_equal(t.order[0], 1);
    assert_int_equal(a.order[0], 0);
    assert_int_equal(b.order[0], 1);
    assert_true(t.progress[0] == 30.0); /* the sample after the end is ignored */
    assert_false(t.finished[0]);        /* nobody "finishes" a timed race */
    assert_true(raceflow_orders_differ(&rf));
}

static void test_tie_and_backwards_progress(void **st)
{
    (void)st;
    RaceFlow rf;
    start(&rf, 3, 0);
    double seq[5] = {99.0, 101.0, 99.5, 101.0, 150.0};
    for (int i = 0; i < 5; i++) {
        RaceProgress p = {{seq[i], seq[i]}, {{seq[i], seq[i]}, {seq[i], seq[i]}}};
        raceflow_sample(&rf, (i + 1) * STEP_US, &p);
    }
    RaceResult t;
    raceflow_result(&rf, RACEFLOW_TRUTH, &t);
    assert_int_equal(t.laps_done[0], 1); /* a prediction falling back does not count a lap twice */
    assert_int_equal(t.lap_us[0][0], 2 * STEP_US);
    assert_int_equal(t.order[0], 1); /* an exact tie: car 2 ahead, as the metrics count it */
    assert_false(raceflow_orders_differ(&rf));
    /* a sample not later than the last is ignored */
    RaceProgress back = {{500.0, 500.0}, {{500.0, 500.0}, {500.0, 500.0}}};
    raceflow_sample(&rf, 5 * STEP_US, &back);
    raceflow_result(&rf, RACEFLOW_TRUTH, &t);
    assert_int_equal(t.laps_done[0], 1);
}

/* Nobody moves: the race still ends, at laps x RACEFLOW_MAX_LAP_US. */
static void test_nobody_finishes(void **st)
{
    (void)st;
    RaceFlow rf;
    start(&rf, 2, 0);
    RaceProgress p = {{-3.0, -5.0}, {{-3.0, -5.0}, {-3.0, -5.0}}};
    int64_t t = 0;
    while (rf.phase == RF_RACING && t <= 3 * RACEFLOW_MAX_LAP_US) {
        raceflow_sample(&rf, t, &p);
        t += 33 * NR_US_PER_MS;
    }
    int64_t period = 33 * NR_US_PER_MS; /* the first sample at or after 1200 s */
    assert_int_equal(rf.over_us, (2 * RACEFLOW_MAX_LAP_US + period - 1) / period * period);
    assert_int_equal(rf.phase, RF_DONE); /* no finish to wait for */
    RaceResult r;
    raceflow_result(&rf, RACEFLOW_TRUTH, &r);
    assert_int_equal(r.order[0], 0); /* car 1 is further up the grid */
    assert_false(r.finished[0]);
}

/* Three cars, one lap of 100 cw. Truth after sample i: car 0 at i, car 1
 * at i + 1, car 2 at i - 1. Each terminal shows its own car on time and the
 * two others four samples late. Crossings by hand (the first sample at or
 * past 100): truth car 1 at 99, car 0 at 100, car 2 at 101; terminal 1
 * (index 0): car 0 at 100, car 1 at 103, car 2 at 105; terminal 2: car 1
 * at 99, car 0 at 104, car 2 at 105; terminal 3: car 2 at 101, car 1 at
 * 103, car 0 at 104. */
static void feed_three(RaceFlow *rf, int from, int upto)
{
    for (int i = from; i <= upto; i++) {
        RaceProgress p;
        memset(&p, 0, sizeof p);
        double truth[3] = {i, i + 1.0, i - 1.0};
        for (int c = 0; c < 3; c++) {
            p.truth[c] = truth[c];
            for (int j = 0; j < 3; j++)
                p.seen[j][c] = j == c ? truth[c] : truth[c] - 4.0;
        }
        raceflow_sample(rf, i * STEP_US, &p);
    }
}

static void test_three_cars_three_terminals(void **st)
{
    (void)st;
    RaceFlow rf;
    RaceFlowConfig c = {.laps = 1, .lap_cw = 100.0, .ncars = 3};
    raceflow_init(&rf, &c);
    raceflow_go(&rf, 0);
    assert_true(raceflow_tick(&rf, RACEFLOW_LIGHTS * RACEFLOW_LIGHT_US));
    feed_three(&rf, 0, 100);
    assert_int_equal(rf.phase, RF_RACING); /* car 2 not over the line in the truth */
    feed_three(&rf, 101, 101);
    assert_int_equal(rf.phase, RF_FINISHING);
    assert_int_equal(rf.over_us, 101 * STEP_US);
    feed_three(&rf, 102, 104);
    assert_int_equal(rf.phase, RF_FINISHING); /* terminals 1 and 2 show car 2 at 105 */
    feed_three(&rf, 105, 105);
    assert_int_equal(rf.phase, RF_DONE);
    static const int order[4][3] = {{0, 1, 2}, {1, 0, 2}, {2, 1, 0}, {1, 0, 2}};
    static const int finish[4][3] = {{100, 103, 105}, {104, 99, 105}, {104, 103, 101}, {100, 99, 101}};
    static const int who[4] = {0, 1, 2, RACEFLOW_TRUTH};
    for (int v = 0; v < 4; v++) {
        RaceResult r;
        raceflow_result(&rf, who[v], &r);
        assert_int_equal(r.ncars, 3);
        for (int k = 0; k < 3; k++) {
            assert_int_equal(r.order[k], order[v][k]);
            assert_true(r.finished[k]);
            assert_int_equal(r.finish_us[k], finish[v][k] * STEP_US);
            assert_int_equal(r.lap_us[k][0], finish[v][k] * STEP_US);
        }
    }
    assert_true(raceflow_same_order(&rf, 1, RACEFLOW_TRUTH));
    assert_false(raceflow_same_order(&rf, 0, 1));
    assert_true(raceflow_orders_differ(&rf));
}

/* Four cars every terminal shows alike: the orders agree; a car count past
 * RACEFLOW_CARS is clamped, none below two. */
static void test_four_cars_agree(void **st)
{
    (void)st;
    RaceFlow rf;
    RaceFlowConfig c = {.laps = 1, .lap_cw = 100.0, .ncars = 4};
    raceflow_init(&rf, &c);
    raceflow_go(&rf, 0);
    raceflow_tick(&rf, RACEFLOW_LIGHTS * RACEFLOW_LIGHT_US);
    for (int i = 0; rf.phase != RF_DONE && i < 1000; i++) {
        RaceProgress p;
        memset(&p, 0, sizeof p);
        for (int car = 0; car < 4; car++) {
            p.truth[car] = i * (1.0 + 0.1 * car);
            for (int j = 0; j < 4; j++)
                p.seen[j][car] = p.truth[car];
        }
        raceflow_sample(&rf, i * STEP_US, &p);
    }
    assert_int_equal(rf.phase, RF_DONE);
    RaceResult r;
    raceflow_result(&rf, 3, &r);
    for (int k = 0; k < 4; k++)
        assert_int_equal(r.order[k], 3 - k); /* the fastest first */
    assert_false(raceflow_orders_differ(&rf));
    RaceFlowConfig big = {.laps = 1, .lap_cw = 100.0, .ncars = 99}, none = {.laps = 1, .lap_cw = 100.0};
    raceflow_init(&rf, &big);
    assert_int_equal(rf.cfg.ncars, RACEFLOW_CARS);
    raceflow_init(&rf, &none);
    assert_int_equal(rf.cfg.ncars, 2);
}

static void test_samples_before_the_start_ignored(void **st)
{
    (void)st;
    RaceFlow rf;
    RaceFlowConfig c = {.laps = 1, .lap_cw = 100.0};
    raceflow_init(&rf, &c);
    RaceProgress p = {{500.0, 500.0}, {{500.0, 500.0}, {500.0, 500.0}}};
    raceflow_sample(&rf, STEP_US, &p);
    RaceResult t;
    raceflow_result(&rf, RACEFLOW_TRUTH, &t);
    assert_int_equal(t.laps_done[0], 0);
    assert_int_equal(rf.phase, RF_GRID);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_countdown_lights),
        cmocka_unit_test(test_laps_each_terminal),
        cmocka_unit_test(test_tail_ends_a_finish_never_shown),
        cmocka_unit_test(test_grace_after_first_finisher),
        cmocka_unit_test(test_time_mode),
        cmocka_unit_test(test_tie_and_backwards_progress),
        cmocka_unit_test(test_samples_before_the_start_ignored),
        cmocka_unit_test(test_nobody_finishes),
        cmocka_unit_test(test_three_cars_three_terminals),
        cmocka_unit_test(test_four_cars_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
