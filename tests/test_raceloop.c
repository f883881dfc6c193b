/* The one physics loop (raceloop.h): the order of samples, control reads
 * and steps against a hand-written timeline, stopping, and a held input
 * that moves the car in the step it was read for. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "raceloop.h"

#include "netrace_config.h"

#define EVENTS 256

/* What the hooks saw, in order: 'S' sample, 'C' control (with its car). */
typedef struct Log {
    char kind[EVENTS];
    int64_t t[EVENTS];
    int car[EVENTS];
    int64_t world_t[EVENTS]; /* the world's time when the hook ran */
    int n;
    int64_t stop_at;          /* the sample hook says stop at this time (-1 never) */
    CarInput give;            /* what the control hook gives */
} Log;

static bool log_sample(void *ctx, int64_t t_us)
{
    Log *l = ctx;
    assert_true(l->n < EVENTS);
    l->kind[l->n] = 'S';
    l->t[l->n] = t_us;
    l->car[l->n] = -1;
    l->n++;
    return t_us != l->stop_at;
}

static bool log_control(void *ctx, const World *w, int car, int64_t t_us, CarInput *out)
{
    Log *l = ctx;
    assert_true(l->n < EVENTS);
    l->kind[l->n] = 'C';
    l->t[l->n] = t_us;
    l->car[l->n] = car;
    l->world_t[l->n] = w->t_us;
    l->n++;
    *out = l->give;
    return true;
}

/* The default track, a world of ncars at rest on the grid, an empty log. */
static Track *set_up(World *w, int ncars, Log *l, int64_t stop_at)
{
    NrError err;
    Track *t = track_load(NETRACE_SOURCE_DIR "/tracks/default.track", &err);
    assert_non_null(t);
    assert_true(world_init(w, t, ncars, &err));
    memset(l, 0, sizeof *l);
    l->stop_at = stop_at;
    return t;
}

/* Steps of 5.5 ms from 0; controls every 11 ms; samples every 33 ms from 0.
 * Run to 70 ms: the steps starting at 0, 5.5, ..., 66 ms (13 of them), so
 * samples at 0, 33, 66 ms and controls at 0, 11, ..., 66 ms (7 times, each
 * car in order); a sample comes before the control of the same instant.
 * The world ends at 13 * 5.5 = 71.5 ms. */
static void order_by_hand(void **state)
{
    (void)state;
    World w;
    Log l;
    Track *t = set_up(&w, 2, &l, -1);
    RaceLoop loop;
    raceloop_init(&loop, &w, 0, 33000, &(RaceLoopHooks){&l, log_sample, log_control});
    assert_true(raceloop_run(&loop, 70000));
    const char *want = "SCC" "CC" "CC" "SCC" "CC" "CC" "SCC";
    const int64_t want_t[] = {0, 0, 0, 11000, 11000, 22000, 22000, 33000, 33000, 33000, 44000, 44000,
                              55000, 55000, 66000, 66000, 66000};
    assert_int_equal(l.n, (int)strlen(want));
    for (int i = 0; i < l.n; i++) {
        assert_int_equal(l.kind[i], want[i]);
        assert_int_equal(l.t[i], want_t[i]);
        if (l.kind[i] == 'C') {
            assert_int_equal(l.world_t[i], l.t[i]); /* read before the step from t */
            assert_int_equal(l.car[i], l.kind[i - 1] == 'C' && l.t[i - 1] == l.t[i] ? 1 : 0);
        }
    }
    assert_int_equal(w.t_us, 71500);
    assert_int_equal(raceloop_next_sample_us(&loop), 99000);
    /* The next call goes on from 71.5 ms: no event twice. */
    l.n = 0;
    assert_true(raceloop_run(&loop, 77000));
    assert_int_equal(l.n, 2); /* the controls of 77 ms, cars 0 and 1 */
    assert_int_equal(l.t[0], 77000);
    assert_int_equal(w.t_us, 82500);
    track_free(t);
}

/* A sample that says stop: nothing runs at its instant or after, ever. */
static void stop_is_final(void **state)
{
    (void)state;
    World w;
    Log l;
    Track *t = set_up(&w, 1, &l, 33000);
    RaceLoop loop;
    raceloop_init(&loop, &w, 33000, 33000, &(RaceLoopHooks){&l, log_sample, log_control});
    assert_false(raceloop_run(&loop, 100000));
    /* first sample at 33 ms (the caller took the grid): controls at 0, 11,
     * 22 ms, then the sample of 33 ms stops before its control and step */
    assert_int_equal(l.n, 4);
    assert_int_equal(l.kind[3], 'S');
    assert_int_equal(l.t[3], 33000);
    assert_int_equal(w.t_us, 33000);
    assert_true(raceloop_stopped(&loop));
    assert_false(raceloop_run(&loop, 200000));
    assert_int_equal(l.n, 4);
    assert_int_equal(w.t_us, 33000);
    track_free(t);
}

/* Full throttle read at 0 moves the car in the first step: at rest before,
 * moving after one step, and held between control times. */
static void input_moves_the_car_in_its_step(void **state)
{
    (void)state;
    World w;
    Log l;
    Track *t = set_up(&w, 1, &l, -1);
    l.give = (CarInput){.throttle = 1.0};
    RaceLoop loop;
    raceloop_init(&loop, &w, 33000, 33000, &(RaceLoopHooks){&l, log_sample, log_control});
    assert_true(car_speed(&w.car[0]) == 0.0);
    assert_true(raceloop_run(&loop, 0)); /* the step from 0 only */
    assert_int_equal(w.t_us, 5500);
    assert_true(car_speed(&w.car[0]) > 0.0);
    assert_true(raceloop_held(&loop, 0)->throttle == 1.0);
    track_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(order_by_hand),
        cmocka_unit_test(stop_is_final),
        cmocka_unit_test(input_moves_the_car_in_its_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
