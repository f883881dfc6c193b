/* The EPP experiment of Cheung & Sakamoto 2007 (Tables 1-3, Fig. 5): every
 * source (motion model or recorded trace) x update rate x loss rate x run,
 * each scheme over the same traffic (common random numbers), mean Euclidean
 * error per cell. The command line (cmd_epp.c) only parses, prints and
 * writes the CSV; the loop lives here, as fair_experiment_run does for the
 * fairness paper.
 *
 * Schemes: raw (DR without EPs: the model's own predictor, or ex->raw_dr on
 * traces), EP-p / EP-i (models: EP of the model's order, piggyback /
 * independent), xd / xv / xa (traces: EP of that order, packetisation chosen
 * by eq. 23).
 *
 * Random streams: a run's stream is keyed by what it is (source name, rate,
 * loss, run index), not by list positions, so a subset of the lists gives the
 * same numbers for the same seed. A trace run takes a random stretch of the
 * trace, linearly interpolated at the update rate.
 *
 * Contracts:
 *   epp_exp_scheme_name(k)         "raw", "EP-p", "EP-i", "xd", "xv", "xa".
 *   epp_condition_init(c, delay_part, loss, rate_hz, err)  the link of one
 *        (rate, loss) pair: delay_part (netem grammar, "" for none) plus
 *        "loss L%" when loss > 0; D (eq. 25's horizon) and p[D..D+3]. False +
 *        err when the spec does not parse (c is then safe to free).
 *   epp_condition_free(c)
 *   epp_trace_len(rec, rate_hz)    updates a trace holds at rate_hz (0 when
 *        it has fewer than two samples).
 *   epp_experiment_run(ex, out, err)  runs everything; out->cells sized to
 *        nsrc x nrate x nloss x nbw x EPPX_COUNT; a (source, rate) pair with
 *        fewer than EPP_EXP_WARMUP + 10 updates is skipped (out->avail says
 *        how many it had). False + err when out of memory.
 *   epp_results_cell(r, s, rate, loss, bw, k)  one cell (sum of per-run mean
 *        errors, runs, valid).
 *   epp_results_avail(r, s, rate)  updates source s had at that rate, or -1
 *        when it was not skipped.
 *   epp_results_free(r)
 */
#ifndef NR_EPP_EXPERIMENT_H
#define NR_EPP_EXPERIMENT_H

#include "epp.h"
#include "link.h"
#include "recording.h"

#define EPP_EXP_WARMUP 40 /* updates before the first measured display time */

typedef enum EppExpScheme { EPPX_RAW, EPPX_EPP, EPPX_EPI, EPPX_XD, EPPX_XV, EPPX_XA, EPPX_COUNT } EppExpScheme;

typedef struct EppSource {
    char name[160];       /* model name or "stem/carN"; keys the random streams */
    bool is_model;
    EppModel model;       /* models */
    const Recording *rec; /* traces (borrowed) */
    int car;
} EppSource;

typedef struct EppCondition {
    LinkSpec spec;
    int D;
    double pd[4];
    bool closed; /* pd from eq. 25's closed form, else Monte Carlo */
} EppCondition;

typedef struct EppExperiment {
    const EppSource *src;
    int nsrc;
    const int *rate; /* updates per second */
    int nrate;
    const double *loss; /* 0..1 */
    int nloss;
    const EppCondition *cond; /* [rate * nloss + loss] */
    const int64_t *bw;        /* bandwidths C (bit/s): the tables' first, then the sweep's */
    int nbw;
    int ntable;               /* bw[0..ntable) are the tables' (trace schemes run only there) */
    bool scheme_on[EPPX_COUNT];
    EppModel raw_dr;          /* raw's DR on traces */
    int runs, samples;
    uint64_t seed;
    /* With item_range, only the (source, rate) items [item_first, item_end)
     * (item = source * nrate + rate index) run: one shard's part (`--shard
     * I/N`); their random streams depend on names and values, not on which
     * others run, so the parts' cells are the whole run's. */
    bool item_range;
    int64_t item_first, item_end;
} EppExperiment;

typedef struct EppCell {
    double sum;  /* of per-run mean errors */
    double sum2; /* of their squares: the spread across runs (stats_ci95_sums) */
    int runs;
    bool valid;
} EppCell;

typedef struct EppResults {
    int nsrc, nrate, nloss, nbw;
    EppCell *cells;
    int *avail; /* [s * nrate + rate]: updates of a skipped pair, -1 otherwise */
} EppResults;

const char *epp_exp_scheme_name(int k);
bool epp_condition_init(EppCondition *c, const char *delay_part, double loss, int rate_hz, NrError *err);
void epp_condition_free(EppCondition *c);
int epp_trace_len(const Recording *rec, int rate_hz);
bool epp_experiment_run(const EppExperiment *ex, EppResults *out, NrError *err);
const EppCell *epp_results_cell(const EppResults *r, int s, int rate, int loss, int bw, int k);
int epp_results_avail(const EppResults *r, int s, int rate);
void epp_results_free(EppResults *r);

#endif
