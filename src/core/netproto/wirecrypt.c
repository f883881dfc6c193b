/* The sealed envelope of datagrams: join code, keys, seal, open and the
 * replay window (wirecrypt.h). */
#include "wirecrypt.h"

#include <sodium.h>
#include <string.h>

bool wirecrypt_init(void)
{
    return sodium_init() >= 0;
}

/* Crockford's reading of a typed character: its alphabet index, -1 for a
 * separator to skip, -2 for a character no code has. */
static int code_value(char c)
{
    if (c == '-' || c == ' ')
        return -1;
    if (c >= 'a' && c <= 'z')
        c = (char)(c - 'a' + 'A');
    if (c == 'O')
        c = '0';
    if (c == 'I' || c == 'L')
        c = '1';
    const char *at = c ? strchr(WIRECRYPT_ALPHABET, c) : NULL;
    return at ? (int)(at - WIRECRYPT_ALPHABET) : -2;
}

bool wirecrypt_code_normalise(const char *in, char out[WIRECRYPT_CODE_CHARS + 1])
{
    int n = 0;
    for (const char *p = in; *p; p++) {
        int v = code_value(*p);
        if (v == -2 || (v >= 0 && n == WIRECRYPT_CODE_CHARS))
            return false;
        if (v >= 0)
            out[n++] = WIRECRYPT_ALPHABET[v];
    }
    out[n] = '\0';
    return n == WIRECRYPT_CODE_CHARS;
}

void wirecrypt_code_from_random(const uint8_t random[WIRECRYPT_CODE_CHARS], char out[WIRECRYPT_CODE_TEXT])
{
    int j = 0;
    for (int i = 0; i < WIRECRYPT_CODE_CHARS; i++) {
        if (i == WIRECRYPT_CODE_CHARS / 2)
            out[j++] = '-';
        out[j++] = WIRECRYPT_ALPHABET[random[i] % 32]; /* 256 = 8 x 32: unbiased */
    }
    out[j] = '\0';
}

bool wirecrypt_master(const char *code, const uint8_t salt[WIRECRYPT_SALT_BYTES],
                      uint8_t master[WIRECRYPT_KEY_BYTES])
{
    return crypto_pwhash(master, WIRECRYPT_KEY_BYTES, code, strlen(code), salt, crypto_pwhash_OPSLIMIT_INTERACTIVE,
                         crypto_pwhash_MEMLIMIT_INTERACTIVE, crypto_pwhash_ALG_ARGON2ID13) == 0;
}

/* The link's own master: BLAKE2b keyed with the session master over the
 * two ends' handshake nonces, so every link (a joiner and its host or
 * server, two peers) has keys no other link shares, and each direction
 * one of them (crypto_kdf ids 1 a->b, 2 b->a). */
void wirecrypt_link(const uint8_t master[WIRECRYPT_KEY_BYTES], uint64_t nonce_a, uint64_t nonce_b, bool side_b,
                    WireKeys *out)
{
    uint8_t msg[12 + 16], link[crypto_kdf_KEYBYTES], a2b[WIRECRYPT_KEY_BYTES], b2a[WIRECRYPT_KEY_BYTES];
    memcpy(msg, "netrace link", 12);
    for (int i = 0; i < 8; i++) {
        msg[12 + i] = (uint8_t)(nonce_a >> (8 * i));
        msg[20 + i] = (uint8_t)(nonce_b >> (8 * i));
    }
    crypto_generichash(link, sizeof link, msg, sizeof msg, master, WIRECRYPT_KEY_BYTES);
    crypto_kdf_derive_from_key(a2b, sizeof a2b, 1, "netrace1", link);
    crypto_kdf_derive_from_key(b2a, sizeof b2a, 2, "netrace1", link);
    memcpy(out->tx, side_b ? b2a : a2b, WIRECRYPT_KEY_BYTES);
    memcpy(out->rx, side_b ? a2b : b2a, WIRECRYPT_KEY_BYTES);
    sodium_memzero(link, sizeof link);
    sodium_memzero(a2b, sizeof a2b);
    sodium_memzero(b2a, sizeof b2a);
}

bool wirecrypt_derive(const char *code, const uint8_t salt[WIRECRYPT_SALT_BYTES], bool host, WireKeys *out)
{
    uint8_t master[WIRECRYPT_KEY_BYTES];
    if (!wirecrypt_master(code, salt, master))
        return false;
    wirecrypt_link(master, 0, 0, host, out);
    sodium_memzero(master, sizeof master);
    return true;
}

/* The AEAD nonce of a counter: four zero bytes, then the counter (each
 * direction has its own key, so a (key, nonce) pair is never reused). */
static void nonce_of(uint64_t counter, uint8_t nonce[crypto_aead_chacha20poly1305_ietf_NPUBBYTES])
{
    memset(nonce, 0, crypto_aead_chacha20poly1305_ietf_NPUBBYTES);
    for (int i = 0; i < 8; i++)
        nonce[4 + i] = (uint8_t)(counter >> (8 * i));
}

size_t wirecrypt_seal(const WireKeys *k, uint64_t counter, const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
    if (cap < n + WIRECRYPT_OVERHEAD)
        return 0;
    memcpy(out, WIRECRYPT_MAGIC_TEXT, 4);
    for (int i = 0; i < 8; i++)
        out[4 + i] = (uint8_t)(counter >> (8 * i));
    uint8_t nonce[crypto_aead_chacha20poly1305_ietf_NPUBBYTES];
    nonce_of(counter, nonce);
    unsigned long long clen = 0;
    crypto_aead_chacha20poly1305_ietf_encrypt(out + WIRECRYPT_HEAD, &clen, in, n, out, WIRECRYPT_HEAD, NULL, nonce,
                                              k->tx);
    return WIRECRYPT_HEAD + (size_t)clen;
}

/* RFC 6479's window: bit c % 64 of word (c / 64) % WORDS marks counter c;
 * moving the top clears the words it passes. */
static bool replay_seen(const WireReplay *w, uint64_t c)
{
    if (!w->any || c > w->top)
        return false;
    if (w->top - c >= (uint64_t)(WIRECRYPT_WINDOW_WORDS - 1) * 64)
        return true; /* older than the window: cannot tell, refused */
    return (w->bits[(c / 64) % WIRECRYPT_WINDOW_WORDS] >> (c % 64)) & 1u;
}

static void replay_mark(WireReplay *w, uint64_t c)
{
    if (!w->any) {
        memset(w->bits, 0, sizeof w->bits);
        w->top = c;
        w->any = true;
    } else if (c > w->top) {
        uint64_t from = w->top / 64, to = c / 64;
        uint64_t clear = to - from < WIRECRYPT_WINDOW_WORDS ? to - from : WIRECRYPT_WINDOW_WORDS;
        for (uint64_t i = 1; i <= clear; i++)
            w->bits[(from + i) % WIRECRYPT_WINDOW_WORDS] = 0;
        w->top = c;
    }
    w->bits[(c / 64) % WIRECRYPT_WINDOW_WORDS] |= UINT64_C(1) << (c % 64);
}

WireCryptResult wirecrypt_open(const WireKeys *k, WireReplay *w, const uint8_t *in, size_t n, uint8_t *out,
                               size_t *out_n)
{
    if (n < WIRECRYPT_OVERHEAD)
        return WIRECRYPT_SHORT;
    if (memcmp(in, WIRECRYPT_MAGIC_TEXT, 4) != 0)
        return WIRECRYPT_MAGIC;
    uint64_t c = 0;
    for (int i = 0; i < 8; i++)
        c |= (uint64_t)in[4 + i] << (8 * i);
    if (replay_seen(w, c))
        return WIRECRYPT_REPLAY;
    uint8_t nonce[crypto_aead_chacha20poly1305_ietf_NPUBBYTES];
    nonce_of(c, nonce);
    unsigned long long mlen = 0;
    if (crypto_aead_chacha20poly1305_ietf_decrypt(out, &mlen, NULL, in + WIRECRYPT_HEAD, n - WIRECRYPT_HEAD, in,
                                                  WIRECRYPT_HEAD, nonce, k->rx) != 0)
        return WIRECRYPT_AUTH;
    replay_mark(w, c); /* only an authentic counter moves the window */
    *out_n = (size_t)mlen;
    return WIRECRYPT_OK;
}

const char *wirecrypt_result_name(WireCryptResult r)
{
    static const char *const names[] = {"ok", "short", "magic", "auth", "replay"};
    return r >= WIRECRYPT_OK && r <= WIRECRYPT_REPLAY ? names[r] : "?";
}

uint64_t wirecrypt_cookie(const uint8_t key[WIRECRYPT_COOKIE_KEY_BYTES], const uint8_t *msg, size_t n)
{
    uint8_t out[8];
    crypto_generichash(out, sizeof out, msg, n, key, WIRECRYPT_COOKIE_KEY_BYTES);
    uint64_t c = 0;
    for (int i = 0; i < 8; i++)
        c |= (uint64_t)out[i] << (8 * i);
    return c;
}

bool wirecrypt_cookie_equal(uint64_t a, uint64_t b)
{
    return sodium_memcmp(&a, &b, sizeof a) == 0;
}
