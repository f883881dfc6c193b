/* The tank path generator against its documented model: only the three
 * speeds, straight runs that move exactly v * period along the heading,
 * turns in place at pi/4 rad/s, the time shares the Markov chain of the
 * model predicts, and the same bytes for the same seed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "synthpath.h"

#define S SYNTH_TANK_SPEED_CW
#define W SYNTH_TANK_TURN_RAD_S

static void tank_follows_its_model(void **state)
{
    (void)state;
    Recording rec;
    NrError err = {{0}};
    assert_true(synthpath_tank(&rec, 5, 2000.0, 33, &err));
    assert_string_equal(rec.source, "tank");
    assert_int_equal(rec.ncars, 1);
    const double dt = 0.033;
    int run = 0, turn = 0, stop = 0, straight_checked = 0;
    for (int i = 0; i + 1 < rec.nsamples; i++) {
        const RecSample *a = &rec.samples[i], *b = &rec.samples[i + 1];
        assert_true(a->speed == 0.0 || a->speed == S || a->speed == 0.5 * S);
        double dx = b->x - a->x, dy = b->y - a->y, d = hypot(dx, dy);
        double dh = fabs(nr_wrap_angle(b->heading - a->heading));
        /* never faster than the tank, never turning faster than it can */
        assert_true(d <= S * dt + 1e-9);
        assert_true(dh <= W * dt + 1e-9);
        if (a->speed > 0 && b->speed == a->speed && dh == 0.0 && d > 0) {
            /* inside one run (or two at the same speed and heading) */
            assert_float_equal(d, a->speed * dt, 1e-9);
            assert_float_equal(atan2(dy, dx), a->heading, 1e-9);
            straight_checked++;
        }
        if (a->speed > 0)
            run++;
        else if (dh > 0 && d == 0.0)
            turn++; /* in place: the position does not move */
        else if (d == 0.0)
            stop++;
    }
    assert_true(straight_checked > 1000);
    /* time shares of the model's chain: visits run : turn : stop = 1 : 0.6 :
     * 0.2, mean durations 2.5 s, 105 deg / 45 deg/s = 2.333 s and 1.15 s:
     * 2.5 : 1.4 : 0.23 of 4.13 s, i.e. 60.5 %, 33.9 %, 5.6 % */
    double n = rec.nsamples - 1;
    assert_float_equal(run / n, 2.5 / 4.13, 0.03);
    assert_float_equal(turn / n, 1.4 / 4.13, 0.03);
    assert_float_equal(stop / n, 0.23 / 4.13, 0.02);
    recording_free(&rec);
}

static void tank_is_deterministic(void **state)
{
    (void)state;
    Recording a, b, c;
    NrError err = {{0}};
    assert_true(synthpath_tank(&a, 9, 30.0, 33, &err));
    assert_true(synthpath_tank(&b, 9, 30.0, 33, &err));
    assert_true(synthpath_tank(&c, 10, 30.0, 33, &err));
    assert_int_equal(a.nsamples, b.nsamples);
    assert_memory_equal(a.samples, b.samples, sizeof *a.samples * (size_t)a.nsamples);
    assert_true(memcmp(a.samples, c.samples, sizeof *a.samples * (size_t)a.nsamples) != 0);
    recording_free(&c);
    assert_false(synthpath_tank(&c, 1, 0.0, 33, &err)); /* bad input: an error, not a crash */
    assert_false(synthpath_tank(&c, 1, 10.0, 0, &err));
    recording_free(&a);
    recording_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tank_follows_its_model),
        cmocka_unit_test(tank_is_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
