/* The four schemes after the papers through the engine, on a constant-speed
 * race whose links a real link script doubles at t = 10 s
 * ('10 both delay 100ms' over 'delay 50ms'): the late and discarded MU
 * counters are the fingerprint of when each lag followed, worked out by hand
 * below (the same instants as tests/test_after_schemes.c's harness).
 *
 * Defaults: quantile 0.95 of the last 64 delays (4 arrivals at a new delay
 * move it), margin 10 ms, slew 0.5. MU k is generated at 33k ms; from the
 * step on it arrives at 33k + 100 ms (k >= 304), before at 33k + 50.
 * Statistic 100 ms at the 4th such arrival, k = 307 at 10231 ms, at both
 * terminals (the step is on both links). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "experiment.h"
#include "linkscript.h"
#include "race_fixture.h"

/* Expected per direction:
 * - adaptive-causality: lag 60 ms until 10231, then 60 + 0.5 (t - 10231):
 *   MU k (arriving 33k + 100) is past gen + lag for k = 304..309 (309:
 *   lag 93 at 10297; 310: 109.5 >= 100): 6 late, all 6 discarded.
 * - local-lag: the same 6 late, none discarded (used on arrival).
 * - group-sync: both statistics 100 at 10231, G 60 -> 110 as above: 6 late.
 * - equalize: E starts at 0; the first arrival (k = 0 at 50 ms) sets the
 *   target 50, E = 0.5 (t - 50): k = 0..3 arrive at 50, 83, 116, 149 with E
 *   0, 16.5, 33, 49.5 < 50: late; k = 4 at 182 finds 50. After the step E =
 *   50 + 0.5 (t - 10231) < 100 at the arrivals of k = 304..310 (310: 99.5 at
 *   10330; 311: capped 100 at 10363): 7 more; 11 late, none discarded. */
static void the_four_follow_a_scripted_step(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        int64_t late, discarded;
    } want[] = {{"adaptive-causality", 6, 6}, {"local-lag", 6, 0}, {"group-sync", 6, 0}, {"equalize", 11, 0}};
    Track *t = circle();
    Recording rec;
    race(&rec, t, 607); /* both cars at 20 cw/s, car 2 10 cw ahead, 0 .. 19.998 s */
    NrError err = {{0}};
    LinkSpec l0;
    memset(&l0, 0, sizeof l0);
    assert_true(linkspec_parse(&l0, "delay 50ms", NULL, &err));
    LinkScript ls;
    assert_true(linkscript_parse(&ls, "10 both delay 100ms\n", "s", NULL, &err));
    EngineConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.track = t;
    cfg.link[0] = cfg.link[1] = &l0;
    cfg.seed = 1;
    cfg.params = scheme_default_params();
    cfg.nschemes = scheme_parse_list("after", cfg.schemes, SCHEME_MAX, &err);
    assert_int_equal(cfg.nschemes, 4);
    RunResult res[4];
    assert_true(experiment_run_scripted(&cfg, &rec, &ls, res, &err));
    for (int k = 0; k < 4; k++) {
        assert_string_equal(res[k].scheme->name, want[k].name);
        for (int d = 0; d < 2; d++) {
            if (res[k].dir[d].late != want[k].late || res[k].dir[d].discarded != want[k].discarded)
                fail_msg("%s dir %d: late %lld discarded %lld, expected %lld and %lld", want[k].name, d,
                         (long long)res[k].dir[d].late, (long long)res[k].dir[d].discarded,
                         (long long)want[k].late, (long long)want[k].discarded);
            assert_int_equal(res[k].dir[d].lost, 0);
        }
    }
    linkscript_free(&ls);
    linkspec_free(&l0);
    recording_free(&rec);
    track_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_four_follow_a_scripted_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
