/* Merging the terminal logs of a network race (docs/netlog.md) into one
 * race recording (`source: network`) and the measured one-way delays in the
 * trace format of `trace FILE` (docs/link.md "Trace"). The reader takes
 * only what the merge needs: the header, the `own`, `rx` (MU), `tx`,
 * `metric`, `mark` and `input` rows; other row types are skipped. Every log is untrusted.
 * A TermLog is a log as read here (src/net's NetLog is its writer).
 *
 * Contracts:
 *   termlog_load(log, path, err) / termlog_read(log, f, path, err)  read and
 *        check one log; false + err "FILE:LINE: what" (log is then empty,
 *        safe to free). A last line without its newline (a killed writer)
 *        is dropped and sets log->cut, as does a name ending in ".part".
 *        Checks: `# netlog: 1` first; role, car, session (token in older logs), period_ms and track
 *        in the header (role client only with topology cs); a `# columns TYPE:` line before the first row of
 *        each type, naming the columns this reader needs; own rows with seq
 *        0, 1, 2, ... at t_sync_us = seq * period; finite poses; MU rx rows
 *        from the peer's car, send_sync_us = seq * period; `mark` rows
 *        (sync_us: race time, negative in the countdown; kind [a-z_]+,
 *        "mark" in logs without the column): this log's player's marks,
 *        at most TERMLOG_MARKS_MAX. Event rows are skipped.
 *   termlog_free(log)            NULL-safe.
 *   netmerge_check(a, b, err)   the two logs are one race: same session id,
 *        period, track and scheme list (when both name one); cars 1 and 2
 *        (either order); one host, one joiner.
 *   netmerge_samples(a, b)      samples both logs have (the shorter's).
 *   netmerge_recording(a, b, rec, err)  the race recording of the first
 *        netmerge_samples samples: car 1 from the car-1 log, car 2 from the
 *        other; t_ms = seq * period; source network; the track file named
 *        by the host's track_file (else track); created from the host's
 *        log; the condition (docs/netlog.md): scheme (the shown one, the
 *        host's log's, else car 1's), for two cars link12 and link21 (the
 *        emulated link each end put on what it sent), for more cars or a
 *        server the topology and each terminal's link_out_N, delta_ms,
 *        tdr_cw, converge_ms, seed, clock; and every log's marks (player =
 *        its car) in time order. rec is the caller's (recording_free).
 *   netmerge_delays(a, b, rows, n, err)  every MU received in either log
 *        with seq below netmerge_samples, one row per received copy:
 *        direction (12: received by car 2), seq, kind, the packet's pkt_seq
 *        and scheme mask, sent and arrival on the synchronised race clock,
 *        delay = arrival - sent; sorted by direction, seq, kind, arrival,
 *        pkt_seq. *rows is the caller's (free()).
 *   netmerge_write_delays(f, schemes, rows, n)  the delays file: a
 *        `# schemes: LIST` line naming the mask bits (the session's scheme
 *        list; none when schemes is NULL or empty), the header and the
 *        rows; false on a write error.
 *   The _all forms take the N logs of an N-car race (any order; the
 *   two-log forms are them with n = 2):
 *   netmerge_check_all(logs, n, err)  one session, one period, track and
 *        scheme list, n cars (each log's `cars`), every car 1..n once, one
 *        topology; a p2p race: one host (car 1), the others joiners. The error names
 *        the missing car or the odd log (by its car).
 *   netmerge_recording_all / netmerge_samples_all: car c from car c's log;
 *        every log's marks (player = the log's car).
 *   netmerge_delays_all: direction from -> to for the rx rows of car to's
 *        log (from the MU's car); dir as NetDelayRow says.
 *   netmerge_counts_pair(logs, n, from, to, out): as netmerge_counts for
 *        the line from -> to (1-based): from's tx rows (to that car, when
 *        they name one: a p2p race of N), to's rx rows of MUs of car from
 *        (a relayed packet keeps its sender's pkt_seq).
 *   netmerge_of_car(logs, n, car): the log of car (1-based), NULL if none.
 *   netmerge_sort_delays(rows, n)  in the order netmerge_delays_all gives.
 *   A served race's server log (`serve --log`: role server, car 0, its
 *   rx rows the MUs as they reached it; netmerge_serve.c):
 *   netmerge_check_server(srv, logs, n, err)  srv is a server's log of
 *        the race of the n clients' logs (checked by netmerge_check_all):
 *        its session, topology, cars, period, track and schemes; every
 *        other log a client's. False + err naming what differs.
 *   netmerge_server_links(srv, n, rec)  the recording's `link_s_J` for
 *        J = 1..n: the server's `link_s_J`, else its `link`; false when
 *        the header is full.
 *   netmerge_hops(srv, logs, n, rows, nrows, err)  appends (realloc) to
 *        *rows the two hops of every MU: client I -> server (NETMERGE_UP,
 *        direction Is: the server's rx rows, arrival on the server's
 *        clock, the race's) and server -> client J (NETMERGE_DOWN,
 *        direction IsJ: J's rx rows, sent = the emulated server's output
 *        instant, route.h: the arrival at the server, no earlier than the
 *        sample, or under sync its sample + delta_ms when later; a copy
 *        whose arrival the server's log lacks has no row), seq below
 *        netmerge_samples_all, then sorts them all.
 *   netmerge_inputs_all(logs, n, path, err)  every car's inputs from its
 *        log's `input` rows into the input script path (inputs.h, through
 *        PATH.part: player = the log's car), so the race re-simulates from
 *        it; false + err when a log has no input rows (a log from before
 *        them) or on a write error (nothing left at path).
 *   netmerge_counts(a, b, dir, out)  packets of direction dir (0 = 12)
 *        with seq below netmerge_samples: put on the wire (tx rows of the
 *        sender), received (distinct pkt_seq in the receiver's rx rows),
 *        received copies beyond the first, lost = sent - received - extra
 *        copies (at least 0). False when out of memory.
 */
#ifndef NR_NETMERGE_H
#define NR_NETMERGE_H

#include "inputs.h"
#include "nr_common.h"
#include "recording.h"

#include <stdio.h>

#define TERMLOG_VERSION 1
#define TERMLOG_ROWS_MAX 4000000 /* rows of one type: ~18 h of 30 Hz MUs with parity */
#define TERMLOG_METRICS_MAX 1024
#define TERMLOG_MAX_CARS 8
#define TERMLOG_MARKS_MAX 12500 /* mark rows of one log: eight logs fill a recording's RECORDING_MAX_MARKS */

typedef struct TermLogPkt {
    int32_t from; /* rx rows: the sending car (1-based) */
    int32_t to;   /* tx rows of a p2p race of N: the car it went to (1-based); 0: every other */
    int64_t pkt_seq;
    int32_t seq;
    int32_t parity; /* mu_kind: 0 update, 1 parity */
    int64_t schemes; /* rx rows: the mask of the schemes that sent it */
    int64_t send_sync_us, arr_sync_us; /* arr: rx rows only */
} TermLogPkt;

typedef struct TermLogMetric {
    char scheme[32];
    char key[32];
    double value;
} TermLogMetric;

typedef struct TermLog {
    int version;
    bool host;               /* role: host (or joiner, client, server) */
    bool server;             /* role: server (`serve --log`): car 0, no own rows; line_link[J-1] = link_s_J */
    char role[16];           /* `role`: host, joiner (of a host), client (of a server; older logs: joiner), server */
    int car;                 /* 1-based; a server's log 0 */
    int ncars;               /* `cars` (2 when absent) */
    char topology[16];       /* `topology`: p2p (when absent), cs relay, cs sync */
    char token[24];          /* the session id (hex, lower case): `session`, or `token` in older logs */
    int32_t period_ms;
    char track[128];         /* the track's name */
    char track_file[128];    /* the host's file name ("" when absent) */
    char created[32];
    char schemes[256];
    bool cut;                /* cut short: a .part or a cut last line */
    int nown;
    RecSample *own;          /* own samples, seq = index */
    int64_t nrx, ntx;
    TermLogPkt *rx;           /* MUs received */
    TermLogPkt *tx;           /* MUs put on the wire */
    int nmetrics;
    TermLogMetric *metrics;
    /* the race's condition as the header gives it (text, "" when absent):
     * the recording's condition lines (docs/netlog.md) */
    char shown[32], link[512], delta_ms[24], tdr_cw[24], converge_ms[24], seed[24], clock[16];
    char line_link[TERMLOG_MAX_CARS][256]; /* `link_CAR_J`: line CAR -> J's own spec ("": link) */
    char offset_true_ms[24], drift_true_ppm[24]; /* `clock_offset_true_ms`, `clock_drift_true_ppm` */
    /* a study's race (the host's log, docs/studies.md "Over the network") */
    char study[160], pair[24], study_race[24], condition[24], race_kind[16];
    int nmarks;
    RecMark *marks;          /* `mark` rows: race time, 0 in the countdown; player = this log's car, kind */
    int64_t ninputs;
    InputLine *inputs;       /* `input` rows: the own car's inputs (player = car - 1), times increasing */
} TermLog;

typedef struct NetDelayRow {
    int dir;    /* 0 = 12, 1 = 21 with two cars; else from * TERMLOG_MAX_CARS + to */
    int from, to; /* cars, 1-based */
    int32_t seq;
    int parity;
    int64_t pkt_seq, schemes;
    int64_t sent_us, arrival_us, delay_us;
    int hop; /* 0 end to end (direction IJ); a served race's hops: NETMERGE_UP (Is), NETMERGE_DOWN (IsJ) */
} NetDelayRow;

#define NETMERGE_UP 1
#define NETMERGE_DOWN 2
#define NETMERGE_HOP_DIR 1000 /* a hop's dir: after every line's end-to-end rows */

typedef struct NetCounts {
    int64_t sent, received, extra_copies, lost;
} NetCounts;

bool termlog_load(TermLog *log, const char *path, NrError *err);
bool termlog_read(TermLog *log, FILE *f, const char *path, NrError *err);
void termlog_free(TermLog *log);
bool netmerge_check(const TermLog *a, const TermLog *b, NrError *err);
int netmerge_samples(const TermLog *a, const TermLog *b);
bool netmerge_recording(const TermLog *a, const TermLog *b, Recording *rec, NrError *err);
bool netmerge_delays(const TermLog *a, const TermLog *b, NetDelayRow **rows, int64_t *n, NrError *err);
bool netmerge_write_delays(FILE *f, const char *schemes, const NetDelayRow *rows, int64_t n);
bool netmerge_counts(const TermLog *a, const TermLog *b, int dir, NetCounts *out);
bool netmerge_check_all(const TermLog *const *logs, int n, NrError *err);
int netmerge_samples_all(const TermLog *const *logs, int n);
bool netmerge_recording_all(const TermLog *const *logs, int n, Recording *rec, NrError *err);
bool netmerge_delays_all(const TermLog *const *logs, int n, NetDelayRow **rows, int64_t *nrows, NrError *err);
bool netmerge_counts_pair(const TermLog *const *logs, int n, int from, int to, NetCounts *out);
const TermLog *netmerge_of_car(const TermLog *const *logs, int n, int car);
void netmerge_sort_delays(NetDelayRow *rows, int64_t n);
bool netmerge_check_server(const TermLog *srv, const TermLog *const *logs, int n, NrError *err);
bool netmerge_server_links(const TermLog *srv, int n, Recording *rec);
bool netmerge_hops(const TermLog *srv, const TermLog *const *logs, int n, NetDelayRow **rows, int64_t *nrows,
                   NrError *err);
bool netmerge_inputs_all(const TermLog *const *logs, int n, const char *path, NrError *err);

#endif
