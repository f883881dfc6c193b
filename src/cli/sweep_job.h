/* The sweep's work: every (point, seed) run of a grid on worker threads,
 * shared by the delay sweep of the paper's figures and `sweep --vary`; and
 * a shard's part of them (shard.h).
 *
 * Contracts:
 *   sweep_job_run(j, threads)   runs items [j->first, j->end) of the
 *        npts * runs items (item = point * runs + run, seed o->seed + run) on
 *        `threads` workers (0: one per core); point p takes link12[p],
 *        link21[p], params[p] where those arrays are given, else the race
 *        options' (link12[p] is every line out of terminal 1 in an N-car or
 *        cs race: race_topo_sweep_line). Results at
 *        j->results[item * nschemes + k]. CLI_OK, or CLI_FAIL after one line.
 *   sweep_job_result(j, p, r, k)  the result of point p, run r, scheme k.
 *   sweep_seed_mean(j, p, k, fairness, &half)  the mean over the seeds of
 *        point p, scheme k, of the inconsistency rate in % (or when
 *        fairness of d1 - d2, of the spread of the d_i in an N-car or cs
 *        race), and the half-width of its 95 % interval (NAN with one seed;
 *        at most the first 1024 seeds).
 *   sweep_load_and_check(o, c)   loads the race (race_topo_resolve: its
 *        car count and lines), checks --out and --plot before any work;
 *        CLI_OK or the exit code after one line.
 */
#ifndef NR_SWEEP_JOB_H
#define NR_SWEEP_JOB_H

#include "race_opts.h"
#include "shard.h"

#include <pthread.h>

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

int sweep_load_and_check(RaceOpts *o, const SweepCommon *c);

#endif
