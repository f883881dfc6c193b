/* The two-terminal simulation of the network session tests
 * (test_netsession.c, test_netattack.c): host and joiner, each the real
 * driver of src/net/session.h on the state machine of
 * core/netproto/netsession.h, in one process over the in-memory hub
 * (netmem.h) with simulated clocks. Deterministic: seeded hub, simulated
 * time; no sleep, no wall clock.
 *
 * Contracts:
 *   sim_open(m, o)   both terminals on a fresh hub, logs in a fresh /tmp dir.
 *   sim_run(m, end, each, ctx)  runs both until both are over or true time
 *        end; each (optional) is called once per turn before they run.
 *   sim_close(m)     frees everything, removes the logs.
 *   assert_same_metrics(m)  both ends' live metrics agree, scheme by scheme.
 *   assert_replay_matches(m, schemes)  netrace merge + replay of both logs
 *        prints the host's live metrics.
 *   With SimOpts.cars (a `netrace serve` race, or with SimOpts.p2p a host's
 *   race of that many cars): assert_same_metrics_n (every racing
 *   terminal's live metrics, the N-car ones too, equal) and
 *   assert_replay_matches_n (merge of every racing terminal's log, replay
 *   over its --links matrix: the same figures); assert_replay_matches_served
 *   the same with the server's log (SimOpts.server_log) in the merge: the
 *   replay runs on the cs topology over each hop's measured delays.
 *   sim_dump(m)      every terminal's state, summary and one-line messages
 *        (for a failing test's debugging).
 *   sim_expect_completed(m, extra, samples)  every racing terminal, and
 *        a server, completed; nothing refused but what `extra` names at
 *        t[0] (NULL: nothing) and at most 8 TRACK chunks the jitter put
 *        before their WELCOME (`token`: sent again); the first racing
 *        terminal took `samples` metrics samples. With the environment's
 *        NETSIM_DEBUG set it dumps first.
 *   The sniffer on the hub also counts each terminal's datagrams and bytes
 *   and keeps the joiner's latest SIM_CATCH datagrams (a ring) to replay.
 *   sim_token(m)     the session token as a sniffer saw it on the hub (0
 *        before; only ever seen with SimOpts.clear: it travels sealed).
 *   addr_of(last, port)  10.0.0.last:port.  read_all(path)  a file's text.
 *   sim_make_bot(term, ...)  a session's make_controller: a seeded bot
 *        (skill 0.9, noise 0.5) into term->bot.
 */
#ifndef NR_TEST_NETSIM_H
#define NR_TEST_NETSIM_H

#include "bot.h"
#include "netmem.h"
#include "netterm.h"
#include "session.h"

#include <stdio.h>

#define T0 (INT64_C(1000) * NR_US_PER_S) /* true time at the start: clocks far from 0 */
#define SIM_CODE "7K3QM-X9A2C" /* the host's join code */
#define SIM_CATCH 16       /* datagrams the sniffer keeps */
#define SIM_TERMS 9        /* a server and 8 clients */

typedef struct Term {
    Session *s;
    NetPort *port;
    NetClock clock;
    NetAddr addr;
    Bot *bot;
    FILE *say;              /* its one-line messages */
    char log[256];
    bool done, ok;
    bool dead;              /* killed: never runs again */
    int64_t frozen_until;   /* stopped (SIGSTOP) until this true time */
    int64_t stall_until;    /* its loop busy (a slow frame) until this true time */
    int64_t stall_at_race;  /* the frame callback stalls once at this race time (0: never) */
    int64_t stall_us;
    struct Sim *sim;
} Term;

typedef struct Sim {
    int64_t truth;
    NetHub *hub;
    Term t[SIM_TERMS]; /* 0 host, 1.. joiners; or 0 the server, 1..cars its clients */
    int nterm;
    int first, ncars;  /* the racing terminals: t[first .. first + ncars - 1] */
    NetAddr host_loop; /* the host at 127.0.0.1 (its own machine's joiners join it there) */
    char *track_text;
    char dir[128];
    uint64_t sniffed; /* the token of a packet in clear seen on the hub */
    int64_t sent_bytes[SIM_TERMS], sent_count[SIM_TERMS]; /* put on the hub by each terminal */
    uint8_t caught[SIM_CATCH][WIRE_MAX_BYTES + WIRECRYPT_OVERHEAD]; /* the joiner's latest datagrams to the host */
    int caught_n[SIM_CATCH], ncaught;
} Sim;

typedef struct SimOpts {
    const char *schemes;
    int64_t seconds_ms;
    int64_t offset_us[SIM_TERMS];
    double drift_ppm[SIM_TERMS];
    NetMemLink link[SIM_TERMS]; /* of what each sends */
    int cars;             /* 0: host and joiner; 2..8: `serve` (t[0]) and that many clients, or with p2p a
                             host's race of that many cars (t[0] the host, t[1..] its joiners) */
    bool p2p;             /* with cars: a peer-to-peer race of N */
    const LinkMatrix *lines[SIM_TERMS]; /* each terminal's --link I-J (NULL: none) */
    int server_mode;      /* with cars: 0 relay, 1 sync */
    int extra_clients;    /* with cars: joiners beyond the seats (refused: FULL) */
    bool logs;
    bool server_log;      /* with cars (served): the server logs too (`serve --log`), t[0].log */
    bool allow_other;     /* the host allows only 10.0.0.9 */
    bool host_log_only;   /* with logs: the joiner writes none */
    bool clear;           /* datagrams in clear (no join code): tests of the checks behind the envelope */
    const char *join_code; /* the joiner's code (NULL: the host's, SIM_CODE) */
    uint64_t hub_seed;    /* the hub's random stream (0: 42) */
    int bots_on_host;     /* with p2p: joiners 1..K run on the host's machine (`host --bots`): their ports
                             at the host's address, joining it at 127.0.0.1 */
} SimOpts;

NetAddr addr_of(uint8_t last, uint16_t port);
char *read_all(const char *path);
void sim_open(Sim *m, const SimOpts *o);
void sim_close(Sim *m);
void sim_run(Sim *m, int64_t end, void (*each)(Sim *m, void *ctx), void *ctx);
void assert_same_metrics(Sim *m);
void assert_replay_matches(Sim *m, const char *schemes);
void assert_same_metrics_n(Sim *m);
void sim_dump(Sim *m);
void sim_expect_completed(Sim *m, const char *extra, int64_t samples);
void assert_replay_matches_n(Sim *m, const char *schemes);
void assert_replay_matches_served(Sim *m, const char *schemes);
uint64_t sim_token(const Sim *m);
bool sim_make_bot(void *ctx, const Track *track, int car, uint64_t seed, Controller *out, NrError *err);

#endif
