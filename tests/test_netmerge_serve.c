/* The server's log in the merge of a served race (`serve --log`,
 * netmerge_serve.c): hand-written logs of a 2-car race, each hop's delay
 * worked by hand for relay and sync, the downlinks' condition, and the
 * logs refused: a server's log of another race, of another car count, a
 * client's log as the server's, a server's log with own rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "link.h"
#include "linkmatrix.h"
#include "netmerge.h"

#define HEAD(role, car)                                                                                        \
    "# netlog: 1\n# role: " role "\n# car: " car "\n# session: 00c0ffee\n# track: Oval\n# period_ms: 33\n"      \
    "# schemes: nc\n# delta_ms: 100\n# cars: 2\n# topology: cs %s\n"
#define COLS                                                                                                   \
    "# columns own: row,seq,t_sync_us,taken_sync_us,taken_local_us,x,y,heading,speed\n"                         \
    "# columns rx: row,pkt_seq,kind,arr_local_us,arr_sync_us,send_sync_us,car,seq,mu_kind,schemes,bytes\n"
#define OWN "own,0,0,0,0,1,2,0,0\nown,1,33000,33000,0,1,2,0,0\nown,2,66000,66000,0,1,2,0,0\n"

/* Car 1's MU seq 1 (its packet 7) reaches the server at 45 ms and car 2
 * at 180 ms; seq 2 (packet 8) reaches car 2 at 220 ms but is not in the
 * server's log (cut short). Car 2's seq 0 (packet 3) reaches the server
 * 50 us before its sample (the clocks' error) and car 1 at 106 ms. */
static const char *SERVER = HEAD("server", "0") "# link: none\n# link_s_2: delay 40ms\n" COLS
    "rx,7,mu,0,45000,33000,1,1,0,1,40\nrx,3,mu,0,-50,0,2,0,0,1,40\n";
static const char *CAR1 = HEAD("client", "1") "# link: delay 10ms\n" COLS OWN "rx,3,mu,0,106000,0,2,0,0,1,40\n";
static const char *CAR2 = HEAD("client", "2") "# link: none\n" COLS OWN
    "rx,7,mu,0,180000,33000,1,1,0,1,40\nrx,8,mu,0,220000,66000,1,2,0,1,40\n";

static bool read_log(TermLog *log, const char *fmt, const char *mode, const char *name, NrError *err)
{
    char text[4096];
    snprintf(text, sizeof text, fmt, mode);
    FILE *f = fmemopen(text, strlen(text), "rb");
    assert_non_null(f);
    bool ok = termlog_read(log, f, name, err);
    fclose(f);
    return ok;
}

static void load(TermLog *s, TermLog *c, const char *mode)
{
    NrError err = {{0}};
    if (!read_log(s, SERVER, mode, "s.log", &err) || !read_log(&c[0], CAR1, mode, "c1.log", &err) ||
        !read_log(&c[1], CAR2, mode, "c2.log", &err))
        fail_msg("%s", err.msg);
}

/* The rows of netmerge_hops (after the end-to-end ones: none here). */
static void hops(const char *mode, int64_t want[4][3])
{
    TermLog s, c[2];
    load(&s, c, mode);
    const TermLog *lp[2] = {&c[0], &c[1]};
    NrError err = {{0}};
    if (!netmerge_check_server(&s, lp, 2, &err))
        fail_msg("%s", err.msg);
    NetDelayRow *rows = NULL;
    int64_t n = 0;
    assert_true(netmerge_hops(&s, lp, 2, &rows, &n, &err));
    /* 1s seq 1, 2s seq 0, 1s2 seq 1, 2s1 seq 0 (car 1's seq 2: no server row, no hop) */
    assert_int_equal(n, 4);
    const int hop[4] = {NETMERGE_UP, NETMERGE_UP, NETMERGE_DOWN, NETMERGE_DOWN};
    const int from[4] = {1, 2, 1, 2}, to[4] = {0, 0, 2, 1};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(rows[i].hop, hop[i]);
        assert_int_equal(rows[i].from, from[i]);
        assert_int_equal(rows[i].to, to[i]);
        assert_int_equal(rows[i].sent_us, want[i][0]);
        assert_int_equal(rows[i].arrival_us, want[i][1]);
        assert_int_equal(rows[i].delay_us, want[i][2]);
    }
    char buf[2048] = "";
    FILE *f = fmemopen(buf, sizeof buf, "w");
    assert_true(netmerge_write_delays(f, "nc", rows, n));
    fclose(f);
    assert_non_null(strstr(buf, "\n1s,1,update,7,1,"));
    assert_non_null(strstr(buf, "\n2s1,0,update,3,1,"));
    free(rows);
    termlog_free(&s);
    termlog_free(&c[0]);
    termlog_free(&c[1]);
}

/* relay: uplink = arrival at the server - sample; downlink = arrival at
 * the client - the server's arrival (no earlier than the sample: 0 for
 * car 2's early one). */
static void relay_hops_by_hand(void **state)
{
    (void)state;
    int64_t want[4][3] = {{33000, 45000, 12000}, {0, -50, -50}, {45000, 180000, 135000}, {0, 106000, 106000}};
    hops("relay", want);
}

/* sync (Delta 100 ms): the server puts each MU out at its sample + 100 ms
 * (later than its arrival here): 133 ms and 100 ms. */
static void sync_hops_by_hand(void **state)
{
    (void)state;
    int64_t want[4][3] = {{33000, 45000, 12000}, {0, -50, -50}, {133000, 180000, 47000}, {100000, 106000, 6000}};
    hops("sync", want);
}

/* The recording's downlinks: the server's link_s_2, its link for car 1. */
static void downlinks_in_the_header(void **state)
{
    (void)state;
    TermLog s, c[2];
    load(&s, c, "relay");
    const TermLog *lp[2] = {&c[0], &c[1]};
    NrError err = {{0}};
    Recording rec;
    if (!netmerge_recording_all(lp, 2, &rec, &err))
        fail_msg("%s", err.msg);
    assert_true(netmerge_server_links(&s, 2, &rec));
    const char *want[4][2] = {{"link_1_s", "delay 10ms"}, {"link_2_s", "none"}, {"link_s_1", "none"},
                              {"link_s_2", "delay 40ms"}};
    for (int k = 0; k < 4; k++) {
        int hit = 0;
        for (int i = 0; i < rec.nmeta; i++)
            if (strcmp(rec.meta[i].key, want[k][0]) == 0) {
                assert_string_equal(rec.meta[i].value, want[k][1]);
                hit++;
            }
        assert_int_equal(hit, 1);
    }
    recording_free(&rec);
    termlog_free(&s);
    termlog_free(&c[0]);
    termlog_free(&c[1]);
}

static void expect_refused(const char *srv_text, const char *mode, const char *msg)
{
    TermLog s, c[2];
    NrError err = {{0}};
    load(&s, c, "relay");
    termlog_free(&s);
    if (!read_log(&s, srv_text, mode, "s.log", &err)) {
        assert_non_null(strstr(err.msg, msg));
    } else {
        const TermLog *lp[2] = {&c[0], &c[1]};
        assert_false(netmerge_check_server(&s, lp, 2, &err));
        if (!strstr(err.msg, msg))
            fail_msg("'%s' does not say '%s'", err.msg, msg);
        termlog_free(&s);
    }
    termlog_free(&c[0]);
    termlog_free(&c[1]);
}

static void bad_server_logs(void **state)
{
    (void)state;
    char other[2048];
    snprintf(other, sizeof other, "%s", SERVER);
    memcpy(strstr(other, "00c0ffee"), "00beef00", 8);
    expect_refused(other, "relay", "the server's log is of another race (session 00beef00; the clients': 00c0ffee)");
    expect_refused(SERVER, "sync", "differs from the clients'");
    expect_refused(CAR1, "relay", "not a server's log (role client)");
    char own[2048];
    snprintf(own, sizeof own, "%s%s", SERVER, "own,0,0,0,0,1,2,0,0\n");
    expect_refused(own, "relay", "s.log:");
    expect_refused(own, "relay", "own row in a server's log");
    char car[2048];
    snprintf(car, sizeof car, "%s", SERVER);
    memcpy(strstr(car, "# car: 0"), "# car: 1", 8);
    expect_refused(car, "relay", "a server's log has car 0");
    char down[2048];
    snprintf(down, sizeof down, "%s", CAR1);
    memcpy(strstr(down, "# link: "), "# link_s_2:", 11);
    expect_refused(down, "relay", "the downlinks are the server's");
}

/* The hops' directions in a delays file and a trace spec (docs/link.md
 * "Trace"): Is, IsJ, sJ read and written back; a cs downlink sJ taken per
 * sender as IsJ; what is none of them refused. */
static void hop_directions(void **state)
{
    (void)state;
    const struct {
        const char *text;
        int code;
    } ok[] = {{"12", 12}, {"87", 87}, {"1s", 19}, {"8s", 89}, {"s3", 93}, {"2s3", 293}, {"8s1", 891}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        assert_int_equal(linktrace_direction(ok[i].text), ok[i].code);
        char back[8];
        linktrace_direction_text(ok[i].code, back, sizeof back);
        assert_string_equal(back, ok[i].text);
    }
    const char *bad[] = {"11", "19", "9s", "s9", "s0", "1s1", "ss", "s", "1s23", "0s1", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(linktrace_direction(bad[i]), 0);
    /* a delays file of car 1's MUs through the server to car 3: 2s3 taken
     * by the line of car 2's MUs (through the spec's s3), not 1s3's */
    char path[] = "/tmp/nr_hops_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("direction,seq,delay_us\n1s3,0,5000\n2s3,0,7000\n2s,0,1000\n", f);
    fclose(f);
    char spec_text[128];
    snprintf(spec_text, sizeof spec_text, "trace %s direction s3", path);
    LinkSpec down, via;
    NrError err = {{0}};
    if (!linkspec_parse(&down, spec_text, NULL, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(down.trace.named, 93);
    assert_non_null(strstr(down.text, " direction s3"));
    remove(path); /* each sender's rows were read with the downlink's: no second read */
    const int32_t hop_us[2] = {5000, 7000};
    for (int from = 1; from <= 2; from++) {
        if (!linkspec_via_server(&down, from, &via, &err))
            fail_msg("%s", err.msg);
        assert_int_equal(via.trace.named, from * 100 + 93);
        char want[64];
        snprintf(want, sizeof want, " direction %ds3", from);
        assert_non_null(strstr(via.text, want));
        LinkDraw d;
        Link l;
        link_init(&l, &via, 1, 0);
        link_draw(&l, &d);
        assert_false(d.lost);
        assert_int_equal(d.delay_us, hop_us[from - 1]);
        link_free(&l);
        linkspec_free(&via);
    }
    assert_false(linkspec_via_server(&down, 3, &via, &err)); /* car 3's own downlink has no sender 3 */
    assert_string_equal(via.text, "none");
    linkspec_free(&down);
    f = fopen(path, "w");
    fputs("direction,seq,delay_us\n1s3,0,5000\n2s3,0,7000\n2s,0,1000\n", f);
    fclose(f);
    /* in a link matrix sJ goes on the downlink s-J alone */
    LinkMatrix mx;
    linkmatrix_init(&mx);
    assert_true(linkmatrix_set(&mx, "s-3", spec_text, "--link", &err));
    assert_true(linkmatrix_check(&mx, 3, LINKMATRIX_CS, false, &err));
    assert_true(linkmatrix_set(&mx, "s-2", spec_text, "--link", &err));
    assert_false(linkmatrix_check(&mx, 3, LINKMATRIX_CS, false, &err));
    assert_string_equal(err.msg, "--link: link s-2: direction s3 names the downlink s-3 (each sender I takes its "
                                 "rows Is3 there): give it on line s-3");
    linkmatrix_free(&mx);
    remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(relay_hops_by_hand),
        cmocka_unit_test(sync_hops_by_hand),
        cmocka_unit_test(downlinks_in_the_header),
        cmocka_unit_test(bad_server_logs),
        cmocka_unit_test(hop_directions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
