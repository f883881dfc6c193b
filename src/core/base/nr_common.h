/* Common types of the netrace core: errors as values, time units, angles.
 *
 * Contracts:
 *   nr_error_set(err, fmt, ...)  formats one line into err->msg (err may be NULL);
 *                                always returns false so callers can write
 *                                `return nr_error_set(err, ...);`.
 *   Times inside the core are int64_t microseconds (suffix _us) or int32_t
 *   milliseconds (suffix _ms); never floats as time keys.
 *   World unit: one car width (suffix _cw where it matters).
 */
#ifndef NR_COMMON_H
#define NR_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NR_PI 3.14159265358979323846
#define NR_US_PER_MS INT64_C(1000)
#define NR_US_PER_S INT64_C(1000000)
#define NR_ERROR_MAX 512

typedef struct NrError {
    char msg[NR_ERROR_MAX];
} NrError;

#if defined(__GNUC__)
#define NR_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define NR_PRINTF(a, b)
#endif

bool nr_error_set(NrError *err, const char *fmt, ...) NR_PRINTF(2, 3);

/* true when s holds no control character (bytes 0-31 except tab, and 127):
 * text from a file that netrace prints back (names, dates) must not carry
 * terminal escapes or line breaks. */
bool nr_text_is_printable(const char *s);

/* The index (0-31) of m's lowest set bit; m must not be 0. m & -m keeps
 * that bit alone, and its product with the de Bruijn sequence B(2, 5)
 * 0x077CB531 has a distinct top five bits for each of the 32 powers of
 * two: portable C11 for what compilers offer as a builtin. */
static inline int nr_lowest_bit(uint32_t m)
{
    static const uint8_t at[32] = {0,  1,  28, 2,  29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4,  8,
                                   31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6,  11, 5,  10, 9};
    return at[(uint32_t)((m & (0u - m)) * UINT32_C(0x077CB531)) >> 27];
}

/* Wrap an angle to (-pi, pi]. */
double nr_wrap_angle(double a);

/* Parse helpers shared by every text format and flag parser. Each returns
 * false when the whole string is not a finite number in range. */
bool nr_parse_double(const char *s, double *out);
bool nr_parse_int64(const char *s, int64_t *out);

/* The shortest fixed-point text ("%.Nf", smallest N <= 17) that reads back
 * to the identical double, "%.17g" when none does (1e-300); buf of at least
 * 48 bytes. Every number netrace writes to a file goes through it, so
 * write -> read -> write is byte-identical. */
void nr_format_double(char *buf, size_t n, double v);

/* v, or +0.0 when v prints as zero at `places` decimals (|v| < half a unit
 * of the last place): tables and gauges then show "0.00", never "-0.00",
 * which reads as a bias too small to show. */
double nr_unsigned_zero(double v, int places);

#endif
