/* The emulated link of one direction as a medium: netem draws shared by the
 * schemes on common random numbers, one due-ordered queue per scheme. */
#include "delayline.h"

#include <stdlib.h>
#include <string.h>

/* ---- packet heap (delayline.h: dlheap_*) ---------------------------------- */

static void pq_push(DelayLine *d, DlKey key)
{
    dlheap_push(d->heap, &d->n, key);
}

/* Removes the head key (the caller has read its packet). */
static void pq_drop_head(DelayLine *d)
{
    dlheap_drop_head(d->heap, &d->n);
}

/* ---- setup ------------------------------------------------------------- */

static void start_streams(DelayLine *d)
{
    link_free(&d->link);
    link_free(&d->aux);
    link_init(&d->link, &d->spec, d->seed, (uint64_t)(2 * d->dir));
    link_init(&d->aux, &d->spec, d->seed, (uint64_t)(2 * d->dir + 1));
    d->aux_drawn = false;
    d->order = 0;
}

static void clear_queues(void *ctx)
{
    DelayLine *d = ctx;
    d->n = 0;
    d->fresh = 0;
    d->nfree = 0;
    for (int k = 0; k < d->nq; k++) {
        d->q[k].n = 0;
        d->q[k].last_due_us = INT64_MIN;
        d->q[k].primary_slot = 0;
    }
}

/* Each named scheme's bit in the trace's scheme list (-1: shared fate). */
static void map_trace_bits(DelayLine *d)
{
    for (int k = 0; k < SCHEME_MAX; k++)
        d->trace_bit[k] = (int8_t)(d->spec.trace.on && d->scheme_name[k]
                                       ? linktrace_scheme_bit(&d->spec.trace, d->scheme_name[k])
                                       : -1);
}

void delayline_set_schemes(DelayLine *d, const char *const *names, int n)
{
    for (int k = 0; k < SCHEME_MAX; k++)
        d->scheme_name[k] = k < n ? names[k] : NULL;
    map_trace_bits(d);
}

static bool init_line(DelayLine *d, const LinkSpec *spec, uint64_t seed, int dir, int nschemes, bool need_aux,
                      bool storage)
{
    memset(d, 0, sizeof *d);
    if (nschemes < 1 || nschemes > SCHEME_MAX || !linkspec_copy(&d->spec, spec))
        return false;
    d->fifo = d->spec.fifo;
    d->seed = seed;
    d->dir = dir;
    d->slot = 1; /* primary_slot 0: no scheme has taken a fate yet */
    d->need_aux = need_aux;
    d->nq = nschemes;
    if (storage) {
        d->cap = nschemes * DELAYLINE_QUEUE_LIMIT;
        d->heap = malloc(sizeof *d->heap * (size_t)d->cap);
        d->pool = malloc(sizeof *d->pool * (size_t)d->cap);
        d->free = malloc(sizeof *d->free * (size_t)d->cap);
        if (!d->heap || !d->pool || !d->free) {
            delayline_free(d);
            return false;
        }
    }
    clear_queues(d);
    start_streams(d);
    map_trace_bits(d);
    return true;
}

bool delayline_init(DelayLine *d, const LinkSpec *spec, uint64_t seed, int dir, int nschemes, bool need_aux)
{
    return init_line(d, spec, seed, dir, nschemes, need_aux, true);
}

bool delayline_init_fates(DelayLine *d, const LinkSpec *spec, uint64_t seed, int dir, int nschemes, bool need_aux)
{
    return init_line(d, spec, seed, dir, nschemes, need_aux, false);
}

void delayline_free(DelayLine *d)
{
    if (!d)
        return;
    free(d->heap);
    free(d->pool);
    free(d->free);
    d->heap = NULL;
    d->pool = NULL;
    d->free = NULL;
    d->nq = d->n = d->cap = 0;
    link_free(&d->link);
    link_free(&d->aux);
    linkspec_free(&d->spec);
}

void delayline_reset(DelayLine *d)
{
    clear_queues(d);
    start_streams(d);
}

bool delayline_set_spec(DelayLine *d, const LinkSpec *spec, NrError *err)
{
    LinkSpec copy;
    memset(&copy, 0, sizeof copy);
    if (!linkspec_copy(&copy, spec))
        return nr_error_set(err, "delay line: out of memory copying the link spec");
    linkspec_free(&d->spec);
    d->spec = copy;
    d->fifo = d->spec.fifo;
    link_set_spec(&d->link, &d->spec);
    link_set_spec(&d->aux, &d->spec);
    map_trace_bits(d);
    return true;
}

const LinkSpec *delayline_spec(const DelayLine *d)
{
    return &d->spec;
}

/* ---- the medium -------------------------------------------------------- */

void delayline_slot(DelayLine *d, int32_t seq)
{
    d->cur_seq = seq;
    link_draw_slot(&d->link, d->dir, seq, false, &d->draw);
    d->aux_drawn = d->need_aux;
    if (d->need_aux)
        link_draw_slot(&d->aux, d->dir, seq, true, &d->auxdraw);
    d->slot++; /* every scheme's primary fate is free again */
}

static void dl_slot(void *ctx, int from, int32_t seq, int64_t now_us)
{
    (void)from;
    (void)now_us;
    delayline_slot(ctx, seq);
}

void delayline_clear(DelayLine *d)
{
    clear_queues(d);
}

/* Admits one copy into scheme k's queue: its due time in *due_us, or the
 * overflow flag when netem's limit drops it. */
static int admit(DelayLine *d, int k, int64_t now_us, int64_t delay_us, int overflow_flag, int64_t *due_us)
{
    DlQueue *q = &d->q[k];
    if (q->n == DELAYLINE_QUEUE_LIMIT)
        return overflow_flag;
    /* linkspec_order_due on the spec's copy of fifo, beside the queues */
    int64_t due = now_us + (delay_us > 0 ? delay_us : 0);
    if (d->fifo && due < q->last_due_us)
        due = q->last_due_us;
    if (due > q->last_due_us)
        q->last_due_us = due;
    *due_us = due;
    q->n++;
    return 0;
}

/* Stores an admitted copy in the line's own heap. */
static void store(DelayLine *d, int k, int from, int to, const Mu *mu, int64_t sent_us, int64_t due_us)
{
    int slot = d->nfree > 0 ? d->free[--d->nfree] : d->fresh++; /* n < cap: each scheme is below its limit */
    DlPacket *p = &d->pool[slot];
    p->sent_us = sent_us;
    p->k = k;
    p->from = from;
    p->to = to;
    p->mu = *mu;
    pq_push(d, (DlKey){due_us, d->order++, slot});
}

/* The fate of scheme k's mu in the current slot. Common random numbers:
 * the first update MU a scheme sends in a sample slot takes that slot's
 * draw, shared by every scheme; anything more takes the slot's auxiliary
 * draw. */
static const LinkDraw *slot_fate(DelayLine *d, int k, const Mu *mu, LinkDraw *own)
{
    DlQueue *q = &d->q[k];
    if (d->trace_bit[k] >= 0) {
        /* A measured trace that knows which packet carried this scheme. */
        linktrace_fate_scheme(&d->spec.trace, d->dir, d->cur_seq, mu->kind == MU_PARITY, d->trace_bit[k], own);
        return own;
    }
    if (mu->kind == MU_UPDATE && q->primary_slot != d->slot) {
        q->primary_slot = d->slot;
        return &d->draw;
    }
    if (!d->aux_drawn) { /* a scheme that did not declare extra packets */
        link_draw_slot(&d->aux, d->dir, d->cur_seq, true, &d->auxdraw);
        d->aux_drawn = true;
    }
    return &d->auxdraw;
}

/* delayline_admit's body, for delayline_send_at to take inline. */
static int admit_copies(DelayLine *d, int k, const Mu *mu, int64_t enter_us, int64_t due_us[2])
{
    LinkDraw own;
    const LinkDraw *dr = slot_fate(d, k, mu, &own);
    if (dr->lost)
        return MEDIUM_LOST;
    int fate = admit(d, k, enter_us, dr->delay_us, MEDIUM_OVERFLOW, &due_us[0]);
    if (dr->dup)
        fate |= MEDIUM_DUPLICATED | admit(d, k, enter_us, dr->dup_delay_us, MEDIUM_DUP_OVERFLOW, &due_us[1]);
    return fate;
}

int delayline_admit(DelayLine *d, int k, const Mu *mu, int64_t enter_us, int64_t due_us[2])
{
    return admit_copies(d, k, mu, enter_us, due_us);
}

/* Every copy of a class takes the slot's primary fate (slot_fate) and one
 * due time, as admit gives it but without fifo's per-scheme floor; the
 * per-scheme state moves as admit_copies would move it copy by copy. */
int delayline_admit_class(DelayLine *d, const int *k, int n, int64_t enter_us, int64_t *due_us)
{
    if (d->fifo || d->draw.dup)
        return -1;
    for (int i = 0; i < n; i++) {
        const DlQueue *q = &d->q[k[i]];
        if (d->trace_bit[k[i]] >= 0 || q->primary_slot == d->slot || q->n >= DELAYLINE_QUEUE_LIMIT)
            return -1;
    }
    const bool lost = d->draw.lost;
    const int64_t due = enter_us + (d->draw.delay_us > 0 ? d->draw.delay_us : 0);
    for (int i = 0; i < n; i++) {
        DlQueue *q = &d->q[k[i]];
        q->primary_slot = d->slot;
        if (lost)
            continue;
        if (due > q->last_due_us)
            q->last_due_us = due;
        q->n++;
    }
    *due_us = due;
    return lost ? MEDIUM_LOST : 0;
}

int delayline_send_at(DelayLine *d, int k, int from, int to, const Mu *mu, int64_t sent_us, int64_t enter_us)
{
    int64_t due[2];
    int fate = admit_copies(d, k, mu, enter_us, due);
    if (!(fate & (MEDIUM_LOST | MEDIUM_OVERFLOW)))
        store(d, k, from, to, mu, sent_us, due[0]);
    if ((fate & MEDIUM_DUPLICATED) && !(fate & MEDIUM_DUP_OVERFLOW))
        store(d, k, from, to, mu, sent_us, due[1]);
    return fate;
}

bool delayline_draw_fate(DelayLine *d, int k, const Mu *mu, int64_t *delay_us)
{
    LinkDraw own;
    const LinkDraw *dr = slot_fate(d, k, mu, &own);
    *delay_us = dr->delay_us > 0 ? dr->delay_us : 0;
    return !dr->lost;
}

static int dl_send(void *ctx, int k, int from, int to, const Mu *mu, int64_t now_us)
{
    return delayline_send_at(ctx, k, from, to, mu, now_us, now_us);
}

static int64_t dl_next_due(const void *ctx)
{
    return delayline_next_due(ctx);
}

static bool dl_pop_due(void *ctx, int64_t t_us, MediumDelivery *out)
{
    DelayLine *d = ctx;
    if (d->n == 0 || d->heap[0].due_us > t_us)
        return false;
    int slot = d->heap[0].slot;
    const DlPacket *p = &d->pool[slot];
    out->scheme = p->k;
    out->from = p->from;
    out->to = p->to;
    out->sent_us = p->sent_us;
    out->due_us = d->heap[0].due_us;
    out->mu = p->mu;
    d->q[p->k].n--;
    pq_drop_head(d);
    d->free[d->nfree++] = slot;
    return true;
}

static int dl_in_flight(const void *ctx, int k, InFlight *out, int max)
{
    const DelayLine *d = ctx;
    int n = 0;
    for (int i = 0; i < d->n && n < max; i++) {
        const DlPacket *p = &d->pool[d->heap[i].slot];
        if (p->k == k)
            out[n++] = (InFlight){.mu = p->mu, .sent_us = p->sent_us, .due_us = d->heap[i].due_us};
    }
    return n;
}

static const MediumType delayline_type = {
    .name = "delayline",
    .slot = dl_slot,
    .send = dl_send,
    .next_due = dl_next_due,
    .pop_due = dl_pop_due,
    .in_flight = dl_in_flight,
    .clear = clear_queues,
};

Medium delayline_medium(DelayLine *d)
{
    return (Medium){&delayline_type, d};
}
