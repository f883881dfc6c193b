/* Batch experiments over the engine: one run to the end of the race, the
 * sweep grid of the racing paper's Figs. 6-7, and long-format CSV rows.
 *
 * Contracts:
 *   experiment_run(cfg, rec, out, err)  replays rec (replay.h) under cfg to
 *        the race end, fills out[k] for each of cfg->nschemes schemes.
 *   experiment_results(e, out)   out[k] from scheme k's metrics in e, for
 *        every scheme of e (a replayed or a driven race).
 *   experiment_run_scripted(cfg, rec, script, out, err)  the same with the
 *        link changes of script (NULL: none) applied at their times.
 *   sweep_points(spec, out, max)    the grid of (delay12, jitter12) points in
 *        order: for each jitter, delays ascending; points whose jitter exceeds
 *        the mean are skipped. Returns the count (<= max).
 *   sweep_link_text(spec, pt, buf, n)  link12 spec text of a point.
 *   result_csv_header(f) / result_csv_row(f, ...)  the sweep/replay CSV.
 *   result_csv_header_fields / result_csv_row_fields  the same without the
 *        newline, for callers that append columns (N-car races).
 */
#ifndef NR_EXPERIMENT_H
#define NR_EXPERIMENT_H

#include "replay.h"
#include "linkscript.h"

#include <stdio.h>

typedef struct RunResult {
    const SchemeType *scheme;
    int64_t samples;
    double inconsistency_rate;
    double mean_d1_minus_d2, mean_d1, mean_d2, mean_abs_d1, mean_abs_d2;
    DirCounters dir[ENGINE_MAX_CARS]; /* by sending terminal */
    /* N-car measures (metrics.h; equal to the two-player ones for N = 2) */
    int ncars;
    double pair_rate, spread;
    double disadvantage[ENGINE_MAX_CARS];
} RunResult;

bool experiment_run(const EngineConfig *cfg, const Recording *rec, RunResult *out, NrError *err);
void experiment_results(const Engine *e, RunResult *out);
bool experiment_run_scripted(const EngineConfig *cfg, const Recording *rec, const LinkScript *script,
                             RunResult *out, NrError *err);

#define SWEEP_MAX_VALUES 64
#define SWEEP_MAX_POINTS (SWEEP_MAX_VALUES * SWEEP_MAX_VALUES)

typedef struct SweepSpec {
    int64_t delays_ms[SWEEP_MAX_VALUES];
    int ndelays;
    int64_t jitters_ms[SWEEP_MAX_VALUES];
    int njitters;
    char distribution[128]; /* "" = uniform jitter */
    char extra[128];        /* appended to every link12 spec, e.g. "loss 1%" */
} SweepSpec;

typedef struct SweepPoint {
    int64_t delay_ms, jitter_ms;
} SweepPoint;

int sweep_points(const SweepSpec *spec, SweepPoint *out, int max);
void sweep_link_text(const SweepSpec *spec, const SweepPoint *pt, char *buf, size_t n);

/* Identifies a run in a CSV row. */
typedef struct RunKey {
    double delay12_ms, jitter12_ms, delay21_ms, jitter21_ms;
    double delta_ms, tdr;
    uint64_t seed;
} RunKey;

void result_csv_header(FILE *f);
void result_csv_row(FILE *f, const RunKey *key, const RunResult *r);
void result_csv_header_fields(FILE *f);
void result_csv_row_fields(FILE *f, const RunKey *key, const RunResult *r);

#endif
