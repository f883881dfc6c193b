/* An N-car race's traffic over p2p or client-server lines, in one queue of
 * packet groups (route.h; DESIGN.md "N players and topologies"). */
#include "route_internal.h"
#include "mu.h"

#include <string.h>

/* Identical bytes are one MU: Mu has no padding for memcmp to trip on. */
_Static_assert(sizeof(Mu) == 4 * sizeof(int32_t) + sizeof(int64_t) + 12 * sizeof(double), "Mu has no padding");
_Static_assert(SCHEME_MAX <= 32, "a scheme set fits a 32-bit mask");

int route_line_index(int ncars, int from, int to)
{
    return from * (ncars - 1) + (to < from ? to : to - 1);
}

/* ---- pools and the line queues ------------------------------------------ */

static int32_t pool_take(RoutePool *p)
{
    return p->nfree > 0 ? p->free[--p->nfree] : p->fresh++;
}

static void pool_give(RoutePool *p, int32_t i)
{
    p->free[p->nfree++] = i;
}

/* Line a's first group leaves before line b's (equal times: the lower
 * sender, then destination: the lower line index). */
static bool line_first(const RouteMedium *r, int32_t a, int32_t b)
{
    return r->head_due[a] < r->head_due[b] || (r->head_due[a] == r->head_due[b] && a < b);
}

static int32_t *line_at(const RouteMedium *r, int32_t li, int32_t i)
{
    return &r->qstore[(size_t)li * (size_t)r->line_cap + ((uint32_t)(r->qhead[li] + i) & (uint32_t)(r->line_cap - 1))];
}

/* Line li's ring of group indices: its slots and the mask that wraps an
 * index. Callers keep both and the head in locals: a store of an index (an
 * int32) could alias qhead and qn, which would otherwise be loaded again
 * after each. */
static inline int32_t *line_ring(const RouteMedium *r, int32_t li, uint32_t *mask)
{
    *mask = (uint32_t)(r->line_cap - 1);
    return &r->qstore[(size_t)li * (size_t)r->line_cap];
}

/* Group g into line li's due order, after every group due no later. */
static void line_insert(RouteMedium *r, int32_t li, int32_t g)
{
    const int64_t due = r->group[g].due_us;
    uint32_t mask;
    int32_t *q = line_ring(r, li, &mask);
    const uint32_t head = (uint32_t)r->qhead[li];
    int32_t i = r->qn[li]++;
    for (; i > 0 && r->group[q[(head + (uint32_t)i - 1) & mask]].due_us > due; i--)
        q[(head + (uint32_t)i) & mask] = q[(head + (uint32_t)i - 1) & mask];
    q[(head + (uint32_t)i) & mask] = g;
    if (i == 0) { /* a new first group (mostly of an empty line) */
        r->head_due[li] = due;
        if (!r->first_stale && line_first(r, li, r->first))
            r->first = li;
    }
}

/* Takes line li's first group. */
static inline int32_t line_take(RouteMedium *r, int32_t li)
{
    uint32_t mask;
    const int32_t *q = line_ring(r, li, &mask);
    const uint32_t head = (uint32_t)r->qhead[li];
    const int32_t g = q[head];
    const int32_t left = r->qn[li] - 1;
    r->qhead[li] = (int32_t)((head + 1) & mask);
    r->qn[li] = left;
    r->head_due[li] = left > 0 ? r->group[q[(head + 1) & mask]].due_us : INT64_MAX;
    r->first_stale |= li == r->first;
    return g;
}

/* The line whose first group leaves first (found again after it left). */
static int32_t first_line(RouteMedium *r)
{
    if (r->first_stale) {
        int32_t best = 0;
        for (int32_t li = 1; li < r->ncars * r->ncars; li++)
            if (line_first(r, li, best))
                best = li;
        r->first = best;
        r->first_stale = false;
    }
    return r->first;
}

int64_t route_next_due(RouteMedium *r)
{
    return r->head_due[first_line(r)];
}

/* ---- sending ------------------------------------------------------------- */

/* Every line out of `from` draws the slot's fate, whatever the schemes
 * will send. */
static void rt_slot(void *ctx, int from, int32_t seq, int64_t now_us)
{
    (void)now_us;
    RouteMedium *r = ctx;
    if (from < 0 || from >= r->ncars)
        return;
    if (r->topology == ROUTE_CS)
        delayline_slot(&r->up[from], seq);
    DelayLine *line = &r->line[from * r->ncars];
    for (int j = 0; j < r->ncars; j++)
        if (j != from)
            delayline_slot(&line[j], seq);
}

/* Fan record f and its stored MUs released. */
static void free_fan(RouteMedium *r, int32_t f)
{
    const RouteFan *fa = &r->fan[f];
    for (int e = 0; e < fa->n; e++)
        if (e == 0 || fa->mu[e] != fa->mu[e - 1])
            pool_give(&r->mupool, fa->mu[e]);
    if (r->cur_fan[fa->from] == f)
        r->cur_fan[fa->from] = -1;
    pool_give(&r->fans, f);
}

/* A copy of mu for every line out of `from`: a new entry of the sender's
 * fan record of this instant (a new record when there is none, or it is
 * full). Returns the entry; *fan_out its record. */
static int add_copy(RouteMedium *r, int k, int from, const Mu *mu, int64_t now_us, int32_t *fan_out)
{
    int32_t f = r->cur_fan[from];
    if (f < 0 || r->fan[f].sent_us != now_us || r->fan[f].n == ROUTE_FAN) {
        if (f >= 0 && r->fan[f].refs == 0)
            free_fan(r, f); /* nothing of it was queued */
        f = pool_take(&r->fans);
        r->fan[f].sent_us = now_us;
        r->fan[f].refs = 0;
        r->fan[f].n = 0;
        r->fan[f].from = from;
        r->cur_fan[from] = f;
    }
    RouteFan *fa = &r->fan[f];
    int e = fa->n++;
    fa->k[e] = (uint8_t)k;
    if (e > 0 && memcmp(&r->mus[fa->mu[e - 1]], mu, sizeof *mu) == 0) {
        fa->mu[e] = fa->mu[e - 1];
    } else {
        fa->mu[e] = pool_take(&r->mupool);
        r->mus[fa->mu[e]] = *mu;
        r->mu_ok[fa->mu[e]] = mu_fields_ok(mu);
    }
    *fan_out = f;
    return e;
}

/* A new group on line from->to for the copies of fan record f whose bits
 * are set. */
static inline void new_group(RouteMedium *r, int from, int to, int32_t f, uint32_t bits, int64_t due_us)
{
    int li = from * r->ncars + to;
    int32_t g = pool_take(&r->groups);
    r->group[g] = (RouteGroup){due_us, f, from, to, bits};
    r->fan[f].refs++;
    r->open[li] = g;
    line_insert(r, li, g);
}

/* Out of line for the copy-by-copy path: the join below, inlined into
 * that send loop, is then a few instructions with no registers to save. */
static __attribute__((noinline)) void queue_new_group(RouteMedium *r, int from, int to, int32_t f, uint32_t bits, int64_t due_us)
{
    new_group(r, from, to, f, bits, due_us);
}

/* Whether the copies join line from->to's newest group: it carries the
 * same record, due at the same time, and none of these copies (nothing
 * else entered the line since, so they would leave right after it). */
static inline bool joins_open(const RouteMedium *r, int from, int to, int32_t f, uint32_t bits, int64_t due_us)
{
    int32_t g = r->open[from * r->ncars + to];
    return g >= 0 && r->group[g].fan == f && r->group[g].due_us == due_us && !(r->group[g].mask & bits);
}

/* Queues copy e of fan record f on line from->to: into the line's newest
 * group when it may join it, else as a new group. */
static inline void queue_copy(RouteMedium *r, int from, int to, int32_t f, int e, int64_t due_us)
{
    uint32_t bit = UINT32_C(1) << e;
    if (joins_open(r, from, to, f, bit, due_us))
        r->group[r->open[from * r->ncars + to]].mask |= bit; /* the common case: joins the scheme before's */
    else
        queue_new_group(r, from, to, f, bit, due_us);
}

/* A class's copies on line from->to: mostly a new group (a class is one
 * call per instant), the group inline. */
static inline void queue_class(RouteMedium *r, int from, int to, int32_t f, uint32_t bits, int64_t due_us)
{
    if (joins_open(r, from, to, f, bits, due_us))
        r->group[r->open[from * r->ncars + to]].mask |= bits;
    else
        new_group(r, from, to, f, bits, due_us);
}

/* cs: the time the server puts mu on the downlinks, given its arrival. */
static int64_t server_output(const RouteMedium *r, const Mu *mu, int64_t arrive_us)
{
    if (r->server == ROUTE_SYNC && mu->gen_us + r->hold_us > arrive_us)
        return mu->gen_us + r->hold_us;
    return arrive_us;
}

/* Copy e of fan record f to `to`: its line's fate (cs: after the
 * uplink's, drawn by the first destination). MEDIUM_* flags. */
static int send_one(RouteMedium *r, int k, int to, int32_t f, int e)
{
    const RouteFan *fa = &r->fan[f];
    const Mu *mu = &r->mus[fa->mu[e]];
    int from = fa->from;
    int64_t enter_us = fa->sent_us, due[2];
    if (r->topology == ROUTE_CS) {
        if (to == (from == 0 ? 1 : 0)) /* a new MU: one uplink packet for every destination */
            r->up_ok[from][k] = delayline_draw_fate(&r->up[from], k, mu, &r->up_delay_us[from][k]);
        if (!r->up_ok[from][k])
            return MEDIUM_LOST;
        enter_us = server_output(r, mu, fa->sent_us + r->up_delay_us[from][k]);
    }
    int fate = delayline_admit(&r->line[from * r->ncars + to], k, mu, enter_us, due);
    if (!(fate & (MEDIUM_LOST | MEDIUM_OVERFLOW)))
        queue_copy(r, from, to, f, e, due[0]);
    if ((fate & MEDIUM_DUPLICATED) && !(fate & MEDIUM_DUP_OVERFLOW))
        queue_copy(r, from, to, f, e, due[1]);
    return fate;
}

static int rt_send(void *ctx, int k, int from, int to, const Mu *mu, int64_t now_us)
{
    RouteMedium *r = ctx;
    if (from < 0 || from >= r->ncars || to < 0 || to >= r->ncars || to == from || k < 0 || k >= r->nschemes)
        return MEDIUM_LOST; /* nobody there: nothing is queued */
    int32_t f;
    int e = add_copy(r, k, from, mu, now_us, &f);
    return send_one(r, k, to, f, e);
}

RouteFates route_send_all(RouteMedium *r, int k, int from, const Mu *mu, int64_t now_us)
{
    RouteFates out = {0, 0, 0, 0};
    int32_t f;
    int e = add_copy(r, k, from, mu, now_us, &f);
    for (int to = 0; to < r->ncars; to++) {
        if (to == from)
            continue;
        int fate = send_one(r, k, to, f, e);
        out.lost += (fate & MEDIUM_LOST) != 0;
        out.duplicated += (fate & MEDIUM_DUPLICATED) != 0;
        out.overflow += ((fate & MEDIUM_OVERFLOW) != 0) + ((fate & MEDIUM_DUP_OVERFLOW) != 0);
        out.lost_to |= (uint32_t)((fate & (MEDIUM_LOST | MEDIUM_OVERFLOW)) != 0) << to;
    }
    return out;
}

/* Copies e[0..n) of fan record f, scheme k[i] each, to every other
 * terminal: line by line, each line taking the copies in sending order. A
 * line's copies meet the same fates in the same order as route_send_all's
 * one copy after another: each line and each scheme's share of it has its own
 * state; the cs uplink of each copy is drawn first, in sending order, as
 * the first destination draws it there (the uplink is a line of its own).
 * When every copy is an update entering the lines at one instant (a class,
 * whatever the bytes: the racing four's copies of one instant, nc and
 * causality's sample and dr and dr-causality's DR update), a line admits
 * them together (delayline_admit_class) into one group, unless one of them
 * needs a fate of its own there; then copy by copy. */
static void send_fan_lines(RouteMedium *r, const int *k, int from, int32_t f, const int *e, int n, RouteFates *out)
{
    const RouteFan *fa = &r->fan[f];
    const Mu *mu[ROUTE_FAN];
    int64_t enter[ROUTE_FAN];
    bool up_ok[ROUTE_FAN];
    for (int i = 0; i < n; i++) {
        mu[i] = &r->mus[fa->mu[e[i]]];
        enter[i] = fa->sent_us;
        up_ok[i] = true;
        if (r->topology == ROUTE_CS) {
            int64_t up_us;
            up_ok[i] = delayline_draw_fate(&r->up[from], k[i], mu[i], &up_us);
            enter[i] = server_output(r, mu[i], fa->sent_us + up_us);
        }
    }
    bool one_class = true;
    uint32_t bits = 0;
    for (int i = 0; i < n; i++) {
        one_class &= mu[i]->kind == MU_UPDATE && up_ok[i] && enter[i] == enter[0];
        bits |= UINT32_C(1) << e[i];
    }
    for (int to = 0; to < r->ncars; to++) {
        if (to == from)
            continue;
        DelayLine *d = &r->line[from * r->ncars + to];
        int64_t due_us;
        int class_fate = one_class ? delayline_admit_class(d, k, n, enter[0], &due_us) : -1;
        if (class_fate == 0) {
            queue_class(r, from, to, f, bits, due_us);
            continue;
        }
        for (int i = 0; i < n && class_fate == MEDIUM_LOST; i++) {
            out[i].lost++;
            out[i].lost_to |= UINT32_C(1) << to;
        }
        for (int i = 0; i < n && class_fate < 0; i++) {
            int64_t due[2];
            int fate = up_ok[i] ? delayline_admit(d, k[i], mu[i], enter[i], due) : MEDIUM_LOST;
            if (!(fate & (MEDIUM_LOST | MEDIUM_OVERFLOW)))
                queue_copy(r, from, to, f, e[i], due[0]);
            if (!fate)
                continue; /* the common case: one copy, on its way */
            if ((fate & MEDIUM_DUPLICATED) && !(fate & MEDIUM_DUP_OVERFLOW))
                queue_copy(r, from, to, f, e[i], due[1]);
            out[i].lost += (fate & MEDIUM_LOST) != 0;
            out[i].duplicated += (fate & MEDIUM_DUPLICATED) != 0;
            out[i].overflow += ((fate & MEDIUM_OVERFLOW) != 0) + ((fate & MEDIUM_DUP_OVERFLOW) != 0);
            out[i].lost_to |= (uint32_t)((fate & (MEDIUM_LOST | MEDIUM_OVERFLOW)) != 0) << to;
        }
    }
}

void route_send_many(RouteMedium *r, const int *k, int from, const Mu *mu, int n, int64_t now_us, RouteFates *out)
{
    for (int i = 0; i < n; i++)
        out[i] = (RouteFates){0, 0, 0, 0};
    int32_t f = r->cur_fan[from];
    int used = f >= 0 && r->fan[f].sent_us == now_us ? r->fan[f].n : 0;
    uint32_t seen = 0, twice = 0; /* a scheme sending twice: its uplink fate is one per copy */
    for (int i = 0; i < n; i++) {
        twice |= seen & (UINT32_C(1) << k[i]);
        seen |= UINT32_C(1) << k[i];
    }
    if (n > ROUTE_FAN - used || twice) { /* the record would fill up: one copy at a time */
        for (int i = 0; i < n; i++)
            out[i] = route_send_all(r, k[i], from, &mu[i], now_us);
        return;
    }
    int e[ROUTE_FAN];
    for (int i = 0; i < n; i++)
        e[i] = add_copy(r, k[i], from, &mu[i], now_us, &f); /* one record for all: it has room */
    send_fan_lines(r, k, from, f, e, n, out);
}

/* ---- delivering ---------------------------------------------------------- */

/* Line li's first group taken off its queue. */
static int32_t take_group(RouteMedium *r, int32_t li)
{
    int32_t g = line_take(r, li);
    if (r->open[li] == g)
        r->open[li] = -1; /* nothing joins a group that left */
    return g;
}

int32_t route_pop_group(RouteMedium *r, int64_t t_us)
{
    int32_t li = first_line(r);
    return r->qn[li] > 0 && r->head_due[li] <= t_us ? take_group(r, li) : -1;
}

/* Line li, due at due_us, into the candidates in (due, line) order. */
static void due_insert(RouteDueTo *it, int32_t li, int64_t due_us)
{
    int i = it->n++;
    for (; i > 0 && (it->due[i - 1] > due_us || (it->due[i - 1] == due_us && it->line[i - 1] > li)); i--) {
        it->due[i] = it->due[i - 1];
        it->line[i] = it->line[i - 1];
    }
    it->due[i] = due_us;
    it->line[i] = li;
}

void route_due_begin(const RouteMedium *r, int to, int64_t t_us, RouteDueTo *it)
{
    const int n = r->ncars;
    if (t_us == INT64_MAX)
        t_us = INT64_MAX - 1; /* an empty line's head is INT64_MAX: never due */
    it->t_us = t_us;
    it->head = it->n = 0;
    for (int32_t li = to; li < n * n; li += n) /* every line into `to` */
        if (r->head_due[li] <= t_us)
            due_insert(it, li, r->head_due[li]);
}

int32_t route_due_next(RouteMedium *r, RouteDueTo *it)
{
    if (it->head == it->n)
        return -1;
    int32_t li = it->line[it->head];
    int32_t g = take_group(r, li);
    int64_t due = r->head_due[li];
    if (due > it->t_us) { /* the line has nothing more due */
        it->head++;
        return g;
    }
    /* Its next group, due no earlier: back among the candidates, the ones
     * before it moving up into the place it left. */
    int i = it->head;
    for (; i + 1 < it->n && (it->due[i + 1] < due || (it->due[i + 1] == due && it->line[i + 1] < li)); i++) {
        it->due[i] = it->due[i + 1];
        it->line[i] = it->line[i + 1];
    }
    it->due[i] = due;
    it->line[i] = li;
    return g;
}

/* Copy e of group g left its line (delivered or dropped). */
static void copy_left(RouteMedium *r, const RouteGroup *gr, int e)
{
    delayline_left(&r->line[gr->from * r->ncars + gr->to], r->fan[gr->fan].k[e]);
}

/* Group g, off its line and with no copy left, released. */
static void free_group(RouteMedium *r, int32_t g)
{
    int32_t f = r->group[g].fan;
    if (--r->fan[f].refs == 0 && r->cur_fan[r->fan[f].from] != f)
        free_fan(r, f); /* the sender's newest record lives on until its next instant */
    pool_give(&r->groups, g);
}

void route_drop_group(RouteMedium *r, int32_t g)
{
    const RouteGroup *gr = &r->group[g];
    DelayLine *d = &r->line[gr->from * r->ncars + gr->to];
    const uint8_t *k = r->fan[gr->fan].k;
    for (uint32_t m = gr->mask; m; m &= m - 1) /* each copy, by its bit */
        delayline_left(d, k[nr_lowest_bit(m)]);
    free_group(r, g);
}

static int64_t rt_next_due(const void *ctx)
{
    return route_next_due((RouteMedium *)ctx); /* a pure query; the first line is a cache */
}

/* One copy at a time: the head group's first copy; the group stays at the
 * head of its line until its last copy leaves. */
static bool rt_pop_due(void *ctx, int64_t t_us, MediumDelivery *out)
{
    RouteMedium *r = ctx;
    int32_t li = first_line(r);
    if (r->qn[li] == 0 || r->head_due[li] > t_us)
        return false;
    int32_t g = *line_at(r, li, 0);
    RouteGroup *gr = &r->group[g];
    const RouteFan *fa = &r->fan[gr->fan];
    int e = 0;
    while (!(gr->mask & (UINT32_C(1) << e)))
        e++;
    *out = (MediumDelivery){.scheme = fa->k[e], .from = gr->from, .to = gr->to, .sent_us = fa->sent_us,
                            .due_us = gr->due_us, .mu = r->mus[fa->mu[e]]};
    if (r->open[li] == g)
        r->open[li] = -1; /* a group being handed out takes no more copies */
    copy_left(r, gr, e);
    gr->mask &= ~(UINT32_C(1) << e);
    if (gr->mask == 0) {
        line_take(r, li);
        free_group(r, g);
    }
    return true;
}

int route_in_flight(const RouteMedium *r, int k, int from, InFlight *out, int max)
{
    int n = 0;
    for (int to = 0; to < r->ncars; to++) {
        int32_t li = from * r->ncars + to;
        for (int32_t i = 0; to != from && i < r->qn[li] && n < max; i++) {
            const RouteGroup *g = &r->group[*line_at(r, li, i)];
            const RouteFan *fa = &r->fan[g->fan];
            for (int e = 0; e < fa->n && n < max; e++)
                if ((g->mask & (UINT32_C(1) << e)) && fa->k[e] == k)
                    out[n++] = (InFlight){.mu = r->mus[fa->mu[e]], .sent_us = fa->sent_us, .due_us = g->due_us};
        }
    }
    return n;
}

static int rt_in_flight(const void *ctx, int k, InFlight *out, int max)
{
    const RouteMedium *r = ctx;
    int n = 0;
    for (int from = 0; from < r->ncars && n < max; from++)
        n += route_in_flight(r, k, from, out + n, max - n);
    return n;
}

static void rt_clear(void *ctx)
{
    RouteMedium *r = ctx;
    route_forget_queue(r);
    for (int i = 0; i < r->ncars * r->ncars; i++)
        if (r->has_line[i])
            delayline_clear(&r->line[i]);
}

static const MediumType route_type = {
    .name = "route",
    .slot = rt_slot,
    .send = rt_send,
    .next_due = rt_next_due,
    .pop_due = rt_pop_due,
    .in_flight = rt_in_flight,
    .clear = rt_clear,
};

Medium route_medium(RouteMedium *r)
{
    return (Medium){&route_type, r};
}
