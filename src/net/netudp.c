/* UDP datagrams over SDL2_net with a receive thread that stamps arrivals
 * (netudp.h). */
#include "netudp.h"

#include <SDL2/SDL_net.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <time.h>

typedef struct Slot {
    NetAddr from;
    int64_t stamp;
    int n;
    uint8_t bytes[NETUDP_MAX + 1];
} Slot;

typedef struct NetUdp {
    NetPort base;
    UDPsocket sock;
    SDLNet_SocketSet set;
    UDPpacket *rx, *tx; /* the thread's and the sender's buffers */
    uint16_t port;
    int rcvbuf;
    const NetClock *clock;
    pthread_t thread;
    bool have_thread;
    pthread_mutex_t mu;
    pthread_cond_t ready, space;
    bool stop;
    Slot *q;
    int head, n;
} NetUdp;

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

/* The receive thread: blocks on the socket, stamps each datagram the moment
 * it is read and queues it; waits for room when the session lags (the
 * kernel's buffer holds what comes meanwhile, and counts what it drops). */
static void *rx_main(void *arg)
{
    NetUdp *u = arg;
    for (;;) {
        pthread_mutex_lock(&u->mu);
        while (u->n == NETUDP_QUEUE && !u->stop)
            pthread_cond_wait(&u->space, &u->mu);
        bool stop = u->stop;
        pthread_mutex_unlock(&u->mu);
        if (stop)
            return NULL;
        if (SDLNet_CheckSockets(u->set, 20) <= 0) /* 20 ms: how soon close is noticed */
            continue;
        u->rx->len = 0;
        if (SDLNet_UDP_Recv(u->sock, u->rx) != 1)
            continue;
        int64_t stamp = netclock_now_us(u->clock);
        pthread_mutex_lock(&u->mu);
        Slot *s = &u->q[(u->head + u->n) % NETUDP_QUEUE];
        s->from.host = u->rx->address.host;
        s->from.port = u->rx->address.port;
        s->stamp = stamp;
        s->n = u->rx->len > NETUDP_MAX ? NETUDP_MAX + 1 : u->rx->len;
        memcpy(s->bytes, u->rx->data, (size_t)s->n);
        u->n++;
        pthread_cond_signal(&u->ready);
        pthread_mutex_unlock(&u->mu);
    }
}

static int udp_recv(NetPort *p, int64_t until, uint8_t *buf, int cap, NetAddr *from, int64_t *stamp)
{
    NetUdp *u = (NetUdp *)p;
    int n = NETPORT_NONE;
    pthread_mutex_lock(&u->mu);
    if (u->n > 0 && u->q[u->head].stamp <= until) {
        const Slot *s = &u->q[u->head];
        n = s->n > cap ? cap + 1 : s->n;
        memcpy(buf, s->bytes, (size_t)(n > cap ? cap : n));
        *from = s->from;
        *stamp = s->stamp;
        u->head = (u->head + 1) % NETUDP_QUEUE;
        u->n--;
        pthread_cond_signal(&u->space);
    }
    pthread_mutex_unlock(&u->mu);
    return n;
}

static bool udp_send(NetPort *p, const NetAddr *to, const uint8_t *buf, int n)
{
    NetUdp *u = (NetUdp *)p;
    if (n < 0 || n > NETUDP_MAX)
        return false;
    memcpy(u->tx->data, buf, (size_t)n);
    u->tx->len = n;
    u->tx->address.host = to->host;
    u->tx->address.port = to->port;
    return SDLNet_UDP_Send(u->sock, -1, u->tx) == 1;
}

static void udp_wait(NetPort *p, int64_t until)
{
    NetUdp *u = (NetUdp *)p;
    int64_t left = until - netclock_now_us(u->clock);
    if (left <= 0)
        return;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    int64_t ns = ts.tv_nsec + left * 1000;
    ts.tv_sec += (time_t)(ns / 1000000000);
    ts.tv_nsec = (long)(ns % 1000000000);
    pthread_mutex_lock(&u->mu);
    if (u->n == 0)
        pthread_cond_timedwait(&u->ready, &u->mu, &ts);
    pthread_mutex_unlock(&u->mu);
}

static uint16_t udp_number(const NetPort *p)
{
    return ((const NetUdp *)p)->port;
}

static void udp_close(NetPort *p)
{
    NetUdp *u = (NetUdp *)p;
    if (u->have_thread) {
        pthread_mutex_lock(&u->mu);
        u->stop = true;
        pthread_cond_signal(&u->space);
        pthread_mutex_unlock(&u->mu);
        pthread_join(u->thread, NULL);
        pthread_cond_destroy(&u->ready);
        pthread_cond_destroy(&u->space);
        pthread_mutex_destroy(&u->mu);
    }
    if (u->set)
        SDLNet_FreeSocketSet(u->set);
    SDLNet_FreePacket(u->rx);
    SDLNet_FreePacket(u->tx);
    if (u->sock)
        SDLNet_UDP_Close(u->sock);
    free(u->q);
    free(u);
}

static const NetPortType udp_type = {"udp", udp_recv, udp_send, udp_wait, udp_number, udp_close};

/* A larger kernel receive buffer, so a burst waits there rather than being
 * dropped while the thread is not scheduled. SDL2_net does not expose the
 * descriptor: every SDL2_net socket begins {int ready; SOCKET channel;} (the
 * layout SDLNet_GenericSocket relies on); the descriptor found there is used
 * only when the system confirms it is bound to this port. */
static int enlarge_rcvbuf(UDPsocket sock, uint16_t port)
{
    const struct { int ready, channel; } *head = (const void *)sock;
    int fd = head->channel;
    struct sockaddr_in sa;
    socklen_t len = sizeof sa;
    if (fd < 0 || getsockname(fd, (struct sockaddr *)&sa, &len) != 0 || sa.sin_family != AF_INET ||
        ntohs(sa.sin_port) != port)
        return 0;
    int want = NETUDP_RCVBUF, got = 0;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &want, sizeof want);
    len = sizeof got;
    return getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &got, &len) == 0 ? got : 0;
}

static bool udp_start(NetUdp *u)
{
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&u->mu, NULL);
    pthread_cond_init(&u->ready, &ca);
    pthread_cond_init(&u->space, NULL);
    pthread_condattr_destroy(&ca);
    u->have_thread = pthread_create(&u->thread, NULL, rx_main, u) == 0;
    if (!u->have_thread) {
        pthread_cond_destroy(&u->ready);
        pthread_cond_destroy(&u->space);
        pthread_mutex_destroy(&u->mu);
    }
    return u->have_thread;
}

NetPort *netudp_open(uint16_t port, const NetClock *clock, NrError *err)
{
    NetUdp *u = calloc(1, sizeof *u);
    Slot *q = calloc(NETUDP_QUEUE, sizeof *q);
    if (!u || !q) {
        free(u);
        free(q);
        nr_error_set(err, "UDP port %u: out of memory", (unsigned)port);
        return NULL;
    }
    u->base.type = &udp_type;
    u->q = q;
    u->clock = clock;
    u->sock = SDLNet_UDP_Open(port);
    u->rx = u->sock ? SDLNet_AllocPacket(NETUDP_MAX + 1) : NULL;
    u->tx = u->rx ? SDLNet_AllocPacket(NETUDP_MAX + 1) : NULL;
    u->set = u->tx ? SDLNet_AllocSocketSet(1) : NULL;
    if (!u->set || SDLNet_UDP_AddSocket(u->set, u->sock) < 0) {
        nr_error_set(err, "UDP port %u: %s", (unsigned)port, SDLNet_GetError());
        udp_close(&u->base);
        return NULL;
    }
    IPaddress *me = SDLNet_UDP_GetPeerAddress(u->sock, -1);
    u->port = me ? SDLNet_Read16(&me->port) : port;
    u->rcvbuf = enlarge_rcvbuf(u->sock, u->port);
    if (!udp_start(u)) {
        nr_error_set(err, "UDP port %u: cannot start the receive thread", (unsigned)port);
        udp_close(&u->base);
        return NULL;
    }
    return &u->base;
}

int netudp_rcvbuf(const NetPort *p)
{
    return p->type == &udp_type ? ((const NetUdp *)p)->rcvbuf : 0;
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
