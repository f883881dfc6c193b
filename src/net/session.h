/* One terminal's network session (DESIGN.md "Network play"; packets in
 * docs/wire.md, the log in docs/netlog.md): the UDP socket, the handshake,
 * continuous clock synchronisation, the synchronised start, the race
 * through the network terminal (core/race/netterm.h), faults, the log.
 *
 * Handshake: the joiner sends HELLO (protocol version, a random nonce) until
 * the host answers; the host takes the first HELLO's address as its peer
 * (with cfg.allow, the first from that host; others count as "address"),
 * draws a random session token and answers with WELCOME (the joiner's car,
 * 2; the race settings and scheme list) and the track text in TRACK chunks,
 * again for every repeated HELLO of the same nonce. From then on only the
 * peer's address with the token is accepted; anything else is counted by
 * reason (the decoder's, or "address" / "busy") and dropped.
 * Clock: both ends probe each other (SYNC_REQ / SYNC_RESP) every
 * SESSION_PROBE_US (every 20 ms until SESSION_READY_PROBES exchanges); the
 * joiner's synchronised clock is its local clock plus the estimated offset
 * (clocksync.h), the host's is its own. Start: once the joiner has
 * SESSION_READY_PROBES exchanges it sends READY; the host sends START with
 * the synchronised instant the countdown lights come on (SESSION_START_LEAD_US
 * ahead), repeated until the joiner's race traffic arrives. The lights go out
 * (race time 0) RACEFLOW_LIGHTS seconds later on both.
 * Faults: the peer silent SESSION_PAUSE_US: the race pauses (stderr and
 * the log say so, PAUSE is sent); the host resumes it when the peer is heard
 * again, sending RESUME with the new instant of race time 0 so both ends
 * continue together. Silent SESSION_GIVE_UP_US: the session ends, logs
 * finalised, exit status 1. BYE ends it at once. A finished race sends
 * FINISH, waits for the peer's (at most SESSION_LINGER_US) and sends BYE.
 *
 * Contracts:
 *   session_new(cfg, err)   opens the socket (and SDL2_net); NULL + err.
 *   session_run(s, stop)    runs to the end (blocking); *stop set (to the
 *        number of the signal that asked) quits with BYE. Returns true for a completed race; false
 *        with session_error(s) saying why.
 *   session_print(s, f)     the `key: value` summary (docs/netplay.md).
 *   session_port(s)         the UDP port the socket is bound to.
 *   session_free(s)         finalises the log if open; NULL-safe.
 *
 * A driving window (src/app/netwin.h) rides on the same loop:
 *   session_set_frame(s, fn, ctx)  fn(ctx, s) is called every
 *        SESSION_FRAME_US of local time while session_run runs (after the
 *        race has advanced to that instant); it reads the keys or pad, sets
 *        the own car's input and draws. Returning false quits (BYE).
 *   session_status(s, &st)  the phase, race time, pause and clock for the
 *        screen.
 *   session_netterm(s)      the race (NULL until the settings are known).
 *   session_track(s)        the race's track (NULL until known).
 *   session_scheme(s, k) / session_scheme_count(s)  the session's schemes.
 *   session_is_host(s)
 *   session_pauses(s)       times the race paused on a silent peer: the live
 *        metrics of a race that paused are not those of an even race (each
 *        end froze where it noticed the silence) and may differ between
 *        the two ends; the summary says so.
 *   session_set_input(s, in)  the own car's input when cfg->external_input
 *        (keys, pad): held until the next call.
 */
#ifndef NR_SESSION_H
#define NR_SESSION_H

#include "controller.h"
#include "link.h"
#include "scheme.h"
#include "track.h"

#include <signal.h>
#include <stdio.h>

#define SESSION_PROBE_US (100 * NR_US_PER_MS)
#define SESSION_READY_PROBES 16
#define SESSION_START_LEAD_US (1000 * NR_US_PER_MS)
#define SESSION_PAUSE_US (3 * NR_US_PER_S)
#define SESSION_GIVE_UP_US (15 * NR_US_PER_S)
#define SESSION_LINGER_US (3 * NR_US_PER_S)
#define SESSION_HELLO_US (300 * NR_US_PER_MS)
#define SESSION_DEFAULT_PORT 41000

/* Makes the controller of this terminal's car once the track is known (the
 * joiner learns it from the host). */
typedef bool (*SessionMakeController)(void *ctx, const Track *track, int car, uint64_t seed, Controller *out,
                                      NrError *err);

typedef struct SessionConfig {
    bool host;
    uint16_t port;          /* host: the port to listen on; joiner: its own (0: any) */
    const char *peer;       /* joiner: the host's name or address */
    const char *allow;      /* host: take a HELLO only from this host (any port); NULL = anyone */
    uint16_t peer_port;     /* joiner */
    /* host only: the race it offers */
    const char *track_text; /* the track file's text */
    const char *track_file; /* its name (the recording's `track`) */
    const char *schemes;    /* canonical comma list */
    int shown;
    SchemeParams params;
    int laps;
    int64_t seconds_ms;
    uint64_t seed;
    /* this terminal */
    const LinkSpec *link;   /* emulated link before the wire; NULL = none */
    int64_t clock_offset_us;
    double clock_drift_ppm;
    bool raw_clock;         /* schemes on the local clock */
    const char *log_path;   /* NULL = no log */
    SessionMakeController make_controller;
    void *ctx;
    const char *cmd;        /* "host" / "join", for messages */
    bool external_input;    /* keys / pad: session_set_input, no controller */
} SessionConfig;

typedef struct Session Session;

#define SESSION_FRAME_US 16667 /* a driving window's frame: 60 per second */

typedef enum SessionPhase {
    SESSION_WAITING,   /* host: no joiner yet; joiner: no answer yet */
    SESSION_SYNCING,   /* settings known, clocks being synchronised */
    SESSION_COUNTDOWN, /* the lights: race time < 0 */
    SESSION_RACING,
    SESSION_FINISHED,  /* own race done, waiting for the peer's */
    SESSION_OVER
} SessionPhase;

typedef struct SessionStatus {
    SessionPhase phase;
    bool paused;          /* the peer silent: the race waits */
    int64_t race_us;      /* race time now (synchronised clock); < 0 in the countdown; 0 before the start is known */
    int64_t offset_us;    /* this terminal's clock minus the synchronised one (joiner; 0 on the host) */
    int64_t bound_us;     /* its error bound (0 on the host) */
    int64_t rtt_us;       /* the chosen exchange's round trip */
    int64_t silent_us;    /* time since the peer was last heard */
    int64_t received, rejected;
    char peer[64];        /* A.B.C.D:PORT, "" before the handshake */
} SessionStatus;

typedef bool (*SessionFrame)(void *ctx, Session *s);
struct NetTerminal;

Session *session_new(const SessionConfig *cfg, NrError *err);
bool session_run(Session *s, volatile sig_atomic_t *stop);
const char *session_error(const Session *s);
void session_print(const Session *s, FILE *f);
uint16_t session_port(const Session *s);
void session_free(Session *s);
void session_set_frame(Session *s, SessionFrame fn, void *ctx);
void session_status(const Session *s, SessionStatus *out);
struct NetTerminal *session_netterm(Session *s);
const Track *session_track(const Session *s);
int session_scheme_count(const Session *s);
bool session_is_host(const Session *s);
int session_pauses(const Session *s);
const SchemeType *session_scheme(const Session *s, int k);
void session_set_input(Session *s, const CarInput *in);

#endif
