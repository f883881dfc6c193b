/* The session's envelope (wirecrypt.h; docs/wire.md "Sealed datagrams",
 * the threat model in docs/netplay.md): with a join code every datagram is
 * sealed but two, the joiner's HELLO in clear (it has no key yet) and the
 * host's key answer (the salt, and HELLO's nonce echoed: 32 bytes for a
 * HELLO of 104, kept by nobody, so a spoofed HELLO buys neither bytes nor
 * the seat). The seat goes to the first sealed HELLO: someone with the
 * code. */
#include "netsession_internal.h"

#include <sodium.h>
#include <string.h>

#define KEY_ANSWER_MAGIC "NRK1"

bool seal_keys(NetSession *s, const uint8_t *salt, NrError *err)
{
    if (!wirecrypt_init() || !wirecrypt_derive(s->cfg.code, salt, s->cfg.host, &s->keys))
        return nr_error_set(err, "could not derive the session key (libsodium; 64 MiB for Argon2id)");
    s->have_keys = true;
    return true;
}

/* Sealed once there are keys; in clear before (the joiner's first HELLOs)
 * and without a code. */
void seal_push(NetSession *s, const NetAddr *to, const uint8_t *b, size_t n)
{
    if (!s->cfg.code || !s->have_keys) {
        push_datagram(s, to, b, n);
        return;
    }
    uint8_t env[WIRE_MAX_BYTES + WIRECRYPT_OVERHEAD];
    size_t m = wirecrypt_seal(&s->keys, s->tx_count++, b, n, env, sizeof env);
    if (m > 0)
        push_datagram(s, to, env, m);
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

/* Host: a HELLO in clear gets the key answer; nothing is kept. */
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
    if (s->have_peer && !netaddr_equal(from, &s->peer))
        return REJECT_BUSY;
    s->received++; /* taken: answered (none once over) */
    if (s->phase == PH_OVER)
        return -1;
    uint8_t a[KEY_ANSWER_BYTES] = {0};
    memcpy(a, KEY_ANSWER_MAGIC, 4);
    a[4] = WIRE_VERSION;
    memcpy(a + 8, s->cfg.salt, WIRECRYPT_SALT_BYTES);
    for (int i = 0; i < 8; i++)
        a[24 + i] = (uint8_t)(p.u.hello.nonce >> (8 * i));
    push_datagram(s, from, a, sizeof a);
    return -1;
}

/* Joiner: the host's key answer to its HELLO: the keys, then a sealed
 * HELLO at once. Later copies (one per HELLO in clear) change nothing. */
static int key_answer(NetSession *s, int64_t l, const NetAddr *from, const uint8_t *buf, int n)
{
    if (s->cfg.host || n != KEY_ANSWER_BYTES || !netaddr_equal(from, &s->peer))
        return REJECT_UNSEALED;
    if (buf[4] != WIRE_VERSION)
        return WIRE_BAD_VERSION;
    uint64_t nonce = 0;
    for (int i = 0; i < 8; i++)
        nonce |= (uint64_t)buf[24 + i] << (8 * i);
    if (nonce != s->nonce || buf[5] || buf[6] || buf[7])
        return WIRE_BAD_FIELD;
    s->received++;
    if (s->have_keys || s->phase == PH_OVER)
        return -1;
    NrError err = {{0}};
    if (!seal_keys(s, buf + 8, &err)) {
        session_fail(s, NULL, NULL, err.msg);
        return -1;
    }
    s->next_hello = l;
    return -1;
}

int seal_open(NetSession *s, int64_t l, const NetAddr *from, const uint8_t *buf, int n, uint8_t *inner, int *inner_n)
{
    if (n <= 0)
        return WIRE_SHORT;
    if (n > WIRE_MAX_BYTES + WIRECRYPT_OVERHEAD)
        return WIRE_OVERSIZED;
    if (n >= 4 && memcmp(buf, WIRECRYPT_MAGIC_TEXT, 4) == 0) {
        if (!s->have_keys)
            return REJECT_AUTH;
        size_t m = 0;
        WireCryptResult r = wirecrypt_open(&s->keys, &s->replay, buf, (size_t)n, inner, &m);
        if (r != WIRECRYPT_OK)
            return r == WIRECRYPT_SHORT ? WIRE_SHORT : r == WIRECRYPT_REPLAY ? REJECT_REPLAY : REJECT_AUTH;
        *inner_n = (int)m;
        return 0;
    }
    if (n >= 4 && memcmp(buf, KEY_ANSWER_MAGIC, 4) == 0)
        return key_answer(s, l, from, buf, n);
    if (s->cfg.host && n >= 4 && memcmp(buf, WIRE_MAGIC, 4) == 0)
        return answer_hello(s, from, buf, n);
    return REJECT_UNSEALED;
}
