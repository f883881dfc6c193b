/* One terminal's network session as a pure state machine (DESIGN.md
 * "Network play"; the protocol in docs/netplay.md, packets in docs/wire.md):
 * handshake, track transfer, clock-sync exchange, the synchronised start,
 * the race through netterm (netterm.h), pause and resume, give-up and
 * finish. No socket, no clock, no global: the caller passes every time
 * (this terminal's local clock, microseconds) and every received datagram,
 * and takes back the datagrams to send (with their destination) and the
 * events to show, in the manner of ENet's enet_host_service. A driver
 * (src/net/session.h) binds it to a datagram port and a clock; tests bind it
 * to an in-memory hub and a simulated clock.
 *
 * Handshake: the joiner sends HELLO until the host answers. With a join
 * code (cfg.code) the first HELLOs go in clear and get the host's key
 * answer (salt, nonce echoed, the cookie of the address it came from;
 * nothing kept: netsession_seal.c), then both seal every datagram and the
 * joiner says HELLO again, sealed, with the cookie: the host refuses one
 * whose cookie is not its source address's (`cookie`). The host
 * takes the first (sealed) HELLO's address as its peer (with cfg.allow, the
 * first from that host, any port), answers WELCOME and the track in TRACK
 * chunks, again for every repeated HELLO of the same nonce. Then only the peer's address with
 * the token is accepted; anything else is counted by reason and dropped.
 * Clock: SYNC_REQ / SYNC_RESP every probe_fast_us until ready_probes
 * exchanges, then every probe_us; the joiner's synchronised clock is its own
 * plus the estimate (clocksync.h). Start: READY, then START with the
 * synchronised instant the lights come on (start_lead_us ahead).
 *
 * Pause (docs/netplay.md "Pause"): race time is a clock of its own that
 * never jumps. A terminal that was not run for more than stall_us (stopped,
 * swapped out) takes up race time where it stopped. Either end that hears
 * nothing from the peer for pause_us, or that stalled, freezes its race time
 * and says PAUSE(its race time). Each end stops at the largest race time
 * either has said (an end behind walks there at the normal pace, never in a
 * burst) and repeats PAUSE(P) once it stands at P. The host, standing at P
 * and hearing the joiner stand at P, sends RESUME(new synchronised instant of
 * race time 0, chosen so that race time P comes start_lead_us later): both
 * continue from P together. Packets that arrive from the peer's future (sent
 * at a race time this end has not reached: the end walking to P) are held
 * and delivered when this end reaches their send time. Silent give_up_us:
 * the session ends (one line, logs intact). BYE ends it at once.
 *
 * Deadlines: no start give_up_us after the settings, or a pause give_up_us
 * long, ends the session too (one line, a BYE to the peer). Ranges: every
 * received time and sequence number must fit this race now
 * (netsession_range.c, docs/wire.md "Ranges"), else it is counted `range`.
 *
 * Contracts:
 *   netsession_timeouts_default(t)  today's values into every zero field.
 *   netsession_new(cfg, now, err)   NULL + err on a bad config.
 *   netsession_free(s)              NULL-safe; does not end the log (end).
 *   netsession_input(s, now, from, bytes, n)  one received datagram of n
 *        bytes (0: an empty one; n > WIRE_MAX_BYTES: oversized, bytes holds
 *        at least the first WIRE_MAX_BYTES) that arrived at local time now.
 *        Times passed to input and tick never go backwards. Every datagram
 *        is counted once: received, or rejected under one reason; once the
 *        session is over it is only counted, never acted on.
 *   netsession_tick(s, now)         every timed action due at now.
 *   netsession_next_deadline(s)     the local time of the next timed action
 *        (INT64_MAX when over): call tick then, or on the next datagram.
 *   netsession_quit(s, now, why)    the player or a signal ends it: BYE.
 *   Studies (a study race: the host's cfg.study; docs/studies.md "Over
 *   the network"):
 *   netsession_study(s)             the study race (the host's, or what the
 *        joiner was told: race, questions, its link); NULL when none. The
 *        joiner's session sets up only once every question has come, and
 *        puts the given link on what it sends (a bad one ends the session).
 *        A rate-only race (a resumed session's race driven before) has no
 *        race: both ends go from the handshake to finished; the joiner's
 *        answers already kept (given) are not asked again.
 *   netsession_study_answer(s, now, i, score, ms)  joiner, after its finish:
 *        its player's answer to question i, sent until acknowledged; false
 *        when not a rated study race, i out of range or answered, or the
 *        score no answer to it.
 *   netsession_study_pending(s)     joiner: answers not yet acknowledged.
 *   netsession_study_done(s, now, marks)  joiner: its player is done (every
 *        answer given, or a practice race): DONE, with its marks, until the
 *        host's BYE ends the session.
 *   netsession_study_ack(s, now, i) host: the joiner's answer i is kept
 *        (written and synced): ACK now and to every repeat. An answer not
 *        acknowledged comes as an event again with each repeat.
 *   netsession_study_close(s, now)  host, finished: the study race is over
 *        (both players' answers kept, and the joiner's log when wanted):
 *        BYE, the session ends.
 *   The joiner's log of a study race (its recording: docs/studies.md "Over
 *   the network"), when WELCOME's study flag LOG asks for it:
 *   netsession_study_send_log(s, now, bytes, n)  joiner, finished: sends
 *        the n bytes (copied; a text: no NUL) in LOG chunks of
 *        WIRE_TRACK_CHUNK, a window of NETSESSION_LOG_WINDOW chunks ahead
 *        of the host's acknowledgement (LOG_ACK: the bytes kept in order),
 *        from the acknowledged offset again after each retry period
 *        without news; bytes NULL or n 0 (or more than WIRE_LOG_MAX_BYTES,
 *        or a NUL in them): LOG_NONE, until the BYE. False when not asked
 *        for, given already or not finished.
 *   netsession_study_log(s, &n)     host: the joiner's log once
 *        NETSESSION_EV_STUDY_LOG said it is whole (n bytes, a NUL after
 *        them; NULL: none, or not yet). The host keeps a chunk only at
 *        the offset it has, of the total the first chunk said, at most
 *        WIRE_LOG_MAX_BYTES (allocated once); every LOG is acknowledged.
 *   netsession_study_rested(s, now)  a race after a plan's break (flag
 *        BREAK): this end's player is done resting. Until then the joiner
 *        sends no READY and the host starts no race; the sync deadline
 *        waits for the break (the silence deadline does not).
 *   netsession_log_end(s, now)      ends this terminal's log now, as
 *        netsession_end does (end "completed", metrics, close: the file is
 *        in place), so that it can be sent while the session goes on;
 *        false when it could not be kept. netsession_end then writes no
 *        more.
 *   netsession_mark(s, now, kind, &race_us, &logged)  the mark key of this
 *        terminal (recording.h's kinds: its player's dissatisfied, a
 *        study's Shift / pad Y; mark, F3): race time now into *race_us
 *        (negative in the countdown, frozen in a pause) and a `mark` row
 *        with the kind into the log, flushed at once, when one is open
 *        (*logged says whether; merge makes it the recording's mark of
 *        this terminal's car). False (nothing written) before the start is
 *        known or when kind is not [a-z_]+.
 *   netsession_marks(s)             the dissatisfied marks this terminal's player gave.
 *   netsession_end(s, now)          once over: the log's last rows (rejects,
 *        end, metrics) and its close; false when the log could not be kept.
 *   netsession_pop_datagram(s, out) the next datagram to send (FIFO); false
 *        when none. out->bytes stays valid until the next call.
 *   netsession_pop_event(s, out)    the next event (FIFO); false when none.
 *   netsession_over(s) / netsession_failed(s) / netsession_error(s)
 *   netsession_status(s, now, out), netsession_print(s, now, f): what a
 *        window and the summary read; netsession_pauses(s); accessors:
 *        netsession_car_count (the race's, 2 until WELCOME), netsession_own_car
 *        (-1 a server), netsession_seated (peers in: joiners or clients).
 *   netsession_peer_left(s)         the peer said BYE: it sends nothing more.
 *
 * A server (cfg.server, `netrace serve`, docs/netplay.md "Serve") is a host
 * without a car: it seats cfg.ncars clients (each HELLO's link keyed on its
 * own, wirecrypt_link), is their clock reference, starts the race once all
 * are ready, relays every MU and VIEW of a client to the others (relay: on
 * arrival; sync: each MU at its sample's instant + Delta, or on arrival
 * when later: route.h ROUTE_SYNC), pauses and resumes them all as a host
 * does its joiner, and tells them all FINISH (the earliest client's) once
 * every client finished. A sealed HELLO past the last seat gets FULL.
 *
 * A host of a peer-to-peer race of N cars (cfg.ncars 3 to 8,
 * netsession_p2p.c, docs/netplay.md "Peer-to-peer races of N") seats
 * ncars - 1 joiners as it seats one, then introduces them (PEERS: each
 * joiner's address and nonce); each pair keys its link (wirecrypt_link of
 * the two nonces) and proves with the cookie round trip that each end
 * receives at its address before anything else goes between them. The
 * host is every joiner's clock reference and starts, pauses and resumes
 * the race; every terminal sends its MUs and views straight to every
 * other.
 */
#ifndef NR_NETSESSION_H
#define NR_NETSESSION_H

#include "controller.h"
#include "link.h"
#include "linkmatrix.h"
#include "metrics.h"
#include "netaddr.h"
#include "recording.h"
#include "scheme.h"
#include "track.h"
#include "wire.h"
#include "wirecrypt.h"

#include <stdio.h>

/* Every timeout of the protocol, microseconds of local time; zero = default. */
typedef struct NetSessionTimeouts {
    int64_t hello_us;      /* joiner: HELLO repeated (300 ms) */
    int64_t probe_fast_us; /* clock probes until ready_probes exchanges (20 ms) */
    int64_t probe_us;      /* clock probes after that, all race long (100 ms) */
    int ready_probes;      /* exchanges before READY (16) */
    int64_t retry_us;      /* READY and START repeated (200 ms) */
    int64_t start_lead_us; /* the lights come on this far ahead; resume lead (1 s) */
    int64_t pause_us;      /* peer silent this long: pause (3 s) */
    int64_t give_up_us;    /* peer silent this long: the session ends (15 s) */
    int64_t linger_us;     /* after the finish, wait this long for the peer's (3 s) */
    int64_t stall_us;      /* not run this long: a stall, race time does not jump (1 s) */
    int resume_sends;      /* RESUME sent this many times, probe_us apart (10) */
    int64_t link_poll_us;  /* racing with an emulated link: its deliveries are put on the
                              wire this often (200 us; the latency the emulation adds) */
} NetSessionTimeouts;

/* What the terminal log's header says (docs/netlog.md). */
typedef struct NetLogMeta {
    const char *role;
    int car; /* 1-based */
    int ncars;
    const char *topology; /* "p2p" or "cs" (with server) */
    const char *server;   /* cs: "relay" or "sync"; "" for p2p */
    NetAddr peer;
    uint64_t session_id; /* public: the same at both ends, the token not recoverable from it */
    const char *track_name, *track_file;
    uint32_t track_bytes;
    int32_t period_ms, laps;
    double seconds;
    const char *schemes, *shown;
    SchemeParams params;
    uint64_t seed;
    const char *link;
    const char *line_link[WIRE_MAX_CARS]; /* p2p: line car -> J's own spec (--link I-J), NULL: link */
    bool raw_clock;
    int64_t offset_true_us;
    double drift_true_ppm;
    int study_race;  /* a study's race 1..N; 0 none */
    const struct NetStudyRace *study; /* the host's study race (name, pair, condition, kind); NULL none */
} NetLogMeta;

/* Where the log rows go (src/net/netlog.h writes them to a file); every
 * function may be NULL; times as docs/netlog.md, INT64_MIN = empty. open is
 * called once the race is known; false + err ends the session. */
typedef struct NetSessionLog {
    void *ctx;
    bool (*open)(void *ctx, const NetLogMeta *m, NrError *err);
    void (*own)(void *ctx, int32_t seq, const RecSample *s, int64_t taken_race, int64_t taken_local);
    /* to: the car it went to (0-based; a p2p race's), -1 every other terminal */
    void (*tx)(void *ctx, const WirePacket *p, int64_t send_race, int64_t wire_race, int to);
    void (*rx)(void *ctx, const WirePacket *p, int64_t arr_local, int64_t arr_race, int64_t send_race, int bytes);
    void (*clock)(void *ctx, int64_t local, int64_t offset, int64_t bound, int64_t rtt, double drift_ppm,
                  int64_t sample_offset, int64_t sample_rtt);
    void (*reject)(void *ctx, int64_t local, const char *reason, int64_t count);
    void (*event)(void *ctx, int64_t local, int64_t race, const char *what, const char *detail);
    void (*metrics)(void *ctx, const char *scheme, const Metrics *m, int own_dir);
    bool (*flush)(void *ctx, NrError *err); /* false: the log cannot be kept, the session ends */
    bool (*close)(void *ctx, NrError *err);
    void (*mark)(void *ctx, int64_t local, int64_t race, const char *kind); /* netsession_mark; flushes */
    void (*input)(void *ctx, int64_t race, const CarInput *in); /* the own car's input from race time on */
} NetSessionLog;

/* Makes the controller of this terminal's car once the track is known. */
typedef bool (*NetSessionMakeController)(void *ctx, const Track *track, int car, uint64_t seed, Controller *out,
                                         NrError *err);

typedef struct NetSessionConfig {
    bool host;             /* the race's offerer: a host (car 1) or a server */
    bool server;           /* `netrace serve` (host too): no car; seats ncars clients, relays
                              their MUs and views (client-server, docs/netplay.md "Serve") */
    int ncars;             /* host / server: the race's cars (0: 2) */
    int server_mode;       /* server: 0 relay, 1 sync (route.h RouteServer) */
    NetAddr peer;          /* joiner: the host */
    bool have_allow;       /* host: take a HELLO only from allow.host (any port) */
    NetAddr allow;
    uint64_t entropy;      /* the caller's random bits: token and nonce (never a clock read here) */
    /* The join code (wirecrypt.h; canonical, wirecrypt_code_normalise) both
     * ends were given: every datagram sealed with keys derived from it and
     * the host's salt. NULL: datagrams in clear, as before the envelope:
     * only for tests of the checks behind it (a participant's own packets);
     * the commands always give a code. */
    const char *code;
    uint8_t salt[WIRECRYPT_SALT_BYTES]; /* host: the key's salt, the caller's OS random bytes */
    /* host / server: the secret of the cookies it gives in its key answers
     * (a MAC of the address and nonce, echoed in the sealed HELLO: the
     * sender receives where it says it is), the caller's OS random bytes;
     * only this end holds it */
    uint8_t cookie_key[WIRECRYPT_COOKIE_KEY_BYTES];
    /* host only: the race it offers */
    const char *track_text, *track_file;
    const char *schemes;   /* canonical comma list */
    int shown;
    SchemeParams params;
    int laps;
    int64_t seconds_ms;
    uint64_t seed;
    /* this terminal */
    const LinkSpec *link;  /* emulated link before the wire; NULL = none */
    /* per line (`--link I-J SPEC`), NULL = none: a p2p terminal's lines
     * I-J out of its car I (over link for the others); a client's I-s, its
     * uplink (over link). Checked once the car is known: another car's line
     * ends the session with one line. */
    const LinkMatrix *lines;
    bool raw_clock;        /* schemes on the local clock */
    bool lagometer;        /* the race's engine keeps the lagometer's rings (a window shows them) */
    int64_t offset_true_us; /* the artificial clock error, for the log's header */
    double drift_true_ppm;
    NetSessionMakeController make_controller;
    void *ctx;
    bool external_input;   /* keys / pad: netsession_set_input, no controller */
    NetSessionLog log;     /* zero: no log */
    NetSessionTimeouts timeouts;
    /* host: a study race (below): its step and questions go with WELCOME,
     * the joiner's link with it; the session stays finished until
     * netsession_study_close. NULL: not a study race */
    const struct NetStudyRace *study;
} NetSessionConfig;

#define NETSESSION_PHASES 6
typedef enum NetSessionPhase {
    NETSESSION_WAITING,   /* host: no joiner yet; joiner: no answer yet */
    NETSESSION_SYNCING,   /* settings known, clocks being synchronised */
    NETSESSION_COUNTDOWN, /* the lights: race time < 0 */
    NETSESSION_RACING,
    NETSESSION_FINISHED,  /* own race done, waiting for the peer's */
    NETSESSION_OVER
} NetSessionPhase;

/* Why this end paused (docs/netplay.md "Pause"): the first cause of the
 * pause under way. */
typedef enum NetPauseCause {
    NETSESSION_PAUSE_NONE,        /* not paused */
    NETSESSION_PAUSE_PEER_SILENT, /* nothing heard from the peer for pause_us */
    NETSESSION_PAUSE_STALLED,     /* this terminal was not run for more than stall_us */
    NETSESSION_PAUSE_PEER         /* the peer said PAUSE (it stalled, or heard nothing from here) */
} NetPauseCause;

typedef struct NetSessionStatus {
    NetSessionPhase phase;
    bool paused;         /* the race waits (pause protocol) */
    NetPauseCause pause_cause;
    int64_t stalled_us;  /* PAUSE_STALLED: how long this terminal was not run */
    int64_t race_us;     /* race time now; < 0 in the countdown; 0 before the start is known */
    int64_t offset_us;   /* this terminal's clock minus the synchronised one (joiner; 0 on the host) */
    int64_t bound_us;    /* its error bound (0 on the host) */
    int64_t rtt_us;      /* the chosen exchange's round trip */
    int64_t silent_us;   /* time since the peer was last heard */
    int64_t received, rejected;
    char peer[64];       /* A.B.C.D:PORT, "" before the handshake (a host's or server's first peer) */
    int ncars, own_car;  /* the race's cars (2 before WELCOME); this end's (-1: a server) */
    int seated, seats;   /* host / server: peers in, and the seats it offers */
    int topology;        /* the race's: 0 peer to peer, 1 through a server (WELCOME's) */
} NetSessionStatus;

typedef struct NetDatagram {
    NetAddr to;
    int n;
    const uint8_t *bytes;
} NetDatagram;

typedef enum NetSessionEventKind {
    NETSESSION_EV_JOINED,  /* host / server: a joiner took a seat */
    NETSESSION_EV_PAUSED,
    NETSESSION_EV_RESUMED,
    NETSESSION_EV_FINISHED,
    NETSESSION_EV_OVER,    /* the session ended (netsession_failed says how) */
    NETSESSION_EV_STUDY_ANSWER, /* host: the joiner's player answered (again until acknowledged) */
    NETSESSION_EV_STUDY_DONE,   /* host: the joiner's player answered everything (again until the BYE) */
    NETSESSION_EV_STUDY_RACE_DONE, /* a study race's views are all in (or the linger passed): its metrics whole */
    NETSESSION_EV_STUDY_LOG        /* host: the joiner's log of the race is here whole (value: its bytes), or
                                      the joiner has none (value -1): netsession_study_log */
} NetSessionEventKind;

/* A study race (docs/studies.md "Over the network"): what the host offers
 * with the race (NetSessionConfig.study) and what the joiner learns from
 * WELCOME and the STUDY questions (netsession_study). */
typedef struct NetStudyQuestion {
    char id[WIRE_STUDY_ID];
    int kind;                   /* 0 five-grade ACR (5 Excellent .. 1 Bad), 1 yes / no */
    char text[WIRE_STUDY_TEXT];
} NetStudyQuestion;

typedef struct NetStudyRace {
    int race, races;            /* 1-based, race 0: not a study race */
    bool practice, rated, blind;
    bool rate_only;             /* driven before (a resumed session): no race, the answers (and log) only */
    bool log;                   /* the host wants the joiner's log of the race (its recording) */
    bool brk;                   /* a break comes before this race: it starts once both players rested */
    int nq;                     /* a rated race's questions */
    unsigned given;             /* bit i: the joiner's answer to question i is kept already */
    NetStudyQuestion q[WIRE_STUDY_QUESTIONS];
    char peer_link[WIRE_SCHEMES_TEXT]; /* the joiner's emulated link, canonical netem ("": its own) */
    /* the host's only (its log's header, merge's recording; not sent) */
    char name[160], condition[24]; /* the study's name, the condition's label ("" none) */
    char kind[16];                /* practice, rated or repeat (docs/studies.md) */
    int pair;
} NetStudyRace;

typedef struct NetSessionEvent {
    NetSessionEventKind kind;
    char text[160]; /* one line for the person at the terminal */
    /* NETSESSION_EV_STUDY_ANSWER: the question, the score, the response
     * ms (-1 not measured); NETSESSION_EV_STUDY_DONE: value = the joiner's
     * marks */
    int index, score;
    int64_t value;
} NetSessionEvent;

#define NETSESSION_LOG_WINDOW 32 /* LOG chunks in flight ahead of the host's acknowledgement */

typedef struct NetSession NetSession;
struct NetTerminal;

void netsession_timeouts_default(NetSessionTimeouts *t);
NetSession *netsession_new(const NetSessionConfig *cfg, int64_t now_us, NrError *err);
void netsession_free(NetSession *s);
void netsession_input(NetSession *s, int64_t now_us, const NetAddr *from, const uint8_t *bytes, int n);
void netsession_tick(NetSession *s, int64_t now_us);
int64_t netsession_next_deadline(const NetSession *s);
void netsession_quit(NetSession *s, int64_t now_us, const char *why);
bool netsession_mark(NetSession *s, int64_t now_us, const char *kind, int64_t *race_us, bool *logged);
int netsession_marks(const NetSession *s);
const NetStudyRace *netsession_study(const NetSession *s);
bool netsession_study_answer(NetSession *s, int64_t now_us, int index, int score, int64_t response_ms);
int netsession_study_pending(const NetSession *s);
void netsession_study_done(NetSession *s, int64_t now_us, int marks);
void netsession_study_ack(NetSession *s, int64_t now_us, int index);
void netsession_study_close(NetSession *s, int64_t now_us);
bool netsession_study_send_log(NetSession *s, int64_t now_us, const char *bytes, size_t n);
const char *netsession_study_log(const NetSession *s, size_t *n);
bool netsession_log_end(NetSession *s, int64_t now_us);
void netsession_study_rested(NetSession *s, int64_t now_us);
bool netsession_end(NetSession *s, int64_t now_us);
bool netsession_pop_datagram(NetSession *s, NetDatagram *out);
bool netsession_pop_event(NetSession *s, NetSessionEvent *out);
bool netsession_over(const NetSession *s);
bool netsession_failed(const NetSession *s);
const char *netsession_error(const NetSession *s);
void netsession_status(const NetSession *s, int64_t now_us, NetSessionStatus *out);
void netsession_print(const NetSession *s, int64_t now_us, FILE *f);
int netsession_pauses(const NetSession *s);
bool netsession_peer_left(const NetSession *s);
int netsession_car_count(const NetSession *s);
int netsession_own_car(const NetSession *s);
int netsession_seated(const NetSession *s);
int64_t netsession_rejected(const NetSession *s, const char *reason);
struct NetTerminal *netsession_netterm(NetSession *s);
const Track *netsession_track(const NetSession *s);
int netsession_scheme_count(const NetSession *s);
const SchemeType *netsession_scheme(const NetSession *s, int k);
bool netsession_is_host(const NetSession *s);
void netsession_set_input(NetSession *s, const CarInput *in);

#endif
