/* A race's condition in a recording's header (raceheader.h): written from
 * an engine's configuration, read back line by line with the spec each
 * line had; the older keys (link12 / link21, link_out_N) still read; a bad
 * line named by file, line and key. Headers written out by hand. */
#include "raceheader.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#define HEAD "# netrace-recording: 1\n# track: default.track\n# period_ms: 33\n# cars: %d\n# source: human\n"

/* Reads a recording of ncars cars, one sample, with the extra header text. */
static void read_text(Recording *rec, int ncars, const char *extra)
{
    char text[8192];
    int n = snprintf(text, sizeof text, HEAD "%st_ms,car,x,y,heading,speed\n", ncars, extra);
    for (int c = 1; c <= ncars; c++)
        n += snprintf(text + n, sizeof text - (size_t)n, "0,%d,%d,0,0,0\n", c, c);
    FILE *f = fmemopen(text, (size_t)n, "r");
    assert_non_null(f);
    NrError err = {{0}};
    bool ok = recording_read(rec, f, "r.csv", &err);
    fclose(f);
    if (!ok)
        fail_msg("%s", err.msg);
}

/* The header's message for a bad condition, "" when it reads. */
static void header_error(int ncars, const char *extra, char *msg, size_t n)
{
    Recording rec;
    read_text(&rec, ncars, extra);
    RaceHeader h;
    NrError err = {{0}};
    bool ok = raceheader_read(&h, &rec, "r.csv", &err);
    raceheader_free(&h);
    recording_free(&rec);
    snprintf(msg, n, "%s", ok ? "" : err.msg);
}

/* Three cars p2p: line 1-3 its own, line 3-2 a medium, the others the
 * terminals' links (2's none); terminal 2's clock +5 ms, -20 ppm. Written
 * as topology, six lines, three clocks; read back the same. */
static void p2p_round_trip(void **state)
{
    (void)state;
    LinkSpec d1, d2, l13;
    NrError err = {{0}};
    assert_true(linkspec_parse(&d1, "delay 75ms 10ms", NULL, &err));
    assert_true(linkspec_parse(&d2, "delay 30ms loss 2%", NULL, &err));
    assert_true(linkspec_parse(&l13, "delay 5ms", NULL, &err));
    EngineConfig ec;
    memset(&ec, 0, sizeof ec);
    ec.ncars = 3;
    ec.link[0] = &d1;
    ec.link[2] = &d2;
    ec.pair_link[0][2] = &l13;
    ec.clock[1] = (TerminalClock){5000, -20.0};
    Recording meta;
    memset(&meta, 0, sizeof meta);
    assert_true(raceheader_add(&meta, &ec));
    const char *want[][2] = {{"topology", "p2p"},        {"link_1_2", "delay 75ms 10ms"},
                             {"link_1_3", "delay 5ms"},  {"link_2_1", "none"},
                             {"link_2_3", "none"},       {"link_3_1", "delay 30ms loss 2%"},
                             {"link_3_2", "delay 30ms loss 2%"}, {"clock_1", "0,0"},
                             {"clock_2", "5,-20"},       {"clock_3", "0,0"}};
    assert_int_equal(meta.nmeta, 10);
    char extra[4096] = "";
    for (int i = 0; i < 10; i++) {
        assert_string_equal(meta.meta[i].key, want[i][0]);
        assert_string_equal(meta.meta[i].value, want[i][1]);
        size_t n = strlen(extra);
        snprintf(extra + n, sizeof extra - n, "# %s: %s\n", want[i][0], want[i][1]);
    }
    Recording rec;
    read_text(&rec, 3, extra);
    RaceHeader h;
    assert_true(raceheader_read(&h, &rec, "r.csv", &err));
    assert_true(h.have_topology && h.topology == ROUTE_P2P);
    assert_string_equal(linkmatrix_get(&h.lines, 0, 2)->text, "delay 5ms");
    assert_string_equal(linkmatrix_get(&h.lines, 2, 1)->text, "delay 30ms loss 2%");
    assert_string_equal(linkmatrix_get(&h.lines, 1, 0)->text, "none");
    assert_int_equal(h.lines.spec[1][0].delay_us, 0);
    assert_true(h.clock_set == 7 && h.clock[1].offset_us == 5000 && h.clock[1].drift_ppm == -20.0);
    raceheader_free(&h);
    recording_free(&rec);
    /* A medium's line: written as such, read as unset. */
    ec.medium[2] = (const Medium *)&d1;
    memset(&meta, 0, sizeof meta);
    assert_true(raceheader_add(&meta, &ec));
    assert_string_equal(meta.meta[5].value, "medium");
    read_text(&rec, 3, "# link_3_1: medium\n");
    assert_true(raceheader_read(&h, &rec, "r.csv", &err));
    assert_true(h.medium[2][0] && !h.lines.set[2][0]);
    raceheader_free(&h);
    recording_free(&rec);
    linkspec_free(&d1);
    linkspec_free(&d2);
    linkspec_free(&l13);
}

/* Client-server of two: the topology and the four lines; two cars p2p:
 * link12 / link21 exactly as before, no clock key while every clock is 0. */
static void cs_and_two_players(void **state)
{
    (void)state;
    LinkSpec up, down;
    NrError err = {{0}};
    assert_true(linkspec_parse(&up, "delay 10ms", NULL, &err));
    assert_true(linkspec_parse(&down, "delay 20ms", NULL, &err));
    EngineConfig ec;
    memset(&ec, 0, sizeof ec);
    ec.ncars = 2;
    ec.topology = ROUTE_CS;
    ec.server = ROUTE_SYNC;
    ec.up_link[0] = ec.up_link[1] = &up;
    ec.down_link[1] = &down;
    Recording meta;
    memset(&meta, 0, sizeof meta);
    assert_true(raceheader_add(&meta, &ec));
    assert_int_equal(meta.nmeta, 5);
    assert_string_equal(meta.meta[0].value, "cs sync");
    assert_string_equal(meta.meta[1].key, "link_1_s");
    assert_string_equal(meta.meta[2].key, "link_s_1");
    assert_string_equal(meta.meta[2].value, "none");
    assert_string_equal(meta.meta[4].value, "delay 20ms");
    ec.topology = ROUTE_P2P;
    ec.link[0] = &up;
    memset(&meta, 0, sizeof meta);
    assert_true(raceheader_add(&meta, &ec));
    assert_int_equal(meta.nmeta, 2);
    assert_string_equal(meta.meta[0].key, "link12");
    assert_string_equal(meta.meta[0].value, "delay 10ms");
    assert_string_equal(meta.meta[1].key, "link21");
    assert_string_equal(meta.meta[1].value, "none");
    linkspec_free(&up);
    linkspec_free(&down);
}

/* Older recordings: link12 / link21 (a 4-car play recording had only
 * them) and a merge's link_out_N; a line's own key wins over both. */
static void older_keys(void **state)
{
    (void)state;
    Recording rec;
    read_text(&rec, 4,
              "# topology: p2p\n# link12: delay 7ms\n# link_out_1: delay 9ms\n# link_out_3: delay 3ms\n"
              "# link_3_2: delay 1ms\n");
    RaceHeader h;
    NrError err = {{0}};
    assert_true(raceheader_read(&h, &rec, "r.csv", &err));
    assert_string_equal(linkmatrix_get(&h.lines, 0, 1)->text, "delay 7ms");
    assert_string_equal(linkmatrix_get(&h.lines, 0, 3)->text, "delay 9ms");
    assert_string_equal(linkmatrix_get(&h.lines, 2, 1)->text, "delay 1ms");
    assert_string_equal(linkmatrix_get(&h.lines, 2, 0)->text, "delay 3ms");
    assert_null(linkmatrix_get(&h.lines, 1, 0));
    raceheader_free(&h);
    recording_free(&rec);
    /* a recording without any: nothing, no error */
    read_text(&rec, 2, "# scheme: nc\n");
    assert_true(raceheader_read(&h, &rec, "r.csv", &err));
    assert_false(h.have_topology);
    assert_int_equal(h.clock_set, 0);
    raceheader_free(&h);
    recording_free(&rec);
}

/* Each bad line: one message with the file, its line (the header's 6th
 * line is the first extra one), the key and the value. */
static void bad_lines(void **state)
{
    (void)state;
    char m[512];
    header_error(3, "# link_2_3: delay 5 parsecs\n", m, sizeof m);
    assert_non_null(strstr(m, "r.csv:6: link_2_3 'delay 5 parsecs': "));
    header_error(3, "# scheme: nc\n# link_1_4: delay 5ms\n", m, sizeof m);
    assert_string_equal(m, "r.csv:7: link_1_4 'delay 5ms': no such terminal in this recording");
    header_error(3, "# link_9_1: delay 5ms\n", m, sizeof m);
    assert_non_null(strstr(m, "r.csv:6: link_9_1 'delay 5ms': expected link_I_J"));
    header_error(3, "# link_2_s: delay 5ms\n", m, sizeof m);
    assert_string_equal(m, "r.csv:6: link_2_s 'delay 5ms': a server's line in a p2p race");
    header_error(3, "# topology: cs relay\n# link_1_2: delay 5ms\n", m, sizeof m);
    assert_string_equal(m, "r.csv:7: link_1_2 'delay 5ms': a p2p line in a client-server race");
    header_error(3, "# topology: mesh\n", m, sizeof m);
    assert_string_equal(m, "r.csv:6: topology 'mesh': expected p2p, cs relay or cs sync");
    header_error(3, "# clock_2: 5ms\n", m, sizeof m);
    assert_non_null(strstr(m, "r.csv:6: clock_2 '5ms': expected OFFSET_MS[,DRIFT_PPM]"));
    header_error(3, "# clock_4: 5\n", m, sizeof m);
    assert_string_equal(m, "r.csv:6: clock_4 '5': no such terminal in this recording");
    header_error(3, "# clock_1: 5,1e9\n", m, sizeof m);
    assert_non_null(strstr(m, "r.csv:6: clock_1 '5,1e9': expected"));
    header_error(3, "# delta_ms: 4001\n", m, sizeof m);
    assert_string_equal(m, "r.csv:6: delta_ms '4001': expected a whole number of ms, 0 to 4000");
    header_error(3, "# tdr_cw: -1\n", m, sizeof m);
    assert_string_equal(m, "r.csv:6: tdr_cw '-1': expected car widths, 0 to 1000");
    header_error(3, "# converge_ms: 1.5\n", m, sizeof m);
    assert_string_equal(m, "r.csv:6: converge_ms '1.5': expected a whole number of ms, 0 to 10000");
    header_error(3, "# seed: 18446744073709551616\n", m, sizeof m);
    assert_string_equal(m, "r.csv:6: seed '18446744073709551616': expected a non-negative whole number");
    header_error(3, "# seed: 18446744073709551615\n# seed: x\n", m, sizeof m); /* the first of a repeated key */
    assert_string_equal(m, "");
    header_error(3, "# link_out_5: delay 5ms\n", m, sizeof m);
    assert_string_equal(m, "r.csv:6: link_out_5 'delay 5ms': no such terminal in this recording");
    /* keys of no line's shape are not the matrix's: kept, ignored */
    header_error(3, "# links: whatever\n# link_note: x\n# clock: raw\n", m, sizeof m);
    assert_string_equal(m, "");
}

/* Eight cars p2p with every clock set: 56 lines, 8 clocks and the rest of
 * a study's header fit (RECORDING_MAX_META). */
static void eight_cars_fit(void **state)
{
    (void)state;
    EngineConfig ec;
    memset(&ec, 0, sizeof ec);
    ec.ncars = 8;
    for (int i = 0; i < 8; i++)
        ec.clock[i] = (TerminalClock){i * 1000 + 1, 0.5};
    Recording meta;
    memset(&meta, 0, sizeof meta);
    assert_true(raceheader_add(&meta, &ec));
    assert_int_equal(meta.nmeta, 1 + 56 + 8);
    const char *more[] = {"scheme", "delta_ms", "tdr_cw", "converge_ms", "seed", "clock", "study", "pair",
                          "race", "condition", "race_kind"};
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
        assert_true(recording_meta_add(&meta, more[i], "1"));
    assert_string_equal(meta.meta[1 + 56 + 7].value, "7.001,0.5");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(p2p_round_trip), cmocka_unit_test(cs_and_two_players), cmocka_unit_test(older_keys),
        cmocka_unit_test(bad_lines),      cmocka_unit_test(eight_cars_fit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
