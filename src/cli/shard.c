/* --shard I/N: parsing, the part's items, the CSV mark, the summary line. */
#include "shard.h"

#include <inttypes.h>
#include <string.h>

bool shard_parse(const char *cmd, const char *text, Shard *out)
{
    const char *slash = strchr(text, '/');
    char a[32];
    int64_t i = 0, n = 0;
    size_t la = slash ? (size_t)(slash - text) : 0;
    if (slash && la < sizeof a) {
        memcpy(a, text, la);
        a[la] = '\0';
    }
    if (!slash || la >= sizeof a || !nr_parse_int64(a, &i) || !nr_parse_int64(slash + 1, &n) || n < 1 ||
        n > 100000 || i < 1 || i > n) {
        cli_usage_error(cmd, "--shard: expected I/N with 1 <= I <= N <= 100000, got '%s'", text);
        return false;
    }
    out->i = i;
    out->n = n;
    return true;
}

void shard_range(const Shard *s, int64_t total, int64_t *first, int64_t *end)
{
    if (s->n <= 0) {
        *first = 0;
        *end = total;
        return;
    }
    *first = (s->i - 1) * total / s->n;
    *end = s->i * total / s->n;
}

void shard_mark(FILE *f, const Shard *s)
{
    fprintf(f, "# netrace-shard: %" PRId64 "/%" PRId64 "\n", s->i, s->n);
}

void shard_summary(const Shard *s, int64_t first, int64_t end, int64_t total)
{
    printf("shard %" PRId64 "/%" PRId64 ": items %" PRId64 " to %" PRId64 " of %" PRId64
           " (join the parts' CSVs with 'netrace join-shards')\n",
           s->i, s->n, first, end, total);
}
