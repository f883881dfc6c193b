/* A lossless fixed-delay FIFO medium: the simplest carrier of MUs. */
#include "fixedmedium.h"

#include <stdlib.h>
#include <string.h>

bool fixedmedium_init(FixedMedium *f, int64_t delay_us, int cap, NrError *err)
{
    memset(f, 0, sizeof *f);
    if (delay_us < 0 || cap < 1)
        return nr_error_set(err, "fixed medium: delay %lld us and capacity %d (expected >= 0 and >= 1)",
                            (long long)delay_us, cap);
    f->v = malloc(sizeof *f->v * (size_t)cap);
    if (!f->v)
        return nr_error_set(err, "fixed medium: out of memory");
    f->delay_us = delay_us;
    f->cap = cap;
    return true;
}

void fixedmedium_free(FixedMedium *f)
{
    if (!f)
        return;
    free(f->v);
    memset(f, 0, sizeof *f);
}

static int fm_send(void *ctx, int k, int from, int to, const Mu *mu, int64_t now_us)
{
    FixedMedium *f = ctx;
    if (f->n == f->cap)
        return MEDIUM_OVERFLOW;
    f->v[(f->head + f->n++) % f->cap] = (MediumDelivery){
        .scheme = k, .from = from, .to = to, .sent_us = now_us, .due_us = now_us + f->delay_us, .mu = *mu};
    return 0;
}

/* Sends come in time order and the delay is fixed: the head is due first. */
static int64_t fm_next_due(const void *ctx)
{
    const FixedMedium *f = ctx;
    return f->n > 0 ? f->v[f->head].due_us : INT64_MAX;
}

static bool fm_pop_due(void *ctx, int64_t t_us, MediumDelivery *out)
{
    FixedMedium *f = ctx;
    if (f->n == 0 || f->v[f->head].due_us > t_us)
        return false;
    *out = f->v[f->head];
    f->head = (f->head + 1) % f->cap;
    f->n--;
    return true;
}

static int fm_in_flight(const void *ctx, int k, InFlight *out, int max)
{
    const FixedMedium *f = ctx;
    int n = 0;
    for (int i = 0; i < f->n && n < max; i++) {
        const MediumDelivery *d = &f->v[(f->head + i) % f->cap];
        if (d->scheme == k)
            out[n++] = (InFlight){.mu = d->mu, .sent_us = d->sent_us, .due_us = d->due_us};
    }
    return n;
}

static void fm_clear(void *ctx)
{
    FixedMedium *f = ctx;
    f->head = f->n = 0;
}

static const MediumType fixedmedium_type = {
    .name = "fixed",
    .send = fm_send,
    .next_due = fm_next_due,
    .pop_due = fm_pop_due,
    .in_flight = fm_in_flight,
    .clear = fm_clear,
};

Medium fixedmedium_medium(FixedMedium *f)
{
    return (Medium){&fixedmedium_type, f};
}
