/* The RouteMedium's setup, reset and live line changes (route.h); the
 * queue and its traffic are route.c's. */
#include "route_internal.h"

#include <stdlib.h>
#include <string.h>

/* Nothing queued; every line's and sender's newest record forgotten. */
void route_forget_queue(RouteMedium *r)
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
    route_forget_queue(r);
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
    route_forget_queue(r);
    for (int i = 0; i < r->ncars; i++) {
        if (r->has_up[i])
            delayline_reset(&r->up[i]);
        for (int j = 0; j < r->ncars; j++)
            if (r->has_line[i * r->ncars + j])
                delayline_reset(&r->line[i * r->ncars + j]);
    }
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
