/* One terminal's network session, driven: the session state machine
 * (core/netproto/netsession.h: handshake, clock sync, start, race, pause,
 * give-up, finish; the protocol in docs/netplay.md) bound to a datagram port
 * (netport.h: UDP, or the in-memory hub of the tests), a clock (netclock.h:
 * monotonic, or simulated), the terminal log (netlog.h) and, optionally, a
 * driving window's frame callback. This is the only loop: read what the
 * port stamped, feed it to the session, tick it, send what it says, draw.
 *
 * Contracts:
 *   session_new(cfg, err)   a session on cfg->port and cfg->clock, or (NULL)
 *        on its own UDP socket (SDL2_net) and the monotonic clock; NULL + err.
 *   session_run(s, stop)    runs to the end (blocking); *stop set (to the
 *        number of the signal that asked) quits with BYE. Returns true for a
 *        completed race; false with session_error(s) saying why. Before it
 *        returns, every datagram that had arrived is read and counted, after
 *        a completed race up to the peer's BYE (2 s at most).
 *   session_step(s)         one turn of the loop without waiting (tests on
 *        a simulated clock): returns false once the session is over.
 *   session_next_wake(s)    the local time the loop wants to run next.
 *   session_finish(s)       once over: the log's last rows and its close;
 *        the result as session_run's (session_run calls it).
 *   session_print(s, f)     the `key: value` summary (docs/netplay.md),
 *        with packets_sent, kernel_drops and receive_buffer_bytes: for each
 *        end, what the peer (and anyone else) sent it = packets_received +
 *        packets_rejected + kernel_drops.
 *   session_port(s)         the UDP port the socket is bound to.
 *   session_free(s)         finalises the log if open; NULL-safe.
 *   session_core(s)         the state machine (tests, counters).
 *
 * A driving window (src/app/netwin.h) rides on the same loop:
 *   session_set_frame(s, fn, ctx)  fn(ctx, s) is called every
 *        SESSION_FRAME_US of local time while session_run runs (after the
 *        race has advanced to that instant); it reads the keys or pad, sets
 *        the own car's input and draws. Returning false quits (BYE). A slow
 *        frame delays nothing the network measures: the port stamps arrivals.
 *   session_status(s, &st)  the phase, race time, pause and clock for the
 *        screen.
 *   session_netterm(s)      the race (NULL until the settings are known).
 *   session_track(s)        the race's track (NULL until known).
 *   session_scheme(s, k) / session_scheme_count(s)  the session's schemes.
 *   session_is_host(s)
 *   session_code(s, out)    the join code both ends derive the key from, as
 *        shown (XXXXX-XXXXX), into out; "" when the datagrams go in clear.
 *   session_pauses(s)       times the race paused (docs/netplay.md "Pause").
 *   session_set_input(s, in)  the own car's input when cfg->external_input
 *        (keys, pad): held until the next call.
 *   session_mark(s, kind, &race_us, &logged)  the mark key: netsession_mark
 *        at the clock's now; session_marks(s) the dissatisfied marks given.
 *   session_wait(s)         blocks until a datagram arrives or the session
 *        wants to run (session_next_wake): a caller's own loop of steps.
 *   session_quit(s, why)    the player or a signal ends it: BYE.
 *   session_draw_code(out)  a fresh join code from the OS random source,
 *        as shown (XXXXX-XXXXX): one code for a study's many sessions.
 *   session_study(s), session_study_answer(s, i, score, ms),
 *   session_study_pending(s), session_study_done(s, marks),
 *   session_study_ack(s, i), session_study_close(s),
 *   session_study_send_log(s, bytes, n), session_study_log(s, &n)  the
 *        netsession_study_* calls at the clock's now (a study race,
 *        netsession.h).
 *   session_study_rested(s)  netsession_study_rested now (a race after a
 *        plan's break: this end's player rested).
 *   session_log_end(s)      netsession_log_end now: this terminal's log in
 *        place while the session goes on (a study's joiner sends it); false
 *        (session_error says why) when it could not be kept.
 *   session_log_path(s)     the path of this terminal's log (a study's
 *        DIR/race-NNN.ROLE.log once the race is known); "" when none.
 */
#ifndef NR_SESSION_H
#define NR_SESSION_H

#include "netclock.h"
#include "netport.h"
#include "netsession.h"
#include "wirecrypt.h"

#include <signal.h>
#include <stdio.h>

#define SESSION_DEFAULT_PORT 41000
#define SESSION_FRAME_US 16667 /* a driving window's frame: 60 per second */
#define SESSION_DRAIN_MAX 4096 /* datagrams read per turn: the race goes on under a flood */

typedef NetSessionMakeController SessionMakeController;
typedef struct Session Session;

typedef struct SessionConfig {
    bool host;
    bool server;            /* `netrace serve`: no car, seats ncars clients (netsession.h) */
    int ncars;              /* host / server: the race's cars (0: 2) */
    int server_mode;        /* server: 0 relay, 1 sync */
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
    const LinkMatrix *lines; /* per line, `--link I-J SPEC` (netsession.h); NULL = none */
    int64_t clock_offset_us;
    double clock_drift_ppm;
    bool raw_clock;         /* schemes on the local clock */
    bool lagometer;         /* the engine keeps the lagometer's rings (the window's F2) */
    const char *log_path;   /* NULL = no log */
    SessionMakeController make_controller;
    void *ctx;
    const char *cmd;        /* "host" / "join", for messages */
    bool external_input;    /* keys / pad: session_set_input, no controller */
    NetSessionTimeouts timeouts; /* zero: the defaults */
    /* tests: a port and clock of their own (NULL: UDP and the monotonic
     * clock with the offset and drift above), the peer's and allowed
     * addresses as NetAddr (then peer and allow are not resolved), and the
     * token's entropy (0: from the clocks and the process id) */
    NetPort *net_port;
    const NetClock *clock;
    const NetAddr *peer_addr, *allow_addr;
    uint64_t entropy;
    FILE *say;              /* where the one-line messages go (NULL: stderr) */
    /* the longest the last drain waits for the peers' BYE after the race
     * (0: 2 s; a lost BYE). A test that starves the peer's process (a
     * flood) lengthens it: the peer's last datagrams are then counted
     * instead of arriving at a closed socket. */
    int64_t final_drain_us;
    /* The join code as typed (wirecrypt.h); a host without one draws one
     * and says it. no_seal: datagrams in clear (tests of the checks behind
     * the envelope only; the commands never set it). */
    const char *code;
    bool no_seal;
    /* a study race (host: what it offers, netsession.h NetStudyRace; NULL:
     * none) and the caller's hook for every event of the session (a
     * study's answers, the finish), called on the session's loop before
     * the event's line is said; NULL: none */
    const struct NetStudyRace *study;
    const char *log_study_dir; /* a study's joiner: its logs DIR/race-NNN.joiner.log by study race (netlog.h) */
    void (*on_event)(void *ctx, Session *s, const NetSessionEvent *e);
    void *event_ctx;
} SessionConfig;


typedef NetSessionStatus SessionStatus;
#define SESSION_WAITING NETSESSION_WAITING
#define SESSION_SYNCING NETSESSION_SYNCING
#define SESSION_COUNTDOWN NETSESSION_COUNTDOWN
#define SESSION_RACING NETSESSION_RACING
#define SESSION_FINISHED NETSESSION_FINISHED
#define SESSION_OVER NETSESSION_OVER

typedef bool (*SessionFrame)(void *ctx, Session *s);
struct NetTerminal;

Session *session_new(const SessionConfig *cfg, NrError *err);
bool session_run(Session *s, volatile sig_atomic_t *stop);
bool session_step(Session *s);
int64_t session_next_wake(const Session *s);
bool session_finish(Session *s);
const char *session_error(const Session *s);
void session_print(const Session *s, FILE *f);
uint16_t session_port(const Session *s);
void session_free(Session *s);
NetSession *session_core(Session *s);
void session_set_frame(Session *s, SessionFrame fn, void *ctx);
void session_status(const Session *s, SessionStatus *out);
struct NetTerminal *session_netterm(Session *s);
const Track *session_track(const Session *s);
int session_scheme_count(const Session *s);
bool session_is_host(const Session *s);
void session_code(const Session *s, char out[WIRECRYPT_CODE_TEXT]);
int session_pauses(const Session *s);
const SchemeType *session_scheme(const Session *s, int k);
void session_set_input(Session *s, const CarInput *in);
bool session_mark(Session *s, const char *kind, int64_t *race_us, bool *logged);
int session_marks(const Session *s);
void session_wait(Session *s);
void session_quit(Session *s, const char *why);
bool session_draw_code(char out[WIRECRYPT_CODE_TEXT]);
const struct NetStudyRace *session_study(const Session *s);
bool session_study_answer(Session *s, int index, int score, int64_t response_ms);
int session_study_pending(const Session *s);
void session_study_done(Session *s, int marks);
void session_study_ack(Session *s, int index);
void session_study_close(Session *s);
bool session_study_send_log(Session *s, const char *bytes, size_t n);
const char *session_study_log(const Session *s, size_t *n);
bool session_log_end(Session *s);
void session_study_rested(Session *s);
const char *session_log_path(const Session *s);

#endif
