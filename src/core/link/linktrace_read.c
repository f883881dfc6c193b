/* The delays file reader of `trace FILE` (docs/link.md "Trace"): every
 * data row of the file, checked, with its direction's code, for
 * linktrace.c to take the rows of the directions a link wants. */
#include "linktrace_rows.h"
#include "nr_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define TRACE_COLS_MAX 32
#define TRACE_ROWS_START 1024

enum { COL_DIR, COL_SEQ, COL_KIND, COL_SENT, COL_ARRIVAL, COL_DELAY, COL_PKT, COL_SCHEMES, COL_KNOWN };
static const char *const col_name[COL_KNOWN] = {"direction", "seq",      "kind",    "sent_us",
                                                "arrival_us", "delay_us", "pkt_seq", "schemes"};

/* The header row: which field holds each known column. */
static bool read_header(char **field, int nf, int *col, const char *path, int64_t lineno, NrError *err)
{
    for (int c = 0; c < COL_KNOWN; c++)
        col[c] = -1;
    for (int i = 0; i < nf; i++) {
        if (!nr_text_is_printable(field[i]))
            return nr_error_set(err, "%s:%lld: column %d: control characters in the header", path,
                                (long long)lineno, i + 1);
        for (int c = 0; c < COL_KNOWN; c++) {
            if (strcmp(field[i], col_name[c]) != 0)
                continue;
            if (col[c] >= 0)
                return nr_error_set(err, "%s:%lld: column '%s' twice: expected each column once", path,
                                    (long long)lineno, col_name[c]);
            col[c] = i;
        }
    }
    const int need[3] = {COL_DIR, COL_SEQ, COL_DELAY};
    for (int k = 0; k < 3; k++)
        if (col[need[k]] < 0)
            return nr_error_set(err, "%s:%lld: no column '%s': expected a header row naming direction, seq "
                                "and delay_us (optional: kind, sent_us, arrival_us)",
                                path, (long long)lineno, col_name[need[k]]);
    return true;
}

/* An integer field in [lo, hi]; the message names the column and the value. */
static bool int_field(const char *s, int c, int64_t lo, int64_t hi, int64_t *out, const char *path,
                      int64_t lineno, NrError *err)
{
    if (!nr_parse_int64(s, out) || *out < lo || *out > hi)
        return nr_error_set(err, "%s:%lld: %s '%.32s': expected an integer from %lld to %lld", path,
                            (long long)lineno, col_name[c], s, (long long)lo, (long long)hi);
    return true;
}

/* A row, of any direction: r->code its direction (linktrace_direction). */
static bool read_row(char **field, int nf, const int *col, int ncols, TraceRow *r, const char *path,
                     int64_t lineno, NrError *err)
{
    if (nf != ncols)
        return nr_error_set(err, "%s:%lld: %d fields: expected %d as in the header", path, (long long)lineno,
                            nf, ncols);
    const char *d = field[col[COL_DIR]];
    int dir = linktrace_direction(d);
    if (!dir)
        return nr_error_set(err, "%s:%lld: direction '%.32s': expected two terminals IJ of 1 to %d such as 12 "
                            "(terminal 1 to 2) or 21, or a served race's hop Is or IsJ", path, (long long)lineno, d,
                            LINK_TRACE_TERMINALS);
    r->code = (int16_t)dir;
    r->dir = 0;
    int64_t seq, delay;
    if (!int_field(field[col[COL_SEQ]], COL_SEQ, 0, INT32_MAX, &seq, path, lineno, err) ||
        !int_field(field[col[COL_DELAY]], COL_DELAY, -LINK_TIME_MAX_US, LINK_TIME_MAX_US, &delay, path, lineno,
                   err))
        return false;
    r->kind = 0;
    if (col[COL_KIND] >= 0) {
        const char *k = field[col[COL_KIND]];
        if (strcmp(k, "parity") == 0)
            r->kind = 1;
        else if (strcmp(k, "update") != 0)
            return nr_error_set(err, "%s:%lld: kind '%.32s': expected update or parity", path, (long long)lineno,
                                k);
    }
    /* With both times given, the delay must be their difference: a file
     * edited by hand cannot say one thing in two places. */
    if (col[COL_SENT] >= 0 && col[COL_ARRIVAL] >= 0) {
        int64_t sent, arr;
        const int64_t lim = INT64_C(1) << 53;
        if (!int_field(field[col[COL_SENT]], COL_SENT, -lim, lim, &sent, path, lineno, err) ||
            !int_field(field[col[COL_ARRIVAL]], COL_ARRIVAL, -lim, lim, &arr, path, lineno, err))
            return false;
        if (arr - sent != delay)
            return nr_error_set(err, "%s:%lld: delay_us %lld is not arrival_us - sent_us = %lld", path,
                                (long long)lineno, (long long)delay, (long long)(arr - sent));
    }
    r->pkt = -1;
    r->bits = 0;
    r->mask = 0;
    int64_t v;
    if (col[COL_PKT] >= 0) {
        if (!int_field(field[col[COL_PKT]], COL_PKT, 0, UINT32_MAX, &v, path, lineno, err))
            return false;
        r->pkt = v;
    }
    if (col[COL_SCHEMES] >= 0) {
        if (!int_field(field[col[COL_SCHEMES]], COL_SCHEMES, 0, UINT32_MAX, &v, path, lineno, err))
            return false;
        r->mask = (uint32_t)v;
        for (uint32_t m = r->mask; m; m &= m - 1)
            r->bits++;
    }
    r->seq = (int32_t)seq;
    /* A negative measured delay (clock error) is sent at once, as netem
     * does with a negative delay draw. */
    r->delay_us = delay > 0 ? (int32_t)delay : 0;
    r->line = lineno;
    return true;
}


/* A trace file being read: its rows so far and where the columns are. */
typedef struct TraceReader {
    LinkTraceRows *t;
    const char *path;
    TraceRow *rows;
    int64_t cap, n;
    int col[COL_KNOWN], ncols;
    int64_t lineno;
    bool header;
} TraceReader;

typedef enum TraceStep { TRACE_NEXT, TRACE_STOP, TRACE_FAIL } TraceStep;

/* Room for one more row (doubling up to LINK_TRACE_ROWS_MAX). */
static bool grow_rows(TraceReader *r, NrError *err)
{
    if (r->n == LINK_TRACE_ROWS_MAX)
        return nr_error_set(err, "%s:%lld: more than %d rows: expected at most %d", r->path, (long long)r->lineno,
                            LINK_TRACE_ROWS_MAX, LINK_TRACE_ROWS_MAX);
    if (r->n < r->cap)
        return true;
    int64_t ncap = r->cap * 2 > LINK_TRACE_ROWS_MAX ? LINK_TRACE_ROWS_MAX : r->cap * 2;
    TraceRow *g = realloc(r->rows, (size_t)ncap * sizeof *r->rows);
    if (!g)
        return nr_error_set(err, "%s:%lld: out of memory", r->path, (long long)r->lineno);
    r->rows = g;
    r->cap = ncap;
    return true;
}

/* One line (lr: what nr_line_read said of it): '# schemes:' before the
 * header, comments and blank lines, the header, or a row. */
static TraceStep trace_line(TraceReader *r, char *line, NrLine lr, NrError *err)
{
    if (lr == NR_LINE_LONG)
        return nr_error_set(err, "%s:%lld: line longer than %d bytes", r->path, (long long)r->lineno,
                            NR_LINE_MAX - 1), TRACE_FAIL;
    if (lr == NR_LINE_ERROR)
        return TRACE_STOP; /* reported by the caller */
    if (lr == NR_LINE_NUL)
        return nr_error_set(err, "%s:%lld: binary data (NUL byte): expected CSV text", r->path,
                            (long long)r->lineno), TRACE_FAIL;
    char *p = line;
    while (*p == ' ' || *p == '\t')
        p++;
    if (strncmp(p, "# schemes:", 10) == 0 && !r->header) {
        /* the names of the mask bits (netrace merge writes the session's list) */
        char *v = nr_trim(p + 10);
        if (strlen(v) >= sizeof r->t->schemes || !nr_text_is_printable(v))
            return nr_error_set(err, "%s:%lld: schemes: expected at most %zu printable characters", r->path,
                                (long long)r->lineno, sizeof r->t->schemes - 1), TRACE_FAIL;
        memcpy(r->t->schemes, v, strlen(v) + 1);
        return TRACE_NEXT;
    }
    if (*p == '#' || *p == '\0' || *p == '\n' || (*p == '\r' && (p[1] == '\n' || p[1] == '\0')))
        return TRACE_NEXT;
    char *field[TRACE_COLS_MAX];
    int nf = nr_csv_split(p, field, TRACE_COLS_MAX);
    if (nf < 0)
        return nr_error_set(err, "%s:%lld: more than %d fields", r->path, (long long)r->lineno, TRACE_COLS_MAX),
               TRACE_FAIL;
    if (!r->header) {
        bool ok = read_header(field, nf, r->col, r->path, r->lineno, err);
        r->ncols = nf;
        r->header = true;
        return ok ? TRACE_NEXT : TRACE_FAIL;
    }
    if (!grow_rows(r, err))
        return TRACE_FAIL;
    if (!read_row(field, nf, r->col, r->ncols, &r->rows[r->n], r->path, r->lineno, err))
        return TRACE_FAIL;
    r->n++;
    return TRACE_NEXT;
}

void linktrace_rows_free(LinkTraceRows *rows)
{
    if (!rows)
        return;
    free(rows->row);
    *rows = (LinkTraceRows){0};
}

bool linktrace_rows_read(LinkTraceRows *rows, FILE *f, const char *path, NrError *err)
{
    *rows = (LinkTraceRows){0};
    char *line = malloc(NR_LINE_MAX);
    TraceReader r = {.t = rows, .path = path, .cap = TRACE_ROWS_START};
    r.rows = malloc((size_t)r.cap * sizeof *r.rows);
    if (!line || !r.rows) {
        free(line);
        free(r.rows);
        return nr_error_set(err, "%s: out of memory", path);
    }
    size_t got;
    NrLine lr;
    TraceStep step = TRACE_NEXT;
    errno = 0;
    while (step == TRACE_NEXT && (lr = nr_line_read(f, line, NR_LINE_MAX, &got)) != NR_LINE_EOF) {
        r.lineno++;
        step = trace_line(&r, line, lr, err);
    }
    bool ok = step != TRACE_FAIL;
    if (ok && ferror(f))
        ok = nr_error_set(err, "%s:%lld: cannot read: %s", path, (long long)r.lineno + 1,
                          errno ? strerror(errno) : "read error");
    if (ok && !r.header)
        ok = nr_error_set(err, "%s:%lld: no header row: expected 'direction,seq,kind,sent_us,arrival_us,delay_us'",
                          path, (long long)(r.lineno > 0 ? r.lineno : 1));
    free(line);
    if (!ok) {
        free(r.rows);
        *rows = (LinkTraceRows){0};
        return false;
    }
    rows->row = r.rows;
    rows->n = r.n;
    rows->masks = r.col[COL_SCHEMES] >= 0;
    return true;
}
