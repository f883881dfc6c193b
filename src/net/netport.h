/* A datagram port: where a session's datagrams leave and arrive, a struct
 * of function pointers (as Redis's ConnectionType) so the session's driver
 * runs on a real UDP socket (netudp.h) or on an in-memory hub in tests
 * (netmem.h) alike. Every received datagram carries its arrival stamp, taken
 * on the port's clock (netclock.h) when it arrived, not when it is read: a
 * slow frame never shows up as network delay.
 *
 * Contracts (through the inline wrappers):
 *   netport_recv(p, until, buf, cap, from, stamp)  the oldest waiting
 *        datagram stamped at or before local time until: its size (0 for an
 *        empty datagram; cap + 1 when it was longer than cap, the first cap
 *        bytes in buf) and *from, *stamp; NETPORT_NONE when none waits.
 *   netport_send(p, to, buf, n)   one datagram; false when refused.
 *   netport_wait(p, until)        returns when a datagram waits or the
 *        port's clock reaches until (the in-memory port returns at once:
 *        its test moves time).
 *   netport_number(p)             the local port number (UDP).
 *   netport_drops(p)              datagrams to this port the system
 *        dropped before the port read them (a full receive buffer), since
 *        it opened; -1 when the system does not say (0 in memory).
 *   netport_close(p)              NULL-safe.
 */
#ifndef NR_NETPORT_H
#define NR_NETPORT_H

#include "netaddr.h"

#define NETPORT_NONE (-1)

typedef struct NetPort NetPort;

typedef struct NetPortType {
    const char *name;
    int (*recv)(NetPort *p, int64_t until, uint8_t *buf, int cap, NetAddr *from, int64_t *stamp);
    bool (*send)(NetPort *p, const NetAddr *to, const uint8_t *buf, int n);
    void (*wait)(NetPort *p, int64_t until);
    uint16_t (*number)(const NetPort *p);
    void (*close)(NetPort *p);
    int64_t (*drops)(const NetPort *p);
} NetPortType;

struct NetPort {
    const NetPortType *type;
};

static inline int netport_recv(NetPort *p, int64_t until, uint8_t *buf, int cap, NetAddr *from, int64_t *stamp)
{
    return p->type->recv(p, until, buf, cap, from, stamp);
}

static inline bool netport_send(NetPort *p, const NetAddr *to, const uint8_t *buf, int n)
{
    return p->type->send(p, to, buf, n);
}

static inline void netport_wait(NetPort *p, int64_t until)
{
    p->type->wait(p, until);
}

static inline uint16_t netport_number(const NetPort *p)
{
    return p->type->number(p);
}

static inline int64_t netport_drops(const NetPort *p)
{
    return p->type->drops(p);
}

static inline void netport_close(NetPort *p)
{
    if (p)
        p->type->close(p);
}

#endif
