/* The session state machine's state, shared by its files: netsession.c
 * (queues, timers, pause), netsession_rx.c (received datagrams),
 * netsession_race.c (the race: every netterm call) and netsession_view.c
 * (status and summary). Private to core/netproto. */
#ifndef NR_NETSESSION_INTERNAL_H
#define NR_NETSESSION_INTERNAL_H

#include "netsession.h"

#include "clocksync.h"
#include "netterm.h"
#include "rng.h"

#include <stddef.h>

#define RTT_KEEP 8192 /* exchanges kept for the median round trip */
#define REJECT_REASONS (WIRE_RESULT_COUNT + 7)
#define REJECT_ADDRESS WIRE_RESULT_COUNT /* a datagram from another address */
#define REJECT_BUSY (WIRE_RESULT_COUNT + 1) /* a HELLO once a joiner is in */
#define REJECT_RANGE (WIRE_RESULT_COUNT + 2) /* a time that does not fit this race (netsession_range.c) */
#define REJECT_AUTH (WIRE_RESULT_COUNT + 3) /* a sealed datagram that does not open: forged, altered, another code */
#define REJECT_REPLAY (WIRE_RESULT_COUNT + 4) /* a sealed counter seen, or older than the window */
#define REJECT_UNSEALED (WIRE_RESULT_COUNT + 5) /* in clear where only sealed datagrams go */
#define REJECT_COOKIE (WIRE_RESULT_COUNT + 6) /* a sealed HELLO whose cookie is not its source address's */
#define KEY_ANSWER_BYTES 40 /* the host's answer to a HELLO in clear (netsession_seal.c) */
#define PROBES_KEEP 256 /* clock probes whose t1 is kept: an answer to an older one is refused */
/* The largest clock skew of MU stamps: --clock-offset's limit (1 h) and a minute */
#define RANGE_SKEW_US (INT64_C(3660) * NR_US_PER_S)
/* The largest distance of the peer's clock stamps from this end's (2^61 us,
 * 73,000 years: clocks of unrelated machines, and sums of two never overflow) */
#define RANGE_CLOCK_US (INT64_C(1) << 61)
#define EVENTS_KEEP 64 /* events not yet popped; older ones are dropped */
#define HELD_KEEP 4096 /* packets from the peer's future (about 2 s of a 12-scheme race) */
#define LOG_FLUSH_US NR_US_PER_S /* the log is flushed once a second */

typedef enum Phase { PH_HANDSHAKE, PH_SYNC, PH_COUNTDOWN, PH_RACE, PH_FINISHED, PH_OVER } Phase;

#define NET_PEERS_MAX WIRE_MAX_CARS /* a server's clients; a host's joiners */
#define RELAY_KEEP 8192 /* MUs a `sync` server holds until their output instant: ~4 s of 8 cars, 12 schemes */

/* One end this session exchanges with: the host (a joiner's peer 0), a
 * joiner (the host's; another joiner of a p2p race of N, a joiner's peers
 * 1..), a client (the server's), with the link's own keys
 * (wirecrypt_link) and what the protocol knows of it. */
typedef struct NetPeer {
    NetAddr addr;
    int car;              /* its car, 0-based; -1 the server or the host before WELCOME */
    uint64_t nonce;       /* the joiner's HELLO nonce (the link's end a) */
    WireKeys keys;
    bool have_keys;
    WireReplay replay;
    uint64_t tx_count;    /* the envelope's counter towards it */
    int64_t last_heard;   /* local time */
    bool ready;           /* host / server: it said READY */
    bool racing;          /* its race traffic arrived: START no longer repeated to it */
    bool at_cap;          /* host / server: it said it stands at the pause point */
    bool finished, bye;
    int64_t finish_race;  /* its race time at its FINISH */
    /* it receives at addr: a host's joiner (its cookie), a joiner's host
     * (the address given), the other joiner of a p2p pair (the pair's
     * cookie round trip, netsession_p2p.c); until then it gets nothing but
     * the PEER steps (seal_push) */
    bool proven;
    bool introduced;      /* host of a p2p race of N: it has the PEERS table */
    bool acked;           /* joiner, the lower car of a pair: the other end proved this one */
    uint64_t challenge;   /* joiner, the lower car of a pair: its hello's random number */
    uint64_t cookie;      /* joiner, the lower car: the other end's cookie of this end's address */
    int64_t next_step;    /* joiner, the lower car: its step said again then */
    int hellos;           /* joiner, the lower car: hellos sent unanswered (their spacing doubles) */
} NetPeer;

/* An MU a `sync` server forwards at its output instant (route.h ROUTE_SYNC),
 * or one its emulated downlink to a client holds (`--link s-J`). */
typedef struct Relay {
    int64_t due_race;     /* the sample's instant + Delta, or its arrival + the downlink's delay: race time */
    int from;             /* the sending peer */
    int to;               /* the one client it goes to (a downlink's), -1 every client but from */
    int n;
    uint8_t bytes[WIRE_MAX_BYTES]; /* the packet as it came (its token, pkt_seq) */
} Relay;

/* A received MU or VIEW held in a pause (docs/netplay.md "Pause";
 * netsession_race.c race_deliver). */
typedef struct Held {
    WirePacket p;
    int64_t arr_local, send_race;
    int64_t arr_race;      /* the race time it is delivered at */
    int64_t release_after; /* delivered once race time passes this */
    int bytes;
} Held;

struct NetSession {
    NetSessionConfig cfg;
    NetSessionTimeouts to;
    char err[NR_ERROR_MAX];
    bool failed;
    /* the ends this one exchanges with: a joiner's host, a host's joiners,
     * a server's clients (netsession_peer.c) */
    NetPeer peers[NET_PEERS_MAX];
    int npeers;
    int seats;             /* host / server: joiners it seats (ncars - 1, or ncars for a server) */
    int ncars, own_car;    /* the race's cars; this end's (-1: a server) */
    bool full_said;        /* the seats were all taken */
    uint64_t token, nonce;
    uint64_t cookie;       /* a joiner: the host's cookie of its address (key answer), in its sealed HELLOs */
    /* the envelope (netsession_seal.c): the session master once derived
     * (each peer has its link's keys) */
    uint8_t master[WIRECRYPT_KEY_BYTES];
    bool have_master;
    uint64_t tx_count;     /* counter of a joiner's sealed HELLOs */
    uint32_t pkt_seq, probe_id;
    Rng rng;
    Phase phase;
    int64_t now;           /* the latest local time seen (input or tick) */
    /* race settings (the host's own, the joiner's from WELCOME) */
    WireWelcome welcome;
    char *track_text;
    uint32_t track_got;
    uint8_t *chunk_seen;   /* one flag per TRACK chunk */
    Track *track;
    const SchemeType *schemes[SCHEME_MAX];
    int nschemes;
    Controller ctl;
    struct NetTerminal *np;
    bool log_open;
    /* clocks */
    ClockSync cs;
    int64_t rtt[RTT_KEEP];
    int nrtt;
    int64_t next_probe, next_hello, handshake_deadline, next_retry;
    int64_t probe_t1[PROBES_KEEP]; /* t1 of probe id, at id % PROBES_KEEP */
    int64_t sync_deadline; /* the start must be known by then (entering PH_SYNC + give_up_us) */
    bool have_skew[WIRE_MAX_CARS]; /* each car's MU stamps minus their samples' instants (netsession_range.c) */
    int64_t skew[WIRE_MAX_CARS];
    int64_t start_sync;    /* synchronised instant of race time 0 */
    bool have_start;
    /* race time, netsession.c race_at: sync - start_sync - shift, at most
     * cap, never below race_last */
    int64_t shift_us;      /* stalls taken out of race time */
    int64_t cap;           /* INT64_MAX, or the pause point */
    int64_t race_last;     /* race time the race has been advanced to */
    /* pause (docs/netplay.md "Pause") */
    bool paused;           /* race time capped at cap */
    int pauses;            /* times this end entered a pause */
    NetPauseCause pause_cause; /* why the pause under way began */
    int64_t stalled_us;    /* the last stall's length (local us) */
    int64_t resumed_from;  /* the point of the last pause over (INT64_MIN: none) */
    int64_t next_pause_say;
    int64_t paused_since;  /* local time this pause began: it ends the race give_up_us later */
    int resume_left;       /* host: RESUMEs still to send */
    int64_t next_resume;
    Held *held;            /* HELD_KEEP, allocated with the race; sorted by send_race */
    int nheld;
    int64_t last_mu_arr;   /* race time the last MU was delivered at */
    bool peer_finished, peer_bye; /* a joiner: its host said FINISH / BYE (a host / server: every peer) */
    int64_t peer_finish_race; /* the earliest race time a peer finished at */
    bool have_peer_finish; /* a peer said FINISH: peer_finish_race holds */
    /* a p2p race of N cars (netsession_p2p.c) */
    bool have_peers;       /* joiner: the host's PEERS taken: peers 1.. are the other joiners */
    bool connecting;       /* joiner: PEERS said go: its pairs are being proven */
    int64_t next_intro;    /* host: PEERS sent again */
    int64_t finished_local;
    /* a server (netsession_serve.c): MUs held to their output time, counters */
    Relay *relay;          /* RELAY_KEEP, by due_race; NULL but for a sync server */
    int nrelay;
    int64_t relayed_mu, relayed_view, relay_dropped;
    /* a server's emulated downlinks (`--link s-J`, the clients' cars): each
     * MU relayed to car j drawn a fate on down[j], held in downq until due */
    Link *down[NET_PEERS_MAX];
    Relay *downq;          /* RELAY_KEEP, by due_race; NULL without a downlink */
    int ndownq;
    int64_t down_lost;
    /* counters */
    int64_t received, rejected[REJECT_REASONS], rejected_total;
    int64_t next_log_flush;
    WireCheck chk;
    CarInput input;
    /* what goes out: datagrams (bytes in one growing buffer) and events */
    uint8_t *out_bytes;
    size_t out_len, out_cap, out_pos;
    NetSessionEvent events[EVENTS_KEEP];
    int ev_head, nev;
    /* a study race (netsession_study.c): the host's offer or what the
     * joiner was told; bit i of a mask: question i */
    NetStudyRace study;
    unsigned study_q_seen;   /* joiner: questions received */
    unsigned study_given;    /* joiner: answered; host: -- */
    unsigned study_acked;    /* joiner: acknowledged; host: kept by the app */
    unsigned study_heard;    /* host: an answer arrived */
    int study_score[WIRE_STUDY_QUESTIONS];
    int64_t study_ms[WIRE_STUDY_QUESTIONS];
    bool study_done;         /* joiner: every answer given: DONE until the BYE */
    int study_marks;         /* joiner: its player's marks, said with DONE */
    int marks_own;           /* netsession_mark: marks given here */
    int64_t study_next_send; /* joiner: the next repeat of what is not acknowledged */
    bool study_peer_done;    /* host: the joiner said DONE */
    int study_peer_marks;
    bool study_closed;       /* host: the app ended the study race */
    bool study_race_said;    /* NETSESSION_EV_STUDY_RACE_DONE said */
    /* the joiner's log of a study race (netsession_study.c) */
    char *study_log;         /* joiner: the bytes to send; host: those kept, in order (a NUL after) */
    uint32_t study_log_n;    /* joiner: its size; host: the total the first chunk said (0: none yet) */
    uint32_t study_log_acked; /* joiner: acknowledged; host: kept */
    uint32_t study_log_sent; /* joiner: sent up to (the window's end) */
    uint32_t study_log_tick; /* joiner: acknowledged at the last retry tick (unchanged since: send again) */
    bool study_log_given;    /* joiner: netsession_study_send_log called (study_log NULL: LOG_NONE) */
    bool study_log_done;     /* host: whole, or the joiner has none */
    bool study_rest;         /* a break before this race: this end's player rests (no READY, no start) */
    LinkSpec peer_link;      /* joiner: the link WELCOME gave it */
    bool have_peer_link;
    bool emulates;           /* an emulated link on some line out of this terminal (its deliveries polled) */
};

/* netsession_peer.c */
int peer_find(const NetSession *s, const NetAddr *from);
int64_t peers_heard(const NetSession *s);
bool peers_all(const NetSession *s, size_t flag_offset);
bool peers_done(const NetSession *s);
void send_to(NetSession *s, int i, WirePacket *p);
void send_raw_to(NetSession *s, int i, const uint8_t *b, size_t n);
#define PEERS_ALL(s, field) peers_all((s), offsetof(NetPeer, field))
/* netsession_serve.c: a server's race (no car of its own) */
bool serve_setup(NetSession *s, NrError *err);
void serve_receive(NetSession *s, int from, const WirePacket *p, const uint8_t *bytes, int n, int64_t l);
void serve_advance(NetSession *s, int64_t race);
int64_t serve_next_due(const NetSession *s);
void serve_finish_tick(NetSession *s, int64_t l);
void serve_print(const NetSession *s, FILE *f);
/* netsession.c */
int64_t sync_at(const NetSession *s, int64_t local);
int64_t race_at(const NetSession *s, int64_t local);
void send_packet(NetSession *s, WirePacket *p);
void send_control(NetSession *s, int code, int64_t arg);
void session_event(NetSession *s, const char *what, const char *detail);
void session_say(NetSession *s, NetSessionEventKind kind, const char *text);
void session_fail(NetSession *s, const char *what, const char *detail, const char *msg);
/* netsession_pause.c */
void pause_at(NetSession *s, int64_t point, NetPauseCause cause, const char *why);
void pause_heard(NetSession *s, int from, int64_t point);
void resume_heard(NetSession *s, int64_t start_sync);
const char *reject_name(int r);
/* netsession_race.c: every netterm_* call of the session */
bool race_setup(NetSession *s, NrError *err);
void race_begin(NetSession *s, int64_t l);
void race_advance(NetSession *s, int64_t race);
void race_deliver(NetSession *s, const WirePacket *p, int64_t arr_local, int bytes);
void race_check(NetSession *s, int64_t l);
bool race_done(const NetSession *s);
bool race_paired(const NetSession *s, int64_t peer_samples);
int64_t race_next_sample(const NetSession *s);
void race_log_metrics(NetSession *s);
void race_free(NetSession *s);
/* netsession_study.c: a study race */
void study_welcome(NetSession *s);
void study_send_questions(NetSession *s, int to);
void study_welcomed(NetSession *s);
bool study_questions_here(const NetSession *s);
bool study_rate_only(NetSession *s);
void study_receive(NetSession *s, const WireStudy *st);
void study_log_chunk(NetSession *s, const WireTrack *t);
void schedule_start(NetSession *s, int64_t lights); /* netsession_rx.c: the lights' instant */
bool study_holds(const NetSession *s);
void study_tick(NetSession *s, int64_t l);
int64_t study_next_due(const NetSession *s);
/* netsession_range.c */
bool range_ok(NetSession *s, const WirePacket *p, int64_t l);
int64_t range_ahead_us(const NetSession *s);
/* netsession_seal.c */
bool seal_keys(NetSession *s, const uint8_t *salt, NrError *err);
void seal_push(NetSession *s, int to, const uint8_t *b, size_t n);
int seal_open(NetSession *s, int64_t l, const NetAddr *from, const uint8_t *buf, int n, uint8_t *inner, int *inner_n,
              int *peer);
uint64_t seal_session_id(const NetSession *s);
uint64_t seal_cookie(const NetSession *s, const NetAddr *addr, uint64_t nonce);
/* netsession_p2p.c: a peer-to-peer race of N cars */
bool p2p_race(const NetSession *s);
int peer_of_car(const NetSession *s, int car);
void p2p_intro_tick(NetSession *s, int64_t l);
void p2p_pair_tick(NetSession *s, int64_t l);
int p2p_receive(NetSession *s, int at, const WirePacket *p);
bool p2p_connected(const NetSession *s);
int64_t p2p_next_deadline(const NetSession *s);
bool p2p_unreached(const NetSession *s, char *buf, size_t n);
/* netsession.c */
void push_datagram(NetSession *s, const NetAddr *to, const uint8_t *b, size_t n);
void reject(NetSession *s, int reason);
/* netsession_rx.c */
void session_receive(NetSession *s, int64_t l, const NetAddr *from, const uint8_t *buf, int n);

#endif
