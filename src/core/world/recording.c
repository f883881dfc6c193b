/* Recorded races: CSV with a '#' metadata header; strict reader, crash-safe writer.
 *
 * Numbers are written in the shortest fixed-point form that reads back to
 * the very same double ("%.Nf" with the smallest N in 0..17 that round-trips,
 * "%.17g" for the rare value no fixed form reproduces). Reading therefore
 * gives back the in-memory doubles bit for bit, and write -> read -> write
 * is byte-identical. Generators that want short files quantise their values
 * first (the autopilot keeps 1e-4 car widths / radians, 1e-3 cw/s).
 */
#include "recording.h"
#include "nr_file.h"
#include "nr_part.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define REC_MAGIC "netrace-recording"
#define REC_COLUMNS "t_ms,car,x,y,heading,speed"
#define REC_MAX_SAMPLES 50000000 /* rows per car; ~19 days at 33 ms */
#define REC_PATH_MAX 4096

/* ---- number formatting --------------------------------------------------- */

static bool valid_text(const char *s)
{
    return nr_text_is_printable(s);
}

static bool valid_source(const char *s)
{
    return strcmp(s, "human") == 0 || strcmp(s, "autopilot") == 0 || strcmp(s, "network") == 0;
}

/* ---- writer ----------------------------------------------------------------- */

struct RecWriter {
    NrPartFile pf; /* PATH.part, renamed into place on close */
    int ncars;
    int32_t period_ms;
    int32_t cur_t;     /* time of the sample being written */
    int next_car;      /* car expected next at cur_t */
    int32_t flushed_t; /* race time of the last flush */
    bool started;
};

static bool write_row(FILE *f, int car, const RecSample *s)
{
    char x[64], y[64], h[64], v[64];
    nr_format_double(x, sizeof x, s->x);
    nr_format_double(y, sizeof y, s->y);
    nr_format_double(h, sizeof h, s->heading);
    nr_format_double(v, sizeof v, s->speed);
    return fprintf(f, "%ld,%d,%s,%s,%s,%s\n", (long)s->t_ms, car + 1, x, y, h, v) > 0;
}

RecWriter *recwriter_open(const char *path, const Recording *meta, NrError *err)
{
    if (!path || !*path || strlen(path) >= REC_PATH_MAX) {
        nr_error_set(err, "recording: bad output path");
        return NULL;
    }
    if (meta->ncars < 1 || meta->ncars > RECORDING_MAX_CARS) {
        nr_error_set(err, "%s: %d cars, expected 1 to %d", path, meta->ncars, RECORDING_MAX_CARS);
        return NULL;
    }
    if (meta->period_ms < 1 || meta->period_ms > 60000) {
        nr_error_set(err, "%s: period %ld ms, expected 1 to 60000", path, (long)meta->period_ms);
        return NULL;
    }
    if (!valid_source(meta->source)) {
        nr_error_set(err, "%s: source '%s', expected human, autopilot or network", path, meta->source);
        return NULL;
    }
    if (!valid_text(meta->track) || !valid_text(meta->created) || !meta->track[0]) {
        nr_error_set(err, "%s: track name must be one non-empty line of printable text, created one printable line", path);
        return NULL;
    }
    RecWriter *w = calloc(1, sizeof *w);
    if (!w) {
        nr_error_set(err, "%s: out of memory", path);
        return NULL;
    }
    /* A leftover PATH.part holds a crashed race: nr_part never overwrites it. */
    if (nr_part_open(&w->pf, path, NR_PART_REPLACE) != NR_PART_OK) {
        if (w->pf.status == NR_PART_EXISTS)
            nr_error_set(err, "%s: exists (a crashed or running recording?); move it away first", w->pf.part);
        else
            nr_error_set(err, "%s: cannot create: %s", w->pf.part, nr_part_reason(&w->pf));
        free(w);
        return NULL;
    }
    FILE *f = w->pf.f;
    w->ncars = meta->ncars;
    w->period_ms = meta->period_ms;
    fprintf(f, "# %s: %d\n# track: %s\n# period_ms: %ld\n# cars: %d\n# source: %s\n", REC_MAGIC,
            RECORDING_VERSION, meta->track, (long)meta->period_ms, meta->ncars, meta->source);
    if (meta->created[0])
        fprintf(f, "# created: %s\n", meta->created);
    for (int i = 0; i < meta->nmeta && i < RECORDING_MAX_META; i++)
        fprintf(f, "# %s: %s\n", meta->meta[i].key, meta->meta[i].value);
    fprintf(f, "%s\n", REC_COLUMNS);
    if (nr_part_flush(&w->pf) != NR_PART_OK) {
        nr_error_set(err, "%s: write error: %s", w->pf.part, nr_part_reason(&w->pf));
        nr_part_abort(&w->pf);
        free(w);
        return NULL;
    }
    return w;
}

bool recwriter_append(RecWriter *w, int car, const RecSample *s, NrError *err)
{
    if (car < 0 || car >= w->ncars)
        return nr_error_set(err, "%s: car %d out of range (0..%d)", w->pf.part, car, w->ncars - 1);
    int64_t expect_t = !w->started ? 0 : w->next_car == 0 ? (int64_t)w->cur_t + w->period_ms : w->cur_t;
    if (car != w->next_car || s->t_ms != expect_t)
        return nr_error_set(err, "%s: sample of car %d at t_ms %ld out of order (expected car %d at %ld)",
                            w->pf.part, car, (long)s->t_ms, w->next_car, (long)expect_t);
    if (!isfinite(s->x) || !isfinite(s->y) || !isfinite(s->heading) || !isfinite(s->speed))
        return nr_error_set(err, "%s: sample of car %d at t_ms %ld is not finite", w->pf.part, car, (long)s->t_ms);
    if (!write_row(w->pf.f, car, s))
        return nr_error_set(err, "%s: write error: %s", w->pf.part, strerror(errno));
    w->started = true;
    w->cur_t = s->t_ms;
    w->next_car = (car + 1) % w->ncars;
    /* After each complete sample time: flush when the next complete sample
     * would otherwise come more than one second of race time after the
     * last flush. */
    if (w->next_car == 0 && (int64_t)s->t_ms + w->period_ms - w->flushed_t > 1000) {
        if (nr_part_flush(&w->pf) != NR_PART_OK)
            return nr_error_set(err, "%s: write error: %s", w->pf.part, nr_part_reason(&w->pf));
        w->flushed_t = s->t_ms;
    }
    return true;
}

bool recwriter_mark(RecWriter *w, const RecMark *m, NrError *err)
{
    char line[RECORDING_MARK_KIND + RECORDING_MARK_NOTE + 64];
    if (!recmark_valid(m, w->ncars) || recmark_format(line, sizeof line, m) < 0)
        return nr_error_set(err, "%s: mark '%.24s' of player %d at t_ms %lld is not a valid mark", w->pf.part,
                            m->kind, m->player, (long long)m->t_ms);
    if (fputs(line, w->pf.f) == EOF || nr_part_flush(&w->pf) != NR_PART_OK)
        return nr_error_set(err, "%s: write error: %s", w->pf.part, nr_part_reason(&w->pf));
    return true;
}

bool recwriter_close(RecWriter *w, NrError *err)
{
    if (!w)
        return true;
    bool ok = true;
    NrPartFile *pf = &w->pf;
    if (w->started && w->next_car != 0) {
        ok = nr_error_set(err, "%s: closed in the middle of sample time %ld (car %d missing); kept as %s",
                          pf->path, (long)w->cur_t, w->next_car + 1, pf->part);
        fclose(pf->f); /* the .part is kept as it is: never renamed */
        pf->f = NULL;
    } else if (nr_part_close(pf) == NR_PART_WRITE) {
        ok = nr_error_set(err, "%s: write error: %s; kept as %s", pf->path, nr_part_reason(pf), pf->part);
    } else if (pf->status != NR_PART_OK) {
        ok = nr_error_set(err, "%s: cannot rename %s into place: %s", pf->path, pf->part, nr_part_reason(pf));
    }
    free(w);
    return ok;
}

bool recording_save(const Recording *rec, const char *path, NrError *err)
{
    RecWriter *w = recwriter_open(path, rec, err);
    if (!w)
        return false;
    int mark = 0;
    bool ok = true;
    for (int i = 0; i < rec->nsamples && ok; i++) {
        /* a mark before the rows of the first sample time at or after it,
         * where a live race writes it (its physics has not sampled that
         * time yet) */
        int32_t t = recording_at(rec, 0, i)->t_ms;
        for (; ok && mark < rec->nmarks && rec->marks[mark].t_ms <= t; mark++)
            ok = recwriter_mark(w, &rec->marks[mark], err);
        for (int c = 0; c < rec->ncars && ok; c++)
            ok = recwriter_append(w, c, recording_at(rec, c, i), err);
    }
    for (; ok && mark < rec->nmarks; mark++)
        ok = recwriter_mark(w, &rec->marks[mark], err);
    if (!ok) {
        nr_part_abort(&w->pf); /* a partial copy of an in-memory recording is worthless */
        free(w);
        return false;
    }
    return recwriter_close(w, err);
}

/* ---- reader ------------------------------------------------------------------ */

const RecSample *recording_at(const Recording *rec, int car, int i)
{
    return &rec->samples[(size_t)car * (size_t)rec->nsamples + (size_t)i];
}

void recording_free(Recording *rec)
{
    if (!rec)
        return;
    free(rec->samples);
    rec->samples = NULL;
    rec->nsamples = 0;
    free(rec->marks);
    rec->marks = NULL;
    rec->nmarks = rec->marks_cap = 0;
}

typedef struct Reader {
    const char *path;
    Recording *rec;
    RecSample *rows; /* [time][car] while reading */
    size_t cap;      /* in sample times */
    int ntimes;      /* complete + current */
    unsigned seen;   /* bit per car seen at the current time */
    int32_t cur_t;
    int line;        /* lines read */
    bool have_magic, in_header;
    bool have[4];    /* the header keys of header_keys[] seen */
} Reader;

/* The header keys every recording has (Reader.have). */
static const char *const header_keys[4] = {"track", "period_ms", "cars", "source"};

static bool field_number(const Reader *r, int line, const char *field, const char *tok, double *out,
                         NrError *err)
{
    char *end;
    errno = 0;
    double v = strtod(tok, &end);
    /* Underflow (ERANGE with a finite result) is the correctly rounded
     * subnormal or zero that the writer printed; overflow gives inf. */
    if (*tok && !isspace((unsigned char)*tok) && end != tok && *end == '\0' && isfinite(v)) {
        *out = v;
        return true;
    }
    if (*tok && end != tok && *end == '\0' && !isfinite(v))
        return nr_error_set(err, "%s:%d: field %s is '%s', expected a finite number", r->path, line, field, tok);
    return nr_error_set(err, "%s:%d: field %s is '%s', expected a number", r->path, line, field, tok);
}

/* Split a row into exactly 6 comma-separated fields; returns the count. */
static int split_row(char *s, char **f)
{
    int n = 0;
    f[n++] = s;
    for (; *s; s++) {
        if (*s == ',') {
            *s = '\0';
            if (n == 7)
                return 8;
            f[n++] = s + 1;
        }
    }
    return n;
}

static bool finish_time(Reader *r, int line, NrError *err)
{
    unsigned all = (1u << r->rec->ncars) - 1;
    if (r->ntimes > 0 && r->seen != all) {
        for (int c = 0; c < r->rec->ncars; c++)
            if (!(r->seen & (1u << c)))
                return nr_error_set(err, "%s:%d: car %d has no sample at t_ms %ld (every car needs a row at every sample time)",
                                    r->path, line, c + 1, (long)r->cur_t);
    }
    return true;
}

static bool parse_row(Reader *r, char *text, int line, NrError *err)
{
    Recording *rec = r->rec;
    char *f[8];
    int n = split_row(text, f);
    if (n != 6)
        return nr_error_set(err, "%s:%d: %d field%s, expected 6 (t_ms,car,x,y,heading,speed)", r->path, line,
                            n > 7 ? 7 : n, n == 1 ? "" : "s");
    int64_t t, car;
    if (!nr_parse_int64(f[0], &t) || t < 0 || t > INT32_MAX)
        return nr_error_set(err, "%s:%d: field t_ms is '%s', expected a whole number of milliseconds >= 0",
                            r->path, line, f[0]);
    if (!nr_parse_int64(f[1], &car))
        return nr_error_set(err, "%s:%d: field car is '%s', expected a car id", r->path, line, f[1]);
    if (car < 1 || car > rec->ncars)
        return nr_error_set(err, "%s:%d: unknown car id %lld (the header declares %d car%s: 1..%d)", r->path,
                            line, (long long)car, rec->ncars, rec->ncars == 1 ? "" : "s", rec->ncars);
    RecSample s;
    memset(&s, 0, sizeof s); /* padding too: samples compare with memcmp */
    s.t_ms = (int32_t)t;
    if (!field_number(r, line, "x", f[2], &s.x, err) || !field_number(r, line, "y", f[3], &s.y, err) ||
        !field_number(r, line, "heading", f[4], &s.heading, err) ||
        !field_number(r, line, "speed", f[5], &s.speed, err))
        return false;
    int c = (int)car - 1;
    if (r->ntimes == 0 || s.t_ms != r->cur_t) {
        if (r->ntimes > 0 && s.t_ms < r->cur_t)
            return nr_error_set(err, "%s:%d: rows out of time order: t_ms %ld after %ld", r->path, line,
                                (long)s.t_ms, (long)r->cur_t);
        if (!finish_time(r, line, err))
            return false;
        int64_t expect = r->ntimes == 0 ? 0 : (int64_t)r->cur_t + rec->period_ms;
        if (s.t_ms != expect)
            return nr_error_set(err, "%s:%d: t_ms %ld, expected %ld (samples every %ld ms from 0)", r->path, line,
                                (long)s.t_ms, (long)expect, (long)rec->period_ms);
        if (r->ntimes >= REC_MAX_SAMPLES)
            return nr_error_set(err, "%s:%d: more than %d samples per car", r->path, line, REC_MAX_SAMPLES);
        if ((size_t)r->ntimes == r->cap) {
            size_t cap = r->cap ? r->cap * 2 : 1024;
            RecSample *nr = realloc(r->rows, cap * (size_t)rec->ncars * sizeof *nr);
            if (!nr)
                return nr_error_set(err, "%s:%d: out of memory", r->path, line);
            r->rows = nr;
            r->cap = cap;
        }
        r->ntimes++;
        r->cur_t = s.t_ms;
        r->seen = 0;
    } else if (r->seen & (1u << c)) {
        return nr_error_set(err, "%s:%d: duplicate sample: car %d at t_ms %ld appears twice", r->path, line, c + 1,
                            (long)s.t_ms);
    }
    r->seen |= 1u << c;
    r->rows[(size_t)(r->ntimes - 1) * (size_t)rec->ncars + (size_t)c] = s;
    return true;
}

/* A '#' line between the rows: a mark, else a comment. */
static bool body_comment(Reader *r, char *text, int line, NrError *err)
{
    char *p = text + 1;
    p += strspn(p, " \t");
    if (strncmp(p, "mark:", 5) != 0)
        return true;
    p += 5;
    p += strspn(p, " \t");
    size_t n = strlen(p);
    while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
        p[--n] = '\0';
    return recording_mark_read(r->rec, p, r->path, line, err);
}

static bool header_line(Reader *r, char *text, int line, bool *have, NrError *err)
{
    Recording *rec = r->rec;
    /* "# key: value" */
    char *p = text + 1;
    p += strspn(p, " \t");
    char *colon = strchr(p, ':');
    if (!colon)
        return true; /* a plain comment */
    *colon = '\0';
    char *key = p;
    char *val = colon + 1;
    val += strspn(val, " \t");
    size_t vl = strlen(val);
    while (vl > 0 && (val[vl - 1] == ' ' || val[vl - 1] == '\t'))
        val[--vl] = '\0';
    int64_t v;
    if (strcmp(key, "track") == 0) {
        if (!*val || vl >= sizeof rec->track || !valid_text(val))
            return nr_error_set(err, "%s:%d: track: expected a file name of 1 to %zu printable characters",
                                r->path, line, sizeof rec->track - 1);
        /* The rule: the track is named by its file name alone. A path (a '/'
         * anywhere, so no absolute path and no '..' climbing out) would let
         * a recording open any file on the machine. */
        if (strchr(val, '/') || strcmp(val, ".") == 0 || strcmp(val, "..") == 0)
            return nr_error_set(err, "%s:%d: track: '%s' is a path; expected a file name without '/' "
                                "(looked up beside the recording and in tracks/)", r->path, line, val);
        memcpy(rec->track, val, vl + 1);
        have[0] = true;
    } else if (strcmp(key, "period_ms") == 0) {
        if (!nr_parse_int64(val, &v) || v < 1 || v > 60000)
            return nr_error_set(err, "%s:%d: period_ms is '%s', expected a whole number from 1 to 60000", r->path,
                                line, val);
        rec->period_ms = (int32_t)v;
        have[1] = true;
    } else if (strcmp(key, "cars") == 0) {
        if (!nr_parse_int64(val, &v) || v < 1 || v > RECORDING_MAX_CARS)
            return nr_error_set(err, "%s:%d: cars is '%s', expected a whole number from 1 to %d", r->path, line,
                                val, RECORDING_MAX_CARS);
        rec->ncars = (int)v;
        have[2] = true;
    } else if (strcmp(key, "source") == 0) {
        if (!valid_source(val))
            return nr_error_set(err, "%s:%d: source is '%s', expected human, autopilot or network", r->path,
                                line, val);
        snprintf(rec->source, sizeof rec->source, "%s", val);
        have[3] = true;
    } else if (strcmp(key, "created") == 0) {
        if (vl >= sizeof rec->created || !valid_text(val))
            return nr_error_set(err, "%s:%d: created: at most %zu printable characters", r->path, line,
                                sizeof rec->created - 1);
        memcpy(rec->created, val, vl + 1);
    } else if (strcmp(key, REC_MAGIC) == 0) {
        return nr_error_set(err, "%s:%d: second '%s' header line", r->path, line, REC_MAGIC);
    } else if (strcmp(key, "mark") == 0) {
        return recording_mark_read(rec, val, r->path, line, err);
    } else if (recording_meta_get(rec, key) == NULL) {
        /* The race's condition and other informative keys: kept when they
         * fit (the first of a repeated key), ignored otherwise. */
        if (recording_meta_add(rec, key, val))
            rec->meta[rec->nmeta - 1].line = line;
    }
    return true;
}

bool recording_load(Recording *rec, const char *path, NrError *err)
{
    memset(rec, 0, sizeof *rec);
    FILE *f = nr_file_open(path, "a recording", err);
    if (!f)
        return false;
    bool ok = recording_read(rec, f, path, err);
    fclose(f);
    return ok;
}

/* The first line: '# netrace-recording: 1'. */
static bool read_magic(Reader *r, const char *buf, NrError *err)
{
    char want[64];
    snprintf(want, sizeof want, "# %s:", REC_MAGIC);
    if (strncmp(buf, want, strlen(want)) != 0)
        return nr_error_set(err, "%s:%d: expected the header '# %s: %d'", r->path, r->line, REC_MAGIC,
                            RECORDING_VERSION);
    const char *vs = buf + strlen(want);
    vs += strspn(vs, " \t");
    int64_t v;
    if (!nr_parse_int64(vs, &v))
        return nr_error_set(err, "%s:%d: format version is '%s', expected %d", r->path, r->line, vs,
                            RECORDING_VERSION);
    if (v != RECORDING_VERSION)
        return nr_error_set(err, "%s:%d: recording format version %lld is not supported (expected %d)", r->path,
                            r->line, (long long)v, RECORDING_VERSION);
    r->have_magic = true;
    r->rec->version = (int)v;
    return true;
}

/* Every header key seen by the current line. */
static bool header_complete(const Reader *r, NrError *err)
{
    for (int k = 0; k < 4; k++)
        if (!r->have[k])
            return nr_error_set(err, "%s:%d: the header has no '# %s: ...' line", r->path, r->line,
                                header_keys[k]);
    return true;
}

typedef enum ReadStep { READ_NEXT, READ_STOP, READ_FAIL } ReadStep;

/* One line of got bytes (newline kept; cut: no newline, a killed writer's
 * last line) whatever nr_line_read said of it (lr). */
static ReadStep read_line(Reader *r, char *buf, size_t got, NrLine lr, NrError *err)
{
    if (lr == NR_LINE_LONG)
        return nr_error_set(err, "%s:%d: line longer than %d bytes", r->path, r->line, NR_LINE_MAX - 1), READ_FAIL;
    if (lr == NR_LINE_ERROR)
        return nr_error_set(err, "%s:%d: read error", r->path, r->line), READ_FAIL;
    bool cut = got == 0 || buf[got - 1] != '\n';
    if (lr == NR_LINE_NUL)
        return nr_error_set(err, "%s:%d: binary data (NUL byte) in a text file", r->path, r->line), READ_FAIL;
    size_t len = got;
    while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
        buf[--len] = '\0';
    if (!r->have_magic)
        return read_magic(r, buf, err) ? READ_NEXT : READ_FAIL;
    if (r->in_header) {
        if (buf[0] == '#')
            return header_line(r, buf, r->line, r->have, err) ? READ_NEXT : READ_FAIL;
        if (!header_complete(r, err))
            return READ_FAIL;
        if (strcmp(buf, REC_COLUMNS) != 0) {
            if (cut)
                return READ_STOP; /* cut inside the column line: no samples */
            return nr_error_set(err, "%s:%d: expected the column line '%s'", r->path, r->line, REC_COLUMNS),
                   READ_FAIL;
        }
        r->in_header = false;
        return READ_NEXT;
    }
    if (cut) {
        /* A killed writer leaves a partial last line: drop it. */
        r->rec->truncated = true;
        return READ_STOP;
    }
    if (len > 0 && buf[0] == '#') /* a mark, or a comment: harmless */
        return body_comment(r, buf, r->line, err) ? READ_NEXT : READ_FAIL;
    if (len == 0)
        return READ_NEXT; /* blank lines between rows are harmless */
    return parse_row(r, buf, r->line, err) ? READ_NEXT : READ_FAIL;
}

/* After the last line: a file that ends in its header, or between the rows
 * of one sample time, keeps what is whole and says truncated. */
static bool read_end(Reader *r, NrError *err)
{
    Recording *rec = r->rec;
    if (r->line == 0)
        return nr_error_set(err, "%s:1: empty file (expected the header '# %s: %d')", r->path, REC_MAGIC,
                            RECORDING_VERSION);
    if (r->in_header) {
        if (!r->have_magic)
            return nr_error_set(err, "%s:%d: expected the header '# %s: %d'", r->path, r->line, REC_MAGIC,
                                RECORDING_VERSION);
        if (!header_complete(r, err))
            return false;
        rec->truncated = true; /* the file ends before the column line */
    }
    if (r->ntimes > 0 && r->seen != (1u << rec->ncars) - 1) {
        /* The last sample time lacks some cars: the writer was killed
         * between rows. Keep the whole sample times before it. */
        r->ntimes--;
        rec->truncated = true;
    }
    for (int i = 0; i < rec->nmarks; i++) /* a header's mark may have come before its cars line */
        if (rec->marks[i].player > rec->ncars)
            return nr_error_set(err, "%s: mark at %lld ms of player %d: the recording has %d cars", r->path,
                                (long long)rec->marks[i].t_ms, rec->marks[i].player, rec->ncars);
    return true;
}

/* The rows read ([time][car]) into rec->samples ([car][time]). */
static bool store_samples(Reader *r, NrError *err)
{
    Recording *rec = r->rec;
    rec->nsamples = r->ntimes;
    if (r->ntimes == 0)
        return true;
    rec->samples = calloc((size_t)r->ntimes * (size_t)rec->ncars, sizeof *rec->samples);
    if (!rec->samples)
        return nr_error_set(err, "%s: out of memory", r->path);
    for (int i = 0; i < r->ntimes; i++)
        for (int c = 0; c < rec->ncars; c++)
            rec->samples[(size_t)c * (size_t)r->ntimes + (size_t)i] = r->rows[(size_t)i * (size_t)rec->ncars + (size_t)c];
    return true;
}

bool recording_read(Recording *rec, FILE *f, const char *path, NrError *err)
{
    memset(rec, 0, sizeof *rec);
    Reader r = {.path = path, .rec = rec, .in_header = true};
    char *buf = malloc(NR_LINE_MAX);
    if (!buf)
        return nr_error_set(err, "%s: out of memory", path);
    size_t got;
    NrLine lr;
    ReadStep step = READ_NEXT;
    while (step == READ_NEXT && (lr = nr_line_read(f, buf, NR_LINE_MAX, &got)) != NR_LINE_EOF) {
        r.line++;
        step = read_line(&r, buf, got, lr, err);
    }
    bool ok = step != READ_FAIL;
    if (ok && ferror(f))
        ok = nr_error_set(err, "%s: read error", path);
    free(buf);
    ok = ok && read_end(&r, err) && store_samples(&r, err);
    free(r.rows);
    if (!ok) {
        recording_free(rec); /* samples and marks */
        memset(rec, 0, sizeof *rec);
    }
    return ok;
}

bool recording_in_range(const Recording *rec, const char *path, NrError *err)
{
    for (int i = 0; i < rec->nsamples; i++)
        for (int c = 0; c < rec->ncars; c++) {
            const RecSample *s = recording_at(rec, c, i);
            const char *bad = fabs(s->x) > RECORDING_MAX_POS       ? "x"
                              : fabs(s->y) > RECORDING_MAX_POS     ? "y"
                              : fabs(s->speed) > RECORDING_MAX_SPEED ? "speed"
                                                                     : NULL;
            if (bad)
                return nr_error_set(err, "%s: car %d at t_ms %ld: %s = %g is out of range (positions within "
                                    "+-%g car widths, speeds within +-%g cw/s)", path, c + 1, (long)s->t_ms, bad,
                                    bad[0] == 'x' ? s->x : bad[0] == 'y' ? s->y : s->speed, RECORDING_MAX_POS,
                                    RECORDING_MAX_SPEED);
        }
    return true;
}
