/* The delay sweep's figure (the racing paper's Figs. 6-7 layout), of one
 * race configuration or of several side by side (--topology / --server
 * lists).
 *
 * Contracts:
 *   sweep_plot_write(jobs, nt, pts, spec, path)  draws the nt jobs (run on
 *        the same points pts of spec, jobs[t].o the configuration t) to the
 *        PNG path: per jitter the inconsistency rate and the fairness (mean
 *        d1 - d2, or the spread of the d_i for N cars / cs) against the
 *        delay, one curve per scheme, 95 % intervals across seeds; nt <= 3.
 *        CLI_OK (after naming the file) or CLI_FAIL after one line.
 */
#ifndef NR_SWEEP_PLOT_H
#define NR_SWEEP_PLOT_H

#include "sweep_job.h"

int sweep_plot_write(const SweepJob *jobs, int nt, const SweepPoint *pts, const SweepSpec *spec, const char *path);

#endif
