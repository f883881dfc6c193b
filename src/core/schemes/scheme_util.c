/* MU ring and first-order DR prediction shared by the schemes. */
#include "scheme_util.h"

#include <math.h>

void muring_clear(MuRing *r, const Mu *base)
{
    r->head = 0;
    r->n = 0;
    r->base = *base;
}

static Mu *ring_at(MuRing *r, int i)
{
    return &r->v[(r->head + i) % MURING_CAP];
}

void muring_insert(MuRing *r, const Mu *mu)
{
    if (mu->gen_us <= r->base.gen_us)
        return;
    if (r->n == MURING_CAP) { /* the oldest was output long ago */
        r->base = r->v[r->head];
        r->head = (r->head + 1) % MURING_CAP;
        r->n--;
    }
    /* MUs mostly come in gen order: shift the few newer ones up by one. */
    int i = r->n;
    while (i > 0 && ring_at(r, i - 1)->gen_us > mu->gen_us) {
        *ring_at(r, i) = *ring_at(r, i - 1);
        i--;
    }
    if (i > 0 && ring_at(r, i - 1)->gen_us == mu->gen_us) { /* duplicate */
        for (int j = i; j < r->n; j++)
            *ring_at(r, j) = *ring_at(r, j + 1);
        return;
    }
    *ring_at(r, i) = *mu;
    r->n++;
}

const Mu *muring_latest_before(const MuRing *r, int64_t t_us)
{
    for (int i = r->n - 1; i >= 0; i--) {
        const Mu *m = &r->v[(r->head + i) % MURING_CAP];
        if (m->gen_us <= t_us)
            return m;
    }
    return &r->base;
}

void drpred_reset(DrPred *d, const Mu *mu)
{
    d->last = *mu;
    d->prev = *mu;
    d->has_prev = false;
}

bool drpred_push(DrPred *d, const Mu *mu)
{
    if (mu->gen_us <= d->last.gen_us)
        return false;
    d->prev = d->last;
    d->last = *mu;
    d->has_prev = true;
    return true;
}

void drpred_velocity(const DrPred *d, double *vx, double *vy)
{
    int64_t dt = d->last.gen_us - d->prev.gen_us;
    if (!d->has_prev || dt <= 0) {
        *vx = *vy = 0.0;
        return;
    }
    double s = (double)NR_US_PER_S / (double)dt;
    *vx = (d->last.x - d->prev.x) * s;
    *vy = (d->last.y - d->prev.y) * s;
}

void drpred_at(const DrPred *d, int64_t t_us, double *x, double *y, double *heading)
{
    double vx, vy;
    drpred_velocity(d, &vx, &vy);
    double dt = (double)(t_us - d->last.gen_us) / (double)NR_US_PER_S;
    *x = d->last.x + vx * dt;
    *y = d->last.y + vy * dt;
    if (heading)
        *heading = (vx != 0.0 || vy != 0.0) ? atan2(vy, vx) : d->last.heading;
}

void drsender_init(DrSender *s, const Mu *grid, double tdr_cw)
{
    drpred_reset(&s->tx, grid);
    s->tdr_cw = tdr_cw;
}

bool drsender_sample(DrSender *s, const Mu *mu, Mu *out)
{
    double px, py;
    drpred_at(&s->tx, mu->gen_us, &px, &py, NULL);
    if (hypot(mu->x - px, mu->y - py) <= s->tdr_cw)
        return false;
    if (!drpred_push(&s->tx, mu))
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
