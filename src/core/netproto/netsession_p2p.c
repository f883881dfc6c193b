/* A peer-to-peer race of N cars (docs/netplay.md "Peer-to-peer races of
 * N"): the host seats N - 1 joiners as it seats one, then introduces them
 * to each other (PEERS: every joiner's address as the host saw its sealed
 * HELLO come, and that HELLO's nonce); each pair of joiners keys its link
 * from the code and the two nonces (wirecrypt_link, the lower car end a)
 * and proves, before any other datagram goes between them, that each end
 * receives at its address: the lower car's hello carries a random
 * challenge, the higher car answers it with the challenge and the cookie of
 * the lower car's address (seal_cookie: a MAC under a secret only it
 * holds), the lower car echoes the cookie, the higher car acknowledges.
 * Every step has one size, so nobody is made to send an address more than
 * it received from there before that address proved it receives (the
 * cookie round trip of the host's handshake: DTLS's HelloVerifyRequest,
 * QUIC's Retry, RFC 9000 section 8.1); the hello alone goes unasked, to
 * the address the host gave, at doubling intervals (hello_us, 2x, 4x, 8x,
 * then 16x), so a host that introduces a stranger's address gets it a few
 * small datagrams from each joiner, not a stream. The host stays every joiner's clock
 * reference and the one that starts, pauses and resumes the race; the MUs
 * and VIEWs go directly between every pair. */
#include "netsession_internal.h"

#include <stdio.h>
#include <string.h>

bool p2p_race(const NetSession *s)
{
    return !s->cfg.server && s->welcome.topology == 0 && s->ncars > 2;
}

int peer_of_car(const NetSession *s, int car)
{
    for (int i = 0; i < s->npeers; i++)
        if (s->peers[i].car == car)
            return i;
    return -1;
}

/* ---- the host: the introduction ---------------------------------------------- */

/* PEERS to every joiner that lacks it (go 0) and, once all have it, the
 * word to connect (go 1) to every joiner not yet ready: every retry_us
 * until it says INTRODUCED, then READY (which it says only once every
 * pair of it is proven). */
void p2p_intro_tick(NetSession *s, int64_t l)
{
    if (!s->cfg.host || !p2p_race(s) || s->phase != PH_SYNC || s->have_start || l < s->next_intro)
        return;
    bool all = PEERS_ALL(s, introduced);
    WirePacket p;
    memset(&p, 0, sizeof p);
    p.kind = WIRE_PEERS;
    p.u.peers.go = all;
    p.u.peers.ncars = (uint8_t)s->ncars;
    for (int i = 0; i < s->npeers; i++) {
        p.u.peers.addr[s->peers[i].car] = s->peers[i].addr;
        p.u.peers.nonce[s->peers[i].car] = s->peers[i].nonce;
    }
    for (int i = 0; i < s->npeers; i++)
        if (all ? !s->peers[i].ready : !s->peers[i].introduced)
            send_to(s, i, &p);
    s->next_intro = l + s->to.retry_us;
}

/* A joiner has the table; the last one to say so lets the pairs connect
 * at once. */
static void introduced(NetSession *s, int from)
{
    if (s->peers[from].introduced)
        return;
    s->peers[from].introduced = true;
    if (PEERS_ALL(s, introduced))
        s->next_intro = s->now;
}

/* ---- a joiner: the table and its pairs ------------------------------------- */

/* The host's table: this end's own entry is its nonce (an introduction of
 * another race or an altered one is refused), no joiner at the host's
 * address; then a peer per other joiner with its pair's keys. A joiner the
 * host saw on loopback runs on the host's machine (`host --bots`): a
 * joiner elsewhere reaches it at the host's address (netaddr_as_seen). */
static int take_peers(NetSession *s, const WirePeers *w)
{
    if (w->ncars != s->ncars || w->nonce[s->own_car] != s->nonce)
        return WIRE_BAD_FIELD;
    NetAddr at[WIRE_MAX_CARS];
    for (int c = 1; c < w->ncars; c++) {
        at[c] = netaddr_as_seen(&w->addr[c], &s->peers[0].addr);
        if (netaddr_equal(&at[c], &s->peers[0].addr))
            return WIRE_BAD_FIELD;
    }
    for (int c = 1; c < w->ncars; c++) {
        if (c == s->own_car)
            continue;
        NetPeer *np = &s->peers[s->npeers++];
        *np = (NetPeer){.addr = at[c], .car = c, .nonce = w->nonce[c], .last_heard = s->now};
        np->challenge = rng_u64(&s->rng) | 1;
        if (s->have_master) { /* end a is the lower car */
            bool b = s->own_car > c;
            wirecrypt_link(s->master, b ? np->nonce : s->nonce, b ? s->nonce : np->nonce, b, &np->keys);
            np->have_keys = true;
        }
    }
    s->have_peers = true;
    return 0;
}

static void send_step(NetSession *s, int i, int step, uint64_t challenge, uint64_t cookie)
{
    WirePacket p;
    memset(&p, 0, sizeof p);
    p.kind = WIRE_PEER;
    p.u.peer = (WirePeer){(uint8_t)step, (uint8_t)s->own_car, (uint8_t)s->peers[i].car, challenge, cookie};
    send_to(s, i, &p);
}

/* One step of the pair with peer i (docs/netplay.md): 0, or why it is
 * refused. The lower car proves the higher one at step 2 (its challenge
 * came back from there) and is proven at step 3 (its address's cookie
 * came back from there). */
static int pair_step(NetSession *s, int i, const WirePeer *w)
{
    NetPeer *np = &s->peers[i];
    bool lower = s->own_car < np->car; /* this end starts the pair */
    if (w->from != np->car || w->to != s->own_car || (w->step % 2 == 1) == lower)
        return WIRE_BAD_FIELD;
    switch (w->step) {
    case 1: /* stateless: the cookie of where it came from, in a datagram of its size */
        send_step(s, i, 2, w->challenge, seal_cookie(s, &np->addr, np->nonce));
        return 0;
    case 2:
        if (w->challenge != np->challenge)
            return WIRE_BAD_FIELD;
        np->proven = true;
        np->cookie = w->cookie;
        send_step(s, i, 3, np->challenge, np->cookie);
        return 0;
    case 3:
        if (!wirecrypt_cookie_equal(w->cookie, seal_cookie(s, &np->addr, np->nonce)))
            return REJECT_COOKIE;
        np->proven = true;
        send_step(s, i, 4, w->challenge, 0);
        return 0;
    default:
        if (w->challenge != np->challenge || !np->proven)
            return WIRE_BAD_FIELD;
        np->acked = true;
        return 0;
    }
}

/* PEERS, PEER and INTRODUCED, once decoded and from a known address: 0
 * taken, or the reason it is refused (before it counts as received). */
int p2p_receive(NetSession *s, int at, const WirePacket *p)
{
    bool joiner = !s->cfg.host && !s->cfg.server;
    if (p->kind == WIRE_CONTROL) { /* INTRODUCED: a joiner to its host */
        if (!s->cfg.host || !p2p_race(s) || p->u.control.arg_us != 0)
            return REJECT_RANGE;
        introduced(s, at);
        return 0;
    }
    if (p->kind == WIRE_PEERS) {
        if (!joiner || at != 0)
            return REJECT_ADDRESS;
        if (!s->track_text) /* before WELCOME: the host sends it again */
            return 0;
        if (!p2p_race(s))
            return WIRE_BAD_FIELD;
        int r = s->have_peers ? 0 : take_peers(s, &p->u.peers);
        if (r != 0)
            return r;
        WirePacket k;
        memset(&k, 0, sizeof k);
        k.kind = WIRE_CONTROL;
        k.u.control.code = WIRE_INTRODUCED;
        send_to(s, 0, &k);
        if (p->u.peers.go && !s->connecting) {
            s->connecting = true;
            for (int i = 1; i < s->npeers; i++)
                s->peers[i].next_step = s->now;
        }
        return 0;
    }
    if (!joiner || at == 0 || !p2p_race(s))
        return REJECT_ADDRESS;
    return pair_step(s, at, &p->u.peer);
}

/* The lower car of each pair not yet acknowledged says its step again:
 * the hello until the answer (at doubling intervals: its address has not
 * proved it receives), then the cookie's echo every hello_us until the
 * acknowledgement. */
void p2p_pair_tick(NetSession *s, int64_t l)
{
    if (!s->connecting || s->phase == PH_OVER)
        return;
    for (int i = 1; i < s->npeers; i++) {
        NetPeer *np = &s->peers[i];
        if (np->car < s->own_car || np->acked || l < np->next_step)
            continue;
        send_step(s, i, np->proven ? 3 : 1, np->challenge, np->proven ? np->cookie : 0);
        int doubling = np->proven ? 0 : np->hellos++ < 4 ? np->hellos - 1 : 4;
        np->next_step = l + (s->to.hello_us << doubling);
    }
}

/* Every pair of this joiner proven both ways (true outside a p2p race of
 * N, and for the host: its joiners proved their addresses with its
 * cookie). */
bool p2p_connected(const NetSession *s)
{
    if (s->cfg.host || !p2p_race(s))
        return true;
    if (!s->have_peers)
        return false;
    for (int i = 1; i < s->npeers; i++) {
        const NetPeer *np = &s->peers[i];
        if (!np->proven || (np->car > s->own_car && !np->acked))
            return false;
    }
    return true;
}

int64_t p2p_next_deadline(const NetSession *s)
{
    int64_t d = INT64_MAX;
    if (s->cfg.host && p2p_race(s) && s->phase == PH_SYNC && !s->have_start)
        d = s->next_intro;
    for (int i = 1; s->connecting && s->phase != PH_OVER && i < s->npeers; i++) {
        const NetPeer *np = &s->peers[i];
        if (np->car > s->own_car && !np->acked && np->next_step < d)
            d = np->next_step;
    }
    return d;
}

/* What this joiner still waits for before READY, said for the deadline's
 * line ("car 3 at 10.0.0.4:41002 did not answer within"); false when
 * nothing. */
bool p2p_unreached(const NetSession *s, char *buf, size_t n)
{
    for (int i = 1; i < s->npeers && !s->cfg.host; i++) {
        const NetPeer *np = &s->peers[i];
        if (np->proven && (np->car < s->own_car || np->acked))
            continue;
        char a[64];
        netaddr_text(&np->addr, a, sizeof a);
        snprintf(buf, n, np->car > s->own_car ? "car %d at %s did not answer within"
                                              : "nothing of car %d at %s reached this terminal within",
                 np->car + 1, a);
        return true;
    }
    if (!s->cfg.host && p2p_race(s) && !s->have_peers) {
        snprintf(buf, n, "the host did not introduce the other joiners within");
        return true;
    }
    return false;
}
