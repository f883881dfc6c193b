/* Merging two terminal logs (docs/netlog.md): small logs written by hand,
 * the recording checked field by field, the delays by hand, bad logs
 * refused with one line naming the file and line. */
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
#include "netmerge.h"

/* The hand-made logs tests/data/net-host.log and net-join.log.
 *
 * The host (car 1): 4 own samples; sent updates 0..3 and a parity packet
 * of seq 2; received car 2's updates 0 (at 41 ms), 1 (at 33 + 35 ms), 3
 * twice (at 99 + 30 and 99 + 52 ms) - 2 was lost - and a clock packet.
 *
 * The joiner (car 2): 3 own samples (its log ends first); received the
 * host's updates 0 (at 25 ms), 1 (at 33 + 40 ms, after 2's parity packet at
 * 66 + 1 ms: reordered), the parity of 2 and, past its own end, 3. */
static char HOST[4096], JOINER[4096];

static void slurp(const char *name, char *buf, size_t n)
{
    const char *src = getenv("NETRACE_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/%s", src ? src : ".", name);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s (set NETRACE_SOURCE_DIR)", path);
    size_t got = fread(buf, 1, n - 1, f);
    buf[got] = '\0';
    fclose(f);
}

static int load_fixtures(void **state)
{
    (void)state;
    slurp("net-host.log", HOST, sizeof HOST);
    slurp("net-join.log", JOINER, sizeof JOINER);
    return 0;
}

static char *edit(const char *text, const char *from, const char *to);

static bool read_log(TermLog *log, const char *text, const char *name, NrError *err)
{
    FILE *f = fmemopen((void *)text, strlen(text), "rb");
    assert_non_null(f);
    bool ok = termlog_read(log, f, name, err);
    fclose(f);
    return ok;
}

static void load_pair(TermLog *h, TermLog *j)
{
    NrError err = {{0}};
    if (!read_log(h, HOST, "host.log", &err) || !read_log(j, JOINER, "join.log", &err))
        fail_msg("%s", err.msg);
}

static void reads_the_header_and_rows(void **state)
{
    (void)state;
    TermLog h, j;
    load_pair(&h, &j);
    assert_true(h.host);
    assert_false(j.host);
    assert_int_equal(h.car, 1);
    assert_int_equal(j.car, 2);
    assert_string_equal(h.token, "00c0ffee12345678"); /* lower-cased */
    assert_int_equal(h.period_ms, 33);
    assert_string_equal(h.track_file, "default.track");
    assert_int_equal(h.nown, 4);
    assert_int_equal(j.nown, 3);
    assert_int_equal(h.nrx, 4); /* the sync_resp row is not an MU */
    assert_int_equal(h.ntx, 5);
    assert_int_equal(j.nrx, 4);
    assert_int_equal(h.nmetrics, 1);
    assert_string_equal(h.metrics[0].scheme, "nc");
    assert_string_equal(h.metrics[0].key, "inconsistency");
    assert_true(h.metrics[0].value == 0.25);
    assert_false(h.cut);
    termlog_free(&h);
    termlog_free(&j);
    /* Rows of types the merge does not read are skipped unread, whatever
     * their field count (an event's free text). */
    char *text = edit(HOST, "event,5000000,0,start,0\n", "event,5000000,0,pause,peer silent, 3 s\n");
    NrError err = {{0}};
    if (!read_log(&h, text, "host.log", &err))
        fail_msg("%s", err.msg);
    assert_int_equal(h.nown, 4);
    termlog_free(&h);
    free(text);
}

static void recording_field_by_field(void **state)
{
    (void)state;
    TermLog h, j;
    load_pair(&h, &j);
    NrError err = {{0}};
    assert_true(netmerge_check(&j, &h, &err));
    assert_int_equal(netmerge_samples(&h, &j), 3);
    Recording rec;
    assert_true(netmerge_recording(&j, &h, &rec, &err)); /* either order */
    assert_int_equal(rec.version, RECORDING_VERSION);
    assert_string_equal(rec.source, "network");
    assert_string_equal(rec.track, "default.track");
    assert_string_equal(rec.created, "2026-11-23T15:00:00Z"); /* the host's */
    assert_int_equal(rec.period_ms, 33);
    assert_int_equal(rec.ncars, 2);
    assert_int_equal(rec.nsamples, 3);
    const RecSample want[2][3] = {
        {{0, -3.0, 2.0, 0.0, 0.0}, {33, -2.9963, 2.0, -0.0011, 0.17}, {66, -2.9866, 2.0, -0.004, 0.356}},
        {{0, -6.0, -2.0, 0.0, 0.0}, {33, -5.9963, -2.0, 0.0011, 0.167}, {66, -5.9866, -2.0, 0.004, 0.35}},
    };
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < 3; i++) {
            const RecSample *s = recording_at(&rec, c, i);
            assert_int_equal(s->t_ms, want[c][i].t_ms);
            assert_true(s->x == want[c][i].x && s->y == want[c][i].y);
            assert_true(s->heading == want[c][i].heading && s->speed == want[c][i].speed);
        }
    /* It saves and loads back as a recording like any other. */
    char path[] = "/tmp/nr_merge_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
    assert_true(recording_save(&rec, path, &err));
    Recording back;
    if (!recording_load(&back, path, &err))
        fail_msg("%s", err.msg);
    assert_string_equal(back.source, "network");
    assert_int_equal(back.nsamples, 3);
    assert_true(recording_at(&back, 1, 2)->x == -5.9866);
    recording_free(&back);
    recording_free(&rec);
    unlink(path);
    termlog_free(&h);
    termlog_free(&j);
}

static void delays_by_hand(void **state)
{
    (void)state;
    TermLog h, j;
    load_pair(&h, &j);
    NrError err = {{0}};
    NetDelayRow *rows;
    int64_t n;
    assert_true(netmerge_delays(&h, &j, &rows, &n, &err));
    /* Seqs below 3 (the samples merged): 12 (received by the joiner):
     * 0 at 25 ms, 1 at 73 - 33 = 40 ms, parity of 2 at 67 - 66 = 1 ms; seq 3
     * is past the race. 21 (received by the host): 0 at 41 ms, 1 at 35 ms. */
    const NetDelayRow want[] = {
        {0, 1, 2, 0, 0, 1, 3, 0, 25000, 25000, 0},    {0, 1, 2, 1, 0, 2, 3, 33000, 73000, 40000, 0},
        {0, 1, 2, 2, 1, 4, 2, 66000, 67000, 1000, 0}, {1, 2, 1, 0, 0, 1, 3, 0, 41000, 41000, 0},
        {1, 2, 1, 1, 0, 2, 3, 33000, 68000, 35000, 0},
    };
    assert_int_equal(n, 5);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(rows[i].dir, want[i].dir);
        assert_int_equal(rows[i].from, want[i].from);
        assert_int_equal(rows[i].to, want[i].to);
        assert_int_equal(rows[i].seq, want[i].seq);
        assert_int_equal(rows[i].parity, want[i].parity);
        assert_int_equal(rows[i].pkt_seq, want[i].pkt_seq);
        assert_int_equal(rows[i].schemes, want[i].schemes);
        assert_int_equal(rows[i].sent_us, want[i].sent_us);
        assert_int_equal(rows[i].arrival_us, want[i].arrival_us);
        assert_int_equal(rows[i].delay_us, want[i].delay_us);
    }
    /* Written out, it reads back as a trace: the fates of each direction. */
    char *buf = NULL;
    size_t len = 0;
    FILE *w = open_memstream(&buf, &len);
    assert_true(netmerge_write_delays(w, "nc,epp-xd", rows, n));
    fclose(w);
    FILE *r = fmemopen(buf, len, "rb");
    LinkTrace t;
    if (!linktrace_read(&t, r, "delays.csv", &err))
        fail_msg("%s", err.msg);
    fclose(r);
    LinkDraw d;
    linktrace_fate(&t, 0, 1, false, &d);
    assert_false(d.lost);
    assert_int_equal(d.delay_us, 40000);
    linktrace_fate(&t, 0, 2, false, &d); /* the update of seq 2 never arrived */
    assert_true(d.lost);
    linktrace_fate(&t, 0, 2, true, &d); /* its parity packet did */
    assert_int_equal(d.delay_us, 1000);
    linktrace_fate(&t, 1, 2, false, &d);
    assert_true(d.lost);
    linktrace_free(&t);
    free(buf);
    free(rows);
    /* Counters of seqs below 3: 12 sent 0, 1, 2 and a parity (4), the
     * joiner received 3 distinct; 21 sent 0, 1, 2, received 0, 1. */
    NetCounts k;
    assert_true(netmerge_counts(&h, &j, 0, &k));
    assert_int_equal(k.sent, 4);
    assert_int_equal(k.received, 3);
    assert_int_equal(k.lost, 1);
    assert_true(netmerge_counts(&h, &j, 1, &k));
    assert_int_equal(k.sent, 3);
    assert_int_equal(k.received, 2);
    assert_int_equal(k.extra_copies, 0);
    assert_int_equal(k.lost, 1);
    termlog_free(&h);
    termlog_free(&j);
}

/* Replaces the first occurrence of `from` in HOST or JOINER with `to`. */
static char *edit(const char *text, const char *from, const char *to)
{
    const char *p = strstr(text, from);
    assert_non_null(p);
    char *out = malloc(strlen(text) + strlen(to) + 1);
    size_t pre = (size_t)(p - text);
    memcpy(out, text, pre);
    strcpy(out + pre, to);
    strcat(out, p + strlen(from));
    return out;
}

static void expect_bad_log(const char *base, const char *from, const char *to, const char *msg)
{
    char *text = edit(base, from, to);
    TermLog log;
    NrError err = {{0}};
    assert_false(read_log(&log, text, "x.log", &err));
    assert_int_equal(log.nown, 0);
    assert_null(log.own);
    if (strcmp(err.msg, msg) != 0)
        fail_msg("got '%s', expected '%s'", err.msg, msg);
    free(text);
}

static void bad_logs(void **state)
{
    (void)state;
    expect_bad_log(HOST, "# netlog: 1\n", "# netlog: 2\n", "x.log:1: netlog version '2': this netrace reads version 1");
    expect_bad_log(HOST, "# netlog: 1\n", "# role: host\n",
                   "x.log:1: expected '# netlog: 1' first: not a terminal log");
    expect_bad_log(HOST, "# netlog: 1\n", "t_ms,car,x\n", "x.log:1: expected '# netlog: 1' first: not a terminal log");
    /* refused at line 1, before reading on (a bad line 2 is never reached) */
    expect_bad_log(HOST, "# netlog: 1\n", "# note\n# car: 3\n",
                   "x.log:1: expected '# netlog: 1' first: not a terminal log");
    expect_bad_log(HOST, "# car: 1\n", "# car: 9\n", "x.log:3: car '9': expected 1 to 8 (a server's log: 0)");
    /* fuzz finding: a car past the race's count (2 when '# cars:' is absent)
     * was taken, and merge's pair of a two-car log lost its other car */
    expect_bad_log(HOST, "# car: 1\n", "# car: 3\n", "x.log:16: car 3: the header's race has 2 cars ('# cars:', 2 when absent)");
    expect_bad_log(HOST, "# role: host\n", "# role: referee\n",
                   "x.log:2: role 'referee': expected host, joiner, client or server");
    expect_bad_log(HOST, "# role: host\n", "# role: server\n", /* a p2p host's log called a server's */
                   "x.log:16: role server: a served race's, but its topology is 'p2p' (expected cs relay or cs sync)");
    /* a client is a served race's (`netrace serve`): its log says cs */
    expect_bad_log(HOST, "# role: host\n", "# role: client\n",
                   "x.log:16: role client: a served race's, but its topology is 'p2p' (expected cs relay or cs sync)");
    expect_bad_log(HOST, "# token: 00C0FFEE12345678\n", "# token: 0000\n",
                   "x.log:5: token '0000': expected 1 to 16 hex digits, not 0");
    expect_bad_log(HOST, "# period_ms: 33\n", "# period_ms: 0\n", "x.log:8: period_ms '0': expected 1 to 1000");
    expect_bad_log(HOST, "# period_ms: 33\n", "", "x.log:15: no '# period_ms:' in the header");
    expect_bad_log(HOST, "own,1,33000,", "own,2,66000,",
                   "x.log:20: own seq 2: expected 1 (own samples in order from 0)");
    expect_bad_log(HOST, "own,1,33000,", "own,1,34000,",
                   "x.log:20: own seq 1: t_sync_us 34000, expected seq * period = 33000");
    expect_bad_log(HOST, "-2.9963,2.0000", "nan,2.0000", "x.log:20: own x 'nan': expected a finite number");
    expect_bad_log(HOST, "rx,2,mu,5068000,68000,33000,2,1,0,3,152\n", "rx,2,mu,5068000,68000,33000,1,1,0,3,152\n",
                   "x.log:22: rx of an MU of car 1: that is this log's own car");
    expect_bad_log(HOST, "rx,2,mu,5068000,68000,33000,", "rx,2,mu,5068000,68000,33001,",
                   "x.log:22: rx seq 1: send_sync_us 33001, expected seq * period = 33000");
    expect_bad_log(HOST, "rx,2,mu,5068000,68000,", "rx,2,mu,5068000,6680008000,",
                   "x.log:22: rx seq 1: arr_sync_us 6680008000 is 6679975000 us after its sample: expected a "
                   "one-way delay within +-2147483647 us");
    expect_bad_log(HOST, "tx,2,1,0,3,33000,33050\n", "tx,2,1,7,3,33000,33050\n",
                   "x.log:21: tx mu_kind '7': expected an integer from 0 to 1");
    expect_bad_log(HOST, "own,0,0,12,5000012,-3.0000,2.0000,0.0000,0.000\n", "own,0,0,12\n",
                   "x.log:17: own row has 4 fields: expected 9 as its columns line says");
    expect_bad_log(HOST, "event,5000000,0,start,0\n", "lap,1,2\n",
                   "x.log:16: row type 'lap' has no '# columns lap:' line before it");
    expect_bad_log(HOST, "# columns own: row,seq,t_sync_us,", "# columns own: row,seq,t_us,",
                   "x.log:11: columns of 'own' lack 't_sync_us'");
    expect_bad_log(HOST, "metric,nc,inconsistency,0.25\n", "metric,nc,inconsistency,inf\n",
                   "x.log:31: metric nc inconsistency value 'inf': expected a finite number");
    expect_bad_log(JOINER, "own,0,0,9,909,-6.0000,-2.0000,0.0000,0.000\n", "",
                   "x.log:13: own seq 1: expected 0 (own samples in order from 0)");
    /* A log with a header only. */
    const char *head = "# netlog: 1\n# role: host\n";
    TermLog log;
    NrError err = {{0}};
    assert_false(read_log(&log, head, "h.log", &err));
    assert_string_equal(err.msg, "h.log:2: no own samples: expected 'own' rows from seq 0");
}

/* The race's condition from the logs' headers and the players' marks from
 * their mark rows (netsession_mark) land in the recording: scheme (the
 * host's shown), link12 and link21 (what each end put on its sends),
 * delta_ms, tdr_cw, converge_ms, seed, clock; marks in time order with the
 * car of their log. The fixtures have neither: their recording has none. */
static void condition_and_marks(void **state)
{
    (void)state;
    const char *cond = "# shown: dr\n# delta_ms: 100\n# tdr_cw: 0.25\n# converge_ms: 0\n# seed: 77\n"
                       "# link: delay 200ms 30ms distribution paretonormal\n# clock: synchronised\n"
                       "# track: Default Circuit\n# columns mark: row,local_us,sync_us,kind\n";
    char *h1 = edit(HOST, "# track: Default Circuit\n", cond);
    char *h = edit(h1, "own,2,66000,", "mark,5066500,66500,dissatisfied\nown,2,66000,");
    char *j1 = edit(JOINER, "# track: Default Circuit\n",
                    "# shown: dr\n# link: none\n# track: Default Circuit\n"
                    "# columns event: row,local_us,sync_us,what,detail\n"
                    "# columns mark: row,local_us,sync_us,kind\n");
    char *j = edit(j1, "own,1,33000,",
                   "mark,40000,40000,dissatisfied\nevent,41000,,pause,peer\nmark,40900,40900,mark\nown,1,33000,");
    TermLog lh, lj;
    NrError err = {{0}};
    if (!read_log(&lh, h, "host.log", &err) || !read_log(&lj, j, "join.log", &err))
        fail_msg("%s", err.msg);
    assert_int_equal(lh.nmarks, 1);
    assert_int_equal(lj.nmarks, 2);
    Recording rec;
    assert_true(netmerge_recording(&lh, &lj, &rec, &err));
    const char *want[][2] = {{"scheme", "dr"}, {"link12", "delay 200ms 30ms distribution paretonormal"},
                             {"link21", "none"}, {"delta_ms", "100"}, {"tdr_cw", "0.25"},
                             {"converge_ms", "0"}, {"seed", "77"}, {"clock", "synchronised"}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const char *v = recording_meta_get(&rec, want[i][0]);
        if (!v || strcmp(v, want[i][1]) != 0)
            fail_msg("%s: '%s', expected '%s'", want[i][0], v ? v : "(none)", want[i][1]);
    }
    assert_int_equal(rec.nmarks, 3); /* the joiner's two (40 ms), then the host's (66 ms) */
    assert_true(rec.marks[0].t_ms == 40 && rec.marks[0].player == 2);
    assert_string_equal(rec.marks[0].kind, "dissatisfied");
    assert_true(rec.marks[1].t_ms == 40 && rec.marks[1].player == 2);
    assert_string_equal(rec.marks[1].kind, "mark");
    assert_true(rec.marks[2].t_ms == 66 && rec.marks[2].player == 1);
    assert_string_equal(rec.marks[2].kind, "dissatisfied");
    recording_free(&rec);
    /* a mark that is not one: its line named */
    char *bad = edit(h, "66500,dissatisfied", "66500,Not Happy");
    TermLog lb;
    assert_false(read_log(&lb, bad, "bad.log", &err));
    assert_non_null(strstr(err.msg, "bad.log:"));
    assert_non_null(strstr(err.msg, "mark 'Not Happy'"));
    termlog_free(&lh);
    termlog_free(&lj);
    TermLog fh, fj;
    load_pair(&fh, &fj);
    assert_true(netmerge_recording(&fh, &fj, &rec, &err));
    assert_int_equal(rec.nmeta, 0);
    assert_int_equal(rec.nmarks, 0);
    recording_free(&rec);
    termlog_free(&fh);
    termlog_free(&fj);
    free(h1), free(h), free(j1), free(j), free(bad);
}

/* A killed writer: the last line is cut; the log reads up to the line
 * before and says it was cut. */
/* The mark key's rows (issue 22): read from each log, merged into the
 * recording labelled by role, a countdown mark at 0; logs without them
 * (the fixtures as they were) merge with none. */
static void marks_merge_into_the_recording(void **state)
{
    (void)state;
    TermLog h, j;
    load_pair(&h, &j);
    assert_int_equal(h.nmarks, 0);
    Recording rec;
    NrError err = {{0}};
    assert_true(netmerge_recording(&h, &j, &rec, &err));
    assert_int_equal(rec.nmarks, 0);
    recording_free(&rec);
    termlog_free(&h);
    termlog_free(&j);
    char *h1 = edit(HOST, "# columns metric: row,scheme,key,value\n",
                    "# columns metric: row,scheme,key,value\n# columns mark: row,local_us,sync_us\n");
    char *h2 = edit(h1, "own,1,33000,", "mark,3800000,-1200000\nmark,5040600,40600\nown,1,33000,");
    char *j1 = edit(JOINER, "# columns tx:", "# columns mark: row,local_us,sync_us\n# columns tx:");
    char *j2 = edit(j1, "own,2,66000,", "mark,7066999,66999\nown,2,66000,");
    if (!read_log(&h, h2, "host.log", &err) || !read_log(&j, j2, "join.log", &err))
        fail_msg("%s", err.msg);
    assert_int_equal(h.nmarks, 2);
    assert_int_equal(h.marks[0].t_ms, 0); /* in the countdown: at 0 */
    assert_int_equal(j.nmarks, 1);
    assert_true(netmerge_recording(&j, &h, &rec, &err));
    assert_int_equal(rec.nmarks, 3);
    static const int64_t want_t[] = {0, 40, 66};
    static const int want_p[] = {1, 1, 2};
    for (int i = 0; i < 3; i++) { /* logs of the first release: no kind column, the key's "mark" */
        assert_int_equal(rec.marks[i].t_ms, want_t[i]);
        assert_int_equal(rec.marks[i].player, want_p[i]);
        assert_string_equal(rec.marks[i].kind, "mark");
    }
    recording_free(&rec);
    termlog_free(&h);
    char *bad = edit(h2, "mark,5040600,40600", "mark,5040600,soon");
    assert_false(read_log(&h, bad, "x.log", &err));
    assert_non_null(strstr(err.msg, "mark sync_us 'soon': expected an integer"));
    free(bad);
    free(h1);
    free(h2);
    free(j1);
    free(j2);
    termlog_free(&j);
}

/* Input rows (docs/netlog.md): each log's own car's inputs, into one input
 * script with the log's car as the player, read back as written; a log
 * without them (older) gives no inputs file; bad rows refused by name. */
static void inputs_merge_into_a_script(void **state)
{
    (void)state;
    TermLog h, j;
    NrError err = {{0}};
    load_pair(&h, &j);
    const TermLog *lp[2] = {&h, &j};
    char path[] = "/tmp/test_netmerge_inputs_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    remove(path);
    assert_false(netmerge_inputs_all(lp, 2, path, &err)); /* the fixtures are from before input rows */
    assert_non_null(strstr(err.msg, "the log of car 1 has no input rows"));
    assert_int_equal(access(path, F_OK), -1);
    termlog_free(&h);
    termlog_free(&j);
    char *h1 = edit(HOST, "# columns metric: row,scheme,key,value\n",
                    "# columns metric: row,scheme,key,value\n# columns input: row,t_ms,throttle,brake,steer\n");
    char *h2 = edit(h1, "own,1,33000,", "input,0,1,0,0\ninput,22,1,0,-0.16666666666666666\nown,1,33000,");
    char *j1 = edit(JOINER, "# columns tx:", "# columns input: row,t_ms,throttle,brake,steer\n# columns tx:");
    char *j2 = edit(j1, "own,2,66000,", "input,11,0.5,0.25,1\nown,2,66000,");
    if (!read_log(&h, h2, "host.log", &err) || !read_log(&j, j2, "join.log", &err))
        fail_msg("%s", err.msg);
    assert_int_equal(h.ninputs, 2);
    assert_int_equal(j.ninputs, 1);
    assert_true(netmerge_inputs_all(lp, 2, path, &err));
    InputScript sc;
    assert_true(inputs_load(&sc, path, &err));
    CarInput in;
    assert_true(inputs_at(&sc, 0, 21, &in)); /* player 1 (car 1) from 0 ms on */
    assert_true(in.throttle == 1.0 && in.brake == 0.0 && in.steer == 0.0);
    assert_true(inputs_at(&sc, 0, 22, &in));
    assert_true(in.steer == -1.0 / 6.0); /* read back to the same double */
    assert_true(inputs_at(&sc, 1, 10, &in)); /* player 2 before its first line: none */
    assert_true(in.throttle == 0.0);
    assert_true(inputs_at(&sc, 1, 11, &in));
    assert_true(in.throttle == 0.5 && in.brake == 0.25 && in.steer == 1.0);
    inputs_free(&sc);
    remove(path);
    termlog_free(&h);
    termlog_free(&j);
    char *bad = edit(h2, "input,22,1,0,", "input,0,1,0,");
    assert_false(read_log(&h, bad, "x.log", &err));
    assert_non_null(strstr(err.msg, "input t_ms 0: expected after the previous input's 0"));
    free(bad);
    bad = edit(h2, "input,22,1,0,", "input,22,1.5,0,");
    assert_false(read_log(&h, bad, "x.log", &err));
    assert_non_null(strstr(err.msg, "input throttle '1.5': expected a number from 0 to 1"));
    free(bad);
    free(h1);
    free(h2);
    free(j1);
    free(j2);
}

static void cut_log_reads_to_the_last_whole_line(void **state)
{
    (void)state;
    size_t n = strlen(JOINER);
    char *text = malloc(n + 64);
    strcpy(text, JOINER);
    strcat(text, "own,3,99000,99001,999"); /* no newline */
    TermLog j, h;
    NrError err = {{0}};
    assert_true(read_log(&j, text, "join.log.part", &err));
    assert_true(j.cut);
    assert_int_equal(j.nown, 3);
    assert_true(read_log(&h, HOST, "host.log", &err));
    assert_int_equal(netmerge_samples(&h, &j), 3);
    termlog_free(&j);
    /* A cut in the middle of the last rx row drops that row. */
    char *last_rx = strstr(text, "rx,5,mu,");
    assert_non_null(last_rx);
    last_rx[12] = '\0';
    assert_true(read_log(&j, text, "join.log.part", &err));
    assert_true(j.cut);
    assert_int_equal(j.nrx, 3); /* the last rx row was cut */
    termlog_free(&j);
    termlog_free(&h);
    free(text);
}

static void mismatched_logs_refused(void **state)
{
    (void)state;
    TermLog h, j, x;
    load_pair(&h, &j);
    NrError err = {{0}};
    assert_false(netmerge_check(&h, &h, &err));
    assert_string_equal(err.msg, "both logs are of car 1: expected one of car 1 and one of car 2");
    const struct {
        const char *from, *to, *msg;
    } bad[] = {
        {"# token: 00c0ffee12345678\n", "# token: 00c0ffee12345679\n",
         "session tokens 00c0ffee12345678 and 00c0ffee12345679 differ: the logs are of two sessions"},
        {"# track: Default Circuit\n", "# track: Oval\n", "tracks 'Default Circuit' and 'Oval' differ"},
        {"# role: joiner\n", "# role: host\n", "both logs are a host's: expected one host and one joiner"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *text = edit(JOINER, bad[i].from, bad[i].to);
        if (!read_log(&x, text, "x.log", &err))
            fail_msg("%s", err.msg);
        assert_false(netmerge_check(&h, &x, &err));
        assert_string_equal(err.msg, bad[i].msg);
        Recording rec;
        assert_false(netmerge_recording(&h, &x, &rec, &err));
        assert_null(rec.samples);
        termlog_free(&x);
        free(text);
    }
    /* Another period (the rows would say so too: checked on the struct). */
    j.period_ms = 50;
    assert_false(netmerge_check(&h, &j, &err));
    assert_string_equal(err.msg, "periods 33 ms and 50 ms differ");
    termlog_free(&h);
    termlog_free(&j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_the_header_and_rows),
        cmocka_unit_test(recording_field_by_field),
        cmocka_unit_test(delays_by_hand),
        cmocka_unit_test(bad_logs),
        cmocka_unit_test(condition_and_marks),
        cmocka_unit_test(marks_merge_into_the_recording),
        cmocka_unit_test(inputs_merge_into_a_script),
        cmocka_unit_test(cut_log_reads_to_the_last_whole_line),
        cmocka_unit_test(mismatched_logs_refused),
    };
    return cmocka_run_group_tests(tests, load_fixtures, NULL);
}
