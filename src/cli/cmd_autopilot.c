/* `netrace autopilot`: write a race of the seeded bots on the car physics. */
#include "autopilot.h"
#include "cli.h"
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
    for (int i = 0; i < k; i++)
        if (!cli_double("autopilot", flag, items[i], 0.0, 1.0, &out[i]))
            return -1;
    for (int i = k; i < n; i++)
        out[i] = out[k == 1 ? 0 : k - 1];
    return k;
}

static int run(int argc, char **argv)
{
    AutopilotConfig cfg;
    autopilot_config_default(&cfg);
    const char *out = NULL, *inputs = NULL, *track_arg = "tracks/default.track";
    double skill[RECORDING_MAX_CARS], noise[RECORDING_MAX_CARS];
    bool have_skill = false, have_noise = false, have_seconds = false, have_seed = false;
    const char *skill_val = NULL, *noise_val = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        if (cli_flag_is(a, "--seconds")) {
            double s;
            if (!cli_value(argc, argv, &i, "autopilot", &v) || !cli_double("autopilot", "--seconds", v, 0.033, 3600, &s))
                return CLI_USAGE;
            cfg.duration_ms = (int32_t)(s * 1000.0 + 0.5);
            have_seconds = true;
        } else if (cli_flag_is(a, "--seed")) {
            if (!cli_value(argc, argv, &i, "autopilot", &v) || !cli_u64("autopilot", "--seed", v, &cfg.seed))
                return CLI_USAGE;
            have_seed = true;
        } else if (cli_flag_is(a, "--out")) {
            if (!cli_value(argc, argv, &i, "autopilot", &out))
                return CLI_USAGE;
        } else if (cli_flag_is(a, "--inputs")) {
            if (!cli_value(argc, argv, &i, "autopilot", &inputs))
                return CLI_USAGE;
            if (!*inputs)
                return cli_usage_error("autopilot", "--inputs: expected a file name");
        } else if (cli_flag_is(a, "--track")) {
            if (!cli_value(argc, argv, &i, "autopilot", &track_arg))
                return CLI_USAGE;
        } else if (cli_flag_is(a, "--cars")) {
            int64_t n;
            if (!cli_value(argc, argv, &i, "autopilot", &v) || !cli_int("autopilot", "--cars", v, 1, RECORDING_MAX_CARS, &n))
                return CLI_USAGE;
            cfg.ncars = (int)n;
        } else if (cli_flag_is(a, "--skill")) {
            if (!cli_value(argc, argv, &i, "autopilot", &skill_val))
                return CLI_USAGE;
            have_skill = true;
        } else if (cli_flag_is(a, "--noise")) {
            if (!cli_value(argc, argv, &i, "autopilot", &noise_val))
                return CLI_USAGE;
            have_noise = true;
        } else {
            return cli_unknown_option("autopilot", a);
        }
    }
    if (!have_seconds || !have_seed || !out)
        return cli_usage_error("autopilot", "--seconds, --seed and --out are required");
    if (!*out)
        return cli_usage_error("autopilot", "--out: expected a file name");
    int orc = cli_out_check("autopilot", "--out", out, &track_arg, 1);
    if (orc == CLI_OK && inputs)
        orc = cli_out_check("autopilot", "--inputs", inputs, &track_arg, 1);
    if (orc == CLI_OK)
        orc = cli_out_distinct("autopilot", "--out", out, "--inputs", inputs);
    if (orc != CLI_OK)
        return orc;
    cfg.inputs_path = inputs;
    if (have_skill) {
        if (parse_list("--skill", skill_val, skill, RECORDING_MAX_CARS) < 0)
            return CLI_USAGE;
        for (int i = 0; i < RECORDING_MAX_CARS; i++)
            cfg.driver[i].skill = skill[i];
    }
    if (have_noise) {
        if (parse_list("--noise", noise_val, noise, RECORDING_MAX_CARS) < 0)
            return CLI_USAGE;
        for (int i = 0; i < RECORDING_MAX_CARS; i++)
            cfg.driver[i].noise = noise[i];
    }
    char created[32];
    if (!cli_created_text("autopilot", created, sizeof created))
        return CLI_USAGE;
    cfg.created = created;

    char tpath[4096];
    if (!cli_resolve_path(track_arg, tpath, sizeof tpath))
        return cli_fail("autopilot", "%s: no such file", track_arg);
    NrError err;
    Track *t = track_load(tpath, &err);
    if (!t)
        return cli_fail("autopilot", "%s", err.msg);
    if (cfg.ncars > track_grid_slots(t)) {
        int slots = track_grid_slots(t);
        track_free(t);
        return cli_usage_error("autopilot", "--cars %d: the track %s has %d grid slots", cfg.ncars, tpath, slots);
    }
    /* The header names the track by its file name; readers look for it beside
     * the recording, in ../tracks/, ./tracks/ and the source tree. */
    const char *base = strrchr(tpath, '/');
    cfg.track_file = base ? base + 1 : tpath;
    Recording rec;
    bool ok = autopilot_race(t, &cfg, &rec, &err);
    track_free(t);
    if (!ok)
        return cli_fail("autopilot", "%s", err.msg);
    ok = recording_save(&rec, out, &err);
    recording_free(&rec);
    if (!ok)
        return cli_fail("autopilot", "%s", err.msg);
    cli_wrote(out);
    if (inputs)
        cli_wrote(inputs);
    return CLI_OK;
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
    "  --skill LIST  per-car skill in [0, 1] (default 0.9); one value for all cars\n"
    "  --noise LIST  per-car noise in [0, 1] (default 0.5)\n\n"
    "The recording's 'created' field is SOURCE_DATE_EPOCH when set (reproducible\n"
    "builds), else the current UTC time. The bundled race is regenerated with\n"
    "  SOURCE_DATE_EPOCH=0 netrace autopilot --seconds 30 --seed SEED --out recordings/default.csv\n"
    "(SEED as in docs/formats.md; bench/bench_racecraft measures lead changes by seed).",
    run,
};
