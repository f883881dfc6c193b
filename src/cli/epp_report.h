/* What `netrace epp` reports of a finished experiment (epp_report.c): the
 * tables on stdout, the long-format CSV and Fig. 5's plot. cmd_epp.c sets up
 * and runs the experiment.
 *
 * Contracts:
 *   epp_plan_bandwidths(plan, o)  plan->bwall = the tables' bandwidths, then
 *        the sweep's not already among them (the experiment's bw list).
 *   epp_print_report(run)  stdout: the conditions, Tables 1-2 (models),
 *        Table 3 (traces), Fig. 5 and its companion, eq. 23's choices.
 *   epp_write_csv(run, f)  the header and one row per valid cell.
 *   epp_write_plot(run)    Fig. 5 to o.plot; CLI_OK or the exit code after
 *        one line on stderr.
 */
#ifndef NR_EPP_REPORT_H
#define NR_EPP_REPORT_H

#include "epp_opts.h"
#include "recording.h"

#include <stdio.h>

/* The bandwidths of every cell: the tables', then the sweep's not already
 * among them. */
typedef struct Plan {
    int nbwall;
    int64_t bwall[2 * MAX_LIST];
    EppResults res;
} Plan;

/* One epp run: its options, conditions [rate * nloss + loss], sources (the
 * nmodels motion models first, then every car of every trace) and results. */
typedef struct EppRun {
    Opts o;
    EppCondition *cond;
    Recording *recs; /* the traces' recordings */
    int nrecs;
    EppSource *src;
    int nsrc;
    Plan plan;
} EppRun;

void epp_plan_bandwidths(Plan *plan, const Opts *o);
void epp_print_report(const EppRun *run);
void epp_write_csv(const EppRun *run, FILE *f);
int epp_write_plot(const EppRun *run);

#endif
