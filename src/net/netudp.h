/* UDP datagrams for network play over SDL2_net: the only place netrace
 * touches sockets. A port (netport.h) whose receive thread blocks on the
 * socket, takes what waits there in batches (recvmmsg) and stamps every
 * datagram on arrival, off the drawing path, into a ring the session reads;
 * when the ring is full the thread stops reading and the kernel's buffer
 * (enlarged where the system allows) holds the rest. What the kernel drops
 * is counted by the socket itself and read exactly (netport_drops).
 *
 * Contracts:
 *   net_init(err) / net_quit()    SDL2_net start and stop (counted: nested
 *        calls are fine).
 *   netudp_open(port, clock, err) a port bound to UDP port (0 = any free
 *        port) whose arrival stamps are read on clock (borrowed; must be
 *        safe from any thread: netclock_real); NULL + err "UDP port P:
 *        reason" when it cannot. Close it with netport_close.
 *   netudp_resolve(host, port, out, err)  a peer's address ("127.0.0.1",
 *        "lab-pc-2"); false + err naming host when it does not resolve.
 *   netudp_rcvbuf(p)              the socket's receive buffer in bytes as
 *        the kernel granted it (0 when unknown or not a UDP port).
 */
#ifndef NR_NETUDP_H
#define NR_NETUDP_H

#include "netclock.h"
#include "netport.h"

#define NETUDP_MAX 1500 /* receive buffer: above the wire format's largest packet */
#define NETUDP_QUEUE_BYTES (8 << 20) /* the ring of stamped datagrams waiting for the session */
/* asked of the kernel: 16 MiB (it grants twice that past its rmem_max to
 * root, else up to twice rmem_max) */
#define NETUDP_RCVBUF (16 << 20)

bool net_init(NrError *err);
void net_quit(void);
NetPort *netudp_open(uint16_t port, const NetClock *clock, NrError *err);
bool netudp_resolve(const char *host, uint16_t port, NetAddr *out, NrError *err);
int netudp_rcvbuf(const NetPort *p);

#endif
