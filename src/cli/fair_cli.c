/* Shared flag and file helpers of the one-sender commands. */
#include "fair_cli.h"

#include "autopilot.h"
#include "cli.h"
#include "cli_load.h"
#include "synthpath.h"

#include <stdlib.h>
#include <string.h>

void fcli_opts_init(FcliOpts *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->car = 1;
    o->threshold = 0.25;
    o->velocity = FAIR_VEL_RECORDED;
}

bool fcli_value(int argc, char **argv, int *i, const char *cmd, const char *const *own, const char **val)
{
    static const char *const shared[] = {"--seconds", "--seed", "--recording", "--car",
                                         "--threshold", "--out", "--velocity", NULL};
    const char *a = argv[*i];
    bool known = false;
    for (int k = 0; shared[k] && !known; k++)
        known = cli_flag_is(a, shared[k]);
    for (int k = 0; own[k] && !known; k++)
        known = cli_flag_is(a, own[k]);
    if (!known) {
        cli_unknown_option(cmd, a);
        return false;
    }
    return cli_value(argc, argv, i, cmd, val);
}

int fcli_opts_flag(FcliOpts *o, const char *a, const char *v, const char *cmd)
{
    bool ok = true;
    if (cli_flag_is(a, "--seconds"))
        ok = cli_double(cmd, "--seconds", v, 0.1, 3600, &o->seconds);
    else if (cli_flag_is(a, "--seed"))
        ok = cli_u64(cmd, "--seed", v, &o->seed);
    else if (cli_flag_is(a, "--recording"))
        o->recording = v;
    else if (cli_flag_is(a, "--car"))
        ok = cli_int(cmd, "--car", v, 1, RECORDING_MAX_CARS, &o->car);
    else if (cli_flag_is(a, "--threshold"))
        ok = cli_double(cmd, "--threshold", v, 1e-6, 1e6, &o->threshold);
    else if (cli_flag_is(a, "--out"))
        o->out = v;
    else if (cli_flag_is(a, "--velocity")) {
        if (strcmp(v, "recorded") == 0)
            o->velocity = FAIR_VEL_RECORDED;
        else if (strcmp(v, "diff") == 0)
            o->velocity = FAIR_VEL_DIFF;
        else
            ok = (cli_usage_error(cmd, "--velocity: expected recorded or diff, got '%s'", v), false);
    } else
        return FCLI_NOT_MINE;
    return ok ? FCLI_TAKEN : FCLI_BAD;
}

bool fcli_ms_list(const char *cmd, const char *flag, const char *val, double *out, int max, int *n)
{
    char buf[1024], *items[256];
    int k = cli_list(cmd, flag, val, buf, sizeof buf, items, max < 256 ? max : 256);
    if (k < 0)
        return false;
    for (int i = 0; i < k; i++)
        if (!nr_parse_double(items[i], &out[i]) || out[i] < 0.0 || out[i] > 600000.0) {
            cli_usage_error(cmd, "%s: item %d '%s' is not a delay in ms; expected numbers from 0 to 600000 "
                                 "separated by commas, e.g. 800,500,200", flag, i + 1, items[i]);
            return false;
        }
    *n = k;
    return true;
}

bool fcli_sender_path(const char *cmd, const char *file, double seconds, uint64_t seed, Recording *rec,
                      char *desc, size_t ndesc, bool *generated, int *rc)
{
    *generated = false;
    NrError err = {{0}};
    char path[4096];
    bool explicit_file = file && strcmp(file, "autopilot") != 0 && strcmp(file, "synthetic") != 0 &&
                         strcmp(file, "tank") != 0 && strcmp(file, "tank-arcs") != 0;
    if (explicit_file || !file) {
        const char *want = explicit_file ? file : "recordings/default.csv";
        if (cli_resolve_path(want, path, sizeof path)) {
            if (!cli_load_recording(path, rec, &err)) {
                *rc = cli_fail(cmd, "%s", err.msg);
                return false;
            }
            snprintf(desc, ndesc, "%s", path);
            return true;
        }
        if (explicit_file) {
            *rc = cli_fail(cmd, "%s: no such file (or give autopilot, synthetic, tank or tank-arcs)", file);
            return false;
        }
    }
    bool arcs = file && strcmp(file, "tank-arcs") == 0;
    if (file && (strcmp(file, "tank") == 0 || arcs)) { /* the papers' kind of motion (synthpath.h) */
        if (!(arcs ? synthpath_tank_arcs : synthpath_tank)(rec, seed, seconds + 0.1, 33, &err)) {
            *rc = cli_fail(cmd, "%s", err.msg);
            return false;
        }
        snprintf(desc, ndesc, "%s path (seed %llu)", arcs ? "tank-arcs" : "tank", (unsigned long long)seed);
        *generated = true;
        return true;
    }
    if (!file || strcmp(file, "autopilot") == 0) {
        char tpath[4096];
        if (cli_resolve_path("tracks/default.track", tpath, sizeof tpath)) {
            Track *t = track_load(tpath, &err);
            if (!t) {
                *rc = cli_fail(cmd, "%s", err.msg);
                return false;
            }
            AutopilotConfig cfg;
            autopilot_config_default(&cfg);
            cfg.seed = seed;
            cfg.ncars = 1;
            cfg.duration_ms = (int32_t)(seconds * 1000.0 + 100.5); /* cover the last snapshot */
            bool ok = autopilot_race(t, &cfg, rec, &err);
            track_free(t);
            if (!ok) {
                *rc = cli_fail(cmd, "autopilot: %s", err.msg);
                return false;
            }
            if (!file)
                fprintf(stderr, "netrace %s: note: recordings/default.csv not found; the sender is the autopilot "
                                "on %s (seed %llu)\n", cmd, tpath, (unsigned long long)seed);
            snprintf(desc, ndesc, "autopilot on %s (seed %llu)", tpath, (unsigned long long)seed);
            *generated = true;
            return true;
        }
        if (file) {
            *rc = cli_fail(cmd, "tracks/default.track: no such file for the autopilot");
            return false;
        }
    }
    if (!synthpath_make(rec, seed, seconds + 0.1, 33, &err)) {
        *rc = cli_fail(cmd, "%s", err.msg);
        return false;
    }
    if (!file)
        fprintf(stderr, "netrace %s: note: no recording and no track found; using a synthetic path (seed %llu)\n",
                cmd, (unsigned long long)seed);
    snprintf(desc, ndesc, "synthetic path (seed %llu)", (unsigned long long)seed);
    *generated = true;
    return true;
}

bool fcli_write_csv(const char *cmd, const char *path, bool (*write)(const void *ctx, FILE *f, NrError *err),
                    const void *ctx, int *rc)
{
    NrPartFile out;
    FILE *f = cli_out_open(cmd, &out, path, rc);
    if (!f)
        return false;
    NrError err = {{0}};
    bool ok = write(ctx, f, &err);
    if (!ok)
        *rc = cli_fail(cmd, "%s: %s", path, err.msg);
    return cli_out_close(cmd, &out, ok, rc);
}

int fcli_next(FcliOpts *o, int argc, char **argv, int *i, const char *cmd, const char *const *own, const char **flag,
              const char **val)
{
    *flag = argv[*i];
    *val = NULL;
    if ((*flag)[0] != '-') {
        cli_usage_error(cmd, "unexpected argument '%s'", *flag);
        return FCLI_BAD;
    }
    if (!fcli_value(argc, argv, i, cmd, own, val))
        return FCLI_BAD;
    return fcli_opts_flag(o, *flag, *val, cmd);
}
