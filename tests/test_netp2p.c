/* Peer-to-peer races of N cars (`netrace host --cars N`, docs/netplay.md
 * "Peer-to-peer races of N") in simulated time: the host and its joiners,
 * each the real driver of src/net/session.h, over the in-memory hub
 * (netsim.[ch]). The host seats the joiners and introduces them; each
 * pair proves reachability and exchanges MUs and views directly. Every
 * terminal computes the same live metrics, and the merge of their logs
 * replayed over the measured delays gives them again (issue 19: "a 4-bot
 * network race ... finishes, every terminal prints the same metrics, and
 * merge + replay reproduce them"). */
#include "netsim.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCHEMES "nc,causality,dr,dr-causality"

static void count_turn(Sim *m, void *ctx)
{
    (void)m;
    ++*(long *)ctx;
}

/* The options of a p2p race of `cars` bots, each terminal's datagrams
 * delayed 5-20 ms with jitter, its clock off the host's. */
static SimOpts p2p_opts(int cars)
{
    SimOpts o = {.schemes = SCHEMES, .seconds_ms = 5000, .logs = true, .cars = cars, .p2p = true};
    for (int i = 0; i < SIM_TERMS; i++) {
        o.link[i] = (NetMemLink){.delay_us = 5000 + 5000 * (i % 4), .jitter_us = 2000};
        o.offset_us[i] = i ? 100000 * i - 250000 : 0;
    }
    return o;
}

static long run(Sim *m, const SimOpts *o)
{
    long turns = 0;
    sim_open(m, o);
    sim_run(m, T0 + 90 * NR_US_PER_S, count_turn, &turns);
    return turns;
}

/* Every racing terminal completed (netsim.h); a 5 s race ends at the
 * first sample at or after 5 s: seq 152. */
static void expect_completed(Sim *m, const char *extra)
{
    sim_expect_completed(m, extra, 153);
}

/* Four bots, peer to peer: the host and three joiners. */
static void four_bots(void **state)
{
    (void)state;
    Sim m;
    SimOpts o = p2p_opts(4);
    long turns = run(&m, &o);
    expect_completed(&m, NULL);
    assert_same_metrics_n(&m);
    assert_replay_matches_n(&m, SCHEMES);
    printf("simulation turns: %ld\n", turns);
    assert_true(turns < 100000);
    sim_close(&m);
}

/* host --bots 2 and a person elsewhere: cars 2 and 3 run on the host's
 * machine (ports at 10.0.0.1, joining it at 127.0.0.1, so the host saw
 * them at 127.0.0.1), car 4 on 10.0.0.4 reaches them at the host's address
 * with their ports (netaddr_as_seen; before it, car 4 sent its pair hellos
 * to 127.0.0.1 on its own machine and the race ended at the start
 * deadline). The race completes, every terminal the same metrics, the
 * merge replays; car 4 took car 2's MUs from 10.0.0.1:41001. */
static void bots_on_the_host(void **state)
{
    (void)state;
    Sim m;
    SimOpts o = p2p_opts(4);
    o.bots_on_host = 2;
    run(&m, &o);
    if (getenv("NETSIM_DEBUG"))
        sim_dump(&m);
    expect_completed(&m, NULL);
    assert_same_metrics_n(&m);
    assert_replay_matches_n(&m, SCHEMES);
    char peer[32];
    NetAddr bot = addr_of(1, 41001);
    netaddr_text(&bot, peer, sizeof peer);
    assert_string_equal(peer, "10.0.0.1:41001");
    NetAddr loop = m.host_loop, seen = netaddr_as_seen(&loop, &m.t[0].addr);
    assert_true(netaddr_loopback(&loop) && !netaddr_loopback(&seen));
    assert_true(seen.host == m.t[0].addr.host && seen.port == loop.port);
    seen = netaddr_as_seen(&loop, &loop); /* a bot sees the others on loopback as they are */
    assert_true(netaddr_equal(&seen, &loop));
    sim_close(&m);
}

/* The smallest and largest wire_sync_us - send_sync_us of the tx rows to
 * car `to` in a terminal's log (docs/netlog.md). */
static void tx_wire_delays(const char *log, int to, int64_t *lo, int64_t *hi)
{
    char *text = read_all(log);
    int n = 0;
    for (char *l = strstr(text, "\ntx,"); l; l = strstr(l + 1, "\ntx,")) {
        long long send, wire;
        int car;
        if (sscanf(l + 1, "tx,%*[^,],%*[^,],%*[^,],%*[^,],%lld,%lld,%d", &send, &wire, &car) == 3 && car == to) {
            *lo = wire - send < *lo ? wire - send : *lo;
            *hi = wire - send > *hi ? wire - send : *hi;
            n++;
        }
    }
    free(text);
    assert_true(n > 100);
}

/* The lines of car 2: its line to car 3 takes 40 ms more (docs/nplayers.md
 * "Link matrix", `join --link 2-3 'delay 40ms'`); the race replays as it
 * ran, and car 3 saw car 2's MUs 40 ms later than car 4's. */
static void pair_link(void **state)
{
    (void)state;
    Sim m;
    SimOpts o = p2p_opts(4);
    LinkMatrix lines;
    linkmatrix_init(&lines);
    NrError err = {{0}};
    assert_true(linkmatrix_set(&lines, "2-3", "delay 40ms", "--link", &err));
    o.lines[1] = &lines;
    run(&m, &o);
    expect_completed(&m, NULL);
    assert_same_metrics_n(&m);
    assert_replay_matches_n(&m, SCHEMES);
    /* car 3's log: every MU of car 2 at least 40 ms after its sample
     * (40 ms emulated and car 2's 10 +- 2 ms of network), car 4's less */
    char *text = read_all(m.t[2].log);
    int64_t low[5] = {INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX};
    for (char *l = strstr(text, "\nrx,"); l; l = strstr(l + 1, "\nrx,")) {
        long long arr, send;
        int car;
        char kind[16];
        if (sscanf(l + 1, "rx,%*[^,],%15[^,],%*[^,],%lld,%lld,%d", kind, &arr, &send, &car) == 4 &&
            strcmp(kind, "mu") == 0 && arr - send < low[car])
            low[car] = arr - send;
    }
    free(text);
    printf("car 3's smallest delays: from car 1 %lld us, car 2 %lld us, car 4 %lld us\n", (long long)low[1],
           (long long)low[2], (long long)low[4]);
    assert_true(low[2] >= 40000 + 8000 - 1000); /* the clocks' error: within 1 ms */
    assert_true(low[4] < 40000);
    /* car 2 put each MU to car 3 on the wire 40 ms after its sample, not at
     * its next sample (33 ms later): the session polls its emulated lines
     * with a line's own spec alone as with --link SPEC (before, up to
     * 1.8 ms here, up to 13 ms on a veth: the loop slept to its next wake-up) */
    int64_t wire_lo = INT64_MAX, wire_hi = INT64_MIN;
    tx_wire_delays(m.t[1].log, 3, &wire_lo, &wire_hi);
    printf("car 2's MUs to car 3 on the wire %lld to %lld us after their sample\n", (long long)wire_lo,
           (long long)wire_hi);
    assert_true(wire_lo >= 40000 - 500 && wire_hi <= 40000 + 500); /* the poll: 200 us */
    linkmatrix_free(&lines);
    sim_close(&m);
}

/* A fifth player of a four-seat race is told the race is full, one line,
 * at once; the four race on with the same metrics. */
static void fifth_player(void **state)
{
    (void)state;
    Sim m;
    SimOpts o = p2p_opts(4);
    o.extra_clients = 1;
    run(&m, &o);
    int refused = -1; /* whichever of the four joiners said HELLO last */
    for (int i = 1; i <= 4; i++) {
        assert_true(m.t[i].done);
        if (m.t[i].ok)
            continue;
        assert_int_equal(refused, -1);
        refused = i;
        assert_string_equal(session_error(m.t[i].s), "the race at 10.0.0.1:41000 is full: its 3 seats are taken");
        assert_null(session_netterm(m.t[i].s));
    }
    assert_true(refused > 0);
    assert_true(m.t[0].done && m.t[0].ok);
    assert_true(netsession_rejected(session_core(m.t[0].s), "busy") >= 1);
    const NetTerminal *first = session_netterm(m.t[0].s);
    for (int i = 1; i <= 4; i++)
        if (i != refused)
            for (int k = 0; k < 4; k++)
                assert_true(metrics_fairness_spread(netterm_metrics(session_netterm(m.t[i].s), k)) ==
                            metrics_fairness_spread(netterm_metrics(first, k)));
    sim_close(&m);
}

/* A joiner with another race's code gets no seat: the host cannot open
 * its HELLO (`auth`); it gives up after 15 s saying the host did not take
 * its code; the four race on. */
static void another_code(void **state)
{
    (void)state;
    Sim m;
    SimOpts o = p2p_opts(4);
    o.extra_clients = 1;
    o.join_code = "7K3QM-X9A2D";
    run(&m, &o);
    Term *x = &m.t[4];
    assert_true(x->done && !x->ok);
    assert_non_null(strstr(session_error(x->s), "no answer from 10.0.0.1:41000 within 15 s: it did not take "
                                                "this join code"));
    expect_completed(&m, "auth");
    assert_true(netsession_rejected(session_core(m.t[0].s), "auth") >= 10);
    assert_same_metrics_n(&m);
    sim_close(&m);
}

/* Car 3 stopped 5 s in mid-race: every terminal pauses at one race
 * time, the host resumes them all, the race completes with the same
 * metrics everywhere, and merge + replay give them again. */
static void stopped_joiner(void **state)
{
    (void)state;
    Sim m;
    SimOpts o = p2p_opts(4);
    o.seconds_ms = 8000;
    sim_open(&m, &o);
    sim_run(&m, T0 + 9 * NR_US_PER_S, NULL, NULL);
    SessionStatus st;
    session_status(m.t[2].s, &st);
    assert_int_equal(st.phase, SESSION_RACING);
    m.t[2].frozen_until = m.truth + 5 * NR_US_PER_S;
    nethub_freeze(m.t[2].port, true);
    sim_run(&m, T0 + 120 * NR_US_PER_S, NULL, NULL);
    for (int i = 0; i < 4; i++) {
        if (!m.t[i].done || !m.t[i].ok)
            fail_msg("terminal %d: %s", i, m.t[i].done ? session_error(m.t[i].s) : "not over");
        assert_int_equal(session_pauses(m.t[i].s), 1);
    }
    assert_same_metrics_n(&m);
    assert_replay_matches_n(&m, SCHEMES);
    sim_close(&m);
}

/* `--link 3-4` on the joiner that gets car 2: one line at that joiner
 * once it knows its car, a BYE to the host, which ends at once and tells
 * the joiners it seated; every terminal ends with one line. */
static void link_of_another_car(void **state)
{
    (void)state;
    Sim m;
    SimOpts o = p2p_opts(4);
    LinkMatrix lines;
    linkmatrix_init(&lines);
    NrError err = {{0}};
    assert_true(linkmatrix_set(&lines, "3-4", "delay 40ms", "--link", &err));
    o.lines[1] = &lines;
    run(&m, &o);
    assert_true(m.t[1].done && !m.t[1].ok);
    assert_string_equal(session_error(m.t[1].s), "--link 3-4: this terminal drives car 2 of 4: its lines are 2-J");
    assert_true(m.t[0].done && !m.t[0].ok);
    assert_string_equal(session_error(m.t[0].s), "car 2 left before the end of the race");
    for (int i = 2; i < 4; i++) { /* seated: told by the host; not yet: told by the ended race */
        assert_true(m.t[i].done && !m.t[i].ok);
        printf("joiner %d: %s\n", i + 1, session_error(m.t[i].s));
    }
    linkmatrix_free(&lines);
    sim_close(&m);
}

/* The bytes car 2 put on the hub for car 3's address. */
static void to_car3(void *ctx, const NetAddr *from, const NetAddr *to, const uint8_t *b, int n)
{
    (void)b;
    int64_t *x = ctx;
    NetAddr two = addr_of(2, 41001), three = addr_of(3, 41002);
    if (netaddr_equal(from, &two) && netaddr_equal(to, &three)) {
        x[0] += n;
        x[1]++;
    }
}

/* Car 2 cannot reach car 3 (a path that loses everything): the race never
 * starts; car 2 says which pair failed, every terminal ends with one line
 * at the start deadline, and car 3's address got nothing from car 2 but
 * its hellos, at doubling intervals: 7 of 76 bytes in 15 s. */
static void unreachable_pair(void **state)
{
    (void)state;
    Sim m;
    SimOpts o = p2p_opts(4);
    sim_open(&m, &o);
    int64_t x[2] = {0, 0};
    assert_true(nethub_block(m.hub, &m.t[1].addr, &m.t[2].addr));
    nethub_tap(m.hub, to_car3, x);
    sim_run(&m, T0 + 90 * NR_US_PER_S, NULL, NULL);
    if (getenv("NETSIM_DEBUG"))
        sim_dump(&m);
    for (int i = 0; i < 4; i++) {
        assert_true(m.t[i].done && !m.t[i].ok);
        printf("terminal %d: %s\n", i + 1, session_error(m.t[i].s));
        assert_null(strstr(session_error(m.t[i].s), "silent")); /* the deadline, not a silence */
    }
    assert_string_equal(session_error(m.t[1].s), "car 3 at 10.0.0.3:41002 did not answer within 15 s: race ended");
    printf("car 2 sent car 3's address %lld datagrams, %lld bytes\n", (long long)x[1], (long long)x[0]);
    assert_true(x[1] >= 5 && x[1] <= 7);
    assert_int_equal(x[0], x[1] * 76);
    sim_close(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(four_bots),    cmocka_unit_test(pair_link),      cmocka_unit_test(fifth_player),
        cmocka_unit_test(another_code), cmocka_unit_test(stopped_joiner), cmocka_unit_test(link_of_another_car),
        cmocka_unit_test(unreachable_pair), cmocka_unit_test(bots_on_the_host),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
