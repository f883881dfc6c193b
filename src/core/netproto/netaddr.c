/* Datagram addresses as plain data (netaddr.h). */
#include "netaddr.h"

#include <stdio.h>

bool netaddr_equal(const NetAddr *a, const NetAddr *b)
{
    return a->host == b->host && a->port == b->port;
}

void netaddr_text(const NetAddr *a, char *buf, size_t n)
{
    const uint8_t *h = (const uint8_t *)&a->host; /* network order: first byte first */
    const uint8_t *p = (const uint8_t *)&a->port;
    snprintf(buf, n, "%u.%u.%u.%u:%u", h[0], h[1], h[2], h[3], (unsigned)(p[0] << 8 | p[1]));
}

bool netaddr_loopback(const NetAddr *a)
{
    return ((const uint8_t *)&a->host)[0] == 127;
}

NetAddr netaddr_as_seen(const NetAddr *a, const NetAddr *host)
{
    if (!netaddr_loopback(a) || netaddr_loopback(host))
        return *a;
    return (NetAddr){.host = host->host, .port = a->port};
}
