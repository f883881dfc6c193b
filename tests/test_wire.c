/* Wire format and clock synchronisation: byte layout written out by hand,
 * round trips of every kind, one test per rejection reason, and the
 * estimator against exchanges with a known offset and drift (wire.h,
 * clocksync.h). The study fields and LOG: test_wire_study.c. */
#include "clocksync.h"
#include "rng.h"
#include "wire.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#define TOKEN UINT64_C(0x0102030405060708)
#define NOW (INT64_C(5) * NR_US_PER_S)

static WireCheck check(void)
{
    return (WireCheck){.token = TOKEN, .accept_hello = false, .ncars = 2, .own_car = 1, .now_us = NOW,
                       .window_us = 0, .nschemes = 4};
}

/* CONTROL START, token 0x0102030405060708, packet 9, arg 0x1122334455667788:
 * every byte written out from docs/wire.md. */
static void control_bytes_by_hand(void **state)
{
    (void)state;
    static const uint8_t want[40] = {
        'N', 'R', 'C', '1', 7, 7, 40, 0,                 /* magic, version, kind, length */
        0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, /* token */
        9, 0, 0, 0, 0, 0, 0, 0,                         /* packet counter, reserved */
        2, 0, 0, 0, 0, 0, 0, 0,                         /* code START, reserved */
        0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, /* arg_us */
    };
    WirePacket p = {.kind = WIRE_CONTROL, .token = TOKEN, .pkt_seq = 9};
    p.u.control = (WireControl){WIRE_START, INT64_C(0x1122334455667788)};
    uint8_t buf[64];
    assert_int_equal(wire_encode(&p, buf, sizeof buf), 40);
    assert_memory_equal(buf, want, 40);
    WireCheck c = check();
    WirePacket q;
    assert_int_equal(wire_decode(want, 40, &c, &q), WIRE_OK);
    assert_int_equal(q.u.control.code, WIRE_START);
    assert_true(q.u.control.arg_us == INT64_C(0x1122334455667788));
    assert_int_equal(q.pkt_seq, 9);
}

static Mu sample_mu(void)
{
    Mu m = {.car = 0, .seq = 42, .gen_us = NOW - 75000, .x = 12.5, .y = -3.25, .heading = 1.0, .speed = 27.5,
            .vx = 1.5, .vy = -0.5, .kind = MU_UPDATE, .nbytes = 48};
    m.aux[2] = 0.125;
    return m;
}

/* A double travels as its bits: x = 12.5 is 0x4029000000000000. */
static void mu_round_trip(void **state)
{
    (void)state;
    WirePacket p = {.kind = WIRE_MU, .token = TOKEN, .pkt_seq = 1};
    p.u.mu.mu = sample_mu();
    p.u.mu.schemes = 0x5;
    uint8_t buf[WIRE_MAX_BYTES];
    size_t n = wire_encode(&p, buf, sizeof buf);
    assert_int_equal(n, 152);
    static const uint8_t x125[8] = {0, 0, 0, 0, 0, 0, 0x29, 0x40};
    assert_memory_equal(buf + 24 + 32, x125, 8); /* after 6 x 4 bytes and gen_us */
    WireCheck c = check();
    WirePacket q;
    assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_OK);
    Mu a = p.u.mu.mu, b = q.u.mu.mu;
    assert_true(a.car == b.car && a.seq == b.seq && a.gen_us == b.gen_us && a.kind == b.kind &&
                a.nbytes == b.nbytes);
    assert_memory_equal(&a.x, &b.x, sizeof(double) * 6);
    assert_memory_equal(a.aux, b.aux, sizeof a.aux);
    assert_int_equal(q.u.mu.schemes, 0x5);
}

static void other_kinds_round_trip(void **state)
{
    (void)state;
    uint8_t buf[WIRE_MAX_BYTES];
    WirePacket q;
    WireCheck c = check();
    /* HELLO (token 0, only to a host waiting for one) */
    WirePacket h = {.kind = WIRE_HELLO};
    h.u.hello = (WireHello){WIRE_VERSION, UINT64_C(77), "lab-pc-2"};
    size_t n = wire_encode(&h, buf, sizeof buf);
    assert_int_equal(n, 104);
    assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_BAD_TOKEN);
    c.accept_hello = true;
    assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_OK);
    assert_string_equal(q.u.hello.name, "lab-pc-2");
    assert_true(q.u.hello.nonce == 77);
    c.accept_hello = false;
    /* WELCOME */
    WirePacket w = {.kind = WIRE_WELCOME, .token = TOKEN};
    w.u.welcome = (WireWelcome){.nonce = 77, .car = 1, .ncars = 2, .period_ms = 33, .delta_us = 100000,
                                .tdr_cw = 0.25, .converge_us = 0, .seed = 9, .laps = 0, .seconds_ms = 30000,
                                .shown_scheme = 2, .track_bytes = 1800};
    strcpy(w.u.welcome.schemes, "nc,causality,dr,dr-causality");
    strcpy(w.u.welcome.track_file, "default.track");
    n = wire_encode(&w, buf, sizeof buf);
    assert_int_equal(n, 684);
    assert_int_equal(memcmp(buf + 352, "default.track", 14), 0);
    assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_OK);
    assert_string_equal(q.u.welcome.schemes, "nc,causality,dr,dr-causality");
    assert_true(q.u.welcome.tdr_cw == 0.25 && q.u.welcome.seconds_ms == 30000 && q.u.welcome.car == 1);
    assert_true(q.u.welcome.topology == 0 && q.u.welcome.server == 0);
    /* N cars through a server: ncars 2..8, the topology and behaviour at 60, 61 */
    w.u.welcome.ncars = 8;
    w.u.welcome.car = 7;
    w.u.welcome.topology = 1;
    w.u.welcome.server = 1;
    n = wire_encode(&w, buf, sizeof buf);
    assert_int_equal(buf[36], 8);
    assert_int_equal(buf[60], 1);
    assert_int_equal(buf[61], 1);
    assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_OK);
    assert_true(q.u.welcome.ncars == 8 && q.u.welcome.car == 7 && q.u.welcome.server == 1);
    uint8_t bad[WIRE_MAX_BYTES];
    static const struct { int off, val; } wrong[] = {{36, 9}, {36, 1}, {32, 8}, {60, 2}, {61, 2}, {62, 1}};
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        memcpy(bad, buf, n);
        bad[wrong[i].off] = (uint8_t)wrong[i].val;
        assert_int_equal(wire_decode(bad, n, &c, &q), wrong[i].off == 62 ? WIRE_BAD_RESERVED : WIRE_BAD_FIELD);
    }
    memcpy(bad, buf, n);
    bad[60] = 0; /* p2p with a sync server: no such race */
    assert_int_equal(wire_decode(bad, n, &c, &q), WIRE_BAD_FIELD);
    /* TRACK */
    WirePacket t = {.kind = WIRE_TRACK, .token = TOKEN};
    t.u.track.offset = 1024;
    t.u.track.total = 1800;
    t.u.track.n = 5;
    memcpy(t.u.track.data, "point", 5);
    n = wire_encode(&t, buf, sizeof buf);
    assert_int_equal(n, 1064);
    assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_OK);
    assert_memory_equal(q.u.track.data, "point", 5);
    /* SYNC */
    WirePacket s = {.kind = WIRE_SYNC_RESP, .token = TOKEN};
    s.u.sync = (WireSync){3, -5, 250000, 250100};
    n = wire_encode(&s, buf, sizeof buf);
    assert_int_equal(n, 56);
    assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_OK);
    assert_true(q.u.sync.t1_us == -5 && q.u.sync.t2_us == 250000 && q.u.sync.t3_us == 250100);
    s.kind = WIRE_SYNC_REQ;
    assert_int_equal(wire_encode(&s, buf, sizeof buf), 40);
    /* a buffer too small writes nothing */
    assert_int_equal(wire_encode(&w, buf, 100), 0);
}

/* A text of 2500 bytes in chunks (wire_chunk), as a host sends its track
 * and a study's joiner its log: offsets 0, 1024, 2048 carry 1024, 1024
 * and 2500 - 2048 = 452 bytes; each survives the wire and the three put
 * together are the text. A text of exactly two chunks ends on a full one. */
static void chunks_carry_a_text(void **state)
{
    (void)state;
    char text[2500], got[2500];
    for (size_t i = 0; i < sizeof text; i++)
        text[i] = (char)('a' + i % 26);
    const WireKind kinds[2] = {WIRE_TRACK, WIRE_LOG};
    const uint32_t want_n[3] = {1024, 1024, 452};
    for (int k = 0; k < 2; k++) {
        memset(got, 0, sizeof got);
        for (uint32_t off = 0, i = 0; off < sizeof text; off += WIRE_TRACK_CHUNK, i++) {
            WirePacket p, q;
            wire_chunk(&p, kinds[k], text, (uint32_t)sizeof text, off);
            assert_true(p.kind == kinds[k] && p.token == 0 && p.pkt_seq == 0);
            assert_true(p.u.track.offset == off && p.u.track.total == sizeof text && p.u.track.n == want_n[i]);
            p.token = TOKEN;
            uint8_t buf[WIRE_MAX_BYTES];
            size_t n = wire_encode(&p, buf, sizeof buf);
            assert_int_equal(n, 1064);
            WireCheck c = check();
            assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_OK);
            assert_true(q.kind == kinds[k] && q.u.track.n == want_n[i]);
            memcpy(got + q.u.track.offset, q.u.track.data, q.u.track.n);
        }
        assert_memory_equal(got, text, sizeof text);
    }
    assert_int_equal(wire_chunk_bytes(2048, 1024), 1024);
    assert_int_equal(wire_chunk_bytes(2048, 0), 1024);
    assert_int_equal(wire_chunk_bytes(1, 0), 1);
}

static size_t mu_packet(uint8_t *buf)
{
    WirePacket p = {.kind = WIRE_MU, .token = TOKEN};
    p.u.mu.mu = sample_mu();
    p.u.mu.schemes = 1;
    return wire_encode(&p, buf, WIRE_MAX_BYTES);
}

static WireResult decode(const uint8_t *buf, size_t n)
{
    WireCheck c = check();
    WirePacket q;
    return wire_decode(buf, n, &c, &q);
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Every rejection reason, each from a packet otherwise valid. */
static void rejections(void **state)
{
    (void)state;
    uint8_t buf[WIRE_MAX_BYTES + 8], b[WIRE_MAX_BYTES + 8];
    size_t n = mu_packet(buf);
    assert_int_equal(decode(buf, n), WIRE_OK);
    assert_int_equal(decode(buf, 23), WIRE_SHORT);
    assert_int_equal(decode(buf, 0), WIRE_SHORT);
    memset(b, 0, sizeof b);
    assert_int_equal(decode(b, WIRE_MAX_BYTES + 1), WIRE_OVERSIZED);
#define MUTATE(off, val, want)                                                                                  \
    do {                                                                                                        \
        memcpy(b, buf, n);                                                                                      \
        b[off] = (uint8_t)(val);                                                                                \
        assert_int_equal(decode(b, n), want);                                                                   \
    } while (0)
    MUTATE(0, 'X', WIRE_BAD_MAGIC);
    MUTATE(4, 6, WIRE_BAD_VERSION); /* the version before the joiner's log */
    MUTATE(4, 5, WIRE_BAD_VERSION); /* the version before studies */
    MUTATE(4, 4, WIRE_BAD_VERSION); /* the version before the address cookie */
    MUTATE(4, 8, WIRE_BAD_VERSION);
    MUTATE(5, 0, WIRE_BAD_KIND);
    MUTATE(5, WIRE_KIND_END, WIRE_BAD_KIND);
    MUTATE(5, WIRE_CONTROL, WIRE_BAD_LENGTH); /* a CONTROL is 40 bytes, not 152 */
    MUTATE(6, 151, WIRE_BAD_LENGTH);
    MUTATE(8, 0x09, WIRE_BAD_TOKEN);          /* spoofed: right magic, wrong token */
    MUTATE(20, 1, WIRE_BAD_RESERVED);          /* header reserved */
    MUTATE(44, 1, WIRE_BAD_RESERVED);          /* payload reserved */
    MUTATE(40, 0, WIRE_BAD_FIELD);             /* scheme mask empty */
    MUTATE(40, 0x10, WIRE_BAD_FIELD);          /* scheme 4 of a list of 4 */
    /* A datagram one byte shorter than its length field says. */
    assert_int_equal(decode(buf, n - 1), WIRE_BAD_LENGTH);
    /* Fields mu_validate refuses: the MU checks, behind the one boundary. */
    WireCheck c = check();
    WirePacket q;
    MUTATE(24, 5, WIRE_BAD_MU); /* car 5: overflowed NC's arrays before the boundary */
    wire_decode(b, n, &c, &q);
    assert_int_equal(q.mu_check, MU_BAD_CAR);
    MUTATE(24, 1, WIRE_BAD_MU); /* the receiver's own car */
    memcpy(b, buf, n);
    put64(b + 48, (uint64_t)INT64_MAX); /* gen_us = INT64_MAX: outside the window */
    assert_int_equal(wire_decode(b, n, &c, &q), WIRE_BAD_MU);
    assert_int_equal(q.mu_check, MU_BAD_TIME);
    memcpy(b, buf, n);
    put64(b + 56, UINT64_C(0x7ff8000000000000)); /* x = NaN */
    assert_int_equal(wire_decode(b, n, &c, &q), WIRE_BAD_MU);
    assert_int_equal(q.mu_check, MU_BAD_NUMBER);
    /* Text fields: NUL-terminated, printable, nothing hidden after the NUL. */
    WirePacket h = {.kind = WIRE_HELLO};
    h.u.hello = (WireHello){WIRE_VERSION, 1, "ok"};
    size_t hn = wire_encode(&h, buf, sizeof buf);
    c.accept_hello = true;
    memcpy(b, buf, hn);
    memset(b + 40, 'a', WIRE_TEXT); /* no terminator */
    assert_int_equal(wire_decode(b, hn, &c, &q), WIRE_BAD_FIELD);
    memcpy(b, buf, hn);
    b[40] = 0x1b; /* an escape */
    assert_int_equal(wire_decode(b, hn, &c, &q), WIRE_BAD_FIELD);
    memcpy(b, buf, hn);
    b[50] = 'x'; /* after the NUL */
    assert_int_equal(wire_decode(b, hn, &c, &q), WIRE_BAD_FIELD);
    memcpy(b, buf, hn);
    b[24] = WIRE_VERSION + 1; /* a proto this build does not speak */
    assert_int_equal(wire_decode(b, hn, &c, &q), WIRE_BAD_FIELD);
    memcpy(b, buf, hn);
    b[8] = 1; /* a HELLO with a token */
    assert_int_equal(wire_decode(b, hn, &c, &q), WIRE_BAD_TOKEN);
    /* SYNC reply with t3 before t2; CONTROL with an unknown code. */
    WirePacket s = {.kind = WIRE_SYNC_RESP, .token = TOKEN};
    s.u.sync = (WireSync){1, 0, 100, 99};
    size_t sn = wire_encode(&s, buf, sizeof buf);
    c.accept_hello = false;
    assert_int_equal(wire_decode(buf, sn, &c, &q), WIRE_BAD_FIELD);
    s.u.sync = (WireSync){1, 0, INT64_MIN + 5, INT64_C(72057594038178086)}; /* t3 - t2 overflows int64 */
    sn = wire_encode(&s, buf, sizeof buf);
    assert_int_equal(wire_decode(buf, sn, &c, &q), WIRE_BAD_FIELD);
    WirePacket k = {.kind = WIRE_CONTROL, .token = TOKEN};
    k.u.control = (WireControl){WIRE_CONTROL_END, 0};
    size_t kn = wire_encode(&k, buf, sizeof buf);
    assert_int_equal(wire_decode(buf, kn, &c, &q), WIRE_BAD_FIELD);
    /* Every result has a name for the logs. */
    for (int r = 0; r < WIRE_RESULT_COUNT; r++)
        assert_true(strlen(wire_result_name((WireResult)r)) > 1);
#undef MUTATE
}

/* 10^5 random datagrams, and 10^5 single-byte mutations of a valid one:
 * never read past the datagram (the sanitizer build checks), and a valid
 * result only for untouched or harmless bytes. */
static void random_garbage(void **state)
{
    (void)state;
    Rng r;
    rng_seed(&r, 3, 0);
    uint8_t buf[WIRE_MAX_BYTES], b[WIRE_MAX_BYTES];
    size_t n = mu_packet(buf);
    int ok = 0;
    for (int i = 0; i < 100000; i++) {
        size_t len = (size_t)rng_below(&r, WIRE_MAX_BYTES + 1);
        for (size_t j = 0; j < len; j++)
            b[j] = (uint8_t)rng_below(&r, 256);
        ok += decode(b, len) == WIRE_OK;
        memcpy(b, buf, n);
        b[rng_below(&r, n)] ^= (uint8_t)(1 + rng_below(&r, 255));
        (void)decode(b, n);
    }
    assert_int_equal(ok, 0); /* random bytes never carry the magic and the token */
}

/* ---- clock synchronisation ---------------------------------------------- */

/* By hand: probe at t1 = 1000 (client), arrives at t2 = 251100 (server),
 * reply at t3 = 251200, arrives t4 = 1300 (client). Round trip = 300 - 100
 * = 200; offset = ((251100 - 1000) + (251200 - 1300)) / 2 = 250000. */
static void clocksync_by_hand(void **state)
{
    (void)state;
    ClockSync cs;
    clocksync_init(&cs);
    assert_true(clocksync_error_bound(&cs, 0) == INT64_MAX);
    assert_true(clocksync_add(&cs, 1000, 251100, 251200, 1300));
    assert_true(clocksync_offset(&cs, 1300) == 250000);
    assert_true(clocksync_rtt(&cs) == 200);
    assert_true(clocksync_error_bound(&cs, 1300) == 100);
    /* A later exchange with a longer round trip does not replace it. */
    assert_true(clocksync_add(&cs, 2000, 252500, 252600, 2900));
    assert_true(clocksync_offset(&cs, 2900) == 250000);
    /* Inconsistent stamps are refused. */
    assert_false(clocksync_add(&cs, 5000, 0, 0, 4000));   /* t4 before t1 */
    assert_false(clocksync_add(&cs, 0, 10, 5, 100));      /* t3 before t2 */
    assert_false(clocksync_add(&cs, 0, 0, 1000, 100));    /* negative round trip */
    assert_false(clocksync_add(&cs, 0, INT64_MAX, INT64_MAX, 10)); /* would overflow */
    assert_int_equal(clocksync_count(&cs), 2);
}

/* A server clock 250 ms ahead with 40 ppm drift; one-way delays 2 ms plus
 * exponential queueing (mean 3 ms, independent per direction, so the path
 * is asymmetric exchange by exchange); a probe every 100 ms for 60 s. The
 * truth must lie within the error bound, and the estimate within what the
 * chosen exchange's queueing allows. */
static void clocksync_known_truth(void **state)
{
    (void)state;
    Rng r;
    rng_seed(&r, 11, 0);
    ClockSync cs;
    clocksync_init(&cs);
    const double offset = 250000.0, drift = 40e-6;
    for (int i = 0; i < 600; i++) {
        double t1 = i * 100000.0;
        double up = 2000 - 3000 * log(1 - rng_uniform(&r));
        double down = 2000 - 3000 * log(1 - rng_uniform(&r));
        double t2 = t1 + up + offset + drift * (t1 + up);
        double t3 = t2 + 50;
        double t3g = t1 + up + 50 / (1 + drift); /* global time of the reply */
        double t4 = t3g + down;
        assert_true(clocksync_add(&cs, llround(t1), llround(t2), llround(t3), llround(t4)));
        double truth = offset + drift * t4;
        int64_t est = clocksync_offset(&cs, llround(t4));
        assert_true(fabs((double)est - truth) <= (double)clocksync_error_bound(&cs, llround(t4)) + 1);
        /* Both one-way delays are at least 2 ms, so the chosen exchange's
         * offset error (up - down) / 2 is at most (rtt - 4 ms) / 2; plus the
         * drift over the window (1.6 s at a fitting error under 30 ppm). */
        if (i >= 200)
            assert_true(fabs((double)est - truth) <= (double)(clocksync_rtt(&cs) - 4000) / 2 + 50);
    }
    assert_true(fabs(clocksync_drift_ppm(&cs) - 40.0) < 10.0);
}

static size_t view_packet(uint8_t *buf, int32_t nschemes)
{
    WirePacket p = {.kind = WIRE_VIEW, .token = TOKEN, .pkt_seq = 3};
    WireView *v = &p.u.view;
    v->seq = 40;
    v->nschemes = nschemes;
    v->t_us = NOW - 1000;
    v->progress = 123.5;
    v->mu_sent = 77;
    v->car = 0;
    v->ncars = 2;
    v->first = 0;
    v->count = (uint8_t)nschemes;
    for (int k = 0; k < nschemes; k++)
        for (int c = 0; c < 2; c++)
            v->e[k * 2 + c] = (WireViewCar){10.0 * k + c, -2.5, k == 0 ? 40 - c : -1};
    return wire_encode(&p, buf, WIRE_MAX_BYTES);
}

/* VIEW: 1,208 bytes, the fields at docs/wire.md's offsets, a round trip,
 * and each of its checks. */
static void view_packets(void **state)
{
    (void)state;
    uint8_t buf[WIRE_MAX_BYTES], b[WIRE_MAX_BYTES];
    size_t n = view_packet(buf, 4);
    assert_int_equal(n, 1208);
    assert_int_equal(wire_size(WIRE_VIEW), 1208);
    assert_int_equal(buf[5], 8);
    assert_int_equal(buf[24], 40);           /* seq */
    assert_int_equal(buf[28], 4);            /* nschemes */
    assert_int_equal(buf[48], 77);           /* mu_sent */
    double x;                                /* scheme 1, car 1: at 56 + (1 * 2 + 1) * 24 */
    memcpy(&x, buf + 56 + 3 * 24, 8);
    assert_true(x == 11.0);
    int32_t shown;
    memcpy(&shown, buf + 56 + 1 * 24 + 16, 4); /* scheme 0, car 1: shows sample 39 */
    assert_int_equal(shown, 39);
    WireCheck c = check();
    WirePacket q;
    assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_OK);
    assert_true(q.u.view.seq == 40 && q.u.view.progress == 123.5 && q.u.view.t_us == NOW - 1000);
    assert_true(q.u.view.e[7].x == 31.0 && q.u.view.e[7].seq == -1 && q.u.view.e[1].seq == 39);
    assert_true(q.u.view.car == 0 && q.u.view.ncars == 2 && q.u.view.first == 0 && q.u.view.count == 4);
    /* the viewing car, cars and part at 52..55: the receiver's own car, another car count, a part
     * beyond the list or of more entries than a packet holds */
    static const struct { int off, val; } wrong[] = {{52, 1}, {52, 2}, {53, 3}, {54, 1}, {55, 0}, {55, 5}};
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        memcpy(b, buf, n);
        b[wrong[i].off] = (uint8_t)wrong[i].val;
        assert_int_equal(wire_decode(b, n, &c, &q), WIRE_BAD_FIELD);
    }
    /* another scheme count than the session's */
    c.nschemes = 3;
    assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_BAD_FIELD);
    c.nschemes = 4;
    /* a shown sample after the view's own */
    memcpy(b, buf, n);
    b[56 + 16] = 41;
    assert_int_equal(wire_decode(b, n, &c, &q), WIRE_BAD_FIELD);
    /* a position that is not finite */
    memcpy(b, buf, n);
    double nan = NAN;
    memcpy(b + 56, &nan, 8);
    assert_int_equal(wire_decode(b, n, &c, &q), WIRE_BAD_FIELD);
    /* a byte in an entry beyond the scheme count, or in padding */
    memcpy(b, buf, n);
    b[56 + 4 * 48 + 3] = 1;
    assert_int_equal(wire_decode(b, n, &c, &q), WIRE_BAD_RESERVED);
    memcpy(b, buf, n);
    b[56 + 20] = 1;
    assert_int_equal(wire_decode(b, n, &c, &q), WIRE_BAD_RESERVED);
    /* an instant outside the receiver's window, and INT64_MIN (no overflow) */
    c.window_us = 500;
    assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_BAD_FIELD);
    c.window_us = 0;
    memcpy(b, buf, n);
    put64(b + 32, (uint64_t)INT64_MIN);
    assert_int_equal(wire_decode(b, n, &c, &q), WIRE_BAD_FIELD);
    /* the encoder refuses a scheme count the format cannot carry */
    WirePacket p = {.kind = WIRE_VIEW, .token = TOKEN};
    p.u.view.nschemes = SCHEME_MAX + 1;
    p.u.view.ncars = 2;
    p.u.view.count = 1;
    assert_int_equal(wire_encode(&p, buf, sizeof buf), 0);
    /* nor a part of more entries than a packet holds: 7 schemes of 8 cars */
    p.u.view.nschemes = 12;
    p.u.view.ncars = 8;
    p.u.view.count = 7;
    assert_int_equal(wire_encode(&p, buf, sizeof buf), 0);
    p.u.view.count = 6; /* 48: the most */
    p.u.view.first = 6;
    assert_int_equal(wire_encode(&p, buf, sizeof buf), 1208);
    c = check();
    c.nschemes = 12;
    c.ncars = 8;
    c.own_car = 3;
    assert_int_equal(wire_decode(buf, 1208, &c, &q), WIRE_OK);
    assert_true(q.u.view.first == 6 && q.u.view.count == 6 && q.u.view.ncars == 8);
    c.own_car = -1; /* a server: every car's view */
    assert_int_equal(wire_decode(buf, 1208, &c, &q), WIRE_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(control_bytes_by_hand),
        cmocka_unit_test(mu_round_trip),
        cmocka_unit_test(other_kinds_round_trip),
        cmocka_unit_test(chunks_carry_a_text),
        cmocka_unit_test(rejections),
        cmocka_unit_test(view_packets),
        cmocka_unit_test(random_garbage),
        cmocka_unit_test(clocksync_by_hand),
        cmocka_unit_test(clocksync_known_truth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
