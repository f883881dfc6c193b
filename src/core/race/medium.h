/* The Medium interface: whatever carries MUs from one terminal to another
 * (DESIGN.md "Live play"). The emulated link (DelayLine, delayline.h) is one
 * medium, a fixed-delay FIFO (fixedmedium.h) another, a UDP transport in src/net
 * a third. A medium is a table of function pointers plus its own context, in
 * the manner of Redis's ConnectionType: callers go through the inline
 * wrappers below, never through the table directly.
 *
 * Traffic is kept apart per scheme: scheme k's MUs only ever reach scheme
 * k's instance at the destination terminal, so a medium keys what it carries
 * by (k, to). Times are global microseconds (the engine's clock; a network
 * medium uses its process's synchronised clock). Terminal / car indices are
 * 0-based; a medium does not assume two terminals.
 *
 * Contracts (ctx is the medium's own state, borrowed by the Medium value):
 *   slot(ctx, from, seq, now_us)   optional (NULL = nothing to do): terminal
 *        `from` starts sample slot seq at now_us, before any send of that
 *        slot. DelayLine draws the slot's shared random fate here (common
 *        random numbers, DESIGN.md "Delay emulator").
 *   send(ctx, k, from, to, mu, now_us)  scheme k at terminal `from` sends mu
 *        to terminal `to` at now_us. The medium copies mu. Returns the fate as
 *        MEDIUM_* flags (0 = accepted once); the caller counts sent / bytes
 *        itself and lost / duplicated / overflow from the flags.
 *   next_due(ctx)                  earliest due time of anything queued, or
 *        INT64_MAX when nothing is. Pure.
 *   pop_due(ctx, t_us, out)        removes the earliest delivery due at or
 *        before t_us into *out and returns true; false (out untouched) when
 *        none is due. Equal due times leave in sending order.
 *   in_flight(ctx, k, out, max)    optional (NULL = 0): copies up to max of
 *        scheme k's queued MUs (any order) for display; returns the count.
 *   clear(ctx)                     optional: drops everything queued (a new
 *        heat, engine_push ENGINE_PUSH_NEW_HEAT). Random streams continue.
 */
#ifndef NR_MEDIUM_H
#define NR_MEDIUM_H

#include "scheme.h"

enum {
    MEDIUM_LOST = 1,           /* the MU was lost (nothing queued) */
    MEDIUM_DUPLICATED = 2,     /* a second copy was queued too */
    MEDIUM_OVERFLOW = 4,       /* the copy was dropped: queue full */
    MEDIUM_DUP_OVERFLOW = 8,   /* the duplicate was dropped: queue full */
};

typedef struct InFlight {
    Mu mu;
    int64_t sent_us, due_us;
} InFlight;

/* One MU handed over to its destination. */
typedef struct MediumDelivery {
    int scheme;      /* k */
    int from, to;    /* terminal indices */
    int64_t sent_us; /* global time of sending */
    int64_t due_us;  /* global time of arrival */
    Mu mu;
} MediumDelivery;

typedef struct MediumType {
    const char *name;
    void (*slot)(void *ctx, int from, int32_t seq, int64_t now_us);
    int (*send)(void *ctx, int k, int from, int to, const Mu *mu, int64_t now_us);
    int64_t (*next_due)(const void *ctx);
    bool (*pop_due)(void *ctx, int64_t t_us, MediumDelivery *out);
    int (*in_flight)(const void *ctx, int k, InFlight *out, int max);
    void (*clear)(void *ctx);
} MediumType;

typedef struct Medium {
    const MediumType *type;
    void *ctx;
} Medium;

static inline void medium_slot(const Medium *m, int from, int32_t seq, int64_t now_us)
{
    if (m->type->slot)
        m->type->slot(m->ctx, from, seq, now_us);
}

static inline int medium_send(const Medium *m, int k, int from, int to, const Mu *mu, int64_t now_us)
{
    return m->type->send(m->ctx, k, from, to, mu, now_us);
}

static inline int64_t medium_next_due(const Medium *m)
{
    return m->type->next_due(m->ctx);
}

static inline bool medium_pop_due(const Medium *m, int64_t t_us, MediumDelivery *out)
{
    return m->type->pop_due(m->ctx, t_us, out);
}

static inline int medium_in_flight(const Medium *m, int k, InFlight *out, int max)
{
    return m->type->in_flight ? m->type->in_flight(m->ctx, k, out, max) : 0;
}

static inline void medium_clear(const Medium *m)
{
    if (m->type->clear)
        m->type->clear(m->ctx);
}

#endif
