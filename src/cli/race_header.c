/* replay's defaults from the recording's own condition (raceheader.h):
 * what no flag gives, the header does: topology and server, each
 * terminal's clock, each line's spec (docs/formats.md, docs/nplayers.md). */
#include "race_opts.h"
#include "raceheader.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

/* The topologies the link flags name (LINKMATRIX_P2P / _CS bits): --link12
 * / --link21, the --link entries, the lines of --links FILE (read here
 * first, kept for race_topo_resolve; unreadable: it names no lines, and
 * race_topo_resolve says why). */
static unsigned flag_kinds(RaceOpts *o)
{
    unsigned k = o->link_given[0] || o->link_given[1] ? LINKMATRIX_P2P : 0;
    const LinkMatrix *ms[2] = {o->lines, race_topo_links_file(o, NULL)};
    for (int m = 0; m < 2; m++)
        for (int i = 0; ms[m] && i < LINKMATRIX_NODES; i++)
            for (int j = 0; j < LINKMATRIX_NODES; j++)
                if (ms[m]->set[i][j])
                    k |= i == LINKMATRIX_SERVER || j == LINKMATRIX_SERVER ? LINKMATRIX_CS : LINKMATRIX_P2P;
    return k;
}

int race_header_defaults(RaceOpts *o, const char *cmd)
{
    const RaceHeader *h = o->header; /* parsed as race_opts_load loaded the recording */
    assert(h);
    /* links on the command line of another topology than the header's
     * describe a race of theirs: --topology's (p2p without), as a merged
     * served race's --links of end-to-end measured delays want */
    unsigned k = flag_kinds(o), theirs = h->topology == ROUTE_CS ? LINKMATRIX_CS : LINKMATRIX_P2P;
    if (h->have_topology && !o->topo_set && (k == 0 || k == theirs)) {
        o->topology = h->topology;
        if (!o->server_set)
            o->server = h->server;
    }
    for (int t = 0; t < ENGINE_MAX_CARS; t++)
        if ((h->clock_set & (1u << t)) && !(o->clock_given & (1u << t)))
            o->clock[t] = h->clock[t];
    unsigned take = h->params & ~o->params_given; /* Delta, T_dr, convergence, seed */
    if (take & RACEHEADER_DELTA)
        o->params.delta_us = h->delta_us;
    if (take & RACEHEADER_TDR)
        o->params.tdr_cw = h->tdr_cw;
    if (take & RACEHEADER_CONVERGE)
        o->params.converge_us = h->converge_us;
    if (take & RACEHEADER_SEED)
        o->seed = h->seed;
    return race_opts_check_delta(o, cmd);
}

/* Whether the race (its cars, its topology) has the line from -> to. */
static bool race_has_line(const RaceOpts *o, int from, int to)
{
    bool s_from = from == LINKMATRIX_SERVER, s_to = to == LINKMATRIX_SERVER;
    if ((!s_from && from >= o->ncars) || (!s_to && to >= o->ncars))
        return false;
    return o->topology == ROUTE_CS ? s_from != s_to : !s_from && !s_to;
}

/* One header line into the race, unless a flag or --links gave it: lines
 * 1-2 and 2-1 of two cars p2p as --link12 / --link21 (the two-player
 * runs), every other into the matrix (the spec moves: h gives it up). */
static bool take_line(RaceOpts *o, RaceHeader *h, int i, int j)
{
    if (o->lines && o->lines->set[i][j])
        return true;
    if (!race_topo_wide(o) && i < 2 && j == 1 - i) {
        if (o->link_given[i])
            return true;
        linkspec_free(&o->link[i]);
        o->link[i] = h->lines.spec[i][j];
        h->lines.set[i][j] = false;
        return true;
    }
    LinkMatrix *m = race_topo_lines(o);
    if (!m)
        return false;
    m->spec[i][j] = h->lines.spec[i][j];
    m->set[i][j] = true;
    memcpy(m->where[i][j], h->lines.where[i][j], sizeof m->where[i][j]);
    h->lines.set[i][j] = false;
    return true;
}

int race_header_lines(RaceOpts *o, const char *cmd)
{
    RaceHeader *h = o->header; /* its lines move into the race as they are taken */
    assert(h);
    bool ok = true;
    for (int i = 0; i < LINKMATRIX_NODES && ok; i++)
        for (int j = 0; j < LINKMATRIX_NODES && ok; j++) {
            if (!race_has_line(o, i, j))
                continue;
            if (h->medium[i][j])
                fprintf(stderr, "netrace %s: %s: line %d-%d ran on a medium of its own (a trace): replayed over "
                        "the default link\n", cmd, o->recording, i + 1, j + 1);
            else if (h->lines.set[i][j])
                ok = take_line(o, h, i, j);
        }
    return ok ? CLI_OK : cli_fail(cmd, "out of memory");
}
