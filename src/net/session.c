/* The session's driver: the state machine (netsession.h) on a port, a clock
 * and a log, with an optional frame callback (session.h). */
#include "session.h"

#include "netlog.h"
#include "netudp.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#define FINAL_QUIET_US (50 * NR_US_PER_MS) /* the last drain ends after this long without a datagram */
#define FINAL_DRAIN_US (2 * NR_US_PER_S)   /* ... or this long in all */

struct Session {
    SessionConfig cfg;
    NetSession *ns;
    NetPort *port;
    bool own_net;          /* SDL2_net and the UDP socket are ours to close */
    NetClock real;
    const NetClock *clock;
    NetLogSink log;
    char err[NR_ERROR_MAX];
    char code[WIRECRYPT_CODE_CHARS + 1]; /* the join code, canonical */
    bool finished, ok;
    int64_t sent;          /* datagrams put on the wire */
    int64_t drops;         /* the port's system drops when finished */
    SessionFrame frame;
    void *frame_ctx;
    int64_t next_frame;
    uint8_t buf[NETUDP_MAX + 1];
};

/* Random bits for the token and nonce that nobody outside can guess: the
 * OS random source (libsodium's randombytes: getrandom(2)). */
static uint64_t entropy(const SessionConfig *cfg)
{
    if (cfg->entropy)
        return cfg->entropy;
    uint64_t e = 0;
    randombytes_buf(&e, sizeof e);
    return e;
}

/* The join code (docs/netplay.md "Join code"): the one given, canonical,
 * or on a host without one a fresh one from the OS random source, shown
 * once; the host's salt from the same source. NULL code: in clear (tests). */
static bool join_code(Session *s, NetSessionConfig *nc, NrError *err)
{
    if (s->cfg.no_seal)
        return true;
    if (sodium_init() < 0)
        return nr_error_set(err, "libsodium could not start");
    if (s->cfg.code && !wirecrypt_code_normalise(s->cfg.code, s->code))
        return nr_error_set(err, "join code '%.24s': expected %d characters of %s (dashes and case ignored)",
                            s->cfg.code, WIRECRYPT_CODE_CHARS, WIRECRYPT_ALPHABET);
    if (!s->cfg.code && !s->cfg.host && !s->cfg.server)
        return nr_error_set(err, "a joiner needs the host's join code (--code)");
    if (!s->cfg.code) {
        uint8_t r[WIRECRYPT_CODE_CHARS];
        char shown[WIRECRYPT_CODE_TEXT];
        randombytes_buf(r, sizeof r);
        wirecrypt_code_from_random(r, shown);
        wirecrypt_code_normalise(shown, s->code);
        fprintf(s->cfg.say ? s->cfg.say : stderr, "netrace %s: join code %s\n", s->cfg.cmd, shown);
    }
    randombytes_buf(nc->salt, sizeof nc->salt);
    randombytes_buf(nc->cookie_key, sizeof nc->cookie_key);
    nc->code = s->code;
    return true;
}

/* The addresses of the config, resolved unless a test gave them. */
static bool addresses(Session *s, NetSessionConfig *nc, NrError *err)
{
    const SessionConfig *cfg = &s->cfg;
    if (cfg->allow_addr) {
        nc->allow = *cfg->allow_addr;
        nc->have_allow = true;
    } else if ((cfg->host || cfg->server) && cfg->allow) {
        if (!netudp_resolve(cfg->allow, 0, &nc->allow, err))
            return false;
        nc->have_allow = true;
    }
    if (cfg->host || cfg->server)
        return true;
    if (cfg->peer_addr) {
        nc->peer = *cfg->peer_addr;
        return true;
    }
    return netudp_resolve(cfg->peer, cfg->peer_port, &nc->peer, err);
}

/* SDL2_net started (for the names too), then the socket: a name that does
 * not resolve is said before a busy port is. */
static bool start_net(Session *s, NrError *err)
{
    if (s->cfg.net_port)
        return true;
    if (!net_init(err))
        return false;
    s->own_net = true;
    return true;
}

static bool open_port(Session *s, NrError *err)
{
    if (s->cfg.net_port) {
        s->port = s->cfg.net_port;
        return true;
    }
    s->port = netudp_open(s->cfg.port, s->clock, err);
    return s->port != NULL;
}

Session *session_new(const SessionConfig *cfg, NrError *err)
{
    Session *s = calloc(1, sizeof *s);
    if (!s) {
        nr_error_set(err, "out of memory");
        return NULL;
    }
    s->cfg = *cfg;
    netclock_real(&s->real, cfg->clock_offset_us, cfg->clock_drift_ppm);
    s->clock = cfg->clock ? cfg->clock : &s->real;
    NetSessionConfig nc = {
        .host = cfg->host || cfg->server, .server = cfg->server, .ncars = cfg->ncars,
        .server_mode = cfg->server_mode, .entropy = entropy(cfg), .track_text = cfg->track_text, .track_file = cfg->track_file,
        .schemes = cfg->schemes, .shown = cfg->shown, .params = cfg->params, .laps = cfg->laps,
        .seconds_ms = cfg->seconds_ms, .seed = cfg->seed, .link = cfg->link, .lines = cfg->lines, .raw_clock = cfg->raw_clock,
        .lagometer = cfg->lagometer,
        .offset_true_us = cfg->clock_offset_us, .drift_true_ppm = cfg->clock_drift_ppm,
        .make_controller = cfg->make_controller, .ctx = cfg->ctx, .external_input = cfg->external_input,
        .timeouts = cfg->timeouts, .study = cfg->study,
    };
    s->log.path = cfg->log_path;
    s->log.study_dir = cfg->log_study_dir;
    if (cfg->log_path || cfg->log_study_dir)
        nc.log = netlog_sink(&s->log);
    if (!join_code(s, &nc, err) || !start_net(s, err) || !addresses(s, &nc, err) || !open_port(s, err)) {
        session_free(s);
        return NULL;
    }
    s->ns = netsession_new(&nc, netclock_now_us(s->clock), err);
    if (!s->ns) {
        session_free(s);
        return NULL;
    }
    return s;
}

void session_free(Session *s)
{
    if (!s)
        return;
    if (s->ns && !s->finished)
        session_finish(s);
    netsession_free(s->ns);
    if (s->own_net) {
        netport_close(s->port);
        net_quit();
    }
    free(s);
}

/* Every datagram stamped at or before `until`, at most `max`; the count. */
static int drain(Session *s, int64_t until, int max)
{
    int got = 0;
    NetAddr from;
    int64_t stamp;
    for (; got < max; got++) {
        int n = netport_recv(s->port, until, s->buf, NETUDP_MAX, &from, &stamp);
        if (n == NETPORT_NONE)
            break;
        netsession_input(s->ns, stamp, &from, s->buf, n);
    }
    return got;
}

static void flush_out(Session *s)
{
    NetDatagram d;
    while (netsession_pop_datagram(s->ns, &d))
        s->sent += netport_send(s->port, &d.to, d.bytes, d.n);
    NetSessionEvent e;
    while (netsession_pop_event(s->ns, &e)) {
        if (s->cfg.on_event)
            s->cfg.on_event(s->cfg.event_ctx, s, &e);
        if (e.text[0] && e.kind != NETSESSION_EV_OVER)
            fprintf(s->cfg.say ? s->cfg.say : stderr, "netrace %s: %s\n", s->cfg.cmd, e.text);
    }
    while (netsession_pop_datagram(s->ns, &d)) /* what the hook said (an acknowledgement) */
        s->sent += netport_send(s->port, &d.to, d.bytes, d.n);
}

bool session_step(Session *s)
{
    int64_t now = netclock_now_us(s->clock);
    drain(s, now, SESSION_DRAIN_MAX);
    netsession_tick(s->ns, now);
    flush_out(s);
    if (s->frame && !netsession_over(s->ns) && now >= s->next_frame) {
        s->next_frame = now + SESSION_FRAME_US;
        if (!s->frame(s->frame_ctx, s)) {
            netsession_quit(s->ns, netclock_now_us(s->clock), "quit before the end of the race");
            flush_out(s);
        }
    }
    return !netsession_over(s->ns);
}

int64_t session_next_wake(const Session *s)
{
    int64_t d = netsession_next_deadline(s->ns);
    return s->frame && s->next_frame < d ? s->next_frame : d;
}

/* After the end: what arrives is read and counted (a flood's last
 * datagrams too) until the port has been quiet a while and, after a
 * completed race, the peer has said BYE (it sends nothing after it, so
 * every datagram it sent is counted here: docs/netplay.md "The summary");
 * FINAL_DRAIN_US (or the config's final_drain_us) at most (a lost BYE). */
static void final_drain(Session *s)
{
    int64_t t0 = netclock_now_us(s->clock), quiet = t0;
    for (;;) {
        int64_t now = netclock_now_us(s->clock);
        if (drain(s, now, SESSION_DRAIN_MAX) > 0)
            quiet = now;
        bool peer_done = netsession_failed(s->ns) || netsession_peer_left(s->ns);
        int64_t cap = s->cfg.final_drain_us > 0 ? s->cfg.final_drain_us : FINAL_DRAIN_US;
        if ((peer_done && now - quiet >= FINAL_QUIET_US) || now - t0 >= cap || s->cfg.net_port)
            return;
        netport_wait(s->port, now + FINAL_QUIET_US / 5);
    }
}

bool session_run(Session *s, volatile sig_atomic_t *stop)
{
    while (session_step(s)) {
        if (stop && *stop) {
            char why[80];
            snprintf(why, sizeof why, "quit before the end of the race (signal %d)", (int)*stop);
            netsession_quit(s->ns, netclock_now_us(s->clock), why);
            flush_out(s);
            break;
        }
        netport_wait(s->port, session_next_wake(s));
    }
    final_drain(s);
    return session_finish(s);
}

bool session_finish(Session *s)
{
    if (!s->finished) {
        s->finished = true;
        s->drops = netport_drops(s->port);
        s->ok = netsession_end(s->ns, netclock_now_us(s->clock));
        snprintf(s->err, sizeof s->err, "%s", netsession_error(s->ns));
    }
    return s->ok;
}

uint16_t session_port(const Session *s)
{
    return netport_number(s->port);
}

const char *session_error(const Session *s)
{
    return s->finished ? s->err : netsession_error(s->ns);
}

NetSession *session_core(Session *s)
{
    return s->ns;
}

/* The session's lines, then the port's side of the accounting: what this
 * end sent, what the system dropped before reading (docs/netplay.md "The
 * summary"). */
void session_print(const Session *s, FILE *f)
{
    netsession_print(s->ns, netclock_now_us(s->clock), f);
    fprintf(f, "packets_sent: %lld\n", (long long)s->sent);
    fprintf(f, "kernel_drops: %lld\n", (long long)(s->finished ? s->drops : netport_drops(s->port)));
    fprintf(f, "receive_buffer_bytes: %d\n", netudp_rcvbuf(s->port));
}

/* ---- a driving window's view of the session ------------------------------- */

void session_set_frame(Session *s, SessionFrame fn, void *ctx)
{
    s->frame = fn;
    s->frame_ctx = ctx;
}

void session_status(const Session *s, SessionStatus *out)
{
    netsession_status(s->ns, netclock_now_us(s->clock), out);
}

struct NetTerminal *session_netterm(Session *s)
{
    return netsession_netterm(s->ns);
}

const Track *session_track(const Session *s)
{
    return netsession_track(s->ns);
}

bool session_is_host(const Session *s)
{
    return netsession_is_host(s->ns);
}

void session_code(const Session *s, char out[WIRECRYPT_CODE_TEXT])
{
    /* canonical (10 characters, or "" in clear) to the shown XXXXX-XXXXX */
    int j = 0;
    for (int i = 0; s->code[i] && i < WIRECRYPT_CODE_CHARS; i++) {
        if (i == WIRECRYPT_CODE_CHARS / 2)
            out[j++] = '-';
        out[j++] = s->code[i];
    }
    out[j] = '\0';
}

int session_scheme_count(const Session *s)
{
    return netsession_scheme_count(s->ns);
}

const SchemeType *session_scheme(const Session *s, int k)
{
    return netsession_scheme(s->ns, k);
}

int session_pauses(const Session *s)
{
    return netsession_pauses(s->ns);
}

void session_set_input(Session *s, const CarInput *in)
{
    netsession_set_input(s->ns, in);
}

int session_marks(const Session *s)
{
    return netsession_marks(s->ns);
}

bool session_mark(Session *s, const char *kind, int64_t *race_us, bool *logged)
{
    return netsession_mark(s->ns, netclock_now_us(s->clock), kind, race_us, logged);
}

void session_wait(Session *s)
{
    netport_wait(s->port, session_next_wake(s));
}

void session_quit(Session *s, const char *why)
{
    netsession_quit(s->ns, netclock_now_us(s->clock), why);
    flush_out(s);
}

bool session_draw_code(char out[WIRECRYPT_CODE_TEXT])
{
    if (sodium_init() < 0)
        return false;
    uint8_t r[WIRECRYPT_CODE_CHARS];
    randombytes_buf(r, sizeof r);
    wirecrypt_code_from_random(r, out);
    return true;
}

const NetStudyRace *session_study(const Session *s)
{
    return netsession_study(s->ns);
}

bool session_study_answer(Session *s, int index, int score, int64_t response_ms)
{
    return netsession_study_answer(s->ns, netclock_now_us(s->clock), index, score, response_ms);
}

int session_study_pending(const Session *s)
{
    return netsession_study_pending(s->ns);
}

void session_study_done(Session *s, int marks)
{
    netsession_study_done(s->ns, netclock_now_us(s->clock), marks);
}

void session_study_ack(Session *s, int index)
{
    netsession_study_ack(s->ns, netclock_now_us(s->clock), index);
}

void session_study_close(Session *s)
{
    netsession_study_close(s->ns, netclock_now_us(s->clock));
}

bool session_study_send_log(Session *s, const char *bytes, size_t n)
{
    return netsession_study_send_log(s->ns, netclock_now_us(s->clock), bytes, n);
}

const char *session_study_log(const Session *s, size_t *n)
{
    return netsession_study_log(s->ns, n);
}

bool session_log_end(Session *s)
{
    return netsession_log_end(s->ns, netclock_now_us(s->clock));
}

const char *session_log_path(const Session *s)
{
    return s->log.study_dir ? s->log.named : s->log.path ? s->log.path : "";
}

void session_study_rested(Session *s)
{
    netsession_study_rested(s->ns, netclock_now_us(s->clock));
}
