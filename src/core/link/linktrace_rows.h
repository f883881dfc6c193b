/* A delays file's rows as read, every direction (linktrace_read.c), for
 * linktrace.c to build the slots of the direction a link takes; inside
 * link/ only (link.h is the public side).
 *
 * Contracts:
 *   linktrace_rows_read(rows, f, path, err)  every data row of the stream
 *        (not closed; path names it in messages), checked as docs/link.md
 *        "Trace" says, in file order, each with its direction's code; the
 *        `# schemes:` line and whether the file has a schemes column.
 *        False + err "PATH:LINE: what" (rows then empty). At most
 *        LINK_TRACE_ROWS_MAX rows.
 *   linktrace_rows_free(rows)  NULL-safe; leaves it empty.
 */
#ifndef NR_LINKTRACE_ROWS_H
#define NR_LINKTRACE_ROWS_H

#include "link.h"

/* One data row as read; sorted afterwards into slots. */
typedef struct TraceRow {
    int32_t seq;
    int32_t delay_us;  /* >= 0 */
    int16_t code;      /* its direction (linktrace_direction: 12, 1s, 2s3, ...) */
    uint8_t dir, kind; /* dir: the slot direction it is taken as (0 = 12, 1 = 21); kind: 0 update, 1 parity */
    int bits;          /* schemes in the packet's mask (0 without the column) */
    uint32_t mask;     /* the mask itself */
    int64_t pkt;       /* pkt_seq: copies of one packet share it (-1 without) */
    int64_t line;      /* file order breaks ties */
} TraceRow;

/* The rows of one delays file, every direction. */
typedef struct LinkTraceRows {
    TraceRow *row; /* owned, n of them in file order */
    int64_t n;
    bool masks;         /* the file has a schemes column */
    char schemes[256];  /* its `# schemes:` line's list ("" without) */
} LinkTraceRows;

/* A file read once for the lines that name it (LinkTraceFiles). */
struct LinkTraceFile {
    char *path; /* owned: the text the lines gave */
    LinkTraceRows rows;
};

bool linktrace_rows_read(LinkTraceRows *rows, FILE *f, const char *path, NrError *err);
void linktrace_rows_free(LinkTraceRows *rows);

#endif
