/* The probe's attacks on network play (issue 24) in simulated time, with
 * the datagrams in clear (SimOpts.clear: what a participant, who has the
 * join code, could send; an outsider's are refused by the envelope, see
 * test_netsession.c): one knowing the token injects datagrams from the
 * peer's address into one end in mid-race (tests/netsim.h's two
 * terminals): a far-off PAUSE, CONTROL arguments at the ends of int64, a
 * VIEW of sample 2^31-1, an MU of sample 10^8, an MU stamped 50 minutes
 * ahead. Each must be refused and counted as `range`; the race completes,
 * both ends agree, merge + replay reproduce it. And a host that answers
 * clock probes but never starts the race: the joiner ends at its
 * deadline with one line. */
#include "netsim.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define ATTACK_MAX 8

/* What is injected, into which end, once its race time passes at_race. */
typedef struct Attack {
    int target; /* 0 host, 1 joiner */
    int64_t at_race;
    int n;
    WirePacket p[ATTACK_MAX];
    bool sent;
} Attack;

/* Fields the attacker fills from what it sees at injection time. */
static void attack_each(Sim *m, void *ctx)
{
    Attack *a = ctx;
    Term *t = &m->t[a->target];
    SessionStatus st;
    if (a->sent || t->done)
        return;
    session_status(t->s, &st);
    if (st.phase != SESSION_RACING || st.race_us < a->at_race)
        return;
    uint64_t token = sim_token(m); /* sniffed on the hub */
    for (int i = 0; i < a->n; i++) {
        uint8_t buf[WIRE_MAX_BYTES];
        a->p[i].token = token;
        a->p[i].pkt_seq = 1000000u + (uint32_t)i;
        int n = (int)wire_encode(&a->p[i], buf, sizeof buf);
        assert_true(n > 0);
        netsession_input(session_core(t->s), netclock_now_us(&t->clock), &m->t[1 - a->target].addr, buf, n);
    }
    a->sent = true;
}

/* The race under attack a: completes at both ends, the same metrics, the
 * replay of the merged logs reproduces them, every injected datagram
 * counted as `range`. */
static void attack_race(Attack *a)
{
    Sim m;
    SimOpts o = {.schemes = "nc,dr,epp-xv", .seconds_ms = 6000, .logs = true, .offset_us = {0, 5000}, .clear = true};
    o.link[0].delay_us = o.link[1].delay_us = 10000;
    sim_open(&m, &o);
    sim_run(&m, T0 + 60 * NR_US_PER_S, attack_each, a);
    assert_true(a->sent);
    assert_true(m.t[0].done && m.t[0].ok);
    assert_true(m.t[1].done && m.t[1].ok);
    assert_int_equal(session_pauses(m.t[0].s), 0);
    assert_same_metrics(&m);
    assert_replay_matches(&m, o.schemes);
    NetSession *target = session_core(m.t[a->target].s);
    assert_int_equal(netsession_rejected(target, "range"), a->n);
    assert_int_equal(netsession_rejected(target, NULL), a->n);
    sim_close(&m);
}

static WirePacket control(int code, int64_t arg)
{
    WirePacket p;
    memset(&p, 0, sizeof p);
    p.kind = WIRE_CONTROL;
    p.u.control.code = code;
    p.u.control.arg_us = arg;
    return p;
}

/* Attack 1: a PAUSE at a race time 50 minutes on froze the joiner (it
 * walked to a point the host never reaches and never stood at it). */
static void pause_far_ahead(void **state)
{
    (void)state;
    Attack a = {.target = 1, .at_race = 2 * NR_US_PER_S, .n = 1};
    a.p[0] = control(WIRE_PAUSE, 2 * NR_US_PER_S + 3000 * NR_US_PER_S);
    attack_race(&a);
}

/* Attack 2: CONTROL arguments at the ends of int64 overflowed race-time
 * arithmetic (UBSan) and hung both ends; at either end. */
static void control_extremes(int target)
{
    Attack a = {.target = target, .at_race = 2 * NR_US_PER_S, .n = 8};
    const int codes[4] = {WIRE_START, WIRE_PAUSE, WIRE_RESUME, WIRE_FINISH};
    for (int i = 0; i < 4; i++) {
        a.p[2 * i] = control(codes[i], -INT64_MAX);
        a.p[2 * i + 1] = control(codes[i], INT64_MAX);
    }
    attack_race(&a);
}

static void control_extremes_joiner(void **state)
{
    (void)state;
    control_extremes(1);
}

static void control_extremes_host(void **state)
{
    (void)state;
    control_extremes(0);
}

/* Attack 3: a VIEW of sample 2^31-1 (its instant a plausible one) broke
 * the host's live metrics: the instant must be its sample's. */
static void view_seq_max(void **state)
{
    (void)state;
    Attack a = {.target = 0, .at_race = 2 * NR_US_PER_S, .n = 1};
    WirePacket *p = &a.p[0];
    p->kind = WIRE_VIEW;
    p->u.view.seq = INT32_MAX;
    p->u.view.nschemes = 3;
    p->u.view.t_us = 2 * NR_US_PER_S;
    p->u.view.car = 1; /* the joiner's view, of both cars, every scheme in one part */
    p->u.view.ncars = 2;
    p->u.view.count = 3;
    attack_race(&a);
}

/* An MU of the joiner's car at sample seq stamped gen_us. */
static WirePacket mu(int32_t seq, int64_t gen_us)
{
    WirePacket p;
    memset(&p, 0, sizeof p);
    p.kind = WIRE_MU;
    p.u.mu.mu.car = 1;
    p.u.mu.mu.seq = seq;
    p.u.mu.mu.gen_us = gen_us;
    p.u.mu.mu.nbytes = MU_WIRE_BYTES;
    p.u.mu.schemes = 7;
    return p;
}

/* Attack 4: an MU of sample 10^8 (38 days on) made the host's log
 * unmergeable. */
static void mu_seq_far(void **state)
{
    (void)state;
    Attack a = {.target = 0, .at_race = 2 * NR_US_PER_S, .n = 1};
    a.p[0] = mu(100000000, 2 * NR_US_PER_S);
    attack_race(&a);
}

/* Attack 6: an MU of a current sample stamped 50 minutes ahead froze DR's
 * view of the car. */
static void mu_stamp_ahead(void **state)
{
    (void)state;
    int32_t seq = (int32_t)(2 * NR_US_PER_S / WORLD_SAMPLE_US);
    Attack a = {.target = 0, .at_race = 2 * NR_US_PER_S, .n = 1};
    a.p[0] = mu(seq, (int64_t)seq * WORLD_SAMPLE_US + 3000 * NR_US_PER_S);
    attack_race(&a);
}

/* A START: CONTROL (kind 7 at byte 5) of code 2 (byte 24), docs/wire.md. */
static bool is_start(const NetDatagram *d)
{
    return d->n > 24 && d->bytes[5] == WIRE_CONTROL && d->bytes[24] == WIRE_START;
}

/* Attack 1's other half: a host that answers clock probes but never sends
 * START held the joiner forever. Both cores driven by hand, 1 ms turns,
 * every datagram delivered at once but the host's STARTs: the joiner
 * ends 15 s after the settings with one line and tells the host, which
 * ends too; both logs finalised. */
static void host_never_starts(void **state)
{
    (void)state;
    Sim m;
    SimOpts o = {.schemes = "nc", .seconds_ms = 5000, .logs = true, .clear = true};
    sim_open(&m, &o);
    NetSession *c[2] = {session_core(m.t[0].s), session_core(m.t[1].s)};
    int64_t t = 0;
    for (; t < 40 * NR_US_PER_S && !(netsession_over(c[0]) && netsession_over(c[1])); t += NR_US_PER_MS) {
        m.truth = T0 + t;
        for (int i = 0; i < 2; i++) {
            netsession_tick(c[i], netclock_now_us(&m.t[i].clock));
            NetDatagram d;
            while (netsession_pop_datagram(c[i], &d))
                if (!(i == 0 && is_start(&d)) && !netsession_over(c[1 - i]))
                    netsession_input(c[1 - i], netclock_now_us(&m.t[1 - i].clock), &m.t[i].addr, d.bytes, d.n);
        }
    }
    assert_true(netsession_over(c[1]) && netsession_failed(c[1]));
    assert_string_equal(netsession_error(c[1]), "the host did not start the race within 15 s: race ended");
    assert_true(netsession_over(c[0]) && netsession_failed(c[0]));
    assert_string_equal(netsession_error(c[0]), "the peer left before the end of the race");
    assert_true(t > 15 * NR_US_PER_S && t < 16 * NR_US_PER_S); /* the settings came within the first second */
    for (int i = 0; i < 2; i++) {
        assert_false(session_finish(m.t[i].s));
        m.t[i].done = true;
    }
    char *log = read_all(m.t[1].log); /* renamed into place: finalised */
    assert_non_null(strstr(log, ",deadline,15 s\n"));
    free(log);
    sim_close(&m);
}

/* ---- an outsider against the sealed envelope -------------------------------- */

enum { OUT_FORGED = 40, OUT_CLEAR = 40 };

/* At race time 2 s, from the joiner's address into the host: forged
 * envelopes (a counter, random bytes), the joiner's latest real datagrams
 * again (replays), and in clear a BYE, a PAUSE and SYNC_RESPs (attack 7:
 * what ended or paused a race and moved a clock before the envelope). */
static void outsider_each(Sim *m, void *ctx)
{
    bool *sent = ctx;
    SessionStatus st;
    session_status(m->t[0].s, &st);
    if (*sent || st.phase != SESSION_RACING || st.race_us < 2 * NR_US_PER_S)
        return;
    NetSession *h = session_core(m->t[0].s);
    int64_t now = netclock_now_us(&m->t[0].clock);
    const NetAddr *from = &m->t[1].addr;
    uint8_t buf[WIRE_MAX_BYTES + WIRECRYPT_OVERHEAD];
    for (int i = 0; i < OUT_FORGED; i++) {
        memcpy(buf, WIRECRYPT_MAGIC_TEXT, 4);
        for (int j = 4; j < 68; j++)
            buf[j] = (uint8_t)(i * 131 + j * 7);
        netsession_input(h, now, from, buf, 68);
    }
    for (int i = 0; i < SIM_CATCH; i++)
        netsession_input(h, now, from, m->caught[i], m->caught_n[i]);
    for (int i = 0; i < OUT_CLEAR; i++) {
        WirePacket p = control(i % 3 == 0 ? WIRE_BYE : WIRE_PAUSE, st.race_us);
        if (i % 3 == 2) {
            memset(&p, 0, sizeof p);
            p.kind = WIRE_SYNC_RESP;
            p.u.sync = (WireSync){(uint32_t)i, now - 1000, now + 4700, now + 4700};
        }
        int n = (int)wire_encode(&p, buf, sizeof buf);
        netsession_input(h, now, from, buf, n);
    }
    *sent = true;
}

/* None of it changes the race: both ends complete and agree, the replay
 * reproduces it, and each datagram is counted: auth, replay, unsealed. */
static void outsider_sealed(void **state)
{
    (void)state;
    Sim m;
    SimOpts o = {.schemes = "nc,dr,epp-xv", .seconds_ms = 6000, .logs = true, .offset_us = {0, 5000}};
    o.link[0].delay_us = o.link[1].delay_us = 10000;
    sim_open(&m, &o);
    bool sent = false;
    sim_run(&m, T0 + 60 * NR_US_PER_S, outsider_each, &sent);
    assert_true(sent);
    assert_int_equal(sim_token(&m), 0); /* nothing in clear but HELLO went by */
    assert_true(m.t[0].done && m.t[0].ok);
    assert_true(m.t[1].done && m.t[1].ok);
    assert_int_equal(session_pauses(m.t[0].s), 0);
    assert_same_metrics(&m);
    assert_replay_matches(&m, o.schemes);
    NetSession *h = session_core(m.t[0].s);
    assert_int_equal(netsession_rejected(h, "auth"), OUT_FORGED);
    assert_int_equal(netsession_rejected(h, "replay"), SIM_CATCH);
    assert_int_equal(netsession_rejected(h, "unsealed"), OUT_CLEAR);
    assert_int_equal(netsession_rejected(h, NULL), OUT_FORGED + SIM_CATCH + OUT_CLEAR);
    sim_close(&m);
}

/* A joiner with another code: its sealed HELLOs do not open, it never
 * takes the seat and ends after 15 s without an answer; the host sent it
 * no more bytes than it received (a 40-byte key answer per 104-byte HELLO
 * in clear: the one in clear is all it took). */
static void wrong_code(void **state)
{
    (void)state;
    Sim m;
    SimOpts o = {.schemes = "nc", .seconds_ms = 5000, .join_code = "7K3QM-X9A2D"};
    sim_open(&m, &o);
    sim_run(&m, T0 + 20 * NR_US_PER_S, NULL, NULL);
    assert_true(m.t[1].done && !m.t[1].ok);
    assert_non_null(strstr(session_error(m.t[1].s), "no answer from 10.0.0.1:41000 within 15 s"));
    NetSession *h = session_core(m.t[0].s);
    assert_true(netsession_rejected(h, "auth") >= 45); /* a sealed HELLO every 300 ms */
    assert_int_equal(netsession_rejected(h, NULL), netsession_rejected(h, "auth"));
    SessionStatus st;
    session_status(m.t[0].s, &st);
    assert_int_equal(st.phase, SESSION_WAITING);
    assert_int_equal(st.received, 1); /* the HELLO in clear, answered */
    printf("wrong code: the host sent %lld B in %lld datagrams, received %lld B in %lld\n",
           (long long)m.sent_bytes[0], (long long)m.sent_count[0], (long long)m.sent_bytes[1],
           (long long)m.sent_count[1]);
    assert_true(m.sent_bytes[0] <= m.sent_bytes[1]);
    m.t[0].done = true;
    sim_close(&m);
}

/* Attack 5: HELLOs in clear from a spoofed address (the victim's) before
 * the joiner: the host sends the victim no more bytes than it received
 * (one 40-byte key answer per 104-byte HELLO), keeps nothing (the seat
 * stays free), and the real joiner then races as usual. */
static void spoofed_hello_each(Sim *m, void *ctx)
{
    bool *sent = ctx;
    if (*sent)
        return;
    WirePacket p;
    memset(&p, 0, sizeof p);
    p.kind = WIRE_HELLO;
    p.u.hello.proto = WIRE_VERSION;
    snprintf(p.u.hello.name, sizeof p.u.hello.name, "victim");
    uint8_t buf[WIRE_MAX_BYTES];
    NetAddr victim = addr_of(9, 9);
    NetPort *spoof = nethub_port(m->hub, victim, &m->t[0].clock); /* sends as the victim */
    for (int i = 0; i < 10; i++) {
        p.u.hello.nonce = 1000u + (uint64_t)i;
        int n = (int)wire_encode(&p, buf, sizeof buf);
        netport_send(spoof, &m->t[0].addr, buf, n);
    }
    *sent = true;
}

static void victim_bytes(void *ctx, const NetAddr *from, const NetAddr *to, const uint8_t *b, int n)
{
    (void)b;
    int64_t *bytes = ctx;
    NetAddr victim = addr_of(9, 9);
    bytes[0] += netaddr_equal(from, &victim) ? n : 0;
    bytes[1] += netaddr_equal(to, &victim) ? n : 0;
}

static void spoofed_hellos(void **state)
{
    (void)state;
    Sim m;
    SimOpts o = {.schemes = "nc", .seconds_ms = 4000};
    sim_open(&m, &o);
    int64_t bytes[2] = {0, 0}; /* from the victim's address, to it */
    nethub_tap(m.hub, victim_bytes, bytes);
    bool sent = false;
    sim_run(&m, T0 + 60 * NR_US_PER_S, spoofed_hello_each, &sent);
    printf("spoofed HELLOs: %lld B in, %lld B out to the victim\n", (long long)bytes[0], (long long)bytes[1]);
    assert_int_equal(bytes[0], 10 * 104);
    assert_true(bytes[1] <= bytes[0]);
    assert_int_equal(bytes[1], 10 * 40);
    assert_true(m.t[0].ok && m.t[1].ok);
    assert_same_metrics(&m);
    sim_close(&m);
}

/* ---- an insider reflecting traffic at a spoofed address ----------------------- */

#define INSIDER_HELLOS 10

/* A participant with the code (the insider, 10.0.0.8) learns the salt with
 * a HELLO in clear from its own address, derives the keys, and sends
 * sealed HELLOs from the victim's address (10.0.0.9:9) while the real
 * joiner is stopped: the best cookie it has is its own address's. */
typedef struct Insider {
    NetPort *own, *spoof;
    NetAddr victim;
    int stage;     /* 0 nothing sent, 1 clear HELLO sent, 2 sealed HELLOs sent */
    int64_t from_victim, to_victim; /* bytes on the hub */
} Insider;

static void insider_bytes(void *ctx, const NetAddr *from, const NetAddr *to, const uint8_t *b, int n)
{
    (void)b;
    Insider *x = ctx;
    x->from_victim += netaddr_equal(from, &x->victim) ? n : 0;
    x->to_victim += netaddr_equal(to, &x->victim) ? n : 0;
}

static int hello_bytes(uint64_t nonce, uint8_t *buf)
{
    WirePacket p;
    memset(&p, 0, sizeof p);
    p.kind = WIRE_HELLO;
    p.u.hello.proto = WIRE_VERSION;
    p.u.hello.nonce = nonce;
    snprintf(p.u.hello.name, sizeof p.u.hello.name, "insider");
    return (int)wire_encode(&p, buf, WIRE_MAX_BYTES);
}

/* The sealed HELLO as a joiner sends it (docs/wire.md "Sealed datagrams"):
 * "NRH1", the nonce and the cookie in clear, then the envelope. */
static int sealed_hello(const uint8_t *key_answer, uint64_t nonce, uint64_t counter, uint8_t *out)
{
    char code[WIRECRYPT_CODE_CHARS + 1];
    uint8_t master[WIRECRYPT_KEY_BYTES], hello[WIRE_MAX_BYTES];
    assert_true(wirecrypt_code_normalise(SIM_CODE, code));
    assert_true(wirecrypt_master(code, key_answer + 8, master));
    WireKeys k;
    wirecrypt_link(master, nonce, 0, false, &k);
    memcpy(out, "NRH1", 4);
    for (int i = 0; i < 8; i++)
        out[4 + i] = (uint8_t)(nonce >> (8 * i));
    memcpy(out + 12, key_answer + 32, 8); /* the cookie of the insider's own address */
    int head = 20;
    int n = hello_bytes(nonce, hello);
    return head + (int)wirecrypt_seal(&k, counter, hello, (size_t)n, out + head, WIRE_MAX_BYTES);
}

static void insider_each(Sim *m, void *ctx)
{
    Insider *x = ctx;
    const NetAddr *host = &m->t[0].addr;
    uint8_t buf[WIRE_MAX_BYTES + 64], env[WIRE_MAX_BYTES + 64];
    if (x->stage == 0) {
        netport_send(x->own, host, buf, hello_bytes(777, buf));
        x->stage = 1;
        return;
    }
    NetAddr from;
    int64_t stamp;
    int n = x->stage == 1 ? netport_recv(x->own, INT64_MAX, buf, (int)sizeof buf, &from, &stamp) : NETPORT_NONE;
    if (n != 40 || memcmp(buf, "NRK1", 4) != 0)
        return;
    for (int i = 0; i < INSIDER_HELLOS; i++) /* one nonce, and nine more */
        netport_send(x->spoof, host, env, sealed_hello(buf, 4242 + (uint64_t)(i > 0 ? i : 0), 0, env));
    x->stage = 2;
}

/* Before the cookie the host or server took the victim's address as its
 * first joiner: WELCOME, the track and 15 s of clock probes to an address
 * that never asked (about 54 KB for 132 bytes). Now each sealed HELLO is
 * refused as `cookie`, nothing goes to the victim, and the real joiner,
 * once running, takes the seat and races. */
static void insider_reflect(int cars)
{
    Sim m;
    SimOpts o = {.schemes = "nc", .seconds_ms = 4000, .cars = cars};
    sim_open(&m, &o);
    for (int i = 1; i < m.nterm; i++) { /* the joiners stopped for the first 3 s */
        m.t[i].frozen_until = m.truth + 3 * NR_US_PER_S;
        nethub_freeze(m.t[i].port, true);
    }
    Insider x = {.victim = addr_of(9, 9)};
    x.own = nethub_port(m.hub, addr_of(8, 8), &m.t[0].clock);
    x.spoof = nethub_port(m.hub, x.victim, &m.t[0].clock);
    nethub_tap(m.hub, insider_bytes, &x);
    sim_run(&m, T0 + 60 * NR_US_PER_S, insider_each, &x);
    NetSession *h = session_core(m.t[0].s);
    printf("insider from the victim's address: %lld B in, %lld B out to the victim; refused %lld as cookie\n",
           (long long)x.from_victim, (long long)x.to_victim, (long long)netsession_rejected(h, "cookie"));
    assert_int_equal(x.stage, 2);
    assert_true(x.from_victim > 0);
    assert_true(x.to_victim <= x.from_victim);
    assert_int_equal(netsession_rejected(h, "cookie"), INSIDER_HELLOS);
    for (int i = 0; i < m.nterm; i++)
        if (!m.t[i].done || !m.t[i].ok)
            fail_msg("terminal %d: %s", i, m.t[i].done ? session_error(m.t[i].s) : "not over");
    sim_close(&m);
}

static void insider_reflect_host(void **state)
{
    (void)state;
    insider_reflect(0);
}

static void insider_reflect_server(void **state)
{
    (void)state;
    insider_reflect(2);
}

/* A full disk while the host logs (RLIMIT_FSIZE: writes past 48 KB fail
 * with EFBIG, SIGXFSZ ignored; the host's log is past it early in the
 * race; the joiner writes none):
 * the host says so within a second of the failure, in mid-race, not at the
 * end, and its BYE ends the joiner's race too, not completed (exit 1). */
static void log_disk_full(void **state)
{
    (void)state;
    Sim m;
    SimOpts o = {.schemes = "nc,dr", .seconds_ms = 20000, .logs = true, .host_log_only = true};
    sim_open(&m, &o);
    struct rlimit old;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim = {48 * 1024, old.rlim_max};
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    sim_run(&m, T0 + 60 * NR_US_PER_S, NULL, NULL);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    assert_true(m.t[0].done && !m.t[0].ok);
    assert_true(m.t[1].done && !m.t[1].ok);
    assert_non_null(strstr(session_error(m.t[0].s), "h.log: write error: "));
    assert_string_equal(session_error(m.t[1].s), "the peer left before the end of the race");
    /* a 20 s race has 607 samples; the logs fill after a few seconds */
    int64_t samples = netterm_metrics(session_netterm(m.t[0].s), 0)->samples;
    printf("disk full: the host ended after %lld samples: %s; the joiner: %s\n", (long long)samples,
           session_error(m.t[0].s), session_error(m.t[1].s));
    assert_true(samples < 300);
    sim_close(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pause_far_ahead), cmocka_unit_test(control_extremes_joiner),
        cmocka_unit_test(control_extremes_host), cmocka_unit_test(view_seq_max),
        cmocka_unit_test(mu_seq_far), cmocka_unit_test(mu_stamp_ahead), cmocka_unit_test(host_never_starts),
        cmocka_unit_test(outsider_sealed), cmocka_unit_test(wrong_code), cmocka_unit_test(spoofed_hellos),
        cmocka_unit_test(insider_reflect_host), cmocka_unit_test(insider_reflect_server),
        cmocka_unit_test(log_disk_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
