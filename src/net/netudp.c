/* UDP datagrams over SDL2_net with a receive thread that drains the socket
 * in batches and stamps arrivals (netudp.h). */
#define _GNU_SOURCE /* recvmmsg */
#include "netudp.h"

#include <SDL2/SDL_net.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#ifdef __linux__
#include <linux/sock_diag.h>
#endif

#define BATCH 64         /* datagrams taken from the kernel per call */
#define POLL_MS 20       /* how soon the thread notices a close */

/* A queued datagram: this header, then its n bytes, padded to 8. */
typedef struct Rec {
    NetAddr from;
    int32_t n; /* -1: nothing more before the ring's end */
    int64_t stamp;
} Rec;

/* One batch as the kernel hands it over (recvmmsg). */
typedef struct Batch {
    uint8_t bytes[BATCH][NETUDP_MAX + 1];
    struct sockaddr_in from[BATCH];
    struct iovec iov[BATCH];
    struct mmsghdr msg[BATCH];
} Batch;

typedef struct NetUdp {
    NetPort base;
    UDPsocket sock;
    int fd;          /* its descriptor, read by the thread */
    UDPpacket *tx;
    uint16_t port;
    int rcvbuf;
    const NetClock *clock;
    pthread_t thread;
    bool have_thread;
    pthread_mutex_t mu;
    pthread_cond_t ready, space;
    bool stop;
    Batch *batch;    /* the thread's */
    uint8_t *ring;   /* NETUDP_QUEUE_BYTES of records (Rec) */
    size_t head, tail, used, count;
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

/* ---- the ring of stamped datagrams ------------------------------------------ */

static size_t rec_bytes(int n)
{
    return (sizeof(Rec) + (size_t)n + 7) & ~(size_t)7;
}

/* Queues one datagram; false when the ring has no room for it. A record
 * never wraps: the end of the ring too short for it is skipped. */
static bool ring_put(NetUdp *u, const NetAddr *from, int64_t stamp, const uint8_t *b, int n)
{
    size_t need = rec_bytes(n), end = NETUDP_QUEUE_BYTES - u->tail;
    size_t skip = end < need ? end : 0;
    if (u->used + skip + need > NETUDP_QUEUE_BYTES)
        return false;
    if (skip) {
        if (end >= sizeof(Rec))
            memcpy(u->ring + u->tail, &(Rec){.n = -1}, sizeof(Rec));
        u->used += skip;
        u->tail = 0;
    }
    Rec r = {.from = *from, .n = n, .stamp = stamp};
    memcpy(u->ring + u->tail, &r, sizeof r);
    memcpy(u->ring + u->tail + sizeof r, b, (size_t)n);
    u->tail = (u->tail + need) % NETUDP_QUEUE_BYTES;
    u->used += need;
    u->count++;
    return true;
}

/* The oldest record (the ring not empty), past a skipped end. */
static Rec ring_front(NetUdp *u)
{
    Rec r = {.n = -1};
    size_t end = NETUDP_QUEUE_BYTES - u->head;
    if (end >= sizeof r)
        memcpy(&r, u->ring + u->head, sizeof r);
    if (r.n < 0) {
        u->used -= end;
        u->head = 0;
        memcpy(&r, u->ring, sizeof r);
    }
    return r;
}

/* ---- the receive thread ------------------------------------------------------- */

/* Up to BATCH datagrams, waiting at most POLL_MS for the first; their count. */
static int read_batch(NetUdp *u)
{
    Batch *b = u->batch;
    for (int i = 0; i < BATCH; i++) {
        b->iov[i] = (struct iovec){.iov_base = b->bytes[i], .iov_len = NETUDP_MAX + 1};
        b->msg[i].msg_hdr = (struct msghdr){.msg_name = &b->from[i], .msg_namelen = sizeof b->from[i],
                                            .msg_iov = &b->iov[i], .msg_iovlen = 1};
    }
    int got = recvmmsg(u->fd, b->msg, BATCH, MSG_DONTWAIT, NULL);
    if (got > 0)
        return got;
    struct pollfd p = {.fd = u->fd, .events = POLLIN};
    if (poll(&p, 1, POLL_MS) <= 0)
        return 0;
    got = recvmmsg(u->fd, b->msg, BATCH, MSG_DONTWAIT, NULL);
    return got > 0 ? got : 0;
}

/* Queues a batch, all stamped the moment it was read; waits for room when
 * the session lags (the kernel's buffer holds what comes meanwhile, and
 * counts what it drops). false when closing. */
static bool queue_batch(NetUdp *u, int got, int64_t stamp)
{
    const Batch *b = u->batch;
    pthread_mutex_lock(&u->mu);
    for (int i = 0; i < got && !u->stop;) {
        NetAddr from = {.host = b->from[i].sin_addr.s_addr, .port = b->from[i].sin_port};
        int n = b->msg[i].msg_len > NETUDP_MAX ? NETUDP_MAX + 1 : (int)b->msg[i].msg_len;
        if (ring_put(u, &from, stamp, b->bytes[i], n)) {
            i++;
            continue;
        }
        pthread_cond_signal(&u->ready);
        pthread_cond_wait(&u->space, &u->mu);
    }
    bool stop = u->stop;
    pthread_cond_signal(&u->ready);
    pthread_mutex_unlock(&u->mu);
    return !stop;
}

static void *rx_main(void *arg)
{
    NetUdp *u = arg;
    for (;;) {
        pthread_mutex_lock(&u->mu);
        bool stop = u->stop;
        pthread_mutex_unlock(&u->mu);
        if (stop)
            return NULL;
        int got = read_batch(u);
        if (got > 0 && !queue_batch(u, got, netclock_now_us(u->clock)))
            return NULL;
    }
}

/* ---- the port ------------------------------------------------------------------- */

static int udp_recv(NetPort *p, int64_t until, uint8_t *buf, int cap, NetAddr *from, int64_t *stamp)
{
    NetUdp *u = (NetUdp *)p;
    int n = NETPORT_NONE;
    pthread_mutex_lock(&u->mu);
    Rec r = u->count > 0 ? ring_front(u) : (Rec){.n = -1};
    if (u->count > 0 && r.stamp <= until) {
        n = r.n > cap ? cap + 1 : r.n;
        memcpy(buf, u->ring + u->head + sizeof r, (size_t)(n > cap ? cap : n));
        *from = r.from;
        *stamp = r.stamp;
        size_t used = rec_bytes(r.n);
        u->head = (u->head + used) % NETUDP_QUEUE_BYTES;
        u->used -= used;
        if (--u->count == 0)
            u->head = u->tail = u->used = 0;
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
    if (u->count == 0)
        pthread_cond_timedwait(&u->ready, &u->mu, &ts);
    pthread_mutex_unlock(&u->mu);
}

static uint16_t udp_number(const NetPort *p)
{
    return ((const NetUdp *)p)->port;
}

/* Datagrams for this socket the kernel dropped before the thread read
 * them, since it was opened: its own counter (SO_MEMINFO's
 * SK_MEMINFO_DROPS, the `drops` column of /proc/net/udp), exact for this
 * socket whatever else runs; -1 where the system does not say. */
static int64_t udp_drops(const NetPort *p)
{
    const NetUdp *u = (const NetUdp *)p;
#if defined(SO_MEMINFO) && defined(__linux__)
    uint32_t mem[SK_MEMINFO_VARS];
    socklen_t len = sizeof mem;
    if (getsockopt(u->fd, SOL_SOCKET, SO_MEMINFO, mem, &len) == 0 && len > SK_MEMINFO_DROPS * sizeof mem[0])
        return mem[SK_MEMINFO_DROPS];
#else
    (void)u;
#endif
    return -1;
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
    SDLNet_FreePacket(u->tx);
    if (u->sock)
        SDLNet_UDP_Close(u->sock);
    free(u->batch);
    free(u->ring);
    free(u);
}

static const NetPortType udp_type = {"udp", udp_recv, udp_send, udp_wait, udp_number, udp_close, udp_drops};

/* SDL2_net does not expose the descriptor: every SDL2_net socket begins
 * {int ready; SOCKET channel;} (the layout SDLNet_GenericSocket relies on);
 * the descriptor found there is used only when the system confirms it is
 * bound to this port. -1 when not. */
static int socket_fd(UDPsocket sock, uint16_t port)
{
    const struct { int ready, channel; } *head = (const void *)sock;
    int fd = head->channel;
    struct sockaddr_in sa;
    socklen_t len = sizeof sa;
    if (fd < 0 || getsockname(fd, (struct sockaddr *)&sa, &len) != 0 || sa.sin_family != AF_INET ||
        ntohs(sa.sin_port) != port)
        return -1;
    return fd;
}

/* A larger kernel receive buffer, so a burst waits there rather than being
 * dropped while the thread is not scheduled: past the system's rmem_max
 * where allowed (SO_RCVBUFFORCE: root or CAP_NET_ADMIN), else up to it.
 * What the kernel granted. */
static int enlarge_rcvbuf(int fd)
{
    int want = NETUDP_RCVBUF, got = 0;
#ifdef SO_RCVBUFFORCE
    if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &want, sizeof want) != 0)
#endif
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &want, sizeof want);
    socklen_t len = sizeof got;
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
    uint8_t *ring = malloc(NETUDP_QUEUE_BYTES);
    Batch *batch = malloc(sizeof *batch);
    if (!u || !ring || !batch) {
        free(u);
        free(ring);
        free(batch);
        nr_error_set(err, "UDP port %u: out of memory", (unsigned)port);
        return NULL;
    }
    u->base.type = &udp_type;
    u->ring = ring;
    u->batch = batch;
    u->clock = clock;
    u->sock = SDLNet_UDP_Open(port);
    u->tx = u->sock ? SDLNet_AllocPacket(NETUDP_MAX + 1) : NULL;
    if (!u->tx) {
        nr_error_set(err, "UDP port %u: %s", (unsigned)port, SDLNet_GetError());
        udp_close(&u->base);
        return NULL;
    }
    IPaddress *me = SDLNet_UDP_GetPeerAddress(u->sock, -1);
    u->port = me ? SDLNet_Read16(&me->port) : port;
    u->fd = socket_fd(u->sock, u->port);
    if (u->fd < 0) {
        nr_error_set(err, "UDP port %u: SDL2_net's socket has no descriptor this build can read", (unsigned)port);
        udp_close(&u->base);
        return NULL;
    }
    u->rcvbuf = enlarge_rcvbuf(u->fd);
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
