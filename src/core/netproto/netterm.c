/* One terminal of a network race without the network: an adapter over the
 * Engine (this terminal local, the peer remote) and the physics loop; MU
 * and VIEW packets in and out (netterm.h). */
#include "netterm.h"

#include <stdlib.h>
#include <string.h>

/* Deliveries forwarded to the peer, grouped into packets at one flush:
 * every scheme's update and parity of a sample, duplicates included. */
#define NETTERM_BATCH (SCHEME_MAX * 4)
#define NETTERM_SEEN 64 /* recent MU packet counters (of a sender), to count duplicates once */

/* A view of another terminal being assembled from its parts. */
typedef struct ViewAsm {
    int32_t seq;          /* -1: free */
    uint32_t got;         /* bit k: scheme k has arrived */
    double progress;
    uint32_t mu_sent;
    ShownCar car[SCHEME_MAX * ENGINE_MAX_CARS];
} ViewAsm;

struct NetTerminal {
    NetTermConfig cfg;
    int own, ncars;
    World world;          /* the own car alone (index 0) */
    RaceLoop loop;
    CarInput ext;
    CarInput said;        /* the input last given to out->input */
    bool have_said;
    int64_t skew_us;      /* the Terminal's clock minus race time */
    Engine *engine;       /* own terminal local, the peer remote */
    RaceFlow flow;
    bool started;
    int32_t next_seq;     /* next own sample */
    CarPose grid[ENGINE_MAX_CARS]; /* every car at rest on its slot */
    Pose last_own;        /* the latest own sample as sent */
    int32_t peer_newest[ENGINE_MAX_CARS]; /* newest view seq of each other terminal, -1 before */
    uint32_t mu_sent, peer_mu_sent[ENGINE_MAX_CARS];
    uint32_t mu_sent_to[ENGINE_MAX_CARS]; /* p2p: MU packets put on the wire to car j */
    int64_t mu_received;
    uint32_t seen_pkt[ENGINE_MAX_CARS][NETTERM_SEEN];
    int seen_n[ENGINE_MAX_CARS];
    ViewAsm asm_view[ENGINE_MAX_CARS][NETTERM_ASSEMBLE];
    const NetTermOut *out; /* during netterm_start / netterm_advance */
    int nfwd;
    MediumDelivery fwd[NETTERM_BATCH];
};

static void flow_sample(void *ctx, const EngineSample *es);
static void forward(void *ctx, const MediumDelivery *d);
static bool take_sample(void *ctx, int64_t t_us);
static bool control(void *ctx, const World *w, int car, int64_t t_us, CarInput *out);

/* The grid as every terminal knows it: every car at rest on its slot,
 * sampled as the recording samples it. */
static bool make_grid(NetTerminal *nt, NrError *err)
{
    World all;
    if (!world_init(&all, nt->cfg.track, nt->ncars, err))
        return false;
    for (int c = 0; c < nt->ncars; c++) {
        RecSample s;
        world_sample(&all, c, &s);
        nt->grid[c] = (CarPose){.x = s.x, .y = s.y, .heading = s.heading, .speed = s.speed};
    }
    return true;
}

static Engine *make_engine(NetTerminal *nt, NrError *err)
{
    const NetTermConfig *cfg = &nt->cfg;
    EngineConfig ec;
    memset(&ec, 0, sizeof ec);
    ec.track = cfg->track;
    ec.period_ms = (int32_t)(WORLD_SAMPLE_US / 1000);
    ec.ncars = nt->ncars;
    ec.link[nt->own] = cfg->link; /* the emulated link before the wire (cs: the uplink) */
    if (cfg->cs) { /* the real server relays: no downlink here */
        ec.topology = ROUTE_CS;
        ec.server = ROUTE_RELAY;
    }
    for (int j = 0; !cfg->cs && j < nt->ncars; j++) {
        if (j == nt->own || !cfg->pair_link[j])
            continue;
        if (nt->ncars == 2) /* two cars keep the two-player DelayLines: the one line is link */
            ec.link[nt->own] = cfg->pair_link[j];
        else
            ec.pair_link[nt->own][j] = cfg->pair_link[j];
    }
    ec.seed = cfg->seed;
    ec.params = cfg->params;
    memcpy(ec.schemes, cfg->schemes, sizeof ec.schemes);
    ec.nschemes = cfg->nschemes;
    for (int j = 0; j < nt->ncars; j++)
        ec.remote[j] = j != nt->own;
    ec.hooks = (EngineHooks){.ctx = nt, .on_sample = flow_sample, .forward = forward};
    ec.lagometer = cfg->lagometer;
    return engine_new(&ec, err);
}

NetTerminal *netterm_new(const NetTermConfig *cfg, NrError *err)
{
    int ncars = cfg->ncars ? cfg->ncars : 2;
    if (ncars < 2 || ncars > WIRE_MAX_CARS || cfg->car < 0 || cfg->car >= ncars) {
        nr_error_set(err, "network terminal: car %d of %d (expected 0 to %d of 2 to %d)", cfg->car, ncars, ncars - 1,
                     WIRE_MAX_CARS);
        return NULL;
    }
    if (cfg->shown < 0 || cfg->shown >= cfg->nschemes) {
        nr_error_set(err, "network terminal: the shown scheme %d is not one of the %d", cfg->shown, cfg->nschemes);
        return NULL;
    }
    NetTerminal *nt = calloc(1, sizeof *nt);
    if (!nt) {
        nr_error_set(err, "out of memory");
        return NULL;
    }
    nt->cfg = *cfg;
    nt->ncars = ncars;
    nt->own = cfg->car;
    for (int j = 0; j < ENGINE_MAX_CARS; j++) {
        nt->peer_newest[j] = -1;
        for (int a = 0; a < NETTERM_ASSEMBLE; a++)
            nt->asm_view[j][a].seq = -1;
    }
    if (!make_grid(nt, err) || !world_init_solo(&nt->world, cfg->track, nt->own, err) ||
        !(nt->engine = make_engine(nt, err))) {
        free(nt);
        return NULL;
    }
    raceloop_init(&nt->loop, &nt->world, WORLD_SAMPLE_US, WORLD_SAMPLE_US,
                  &(RaceLoopHooks){nt, take_sample, control});
    RaceFlowConfig fc = cfg->flow;
    fc.lap_cw = track_length(cfg->track);
    fc.ncars = ncars; /* the flow keeps every car's laps and finish (raceflow.h) */
    raceflow_init(&nt->flow, &fc);
    return nt;
}

void netterm_free(NetTerminal *nt)
{
    if (!nt)
        return;
    engine_free(nt->engine);
    free(nt);
}

void netterm_set_input(NetTerminal *nt, const CarInput *in)
{
    nt->ext = car_input_clamp(*in);
}

void netterm_set_skew(NetTerminal *nt, int64_t skew_us)
{
    nt->skew_us = skew_us;
    engine_set_clock(nt->engine, nt->own, &(TerminalClock){.offset_us = skew_us});
}

/* The race flow reads the shown scheme's metrics sample. */
static void flow_sample(void *ctx, const EngineSample *es)
{
    NetTerminal *nt = ctx;
    if (nt->flow.phase < RF_RACING)
        return;
    RaceProgress rp;
    engine_sample_race_progress(es, nt->cfg.shown, &rp);
    raceflow_sample(&nt->flow, es->t_us, &rp);
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

/* What the engine forwarded goes on the wire: identical MUs leaving at one
 * instant as one packet with every sender's bit. */
static void flush_packets(NetTerminal *nt)
{
    bool taken[NETTERM_BATCH] = {false};
    const MediumDelivery *d = nt->fwd;
    for (int i = 0; i < nt->nfwd; i++) {
        if (taken[i])
            continue;
        WirePacket p;
        memset(&p, 0, sizeof p);
        p.kind = WIRE_MU;
        p.u.mu.mu = d[i].mu;
        p.u.mu.schemes = UINT32_C(1) << d[i].scheme;
        for (int j = i + 1; j < nt->nfwd; j++)
            if (!taken[j] && d[j].due_us == d[i].due_us && (nt->cfg.cs || d[j].to == d[i].to) &&
                mu_same(&d[j].mu, &d[i].mu)) {
                p.u.mu.schemes |= UINT32_C(1) << d[j].scheme;
                taken[j] = true;
            }
        nt->mu_sent++;
        if (!nt->cfg.cs)
            nt->mu_sent_to[d[i].to]++;
        nt->out->packet(nt->out->ctx, &p, d[i].sent_us, nt->cfg.cs ? -1 : d[i].to);
    }
    nt->nfwd = 0;
}

static void forward(void *ctx, const MediumDelivery *d)
{
    NetTerminal *nt = ctx;
    if (nt->nfwd == NETTERM_BATCH)
        flush_packets(nt);
    nt->fwd[nt->nfwd++] = *d;
}

/* This terminal's engine view of sample seq as VIEW packets: as many
 * schemes a part as WIRE_VIEW_ENTRIES holds of every car; over p2p the
 * parts to each other terminal, each with the MU packets sent to it (the
 * receiver counts its losses), over cs once for all (the server relays). */
static void send_view(NetTerminal *nt, int32_t seq, int64_t t_us)
{
    TerminalView v;
    if (!engine_local_view(nt->engine, nt->own, seq, &v))
        return;
    int per = WIRE_VIEW_ENTRIES / v.ncars;
    for (int first = 0; first < v.nschemes; first += per) {
        WirePacket p;
        memset(&p, 0, sizeof p);
        p.kind = WIRE_VIEW;
        WireView *w = &p.u.view;
        w->seq = seq;
        w->nschemes = v.nschemes;
        w->t_us = t_us;
        w->progress = v.progress;
        w->car = (uint8_t)nt->own;
        w->ncars = (uint8_t)v.ncars;
        w->first = (uint8_t)first;
        w->count = (uint8_t)(v.nschemes - first < per ? v.nschemes - first : per);
        for (int k = 0; k < w->count; k++)
            for (int c = 0; c < v.ncars; c++) {
                const ShownCar *sc = &v.car[(first + k) * v.ncars + c];
                w->e[k * v.ncars + c] = (WireViewCar){sc->x, sc->y, sc->seq};
            }
        if (nt->cfg.cs) {
            w->mu_sent = nt->mu_sent;
            nt->out->packet(nt->out->ctx, &p, t_us, -1);
            continue;
        }
        for (int j = 0; j < nt->ncars; j++)
            if (j != nt->own) {
                w->mu_sent = nt->mu_sent_to[j];
                nt->out->packet(nt->out->ctx, &p, t_us, j);
            }
    }
}

/* One own sample at race time t (the loop's sample hook): pushed to the
 * engine with the other cars on their grid slots (a remote car's pose is
 * not the engine's to know), its MUs on the wire, then its VIEW. */
static bool take_sample(void *ctx, int64_t t_us)
{
    NetTerminal *nt = ctx;
    int32_t seq = nt->next_seq;
    RecSample s;
    world_sample(&nt->world, 0, &s);
    s.t_ms = (int32_t)(t_us / 1000);
    if (nt->out->sample)
        nt->out->sample(nt->out->ctx, seq, &s);
    nt->last_own = (Pose){.x = s.x, .y = s.y, .heading = s.heading, .seq = seq};
    CarPose poses[ENGINE_MAX_CARS];
    memcpy(poses, nt->grid, sizeof poses);
    poses[nt->own] = (CarPose){.x = s.x, .y = s.y, .heading = s.heading, .speed = s.speed};
    engine_push(nt->engine, poses, nt->ncars, seq == 0 ? ENGINE_PUSH_NEW_HEAT : 0);
    engine_step_to(nt->engine, t_us);
    flush_packets(nt);
    send_view(nt, seq, t_us);
    nt->next_seq++;
    return nt->flow.phase != RF_DONE;
}

static bool control(void *ctx, const World *w, int car, int64_t t_us, CarInput *out)
{
    NetTerminal *nt = ctx;
    if (nt->cfg.ctl)
        controller_input(nt->cfg.ctl, w, car, out);
    else
        *out = nt->ext;
    CarInput c = car_input_clamp(*out); /* what world_step drives with */
    if (nt->out && nt->out->input && (!nt->have_said || memcmp(&c, &nt->said, sizeof c) != 0)) {
        nt->out->input(nt->out->ctx, t_us, &c);
        nt->said = c;
        nt->have_said = true;
    }
    return true;
}

void netterm_start(NetTerminal *nt, const NetTermOut *out)
{
    raceflow_go(&nt->flow, 0);
    raceflow_tick(&nt->flow, RACEFLOW_LIGHTS * RACEFLOW_LIGHT_US);
    nt->out = out;
    nt->started = true;
    take_sample(nt, 0);
    nt->out = NULL;
}

void netterm_advance(NetTerminal *nt, int64_t t_us, const NetTermOut *out)
{
    if (!nt->started)
        return;
    nt->out = out;
    if (nt->flow.phase != RF_DONE)
        raceloop_run(&nt->loop, t_us);
    engine_step_to(nt->engine, t_us);
    flush_packets(nt);
    nt->out = NULL;
}

/* A MU packet counter of sender `car` seen recently: a duplicate on the
 * real network is delivered to the schemes (as the emulator's) but counted
 * once. */
static bool seen_before(NetTerminal *nt, int car, uint32_t pkt)
{
    int n = nt->seen_n[car] < NETTERM_SEEN ? nt->seen_n[car] : NETTERM_SEEN;
    for (int i = 0; i < n; i++)
        if (nt->seen_pkt[car][i] == pkt)
            return true;
    nt->seen_pkt[car][nt->seen_n[car]++ % NETTERM_SEEN] = pkt;
    return false;
}

/* The assembly slot of terminal j's view of sample seq: the one holding
 * it, else a free one, else the oldest (its view is then given up, as a
 * lost one: ENGINE_VIEW_SKIP). */
static ViewAsm *view_slot(NetTerminal *nt, int j, int32_t seq)
{
    ViewAsm *a = nt->asm_view[j], *pick = NULL;
    for (int i = 0; i < NETTERM_ASSEMBLE; i++)
        if (a[i].seq == seq)
            return &a[i];
    for (int i = 0; i < NETTERM_ASSEMBLE; i++)
        if (!pick || a[i].seq < pick->seq)
            pick = &a[i];
    pick->seq = seq;
    pick->got = 0;
    return pick;
}

static void receive_view(NetTerminal *nt, const WireView *w)
{
    int j = w->car, n = nt->ncars;
    if (w->nschemes != nt->cfg.nschemes || w->ncars != n || j == nt->own || j >= n)
        return;
    if (w->seq > nt->peer_newest[j]) {
        nt->peer_newest[j] = w->seq;
        nt->peer_mu_sent[j] = w->mu_sent;
    }
    ViewAsm *a = view_slot(nt, j, w->seq);
    for (int k = 0; k < w->count; k++) {
        for (int c = 0; c < n; c++) {
            const WireViewCar *e = &w->e[k * n + c];
            a->car[(w->first + k) * n + c] = (ShownCar){e->x, e->y, e->seq};
        }
        a->got |= UINT32_C(1) << (w->first + k);
    }
    a->progress = w->progress;
    if (a->got != (UINT32_C(1) << w->nschemes) - 1)
        return; /* more parts to come */
    TerminalView v = {.seq = w->seq, .nschemes = w->nschemes, .ncars = n, .progress = a->progress, .car = a->car};
    engine_put_view(nt->engine, j, &v);
    a->seq = -1;
}

void netterm_receive(NetTerminal *nt, const WirePacket *p, int64_t arr_us)
{
    if (p->kind == WIRE_VIEW) {
        receive_view(nt, &p->u.view);
        return;
    }
    int from = p->u.mu.mu.car;
    if (p->kind != WIRE_MU || from == nt->own || from < 0 || from >= nt->ncars)
        return;
    if (!seen_before(nt, from, p->pkt_seq))
        nt->mu_received++;
    for (int k = 0; k < nt->cfg.nschemes; k++)
        if (p->u.mu.schemes & (UINT32_C(1) << k))
            engine_receive(nt->engine, k, from, nt->own, &p->u.mu.mu, arr_us);
}

void netterm_check(const NetTerminal *nt, int64_t now_us, WireCheck *chk)
{
    chk->ncars = nt->ncars;
    chk->own_car = nt->own;
    chk->nschemes = nt->cfg.nschemes;
    chk->now_us = now_us + nt->skew_us;
}

const Metrics *netterm_metrics(const NetTerminal *nt, int k)
{
    return engine_metrics(nt->engine, k);
}

const RaceFlow *netterm_flow(const NetTerminal *nt)
{
    return &nt->flow;
}

bool netterm_done(const NetTerminal *nt)
{
    return nt->flow.phase == RF_DONE;
}

int32_t netterm_sample_seq(const NetTerminal *nt)
{
    return nt->next_seq;
}

int64_t netterm_views_skipped(const NetTerminal *nt)
{
    return engine_views_skipped(nt->engine);
}

uint32_t netterm_mu_sent(const NetTerminal *nt)
{
    return nt->mu_sent;
}

uint32_t netterm_peer_mu_sent(const NetTerminal *nt)
{
    uint32_t sum = 0;
    for (int j = 0; j < nt->ncars; j++)
        sum += j == nt->own ? 0 : nt->peer_mu_sent[j];
    return sum;
}

int64_t netterm_mu_received(const NetTerminal *nt)
{
    return nt->mu_received;
}

/* At the engine's now: the latest own sample (or before any: nothing). */
void netterm_display(const NetTerminal *nt, int k, int car, Pose *out)
{
    engine_display(nt->engine, k, nt->own, car, out);
}

void netterm_pose(const NetTerminal *nt, Pose *out)
{
    const Car *c = &nt->world.car[0]; /* the solo world holds the own car only */
    out->x = c->x;
    out->y = c->y;
    out->heading = c->heading;
    out->seq = 0;
}

double netterm_speed(const NetTerminal *nt)
{
    return car_speed(&nt->world.car[0]);
}

const WorldContact *netterm_contact(const NetTerminal *nt)
{
    return world_contact(&nt->world, 0); /* the own car: the solo world's only one */
}

int netterm_car(const NetTerminal *nt)
{
    return nt->own;
}

int netterm_shown(const NetTerminal *nt)
{
    return nt->cfg.shown;
}

const Engine *netterm_engine(const NetTerminal *nt)
{
    return nt->engine;
}

/* Where scheme k shows the own car now: where the physics has it this step
 * when the scheme shows the latest own sample (most schemes), else what the
 * scheme shows (causality's local lag holds the own car back by Delta). */
void netterm_own_shown(const NetTerminal *nt, int k, Pose *out)
{
    Pose d;
    netterm_display(nt, k, nt->own, &d);
    if (d.x == nt->last_own.x && d.y == nt->last_own.y && d.heading == nt->last_own.heading)
        netterm_pose(nt, out);
    else
        *out = d;
}

void netterm_grid_pose(const NetTerminal *nt, int car, Pose *out)
{
    const CarPose *g = &nt->grid[car >= 0 && car < nt->ncars ? car : 0];
    *out = (Pose){.x = g->x, .y = g->y, .heading = g->heading, .seq = 0};
}

int netterm_car_count(const NetTerminal *nt)
{
    return nt->ncars;
}
