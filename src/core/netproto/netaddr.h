/* A datagram address (IPv4 host and UDP port, network byte order as the
 * socket layer keeps them): plain data, so the session state machine can
 * name its peer without knowing sockets.
 *
 * Contracts:
 *   netaddr_equal(a, b)        same host and port.
 *   netaddr_text(a, buf, n)    "A.B.C.D:PORT" (always NUL-terminated).
 *   netaddr_loopback(a)        on 127.0.0.0/8.
 *   netaddr_as_seen(a, host)   an address a host introduced, as this end
 *        reaches it: a loopback one (a terminal on the host's own machine,
 *        such as a bot of `host --bots`) at the host's address with its
 *        port, when this end reaches the host elsewhere than on loopback;
 *        any other as it is.
 */
#ifndef NR_NETADDR_H
#define NR_NETADDR_H

#include "nr_common.h"

typedef struct NetAddr {
    uint32_t host; /* network byte order: the first byte in memory is the first of A.B.C.D */
    uint16_t port; /* network byte order */
} NetAddr;

bool netaddr_equal(const NetAddr *a, const NetAddr *b);
void netaddr_text(const NetAddr *a, char *buf, size_t n);
bool netaddr_loopback(const NetAddr *a);
NetAddr netaddr_as_seen(const NetAddr *a, const NetAddr *host);

#endif
