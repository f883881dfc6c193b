/* RouteMedium: what one terminal sends to every other terminal of an N-car
 * race, over either topology (DESIGN.md "N players and topologies";
 * docs/nplayers.md), composed of DelayLines (delayline.h).
 *
 * Peer-to-peer (ROUTE_P2P): one emulated link per ordered pair; the MU from
 * terminal i to j crosses link i->j alone.
 * Client-server (ROUTE_CS): a link from each client to the server and one
 * from the server to each client; the MU from i to j crosses i->server, the
 * server's handling, then server->j. The server's behaviours:
 *   ROUTE_RELAY  forwards each MU on arrival;
 *   ROUTE_SYNC   centralised causality control: forwards each MU to every
 *                client at one common output time, its generation time +
 *                hold_us (the scheme's Delta by default), or on arrival
 *                when it comes later.
 *
 * Common random numbers: every line draws its fate at the sender's sample
 * slot (medium_slot), so MU (car, seq) has the same delay and loss on every
 * hop whichever scheme sends it. The uplink's fate is drawn once per MU (the
 * first destination's send; a terminal sends to its peers in ascending
 * order, terminal.h) and shared by every destination; each downlink has its
 * own stream per sending car. The uplink only delays (or loses): its queue
 * limit and `order fifo` are not modelled; the downlinks' are.
 *
 * Random stream of each line (DelayLine dir): p2p i->j: i * (N - 1) +
 * (j < i ? j : j - 1), so two cars use 0 (1->2) and 1 (2->1) as the
 * two-player engine; cs: uplink i: N * (N - 1) + i; downlink to j of car i's
 * MUs: N * N + i * (N - 1) + (j < i ? j : j - 1).
 *
 * Contracts:
 *   route_init(r, cfg, err)   allocates every line (here only); false + err
 *        (r safe to free) on a bad config or out of memory.
 *   route_free(r)             NULL-safe.
 *   route_medium(r)           the Medium value (ctx = r, borrowed).
 *   route_reset(r)            queues emptied, random streams to their start.
 *   route_line_index(N, i, j) the p2p stream index above.
 *   Deliveries leave in due order; equal due times: the lower destination
 *   first, then sending order.
 */
#ifndef NR_ROUTE_H
#define NR_ROUTE_H

#include "delayline.h"

#define ROUTE_MAX_CARS SCHEME_MAX_CARS

typedef enum RouteTopology { ROUTE_P2P = 0, ROUTE_CS = 1 } RouteTopology;
typedef enum RouteServer { ROUTE_RELAY = 0, ROUTE_SYNC = 1 } RouteServer;

typedef struct RouteConfig {
    RouteTopology topology;
    RouteServer server;
    int from, ncars;
    int64_t hold_us;                      /* ROUTE_SYNC: output at gen + hold */
    const LinkSpec *link[ROUTE_MAX_CARS]; /* p2p: from->j; cs: server->j (NULL: no delay) */
    const LinkSpec *up;                   /* cs: from->server (NULL: no delay) */
    uint64_t seed;
    int nschemes;
    bool need_aux;
    const char *const *names;             /* scheme names (delayline_set_schemes) */
} RouteConfig;

typedef struct RouteMedium {
    RouteTopology topology;
    RouteServer server;
    int from, ncars, first_peer;
    int64_t hold_us;
    LinkSpec none;
    DelayLine up;
    DelayLine line[ROUTE_MAX_CARS]; /* [j], j != from */
    bool has_up, has_line[ROUTE_MAX_CARS];
    /* each line's next due time, and the earliest of them (line first_due,
     * -1: none); kept as lines change, so next_due is O(1) */
    int64_t due[ROUTE_MAX_CARS];
    int64_t min_due;
    int min_line;
    /* cs: the uplink fate of each scheme's MU being fanned out */
    bool up_ok[SCHEME_MAX];
    int64_t up_delay_us[SCHEME_MAX];
} RouteMedium;

bool route_init(RouteMedium *r, const RouteConfig *cfg, NrError *err);
void route_free(RouteMedium *r);
Medium route_medium(RouteMedium *r);
void route_reset(RouteMedium *r);
int route_line_index(int ncars, int from, int to);

#endif
