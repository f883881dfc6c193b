/* The session state machine: its queues, race time, the pause protocol and
 * every timed action (netsession.h; the protocol in docs/netplay.md). */
#include "netsession_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void netsession_timeouts_default(NetSessionTimeouts *t)
{
    const NetSessionTimeouts d = {
        .hello_us = 300 * NR_US_PER_MS,  .probe_fast_us = 20 * NR_US_PER_MS, .probe_us = 100 * NR_US_PER_MS,
        .ready_probes = 16,              .retry_us = 200 * NR_US_PER_MS,     .start_lead_us = NR_US_PER_S,
        .pause_us = 3 * NR_US_PER_S,     .give_up_us = 15 * NR_US_PER_S,     .linger_us = 3 * NR_US_PER_S,
        .stall_us = NR_US_PER_S,         .resume_sends = 10,                 .link_poll_us = 200,
    };
    /* zero means default, field by field (sokol's description structs) */
    t->hello_us = t->hello_us > 0 ? t->hello_us : d.hello_us;
    t->probe_fast_us = t->probe_fast_us > 0 ? t->probe_fast_us : d.probe_fast_us;
    t->probe_us = t->probe_us > 0 ? t->probe_us : d.probe_us;
    t->ready_probes = t->ready_probes > 0 ? t->ready_probes : d.ready_probes;
    t->retry_us = t->retry_us > 0 ? t->retry_us : d.retry_us;
    t->start_lead_us = t->start_lead_us > 0 ? t->start_lead_us : d.start_lead_us;
    t->pause_us = t->pause_us > 0 ? t->pause_us : d.pause_us;
    t->give_up_us = t->give_up_us > 0 ? t->give_up_us : d.give_up_us;
    t->linger_us = t->linger_us > 0 ? t->linger_us : d.linger_us;
    t->stall_us = t->stall_us > 0 ? t->stall_us : d.stall_us;
    t->resume_sends = t->resume_sends > 0 ? t->resume_sends : d.resume_sends;
    t->link_poll_us = t->link_poll_us > 0 ? t->link_poll_us : d.link_poll_us;
}

/* ---- time ------------------------------------------------------------------ */

/* Synchronised clock at local time l: the host's own; the joiner's local
 * clock plus the estimated offset. */
int64_t sync_at(const NetSession *s, int64_t local)
{
    return s->cfg.host ? local : local + clocksync_offset(&s->cs, local);
}

/* Race time at local time l: the synchronised clock since race time 0, less
 * the stalls taken out, frozen at a pause point, never going back. */
int64_t race_at(const NetSession *s, int64_t local)
{
    int64_t r = sync_at(s, local) - s->start_sync - s->shift_us;
    if (r > s->cap)
        r = s->cap;
    return r > s->race_last ? r : s->race_last;
}

/* ---- what goes out --------------------------------------------------------- */

void push_datagram(NetSession *s, const NetAddr *to, const uint8_t *b, size_t n)
{
    size_t need = sizeof(NetAddr) + sizeof(uint16_t) + n;
    if (s->out_len + need > s->out_cap) {
        size_t cap = s->out_cap ? s->out_cap * 2 : 64 * 1024;
        while (cap < s->out_len + need)
            cap *= 2;
        uint8_t *nb = realloc(s->out_bytes, cap);
        if (!nb)
            return; /* out of memory: the datagram is lost, as on a wire */
        s->out_bytes = nb;
        s->out_cap = cap;
    }
    uint16_t len = (uint16_t)n;
    memcpy(s->out_bytes + s->out_len, to, sizeof *to);
    memcpy(s->out_bytes + s->out_len + sizeof *to, &len, sizeof len);
    memcpy(s->out_bytes + s->out_len + sizeof *to + sizeof len, b, n);
    s->out_len += need;
}

bool netsession_pop_datagram(NetSession *s, NetDatagram *out)
{
    if (s->out_pos >= s->out_len) {
        s->out_pos = s->out_len = 0;
        return false;
    }
    uint16_t len;
    memcpy(&out->to, s->out_bytes + s->out_pos, sizeof out->to);
    memcpy(&len, s->out_bytes + s->out_pos + sizeof out->to, sizeof len);
    out->n = len;
    out->bytes = s->out_bytes + s->out_pos + sizeof out->to + sizeof len;
    s->out_pos += sizeof out->to + sizeof len + len;
    return true;
}

/* p to every peer (one packet counter value; sealed for each). */
void send_packet(NetSession *s, WirePacket *p)
{
    p->token = p->kind == WIRE_HELLO ? 0 : s->token;
    p->pkt_seq = s->pkt_seq++;
    uint8_t buf[WIRE_MAX_BYTES];
    size_t n = wire_encode(p, buf, sizeof buf);
    for (int i = 0; n > 0 && i < s->npeers; i++)
        seal_push(s, i, buf, n);
}

void send_control(NetSession *s, int code, int64_t arg)
{
    WirePacket p;
    memset(&p, 0, sizeof p);
    p.kind = WIRE_CONTROL;
    p.u.control.code = code;
    p.u.control.arg_us = arg;
    send_packet(s, &p);
}

void session_say(NetSession *s, NetSessionEventKind kind, const char *text)
{
    if (s->nev == EVENTS_KEEP) { /* nobody reads them: keep the newest */
        s->ev_head = (s->ev_head + 1) % EVENTS_KEEP;
        s->nev--;
    }
    NetSessionEvent *e = &s->events[(s->ev_head + s->nev++) % EVENTS_KEEP];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    snprintf(e->text, sizeof e->text, "%s", text);
}

bool netsession_pop_event(NetSession *s, NetSessionEvent *out)
{
    if (s->nev == 0)
        return false;
    *out = s->events[s->ev_head];
    s->ev_head = (s->ev_head + 1) % EVENTS_KEEP;
    s->nev--;
    return true;
}

void session_event(NetSession *s, const char *what, const char *detail)
{
    if (s->cfg.log.event)
        s->cfg.log.event(s->cfg.log.ctx, s->now, s->have_start ? race_at(s, s->now) : INT64_MIN, what, detail);
}

/* The session ends without its race completed: the log says what, the
 * person reads msg. */
void session_fail(NetSession *s, const char *what, const char *detail, const char *msg)
{
    if (what)
        session_event(s, what, detail);
    snprintf(s->err, sizeof s->err, "%s", msg);
    s->failed = true;
    s->phase = PH_OVER;
    session_say(s, NETSESSION_EV_OVER, msg);
}

/* ---- setup ----------------------------------------------------------------- */

static void welcome_init(NetSession *s)
{
    const NetSessionConfig *cfg = &s->cfg;
    WireWelcome *w = &s->welcome;
    w->car = 1;
    w->ncars = s->ncars;
    w->topology = cfg->server ? 1 : 0;
    w->server = cfg->server && cfg->server_mode == 1 ? 1 : 0;
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
    const char *file = cfg->track_file ? cfg->track_file : "", *slash = strrchr(file, '/');
    file = slash ? slash + 1 : file;
    if (strlen(file) < sizeof w->track_file && nr_text_is_printable(file))
        snprintf(w->track_file, sizeof w->track_file, "%s", file);
}

NetSession *netsession_new(const NetSessionConfig *cfg, int64_t now_us, NrError *err)
{
    if (cfg->host && (!cfg->track_text || !cfg->schemes)) {
        nr_error_set(err, "a host session needs a track and schemes");
        return NULL;
    }
    int ncars = cfg->ncars ? cfg->ncars : 2;
    if (ncars < 2 || ncars > WIRE_MAX_CARS) {
        nr_error_set(err, "%d cars: a race has 2 to %d", ncars, WIRE_MAX_CARS);
        return NULL;
    }
    NetSession *s = calloc(1, sizeof *s);
    if (!s) {
        nr_error_set(err, "out of memory");
        return NULL;
    }
    s->cfg = *cfg;
    s->to = cfg->timeouts;
    netsession_timeouts_default(&s->to);
    clocksync_init(&s->cs);
    /* token and nonce: the caller's entropy (core reads no clock) */
    rng_seed(&s->rng, cfg->entropy, 0x6e657472616365); /* stream "netrace" */
    s->nonce = rng_u64(&s->rng) | 1;
    s->now = now_us;
    s->cap = INT64_MAX;
    s->resumed_from = INT64_MIN;
    s->race_last = INT64_MIN;
    s->last_mu_arr = INT64_MIN;
    s->handshake_deadline = now_us + s->to.give_up_us;
    s->next_log_flush = now_us + LOG_FLUSH_US;
    s->ncars = cfg->host ? ncars : 2; /* a joiner's: WELCOME's */
    s->own_car = cfg->server ? -1 : cfg->host ? 0 : 1;
    s->seats = cfg->server ? ncars : ncars - 1;
    if (!cfg->host) { /* the host or server, at the address given */
        s->peers[0] = (NetPeer){.addr = cfg->peer, .car = -1, .nonce = s->nonce, .proven = true};
        s->npeers = 1;
    } else {
        welcome_init(s);
        study_welcome(s);
        s->token = rng_u64(&s->rng) | 1;
        if (cfg->code && !seal_keys(s, cfg->salt, err)) {
            free(s);
            return NULL;
        }
    }
    s->chk.accept_hello = cfg->host;
    s->chk.token = s->token;
    s->chk.ncars = s->ncars;
    s->chk.own_car = s->own_car;
    s->chk.nschemes = 1;
    return s;
}

void netsession_free(NetSession *s)
{
    if (!s)
        return;
    race_free(s);
    free(s->study_log);
    free(s->relay);
    free(s->downq);
    for (int j = 0; j < NET_PEERS_MAX; j++)
        if (s->down[j]) {
            link_free(s->down[j]);
            free(s->down[j]);
        }
    track_free(s->track);
    free(s->track_text);
    free(s->chunk_seen);
    free(s->out_bytes);
    free(s);
}

bool netsession_over(const NetSession *s)
{
    return s->phase == PH_OVER;
}

bool netsession_failed(const NetSession *s)
{
    return s->failed;
}

const char *netsession_error(const NetSession *s)
{
    return s->err;
}

/* A terminal that was not run for stall_us (stopped, swapped out) takes up
 * race time where it stopped instead of catching up in a burst, and asks
 * for a pause so that both ends stand at one race time again. */
static void stall_check(NetSession *s, int64_t l)
{
    if (s->phase == PH_RACE && l - s->now > s->to.stall_us) {
        int64_t here = race_at(s, s->now);
        s->shift_us = sync_at(s, l) - s->start_sync - here;
        s->stalled_us = l - s->now;
        s->now = l;
        pause_at(s, here, NETSESSION_PAUSE_STALLED, "this terminal stalled");
    }
    if (l > s->now)
        s->now = l;
}

static void pause_tick(NetSession *s, int64_t l)
{
    int64_t silent = l - peers_heard(s);
    if (s->phase != PH_RACE)
        return;
    if (!s->paused && silent > s->to.pause_us)
    {
        char why[64];
        snprintf(why, sizeof why, "the peer has been silent for %lld s", (long long)(s->to.pause_us / NR_US_PER_S));
        pause_at(s, race_at(s, l), NETSESSION_PAUSE_PEER_SILENT, why);
    }
    bool standing = s->paused && race_at(s, l) == s->cap;
    if (standing && l >= s->next_pause_say) { /* "I stand at cap" */
        send_control(s, WIRE_PAUSE, s->cap);
        s->next_pause_say = l + s->to.probe_us;
    }
    if (standing && s->cfg.host && PEERS_ALL(s, at_cap) && silent < s->to.pause_us / 10) {
        /* all stand at cap: race time cap comes start_lead_us from now */
        s->start_sync = l + s->to.start_lead_us - s->cap;
        s->shift_us = 0;
        s->resumed_from = s->cap;
        s->cap = INT64_MAX;
        s->paused = false;
        s->resume_left = s->to.resume_sends;
        s->next_resume = l;
        session_say(s, NETSESSION_EV_RESUMED, s->cfg.server ? "every client stands where the server does: race resumed"
                                                            : "the joiner stands where this end does: race resumed");
        session_event(s, "resume", "both paused");
    }
    if (s->resume_left > 0 && !s->paused && l >= s->next_resume) {
        send_control(s, WIRE_RESUME, s->start_sync);
        s->resume_left--;
        s->next_resume = l + s->to.probe_us;
    }
}

/* ---- the timed actions ------------------------------------------------------- */

static void handshake_tick(NetSession *s, int64_t l)
{
    if (s->phase != PH_HANDSHAKE || s->cfg.host)
        return;
    if (l > s->handshake_deadline) {
        char peer[64], msg[240];
        netaddr_text(&s->peers[0].addr, peer, sizeof peer);
        /* keys but no WELCOME: the host did not open the sealed HELLO */
        snprintf(msg, sizeof msg, "no answer from %s within %lld s%s", peer,
                 (long long)(s->to.give_up_us / NR_US_PER_S),
                 s->peers[0].have_keys ? ": it did not take this join code (another race's, or mistyped)" : "");
        session_fail(s, NULL, NULL, msg);
        return;
    }
    if (l >= s->next_hello) {
        WirePacket p;
        memset(&p, 0, sizeof p);
        p.kind = WIRE_HELLO;
        p.u.hello.proto = WIRE_VERSION;
        p.u.hello.nonce = s->nonce;
        snprintf(p.u.hello.name, sizeof p.u.hello.name, "netrace join");
        send_to(s, 0, &p);
        s->next_hello = l + s->to.hello_us;
    }
}

/* This end probes a clock: a joiner its host's (or server's), a host of
 * two its joiner's. A server, or the host of a p2p race of N, is the
 * others' clock and answers their probes. */
static bool probes_clock(const NetSession *s)
{
    return !s->cfg.server && !(s->cfg.host && p2p_race(s));
}

static void probe_tick(NetSession *s, int64_t l)
{
    if (!probes_clock(s) || s->npeers == 0 || s->phase == PH_HANDSHAKE || s->phase == PH_OVER || l < s->next_probe)
        return;
    WirePacket p;
    memset(&p, 0, sizeof p);
    p.kind = WIRE_SYNC_REQ;
    p.u.sync.id = ++s->probe_id;
    p.u.sync.t1_us = l;
    s->probe_t1[p.u.sync.id % PROBES_KEEP] = l;
    send_to(s, 0, &p); /* the clock reference: peer 0 */
    bool fast = clocksync_count(&s->cs) < s->to.ready_probes;
    s->next_probe = l + (fast ? s->to.probe_fast_us : s->to.probe_us);
}

static void start_tick(NetSession *s, int64_t l)
{
    if (s->phase == PH_SYNC && !s->cfg.host && clocksync_count(&s->cs) >= s->to.ready_probes &&
        p2p_connected(s) && l >= s->next_retry && !s->study_rest) {
        WirePacket p;
        memset(&p, 0, sizeof p);
        p.kind = WIRE_CONTROL;
        p.u.control.code = WIRE_READY;
        send_to(s, 0, &p);
        s->next_retry = l + s->to.retry_us;
    }
    if (s->cfg.host && s->have_start && !PEERS_ALL(s, racing) && s->phase != PH_OVER && l >= s->next_retry) {
        WirePacket p;
        memset(&p, 0, sizeof p);
        p.kind = WIRE_CONTROL;
        p.u.control.code = WIRE_START;
        p.u.control.arg_us = s->start_sync - RACEFLOW_LIGHTS * RACEFLOW_LIGHT_US;
        for (int i = 0; i < s->npeers; i++)
            if (!s->peers[i].racing)
                send_to(s, i, &p);
        s->next_retry = l + s->to.retry_us;
    }
    if (s->phase == PH_COUNTDOWN && sync_at(s, l) - s->start_sync >= 0)
        race_begin(s, l);
}

static void finish_tick(NetSession *s, int64_t l)
{
    if (s->cfg.server) {
        serve_finish_tick(s, l);
        return;
    }
    if (s->phase == PH_RACE) { /* running, or walking to a pause point */
        race_advance(s, race_at(s, l));
        if (race_done(s)) {
            s->phase = PH_FINISHED;
            s->finished_local = l;
            for (int i = 0; i < 3; i++)
                send_control(s, WIRE_FINISH, race_at(s, l));
            session_event(s, "finish", "");
            session_say(s, NETSESSION_EV_FINISHED, "");
        }
    }
    /* every peer finished (or left) and every view of a sample all took
     * has arrived (a reordered last VIEW may come after FINISH, even
     * after BYE) */
    bool paired = s->study.rate_only || /* no race: nothing to pair */
                  (peers_done(s) &&
                   race_paired(s, s->have_peer_finish ? s->peer_finish_race / WORLD_SAMPLE_US + 1 : 0));
    bool over = paired || l - s->finished_local > s->to.linger_us;
    if (s->phase == PH_FINISHED && over && s->study.race > 0 && !s->study_race_said) {
        s->study_race_said = true; /* the race's views are in: its metrics are whole */
        session_say(s, NETSESSION_EV_STUDY_RACE_DONE, "");
    }
    if (s->phase == PH_FINISHED && !study_holds(s) && (over || s->study.race > 0)) {
        for (int i = 0; i < 3; i++)
            send_control(s, WIRE_BYE, 0);
        session_event(s, "bye", "finished");
        s->phase = PH_OVER;
        session_say(s, NETSESSION_EV_OVER, "");
    }
    if (s->peer_bye && s->phase < PH_FINISHED) {
        char msg[96] = "the peer left before the end of the race";
        for (int i = 0; i < s->npeers && p2p_race(s); i++)
            if (s->peers[i].bye) {
                snprintf(msg, sizeof msg, s->peers[i].car == 0 ? "the host (car %d) left before the end of the race"
                                                               : "car %d left before the end of the race",
                         s->peers[i].car + 1);
                break;
            }
        if (p2p_race(s)) /* the others hear it at once, not after their give-up */
            send_control(s, WIRE_BYE, 0);
        session_fail(s, "bye", "peer left", msg);
    }
}

/* Every state's deadline (docs/netplay.md "Deadlines"): the peer silent,
 * no start give_up_us after the settings, a pause give_up_us long. The
 * session ends with one line; a BYE tells the peer at once (it ends too,
 * "the peer left"). true when over. */
static bool deadline_tick(NetSession *s, int64_t l)
{
    long long secs = (long long)(s->to.give_up_us / NR_US_PER_S);
    char msg[192], d[32];
    snprintf(d, sizeof d, "%lld s", secs);
    if (s->phase >= PH_SYNC && s->phase <= PH_FINISHED && l - peers_heard(s) > s->to.give_up_us) {
        snprintf(msg, sizeof msg, "the %s has been silent for %lld s: race ended",
                 s->cfg.server ? "slowest client" : "peer", secs);
        session_fail(s, "silence", d, msg);
        return true;
    }
    const char *what = NULL;
    char unreached[128];
    if (s->phase == PH_SYNC && !s->have_start && l > s->sync_deadline && !s->study.brk) /* a break lasts */
        what = s->cfg.server                             ? "not every client was ready within"
               : s->cfg.host && p2p_race(s)              ? "not every joiner was ready within"
               : s->cfg.host                             ? "the joiner was not ready within"
               : p2p_unreached(s, unreached, sizeof unreached) ? unreached
                                                         : "the host did not start the race within";
    else if (s->phase == PH_RACE && s->paused && l - s->paused_since > s->to.give_up_us)
        what = "the race stayed paused for";
    if (!what)
        return false;
    send_control(s, WIRE_BYE, 0);
    snprintf(msg, sizeof msg, "%s %lld s: race ended", what, secs);
    session_fail(s, "deadline", d, msg);
    return true;
}

static void log_rejects(NetSession *s, int64_t l)
{
    if (!s->cfg.log.reject)
        return;
    for (int r = 1; r < REJECT_REASONS; r++)
        if (s->rejected[r])
            s->cfg.log.reject(s->cfg.log.ctx, l, reject_name(r), s->rejected[r]);
}

void netsession_tick(NetSession *s, int64_t l)
{
    stall_check(s, l);
    if (s->phase == PH_OVER)
        return;
    handshake_tick(s, l);
    if (s->phase == PH_OVER)
        return;
    probe_tick(s, l);
    p2p_intro_tick(s, l);
    p2p_pair_tick(s, l);
    start_tick(s, l);
    if (deadline_tick(s, l))
        return;
    pause_tick(s, l);
    finish_tick(s, l);
    study_tick(s, l);
    if (l >= s->next_log_flush) {
        log_rejects(s, l);
        NrError err = {{0}};
        if (s->cfg.log.flush && s->log_open && !s->cfg.log.flush(s->cfg.log.ctx, &err)) {
            /* a full disk is said at once, and the peer told: its race ends
             * too, not completed (issue 24) */
            send_control(s, WIRE_BYE, 0);
            session_fail(s, "log", "write error", err.msg);
            return;
        }
        s->next_log_flush = l + LOG_FLUSH_US;
    }
}

void netsession_input(NetSession *s, int64_t now_us, const NetAddr *from, const uint8_t *bytes, int n)
{
    stall_check(s, now_us);
    session_receive(s, s->now, from, bytes, n); /* once over: only counted */
}

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

int64_t netsession_next_deadline(const NetSession *s)
{
    if (s->phase == PH_OVER)
        return INT64_MAX;
    int64_t d = s->next_log_flush;
    if (s->phase == PH_HANDSHAKE && !s->cfg.host)
        d = min64(d, min64(s->next_hello, s->handshake_deadline + 1));
    if (s->phase != PH_HANDSHAKE) {
        if (probes_clock(s))
            d = min64(d, s->next_probe);
        d = min64(d, peers_heard(s) + s->to.give_up_us + 1);
    }
    d = min64(d, p2p_next_deadline(s));
    if (s->phase == PH_SYNC && !s->have_start)
        d = min64(d, s->sync_deadline + 1);
    if (s->phase == PH_RACE && s->paused)
        d = min64(d, s->paused_since + s->to.give_up_us + 1);
    /* READY waits for them and for every pair: no spinning before */
    bool synced = clocksync_count(&s->cs) >= s->to.ready_probes && p2p_connected(s);
    if ((s->phase == PH_SYNC && !s->cfg.host && synced) || (s->cfg.host && s->have_start && !PEERS_ALL(s, racing)))
        d = min64(d, s->next_retry);
    if (s->phase == PH_COUNTDOWN) /* race time 0 on the synchronised clock */
        d = min64(d, s->now + (s->start_sync - sync_at(s, s->now)));
    if (s->phase == PH_RACE) {
        d = min64(d, s->paused ? s->next_pause_say : peers_heard(s) + s->to.pause_us + 1);
        if (s->resume_left > 0)
            d = min64(d, s->next_resume);
        if (s->emulates && !s->paused && !s->cfg.server) /* the emulated lines' deliveries between samples */
            d = min64(d, s->now + s->to.link_poll_us);
        int64_t due = s->cfg.server ? serve_next_due(s) : race_next_sample(s);
        if (due != INT64_MAX && (!s->paused || due <= s->cap)) /* the next sample or relay, in local time */
            d = min64(d, s->now + (due - race_at(s, s->now)));
    }
    if (s->phase == PH_FINISHED && (!study_holds(s) || !s->study_race_said))
        d = min64(d, s->finished_local + s->to.linger_us + 1);
    d = min64(d, study_next_due(s));
    return d > s->now ? d : s->now;
}

void netsession_quit(NetSession *s, int64_t now_us, const char *why)
{
    stall_check(s, now_us);
    if (s->phase == PH_OVER)
        return;
    send_control(s, WIRE_BYE, 0);
    if (s->phase >= PH_FINISHED) { /* the race is done: leaving early loses nothing */
        session_event(s, "bye", "quit");
        s->phase = PH_OVER;
        return;
    }
    session_fail(s, "bye", "quit", why);
}

bool netsession_log_end(NetSession *s, int64_t now_us)
{
    if (now_us > s->now)
        s->now = now_us;
    if (!s->log_open)
        return !s->failed;
    log_rejects(s, s->now);
    session_event(s, "end", s->failed ? s->err : "completed");
    race_log_metrics(s); /* (while the log is open) */
    s->log_open = false;
    NrError err = {{0}};
    if (s->cfg.log.close && !s->cfg.log.close(s->cfg.log.ctx, &err) && !s->failed) {
        snprintf(s->err, sizeof s->err, "%s", err.msg);
        s->failed = true;
    }
    return !s->failed;
}

bool netsession_end(NetSession *s, int64_t now_us)
{
    return netsession_log_end(s, now_us); /* a log ended before (a study's joiner) is not written again */
}
