/* An N-car terminal's outgoing traffic over p2p or client-server lines
 * (route.h; DESIGN.md "N players and topologies"). */
#include "route.h"

#include <string.h>

int route_line_index(int ncars, int from, int to)
{
    return from * (ncars - 1) + (to < from ? to : to - 1);
}

/* Nothing queued on any line. */
static void forget_dues(RouteMedium *r)
{
    for (int j = 0; j < ROUTE_MAX_CARS; j++)
        r->due[j] = INT64_MAX;
    r->min_due = INT64_MAX;
    r->min_line = -1;
}

static bool add_line(DelayLine *d, const LinkSpec *spec, const RouteConfig *cfg, int dir, NrError *err)
{
    if (!delayline_init(d, spec, cfg->seed, dir, cfg->nschemes, cfg->need_aux))
        return nr_error_set(err, "route: out of memory");
    if (cfg->names)
        delayline_set_schemes(d, cfg->names, cfg->nschemes);
    return true;
}

bool route_init(RouteMedium *r, const RouteConfig *cfg, NrError *err)
{
    memset(r, 0, sizeof *r);
    const int n = cfg->ncars;
    if (n < 2 || n > ROUTE_MAX_CARS || cfg->from < 0 || cfg->from >= n)
        return nr_error_set(err, "route: terminal %d of %d cars (expected 2 to %d cars)", cfg->from, n,
                            ROUTE_MAX_CARS);
    if (cfg->hold_us < 0)
        return nr_error_set(err, "route: negative server hold");
    r->topology = cfg->topology;
    r->server = cfg->server;
    r->from = cfg->from;
    r->ncars = n;
    r->hold_us = cfg->hold_us;
    r->first_peer = cfg->from == 0 ? 1 : 0;
    forget_dues(r);
    if (!linkspec_parse(&r->none, "", NULL, err))
        return false;
    /* each line is marked before its init: a failed one is still freed */
    if (r->topology == ROUTE_CS) {
        r->has_up = true;
        if (!add_line(&r->up, cfg->up ? cfg->up : &r->none, cfg, n * (n - 1) + cfg->from, err))
            return false;
    }
    for (int j = 0; j < n; j++) {
        if (j == cfg->from)
            continue;
        int dir = route_line_index(n, cfg->from, j);
        if (r->topology == ROUTE_CS)
            dir += n * n;
        r->has_line[j] = true;
        if (!add_line(&r->line[j], cfg->link[j] ? cfg->link[j] : &r->none, cfg, dir, err))
            return false;
    }
    return true;
}

void route_free(RouteMedium *r)
{
    if (!r)
        return;
    if (r->has_up)
        delayline_free(&r->up);
    for (int j = 0; j < ROUTE_MAX_CARS; j++)
        if (r->has_line[j])
            delayline_free(&r->line[j]);
    r->has_up = false;
    memset(r->has_line, 0, sizeof r->has_line);
    linkspec_free(&r->none);
}

void route_reset(RouteMedium *r)
{
    forget_dues(r);
    if (r->has_up)
        delayline_reset(&r->up);
    for (int j = 0; j < r->ncars; j++)
        if (r->has_line[j])
            delayline_reset(&r->line[j]);
}

/* Every line draws the slot's fate, whatever the schemes will send. */
static void rt_slot(void *ctx, int from, int32_t seq, int64_t now_us)
{
    RouteMedium *r = ctx;
    if (r->has_up) {
        Medium m = delayline_medium(&r->up);
        medium_slot(&m, from, seq, now_us);
    }
    for (int j = 0; j < r->ncars; j++)
        if (r->has_line[j]) {
            Medium m = delayline_medium(&r->line[j]);
            medium_slot(&m, from, seq, now_us);
        }
}

/* Recomputes the earliest line (ties: the lower destination). */
static void find_first(RouteMedium *r)
{
    r->min_due = INT64_MAX;
    r->min_line = -1;
    for (int j = 0; j < r->ncars; j++)
        if (r->has_line[j] && r->due[j] < r->min_due) {
            r->min_due = r->due[j];
            r->min_line = j;
        }
}

/* Line j's head may have moved earlier (a send): O(1). */
static void line_sent(RouteMedium *r, int j)
{
    r->due[j] = delayline_next_due(&r->line[j]);
    if (r->due[j] < r->min_due || (r->due[j] == r->min_due && j < r->min_line)) {
        r->min_due = r->due[j];
        r->min_line = j;
    }
}

/* cs: the time the server puts mu on the downlinks, given its arrival. */
static int64_t server_output(const RouteMedium *r, const Mu *mu, int64_t arrive_us)
{
    if (r->server == ROUTE_SYNC && mu->gen_us + r->hold_us > arrive_us)
        return mu->gen_us + r->hold_us;
    return arrive_us;
}

static int rt_send(void *ctx, int k, int from, int to, const Mu *mu, int64_t now_us)
{
    RouteMedium *r = ctx;
    if (to < 0 || to >= r->ncars || !r->has_line[to])
        return MEDIUM_LOST; /* nobody there: nothing is queued */
    int fate;
    if (r->topology == ROUTE_P2P) {
        fate = delayline_send_at(&r->line[to], k, from, to, mu, now_us, now_us);
    } else {
        if (to == r->first_peer) /* a new MU: one uplink packet for every destination */
            r->up_ok[k] = delayline_draw_fate(&r->up, k, mu, &r->up_delay_us[k]);
        if (!r->up_ok[k])
            return MEDIUM_LOST;
        int64_t out_us = server_output(r, mu, now_us + r->up_delay_us[k]);
        fate = delayline_send_at(&r->line[to], k, from, to, mu, now_us, out_us);
    }
    line_sent(r, to);
    return fate;
}

static int64_t rt_next_due(const void *ctx)
{
    const RouteMedium *r = ctx;
    return r->min_due;
}

static bool rt_pop_due(void *ctx, int64_t t_us, MediumDelivery *out)
{
    RouteMedium *r = ctx;
    int j = r->min_line;
    if (j < 0 || r->min_due > t_us)
        return false;
    Medium m = delayline_medium(&r->line[j]);
    bool ok = medium_pop_due(&m, t_us, out);
    r->due[j] = delayline_next_due(&r->line[j]);
    find_first(r);
    return ok;
}

static int rt_in_flight(const void *ctx, int k, InFlight *out, int max)
{
    const RouteMedium *r = ctx;
    int n = 0;
    for (int j = 0; j < r->ncars && n < max; j++)
        if (r->has_line[j]) {
            Medium m = delayline_medium((DelayLine *)&r->line[j]);
            n += medium_in_flight(&m, k, out + n, max - n);
        }
    return n;
}

static void rt_clear(void *ctx)
{
    RouteMedium *r = ctx;
    for (int j = 0; j < r->ncars; j++)
        if (r->has_line[j]) {
            Medium m = delayline_medium(&r->line[j]);
            medium_clear(&m);
        }
    forget_dues(r);
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
