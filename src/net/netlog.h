/* The terminal log of network play (format: docs/netlog.md): a crash-safe
 * text file written as FILE.part, flushed at least once a second by the
 * caller (netlog_flush), renamed to FILE by netlog_close. Every writer is
 * NULL-safe (no log: nothing happens) and stops writing after the first
 * error, which netlog_close reports.
 *
 * Contracts:
 *   netlog_open(path, meta, err)  creates path.part (never replaces an
 *        existing one) and writes the header; NULL + err.
 *   netlog_own / _tx / _rx / _clock / _reject / _event / _metrics / _mark / _input  one row
 *        each as docs/netlog.md says (INT64_MIN times: an empty field).
 *   netlog_flush(log, err)  pushes the rows to the file; false + err once a
 *        write failed (a full disk: said at once, not at the end).
 *   netlog_close(log, err)  flushes, closes, renames into place; false +
 *        err (the .part is kept) on a write error.
 *   netlog_sink(k)      the session's log interface (netsession.h) writing
 *        through k: opened at k->path when the race is known, closed by
 *        netsession_end; k->log NULL until then.
 */
#ifndef NR_NETLOG_H
#define NR_NETLOG_H

#include "netsession.h"


typedef struct NetLog NetLog;

NetLog *netlog_open(const char *path, const NetLogMeta *m, NrError *err);
void netlog_own(NetLog *g, int32_t seq, const RecSample *s, int64_t taken_sync, int64_t taken_local);
void netlog_tx(NetLog *g, const WirePacket *p, int64_t send_sync, int64_t wire_sync, int to);
void netlog_rx(NetLog *g, const WirePacket *p, int64_t arr_local, int64_t arr_sync, int64_t send_sync, int bytes);
void netlog_clock(NetLog *g, int64_t local, int64_t offset, int64_t bound, int64_t rtt, double drift_ppm,
                  int64_t sample_offset, int64_t sample_rtt);
void netlog_reject(NetLog *g, int64_t local, const char *reason, int64_t count);
void netlog_event(NetLog *g, int64_t local, int64_t sync, const char *what, const char *detail);
void netlog_metrics(NetLog *g, const char *scheme, const Metrics *m, int own_dir);
void netlog_mark(NetLog *g, int64_t local, int64_t sync, const char *kind);
void netlog_input(NetLog *g, int64_t sync, const CarInput *in);
bool netlog_flush(NetLog *g, NrError *err);
bool netlog_close(NetLog *g, NrError *err);

typedef struct NetLogSink {
    const char *path;
    /* a study's folder: the log of study race N is DIR/race-NNN.ROLE.log
     * (host, joiner), named when the race is known; NULL: path */
    const char *study_dir;
    char named[4200];
    NetLog *log;
} NetLogSink;

NetSessionLog netlog_sink(NetLogSink *k);

#endif
