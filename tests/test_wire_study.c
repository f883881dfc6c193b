/* The study fields of the wire (wire.h, docs/wire.md "STUDY", "LOG"):
 * WELCOME's study step and flags, every STUDY op and the LOG chunks of a
 * joiner's log, byte offsets by hand, each field's refusal. Split from
 * test_wire.c (the other kinds). */
#include "wire.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#define TOKEN UINT64_C(0x0102030405060708)
#define NOW (INT64_C(5) * NR_US_PER_S)

static WireCheck check(void)
{
    return (WireCheck){.token = TOKEN, .accept_hello = false, .ncars = 2, .own_car = 1, .now_us = NOW,
                       .window_us = 0, .nschemes = 4};
}

/* WELCOME of a study's race: its fields by hand and their checks. */
static void study_welcome(void **state)
{
    (void)state;
    WireCheck c = check();
    uint8_t buf[WIRE_MAX_BYTES], bad[WIRE_MAX_BYTES];
    WirePacket w = {.kind = WIRE_WELCOME, .token = TOKEN}, q;
    w.u.welcome = (WireWelcome){.nonce = 77, .car = 1, .ncars = 2, .period_ms = 33, .seed = 9, .laps = 2,
                                .track_bytes = 1800};
    strcpy(w.u.welcome.schemes, "nc,dr");
    /* A study's race 3 of 10, rated, blind, 4 questions, and the joiner's
     * link: peer_link at 416, study_race 672, races 676, flags 680, nq 681,
     * given 682, a reserved byte at 683 */
    strcpy(w.u.welcome.peer_link, "delay 75ms 10ms");
    w.u.welcome.study_race = 3;
    w.u.welcome.study_races = 10;
    w.u.welcome.study_flags = WIRE_STUDY_RATED | WIRE_STUDY_BLIND;
    w.u.welcome.study_nq = 4;
    size_t n = wire_encode(&w, buf, sizeof buf);
    assert_int_equal(memcmp(buf + 416, "delay 75ms 10ms", 16), 0);
    assert_true(buf[672] == 3 && buf[676] == 10 && buf[680] == 6 && buf[681] == 4);
    assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_OK);
    assert_string_equal(q.u.welcome.peer_link, "delay 75ms 10ms");
    assert_true(q.u.welcome.study_race == 3 && q.u.welcome.study_races == 10 && q.u.welcome.study_nq == 4);
    /* race past the session, practice and rated at once, rated without
     * questions, too many, an unknown flag, rate-only of a practice race, a
     * given answer past the questions, the reserved byte, study fields
     * outside a study */
    static const struct { int off, val; } wrong_study[] = {{672, 11}, {680, 7}, {681, 0}, {681, 9},
                                                           {680, 64 | 2}, {680, 8 | 1}, {682, 16}, {683, 1}};
    for (size_t i = 0; i < sizeof wrong_study / sizeof wrong_study[0]; i++) {
        memcpy(bad, buf, n);
        bad[wrong_study[i].off] = (uint8_t)wrong_study[i].val;
        assert_int_equal(wire_decode(bad, n, &c, &q), wrong_study[i].off == 683 ? WIRE_BAD_RESERVED : WIRE_BAD_FIELD);
    }
    memcpy(bad, buf, n);
    bad[680] = WIRE_STUDY_RATED | WIRE_STUDY_RATE_ONLY; /* a resumed race's ratings, two of them kept */
    bad[682] = 5;
    assert_int_equal(wire_decode(bad, n, &c, &q), WIRE_OK);
    assert_true(q.u.welcome.study_given == 5);
    memcpy(bad, buf, n);
    bad[672] = 0; /* not a study race, but the other study fields set */
    assert_int_equal(wire_decode(bad, n, &c, &q), WIRE_BAD_FIELD);
    memcpy(bad, buf, n);
    bad[680] = WIRE_STUDY_PRACTICE; /* practice with 4 questions */
    assert_int_equal(wire_decode(bad, n, &c, &q), WIRE_BAD_FIELD);
    /* version 7: flag LOG (the host wants the joiner's log); a practice race
     * comes again for its log alone (rate-only with LOG), never without it */
    memcpy(bad, buf, n);
    bad[680] = WIRE_STUDY_RATED | WIRE_STUDY_LOG;
    assert_int_equal(wire_decode(bad, n, &c, &q), WIRE_OK);
    assert_int_equal(q.u.welcome.study_flags, 2 | 16);
    bad[680] = WIRE_STUDY_PRACTICE | WIRE_STUDY_RATE_ONLY | WIRE_STUDY_LOG;
    bad[681] = 0;
    bad[682] = 0;
    assert_int_equal(wire_decode(bad, n, &c, &q), WIRE_OK);
    bad[680] = WIRE_STUDY_PRACTICE | WIRE_STUDY_RATE_ONLY;
    assert_int_equal(wire_decode(bad, n, &c, &q), WIRE_BAD_FIELD);
    bad[680] = WIRE_STUDY_PRACTICE | WIRE_STUDY_BREAK; /* a break before it */
    assert_int_equal(wire_decode(bad, n, &c, &q), WIRE_OK);
    assert_int_equal(q.u.welcome.study_flags, 1 | 32);
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* STUDY: each op round trip and its field checks (docs/wire.md). */
static void study_packets(void **state)
{
    (void)state;
    WireCheck c = check();
    WirePacket p = {.kind = WIRE_STUDY, .token = TOKEN}, q;
    uint8_t buf[WIRE_MAX_BYTES], bad[WIRE_MAX_BYTES];
    p.u.study = (WireStudy){.op = WIRE_STUDY_QUESTION, .index = 3, .qkind = 1, .race = 7};
    strcpy(p.u.study.id, "acceptable");
    strcpy(p.u.study.text, "Would you accept playing like this?");
    size_t n = wire_encode(&p, buf, sizeof buf);
    assert_int_equal(n, 24 + 16 + 24 + 160);
    assert_int_equal(buf[4], 7);  /* version 7 (docs/wire.md): the joiner's log over the studies' 6 */
    assert_int_equal(buf[5], 11); /* kind 11 STUDY, after 9 PEERS and 10 PEER */
    assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_OK);
    assert_true(q.u.study.op == WIRE_STUDY_QUESTION && q.u.study.index == 3 && q.u.study.qkind == 1);
    assert_string_equal(q.u.study.text, "Would you accept playing like this?");
    /* payload: op 24, index 25, qkind 26, score 27, race 28, value 32, id 40, text 64 */
    static const struct { int off, val; } wrong_q[] = {{24, 0}, {24, 5}, {25, 8}, {26, 2}, {27, 1}, {28, 0},
                                                       {32, 1}, {40, 0}, {64, 0}, {64, 7}};
    for (size_t i = 0; i < sizeof wrong_q / sizeof wrong_q[0]; i++) {
        memcpy(bad, buf, n);
        bad[wrong_q[i].off] = (uint8_t)wrong_q[i].val;
        assert_int_equal(wire_decode(bad, n, &c, &q), WIRE_BAD_FIELD);
    }
    memcpy(bad, buf, n);
    bad[40 + 20] = 'x'; /* a byte after the id's NUL */
    assert_int_equal(wire_decode(bad, n, &c, &q), WIRE_BAD_FIELD);
    /* an answer: score 0..5, a response time of -1 (not measured) to a day */
    p.u.study = (WireStudy){.op = WIRE_STUDY_ANSWER, .index = 0, .score = 4, .race = 7, .value = 2345};
    n = wire_encode(&p, buf, sizeof buf);
    assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_OK);
    assert_true(q.u.study.score == 4 && q.u.study.value == 2345);
    static const int64_t values[] = {-2, 24 * 3600 * INT64_C(1000) + 1};
    for (int i = 0; i < 2; i++) {
        p.u.study.value = values[i];
        n = wire_encode(&p, buf, sizeof buf);
        assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_BAD_FIELD);
    }
    p.u.study.value = -1;
    p.u.study.score = 6;
    n = wire_encode(&p, buf, sizeof buf);
    assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_BAD_FIELD);
    strcpy(p.u.study.id, "x"); /* an answer carries no text */
    p.u.study.score = 4;
    n = wire_encode(&p, buf, sizeof buf);
    assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_BAD_FIELD);
    /* ACK and DONE */
    p.u.study = (WireStudy){.op = WIRE_STUDY_ACK, .index = 2, .race = 7};
    n = wire_encode(&p, buf, sizeof buf);
    assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_OK);
    p.u.study = (WireStudy){.op = WIRE_STUDY_DONE, .race = 7, .value = 3};
    n = wire_encode(&p, buf, sizeof buf);
    assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_OK);
    assert_true(q.u.study.value == 3);
    p.u.study.index = 1;
    n = wire_encode(&p, buf, sizeof buf);
    assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_BAD_FIELD);
    /* LOG_ACK: the bytes kept, 0 to the largest log; LOG_NONE: no value */
    p.u.study = (WireStudy){.op = WIRE_STUDY_LOG_ACK, .race = 7, .value = 65536};
    n = wire_encode(&p, buf, sizeof buf);
    assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_OK);
    assert_true(q.u.study.op == WIRE_STUDY_LOG_ACK && q.u.study.value == 65536);
    static const int64_t acks[] = {-1, (int64_t)WIRE_LOG_MAX_BYTES + 1};
    for (int i = 0; i < 2; i++) {
        p.u.study.value = acks[i];
        n = wire_encode(&p, buf, sizeof buf);
        assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_BAD_FIELD);
    }
    p.u.study = (WireStudy){.op = WIRE_STUDY_LOG_NONE, .race = 7};
    n = wire_encode(&p, buf, sizeof buf);
    assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_OK);
    p.u.study.value = 1;
    n = wire_encode(&p, buf, sizeof buf);
    assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_BAD_FIELD);
    p.u.study = (WireStudy){.op = 7, .race = 7}; /* past the last op */
    n = wire_encode(&p, buf, sizeof buf);
    assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_BAD_FIELD);
}

/* LOG (kind 12): a joiner's log in chunks, TRACK's layout (offset, total,
 * n, reserved, 1024 data bytes): a chunk round trip; a NUL in the text, a
 * chunk past its total, a total over the limit, bytes after n refused. */
static void log_chunks(void **state)
{
    (void)state;
    WireCheck c = check();
    WirePacket p = {.kind = WIRE_LOG, .token = TOKEN}, q;
    uint8_t buf[WIRE_MAX_BYTES], bad[WIRE_MAX_BYTES];
    p.u.track = (WireTrack){.offset = 2048, .total = 3000, .n = 952};
    memset(p.u.track.data, 'a', 952);
    size_t n = wire_encode(&p, buf, sizeof buf);
    assert_int_equal(n, 24 + 16 + 1024);
    assert_int_equal(buf[5], 12);
    assert_int_equal(wire_decode(buf, n, &c, &q), WIRE_OK);
    assert_true(q.kind == WIRE_LOG && q.u.track.offset == 2048 && q.u.track.total == 3000 && q.u.track.n == 952);
    memcpy(bad, buf, n);
    bad[40 + 5] = 0; /* a NUL in the text */
    assert_int_equal(wire_decode(bad, n, &c, &q), WIRE_BAD_FIELD);
    memcpy(bad, buf, n);
    bad[28] = 0xb7; /* total 3000 (0x0bb8) -> 2999: the chunk runs past it */
    assert_int_equal(wire_decode(bad, n, &c, &q), WIRE_BAD_FIELD);
    memcpy(bad, buf, n);
    put32(bad + 28, WIRE_LOG_MAX_BYTES + 1); /* past the limit */
    assert_int_equal(wire_decode(bad, n, &c, &q), WIRE_BAD_FIELD);
    memcpy(bad, buf, n);
    bad[40 + 1000] = 'x'; /* after n */
    assert_int_equal(wire_decode(bad, n, &c, &q), WIRE_BAD_RESERVED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(study_welcome),
        cmocka_unit_test(study_packets),
        cmocka_unit_test(log_chunks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
