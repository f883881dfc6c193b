/* A race's condition in a recording's header: topology, link matrix,
 * clocks; read and written (raceheader.h). */
#include "raceheader.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Precedence of the keys naming a line (raceheader.h). */
enum { RANK_OUT = 1, RANK_TWO = 2, RANK_LINE = 3 };

static bool bad(NrError *err, const char *path, const RecMeta *m, const char *what)
{
    return nr_error_set(err, "%s:%d: %s '%.60s': %s", path, m->line, m->key, m->value, what);
}

/* A key of a line's shape, "link_A_B" (A, B without '_'): 1 when it names
 * one (0-based nodes in from, to), -1 when it does not (link_9_1, link_2_2),
 * 0 for a key of another shape (not the matrix's: ignored). */
static int line_key(const char *key, int *from, int *to)
{
    char pair[RECORDING_META_KEY];
    if (strncmp(key, "link_", 5) != 0 || strncmp(key, "link_out_", 9) == 0)
        return 0;
    snprintf(pair, sizeof pair, "%s", key + 5);
    char *u = strchr(pair, '_');
    if (!u || u == pair || !u[1] || strchr(u + 1, '_'))
        return 0;
    *u = '-';
    return linkmatrix_pair(pair, from, to) ? 1 : -1;
}

static bool parse_topology(RaceHeader *h, const RecMeta *m, const char *path, NrError *err)
{
    const char *v = m->value;
    if (strcmp(v, "p2p") != 0 && strcmp(v, "cs relay") != 0 && strcmp(v, "cs sync") != 0)
        return bad(err, path, m, "expected p2p, cs relay or cs sync");
    h->have_topology = true;
    h->topology = v[0] == 'p' ? ROUTE_P2P : ROUTE_CS;
    h->server = strcmp(v, "cs sync") == 0 ? ROUTE_SYNC : ROUTE_RELAY;
    return true;
}

static bool parse_clock(RaceHeader *h, const RecMeta *m, int ncars, const char *path, NrError *err)
{
    int64_t t;
    if (!nr_parse_int64(m->key + 6, &t) || t < 1 || t > ncars || t > ENGINE_MAX_CARS)
        return bad(err, path, m, "no such terminal in this recording");
    if (!terminal_clock_parse(m->value, &h->clock[t - 1]))
        return bad(err, path, m, "expected OFFSET_MS[,DRIFT_PPM] (|offset| at most 10^6 ms, |drift| 10^5 ppm)");
    h->clock_set |= 1u << (t - 1);
    return true;
}

/* One line's spec from key m at the given rank, unless a key of a higher
 * rank gave it. */
static bool put_line(RaceHeader *h, int rank[LINKMATRIX_NODES][LINKMATRIX_NODES], int from, int to, int r,
                     const RecMeta *m, const char *path, NrError *err)
{
    if (rank[from][to] >= r)
        return true;
    rank[from][to] = r;
    if (h->lines.set[from][to])
        linkspec_free(&h->lines.spec[from][to]);
    h->lines.set[from][to] = false;
    h->medium[from][to] = strcmp(m->value, "medium") == 0;
    if (h->medium[from][to])
        return true;
    LinkSpec s;
    memset(&s, 0, sizeof s);
    NrError se = {{0}};
    if (!linkspec_parse(&s, m->value, NULL, &se)) {
        linkspec_free(&s);
        return bad(err, path, m, se.msg);
    }
    h->lines.spec[from][to] = s;
    h->lines.set[from][to] = true;
    snprintf(h->lines.where[from][to], sizeof h->lines.where[from][to], "line %d: %s", m->line, m->key);
    return true;
}

/* A key of the link family: its lines, checked against the cars and the
 * topology. Returns false + err on a bad one; true (nothing done) for a
 * key of no line. */
static bool parse_link(RaceHeader *h, int rank[LINKMATRIX_NODES][LINKMATRIX_NODES], const RecMeta *m, int ncars,
                       const char *path, NrError *err)
{
    bool cs = h->have_topology && h->topology == ROUTE_CS;
    int from, to;
    int64_t n;
    if (strcmp(m->key, "link12") == 0 || strcmp(m->key, "link21") == 0) {
        if (cs) /* the first client-server recordings wrote no such key */
            return bad(err, path, m, "a p2p line in a client-server race");
        from = m->key[4] - '1';
        return ncars < 2 ? bad(err, path, m, "no such line in this recording")
                         : put_line(h, rank, from, 1 - from, RANK_TWO, m, path, err);
    }
    if (strncmp(m->key, "link_out_", 9) == 0) {
        if (!nr_parse_int64(m->key + 9, &n) || n < 1 || n > ncars || n > ENGINE_MAX_CARS)
            return bad(err, path, m, "no such terminal in this recording");
        if (cs)
            return put_line(h, rank, (int)n - 1, LINKMATRIX_SERVER, RANK_OUT, m, path, err);
        for (int j = 0; j < ncars && j < ENGINE_MAX_CARS; j++)
            if (j != n - 1 && !put_line(h, rank, (int)n - 1, j, RANK_OUT, m, path, err))
                return false;
        return true;
    }
    int k = line_key(m->key, &from, &to);
    if (k <= 0)
        return k == 0 || bad(err, path, m, "expected link_I_J, link_I_s or link_s_I (I, J 1 to 8, I != J)");
    if ((from != LINKMATRIX_SERVER && from >= ncars) || (to != LINKMATRIX_SERVER && to >= ncars))
        return bad(err, path, m, "no such terminal in this recording");
    if (cs != (from == LINKMATRIX_SERVER || to == LINKMATRIX_SERVER))
        return bad(err, path, m, cs ? "a p2p line in a client-server race" : "a server's line in a p2p race");
    return put_line(h, rank, from, to, RANK_LINE, m, path, err);
}

/* delta_ms, tdr_cw, converge_ms, seed: true (nothing done) for another key. */
static bool parse_param(RaceHeader *h, const RecMeta *m, const char *path, NrError *err)
{
    const char *v = m->value;
    int64_t n;
    double d;
    if (strcmp(m->key, "delta_ms") == 0) {
        if (!nr_parse_int64(v, &n) || n < 0 || n > SCHEME_DELTA_MAX_US / NR_US_PER_MS)
            return bad(err, path, m, "expected a whole number of ms, 0 to 4000");
        h->delta_us = n * NR_US_PER_MS;
        h->params |= RACEHEADER_DELTA;
    } else if (strcmp(m->key, "tdr_cw") == 0) {
        if (!nr_parse_double(v, &d) || !(d >= 0.0 && d <= 1000.0))
            return bad(err, path, m, "expected car widths, 0 to 1000");
        h->tdr_cw = d;
        h->params |= RACEHEADER_TDR;
    } else if (strcmp(m->key, "converge_ms") == 0) {
        if (!nr_parse_int64(v, &n) || n < 0 || n > 10000)
            return bad(err, path, m, "expected a whole number of ms, 0 to 10000");
        h->converge_us = n * NR_US_PER_MS;
        h->params |= RACEHEADER_CONVERGE;
    } else if (strcmp(m->key, "seed") == 0) {
        char *end = NULL;
        unsigned long long s = v[0] >= '0' && v[0] <= '9' && strlen(v) <= 20 ? strtoull(v, &end, 10) : 0;
        if (!end || *end || (strlen(v) == 20 && strcmp(v, "18446744073709551615") > 0))
            return bad(err, path, m, "expected a non-negative whole number");
        h->seed = (uint64_t)s;
        h->params |= RACEHEADER_SEED;
    }
    return true;
}

bool raceheader_read(RaceHeader *h, const Recording *rec, const char *path, NrError *err)
{
    memset(h, 0, sizeof *h);
    linkmatrix_init(&h->lines);
    int rank[LINKMATRIX_NODES][LINKMATRIX_NODES];
    memset(rank, 0, sizeof rank);
    for (int i = 0; i < rec->nmeta; i++) /* the topology first: it says which lines there are */
        if (strcmp(rec->meta[i].key, "topology") == 0 && !parse_topology(h, &rec->meta[i], path, err))
            return false;
    for (int i = 0; i < rec->nmeta; i++) {
        const RecMeta *m = &rec->meta[i];
        if (strncmp(m->key, "clock_", 6) == 0 && strspn(m->key + 6, "0123456789") == strlen(m->key + 6) &&
            m->key[6]) {
            if (!parse_clock(h, m, rec->ncars, path, err))
                return false;
        } else if (strncmp(m->key, "link", 4) == 0 && !parse_link(h, rank, m, rec->ncars, path, err)) {
            return false;
        } else if (!parse_param(h, m, path, err)) {
            return false;
        }
    }
    return true;
}

void raceheader_free(RaceHeader *h)
{
    if (h)
        linkmatrix_free(&h->lines);
}

/* The spec text of a line as the engine resolves it (engine.h); "none"
 * without delay, "medium" for a medium of the caller's. */
static const char *line_text(const EngineConfig *ec, int from, int to)
{
    const LinkSpec *l;
    if (to == LINKMATRIX_SERVER)
        l = ec->up_link[from] ? ec->up_link[from] : ec->link[from];
    else if (from == LINKMATRIX_SERVER)
        l = ec->down_link[to];
    else if (ec->medium[from])
        return "medium";
    else
        l = ec->pair_link[from][to] ? ec->pair_link[from][to] : ec->link[from];
    return l && l->text[0] ? l->text : "none";
}

static bool add_line(Recording *meta, const EngineConfig *ec, int from, int to)
{
    char key[RECORDING_META_KEY], a[4], b[4];
    snprintf(a, sizeof a, from == LINKMATRIX_SERVER ? "s" : "%d", from + 1);
    snprintf(b, sizeof b, to == LINKMATRIX_SERVER ? "s" : "%d", to + 1);
    snprintf(key, sizeof key, "link_%s_%s", a, b);
    return recording_meta_add(meta, key, line_text(ec, from, to));
}

bool raceheader_add(Recording *meta, const EngineConfig *ec)
{
    int n = ec->ncars > 2 ? ec->ncars : 2;
    bool cs = ec->topology == ROUTE_CS, ok = true;
    if (n > 2 || cs)
        ok = recording_meta_add(meta, "topology", !cs ? "p2p" : ec->server == ROUTE_SYNC ? "cs sync" : "cs relay");
    for (int i = 0; i < n; i++) {
        if (cs) {
            ok = add_line(meta, ec, i, LINKMATRIX_SERVER) && add_line(meta, ec, LINKMATRIX_SERVER, i) && ok;
            continue;
        }
        for (int j = 0; j < n; j++)
            if (j != i)
                ok = (n == 2 ? recording_meta_add(meta, i ? "link21" : "link12", line_text(ec, i, j))
                             : add_line(meta, ec, i, j)) && ok;
    }
    bool any = false;
    for (int i = 0; i < n; i++)
        any |= ec->clock[i].offset_us != 0 || ec->clock[i].drift_ppm != 0;
    for (int i = 0; i < n && any; i++) {
        char key[RECORDING_META_KEY], off[40], ppm[40], v[96];
        nr_format_double(off, sizeof off, (double)ec->clock[i].offset_us / 1000.0);
        nr_format_double(ppm, sizeof ppm, ec->clock[i].drift_ppm);
        snprintf(key, sizeof key, "clock_%d", i + 1);
        snprintf(v, sizeof v, "%s,%s", off, ppm);
        ok = recording_meta_add(meta, key, v) && ok;
    }
    return ok;
}
