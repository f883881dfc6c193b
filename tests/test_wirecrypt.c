/* The sealed envelope (wirecrypt.h): join codes as typed, the two ends'
 * keys agreeing, every altered byte refused, another code refused, and the
 * replay window (RFC 6479) against duplicates, reordering within the
 * window, counters older than it and forged counters far ahead. */
#include "wirecrypt.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

static const uint8_t SALT[WIRECRYPT_SALT_BYTES] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static WireKeys host, joiner;

static int setup(void **state)
{
    (void)state;
    if (!wirecrypt_init() || !wirecrypt_derive("ABCDEFGHJK", SALT, true, &host) ||
        !wirecrypt_derive("ABCDEFGHJK", SALT, false, &joiner))
        return -1;
    return 0;
}

static void codes(void **state)
{
    (void)state;
    char c[WIRECRYPT_CODE_CHARS + 1];
    assert_true(wirecrypt_code_normalise("abcde-fghjk", c));
    assert_string_equal(c, "ABCDEFGHJK");
    /* Crockford's readings: O is 0, I and L are 1; separators anywhere */
    assert_true(wirecrypt_code_normalise(" oO-iI lL-zz-77 ", c));
    assert_string_equal(c, "001111ZZ77");
    assert_false(wirecrypt_code_normalise("ABCDEFGHJ", c));   /* 9 */
    assert_false(wirecrypt_code_normalise("ABCDEFGHJKM", c)); /* 11 */
    assert_false(wirecrypt_code_normalise("ABCDEFGHJU", c));  /* U is no code's */
    assert_false(wirecrypt_code_normalise("ABCDE\x1b[31m", c));
    assert_true(wirecrypt_code_normalise("0o1iL-23456", c));
    assert_string_equal(c, "0011123456");
    /* random bytes: b % 32 indexes the alphabet (0..9 are the digits, 31 Z) */
    const uint8_t r[WIRECRYPT_CODE_CHARS] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 255};
    char shown[WIRECRYPT_CODE_TEXT];
    wirecrypt_code_from_random(r, shown);
    assert_string_equal(shown, "01234-5678Z");
    assert_true(wirecrypt_code_normalise(shown, c));
    assert_string_equal(c, "012345678Z");
}

static void round_trip_and_tamper(void **state)
{
    (void)state;
    const uint8_t msg[40] = "NRC1 a packet of forty bytes, say PAUSE";
    uint8_t env[64 + WIRECRYPT_OVERHEAD], out[128];
    size_t n = wirecrypt_seal(&joiner, 7, msg, sizeof msg, env, sizeof env);
    assert_int_equal(n, sizeof msg + WIRECRYPT_OVERHEAD);
    assert_memory_equal(env, "NRS1\x07\0\0\0\0\0\0\0", 12);
    assert_memory_not_equal(env + 12, msg, sizeof msg); /* encrypted */
    assert_int_equal(wirecrypt_seal(&joiner, 7, msg, sizeof msg, env, n - 1), 0);
    /* every single altered bit anywhere in the envelope: refused, and the
     * window does not move (the genuine one still opens after) */
    WireReplay w = {0};
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 8; b++) {
            env[i] ^= (uint8_t)(1u << b);
            size_t m = 0;
            WireCryptResult r = wirecrypt_open(&host, &w, env, n, out, &m);
            assert_true(r == (i < 4 ? WIRECRYPT_MAGIC : WIRECRYPT_AUTH));
            env[i] ^= (uint8_t)(1u << b);
        }
    size_t m = 0;
    assert_int_equal(wirecrypt_open(&host, &w, env, n, out, &m), WIRECRYPT_OK);
    assert_int_equal(m, sizeof msg);
    assert_memory_equal(out, msg, sizeof msg);
    /* the direction matters: the joiner cannot open its own packet */
    WireReplay w2 = {0};
    assert_int_equal(wirecrypt_open(&joiner, &w2, env, n, out, &m), WIRECRYPT_AUTH);
    assert_int_equal(wirecrypt_open(&host, &w2, env, 11, out, &m), WIRECRYPT_SHORT);
    assert_int_equal(wirecrypt_open(&host, &w2, env, WIRECRYPT_OVERHEAD - 1, out, &m), WIRECRYPT_SHORT);
}

static void another_code(void **state)
{
    (void)state;
    WireKeys other;
    assert_true(wirecrypt_derive("ABCDEFGHJM", SALT, false, &other)); /* one character off */
    const uint8_t msg[8] = "CONTROL";
    uint8_t env[8 + WIRECRYPT_OVERHEAD], out[64];
    size_t n = wirecrypt_seal(&other, 1, msg, sizeof msg, env, sizeof env), m = 0;
    WireReplay w = {0};
    assert_int_equal(wirecrypt_open(&host, &w, env, n, out, &m), WIRECRYPT_AUTH);
    /* the same code with another salt (another host session): refused */
    uint8_t salt2[WIRECRYPT_SALT_BYTES];
    memcpy(salt2, SALT, sizeof salt2);
    salt2[15] ^= 1;
    assert_true(wirecrypt_derive("ABCDEFGHJK", salt2, false, &other));
    n = wirecrypt_seal(&other, 1, msg, sizeof msg, env, sizeof env);
    assert_int_equal(wirecrypt_open(&host, &w, env, n, out, &m), WIRECRYPT_AUTH);
}

static WireCryptResult deliver(WireReplay *w, uint64_t counter)
{
    const uint8_t msg[4] = "MU!";
    uint8_t env[4 + WIRECRYPT_OVERHEAD], out[32];
    size_t n = wirecrypt_seal(&joiner, counter, msg, sizeof msg, env, sizeof env), m = 0;
    return wirecrypt_open(&host, w, env, n, out, &m);
}

static void replay_window(void **state)
{
    (void)state;
    WireReplay w = {0};
    /* in order, then each again: every repeat refused */
    for (uint64_t c = 0; c < 300; c++)
        assert_int_equal(deliver(&w, c), WIRECRYPT_OK);
    for (uint64_t c = 0; c < 300; c++)
        assert_int_equal(deliver(&w, c), WIRECRYPT_REPLAY);
    /* reordered within the window: 2000..2999 in blocks of 500, each block
     * backwards (jumps back of 499 < the window's 960), each once */
    for (uint64_t i = 0; i < 1000; i++)
        assert_int_equal(deliver(&w, 2000 + (i / 500) * 500 + 499 - i % 500), WIRECRYPT_OK);
    for (uint64_t c = 2100; c < 3000; c++)
        assert_int_equal(deliver(&w, c), WIRECRYPT_REPLAY);
    /* never seen but older than the window (960 behind the newest, 2999) */
    assert_int_equal(deliver(&w, 1999), WIRECRYPT_REPLAY);
    assert_int_equal(deliver(&w, 2999 - 960), WIRECRYPT_REPLAY);
    /* a jump far ahead clears the whole ring: what follows is new */
    assert_int_equal(deliver(&w, UINT64_C(1) << 40), WIRECRYPT_OK);
    assert_int_equal(deliver(&w, (UINT64_C(1) << 40) - 1), WIRECRYPT_OK);
    assert_int_equal(deliver(&w, (UINT64_C(1) << 40) + 64 * 16), WIRECRYPT_OK);
    assert_int_equal(deliver(&w, (UINT64_C(1) << 40) + 64 * 16 - 900), WIRECRYPT_OK);
    assert_int_equal(deliver(&w, (UINT64_C(1) << 40) + 64 * 16 - 900), WIRECRYPT_REPLAY);
    assert_int_equal(deliver(&w, UINT64_MAX), WIRECRYPT_OK);
    assert_int_equal(deliver(&w, UINT64_MAX), WIRECRYPT_REPLAY);
}

/* A forged envelope with a counter far ahead does not move the window: the
 * genuine traffic behind it still gets through. */
static void forged_counter(void **state)
{
    (void)state;
    WireReplay w = {0};
    assert_int_equal(deliver(&w, 10), WIRECRYPT_OK);
    uint8_t forged[40 + WIRECRYPT_OVERHEAD] = "NRS1";
    memset(forged + 4, 0xff, 8);
    uint8_t out[64];
    size_t m = 0;
    assert_int_equal(wirecrypt_open(&host, &w, forged, sizeof forged, out, &m), WIRECRYPT_AUTH);
    assert_int_equal(deliver(&w, 11), WIRECRYPT_OK);
    assert_string_equal(wirecrypt_result_name(WIRECRYPT_REPLAY), "replay");
    assert_string_equal(wirecrypt_result_name(WIRECRYPT_AUTH), "auth");
}

/* The address cookie: the same for the same secret and message, another
 * for any bit of either changed (the address, its port, the nonce; another
 * end's secret), so a cookie given for one address proves nothing for
 * another. */
static void cookies(void **state)
{
    (void)state;
    uint8_t key[WIRECRYPT_COOKIE_KEY_BYTES], msg[14];
    for (int i = 0; i < (int)sizeof key; i++)
        key[i] = (uint8_t)(i * 37 + 1);
    for (int i = 0; i < (int)sizeof msg; i++)
        msg[i] = (uint8_t)(i + 10);
    uint64_t c = wirecrypt_cookie(key, msg, sizeof msg);
    assert_true(wirecrypt_cookie_equal(c, wirecrypt_cookie(key, msg, sizeof msg)));
    uint64_t seen[14 * 8 + 1];
    int n = 0;
    seen[n++] = c;
    for (int bit = 0; bit < 14 * 8; bit++) {
        msg[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        uint64_t d = wirecrypt_cookie(key, msg, sizeof msg);
        msg[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        for (int k = 0; k < n; k++)
            assert_false(wirecrypt_cookie_equal(d, seen[k]));
        seen[n++] = d;
    }
    key[31] ^= 1;
    assert_false(wirecrypt_cookie_equal(c, wirecrypt_cookie(key, msg, sizeof msg)));
    assert_false(wirecrypt_cookie_equal(c, c ^ (UINT64_C(1) << 63)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(codes),          cmocka_unit_test(round_trip_and_tamper), cmocka_unit_test(another_code),
        cmocka_unit_test(replay_window), cmocka_unit_test(forged_counter), cmocka_unit_test(cookies),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
