/* An N-car terminal's outgoing traffic over p2p or client-server lines
 * (route.h; DESIGN.md "N players and topologies"). */
#include "route.h"

#include <string.h>

int route_line_index(int ncars, int from, int to)
{
    return from * (ncars - 1) + (to < from ? to : to - 1);
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
    if (!linkspec_parse(&r->none, "", NULL, err))
        return false;
    if (r->topology == ROUTE_CS) {
        if (!add_line(&r->up, cfg->up ? cfg->up : &r->none, cfg, n * (n - 1) + cfg->from, err))
            return false;
        r->has_up = true;
    }
    for (int j = 0; j < n; j++) {
        if (j == cfg->from)
            continue;
        int dir = route_line_index(n, cfg->from, j);
        if (r->topology == ROUTE_CS)
            dir += n * n;
        if (!add_line(&r->line[j], cfg->link[j] ? cfg->link[j] : &r->none, cfg, dir, err))
            return false;
        r->has_line[j] = true;
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
    if (r->topology == ROUTE_P2P)
        return delayline_send_at(&r->line[to], k, from, to, mu, now_us, now_us);
    if (to == r->first_peer) /* a new MU: one uplink packet for every destination */
        r->up_ok[k] = delayline_draw_fate(&r->up, k, mu, &r->up_delay_us[k]);
    if (!r->up_ok[k])
        return MEDIUM_LOST;
    int64_t out_us = server_output(r, mu, now_us + r->up_delay_us[k]);
    return delayline_send_at(&r->line[to], k, from, to, mu, now_us, out_us);
}

/* The line whose head is due first (ties: the lower destination), or -1. */
static int first_line(const RouteMedium *r, int64_t *due)
{
    int best = -1;
    *due = INT64_MAX;
    for (int j = 0; j < r->ncars; j++) {
        if (!r->has_line[j])
            continue;
        Medium m = delayline_medium((DelayLine *)&r->line[j]);
        int64_t t = medium_next_due(&m);
        if (t < *due) {
            *due = t;
            best = j;
        }
    }
    return best;
}

static int64_t rt_next_due(const void *ctx)
{
    int64_t due;
    first_line(ctx, &due);
    return due;
}

static bool rt_pop_due(void *ctx, int64_t t_us, MediumDelivery *out)
{
    RouteMedium *r = ctx;
    int64_t due;
    int j = first_line(r, &due);
    if (j < 0 || due > t_us)
        return false;
    Medium m = delayline_medium(&r->line[j]);
    return medium_pop_due(&m, t_us, out);
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
