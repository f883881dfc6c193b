/* Per-line link specs of an N-car race, from flags or a file (linkmatrix.h). */
#include "linkmatrix.h"
#include "nr_file.h"

#include <stdio.h>
#include <string.h>

void linkmatrix_init(LinkMatrix *m)
{
    memset(m, 0, sizeof *m);
}

void linkmatrix_free(LinkMatrix *m)
{
    if (!m)
        return;
    for (int i = 0; i < LINKMATRIX_NODES; i++)
        for (int j = 0; j < LINKMATRIX_NODES; j++)
            if (m->set[i][j])
                linkspec_free(&m->spec[i][j]);
    memset(m->set, 0, sizeof m->set);
}

/* "1".."8" -> 0..7, "s" -> the server; -1 otherwise. */
static int node_of(const char *s, size_t n)
{
    if (n == 1 && (s[0] == 's' || s[0] == 'S'))
        return LINKMATRIX_SERVER;
    if (n == 1 && s[0] >= '1' && s[0] <= '0' + ROUTE_MAX_CARS)
        return s[0] - '1';
    return -1;
}

bool linkmatrix_pair(const char *pair, int *from, int *to)
{
    const char *dash = strchr(pair, '-');
    *from = dash ? node_of(pair, (size_t)(dash - pair)) : -1;
    *to = dash ? node_of(dash + 1, strlen(dash + 1)) : -1;
    return *from >= 0 && *to >= 0 && *from != *to;
}

/* linkmatrix_set, its delays files read through files (NULL: each alone). */
static bool matrix_set(LinkMatrix *m, const char *pair, const char *spec, const char *where, LinkTraceFiles *files,
                       NrError *err)
{
    int from, to;
    if (!linkmatrix_pair(pair, &from, &to))
        return nr_error_set(err, "%s: link '%.40s': expected I-J, two different terminals 1 to %d or s (the server)",
                            where, pair, ROUTE_MAX_CARS);
    LinkSpec s;
    memset(&s, 0, sizeof s);
    NrError se = {{0}};
    if (!linkspec_parse_files(&s, spec, NULL, files, &se)) {
        linkspec_free(&s);
        return nr_error_set(err, "%s: link %s: %s", where, pair, se.msg);
    }
    if (m->set[from][to])
        linkspec_free(&m->spec[from][to]);
    m->spec[from][to] = s;
    m->set[from][to] = true;
    snprintf(m->where[from][to], sizeof m->where[from][to], "%s", where);
    return true;
}

bool linkmatrix_set(LinkMatrix *m, const char *pair, const char *spec, const char *where, NrError *err)
{
    return matrix_set(m, pair, spec, where, NULL, err);
}

/* One line of a file: blank, a comment, or `I-J SPEC`. */
static bool load_line(LinkMatrix *m, char *buf, const char *path, int line, LinkTraceFiles *files, NrError *err)
{
    char *hash = strchr(buf, '#');
    if (hash)
        *hash = '\0';
    char *p = nr_trim(buf);
    if (*p == '\0')
        return true;
    char *sp = p + strcspn(p, " \t");
    if (*sp == '\0')
        return nr_error_set(err, "%s:%d: expected 'I-J SPEC' (e.g. '1-3 delay 75ms 10ms')", path, line);
    *sp++ = '\0';
    char where[64];
    snprintf(where, sizeof where, "%.40s:%d", path, line);
    int from, to;
    if (linkmatrix_pair(p, &from, &to) && m->set[from][to])
        return nr_error_set(err, "%s: link %s given twice (also %s)", where, p, m->where[from][to]);
    return matrix_set(m, p, nr_trim(sp), where, files, err);
}

bool linkmatrix_load(LinkMatrix *m, const char *path, NrError *err)
{
    FILE *f = nr_file_open(path, "a link matrix", err);
    if (!f)
        return false;
    char buf[NR_LINE_MAX];
    size_t len;
    int line = 0;
    bool ok = true;
    NrLine r;
    LinkTraceFiles files = {0}; /* a merged race's lines name one delays file: read once */
    while (ok && (r = nr_line_read(f, buf, sizeof buf, &len)) != NR_LINE_EOF) {
        line++;
        if (r != NR_LINE_OK)
            ok = nr_error_set(err, "%s:%d: %s", path, line,
                              r == NR_LINE_LONG ? "line too long" : r == NR_LINE_NUL ? "NUL byte: not a link matrix"
                                                                                      : "read error");
        else
            ok = load_line(m, buf, path, line, &files, err);
    }
    linktrace_files_free(&files);
    fclose(f);
    return ok;
}

static bool is_line(int i, int j, int ncars, unsigned topologies)
{
    bool ci = i < ncars, cj = j < ncars;
    if ((topologies & LINKMATRIX_P2P) && ci && cj && i != j)
        return true;
    return (topologies & LINKMATRIX_CS) && ((ci && j == LINKMATRIX_SERVER) || (i == LINKMATRIX_SERVER && cj));
}

static const char *lines_of_name(unsigned topologies)
{
    return topologies == LINKMATRIX_P2P ? "p2p: I-J" : topologies == LINKMATRIX_CS ? "cs: I-s and s-J"
                                                                                   : "p2p I-J and cs I-s, s-J";
}

static void node_name(int i, char *buf)
{
    if (i == LINKMATRIX_SERVER)
        strcpy(buf, "s");
    else
        snprintf(buf, 4, "%d", i + 1);
}

bool linkmatrix_check(const LinkMatrix *m, int ncars, unsigned topologies, bool complete, NrError *err)
{
    char a[4], b[4];
    for (int i = 0; i < LINKMATRIX_NODES; i++)
        for (int j = 0; j < LINKMATRIX_NODES; j++) {
            node_name(i, a);
            node_name(j, b);
            if (m->set[i][j] && !is_line(i, j, ncars, topologies))
                return nr_error_set(err, "%s: link %s-%s is not a line of this race (%d terminals, %s)", m->where[i][j],
                                    a, b, ncars, lines_of_name(topologies));
            int named = m->set[i][j] && m->spec[i][j].trace.on ? m->spec[i][j].trace.named : 0;
            if (named / 10 == LINK_TRACE_SERVER && (i != LINKMATRIX_SERVER || named % 10 != j + 1))
                return nr_error_set(err, "%s: link %s-%s: direction s%d names the downlink s-%d (each sender I "
                                    "takes its rows Is%d there): give it on line s-%d", m->where[i][j], a, b,
                                    named % 10, named % 10, named % 10, named % 10);
            if (complete && !m->set[i][j] && is_line(i, j, ncars, topologies))
                return nr_error_set(err, "link %s-%s is missing (the matrix gives every line of %d terminals, %s)", a,
                                    b, ncars, lines_of_name(topologies));
        }
    return true;
}

const LinkSpec *linkmatrix_get(const LinkMatrix *m, int from, int to)
{
    if (from < 0 || from >= LINKMATRIX_NODES || to < 0 || to >= LINKMATRIX_NODES || !m->set[from][to])
        return NULL;
    return &m->spec[from][to];
}
