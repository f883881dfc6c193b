/* `netrace autopilot`: write a race of the seeded bots on the car physics. */
#include "autopilot.h"
#include "cli.h"
#include "bot.h"
#include "cli_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Parse "A" or "A,B,..." into up to n values in [0, 1]; a single value
 * applies to every car. Returns the count, or -1 after a usage error. */
static int parse_list(const char *flag, const char *val, double *out, int n)
{
    char buf[256];
    char *items[RECORDING_MAX_CARS];
    int k = cli_list("autopilot", flag, val, buf, sizeof buf, items, n < RECORDING_MAX_CARS ? n : RECORDING_MAX_CARS);
    if (k < 0)
        return -1;
    double lo = strcmp(flag, "--skill") == 0 ? BOT_SKILL_MIN : 0.0;
    for (int i = 0; i < k; i++)
        if (!cli_double("autopilot", flag, items[i], lo, 1.0, &out[i]))
            return -1;
    for (int i = k; i < n; i++)
        out[i] = out[k == 1 ? 0 : k - 1];
    return k;
}

/* The command line of `netrace autopilot`. */
typedef struct AutoArgs {
    AutopilotConfig cfg;
    const char *out, *inputs, *track_arg;
    const char *skill_val, *noise_val; /* NULL: not given */
    bool have_seconds, have_seed;
} AutoArgs;

/* One flag at argv[*i]; CLI_OK or the exit code after one line. */
static int auto_flag(AutoArgs *a, int argc, char **argv, int *i)
{
    const char *f = argv[*i], *v = NULL;
    if (cli_flag_is(f, "--seconds")) {
        double s;
        if (!cli_value(argc, argv, i, "autopilot", &v) || !cli_double("autopilot", "--seconds", v, 0.033, 3600, &s))
            return CLI_USAGE;
        a->cfg.duration_ms = (int32_t)(s * 1000.0 + 0.5);
        a->have_seconds = true;
    } else if (cli_flag_is(f, "--seed")) {
        if (!cli_value(argc, argv, i, "autopilot", &v) || !cli_u64("autopilot", "--seed", v, &a->cfg.seed))
            return CLI_USAGE;
        a->have_seed = true;
    } else if (cli_flag_is(f, "--out")) {
        if (!cli_value(argc, argv, i, "autopilot", &a->out))
            return CLI_USAGE;
    } else if (cli_flag_is(f, "--inputs")) {
        if (!cli_value(argc, argv, i, "autopilot", &a->inputs))
            return CLI_USAGE;
        if (!*a->inputs)
            return cli_usage_error("autopilot", "--inputs: expected a file name");
    } else if (cli_flag_is(f, "--track")) {
        if (!cli_value(argc, argv, i, "autopilot", &a->track_arg))
            return CLI_USAGE;
    } else if (cli_flag_is(f, "--cars")) {
        int64_t n;
        if (!cli_value(argc, argv, i, "autopilot", &v) || !cli_int("autopilot", "--cars", v, 1, RECORDING_MAX_CARS, &n))
            return CLI_USAGE;
        a->cfg.ncars = (int)n;
    } else if (cli_flag_is(f, "--skill") || cli_flag_is(f, "--noise")) {
        if (!cli_value(argc, argv, i, "autopilot", f[2] == 's' ? &a->skill_val : &a->noise_val))
            return CLI_USAGE;
    } else {
        return cli_unknown_option("autopilot", f);
    }
    return CLI_OK;
}

/* The required flags, the outputs against the inputs, the drivers' lists. */
static int auto_check(AutoArgs *a)
{
    if (!a->have_seconds || !a->have_seed || !a->out)
        return cli_usage_error("autopilot", "--seconds, --seed and --out are required");
    if (!*a->out)
        return cli_usage_error("autopilot", "--out: expected a file name");
    int rc = cli_out_check("autopilot", "--out", a->out, &a->track_arg, 1);
    if (rc == CLI_OK && a->inputs)
        rc = cli_out_check("autopilot", "--inputs", a->inputs, &a->track_arg, 1);
    if (rc == CLI_OK)
        rc = cli_out_distinct("autopilot", "--out", a->out, "--inputs", a->inputs);
    if (rc != CLI_OK)
        return rc;
    a->cfg.inputs_path = a->inputs;
    double list[RECORDING_MAX_CARS];
    if (a->skill_val) {
        if (parse_list("--skill", a->skill_val, list, RECORDING_MAX_CARS) < 0)
            return CLI_USAGE;
        for (int i = 0; i < RECORDING_MAX_CARS; i++)
            a->cfg.driver[i].skill = list[i];
    }
    if (a->noise_val) {
        if (parse_list("--noise", a->noise_val, list, RECORDING_MAX_CARS) < 0)
            return CLI_USAGE;
        for (int i = 0; i < RECORDING_MAX_CARS; i++)
            a->cfg.driver[i].noise = list[i];
    }
    return CLI_OK;
}

/* The track loaded, the race driven and written. */
static int auto_race(AutoArgs *a)
{
    char tpath[4096];
    if (!cli_resolve_path(a->track_arg, tpath, sizeof tpath))
        return cli_fail("autopilot", "%s: no such file", a->track_arg);
    NrError err;
    Track *t = track_load(tpath, &err);
    if (!t)
        return cli_fail("autopilot", "%s", err.msg);
    if (a->cfg.ncars > track_grid_slots(t)) {
        int slots = track_grid_slots(t);
        track_free(t);
        return cli_usage_error("autopilot", "--cars %d: the track %s has %d grid slots", a->cfg.ncars, tpath, slots);
    }
    /* The header names the track by its file name; readers look for it beside
     * the recording, in ../tracks/, ./tracks/ and the source tree. */
    const char *base = strrchr(tpath, '/');
    a->cfg.track_file = base ? base + 1 : tpath;
    Recording rec;
    bool ok = autopilot_race(t, &a->cfg, &rec, &err);
    track_free(t);
    if (!ok)
        return cli_fail("autopilot", "%s", err.msg);
    ok = recording_save(&rec, a->out, &err);
    recording_free(&rec);
    if (!ok)
        return cli_fail("autopilot", "%s", err.msg);
    cli_wrote(a->out);
    if (a->inputs)
        cli_wrote(a->inputs);
    return CLI_OK;
}

static int run(int argc, char **argv)
{
    AutoArgs a = {.track_arg = "tracks/default.track"};
    autopilot_config_default(&a.cfg);
    for (int i = 1; i < argc; i++) {
        int rc = auto_flag(&a, argc, argv, &i);
        if (rc != CLI_OK)
            return rc;
    }
    int rc = auto_check(&a);
    if (rc != CLI_OK)
        return rc;
    char created[32];
    if (!cli_created_text("autopilot", created, sizeof created))
        return CLI_USAGE;
    a.cfg.created = created;
    return auto_race(&a);
}

const CliCommand cmd_autopilot = {
    "autopilot",
    "write a race driven by seeded bot drivers",
    "netrace autopilot --seconds S --seed N --out FILE [--inputs FILE] [--track FILE]\n"
    "[--cars N] [--skill A[,B...]] [--noise A[,B...]]",
    "Races N bots (default 2) on the car physics from the track's start grid for S\n"
    "seconds (solid cars: they race for position, never through each other) and\n"
    "writes the recording (source autopilot, one row per car every 33 ms) to FILE,\n"
    "via FILE.part renamed into place at the end. Same flags, same bytes.\n\n"
    "  --seconds S   race length, 0.033 to 3600 s\n"
    "  --seed N      seed of the drivers' random streams (0 to 2^64-1)\n"
    "  --out FILE    output recording; FILE.part must not exist\n"
    "  --inputs FILE also write every car's inputs (t_ms,player,throttle,brake,steer),\n"
    "                from which the race re-simulates bit for bit\n"
    "  --track FILE  track (default tracks/default.track)\n"
    "  --cars N      number of cars, 1 to the track's grid slots (default 2)\n"
    "  --skill LIST  per-car skill in [-1, 1] (default 0.9; below 0 a slow novice); one value for all cars\n"
    "  --noise LIST  per-car noise in [0, 1] (default 0.5)\n\n"
    "The recording's 'created' field is SOURCE_DATE_EPOCH when set (reproducible\n"
    "builds), else the current UTC time. The bundled race is regenerated with\n"
    "  SOURCE_DATE_EPOCH=0 netrace autopilot --seconds 30 --seed SEED --out recordings/default.csv\n"
    "(SEED as in docs/formats.md; bench/bench_racecraft measures lead changes by seed).",
    run,
};
