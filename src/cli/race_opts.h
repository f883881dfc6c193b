/* Options shared by the commands that replay a race through the engine
 * (replay, sweep): recording, links, Delta, T_dr, schemes, seed, clocks.
 *
 * Contracts:
 *   race_opts_init(o, schemes)            the racing paper's defaults with the
 *        given default scheme list ("all" for replay, "racing" for sweep).
 *   race_opts_flag(o, argc, argv, &i, cmd)  RACE_FLAG_TAKEN when argv[i] was
 *        one of the shared flags (its value consumed), RACE_FLAG_NOT_MINE
 *        when it is not, RACE_FLAG_BAD after printing a usage error.
 *   race_opts_parse(o, cmd)               parses the links and the scheme list
 *        (a driven race has no recording to load); CLI_OK or the exit code
 *        after printing one line.
 *   race_opts_load(o, cmd)                race_opts_parse, then loads the
 *        recording, its header (o->header, parsed once) and its track;
 *        returns CLI_OK or the exit code after printing one line.
 *   race_opts_engine_config(o, cfg)       an EngineConfig for the loaded race
 *        (to replay o->rec with replay_new or experiment_run).
 *   race_opts_check_delta(o, cmd)  Delta within what the schemes' buffers hold
 *        at the recording's period and these clocks; CLI_OK or exit 2.
 *   race_opts_check_clocks(o, ncars, cmd)  every --clock names one of
 *        ncars terminals; CLI_OK or the exit code after one line.
 *   race_opts_free(o)
 *   race_warn_delta(o, cmd, swept, nswept)  one line on stderr per link
 *        whose mean delay (linkspec_mean_ms) exceeds Delta when o runs a
 *        scheme that holds for Delta (SchemeType.holds_delta: causality,
 *        dr-causality), naming the schemes, Delta and the link's mean: most
 *        of their remote updates arrive late and are discarded. The links:
 *        1->2 and 2->1 of a two-car p2p race; with swept (the sweep's
 *        nswept link 1->2 specs) 2->1 and the largest swept 1->2 mean.
 *        Nothing for wider races (their lines are not checked).
 * Output shared by replay and play:
 *   race_print_params(f, o)     the link, Delta, T_dr and seed lines.
 *   race_print_script(f, o)     one line per link script change ("script:
 *        at T s link LINE: SPEC (FILE:LINE)").
 *   race_print_table(f, r, n)   the gauge table, one row per scheme.
 *   race_print_csv(f, o, r, n)  the same as CSV with the sweep's columns.
 *   race_write_series(cmd, path, e, &rc)  every metric sample in e's history
 *        of every scheme (scheme,t_ms,d1,d2,...) to path; false + *rc after
 *        one line on failure.
 */
#ifndef NR_RACE_OPTS_H
#define NR_RACE_OPTS_H

#include "cli.h"
#include "experiment.h"
#include "replay.h"
#include "linkscript.h"
#include "linkmatrix.h"
#include "raceheader.h"

#define RACE_DEFAULT_RECORDING "recordings/default.csv"
#define RACE_DEFAULT_LINK "delay 75ms 10ms distribution paretonormal"

enum { RACE_FLAG_NOT_MINE = 0, RACE_FLAG_TAKEN = 1, RACE_FLAG_BAD = -1 };

typedef struct RaceOpts {
    const char *recording;
    const char *link_text[2];
    const char *schemes_text;
    const char *script_path; /* --link-script FILE, NULL = none */
    uint64_t seed;
    SchemeParams params;
    unsigned params_given;                /* RACEHEADER_* bits: --delta, --tdr, --converge, --seed given */
    TerminalClock clock[ENGINE_MAX_CARS]; /* --clock1 / --clock2 / --clock I=... */
    unsigned clock_given;                 /* bit I-1: terminal I's clock was given */
    /* loaded */
    Recording rec;
    RaceHeader *header; /* rec's condition, parsed once by race_opts_load (replay's defaults and lines) */
    Track *track;
    char track_path[4096]; /* where the recording's track was found */
    LinkSpec link[2];
    bool link_parsed[2];
    const SchemeType *schemes[SCHEME_MAX];
    int nschemes;
    double *progress[ENGINE_MAX_CARS]; /* true progress per sample, shared by every engine */
    LinkScript script;   /* empty without --link-script */
    bool link_given[2];  /* --link12 / --link21 on the command line */
    /* N cars and topologies (race_topo.c; replay, sweep and play) */
    int cars;                 /* --cars N; 0 = the recording's count */
    int ncars;                /* resolved: the race's car count (2 before) */
    RouteTopology topology;   /* --topology (the first of a list) */
    RouteServer server;       /* --server (the first of a list) */
    bool server_given;
    /* --topology / --server lists (masks by RouteTopology / RouteServer;
     * 0: not given): more than one race configuration is a comparison,
     * which only the sweep runs (allow_compare). */
    unsigned topo_set, server_set;
    bool allow_compare, compare;
    const char *links_path;   /* --links FILE */
    /* --links FILE read once (race_topo_links_file): the matrix until
     * race_topo_resolve takes its lines, or why it could not be read */
    LinkMatrix *links_file;
    bool links_read;
    NrError links_err;
    LinkMatrix *lines;        /* --link I-J / --links entries; NULL: none */
    LinkSpec link_default;    /* every line no flag names */
    bool link_default_parsed;
    /* race_topo_resolve(_cars) ran: the topology is resolved once (the
     * links file's lines taken, the cars' progress made); its answer */
    bool topo_resolved;
    int topo_rc;
} RaceOpts;

void race_opts_init(RaceOpts *o, const char *schemes);
int race_opts_flag(RaceOpts *o, int argc, char **argv, int *i, const char *cmd);
int race_opts_parse(RaceOpts *o, const char *cmd);
int race_opts_load(RaceOpts *o, const char *cmd);
/* After race_opts_load: cli_out_check of an output PATH given with FLAG
 * against the recording and its track. */
int race_opts_check_out(const RaceOpts *o, const char *cmd, const char *flag, const char *path);
void race_opts_engine_config(const RaceOpts *o, EngineConfig *cfg);
int race_opts_check_clocks(const RaceOpts *o, int ncars, const char *cmd);
int race_opts_check_delta(const RaceOpts *o, const char *cmd);
void race_opts_free(RaceOpts *o);
void race_warn_delta(const RaceOpts *o, const char *cmd, const LinkSpec *swept, int nswept);
void race_print_params(FILE *f, const RaceOpts *o);
void race_print_script(FILE *f, const RaceOpts *o);
void race_print_table(FILE *f, const RunResult *r, int n);
/* The gauge tables' scheme column: 14 characters, or the longest name. */
int race_name_width(const RunResult *r, int n);
void race_print_csv(FILE *f, const RaceOpts *o, const RunResult *r, int n);
bool race_write_series(const char *cmd, const char *path, const Engine *e, int *rc);
/* N cars and topologies (race_topo.c), for replay and sweep:
 *   race_topo_flag(o, argc, argv, &i, cmd)  --cars, --topology, --server,
 *        --link I-J SPEC, --links FILE; RACE_FLAG_* as race_opts_flag.
 *   race_topo_resolve(o, cmd)   after race_opts_load: the car count (from
 *        the recording unless --cars; more than it has is an error), the
 *        link matrix checked against it, every car's progress. CLI_OK or
 *        the exit code after one line. Once per options: a later call of
 *        it or of race_topo_resolve_cars changes nothing and returns the
 *        first call's answer.
 *   race_topo_resolve_cars(o, cmd, ncars)  the same for a driven race of
 *        ncars cars (no recording: play): the link matrix checked against
 *        them, the flags' combinations. CLI_OK or the exit code after one
 *        line. Once per options, as race_topo_resolve.
 *   race_topo_config(o, cfg)    after race_opts_engine_config: the car
 *        count, topology and every line's spec.
 *   race_topo_wide(o)           the race needs the N-car outputs (more than
 *        two cars, client-server or a comparison); two-player outputs stay
 *        as they were.
 *   race_topo_configs(o, out, max)  the configurations a comparison runs
 *        (p2p, then cs relay, then cs sync, as the lists name them): copies
 *        of o with topology and server set; returns the count (1 without a
 *        comparison).
 *   race_topo_print_params / _table / _csv  the wide forms of the outputs.
 *   race_topo_lines(o)          the --link matrix, made empty on first use
 *        (NULL: out of memory).
 *   race_topo_links_file(o, err)  the matrix of --links FILE, read on the
 *        first call and kept (each of its trace lines loads its delays
 *        file: the file is read once per replay, not once per use); NULL
 *        + err (the same on every call) when it cannot be read, NULL
 *        without --links or once race_topo_resolve took its lines.
 *   race_header_defaults(o, cmd) / race_header_lines(o, cmd)  replay's
 *        defaults from the recording's condition (o->header, raceheader.h), for what
 *        no flag gives: after race_opts_load the topology and server (not
 *        when link flags (--links, --link, --link12/21) name lines of
 *        another topology: theirs is --topology's), the clocks, Delta,
 *        T_dr, convergence and seed; after race_topo_resolve the lines of the race (two cars
 *        p2p: 1-2 / 2-1 as --link12 / --link21; a `medium` line: a note on
 *        stderr, the default link). CLI_OK or an exit code.
 *   race_topo_print_clocks(f, o)  a "clock I: OFF ms, PPM ppm" line per terminal
 *        when any terminal's clock is off the global one (else nothing).
 *   race_topo_describe(o, buf, n)  the links in one line for the window's
 *        status line: "p2p, 4 terminals: every link SPEC", "cs relay, 4
 *        terminals: up SPEC, down SPEC", else each line "1-2 SPEC; ...". */
int race_topo_flag(RaceOpts *o, int argc, char **argv, int *i, const char *cmd);
int race_topo_resolve(RaceOpts *o, const char *cmd);
LinkMatrix *race_topo_lines(RaceOpts *o);
LinkMatrix *race_topo_links_file(RaceOpts *o, NrError *err);
int race_header_defaults(RaceOpts *o, const char *cmd);
int race_header_lines(RaceOpts *o, const char *cmd);
int race_topo_resolve_cars(RaceOpts *o, const char *cmd, int ncars);
void race_topo_config(const RaceOpts *o, EngineConfig *cfg);
bool race_topo_wide(const RaceOpts *o);
int race_topo_configs(const RaceOpts *o, RaceOpts *out, int max);
/* The spec of the line from -> to (0-based terminals, LINKMATRIX_SERVER the
 * server): a --link / --links entry, else --link12 / --link21 for the p2p
 * pairs 1-2 and 2-1, else the default link. The two-player outputs name
 * the lines 1-2 and 2-1 through it. */
const LinkSpec *race_topo_line(const RaceOpts *o, int from, int to);
const char *race_topo_name(const RaceOpts *o);
void race_topo_print_clocks(FILE *f, const RaceOpts *o);
void race_topo_print_params(FILE *f, const RaceOpts *o);
void race_topo_describe(const RaceOpts *o, char *buf, size_t n);
void race_topo_print_table(FILE *f, const RunResult *r, int n, int ncars);
void race_topo_print_csv(FILE *f, const RaceOpts *o, const RunResult *r, int n);
void race_topo_csv_extra_header(FILE *f, int ncars);
void race_topo_csv_extra(FILE *f, const RaceOpts *o, const RunResult *r);
/* The sweep's varied link: every line out of terminal 1 (p2p 1-J, cs 1-s)
 * of an N-car or cs race; nothing for two cars p2p (link[0] is it). */
void race_topo_sweep_line(const RaceOpts *o, EngineConfig *cfg, const LinkSpec *spec);

/* Shared usage text of these flags, for the commands' help. */
/* RACE_OPTS_HELP: every race flag; RACE_OPTS_HELP_NO_LINK12: the same without
 * --link12, for the sweep, which varies link12 itself. */
#define RACE_OPTS_HELP                                                                          \
    "  --link12 SPEC     link from terminal 1 to 2, netem grammar (default: " RACE_DEFAULT_LINK   \
    ")\n" RACE_OPTS_HELP_NO_LINK12
#define RACE_OPTS_HELP_NO_LINK12                                                                \
    "  --link21 SPEC     link from terminal 2 to 1 (same default)\n"                            \
    "  --link-script FILE  link changes at race times: lines 'TIME_S LINE SPEC', LINE 12|21|\n" \
    "                    both|I-J|all, e.g. '10 12 delay 200ms', '5 3-s loss 100%' (docs/link.md)\n" \
    "  --delta MS        Delta of causality control in ms (default 100)\n"                      \
    "  --tdr W           DR threshold in car widths (default 0.25)\n"                           \
    "  --converge MS     DR convergence time in ms, 0 = at once (default 0)\n"                  \
    "  --schemes LIST    comma-separated scheme names or groups: 'all' (the papers' twelve),\n"     \
    "                    'racing' (the racing paper's four), 'after' (adaptive-causality,\n"    \
    "                    local-lag, group-sync, equalize), 'every' (all sixteen)\n"             \
    "  --adapt-quantile Q  the 'after' schemes' delay statistic: quantile 0..1 (default 0.95)\n" \
    "  --adapt-window N  ... of the last N arrived MUs' delays, 1..256 (default 64)\n"          \
    "  --adapt-margin MS added to the statistic (default 10)\n"                                \
    "  --adapt-min MS, --adapt-max MS  bounds of the adapted lag (default 0, 1000)\n"          \
    "  --adapt-slew X    how fast the lag moves, ms per ms, 0..1 (default 0.5)\n"              \
    "  --seed S          seed of the link emulator (default 1)\n"                               \
    "  --clock1 OFF[,PPM]  terminal 1's clock offset in ms and drift in ppm (default 0)\n"     \
    "  --clock2 OFF[,PPM]  terminal 2's clock (--clock I=OFF[,PPM]: terminal I's)\n"
#define RACE_TOPO_HELP                                                                          \
    "  --cars N          race the recording's first N cars (2 to 8; default all of them)\n"   \
    RACE_TOPO_HELP_LINES
/* The topology and line flags alone (play has its own --cars). */
#define RACE_TOPO_HELP_LINES                                                                    \
    "  --topology T      p2p (a link per ordered pair, default) or cs (through a server)\n"   \
    "  --server B        cs server: relay (forward on arrival, default) or sync (forward\n"    \
    "                    every MU to every client at generation + Delta)\n"                   \
    "  --link I-J SPEC   the line from I to J (terminals 1..N, s = the server: I-s, s-J);\n"  \
    "                    repeatable; lines not named take the default link\n"                \
    "  --links FILE      a link matrix: lines 'I-J SPEC', every line of the topology\n"       \
    "                    (docs/nplayers.md)\n"

#endif
