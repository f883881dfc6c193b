/* An in-memory datagram hub for tests: N ports (netport.h) in one process
 * exchange datagrams over emulated links with configurable delay, jitter,
 * loss, duplication and reordering, drawn from a seeded random stream, all
 * in simulated time (the test moves *truth; netclock_sim reads it). A port
 * can be frozen, as a stopped process (SIGSTOP): what arrives meanwhile
 * waits and is stamped when the port thaws.
 *
 * Contracts:
 *   nethub_new(seed, truth)      a hub on the test's true time (borrowed).
 *   nethub_free(h)               frees the hub and its ports.
 *   nethub_port(h, addr, clock)  a port at addr whose arrival stamps are
 *        read on clock (borrowed; a netclock_sim on the same truth). A
 *        datagram to 127.x.y.z:P goes to the port at the sender's own host
 *        and port P, from 127.x.y.z and the sender's port: every host of the
 *        hub is a machine with its loopback.
 *   nethub_set_link(p, link)     the link of what p sends (default: none,
 *        zero delay, nothing lost).
 *   nethub_freeze(p, frozen)     stop / resume delivering to p.
 *   nethub_next_due(h)           the true time of the next delivery after
 *        now to a port not frozen (INT64_MAX when none).
 *   nethub_sent(h) / nethub_lost(h)  datagrams put on the hub / lost on it.
 *   nethub_tap(h, fn, ctx)       fn sees every datagram put on the hub, as a
 *        sniffer on the wire would (NULL: none).
 *   nethub_block(h, from, to)    every datagram from address `from` to `to`
 *        is lost from now on (a path that does not reach: a firewall);
 *        false when NETHUB_BLOCKS are blocked already.
 */
#ifndef NR_NETMEM_H
#define NR_NETMEM_H

#include "netclock.h"
#include "netport.h"

typedef struct NetMemLink {
    int64_t delay_us;   /* one-way delay */
    int64_t jitter_us;  /* uniform on [-jitter, +jitter] added to it (never below 0) */
    double loss;        /* probability a datagram is lost */
    double dup;         /* probability it arrives twice (the copy with its own delay) */
    double reorder;     /* probability it is held reorder_us longer than the rest */
    int64_t reorder_us;
} NetMemLink;

#define NETHUB_BLOCKS 16 /* paths blocked at once */

typedef struct NetHub NetHub;
typedef void (*NetHubTap)(void *ctx, const NetAddr *from, const NetAddr *to, const uint8_t *bytes, int n);

NetHub *nethub_new(uint64_t seed, const int64_t *truth);
void nethub_free(NetHub *h);
NetPort *nethub_port(NetHub *h, NetAddr addr, const NetClock *clock);
void nethub_set_link(NetPort *p, const NetMemLink *link);
void nethub_freeze(NetPort *p, bool frozen);
int64_t nethub_next_due(const NetHub *h);
int64_t nethub_sent(const NetHub *h);
int64_t nethub_lost(const NetHub *h);
void nethub_tap(NetHub *h, NetHubTap fn, void *ctx);
bool nethub_block(NetHub *h, const NetAddr *from, const NetAddr *to);

#endif
