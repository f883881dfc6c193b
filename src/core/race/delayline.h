/* DelayLine: the emulated link of one direction as a Medium (medium.h):
 * netem's draws (link.h) shared by every scheme on common random numbers,
 * one packet queue per scheme with netem's default limit, packets leaving in
 * due order (or FIFO with `order fifo`).
 *
 * Common random numbers (DESIGN.md "Delay emulator"): at each sample slot
 * (medium_slot) the line draws one primary fate from stream 2*dir of the
 * seed and, when some scheme declared extra packets, one auxiliary fate from
 * stream 2*dir+1. The first update MU a scheme sends in the slot takes the
 * primary fate; anything more (parity, a second update) takes the auxiliary
 * one, drawn on first need for schemes that did not declare extra packets.
 * So the delay and loss of MU (car, seq) are the same whichever scheme sends
 * it. With a `trace FILE` spec the fates are not drawn but looked up: the
 * primary fate is the trace's update packet of (direction dir, seq), the
 * auxiliary one its parity packet (link.h, docs/link.md "Trace").
 *
 * Contracts:
 *   delayline_init(d, spec, seed, dir, nschemes, need_aux)  copies spec; the
 *        queue (nschemes x DELAYLINE_QUEUE_LIMIT packets) is allocated
 *        here and only here. False when out of memory (d is then safe to
 *        free). nschemes in 1..SCHEME_MAX.
 *   delayline_free(d)                NULL-safe.
 *   delayline_medium(d)              the Medium value (ctx = d, borrowed).
 *   delayline_set_spec(d, spec, err) live change: applies to MUs sent after
 *        the call; random streams continue. False + err when out of memory.
 *   delayline_spec(d)                the current spec.
 *   delayline_reset(d)               queues emptied, random streams back to
 *        their seeded start (engine restart: the same traffic again).
 *   delayline_set_schemes(d, names, n)  the names of schemes 0..n-1
 *        (borrowed, static): with a trace that has a `schemes` column and
 *        a `# schemes:` line, each named scheme takes its own packet's fate
 *        (linktrace_fate_scheme), as in the live race the trace measured;
 *        other schemes (and every scheme without that) the slot's shared
 *        fate. Kept across delayline_set_spec.
 *   delayline_send_at(d, k, from, to, mu, sent_us, enter_us)  the medium's
 *        send of an MU sent at sent_us that enters this line at enter_us
 *        >= sent_us (after a first hop, topology.h): the current slot's fate,
 *        due at enter_us + its delay. Returns MEDIUM_* flags.
 *   delayline_draw_fate(d, k, mu, &delay_us)  takes the fate scheme k's mu
 *        would take in the current slot without queueing anything: false
 *        when lost, else its delay (>= 0). A first hop of a route.
 *   delayline_init_fates(...)        as delayline_init, without a queue of
 *        its own: a line whose packets a route stores (route.h); only
 *        delayline_admit / delayline_left / delayline_draw_fate and the
 *        slot, spec, clear and reset calls apply to it.
 *   delayline_slot(d, seq)           the medium's slot (draws the slot's
 *        fates); delayline_clear(d) the medium's clear (queues emptied,
 *        random streams continue).
 *   delayline_admit(d, k, mu, enter_us, due_us)  delayline_send_at's fate
 *        and queue accounting without storing: returns the MEDIUM_* flags;
 *        due_us[0] is the copy's due time when neither MEDIUM_LOST nor
 *        MEDIUM_OVERFLOW, due_us[1] the duplicate's when MEDIUM_DUPLICATED
 *        without MEDIUM_DUP_OVERFLOW. Each copy admitted counts in scheme
 *        k's queue until delayline_left(d, k).
 *   delayline_admit_class(d, k, n, enter_us, due_us)  n update MUs of the
 *        distinct schemes k[0..n) (a class: the same bytes, or at least the
 *        same kind, sent at one instant), all entering at enter_us, admitted
 *        at once when each would take the slot's primary fate and none
 *        meets its queue limit, a trace fate of its own, a duplicate or
 *        `order fifo`: then 0 with the one due time in *due_us, or
 *        MEDIUM_LOST for all, the line left exactly as n delayline_admit
 *        calls in that order leave it. -1 otherwise, nothing changed (admit
 *        them one by one).
 */
#ifndef NR_DELAYLINE_H
#define NR_DELAYLINE_H

#include "link.h"
#include "medium.h"

#define DELAYLINE_QUEUE_LIMIT 1000 /* packets per scheme, as netem's default limit */

typedef struct DlPacket {
    int64_t sent_us;
    int k, from, to;
    Mu mu;
} DlPacket;

/* A heap entry: the packets stay put in a pool, the heap moves 24 bytes. */
typedef struct DlKey {
    int64_t due_us;
    uint64_t order; /* sending order: ties in due time leave in this order */
    int slot;       /* index in the pool */
} DlKey;


/* A binary min-heap of keys by (due, order), heap[0..*n) (a DelayLine's
 * queue, a route's groups). */
static inline bool dlkey_less(const DlKey *a, const DlKey *b)
{
    return a->due_us < b->due_us || (a->due_us == b->due_us && a->order < b->order);
}

static inline void dlheap_push(DlKey *heap, int *n, DlKey key)
{
    int i = (*n)++;
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!dlkey_less(&key, &heap[parent]))
            break;
        heap[i] = heap[parent];
        i = parent;
    }
    heap[i] = key;
}

/* Removes the head key. */
static inline void dlheap_drop_head(DlKey *heap, int *n)
{
    DlKey last = heap[--*n];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && dlkey_less(&heap[c + 1], &heap[c]))
            c++;
        if (!dlkey_less(&heap[c], &last))
            break;
        heap[i] = heap[c];
        i = c;
    }
    if (*n > 0)
        heap[i] = last;
}

/* One scheme's share of the line: netem's limit and FIFO state are per
 * scheme, as if each scheme had its own qdisc. */
typedef struct DlQueue {
    int64_t last_due_us;   /* for `order fifo` */
    uint64_t primary_slot; /* slot whose primary fate this scheme took (+1) */
    int n;                 /* packets of this scheme in the heap */
} DlQueue;

typedef struct DelayLine {
    /* What each slot and each send reads, side by side (an N-car race
     * keeps dozens of lines: their link streams and specs are kilobytes
     * that a send does not touch). */
    uint64_t slot; /* sample slots begun so far */
    int32_t cur_seq; /* seq of the current slot (a trace's fates are by seq) */
    int nq;
    bool need_aux, aux_drawn;
    bool fifo;     /* spec.fifo */
    LinkDraw draw, auxdraw;
    int8_t trace_bit[SCHEME_MAX]; /* scheme k's mask bit in the trace (< 32), -1: shared fate */
    DlQueue q[SCHEME_MAX];
    LinkSpec spec;
    uint64_t seed;
    int dir;
    Link link, aux;        /* primary and auxiliary streams */
    const char *scheme_name[SCHEME_MAX]; /* delayline_set_schemes; NULL: unnamed */
    /* Every scheme's packets in one binary min-heap by (due, order): the
     * next delivery is its head, found without a scan. The packets live in
     * a pool of cap slots: slots from `fresh` on were never used,
     * free[0..nfree) lists the released ones. */
    DlKey *heap;
    DlPacket *pool;
    int *free;
    int n, cap, fresh, nfree;
    uint64_t order;
} DelayLine;

bool delayline_init(DelayLine *d, const LinkSpec *spec, uint64_t seed, int dir, int nschemes, bool need_aux);
void delayline_free(DelayLine *d);
Medium delayline_medium(DelayLine *d);
bool delayline_set_spec(DelayLine *d, const LinkSpec *spec, NrError *err);
const LinkSpec *delayline_spec(const DelayLine *d);
void delayline_reset(DelayLine *d);
void delayline_set_schemes(DelayLine *d, const char *const *names, int n);
int delayline_send_at(DelayLine *d, int k, int from, int to, const Mu *mu, int64_t sent_us, int64_t enter_us);

/* The medium's next_due without the indirection (composing media). */
static inline int64_t delayline_next_due(const DelayLine *d)
{
    return d->n > 0 ? d->heap[0].due_us : INT64_MAX;
}
bool delayline_draw_fate(DelayLine *d, int k, const Mu *mu, int64_t *delay_us);
bool delayline_init_fates(DelayLine *d, const LinkSpec *spec, uint64_t seed, int dir, int nschemes, bool need_aux);
int delayline_admit(DelayLine *d, int k, const Mu *mu, int64_t enter_us, int64_t due_us[2]);
int delayline_admit_class(DelayLine *d, const int *k, int n, int64_t enter_us, int64_t *due_us);
void delayline_slot(DelayLine *d, int32_t seq);
void delayline_clear(DelayLine *d);

/* An admitted copy of scheme k left the line (delivered or dropped). */
static inline void delayline_left(DelayLine *d, int k)
{
    d->q[k].n--;
}

#endif
