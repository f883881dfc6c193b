/* The engine's processing: samples, the schemes' sends into the media,
 * deliveries to local terminals (from a medium or the network) and to
 * remote ones (forwarded), in the event order of engine.h. */
#include "engine_internal.h"

#include <string.h>

/* Scheme k at terminal dir sends mu to `to`: counted in dir[dir] (sent,
 * bytes and the medium's fate). */
static inline int send_counted(Engine *e, int k, int dir, int to, const Mu *mu)
{
    DirCounters *c = &e->s[k].m.dir[dir];
    c->sent++;
    c->bytes += mu->nbytes > 0 ? mu->nbytes : MU_WIRE_BYTES;
    int fate = medium_send(&e->med[dir], k, dir, to, mu, e->now_us);
    e->due_stale[dir] = true; /* a route terminal sends through engine_sink_send_many */
    c->lost += (fate & MEDIUM_LOST) != 0;
    c->duplicated += (fate & MEDIUM_DUPLICATED) != 0;
    c->overflow += ((fate & MEDIUM_OVERFLOW) != 0) + ((fate & MEDIUM_DUP_OVERFLOW) != 0);
    return fate;
}

/* The same with the lagometer on: an MU that will never arrive is noted. */
static ENGINE_LAG_COLD void send_watched(Engine *e, int k, int dir, int to, const Mu *mu)
{
    if (send_counted(e, k, dir, to, mu) & (MEDIUM_LOST | MEDIUM_OVERFLOW))
        engine_lag_lost(e, k, to, mu);
}

void engine_sink_send(void *ctx, int k, int to, const Mu *mu)
{
    SinkCtx *x = ctx;
    if (x->e->lag)
        send_watched(x->e, k, x->from, to, mu);
    else
        send_counted(x->e, k, x->from, to, mu);
}

/* Scheme k's copies of mu from `from` that the route lost (or dropped from
 * a full queue) at sending, bit `to` of lost_to: the lagometer's losses. */
static ENGINE_LAG_COLD void send_all_watched(Engine *e, int k, const Mu *mu, uint32_t lost_to)
{
    for (int to = 0; to < e->ncars; to++)
        if (lost_to & (UINT32_C(1) << to))
            engine_lag_lost(e, k, to, mu);
}

/* The route terminal x->from's sends of one instant, scheme k[i] sending
 * mu[i] to every other terminal (route.h): counted as engine_sink_send
 * counts each copy. */
void engine_sink_send_many(void *ctx, const int *k, const Mu *mu, int n)
{
    SinkCtx *x = ctx;
    Engine *e = x->e;
    RouteFates f[TERMINAL_FAN_BATCH];
    route_send_many(e->route, k, x->from, mu, n, e->now_us, f);
    e->due_stale[e->due_of[x->from]] = true;
    int copies = e->ncars - 1;
    for (int i = 0; i < n; i++) {
        DirCounters *c = &e->s[k[i]].m.dir[x->from];
        c->sent += copies;
        c->bytes += (int64_t)copies * (mu[i].nbytes > 0 ? mu[i].nbytes : MU_WIRE_BYTES);
        c->lost += f[i].lost;
        c->duplicated += f[i].duplicated;
        c->overflow += f[i].overflow;
        if (e->lag && f[i].lost_to)
            send_all_watched(e, k[i], &mu[i], f[i].lost_to);
    }
}

/* Scheme k's MU from `from` reached its destination: counted in dir[from]. */
static void count_receive(Engine *e, int k, int from, RxResult r)
{
    DirCounters *c = &e->s[k].m.dir[from];
    c->delivered++;
    if (r == RX_REJECTED) {
        c->rejected++;
        return;
    }
    if (r != RX_USED)
        c->late++;
    if (r == RX_DISCARDED)
        c->discarded++;
}

/* The lagometer on: the fates rx[0..n) schemes ks[] gave mu from `from`
 * at local terminal `to`, race time t_us, noted. */
static ENGINE_LAG_COLD void receive_watched(Engine *e, const int *ks, int n, int from, int to, const Mu *mu,
                                            int64_t t_us, const RxResult *rx)
{
    for (int i = 0; i < n; i++)
        engine_lag_arrival(e, ks[i], from, to, mu, t_us, rx[i]);
}

/* An MU reaches local terminal `to` at race time t_us: the one receive
 * path of every mode (deliver_group takes several schemes' at once). */
static RxResult receive_at(Engine *e, int k, int from, int to, const Mu *mu, int64_t t_us)
{
    RxResult r = terminal_receive(e->term[to], k, mu, engine_local_time(e, to, t_us));
    count_receive(e, k, from, r);
    if (e->lag)
        receive_watched(e, &k, 1, from, to, mu, t_us, &r);
    return r;
}

RxResult engine_receive(Engine *e, int k, int from, int to, const Mu *mu, int64_t t_us)
{
    if (k < 0 || k >= e->n || from < 0 || from >= e->ncars || to < 0 || to >= e->ncars || to == from ||
        e->remote[to])
        return RX_REJECTED;
    return receive_at(e, k, from, to, mu, t_us);
}

/* Route group g, taken off the queue: every copy of it, one due time, one
 * line, in sending order; the schemes' copies of the same stored MU
 * (consecutive: sent in scheme order) are received together, validated
 * once. */
/* A group for a remote terminal leaves on the wire, copy by copy in
 * sending order; the local time does not move. */
static void forward_group(Engine *e, const RouteGroup *gr, const RouteFan *fa)
{
    for (int c = 0; c < fa->n && e->hooks.forward; c++) {
        if (!(gr->mask & (UINT32_C(1) << c)))
            continue;
        MediumDelivery m = {.scheme = fa->k[c], .from = gr->from, .to = gr->to, .sent_us = fa->sent_us,
                            .due_us = gr->due_us, .mu = *route_mu(e->route, fa->mu[c])};
        e->hooks.forward(e->hooks.ctx, &m);
    }
}

static void deliver_group(Engine *e, int32_t g)
{
    const RouteGroup *gr = route_group(e->route, g);
    const RouteFan *fa = route_fan(e->route, gr);
    int from = gr->from, to = gr->to;
    if (e->remote[to]) {
        forward_group(e, gr, fa);
        route_drop_group(e->route, g);
        return;
    }
    if (gr->due_us > e->now_us)
        e->now_us = gr->due_us;
    int64_t lt = engine_local_time(e, to, gr->due_us);
    int ks[ROUTE_FAN], n = 0;
    RxResult rx[ROUTE_FAN];
    for (uint32_t m = gr->mask; m;) { /* copy c: the lowest bit left */
        int c = nr_lowest_bit(m);
        m &= m - 1;
        ks[n++] = fa->k[c];
        if (m && fa->mu[nr_lowest_bit(m)] == fa->mu[c])
            continue; /* the same bytes follow: one receive for both */
        terminal_receive_many(e->term[to], ks, n, route_mu(e->route, fa->mu[c]), route_mu_ok(e->route, fa->mu[c]),
                              lt, rx);
        for (int i = 0; i < n; i++)
            count_receive(e, ks[i], from, rx[i]);
        if (e->lag)
            receive_watched(e, ks, n, from, to, route_mu(e->route, fa->mu[c]), gr->due_us, rx);
        n = 0;
    }
    route_drop_group(e->route, g);
}

/* Every route delivery due at or before t_us, terminal by terminal: what
 * a terminal receives changes that terminal alone, and each takes its own
 * in the order of route.h. Only when the route is the engine's one medium
 * (another medium's deliveries would have to interleave by time) and every
 * terminal is local (what leaves on the wire goes in due order). */
static void deliver_route_until(Engine *e, int d, int64_t t_us)
{
    e->due_stale[d] = true;
    for (int to = 0; to < e->ncars; to++) {
        RouteDueTo due; /* deliveries send nothing: the iteration's contract */
        route_due_begin(e->route, to, t_us, &due);
        for (int32_t g; (g = route_due_next(e->route, &due)) >= 0;)
            deliver_group(e, g);
    }
}

static void deliver_from(Engine *e, int d, int64_t t_us)
{
    if (e->own_route[d]) {
        e->due_stale[d] = true;
        int32_t g = route_pop_group(e->route, t_us);
        if (g >= 0)
            deliver_group(e, g);
        return;
    }
    MediumDelivery m;
    e->due_stale[d] = true;
    if (!medium_pop_due(&e->med[d], t_us, &m))
        return;
    int to = m.to;
    bool out = to >= 0 && to < e->ncars && e->remote[to];
    if (!out)
        e->now_us = m.due_us;
    if (m.scheme < 0 || m.scheme >= e->n || to < 0 || to >= e->ncars || to == d)
        return; /* not addressed to anything of this race */
    if (out) { /* it leaves on the wire: the local time does not move */
        if (e->hooks.forward)
            e->hooks.forward(e->hooks.ctx, &m);
        return;
    }
    receive_at(e, m.scheme, d, to, &m.mu, m.due_us);
}

/* Direction d's delivery due at due_us; when the route is the engine's one
 * medium, every route delivery up to lim_us at once. */
static void deliver_due(Engine *e, int d, int64_t due_us, int64_t lim_us)
{
    if (e->own_route[d] && e->nmed == 1 && e->all_local)
        deliver_route_until(e, d, lim_us);
    else
        deliver_from(e, d, due_us);
}

/* The direction whose next delivery is due first, or -1; *due gets it.
 * Called several times per sample: locals, one store at the end. */
static int next_direction(Engine *e, int64_t *due)
{
    int best = -1;
    int64_t first = INT64_MAX;
    const int nmed = e->nmed;
    for (int i = 0; i < nmed; i++) {
        int d = e->med_dir[i];
        if (e->due_stale[d]) {
            e->due[d] = e->own_route[d] ? route_next_due(e->route) : medium_next_due(&e->med[d]);
            e->due_stale[d] = false;
        }
        if (e->due[d] < first) { /* equal times: the lower direction first */
            first = e->due[d];
            best = d;
        }
    }
    *due = first;
    return best;
}

static Mu make_mu(const Engine *e, int car, const Pushed *p)
{
    const CarPose *c = &p->pose[car];
    return (Mu){
        .car = car,
        .seq = p->seq,
        .gen_us = engine_local_time(e, car, p->t_us),
        .x = c->x,
        .y = c->y,
        .heading = c->heading,
        .speed = c->speed,
        .kind = MU_UPDATE,
        .nbytes = MU_WIRE_BYTES,
    };
}

/* Every terminal restarts on this sample as the grid; traffic of the old
 * heat is dropped; metrics and random streams continue. */
static void start_heat(Engine *e, const Pushed *p)
{
    e->heat_first = e->processed;
    Mu grid[ENGINE_MAX_CARS];
    for (int c = 0; c < e->ncars; c++) {
        grid[c] = make_mu(e, c, p);
        double near = 0;
        if (c < track_grid_slots(e->track))
            track_grid(e->track, c, NULL, NULL, NULL, &near);
        e->cur_prog[c] = near; /* the projection hint of sample 0 */
    }
    for (int j = 0; j < e->ncars; j++)
        if (!e->remote[j])
            terminal_start(e->term[j], grid, engine_local_time(e, j, p->t_us));
    for (int d = 0; d < e->ncars; d++)
        if (e->has_med[d]) {
            medium_clear(&e->med[d]);
            e->due_stale[d] = true;
        }
    for (int k = 0; k < e->n; k++)
        e->s[k].hist_n = 0;
    if (e->lag)
        engine_clear_lag(e);
}

static void do_sample(Engine *e)
{
    const Pushed *p = &e->ring[(uint64_t)e->processed % ENGINE_PUSH_AHEAD];
    int64_t t = p->t_us;
    e->now_us = t;
    if (p->new_heat)
        start_heat(e, p);
    e->cur_seq = p->seq;
    for (int c = 0; c < e->ncars; c++) {
        e->cur[c] = p->pose[c];
        if (e->remote[c])
            continue; /* its truth arrives with its views */
        /* Progress unwrapped sample to sample: the previous value is the
         * hint (recording_progress does the same over a whole file). */
        if (p->seq < e->given_n) { /* known: the ring is not needed */
            e->cur_prog[c] = e->given_prog[c][p->seq];
            continue;
        }
        double v = track_progress(e->track, p->pose[c].x, p->pose[c].y, e->cur_prog[c]);
        e->cur_prog[c] = v;
        engine_store_progress(e, c, e->processed, v);
    }
    for (int d = 0; d < e->ncars; d++)
        if (e->has_med[d])
            medium_slot(&e->med[d], d, p->seq, t);
    for (int car = 0; car < e->ncars; car++) {
        if (e->remote[car])
            continue;
        Mu mu = make_mu(e, car, p);
        if (e->own_route[car])
            terminal_local_fan(e->term[car], &mu, mu.gen_us, &e->fan[car]);
        else
            terminal_local(e->term[car], &mu, mu.gen_us, &e->sink[car]);
    }
    /* The sample counts as processed from here: progress lookups of this
     * sample's seq find it. MUs sent now without delay are due now: they
     * arrive before the metrics sample of this instant, as every packet due
     * at or before t. */
    e->processed++;
    int64_t due;
    int d;
    while ((d = next_direction(e, &due)) >= 0 && due <= t)
        deliver_due(e, d, t, t);
    engine_capture_views(e, e->processed - 1, t);
    engine_take_metrics(e);
}

void engine_step_to(Engine *e, int64_t t_us)
{
    for (;;) {
        bool waiting = e->processed < e->pushed;
        int64_t t_sample = waiting ? e->ring[(uint64_t)e->processed % ENGINE_PUSH_AHEAD].t_us : INT64_MAX;
        int64_t due;
        int d = next_direction(e, &due);
        /* Deliveries run up to the next pushed sample: past the last one
         * they wait for the next push, or never come after engine_finish;
         * only what goes to remote terminals leaves as soon as it is due. */
        if (d >= 0 && due <= t_us && (waiting ? due <= t_sample : e->ahead[d])) {
            deliver_due(e, d, due, waiting && t_sample < t_us ? t_sample : t_us);
            continue;
        }
        if (waiting && t_sample <= t_us) {
            do_sample(e);
            continue;
        }
        break;
    }
    int64_t lim = e->pushed > 0 && t_us > e->last_pushed_us ? e->last_pushed_us : t_us;
    if (e->pushed > 0 && lim > e->now_us)
        e->now_us = lim;
}
