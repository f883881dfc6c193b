/* `--shard I/N` of sweep and fairness: the I-th of N contiguous parts of a
 * run's work items, whose CSVs `netrace join-shards` joins into the bytes of
 * the whole run (docs/sweeps.md).
 *
 * Contracts:
 *   shard_parse(cmd, text, &shard)  "I/N" with 1 <= I <= N <= 100000; false
 *        after one usage line.
 *   shard_range(shard, total, &first, &end)  the items of part I of N:
 *        [(I-1) total / N, I total / N) (all of them when not sharded); the
 *        parts in order are the whole, each item once.
 *   shard_mark(f, shard)         the first line of a shard's CSV,
 *        "# netrace-shard: I/N" (join-shards reads it and drops it).
 *   shard_summary(s, first, end, total)  a shard's one stdout line, instead
 *        of the whole run's summary.
 */
#ifndef NR_SHARD_H
#define NR_SHARD_H

#include "cli.h"

#include <stdio.h>

typedef struct Shard {
    int64_t i, n; /* 1-based part i of n; n = 0: not sharded */
} Shard;

bool shard_parse(const char *cmd, const char *text, Shard *out);
void shard_range(const Shard *s, int64_t total, int64_t *first, int64_t *end);
void shard_mark(FILE *f, const Shard *s);
void shard_summary(const Shard *s, int64_t first, int64_t end, int64_t total);

#endif
