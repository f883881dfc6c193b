/* Network delay emulator: one direction of a link, with Linux netem's spec
 * grammar and arithmetic (delay, jitter, correlation, distribution tables,
 * random and Gilbert-Elliott loss, duplication, reordering) plus a shifted
 * gamma delay for the EPP experiments. Full manual: docs/link.md.
 *
 * Spec grammar (netem's, see docs/link.md "Grammar"):
 *   delay TIME [JITTER [CORR%]] [distribution NAME|PATH]
 *   [gamma SHAPE SCALE]            delay = TIME + Gamma(SHAPE, SCALE)
 *   [loss [random] P% [CORR%] | loss gemodel P [R [1-H [1-K]]]]
 *   [duplicate P% [CORR%]] [order fifo]
 *   or: trace FILE [direction 12|21] [order fifo]   measured delays (below)
 *   TIME: number with unit us|ms|s (also usec, msec, sec, ns). An empty spec
 *   or "none" means no delay, no loss.
 *
 * Common random numbers: a Link draws the fate of packet slots in order with
 * link_draw(); the engine draws once per MU slot and shares the draw with
 * every scheme, so schemes differ only by their own decisions.
 *
 * Contracts:
 *   linkspec_parse(out, text, table_dir, err)  parse; table_dir NULL searches
 *        the system's iproute2 tables, then a built-in fallback; a non-NULL
 *        table_dir is searched instead of the system directories. False + err
 *        naming the offending token and what was expected; *out is then
 *        empty (safe to free). On success the caller owns *out
 *        (linkspec_free).
 *   linkspec_parse_files(out, text, table_dir, files, err)  the same; a
 *        `trace FILE` read once into files (NULL: not kept) for every later
 *        spec naming the same text FILE (a link matrix's lines over one
 *        merged delays file); linktrace_files_free(files) when done.
 *   linkspec_copy(dst, src)   deep copy (tables are owned by each spec); false
 *        only when out of memory (dst is then empty).
 *   linkspec_free(s)          NULL-safe; leaves an empty "none" spec.
 *   linkspec_mean_ms(s)       expected one-way delay of a delivered packet,
 *        exact for netem's arithmetic: mean over the table entries (or the
 *        uniform range) of max(0, tabledist); kappa + shape*scale for gamma.
 *   linkspec_loss_rate(s)     expected share of lost slots: p for random loss
 *        without correlation, the stationary rate for gemodel; with loss
 *        correlation netem's approximation lowers the real rate (docs/link.md).
 *   linkspec_order_due(s, last_due_us, due_us)  departure order: returns
 *        due_us when the spec reorders (the default, netem), or
 *        max(due_us, *last_due_us) with `order fifo`; updates *last_due_us.
 *        The caller keeps one last_due_us per queue (start it at INT64_MIN).
 *   link_init(l, spec, seed, stream)  copies spec; deterministic per seed/stream.
 *   link_set_spec(l, spec)    live change; the random streams, correlation
 *        state and FIFO state continue.
 *   link_draw(l, out)         fate of the next packet slot (netem_enqueue's
 *        order: duplicate?, loss?, the copy's loss and delay, the delay).
 *   link_draw_slot(l, dir, seq, aux, out)  the fate of sample slot seq on
 *        direction dir (0 = 1->2, 1 = 2->1): for a trace spec the trace's
 *        (linktrace_fate; aux = a packet beyond the slot's first update);
 *        for any other spec link_draw (dir, seq and aux ignored).
 *   link_fifo_due(l, due_us)  linkspec_order_due with the link's own
 *        last-due state, for a caller with one queue per link.
 *   link_free(l)
 *   link_tabledist(mu, sigma, rnd, table)  netem's tabledist on integer us
 *        for a given 32-bit random value (pure; for tests and tools).
 *   link_corr_next(c, fresh)  netem's correlated 32-bit value
 *        ((1-rho)*fresh + rho*last, in 32.32 fixed point); rho 0 = fresh.
 *   disttable_load(t, path, err)     read an iproute2 .dist file.
 *   disttable_generate(t, name)      built-in normal, pareto or paretonormal
 *        (4096 entries, generated as iproute2's netem/ generators do).
 *   disttable_find(t, name_or_path, table_dir, err)  a PATH (contains '/' or
 *        ends in .dist) is loaded; a NAME is searched as NAME.dist in
 *        table_dir, or the system dirs when table_dir is NULL, then generated.
 *   disttable_copy(dst, src) / disttable_free(t)
 *
 * Traces (`trace FILE`, netrace's extension; docs/link.md "Trace"): a
 * delays file (long-format CSV, header row naming the columns direction,
 * seq, delay_us, optional kind, sent_us, arrival_us, pkt_seq, schemes)
 * gives each sample slot the one-way delay measured for its seq in the
 * link's direction; a slot with no row is lost; a second row of the same
 * packet is its duplicate; of several packets of one slot and kind (other
 * pkt_seq) the one carrying the most schemes is taken.
 *   linktrace_load_dir / linktrace_read_dir(..., want, err): the same, and
 *        the rows of direction want (IJ, an N-car race's line, not 12 or 21)
 *        are kept as direction 12 is (t->named = want then takes them);
 *        rows of other lines are skipped (t->other_directions). A served
 *        race's downlink sJ also keeps each sender I's rows IsJ (t->via).
 *   linktrace_load_files(t, path, want, files, err)  linktrace_load_dir
 *        through files (NULL: read alone): a file read once for all.
 *   linktrace_direction(text)  IJ (terminals 1..8, I != J) as the number
 *        IJ; a served race's hops: Is (client I's uplink) as I*10 + 9, IsJ
 *        (the downlink to J of I's MUs) as I*100 + 90 + J, sJ (the downlink
 *        to J: on a cs route each sender I's line takes IsJ, route.h) as
 *        90 + J; 0 when the text is none of them.
 *   linktrace_direction_text(dir, buf, n)  the text of such a code.
 *   linkspec_via_server(down, from, out, err)  the spec of the downlink
 *        `down` for the MUs of car `from` (1-based): a trace named sJ as
 *        named IsJ (the rows t->via kept when the spec was read: no file
 *        read), any other spec copied; false + err (out empty) when out of
 *        memory or from is not a sender of sJ (1..8, not J).
 *   linktrace_load(t, path, err) / linktrace_read(t, f, path, err)  read and
 *        check a delays file; false + err "FILE:LINE: what" (t is then
 *        empty). At most LINK_TRACE_ROWS_MAX rows.
 *   linktrace_fate(t, dir, seq, aux, out)  the fate of slot seq of direction
 *        dir (0 = 12, 1 = 21; t->named 12 or 21 overrides it): the update packet (aux false) or a
 *        further packet of the slot (aux true: the parity rows; the update's
 *        fate when the direction has no parity rows). No row: lost; a seq
 *        after the direction's last seq: lost with past_end set.
 *   linktrace_last_seq(t, dir)  the last seq with a row in direction dir
 *        (t->named overrides it as above), -1 when it has none: slots after
 *        it are past the trace's end.
 *   linktrace_scheme_bit(t, name)  the mask bit of scheme `name` in the
 *        file's `# schemes:` line, or -1 (no such line, no such scheme, or
 *        no `schemes` column).
 *   linktrace_fate_scheme(t, dir, seq, kind, bit, out)  the fate of the
 *        packet of (dir, seq, kind: 0 update, 1 parity) that carried scheme
 *        `bit` (its earliest arrival; a second copy is the duplicate); lost
 *        when no packet of that slot carried it (past_end after the last seq). Live play sends a sample
 *        once for the schemes that send the same bytes, others apart: this
 *        gives each scheme its own packet's fate.
 *   linktrace_copy(dst, src) deep copy; false when out of memory (dst empty).
 *   linktrace_free(t)        NULL-safe.
 *   For a trace, link_draw takes slots 0, 1, 2, ... of direction t->named
 *   (12 when not named); linkspec_mean_ms is the mean delay of that direction's
 *   delivered update packets and linkspec_loss_rate the share of slots 0 ..
 *   its last seq without an update row.
 */
#ifndef NR_LINK_H
#define NR_LINK_H

#include "nr_common.h"

#include <stdio.h>
#include "rng.h"

#define LINK_TEXT_MAX 256
#define LINK_DIST_SCALE 8192  /* netem's NETEM_DIST_SCALE */
#define LINK_DIST_MAX 16384   /* most entries a .dist table may have */
#define LINK_TIME_MAX_US INT64_C(2147483647) /* ~35.8 min: 2*jitter fits 32 bits */

typedef struct DistTable {
    int n;
    int16_t *v; /* owned */
    char name[64];
} DistTable;

typedef enum LinkLoss { LINK_LOSS_NONE, LINK_LOSS_RANDOM, LINK_LOSS_GEMODEL } LinkLoss;

/* One sample slot of a measured-delay trace (docs/link.md "Trace"): the
 * delays of the slot's update packet, its second copy, its parity packet
 * and that one's second copy, in us (>= 0); LINK_TRACE_NONE when absent. */
#define LINK_TRACE_NONE (-1)
#define LINK_TRACE_TERMINALS 8 /* directions IJ of terminals 1..8 (an N-car race's lines) */
#define LINK_TRACE_SERVER 9    /* the digit of the server in a hop's direction code (Is, sJ, IsJ) */
#define LINK_TRACE_ROWS_MAX 4000000 /* rows of a delays file (~18 h of 2 x 30 Hz with parity) */
typedef struct LinkTraceSlot {
    int32_t seq;
    int32_t delay_us, dup_us, aux_us, aux_dup_us;
} LinkTraceSlot;

/* One packet of a trace with a `schemes` column: which schemes it carried,
 * for a fate per scheme (linktrace_fate_scheme). */
typedef struct LinkTracePkt {
    int32_t seq;
    int32_t kind;            /* 0 update, 1 parity */
    uint32_t mask;           /* bit b: the b-th scheme of LinkTrace.schemes */
    int32_t delay_us, dup_us;
} LinkTracePkt;

typedef struct LinkTrace {
    bool on;                 /* the spec is `trace FILE` */
    char schemes[256];       /* `# schemes: a,b,c` of the file: the names of the mask bits */
    int npkt[2];             /* packets per direction, when the file has masks */
    LinkTracePkt *pkt[2];    /* owned, by (seq, kind, mask order in the file) */
    int named;               /* rows taken: 0 the link's own direction, else 12, 21 or another IJ */
    int n[2];                /* slots per direction (12, 21) */
    LinkTraceSlot *slot[2];  /* owned, by increasing seq */
    bool parity[2];          /* the direction has parity rows */
    int64_t rows;            /* data rows read */
    int64_t extra_copies;    /* copies beyond the second of one packet: ignored */
    int64_t other_packets;   /* rows of a slot's other packets (other pkt_seq): ignored */
    int64_t other_directions; /* rows of an N-car race's other lines (not 12, 21 or named): skipped */
    struct LinkTrace *via;   /* named sJ: [I - 1] sender I's rows IsJ, named IsJ (linkspec_via_server);
                              * LINK_TRACE_TERMINALS of them, owned; NULL otherwise */
} LinkTrace;

/* Delays files read once for every spec that names them (linkspec_parse_files):
 * each file's rows, every direction, by the path's text. Start it zeroed. */
struct LinkTraceFile; /* linktrace_rows.h */
typedef struct LinkTraceFiles {
    struct LinkTraceFile *file; /* owned, n of them */
    int n;
} LinkTraceFiles;

typedef struct LinkSpec {
    /* what every draw reads first, side by side */
    int64_t delay_us;
    int64_t jitter_us;
    double delay_corr;   /* 0..1 */
    bool gamma;
    bool fifo;
    LinkLoss loss_kind;
    double gamma_shape;
    double gamma_scale_us;
    DistTable table;     /* n == 0: uniform jitter */
    double loss_p, loss_corr;          /* random loss: 0..1 */
    double ge_p, ge_r, ge_h, ge_k;     /* gemodel: p, r, 1-h, 1-k as netem */
    double dup_p, dup_corr;
    LinkTrace trace;     /* on: fates from a measured trace, not random draws */
    char text[LINK_TEXT_MAX]; /* canonical text of the spec */
} LinkSpec;

typedef struct LinkDraw {
    bool lost;
    bool past_end;        /* lost because a trace has no slot this late (after
                           * its last seq): the trace ran out, not a measured loss */
    int64_t delay_us;     /* >= 0: a negative tabledist result is sent now (0) */
    bool dup;             /* a second copy is delivered too */
    int64_t dup_delay_us; /* >= 0, its own delay draw */
} LinkDraw;

/* netem's crndstate: probabilities and correlations as 32-bit fractions. */
typedef struct LinkCorr {
    uint32_t last;
    uint32_t rho;
} LinkCorr;

typedef struct Link {
    Rng rng;
    LinkCorr delay_c, loss_c, dup_c;
    int ge_state; /* 0 good, 1 bad */
    uint32_t loss_u32, dup_u32;              /* thresholds, netem scaling */
    uint32_t ge_a1, ge_a2, ge_a3, ge_a4;     /* p, r, h, 1-k as the kernel holds them */
    int64_t fifo_last_due_us;
    int32_t trace_seq; /* link_draw of a trace: the next slot's seq */
    LinkSpec spec;     /* last: a draw reads its first fields only */
} Link;

bool linkspec_parse(LinkSpec *out, const char *text, const char *table_dir, NrError *err);
bool linkspec_parse_files(LinkSpec *out, const char *text, const char *table_dir, LinkTraceFiles *files,
                          NrError *err);
bool linkspec_copy(LinkSpec *dst, const LinkSpec *src);
void linkspec_free(LinkSpec *s);
double linkspec_mean_ms(const LinkSpec *s);
double linkspec_loss_rate(const LinkSpec *s);
int64_t linkspec_order_due(const LinkSpec *s, int64_t *last_due_us, int64_t due_us);

void link_init(Link *l, const LinkSpec *spec, uint64_t seed, uint64_t stream);
void link_set_spec(Link *l, const LinkSpec *spec);
void link_draw(Link *l, LinkDraw *out);
void link_draw_slot(Link *l, int dir, int32_t seq, bool aux, LinkDraw *out);
int64_t link_fifo_due(Link *l, int64_t due_us);
void link_free(Link *l);

int64_t link_tabledist(int64_t mu_us, int64_t sigma_us, uint32_t rnd, const DistTable *t);
uint32_t link_corr_next(LinkCorr *c, uint32_t fresh);

bool disttable_load(DistTable *t, const char *path, NrError *err);
/* disttable_load's parser on an open stream (not closed); path names it. */
bool disttable_read(DistTable *t, FILE *f, const char *path, NrError *err);
bool disttable_generate(DistTable *t, const char *name);
bool disttable_find(DistTable *t, const char *name_or_path, const char *table_dir, NrError *err);
bool disttable_copy(DistTable *dst, const DistTable *src);
void disttable_free(DistTable *t);

bool linktrace_load(LinkTrace *t, const char *path, NrError *err);
bool linktrace_read(LinkTrace *t, FILE *f, const char *path, NrError *err);
bool linktrace_load_dir(LinkTrace *t, const char *path, int want, NrError *err);
bool linktrace_read_dir(LinkTrace *t, FILE *f, const char *path, int want, NrError *err);
bool linktrace_load_files(LinkTrace *t, const char *path, int want, LinkTraceFiles *files, NrError *err);
void linktrace_files_free(LinkTraceFiles *files);
int linktrace_direction(const char *d);
void linktrace_direction_text(int dir, char *buf, size_t n);
bool linkspec_via_server(const LinkSpec *down, int from, LinkSpec *out, NrError *err);
void linktrace_fate(const LinkTrace *t, int dir, int32_t seq, bool aux, LinkDraw *out);
int32_t linktrace_last_seq(const LinkTrace *t, int dir);
int linktrace_scheme_bit(const LinkTrace *t, const char *name);
void linktrace_fate_scheme(const LinkTrace *t, int dir, int32_t seq, int kind, int bit, LinkDraw *out);
bool linktrace_copy(LinkTrace *dst, const LinkTrace *src);
void linktrace_free(LinkTrace *t);

#endif
