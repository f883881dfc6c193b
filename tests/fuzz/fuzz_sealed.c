/* Fuzz harness: the sealed envelope (wirecrypt.h) and the packet decoder
 * behind it. Three checks per input: the raw bytes as an envelope never
 * open (nobody without the key makes a tag); the bytes sealed with a
 * counter they give open to exactly themselves, once (again: replay), and
 * with one bit flipped not at all, and what opened goes through
 * wire_decode; and the replay window, fed counters the input walks
 * through, accepts exactly what a plain list of the accepted ones says
 * (new, and newer than 960 behind the newest). And the address cookie
 * (wirecrypt_cookie) of the input: the same twice, another with one bit
 * of the input or of the key flipped, compared equal exactly when equal. */
#include "wire.h"
#include "wirecrypt.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define WALK_MAX 256 /* counters per input for the window check (the list is searched linearly) */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static WireKeys host, joiner;

static void keys(void)
{
    static bool ready;
    static const uint8_t salt[WIRECRYPT_SALT_BYTES] = {9, 8, 7, 6, 5, 4, 3, 2, 1};
    if (ready)
        return;
    if (!wirecrypt_init() || !wirecrypt_derive("ABCDEFGHJK", salt, true, &host) ||
        !wirecrypt_derive("ABCDEFGHJK", salt, false, &joiner))
        abort();
    ready = true;
}

static uint64_t le64(const uint8_t *b)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

static void round_trip(const uint8_t *data, size_t size)
{
    static uint8_t env[WIRE_MAX_BYTES + WIRECRYPT_OVERHEAD], out[WIRE_MAX_BYTES + WIRECRYPT_OVERHEAD];
    if (size < 8 || size - 8 > WIRE_MAX_BYTES)
        return;
    size_t n = size - 8, m = 0;
    size_t e = wirecrypt_seal(&joiner, le64(data), data + 8, n, env, sizeof env);
    WireReplay w = {0};
    if (e != n + WIRECRYPT_OVERHEAD || wirecrypt_open(&host, &w, env, e, out, &m) != WIRECRYPT_OK || m != n ||
        memcmp(out, data + 8, n) != 0 || wirecrypt_open(&host, &w, env, e, out, &m) != WIRECRYPT_REPLAY)
        abort();
    WireReplay w2 = {0};
    size_t bit = (size_t)le64(data) % (e * 8);
    env[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    WireCryptResult r = wirecrypt_open(&host, &w2, env, e, out, &m);
    if (r != (bit / 8 < 4 ? WIRECRYPT_MAGIC : WIRECRYPT_AUTH))
        abort();
    WireCheck chk = {.token = 1, .accept_hello = true, .ncars = 2, .own_car = 1, .nschemes = 1};
    WirePacket p;
    WireResult d = wire_decode(data + 8, n, &chk, &p);
    if (d < WIRE_OK || d >= WIRE_RESULT_COUNT)
        abort();
}

static void window_walk(const uint8_t *data, size_t size)
{
    static uint64_t seen[WALK_MAX];
    int nseen = 0;
    uint64_t cur = UINT64_C(1) << 20, top = 0;
    bool any = false;
    WireReplay w = {0};
    uint8_t env[1 + WIRECRYPT_OVERHEAD], out[8];
    for (size_t i = 0; i + 2 <= size && nseen < WALK_MAX; i += 2) {
        int16_t delta = (int16_t)(data[i] | data[i + 1] << 8);
        cur += (uint64_t)(int64_t)(delta % 2048); /* mostly near, now and then a jump */
        bool dup = false;
        for (int k = 0; k < nseen && !dup; k++)
            dup = seen[k] == cur;
        bool want = !dup && (!any || cur > top || top - cur < 960);
        size_t e = wirecrypt_seal(&joiner, cur, (const uint8_t *)"x", 1, env, sizeof env), m = 0;
        WireCryptResult r = wirecrypt_open(&host, &w, env, e, out, &m);
        if ((r == WIRECRYPT_OK) != want || (r != WIRECRYPT_OK && r != WIRECRYPT_REPLAY))
            abort();
        if (want) {
            seen[nseen++] = cur;
            top = !any || cur > top ? cur : top;
            any = true;
        }
    }
}

/* A 64-bit keyed hash: a one-bit change of message or key that gave the
 * same cookie would be a collision nobody finds by search. */
static void cookie(const uint8_t *data, size_t size)
{
    static uint8_t msg[WIRE_MAX_BYTES];
    uint8_t key[WIRECRYPT_COOKIE_KEY_BYTES] = {1, 2, 3, 5, 8, 13, 21, 34};
    if (size < 1 || size > sizeof msg)
        return;
    memcpy(msg, data, size);
    uint64_t a = wirecrypt_cookie(key, msg, size), b = wirecrypt_cookie(key, msg, size);
    size_t bit = (size_t)data[0] * 7 % (size * 8);
    msg[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    uint64_t c = wirecrypt_cookie(key, msg, size);
    key[data[0] % WIRECRYPT_COOKIE_KEY_BYTES] ^= 0x80;
    uint64_t d = wirecrypt_cookie(key, data, size);
    if (a != b || !wirecrypt_cookie_equal(a, b) || a == c || wirecrypt_cookie_equal(a, c) || a == d ||
        wirecrypt_cookie_equal(a, d))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    keys();
    cookie(data, size);
    static uint8_t out[1 << 16];
    size_t m = 0;
    WireReplay w = {0};
    if (size <= sizeof out && wirecrypt_open(&host, &w, data, size, out, &m) == WIRECRYPT_OK)
        abort(); /* a tag forged */
    round_trip(data, size);
    window_walk(data, size);
    return 0;
}
