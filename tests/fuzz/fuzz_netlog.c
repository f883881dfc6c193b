/* Fuzz harness: the terminal-log reader of `netrace merge`; an accepted log
 * holds own samples from seq 0 at their nominal times, MUs of the peer's
 * car sent at theirs, tx rows to another car or to all, input rows of its
 * own car in time order and range; a two-car log
 * merges with itself as the other car into rows the trace reader takes
 * back, an N-car one's sent counts add up over the lines from its car; a
 * server's log has no car and no own rows, its MUs of the race's cars. */
#include "link.h"
#include "netmerge.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An N-car log as every car's of its race (the same rows under each car
 * number): the packets the merge counts as sent from this car, summed over
 * the other cars, are its tx rows to one car once and those to every other
 * car (to 0) once per other car. */
static void counts_all(const TermLog *log, int64_t to_all, int64_t to_one)
{
    TermLog copy[TERMLOG_MAX_CARS];
    const TermLog *logs[TERMLOG_MAX_CARS];
    for (int c = 0; c < log->ncars; c++) {
        copy[c] = *log;
        copy[c].car = c + 1;
        logs[c] = &copy[c];
    }
    int64_t sent = 0;
    for (int to = 1; to <= log->ncars; to++) {
        NetCounts k;
        if (to == log->car)
            continue;
        if (!netmerge_counts_pair(logs, log->ncars, log->car, to, &k) || k.lost < 0 || k.received < 0)
            abort();
        sent += k.sent;
    }
    if (sent != to_one + to_all * (log->ncars - 1))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > 1 << 20)
        return 0;
    FILE *f = fmemopen((void *)data, size, "rb");
    if (!f)
        return 0;
    TermLog log;
    NrError err;
    bool ok = termlog_read(&log, f, "fuzz.log", &err);
    fclose(f);
    if (!ok) {
        if (err.msg[0] == '\0' || log.own || log.rx || log.tx || log.metrics || log.inputs)
            abort();
        return 0;
    }
    if (log.server) { /* a server's log (serve --log): no car, no own rows, MUs of the race's cars */
        if (log.car != 0 || log.nown != 0 || log.own || strncmp(log.topology, "cs", 2) != 0 || log.period_ms < 1)
            abort();
        for (int64_t i = 0; i < log.nrx; i++)
            if (log.rx[i].from < 1 || log.rx[i].from > log.ncars ||
                log.rx[i].send_sync_us != (int64_t)log.rx[i].seq * log.period_ms * 1000)
                abort();
        termlog_free(&log);
        return 0;
    }
    if (log.nown < 1 || log.ncars < 2 || log.ncars > TERMLOG_MAX_CARS || log.car < 1 ||
        log.car > log.ncars || log.period_ms < 1)
        abort();
    for (int i = 0; i < log.nown; i++)
        if (log.own[i].t_ms != i * log.period_ms || !isfinite(log.own[i].x) || !isfinite(log.own[i].speed))
            abort();
    /* input rows: this car's, times increasing, inside an input script's ranges */
    for (int64_t i = 0; i < log.ninputs; i++) {
        const InputLine *l = &log.inputs[i];
        if (l->player != log.car - 1 || l->t_ms < 0 || (i > 0 && l->t_ms <= log.inputs[i - 1].t_ms) ||
            !(l->in.throttle >= 0 && l->in.throttle <= 1) || !(l->in.brake >= 0 && l->in.brake <= 1) ||
            !(l->in.steer >= -1 && l->in.steer <= 1))
            abort();
    }
    for (int64_t i = 0; i < log.nrx; i++)
        if (log.rx[i].seq < 0 || log.rx[i].parity < 0 || log.rx[i].parity > 1 || log.rx[i].from < 1 ||
            log.rx[i].from > log.ncars || log.rx[i].from == log.car ||
            log.rx[i].send_sync_us != (int64_t)log.rx[i].seq * log.period_ms * 1000)
            abort();
    /* tx rows: an MU of this car at its nominal time, to one other car (a
     * p2p race of N names it) or to every other (0) */
    int64_t to_all = 0, to_one = 0;
    for (int64_t i = 0; i < log.ntx; i++) {
        const TermLogPkt *t = &log.tx[i];
        if (t->seq < 0 || t->parity < 0 || t->parity > 1 || t->to < 0 || t->to > log.ncars || t->to == log.car ||
            t->send_sync_us != (int64_t)t->seq * log.period_ms * 1000)
            abort();
        to_all += t->seq < log.nown && t->to == 0;
        to_one += t->seq < log.nown && t->to != 0;
    }
    if (log.ncars != 2) {
        counts_all(&log, to_all, to_one);
        termlog_free(&log);
        return 0;
    }
    /* A two-car log: the same log as the other car's (its MUs now from this
     * car): the merge's delay rows, written out, must read back as a trace. */
    TermLog other = log;
    other.car = 3 - log.car;
    other.host = !log.host;
    other.rx = malloc(sizeof *other.rx * (size_t)(log.nrx > 0 ? log.nrx : 1));
    if (!other.rx)
        abort();
    for (int64_t i = 0; i < log.nrx; i++) {
        other.rx[i] = log.rx[i];
        other.rx[i].from = log.car;
    }
    Recording rec;
    if (!netmerge_recording(&log, &other, &rec, &err) || rec.nsamples != log.nown)
        abort();
    recording_free(&rec);
    NetDelayRow *rows;
    int64_t n;
    if (!netmerge_delays(&log, &other, &rows, &n, &err))
        abort();
    char *buf = NULL;
    size_t len = 0;
    FILE *w = open_memstream(&buf, &len);
    if (!w || !netmerge_write_delays(w, "nc,epp-xd", rows, n))
        abort();
    fclose(w);
    FILE *r = fmemopen(buf, len, "rb");
    LinkTrace t;
    if (!r || !linktrace_read(&t, r, "delays.csv", &err)) {
        fprintf(stderr, "%s\n", err.msg);
        abort();
    }
    fclose(r);
    linktrace_free(&t);
    free(buf);
    free(rows);
    free(other.rx);
    termlog_free(&log);
    return 0;
}
