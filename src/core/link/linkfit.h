/* Measured one-way delays in, the netem spec that fits them best out
 * (`netrace fit`, docs/link.md "Fit").
 *
 * The model is netem's: delay = mu + sigma * t / 8192 for t a random entry
 * of a distribution table (normal, pareto, paretonormal), or uniform on
 * [mu - sigma, mu + sigma) without one. For each candidate, mu and sigma
 * match the sample's mean and standard deviation exactly (through the
 * table's own mean and sd); the candidate with the smallest Kolmogorov-
 * Smirnov distance between the sample and the model's distribution (the
 * table's 4096 or so values, scaled) is chosen. Loss: the share of lost
 * slots; when the lost slots come in runs longer than independent losses
 * give (mean run > 1.5 / (1 - L) over at least 10 runs; independent losses
 * give 1 / (1 - L)), Gilbert's model with mean burst B and the same rate:
 * netem `loss gemodel p r` with r = 1/B, p = L r / (1 - L).
 *
 * Contracts:
 *   delays_read(f, path, dir, out, err)  reads a delays file: a `merge
 *        --delays` / trace CSV (header naming delay_us; direction dir 12 or
 *        21, seq gaps are lost slots), or one value per line as `netrace
 *        delays` prints (ms; `lost`; `dup MS` lines skipped; an optional
 *        header line first). False + err "PATH:LINE: what" on text, a
 *        negative, NaN or infinite value, or no delivered value at all.
 *   delays_free(s)
 *   linkfit_run(s, table_dir, out, err)  fits s; false + err when a table
 *        cannot be found or fewer than 2 delays were delivered.
 */
#ifndef NR_LINKFIT_H
#define NR_LINKFIT_H

#include "link.h"

#include <stdio.h>

#define DELAYS_MAX 10000000 /* slots of a delays file */

typedef struct DelaySeries {
    double *ms;       /* per slot: the delay in ms, NAN when lost */
    int64_t n;        /* slots */
    int64_t cap;
} DelaySeries;

typedef struct FitCandidate {
    const char *table; /* "normal", ..., "uniform" */
    double mu_ms, sigma_ms, ks;
} FitCandidate;

#define LINKFIT_CANDIDATES 4

typedef struct LinkFit {
    FitCandidate cand[LINKFIT_CANDIDATES];
    int best;
    int64_t slots, delivered, lost, runs;
    double mean_ms, sd_ms, loss_rate, mean_burst;
    bool bursty;
    double ge_p, ge_r; /* when bursty */
    char spec[LINK_TEXT_MAX];
} LinkFit;

bool delays_read(FILE *f, const char *path, int dir, DelaySeries *out, NrError *err);
void delays_free(DelaySeries *s);
bool linkfit_run(const DelaySeries *s, const char *table_dir, LinkFit *out, NrError *err);

#endif
