/* The ends a session exchanges with (netsession_internal.h NetPeer): a
 * joiner's host, a host's joiner, a server's clients; found by address,
 * sent to one by one or all at once. */
#include "netsession_internal.h"

#include <string.h>

int peer_find(const NetSession *s, const NetAddr *from)
{
    for (int i = 0; i < s->npeers; i++)
        if (netaddr_equal(from, &s->peers[i].addr))
            return i;
    return -1;
}

/* The local time the longest-silent peer was last heard (the session's
 * silence is that peer's); INT64_MAX with no peer. Before the race a
 * joiner hears its host alone: the other joiners of a p2p race say
 * nothing between their pair's proof and the start. */
int64_t peers_heard(const NetSession *s)
{
    if (!s->cfg.host && s->phase < PH_RACE)
        return s->peers[0].last_heard;
    int64_t t = INT64_MAX;
    for (int i = 0; i < s->npeers; i++)
        t = s->peers[i].last_heard < t ? s->peers[i].last_heard : t;
    return t;
}

/* Every seat is taken and every peer has the bool at flag_offset set. */
bool peers_all(const NetSession *s, size_t flag_offset)
{
    if (s->npeers < (s->cfg.host ? s->seats : 1))
        return false;
    for (int i = 0; i < s->npeers; i++) {
        bool v;
        memcpy(&v, (const uint8_t *)&s->peers[i] + flag_offset, sizeof v);
        if (!v)
            return false;
    }
    return true;
}

/* Every peer finished or left (said FINISH or BYE). */
bool peers_done(const NetSession *s)
{
    for (int i = 0; i < s->npeers; i++)
        if (!s->peers[i].finished && !s->peers[i].bye)
            return false;
    return s->npeers > 0;
}

/* The packet p as it is, to peer i (sealed with its link's keys). */
void send_raw_to(NetSession *s, int i, const uint8_t *b, size_t n)
{
    if (i >= 0 && i < s->npeers)
        seal_push(s, i, b, n);
}

void send_to(NetSession *s, int i, WirePacket *p)
{
    p->token = p->kind == WIRE_HELLO ? 0 : s->token;
    p->pkt_seq = s->pkt_seq++;
    uint8_t buf[WIRE_MAX_BYTES];
    size_t n = wire_encode(p, buf, sizeof buf);
    if (n > 0)
        send_raw_to(s, i, buf, n);
}
