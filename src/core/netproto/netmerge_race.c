/* The merge of the terminal logs of one network race (2 to 8 cars) into a
 * race recording and the measured one-way delays of every line
 * (netmerge.h; docs/netlog.md, docs/link.md "Trace"). */
#include "netmerge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const TermLog *netmerge_of_car(const TermLog *const *logs, int n, int car)
{
    for (int i = 0; i < n; i++)
        if (logs[i]->car == car)
            return logs[i];
    return NULL;
}

/* The two-player checks, with the messages they always had. */
static bool check_two(const TermLog *a, const TermLog *b, NrError *err)
{
    if (a->car == b->car)
        return nr_error_set(err, "both logs are of car %d: expected one of car 1 and one of car 2", a->car);
    if (strcmp(a->topology, "p2p") == 0 && a->host == b->host)
        return nr_error_set(err, "both logs are a %s's: expected one host and one joiner",
                            a->host ? "host" : "joiner");
    return true;
}

bool netmerge_check_all(const TermLog *const *logs, int n, NrError *err)
{
    const TermLog *a = logs[0];
    for (int i = 1; i < n; i++) {
        const TermLog *b = logs[i];
        if (strcmp(a->token, b->token) != 0)
            return nr_error_set(err, "session tokens %s and %s differ: the logs are of two sessions", a->token,
                                b->token);
        if (a->period_ms != b->period_ms)
            return nr_error_set(err, "periods %d ms and %d ms differ", a->period_ms, b->period_ms);
        if (strcmp(a->track, b->track) != 0)
            return nr_error_set(err, "tracks '%s' and '%s' differ", a->track, b->track);
        if (a->schemes[0] && b->schemes[0] && strcmp(a->schemes, b->schemes) != 0)
            return nr_error_set(err, "scheme lists '%s' and '%s' differ", a->schemes, b->schemes);
        if (strcmp(a->topology, b->topology) != 0)
            return nr_error_set(err, "topologies '%s' and '%s' differ", a->topology, b->topology);
        if (a->ncars != b->ncars)
            return nr_error_set(err, "the logs of cars %d and %d say %d and %d cars", a->car, b->car, a->ncars,
                                b->ncars);
    }
    if (n == 2 && !check_two(logs[0], logs[1], err))
        return false;
    for (int i = 0; n > 2 && strcmp(a->topology, "p2p") == 0 && i < n; i++)
        if (logs[i]->host != (logs[i]->car == 1))
            return nr_error_set(err, "the log of car %d is a %s's: a peer-to-peer race has one host, car 1, and "
                                "joiners", logs[i]->car, logs[i]->host ? "host" : "joiner");
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (logs[i]->car == logs[j]->car)
                return nr_error_set(err, "two logs of car %d: expected one log per car", logs[i]->car);
    if (a->ncars != n) {
        for (int c = 1; c <= a->ncars && n < a->ncars; c++)
            if (!netmerge_of_car(logs, n, c))
                return nr_error_set(err, "a race of %d cars, %d logs: car %d's log is missing", a->ncars, n, c);
        return nr_error_set(err, "a race of %d cars, %d logs given: expected one log per car", a->ncars, n);
    }
    return true;
}

int netmerge_samples_all(const TermLog *const *logs, int n)
{
    int m = logs[0]->nown;
    for (int i = 1; i < n; i++)
        m = logs[i]->nown < m ? logs[i]->nown : m;
    return m;
}

/* The link matrix (raceheader.h): the emulated link each terminal put on
 * what it sent, line by line (a line's own spec, else the terminal's
 * link); over a server the uplinks only (the server's downlinks are in no
 * terminal's log). Then each terminal's artificial clock when the schemes
 * ran on the raw clocks (synchronised, they ran on the host's). */
static void condition_links(const TermLog *const *logs, int n, const TermLog *c1, Recording *rec)
{
    bool cs = strcmp(c1->topology, "p2p") != 0, any = false;
    char key[RECORDING_META_KEY], v[RECORDING_META_VALUE];
    const char *off[TERMLOG_MAX_CARS], *ppm[TERMLOG_MAX_CARS];
    for (int c = 1; c <= n; c++) {
        const TermLog *l = netmerge_of_car(logs, n, c);
        for (int d = 1; d <= n && !cs; d++) {
            const char *spec = l->line_link[d - 1][0] ? l->line_link[d - 1] : l->link;
            snprintf(key, sizeof key, n > 2 ? "link_%d_%d" : c == 1 ? "link12" : "link21", c, d);
            if (d != c && spec[0])
                recording_meta_add(rec, key, spec);
        }
        snprintf(key, sizeof key, "link_%d_s", c);
        if (cs && l->link[0])
            recording_meta_add(rec, key, l->link);
        bool raw = strcmp(l->clock, "raw") == 0; /* its schemes ran on its own clock */
        off[c - 1] = raw && l->offset_true_ms[0] ? l->offset_true_ms : "0";
        ppm[c - 1] = raw && l->drift_true_ppm[0] ? l->drift_true_ppm : "0";
        any |= strcmp(off[c - 1], "0") != 0 || strcmp(ppm[c - 1], "0") != 0;
    }
    for (int c = 1; c <= n && any; c++) {
        snprintf(key, sizeof key, "clock_%d", c);
        snprintf(v, sizeof v, "%s,%s", off[c - 1], ppm[c - 1]);
        recording_meta_add(rec, key, v);
    }
}

/* The race's condition as the logs' headers give it (what play's
 * recordings say: liverace.h), each key only when a log has it and it fits
 * the recording's header (the logs keep every value whole). */
static void condition_lines(const TermLog *const *logs, int n, const TermLog *named, Recording *rec)
{
    const TermLog *c1 = netmerge_of_car(logs, n, 1);
    const TermLog *src = named->shown[0] ? named : c1;
    bool wide = n > 2 || strcmp(c1->topology, "p2p") != 0;
    if (src->shown[0])
        recording_meta_add(rec, "scheme", src->shown);
    if (wide)
        recording_meta_add(rec, "topology", c1->topology);
    condition_links(logs, n, c1, rec);
    /* a study's race: the keys play's study recordings have (the host's log) */
    const char *keys[10] = {"delta_ms", "tdr_cw", "converge_ms", "seed", "clock",
                            "study", "pair", "race", "condition", "race_kind"};
    const char *vals[10] = {src->delta_ms, src->tdr_cw, src->converge_ms, src->seed, src->clock,
                            named->study, named->pair, named->study[0] ? named->study_race : "", named->condition,
                            named->race_kind};
    for (int k = 0; k < 10; k++)
        if (vals[k][0])
            recording_meta_add(rec, keys[k], vals[k]);
}

static int cmp_mark(const void *pa, const void *pb)
{
    const RecMark *x = pa, *y = pb;
    if (x->t_ms != y->t_ms)
        return x->t_ms < y->t_ms ? -1 : 1;
    if (x->player != y->player)
        return x->player - y->player;
    return strcmp(x->kind, y->kind);
}

/* Every log's marks, in time order (ties: by car). */
static bool merged_marks(const TermLog *const *logs, int n, Recording *rec)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < logs[i]->nmarks; k++)
            if (!recording_mark_add(rec, &logs[i]->marks[k]))
                return false;
    if (rec->nmarks > 1)
        qsort(rec->marks, (size_t)rec->nmarks, sizeof *rec->marks, cmp_mark);
    return true;
}

bool netmerge_recording_all(const TermLog *const *logs, int n, Recording *rec, NrError *err)
{
    memset(rec, 0, sizeof *rec);
    if (!netmerge_check_all(logs, n, err))
        return false;
    const TermLog *named = netmerge_of_car(logs, n, 1); /* the track's file: the host's, or any client's */
    for (int i = 0; i < n; i++)
        named = logs[i]->host || (!named->track_file[0] && logs[i]->track_file[0]) ? logs[i] : named;
    int ns = netmerge_samples_all(logs, n);
    rec->version = RECORDING_VERSION;
    snprintf(rec->track, sizeof rec->track, "%s", named->track_file[0] ? named->track_file : named->track);
    snprintf(rec->source, sizeof rec->source, "network");
    snprintf(rec->created, sizeof rec->created, "%s", named->created);
    rec->period_ms = logs[0]->period_ms;
    rec->ncars = n;
    rec->nsamples = ns;
    rec->samples = malloc((size_t)ns * (size_t)n * sizeof *rec->samples);
    if (!rec->samples)
        return nr_error_set(err, "out of memory for %d samples", ns);
    for (int c = 0; c < n; c++)
        memcpy(&rec->samples[(size_t)c * (size_t)ns], netmerge_of_car(logs, n, c + 1)->own,
               (size_t)ns * sizeof *rec->samples);
    condition_lines(logs, n, named, rec);
    if (!merged_marks(logs, n, rec))
        return nr_error_set(err, "the logs' marks: out of memory or more than %d", RECORDING_MAX_MARKS);
    return true;
}

static int cmp_delay(const void *pa, const void *pb)
{
    const NetDelayRow *x = pa, *y = pb;
    if (x->dir != y->dir)
        return x->dir - y->dir;
    if (x->seq != y->seq)
        return x->seq < y->seq ? -1 : 1;
    if (x->parity != y->parity)
        return x->parity - y->parity;
    if (x->arrival_us != y->arrival_us)
        return (x->arrival_us > y->arrival_us) - (x->arrival_us < y->arrival_us);
    return (x->pkt_seq > y->pkt_seq) - (x->pkt_seq < y->pkt_seq);
}

void netmerge_sort_delays(NetDelayRow *rows, int64_t n)
{
    qsort(rows, (size_t)n, sizeof *rows, cmp_delay);
}

bool netmerge_delays_all(const TermLog *const *logs, int n, NetDelayRow **rows, int64_t *nrows, NrError *err)
{
    *rows = NULL;
    *nrows = 0;
    int ns = netmerge_samples_all(logs, n);
    int64_t total = 0;
    for (int i = 0; i < n; i++)
        total += logs[i]->nrx;
    NetDelayRow *v = malloc((size_t)(total > 0 ? total : 1) * sizeof *v);
    if (!v)
        return nr_error_set(err, "out of memory for %lld delay rows", (long long)total);
    int64_t m = 0;
    for (int l = 0; l < n; l++) {
        const TermLog *log = logs[l];
        for (int64_t i = 0; i < log->nrx; i++) {
            const TermLogPkt *p = &log->rx[i];
            if (p->seq >= ns)
                continue;
            int dir = n == 2 ? (log->car == 2 ? 0 : 1) : p->from * TERMLOG_MAX_CARS + log->car;
            v[m++] = (NetDelayRow){dir,         p->from,     log->car,       p->seq,
                                   p->parity,   p->pkt_seq,  p->schemes,     p->send_sync_us,
                                   p->arr_sync_us, p->arr_sync_us - p->send_sync_us, 0};
        }
    }
    qsort(v, (size_t)m, sizeof *v, cmp_delay);
    *rows = v;
    *nrows = m;
    return true;
}

bool netmerge_write_delays(FILE *f, const char *schemes, const NetDelayRow *rows, int64_t n)
{
    fprintf(f, "# netrace delays 1: measured one-way delays (docs/link.md \"Trace\")\n");
    if (schemes && schemes[0]) /* the names of the mask bits */
        fprintf(f, "# schemes: %s\n", schemes);
    fprintf(f, "direction,seq,kind,pkt_seq,schemes,sent_us,arrival_us,delay_us\n");
    for (int64_t i = 0; i < n; i++) {
        const NetDelayRow *r = &rows[i];
        char dir[8];
        if (r->hop == NETMERGE_UP)
            snprintf(dir, sizeof dir, "%ds", r->from);
        else if (r->hop == NETMERGE_DOWN)
            snprintf(dir, sizeof dir, "%ds%d", r->from, r->to);
        else
            snprintf(dir, sizeof dir, "%d%d", r->from, r->to);
        fprintf(f, "%s,%d,%s,%lld,%lld,%lld,%lld,%lld\n", dir, r->seq, r->parity ? "parity" : "update",
                (long long)r->pkt_seq, (long long)r->schemes, (long long)r->sent_us, (long long)r->arrival_us,
                (long long)r->delay_us);
    }
    return !ferror(f);
}

static int cmp_i64(const void *pa, const void *pb)
{
    int64_t x = *(const int64_t *)pa, y = *(const int64_t *)pb;
    return (x > y) - (x < y);
}

bool netmerge_counts_pair(const TermLog *const *logs, int n, int from, int to, NetCounts *out)
{
    *out = (NetCounts){0};
    int ns = netmerge_samples_all(logs, n);
    const TermLog *sender = netmerge_of_car(logs, n, from), *receiver = netmerge_of_car(logs, n, to);
    if (!sender || !receiver)
        return true;
    for (int64_t i = 0; i < sender->ntx; i++)
        out->sent += sender->tx[i].seq < ns && (sender->tx[i].to == 0 || sender->tx[i].to == to);
    int64_t *ids = malloc((size_t)(receiver->nrx > 0 ? receiver->nrx : 1) * sizeof *ids);
    int64_t k = 0;
    for (int64_t i = 0; ids && i < receiver->nrx; i++)
        if (receiver->rx[i].seq < ns && receiver->rx[i].from == from)
            ids[k++] = receiver->rx[i].pkt_seq;
    if (!ids)
        return false;
    qsort(ids, (size_t)k, sizeof *ids, cmp_i64);
    for (int64_t i = 0; i < k; i++) {
        if (i > 0 && ids[i] == ids[i - 1])
            out->extra_copies++;
        else
            out->received++;
    }
    free(ids);
    int64_t lost = out->sent - out->received - out->extra_copies;
    out->lost = lost > 0 ? lost : 0;
    return true;
}

/* ---- two logs ---------------------------------------------------------------- */

bool netmerge_check(const TermLog *a, const TermLog *b, NrError *err)
{
    const TermLog *logs[2] = {a, b};
    return netmerge_check_all(logs, 2, err);
}

int netmerge_samples(const TermLog *a, const TermLog *b)
{
    const TermLog *logs[2] = {a, b};
    return netmerge_samples_all(logs, 2);
}

bool netmerge_recording(const TermLog *a, const TermLog *b, Recording *rec, NrError *err)
{
    const TermLog *logs[2] = {a, b};
    return netmerge_recording_all(logs, 2, rec, err);
}

bool netmerge_delays(const TermLog *a, const TermLog *b, NetDelayRow **rows, int64_t *n, NrError *err)
{
    const TermLog *logs[2] = {a, b};
    return netmerge_delays_all(logs, 2, rows, n, err);
}

bool netmerge_counts(const TermLog *a, const TermLog *b, int dir, NetCounts *out)
{
    const TermLog *logs[2] = {a, b};
    return netmerge_counts_pair(logs, 2, dir == 0 ? 1 : 2, dir == 0 ? 2 : 1, out);
}

bool netmerge_inputs_all(const TermLog *const *logs, int n, const char *path, NrError *err)
{
    for (int i = 0; i < n; i++)
        if (logs[i]->ninputs == 0)
            return nr_error_set(err, "the log of car %d has no input rows (a log from before them): no inputs file",
                                logs[i]->car);
    InputsWriter *w = inputs_writer_open(path, err);
    if (!w)
        return false;
    bool ok = true;
    for (int i = 0; i < n && ok; i++) /* a player's lines in time order; players one after the other */
        for (int64_t k = 0; k < logs[i]->ninputs && ok; k++) {
            const InputLine *l = &logs[i]->inputs[k];
            ok = inputs_writer_add(w, l->t_ms, l->player, &l->in, err);
        }
    NrError e2 = {{0}};
    if (!inputs_writer_close(w, &e2) && ok) /* a write error keeps PATH.part, never PATH */
        ok = nr_error_set(err, "%s", e2.msg);
    return ok;
}
