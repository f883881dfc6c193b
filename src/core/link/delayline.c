/* The emulated link of one direction as a medium: netem draws shared by the
 * schemes on common random numbers, one due-ordered queue per scheme. */
#include "delayline.h"

#include <stdlib.h>
#include <string.h>

/* ---- packet queue: binary min-heap by (due, order) ---------------------- */

static bool pq_less(const DlPacket *a, const DlPacket *b)
{
    return a->due_us < b->due_us || (a->due_us == b->due_us && a->order < b->order);
}

static void pq_push(DlQueue *q, const DlPacket *p)
{
    int i = q->n++;
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!pq_less(p, &q->v[parent]))
            break;
        q->v[i] = q->v[parent];
        i = parent;
    }
    q->v[i] = *p;
}

static void pq_pop(DlQueue *q, DlPacket *out)
{
    *out = q->v[0];
    DlPacket last = q->v[--q->n];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= q->n)
            break;
        if (c + 1 < q->n && pq_less(&q->v[c + 1], &q->v[c]))
            c++;
        if (!pq_less(&q->v[c], &last))
            break;
        q->v[i] = q->v[c];
        i = c;
    }
    if (q->n > 0)
        q->v[i] = last;
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
    for (int k = 0; k < d->nq; k++) {
        d->q[k].n = 0;
        d->q[k].last_due_us = INT64_MIN;
        d->q[k].used_primary = false;
    }
}

bool delayline_init(DelayLine *d, const LinkSpec *spec, uint64_t seed, int dir, int nschemes, bool need_aux)
{
    memset(d, 0, sizeof *d);
    if (nschemes < 1 || nschemes > SCHEME_MAX || !linkspec_copy(&d->spec, spec))
        return false;
    d->seed = seed;
    d->dir = dir;
    d->need_aux = need_aux;
    d->nq = nschemes;
    for (int k = 0; k < nschemes; k++) {
        d->q[k].v = malloc(sizeof(DlPacket) * DELAYLINE_QUEUE_LIMIT);
        if (!d->q[k].v) {
            delayline_free(d);
            return false;
        }
        d->q[k].cap = DELAYLINE_QUEUE_LIMIT;
    }
    clear_queues(d);
    start_streams(d);
    return true;
}

void delayline_free(DelayLine *d)
{
    if (!d)
        return;
    for (int k = 0; k < d->nq; k++)
        free(d->q[k].v);
    d->nq = 0;
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
    link_set_spec(&d->link, &d->spec);
    link_set_spec(&d->aux, &d->spec);
    return true;
}

const LinkSpec *delayline_spec(const DelayLine *d)
{
    return &d->spec;
}

/* ---- the medium -------------------------------------------------------- */

static void dl_slot(void *ctx, int from, int32_t seq, int64_t now_us)
{
    (void)from;
    (void)seq;
    (void)now_us;
    DelayLine *d = ctx;
    link_draw(&d->link, &d->draw);
    d->aux_drawn = d->need_aux;
    if (d->need_aux)
        link_draw(&d->aux, &d->auxdraw);
    for (int k = 0; k < d->nq; k++)
        d->q[k].used_primary = false;
}

/* Queues one copy; returns the overflow flag when netem's limit drops it. */
static int enqueue(DelayLine *d, DlQueue *q, int from, int to, const Mu *mu, int64_t now_us,
                   int64_t delay_us, int overflow_flag)
{
    if (q->n == q->cap)
        return overflow_flag;
    DlPacket p = {.sent_us = now_us, .from = from, .to = to, .mu = *mu, .order = d->order++};
    p.due_us = linkspec_order_due(&d->spec, &q->last_due_us, now_us + (delay_us > 0 ? delay_us : 0));
    pq_push(q, &p);
    return 0;
}

static int dl_send(void *ctx, int k, int from, int to, const Mu *mu, int64_t now_us)
{
    DelayLine *d = ctx;
    DlQueue *q = &d->q[k];
    /* Common random numbers: the first update MU a scheme sends in a sample
     * slot takes that slot's draw, shared by every scheme; anything more
     * takes the slot's auxiliary draw. */
    const LinkDraw *dr;
    if (mu->kind == MU_UPDATE && !q->used_primary) {
        dr = &d->draw;
        q->used_primary = true;
    } else {
        if (!d->aux_drawn) { /* a scheme that did not declare extra packets */
            link_draw(&d->aux, &d->auxdraw);
            d->aux_drawn = true;
        }
        dr = &d->auxdraw;
    }
    if (dr->lost)
        return MEDIUM_LOST;
    int fate = enqueue(d, q, from, to, mu, now_us, dr->delay_us, MEDIUM_OVERFLOW);
    if (dr->dup)
        fate |= MEDIUM_DUPLICATED |
                enqueue(d, q, from, to, mu, now_us, dr->dup_delay_us, MEDIUM_DUP_OVERFLOW);
    return fate;
}

/* The queue whose head is due first (ties: sending order), or -1. */
static int first_queue(const DelayLine *d)
{
    int best = -1;
    for (int k = 0; k < d->nq; k++)
        if (d->q[k].n > 0 && (best < 0 || pq_less(&d->q[k].v[0], &d->q[best].v[0])))
            best = k;
    return best;
}

static int64_t dl_next_due(const void *ctx)
{
    const DelayLine *d = ctx;
    int k = first_queue(d);
    return k < 0 ? INT64_MAX : d->q[k].v[0].due_us;
}

static bool dl_pop_due(void *ctx, int64_t t_us, MediumDelivery *out)
{
    DelayLine *d = ctx;
    int k = first_queue(d);
    if (k < 0 || d->q[k].v[0].due_us > t_us)
        return false;
    DlPacket p;
    pq_pop(&d->q[k], &p);
    *out = (MediumDelivery){.scheme = k, .from = p.from, .to = p.to, .sent_us = p.sent_us,
                            .due_us = p.due_us, .mu = p.mu};
    return true;
}

static int dl_in_flight(const void *ctx, int k, InFlight *out, int max)
{
    const DelayLine *d = ctx;
    if (k < 0 || k >= d->nq)
        return 0;
    const DlQueue *q = &d->q[k];
    int n = 0;
    for (int i = 0; i < q->n && n < max; i++, n++)
        out[n] = (InFlight){.mu = q->v[i].mu, .sent_us = q->v[i].sent_us, .due_us = q->v[i].due_us};
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
