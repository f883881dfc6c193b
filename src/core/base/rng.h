/* Seeded pseudo-random streams (xoshiro256** seeded by splitmix64).
 *
 * Every random stream in netrace is an Rng value owned by its user; there is
 * no global generator. The same (seed, stream) pair always yields the same
 * sequence on every platform.
 *
 * Contracts:
 *   rng_seed(r, seed, stream)  deterministic; distinct streams are independent.
 *   rng_u64(r)                 uniform 64-bit value.
 *   rng_uniform(r)             double in [0, 1) with 53 random bits.
 *   rng_below(r, n)            integer in [0, n), unbiased; n > 0.
 *   rng_normal(r)              standard normal (polar method, no cached spare).
 *   rng_gamma(r, shape, scale) Gamma(shape, scale), shape > 0, scale > 0.
 *   rng_hash(a, b)             stateless 64-bit mix of two values.
 */
#ifndef NR_RNG_H
#define NR_RNG_H

#include <stdint.h>

typedef struct Rng {
    uint64_t s[4];
} Rng;

void rng_seed(Rng *r, uint64_t seed, uint64_t stream);
uint64_t rng_u64(Rng *r);
double rng_uniform(Rng *r);
uint64_t rng_below(Rng *r, uint64_t n);
double rng_normal(Rng *r);
double rng_gamma(Rng *r, double shape, double scale);
uint64_t rng_hash(uint64_t a, uint64_t b);

#endif
