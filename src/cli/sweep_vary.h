/* `netrace sweep --vary NAME=LIST ...`: a full-factorial sweep of any of the
 * parameters of vary.h (docs/sweeps.md).
 *
 * Contracts:
 *   sweep_vary_run(o, axes, naxes, c)  loads the race of o (its --link12 and
 *        --link21 are the base links each point changes), runs every point x
 *        seed (or c->shard's part), writes the CSV (one column per varied
 *        parameter, then the sweep's columns), prints a summary and draws
 *        c->plot (the first parameter on the x axis, one pair of panels per
 *        value of the others). CLI_OK or the exit code after one line.
 */
#ifndef NR_SWEEP_VARY_H
#define NR_SWEEP_VARY_H

#include "sweep_job.h"
#include "vary.h"

int sweep_vary_run(RaceOpts *o, const VaryAxis *axes, int naxes, const SweepCommon *c);

#endif
