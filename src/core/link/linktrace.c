/* Measured-delay traces (`trace FILE`): a delays file's rows (read by
 * linktrace_read.c) into the slots of a link's direction, and the per-slot
 * fate they give it. Format and rules: docs/link.md "Trace". */
#include "linktrace_rows.h"
#include "nr_file.h"

#include <stdlib.h>
#include <string.h>

#define ROW_SKIP 255 /* TraceRow.dir of a row of another direction */

void linktrace_free(LinkTrace *t)
{
    if (!t)
        return;
    free(t->slot[0]);
    free(t->slot[1]);
    free(t->pkt[0]);
    free(t->pkt[1]);
    for (int i = 0; t->via && i < LINK_TRACE_TERMINALS; i++)
        linktrace_free(&t->via[i]);
    free(t->via);
    *t = (LinkTrace){0};
}

bool linktrace_copy(LinkTrace *dst, const LinkTrace *src)
{
    LinkTrace c = *src;
    c.slot[0] = c.slot[1] = NULL;
    c.pkt[0] = c.pkt[1] = NULL;
    c.via = NULL;
    bool ok = true;
    for (int d = 0; d < 2 && ok; d++) {
        if (src->n[d] > 0 && (c.slot[d] = malloc((size_t)src->n[d] * sizeof *c.slot[d])))
            memcpy(c.slot[d], src->slot[d], (size_t)src->n[d] * sizeof *c.slot[d]);
        if (src->npkt[d] > 0 && (c.pkt[d] = malloc((size_t)src->npkt[d] * sizeof *c.pkt[d])))
            memcpy(c.pkt[d], src->pkt[d], (size_t)src->npkt[d] * sizeof *c.pkt[d]);
        ok = (src->n[d] <= 0 || c.slot[d]) && (src->npkt[d] <= 0 || c.pkt[d]);
    }
    if (ok && src->via && (ok = (c.via = calloc(LINK_TRACE_TERMINALS, sizeof *c.via)) != NULL))
        for (int i = 0; i < LINK_TRACE_TERMINALS && ok; i++)
            ok = linktrace_copy(&c.via[i], &src->via[i]);
    if (!ok) {
        linktrace_free(&c);
        *dst = (LinkTrace){0};
        return false;
    }
    *dst = c;
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

static int cmp_row(const void *pa, const void *pb)
{
    const TraceRow *a = pa, *b = pb;
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
static int64_t best_packet(const TraceRow *r, int64_t n, int64_t *len)
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
static bool build_slots(LinkTrace *t, const TraceRow *r, int64_t n)
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
static bool build_packets(LinkTrace *t, const TraceRow *r, int64_t n)
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

/* The slots of one link's direction out of a file's rows: want 0, 12 or
 * 21 takes the rows 12 and 21 (directions 0 and 1), any other code its
 * rows alone as direction 12; the others are counted (other_directions).
 * own: the rows are this call's to reorder in place, else copied. */
static bool trace_build(LinkTrace *t, LinkTraceRows *rows, int want, bool own, const char *path, NrError *err)
{
    *t = (LinkTrace){0};
    int keep = want == 12 || want == 21 ? 0 : want;
    int64_t n = 0;
    for (int64_t i = 0; i < rows->n; i++) {
        int code = rows->row[i].code;
        n += keep ? code == keep : code == 12 || code == 21;
    }
    TraceRow *r = own ? rows->row : malloc((size_t)(n > 0 ? n : 1) * sizeof *r);
    if (!r)
        return nr_error_set(err, "%s: out of memory", path);
    t->other_directions = rows->n - n;
    n = 0;
    for (int64_t i = 0; i < rows->n; i++) {
        int code = rows->row[i].code;
        int dir = keep ? (code == keep ? 0 : ROW_SKIP) : code == 12 ? 0 : code == 21 ? 1 : ROW_SKIP;
        if (dir == ROW_SKIP)
            continue;
        r[n] = rows->row[i];
        r[n++].dir = (uint8_t)dir;
    }
    memcpy(t->schemes, rows->schemes, sizeof t->schemes);
    qsort(r, (size_t)n, sizeof *r, cmp_row);
    t->on = true;
    t->rows = n;
    bool ok = build_slots(t, r, n) && (!rows->masks || build_packets(t, r, n));
    if (!own)
        free(r);
    if (!ok) {
        linktrace_free(t);
        return nr_error_set(err, "%s: out of memory", path);
    }
    return true;
}

/* want's slots of the rows; for a served race's downlink sJ (route.h) also
 * each sender I's rows IsJ, which I's line takes (linkspec_via_server), so
 * the file is not read again per sender. keep: the rows are kept (a
 * LinkTraceFiles' file), else this call's. */
static bool trace_take(LinkTrace *t, LinkTraceRows *rows, int want, bool keep, const char *path, NrError *err)
{
    bool down = want / 10 == LINK_TRACE_SERVER;
    if (!trace_build(t, rows, want, !keep && !down, path, err))
        return false;
    if (!down)
        return true;
    if (!(t->via = calloc(LINK_TRACE_TERMINALS, sizeof *t->via))) {
        linktrace_free(t);
        return nr_error_set(err, "%s: out of memory", path);
    }
    for (int i = 1; i <= LINK_TRACE_TERMINALS; i++) {
        int hop = i * 100 + LINK_TRACE_SERVER * 10 + want % 10;
        if (i == want % 10)
            continue;
        if (!trace_build(&t->via[i - 1], rows, hop, false, path, err)) {
            linktrace_free(t);
            return false;
        }
        t->via[i - 1].named = hop;
    }
    return true;
}

bool linktrace_read(LinkTrace *t, FILE *f, const char *path, NrError *err)
{
    return linktrace_read_dir(t, f, path, 0, err);
}

bool linktrace_read_dir(LinkTrace *t, FILE *f, const char *path, int want, NrError *err)
{
    *t = (LinkTrace){0};
    LinkTraceRows rows;
    if (!linktrace_rows_read(&rows, f, path, err))
        return false;
    bool ok = trace_take(t, &rows, want, false, path, err);
    linktrace_rows_free(&rows);
    return ok;
}

bool linktrace_load(LinkTrace *t, const char *path, NrError *err)
{
    return linktrace_load_files(t, path, 0, NULL, err);
}

bool linktrace_load_dir(LinkTrace *t, const char *path, int want, NrError *err)
{
    return linktrace_load_files(t, path, want, NULL, err);
}

/* The rows of path read for an earlier line, or NULL. */
static LinkTraceRows *files_find(LinkTraceFiles *files, const char *path)
{
    for (int i = 0; i < files->n; i++)
        if (strcmp(files->file[i].path, path) == 0)
            return &files->file[i].rows;
    return NULL;
}

/* rows (taken: freed when they cannot be kept) kept under path. */
static LinkTraceRows *files_add(LinkTraceFiles *files, const char *path, LinkTraceRows *rows)
{
    struct LinkTraceFile *g = realloc(files->file, (size_t)(files->n + 1) * sizeof *g);
    char *copy = malloc(strlen(path) + 1);
    if (g)
        files->file = g;
    if (!g || !copy) {
        free(copy);
        linktrace_rows_free(rows);
        return NULL;
    }
    memcpy(copy, path, strlen(path) + 1);
    files->file[files->n] = (struct LinkTraceFile){copy, *rows};
    return &files->file[files->n++].rows;
}

bool linktrace_load_files(LinkTrace *t, const char *path, int want, LinkTraceFiles *files, NrError *err)
{
    *t = (LinkTrace){0};
    LinkTraceRows *rows = files ? files_find(files, path) : NULL;
    if (rows)
        return trace_take(t, rows, want, true, path, err);
    FILE *f = nr_file_open(path, "a delays file", err);
    if (!f)
        return false;
    if (!files) {
        bool ok = linktrace_read_dir(t, f, path, want, err);
        fclose(f);
        return ok;
    }
    LinkTraceRows got;
    bool ok = linktrace_rows_read(&got, f, path, err);
    fclose(f);
    if (!ok)
        return false;
    if (!(rows = files_add(files, path, &got)))
        return nr_error_set(err, "%s: out of memory", path);
    return trace_take(t, rows, want, true, path, err);
}

void linktrace_files_free(LinkTraceFiles *files)
{
    if (!files)
        return;
    for (int i = 0; i < files->n; i++) {
        free(files->file[i].path);
        linktrace_rows_free(&files->file[i].rows);
    }
    free(files->file);
    *files = (LinkTraceFiles){0};
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
