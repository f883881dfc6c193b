/* An N-car race's traffic over p2p or client-server lines, in one queue of
 * packet groups (route.h; DESIGN.md "N players and topologies"). */
#include "route.h"
#include "mu.h"

#include <stdlib.h>
#include <string.h>

/* Identical bytes are one MU: Mu has no padding for memcmp to trip on. */
_Static_assert(sizeof(Mu) == 4 * sizeof(int32_t) + sizeof(int64_t) + 12 * sizeof(double), "Mu has no padding");

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

/* Group g into line li's due order, after every group due no later. */
static void line_insert(RouteMedium *r, int32_t li, int32_t g)
{
    int64_t due = r->group[g].due_us;
    int32_t i = r->qn[li]++;
    for (; i > 0 && r->group[*line_at(r, li, i - 1)].due_us > due; i--)
        *line_at(r, li, i) = *line_at(r, li, i - 1);
    *line_at(r, li, i) = g;
    if (i == 0) { /* a new first group (mostly of an empty line) */
        r->head_due[li] = due;
        if (!r->first_stale && line_first(r, li, r->first))
            r->first = li;
    }
}

/* Takes line li's first group. */
static int32_t line_take(RouteMedium *r, int32_t li)
{
    int32_t g = *line_at(r, li, 0);
    r->qhead[li] = (r->qhead[li] + 1) & (r->line_cap - 1);
    r->head_due[li] = --r->qn[li] > 0 ? r->group[*line_at(r, li, 0)].due_us : INT64_MAX;
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

/* ---- setup --------------------------------------------------------------- */

/* Nothing queued; every line's and sender's newest record forgotten. */
static void forget_queue(RouteMedium *r)
{
    for (int i = 0; i < r->ncars * r->ncars; i++) {
        r->qhead[i] = r->qn[i] = 0;
        r->head_due[i] = INT64_MAX;
    }
    r->first = 0;
    r->first_stale = false;
    r->groups.nfree = r->groups.fresh = 0;
    r->fans.nfree = r->fans.fresh = 0;
    r->mupool.nfree = r->mupool.fresh = 0;
    for (int i = 0; i < r->ncars * r->ncars; i++)
        r->open[i] = -1;
    for (int i = 0; i < ROUTE_MAX_CARS; i++)
        r->cur_fan[i] = -1;
}

static bool add_line(DelayLine *d, bool *has, const LinkSpec *spec, const RouteConfig *cfg, int dir, NrError *err)
{
    *has = true; /* marked before its init: a failed one is still freed */
    if (!delayline_init_fates(d, spec, cfg->seed, dir, cfg->nschemes, cfg->need_aux))
        return nr_error_set(err, "route: out of memory");
    if (cfg->names)
        delayline_set_schemes(d, cfg->names, cfg->nschemes);
    return true;
}

static bool alloc_queue(RouteMedium *r)
{
    size_t n = (size_t)r->ncars, cap = n * (n - 1) * (size_t)r->nschemes * DELAYLINE_QUEUE_LIMIT;
    r->cap = (int)cap;
    /* a line's groups at most (each has a copy): its copies at most, up to
     * a power of two (the ring wraps by a mask) */
    r->line_cap = 1;
    while (r->line_cap < r->nschemes * DELAYLINE_QUEUE_LIMIT)
        r->line_cap *= 2;
    /* every queued group has a copy; every live fan record a group, but the
     * newest of each sender; every stored MU a copy of a live record */
    size_t fans = cap + n, mus = cap + n * ROUTE_FAN;
    r->line = calloc(n * n, sizeof *r->line);
    r->has_line = calloc(n * n, sizeof *r->has_line);
    r->up = calloc(n, sizeof *r->up);
    r->has_up = calloc(n, sizeof *r->has_up);
    r->open = malloc(n * n * sizeof *r->open);
    r->qstore = malloc(n * n * (size_t)r->line_cap * sizeof *r->qstore);
    r->qhead = malloc(n * n * sizeof *r->qhead);
    r->qn = malloc(n * n * sizeof *r->qn);
    r->head_due = malloc(n * n * sizeof *r->head_due);
    r->group = malloc(cap * sizeof *r->group);
    r->fan = malloc(fans * sizeof *r->fan);
    r->mus = malloc(mus * sizeof *r->mus);
    r->mu_ok = malloc(mus * sizeof *r->mu_ok);
    r->groups.free = malloc(cap * sizeof *r->groups.free);
    r->fans.free = malloc(fans * sizeof *r->fans.free);
    r->mupool.free = malloc(mus * sizeof *r->mupool.free);
    return r->line && r->has_line && r->up && r->has_up && r->open && r->qstore && r->qhead && r->qn &&
           r->head_due && r->group && r->fan && r->mus && r->mu_ok && r->groups.free && r->fans.free && r->mupool.free;
}

bool route_init(RouteMedium *r, const RouteConfig *cfg, NrError *err)
{
    memset(r, 0, sizeof *r);
    const int n = cfg->ncars;
    if (n < 2 || n > ROUTE_MAX_CARS)
        return nr_error_set(err, "route: %d cars (expected 2 to %d)", n, ROUTE_MAX_CARS);
    if (cfg->hold_us < 0)
        return nr_error_set(err, "route: negative server hold");
    if (cfg->nschemes < 1 || cfg->nschemes > SCHEME_MAX)
        return nr_error_set(err, "route: between 1 and %d schemes", SCHEME_MAX);
    r->topology = cfg->topology;
    r->server = cfg->server;
    r->ncars = n;
    r->nschemes = cfg->nschemes;
    r->hold_us = cfg->hold_us;
    if (!linkspec_parse(&r->none, "", NULL, err))
        return false;
    if (!alloc_queue(r))
        return nr_error_set(err, "route: out of memory");
    forget_queue(r);
    for (int i = 0; i < n; i++) {
        if (r->topology == ROUTE_CS &&
            !add_line(&r->up[i], &r->has_up[i], cfg->up[i] ? cfg->up[i] : &r->none, cfg, n * (n - 1) + i, err))
            return false;
        for (int j = 0; j < n; j++) {
            if (j == i)
                continue;
            int dir = route_line_index(n, i, j) + (r->topology == ROUTE_CS ? n * n : 0);
            const LinkSpec *spec = cfg->link[i][j] ? cfg->link[i][j] : &r->none;
            if (r->topology == ROUTE_CS && spec->trace.on && spec->trace.named / 10 == LINK_TRACE_SERVER) {
                LinkSpec via; /* a measured downlink sJ: car i's MUs take the rows IsJ */
                if (!linkspec_via_server(spec, i + 1, &via, err))
                    return false;
                bool ok = add_line(&r->line[i * n + j], &r->has_line[i * n + j], &via, cfg, dir, err);
                linkspec_free(&via);
                if (!ok)
                    return false;
            } else if (!add_line(&r->line[i * n + j], &r->has_line[i * n + j], spec, cfg, dir, err))
                return false;
        }
    }
    return true;
}

void route_free(RouteMedium *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->ncars; i++) {
        if (r->has_up && r->has_up[i])
            delayline_free(&r->up[i]);
        for (int j = 0; j < r->ncars && r->has_line; j++)
            if (r->has_line[i * r->ncars + j])
                delayline_free(&r->line[i * r->ncars + j]);
    }
    free(r->line);
    free(r->has_line);
    free(r->up);
    free(r->has_up);
    free(r->open);
    free(r->qstore);
    free(r->qhead);
    free(r->qn);
    free(r->head_due);
    free(r->group);
    free(r->fan);
    free(r->mus);
    free(r->mu_ok);
    free(r->groups.free);
    free(r->fans.free);
    free(r->mupool.free);
    linkspec_free(&r->none);
    memset(r, 0, sizeof *r);
}

void route_reset(RouteMedium *r)
{
    forget_queue(r);
    for (int i = 0; i < r->ncars; i++) {
        if (r->has_up[i])
            delayline_reset(&r->up[i]);
        for (int j = 0; j < r->ncars; j++)
            if (r->has_line[i * r->ncars + j])
                delayline_reset(&r->line[i * r->ncars + j]);
    }
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

/* Queues copy e of fan record f on line from->to: into the line's newest
 * group when that one carries the same record, due at the same time
 * (nothing else entered the line since, so the copy would leave right
 * after it), else as a new group. */
/* A new group for the copy (out of line: the join below, inlined into the
 * send loop, is then a few instructions with no registers to save). */
static __attribute__((noinline)) void queue_new_group(RouteMedium *r, int from, int to, int32_t f, uint32_t bit, int64_t due_us)
{
    int li = from * r->ncars + to;
    int32_t g = pool_take(&r->groups);
    r->group[g] = (RouteGroup){due_us, f, from, to, bit};
    r->fan[f].refs++;
    r->open[li] = g;
    line_insert(r, li, g);
}

static inline void queue_copy(RouteMedium *r, int from, int to, int32_t f, int e, int64_t due_us)
{
    uint32_t bit = UINT32_C(1) << e;
    int32_t g = r->open[from * r->ncars + to];
    if (g >= 0 && r->group[g].fan == f && r->group[g].due_us == due_us && !(r->group[g].mask & bit))
        r->group[g].mask |= bit; /* the common case: joins the group of the scheme before */
    else
        queue_new_group(r, from, to, f, bit, due_us);
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
        delayline_left(d, k[__builtin_ctz(m)]);
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

bool route_set_line(RouteMedium *r, int from, int to, const LinkSpec *spec, NrError *err)
{
    const int n = r->ncars;
    bool cs = r->topology == ROUTE_CS;
    if (!cs && from >= 0 && from < n && to >= 0 && to < n && from != to)
        return delayline_set_spec(&r->line[from * n + to], spec, err);
    if (cs && from >= 0 && from < n && to == ROUTE_SERVER)
        return delayline_set_spec(&r->up[from], spec, err);
    if (cs && from == ROUTE_SERVER && to >= 0 && to < n) {
        for (int i = 0; i < n; i++)
            if (i != to && !delayline_set_spec(&r->line[i * n + to], spec, err))
                return false;
        return true;
    }
    return nr_error_set(err, "route: no line %d-%d in this race (%d terminals, %s)", from + 1, to + 1, n,
                        cs ? "cs" : "p2p");
}

static void rt_clear(void *ctx)
{
    RouteMedium *r = ctx;
    forget_queue(r);
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
