/* The sweep's parameter table (vary.h): lists, ranges, the grid's order and
 * what each parameter sets, expectations by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "vary.h"

static void lists_and_ranges(void **state)
{
    (void)state;
    VaryAxis a;
    NrError err;
    assert_true(vary_parse("loss12=0:20:5", &a, &err));
    assert_int_equal(a.n, 5); /* 0 5 10 15 20 */
    assert_true(a.v[4] == 20.0);
    assert_true(vary_parse("tdr=0:1:0.1", &a, &err)); /* 11 values despite 0.1's binary fraction */
    assert_int_equal(a.n, 11);
    assert_true(fabs(a.v[10] - 1.0) < 1e-12);
    assert_true(vary_parse("delta=50,100,150", &a, &err));
    assert_int_equal(a.n, 3);
    assert_true(a.v[1] == 100.0);
    assert_false(vary_parse("delta=", &a, &err));
    assert_non_null(strstr(err.msg, "empty list"));
    assert_false(vary_parse("delta=100:50:10", &a, &err)); /* B < A */
    assert_false(vary_parse("delta=0:50:0", &a, &err));    /* STEP 0 */
    assert_false(vary_parse("delta=0:50", &a, &err));
    assert_false(vary_parse("delta=1,,2", &a, &err));
    assert_false(vary_parse("loss=101", &a, &err)); /* beyond 100 % */
    assert_false(vary_parse("delta=nan", &a, &err));
    assert_false(vary_parse("wobble=1", &a, &err));
    assert_non_null(strstr(err.msg, "unknown parameter 'wobble'"));
    assert_false(vary_parse("delta", &a, &err));
}

/* Two axes of 3 and 2 values: 6 points, the first axis fastest. */
static void grid_order(void **state)
{
    (void)state;
    VaryAxis ax[2];
    NrError err;
    assert_true(vary_parse("delay12=0,10,20", &ax[0], &err));
    assert_true(vary_parse("delta=50,100", &ax[1], &err));
    assert_int_equal(vary_grid_size(ax, 2), 6);
    double v[2];
    vary_point(ax, 2, 4, v); /* 4 = 1 + 3 * 1 */
    assert_true(v[0] == 10.0 && v[1] == 100.0);
    vary_point(ax, 2, 2, v);
    assert_true(v[0] == 20.0 && v[1] == 50.0);
}

/* loss = 20 %, burst 4: Gilbert's model with r = 1/4 and p = 0.2 * 0.25 /
 * 0.8 = 0.0625, whose stationary loss p / (p + r) = 0.0625 / 0.3125 = 0.2. */
static void loss_and_bursts(void **state)
{
    (void)state;
    VaryTarget t;
    memset(&t, 0, sizeof t);
    t.params = scheme_default_params();
    t.burst = 1.0;
    NrError err;
    assert_true(linkspec_parse(&t.link[0], "delay 75ms 10ms", NULL, &err));
    assert_true(linkspec_parse(&t.link[1], "delay 50ms", NULL, &err));
    assert_true(vary_apply(&t, vary_find("loss"), 20.0, &err));
    assert_true(vary_apply(&t, vary_find("burst"), 4.0, &err));
    assert_true(vary_apply(&t, vary_find("delay21"), 80.0, &err));
    assert_true(vary_apply(&t, vary_find("delta"), 150.0, &err));
    vary_finish(&t);
    for (int d = 0; d < 2; d++) {
        assert_int_equal(t.link[d].loss_kind, LINK_LOSS_GEMODEL);
        assert_true(fabs(t.link[d].ge_p - 0.0625) < 1e-12);
        assert_true(fabs(t.link[d].ge_r - 0.25) < 1e-12);
        assert_true(fabs(linkspec_loss_rate(&t.link[d]) - 0.2) < 1e-12);
    }
    assert_int_equal(t.link[0].delay_us, 75000); /* untouched */
    assert_int_equal(t.link[1].delay_us, 80000);
    assert_int_equal(t.params.delta_us, 150000);
    linkspec_free(&t.link[0]);
    /* loss 0: no loss at all, not a random loss of 0 */
    assert_true(linkspec_parse(&t.link[0], "delay 75ms loss 5%", NULL, &err));
    assert_true(vary_apply(&t, vary_find("loss12"), 0.0, &err));
    assert_int_equal(t.link[0].loss_kind, LINK_LOSS_NONE);
    linkspec_free(&t.link[0]);
    linkspec_free(&t.link[1]);
}

static void refuses_what_a_link_cannot_take(void **state)
{
    (void)state;
    VaryTarget t;
    memset(&t, 0, sizeof t);
    NrError err;
    assert_true(linkspec_parse(&t.link[0], "delay 50ms gamma 3 10ms", NULL, &err));
    assert_true(linkspec_parse(&t.link[1], "delay 50ms loss gemodel 1% 10%", NULL, &err));
    assert_false(vary_apply(&t, vary_find("jitter12"), 5.0, &err));
    assert_non_null(strstr(err.msg, "gamma"));
    assert_false(vary_apply(&t, vary_find("loss21"), 5.0, &err));
    assert_non_null(strstr(err.msg, "gemodel"));
    linkspec_free(&t.link[0]);
    linkspec_free(&t.link[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lists_and_ranges),
        cmocka_unit_test(grid_order),
        cmocka_unit_test(loss_and_bursts),
        cmocka_unit_test(refuses_what_a_link_cannot_take),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
