/* The session's envelope (wirecrypt.h; docs/wire.md "Sealed datagrams",
 * the threat model in docs/netplay.md): with a join code every datagram is
 * sealed but two, the joiner's HELLO in clear (it has no key yet) and the
 * host's key answer (the salt, HELLO's nonce echoed and the cookie of the
 * address it came from: 40 bytes for a HELLO of 104, kept by nobody, so a
 * spoofed HELLO buys neither bytes nor the seat). The seat goes to the
 * first sealed HELLO that opens (someone with the code) and carries its
 * source address's cookie (someone who receives there: even a participant
 * cannot make this end send to an address that never asked, as DTLS's
 * cookie exchange and QUIC's Retry, RFC 9000 section 8.1). */
#include "netsession_internal.h"

#include <sodium.h>
#include <string.h>

#define KEY_ANSWER_MAGIC "NRK1"

#define HELLO_MAGIC "NRH1"
#define HELLO_HEAD 20 /* "NRH1", the joiner's nonce and its cookie before a sealed HELLO's envelope */

static void put_le64(uint8_t *b, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le64(const uint8_t *b)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

/* The cookie of an address and a nonce under this end's secret: only a
 * sender that receives at that address learns it (the key answer goes
 * there). */
uint64_t seal_cookie(const NetSession *s, const NetAddr *addr, uint64_t nonce)
{
    uint8_t msg[4 + 2 + 8];
    memcpy(msg, &addr->host, 4); /* network order, as on the wire */
    memcpy(msg + 4, &addr->port, 2);
    put_le64(msg + 6, nonce);
    uint64_t c = wirecrypt_cookie(s->cfg.cookie_key, msg, sizeof msg);
    return c ? c : 1; /* never 0: a PEER step without a cookie carries 0 */
}

/* The session master from the code and the host's salt (Argon2id: once per
 * session); a joiner's link to its host at once (its own nonce). */
bool seal_keys(NetSession *s, const uint8_t *salt, NrError *err)
{
    if (!wirecrypt_init() || !wirecrypt_master(s->cfg.code, salt, s->master))
        return nr_error_set(err, "could not derive the session key (libsodium; 64 MiB for Argon2id)");
    s->have_master = true;
    if (!s->cfg.host) {
        wirecrypt_link(s->master, s->nonce, 0, false, &s->peers[0].keys);
        s->peers[0].have_keys = true;
    }
    return true;
}

/* Sealed once there are keys; in clear before (the joiner's first HELLOs)
 * and without a code. A joiner's sealed HELLO goes after "NRH1", its nonce
 * and the host's cookie: the host checks the cookie and keys the link
 * before it opens it. */
void seal_push(NetSession *s, int to, const uint8_t *b, size_t n)
{
    NetPeer *np = &s->peers[to];
    if (!np->proven && (n < WIRE_HEADER_BYTES || b[5] != WIRE_PEER))
        return; /* an address not proven gets the pair's steps alone (netsession_p2p.c) */
    if (!s->cfg.code || !np->have_keys) {
        push_datagram(s, &np->addr, b, n);
        return;
    }
    uint8_t env[HELLO_HEAD + WIRE_MAX_BYTES + WIRECRYPT_OVERHEAD];
    size_t head = 0;
    if (!s->cfg.host && n > 5 && b[5] == WIRE_HELLO) {
        memcpy(env, HELLO_MAGIC, 4);
        put_le64(env + 4, s->nonce);
        put_le64(env + 12, s->cookie);
        head = HELLO_HEAD;
    }
    size_t m = wirecrypt_seal(&np->keys, np->tx_count++, b, n, env + head, sizeof env - head);
    if (m > 0)
        push_datagram(s, &np->addr, env, head + m);
}

/* The public id of the session for the logs (docs/netlog.md `session`):
 * 8 bytes of BLAKE2b of the token, the same at both ends; the token cannot
 * be had from it. */
uint64_t seal_session_id(const NetSession *s)
{
    uint8_t in[8], out[8];
    for (int i = 0; i < 8; i++)
        in[i] = (uint8_t)(s->token >> (8 * i));
    crypto_generichash(out, sizeof out, in, sizeof in, (const uint8_t *)"netrace session", 15);
    uint64_t id = 0;
    for (int i = 0; i < 8; i++)
        id |= (uint64_t)out[i] << (8 * i);
    return id;
}

/* Host: a HELLO in clear gets the key answer, to the address it came
 * from (40 bytes for 104); nothing is kept. */
static int answer_hello(NetSession *s, const NetAddr *from, const uint8_t *buf, int n)
{
    if (n < WIRE_HEADER_BYTES || buf[5] != WIRE_HELLO)
        return REJECT_UNSEALED; /* any other packet in clear */
    WirePacket p;
    WireCheck chk = {.accept_hello = true};
    WireResult r = wire_decode(buf, (size_t)n, &chk, &p);
    if (r != WIRE_OK)
        return r;
    if (s->cfg.have_allow && from->host != s->cfg.allow.host)
        return REJECT_ADDRESS;
    /* every seat taken: still answered (32 bytes for 104, nothing kept), so
     * that a joiner with the code hears FULL, sealed, and says so at once */
    s->received++; /* taken: answered (none once over) */
    if (s->phase == PH_OVER)
        return -1;
    uint8_t a[KEY_ANSWER_BYTES] = {0};
    memcpy(a, KEY_ANSWER_MAGIC, 4);
    a[4] = WIRE_VERSION;
    memcpy(a + 8, s->cfg.salt, WIRECRYPT_SALT_BYTES);
    put_le64(a + 24, p.u.hello.nonce);
    put_le64(a + 32, seal_cookie(s, from, p.u.hello.nonce));
    push_datagram(s, from, a, sizeof a);
    return -1;
}

/* Joiner: the host's key answer to its HELLO: the keys and the cookie,
 * then a sealed HELLO at once. Later copies (one per HELLO in clear)
 * change nothing. */
static int key_answer(NetSession *s, int64_t l, const NetAddr *from, const uint8_t *buf, int n)
{
    if (s->cfg.host || n != KEY_ANSWER_BYTES || !netaddr_equal(from, &s->peers[0].addr))
        return REJECT_UNSEALED;
    if (buf[4] != WIRE_VERSION)
        return WIRE_BAD_VERSION;
    uint64_t nonce = get_le64(buf + 24);
    if (nonce != s->nonce || buf[5] || buf[6] || buf[7])
        return WIRE_BAD_FIELD;
    s->received++;
    if (s->have_master || s->phase == PH_OVER)
        return -1;
    NrError err = {{0}};
    s->cookie = get_le64(buf + 32);
    if (!seal_keys(s, buf + 8, &err)) {
        session_fail(s, NULL, NULL, err.msg);
        return -1;
    }
    s->next_hello = l;
    return -1;
}

/* Every seat is taken, or the race is over: a HELLO that opened (the
 * sender has the code) is told so, FULL or BYE, sealed with its link's
 * keys. The bytes are the same on every call (packet counter 0, envelope
 * counter 0): one plaintext under one key and nonce, never two. 68 bytes
 * for a sealed HELLO of 152. */
static void say_full(NetSession *s, const NetAddr *from, const WireKeys *k)
{
    WirePacket p;
    memset(&p, 0, sizeof p);
    p.kind = WIRE_CONTROL;
    p.token = s->token;
    p.u.control.code = s->phase == PH_OVER ? WIRE_BYE : WIRE_FULL;
    p.u.control.arg_us = s->phase == PH_OVER ? 0 : s->seats;
    uint8_t buf[WIRE_MAX_BYTES], env[WIRE_MAX_BYTES + WIRECRYPT_OVERHEAD];
    size_t n = wire_encode(&p, buf, sizeof buf);
    size_t m = n ? wirecrypt_seal(k, 0, buf, n, env, sizeof env) : 0;
    if (m > 0)
        push_datagram(s, from, env, m);
}

/* Host / server: a sealed HELLO, "NRH1", the joiner's nonce and cookie
 * before the envelope. A cookie that is not the source address's (and the
 * nonce's) is refused first, `cookie`: its sender did not get the key
 * answer there, nothing is sent to that address. From a seated peer:
 * opened with its link. From a new address: the link keyed from the nonce,
 * opened with a fresh window; it becomes the next seat (peer npeers) when
 * it opens and a seat is free, or is told FULL. */
static int open_hello(NetSession *s, const NetAddr *from, const uint8_t *buf, int n, uint8_t *inner, int *inner_n,
                      int *peer)
{
    if (!s->cfg.host || !s->have_master || n < HELLO_HEAD)
        return REJECT_UNSEALED;
    uint64_t nonce = get_le64(buf + 4);
    if (!wirecrypt_cookie_equal(get_le64(buf + 12), seal_cookie(s, from, nonce)))
        return REJECT_COOKIE;
    int at = peer_find(s, from);
    NetPeer fresh = {.addr = *from, .car = -1, .nonce = nonce, .have_keys = true, .proven = true}; /* its cookie */
    NetPeer *np = at >= 0 ? &s->peers[at] : &fresh;
    if (at < 0)
        wirecrypt_link(s->master, nonce, 0, true, &fresh.keys);
    size_t m = 0;
    WireCryptResult r = wirecrypt_open(&np->keys, &np->replay, buf + HELLO_HEAD, (size_t)(n - HELLO_HEAD), inner, &m);
    if (r != WIRECRYPT_OK)
        return r == WIRECRYPT_SHORT ? WIRE_SHORT : r == WIRECRYPT_REPLAY ? REJECT_REPLAY : REJECT_AUTH;
    if (at < 0 && (s->npeers == s->seats || s->phase == PH_OVER)) {
        say_full(s, from, &fresh.keys);
        return REJECT_BUSY;
    }
    if (at < 0)
        s->peers[s->npeers] = fresh; /* taken by on_hello, or overwritten by the next */
    *peer = at >= 0 ? at : s->npeers;
    *inner_n = (int)m;
    return 0;
}

int seal_open(NetSession *s, int64_t l, const NetAddr *from, const uint8_t *buf, int n, uint8_t *inner, int *inner_n,
              int *peer)
{
    if (n <= 0)
        return WIRE_SHORT;
    if (n > HELLO_HEAD + WIRE_MAX_BYTES + WIRECRYPT_OVERHEAD)
        return WIRE_OVERSIZED;
    if (n >= 4 && memcmp(buf, WIRECRYPT_MAGIC_TEXT, 4) == 0) {
        int at = peer_find(s, from);
        if (at < 0 || !s->peers[at].have_keys)
            return REJECT_AUTH; /* from elsewhere, or before the keys: it does not open */
        size_t m = 0;
        WireCryptResult r = wirecrypt_open(&s->peers[at].keys, &s->peers[at].replay, buf, (size_t)n, inner, &m);
        if (r != WIRECRYPT_OK)
            return r == WIRECRYPT_SHORT ? WIRE_SHORT : r == WIRECRYPT_REPLAY ? REJECT_REPLAY : REJECT_AUTH;
        *inner_n = (int)m;
        *peer = at;
        return 0;
    }
    if (n >= 4 && memcmp(buf, HELLO_MAGIC, 4) == 0)
        return open_hello(s, from, buf, n, inner, inner_n, peer);
    if (n >= 4 && memcmp(buf, KEY_ANSWER_MAGIC, 4) == 0)
        return key_answer(s, l, from, buf, n);
    if (s->cfg.host && n >= 4 && memcmp(buf, WIRE_MAGIC, 4) == 0)
        return answer_hello(s, from, buf, n);
    return REJECT_UNSEALED;
}
