/* UDP datagrams for network play: the only place netrace touches sockets
 * (SDL2_net). Non-blocking; one socket per terminal.
 *
 * Contracts:
 *   net_init(err) / net_quit()    SDL2_net start and stop (counted: nested
 *        calls are fine).
 *   netudp_open(port, err)        a socket bound to UDP port (0 = any free
 *        port); NULL + err "UDP port P: reason" when it cannot.
 *   netudp_close(s)               NULL-safe.
 *   netudp_port(s)                the bound port.
 *   netudp_resolve(host, port, out, err)  a peer's address ("127.0.0.1",
 *        "lab-pc-2"); false + err naming host when it does not resolve.
 *   netudp_send(s, to, buf, n)    one datagram of n <= NETUDP_MAX bytes;
 *        false when the stack refuses it (counted by the caller).
 *   netudp_recv(s, buf, cap, from) the next waiting datagram: its size (0
 *        when none waits; NETUDP_EMPTY for a datagram of no bytes, which
 *        the caller counts like any bad packet; -1 on a socket error);
 *        *from gets the sender. A
 *        datagram larger than cap is cut to cap bytes and its size reported
 *        as cap + 1 so the caller can reject it as oversized.
 *   netaddr_equal(a, b) / netaddr_text(a, buf, n)
 */
#ifndef NR_NETUDP_H
#define NR_NETUDP_H

#include "nr_common.h"

#define NETUDP_EMPTY (-2) /* netudp_recv: a zero-length datagram arrived */
#define NETUDP_MAX 1500 /* receive buffer: above the wire format's largest packet */

typedef struct NetAddr {
    uint32_t host; /* network byte order, as SDL2_net keeps it */
    uint16_t port; /* network byte order */
} NetAddr;

typedef struct NetUdp NetUdp;

bool net_init(NrError *err);
void net_quit(void);
NetUdp *netudp_open(uint16_t port, NrError *err);
void netudp_close(NetUdp *s);
uint16_t netudp_port(const NetUdp *s);
bool netudp_resolve(const char *host, uint16_t port, NetAddr *out, NrError *err);
bool netudp_send(NetUdp *s, const NetAddr *to, const uint8_t *buf, int n);
int netudp_recv(NetUdp *s, uint8_t *buf, int cap, NetAddr *from);
bool netaddr_equal(const NetAddr *a, const NetAddr *b);
void netaddr_text(const NetAddr *a, char *buf, size_t n);

#endif
