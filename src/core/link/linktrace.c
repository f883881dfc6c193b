/* Measured-delay traces (`trace FILE`): the delays file reader and the
 * per-slot fate it gives a link. Format and rules: docs/link.md "Trace". */
#include "link.h"
#include "nr_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define TRACE_COLS_MAX 32
#define TRACE_ROWS_START 1024

enum { COL_DIR, COL_SEQ, COL_KIND, COL_SENT, COL_ARRIVAL, COL_DELAY, COL_PKT, COL_SCHEMES, COL_KNOWN };
static const char *const col_name[COL_KNOWN] = {"direction", "seq",      "kind",    "sent_us",
                                                "arrival_us", "delay_us", "pkt_seq", "schemes"};

/* One data row as read; sorted afterwards into slots. */
typedef struct RawRow {
    int32_t seq;
    int32_t delay_us; /* >= 0 */
    uint8_t dir, kind; /* 0 = 12 / update, 1 = 21 / parity */
    int bits;          /* schemes in the packet's mask (0 without the column) */
    uint32_t mask;     /* the mask itself */
    int64_t pkt;       /* pkt_seq: copies of one packet share it (-1 without) */
    int64_t line;      /* file order breaks ties */
} RawRow;

void linktrace_free(LinkTrace *t)
{
    if (!t)
        return;
    free(t->slot[0]);
    free(t->slot[1]);
    free(t->pkt[0]);
    free(t->pkt[1]);
    *t = (LinkTrace){0};
}

bool linktrace_copy(LinkTrace *dst, const LinkTrace *src)
{
    LinkTrace c = *src;
    c.slot[0] = c.slot[1] = NULL;
    c.pkt[0] = c.pkt[1] = NULL;
    bool ok = true;
    for (int d = 0; d < 2 && ok; d++) {
        if (src->n[d] > 0 && (c.slot[d] = malloc((size_t)src->n[d] * sizeof *c.slot[d])))
            memcpy(c.slot[d], src->slot[d], (size_t)src->n[d] * sizeof *c.slot[d]);
        if (src->npkt[d] > 0 && (c.pkt[d] = malloc((size_t)src->npkt[d] * sizeof *c.pkt[d])))
            memcpy(c.pkt[d], src->pkt[d], (size_t)src->npkt[d] * sizeof *c.pkt[d]);
        ok = (src->n[d] <= 0 || c.slot[d]) && (src->npkt[d] <= 0 || c.pkt[d]);
    }
    if (!ok) {
        linktrace_free(&c);
        *dst = (LinkTrace){0};
        return false;
    }
    *dst = c;
    return true;
}

bool linktrace_load(LinkTrace *t, const char *path, NrError *err)
{
    return linktrace_load_dir(t, path, 0, err);
}

bool linktrace_load_dir(LinkTrace *t, const char *path, int want, NrError *err)
{
    *t = (LinkTrace){0};
    FILE *f = nr_file_open(path, "a delays file", err);
    if (!f)
        return false;
    bool ok = linktrace_read_dir(t, f, path, want, err);
    fclose(f);
    return ok;
}

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

/* A direction IJ of terminals 1..LINK_TRACE_TERMINALS, I != J, as the
 * number IJ; a served race's hops (docs/link.md "Trace"): Is (I's uplink)
 * as I * 10 + 9, IsJ (the downlink to J of I's MUs) as I * 100 + 90 + J,
 * sJ (the downlink to J of every sender's MUs: each sender I's line takes
 * IsJ) as 90 + J; 0 when the text is none of them. */
int linktrace_direction(const char *d)
{
    size_t n = strlen(d);
    int max = '0' + LINK_TRACE_TERMINALS;
#define TERM_OK(c) ((c) >= '1' && (c) <= max)
    if (n == 2 && TERM_OK(d[0]) && TERM_OK(d[1]) && d[0] != d[1])
        return (d[0] - '0') * 10 + (d[1] - '0');
    if (n == 2 && TERM_OK(d[0]) && d[1] == 's')
        return (d[0] - '0') * 10 + LINK_TRACE_SERVER;
    if (n == 2 && d[0] == 's' && TERM_OK(d[1]))
        return LINK_TRACE_SERVER * 10 + (d[1] - '0');
    if (n == 3 && TERM_OK(d[0]) && d[1] == 's' && TERM_OK(d[2]) && d[0] != d[2])
        return (d[0] - '0') * 100 + LINK_TRACE_SERVER * 10 + (d[2] - '0');
#undef TERM_OK
    return 0;
}

void linktrace_direction_text(int dir, char *buf, size_t n)
{
    if (dir >= 100)
        snprintf(buf, n, "%ds%d", dir / 100, dir % 10);
    else if (dir / 10 == LINK_TRACE_SERVER)
        snprintf(buf, n, "s%d", dir % 10);
    else if (dir % 10 == LINK_TRACE_SERVER)
        snprintf(buf, n, "%ds", dir / 10);
    else
        snprintf(buf, n, "%d", dir);
}

/* A row; r->dir 0 (12, or the wanted direction), 1 (21), or RAW_SKIP for a
 * direction of an N-car race that is not wanted. */
#define RAW_SKIP 255
static bool read_row(char **field, int nf, const int *col, int ncols, int want, RawRow *r, const char *path,
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
    if (want) /* one line of an N-car race: its rows alone, as direction 12 */
        r->dir = dir == want ? 0 : RAW_SKIP;
    else
        r->dir = dir == 12 ? 0 : dir == 21 ? 1 : RAW_SKIP;
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

static int cmp_raw(const void *pa, const void *pb)
{
    const RawRow *a = pa, *b = pb;
    if (a->dir != b->dir)
        return a->dir < b->dir ? -1 : 1;
    if (a->seq != b->seq)
        return a->seq < b->seq ? -1 : 1;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    if (a->pkt != b->pkt)
        return a->pkt < b->pkt ? -1 : 1;
    if (a->delay_us != b->delay_us)
        return a->delay_us < b->delay_us ? -1 : 1;
    return (a->line > b->line) - (a->line < b->line);
}

/* The packet a slot takes among the rows r[0..n) of one (dir, seq, kind),
 * sorted by pkt_seq then delay: the one whose scheme mask names the most
 * schemes, then the earliest arrival. Returns its first row; *len its rows. */
static int64_t best_packet(const RawRow *r, int64_t n, int64_t *len)
{
    int64_t best = 0, best_len = 0;
    for (int64_t g = 0; g < n;) {
        int64_t e = g + 1;
        while (e < n && r[e].pkt == r[g].pkt)
            e++;
        if (g == 0 || r[g].bits > r[best].bits ||
            (r[g].bits == r[best].bits && r[g].delay_us < r[best].delay_us)) {
            best = g;
            best_len = e - g;
        }
        g = e;
    }
    *len = best_len;
    return best;
}

/* Sorted rows into slots: per (dir, seq, kind) one packet (best_packet);
 * its earliest copy is the packet, the next its duplicate; later copies and
 * other packets of the slot are counted only. */
static bool build_slots(LinkTrace *t, const RawRow *r, int64_t n)
{
    int64_t i = 0;
    for (int d = 0; d < 2; d++) {
        int64_t start = i, distinct = 0;
        for (int64_t j = i; j < n && r[j].dir == d; j++)
            distinct += j == start || r[j].seq != r[j - 1].seq;
        if (distinct == 0)
            continue;
        t->slot[d] = malloc((size_t)distinct * sizeof *t->slot[d]);
        if (!t->slot[d])
            return false;
        int m = -1;
        while (i < n && r[i].dir == d) {
            int64_t e = i + 1;
            while (e < n && r[e].dir == d && r[e].seq == r[i].seq && r[e].kind == r[i].kind)
                e++;
            if (m < 0 || t->slot[d][m].seq != r[i].seq)
                t->slot[d][++m] = (LinkTraceSlot){r[i].seq, LINK_TRACE_NONE, LINK_TRACE_NONE, LINK_TRACE_NONE,
                                                  LINK_TRACE_NONE};
            LinkTraceSlot *s = &t->slot[d][m];
            if (r[i].kind)
                t->parity[d] = true;
            int64_t len, b = best_packet(&r[i], e - i, &len);
            *(r[i].kind ? &s->aux_us : &s->delay_us) = r[i + b].delay_us;
            if (len > 1)
                *(r[i].kind ? &s->aux_dup_us : &s->dup_us) = r[i + b + 1].delay_us;
            t->extra_copies += len > 2 ? len - 2 : 0;
            t->other_packets += (e - i) - len;
            i = e;
        }
        t->n[d] = m + 1;
    }
    return true;
}

/* With a schemes column: every packet (rows of one pkt_seq) of each slot,
 * its earliest copy and the next, for the fates per scheme. */
static bool build_packets(LinkTrace *t, const RawRow *r, int64_t n)
{
    int64_t i = 0;
    for (int d = 0; d < 2; d++) {
        int64_t start = i, count = 0, j;
        for (j = i; j < n && r[j].dir == d; j++)
            count += j == start || r[j].seq != r[j - 1].seq || r[j].kind != r[j - 1].kind || r[j].pkt != r[j - 1].pkt;
        if (count == 0)
            continue;
        LinkTracePkt *p = malloc((size_t)count * sizeof *p);
        if (!p)
            return false;
        int m = 0;
        for (; i < j;) {
            int64_t e = i + 1;
            while (e < j && r[e].seq == r[i].seq && r[e].kind == r[i].kind && r[e].pkt == r[i].pkt)
                e++;
            p[m++] = (LinkTracePkt){r[i].seq, r[i].kind, r[i].mask, r[i].delay_us,
                                    e - i > 1 ? r[i + 1].delay_us : LINK_TRACE_NONE};
            i = e;
        }
        t->pkt[d] = p;
        t->npkt[d] = m;
    }
    return true;
}

int linktrace_scheme_bit(const LinkTrace *t, const char *name)
{
    if (!t->pkt[0] && !t->pkt[1])
        return -1;
    int bit = 0;
    for (const char *p = t->schemes; *p && bit < 32; bit++) {
        size_t len = strcspn(p, ",");
        if (len == strlen(name) && strncmp(p, name, len) == 0)
            return bit;
        p += len;
        if (*p == ',')
            p++;
    }
    return -1;
}

void linktrace_fate_scheme(const LinkTrace *t, int dir, int32_t seq, int kind, int bit, LinkDraw *out)
{
    *out = (LinkDraw){.lost = true, .past_end = seq > linktrace_last_seq(t, dir)};
    if (t->named)
        dir = t->named == 21;
    if (dir < 0 || dir > 1 || bit < 0 || bit > 31)
        return;
    /* A trace without parity rows in this direction: parity packets share
     * the update's fate (as linktrace_fate). */
    if (kind && !t->parity[dir])
        kind = 0;
    int lo = 0, hi = t->npkt[dir];
    const LinkTracePkt *p = t->pkt[dir];
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (p[mid].seq < seq || (p[mid].seq == seq && p[mid].kind < kind))
            lo = mid + 1;
        else
            hi = mid;
    }
    for (int i = lo; i < t->npkt[dir] && p[i].seq == seq && p[i].kind == kind; i++) {
        if (!(p[i].mask >> bit & 1u))
            continue;
        out->lost = false;
        out->delay_us = p[i].delay_us;
        out->dup = p[i].dup_us != LINK_TRACE_NONE;
        out->dup_delay_us = out->dup ? p[i].dup_us : 0;
        return;
    }
}

/* A trace file being read: its rows so far and where the columns are. */
typedef struct TraceReader {
    LinkTrace *t;
    const char *path;
    RawRow *rows;
    int64_t cap, n;
    int col[COL_KNOWN], ncols;
    int64_t lineno;
    bool header;
    int want; /* a direction IJ other than 12 / 21 kept in slot 0; 0: none */
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
    RawRow *g = realloc(r->rows, (size_t)ncap * sizeof *r->rows);
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
    if (!read_row(field, nf, r->col, r->ncols, r->want, &r->rows[r->n], r->path, r->lineno, err))
        return TRACE_FAIL;
    if (r->rows[r->n].dir == RAW_SKIP) /* another line of an N-car race */
        r->t->other_directions++;
    else
        r->n++;
    return TRACE_NEXT;
}

bool linktrace_read(LinkTrace *t, FILE *f, const char *path, NrError *err)
{
    return linktrace_read_dir(t, f, path, 0, err);
}

bool linktrace_read_dir(LinkTrace *t, FILE *f, const char *path, int want, NrError *err)
{
    *t = (LinkTrace){0};
    char *line = malloc(NR_LINE_MAX);
    TraceReader r = {.t = t, .path = path, .cap = TRACE_ROWS_START, .want = want == 12 || want == 21 ? 0 : want};
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
    if (ok) {
        qsort(r.rows, (size_t)r.n, sizeof *r.rows, cmp_raw);
        t->on = true;
        t->rows = r.n;
        if (!build_slots(t, r.rows, r.n) || (r.col[COL_SCHEMES] >= 0 && !build_packets(t, r.rows, r.n)))
            ok = nr_error_set(err, "%s: out of memory", path);
    }
    free(r.rows);
    if (!ok)
        linktrace_free(t);
    return ok;
}

static const LinkTraceSlot *find_slot(const LinkTrace *t, int dir, int32_t seq)
{
    int lo = 0, hi = t->n[dir];
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (t->slot[dir][mid].seq < seq)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->n[dir] && t->slot[dir][lo].seq == seq ? &t->slot[dir][lo] : NULL;
}

int32_t linktrace_last_seq(const LinkTrace *t, int dir)
{
    if (t->named)
        dir = t->named == 21;
    if (dir < 0 || dir > 1 || t->n[dir] < 1)
        return -1;
    return t->slot[dir][t->n[dir] - 1].seq; /* slots by increasing seq */
}

void linktrace_fate(const LinkTrace *t, int dir, int32_t seq, bool aux, LinkDraw *out)
{
    *out = (LinkDraw){.lost = true, .past_end = seq > linktrace_last_seq(t, dir)};
    if (t->named)
        dir = t->named == 21;
    if (dir < 0 || dir > 1)
        return;
    const LinkTraceSlot *s = find_slot(t, dir, seq);
    if (!s)
        return;
    /* A trace measured without parity packets: a slot's further packets
     * share its update packet's fate, as the emulator's auxiliary draw
     * would share one draw among the schemes. */
    bool own = aux && t->parity[dir];
    int32_t first = own ? s->aux_us : s->delay_us, second = own ? s->aux_dup_us : s->dup_us;
    if (first == LINK_TRACE_NONE)
        return;
    out->lost = false;
    out->delay_us = first;
    if (second != LINK_TRACE_NONE) {
        out->dup = true;
        out->dup_delay_us = second;
    }
}
