/* The terminal log of network play, written crash-safe (netlog.h,
 * docs/netlog.md). */
#include "netlog.h"
#include "nr_part.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

struct NetLog {
    NrPartFile pf; /* PATH.part, renamed into place by netlog_close */
    FILE *f;       /* pf.f */
    bool tx_to;    /* a p2p race of more than two cars: tx rows name the car each went to */
    bool failed;
    char why[128];
};

static const char *const kind_names[WIRE_KIND_END] = {
    "?", "hello", "welcome", "track", "mu", "sync_req", "sync_resp", "control", "view", "peers", "peer", "study", "log",
};

NetLog *netlog_open(const char *path, const NetLogMeta *m, NrError *err)
{
    NetLog *g = calloc(1, sizeof *g);
    if (!g) {
        nr_error_set(err, "%s: out of memory", path);
        return NULL;
    }
    /* 0600: the log of one session is its players' (issue 24) */
    if (nr_part_open(&g->pf, path, NR_PART_REPLACE | NR_PART_PRIVATE) != NR_PART_OK) {
        if (g->pf.status == NR_PART_EXISTS)
            nr_error_set(err, "%s: exists (a crashed or running session?); move it away first", g->pf.part);
        else
            nr_error_set(err, "%s: cannot create: %s", g->pf.part, nr_part_reason(&g->pf));
        free(g);
        return NULL;
    }
    g->f = g->pf.f;
    char peer[64], created[32];
    netaddr_text(&m->peer, peer, sizeof peer);
    time_t now = time(NULL);
    struct tm tmv;
    gmtime_r(&now, &tmv);
    strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tmv);
    fprintf(g->f,
            "# netlog: 1\n# role: %s\n# car: %d\n# peer: %s\n# session: %016" PRIx64 "\n# track: %s\n"
            "# track_file: %s\n# track_bytes: %u\n# period_ms: %d\n# laps: %d\n# seconds: %g\n# schemes: %s\n"
            "# shown: %s\n# delta_ms: %g\n# tdr_cw: %g\n# converge_ms: %g\n# seed: %" PRIu64 "\n# link: %s\n"
            "# clock: %s\n# clock_offset_true_ms: %g\n# clock_drift_true_ppm: %g\n# created: %s\n",
            m->role, m->car, peer, m->session_id, m->track_name, m->track_file, m->track_bytes, (int)m->period_ms,
            (int)m->laps, m->seconds, m->schemes, m->shown, (double)m->params.delta_us / 1000.0, m->params.tdr_cw,
            (double)m->params.converge_us / 1000.0, m->seed, m->link, m->raw_clock ? "raw" : "synchronised",
            (double)m->offset_true_us / 1000.0, m->drift_true_ppm, created);
    if (m->study_race > 0) /* a study's race (docs/studies.md "Over the network") */
        fprintf(g->f, "# study_race: %d\n", m->study_race);
    if (m->study) /* the host's: the study's own keys of the recording (merge) */
        fprintf(g->f, "# study: %s\n# pair: %d\n# condition: %s\n# race_kind: %s\n", m->study->name, m->study->pair,
                m->study->condition, m->study->kind);
    for (int j = 0; j < WIRE_MAX_CARS; j++) /* the lines out of this car (a server's: s) with a spec of their own */
        if (m->line_link[j] && j + 1 != m->car && m->car == 0)
            fprintf(g->f, "# link_s_%d: %s\n", j + 1, m->line_link[j][0] ? m->line_link[j] : "none");
        else if (m->line_link[j] && j + 1 != m->car)
            fprintf(g->f, "# link_%d_%d: %s\n", m->car, j + 1, m->line_link[j][0] ? m->line_link[j] : "none");
    if (m->ncars > 2 || strcmp(m->topology, "p2p") != 0) /* a two-player log reads as it did */
        fprintf(g->f, "# cars: %d\n# topology: %s%s%s\n", m->ncars, m->topology, m->server[0] ? " " : "", m->server);
    g->tx_to = m->ncars > 2 && strcmp(m->topology, "p2p") == 0;
    fputs("# columns own: row,seq,t_sync_us,taken_sync_us,taken_local_us,x,y,heading,speed\n", g->f);
    fputs(g->tx_to ? "# columns tx: row,pkt_seq,seq,mu_kind,schemes,send_sync_us,wire_sync_us,to\n"
                   : "# columns tx: row,pkt_seq,seq,mu_kind,schemes,send_sync_us,wire_sync_us\n",
          g->f);
    fputs("# columns rx: row,pkt_seq,kind,arr_local_us,arr_sync_us,send_sync_us,car,seq,mu_kind,schemes,bytes\n"
          "# columns clock: row,local_us,offset_us,bound_us,rtt_us,drift_ppm,sample_offset_us,sample_rtt_us\n"
          "# columns reject: row,local_us,reason,count\n"
          "# columns event: row,local_us,sync_us,what,detail\n"
          "# columns mark: row,local_us,sync_us,kind\n"
          "# columns input: row,t_ms,throttle,brake,steer\n"
          "# columns metric: row,scheme,key,value\n",
          g->f);
    if (nr_part_flush(&g->pf) != NR_PART_OK) {
        nr_error_set(err, "%s: write error: %s", g->pf.part, nr_part_reason(&g->pf));
        nr_part_abort(&g->pf);
        free(g);
        return NULL;
    }
    return g;
}

static void check(NetLog *g)
{
    if (!g->failed && ferror(g->f)) {
        g->failed = true;
        snprintf(g->why, sizeof g->why, "%s", strerror(errno));
    }
}

/* an optional time: empty when INT64_MIN */
static void put_time(FILE *f, int64_t t)
{
    if (t != INT64_MIN)
        fprintf(f, "%" PRId64, t);
}

void netlog_own(NetLog *g, int32_t seq, const RecSample *s, int64_t taken_sync, int64_t taken_local)
{
    if (!g || g->failed)
        return;
    /* as a recording writes them (the shortest text that reads back to the
     * same double): the merged recording holds the samples the terminal
     * took, bit for bit, so its car re-simulates to them from its inputs */
    char x[48], y[48], h[48], v[48];
    nr_format_double(x, sizeof x, s->x);
    nr_format_double(y, sizeof y, s->y);
    nr_format_double(h, sizeof h, s->heading);
    nr_format_double(v, sizeof v, s->speed);
    fprintf(g->f, "own,%d,%" PRId64 ",%" PRId64 ",%" PRId64 ",%s,%s,%s,%s\n", (int)seq, (int64_t)s->t_ms * 1000,
            taken_sync, taken_local, x, y, h, v);
    check(g);
}

void netlog_tx(NetLog *g, const WirePacket *p, int64_t send_sync, int64_t wire_sync, int to)
{
    if (!g || g->failed)
        return;
    fprintf(g->f, "tx,%" PRIu32 ",%d,%d,%" PRIu32 ",%" PRId64 ",%" PRId64, p->pkt_seq, (int)p->u.mu.mu.seq,
            (int)p->u.mu.mu.kind, p->u.mu.schemes, send_sync, wire_sync);
    if (g->tx_to)
        fprintf(g->f, ",%d", to + 1);
    fputc('\n', g->f);
    check(g);
}

void netlog_rx(NetLog *g, const WirePacket *p, int64_t arr_local, int64_t arr_sync, int64_t send_sync, int bytes)
{
    if (!g || g->failed)
        return;
    fprintf(g->f, "rx,%" PRIu32 ",%s,%" PRId64 ",", p->pkt_seq, kind_names[p->kind], arr_local);
    put_time(g->f, arr_sync);
    fputc(',', g->f);
    put_time(g->f, send_sync);
    if (p->kind == WIRE_MU)
        fprintf(g->f, ",%d,%d,%d,%" PRIu32 ",%d\n", (int)p->u.mu.mu.car + 1, (int)p->u.mu.mu.seq,
                (int)p->u.mu.mu.kind, p->u.mu.schemes, bytes);
    else
        fprintf(g->f, ",,,,,%d\n", bytes);
    check(g);
}

void netlog_clock(NetLog *g, int64_t local, int64_t offset, int64_t bound, int64_t rtt, double drift_ppm,
                  int64_t sample_offset, int64_t sample_rtt)
{
    if (!g || g->failed)
        return;
    fprintf(g->f, "clock,%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%.3f,%" PRId64 ",%" PRId64 "\n", local,
            offset, bound, rtt, drift_ppm, sample_offset, sample_rtt);
    check(g);
}

void netlog_reject(NetLog *g, int64_t local, const char *reason, int64_t count)
{
    if (!g || g->failed)
        return;
    fprintf(g->f, "reject,%" PRId64 ",%s,%" PRId64 "\n", local, reason, count);
    check(g);
}

void netlog_event(NetLog *g, int64_t local, int64_t sync, const char *what, const char *detail)
{
    if (!g || g->failed)
        return;
    fprintf(g->f, "event,%" PRId64 ",", local);
    put_time(g->f, sync);
    /* details are our own messages: no commas or newlines reach the file */
    fprintf(g->f, ",%s,", what);
    for (const char *c = detail; *c; c++)
        fputc(*c == ',' || *c == '\n' ? ';' : *c, g->f);
    fputc('\n', g->f);
    check(g);
}

void netlog_mark(NetLog *g, int64_t local, int64_t sync, const char *kind)
{
    if (!g || g->failed)
        return;
    fprintf(g->f, "mark,%" PRId64 ",%" PRId64 ",%s\n", local, sync, kind);
    check(g);
}

void netlog_input(NetLog *g, int64_t sync, const CarInput *in)
{
    if (!g || g->failed)
        return;
    char th[48], br[48], st[48]; /* as an input script writes them: they read back to the same doubles */
    nr_format_double(th, sizeof th, in->throttle);
    nr_format_double(br, sizeof br, in->brake);
    nr_format_double(st, sizeof st, in->steer);
    fprintf(g->f, "input,%" PRId64 ",%s,%s,%s\n", sync / 1000, th, br, st);
    check(g);
}

void netlog_metrics(NetLog *g, const char *scheme, const Metrics *m, int own_dir)
{
    if (!g || g->failed)
        return;
    const DirCounters *out = &m->dir[own_dir];
    DirCounters in = {0}; /* what every other terminal sent here */
    int ncars = m->ncars > 2 ? m->ncars : 2;
    for (int j = 0; j < ncars; j++)
        if (j != own_dir) {
            in.delivered += m->dir[j].delivered;
            in.late += m->dir[j].late;
            in.discarded += m->dir[j].discarded;
        }
    fprintf(g->f, "metric,%s,samples,%" PRId64 "\n", scheme, m->samples);
    fprintf(g->f, "metric,%s,inconsistency,%.17g\n", scheme, metrics_inconsistency_rate(m));
    fprintf(g->f, "metric,%s,mean_d1_d2,%.17g\n", scheme, metrics_mean_d1_minus_d2(m));
    fprintf(g->f, "metric,%s,mean_abs_d1,%.17g\n", scheme, metrics_mean_abs_d1(m));
    fprintf(g->f, "metric,%s,mean_abs_d2,%.17g\n", scheme, metrics_mean_abs_d2(m));
    fprintf(g->f, "metric,%s,sent,%" PRId64 "\n", scheme, out->sent);
    fprintf(g->f, "metric,%s,lost,%" PRId64 "\n", scheme, out->lost);
    fprintf(g->f, "metric,%s,delivered,%" PRId64 "\n", scheme, in.delivered);
    fprintf(g->f, "metric,%s,late,%" PRId64 "\n", scheme, in.late);
    fprintf(g->f, "metric,%s,discarded,%" PRId64 "\n", scheme, in.discarded);
    if (m->ncars <= 2)
        return;
    fprintf(g->f, "metric,%s,pair_rate,%.17g\n", scheme, metrics_pair_rate(m));
    fprintf(g->f, "metric,%s,spread,%.17g\n", scheme, metrics_fairness_spread(m));
    for (int c = 0; c < m->ncars; c++)
        fprintf(g->f, "metric,%s,disadvantage_%d,%.17g\n", scheme, c + 1, metrics_disadvantage(m, c));
    check(g);
}

bool netlog_flush(NetLog *g, NrError *err)
{
    if (!g)
        return true;
    if (!g->failed) {
        fflush(g->f);
        check(g);
    }
    if (g->failed)
        return nr_error_set(err, "%s: write error: %s; kept as %s", g->pf.path, g->why, g->pf.part);
    return true;
}

bool netlog_close(NetLog *g, NrError *err)
{
    if (!g)
        return true;
    NrPartFile *pf = &g->pf;
    bool ok = !g->failed;
    if (!ok) { /* the .part is kept as it is: never renamed */
        nr_error_set(err, "%s: write error: %s; kept as %s", pf->path, g->why, pf->part);
        fclose(pf->f);
    } else if (nr_part_close(pf) == NR_PART_WRITE) {
        ok = nr_error_set(err, "%s: write error: %s; kept as %s", pf->path, nr_part_reason(pf), pf->part);
    } else if (pf->status != NR_PART_OK) {
        ok = nr_error_set(err, "%s: cannot rename %s into place: %s", pf->path, pf->part, nr_part_reason(pf));
    }
    free(g);
    return ok;
}

/* ---- the session's log interface (netsession.h NetSessionLog) ---------------- */

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* A study race joined again (the host resumed the study): the log of the
 * attempt before, whole or .part, moved to race-NNN.aborted-K.ROLE.log,
 * never replaced. */
static bool keep_aside(const NetLogSink *k, const NetLogMeta *m, NrError *err)
{
    enum { LEN = sizeof k->named + 40 };
    char from[2][LEN], to[2][LEN];
    snprintf(from[0], LEN, "%s", k->named);
    snprintf(from[1], LEN, "%s.part", k->named);
    if (!exists(from[0]) && !exists(from[1]))
        return true;
    for (int a = 1; a < 1000; a++) {
        int n = snprintf(to[0], LEN, "%s/race-%03d.aborted-%d.%s.log", k->study_dir, m->study_race, a, m->role);
        if (n < 0 || n + 6 > LEN)
            break;
        memcpy(to[1], to[0], (size_t)n);
        memcpy(to[1] + n, ".part", 6);
        if (exists(to[0]) || exists(to[1]))
            continue;
        for (int i = 0; i < 2; i++)
            if (exists(from[i]) && rename(from[i], to[i]) != 0)
                return nr_error_set(err, "%s: cannot move it aside: %s", from[i], strerror(errno));
        return true;
    }
    return nr_error_set(err, "%s: too many attempts kept", k->named);
}

static bool sink_open(void *ctx, const NetLogMeta *m, NrError *err)
{
    NetLogSink *k = ctx;
    const char *path = k->path;
    if (k->study_dir && m->study_race > 0) {
        int n = snprintf(k->named, sizeof k->named, "%s/race-%03d.%s.log", k->study_dir, m->study_race, m->role);
        if (n < 0 || (size_t)n >= sizeof k->named)
            return nr_error_set(err, "%s: the log's folder name is too long", k->study_dir);
        if (!keep_aside(k, m, err))
            return false;
        path = k->named;
    }
    k->log = path ? netlog_open(path, m, err) : NULL;
    return k->log != NULL;
}

static void sink_own(void *ctx, int32_t seq, const RecSample *s, int64_t taken_race, int64_t taken_local)
{
    netlog_own(((NetLogSink *)ctx)->log, seq, s, taken_race, taken_local);
}

static void sink_tx(void *ctx, const WirePacket *p, int64_t send_race, int64_t wire_race, int to)
{
    netlog_tx(((NetLogSink *)ctx)->log, p, send_race, wire_race, to);
}

static void sink_rx(void *ctx, const WirePacket *p, int64_t arr_local, int64_t arr_race, int64_t send_race, int bytes)
{
    netlog_rx(((NetLogSink *)ctx)->log, p, arr_local, arr_race, send_race, bytes);
}

static void sink_clock(void *ctx, int64_t local, int64_t offset, int64_t bound, int64_t rtt, double drift_ppm,
                       int64_t sample_offset, int64_t sample_rtt)
{
    netlog_clock(((NetLogSink *)ctx)->log, local, offset, bound, rtt, drift_ppm, sample_offset, sample_rtt);
}

static void sink_reject(void *ctx, int64_t local, const char *reason, int64_t count)
{
    netlog_reject(((NetLogSink *)ctx)->log, local, reason, count);
}

static void sink_event(void *ctx, int64_t local, int64_t race, const char *what, const char *detail)
{
    netlog_event(((NetLogSink *)ctx)->log, local, race, what, detail);
}

static void sink_metrics(void *ctx, const char *scheme, const Metrics *m, int own_dir)
{
    netlog_metrics(((NetLogSink *)ctx)->log, scheme, m, own_dir);
}

/* A mark is pushed to the file at once: a crash right after keeps it. */
static void sink_mark(void *ctx, int64_t local, int64_t race, const char *kind)
{
    NetLogSink *k = ctx;
    netlog_mark(k->log, local, race, kind);
    NrError err;
    (void)netlog_flush(k->log, &err); /* a failure shows at the next flush, which ends the session */
}

static void sink_input(void *ctx, int64_t race, const CarInput *in)
{
    netlog_input(((NetLogSink *)ctx)->log, race, in);
}

static bool sink_flush(void *ctx, NrError *err)
{
    return netlog_flush(((NetLogSink *)ctx)->log, err);
}

static bool sink_close(void *ctx, NrError *err)
{
    NetLogSink *k = ctx;
    bool ok = netlog_close(k->log, err);
    k->log = NULL;
    return ok;
}

NetSessionLog netlog_sink(NetLogSink *k)
{
    return (NetSessionLog){k,           sink_open,  sink_own,     sink_tx,    sink_rx,   sink_clock,
                           sink_reject, sink_event, sink_metrics, sink_flush, sink_close, sink_mark,
                           sink_input};
}
