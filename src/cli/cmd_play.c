/* `netrace play`: two to four players on one machine (keys, pads, bots or
 * input scripts) racing on the car physics, each screen showing the race as
 * that player's terminal displays it, over p2p or client-server links; or,
 * --headless, a race of bots / scripts as fast as possible with replay's
 * table, CSV and series. */
#include "app.h"
#include "cli.h"
#include "cli_load.h"
#include "experiment.h"
#include "gfx.h"
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
    CliPlayers pl;         /* --p1 .. --p4, --skill, --noise */
    int64_t cars;          /* --cars N; 0 = the highest --pN given, at least 2 */
    char out_base[4096];   /* recording path without ".csv" */
    bool record;
    /* the command line's own flags */
    const char *scheme, *out, *series;
    bool headless, csv, laps_given;
    int64_t laps;
    double seconds;
    bool any_human;        /* a player on keys or a pad */
} PlayCli;

/* Bots reseeded by --seed, scripts rewound: the same players every race. */
static bool make_controllers(void *ctx, Controller ctl[PLAY_SEATS], NrError *err)
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

/* The replay window on a finished race: the same links, topology, seed and
 * schemes. */
static int open_replay(void *ctx, const char *rec_path, char *why, size_t n)
{
    PlayCli *p = ctx;
    Recording rec;
    char links[1024];
    NrError err = {{0}};
    if (!cli_load_recording(rec_path, &rec, &err)) {
        snprintf(why, n, "%s", err.msg);
        return 1;
    }
    EngineConfig cfg;
    race_opts_engine_config(&p->o, &cfg);
    cfg.track = p->track;
    cfg.period_ms = rec.period_ms;
    cfg.keep_history = true;
    Replay *r = replay_new(&cfg, &rec, false, &err);
    int rc = 1;
    if (!r) {
        snprintf(why, n, "%s", err.msg);
    } else {
        AppConfig ac = app_config_default();
        ac.replay = r;
        ac.title = rec_path;
        ac.script = p->o.script.n ? &p->o.script : NULL; /* the links as they were driven */
        if (race_topo_wide(&p->o)) { /* N cars or cs: the race's links, fixed (docs/window.md) */
            race_topo_describe(&p->o, links, sizeof links);
            ac.links_text = links;
        }
        rc = app_run_window(&ac);
        if (rc != 0)
            snprintf(why, n, "the replay window did not open (the terminal says why)");
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

/* Who won at each terminal and in the truth; with more than two cars also
 * the whole order of each; then replay's parameters and table. */
static void print_finish(const PlayCli *p, const RaceFlow *rf)
{
    RaceResult tr;
    raceflow_result(rf, RACEFLOW_TRUTH, &tr);
    int n = rf->cfg.ncars;
    printf("finish: car %d first (truth)", tr.order[0] + 1);
    for (int j = 0; j < n; j++) {
        RaceResult r;
        raceflow_result(rf, j, &r);
        printf("; car %d first at terminal %d", r.order[0] + 1, j + 1);
    }
    printf("%s\n", raceflow_orders_differ(rf) ? " (the terminals disagree)" : "");
    bool wide = race_topo_wide(&p->o);
    for (int v = 0; wide && v <= n; v++) {
        RaceResult r;
        int who = v < n ? v : RACEFLOW_TRUTH;
        raceflow_result(rf, who, &r);
        printf(v < n ? "order at terminal %d:" : "order in the truth:", v + 1);
        for (int k = 0; k < n; k++)
            printf(" %d", r.order[k] + 1);
        printf("\n");
    }
}

/* A race of bots / scripts to its end as fast as possible; the table (or
 * CSV) and --series from the live engine. */
static int run_headless(PlayCli *p, LiveRaceConfig *rc, bool csv, const char *series)
{
    NrError err = {{0}};
    Controller ctl[PLAY_SEATS];
    memset(ctl, 0, sizeof ctl);
    if (!make_controllers(p, ctl, &err))
        return cli_fail(CMD, "%s", err.msg);
    for (int j = 0; j < p->pl.nseats; j++)
        rc->ctl[j] = &ctl[j];
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
        printf("race:   %s (%.1f s, track %s)\n", rc->rec_path ? rc->rec_path : "(not recorded)",
               (double)engine_now(e) / 1e6, track_name(p->track));
        print_finish(p, rf);
    }
    if (!csv && race_topo_wide(&p->o)) {
        race_topo_print_params(stdout, &p->o);
        race_topo_print_table(stdout, res, n, p->pl.nseats);
    } else if (!csv) {
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

enum { FLAG_NOT_MINE = RACE_FLAG_NOT_MINE, FLAG_TAKEN = RACE_FLAG_TAKEN, FLAG_BAD = RACE_FLAG_BAD };

/* The race's own flags (players, scheme, length, track, outputs, bots). */
static int race_flag(PlayCli *p, int argc, char **argv, int *i)
{
    const char *a = argv[*i], *v = NULL;
    bool ok = true;
    int seat;
    if (players_flag(a, &seat)) {
        ok = cli_value(argc, argv, i, CMD, &v) && players_parse(&p->pl, CMD, seat, v);
    } else if (cli_flag_is(a, "--cars")) {
        ok = cli_value(argc, argv, i, CMD, &v) && cli_int(CMD, "--cars", v, 2, PLAY_SEATS, &p->cars);
    } else if (cli_flag_is(a, "--scheme")) {
        ok = cli_value(argc, argv, i, CMD, &p->scheme);
    } else if (cli_flag_is(a, "--laps")) {
        ok = cli_value(argc, argv, i, CMD, &v) && cli_int(CMD, "--laps", v, 1, RACEFLOW_MAX_LAPS, &p->laps);
        p->laps_given = true;
    } else if (cli_flag_is(a, "--seconds")) {
        ok = cli_value(argc, argv, i, CMD, &v) && cli_double(CMD, "--seconds", v, 1.0, 86400.0, &p->seconds);
    } else if (cli_flag_is(a, "--track")) {
        ok = cli_value(argc, argv, i, CMD, &p->track_arg);
    } else if (cli_flag_is(a, "--out")) {
        ok = cli_value(argc, argv, i, CMD, &p->out);
    } else if (cli_flag_is(a, "--skill") || cli_flag_is(a, "--noise")) {
        double d;
        bool sk = a[2] == 's';
        ok = cli_value(argc, argv, i, CMD, &v) && cli_double(CMD, sk ? "--skill" : "--noise", v, sk ? BOT_SKILL_MIN : 0.0, 1.0, &d);
        if (ok)
            *(sk ? &p->pl.skill : &p->pl.noise) = d;
    } else if (cli_flag_is(a, "--series")) {
        ok = cli_value(argc, argv, i, CMD, &p->series);
    } else if (strcmp(a, "--headless") == 0) {
        p->headless = true;
    } else if (strcmp(a, "--csv") == 0) {
        p->csv = true;
    } else {
        return FLAG_NOT_MINE;
    }
    return ok ? FLAG_TAKEN : FLAG_BAD;
}

/* The window's flags of play alone (the others: players_window_flag). */
static int window_flag(PlayConfig *pc, int argc, char **argv, int *i)
{
    const char *a = argv[*i], *v = NULL;
    bool ok = true;
    if (cli_flag_is(a, "--bench-frames")) {
        int64_t n;
        ok = cli_value(argc, argv, i, CMD, &v) && cli_int(CMD, "--bench-frames", v, 1, 1000000, &n);
        if (ok)
            pc->bench_frames = (int)n;
    } else if (cli_flag_is(a, "--scale")) {
        ok = cli_value(argc, argv, i, CMD, &v) && cli_double(CMD, "--scale", v, GFX_SCALE_MIN, GFX_SCALE_MAX, &pc->scale);
    } else if (cli_flag_is(a, "--camera")) {
        if (!cli_value(argc, argv, i, CMD, &v))
            return FLAG_BAD;
        if (strcmp(v, "north") != 0 && strcmp(v, "rotate") != 0) {
            cli_usage_error(CMD, "--camera '%s': expected north or rotate", v);
            return FLAG_BAD;
        }
        pc->camera_rotate = strcmp(v, "rotate") == 0;
    } else if (strcmp(a, "--mute") == 0) {
        pc->mute = true;
    } else if (strcmp(a, "--watch") == 0) {
        pc->watch = true;
    } else if (strcmp(a, "--lagometer") == 0) {
        pc->lagometer = true;
    } else {
        return players_window_flag(pc, argc, argv, i, CMD);
    }
    return ok ? FLAG_TAKEN : FLAG_BAD;
}

/* The race's players: --cars N, else the highest --pN given (at least two);
 * a --pN past --cars is refused. */
static int seats(PlayCli *p)
{
    int top = 2;
    for (int j = 0; j < PLAY_SEATS; j++)
        if (p->pl.given[j])
            top = j + 1;
    if (p->cars && top > p->cars)
        return cli_usage_error(CMD, "--p%d: the race has %d cars (--cars %d)", top, (int)p->cars, (int)p->cars);
    p->pl.nseats = p->cars ? (int)p->cars : top;
    return CLI_OK;
}

/* Every flag, then the combinations that make no race. CLI_OK or the exit
 * code after one line on stderr. */
static int parse_flags(PlayCli *p, PlayConfig *pc, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        int r = race_opts_flag(&p->o, argc, argv, &i, CMD);
        if (r == RACE_FLAG_BAD)
            return CLI_USAGE;
        if (r == RACE_FLAG_TAKEN)
            continue;
        int f = race_flag(p, argc, argv, &i);
        if (f == FLAG_NOT_MINE) {
            r = race_topo_flag(&p->o, argc, argv, &i, CMD);
            f = r == RACE_FLAG_TAKEN ? FLAG_TAKEN : r == RACE_FLAG_BAD ? FLAG_BAD : FLAG_NOT_MINE;
        }
        if (f == FLAG_NOT_MINE)
            f = window_flag(pc, argc, argv, &i);
        if (f == FLAG_BAD)
            return CLI_USAGE;
        if (f == FLAG_NOT_MINE)
            return cli_unknown_option(CMD, argv[i]);
    }
    if (p->laps_given && p->seconds > 0)
        return cli_usage_error(CMD, "--laps and --seconds: a race is one or the other");
    int rc = seats(p);
    if (rc != CLI_OK)
        return rc;
    p->any_human = players_any_human(&p->pl);
    if ((p->headless || p->csv) && p->any_human)
        return cli_usage_error(CMD, "--headless races bots and scripts: give every player (--p1 .. --p%d) as bot "
                                    "or script:FILE", p->pl.nseats);
    if ((p->csv || p->series) && !p->headless)
        return cli_usage_error(CMD, "--csv and --series go with --headless");
    if (pc->bench_frames > 0 && p->headless)
        return cli_usage_error(CMD, "--bench-frames draws in the window: drop --headless");
    rc = race_opts_parse(&p->o, CMD);
    return rc == CLI_OK ? race_topo_resolve_cars(&p->o, CMD, p->pl.nseats) : rc;
}

/* The shown scheme's index in p->o.schemes: it runs even when --schemes
 * left it out. CLI_OK or a usage error; also checks Delta's bound. */
static int find_shown(PlayCli *p, int *shown)
{
    const SchemeType *shown_type = scheme_find(p->scheme);
    if (!shown_type)
        return cli_usage_error(CMD, "--scheme '%s' is not a scheme (netrace help replay lists them)", p->scheme);
    *shown = -1;
    for (int k = 0; k < p->o.nschemes; k++)
        if (p->o.schemes[k] == shown_type)
            *shown = k;
    if (*shown < 0) {
        if (p->o.nschemes == SCHEME_MAX)
            return cli_usage_error(CMD, "--scheme %s: --schemes already lists %d schemes", p->scheme, SCHEME_MAX);
        *shown = p->o.nschemes;
        p->o.schemes[p->o.nschemes++] = shown_type;
    }
    int64_t dmax = engine_delta_max_us((int32_t)(WORLD_SAMPLE_US / 1000), p->o.clock, ENGINE_MAX_CARS);
    if (p->o.params.delta_us > dmax)
        return cli_usage_error(CMD, "--delta: at most %ld ms at the 33 ms period and these clocks",
                               (long)(dmax / NR_US_PER_MS));
    race_warn_delta(&p->o, CMD, NULL, 0); /* the shown scheme counts too */
    return CLI_OK;
}

/* The track (two grid slots at least) and the players' input scripts. */
static int load_inputs(PlayCli *p)
{
    NrError err = {{0}};
    if (!cli_resolve_path(p->track_arg, p->track_path, sizeof p->track_path))
        return cli_fail(CMD, "%s: no such track", p->track_arg);
    p->track = track_load(p->track_path, &err);
    if (!p->track)
        return cli_fail(CMD, "%s", err.msg);
    if (track_grid_slots(p->track) < p->pl.nseats)
        return cli_fail(CMD, "%s: a race of %d cars needs %d grid slots, the track has %d", p->track_path,
                        p->pl.nseats, p->pl.nseats, track_grid_slots(p->track));
    return players_load_scripts(&p->pl, CMD);
}

/* Where the race is recorded (rec_path, in_path: n bytes each; both empty
 * with --out none) and --series: checked against the inputs; a race already
 * recorded is never overwritten. */
static int output_paths(PlayCli *p, char *rec_path, char *in_path, size_t n)
{
    const char *out = p->out;
    int rc;
    if (out && strcmp(out, "none") == 0) {
        p->record = false;
    } else if (out) {
        size_t len = strlen(out);
        if (len >= sizeof p->out_base - 16)
            return cli_usage_error(CMD, "--out: path too long");
        snprintf(p->out_base, sizeof p->out_base, "%.*s",
                 (int)(len > 4 && strcmp(out + len - 4, ".csv") == 0 ? len - 4 : len), out);
        const char *inputs[1] = {p->track_path};
        if ((rc = cli_out_check(CMD, "--out", out, inputs, 1)) != CLI_OK)
            return rc;
    } else if (!default_out(p)) {
        return CLI_FAIL;
    }
    if (p->series) {
        const char *inputs[2] = {p->track_path, out};
        if ((rc = cli_out_check(CMD, "--series", p->series, inputs, out ? 2 : 1)) != CLI_OK)
            return rc;
    }
    snprintf(rec_path, n, "%s", out ? out : "");
    if (p->record && !out)
        snprintf(rec_path, n, "%s.csv", p->out_base);
    inputs_name(rec_path, in_path, n);
    struct stat st;
    if (p->record && (stat(rec_path, &st) == 0 || stat(in_path, &st) == 0))
        return cli_usage_error(CMD, "--out %s: %s exists (not overwritten: another name, or --out none)",
                               out ? out : rec_path, stat(rec_path, &st) == 0 ? rec_path : in_path);
    return CLI_OK;
}

static int play_main(int argc, char **argv)
{
    PlayCli p;
    memset(&p, 0, sizeof p);
    race_opts_init(&p.o, "all");
    p.track_arg = PLAY_DEFAULT_TRACK;
    players_init(&p.pl);
    p.record = true;
    p.scheme = PLAY_DEFAULT_SCHEME;
    p.laps = PLAY_DEFAULT_LAPS;
    PlayConfig pc;
    memset(&pc, 0, sizeof pc);
    int shown = -1;
    char rec_path[4300], in_path[4300], created[32];
    int rc = parse_flags(&p, &pc, argc, argv);
    if (rc == CLI_OK)
        rc = find_shown(&p, &shown);
    if (rc == CLI_OK)
        rc = load_inputs(&p);
    if (rc == CLI_OK)
        rc = output_paths(&p, rec_path, in_path, sizeof rec_path);
    if (rc == CLI_OK && !cli_created_text(CMD, created, sizeof created))
        rc = CLI_USAGE;
    if (rc != CLI_OK)
        return finish(&p, rc);
    const char *slash = strrchr(p.track_path, '/');
    LiveRaceConfig *lc = &pc.race;
    lc->track = p.track;
    lc->track_file = slash ? slash + 1 : p.track_path;
    lc->ncars = p.pl.nseats;
    race_opts_engine_config(&p.o, &lc->engine);
    lc->engine.track = p.track;
    lc->shown = shown;
    lc->flow.laps = (int)p.laps;
    lc->flow.duration_us = p.seconds > 0 ? (int64_t)(p.seconds * 1e6 + 0.5) : 0;
    lc->rec_path = p.record ? rec_path : NULL;
    lc->inputs_path = p.record ? in_path : NULL;
    lc->source = p.any_human ? "human" : "autopilot";
    lc->created = created;
    lc->script = p.o.script.n ? &p.o.script : NULL;
    if (p.headless)
        return finish(&p, run_headless(&p, lc, p.csv, p.series));
    lc->engine.keep_history = true; /* the overview's strip charts */
    lc->engine.lagometer = true;    /* F2 */
    for (int j = 0; j < PLAY_SEATS; j++)
        pc.kind[j] = p.pl.kind[j];
    pc.make_ctl = make_controllers;
    pc.make_ctx = &p;
    pc.next_rec_path = next_paths;
    pc.open_replay = open_replay;
    pc.title = "netrace play";
    char links[1024];
    if (race_topo_wide(&p.o)) { /* the overview's status line: the race's links, fixed */
        race_topo_describe(&p.o, links, sizeof links);
        pc.links_text = links;
    }
    rc = play_run_window(&pc);
    return finish(&p, rc == 0 ? CLI_OK : CLI_FAIL);
}

const CliCommand cmd_play = {
    .name = "play",
    .summary = "drive a race: two to four players on one machine, every scheme live",
    .usage = "netrace play [--p1 keys|pad|bot|script:FILE] [--p2 ...] [--p3 pad|bot|script:FILE] [--p4 ...]\n"
             "  [--cars N] [--scheme NAME] [--laps N | --seconds S] [--link12 SPEC] [--link21 SPEC]\n"
             "  [--topology p2p|cs] [--server relay|sync] [--link I-J SPEC] [--links FILE] [--link-script FILE]\n"
             "  [--delta MS] [--tdr W] [--schemes LIST] [--seed S] [--track FILE] [--out FILE|none] [--keys FILE]\n"
             "  [--pad-mappings FILE] [--watch] [--headless [--csv] [--series OUT.csv]] [--size WxH] [--fullscreen]\n"
             "  [--scale X] [--camera north|rotate] [--mute] [--lagometer] [--skill X] [--noise X] [--shots DIR]\n"
             "  [--assets DIR] [--bench-frames N]",
    .help = "Two to four cars race on the car physics; each player's screen (two side by side,\n"
            "three or four in a 2 x 2 grid: P1 top left, P2 top right, P3 bottom left, P4\n"
            "bottom right) shows the race as that player's terminal displays it under --scheme,\n"
            "over the emulated links: the other cars late, predicted, or Delta behind. Every\n"
            "scheme of --schemes (default all) runs live on the same race (--watch or Tab shows\n"
            "them).\n\n"
            "  --p1 .. --p4 WHO  keys (P1 WASD, P2 arrows; players 1 and 2 only), pad (press a\n"
            "                    button to join), bot, or script:FILE (t_ms,player,throttle,\n"
            "                    brake,steer; docs/driving.md; --pN plays the file's player N lines)\n"
            "  --cars N          players 2 to 4 (default: the highest --pN given, at least 2);\n"
            "                    seats 3 and 4 not given are bots\n"
            "  --scheme NAME     what the players' screens show (default nc)\n"
            "  --laps N          laps to race (default 2); --seconds S: a fixed-length race\n"
            "  --track FILE      default tracks/default.track\n"
            "  --out FILE        the recording (FILE.inputs.csv beside it holds the inputs);\n"
            "                    default recordings/play-DATE-TIME.csv; 'none': not recorded\n"
            "  --keys FILE       key map (docs/play.md); --pad-mappings FILE: SDL gamepad mappings\n"
            "  --skill X, --noise X  the bots' driver (default 0.9, 0.5); skill -1..0 a slow,\n"
            "                    forgiving novice (-1: about 1.6 times the lap time of 1); seeded by --seed\n"
            "  --watch           open the overview of every scheme in a second window\n"
            "  --camera MODE     north (north up, the default) or rotate (the car's nose up); C toggles\n"
            "  --mute            no sound (engines, hits, the start beeps); M toggles\n"
            "  --lagometer       start with each screen's lagometer shown (F2 toggles)\n"
            "  --headless        no window, bots / scripts only, as fast as possible; prints\n"
            "                    replay's table (--csv: as CSV), --series OUT.csv like replay's\n"
            "  --size WxH, --fullscreen, --shots DIR, --assets DIR, --bench-frames N\n"
            "  --scale X         text X times larger, 0.5 .. 3 (Ctrl + / - in the window)\n"
            "Keys: H in the game shows them (docs/play.md).\n" RACE_OPTS_HELP RACE_TOPO_HELP_LINES,
    .run = play_main,
};
