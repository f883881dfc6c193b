/* UDP datagrams over SDL2_net (netudp.h). */
#include "netudp.h"

#include <SDL2/SDL_net.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct NetUdp {
    UDPsocket sock;
    UDPpacket *pkt; /* one receive / send buffer, allocated at open */
    uint16_t port;
};

static int net_users; /* SDL2_net's own state is process-wide: count users */

bool net_init(NrError *err)
{
    if (net_users == 0 && SDLNet_Init() != 0)
        return nr_error_set(err, "network: %s", SDLNet_GetError());
    net_users++;
    return true;
}

void net_quit(void)
{
    if (net_users > 0 && --net_users == 0)
        SDLNet_Quit();
}

NetUdp *netudp_open(uint16_t port, NrError *err)
{
    NetUdp *s = calloc(1, sizeof *s);
    if (!s) {
        nr_error_set(err, "UDP port %u: out of memory", (unsigned)port);
        return NULL;
    }
    s->sock = SDLNet_UDP_Open(port);
    s->pkt = s->sock ? SDLNet_AllocPacket(NETUDP_MAX + 1) : NULL;
    if (!s->sock || !s->pkt) {
        nr_error_set(err, "UDP port %u: %s", (unsigned)port, SDLNet_GetError());
        netudp_close(s);
        return NULL;
    }
    IPaddress *me = SDLNet_UDP_GetPeerAddress(s->sock, -1);
    s->port = me ? SDLNet_Read16(&me->port) : port;
    return s;
}

void netudp_close(NetUdp *s)
{
    if (!s)
        return;
    if (s->pkt)
        SDLNet_FreePacket(s->pkt);
    if (s->sock)
        SDLNet_UDP_Close(s->sock);
    free(s);
}

uint16_t netudp_port(const NetUdp *s)
{
    return s->port;
}

bool netudp_resolve(const char *host, uint16_t port, NetAddr *out, NrError *err)
{
    IPaddress ip;
    if (SDLNet_ResolveHost(&ip, host, port) != 0 || ip.host == INADDR_NONE)
        return nr_error_set(err, "%s: cannot resolve the host name", host);
    out->host = ip.host;
    out->port = ip.port;
    return true;
}

bool netudp_send(NetUdp *s, const NetAddr *to, const uint8_t *buf, int n)
{
    if (n < 0 || n > NETUDP_MAX)
        return false;
    memcpy(s->pkt->data, buf, (size_t)n);
    s->pkt->len = n;
    s->pkt->address.host = to->host;
    s->pkt->address.port = to->port;
    return SDLNet_UDP_Send(s->sock, -1, s->pkt) == 1;
}

int netudp_recv(NetUdp *s, uint8_t *buf, int cap, NetAddr *from)
{
    s->pkt->len = 0;
    int r = SDLNet_UDP_Recv(s->sock, s->pkt);
    if (r <= 0)
        return r < 0 ? -1 : 0;
    from->host = s->pkt->address.host;
    from->port = s->pkt->address.port;
    int n = s->pkt->len;
    if (n <= 0) /* not "nothing waiting": an empty datagram is counted */
        return NETUDP_EMPTY;
    if (n > cap) {
        memcpy(buf, s->pkt->data, (size_t)cap);
        return cap + 1;
    }
    memcpy(buf, s->pkt->data, (size_t)n);
    return n;
}

bool netaddr_equal(const NetAddr *a, const NetAddr *b)
{
    return a->host == b->host && a->port == b->port;
}

void netaddr_text(const NetAddr *a, char *buf, size_t n)
{
    const uint8_t *h = (const uint8_t *)&a->host; /* network order: first byte first */
    snprintf(buf, n, "%u.%u.%u.%u:%u", h[0], h[1], h[2], h[3], (unsigned)SDLNet_Read16(&a->port));
}
