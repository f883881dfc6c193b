/* Fuzz harness: the terminal-log reader of `netrace merge`; an accepted log
 * holds own samples from seq 0 at their nominal times, MUs of the peer's
 * car sent at theirs, and merges with itself as the other car into rows
 * the trace reader takes back. */
#include "link.h"
#include "netmerge.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
        if (err.msg[0] == '\0' || log.own || log.rx || log.tx || log.metrics)
            abort();
        return 0;
    }
    if (log.nown < 1 || log.ncars < 2 || log.ncars > TERMLOG_MAX_CARS || log.car < 1 ||
        log.car > log.ncars || log.period_ms < 1)
        abort();
    for (int i = 0; i < log.nown; i++)
        if (log.own[i].t_ms != i * log.period_ms || !isfinite(log.own[i].x) || !isfinite(log.own[i].speed))
            abort();
    for (int64_t i = 0; i < log.nrx; i++)
        if (log.rx[i].seq < 0 || log.rx[i].parity < 0 || log.rx[i].parity > 1 || log.rx[i].from < 1 ||
            log.rx[i].from > log.ncars || log.rx[i].from == log.car ||
            log.rx[i].send_sync_us != (int64_t)log.rx[i].seq * log.period_ms * 1000)
            abort();
    /* A two-car log: the same log as the other car's (its MUs now from this
     * car): the merge's delay rows, written out, must read back as a trace. */
    if (log.ncars != 2) {
        termlog_free(&log);
        return 0;
    }
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
