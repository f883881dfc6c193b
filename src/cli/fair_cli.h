/* Helpers shared by `netrace fairness` and `netrace accuracy`: delay lists,
 * the sender's path (recording or synthetic) and atomic CSV output.
 *
 * Contracts:
 *   fcli_ms_list(cmd, flag, val, out, max, &n)  comma-separated numbers of
 *        milliseconds >= 0, 1..max items; false after a usage error line.
 *   fcli_sender_path(cmd, file, seconds, seed, rec, desc, ndesc, &rc)
 *        FILE "autopilot": the autopilot on tracks/default.track for seconds
 *        (seed); "synthetic": synthpath_make (seed); "tank" / "tank-arcs":
 *        synthpath_tank / synthpath_tank_arcs (seed); any other FILE is loaded
 *        (rc 1 on failure). Without FILE: recordings/default.csv, else the
 *        autopilot, else the synthetic path (a note on stderr says which).
 *        Paths resolve through cli_resolve_path. desc names what was used;
 *        *generated says whether the path was made (autopilot, synthetic).
 *   fcli_opts_init(o) / fcli_opts_flag(o, flag, value, cmd)  the flags both
 *        commands share (--seconds, --seed, --recording, --car, --threshold,
 *        --velocity, --out): FCLI_TAKEN, FCLI_NOT_MINE, or FCLI_BAD after
 *        printing a usage error.
 *   fcli_value(argc, argv, &i, cmd, own, &val)  the value of a known flag.
 *   fcli_next(o, argc, argv, &i, cmd, own, &flag, &val)  one step of a
 *        command's flag loop: FCLI_TAKEN when argv[i] was a shared flag
 *        (applied to o), FCLI_NOT_MINE with flag/val set for the command's
 *        own flags, FCLI_BAD after a usage error (not a flag, no value).
 *   fcli_write_csv(cmd, path, write, ctx, &rc)  writes PATH.part then
 *        renames it over PATH, so a failure never destroys an older file.
 */
#ifndef NR_FAIR_CLI_H
#define NR_FAIR_CLI_H

#include "fairsim.h"
#include "recording.h"

#include <stdio.h>

enum { FCLI_NOT_MINE = 0, FCLI_TAKEN = 1, FCLI_BAD = -1 };

typedef struct FcliOpts {
    double seconds;    /* 0 = the whole recording (60 s for generated paths) */
    uint64_t seed;
    const char *recording; /* NULL = default */
    int64_t car;       /* 1-based */
    double threshold;  /* cw */
    FairVelocity velocity;
    const char *out;
} FcliOpts;

void fcli_opts_init(FcliOpts *o);
int fcli_opts_flag(FcliOpts *o, const char *flag, const char *val, const char *cmd);
/* cli_value for a flag that is either shared (fcli_opts_flag) or in own
 * (NULL-terminated); an unknown flag is a usage error naming it, never
 * "needs a value" nor a swallowed next argument. */
bool fcli_value(int argc, char **argv, int *i, const char *cmd, const char *const *own, const char **val);
int fcli_next(FcliOpts *o, int argc, char **argv, int *i, const char *cmd, const char *const *own, const char **flag,
              const char **val);

bool fcli_ms_list(const char *cmd, const char *flag, const char *val, double *out, int max, int *n);
bool fcli_sender_path(const char *cmd, const char *file, double seconds, uint64_t seed, Recording *rec,
                      char *desc, size_t ndesc, bool *generated, int *rc);
bool fcli_write_csv(const char *cmd, const char *path, bool (*write)(const void *ctx, FILE *f, NrError *err),
                    const void *ctx, int *rc);

#endif
