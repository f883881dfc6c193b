/* RouteMedium: what every terminal of an N-car race sends to every other,
 * over either topology (DESIGN.md "N players and topologies";
 * docs/nplayers.md): one medium for the whole race, its lines drawing their
 * fates as DelayLines do (delayline.h), its packets kept in one queue.
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
 * A downlink given as a measured trace named `direction sJ` (a served
 * race's hops, docs/link.md "Trace") takes, on the line of car i's MUs,
 * the rows of direction (i+1)sJ (linkspec_via_server).
 *
 * Random stream of each line (DelayLine dir): p2p i->j: i * (N - 1) +
 * (j < i ? j : j - 1), so two cars use 0 (1->2) and 1 (2->1) as the
 * two-player engine; cs: uplink i: N * (N - 1) + i; downlink to j of car i's
 * MUs: N * N + i * (N - 1) + (j < i ? j : j - 1).
 *
 * The queue: packets of one line sent at one instant with one due time
 * (every scheme's copy of a sample's MU takes the slot's fate) form one
 * group; each line keeps its groups in due order (equal times: sending
 * order). The earliest of the lines' first groups leaves first, ties going
 * to the lower sender, then destination: the order in which per-line queues
 * merged by sender, then destination, hand them out. What one terminal
 * receives changes that terminal alone, so the engine may take each
 * terminal's deliveries in turn (route_due_begin / next): to one terminal, in
 * the same order.
 * An MU's bytes are stored once for all its copies (every destination;
 * every scheme that sends the same bytes from the same terminal).
 *
 * Contracts:
 *   route_init(r, cfg, err)   allocates every line and the queue (here
 *        only); false + err (r safe to free) on a bad config or out of
 *        memory.
 *   route_free(r)             NULL-safe.
 *   route_medium(r)           the Medium value (ctx = r, borrowed): slot,
 *        send, next_due, pop_due, in_flight (every sender's), clear.
 *   route_reset(r)            queues emptied, random streams to their start.
 *   route_line_index(N, i, j) the p2p stream index above.
 *   route_send_all(r, k, from, mu, now_us, out)  the medium's send to every
 *        other terminal in ascending order; out counts the copies lost,
 *        duplicated and dropped by a full queue, and marks the
 *        destinations whose copy will never arrive (lost or dropped).
 *   route_send_many(r, k, from, mu, n, now_us, out)  n sends of one
 *        terminal at one instant (scheme k[i] sends mu[i], in that order),
 *        line by line: the same queues, fates and out[i] as n calls of
 *        route_send_all in that order.
 *   route_next_due(r)         the earliest due time queued (INT64_MAX: none).
 *   route_due_begin(r, to, t_us, it), then route_due_next(r, it) until -1:
 *        every group for terminal `to` due at or before t_us, taken off the
 *        queue in route_pop_group's order (among that terminal's groups);
 *        nothing may be sent between the two (the lines into `to` are read
 *        once, at the start, and then only the lines taken from).
 *   route_pop_group(r, t_us)  the first group due at or before t_us, taken
 *        off the queue (-1: none); route_group(r, g) reads it, route_fan
 *        its copies (copy e of the fan is in the group when bit e of the
 *        group's mask is set; route_mu the bytes), route_drop_group(r, g)
 *        releases it once delivered; route_mu_ok(r, m) is mu_fields_ok
 *        of the stored bytes (mu.h), checked once for every receiver.
 *        Deliveries leave in due order; equal due times: the lower sender
 *        first, then the lower destination, then sending order (as
 *        route_pop_due hands them out one by one).
 *   route_in_flight(r, k, from, out, max)  scheme k's MUs in flight from
 *        terminal `from` (any order).
 *   route_set_line(r, from, to, spec, err)  live change of a line (nodes
 *        0..N-1, ROUTE_SERVER): p2p from -> to; cs from -> ROUTE_SERVER the
 *        uplink of client from, ROUTE_SERVER -> to the downlink to client to
 *        (every sender's stream on it). Applies to MUs sent after the call;
 *        the random streams continue. False + err when the race has no such
 *        line or out of memory.
 */
#ifndef NR_ROUTE_H
#define NR_ROUTE_H

#include "delayline.h"

#define ROUTE_MAX_CARS SCHEME_MAX_CARS
#define ROUTE_SERVER ROUTE_MAX_CARS /* the server's node index (cs lines I-s, s-J) */

typedef enum RouteTopology { ROUTE_P2P = 0, ROUTE_CS = 1 } RouteTopology;
typedef enum RouteServer { ROUTE_RELAY = 0, ROUTE_SYNC = 1 } RouteServer;

typedef struct RouteConfig {
    RouteTopology topology;
    RouteServer server;
    int ncars;
    int64_t hold_us; /* ROUTE_SYNC: output at gen + hold */
    /* p2p: link[i][j] the line i->j; cs: link[i][j] the downlink to j of
     * car i's MUs (server->j); NULL: no delay */
    const LinkSpec *link[ROUTE_MAX_CARS][ROUTE_MAX_CARS];
    const LinkSpec *up[ROUTE_MAX_CARS]; /* cs: i->server (NULL: no delay) */
    uint64_t seed;
    int nschemes;
    bool need_aux;
    const char *const *names; /* scheme names (delayline_set_schemes) */
} RouteConfig;

#define ROUTE_FAN 32 /* copies one fan record holds */

/* What one terminal sent at one instant, for every line out of it: copy e
 * is scheme k[e]'s MU, stored as record mu[e] (consecutive copies of the
 * same bytes share one record). */
typedef struct RouteFan {
    int64_t sent_us;
    int32_t refs; /* groups that carry copies of it */
    int32_t n, from;
    uint8_t k[ROUTE_FAN];
    int32_t mu[ROUTE_FAN];
} RouteFan;

/* Copies of one fan record on one line, due at one time: the copies whose
 * bits mask holds, in sending order. */
typedef struct RouteGroup {
    int64_t due_us;
    int32_t fan, from, to;
    uint32_t mask;
} RouteGroup;

_Static_assert(ROUTE_FAN <= 32, "a group's copies fit its 32-bit mask");

/* A pool of fixed-size records: indices from `fresh` on were never used,
 * free[0..nfree) lists the released ones. */
typedef struct RoutePool {
    int32_t *free;
    int32_t nfree, fresh;
} RoutePool;

typedef struct RouteFates {
    int lost, duplicated, overflow;
    uint32_t lost_to; /* bit `to`: that copy lost or dropped by a full queue */
} RouteFates;

typedef struct RouteMedium {
    RouteTopology topology;
    RouteServer server;
    int ncars, nschemes;
    int64_t hold_us;
    LinkSpec none;
    DelayLine *line;  /* [from * ncars + to], from != to */
    DelayLine *up;    /* cs: [from] */
    bool *has_line;   /* [from * ncars + to]: initialised (freed by route_free) */
    bool *has_up;
    int32_t *open;    /* [from * ncars + to]: the line's newest group while queued, -1 */
    /* cs: the uplink fate of each sender's and scheme's MU being fanned out */
    bool up_ok[ROUTE_MAX_CARS][SCHEME_MAX];
    int64_t up_delay_us[ROUTE_MAX_CARS][SCHEME_MAX];
    int32_t cur_fan[ROUTE_MAX_CARS]; /* each sender's newest fan record while it lives, -1 */
    int cap;          /* copies at most: every line's every scheme at its limit */
    /* each line's groups in due order: a ring of line_cap group indices
     * (qstore[li * line_cap ..]) from qhead[li], qn[li] of them; head_due[li]
     * the first one's due instant, INT64_MAX: none */
    int32_t *qstore, *qhead, *qn;
    int64_t *head_due;
    int line_cap;
    int32_t first;    /* the line whose first group leaves first, unless first_stale */
    bool first_stale;
    RouteGroup *group;
    RouteFan *fan;
    Mu *mus;
    bool *mu_ok; /* [m]: mu_fields_ok(mus[m]), found once when stored */
    RoutePool groups, fans, mupool;
} RouteMedium;

bool route_init(RouteMedium *r, const RouteConfig *cfg, NrError *err);
void route_free(RouteMedium *r);
Medium route_medium(RouteMedium *r);
void route_reset(RouteMedium *r);
int route_line_index(int ncars, int from, int to);
RouteFates route_send_all(RouteMedium *r, int k, int from, const Mu *mu, int64_t now_us);
void route_send_many(RouteMedium *r, const int *k, int from, const Mu *mu, int n, int64_t now_us, RouteFates *out);
int32_t route_pop_group(RouteMedium *r, int64_t t_us);
/* The groups due for one terminal: lines into it with a due group, by
 * (due, line). */
typedef struct RouteDueTo {
    int64_t t_us;
    int head, n; /* the candidates are [head, n) */
    int32_t line[ROUTE_MAX_CARS];
    int64_t due[ROUTE_MAX_CARS];
} RouteDueTo;

void route_due_begin(const RouteMedium *r, int to, int64_t t_us, RouteDueTo *it);
int32_t route_due_next(RouteMedium *r, RouteDueTo *it);
int64_t route_next_due(RouteMedium *r);
void route_drop_group(RouteMedium *r, int32_t g);
int route_in_flight(const RouteMedium *r, int k, int from, InFlight *out, int max);
bool route_set_line(RouteMedium *r, int from, int to, const LinkSpec *spec, NrError *err);

static inline const RouteGroup *route_group(const RouteMedium *r, int32_t g)
{
    return &r->group[g];
}

static inline const RouteFan *route_fan(const RouteMedium *r, const RouteGroup *g)
{
    return &r->fan[g->fan];
}

static inline const Mu *route_mu(const RouteMedium *r, int32_t m)
{
    return &r->mus[m];
}

static inline bool route_mu_ok(const RouteMedium *r, int32_t m)
{
    return r->mu_ok[m];
}

#endif
