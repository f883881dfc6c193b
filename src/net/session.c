/* One terminal's network session: socket, handshake, clock sync, start,
 * race, faults and the terminal log (session.h). */
#include "session_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void send_packet(Session *s, WirePacket *p)
{
    p->token = p->kind == WIRE_HELLO ? 0 : s->token;
    p->pkt_seq = s->pkt_seq++;
    uint8_t buf[WIRE_MAX_BYTES];
    size_t n = wire_encode(p, buf, sizeof buf);
    if (n > 0 && s->have_peer)
        netudp_send(s->sock, &s->peer, buf, (int)n);
}

static void send_control(Session *s, int code, int64_t arg)
{
    WirePacket p;
    memset(&p, 0, sizeof p);
    p.kind = WIRE_CONTROL;
    p.u.control.code = code;
    p.u.control.arg_us = arg;
    send_packet(s, &p);
}

static void event(Session *s, const char *what, const char *detail)
{
    int64_t l = local_now(s);
    netlog_event(s->log, l, s->have_start ? race_at(s, l) : INT64_MIN, what, detail);
}

static void say(Session *s, const char *what)
{
    fprintf(stderr, "netrace %s: %s\n", s->cfg.cmd, what);
}

Session *session_new(const SessionConfig *cfg, NrError *err)
{
    Session *s = calloc(1, sizeof *s);
    if (!s) {
        nr_error_set(err, "out of memory");
        return NULL;
    }
    s->cfg = *cfg;
    netclock_init(&s->clock, cfg->clock_offset_us, cfg->clock_drift_ppm);
    clocksync_init(&s->cs);
    /* The token and nonce must not be guessable from outside: seeded from
     * the monotonic clock, the wall clock and the process id. */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    rng_seed(&s->rng, rng_hash((uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20), (uint64_t)getpid()),
             (uint64_t)s->clock.origin_ns);
    s->nonce = rng_u64(&s->rng) | 1;
    if (!net_init(err)) {
        free(s);
        return NULL;
    }
    s->sock = netudp_open(cfg->host ? cfg->port : cfg->port, err);
    if (!s->sock) {
        net_quit();
        free(s);
        return NULL;
    }
    if (cfg->host && cfg->allow) {
        if (!netudp_resolve(cfg->allow, 0, &s->allow, err)) {
            session_free(s);
            return NULL;
        }
        s->have_allow = true;
    }
    if (!cfg->host) {
        if (!netudp_resolve(cfg->peer, cfg->peer_port, &s->peer, err)) {
            session_free(s);
            return NULL;
        }
        s->have_peer = true;
    } else {
        WireWelcome *w = &s->welcome;
        w->car = 1;
        w->ncars = 2;
        w->period_ms = (int32_t)(WORLD_SAMPLE_US / 1000);
        w->laps = cfg->laps;
        w->seconds_ms = (int32_t)cfg->seconds_ms;
        w->shown_scheme = cfg->shown;
        w->track_bytes = (uint32_t)strlen(cfg->track_text);
        w->delta_us = cfg->params.delta_us;
        w->tdr_cw = cfg->params.tdr_cw;
        w->converge_us = cfg->params.converge_us;
        w->seed = cfg->seed;
        snprintf(w->schemes, sizeof w->schemes, "%s", cfg->schemes);
        s->token = rng_u64(&s->rng) | 1;
    }
    s->chk.accept_hello = cfg->host;
    s->chk.token = s->token;
    s->chk.ncars = 2;
    s->chk.own_car = cfg->host ? 0 : 1;
    s->chk.nschemes = 1;
    return s;
}

void session_free(Session *s)
{
    if (!s)
        return;
    NrError err = {{0}};
    netlog_close(s->log, &err);
    netterm_free(s->np);
    track_free(s->track);
    free(s->track_text);
    free(s->chunk_seen);
    if (s->sock) {
        netudp_close(s->sock);
        net_quit();
    }
    free(s);
}

uint16_t session_port(const Session *s)
{
    return netudp_port(s->sock);
}

const char *session_error(const Session *s)
{
    return s->err;
}

/* ---- the race ------------------------------------------------------------- */

static void out_packet(void *ctx, WirePacket *p, int64_t send_us)
{
    Session *s = ctx;
    send_packet(s, p);
    if (p->kind == WIRE_MU)
        netlog_tx(s->log, p, send_us, race_at(s, local_now(s)));
}

static void out_sample(void *ctx, int32_t seq, const RecSample *smp)
{
    Session *s = ctx;
    int64_t l = local_now(s);
    netlog_own(s->log, seq, smp, race_at(s, l), l);
}

static NetTermOut race_out(Session *s)
{
    return (NetTermOut){s, out_packet, out_sample};
}

/* The settings of WELCOME made real: schemes, track, controller, netterm,
 * the log. */
static bool setup_race(Session *s, NrError *err)
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
    int car = s->cfg.host ? 0 : w->car;
    if (!s->cfg.external_input && !s->cfg.make_controller(s->cfg.ctx, s->track, car, w->seed, &s->ctl, err))
        return false;
    NetTermConfig nc;
    memset(&nc, 0, sizeof nc);
    nc.track = s->track;
    nc.car = car;
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
    nc.seed = w->seed;
    s->np = netterm_new(&nc, err);
    if (!s->np)
        return false;
    netterm_set_input(s->np, &s->input);
    s->chk.nschemes = s->nschemes;
    if (s->cfg.log_path) {
        NetLogMeta m = {
            .role = s->cfg.host ? "host" : "joiner", .car = car + 1, .peer = s->peer, .token = s->token,
            .track_name = track_name(s->track), .track_file = s->cfg.host ? s->cfg.track_file : "",
            .track_bytes = w->track_bytes, .period_ms = w->period_ms, .laps = w->laps,
            .seconds = w->seconds_ms / 1000.0, .schemes = w->schemes, .shown = s->schemes[w->shown_scheme]->name,
            .params = nc.params, .seed = w->seed, .link = s->cfg.link ? s->cfg.link->text : "none",
            .raw_clock = s->cfg.raw_clock, .offset_true_us = s->cfg.clock_offset_us,
            .drift_true_ppm = s->cfg.clock_drift_ppm,
        };
        s->log = netlog_open(s->cfg.log_path, &m, err);
        if (!s->log)
            return false;
    }
    return true;
}

/* Race time 0: the terminal starts on the grid and takes sample 0. */
static void begin_race(Session *s, int64_t l)
{
    s->phase = PH_RACE;
    s->last_heard_local = l;
    netterm_set_skew(s->np, s->cfg.raw_clock ? l - sync_at(s, l) : 0);
    NetTermOut o = race_out(s);
    netterm_start(s->np, &o);
}

/* ---- receiving ------------------------------------------------------------ */

static void reject(Session *s, int reason)
{
    s->rejected[reason]++;
    s->rejected_total++;
}

static void send_welcome(Session *s)
{
    WirePacket p;
    memset(&p, 0, sizeof p);
    p.kind = WIRE_WELCOME;
    p.u.welcome = s->welcome;
    send_packet(s, &p);
    uint32_t total = s->welcome.track_bytes;
    for (uint32_t off = 0; off < total; off += WIRE_TRACK_CHUNK) {
        memset(&p, 0, sizeof p);
        p.kind = WIRE_TRACK;
        p.u.track.offset = off;
        p.u.track.total = total;
        p.u.track.n = total - off < WIRE_TRACK_CHUNK ? total - off : WIRE_TRACK_CHUNK;
        memcpy(p.u.track.data, s->cfg.track_text + off, p.u.track.n);
        send_packet(s, &p);
    }
}

/* 1 taken, 0 refused (counted), -1 the race cannot be set up (err). */
static int on_hello(Session *s, const WirePacket *p, const NetAddr *from, NrError *err)
{
    if (s->have_peer) { /* the joiner repeating itself, or someone else */
        if (netaddr_equal(from, &s->peer) && p->u.hello.nonce == s->welcome.nonce) {
            send_welcome(s);
            return 1;
        }
        reject(s, REJECT_BUSY);
        return 0;
    }
    if (s->have_allow && from->host != s->allow.host) {
        reject(s, REJECT_ADDRESS);
        return 0;
    }
    s->peer = *from;
    s->have_peer = true;
    s->welcome.nonce = p->u.hello.nonce;
    char who[64];
    netaddr_text(from, who, sizeof who);
    char msg[160];
    snprintf(msg, sizeof msg, "%s (%s) joined", who, p->u.hello.name);
    say(s, msg);
    if (!setup_race(s, err))
        return -1;
    send_welcome(s);
    s->phase = PH_SYNC;
    return 1;
}

/* The joiner: WELCOME and TRACK chunks until the whole track is here. */
static bool on_setup(Session *s, const WirePacket *p, NrError *err)
{
    if (p->kind == WIRE_WELCOME && !s->track_text) {
        if (p->u.welcome.nonce != s->nonce || p->u.welcome.car != 1)
            return true;
        s->welcome = p->u.welcome;
        s->track_text = calloc((size_t)s->welcome.track_bytes + 1, 1);
        s->chunk_seen = calloc((size_t)s->welcome.track_bytes / WIRE_TRACK_CHUNK + 1, 1);
        if (!s->track_text || !s->chunk_seen)
            return nr_error_set(err, "out of memory for the host's track (%u bytes)", s->welcome.track_bytes);
    } else if (p->kind == WIRE_TRACK && s->track_text) {
        const WireTrack *t = &p->u.track;
        if (t->total != s->welcome.track_bytes || t->offset % WIRE_TRACK_CHUNK != 0)
            return true;
        uint32_t i = t->offset / WIRE_TRACK_CHUNK;
        uint32_t want = t->total - t->offset < WIRE_TRACK_CHUNK ? t->total - t->offset : WIRE_TRACK_CHUNK;
        if (s->chunk_seen[i] || t->n != want)
            return true;
        memcpy(s->track_text + t->offset, t->data, t->n);
        s->chunk_seen[i] = 1;
        s->track_got += t->n;
    }
    if (s->track_text && s->track_got == s->welcome.track_bytes && s->phase == PH_HANDSHAKE) {
        if (!setup_race(s, err))
            return false;
        s->phase = PH_SYNC;
    }
    return true;
}

static void on_sync(Session *s, const WirePacket *p, int64_t arr_local)
{
    if (p->kind == WIRE_SYNC_REQ) {
        WirePacket r;
        memset(&r, 0, sizeof r);
        r.kind = WIRE_SYNC_RESP;
        r.u.sync = p->u.sync;
        r.u.sync.t2_us = arr_local;
        r.u.sync.t3_us = local_now(s);
        if (r.u.sync.t3_us < r.u.sync.t2_us)
            r.u.sync.t3_us = r.u.sync.t2_us;
        send_packet(s, &r);
        return;
    }
    const WireSync *y = &p->u.sync;
    if (y->id == 0 || y->id > s->probe_id)
        return; /* never asked */
    if (!clocksync_add(&s->cs, y->t1_us, y->t2_us, y->t3_us, arr_local))
        return;
    int64_t rtt = (arr_local - y->t1_us) - (y->t3_us - y->t2_us);
    s->rtt[s->nrtt++ % RTT_KEEP] = rtt;
    int64_t off = ((y->t2_us - y->t1_us) + (y->t3_us - arr_local)) / 2;
    netlog_clock(s->log, arr_local, clocksync_offset(&s->cs, arr_local), clocksync_error_bound(&s->cs, arr_local),
                 clocksync_rtt(&s->cs), clocksync_drift_ppm(&s->cs), off, rtt);
}

/* The countdown's lights come on at synchronised instant `lights`; race
 * time 0 is RACEFLOW_LIGHTS seconds later. */
static void schedule_start(Session *s, int64_t lights)
{
    s->start_sync = lights + RACEFLOW_LIGHTS * RACEFLOW_LIGHT_US;
    s->have_start = true;
    s->phase = PH_COUNTDOWN;
    char d[32];
    snprintf(d, sizeof d, "%lld", (long long)s->start_sync);
    event(s, "start", d);
}

static void on_control(Session *s, const WireControl *c)
{
    switch (c->code) {
    case WIRE_READY:
        if (s->cfg.host && !s->have_start && s->phase == PH_SYNC)
            schedule_start(s, local_now(s) + SESSION_START_LEAD_US);
        break;
    case WIRE_START:
        if (!s->cfg.host && !s->have_start && s->phase == PH_SYNC)
            schedule_start(s, c->arg_us);
        break;
    case WIRE_PAUSE:
        if (!s->cfg.host && s->phase == PH_RACE && !s->host_paused) {
            if (!s->paused)
                s->pauses++;
            s->paused = s->host_paused = true;
            s->paused_race = race_at(s, local_now(s));
            say(s, "the host paused the race");
            event(s, "pause", "host");
        }
        break;
    case WIRE_RESUME:
        /* The host's word on race time 0 after a pause; taken whether or
         * not this end saw the pause (its PAUSE may have been lost). */
        if (!s->cfg.host && s->phase == PH_RACE && c->arg_us != s->start_sync) {
            s->start_sync = c->arg_us;
            s->paused = s->host_paused = false;
            say(s, "race resumed");
            event(s, "resume", "host");
        }
        break;
    case WIRE_FINISH:
        s->peer_finished = true;
        break;
    case WIRE_BYE:
        s->peer_bye = true;
        break;
    default:
        break;
    }
}

/* Every waiting datagram (at most 4,096 a call, so the race goes on under a
 * flood); *got says how many there were. */
static bool receive_all(Session *s, int *got, NrError *err)
{
    uint8_t buf[NETUDP_MAX + 1];
    NetAddr from;
    for (*got = 0; *got < 4096; (*got)++) {
        int n = netudp_recv(s->sock, buf, NETUDP_MAX, &from);
        if (n == NETUDP_EMPTY) { /* shorter than any header */
            reject(s, WIRE_SHORT);
            continue;
        }
        if (n <= 0)
            return true;
        int64_t arr = local_now(s);
        if (s->np)
            netterm_check(s->np, s->have_start ? race_at(s, arr) : 0, &s->chk);
        WireCheck chk = s->chk;
        if (!s->cfg.host && s->token == 0 && n >= WIRE_HEADER_BYTES && netaddr_equal(&from, &s->peer)) {
            /* the joiner learns the token from WELCOME: take the one it
             * carries, accept the packet only as the answer to our HELLO */
            for (int i = 0; i < 8; i++)
                chk.token |= (uint64_t)buf[8 + i] << (8 * i);
        }
        WirePacket p;
        WireResult r = wire_decode(buf, (size_t)n, &chk, &p);
        if (r == WIRE_OK && s->token == 0 && !s->cfg.host) {
            if (p.kind != WIRE_WELCOME || p.u.welcome.nonce != s->nonce)
                r = WIRE_BAD_TOKEN;
            else
                s->token = s->chk.token = p.token;
        }
        if (r != WIRE_OK) {
            reject(s, r);
            continue;
        }
        if (p.kind == WIRE_HELLO) { /* only a host accepts one */
            int h = on_hello(s, &p, &from, err);
            if (h < 0)
                return false;
            if (h == 0)
                continue;
            s->received++;
            s->last_heard_local = arr;
            continue;
        }
        if (!s->have_peer || !netaddr_equal(&from, &s->peer)) {
            reject(s, REJECT_ADDRESS);
            continue;
        }
        s->received++;
        s->last_heard_local = arr;
        if ((p.kind == WIRE_MU || p.kind == WIRE_VIEW) && s->phase == PH_COUNTDOWN)
            begin_race(s, arr); /* the peer's start came first: ours is due */
        int64_t arr_race = s->have_start ? race_at(s, arr) : INT64_MIN;
        int64_t send_race = INT64_MIN;
        if (p.kind == WIRE_MU)
            send_race = (int64_t)p.u.mu.mu.seq * WORLD_SAMPLE_US;
        else if (p.kind == WIRE_VIEW)
            send_race = p.u.view.t_us;
        else if (p.kind == WIRE_SYNC_RESP && !s->cfg.host && s->have_start)
            send_race = p.u.sync.t3_us - s->start_sync;
        netlog_rx(s->log, &p, arr, arr_race, send_race, n);
        switch (p.kind) {
        case WIRE_WELCOME:
        case WIRE_TRACK:
            if (!s->cfg.host && !on_setup(s, &p, err))
                return false;
            break;
        case WIRE_SYNC_REQ:
        case WIRE_SYNC_RESP:
            on_sync(s, &p, arr);
            break;
        case WIRE_CONTROL:
            on_control(s, &p.u.control);
            break;
        case WIRE_MU:
        case WIRE_VIEW:
            if (s->phase >= PH_RACE && s->np) {
                s->peer_racing = true;
                NetTermOut o = race_out(s);
                if (!s->paused)
                    netterm_advance(s->np, arr_race - 1, &o);
                netterm_receive(s->np, &p, arr_race > 0 ? arr_race : 0);
            } else if (s->cfg.host) {
                s->peer_racing = true; /* the joiner is past the start */
            }
            break;
        default:
            break;
        }
    }
    return true;
}

/* ---- the loop ------------------------------------------------------------- */

static void probe(Session *s, int64_t l)
{
    if (!s->have_peer || s->phase == PH_HANDSHAKE || l < s->next_probe_local)
        return;
    WirePacket p;
    memset(&p, 0, sizeof p);
    p.kind = WIRE_SYNC_REQ;
    p.u.sync.id = ++s->probe_id;
    p.u.sync.t1_us = local_now(s);
    send_packet(s, &p);
    bool fast = clocksync_count(&s->cs) < SESSION_READY_PROBES;
    s->next_probe_local = l + (fast ? 20 * NR_US_PER_MS : SESSION_PROBE_US);
}

static void log_rejects(Session *s, int64_t l)
{
    for (int r = 1; r < REJECT_REASONS; r++)
        if (s->rejected[r])
            netlog_reject(s->log, l, r == REJECT_ADDRESS ? "address" : r == REJECT_BUSY ? "busy" : wire_result_name((WireResult)r),
                          s->rejected[r]);
}

static void faults(Session *s, int64_t l)
{
    int64_t silent = l - s->last_heard_local;
    if (s->phase != PH_RACE)
        return;
    if (!s->paused && silent > SESSION_PAUSE_US) {
        s->paused = true;
        s->pauses++;
        s->paused_race = race_at(s, l);
        say(s, "the peer has been silent for 3 s: race paused");
        event(s, "pause", "silence");
        send_control(s, WIRE_PAUSE, s->paused_race);
    } else if (s->paused && s->cfg.host && silent < SESSION_PAUSE_US / 10) {
        /* heard again: race time goes on from where it stopped, 1 s from now */
        s->start_sync = l + SESSION_START_LEAD_US - s->paused_race;
        s->paused = false;
        s->resume_sends = 10;
        say(s, "the peer is back: race resumed");
        event(s, "resume", "peer heard");
    } else if (s->paused && !s->cfg.host && !s->host_paused && silent < SESSION_PAUSE_US / 10) {
        /* the host is heard again and never paused: go on */
        s->paused = false;
        say(s, "the host is back: race resumed");
        event(s, "resume", "host heard");
    }
    if (s->resume_sends > 0 && !s->paused && l >= s->next_resume_local) {
        send_control(s, WIRE_RESUME, s->start_sync); /* ten times, 100 ms apart */
        s->resume_sends--;
        s->next_resume_local = l + SESSION_PROBE_US;
    }
}

bool session_run(Session *s, volatile sig_atomic_t *stop)
{
    NrError err = {{0}};
    int64_t next_hello = 0, handshake_deadline = local_now(s) + SESSION_GIVE_UP_US;
    bool ok = true;
    s->next_log_flush = local_now(s) + NR_US_PER_S;
    while (ok && s->phase != PH_OVER) {
        if (stop && *stop) {
            send_control(s, WIRE_BYE, 0);
            event(s, "bye", "quit");
            snprintf(s->err, sizeof s->err, "quit before the end of the race (signal %d)", (int)*stop);
            ok = false;
            break;
        }
        int64_t l = local_now(s);
        int got = 0;
        if (!receive_all(s, &got, &err)) {
            snprintf(s->err, sizeof s->err, "%s", err.msg);
            ok = false;
            break;
        }
        l = local_now(s);
        if (s->phase == PH_HANDSHAKE && !s->cfg.host) {
            if (l > handshake_deadline) {
                snprintf(s->err, sizeof s->err, "no answer from %s:%u within 15 s", s->cfg.peer, s->cfg.peer_port);
                ok = false;
                break;
            }
            if (l >= next_hello) {
                WirePacket p;
                memset(&p, 0, sizeof p);
                p.kind = WIRE_HELLO;
                p.u.hello.proto = WIRE_VERSION;
                p.u.hello.nonce = s->nonce;
                snprintf(p.u.hello.name, sizeof p.u.hello.name, "netrace join");
                send_packet(s, &p);
                next_hello = l + SESSION_HELLO_US;
            }
        }
        probe(s, l);
        if (s->phase == PH_SYNC && !s->cfg.host && clocksync_count(&s->cs) >= SESSION_READY_PROBES &&
            l >= s->next_start_local) {
            send_control(s, WIRE_READY, 0);
            s->next_start_local = l + 200 * NR_US_PER_MS;
        }
        if (s->cfg.host && s->have_start && !s->peer_racing && l >= s->next_start_local) {
            send_control(s, WIRE_START, s->start_sync - RACEFLOW_LIGHTS * RACEFLOW_LIGHT_US);
            s->next_start_local = l + 200 * NR_US_PER_MS;
        }
        if (s->phase == PH_COUNTDOWN && race_at(s, l) >= 0)
            begin_race(s, l);
        if (s->phase >= PH_SYNC && s->phase <= PH_FINISHED && s->last_heard_local > 0 &&
            l - s->last_heard_local > SESSION_GIVE_UP_US) {
            event(s, "silence", "15 s");
            snprintf(s->err, sizeof s->err, "the peer has been silent for 15 s: race ended");
            ok = false;
            break;
        }
        faults(s, l);
        if (s->phase == PH_RACE && !s->paused) {
            NetTermOut o = race_out(s);
            netterm_advance(s->np, race_at(s, l), &o);
            if (netterm_done(s->np)) {
                s->phase = PH_FINISHED;
                s->finished_local = l;
                for (int i = 0; i < 3; i++)
                    send_control(s, WIRE_FINISH, race_at(s, l));
                event(s, "finish", "");
            }
        }
        if (s->phase == PH_FINISHED && (s->peer_finished || s->peer_bye || l - s->finished_local > SESSION_LINGER_US)) {
            for (int i = 0; i < 3; i++)
                send_control(s, WIRE_BYE, 0);
            event(s, "bye", "finished");
            s->phase = PH_OVER;
        }
        if (s->peer_bye && s->phase < PH_FINISHED) {
            event(s, "bye", "peer left");
            snprintf(s->err, sizeof s->err, "the peer left before the end of the race");
            ok = false;
            break;
        }
        if (l >= s->next_log_flush) {
            log_rejects(s, l);
            netlog_flush(s->log);
            s->next_log_flush = l + NR_US_PER_S;
        }
        if (s->frame && l >= s->next_frame_local) {
            s->next_frame_local = l + SESSION_FRAME_US;
            if (!s->frame(s->frame_ctx, s)) {
                send_control(s, WIRE_BYE, 0);
                event(s, "bye", "quit");
                snprintf(s->err, sizeof s->err, "quit before the end of the race");
                ok = s->phase >= PH_FINISHED;
                if (ok && s->phase < PH_OVER)
                    s->phase = PH_OVER;
                break;
            }
        }
        if (got == 0) { /* idle: wait a little; under traffic, read on at once */
            int64_t nap = SESSION_NAP_US;
            if (s->phase == PH_RACE && !s->paused) { /* wake for the next sample */
                int64_t due = (int64_t)netterm_sample_seq(s->np) * WORLD_SAMPLE_US - race_at(s, local_now(s));
                nap = due < nap ? (due > 0 ? due : 0) : nap;
            }
            struct timespec ts = {0, (long)(nap * 1000)};
            if (nap > 0)
                nanosleep(&ts, NULL);
        }
    }
    int64_t l = local_now(s);
    log_rejects(s, l);
    event(s, "end", ok ? "completed" : s->err);
    if (s->np)
        for (int k = 0; k < s->nschemes; k++)
            netlog_metrics(s->log, s->schemes[k]->name, netterm_metrics(s->np, k), s->cfg.host ? 0 : 1);
    if (s->log) {
        if (!netlog_close(s->log, &err) && ok) {
            snprintf(s->err, sizeof s->err, "%s", err.msg);
            ok = false;
        }
        s->log = NULL;
    }
    return ok;
}

