/* The sweep's work: every (point, seed) run of a grid on worker threads,
 * shared by the delay sweep of the paper's figures and `sweep --vary`; and
 * the shard arithmetic of `--shard I/N` (docs/sweeps.md).
 *
 * Contracts:
 *   sweep_job_run(j, threads)   runs items [j->first, j->end) of the
 *        npts * runs items (item = point * runs + run, seed o->seed + run) on
 *        `threads` workers (0: one per core); point p takes link12[p],
 *        link21[p], params[p] where those arrays are given, else the race
 *        options'. Results at j->results[item * nschemes + k]. CLI_OK, or
 *        CLI_FAIL after one line.
 *   sweep_job_result(j, p, r, k)  the result of point p, run r, scheme k.
 *   sweep_seed_mean(j, p, k, fairness, &half)  the mean over the seeds of
 *        point p, scheme k, of the inconsistency rate in % (or of d1 - d2
 *        when fairness), and the half-width of its 95 % interval (NAN with
 *        one seed; at most the first 1024 seeds).
 *   shard_parse(cmd, text, &shard)  "I/N" with 1 <= I <= N <= 100000; false
 *        after one usage line.
 *   shard_range(shard, total, &first, &end)  the I-th of N contiguous parts
 *        of total items: [(I-1) total / N, I total / N); the parts in order
 *        are the whole, each item once.
 *   shard_mark(f, shard)         the first line of a shard's CSV,
 *        "# netrace-shard: I/N" (join-shards reads it and drops it).
 *   sweep_load_and_check(o, c)   loads the race, checks --out and --plot
 *        before any work; CLI_OK or the exit code after one line.
 *   sweep_shard_summary(s, first, end, total)  a shard's one stdout line.
 */
#ifndef NR_SWEEP_JOB_H
#define NR_SWEEP_JOB_H

#include "race_opts.h"

#include <pthread.h>

typedef struct Shard {
    int64_t i, n; /* 1-based part i of n; n = 0: not sharded */
} Shard;

/* What every sweep takes besides its grid. */
typedef struct SweepCommon {
    int64_t runs, threads; /* seeds per point; threads 0: one per core */
    const char *out, *plot;
    Shard shard;
} SweepCommon;

typedef struct SweepJob {
    const RaceOpts *o;
    int npts, runs, nschemes;
    const LinkSpec *link12, *link21; /* per point, or NULL */
    const SchemeParams *params;      /* per point, or NULL */
    int64_t first, end;              /* the items to run */
    RunResult *results;              /* [item * nschemes + k], every item */
    /* the workers' shared state */
    int64_t next, done;
    bool failed, progress;
    NrError err;
    pthread_mutex_t mu;
} SweepJob;

int sweep_job_run(SweepJob *j, int64_t threads);
const RunResult *sweep_job_result(const SweepJob *j, int p, int r, int k);
double sweep_seed_mean(const SweepJob *j, int p, int k, bool fairness, double *half);

bool shard_parse(const char *cmd, const char *text, Shard *out);
void shard_range(const Shard *s, int64_t total, int64_t *first, int64_t *end);
void shard_mark(FILE *f, const Shard *s);
int sweep_load_and_check(RaceOpts *o, const SweepCommon *c);
void sweep_shard_summary(const Shard *s, int64_t first, int64_t end, int64_t total);

#endif
