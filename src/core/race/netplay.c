/* One terminal of a network race without the network: own car, Terminal,
 * the emulated link before the wire, VIEW pairing for the live metrics
 * (netplay.h). */
#include "netplay.h"

#include <stdlib.h>
#include <string.h>

/* Deliveries taken off the DelayLine at one call, grouped into packets:
 * every scheme's update and parity of a sample, duplicates included. */
#define NETPLAY_BATCH (SCHEME_MAX * 4)

/* One terminal's displays at one sample: what a VIEW carries. */
typedef struct View {
    int32_t seq; /* -1: empty slot */
    double progress; /* the terminal's own car's true progress */
    WireViewCar car[SCHEME_MAX][2];
} View;

struct NetPlay {
    NetPlayConfig cfg;
    int own, peer;
    World world;
    CarInput ext, held;
    Terminal *term;
    DelayLine dl;
    Medium med;
    int64_t skew_us;
    int32_t next_seq;      /* next own sample */
    int64_t next_sample_us;
    Mu grid[2];
    /* true progress by sample seq: [car][seq % NETPLAY_PROGRESS] */
    double prog[2][NETPLAY_PROGRESS];
    int32_t prog_seq[2][NETPLAY_PROGRESS]; /* which seq a slot holds, -1 none */
    double own_hint;       /* projection hint: the own car's last progress */
    View views[2][NETPLAY_VIEWS]; /* [terminal][seq % NETPLAY_VIEWS] */
    int32_t next_metric;   /* next sample to pair */
    int32_t peer_newest;   /* newest peer view seq, -1 before */
    int64_t skipped;
    Metrics m[SCHEME_MAX];
    RaceFlow flow;
    uint32_t mu_sent, peer_mu_sent;
    int64_t mu_received;
    uint32_t seen_pkt[64]; /* recent MU packet counters, to count duplicates once */
    int seen_n;
    /* the sends of the terminal_local call in progress */
    int nsends;
    int send_k[NETPLAY_BATCH];
    Mu send_mu[NETPLAY_BATCH];
    Pose last_own;         /* the latest own sample as sent */
};

NetPlay *netplay_new(const NetPlayConfig *cfg, NrError *err)
{
    if (cfg->car < 0 || cfg->car > 1) {
        nr_error_set(err, "network terminal: car %d (expected 0 or 1)", cfg->car);
        return NULL;
    }
    if (cfg->shown < 0 || cfg->shown >= cfg->nschemes) {
        nr_error_set(err, "network terminal: the shown scheme %d is not one of the %d", cfg->shown, cfg->nschemes);
        return NULL;
    }
    NetPlay *np = calloc(1, sizeof *np);
    if (!np) {
        nr_error_set(err, "out of memory");
        return NULL;
    }
    np->cfg = *cfg;
    np->own = cfg->car;
    np->peer = 1 - cfg->car;
    /* The grid as every terminal knows it: both cars at rest on their
     * slots, sampled as the recording samples them. */
    World both;
    if (!world_init(&both, cfg->track, 2, err) || !world_init_solo(&np->world, cfg->track, np->own, err)) {
        free(np);
        return NULL;
    }
    for (int c = 0; c < 2; c++) {
        RecSample s;
        world_sample(&both, c, &s);
        np->grid[c] = (Mu){.car = c, .seq = 0, .x = s.x, .y = s.y, .heading = s.heading, .speed = s.speed,
                           .kind = MU_UPDATE, .nbytes = MU_WIRE_BYTES};
    }
    TerminalConfig tc = {.car = np->own, .ncars = 2, .params = cfg->params, .schemes = cfg->schemes,
                         .nschemes = cfg->nschemes};
    np->term = terminal_new(&tc, err);
    if (!np->term) {
        free(np);
        return NULL;
    }
    LinkSpec none;
    memset(&none, 0, sizeof none);
    bool aux = false;
    for (int k = 0; k < cfg->nschemes; k++)
        aux |= cfg->schemes[k]->extra_packets;
    if (!delayline_init(&np->dl, cfg->link ? cfg->link : &none, cfg->seed, np->own, cfg->nschemes, aux)) {
        terminal_free(np->term);
        delayline_free(&np->dl);
        free(np);
        nr_error_set(err, "out of memory");
        return NULL;
    }
    np->med = delayline_medium(&np->dl);
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < NETPLAY_PROGRESS; i++)
            np->prog_seq[c][i] = -1;
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < NETPLAY_VIEWS; i++)
            np->views[j][i].seq = -1;
    np->peer_newest = -1;
    for (int k = 0; k < cfg->nschemes; k++)
        metrics_reset(&np->m[k]);
    RaceFlowConfig fc = cfg->flow;
    fc.lap_cw = track_length(cfg->track);
    raceflow_init(&np->flow, &fc);
    double near = 0;
    track_grid(cfg->track, np->own, NULL, NULL, NULL, &near);
    np->own_hint = near; /* the engine's hint for sample 0 */
    return np;
}

void netplay_free(NetPlay *np)
{
    if (!np)
        return;
    terminal_free(np->term);
    delayline_free(&np->dl);
    free(np);
}

void netplay_set_input(NetPlay *np, const CarInput *in)
{
    np->ext = car_input_clamp(*in);
}

void netplay_set_skew(NetPlay *np, int64_t skew_us)
{
    np->skew_us = skew_us;
}

static void collect(void *ctx, int k, int to, const Mu *mu)
{
    (void)to;
    NetPlay *np = ctx;
    if (np->nsends < NETPLAY_BATCH) {
        np->send_k[np->nsends] = k;
        np->send_mu[np->nsends++] = *mu;
    }
}

static bool mu_same(const Mu *a, const Mu *b)
{
    if (a->car != b->car || a->seq != b->seq || a->gen_us != b->gen_us || a->kind != b->kind ||
        a->nbytes != b->nbytes || a->x != b->x || a->y != b->y || a->heading != b->heading ||
        a->speed != b->speed || a->vx != b->vx || a->vy != b->vy)
        return false;
    for (int i = 0; i < 6; i++)
        if (a->aux[i] != b->aux[i])
            return false;
    return true;
}

/* Whatever the emulated link delivers by t goes on the wire: identical MUs
 * leaving at one instant as one packet with every sender's bit. */
static void flush_line(NetPlay *np, int64_t t_us, const NetPlayOut *out)
{
    MediumDelivery d[NETPLAY_BATCH];
    for (;;) {
        int n = 0;
        while (n < NETPLAY_BATCH && medium_pop_due(&np->med, t_us, &d[n]))
            n++;
        bool taken[NETPLAY_BATCH] = {false};
        for (int i = 0; i < n; i++) {
            if (taken[i])
                continue;
            WirePacket p;
            memset(&p, 0, sizeof p);
            p.kind = WIRE_MU;
            p.u.mu.mu = d[i].mu;
            p.u.mu.schemes = UINT32_C(1) << d[i].scheme;
            for (int j = i + 1; j < n; j++)
                if (!taken[j] && d[j].due_us == d[i].due_us && mu_same(&d[j].mu, &d[i].mu)) {
                    p.u.mu.schemes |= UINT32_C(1) << d[j].scheme;
                    taken[j] = true;
                }
            np->mu_sent++;
            out->packet(out->ctx, &p, d[i].sent_us);
        }
        if (n < NETPLAY_BATCH)
            return;
    }
}

static void store_progress(NetPlay *np, int car, int32_t seq, double v)
{
    np->prog[car][seq % NETPLAY_PROGRESS] = v;
    np->prog_seq[car][seq % NETPLAY_PROGRESS] = seq;
}

static bool known_progress(const NetPlay *np, int car, int32_t seq, double *out)
{
    if (seq < 0 || np->prog_seq[car][seq % NETPLAY_PROGRESS] != seq)
        return false;
    *out = np->prog[car][seq % NETPLAY_PROGRESS];
    return true;
}

/* As the engine's displayed_progress: the shown sample's true progress when
 * known, else the projection near the car's true progress at that instant. */
static double displayed_progress(const NetPlay *np, int car, const WireViewCar *v, double truth)
{
    double p;
    if (v->seq >= 0 && known_progress(np, car, v->seq, &p))
        return p;
    return track_progress(np->cfg.track, v->x, v->y, truth);
}

/* Pairs own and peer views in sample order: one metrics sample each. */
static void take_metrics(NetPlay *np)
{
    for (;;) {
        int32_t i = np->next_metric;
        if (i >= np->next_seq)
            return;
        const View *mine = &np->views[np->own][i % NETPLAY_VIEWS];
        const View *theirs = &np->views[np->peer][i % NETPLAY_VIEWS];
        if (mine->seq != i)
            return;
        if (theirs->seq != i) {
            if (np->peer_newest >= i + NETPLAY_VIEW_SKIP) {
                np->skipped++;
                np->next_metric++;
                continue;
            }
            return;
        }
        const View *at[2];
        at[np->own] = mine;
        at[np->peer] = theirs;
        double truth[2] = {at[0]->progress, at[1]->progress};
        int64_t t = (int64_t)i * WORLD_SAMPLE_US;
        for (int k = 0; k < np->cfg.nschemes; k++) {
            double p[2][2];
            for (int j = 0; j < 2; j++)
                for (int c = 0; c < 2; c++)
                    p[j][c] = displayed_progress(np, c, &at[j]->car[k][c], truth[c]);
            metrics_add_sample(&np->m[k], t, p[0], p[1]);
            if (k == np->cfg.shown && np->flow.phase >= RF_RACING) {
                RaceProgress rp;
                for (int c = 0; c < 2; c++) {
                    rp.truth[c] = truth[c];
                    rp.seen[0][c] = p[0][c];
                    rp.seen[1][c] = p[1][c];
                }
                raceflow_sample(&np->flow, t, &rp);
            }
        }
        np->next_metric++;
    }
}

/* One own sample at race time t: the schemes' senders, the view. */
static void take_sample(NetPlay *np, const NetPlayOut *out)
{
    int64_t t = np->next_sample_us;
    int32_t seq = np->next_seq;
    while (np->next_metric <= seq - NETPLAY_VIEWS) { /* its own view is about to go */
        np->skipped++;
        np->next_metric++;
    }
    RecSample s;
    world_sample(&np->world, 0, &s);
    s.t_ms = (int32_t)(t / 1000);
    if (out->sample)
        out->sample(out->ctx, seq, &s);
    double v = track_progress(np->cfg.track, s.x, s.y, np->own_hint);
    np->own_hint = v;
    np->last_own = (Pose){.x = s.x, .y = s.y, .heading = s.heading, .seq = seq};
    store_progress(np, np->own, seq, v);
    int64_t lt = t + np->skew_us;
    Mu mu = {.car = np->own, .seq = seq, .gen_us = lt, .x = s.x, .y = s.y, .heading = s.heading,
             .speed = s.speed, .kind = MU_UPDATE, .nbytes = MU_WIRE_BYTES};
    if (seq == 0) {
        Mu grid[2] = {np->grid[0], np->grid[1]};
        terminal_start(np->term, grid, lt);
    }
    medium_slot(&np->med, np->own, seq, t);
    np->nsends = 0;
    TerminalSink sink = {np, collect};
    terminal_local(np->term, &mu, lt, &sink);
    for (int i = 0; i < np->nsends; i++) {
        Metrics *m = &np->m[np->send_k[i]];
        DirCounters *c = &m->dir[np->own];
        c->sent++;
        c->bytes += np->send_mu[i].nbytes > 0 ? np->send_mu[i].nbytes : MU_WIRE_BYTES;
        int fate = medium_send(&np->med, np->send_k[i], np->own, np->peer, &np->send_mu[i], t);
        c->lost += (fate & MEDIUM_LOST) != 0;
        c->duplicated += (fate & MEDIUM_DUPLICATED) != 0;
        c->overflow += ((fate & MEDIUM_OVERFLOW) != 0) + ((fate & MEDIUM_DUP_OVERFLOW) != 0);
    }
    flush_line(np, t, out);
    View *vw = &np->views[np->own][seq % NETPLAY_VIEWS];
    memset(vw, 0, sizeof *vw);
    vw->seq = seq;
    vw->progress = v;
    WirePacket p;
    memset(&p, 0, sizeof p);
    p.kind = WIRE_VIEW;
    WireView *w = &p.u.view;
    w->seq = seq;
    w->nschemes = np->cfg.nschemes;
    w->t_us = t;
    w->progress = v;
    for (int k = 0; k < np->cfg.nschemes; k++)
        for (int c = 0; c < 2; c++) {
            Pose pose;
            terminal_display(np->term, k, c, lt, &pose);
            vw->car[k][c] = (WireViewCar){pose.x, pose.y, pose.seq};
        }
    memcpy(w->car, vw->car, sizeof w->car);
    w->mu_sent = np->mu_sent;
    out->packet(out->ctx, &p, t);
    np->next_seq++;
    np->next_sample_us += WORLD_SAMPLE_US;
    take_metrics(np);
}

void netplay_start(NetPlay *np, const NetPlayOut *out)
{
    raceflow_go(&np->flow, 0);
    raceflow_tick(&np->flow, RACEFLOW_LIGHTS * RACEFLOW_LIGHT_US);
    take_sample(np, out);
}

void netplay_advance(NetPlay *np, int64_t t_us, const NetPlayOut *out)
{
    while (np->next_seq > 0 && np->world.t_us <= t_us && np->flow.phase != RF_DONE) {
        int64_t now = np->world.t_us;
        if (now == np->next_sample_us) {
            take_sample(np, out);
            if (np->flow.phase == RF_DONE)
                break;
        }
        if (now % WORLD_CONTROL_US == 0) {
            if (np->cfg.ctl)
                controller_input(np->cfg.ctl, &np->world, 0, &np->held);
            else
                np->held = np->ext;
        }
        world_step(&np->world, &np->held);
    }
    flush_line(np, t_us, out);
}

/* A MU packet counter seen recently: a duplicate on the real network is
 * delivered to the schemes (as the emulator's) but counted once. */
static bool seen_before(NetPlay *np, uint32_t pkt)
{
    int n = np->seen_n < 64 ? np->seen_n : 64;
    for (int i = 0; i < n; i++)
        if (np->seen_pkt[i] == pkt)
            return true;
    np->seen_pkt[np->seen_n++ % 64] = pkt;
    return false;
}

void netplay_receive(NetPlay *np, const WirePacket *p, int64_t arr_us)
{
    if (p->kind == WIRE_MU) {
        if (!seen_before(np, p->pkt_seq))
            np->mu_received++;
        for (int k = 0; k < np->cfg.nschemes; k++) {
            if (!(p->u.mu.schemes & (UINT32_C(1) << k)))
                continue;
            RxResult r = terminal_receive(np->term, k, &p->u.mu.mu, arr_us + np->skew_us);
            DirCounters *c = &np->m[k].dir[np->peer];
            c->delivered++;
            c->rejected += r == RX_REJECTED;
            c->late += r == RX_LATE_USED || r == RX_DISCARDED;
            c->discarded += r == RX_DISCARDED;
        }
        return;
    }
    if (p->kind != WIRE_VIEW || p->u.view.nschemes != np->cfg.nschemes)
        return;
    const WireView *w = &p->u.view;
    if (w->seq > np->peer_newest) {
        np->peer_newest = w->seq;
        np->peer_mu_sent = w->mu_sent;
    }
    if (w->seq < np->next_metric || w->seq >= np->next_metric + NETPLAY_VIEWS) {
        take_metrics(np);
        return; /* given up already, or beyond what the ring holds */
    }
    View *vw = &np->views[np->peer][w->seq % NETPLAY_VIEWS];
    vw->seq = w->seq;
    vw->progress = w->progress;
    memcpy(vw->car, w->car, sizeof vw->car);
    store_progress(np, np->peer, w->seq, w->progress);
    take_metrics(np);
}

void netplay_check(const NetPlay *np, int64_t now_us, WireCheck *chk)
{
    chk->ncars = 2;
    chk->own_car = np->own;
    chk->nschemes = np->cfg.nschemes;
    chk->now_us = now_us + np->skew_us;
}

const Metrics *netplay_metrics(const NetPlay *np, int k)
{
    return &np->m[k];
}

const RaceFlow *netplay_flow(const NetPlay *np)
{
    return &np->flow;
}

bool netplay_done(const NetPlay *np)
{
    return np->flow.phase == RF_DONE;
}

int32_t netplay_sample_seq(const NetPlay *np)
{
    return np->next_seq;
}

int64_t netplay_views_skipped(const NetPlay *np)
{
    return np->skipped;
}

uint32_t netplay_mu_sent(const NetPlay *np)
{
    return np->mu_sent;
}

uint32_t netplay_peer_mu_sent(const NetPlay *np)
{
    return np->peer_mu_sent;
}

int64_t netplay_mu_received(const NetPlay *np)
{
    return np->mu_received;
}

void netplay_display(const NetPlay *np, int k, int car, Pose *out)
{
    terminal_display(np->term, k, car, np->next_sample_us - WORLD_SAMPLE_US + np->skew_us, out);
}

void netplay_pose(const NetPlay *np, Pose *out)
{
    const Car *c = &np->world.car[0]; /* the solo world holds the own car only */
    out->x = c->x;
    out->y = c->y;
    out->heading = c->heading;
    out->seq = 0;
}

double netplay_speed(const NetPlay *np)
{
    return car_speed(&np->world.car[0]);
}

int netplay_car(const NetPlay *np)
{
    return np->own;
}

int netplay_shown(const NetPlay *np)
{
    return np->cfg.shown;
}

/* Where scheme k shows the own car now: where the physics has it this step
 * when the scheme shows the latest own sample (most schemes), else what the
 * scheme shows (causality's local lag holds the own car back by Delta). */
void netplay_own_shown(const NetPlay *np, int k, Pose *out)
{
    Pose d;
    netplay_display(np, k, np->own, &d);
    if (d.x == np->last_own.x && d.y == np->last_own.y && d.heading == np->last_own.heading)
        netplay_pose(np, out);
    else
        *out = d;
}

void netplay_grid_pose(const NetPlay *np, int car, Pose *out)
{
    const Mu *g = &np->grid[car == 1];
    *out = (Pose){.x = g->x, .y = g->y, .heading = g->heading, .seq = 0};
}
