/* The sealed envelope of network play's datagrams (docs/wire.md "Sealed
 * datagrams"; the threat model in docs/netplay.md): an authenticated,
 * encrypted, replay-proof wrapper around the packets of wire.h, keyed by a
 * short join code the two players share. Pure computation through
 * libsodium (no socket, no clock); the caller draws the random bytes.
 *
 * Keys: master = Argon2id (crypto_pwhash, interactive limits) of the
 * normalised code with the host's 16-byte salt; each link (a joiner and
 * its host or server; two peers of a p2p race) has its own: BLAKE2b keyed
 * with the master over "netrace link" and the two ends' handshake nonces
 * (a, b), then one sub-key per direction (crypto_kdf, ids 1 a->b, 2 b->a,
 * context "netrace1"). So no two links share a key, and a counter from 0
 * on each is safe.
 * Envelope: "NRS1", u64 counter (little-endian), then the packet encrypted
 * with ChaCha20-Poly1305 (IETF; nonce: four zero bytes and the counter),
 * its 16-byte tag over magic, counter and packet. A counter is used once
 * per direction (the sender counts up); the receiver keeps a sliding
 * window (RFC 6479: a ring of 64-bit words) and refuses a counter seen or
 * older than the window.
 *
 * Contracts:
 *   wirecrypt_init()  libsodium ready; false if it cannot be (call once).
 *   wirecrypt_code_normalise(in, out)  the code as typed (any case, '-' and
 *        spaces anywhere, O for 0, I and L for 1) to its canonical 10
 *        characters of WIRECRYPT_ALPHABET; false if it is not one.
 *   wirecrypt_code_from_random(random, out)  a code from 10 random bytes
 *        (the caller's OS random source), shown as XXXXX-XXXXX.
 *   wirecrypt_master(code, salt, master)  Argon2id of a canonical code;
 *        false when out of memory (Argon2id takes 64 MiB).
 *   wirecrypt_link(master, a, b, side_b, out)  the keys of the link between
 *        the ends of nonces a and b, for end b (side_b) or a.
 *   wirecrypt_derive(code, salt, host, out)  master and the link (0, 0),
 *        the host as end b: the keys of a code alone (tests, fuzzing).
 *   wirecrypt_seal(k, counter, in, n, out, cap)  the envelope of n bytes
 *        (n + WIRECRYPT_OVERHEAD written), 0 if cap is too small.
 *   wirecrypt_open(k, w, in, n, out, out_n)  WIRECRYPT_OK with the packet in
 *        out (at least n bytes), or why not; the window w moves only for an
 *        authentic, new counter.
 *   wirecrypt_result_name(r)  "auth", "replay", ... for logs.
 *   wirecrypt_cookie(key, msg, n)  the cookie of msg (an address and a
 *        nonce): 8 bytes of BLAKE2b keyed with a secret only its maker
 *        holds, as a u64; the proof, echoed, that the sender of a datagram
 *        receives at the address it came from (DTLS's HelloVerifyRequest,
 *        QUIC's Retry: RFC 9000 section 8.1).
 *   wirecrypt_cookie_equal(a, b)  compared in constant time.
 */
#ifndef NR_WIRECRYPT_H
#define NR_WIRECRYPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WIRECRYPT_MAGIC_TEXT "NRS1"
#define WIRECRYPT_HEAD 12 /* magic and counter */
#define WIRECRYPT_TAG 16
#define WIRECRYPT_OVERHEAD (WIRECRYPT_HEAD + WIRECRYPT_TAG)
#define WIRECRYPT_SALT_BYTES 16
#define WIRECRYPT_KEY_BYTES 32
#define WIRECRYPT_CODE_CHARS 10 /* 50 bits: 2^50 Argon2id guesses offline */
#define WIRECRYPT_CODE_TEXT 12  /* XXXXX-XXXXX and the NUL */
/* Crockford's base 32: no I, L, O, U (read as 1, 1, 0 or refused) */
#define WIRECRYPT_ALPHABET "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#define WIRECRYPT_COOKIE_KEY_BYTES 32 /* the secret of the cookies (BLAKE2b's key) */
#define WIRECRYPT_WINDOW_WORDS 16 /* 1024 bits: counters up to 960 behind the newest */

typedef struct WireKeys {
    uint8_t tx[WIRECRYPT_KEY_BYTES], rx[WIRECRYPT_KEY_BYTES];
} WireKeys;

typedef struct WireReplay {
    bool any;      /* a counter accepted yet */
    uint64_t top;  /* the newest accepted */
    uint64_t bits[WIRECRYPT_WINDOW_WORDS];
} WireReplay;

typedef enum WireCryptResult {
    WIRECRYPT_OK = 0,
    WIRECRYPT_SHORT, /* not even an envelope */
    WIRECRYPT_MAGIC, /* not "NRS1" */
    WIRECRYPT_AUTH,  /* the tag does not verify: forged, altered or another key */
    WIRECRYPT_REPLAY /* a counter seen, or older than the window */
} WireCryptResult;

bool wirecrypt_init(void);
bool wirecrypt_code_normalise(const char *in, char out[WIRECRYPT_CODE_CHARS + 1]);
void wirecrypt_code_from_random(const uint8_t random[WIRECRYPT_CODE_CHARS], char out[WIRECRYPT_CODE_TEXT]);
bool wirecrypt_master(const char *code, const uint8_t salt[WIRECRYPT_SALT_BYTES],
                      uint8_t master[WIRECRYPT_KEY_BYTES]);
void wirecrypt_link(const uint8_t master[WIRECRYPT_KEY_BYTES], uint64_t nonce_a, uint64_t nonce_b, bool side_b,
                    WireKeys *out);
bool wirecrypt_derive(const char *code, const uint8_t salt[WIRECRYPT_SALT_BYTES], bool host, WireKeys *out);
size_t wirecrypt_seal(const WireKeys *k, uint64_t counter, const uint8_t *in, size_t n, uint8_t *out, size_t cap);
WireCryptResult wirecrypt_open(const WireKeys *k, WireReplay *w, const uint8_t *in, size_t n, uint8_t *out,
                               size_t *out_n);
const char *wirecrypt_result_name(WireCryptResult r);
uint64_t wirecrypt_cookie(const uint8_t key[WIRECRYPT_COOKIE_KEY_BYTES], const uint8_t *msg, size_t n);
bool wirecrypt_cookie_equal(uint64_t a, uint64_t b);

#endif
