/* The per-slot draw of a link (netem arithmetic); the spec parser is
 * linkspec.c.
 *
 * The arithmetic follows Linux net/sched/sch_netem.c (tabledist, get_crandom,
 * loss_event, loss_gilb_ell, netem_enqueue) and the grammar iproute2's
 * tc/q_netem.c; both read as references, reimplemented here on integer
 * microseconds instead of nanoseconds. docs/link.md lists what differs. */
#include "link.h"

#include <ctype.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SPEC_MAX 1024
#define TOKENS_MAX 64
#define KEYWORDS "delay, distribution, gamma, loss, duplicate, order, trace"

/* ---- Small helpers ------------------------------------------------------- */

/* netem scales a probability in [0, 1] to a 32-bit fraction: rint(p * ~0U). */
static uint32_t prob_u32(double p)
{
    if (!(p > 0.0))
        return 0;
    if (p >= 1.0)
        return UINT32_MAX;
    return (uint32_t)rint(p * (double)UINT32_MAX);
}

static uint32_t rand_u32(Rng *r)
{
    return (uint32_t)(rng_u64(r) >> 32);
}

/* A token that netem would treat as the optional number after a keyword
 * (NEXT_IS_NUMBER); we also catch signed numbers to report them clearly. */
/* ---- netem arithmetic ------------------------------------------------------- */

/* sch_netem.c get_crandom: next = ((2^32 - (rho+1)) * fresh + (rho+1) * last)
 * >> 32, which approximates (1 - rho) * fresh + rho * last. */
uint32_t link_corr_next(LinkCorr *c, uint32_t fresh)
{
    if (c->rho == 0)
        return fresh;
    uint64_t rho = (uint64_t)c->rho + 1;
    uint64_t v = ((uint64_t)fresh * ((UINT64_C(1) << 32) - rho) + (uint64_t)c->last * rho) >> 32;
    c->last = (uint32_t)v;
    return (uint32_t)v;
}

/* sch_netem.c tabledist. Without a table: uniform on the integers
 * [mu - sigma, mu + sigma) by rnd mod 2 sigma. With a table: mu + sigma * t /
 * 8192 for t = table[rnd mod n], with sigma split into sigma / 8192 and
 * sigma % 8192 so the product stays small, and the remainder's share rounded
 * half away from zero (+-4096 then truncating division). */
int64_t link_tabledist(int64_t mu_us, int64_t sigma_us, uint32_t rnd, const DistTable *t)
{
    if (sigma_us <= 0)
        return mu_us;
    if (!t || t->n <= 0 || !t->v) {
        /* As netem: a 2 sigma beyond 32 bits takes the widest spread. The
         * parser caps jitter below that; this guards hand-built specs. */
        if (sigma_us > (int64_t)(UINT32_MAX / 2))
            return mu_us + (int64_t)rnd - (int64_t)(UINT32_MAX / 2);
        return (int64_t)(rnd % (uint32_t)(2 * sigma_us)) + mu_us - sigma_us;
    }
    if (sigma_us > LINK_TIME_MAX_US) /* hand-built spec: keep the products in range */
        sigma_us = LINK_TIME_MAX_US;
    int64_t v = t->v[rnd % (uint32_t)t->n];
    int64_t x = (sigma_us % LINK_DIST_SCALE) * v;
    if (x >= 0)
        x += LINK_DIST_SCALE / 2;
    else
        x -= LINK_DIST_SCALE / 2;
    return x / LINK_DIST_SCALE + (sigma_us / LINK_DIST_SCALE) * v + mu_us;
}

/* ---- Expectations ---------------------------------------------------------- */

/* The direction link_draw and the expectations take from a trace. */
static int trace_dir(const LinkSpec *s)
{
    return s->trace.named == 21;
}

double linkspec_mean_ms(const LinkSpec *s)
{
    if (s->trace.on) {
        const LinkTrace *t = &s->trace;
        int d = trace_dir(s);
        double sum = 0;
        int64_t n = 0;
        for (int i = 0; i < t->n[d]; i++)
            if (t->slot[d][i].delay_us != LINK_TRACE_NONE) {
                sum += t->slot[d][i].delay_us;
                n++;
            }
        return n ? sum / (double)n / 1000.0 : 0.0;
    }
    if (s->gamma)
        return ((double)s->delay_us + s->gamma_shape * s->gamma_scale_us) / 1000.0;
    int64_t mu = s->delay_us, sg = s->jitter_us;
    if (sg <= 0)
        return (double)(mu > 0 ? mu : 0) / 1000.0;
    if (s->table.n > 0) {
        double sum = 0;
        for (int i = 0; i < s->table.n; i++) {
            int64_t d = link_tabledist(mu, sg, (uint32_t)i, &s->table);
            sum += (double)(d > 0 ? d : 0);
        }
        return sum / s->table.n / 1000.0;
    }
    /* Uniform on the integers a..b = mu - sigma .. mu + sigma - 1, clamped
     * at 0: the mean of max(0, v). */
    double a = (double)(mu - sg), b = (double)(mu + sg - 1), n = 2.0 * (double)sg;
    if (a >= 0)
        return (a + b) / 2.0 / 1000.0;
    if (b <= 0)
        return 0.0;
    return b * (b + 1.0) / 2.0 / n / 1000.0;
}

double linkspec_loss_rate(const LinkSpec *s)
{
    if (s->trace.on) {
        const LinkTrace *t = &s->trace;
        int d = trace_dir(s);
        int64_t got = 0;
        for (int i = 0; i < t->n[d]; i++)
            got += t->slot[d][i].delay_us != LINK_TRACE_NONE;
        double slots = t->n[d] ? (double)t->slot[d][t->n[d] - 1].seq + 1.0 : 0.0;
        return slots > 0 ? 1.0 - (double)got / slots : 1.0;
    }
    if (s->loss_kind == LINK_LOSS_RANDOM)
        return s->loss_p;
    if (s->loss_kind == LINK_LOSS_GEMODEL) {
        /* Two-state Markov chain: pi_bad = p / (p + r); a packet is lost with
         * 1-k in the good state and 1-h in the bad state. */
        double pr = s->ge_p + s->ge_r;
        double bad = pr > 0 ? s->ge_p / pr : 0.0;
        return (1.0 - bad) * s->ge_k + bad * s->ge_h;
    }
    return 0.0;
}

int64_t linkspec_order_due(const LinkSpec *s, int64_t *last_due_us, int64_t due_us)
{
    if (s->fifo && due_us < *last_due_us)
        due_us = *last_due_us;
    if (due_us > *last_due_us)
        *last_due_us = due_us;
    return due_us;
}

/* ---- The link ----------------------------------------------------------------- */

static void link_apply_spec(Link *l)
{
    const LinkSpec *s = &l->spec;
    l->delay_c.rho = prob_u32(s->delay_corr);
    l->loss_c.rho = s->loss_kind == LINK_LOSS_RANDOM ? prob_u32(s->loss_corr) : 0;
    l->dup_c.rho = prob_u32(s->dup_corr);
    l->loss_u32 = s->loss_kind == LINK_LOSS_RANDOM ? prob_u32(s->loss_p) : 0;
    l->dup_u32 = prob_u32(s->dup_p);
    /* tc hands the kernel h = ~0 - (1-h) (q_netem.c), and the kernel loses a
     * bad-state packet when rnd > h; the default 1-h = 100% is h = 0. */
    l->ge_a1 = prob_u32(s->ge_p);
    l->ge_a2 = prob_u32(s->ge_r);
    l->ge_a3 = UINT32_MAX - prob_u32(s->ge_h);
    l->ge_a4 = prob_u32(s->ge_k);
}

void link_init(Link *l, const LinkSpec *spec, uint64_t seed, uint64_t stream)
{
    *l = (Link){0};
    if (!linkspec_copy(&l->spec, spec)) {
        /* Out of memory for the table copy: keep the scalars, jitter becomes
         * uniform. Never happens at the sizes involved (32 KiB). */
        l->spec = *spec;
        l->spec.table = (DistTable){0};
    }
    rng_seed(&l->rng, seed, stream);
    /* netem's init_crandom seeds each correlation state with a random value. */
    l->delay_c.last = rand_u32(&l->rng);
    l->loss_c.last = rand_u32(&l->rng);
    l->dup_c.last = rand_u32(&l->rng);
    l->ge_state = 0;
    l->fifo_last_due_us = INT64_MIN;
    link_apply_spec(l);
}

void link_set_spec(Link *l, const LinkSpec *spec)
{
    if (spec == &l->spec)
        return;
    bool was_ge = l->spec.loss_kind == LINK_LOSS_GEMODEL;
    linkspec_free(&l->spec);
    if (!linkspec_copy(&l->spec, spec)) {
        l->spec = *spec;
        l->spec.table = (DistTable){0};
    }
    if (!was_ge || spec->loss_kind != LINK_LOSS_GEMODEL)
        l->ge_state = 0;
    link_apply_spec(l);
}

void link_free(Link *l)
{
    if (!l)
        return;
    linkspec_free(&l->spec);
}

void link_draw_slot(Link *l, int dir, int32_t seq, bool aux, LinkDraw *out)
{
    if (l->spec.trace.on)
        linktrace_fate(&l->spec.trace, dir, seq, aux, out);
    else
        link_draw(l, out);
}

int64_t link_fifo_due(Link *l, int64_t due_us)
{
    return linkspec_order_due(&l->spec, &l->fifo_last_due_us, due_us);
}

/* sch_netem.c loss_event: random loss compares a correlated 32-bit value with
 * the threshold; Gilbert-Elliott decides the loss from the state the packet
 * finds (after drawing the transition, as loss_gilb_ell does). */
static bool loss_event(Link *l)
{
    switch (l->spec.loss_kind) {
    case LINK_LOSS_RANDOM:
        return l->loss_u32 && l->loss_u32 >= link_corr_next(&l->loss_c, rand_u32(&l->rng));
    case LINK_LOSS_GEMODEL:
        if (l->ge_state == 0) {
            if (rand_u32(&l->rng) < l->ge_a1)
                l->ge_state = 1;
            return rand_u32(&l->rng) < l->ge_a4;
        }
        if (rand_u32(&l->rng) < l->ge_a2)
            l->ge_state = 0;
        return rand_u32(&l->rng) > l->ge_a3;
    case LINK_LOSS_NONE:
        break;
    }
    return false;
}

static int64_t delay_draw(Link *l)
{
    const LinkSpec *s = &l->spec;
    int64_t d;
    if (s->gamma) {
        /* EPP paper's shifted gamma: kappa + Gamma(alpha, lambda), in us. */
        double g = rng_gamma(&l->rng, s->gamma_shape, s->gamma_scale_us);
        if (g > 1e15)
            g = 1e15;
        d = s->delay_us + (int64_t)llround(g);
    } else if (s->jitter_us <= 0) {
        d = s->delay_us; /* tabledist draws no random number for sigma 0 */
    } else {
        d = link_tabledist(s->delay_us, s->jitter_us, link_corr_next(&l->delay_c, rand_u32(&l->rng)),
                           &s->table);
    }
    return d > 0 ? d : 0; /* a due time in the past leaves at once */
}

/* netem_enqueue's order: the duplicate decision, the loss of the packet; a
 * surviving duplicate is re-enqueued first (its own loss and delay draws),
 * then the packet's delay. Duplicate + loss leaves one copy, as in netem. */
void link_draw(Link *l, LinkDraw *out)
{
    if (l->spec.trace.on) {
        linktrace_fate(&l->spec.trace, trace_dir(&l->spec), l->trace_seq, false, out);
        if (l->trace_seq < INT32_MAX)
            l->trace_seq++;
        return;
    }
    *out = (LinkDraw){0};
    int count = 1;
    if (l->dup_u32 && l->dup_u32 >= link_corr_next(&l->dup_c, rand_u32(&l->rng)))
        count++;
    if (loss_event(l))
        count--;
    if (count == 0) {
        out->lost = true;
        return;
    }
    if (count == 2 && !loss_event(l)) {
        out->dup = true;
        out->dup_delay_us = delay_draw(l);
    }
    out->delay_us = delay_draw(l);
}
