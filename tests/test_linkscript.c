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

#include "experiment.h"
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
    parse_fails("# a comment\n\n5 13 delay 1ms\n", "s.txt:3: line '13'");
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

/* nc then causality (Delta 100 ms) over rec with the script text. */
static void run3(const Recording *rec, const Track *t, EngineConfig *cfg, const char *script, RunResult out[2])
{
    NrError err = {{0}};
    cfg->track = t;
    cfg->period_ms = 33;
    cfg->ncars = 3;
    cfg->seed = 9;
    cfg->params = scheme_default_params();
    cfg->nschemes = scheme_parse_list("nc,causality", cfg->schemes, SCHEME_MAX, &err);
    LinkScript ls;
    assert_true(linkscript_parse(&ls, script, "s", NULL, &err));
    assert_true(linkscript_check(&ls, "s", 3, cfg->topology, &err));
    if (!experiment_run_scripted(cfg, rec, &ls, out, &err))
        fail_msg("%s", err.msg);
    linkscript_free(&ls);
}

/* Three terminals p2p, every line 50 ms, 60 samples (the last at 1.947 s).
 * 1-3 is out from 1 s to 1.5 s: terminal 1's MUs of samples 31 (1.023 s)
 * to 45 (1.485 s) to terminal 3 are lost, 15 of them. 2-1 takes 200 ms from
 * 0.5 s: terminal 2's MUs from sample 16 (0.528 s) on reach terminal 1 past
 * Delta and causality discards them; those of samples 16 to 52 arrive by
 * 1.947 s (52 * 33 + 200 = 1916 ms; 53: 1949), 37 of them. Delivered from
 * terminal 2: to 1, samples 0 .. 52 (53); to 3 at 50 ms, 0 .. 57 (58). */
static void three_cars_p2p_by_hand(void **state)
{
    (void)state;
    Track *t = circle();
    Recording rec;
    race_n(&rec, t, 3, 60);
    LinkSpec l;
    NrError err = {{0}};
    memset(&l, 0, sizeof l);
    assert_true(linkspec_parse(&l, "delay 50ms", NULL, &err));
    EngineConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    for (int c = 0; c < 3; c++)
        cfg.link[c] = &l;
    RunResult r[2];
    run3(&rec, t, &cfg, "0.5 2-1 delay 200ms\n1 1-3 loss 100%\n1.5 1-3 delay 50ms\n", r);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(r[k].dir[0].sent, 120);
        assert_int_equal(r[k].dir[0].lost, 15);
        assert_int_equal(r[k].dir[1].lost, 0);
        assert_int_equal(r[k].dir[2].lost, 0);
        assert_int_equal(r[k].dir[1].delivered, 53 + 58);
    }
    assert_int_equal(r[0].dir[1].discarded, 0); /* nc uses everything */
    assert_int_equal(r[1].dir[1].discarded, 37);
    assert_int_equal(r[1].dir[1].late, 37);
    assert_int_equal(r[1].dir[0].discarded + r[1].dir[2].discarded, 0);
    linkspec_free(&l);
    recording_free(&rec);
    track_free(t);
}

/* Three clients over a relay, uplinks 20 ms, downlinks 10 ms. From 1 s the
 * uplink of client 2 takes 150 ms: its MUs from sample 31 on reach both
 * others 160 ms after they were sent, past Delta (causality discards them);
 * from 1.5 s the downlink to client 3 loses everything: the MUs of clients
 * 1 and 2 from sample 46 (1.518 s) on to 3 are lost, 14 each (46 .. 59).
 * Client 2's: to 1 arrive by 1.947 s for samples 0 .. 54 (54 * 33 + 160 =
 * 1942), 31 + 24 = 55 delivered, the 24 of 31 .. 54 discarded; to 3,
 * samples 0 .. 45 (46), the 15 of 31 .. 45 discarded. */
static void three_cars_cs_by_hand(void **state)
{
    (void)state;
    Track *t = circle();
    Recording rec;
    race_n(&rec, t, 3, 60);
    LinkSpec up, down;
    NrError err = {{0}};
    memset(&up, 0, sizeof up);
    memset(&down, 0, sizeof down);
    assert_true(linkspec_parse(&up, "delay 20ms", NULL, &err));
    assert_true(linkspec_parse(&down, "delay 10ms", NULL, &err));
    EngineConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.topology = ROUTE_CS;
    cfg.server = ROUTE_RELAY;
    for (int c = 0; c < 3; c++) {
        cfg.up_link[c] = &up;
        cfg.down_link[c] = &down;
    }
    RunResult r[2];
    run3(&rec, t, &cfg, "1 2-s delay 150ms\n1.5 s-3 loss 100%\n", r);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(r[k].dir[1].sent, 120);
        assert_int_equal(r[k].dir[0].lost, 14);
        assert_int_equal(r[k].dir[1].lost, 14);
        assert_int_equal(r[k].dir[2].lost, 0);
        assert_int_equal(r[k].dir[1].delivered, 55 + 46);
    }
    assert_int_equal(r[1].dir[1].discarded, 24 + 15);
    assert_int_equal(r[1].dir[0].discarded + r[1].dir[2].discarded, 0);
    linkspec_free(&up);
    linkspec_free(&down);
    recording_free(&rec);
    track_free(t);
}

/* The old names and the new ones are the same lines: 12 = 1-2, both = all
 * in a two-car race, 21 = 2-1 in a three-car one. */
static void old_names_are_lines(void **state)
{
    (void)state;
    static const char *const same[][2] = {
        {"0.4 12 delay 120ms 20ms\n1 21 loss 30%\n", "0.4 1-2 delay 120ms 20ms\n1 2-1 loss 30%\n"},
        {"0.4 both delay 120ms 20ms loss 10%\n", "0.4 all delay 120ms 20ms loss 10%\n"},
    };
    Track *t = circle();
    Recording rec;
    race(&rec, t, 90);
    LinkSpec l;
    NrError err = {{0}};
    memset(&l, 0, sizeof l);
    assert_true(linkspec_parse(&l, "delay 60ms 20ms", NULL, &err));
    for (int i = 0; i < 2; i++) {
        RunResult r[2][2];
        for (int v = 0; v < 2; v++) {
            EngineConfig cfg;
            memset(&cfg, 0, sizeof cfg);
            cfg.track = t;
            cfg.link[0] = cfg.link[1] = &l;
            cfg.seed = 4;
            cfg.params = scheme_default_params();
            cfg.nschemes = scheme_parse_list("nc,dr", cfg.schemes, SCHEME_MAX, &err);
            LinkScript ls;
            assert_true(linkscript_parse(&ls, same[i][v], "s", NULL, &err));
            assert_true(experiment_run_scripted(&cfg, &rec, &ls, r[v], &err));
            linkscript_free(&ls);
        }
        for (int k = 0; k < 2; k++) {
            assert_memory_equal(r[0][k].dir, r[1][k].dir, sizeof r[0][k].dir);
            assert_true(r[0][k].inconsistency_rate == r[1][k].inconsistency_rate);
            assert_true(r[0][k].mean_d1_minus_d2 == r[1][k].mean_d1_minus_d2);
        }
        assert_true(r[0][0].dir[0].lost + r[0][0].dir[1].lost > 0); /* the scripts changed something */
    }
    Recording rec3;
    race_n(&rec3, t, 3, 90);
    RunResult a[2], b[2];
    EngineConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    for (int c = 0; c < 3; c++)
        cfg.link[c] = &l;
    run3(&rec3, t, &cfg, "1 21 loss 50%\n", a);
    memset(&cfg, 0, sizeof cfg);
    for (int c = 0; c < 3; c++)
        cfg.link[c] = &l;
    run3(&rec3, t, &cfg, "1 2-1 loss 50%\n", b);
    assert_memory_equal(a[0].dir, b[0].dir, sizeof a[0].dir);
    assert_true(a[0].dir[1].lost > 0);
    linkspec_free(&l);
    recording_free(&rec);
    recording_free(&rec3);
    track_free(t);
}

/* Lines a race does not have are named with the script's line. */
static void lines_checked_against_the_race(void **state)
{
    (void)state;
    LinkScript ls;
    NrError err = {{0}};
    assert_true(linkscript_parse(&ls, "1 1-2 delay 1ms\n2 3-1 delay 1ms\n", "s.txt", NULL, &err));
    assert_true(linkscript_check(&ls, "s.txt", 3, ROUTE_P2P, &err));
    assert_false(linkscript_check(&ls, "s.txt", 2, ROUTE_P2P, &err));
    assert_non_null(strstr(err.msg, "s.txt:2: no line 3-1"));
    assert_false(linkscript_check(&ls, "s.txt", 3, ROUTE_CS, &err));
    assert_non_null(strstr(err.msg, "s.txt:1: no line 1-2"));
    linkscript_free(&ls);
    assert_true(linkscript_parse(&ls, "1 2-s delay 1ms\n2 s-4 loss 5%\n3 both none\n", "s.txt", NULL, &err));
    assert_false(linkscript_check(&ls, "s.txt", 3, ROUTE_CS, &err));
    assert_non_null(strstr(err.msg, "s.txt:2: no line s-4"));
    assert_false(linkscript_check(&ls, "s.txt", 4, ROUTE_CS, &err));
    assert_non_null(strstr(err.msg, "s.txt:3: both names the p2p links"));
    assert_false(linkscript_check(&ls, "s.txt", 4, ROUTE_P2P, &err));
    assert_non_null(strstr(err.msg, "s.txt:1: no line 2-s"));
    linkscript_free(&ls);
    parse_fails("1 1-1 delay 1ms\n", "s.txt:1: line '1-1'");
    parse_fails("1 1-9 delay 1ms\n", "s.txt:1: line '1-9'");
    parse_fails("1 s-s delay 1ms\n", "s.txt:1: line 's-s'");
    parse_fails("1 al delay 1ms\n", "s.txt:1: line 'al'");
    char buf[160];
    assert_true(linkscript_parse(&ls, "2.5 s-3 loss 100%\n3 all none\n", "s.txt", NULL, &err));
    assert_non_null(strstr(linkscript_describe(&ls.ch[0], buf, sizeof buf), "link s→3 now 'loss 100%'"));
    assert_non_null(strstr(linkscript_describe(&ls.ch[1], buf, sizeof buf), "every link"));
    linkscript_free(&ls);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_lines_are_named),
        cmocka_unit_test(good_script_parses),
        cmocka_unit_test(load_refuses_what_is_not_a_script),
        cmocka_unit_test(changes_apply_at_their_time),
        cmocka_unit_test(three_cars_p2p_by_hand),
        cmocka_unit_test(three_cars_cs_by_hand),
        cmocka_unit_test(old_names_are_lines),
        cmocka_unit_test(lines_checked_against_the_race),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
