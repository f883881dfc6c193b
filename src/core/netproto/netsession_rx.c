/* The session state machine's receiving half: one datagram decoded,
 * checked against the handshake and the peer, and acted on (netsession.h;
 * reject reasons in docs/wire.md). */
#include "netsession_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *reject_name(int r)
{
    static const char *const ours[] = {"address", "busy", "range", "auth", "replay", "unsealed", "cookie"};
    return r >= REJECT_ADDRESS && r < REJECT_REASONS ? ours[r - REJECT_ADDRESS] : wire_result_name((WireResult)r);
}

int64_t netsession_rejected(const NetSession *s, const char *reason)
{
    if (!reason)
        return s->rejected_total;
    for (int r = 1; r < REJECT_REASONS; r++)
        if (strcmp(reject_name(r), reason) == 0)
            return s->rejected[r];
    return 0;
}

void reject(NetSession *s, int reason)
{
    s->rejected[reason]++;
    s->rejected_total++;
}

/* WELCOME (peer i's car, its HELLO's nonce) and the track in chunks. */
static void send_welcome(NetSession *s, int i)
{
    WirePacket p;
    memset(&p, 0, sizeof p);
    p.kind = WIRE_WELCOME;
    p.u.welcome = s->welcome;
    p.u.welcome.car = s->peers[i].car;
    p.u.welcome.nonce = s->peers[i].nonce;
    send_to(s, i, &p);
    uint32_t total = s->welcome.track_bytes;
    for (uint32_t off = 0; off < total; off += WIRE_TRACK_CHUNK) {
        wire_chunk(&p, WIRE_TRACK, s->cfg.track_text, total, off);
        send_to(s, i, &p);
    }
    study_send_questions(s, i);
}

/* Every seat taken: the race is set up and the clients synchronise. */
static void seats_full(NetSession *s)
{
    if (study_rate_only(s))
        return;
    NrError err = {{0}};
    if (!(s->cfg.server ? serve_setup(s, &err) : race_setup(s, &err))) {
        session_fail(s, NULL, NULL, err.msg);
        return;
    }
    s->phase = PH_SYNC;
    s->sync_deadline = s->now + s->to.give_up_us;
}

/* A sealed HELLO (the sender has the code; seal_open made it peer `at`,
 * a new one past the seated when not yet seated). 1 taken, 0 refused
 * (counted). Once over, nothing is answered and no seat is offered. */
static int on_hello(NetSession *s, const WirePacket *p, const NetAddr *from, int at)
{
    if (at < s->npeers) { /* a seated joiner repeating itself */
        if (p->u.hello.nonce != s->peers[at].nonce) {
            reject(s, REJECT_BUSY);
            return 0;
        }
        if (s->phase != PH_OVER) /* once over, nothing is answered */
            send_welcome(s, at);
        return 1;
    }
    if (s->cfg.have_allow && from->host != s->cfg.allow.host) {
        reject(s, REJECT_ADDRESS);
        return 0;
    }
    if (s->phase == PH_OVER) { /* once over, the seat is not offered */
        reject(s, REJECT_BUSY);
        return 0;
    }
    NetPeer *np = &s->peers[s->npeers++];
    np->car = s->cfg.server ? at : at + 1;
    np->last_heard = s->now;
    char who[64], msg[240];
    netaddr_text(from, who, sizeof who);
    snprintf(msg, sizeof msg, "%s (%s) joined: car %d, %d of %d seats", who, p->u.hello.name, np->car + 1, s->npeers,
             s->seats);
    session_say(s, NETSESSION_EV_JOINED, msg);
    send_welcome(s, at);
    if (s->npeers == s->seats)
        seats_full(s);
    return 1;
}

/* The joiner: WELCOME and TRACK chunks until the whole track is here. */
static bool on_setup(NetSession *s, const WirePacket *p, NrError *err)
{
    if (p->kind == WIRE_WELCOME && !s->track_text) {
        const WireWelcome *w = &p->u.welcome;
        if (w->nonce != s->nonce || (w->topology == 0 && w->car == 0)) /* car 0 is a p2p race's host */
            return true;
        s->welcome = *w;
        s->peers[0].car = w->topology == 0 ? 0 : -1; /* the host drives car 0; a server none */
        study_welcomed(s);
        s->ncars = s->chk.ncars = w->ncars;
        s->own_car = s->chk.own_car = w->car;
        s->track_text = calloc((size_t)s->welcome.track_bytes + 1, 1);
        s->chunk_seen = calloc((size_t)s->welcome.track_bytes / WIRE_TRACK_CHUNK + 1, 1);
        if (!s->track_text || !s->chunk_seen)
            return nr_error_set(err, "out of memory for the host's track (%u bytes)", s->welcome.track_bytes);
    } else if (p->kind == WIRE_TRACK && s->track_text) {
        const WireTrack *t = &p->u.track;
        if (t->total != s->welcome.track_bytes || t->offset % WIRE_TRACK_CHUNK != 0)
            return true;
        uint32_t i = t->offset / WIRE_TRACK_CHUNK;
        if (s->chunk_seen[i] || t->n != wire_chunk_bytes(t->total, t->offset))
            return true;
        memcpy(s->track_text + t->offset, t->data, t->n);
        s->chunk_seen[i] = 1;
        s->track_got += t->n;
    }
    if (s->track_text && s->track_got == s->welcome.track_bytes && s->phase == PH_HANDSHAKE &&
        study_questions_here(s)) {
        if (study_rate_only(s))
            return true;
        if (!race_setup(s, err))
            return false;
        s->phase = PH_SYNC;
        s->sync_deadline = s->now + s->to.give_up_us;
    }
    return true;
}

static void on_sync(NetSession *s, int from, const WirePacket *p, int64_t arr_local)
{
    if (p->kind == WIRE_SYNC_REQ) {
        WirePacket r;
        memset(&r, 0, sizeof r);
        r.kind = WIRE_SYNC_RESP;
        r.u.sync = p->u.sync;
        r.u.sync.t2_us = arr_local;
        r.u.sync.t3_us = s->now > arr_local ? s->now : arr_local;
        send_to(s, from, &r);
        return;
    }
    const WireSync *y = &p->u.sync; /* an answer to a probe of ours: range_ok */
    if (!clocksync_add(&s->cs, y->t1_us, y->t2_us, y->t3_us, arr_local))
        return;
    int64_t rtt = (arr_local - y->t1_us) - (y->t3_us - y->t2_us);
    s->rtt[s->nrtt++ % RTT_KEEP] = rtt;
    int64_t off = ((y->t2_us - y->t1_us) + (y->t3_us - arr_local)) / 2;
    if (s->cfg.log.clock)
        s->cfg.log.clock(s->cfg.log.ctx, arr_local, clocksync_offset(&s->cs, arr_local),
                         clocksync_error_bound(&s->cs, arr_local), clocksync_rtt(&s->cs), clocksync_drift_ppm(&s->cs),
                         off, rtt);
}

/* The countdown's lights come on at synchronised instant `lights`; race
 * time 0 is RACEFLOW_LIGHTS seconds later. */
void schedule_start(NetSession *s, int64_t lights)
{
    s->start_sync = lights + RACEFLOW_LIGHTS * RACEFLOW_LIGHT_US;
    s->have_start = true;
    s->phase = PH_COUNTDOWN;
    char d[32];
    snprintf(d, sizeof d, "%lld", (long long)s->start_sync);
    session_event(s, "start", d);
}

static void on_control(NetSession *s, int from, const WireControl *c)
{
    NetPeer *np = &s->peers[from];
    if (!s->cfg.host && from != 0 && (c->code == WIRE_START || c->code == WIRE_RESUME || c->code == WIRE_FULL))
        return; /* the host's words: another joiner of a p2p race does not say them */
    switch (c->code) {
    case WIRE_READY:
        if (!s->cfg.host)
            break;
        np->ready = true;
        if (s->cfg.host && !s->have_start && s->phase == PH_SYNC && PEERS_ALL(s, ready) && !s->study_rest)
            schedule_start(s, s->now + s->to.start_lead_us); /* (a study's host player resting: when it is done) */
        break;
    case WIRE_START:
        if (!s->cfg.host && !s->have_start && s->phase == PH_SYNC)
            schedule_start(s, c->arg_us);
        break;
    case WIRE_PAUSE:
        pause_heard(s, from, c->arg_us);
        break;
    case WIRE_RESUME:
        resume_heard(s, c->arg_us);
        break;
    case WIRE_FINISH:
        np->finished = true;
        np->finish_race = c->arg_us;
        if (!s->have_peer_finish || c->arg_us < s->peer_finish_race)
            s->peer_finish_race = c->arg_us; /* the earliest of every peer's */
        s->have_peer_finish = true;
        s->peer_finished = PEERS_ALL(s, finished);
        break;
    case WIRE_BYE:
        if (!s->cfg.host && s->phase == PH_HANDSHAKE && from == 0) { /* an ended race's answer to a HELLO */
            char who[64], msg[240];
            netaddr_text(&np->addr, who, sizeof who);
            snprintf(msg, sizeof msg, "the race at %s ended before this terminal had joined it", who);
            session_fail(s, NULL, NULL, msg);
            break;
        }
        np->bye = true;
        s->peer_bye = true;
        break;
    case WIRE_FULL:
        if (!s->cfg.host && s->phase == PH_HANDSHAKE) {
            char who[64], msg[240];
            netaddr_text(&np->addr, who, sizeof who);
            snprintf(msg, sizeof msg, "the race at %s is full: its %lld seats are taken", who, (long long)c->arg_us);
            session_fail(s, NULL, NULL, msg);
        }
        break;
    default:
        break;
    }
}

/* Decoded, or a reject reason. The joiner learns the token from the host's
 * first packet: in clear, only from WELCOME, the answer to its HELLO (its
 * nonce echoed); sealed, from any (it opened: the host's), since on a
 * jittery link the clock probes and track chunks sent just after WELCOME
 * can overtake it (a chunk before WELCOME is taken and unused: the next
 * HELLO brings it again). */
static int decode(NetSession *s, const NetAddr *from, const uint8_t *buf, int n, WirePacket *p)
{
    if (n <= 0)
        return WIRE_SHORT; /* an empty datagram */
    if (s->np || s->cfg.server)
        race_check(s, s->now);
    WireCheck chk = s->chk;
    if (!s->cfg.host && s->token == 0 && n >= WIRE_HEADER_BYTES && netaddr_equal(from, &s->peers[0].addr))
        for (int i = 0; i < 8; i++)
            chk.token |= (uint64_t)buf[8 + i] << (8 * i);
    WireResult r = wire_decode(buf, (size_t)n, &chk, p);
    if (r == WIRE_OK && s->token == 0 && !s->cfg.host) {
        bool welcome = p->kind == WIRE_WELCOME && p->u.welcome.nonce == s->nonce;
        if (p->kind == WIRE_CONTROL && (p->u.control.code == WIRE_FULL || p->u.control.code == WIRE_BYE))
            return WIRE_OK; /* sealed with this joiner's link: the host's word (its token not taken) */
        if (!welcome && (!s->cfg.code || p->kind == WIRE_WELCOME))
            return WIRE_BAD_TOKEN;
        s->token = s->chk.token = p->token;
    }
    return r;
}

/* An accepted MU or VIEW in the race. */
static void race_packet(NetSession *s, int from, const WirePacket *p, const uint8_t *buf, int n, int64_t l)
{
    if (s->phase == PH_COUNTDOWN)
        race_begin(s, l); /* the peer's start came first: ours is due */
    if (s->phase >= PH_RACE)
        s->peers[from].racing = true;
    if (s->cfg.server) {
        if (s->phase >= PH_RACE)
            serve_receive(s, from, p, buf, n, l);
        return;
    }
    if (s->phase >= PH_RACE && s->np) {
        race_deliver(s, p, l, n); /* logged there, perhaps held */
        return;
    }
    s->peers[from].racing = s->peers[from].racing || s->cfg.host; /* the joiner is past the start */
    if (s->cfg.log.rx && s->log_open)
        s->cfg.log.rx(s->cfg.log.ctx, p, l, s->have_start ? race_at(s, l) : INT64_MIN, INT64_MIN, n);
}

/* A HELLO that decoded (only a host's decoder takes one): the seat, or
 * its seated joiner repeating itself. */
static void receive_hello(NetSession *s, int64_t l, const NetAddr *from, const WirePacket *p, int at)
{
    if (!s->cfg.code)
        at = at >= 0 ? at : s->npeers < s->seats ? s->npeers : -1;
    if (at < 0 || at > s->npeers || (at == s->npeers && s->npeers == s->seats)) {
        reject(s, REJECT_BUSY);
        return;
    }
    if (at == s->npeers && !s->cfg.code) /* in clear (tests): no cookie to prove the address */
        s->peers[at] = (NetPeer){.addr = *from, .car = -1, .nonce = p->u.hello.nonce, .proven = true};
    if (on_hello(s, p, from, at) == 1) {
        s->received++;
        s->peers[at].last_heard = l;
    }
}

/* An MU or VIEW of car c comes from car c's own address: a host's or a
 * p2p joiner's peers and a server's clients each send their own car's
 * alone (a client of a server hears every car from the server). */
static bool origin_ok(const NetSession *s, int at, const WirePacket *p)
{
    if ((p->kind != WIRE_MU && p->kind != WIRE_VIEW) || (!s->cfg.host && s->welcome.topology == 1))
        return true;
    return (p->kind == WIRE_MU ? p->u.mu.mu.car : (int32_t)p->u.view.car) == s->peers[at].car;
}

/* The kinds of a p2p race of N alone: the introduction and the pairs'
 * steps (netsession_p2p.c). */
static bool p2p_kind(const WirePacket *p)
{
    return p->kind == WIRE_PEERS || p->kind == WIRE_PEER ||
           (p->kind == WIRE_CONTROL && p->u.control.code == WIRE_INTRODUCED);
}

void session_receive(NetSession *s, int64_t l, const NetAddr *from, const uint8_t *buf, int n)
{
    uint8_t inner[WIRE_MAX_BYTES + WIRECRYPT_OVERHEAD];
    int at = peer_find(s, from);
    if (s->cfg.code) { /* only sealed datagrams, but the handshake's two */
        int r = seal_open(s, l, from, buf, n, inner, &n, &at);
        if (r > 0)
            reject(s, r);
        if (r != 0)
            return;
        buf = inner;
    }
    WirePacket p;
    int r = decode(s, from, buf, n, &p);
    if (r == WIRE_OK && p.kind == WIRE_HELLO) {
        receive_hello(s, l, from, &p, at);
        return;
    }
    if (r == WIRE_OK && (at < 0 || at >= s->npeers || !origin_ok(s, at, &p)))
        r = REJECT_ADDRESS;
    if (r == WIRE_OK && !range_ok(s, &p, l))
        r = REJECT_RANGE;
    if (r == WIRE_OK && p2p_kind(&p) && s->phase != PH_OVER)
        r = p2p_receive(s, at, &p);
    if (r != WIRE_OK) {
        reject(s, r);
        return;
    }
    s->received++;
    s->peers[at].last_heard = l;
    if (s->phase == PH_OVER)
        return; /* counted, too late to act on */
    if (p.kind == WIRE_MU || p.kind == WIRE_VIEW) {
        race_packet(s, at, &p, buf, n, l);
        return;
    }
    if (s->cfg.log.rx && s->log_open) {
        int64_t send_race = INT64_MIN;
        if (p.kind == WIRE_SYNC_RESP && !s->cfg.host && s->have_start)
            send_race = p.u.sync.t3_us - s->start_sync;
        s->cfg.log.rx(s->cfg.log.ctx, &p, l, s->have_start ? race_at(s, l) : INT64_MIN, send_race, n);
    }
    if (p2p_kind(&p))
        return;
    NrError err = {{0}};
    switch (p.kind) {
    case WIRE_STUDY: /* a joiner's last question completes its setup */
        study_receive(s, &p.u.study);
        /* fall through */
    case WIRE_WELCOME:
    case WIRE_TRACK:
        if (!s->cfg.host && !on_setup(s, &p, &err)) { /* the host hears it at once, not at its deadline */
            send_control(s, WIRE_BYE, 0);
            session_fail(s, NULL, NULL, err.msg);
        }
        break;
    case WIRE_LOG: /* a study race's joiner log (the host's) */
        study_log_chunk(s, &p.u.track);
        break;
    case WIRE_SYNC_REQ:
    case WIRE_SYNC_RESP:
        on_sync(s, at, &p, l);
        break;
    case WIRE_CONTROL:
        on_control(s, at, &p.u.control);
        break;
    default:
        break;
    }
}
