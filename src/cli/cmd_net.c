/* `netrace host` and `netrace join`: one terminal of a network race over
 * UDP (src/net/session.h). The host offers the race (track, schemes,
 * settings); the joiner needs no files. Each drives its own car. */
#include "bot.h"
#include "cli.h"
#include "cli_load.h"
#include "inputs.h"
#include "netwin.h"
#include "nr_file.h"
#include "race_opts.h"
#include "raceflow.h"
#include "session.h"
#include "wire.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define NET_DEFAULT_TRACK "tracks/default.track"
#define NET_DEFAULT_LAPS 2
#define NET_DEFAULT_SCHEME "nc"
#define NET_TRACK_MAX (64u << 20) /* the wire format's limit */

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
    race_opts_free(&n->o);
    return rc;
}

/* The whole track file as text (the host sends it to the joiner). */
static char *read_text(const char *path, NrError *err)
{
    FILE *f = nr_file_open(path, "track", err);
    if (!f)
        return NULL;
    char *buf = malloc(NET_TRACK_MAX + 1);
    size_t n = buf ? fread(buf, 1, NET_TRACK_MAX + 1, f) : 0;
    bool bad = !buf || ferror(f) || n > NET_TRACK_MAX || n == 0 || memchr(buf, 0, n);
    fclose(f);
    if (bad) {
        free(buf);
        nr_error_set(err, "%s: not a track text of 1 byte to 64 MiB", path);
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

/* host:port or host (the default port); false after a usage line. */
static bool parse_peer(const char *cmd, const char *v, char *host, size_t hn, uint16_t *port)
{
    const char *colon = strrchr(v, ':');
    size_t len = colon ? (size_t)(colon - v) : strlen(v);
    if (len == 0 || len >= hn) {
        cli_usage_error(cmd, "'%s': expected HOST or HOST:PORT", v);
        return false;
    }
    memcpy(host, v, len);
    host[len] = '\0';
    *port = SESSION_DEFAULT_PORT;
    if (colon) {
        int64_t p;
        if (!cli_int(cmd, "port", colon + 1, 1, 65535, &p))
            return false;
        *port = (uint16_t)p;
    }
    return true;
}

static int net_main(int argc, char **argv, bool host)
{
    NetCli n;
    memset(&n, 0, sizeof n);
    n.cmd = host ? "host" : "join";
    race_opts_init(&n.o, "all");
    n.player = NULL; /* keys with a window, a bot --headless */
    n.skill = 0.9;
    n.noise = 0.5;
    SessionConfig sc;
    memset(&sc, 0, sizeof sc);
    sc.host = host;
    sc.cmd = n.cmd;
    sc.port = host ? SESSION_DEFAULT_PORT : 0;
    const char *scheme = NET_DEFAULT_SCHEME, *track_arg = NET_DEFAULT_TRACK, *link_text = NULL, *peer = NULL;
    const char *log_path = NULL, *keys_path = NULL, *pad_mappings = NULL, *size = NULL;
    bool fullscreen = false, watch = false;
    bool headless = false, scheme_given = false, race_given = false;
    int64_t laps = NET_DEFAULT_LAPS;
    bool laps_given = false;
    double seconds = 0, offset_ms = 0, drift = 0;
    char peer_host[256];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        int64_t k;
        bool shared = cli_flag_is(a, "--delta") || cli_flag_is(a, "--tdr") || cli_flag_is(a, "--converge") ||
                      cli_flag_is(a, "--schemes") || cli_flag_is(a, "--seed");
        if (shared) {
            if (race_opts_flag(&n.o, argc, argv, &i, n.cmd) != RACE_FLAG_TAKEN)
                return finish(&n, CLI_USAGE);
            race_given = true;
        } else if (cli_flag_is(a, "--player")) {
            if (!cli_value(argc, argv, &i, n.cmd, &n.player))
                return finish(&n, CLI_USAGE);
        } else if (cli_flag_is(a, "--scheme")) {
            if (!cli_value(argc, argv, &i, n.cmd, &scheme))
                return finish(&n, CLI_USAGE);
            scheme_given = true;
        } else if (cli_flag_is(a, "--laps")) {
            if (!cli_value(argc, argv, &i, n.cmd, &v) || !cli_int(n.cmd, "--laps", v, 1, RACEFLOW_MAX_LAPS, &laps))
                return finish(&n, CLI_USAGE);
            laps_given = true;
            race_given = true;
        } else if (cli_flag_is(a, "--seconds")) {
            if (!cli_value(argc, argv, &i, n.cmd, &v) || !cli_double(n.cmd, "--seconds", v, 1.0, 3600.0, &seconds))
                return finish(&n, CLI_USAGE);
            race_given = true;
        } else if (cli_flag_is(a, "--track")) {
            if (!cli_value(argc, argv, &i, n.cmd, &track_arg))
                return finish(&n, CLI_USAGE);
            race_given = true;
        } else if (cli_flag_is(a, "--port")) {
            if (!cli_value(argc, argv, &i, n.cmd, &v) || !cli_int(n.cmd, "--port", v, 0, 65535, &k))
                return finish(&n, CLI_USAGE);
            sc.port = (uint16_t)k;
        } else if (host && cli_flag_is(a, "--allow")) {
            if (!cli_value(argc, argv, &i, n.cmd, &sc.allow))
                return finish(&n, CLI_USAGE);
        } else if (cli_flag_is(a, "--link")) {
            if (!cli_value(argc, argv, &i, n.cmd, &link_text))
                return finish(&n, CLI_USAGE);
        } else if (cli_flag_is(a, "--clock-offset")) {
            if (!cli_value(argc, argv, &i, n.cmd, &v) || !cli_double(n.cmd, "--clock-offset", v, -3.6e6, 3.6e6, &offset_ms))
                return finish(&n, CLI_USAGE);
        } else if (cli_flag_is(a, "--clock-drift")) {
            if (!cli_value(argc, argv, &i, n.cmd, &v) || !cli_double(n.cmd, "--clock-drift", v, -1000.0, 1000.0, &drift))
                return finish(&n, CLI_USAGE);
        } else if (cli_flag_is(a, "--log")) {
            if (!cli_value(argc, argv, &i, n.cmd, &log_path))
                return finish(&n, CLI_USAGE);
        } else if (cli_flag_is(a, "--skill") || cli_flag_is(a, "--noise")) {
            double d;
            bool sk = a[2] == 's';
            if (!cli_value(argc, argv, &i, n.cmd, &v) || !cli_double(n.cmd, sk ? "--skill" : "--noise", v, 0.0, 1.0, &d))
                return finish(&n, CLI_USAGE);
            *(sk ? &n.skill : &n.noise) = d;
        } else if (cli_flag_is(a, "--keys")) {
            if (!cli_value(argc, argv, &i, n.cmd, &keys_path))
                return finish(&n, CLI_USAGE);
        } else if (cli_flag_is(a, "--pad-mappings")) {
            if (!cli_value(argc, argv, &i, n.cmd, &pad_mappings))
                return finish(&n, CLI_USAGE);
        } else if (cli_flag_is(a, "--size")) {
            if (!cli_value(argc, argv, &i, n.cmd, &size))
                return finish(&n, CLI_USAGE);
        } else if (strcmp(a, "--fullscreen") == 0) {
            fullscreen = true;
        } else if (strcmp(a, "--raw-clock") == 0) {
            sc.raw_clock = true;
        } else if (strcmp(a, "--headless") == 0) {
            headless = true;
        } else if (strcmp(a, "--watch") == 0) {
            watch = true;
        } else if (a[0] == '-' && a[1]) {
            return finish(&n, cli_unknown_option(n.cmd, a));
        } else if (!host && !peer) {
            peer = a;
        } else {
            return finish(&n, cli_usage_error(n.cmd, "unexpected argument '%s'", a));
        }
    }
    if (!host && !peer)
        return finish(&n, cli_usage_error(n.cmd, "give the host: netrace join HOST[:PORT]"));
    if (laps_given && seconds > 0)
        return finish(&n, cli_usage_error(n.cmd, "--laps and --seconds: a race is one or the other"));
    if (!host && (race_given || scheme_given))
        return finish(&n, cli_usage_error(n.cmd, "the race (track, laps, schemes, Delta, seed) is the host's to set"));
    if (!host && !parse_peer(n.cmd, peer, peer_host, sizeof peer_host, &sc.peer_port))
        return finish(&n, CLI_USAGE);
    if (!n.player)
        n.player = headless ? "bot" : "keys";
    bool script = strncmp(n.player, "script:", 7) == 0 && n.player[7];
    bool human = strcmp(n.player, "keys") == 0 || strcmp(n.player, "pad") == 0;
    if (strcmp(n.player, "bot") != 0 && !script && !human)
        return finish(&n, cli_usage_error(n.cmd, "--player '%s': expected keys, pad, bot or script:FILE", n.player));
    if (watch && headless)
        return finish(&n, cli_usage_error(n.cmd, "--watch shows the gauges in the window: drop --headless (the "
                                                 "summary and the log give every scheme's metrics)"));
    if (human && headless)
        return finish(&n, cli_usage_error(n.cmd, "--headless races a bot or a script: --player bot or script:FILE"));
    if (!headless && (keys_path || pad_mappings) && !human)
        return finish(&n, cli_usage_error(n.cmd, "--keys and --pad-mappings go with --player keys or pad"));
    NrError err = {{0}};
    if (link_text) {
        if (!linkspec_parse(&n.link, link_text, NULL, &err))
            return finish(&n, cli_usage_error(n.cmd, "--link: %s", err.msg));
        n.have_link = true;
        sc.link = &n.link;
    }
    if (script) {
        if (!inputs_load(&n.script, n.player + 7, &err))
            return finish(&n, cli_fail(n.cmd, "%s", err.msg));
        n.have_script = true;
    }
    char track_path[4096], schemes[WIRE_SCHEMES_TEXT];
    if (host) {
        int rc = race_opts_parse(&n.o, n.cmd);
        if (rc != CLI_OK)
            return finish(&n, rc);
        const SchemeType *shown_type = scheme_find(scheme);
        if (!shown_type)
            return finish(&n, cli_usage_error(n.cmd, "--scheme '%s' is not a scheme (netrace help replay lists them)",
                                              scheme));
        sc.shown = -1;
        size_t len = 0;
        schemes[0] = '\0';
        for (int k = 0; k < n.o.nschemes; k++) {
            sc.shown = n.o.schemes[k] == shown_type ? k : sc.shown;
            len += (size_t)snprintf(schemes + len, sizeof schemes - len, "%s%s", k ? "," : "", n.o.schemes[k]->name);
        }
        if (sc.shown < 0) {
            if (n.o.nschemes == SCHEME_MAX)
                return finish(&n, cli_usage_error(n.cmd, "--scheme %s: --schemes already lists %d", scheme, SCHEME_MAX));
            sc.shown = n.o.nschemes;
            len += (size_t)snprintf(schemes + len, sizeof schemes - len, "%s%s", len ? "," : "", scheme);
        }
        if (len >= sizeof schemes)
            return finish(&n, cli_usage_error(n.cmd, "--schemes: the list is too long for the wire"));
        if (!cli_resolve_path(track_arg, track_path, sizeof track_path))
            return finish(&n, cli_fail(n.cmd, "%s: no such track", track_arg));
        Track *t = track_load(track_path, &err);
        if (!t)
            return finish(&n, cli_fail(n.cmd, "%s", err.msg));
        int slots = track_grid_slots(t);
        track_free(t);
        if (slots < 2)
            return finish(&n, cli_fail(n.cmd, "%s: a race needs two grid slots", track_path));
        n.track_text = read_text(track_path, &err);
        if (!n.track_text)
            return finish(&n, cli_fail(n.cmd, "%s", err.msg));
        const char *slash = strrchr(track_path, '/');
        sc.track_text = n.track_text;
        sc.track_file = slash ? slash + 1 : track_path;
        sc.schemes = schemes;
        sc.params = n.o.params;
        sc.laps = seconds > 0 ? 0 : (int)laps;
        sc.seconds_ms = seconds > 0 ? (int64_t)(seconds * 1000 + 0.5) : 0;
        sc.seed = n.o.seed;
    } else {
        sc.peer = peer_host;
    }
    if (log_path) {
        const char *none[1] = {NULL};
        int rc = cli_out_check(n.cmd, "--log", log_path, none, 0);
        if (rc != CLI_OK)
            return finish(&n, rc);
        struct stat st;
        if (stat(log_path, &st) == 0)
            return finish(&n, cli_usage_error(n.cmd, "--log %s: exists (not overwritten)", log_path));
        /* the log opens once the race is known, after the handshake: find
         * out now that it can be written, before a joiner is let in */
        char part[4200];
        snprintf(part, sizeof part, "%s.part", log_path);
        FILE *probe = fopen(part, "wx");
        if (!probe)
            return finish(&n, cli_fail(n.cmd, "--log %s: cannot write %s (%s)", log_path, part, strerror(errno)));
        fclose(probe);
        remove(part);
    }
    sc.log_path = log_path;
    sc.clock_offset_us = (int64_t)(offset_ms * 1000.0 + (offset_ms < 0 ? -0.5 : 0.5));
    sc.clock_drift_ppm = drift;
    sc.make_controller = make_controller;
    sc.ctx = &n;
    sc.external_input = human;
    NetWinConfig wc;
    memset(&wc, 0, sizeof wc);
    wc.kind = strcmp(n.player, "pad") == 0 ? PLAYER_PAD : script ? PLAYER_SCRIPT : !human ? PLAYER_BOT : PLAYER_KEYS;
    wc.keys_path = keys_path;
    wc.pad_mappings = pad_mappings;
    wc.fullscreen = fullscreen;
    wc.watch = watch;
    wc.title = host ? "netrace host" : "netrace join";
    if (size) {
        char extra;
        if (sscanf(size, "%dx%d%c", &wc.width, &wc.height, &extra) != 2 || wc.width < 640 || wc.height < 360 ||
            wc.width > 16384 || wc.height > 16384)
            return finish(&n, cli_usage_error(n.cmd, "--size '%s': expected WIDTHxHEIGHT, at least 640x360", size));
    }
    Session *s = session_new(&sc, &err);
    if (!s)
        return finish(&n, cli_fail(n.cmd, "%s", err.msg));
    if (host)
        fprintf(stderr, "netrace host: waiting for a joiner on UDP port %u\n", (unsigned)session_port(s));
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    bool ok;
    if (headless) {
        ok = session_run(s, &stop_flag);
    } else {
        int wrc = netwin_run(s, &wc, &stop_flag);
        if (wrc == 3) { /* no window: nothing was sent, nothing to print */
            session_free(s);
            return finish(&n, cli_fail(n.cmd, "no window could be opened: give --headless with --player bot or "
                                              "script:FILE"));
        }
        ok = wrc == 0;
    }
    session_print(s, stdout);
    if (session_pauses(s) > 0)
        fprintf(stderr, "netrace %s: the race paused %d time%s on a silent peer: its live metrics after the "
                        "pause are not comparable with an unbroken race, nor between the two terminals\n",
                n.cmd, session_pauses(s), session_pauses(s) == 1 ? "" : "s");
    if (!ok)
        fprintf(stderr, "netrace %s: %s\n", n.cmd, session_error(s));
    else if (log_path)
        cli_wrote(log_path);
    session_free(s);
    return finish(&n, ok ? CLI_OK : CLI_FAIL);
}

static int host_main(int argc, char **argv)
{
    return net_main(argc, argv, true);
}

static int join_main(int argc, char **argv)
{
    return net_main(argc, argv, false);
}

#define NET_COMMON_HELP                                                                              \
    "  --player WHO      keys (default; WASD or the arrows), pad, bot (the default --headless) or\n"   \
    "                    script:FILE (docs/driving.md): who drives this terminal's car\n"            \
    "  --keys FILE, --pad-mappings FILE, --size WxH, --fullscreen  the window (docs/play.md)\n"      \
    "  --watch           every scheme's live gauges beside the race (Tab in the window)\n"          \
    "  --link SPEC       emulated delay and loss added to what this terminal sends (netem grammar)\n" \
    "  --clock-offset MS, --clock-drift PPM  an artificial clock error (tests the clock sync)\n"      \
    "  --raw-clock       run the schemes on the local clock instead of the synchronised one\n"        \
    "  --log FILE        the terminal log (docs/netlog.md), crash-safe\n"                            \
    "  --headless        no window (a bot or a script drives): key: value lines at the end\n"

const CliCommand cmd_host = {
    .name = "host",
    .summary = "offer a network race over UDP and drive car 1",
    .usage = "netrace host [--port P] [--allow HOST] [--player keys|pad|bot|script:FILE] [--scheme NAME]\n"
             "  [--schemes LIST] [--laps N | --seconds S] [--track FILE] [--delta MS] [--tdr W] [--seed S]\n"
             "  [--link SPEC] [--clock-offset MS] [--clock-drift PPM] [--raw-clock] [--log FILE] [--headless]",
    .help = "Waits for `netrace join` on UDP port P (default 41000), sends it the track, the\n"
            "schemes and the settings, synchronises the clocks, starts the countdown at one\n"
            "synchronised instant and races. Every scheme of --schemes runs on the same real\n"
            "packets; both terminals compute the same live metrics (docs/netplay.md).\n\n"
            "  --port P          UDP port to listen on (default 41000; 0: any free one, printed)\n"
            "  --allow HOST      take the joiner only from HOST (else the first to say HELLO)\n" NET_COMMON_HELP,
    .run = host_main,
};

const CliCommand cmd_join = {
    .name = "join",
    .summary = "join a network race at HOST[:PORT] and drive car 2",
    .usage = "netrace join HOST[:PORT] [--port P] [--player keys|pad|bot|script:FILE] [--link SPEC]\n"
             "  [--clock-offset MS] [--clock-drift PPM] [--raw-clock] [--log FILE] [--headless]",
    .help = "Joins the race a `netrace host` offers; the track and settings come from the\n"
            "host, so the joiner needs no files.\n\n"
            "  --port P          own UDP port (default: any free one)\n" NET_COMMON_HELP,
    .run = join_main,
};
