/* The N-car and topology options of replay and sweep, and the wide forms of
 * their outputs (docs/nplayers.md): the two-player outputs never change. */
#include "race_opts.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

LinkMatrix *race_topo_lines(RaceOpts *o)
{
    if (!o->lines) {
        o->lines = malloc(sizeof *o->lines);
        if (o->lines)
            linkmatrix_init(o->lines);
    }
    return o->lines;
}

LinkMatrix *race_topo_links_file(RaceOpts *o, NrError *err)
{
    if (o->links_path && !o->links_read) {
        o->links_read = true;
        LinkMatrix *m = malloc(sizeof *m);
        if (!m) {
            nr_error_set(&o->links_err, "out of memory");
        } else {
            linkmatrix_init(m);
            if (linkmatrix_load(m, o->links_path, &o->links_err)) {
                o->links_file = m;
            } else { /* the lines read before the bad one */
                linkmatrix_free(m);
                free(m);
            }
        }
    }
    if (!o->links_file && err)
        *err = o->links_err;
    return o->links_file;
}

/* --topology p2p|cs[,...] or --server relay|sync[,...]: a mask of the
 * values named; the first one is the race's. */
static int topo_value(RaceOpts *o, const char *flag, const char *v, const char *cmd)
{
    bool topo = strcmp(flag, "--topology") == 0;
    const char *name[2] = {topo ? "p2p" : "relay", topo ? "cs" : "sync"};
    unsigned set = 0;
    int first = -1;
    for (const char *p = v;;) {
        size_t n = strcspn(p, ",");
        int x = n == strlen(name[0]) && strncmp(p, name[0], n) == 0   ? 0
                : n == strlen(name[1]) && strncmp(p, name[1], n) == 0 ? 1
                                                                       : -1;
        if (x < 0)
            return cli_usage_error(cmd, "%s: expected %s or %s (or a comma list of them), got '%s'", flag, name[0],
                                   name[1], v),
                   RACE_FLAG_BAD;
        first = first < 0 ? x : first;
        set |= 1u << x;
        if (p[n] == '\0')
            break;
        p += n + 1;
    }
    if (topo) {
        o->topo_set = set;
        o->topology = (RouteTopology)first;
    } else {
        o->server_set = set;
        o->server = (RouteServer)first;
        o->server_given = true;
    }
    return RACE_FLAG_TAKEN;
}

int race_topo_flag(RaceOpts *o, int argc, char **argv, int *i, const char *cmd)
{
    const char *a = argv[*i], *v = NULL;
    int64_t n;
    if (cli_flag_is(a, "--cars")) {
        if (!cli_value(argc, argv, i, cmd, &v) || !cli_int(cmd, "--cars", v, 2, ENGINE_MAX_CARS, &n))
            return RACE_FLAG_BAD;
        o->cars = (int)n;
    } else if (cli_flag_is(a, "--topology") || cli_flag_is(a, "--server")) {
        const char *flag = cli_flag_is(a, "--topology") ? "--topology" : "--server";
        if (!cli_value(argc, argv, i, cmd, &v))
            return RACE_FLAG_BAD;
        return topo_value(o, flag, v, cmd);
    } else if (cli_flag_is(a, "--links")) {
        if (!cli_value(argc, argv, i, cmd, &v))
            return RACE_FLAG_BAD;
        o->links_path = v;
    } else if (strcmp(a, "--link") == 0) {
        if (*i + 2 >= argc)
            return cli_usage_error(cmd, "--link: expected I-J SPEC (e.g. --link 1-3 'delay 75ms')"), RACE_FLAG_BAD;
        NrError err = {{0}};
        LinkMatrix *m = race_topo_lines(o);
        if (!m)
            return cli_fail(cmd, "out of memory"), RACE_FLAG_BAD;
        if (!linkmatrix_set(m, argv[*i + 1], argv[*i + 2], "--link", &err))
            return cli_usage_error(cmd, "%s", err.msg), RACE_FLAG_BAD;
        *i += 2;
    } else {
        return RACE_FLAG_NOT_MINE;
    }
    return RACE_FLAG_TAKEN;
}

/* The topologies of the race (or of the comparison). */
static unsigned topo_mask(const RaceOpts *o)
{
    return o->topo_set ? o->topo_set : 1u << o->topology;
}

/* The link matrix: the file's lines (every line of the topology), then the
 * --link flags over them. */
static int resolve_lines(RaceOpts *o, const char *cmd)
{
    NrError err = {{0}};
    if (o->links_path) {
        LinkMatrix *file = race_topo_links_file(o, &err); /* read once: replay's header defaults read it first */
        if (!file || !linkmatrix_check(file, o->ncars, topo_mask(o), true, &err))
            return cli_fail(cmd, "%s%s%s", strncmp(err.msg, o->links_path, strlen(o->links_path)) ? o->links_path : "",
                            strncmp(err.msg, o->links_path, strlen(o->links_path)) ? ": " : "", err.msg);
        LinkMatrix *m = race_topo_lines(o);
        for (int i = 0; m && i < LINKMATRIX_NODES; i++)
            for (int j = 0; j < LINKMATRIX_NODES; j++)
                if (file->set[i][j] && !m->set[i][j]) { /* a flag wins over the file */
                    m->spec[i][j] = file->spec[i][j];
                    m->set[i][j] = true;
                    file->set[i][j] = false;
                    memcpy(m->where[i][j], file->where[i][j], sizeof m->where[i][j]);
                }
        linkmatrix_free(file); /* its lines taken: race_topo_links_file has no more to give */
        free(file);
        o->links_file = NULL;
        if (!m)
            return cli_fail(cmd, "out of memory");
    }
    if (o->lines && !linkmatrix_check(o->lines, o->ncars, topo_mask(o), false, &err))
        return strncmp(err.msg, "--link", 6) == 0 ? cli_usage_error(cmd, "%s", err.msg) : cli_fail(cmd, "%s", err.msg);
    return CLI_OK;
}

static int resolve_cars(RaceOpts *o, const char *cmd, int ncars);

/* The answer of the first resolve, kept: a second would find the links
 * file's lines taken (and the cars' progress made). */
static int resolved(RaceOpts *o, int rc)
{
    o->topo_resolved = true;
    o->topo_rc = rc;
    return rc;
}

static int resolve_recording(RaceOpts *o, const char *cmd)
{
    if (o->cars > o->rec.ncars)
        return cli_usage_error(cmd, "--cars %d: %s has %d cars", o->cars, o->recording, o->rec.ncars);
    if (!o->cars && o->rec.ncars > ENGINE_MAX_CARS)
        return cli_usage_error(cmd, "%s has %d cars: race at most %d of them with --cars", o->recording,
                               o->rec.ncars, ENGINE_MAX_CARS);
    int rc = resolve_cars(o, cmd, o->cars ? o->cars : o->rec.ncars);
    if (rc != CLI_OK)
        return rc;
    for (int c = 2; c < o->ncars; c++) {
        o->progress[c] = malloc(sizeof(double) * (size_t)o->rec.nsamples);
        if (!o->progress[c] || !recording_progress(&o->rec, o->track, c, o->progress[c]))
            return cli_fail(cmd, "%s: cannot compute car %d's progress", o->recording, c + 1);
    }
    return CLI_OK;
}

int race_topo_resolve(RaceOpts *o, const char *cmd)
{
    return o->topo_resolved ? o->topo_rc : resolved(o, resolve_recording(o, cmd));
}

int race_topo_resolve_cars(RaceOpts *o, const char *cmd, int ncars)
{
    return o->topo_resolved ? o->topo_rc : resolved(o, resolve_cars(o, cmd, ncars));
}

static int resolve_cars(RaceOpts *o, const char *cmd, int ncars)
{
    o->ncars = ncars;
    if (!(topo_mask(o) & LINKMATRIX_P2P) && (o->link_given[0] || o->link_given[1]))
        return cli_usage_error(cmd, "--link12 / --link21 name p2p links: with --topology cs give --link I-s / s-J");
    if (!(topo_mask(o) & LINKMATRIX_CS) && o->server_given)
        return cli_usage_error(cmd, "--server applies to --topology cs");
    RaceOpts cfgs[3];
    o->compare = race_topo_configs(o, cfgs, 3) > 1;
    if (o->compare && !o->allow_compare)
        return cli_usage_error(cmd, "--topology / --server name one race here (lists compare them in netrace sweep)");
    int rc = race_opts_check_clocks(o, o->ncars, cmd);
    if (rc != CLI_OK)
        return rc;
    NrError err = {{0}};
    for (int t = 0; t < 2 && o->script_path; t++) /* a line the race (each compared topology) has not */
        if ((topo_mask(o) & (1u << t)) &&
            !linkscript_check(&o->script, o->script_path, o->ncars, (RouteTopology)t, &err))
            return cli_fail(cmd, "--link-script %s", err.msg);
    if (!linkspec_parse(&o->link_default, RACE_DEFAULT_LINK, NULL, &err))
        return cli_fail(cmd, "%s", err.msg);
    o->link_default_parsed = true;
    return resolve_lines(o, cmd);
}

bool race_topo_wide(const RaceOpts *o)
{
    return o->ncars > 2 || o->topology == ROUTE_CS || o->compare;
}

int race_topo_configs(const RaceOpts *o, RaceOpts *out, int max)
{
    unsigned servers = o->server_set ? o->server_set : 1u << o->server;
    int n = 0;
    for (int t = 0; t < 2; t++)
        for (int s = 0; s < 2; s++) {
            if (!(topo_mask(o) & (1u << t)) || (t == ROUTE_CS ? !(servers & (1u << s)) : s > 0) || n >= max)
                continue;
            out[n] = *o;
            out[n].topology = (RouteTopology)t;
            out[n].server = (RouteServer)(t == ROUTE_CS ? s : 0);
            n++;
        }
    return n;
}

const char *race_topo_name(const RaceOpts *o)
{
    return o->topology == ROUTE_P2P ? "p2p" : o->server == ROUTE_SYNC ? "cs sync" : "cs relay";
}

/* The spec of line from -> to: a flag or the matrix, else --link12 /
 * --link21 for the pairs 1-2 and 2-1, else the default link. */
const LinkSpec *race_topo_line(const RaceOpts *o, int from, int to)
{
    const LinkSpec *s = o->lines ? linkmatrix_get(o->lines, from, to) : NULL;
    if (s)
        return s;
    if (o->topology == ROUTE_P2P && from < 2 && to == 1 - from)
        return &o->link[from];
    return &o->link_default;
}

void race_topo_config(const RaceOpts *o, EngineConfig *cfg)
{
    cfg->ncars = o->ncars;
    cfg->topology = o->topology;
    cfg->server = o->server;
    for (int c = 2; c < o->ncars; c++) {
        cfg->progress[c] = o->progress[c];
        cfg->clock[c] = o->clock[c];
    }
    /* Two cars p2p with no pair named: the two-player links, as before. */
    if (!race_topo_wide(o) && !o->lines)
        return;
    for (int i = 0; i < o->ncars; i++) {
        cfg->link[i] = &o->link_default;
        cfg->up_link[i] = race_topo_line(o, i, LINKMATRIX_SERVER);
        cfg->down_link[i] = race_topo_line(o, LINKMATRIX_SERVER, i);
        for (int j = 0; j < o->ncars; j++)
            if (j != i)
                cfg->pair_link[i][j] = race_topo_line(o, i, j);
    }
}

/* line i of the race's lines in a fixed order: p2p (from, to) pairs, cs the
 * uplinks then the downlinks; false past the last. */
static bool nth_line(const RaceOpts *o, int i, int *from, int *to)
{
    int nc = o->ncars;
    if (o->topology == ROUTE_CS) {
        if (i >= 2 * nc)
            return false;
        *from = i < nc ? i : LINKMATRIX_SERVER;
        *to = i < nc ? LINKMATRIX_SERVER : i - nc;
        return true;
    }
    if (i >= nc * (nc - 1))
        return false;
    *from = i / (nc - 1);
    *to = i % (nc - 1);
    *to += *to >= *from;
    return true;
}

void race_topo_describe(const RaceOpts *o, char *buf, size_t n)
{
    int from, to, len = snprintf(buf, n, "%s, %d terminals: ",
                                 o->topology == ROUTE_P2P ? "p2p" : o->server == ROUTE_SYNC ? "cs sync" : "cs relay",
                                 o->ncars);
    bool same_up = true, same_down = true; /* one spec on every line (cs: every uplink, every downlink) */
    const char *up = race_topo_line(o, 0, o->topology == ROUTE_CS ? LINKMATRIX_SERVER : 1)->text, *down = up;
    if (o->topology == ROUTE_CS)
        down = race_topo_line(o, LINKMATRIX_SERVER, 0)->text;
    for (int i = 0; nth_line(o, i, &from, &to); i++) {
        const char *t = race_topo_line(o, from, to)->text;
        if (to == LINKMATRIX_SERVER || o->topology == ROUTE_P2P)
            same_up &= strcmp(t, up) == 0;
        else
            same_down &= strcmp(t, down) == 0;
    }
    if (len < 0 || (size_t)len >= n)
        return;
    if (same_up && same_down && o->topology == ROUTE_P2P) {
        snprintf(buf + len, n - (size_t)len, "every link %s", up[0] ? up : "no delay");
        return;
    }
    if (same_up && same_down) {
        snprintf(buf + len, n - (size_t)len, "up %s, down %s", up[0] ? up : "no delay", down[0] ? down : "no delay");
        return;
    }
    for (int i = 0; nth_line(o, i, &from, &to) && (size_t)len < n; i++) {
        const char *t = race_topo_line(o, from, to)->text;
        char a[4], b[4];
        snprintf(a, sizeof a, from == LINKMATRIX_SERVER ? "s" : "%d", from + 1);
        snprintf(b, sizeof b, to == LINKMATRIX_SERVER ? "s" : "%d", to + 1);
        int m = snprintf(buf + len, n - (size_t)len, "%s%s-%s %s", i ? "; " : "", a, b, t[0] ? t : "no delay");
        if (m < 0)
            return;
        len += m;
    }
}

void race_topo_print_clocks(FILE *f, const RaceOpts *o)
{
    bool any = false;
    for (int i = 0; i < o->ncars; i++)
        any |= o->clock[i].offset_us != 0 || o->clock[i].drift_ppm != 0;
    if (!any)
        return; /* every clock on the global one: the lines as they were */
    for (int i = 0; i < o->ncars; i++)
        fprintf(f, "clock %d: %+.3f ms, %+.3f ppm\n", i + 1, (double)o->clock[i].offset_us / 1000.0,
                o->clock[i].drift_ppm);
}

void race_topo_print_params(FILE *f, const RaceOpts *o)
{
    fprintf(f, "topology: %s, %d terminals%s\n", o->topology == ROUTE_P2P ? "p2p" : "cs", o->ncars,
            o->topology == ROUTE_P2P ? "" : o->server == ROUTE_SYNC ? ", server sync" : ", server relay");
    for (int i = 0; i < o->ncars; i++) {
        if (o->topology == ROUTE_CS) {
            fprintf(f, "link %d-s: %s\nlink s-%d: %s\n", i + 1, race_topo_line(o, i, LINKMATRIX_SERVER)->text, i + 1,
                    race_topo_line(o, LINKMATRIX_SERVER, i)->text);
            continue;
        }
        for (int j = 0; j < o->ncars; j++)
            if (j != i)
                fprintf(f, "link %d-%d: %s\n", i + 1, j + 1, race_topo_line(o, i, j)->text);
    }
    race_topo_print_clocks(f, o);
    race_print_script(f, o);
    fprintf(f, "delta %.0f ms, T_dr %.3g cw, seed %" PRIu64 "\n\n", (double)o->params.delta_us / 1000.0,
            o->params.tdr_cw, o->seed);
}

/* Counters summed over every sending terminal. */
static DirCounters total(const RunResult *r)
{
    DirCounters t = {0};
    for (int d = 0; d < r->ncars; d++) {
        t.sent += r->dir[d].sent;
        t.lost += r->dir[d].lost;
        t.late += r->dir[d].late;
        t.discarded += r->dir[d].discarded;
    }
    return t;
}

void race_topo_print_table(FILE *f, const RunResult *r, int n, int ncars)
{
    int w = race_name_width(r, n);
    fprintf(f, "%-*s %8s %8s %7s", w, "scheme", "incons", "pairs", "spread");
    for (int c = 0; c < ncars; c++)
        fprintf(f, "  dis%-4d", c + 1);
    fprintf(f, " %7s %7s %7s %7s\n", "sent", "lost", "late", "disc");
    for (int k = 0; k < n; k++) {
        fprintf(f, "%-*s %8.4f %8.4f %7.3f", w, r[k].scheme->name, r[k].inconsistency_rate, r[k].pair_rate,
                r[k].spread);
        for (int c = 0; c < ncars; c++)
            fprintf(f, " %7.3f", nr_unsigned_zero(r[k].disadvantage[c], 3));
        DirCounters t = total(&r[k]);
        fprintf(f, " %7" PRId64 " %7" PRId64 " %7" PRId64 " %7" PRId64 "\n", t.sent, t.lost, t.late, t.discarded);
    }
}

void race_topo_csv_extra_header(FILE *f, int ncars)
{
    fputs(",ncars,topology,server,pair_rate,spread", f);
    for (int c = 0; c < ncars; c++)
        fprintf(f, ",disadvantage_%d", c + 1);
}

void race_topo_csv_extra(FILE *f, const RaceOpts *o, const RunResult *r)
{
    fprintf(f, ",%d,%s,%s,%.6f,%.6f", o->ncars, o->topology == ROUTE_P2P ? "p2p" : "cs",
            o->topology == ROUTE_P2P ? "none" : o->server == ROUTE_SYNC ? "sync" : "relay", r->pair_rate, r->spread);
    for (int c = 0; c < o->ncars; c++)
        fprintf(f, ",%.6f", r->disadvantage[c]);
}

void race_topo_sweep_line(const RaceOpts *o, EngineConfig *cfg, const LinkSpec *spec)
{
    if (!race_topo_wide(o) && !o->lines)
        return; /* the two-player link12 the sweep already set */
    for (int j = 1; j < o->ncars; j++)
        cfg->pair_link[0][j] = spec;
    cfg->up_link[0] = spec;
}
