/* `netrace play`: two players on one machine (keys, pads, bots or input
 * scripts) racing on the car physics, each screen showing the race as that
 * player's terminal displays it; or, --headless, a race of bots / scripts
 * as fast as possible with replay's table, CSV and series. */
#include "app.h"
#include "cli.h"
#include "cli_load.h"
#include "experiment.h"
#include "inputs.h"
#include "liverace.h"
#include "play.h"
#include "players.h"
#include "race_opts.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define CMD "play"
#define PLAY_DEFAULT_TRACK "tracks/default.track"
#define PLAY_DEFAULT_LAPS 2
#define PLAY_DEFAULT_SCHEME "nc"
/* Metric samples the live engine keeps for --series: a race this long (36
 * minutes at 33 ms) is written whole; a longer one keeps its end. */
#define PLAY_SERIES_CAP 65536

typedef struct PlayCli {
    RaceOpts o;            /* links, schemes, seed, params, clocks */
    const char *track_arg;
    char track_path[4096];
    Track *track;
    CliPlayers pl;         /* --p1, --p2, --skill, --noise */
    char out_base[4096];   /* recording path without ".csv" */
    bool record;
} PlayCli;

/* Bots reseeded by --seed, scripts rewound: the same players every race. */
static bool make_controllers(void *ctx, Controller ctl[2], NrError *err)
{
    PlayCli *p = ctx;
    return players_make(&p->pl, p->track, p->o.seed, ctl, err);
}

static void inputs_name(const char *rec, char *out, size_t n)
{
    size_t len = strlen(rec);
    if (len > 4 && strcmp(rec + len - 4, ".csv") == 0)
        snprintf(out, n, "%.*s.inputs.csv", (int)(len - 4), rec);
    else
        snprintf(out, n, "%s.inputs.csv", rec);
}

static bool next_paths(void *ctx, int race, char *rec, char *inputs, size_t n)
{
    PlayCli *p = ctx;
    int w = snprintf(rec, n, "%s-%d.csv", p->out_base, race);
    if (w < 0 || (size_t)w >= n)
        return false;
    inputs_name(rec, inputs, n);
    return true;
}

/* The replay window on a finished race: the same links, seed and schemes. */
static int open_replay(void *ctx, const char *rec_path)
{
    PlayCli *p = ctx;
    Recording rec;
    NrError err = {{0}};
    if (!cli_load_recording(rec_path, &rec, &err)) {
        fprintf(stderr, "netrace play: %s\n", err.msg);
        return 1;
    }
    EngineConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.track = p->track;
    cfg.link[0] = &p->o.link[0];
    cfg.link[1] = &p->o.link[1];
    cfg.seed = p->o.seed;
    cfg.params = p->o.params;
    cfg.nschemes = p->o.nschemes;
    for (int k = 0; k < p->o.nschemes; k++)
        cfg.schemes[k] = p->o.schemes[k];
    cfg.clock[0] = p->o.clock[0];
    cfg.clock[1] = p->o.clock[1];
    cfg.keep_history = true;
    Replay *r = replay_new(&cfg, &rec, false, &err);
    int rc = 1;
    if (!r) {
        fprintf(stderr, "netrace play: %s\n", err.msg);
    } else {
        AppConfig ac = app_config_default();
        ac.replay = r;
        ac.title = rec_path;
        ac.script = p->o.script.n ? &p->o.script : NULL; /* the links as they were driven */
        rc = app_run_window(&ac);
        replay_free(r);
    }
    recording_free(&rec);
    return rc;
}

/* recordings/play-YYYYmmdd-HHMMSS (the app owns the clock). */
static bool default_out(PlayCli *p)
{
    struct stat st;
    if (stat("recordings", &st) != 0 && mkdir("recordings", 0777) != 0) {
        cli_fail(CMD, "recordings/: cannot create the folder for the recording (give --out FILE)");
        return false;
    }
    time_t now = time(NULL);
    struct tm tmv;
    char stamp[32];
    gmtime_r(&now, &tmv);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tmv);
    snprintf(p->out_base, sizeof p->out_base, "recordings/play-%s", stamp);
    return true;
}

/* `wrote FILE` for the recording and its inputs, once they are in place
 * (a race that never left the grid leaves none). */
static void announce(const LiveRaceConfig *rc)
{
    struct stat st;
    const char *files[2] = {rc->rec_path, rc->inputs_path};
    for (int i = 0; i < 2; i++)
        if (files[i] && stat(files[i], &st) == 0)
            cli_wrote(files[i]);
}

/* A race of bots / scripts to its end as fast as possible; the table (or
 * CSV) and --series from the live engine. */
static int run_headless(PlayCli *p, LiveRaceConfig *rc, bool csv, const char *series)
{
    NrError err = {{0}};
    Controller ctl[2];
    memset(ctl, 0, sizeof ctl);
    if (!make_controllers(p, ctl, &err))
        return cli_fail(CMD, "%s", err.msg);
    rc->ctl[0] = &ctl[0];
    rc->ctl[1] = &ctl[1];
    rc->engine.keep_history = series != NULL;
    rc->engine.history_cap = PLAY_SERIES_CAP;
    LiveRace *lr = liverace_new(rc, &err);
    if (!lr)
        return cli_fail(CMD, "%s", err.msg);
    RaceFlow *rf = liverace_flow(lr);
    bool write_ok;
    liverace_run_headless(lr, &write_ok, &err);
    if (!write_ok)
        fprintf(stderr, "netrace play: %s\n", err.msg);
    Engine *e = liverace_engine(lr);
    RunResult res[SCHEME_MAX];
    experiment_results(e, res);
    int n = engine_scheme_count(e);
    int code = write_ok ? CLI_OK : CLI_FAIL;
    if (csv) {
        race_print_csv(stdout, &p->o, res, n);
    } else {
        RaceResult tr;
        raceflow_result(rf, RACEFLOW_TRUTH, &tr);
        printf("race:   %s (%.1f s, track %s)\n", rc->rec_path ? rc->rec_path : "(not recorded)",
               (double)engine_now(e) / 1e6, track_name(p->track));
        printf("finish: car %d first (truth)", tr.order[0] + 1);
        for (int j = 0; j < 2; j++) {
            RaceResult r;
            raceflow_result(rf, j, &r);
            printf("; car %d first at terminal %d", r.order[0] + 1, j + 1);
        }
        printf("%s\n", raceflow_orders_differ(rf) ? " (the terminals disagree)" : "");
        race_print_params(stdout, &p->o);
        race_print_table(stdout, res, n);
    }
    if (series)
        race_write_series(CMD, series, e, &code);
    liverace_free(lr); /* the players are freed by finish() */
    announce(rc);
    return code;
}

static int finish(PlayCli *p, int rc)
{
    players_free(&p->pl);
    track_free(p->track);
    race_opts_free(&p->o);
    return rc;
}

static int play_main(int argc, char **argv)
{
    PlayCli p;
    memset(&p, 0, sizeof p);
    race_opts_init(&p.o, "all");
    p.track_arg = PLAY_DEFAULT_TRACK;
    players_init(&p.pl);
    p.record = true;
    const char *scheme = PLAY_DEFAULT_SCHEME, *out = NULL, *series = NULL;
    bool headless = false, csv = false;
    int64_t laps = PLAY_DEFAULT_LAPS;
    bool laps_given = false;
    double seconds = 0;
    PlayConfig pc;
    memset(&pc, 0, sizeof pc);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        int64_t n;
        int r = race_opts_flag(&p.o, argc, argv, &i, CMD);
        if (r == RACE_FLAG_BAD)
            return finish(&p, CLI_USAGE);
        if (r == RACE_FLAG_TAKEN)
            continue;
        if (cli_flag_is(a, "--p1") || cli_flag_is(a, "--p2")) {
            if (!cli_value(argc, argv, &i, CMD, &v) || !players_parse(&p.pl, CMD, a[3] == '2', v))
                return finish(&p, CLI_USAGE);
        } else if (cli_flag_is(a, "--scheme")) {
            if (!cli_value(argc, argv, &i, CMD, &scheme))
                return finish(&p, CLI_USAGE);
        } else if (cli_flag_is(a, "--laps")) {
            if (!cli_value(argc, argv, &i, CMD, &v) || !cli_int(CMD, "--laps", v, 1, RACEFLOW_MAX_LAPS, &laps))
                return finish(&p, CLI_USAGE);
            laps_given = true;
        } else if (cli_flag_is(a, "--seconds")) {
            if (!cli_value(argc, argv, &i, CMD, &v) || !cli_double(CMD, "--seconds", v, 1.0, 86400.0, &seconds))
                return finish(&p, CLI_USAGE);
        } else if (cli_flag_is(a, "--track")) {
            if (!cli_value(argc, argv, &i, CMD, &p.track_arg))
                return finish(&p, CLI_USAGE);
        } else if (cli_flag_is(a, "--out")) {
            if (!cli_value(argc, argv, &i, CMD, &out))
                return finish(&p, CLI_USAGE);
        } else if (cli_flag_is(a, "--skill") || cli_flag_is(a, "--noise")) {
            double d;
            bool sk = a[2] == 's';
            if (!cli_value(argc, argv, &i, CMD, &v) || !cli_double(CMD, sk ? "--skill" : "--noise", v, 0.0, 1.0, &d))
                return finish(&p, CLI_USAGE);
            *(sk ? &p.pl.skill : &p.pl.noise) = d;
        } else if (cli_flag_is(a, "--keys")) {
            if (!cli_value(argc, argv, &i, CMD, &pc.keys_path))
                return finish(&p, CLI_USAGE);
        } else if (cli_flag_is(a, "--pad-mappings")) {
            if (!cli_value(argc, argv, &i, CMD, &pc.pad_mappings))
                return finish(&p, CLI_USAGE);
        } else if (cli_flag_is(a, "--assets")) {
            if (!cli_value(argc, argv, &i, CMD, &pc.assets_dir))
                return finish(&p, CLI_USAGE);
        } else if (cli_flag_is(a, "--shots")) {
            if (!cli_value(argc, argv, &i, CMD, &pc.shot_dir))
                return finish(&p, CLI_USAGE);
        } else if (cli_flag_is(a, "--series")) {
            if (!cli_value(argc, argv, &i, CMD, &series))
                return finish(&p, CLI_USAGE);
        } else if (cli_flag_is(a, "--size")) {
            char extra;
            if (!cli_value(argc, argv, &i, CMD, &v))
                return finish(&p, CLI_USAGE);
            if (sscanf(v, "%dx%d%c", &pc.width, &pc.height, &extra) != 2 || pc.width < 320 || pc.height < 200 ||
                pc.width > 16384 || pc.height > 16384)
                return finish(&p, cli_usage_error(CMD, "--size '%s': expected WIDTHxHEIGHT, at least 320x200", v));
        } else if (cli_flag_is(a, "--bench-frames")) {
            if (!cli_value(argc, argv, &i, CMD, &v) || !cli_int(CMD, "--bench-frames", v, 1, 1000000, &n))
                return finish(&p, CLI_USAGE);
            pc.bench_frames = (int)n;
        } else if (strcmp(a, "--headless") == 0) {
            headless = true;
        } else if (strcmp(a, "--csv") == 0) {
            csv = true;
        } else if (strcmp(a, "--watch") == 0) {
            pc.watch = true;
        } else if (strcmp(a, "--fullscreen") == 0) {
            pc.fullscreen = true;
        } else {
            return finish(&p, cli_unknown_option(CMD, a));
        }
    }
    if (laps_given && seconds > 0)
        return finish(&p, cli_usage_error(CMD, "--laps and --seconds: a race is one or the other"));
    bool any_human = players_any_human(&p.pl);
    if ((headless || csv) && any_human)
        return finish(&p, cli_usage_error(CMD, "--headless races bots and scripts: give --p1 and --p2 as bot or "
                                                "script:FILE"));
    if ((csv || series) && !headless)
        return finish(&p, cli_usage_error(CMD, "--csv and --series go with --headless"));
    if (pc.bench_frames > 0 && headless)
        return finish(&p, cli_usage_error(CMD, "--bench-frames draws in the window: drop --headless"));
    int rc = race_opts_parse(&p.o, CMD);
    if (rc != CLI_OK)
        return finish(&p, rc);
    /* the shown scheme runs even when --schemes left it out */
    const SchemeType *shown_type = scheme_find(scheme);
    if (!shown_type)
        return finish(&p, cli_usage_error(CMD, "--scheme '%s' is not a scheme (netrace help replay lists them)",
                                          scheme));
    int shown = -1;
    for (int k = 0; k < p.o.nschemes; k++)
        if (p.o.schemes[k] == shown_type)
            shown = k;
    if (shown < 0) {
        if (p.o.nschemes == SCHEME_MAX)
            return finish(&p, cli_usage_error(CMD, "--scheme %s: --schemes already lists %d schemes", scheme,
                                              SCHEME_MAX));
        shown = p.o.nschemes;
        p.o.schemes[p.o.nschemes++] = shown_type;
    }
    int64_t dmax = engine_delta_max_us((int32_t)(WORLD_SAMPLE_US / 1000), p.o.clock);
    if (p.o.params.delta_us > dmax)
        return finish(&p, cli_usage_error(CMD, "--delta: at most %ld ms at the 33 ms period and these clocks",
                                          (long)(dmax / NR_US_PER_MS)));
    NrError err = {{0}};
    if (!cli_resolve_path(p.track_arg, p.track_path, sizeof p.track_path))
        return finish(&p, cli_fail(CMD, "%s: no such track", p.track_arg));
    p.track = track_load(p.track_path, &err);
    if (!p.track)
        return finish(&p, cli_fail(CMD, "%s", err.msg));
    if (track_grid_slots(p.track) < 2)
        return finish(&p, cli_fail(CMD, "%s: a race needs two grid slots", p.track_path));
    if ((rc = players_load_scripts(&p.pl, CMD)) != CLI_OK)
        return finish(&p, rc);
    /* where the race is recorded */
    char rec_path[4200], in_path[4300], created[32];
    if (out && strcmp(out, "none") == 0) {
        p.record = false;
    } else if (out) {
        size_t len = strlen(out);
        if (len >= sizeof p.out_base - 16)
            return finish(&p, cli_usage_error(CMD, "--out: path too long"));
        snprintf(p.out_base, sizeof p.out_base, "%.*s", (int)(len > 4 && strcmp(out + len - 4, ".csv") == 0 ? len - 4 : len),
                 out);
        const char *inputs[1] = {p.track_path};
        if ((rc = cli_out_check(CMD, "--out", out, inputs, 1)) != CLI_OK)
            return finish(&p, rc);
    } else if (!default_out(&p)) {
        return finish(&p, CLI_FAIL);
    }
    if (series) {
        const char *inputs[2] = {p.track_path, out};
        if ((rc = cli_out_check(CMD, "--series", series, inputs, out ? 2 : 1)) != CLI_OK)
            return finish(&p, rc);
    }
    snprintf(rec_path, sizeof rec_path, "%s", out ? out : "");
    if (p.record && !out)
        snprintf(rec_path, sizeof rec_path, "%s.csv", p.out_base);
    inputs_name(rec_path, in_path, sizeof in_path);
    /* a race already recorded is never overwritten */
    struct stat st;
    if (p.record && (stat(rec_path, &st) == 0 || stat(in_path, &st) == 0))
        return finish(&p, cli_usage_error(CMD, "--out %s: %s exists (not overwritten: another name, or --out none)",
                                          out ? out : rec_path, stat(rec_path, &st) == 0 ? rec_path : in_path));
    if (!cli_created_text(CMD, created, sizeof created))
        return finish(&p, CLI_USAGE);
    const char *slash = strrchr(p.track_path, '/');

    LiveRaceConfig *lc = &pc.race;
    lc->track = p.track;
    lc->track_file = slash ? slash + 1 : p.track_path;
    race_opts_engine_config(&p.o, &lc->engine);
    lc->engine.track = p.track;
    lc->shown = shown;
    lc->flow.laps = (int)laps;
    lc->flow.duration_us = seconds > 0 ? (int64_t)(seconds * 1e6 + 0.5) : 0;
    lc->rec_path = p.record ? rec_path : NULL;
    lc->inputs_path = p.record ? in_path : NULL;
    lc->source = any_human ? "human" : "autopilot";
    lc->created = created;
    lc->script = p.o.script.n ? &p.o.script : NULL;
    if (headless)
        return finish(&p, run_headless(&p, lc, csv, series));

    lc->engine.keep_history = true; /* the overview's strip charts */
    pc.kind[0] = p.pl.kind[0];
    pc.kind[1] = p.pl.kind[1];
    pc.make_ctl = make_controllers;
    pc.make_ctx = &p;
    pc.next_rec_path = next_paths;
    pc.open_replay = open_replay;
    pc.title = "netrace play";
    rc = play_run_window(&pc);
    return finish(&p, rc == 0 ? CLI_OK : CLI_FAIL);
}

const CliCommand cmd_play = {
    .name = "play",
    .summary = "drive a race: two players on one machine, every scheme live",
    .usage = "netrace play [--p1 keys|pad|bot|script:FILE] [--p2 ...] [--scheme NAME] [--laps N | --seconds S]\n"
             "  [--link12 SPEC] [--link21 SPEC] [--link-script FILE] [--delta MS] [--tdr W] [--schemes LIST] [--seed S]\n"
             "  [--track FILE] [--out FILE|none] [--keys FILE] [--pad-mappings FILE] [--watch]\n"
             "  [--headless [--csv] [--series OUT.csv]] [--size WxH] [--fullscreen] [--bench-frames N]",
    .help = "Two cars race on the car physics; player 1's screen (left) and player 2's (right)\n"
            "show the race as each player's terminal displays it under --scheme, over the\n"
            "emulated links: the other car late, predicted, or Delta behind. Every scheme of\n"
            "--schemes (default all) runs live on the same race (--watch or Tab shows them).\n\n"
            "  --p1, --p2 WHO    keys (P1 WASD, P2 arrows), pad (press a button to join), bot,\n"
            "                    or script:FILE (t_ms,player,throttle,brake,steer; docs/driving.md)\n"
            "  --scheme NAME     what the players' screens show (default nc)\n"
            "  --laps N          laps to race (default 2); --seconds S: a fixed-length race\n"
            "  --track FILE      default tracks/default.track\n"
            "  --out FILE        the recording (FILE.inputs.csv beside it holds the inputs);\n"
            "                    default recordings/play-DATE-TIME.csv; 'none': not recorded\n"
            "  --keys FILE       key map (docs/play.md); --pad-mappings FILE: SDL gamepad mappings\n"
            "  --skill X, --noise X  the bots' driver (default 0.9, 0.5); bots are seeded by --seed\n"
            "  --watch           open the overview of every scheme in a second window\n"
            "  --headless        no window, bots / scripts only, as fast as possible; prints\n"
            "                    replay's table (--csv: as CSV), --series OUT.csv like replay's\n"
            "  --size WxH, --fullscreen, --shots DIR, --assets DIR, --bench-frames N\n"
            "Keys: H in the game shows them (docs/play.md).\n" RACE_OPTS_HELP,
    .run = play_main,
};
