/* The in-memory datagram hub of the network tests (netmem.h). */
#include "netmem.h"

#include "rng.h"

#include <stdlib.h>
#include <string.h>

#define HUB_PORTS 16
#define HUB_MAX_BYTES 2048 /* above every datagram a test sends */

typedef struct Flight {
    int to;          /* port index */
    NetAddr from;
    int64_t due;     /* true time of arrival */
    uint64_t order;  /* sending order: ties keep it */
    int n;
    uint8_t bytes[HUB_MAX_BYTES];
} Flight;

typedef struct MemPort {
    NetPort base;
    NetHub *hub;
    NetAddr addr;
    const NetClock *clock;
    NetMemLink link;
    bool frozen;
    int64_t freeze_true, thaw_true; /* the last freeze, true time */
} MemPort;

struct NetHub {
    Rng rng;
    const int64_t *truth;
    MemPort *ports[HUB_PORTS];
    int nports;
    Flight *fl;
    int nfl, capfl;
    uint64_t order;
    int64_t sent, lost;
    NetHubTap tap; /* sees every datagram put on the hub (a sniffer) */
    void *tap_ctx;
    NetAddr block_from[NETHUB_BLOCKS], block_to[NETHUB_BLOCKS]; /* paths that lose everything */
    int nblock;
};

NetHub *nethub_new(uint64_t seed, const int64_t *truth)
{
    NetHub *h = calloc(1, sizeof *h);
    if (h) {
        rng_seed(&h->rng, seed, 0x687562); /* stream "hub" */
        h->truth = truth;
    }
    return h;
}

void nethub_free(NetHub *h)
{
    if (!h)
        return;
    for (int i = 0; i < h->nports; i++)
        free(h->ports[i]);
    free(h->fl);
    free(h);
}

static double unit(NetHub *h)
{
    return (double)(rng_u64(&h->rng) >> 11) * 0x1.0p-53;
}

static void fly(NetHub *h, int to, const NetAddr *from, const uint8_t *b, int n, int64_t delay)
{
    if (h->nfl == h->capfl) {
        int cap = h->capfl ? h->capfl * 2 : 256;
        Flight *f = realloc(h->fl, sizeof *f * (size_t)cap);
        if (!f)
            return;
        h->fl = f;
        h->capfl = cap;
    }
    Flight *f = &h->fl[h->nfl++];
    f->to = to;
    f->from = *from;
    f->due = *h->truth + (delay > 0 ? delay : 0);
    f->order = h->order++;
    f->n = n;
    memcpy(f->bytes, b, (size_t)n);
}

static int64_t draw_delay(NetHub *h, const NetMemLink *l)
{
    int64_t d = l->delay_us;
    if (l->jitter_us > 0)
        d += (int64_t)((unit(h) * 2.0 - 1.0) * (double)l->jitter_us);
    if (l->reorder > 0 && unit(h) < l->reorder)
        d += l->reorder_us;
    return d;
}

static bool mem_send(NetPort *p, const NetAddr *to, const uint8_t *buf, int n)
{
    MemPort *m = (MemPort *)p;
    NetHub *h = m->hub;
    if (n < 0 || n > HUB_MAX_BYTES)
        return false;
    h->sent++;
    if (h->tap)
        h->tap(h->tap_ctx, &m->addr, to, buf, n);
    /* 127.0.0.0/8 is each machine's own: the port of the sender's host,
     * and the datagram comes from the loopback address (as a socket sees it) */
    NetAddr dest = *to, src = m->addr;
    if (netaddr_loopback(to)) {
        dest.host = m->addr.host;
        src.host = to->host;
    }
    int dst = -1;
    for (int i = 0; i < h->nports; i++)
        if (netaddr_equal(&h->ports[i]->addr, &dest))
            dst = i;
    for (int i = 0; i < h->nblock; i++)
        if (netaddr_equal(&h->block_from[i], &m->addr) && netaddr_equal(&h->block_to[i], to))
            dst = -1;
    if (dst < 0 || (m->link.loss > 0 && unit(h) < m->link.loss)) {
        h->lost++; /* nobody at that address, or the link lost it */
        return true;
    }
    fly(h, dst, &src, buf, n, draw_delay(h, &m->link));
    if (m->link.dup > 0 && unit(h) < m->link.dup)
        fly(h, dst, &src, buf, n, draw_delay(h, &m->link));
    return true;
}

/* The port's clock at true time t (a simulated clock: offset + drift). */
static int64_t stamp_at(const MemPort *m, int64_t t)
{
    int64_t us = m->clock->drift_ppm != 0.0 ? t + (int64_t)((double)t * m->clock->drift_ppm * 1e-6) : t;
    return us + m->clock->offset_us;
}

static int mem_recv(NetPort *p, int64_t until, uint8_t *buf, int cap, NetAddr *from, int64_t *stamp)
{
    MemPort *m = (MemPort *)p;
    NetHub *h = m->hub;
    int best = -1;
    if (m->frozen)
        return NETPORT_NONE;
    for (int i = 0; i < h->nfl; i++) {
        const Flight *f = &h->fl[i];
        if (h->ports[f->to] != m || f->due > *h->truth)
            continue;
        if (best < 0 || f->due < h->fl[best].due || (f->due == h->fl[best].due && f->order < h->fl[best].order))
            best = i;
    }
    if (best < 0)
        return NETPORT_NONE;
    Flight *f = &h->fl[best];
    /* what arrived while the port was frozen is read (stamped) at the thaw */
    int64_t t = f->due >= m->freeze_true && f->due < m->thaw_true ? m->thaw_true : f->due;
    int64_t st = stamp_at(m, t);
    if (st > until)
        return NETPORT_NONE;
    int n = f->n > cap ? cap + 1 : f->n;
    memcpy(buf, f->bytes, (size_t)(n > cap ? cap : n));
    *from = f->from;
    *stamp = st;
    h->fl[best] = h->fl[--h->nfl];
    return n;
}

static void mem_wait(NetPort *p, int64_t until)
{
    (void)p; /* the test moves time */
    (void)until;
}

static uint16_t mem_number(const NetPort *p)
{
    const uint8_t *b = (const uint8_t *)&((const MemPort *)p)->addr.port;
    return (uint16_t)(b[0] << 8 | b[1]);
}

static void mem_close(NetPort *p)
{
    (void)p; /* the hub owns its ports */
}

static int64_t mem_drops(const NetPort *p)
{
    (void)p; /* the hub loses only what its links lose (nethub_lost) */
    return 0;
}

static const NetPortType mem_type = {"memory", mem_recv, mem_send, mem_wait, mem_number, mem_close, mem_drops};

NetPort *nethub_port(NetHub *h, NetAddr addr, const NetClock *clock)
{
    if (h->nports == HUB_PORTS)
        return NULL;
    MemPort *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->base.type = &mem_type;
    m->hub = h;
    m->addr = addr;
    m->clock = clock;
    m->freeze_true = m->thaw_true = INT64_MIN;
    h->ports[h->nports++] = m;
    return &m->base;
}

void nethub_set_link(NetPort *p, const NetMemLink *link)
{
    ((MemPort *)p)->link = *link;
}

void nethub_freeze(NetPort *p, bool frozen)
{
    MemPort *m = (MemPort *)p;
    if (frozen && !m->frozen)
        m->freeze_true = *m->hub->truth;
    if (!frozen && m->frozen)
        m->thaw_true = *m->hub->truth;
    m->frozen = frozen;
}

int64_t nethub_next_due(const NetHub *h)
{
    int64_t d = INT64_MAX;
    for (int i = 0; i < h->nfl; i++) /* deliverable ones wait for their reader */
        if (h->fl[i].due < d && h->fl[i].due > *h->truth && !h->ports[h->fl[i].to]->frozen)
            d = h->fl[i].due;
    return d;
}

int64_t nethub_sent(const NetHub *h)
{
    return h->sent;
}

int64_t nethub_lost(const NetHub *h)
{
    return h->lost;
}

void nethub_tap(NetHub *h, NetHubTap fn, void *ctx)
{
    h->tap = fn;
    h->tap_ctx = ctx;
}

bool nethub_block(NetHub *h, const NetAddr *from, const NetAddr *to)
{
    if (h->nblock == NETHUB_BLOCKS)
        return false;
    h->block_from[h->nblock] = *from;
    h->block_to[h->nblock++] = *to;
    return true;
}
