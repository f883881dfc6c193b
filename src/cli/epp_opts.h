/* `netrace epp`'s options: the defaults of the EPP paper's tables and the
parsing of every flag (epp_opts.c); cmd_epp.c runs and prints. */
#ifndef NR_EPP_OPTS_H
#define NR_EPP_OPTS_H

#include "cli.h"
#include "epp_experiment.h"
#include "shard.h"

#define CMD "epp"
#define MAX_LIST 64
#define MAX_TRACES 32
enum { SC_RAW = EPPX_RAW, SC_EPP = EPPX_EPP, SC_EPI = EPPX_EPI, SC_XD = EPPX_XD, SC_XV = EPPX_XV,
       SC_XA = EPPX_XA, SC_COUNT = EPPX_COUNT };

typedef struct Opts {
    EppModel models[3];
    int nmodels;
    bool scheme_on[SC_COUNT];
    double loss[MAX_LIST];
    int nloss;
    int rate[MAX_LIST];
    int nrate;
    int64_t bw[MAX_LIST];
    int nbw;
    int64_t sweep[MAX_LIST];
    int nsweep;
    const char *link;
    const char *traces[MAX_TRACES];
    int ntraces;
    bool no_traces;
    EppModel raw_dr;
    int runs, samples;
    uint64_t seed;
    const char *out;
    const char *plot;
    Shard shard; /* --shard I/N: the (source, rate) items of part I */
} Opts;

/* Fills *o from the command line: CLI_OK, or the exit code after one line
 * on stderr (CLI_USAGE for a bad flag). */
int epp_parse_args(int argc, char **argv, Opts *o);

#endif
