/* `netrace replay`: a recorded race over the emulated links with every
 * selected scheme side by side; the window, or the headless gauge table. */
#include "app.h"
#include "cli.h"
#include "experiment.h"
#include "gfx.h"
#include "race_opts.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Per-sample series of every scheme, long format. */
static bool write_series(const char *cmd, const char *path, const EngineConfig *cfg, const Recording *rec,
                         const LinkScript *script,
                         int *rc)
{
    EngineConfig c = *cfg;
    c.keep_history = true;
    NrError err = {{0}};
    Replay *r = replay_new(&c, rec, false, &err);
    if (!r) {
        *rc = cli_fail(cmd, "%s", err.msg);
        return false;
    }
    Engine *e = replay_engine(r);
    int cursor = 0;
    NrError serr = {{0}};
    if (linkscript_run_to(script, &cursor, e, replay_end_us(r), linkscript_step_replay, r, NULL, &serr) < 0) {
        replay_free(r);
        *rc = cli_fail(cmd, "--link-script: %s", serr.msg);
        return false;
    }
    bool ok = race_write_series(cmd, path, e, rc);
    replay_free(r);
    return ok;
}

#define REPLAY_MAX_SNAPSHOTS 64

/* Window flags and --snapshot requests (the app layer draws both). */
typedef struct ViewOpts {
    int nsnap;
    int64_t snap_t_us[REPLAY_MAX_SNAPSHOTS];
    const char *snap_path[REPLAY_MAX_SNAPSHOTS];
    int width, height;
    AppConfig app;
    const char *focus;
    char links[1024]; /* an N-car or client-server race's links, for the status line */
} ViewOpts;

/* --snapshot T FILE.png at argv[*i]: 1 taken, -1 bad. */
static int snapshot_flag(ViewOpts *v, int argc, char **argv, int *i, const char *cmd)
{
    if (*i + 2 >= argc) {
        cli_usage_error(cmd, "--snapshot takes a race time in seconds and a PNG file name");
        return -1;
    }
    double t;
    if (!cli_double(cmd, "--snapshot", argv[*i + 1], 0.0, 1e6, &t))
        return -1;
    if (v->nsnap == REPLAY_MAX_SNAPSHOTS) {
        cli_usage_error(cmd, "at most %d --snapshot requests", REPLAY_MAX_SNAPSHOTS);
        return -1;
    }
    if (cli_png_check(cmd, "--snapshot", argv[*i + 2]) != CLI_OK)
        return -1; /* PNG bytes under a .jpg name were written before */
    v->snap_t_us[v->nsnap] = (int64_t)llround(t * 1e6);
    v->snap_path[v->nsnap] = argv[*i + 2];
    v->nsnap++;
    *i += 2;
    return 1;
}

/* Takes a window / snapshot flag at argv[*i]: 1 taken, 0 not mine, -1 bad. */
static int view_flag(ViewOpts *v, int argc, char **argv, int *i, const char *cmd)
{
    const char *a = argv[*i], *val = NULL;
    if (strcmp(a, "--snapshot") == 0)
        return snapshot_flag(v, argc, argv, i, cmd);
    if (cli_flag_is(a, "--size")) {
        if (!cli_value(argc, argv, i, cmd, &val))
            return -1;
        int w = 0, h = 0;
        char extra;
        if (sscanf(val, "%dx%d%c", &w, &h, &extra) != 2 || w < 64 || h < 64 || w > 16384 || h > 16384) {
            cli_usage_error(cmd, "--size '%s': expected WIDTHxHEIGHT, each 64..16384 (e.g. 1920x1080)", val);
            return -1;
        }
        v->width = w;
        v->height = h;
        return 1;
    }
    if (cli_flag_is(a, "--speed")) {
        double x;
        if (!cli_value(argc, argv, i, cmd, &val) || !cli_double(cmd, "--speed", val, 0.25, 8.0, &x))
            return -1;
        v->app.speed = x;
        return 1;
    }
    if (cli_flag_is(a, "--scale")) {
        double x;
        if (!cli_value(argc, argv, i, cmd, &val) || !cli_double(cmd, "--scale", val, GFX_SCALE_MIN, GFX_SCALE_MAX, &x))
            return -1;
        v->app.scale = x;
        return 1;
    }
    if (cli_flag_is(a, "--bench-frames")) {
        int64_t n;
        if (!cli_value(argc, argv, i, cmd, &val) || !cli_int(cmd, "--bench-frames", val, 1, 1000000, &n))
            return -1;
        v->app.bench_frames = (int)n;
        return 1;
    }
    if (cli_flag_is(a, "--focus")) {
        if (!cli_value(argc, argv, i, cmd, &val))
            return -1;
        v->focus = val;
        return 1;
    }
    if (cli_flag_is(a, "--shots")) {
        if (!cli_value(argc, argv, i, cmd, &val) || cli_dir_check(cmd, "--shots", val) != CLI_OK)
            return -1;
        v->app.shot_dir = val;
        return 1;
    }
    if (strcmp(a, "--fullscreen") == 0) {
        v->app.fullscreen = true;
        return 1;
    }
    if (strcmp(a, "--paused") == 0) {
        v->app.paused = true;
        return 1;
    }
    if (strcmp(a, "--loop") == 0) {
        v->app.loop = true;
        return 1;
    }
    if (strcmp(a, "--lagometer") == 0) {
        v->app.lagometer = true;
        return 1;
    }
    return 0;
}

/* An engine of its own for the window or the snapshots (the strip charts
 * need the history, the lagometer its rings), so the printed table stays
 * the whole race's. */
static Replay *view_replay(const EngineConfig *cfg, const Recording *rec, NrError *err)
{
    EngineConfig c = *cfg;
    c.keep_history = true;
    c.lagometer = true;
    return replay_new(&c, rec, false, err);
}

/* Writes every --snapshot. */
static int write_snapshots(const ViewOpts *v, const EngineConfig *cfg, const Recording *rec, const char *cmd)
{
    NrError err = {{0}};
    Replay *r = view_replay(cfg, rec, &err);
    if (!r)
        return cli_fail(cmd, "%s", err.msg);
    int rc = CLI_OK;
    for (int k = 0; k < v->nsnap && rc == CLI_OK; k++) {
        int w = v->width ? v->width : 1280, h = v->height ? v->height : 720;
        if (v->app.script && k > 0) { /* a script plays from a fresh replay, its links as at the start */
            replay_free(r);
            if (!(r = view_replay(cfg, rec, &err)))
                return cli_fail(cmd, "%s", err.msg);
        }
        if (app_render_snapshot(r, &v->app, v->snap_t_us[k], v->snap_path[k], w, h, &err) != 0)
            rc = cli_fail(cmd, "%s", err.msg);
        else
            fprintf(stderr, "wrote %s (snapshot at t = %.3f s%s, %dx%d)\n", v->snap_path[k],
                   (double)engine_now(replay_engine(r)) / 1e6, v->snap_t_us[k] > replay_end_us(r) ? ", the race end" : "",
                   w, h);
    }
    replay_free(r);
    return rc;
}

/* The live window; 1 when it could not open (the caller falls back). */
static int run_window(ViewOpts *v, const EngineConfig *cfg, const Recording *rec, const char *cmd,
                      const char *title)
{
    NrError err = {{0}};
    Replay *r = view_replay(cfg, rec, &err);
    if (!r)
        return cli_fail(cmd, "%s", err.msg);
    v->app.replay = r;
    v->app.title = title;
    v->app.width = v->width;
    v->app.height = v->height;
    int rc = app_run_window(&v->app);
    replay_free(r);
    return rc;
}

/* The command line of one replay. */
typedef struct ReplayArgs {
    RaceOpts o;
    bool headless, csv, have_file;
    const char *series;
    ViewOpts view;
} ReplayArgs;

/* Every flag and the recording; CLI_OK or the exit code after one line. */
static int replay_args(ReplayArgs *w, int argc, char **argv, const char *cmd)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int r = race_opts_flag(&w->o, argc, argv, &i, cmd);
        if (r == RACE_FLAG_NOT_MINE)
            r = race_topo_flag(&w->o, argc, argv, &i, cmd);
        if (r == RACE_FLAG_BAD)
            return CLI_USAGE;
        if (r == RACE_FLAG_TAKEN)
            continue;
        r = view_flag(&w->view, argc, argv, &i, cmd);
        if (r < 0)
            return CLI_USAGE;
        if (r > 0)
            continue;
        if (strcmp(a, "--headless") == 0) {
            w->headless = true;
        } else if (strcmp(a, "--csv") == 0) {
            w->csv = true;
        } else if (cli_flag_is(a, "--series")) {
            if (!cli_value(argc, argv, &i, cmd, &w->series))
                return CLI_USAGE;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_unknown_option(cmd, a);
        } else if (w->have_file) {
            return cli_usage_error(cmd, "only one recording, got '%s' too", a);
        } else {
            w->o.recording = a;
            w->have_file = true;
        }
    }
    if (w->view.app.bench_frames > 0 && (w->headless || w->csv))
        return cli_usage_error(cmd, "--bench-frames draws in the window: drop --headless / --csv");
    return CLI_OK;
}

/* The recording, the N-car options and every output path, checked. */
static int replay_load(ReplayArgs *w, const char *cmd)
{
    RaceOpts *o = &w->o;
    int rc = race_opts_load(o, cmd);
    if (rc == CLI_OK)
        rc = race_header_defaults(o, cmd); /* the recording's own condition, where no flag speaks */
    if (rc == CLI_OK)
        rc = race_topo_resolve(o, cmd);
    if (rc == CLI_OK)
        rc = race_header_lines(o, cmd);
    if (rc == CLI_OK && o->compare && (w->view.nsnap > 0 || w->view.app.bench_frames > 0))
        rc = cli_usage_error(cmd, "--snapshot / --bench-frames draw one race: name one --topology and --server");
    if (rc == CLI_OK)
        race_warn_delta(o, cmd, NULL, 0);
    if (rc == CLI_OK && w->series)
        rc = race_opts_check_out(o, cmd, "--series", w->series);
    for (int k = 0; k < w->view.nsnap && rc == CLI_OK; k++)
        rc = race_opts_check_out(o, cmd, "--snapshot", w->view.snap_path[k]);
    return rc;
}

/* One mark: its time, whose (player N; nobody's: none), its kind and note. */
static void print_mark(int i, const RecMark *m)
{
    printf("%s %.3f s (", i ? "," : "", (double)m->t_ms / 1000.0);
    if (m->player > 0)
        printf("player %d ", m->player);
    printf("%s%s%s)", m->kind, m->note[0] ? ": " : "", m->note);
}

/* The recording's marks (recording.h), when it has any. */
static void print_marks(const Recording *rec)
{
    if (rec->nmarks == 0)
        return;
    printf("marks:  %d at", rec->nmarks);
    for (int i = 0; i < rec->nmarks; i++)
        print_mark(i, &rec->marks[i]);
    printf("\n");
}

/* The table (or CSV) of every scheme, then the series file. */
static int replay_results(ReplayArgs *w, const EngineConfig *cfg, const char *cmd)
{
    RaceOpts *o = &w->o;
    RunResult res[SCHEME_MAX];
    NrError err = {{0}};
    if (!experiment_run_scripted(cfg, &o->rec, o->script.n ? &o->script : NULL, res, &err))
        return cli_fail(cmd, "%s", err.msg);
    if (w->csv) {
        race_print_csv(stdout, o, res, cfg->nschemes);
    } else {
        printf("race:   %s (%.1f s, track %s)\n", o->recording,
               (double)(o->rec.nsamples - 1) * o->rec.period_ms / 1000.0, track_name(o->track));
        print_marks(&o->rec);
        if (race_topo_wide(o)) {
            race_topo_print_params(stdout, o);
            race_topo_print_table(stdout, res, cfg->nschemes, o->ncars);
        } else {
            race_print_params(stdout, o);
            race_print_table(stdout, res, cfg->nschemes);
        }
    }
    int rc = CLI_OK;
    if (w->series && !write_series(cmd, w->series, cfg, &o->rec, o->script.n ? &o->script : NULL, &rc))
        return rc;
    return CLI_OK;
}

/* The window (or snapshots), else the table. */
static int replay_go(ReplayArgs *w, const char *cmd)
{
    EngineConfig cfg;
    race_opts_engine_config(&w->o, &cfg);
    ViewOpts *view = &w->view;
    view->app.script = w->o.script.n ? &w->o.script : NULL;
    if (view->focus) {
        view->app.focus = -1;
        for (int k = 0; k < cfg.nschemes; k++)
            if (strcmp(cfg.schemes[k]->name, view->focus) == 0)
                view->app.focus = k;
        if (view->app.focus < 0)
            return cli_usage_error(cmd, "--focus '%s' is not one of the selected schemes", view->focus);
    }
    view->app.title = w->o.recording ? w->o.recording : RACE_DEFAULT_RECORDING;
    if (race_topo_wide(&w->o)) { /* N cars or cs: the window shows the race's links, fixed */
        race_topo_describe(&w->o, view->links, sizeof view->links);
        view->app.links_text = view->links;
    }
    if (view->nsnap > 0) {
        int rc = write_snapshots(view, &cfg, &w->o.rec, cmd);
        if (rc != CLI_OK)
            return rc;
    }
    /* The window, unless told otherwise or there is nothing to show it on;
     * snapshots alone are a batch job; a comparison of topologies is a
     * table (netrace sweep plots it). */
    bool want_window = !w->headless && !w->csv && !w->o.compare && (view->nsnap == 0 || view->app.bench_frames > 0);
    if (want_window) {
        int rc = run_window(view, &cfg, &w->o.rec, cmd, view->app.title);
        if (rc == CLI_OK || view->app.bench_frames > 0)
            return rc;
        /* app_run_window said why in one line; the table follows */
    }
    return replay_results(w, &cfg, cmd);
}

static int replay_run(int argc, char **argv)
{
    const char *cmd = "replay";
    ReplayArgs w;
    memset(&w, 0, sizeof w);
    race_opts_init(&w.o, "all");
    w.view.app = app_config_default();
    int rc = replay_args(&w, argc, argv, cmd);
    if (rc == CLI_OK)
        rc = replay_load(&w, cmd);
    if (rc == CLI_OK)
        rc = replay_go(&w, cmd);
    race_opts_free(&w.o);
    return rc;
}

const CliCommand cmd_replay = {
    .name = "replay",
    .summary = "replay a recorded race with every scheme side by side",
    .usage = "netrace replay [FILE] [--headless] [--csv] [--series OUT.csv] [--link12 SPEC]\n"
             "  [--link21 SPEC] [--link-script FILE] [--delta MS] [--tdr W] [--converge MS]\n"
             "  [--schemes LIST] [--seed S] [--clock1 OFF[,PPM]] [--clock2 OFF[,PPM]] [--clock I=OFF[,PPM]]...\n"
             "  [--snapshot T FILE.png]... [--size WxH] [--speed X] [--focus SCHEME] [--loop]\n"
             "  [--paused] [--fullscreen] [--scale X] [--lagometer] [--shots DIR] [--bench-frames N]\n"
             "  [--cars N] [--topology p2p|cs] [--server relay|sync] [--link I-J SPEC]... [--links FILE]",
    .help = "FILE defaults to recordings/default.csv; --schemes defaults to all (the papers' twelve;\n"
            "every: all sixteen).\n"
            "Without --headless the window opens\n"
            "when a display is available; otherwise one row per scheme is printed:\n"
            "inconsistency rate, mean d1-d2, mean |d1|, mean |d2| (car widths) and the MU\n"
            "counters of each direction (12 = terminal 1 to 2).\n\n"
            "  --headless        no window: print the gauge table\n"
            "  --csv             print the table as CSV (the sweep's columns)\n"
            "  --series OUT.csv  write every 33 ms metric sample of every scheme\n"
            "  --snapshot T FILE.png  write what the window shows at race time T (s) to a\n"
            "                    PNG; repeatable; needs no display (then no window opens)\n"
            "  --size WxH        window / snapshot size in pixels (default 1280x720, or the\n"
            "                    display's usable area when smaller)\n"
            "  --speed X         replay speed 0.25 .. 8 (default 1)\n"
            "  --focus SCHEME    start with one scheme's two views large\n"
            "  --loop            restart the race at its end\n"
            "  --paused          start paused (Space plays)\n"
            "  --fullscreen      start fullscreen (F toggles)\n"
            "  --scale X         text X times larger, 0.5 .. 3 (Ctrl + / - in the window)\n"
            "  --lagometer       start with every screen's lagometer shown (F2 toggles)\n"
            "  --shots DIR       where P / F12 screenshots go (default ~/Pictures/netrace)\n"
            "  --bench-frames N  render N overview frames, print frame times, exit\n"
            "Keys in the window: H shows them all (docs/window.md).\n" RACE_OPTS_HELP
            "N cars and topologies (docs/nplayers.md; the window then shows the focused\n"
            "scheme's N screens large and every scheme in a compact grid; the table gives\n"
            "the pairwise rate, spread and each player's disadvantage):\n"
            RACE_TOPO_HELP,
    .run = replay_run,
};
