/* MU ring and first-order DR prediction shared by the schemes. */
#include "scheme_util.h"
#include "drvec.h"

#include <math.h>

void muring_clear(MuRing *r, const Mu *base)
{
    r->head = 0;
    r->n = 0;
    r->base = mu_kept(base);
}

_Static_assert((MURING_CAP & (MURING_CAP - 1)) == 0, "MURING_CAP is a power of two: indices wrap by a mask");

/* Entry i from the head: head and i are never negative, the wrap is a
 * mask. */
static inline unsigned ring_slot(unsigned head, int i)
{
    return (head + (unsigned)i) & (MURING_CAP - 1);
}

void muring_insert(MuRing *r, const Mu *mu)
{
    const int64_t gen = mu->gen_us;
    if (gen <= r->base.gen_us)
        return;
    /* head and n in locals: an entry's seq is an int the stores below could
     * alias, and the ring's indices would be loaded again after each. */
    unsigned head = (unsigned)r->head;
    int n = r->n;
    MuKept *v = r->v;
    if (n == MURING_CAP) { /* the oldest was output long ago */
        r->base = v[head];
        head = (head + 1) & (MURING_CAP - 1);
        r->head = (int)head;
        n--;
    }
    /* MUs mostly come in gen order: shift the few newer ones up by one. */
    int i = n;
    while (i > 0 && v[ring_slot(head, i - 1)].gen_us > gen) {
        v[ring_slot(head, i)] = v[ring_slot(head, i - 1)];
        i--;
    }
    if (i > 0 && v[ring_slot(head, i - 1)].gen_us == gen) { /* duplicate */
        for (int j = i; j < n; j++)
            v[ring_slot(head, j)] = v[ring_slot(head, j + 1)];
        r->n = n;
        return;
    }
    v[ring_slot(head, i)] = mu_kept(mu);
    r->n = n + 1;
}

const MuKept *muring_latest_before(const MuRing *r, int64_t t_us)
{
    for (int i = r->n - 1; i >= 0; i--) {
        const MuKept *m = &r->v[ring_slot((unsigned)r->head, i)];
        if (m->gen_us <= t_us)
            return m;
    }
    return &r->base;
}

/* The velocity changes only when an MU is pushed: computed then. The
 * heading (an atan2) is found when a display asks for it (drpred_at): the
 * engine's views never do, and a sender's prediction is never shown. */
static void drpred_cache(DrPred *d)
{
    int64_t dt = d->last.gen_us - d->prev.gen_us;
    d->vx = d->vy = 0.0;
    if (d->has_prev && dt > 0) {
        double s = (double)NR_US_PER_S / (double)dt;
        d->vx = (d->last.x - d->prev.x) * s;
        d->vy = (d->last.y - d->prev.y) * s;
    }
}

void drpred_reset(DrPred *d, const Mu *mu)
{
    d->last = mu_kept(mu);
    d->prev = d->last;
    d->has_prev = false;
    drpred_cache(d);
}

bool drpred_push(DrPred *d, const MuKept *mu)
{
    if (mu->gen_us <= d->last.gen_us)
        return false;
    d->prev = d->last;
    d->last = *mu;
    d->has_prev = true;
    drpred_cache(d);
    return true;
}

void drpred_velocity(const DrPred *d, double *vx, double *vy)
{
    *vx = d->vx;
    *vy = d->vy;
}

void drpred_at(const DrPred *d, int64_t t_us, double *x, double *y, double *heading)
{
    double dt = (double)(t_us - d->last.gen_us) / (double)NR_US_PER_S;
    *x = d->last.x + d->vx * dt;
    *y = d->last.y + d->vy * dt;
    if (heading)
        *heading = (d->vx != 0.0 || d->vy != 0.0) ? atan2(d->vy, d->vx) : d->last.heading;
}

void drsender_init(DrSender *s, const Mu *grid, double tdr_cw)
{
    drpred_reset(&s->tx, grid);
    s->tdr_cw = tdr_cw;
}

bool drsender_sample(DrSender *s, const Mu *mu, Mu *out)
{
    /* The prediction from the last two transmitted MUs as a DR vector. */
    DrVec sent = {s->tx.last.gen_us, s->tx.last.x, s->tx.last.y, s->tx.vx, s->tx.vy};
    if (!drvec_exceeds(&sent, mu->gen_us, mu->x, mu->y, s->tdr_cw)) /* error <= T_dr: no update */
        return false;
    MuKept k = mu_kept(mu);
    if (!drpred_push(&s->tx, &k))
        return false;
    *out = *mu;
    drpred_velocity(&s->tx, &out->vx, &out->vy);
    return true;
}

void pose_from_mu(const Mu *mu, Pose *out)
{
    out->x = mu->x;
    out->y = mu->y;
    out->heading = mu->heading;
    out->seq = mu->seq;
}

void pose_from_kept(const MuKept *mu, Pose *out)
{
    out->x = mu->x;
    out->y = mu->y;
    out->heading = mu->heading;
    out->seq = mu->seq;
}
