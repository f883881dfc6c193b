/* The session's race: every call the session state machine makes into the
 * race of one terminal (netterm.h) is here, plus the packets held
 * from the peer's future (netsession.h "Pause"). */
#include "netsession_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A packet of the race to the terminal of car `to` (a p2p race's peer of
 * that car), or to every peer (-1: a client's server). */
static void out_packet(void *ctx, WirePacket *p, int64_t send_us, int to)
{
    NetSession *s = ctx;
    if (to < 0 || s->npeers == 1)
        send_packet(s, p);
    else if (peer_of_car(s, to) >= 0)
        send_to(s, peer_of_car(s, to), p);
    if (p->kind == WIRE_MU && s->log_open && s->cfg.log.tx)
        s->cfg.log.tx(s->cfg.log.ctx, p, send_us, s->race_last, to);
}

static void out_sample(void *ctx, int32_t seq, const RecSample *smp)
{
    NetSession *s = ctx;
    if (s->log_open && s->cfg.log.own)
        s->cfg.log.own(s->cfg.log.ctx, seq, smp, s->race_last, s->now);
}

static void out_input(void *ctx, int64_t t_us, const CarInput *in)
{
    NetSession *s = ctx;
    if (s->log_open && s->cfg.log.input)
        s->cfg.log.input(s->cfg.log.ctx, t_us, in);
}

static NetTermOut race_out(NetSession *s)
{
    return (NetTermOut){s, out_packet, out_sample, out_input};
}

static bool log_open(NetSession *s, const NetTermConfig *nc, int car, NrError *err)
{
    const WireWelcome *w = &s->welcome;
    if (!s->cfg.log.open)
        return true;
    NetLogMeta m = {
        .role = s->cfg.host ? "host" : w->topology ? "client" : "joiner", .car = car + 1, .ncars = s->ncars,
        .topology = w->topology ? "cs" : "p2p", .server = w->topology ? (w->server ? "sync" : "relay") : "",
        .peer = s->peers[0].addr, .session_id = seal_session_id(s),
        .track_name = track_name(s->track), .track_file = s->cfg.host ? s->cfg.track_file : w->track_file,
        .track_bytes = w->track_bytes, .period_ms = w->period_ms, .laps = w->laps,
        .seconds = w->seconds_ms / 1000.0, .schemes = w->schemes, .shown = s->schemes[w->shown_scheme]->name,
        .params = nc->params, .seed = w->seed, .link = nc->link ? nc->link->text : "none",
        .raw_clock = s->cfg.raw_clock, .offset_true_us = s->cfg.offset_true_us,
        .drift_true_ppm = s->cfg.drift_true_ppm, .study_race = s->study.race,
        .study = s->cfg.host && s->study.race > 0 && s->study.name[0] ? &s->study : NULL,
    };
    for (int j = 0; j < WIRE_MAX_CARS; j++)
        m.line_link[j] = nc->pair_link[j] ? nc->pair_link[j]->text : NULL;
    if (!s->cfg.log.open(s->cfg.log.ctx, &m, err))
        return false;
    s->log_open = true;
    return true;
}

/* A line's name as `--link` gives it: "2-3", "2-s". */
static void line_name(int i, int j, char *buf, size_t n)
{
    char a[8], b[8];
    snprintf(a, sizeof a, i == LINKMATRIX_SERVER ? "s" : "%d", i + 1);
    snprintf(b, sizeof b, j == LINKMATRIX_SERVER ? "s" : "%d", j + 1);
    snprintf(buf, n, "%s-%s", a, b);
}

/* This terminal's lines (cfg.lines) once its car is known: over p2p the
 * lines out of its car to the race's others, a client's its uplink. */
static bool lines_setup(NetSession *s, NetTermConfig *nc, NrError *err)
{
    const LinkMatrix *m = s->cfg.lines;
    bool cs = s->welcome.topology == 1;
    for (int i = 0; m && i < LINKMATRIX_NODES; i++)
        for (int j = 0; j < LINKMATRIX_NODES; j++) {
            if (!m->set[i][j])
                continue;
            char name[16];
            line_name(i, j, name, sizeof name);
            if (i != s->own_car)
                return nr_error_set(err, "%s %s: this terminal drives car %d of %d: its lines are %d-%s", m->where[i][j],
                                    name, s->own_car + 1, s->ncars, s->own_car + 1, cs ? "s" : "J");
            if (cs ? j != LINKMATRIX_SERVER : j == LINKMATRIX_SERVER || j >= s->ncars)
                return nr_error_set(err, "%s %s: a %s race of %d cars has no such line (its lines: %d-%s)",
                                    m->where[i][j], name, cs ? "client-server" : "peer-to-peer", s->ncars,
                                    s->own_car + 1, cs ? "s" : "J, J another car");
            if (cs)
                nc->link = &m->spec[i][j];
            else
                nc->pair_link[j] = &m->spec[i][j];
        }
    return true;
}

/* The settings of WELCOME made real: schemes, track, controller, netterm,
 * the log. */
bool race_setup(NetSession *s, NrError *err)
{
    const WireWelcome *w = &s->welcome;
    s->nschemes = scheme_parse_list(w->schemes, s->schemes, SCHEME_MAX, err);
    if (s->nschemes < 1)
        return false;
    if (w->shown_scheme >= s->nschemes)
        return nr_error_set(err, "the host's shown scheme %d is not in its list", (int)w->shown_scheme);
    const char *text = s->cfg.host ? s->cfg.track_text : s->track_text;
    s->track = track_parse(text, s->cfg.host ? s->cfg.track_file : "the host's track", err);
    if (!s->track)
        return false;
    int car = s->own_car;
    if (!s->cfg.external_input && !s->cfg.make_controller(s->cfg.ctx, s->track, car, w->seed, &s->ctl, err))
        return false;
    s->held = malloc(sizeof *s->held * HELD_KEEP);
    if (!s->held)
        return nr_error_set(err, "out of memory");
    NetTermConfig nc;
    memset(&nc, 0, sizeof nc);
    nc.track = s->track;
    nc.car = car;
    nc.ncars = s->ncars;
    nc.cs = w->topology == 1;
    for (int k = 0; k < s->nschemes; k++)
        nc.schemes[k] = s->schemes[k];
    nc.nschemes = s->nschemes;
    nc.params = scheme_default_params();
    nc.params.delta_us = w->delta_us;
    nc.params.tdr_cw = w->tdr_cw;
    nc.params.converge_us = w->converge_us;
    nc.params.period_us = (int64_t)w->period_ms * NR_US_PER_MS;
    nc.shown = w->shown_scheme;
    nc.flow.laps = w->laps > 0 ? w->laps : 1;
    nc.flow.duration_us = w->seconds_ms > 0 ? (int64_t)w->seconds_ms * NR_US_PER_MS : 0;
    nc.ctl = s->cfg.external_input ? NULL : &s->ctl;
    nc.link = s->cfg.link;
    if (!lines_setup(s, &nc, err))
        return false;
    if (!s->cfg.host && s->welcome.peer_link[0]) { /* the host's word on this end's link (a study's condition) */
        NrError le = {{0}};
        if (!linkspec_parse(&s->peer_link, s->welcome.peer_link, NULL, &le))
            return nr_error_set(err, "the host's link for this terminal: %s", le.msg);
        s->have_peer_link = true;
        nc.link = &s->peer_link; /* over this terminal's own lines too: the condition is the host's */
        memset(nc.pair_link, 0, sizeof nc.pair_link);
    }
    s->emulates = nc.link != NULL;
    for (int j = 0; j < WIRE_MAX_CARS; j++)
        s->emulates = s->emulates || nc.pair_link[j] != NULL;
    nc.seed = w->seed;
    nc.lagometer = s->cfg.lagometer;
    s->np = netterm_new(&nc, err);
    if (!s->np)
        return false;
    netterm_set_input(s->np, &s->input);
    s->chk.nschemes = s->nschemes;
    return log_open(s, &nc, car, err);
}

void race_free(NetSession *s)
{
    netterm_free(s->np);
    s->np = NULL;
    if (s->have_peer_link)
        linkspec_free(&s->peer_link);
    s->have_peer_link = false;
    free(s->held);
    s->held = NULL;
}

/* Race time 0: the terminal starts on the grid and takes sample 0. */
void race_begin(NetSession *s, int64_t l)
{
    s->phase = PH_RACE;
    for (int i = 0; i < s->npeers; i++)
        s->peers[i].last_heard = l;
    s->race_last = 0;
    if (s->cfg.server)
        return;
    netterm_set_skew(s->np, s->cfg.raw_clock ? l - sync_at(s, l) : 0);
    NetTermOut o = race_out(s);
    netterm_start(s->np, &o);
}

static void deliver_now(NetSession *s, const WirePacket *p, int64_t arr_local, int64_t arr_race, int64_t send_race,
                        int bytes)
{
    /* MUs are delivered at strictly increasing race times, 1 us apart at
     * least: two the race clock puts at one instant (a clock correction,
     * held packets) reach the schemes in the order the log then gives a
     * replay, which orders equal times its own way */
    if (p->kind == WIRE_MU) {
        if (arr_race <= s->last_mu_arr)
            arr_race = s->last_mu_arr + 1;
        /* read after the race went past its stamp (a tick came first): the
         * samples up to race_last are taken, so it is delivered after them,
         * as the log then says and a replay does */
        if (arr_race <= s->race_last)
            arr_race = s->race_last + 1;
        s->last_mu_arr = arr_race;
    }
    if (s->log_open && s->cfg.log.rx)
        s->cfg.log.rx(s->cfg.log.ctx, p, arr_local, arr_race, send_race, bytes);
    /* a delivery at the instant of a sample comes before it (netterm.h) */
    if (arr_race - 1 > s->race_last) {
        NetTermOut o = race_out(s);
        s->race_last = arr_race - 1;
        netterm_advance(s->np, arr_race - 1, &o);
    }
    netterm_receive(s->np, p, arr_race > 0 ? arr_race : 0);
}

/* Physics, controls and samples up to race time `race`, with the held
 * packets delivered at their send times on the way. */
void race_advance(NetSession *s, int64_t race)
{
    if (s->cfg.server) {
        serve_advance(s, race);
        return;
    }
    int done = 0;
    while (done < s->nheld && s->held[done].release_after < race) {
        Held *h = &s->held[done++];
        deliver_now(s, &h->p, h->arr_local, h->arr_race, h->send_race, h->bytes);
    }
    if (done > 0) {
        s->nheld -= done;
        memmove(s->held, s->held + done, sizeof *s->held * (size_t)s->nheld);
    }
    if (race > s->race_last) {
        NetTermOut o = race_out(s);
        s->race_last = race;
        netterm_advance(s->np, race, &o);
    }
}

/* A received MU or VIEW, delivered at its arrival's race time. In a pause
 * (and until what it held is out) it is held instead (docs/netplay.md
 * "Pause"): from the peer's future (an end walking to the pause point)
 * until this end has taken its own sample of the send instant, then
 * delivered 1 us after it, as a replay over a 1 us delay does; at an end
 * standing at the point, until race time moves on, then delivered at the
 * point. So is a packet sent at a race time this end has not reached for
 * want of a pause (the clocks' error larger than the delay, on loopback).
 * Held packets go in order of release and send time, as a replay
 * delivers packets due at one instant, whatever order the network gave
 * them. So the delay the log keeps is the one the schemes saw. */
void race_deliver(NetSession *s, const WirePacket *p, int64_t arr_local, int bytes)
{
    int64_t send_race = p->kind == WIRE_MU ? (int64_t)p->u.mu.mu.seq * WORLD_SAMPLE_US : p->u.view.t_us;
    int64_t arr_race = race_at(s, arr_local);
    bool future = send_race >= arr_race; /* the peer's future: a pause, or clock error beyond the delay */
    if ((s->nheld > 0 || s->paused || future) && s->nheld < HELD_KEEP) {
        Held h = {*p, arr_local, send_race, future ? send_race + 1 : arr_race, future ? send_race : arr_race, bytes};
        int at = s->nheld;
        while (at > 0 && (s->held[at - 1].release_after > h.release_after ||
                          (s->held[at - 1].release_after == h.release_after && s->held[at - 1].send_race > send_race)))
            at--;
        memmove(s->held + at + 1, s->held + at, sizeof *s->held * (size_t)(s->nheld - at));
        s->held[at] = h;
        s->nheld++;
        return;
    }
    deliver_now(s, p, arr_local, arr_race, send_race, bytes);
}

void race_check(NetSession *s, int64_t l)
{
    if (s->np)
        netterm_check(s->np, s->have_start ? race_at(s, l) : 0, &s->chk);
    else /* a server: its clock is race time */
        s->chk.now_us = s->have_start ? race_at(s, l) : 0;
}

bool race_done(const NetSession *s)
{
    return netterm_done(s->np);
}

/* Every sample both ends took (peer_samples at the peer) is in the live
 * metrics: the peer's views of them have all arrived. */
bool race_paired(const NetSession *s, int64_t peer_samples)
{
    int64_t own = netterm_sample_seq(s->np), both = own < peer_samples ? own : peer_samples;
    return netterm_metrics(s->np, 0)->samples >= both;
}

/* Race time of the next own sample. */
int64_t race_next_sample(const NetSession *s)
{
    return (int64_t)netterm_sample_seq(s->np) * WORLD_SAMPLE_US;
}

void race_log_metrics(NetSession *s)
{
    if (!s->np || !s->log_open || !s->cfg.log.metrics)
        return;
    for (int k = 0; k < s->nschemes; k++)
        s->cfg.log.metrics(s->cfg.log.ctx, s->schemes[k]->name, netterm_metrics(s->np, k), s->own_car);
}

void netsession_set_input(NetSession *s, const CarInput *in)
{
    s->input = *in;
    if (s->np)
        netterm_set_input(s->np, in);
}

struct NetTerminal *netsession_netterm(NetSession *s)
{
    return s->np;
}
