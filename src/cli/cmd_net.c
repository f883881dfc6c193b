/* `netrace host`, `netrace join` and `netrace serve`: one end of a network
 * race over UDP (src/net/session.h). The host offers the race (track,
 * schemes, settings) and drives car 1; a server (serve) offers it to N
 * clients and drives none (docs/netplay.md "Serve"); a joiner needs no
 * files. Each terminal drives its own car. */
#include "bot.h"
#include "cli.h"
#include "nr_part.h"
#include "cli_load.h"
#include "inputs.h"
#include "net_bots.h"
#include "net_lines.h"
#include "netwin.h"
#include "nr_file.h"
#include "race_opts.h"
#include "raceflow.h"
#include "session.h"
#include "wire.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define NET_DEFAULT_TRACK "tracks/default.track"
#define NET_DEFAULT_LAPS 2
#define NET_DEFAULT_SCHEME "nc"

typedef struct NetCli {
    const char *cmd;
    RaceOpts o; /* --delta, --tdr, --converge, --schemes, --seed */
    const char *player;
    InputScript script;
    bool have_script;
    Bot *bot;
    double skill, noise;
    char *track_text;
    LinkSpec link;
    bool have_link;
    LinkMatrix *lines; /* --link I-J SPEC: this terminal's lines (NULL: none) */
    int64_t bots;         /* serve --bots K: seats this process fills with bots */
    const char *bot_logs; /* serve --bot-logs DIR */
    char track_path[4096]; /* the host's track file (the session names it) */
} NetCli;

static volatile sig_atomic_t stop_flag;

/* The signal's number: the session says which one stopped it. */
static void on_signal(int sig)
{
    stop_flag = sig;
}

/* A bot on the track the session knows, or the script's lines for this car. */
static bool make_controller(void *ctx, const Track *track, int car, uint64_t seed, Controller *out, NrError *err)
{
    NetCli *n = ctx;
    if (n->have_script) {
        if (n->script.first[car + 1] == n->script.first[car])
            return nr_error_set(err, "%s: no line for player %d (this terminal drives car %d)", n->player + 7,
                                car + 1, car + 1);
        *out = inputs_controller(&n->script);
        return true;
    }
    CarParams params;
    car_params_default(&params);
    BotDriver d = {.skill = n->skill, .noise = n->noise};
    n->bot = bot_new(track, &params, d, seed, (uint64_t)car, err);
    if (!n->bot)
        return false;
    *out = bot_controller(n->bot);
    return true;
}

static int finish(NetCli *n, int rc)
{
    bot_free(n->bot);
    if (n->have_script)
        inputs_free(&n->script);
    free(n->track_text);
    linkspec_free(&n->link);
    linkmatrix_free(n->lines);
    free(n->lines);
    race_opts_free(&n->o);
    return rc;
}

/* Everything the command line says, before it is checked. */
typedef struct NetArgs {
    bool host, serve;
    const char *server_mode;
    int64_t cars;
    const char *scheme, *track_arg, *link_text, *peer, *log_path, *keys_path, *pad_mappings, *size, *camera;
    bool fullscreen, watch, headless, scheme_given, race_given, laps_given, mute, lagometer;
    int64_t laps;
    double seconds, offset_ms, drift, scale;
    char peer_host[256];
} NetArgs;

/* A flag whose value is a number in [lo, hi] into *out; false after a usage line. */
static bool number_flag(NetCli *n, int argc, char **argv, int *i, const char *name, double lo, double hi, double *out)
{
    const char *v = NULL;
    return cli_value(argc, argv, i, n->cmd, &v) && cli_double(n->cmd, name, v, lo, hi, out);
}

/* The race's flags (the host's to set): CLI_OK taken, CLI_USAGE after a
 * usage line, -1 not one of them. */
static int race_flag(NetCli *n, NetArgs *a, int argc, char **argv, int *i)
{
    const char *f = argv[*i], *v = NULL;
    if (cli_flag_is(f, "--delta") || cli_flag_is(f, "--tdr") || cli_flag_is(f, "--converge") ||
        cli_flag_is(f, "--schemes") || cli_flag_is(f, "--seed")) {
        a->race_given = true;
        return race_opts_flag(&n->o, argc, argv, i, n->cmd) == RACE_FLAG_TAKEN ? CLI_OK : CLI_USAGE;
    }
    if (cli_flag_is(f, "--scheme")) {
        a->scheme_given = true;
        return cli_value(argc, argv, i, n->cmd, &a->scheme) ? CLI_OK : CLI_USAGE;
    }
    if (cli_flag_is(f, "--laps")) {
        a->laps_given = a->race_given = true;
        return cli_value(argc, argv, i, n->cmd, &v) && cli_int(n->cmd, "--laps", v, 1, RACEFLOW_MAX_LAPS, &a->laps)
                   ? CLI_OK
                   : CLI_USAGE;
    }
    if (cli_flag_is(f, "--seconds")) {
        a->race_given = true;
        return number_flag(n, argc, argv, i, "--seconds", 1.0, 3600.0, &a->seconds) ? CLI_OK : CLI_USAGE;
    }
    if (cli_flag_is(f, "--track")) {
        a->race_given = true;
        return cli_value(argc, argv, i, n->cmd, &a->track_arg) ? CLI_OK : CLI_USAGE;
    }
    if ((a->serve || a->host) && cli_flag_is(f, "--cars"))
        return cli_value(argc, argv, i, n->cmd, &v) && cli_int(n->cmd, "--cars", v, 2, WIRE_MAX_CARS, &a->cars)
                   ? CLI_OK
                   : CLI_USAGE;
    if (a->serve && cli_flag_is(f, "--server"))
        return cli_value(argc, argv, i, n->cmd, &a->server_mode) ? CLI_OK : CLI_USAGE;
    if ((a->serve || a->host) && cli_flag_is(f, "--bots"))
        return cli_value(argc, argv, i, n->cmd, &v) && cli_int(n->cmd, "--bots", v, 0, WIRE_MAX_CARS, &n->bots)
                   ? CLI_OK
                   : CLI_USAGE;
    if ((a->serve || a->host) && cli_flag_is(f, "--bot-logs"))
        return cli_value(argc, argv, i, n->cmd, &n->bot_logs) ? CLI_OK : CLI_USAGE;
    return -1;
}

/* This terminal's flags: as race_flag. */
static int terminal_flag(NetCli *n, NetArgs *a, SessionConfig *sc, int argc, char **argv, int *i)
{
    const char *f = argv[*i], *v = NULL;
    int64_t k;
    const char **text = cli_flag_is(f, "--player")         ? &n->player
                        : cli_flag_is(f, "--link")         ? &a->link_text
                        : cli_flag_is(f, "--log")          ? &a->log_path
                        : cli_flag_is(f, "--keys")         ? &a->keys_path
                        : cli_flag_is(f, "--pad-mappings") ? &a->pad_mappings
                        : cli_flag_is(f, "--size")         ? &a->size
                        : cli_flag_is(f, "--camera")       ? &a->camera
                        : cli_flag_is(f, "--code")         ? &sc->code
                        : (a->host || a->serve) && cli_flag_is(f, "--allow") ? &sc->allow
                                                               : NULL;
    if (text)
        return cli_value(argc, argv, i, n->cmd, text) ? CLI_OK : CLI_USAGE;
    if (cli_flag_is(f, "--port")) {
        if (!cli_value(argc, argv, i, n->cmd, &v) || !cli_int(n->cmd, "--port", v, 0, 65535, &k))
            return CLI_USAGE;
        sc->port = (uint16_t)k;
        return CLI_OK;
    }
    if (cli_flag_is(f, "--clock-offset"))
        return number_flag(n, argc, argv, i, "--clock-offset", -3.6e6, 3.6e6, &a->offset_ms) ? CLI_OK : CLI_USAGE;
    if (cli_flag_is(f, "--scale"))
        return number_flag(n, argc, argv, i, "--scale", GFX_SCALE_MIN, GFX_SCALE_MAX, &a->scale) ? CLI_OK : CLI_USAGE;
    if (cli_flag_is(f, "--clock-drift"))
        return number_flag(n, argc, argv, i, "--clock-drift", -1000.0, 1000.0, &a->drift) ? CLI_OK : CLI_USAGE;
    if (cli_flag_is(f, "--skill") || cli_flag_is(f, "--noise")) {
        bool sk = f[2] == 's';
        return number_flag(n, argc, argv, i, sk ? "--skill" : "--noise", sk ? BOT_SKILL_MIN : 0.0, 1.0,
                           sk ? &n->skill : &n->noise)
                   ? CLI_OK
                   : CLI_USAGE;
    }
    bool *on = strcmp(f, "--fullscreen") == 0 ? &a->fullscreen
               : strcmp(f, "--raw-clock") == 0 ? &sc->raw_clock
               : strcmp(f, "--headless") == 0  ? &a->headless
               : strcmp(f, "--watch") == 0     ? &a->watch
               : strcmp(f, "--mute") == 0      ? &a->mute
               : strcmp(f, "--lagometer") == 0 ? &a->lagometer
                                               : NULL;
    if (!on)
        return -1;
    *on = true;
    return CLI_OK;
}

static int parse_args(NetCli *n, NetArgs *a, SessionConfig *sc, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *f = argv[i];
        int rc = race_flag(n, a, argc, argv, &i);
        if (rc < 0)
            rc = net_line_flag(n->cmd, &n->lines, argc, argv, &i);
        if (rc < 0)
            rc = terminal_flag(n, a, sc, argc, argv, &i);
        if (rc > 0)
            return rc;
        if (rc == CLI_OK)
            continue;
        if (f[0] == '-' && f[1])
            return cli_unknown_option(n->cmd, f);
        if (a->host || a->serve || a->peer)
            return cli_usage_error(n->cmd, "unexpected argument '%s'", f);
        a->peer = f;
    }
    return CLI_OK;
}

/* The combinations of flags that make sense; the player named. */
/* serve: a headless server of N clients, relay or sync. */
/* serve / host --bots K: seats to fill (a server's all, a host's but its
 * own), their logs, and a joiner from 127.0.0.1 allowed. */
static int check_bots(NetCli *n, const NetArgs *a, const SessionConfig *sc)
{
    int64_t seats = a->serve ? a->cars : a->cars - 1;
    if (n->bots > seats)
        return cli_usage_error(n->cmd, "--bots %lld: a race of %lld cars has %lld seats%s", (long long)n->bots,
                               (long long)a->cars, (long long)seats, a->host ? " beside the host's" : "");
    if (n->bot_logs && n->bots == 0)
        return cli_usage_error(n->cmd, "--bot-logs without --bots: no bot to log");
    if (n->bots > 0 && sc->allow && strcmp(sc->allow, "127.0.0.1") != 0 && strcmp(sc->allow, "localhost") != 0)
        return cli_usage_error(n->cmd, "--bots with --allow %s: the bots join from 127.0.0.1", sc->allow);
    return CLI_OK;
}

static int check_serve(NetCli *n, NetArgs *a, SessionConfig *sc)
{
    if (n->player || a->keys_path || a->pad_mappings || a->size || a->watch || a->fullscreen || sc->raw_clock ||
        a->offset_ms != 0 || a->drift != 0)
        return cli_usage_error(n->cmd, "the server drives no car: --player, the window and the clock flags are the "
                                       "clients' (netrace join)");
    if (n->lines && net_check_lines(n->cmd, n->lines, NET_LINES_SERVER, (int)a->cars) != CLI_OK)
        return CLI_USAGE;
    if (strcmp(a->server_mode, "relay") != 0 && strcmp(a->server_mode, "sync") != 0)
        return cli_usage_error(n->cmd, "--server '%s': expected relay or sync (docs/nplayers.md)", a->server_mode);
    if (a->laps_given && a->seconds > 0)
        return cli_usage_error(n->cmd, "--laps and --seconds: a race is one or the other");
    if (check_bots(n, a, sc) != CLI_OK)
        return CLI_USAGE;
    sc->server = true;
    sc->ncars = (int)a->cars;
    sc->server_mode = strcmp(a->server_mode, "sync") == 0;
    char code[WIRECRYPT_CODE_CHARS + 1];
    if (sc->code && !wirecrypt_code_normalise(sc->code, code))
        return cli_usage_error(n->cmd, "--code '%.24s': expected %d characters of %s (dashes, case ignored)",
                               sc->code, WIRECRYPT_CODE_CHARS, WIRECRYPT_ALPHABET);
    n->player = "bot";
    return CLI_OK;
}

static int check_args(NetCli *n, NetArgs *a, SessionConfig *sc, bool *script, bool *human)
{
    if (a->serve)
        return check_serve(n, a, sc);
    NetLineRole role = a->host ? NET_LINES_HOST : NET_LINES_JOINER;
    if (n->lines && net_check_lines(n->cmd, n->lines, role, (int)a->cars) != CLI_OK)
        return CLI_USAGE;
    if (!a->host && !a->peer)
        return cli_usage_error(n->cmd, "give the host: netrace join HOST[:PORT]");
    if (a->host && check_bots(n, a, sc) != CLI_OK)
        return CLI_USAGE;
    if (a->laps_given && a->seconds > 0)
        return cli_usage_error(n->cmd, "--laps and --seconds: a race is one or the other");
    if (!a->host && (a->race_given || a->scheme_given))
        return cli_usage_error(n->cmd, "the race (track, laps, schemes, Delta, seed) is the host's to set");
    if (!a->host && !cli_peer_parse(n->cmd, a->peer, a->peer_host, sizeof a->peer_host, SESSION_DEFAULT_PORT,
                                    &sc->peer_port))
        return CLI_USAGE;
    char code[WIRECRYPT_CODE_CHARS + 1];
    if (!a->host && !sc->code && a->headless) /* the window asks for it (netwin_ask_code) */
        return cli_usage_error(n->cmd, "give the join code the host shows: --code CODE");
    if (sc->code && !wirecrypt_code_normalise(sc->code, code))
        return cli_usage_error(n->cmd, "--code '%.24s': expected %d characters of %s (dashes, case ignored)",
                               sc->code, WIRECRYPT_CODE_CHARS, WIRECRYPT_ALPHABET);
    if (!n->player)
        n->player = a->headless ? "bot" : "keys";
    *script = strncmp(n->player, "script:", 7) == 0 && n->player[7];
    *human = strcmp(n->player, "keys") == 0 || strcmp(n->player, "pad") == 0;
    if (strcmp(n->player, "bot") != 0 && !*script && !*human)
        return cli_usage_error(n->cmd, "--player '%s': expected keys, pad, bot or script:FILE", n->player);
    if (a->lagometer && a->headless)
        return cli_usage_error(n->cmd, "--lagometer shows a strip in the window: drop --headless");
    if (a->watch && a->headless)
        return cli_usage_error(n->cmd, "--watch shows the gauges in the window: drop --headless (the "
                                       "summary and the log give every scheme's metrics)");
    if (*human && a->headless)
        return cli_usage_error(n->cmd, "--headless races a bot or a script: --player bot or script:FILE");
    if (!a->headless && (a->keys_path || a->pad_mappings) && !*human)
        return cli_usage_error(n->cmd, "--keys and --pad-mappings go with --player keys or pad");
    return CLI_OK;
}

/* The host's offer: the scheme list with the shown one, the track's text. */
static int host_offer(NetCli *n, NetArgs *a, SessionConfig *sc, char *schemes, size_t cap)
{
    NrError err = {{0}};
    int rc = race_opts_parse(&n->o, n->cmd);
    if (rc != CLI_OK)
        return rc;
    const SchemeType *shown_type = scheme_find(a->scheme);
    if (!shown_type)
        return cli_usage_error(n->cmd, "--scheme '%s' is not a scheme (netrace help replay lists them)", a->scheme);
    sc->shown = -1;
    size_t len = 0;
    schemes[0] = '\0';
    for (int k = 0; k < n->o.nschemes; k++) {
        sc->shown = n->o.schemes[k] == shown_type ? k : sc->shown;
        len += (size_t)snprintf(schemes + len, cap - len, "%s%s", k ? "," : "", n->o.schemes[k]->name);
    }
    if (sc->shown < 0) {
        if (n->o.nschemes == SCHEME_MAX)
            return cli_usage_error(n->cmd, "--scheme %s: --schemes already lists %d", a->scheme, SCHEME_MAX);
        sc->shown = n->o.nschemes;
        len += (size_t)snprintf(schemes + len, cap - len, "%s%s", len ? "," : "", a->scheme);
    }
    if (len >= cap)
        return cli_usage_error(n->cmd, "--schemes: the list is too long for the wire");
    char *track_path = n->track_path;
    if (!cli_resolve_path(a->track_arg, track_path, sizeof n->track_path))
        return cli_fail(n->cmd, "%s: no such track", a->track_arg);
    Track *t = track_load(track_path, &err);
    if (!t)
        return cli_fail(n->cmd, "%s", err.msg);
    int slots = track_grid_slots(t), cars = (int)a->cars;
    track_free(t);
    if (slots < cars)
        return cli_fail(n->cmd, "%s: %d grid slots, a race of %d cars needs %d", track_path, slots, cars, cars);
    n->track_text = cli_read_track_text(track_path, &err);
    if (!n->track_text)
        return cli_fail(n->cmd, "%s", err.msg);
    const char *slash = strrchr(track_path, '/');
    sc->track_text = n->track_text;
    sc->track_file = slash ? slash + 1 : track_path;
    sc->schemes = schemes;
    sc->params = n->o.params;
    sc->laps = a->seconds > 0 ? 0 : (int)a->laps;
    sc->seconds_ms = a->seconds > 0 ? (int64_t)(a->seconds * 1000 + 0.5) : 0;
    sc->seed = n->o.seed;
    return CLI_OK;
}

/* The log opens once the race is known, after the handshake: find out now
 * that it can be written, before a joiner is let in. */
static int check_log(NetCli *n, const char *log_path)
{
    const char *none[1] = {NULL};
    int rc = cli_out_check(n->cmd, "--log", log_path, none, 0);
    if (rc != CLI_OK)
        return rc;
    struct stat st;
    if (stat(log_path, &st) == 0)
        return cli_usage_error(n->cmd, "--log %s: exists (not overwritten)", log_path);
    NrPartFile probe; /* the writer the log will use, opened and removed */
    if (nr_part_open(&probe, log_path, 0) != NR_PART_OK)
        return cli_fail(n->cmd, "--log %s: cannot write %s (%s)", log_path, probe.part, nr_part_reason(&probe));
    nr_part_abort(&probe);
    return CLI_OK;
}

static int window_config(NetCli *n, const NetArgs *a, bool script, bool human, NetWinConfig *wc)
{
    memset(wc, 0, sizeof *wc);
    wc->kind = strcmp(n->player, "pad") == 0 ? PLAYER_PAD : script ? PLAYER_SCRIPT : !human ? PLAYER_BOT : PLAYER_KEYS;
    wc->keys_path = a->keys_path;
    wc->pad_mappings = a->pad_mappings;
    wc->fullscreen = a->fullscreen;
    wc->scale = a->scale;
    wc->watch = a->watch;
    wc->mute = a->mute;
    wc->lagometer = a->lagometer;
    wc->title = a->host ? "netrace host" : "netrace join";
    if (a->camera && strcmp(a->camera, "north") != 0 && strcmp(a->camera, "rotate") != 0)
        return cli_usage_error(n->cmd, "--camera '%s': expected north or rotate", a->camera);
    wc->camera_rotate = a->camera && strcmp(a->camera, "rotate") == 0;
    if (a->size) {
        char extra;
        if (sscanf(a->size, "%dx%d%c", &wc->width, &wc->height, &extra) != 2 || wc->width < 640 ||
            wc->height < 360 || wc->width > 16384 || wc->height > 16384)
            return cli_usage_error(n->cmd, "--size '%s': expected WIDTHxHEIGHT, at least 640x360", a->size);
    }
    return CLI_OK;
}

/* The session, run headless or in the window; the summary. */
static int run_session(NetCli *n, const SessionConfig *sc0, const NetWinConfig *wc, bool headless)
{
    NrError err = {{0}};
    SessionConfig scc = *sc0, *sc = &scc;
    char typed[WIRECRYPT_CODE_CHARS + 1];
    if (!sc->host && !sc->server && !sc->code) { /* a window (check_args): it asks for the host's code */
        int arc = netwin_ask_code(wc, sc->peer, typed, &stop_flag);
        if (arc == 3)
            return cli_fail(n->cmd, "no window could be opened: give --code CODE with --headless");
        if (arc != 0)
            return cli_fail(n->cmd, "no join code given: the race was left");
        sc->code = typed;
    }
    Session *s = session_new(sc, &err);
    if (!s)
        return cli_fail(n->cmd, "%s", err.msg);
    if (sc->host && sc->ncars > 2)
        fprintf(stderr, "netrace host: waiting for %d joiners on UDP port %u (peer to peer)\n", sc->ncars - 1,
                (unsigned)session_port(s));
    else if (sc->host)
        fprintf(stderr, "netrace host: waiting for a joiner on UDP port %u\n", (unsigned)session_port(s));
    if (sc->server)
        fprintf(stderr, "netrace serve: waiting for %d clients on UDP port %u (%s)\n", sc->ncars,
                (unsigned)session_port(s), sc->server_mode ? "sync" : "relay");
    NetBots *bots = NULL;
    if (n->bots > 0) { /* serve / host --bots K: they join at once, taking the first seats */
        char code[WIRECRYPT_CODE_TEXT];
        session_code(s, code);
        bots = net_bots_start(n->cmd, (int)n->bots, session_port(s), code, (BotDriver){.skill = n->skill, .noise = n->noise},
                              n->bot_logs, &err);
        if (!bots) {
            session_free(s);
            return cli_fail(n->cmd, "%s", err.msg);
        }
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    bool ok;
    if (headless) {
        ok = session_run(s, &stop_flag);
    } else {
        int wrc = netwin_run(s, wc, &stop_flag);
        if (wrc == 3 || wrc == 4) { /* nothing was sent, nothing to print */
            session_free(s);
            return wrc == 4 ? CLI_FAIL /* the file was named */
                            : cli_fail(n->cmd, "no window could be opened: give --headless with --player bot or script:FILE");
        }
        ok = wrc == 0;
    }
    if (stop_flag)
        net_bots_stop(bots);
    ok &= net_bots_finish(bots, stderr);
    session_print(s, stdout);
    int pauses = session_pauses(s);
    if (pauses > 0) /* the metrics hold (docs/netplay.md "Pause"); the people raced a broken race */
        fprintf(stderr, "netrace %s: the race paused %d time%s (both ends stopped at one race time)\n", n->cmd, pauses,
                pauses == 1 ? "" : "s");
    if (!ok)
        fprintf(stderr, "netrace %s: %s\n", n->cmd, session_error(s));
    else if (sc->log_path)
        cli_wrote(sc->log_path);
    session_free(s);
    return ok ? CLI_OK : CLI_FAIL;
}

static int net_main(int argc, char **argv, bool host, bool serve)
{
    NetCli n;
    memset(&n, 0, sizeof n);
    n.cmd = serve ? "serve" : host ? "host" : "join";
    race_opts_init(&n.o, "all");
    n.skill = 0.9;
    n.noise = 0.5;
    NetArgs a = {.host = host, .serve = serve, .scheme = NET_DEFAULT_SCHEME, .track_arg = NET_DEFAULT_TRACK,
                 .laps = NET_DEFAULT_LAPS, .cars = 2, .server_mode = "relay"};
    SessionConfig sc;
    memset(&sc, 0, sizeof sc);
    sc.host = host;
    sc.cmd = n.cmd;
    sc.port = host || serve ? SESSION_DEFAULT_PORT : 0;
    bool script = false, human = false;
    int rc = parse_args(&n, &a, &sc, argc, argv);
    if (rc == CLI_OK)
        rc = check_args(&n, &a, &sc, &script, &human);
    NrError err = {{0}};
    if (rc == CLI_OK && a.link_text) {
        if (!linkspec_parse(&n.link, a.link_text, NULL, &err))
            return finish(&n, cli_usage_error(n.cmd, "--link: %s", err.msg));
        n.have_link = true;
        sc.link = &n.link;
    }
    if (rc == CLI_OK) {
        sc.lines = n.lines;
        sc.ncars = a.host ? (int)a.cars : sc.ncars;
    }
    if (rc == CLI_OK && script) {
        if (!inputs_load(&n.script, n.player + 7, &err))
            return finish(&n, cli_fail(n.cmd, "%s", err.msg));
        n.have_script = true;
    }
    char schemes[WIRE_SCHEMES_TEXT];
    if (rc == CLI_OK && (host || serve))
        rc = host_offer(&n, &a, &sc, schemes, sizeof schemes);
    sc.peer = a.peer_host;
    if (rc == CLI_OK && a.log_path)
        rc = check_log(&n, a.log_path);
    sc.log_path = a.log_path;
    sc.clock_offset_us = (int64_t)(a.offset_ms * 1000.0 + (a.offset_ms < 0 ? -0.5 : 0.5));
    sc.clock_drift_ppm = a.drift;
    sc.make_controller = make_controller;
    sc.ctx = &n;
    sc.external_input = human;
    sc.lagometer = !a.headless; /* the window's F2 */
    NetWinConfig wc;
    if (rc == CLI_OK)
        rc = window_config(&n, &a, script, human, &wc);
    if (rc == CLI_OK)
        rc = run_session(&n, &sc, &wc, a.headless || serve);
    return finish(&n, rc);
}

int net_host_main(int argc, char **argv)
{
    return net_main(argc, argv, true, false);
}

int net_join_main(int argc, char **argv)
{
    return net_main(argc, argv, false, false);
}

int net_serve_main(int argc, char **argv)
{
    return net_main(argc, argv, false, true);
}
