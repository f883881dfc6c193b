/* Recordings: bit-exact round trip, crash-safe writer, truncated-file
 * recovery, every malformed input, progress and lead-change counting. */
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

#include "recording.h"
#include "track.h"

static char tmpdir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/nr_test_recording_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static void tmp_path(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", tmpdir, name);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    b[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return b;
}

static void fill_meta(Recording *r, int ncars, int nsamples)
{
    memset(r, 0, sizeof *r);
    r->version = RECORDING_VERSION;
    snprintf(r->track, sizeof r->track, "default.track");
    snprintf(r->source, sizeof r->source, "human");
    snprintf(r->created, sizeof r->created, "2024-01-02T03:04:05Z");
    r->period_ms = 33;
    r->ncars = ncars;
    r->nsamples = nsamples;
    r->samples = calloc((size_t)ncars * (size_t)nsamples, sizeof *r->samples);
    for (int c = 0; c < ncars; c++)
        for (int i = 0; i < nsamples; i++)
            r->samples[c * nsamples + i].t_ms = i * 33;
}

/* Doubles that no short decimal represents, extremes and signed zero. */
static void round_trip_bit_exact(void **state)
{
    (void)state;
    const double tricky[] = {0.1, 1.0 / 3.0, -2.0 / 3.0, NR_PI, 1e-300, 4.9406564584124654e-324,
                             1.7976931348623157e308, -0.0, 123456.7890123, 0.30000000000000004,
                             -1e22, 5e-5, 2.5, 1e15 + 0.3};
    const int n = (int)(sizeof tricky / sizeof tricky[0]);
    Recording a;
    fill_meta(&a, 2, n);
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < n; i++) {
            RecSample *s = &a.samples[c * n + i];
            s->x = tricky[i];
            s->y = tricky[(i + 3) % n] * (c ? -1 : 1);
            s->heading = tricky[(i + 5) % n];
            s->speed = tricky[(i + 7) % n];
        }
    char p1[512], p2[512];
    tmp_path(p1, sizeof p1, "a.csv");
    tmp_path(p2, sizeof p2, "b.csv");
    NrError err;
    assert_true(recording_save(&a, p1, &err));
    Recording b;
    bool loaded = recording_load(&b, p1, &err);
    if (!loaded)
        fprintf(stderr, "%s\n", err.msg);
    assert_true(loaded);
    assert_int_equal(b.version, 1);
    assert_string_equal(b.track, "default.track");
    assert_string_equal(b.source, "human");
    assert_string_equal(b.created, "2024-01-02T03:04:05Z");
    assert_int_equal(b.period_ms, 33);
    assert_int_equal(b.ncars, 2);
    assert_int_equal(b.nsamples, n);
    assert_false(b.truncated);
    /* bit for bit, signed zero included */
    assert_memory_equal(a.samples, b.samples, sizeof *a.samples * 2 * (size_t)n);
    assert_true(recording_save(&b, p2, &err));
    size_t l1, l2;
    char *t1 = read_file(p1, &l1), *t2 = read_file(p2, &l2);
    assert_int_equal(l1, l2);
    assert_memory_equal(t1, t2, l1);
    /* the format as documented: header then the column line */
    const char *head = "# netrace-recording: 1\n# track: default.track\n# period_ms: 33\n# cars: 2\n"
                       "# source: human\n# created: 2024-01-02T03:04:05Z\nt_ms,car,x,y,heading,speed\n";
    assert_true(strncmp(t1, head, strlen(head)) == 0);
    /* short values stay short: 0.1 is written as 0.1 */
    assert_non_null(strstr(t1, "\n0,1,0.1,"));
    free(t1);
    free(t2);
    assert_int_equal(access(p1, F_OK), 0);
    char part[600];
    snprintf(part, sizeof part, "%s.part", p1);
    assert_int_not_equal(access(part, F_OK), 0); /* renamed into place */
    recording_free(&a);
    recording_free(&b);
}

/* The streaming writer flushes at least once per second of race time: a
 * copy of PATH.part taken while the writer is open holds every sample up
 * to one second before the last one written. */
static void writer_flushes_and_renames(void **state)
{
    (void)state;
    Recording meta;
    fill_meta(&meta, 2, 0);
    char path[512], part[600], copy[600];
    tmp_path(path, sizeof path, "live.csv");
    snprintf(part, sizeof part, "%s.part", path);
    snprintf(copy, sizeof copy, "%s.copy", path);
    NrError err;
    RecWriter *w = recwriter_open(path, &meta, &err);
    assert_non_null(w);
    /* a second writer must not clobber the running one's .part */
    assert_null(recwriter_open(path, &meta, &err));
    assert_non_null(strstr(err.msg, "live.csv.part: exists"));
    for (int i = 0; i * 33 <= 2500; i++) {
        for (int c = 0; c < 2; c++) {
            RecSample s = {i * 33, i * 0.5, c, 0, 10};
            assert_true(recwriter_append(w, c, &s, &err));
        }
        if ((i * 33) % 1000 < 33 && i > 0) {
            /* Just after each whole second: the .part file reads back with
             * samples up to at least (now - 1 s). */
            char cmd[1400];
            snprintf(cmd, sizeof cmd, "cp '%s' '%s'", part, copy);
            assert_int_equal(system(cmd), 0);
            Recording r;
            assert_true(recording_load(&r, copy, &err));
            assert_true(r.nsamples >= 1 && (r.nsamples - 1) * 33 >= i * 33 - 1000);
            recording_free(&r);
        }
    }
    /* out-of-order appends are refused */
    RecSample bad = {0, 0, 0, 0, 0};
    assert_false(recwriter_append(w, 0, &bad, &err));
    assert_true(recwriter_close(w, &err));
    assert_int_equal(access(path, F_OK), 0);
    assert_int_not_equal(access(part, F_OK), 0);
    Recording r;
    assert_true(recording_load(&r, path, &err));
    assert_int_equal(r.nsamples, 2500 / 33 + 1);
    recording_free(&r);
    recording_free(&meta);
}

#define HEAD "# netrace-recording: 1\n# track: t.track\n# period_ms: 33\n# cars: 2\n# source: autopilot\n" \
             "t_ms,car,x,y,heading,speed\n"
#define ROWS0 "0,1,0,0,0,0\n0,2,1,1,0,0\n"
#define ROWS1 "33,1,0.5,0,0,1\n33,2,1.5,1,0,1\n"

/* A killed writer leaves a cut last line: the reader keeps every whole
 * sample time before it and says it was truncated. */
static void truncated_recovery(void **state)
{
    (void)state;
    char path[512];
    tmp_path(path, sizeof path, "cut.csv");
    NrError err;
    Recording r;
    struct {
        const char *text;
        int nsamples;
        bool truncated;
    } cases[] = {
        {HEAD ROWS0 ROWS1, 2, false},
        {HEAD ROWS0 ROWS1 "66,1,1.0,0,0", 2, true},        /* cut inside car 1's row */
        {HEAD ROWS0 ROWS1 "66,1,1.0,0,0,1\n", 2, true},    /* car 2's row missing at the end */
        {HEAD ROWS0 ROWS1 "66,1,1.0,0,0,1\n66,2,2", 2, true},
        {HEAD ROWS0 "33,1,0.5,0,0,1\n33,2,1.5,1,0,1", 1, true}, /* no final newline */
        {HEAD, 0, false},
        {HEAD "0,1,0", 0, true},
        {"# netrace-recording: 1\n# track: t.track\n# period_ms: 33\n# cars: 2\n# source: autopilot\nt_ms,car", 0,
         true},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        write_file(path, cases[k].text);
        bool ok = recording_load(&r, path, &err);
        if (!ok)
            fprintf(stderr, "case %zu: %s\n", k, err.msg);
        assert_true(ok);
        assert_int_equal(r.nsamples, cases[k].nsamples);
        assert_true(r.truncated == cases[k].truncated);
        if (r.nsamples == 2)
            assert_true(recording_at(&r, 1, 1)->x == 1.5 && recording_at(&r, 0, 1)->speed == 1);
        recording_free(&r);
    }
}

/* Marks (issue 22): written by the live writer where they happen and by
 * recording_save after the rows of the last sample at or before each; read
 * back in time order with their labels; a file without marks, or an old
 * reader's view (comments between rows), loses nothing. */
/* The first release's marks ("# mark: T_MS [LABEL]", the lagometer's key,
 * docs/formats.md "Marks") still read: kind mark, the label naming the
 * player (host 1, joiner 2, carN) or kept as the note; saved again in the
 * one format of today. */
static void marks_of_the_first_release_read(void **state)
{
    (void)state;
    char path[512], again[512];
    tmp_path(path, sizeof path, "marks-v0.csv");
    tmp_path(again, sizeof again, "marks-v0-again.csv");
    write_file(path, "# netrace-recording: 1\n# track: t.track\n# mark: 7 hdr\n# period_ms: 33\n# cars: 2\n"
                     "# source: network\nt_ms,car,x,y,heading,speed\n0,1,0,0,0,0\n# marker: 5\n# note mark: 3\n"
                     "0,2,1,1,0,0\n# mark: 20\n# mark: 20 joiner\n33,1,0,1,0,0\n33,2,1,1,0,0\n"
                     "#   mark:   30 host  \n# mark: 31 car2\n# mark: 32 car3\n# mark: 33 a b\n");
    NrError err;
    Recording b;
    assert_true(recording_load(&b, path, &err));
    assert_int_equal(b.nmarks, 7);
    static const int64_t want_t[7] = {7, 20, 20, 30, 31, 32, 33};
    static const int want_p[7] = {0, 0, 2, 1, 2, 0, 0};
    static const char *const want_note[7] = {"hdr", "", "", "", "", "car3", "a b"};
    for (int i = 0; i < 7; i++) {
        assert_int_equal(b.marks[i].t_ms, want_t[i]);
        assert_int_equal(b.marks[i].player, want_p[i]);
        assert_string_equal(b.marks[i].kind, "mark");
        assert_string_equal(b.marks[i].note, want_note[i]);
    }
    assert_true(recording_save(&b, again, &err));
    size_t len;
    char *text = read_file(again, &len);
    /* each before the rows of the first sample at or after it */
    assert_non_null(strstr(text, "\n0,2,1,1,0,0\n# mark: 7,0,mark,hdr\n# mark: 20,0,mark\n# mark: 20,2,mark\n"
                                 "# mark: 30,1,mark\n# mark: 31,2,mark\n# mark: 32,0,mark,car3\n"
                                 "# mark: 33,0,mark,a b\n33,1,0,1,0,0\n"));
    free(text);
    recording_free(&b);
    write_file(path, HEAD ROWS0 "# mark: 12 a label far longer than the one hundred and twenty-seven bytes a "
                                "note may hold, which is this one, that goes on and on and on and on and on\n");
    assert_false(recording_load(&b, path, &err));
    assert_non_null(strstr(err.msg, ":9: mark '12 a label far"));
    assert_null(b.marks);
}

static void expect_bad(const char *name, const char *text, const char *needle)
{
    char path[512];
    tmp_path(path, sizeof path, name);
    if (text)
        write_file(path, text);
    NrError err = {{0}};
    Recording r;
    bool ok = recording_load(&r, path, &err);
    char want[1024];
    snprintf(want, sizeof want, "%s%s", path, needle);
    if (ok || !strstr(err.msg, want))
        fprintf(stderr, "%s: got '%s', wanted '%s'\n", name, ok ? "(loaded)" : err.msg, want);
    assert_false(ok);
    assert_non_null(strstr(err.msg, want));
    assert_null(r.samples);
}

/* Marks ("# mark: T_MS,PLAYER,KIND[,NOTE]" between the rows): written,
 * read back in order, saved again byte for byte, each before the rows of
 * the first sample time at or after it; a malformed mark is refused with
 * its line; a reader that does not know marks skips them as comments, so a
 * file with marks has the same samples as without them. */
static void marks_round_trip(void **state)
{
    (void)state;
    Recording a;
    fill_meta(&a, 2, 4); /* samples at 0, 33, 66, 99 ms */
    RecMark m[3] = {{.t_ms = 40, .player = 1, .kind = "dissatisfied"},
                    {.t_ms = 66, .player = 2, .kind = "dissatisfied"},
                    {.t_ms = 500, .player = 0, .kind = "teacher", .note = "watch the gap, here"}};
    for (int i = 0; i < 3; i++)
        assert_true(recording_mark_add(&a, &m[i]));
    RecMark bad = {.t_ms = 1, .player = 3, .kind = "dissatisfied"}; /* no player 3 in a race of 2 */
    assert_false(recording_mark_add(&a, &bad));
    bad.player = 1;
    snprintf(bad.kind, sizeof bad.kind, "Bad Kind");
    assert_false(recording_mark_add(&a, &bad));
    char p1[512], p2[512];
    tmp_path(p1, sizeof p1, "marks.csv");
    tmp_path(p2, sizeof p2, "marks2.csv");
    NrError err;
    assert_true(recording_save(&a, p1, &err));
    size_t l1, l2;
    char *t1 = read_file(p1, &l1);
    const char *body = "t_ms,car,x,y,heading,speed\n0,1,0,0,0,0\n0,2,0,0,0,0\n33,1,0,0,0,0\n33,2,0,0,0,0\n"
                       "# mark: 40,1,dissatisfied\n# mark: 66,2,dissatisfied\n66,1,0,0,0,0\n66,2,0,0,0,0\n"
                       "99,1,0,0,0,0\n99,2,0,0,0,0\n# mark: 500,0,teacher,watch the gap, here\n";
    assert_non_null(strstr(t1, body));
    Recording b;
    assert_true(recording_load(&b, p1, &err));
    assert_int_equal(b.nmarks, 3);
    assert_int_equal(b.nsamples, 4);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(b.marks[i].t_ms, m[i].t_ms);
        assert_int_equal(b.marks[i].player, m[i].player);
        assert_string_equal(b.marks[i].kind, m[i].kind);
        assert_string_equal(b.marks[i].note, m[i].note);
    }
    assert_true(recording_save(&b, p2, &err));
    char *t2 = read_file(p2, &l2);
    assert_int_equal(l1, l2);
    assert_memory_equal(t1, t2, l1);
    /* the marks take nothing from the samples: the same file without them */
    char *plain = malloc(l1 + 1), *o = plain;
    for (const char *line = t1; *line;) {
        const char *nl = strchr(line, '\n');
        size_t n = (size_t)(nl - line) + 1;
        if (strncmp(line, "# mark:", 7) != 0) {
            memcpy(o, line, n);
            o += n;
        }
        line += n;
    }
    *o = '\0';
    write_file(p2, plain);
    Recording c;
    assert_true(recording_load(&c, p2, &err));
    assert_int_equal(c.nmarks, 0);
    assert_int_equal(c.nsamples, b.nsamples);
    assert_memory_equal(c.samples, b.samples, sizeof *b.samples * 2 * 4);
    free(plain);
    free(t1);
    free(t2);
    recording_free(&a);
    recording_free(&b);
    recording_free(&c);
}

static void bad_recordings(void **state)
{
    (void)state;
    expect_bad("missing.csv", NULL, ": cannot open");
    expect_bad("empty.csv", "", ":1: empty file");
    expect_bad("noheader.csv", "t_ms,car,x,y,heading,speed\n", ":1: expected the header '# netrace-recording: 1'");
    expect_bad("version.csv", "# netrace-recording: 2\n", ":1: recording format version 2 is not supported");
    expect_bad("version2.csv", "# netrace-recording: one\n", ":1: format version is 'one'");
    expect_bad("nocars.csv", "# netrace-recording: 1\n# track: t\n# period_ms: 33\n# source: human\nt_ms\n",
               ":5: the header has no '# cars: ...' line");
    expect_bad("cars.csv", "# netrace-recording: 1\n# cars: 99\n", ":2: cars is '99'");
    expect_bad("period.csv", "# netrace-recording: 1\n# period_ms: 0\n", ":2: period_ms is '0'");
    expect_bad("source.csv", "# netrace-recording: 1\n# source: robot\n", ":2: source is 'robot'");
    expect_bad("columns.csv", HEAD "t,car,x,y\n" ROWS0, ":7: 4 fields, expected 6"); /* a second column line is a row */
    expect_bad("mark.csv", HEAD ROWS0 "# mark: soon\n", ":9: mark 'soon': expected T_MS,PLAYER,KIND[,NOTE]");
    expect_bad("mark0.csv", HEAD ROWS0 "#mark: -33\n", ":9: mark '-33'");
    expect_bad("colline.csv",
               "# netrace-recording: 1\n# track: t.track\n# period_ms: 33\n# cars: 2\n# source: human\nt,c\n",
               ":6: expected the column line");
    expect_bad("carid.csv", HEAD "0,1,0,0,0,0\n0,3,1,1,0,0\n", ":8: unknown car id 3 (the header declares 2 cars");
    expect_bad("carid0.csv", HEAD "0,0,0,0,0,0\n", ":7: unknown car id 0");
    expect_bad("carx.csv", HEAD "0,one,0,0,0,0\n", ":7: field car is 'one'");
    expect_bad("nonnum.csv", HEAD "0,1,abc,0,0,0\n", ":7: field x is 'abc', expected a number");
    expect_bad("nonnum2.csv", HEAD "0,1,0,0,0,\n", ":7: field speed is '', expected a number");
    expect_bad("tms.csv", HEAD "0.5,1,0,0,0,0\n", ":7: field t_ms is '0.5'");
    expect_bad("nan.csv", HEAD "0,1,0,nan,0,0\n", ":7: field y is 'nan', expected a finite number");
    expect_bad("inf.csv", HEAD "0,1,0,0,-inf,0\n", ":7: field heading is '-inf', expected a finite number");
    expect_bad("huge.csv", HEAD "0,1,1e999,0,0,0\n", ":7: field x is '1e999', expected a finite number");
    expect_bad("order.csv", HEAD ROWS0 ROWS1 "0,1,0,0,0,0\n", ":11: rows out of time order: t_ms 0 after 33");
    expect_bad("dup.csv", HEAD ROWS0 "0,2,1,1,0,0\n" ROWS1, ":9: duplicate sample: car 2 at t_ms 0");
    expect_bad("markb1.csv", HEAD ROWS0 "# mark: 10,3,dissatisfied\n" ROWS1,
               ":9: mark '10,3,dissatisfied': expected T_MS,PLAYER,KIND");
    expect_bad("markb2.csv", HEAD ROWS0 "# mark: -1,1,dissatisfied\n", ":9: mark '");
    expect_bad("markb3.csv", HEAD ROWS0 "# mark: 10,1\n", ":9: mark '");
    expect_bad("markb4.csv", HEAD ROWS0 "# mark: 10,1,Angry\n", ":9: mark '");
    expect_bad("markb5.csv", HEAD ROWS0 "# mark: 10,1,\n", ":9: mark '");
    expect_bad("missingcar.csv", HEAD "0,1,0,0,0,0\n" ROWS1, ":8: car 2 has no sample at t_ms 0");
    expect_bad("gap.csv", HEAD ROWS0 "66,1,0,0,0,0\n66,2,0,0,0,0\n", ":9: t_ms 66, expected 33");
    expect_bad("start.csv", HEAD "33,1,0,0,0,0\n", ":7: t_ms 33, expected 0");
    expect_bad("fields.csv", HEAD "0,1,0,0,0\n0,2,1,1,0,0\n", ":7: 5 fields, expected 6");
    expect_bad("fields7.csv", HEAD "0,1,0,0,0,0,9\n", ":7: 7 fields, expected 6");
    /* Quoted bytes of the file never reach the message as control
     * characters (terminal escapes, a second line). */
    expect_bad("escape.csv", HEAD "0,1,\033[2J\r\t\177,0,0,0\n", ":7: field x is '?[2J?\?\?', expected a number");
    expect_bad("esctrack.csv", "# netrace-recording: 1\n# track: a\033[2Jb.track\n", ":2: track: expected a file name");
    expect_bad("esccreated.csv", "# netrace-recording: 1\n# created: 2024\033]0;x\a\n", ":2: created: at most");
    expect_bad("escsource.csv", "# netrace-recording: 1\n# source: \033]0;pwned\a\n", ":2: source is '?]0;pwned?'");
}

/* Simulation bounds: values at the bound pass, just beyond fail, naming the
 * car (1-based), the sample time and the field. */
static void in_range_bounds(void **state)
{
    (void)state;
    Recording r;
    fill_meta(&r, 2, 2);
    NrError err = {{0}};
    r.samples[0].x = RECORDING_MAX_POS;
    r.samples[1].y = -RECORDING_MAX_POS;
    r.samples[2].speed = -RECORDING_MAX_SPEED;
    r.samples[3].heading = 1e308; /* any finite heading is fine */
    assert_true(recording_in_range(&r, "f.csv", &err));
    r.samples[3].y = -1000001.0; /* car 2, sample 1 (t_ms 33) */
    assert_false(recording_in_range(&r, "f.csv", &err));
    assert_non_null(strstr(err.msg, "f.csv: car 2 at t_ms 33: y = -1e+06"));
    r.samples[3].y = 0;
    r.samples[0].speed = 100001.0;
    assert_false(recording_in_range(&r, "f.csv", &err));
    assert_non_null(strstr(err.msg, "car 1 at t_ms 0: speed"));
    recording_free(&r);
}

/* Progress and lead changes on a circle of radius 50 (length ~ 2 pi 50,
 * grid slots at -2 and -4). Cars are placed on the centre line at chosen
 * arc lengths, so the expected progress is that arc length. */
static void progress_and_lead_changes(void **state)
{
    (void)state;
    char text[8192];
    size_t k = (size_t)snprintf(text, sizeof text, "netrace-track 1\nname c\nwidth 8\ngrid 2 2 1\n");
    for (int i = 0; i < 72; i++)
        k += (size_t)snprintf(text + k, sizeof text - k, "point %.17g %.17g\n", 50 * cos(i * NR_PI / 36),
                              50 * sin(i * NR_PI / 36));
    NrError err;
    Track *t = track_parse(text, "c", &err);
    assert_non_null(t);
    double L = track_length(t);
    /* car 1 runs at 10 cw per sample for 80 samples (over 2.5 laps); car 2's
     * offset from car 1 follows the pattern below: sign changes of
     * p1 - p2 = -off: + (start) ... */
    const double off[] = {-2, -1, 0, 1, 2, 0, 0, -1, 1, 1, 0, -3, 3, -3, 3};
    /* signs of p1 - p2: + + 0 - - 0 0 + - - 0 + - + -  -> changes at
     * i = 3 (+ to -), 7 (- to +), 8 (+ to -), 11 (- to +), 12, 13, 14: 7 */
    const int n = 80;
    Recording r;
    fill_meta(&r, 2, n);
    for (int i = 0; i < n; i++) {
        double s1 = -2 + 10.0 * i;
        double s2 = s1 + (i < 15 ? off[i] : 3);
        RecSample *a = &r.samples[i], *b = &r.samples[n + i];
        track_point(t, s1, &a->x, &a->y, &a->heading);
        track_point(t, s2, &b->x, &b->y, &b->heading);
    }
    double *p = malloc(sizeof(double) * n);
    assert_true(recording_progress(&r, t, 0, p));
    for (int i = 0; i < n; i++)
        assert_true(fabs(p[i] - (-2 + 10.0 * i)) < 1e-6);
    assert_true(p[n - 1] > 2 * L); /* unwrapped across the line twice */
    assert_false(recording_progress(&r, t, 2, p));
    free(p);
    assert_int_equal(recording_lead_changes(&r, t), 7);
    r.ncars = 1;
    assert_int_equal(recording_lead_changes(&r, t), -1);
    r.ncars = 2;
    recording_free(&r);
    track_free(t);
}

/* Gap statistics by hand: car 2 sits at (3,4)-like offsets from car 1 so the
 * distances are exact: 5, 0.5, 1.5, 2 (shifted by whole cw along x). */
static void gap_stats_by_hand(void **state)
{
    (void)state;
    RecSample s[8] = {
        {0, 0, 0, 0, 0},   {33, 10, 0, 0, 0},   {66, 20, 0, 0, 0},  {99, 30, 0, 0, 0},
        {0, 3, 4, 0, 0},   {33, 10, 0.5, 0, 0}, {66, 21.5, 0, 0, 0}, {99, 30, -2, 0, 0},
    };
    Recording r = {.ncars = 2, .nsamples = 4, .period_ms = 33, .samples = s};
    RecGapStats g;
    assert_true(recording_gap_stats(&r, 0, 1, &g));
    /* sorted 0.5, 1.5, 2, 5: median (1.5 + 2) / 2; 2 itself is not closer than 2 */
    assert_true(g.median_cw == 1.75);
    assert_true(g.min_cw == 0.5);
    assert_true(g.below1 == 0.25);
    assert_true(g.below2 == 0.5);
    r.nsamples = 3; /* odd count: 5, 0.5, 1.5 -> the middle one; the samples of car 2 now start at s[3] */
    RecSample t[6] = {s[0], s[1], s[2], s[4], s[5], s[6]};
    r.samples = t;
    assert_true(recording_gap_stats(&r, 1, 0, &g));
    assert_true(g.median_cw == 1.5 && g.min_cw == 0.5);
    assert_true(fabs(g.below2 - 2.0 / 3.0) < 1e-15);
    assert_false(recording_gap_stats(&r, 0, 0, &g));
    assert_false(recording_gap_stats(&r, 0, 2, &g));
    assert_false(recording_gap_stats(&r, -1, 1, &g));
    r.nsamples = 0;
    assert_false(recording_gap_stats(&r, 0, 1, &g));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip_bit_exact),
        cmocka_unit_test(writer_flushes_and_renames),
        cmocka_unit_test(truncated_recovery),
        cmocka_unit_test(bad_recordings),
        cmocka_unit_test(marks_round_trip),
        cmocka_unit_test(marks_of_the_first_release_read),
        cmocka_unit_test(progress_and_lead_changes),
        cmocka_unit_test(gap_stats_by_hand),
        cmocka_unit_test(in_range_bounds),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
