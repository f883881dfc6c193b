/* Link scripts: every malformed line is refused with its line number; a
 * change at time T reaches exactly the MUs sent at or after T (the delay
 * every in-flight MU carries is the spec in force when it was sent); an
 * outage loses exactly the MUs of its interval. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linkscript.h"
#include "race_fixture.h"

#define MS NR_US_PER_MS

static void parse_fails(const char *text, const char *want)
{
    LinkScript ls;
    NrError err = {{0}};
    assert_false(linkscript_parse(&ls, text, "s.txt", NULL, &err));
    if (!strstr(err.msg, want))
        fail_msg("'%s': got '%s', expected it to contain '%s'", text, err.msg, want);
    assert_int_equal(ls.n, 0);
    assert_null(ls.ch);
    linkscript_free(&ls);
}

static void bad_lines_are_named(void **state)
{
    (void)state;
    parse_fails("10 12 delay 200ms\nx 12 delay 1ms\n", "s.txt:2: time 'x'");
    parse_fails("-1 12 delay 1ms\n", "s.txt:1: time '-1'");
    parse_fails("nan 12 delay 1ms\n", "s.txt:1: time 'nan'");
    parse_fails("1e9 12 delay 1ms\n", "s.txt:1: time '1e9'");
    parse_fails("# a comment\n\n5 13 delay 1ms\n", "s.txt:3: direction '13'");
    parse_fails("5 12\n", "s.txt:1: a link spec is missing");
    parse_fails("5 12   # nothing but a comment\n", "s.txt:1: a link spec is missing");
    parse_fails("5 both delay 10 parsecs\n", "s.txt:1: link spec:");
    parse_fails("5 12 delay 1ms\n4 21 delay 1ms\n", "s.txt:2: time 4 s is before the previous change (5 s, line 1)");
    parse_fails("5 12 delay\x01 1ms\n", "s.txt:1: control character");
    parse_fails("# only comments\n\n", "s.txt: no link change");
    parse_fails("", "s.txt: no link change");
    char *longline = malloc(LINKSCRIPT_LINE_MAX + 20);
    memset(longline, ' ', LINKSCRIPT_LINE_MAX + 10);
    memcpy(longline, "1 12 delay 1ms", 14);
    longline[LINKSCRIPT_LINE_MAX + 10] = '\0';
    parse_fails(longline, "s.txt:1: line longer than");
    free(longline);
}

static void good_script_parses(void **state)
{
    (void)state;
    LinkScript ls;
    NrError err = {{0}};
    const char *text = "# lag spike and an outage\n"
                       "10 12 delay 200ms 30ms\n"
                       "\n"
                       "12.5\tboth loss 100%   # outage\r\n"
                       "13.5 21 none\n"
                       "13.5 12 delay 75ms";
    assert_true(linkscript_parse(&ls, text, "s.txt", NULL, &err));
    assert_int_equal(ls.n, 4);
    assert_int_equal(ls.ch[0].t_us, 10 * NR_US_PER_S);
    assert_int_equal(ls.ch[0].dir, 0);
    assert_int_equal(ls.ch[0].line, 2);
    assert_int_equal(ls.ch[0].spec.delay_us, 200 * MS);
    assert_int_equal(ls.ch[0].spec.jitter_us, 30 * MS);
    assert_int_equal(ls.ch[1].t_us, 12500 * MS);
    assert_int_equal(ls.ch[1].dir, LINKSCRIPT_BOTH);
    assert_int_equal(ls.ch[1].line, 4);
    assert_float_equal(ls.ch[1].spec.loss_p, 1.0, 1e-12);
    assert_int_equal(ls.ch[2].dir, 1);
    assert_int_equal(ls.ch[3].line, 6);
    assert_int_equal(linkscript_next_us(&ls, 0), 10 * NR_US_PER_S);
    assert_int_equal(linkscript_next_us(&ls, 4), INT64_MAX);
    linkscript_free(&ls);
    linkscript_free(&ls); /* twice is harmless */
    linkscript_free(NULL);
}

static void load_refuses_what_is_not_a_script(void **state)
{
    (void)state;
    char path[] = "/tmp/netrace-test-ls-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "1 12 delay 5ms\n\0junk", 20), 20);
    close(fd);
    LinkScript ls;
    NrError err = {{0}};
    assert_false(linkscript_load(&ls, path, NULL, &err));
    assert_non_null(strstr(err.msg, "NUL"));
    unlink(path);
    assert_false(linkscript_load(&ls, "/tmp", NULL, &err));
    assert_non_null(strstr(err.msg, "directory"));
    assert_false(linkscript_load(&ls, "/nonexistent/netrace/script", NULL, &err));
}

/* Delay 50 ms, from 1 s (not a sample instant: 1 s = sample 30.3) 200 ms on
 * 1->2, then an outage of both directions from 2.013 s (sample 61) to 2.508 s
 * (sample 76) and 20 ms afterwards. Stepping in 1 ms frames, each MU in flight
 * on 1->2 must carry the delay of its sending time: due - sent = 50 ms before
 * 1 s, 200 ms from sample 31 (1.023 s) on, 20 ms after 2.508 s; and the MUs
 * lost are exactly the 2 x 15 sent in the outage (samples 61 .. 75). */
static void changes_apply_at_their_time(void **state)
{
    (void)state;
    Track *t = circle();
    Recording rec;
    race(&rec, t, 121); /* 0 .. 3.96 s */
    LinkSpec l0;
    NrError err = {{0}};
    memset(&l0, 0, sizeof l0);
    assert_true(linkspec_parse(&l0, "delay 50ms", NULL, &err));
    EngineConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.track = t;
    cfg.link[0] = cfg.link[1] = &l0;
    cfg.seed = 3;
    cfg.params = scheme_default_params();
    cfg.nschemes = scheme_parse_list("nc", cfg.schemes, SCHEME_MAX, &err);
    Replay *rp = replay_new(&cfg, &rec, false, &err);
    assert_non_null(rp);
    Engine *e = replay_engine(rp);
    LinkScript ls;
    assert_true(linkscript_parse(&ls, "1 12 delay 200ms\n2.013 both loss 100%\n2.508 both delay 20ms\n", "s", NULL,
                                 &err));
    int cursor = 0, applied = 0, checked = 0;
    InFlight fl[ENGINE_QUEUE_LIMIT];
    for (int64_t now = 0; now <= 3500 * MS; now += MS) {
        const LinkChange *last = NULL;
        int a = linkscript_run_to(&ls, &cursor, e, now, linkscript_step_replay, rp, &last, &err);
        assert_true(a >= 0);
        if (a > 0) {
            assert_non_null(last);
            assert_true(last->t_us <= now);
        }
        applied += a;
        int m = engine_in_flight(e, 0, 0, fl, ENGINE_QUEUE_LIMIT);
        for (int i = 0; i < m; i++) {
            int64_t sent = fl[i].sent_us, want = sent < 1000 * MS ? 50 * MS : sent < 2508 * MS ? 200 * MS : 20 * MS;
            if (fl[i].due_us - sent != want)
                fail_msg("MU sent at %lld us: delay %lld us, expected %lld", (long long)sent,
                         (long long)(fl[i].due_us - sent), (long long)want);
            assert_false(sent >= 2013 * MS && sent < 2508 * MS); /* lost, never in flight */
            checked++;
        }
    }
    assert_int_equal(applied, 3);
    assert_int_equal(cursor, 3);
    assert_true(checked > 100);
    const Metrics *mt = engine_metrics(e, 0);
    assert_int_equal(mt->dir[0].lost, 15);
    assert_int_equal(mt->dir[1].lost, 15);
    linkscript_free(&ls);
    replay_free(rp);
    linkspec_free(&l0);
    recording_free(&rec);
    track_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_lines_are_named),
        cmocka_unit_test(good_script_parses),
        cmocka_unit_test(load_refuses_what_is_not_a_script),
        cmocka_unit_test(changes_apply_at_their_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
