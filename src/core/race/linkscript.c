/* Scripted link changes: parse `TIME_S DIRECTION SPEC` lines, apply them to
 * an engine at their race times (see linkscript.h). */
#include "linkscript.h"
#include "linkmatrix.h"
#include "nr_file.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINKSCRIPT_T_MAX_S 86400.0 /* a day: longer than any race */

void linkscript_free(LinkScript *ls)
{
    if (!ls)
        return;
    for (int i = 0; i < ls->n; i++)
        linkspec_free(&ls->ch[i].spec);
    free(ls->ch);
    ls->ch = NULL;
    ls->n = 0;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* One line (NUL-terminated, comment already cut): blank, or one change. */
static bool parse_line(LinkScript *ls, char *p, const char *name, int line, const char *table_dir, NrError *err)
{
    while (is_blank(*p))
        p++;
    if (*p == '\0')
        return true;
    char *tok = p;
    while (*p && !is_blank(*p))
        p++;
    if (*p)
        *p++ = '\0';
    double t;
    if (!nr_parse_double(tok, &t) || t < 0 || t > LINKSCRIPT_T_MAX_S)
        return nr_error_set(err, "%s:%d: time '%.40s': expected seconds from the race start (0 .. %.0f)", name, line,
                            tok, LINKSCRIPT_T_MAX_S);
    int64_t t_us = (int64_t)llround(t * 1e6);
    if (ls->n > 0 && t_us < ls->ch[ls->n - 1].t_us)
        return nr_error_set(err, "%s:%d: time %g s is before the previous change (%g s, line %d): keep the lines in time order",
                            name, line, t, (double)ls->ch[ls->n - 1].t_us / 1e6, ls->ch[ls->n - 1].line);
    while (is_blank(*p))
        p++;
    tok = p;
    while (*p && !is_blank(*p))
        p++;
    if (*p)
        *p++ = '\0';
    int dir, from = 0, to = 1;
    if (strcmp(tok, "12") == 0)
        dir = 0;
    else if (strcmp(tok, "21") == 0)
        dir = 1, from = 1, to = 0;
    else if (strcmp(tok, "both") == 0)
        dir = LINKSCRIPT_BOTH;
    else if (strcmp(tok, "all") == 0)
        dir = LINKSCRIPT_ALL;
    else if (linkmatrix_pair(tok, &from, &to))
        dir = LINKSCRIPT_LINE;
    else
        return nr_error_set(err, "%s:%d: line '%.40s': expected 12, 21, both, I-J (terminals 1 to %d, s the "
                                 "server) or all",
                            name, line, tok, ROUTE_MAX_CARS);
    while (is_blank(*p))
        p++;
    size_t len = strlen(p);
    while (len > 0 && is_blank(p[len - 1]))
        p[--len] = '\0';
    if (len == 0)
        return nr_error_set(err, "%s:%d: a link spec is missing after the direction (e.g. 'delay 200ms 30ms', "
                                 "'loss 100%%', 'none')", name, line);
    if (ls->n >= LINKSCRIPT_MAX)
        return nr_error_set(err, "%s:%d: more than %d changes", name, line, LINKSCRIPT_MAX);
    LinkChange *c = &ls->ch[ls->n];
    memset(c, 0, sizeof *c);
    NrError se = {{0}};
    if (!linkspec_parse(&c->spec, p, table_dir, &se)) {
        linkspec_free(&c->spec);
        return nr_error_set(err, "%s:%d: link spec: %s", name, line, se.msg);
    }
    c->t_us = t_us;
    c->dir = dir;
    c->from = from;
    c->to = to;
    c->line = line;
    ls->n++;
    return true;
}

bool linkscript_parse(LinkScript *ls, const char *text, const char *name, const char *table_dir, NrError *err)
{
    memset(ls, 0, sizeof *ls);
    /* at most one change per line: size the array once */
    int lines = 1;
    for (const char *q = text; *q; q++)
        lines += *q == '\n';
    int cap = lines < LINKSCRIPT_MAX ? lines : LINKSCRIPT_MAX;
    ls->ch = calloc((size_t)cap + 1, sizeof *ls->ch);
    char *buf = malloc(LINKSCRIPT_LINE_MAX + 1);
    if (!ls->ch || !buf) {
        free(buf);
        linkscript_free(ls);
        return nr_error_set(err, "%s: out of memory", name);
    }
    bool ok = true;
    int line = 0;
    for (const char *q = text; ok && *q;) {
        line++;
        size_t n = strcspn(q, "\n");
        if (n > LINKSCRIPT_LINE_MAX) {
            ok = nr_error_set(err, "%s:%d: line longer than %d bytes", name, line, LINKSCRIPT_LINE_MAX);
            break;
        }
        memcpy(buf, q, n);
        buf[n] = '\0';
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        for (size_t i = 0; ok && buf[i]; i++)
            if ((unsigned char)buf[i] < 32 && buf[i] != '\t' && buf[i] != '\r')
                ok = nr_error_set(err, "%s:%d: control character (byte %d) in the line", name, line, buf[i]);
        if (ok && ls->n >= cap && buf[strspn(buf, " \t\r")] != '\0')
            ok = nr_error_set(err, "%s:%d: more than %d changes", name, line, LINKSCRIPT_MAX);
        if (ok)
            ok = parse_line(ls, buf, name, line, table_dir, err);
        q += n;
        if (*q == '\n')
            q++;
    }
    free(buf);
    if (ok && ls->n == 0)
        ok = nr_error_set(err, "%s: no link change (lines 'TIME_S DIRECTION SPEC', e.g. '10 12 delay 200ms 30ms')",
                          name);
    if (!ok)
        linkscript_free(ls);
    return ok;
}

bool linkscript_load(LinkScript *ls, const char *path, const char *table_dir, NrError *err)
{
    memset(ls, 0, sizeof *ls);
    FILE *f = nr_file_open(path, "a link script", err);
    if (!f)
        return false;
    /* a script is a few lines; a megabyte is far past any real one */
    size_t cap = 1u << 20;
    char *text = malloc(cap + 1);
    if (!text) {
        fclose(f);
        return nr_error_set(err, "%s: out of memory", path);
    }
    size_t got = fread(text, 1, cap + 1, f);
    bool rd_err = ferror(f) != 0;
    fclose(f);
    bool ok = true;
    if (rd_err)
        ok = nr_error_set(err, "%s: read error", path);
    else if (got > cap)
        ok = nr_error_set(err, "%s: larger than %zu bytes: not a link script", path, cap);
    else if (memchr(text, '\0', got))
        ok = nr_error_set(err, "%s: binary data (NUL byte): not a link script", path);
    if (ok) {
        text[got] = '\0';
        ok = linkscript_parse(ls, text, path, table_dir, err);
    }
    free(text);
    return ok;
}

int64_t linkscript_next_us(const LinkScript *ls, int cursor)
{
    return ls && cursor >= 0 && cursor < ls->n ? ls->ch[cursor].t_us : INT64_MAX;
}

/* A line name for messages: "3", "s". */
static const char *node_name(int node, char *buf, size_t n)
{
    if (node == ENGINE_SERVER)
        snprintf(buf, n, "s");
    else
        snprintf(buf, n, "%d", node + 1);
    return buf;
}

/* The highest terminal a line names, or -1 when the topology has no such
 * line (a cs line has the server at one end, a p2p line at neither). */
static int line_terminal(const LinkChange *c, bool cs)
{
    if (c->dir == LINKSCRIPT_ALL)
        return 0;
    if (c->dir != LINKSCRIPT_LINE)
        return cs ? -1 : 1; /* 12, 21, both: the p2p links of terminals 1 and 2 */
    bool server = c->from == ENGINE_SERVER || c->to == ENGINE_SERVER;
    if (server != cs)
        return -1;
    if (server)
        return c->from == ENGINE_SERVER ? c->to : c->from;
    return c->from > c->to ? c->from : c->to;
}

bool linkscript_check(const LinkScript *ls, const char *name, int ncars, RouteTopology topology, NrError *err)
{
    bool cs = topology == ROUTE_CS;
    for (int i = 0; ls && i < ls->n; i++) {
        const LinkChange *c = &ls->ch[i];
        int term = line_terminal(c, cs);
        if (term >= 0 && term < ncars)
            continue;
        if (c->dir != LINKSCRIPT_LINE)
            return nr_error_set(err, "%s:%d: %s names the p2p links 1-2 / 2-1: in a cs race name I-s (an uplink), "
                                     "s-J (a downlink) or all",
                                name, c->line, c->dir == 0 ? "12" : c->dir == 1 ? "21" : "both");
        char a[16], b[16];
        return nr_error_set(err, "%s:%d: no line %s-%s in this race (%d terminals, %s: %s)", name, c->line,
                            node_name(c->from, a, sizeof a), node_name(c->to, b, sizeof b), ncars, cs ? "cs" : "p2p",
                            cs ? "I-s and s-J" : "I-J, terminals 1 to N");
    }
    return true;
}

bool linkscript_apply(const LinkScript *ls, int i, Engine *e, NrError *err)
{
    const LinkChange *c = &ls->ch[i];
    if (c->dir == LINKSCRIPT_LINE || c->dir == 0 || c->dir == 1)
        return engine_set_line(e, c->from, c->to, &c->spec, err);
    if (c->dir == LINKSCRIPT_BOTH)
        return engine_set_line(e, 0, 1, &c->spec, err) && engine_set_line(e, 1, 0, &c->spec, err);
    const int n = engine_car_count(e); /* all */
    bool cs = engine_topology(e) == ROUTE_CS;
    for (int a = 0; a < n; a++) {
        if (cs && !(engine_set_line(e, a, ENGINE_SERVER, &c->spec, err) &&
                    engine_set_line(e, ENGINE_SERVER, a, &c->spec, err)))
            return false;
        for (int b = 0; !cs && b < n; b++)
            if (b != a && !engine_set_line(e, a, b, &c->spec, err))
                return false;
    }
    return true;
}

void linkscript_step_replay(void *replay, int64_t t_us)
{
    replay_step_to(replay, t_us);
}

const char *linkscript_line_name(const LinkChange *c, char *buf, size_t n)
{
    char a[16], b[16];
    if (c->dir == LINKSCRIPT_LINE)
        snprintf(buf, n, "%s-%s", node_name(c->from, a, sizeof a), node_name(c->to, b, sizeof b));
    else
        snprintf(buf, n, "%s", c->dir == 0 ? "12" : c->dir == 1 ? "21" : c->dir == LINKSCRIPT_BOTH ? "12+21" : "all");
    return buf;
}

const char *linkscript_describe(const LinkChange *c, char *buf, size_t n)
{
    char line[48], a[16], b[16];
    if (c->dir == LINKSCRIPT_LINE)
        snprintf(line, sizeof line, "link %s→%s", node_name(c->from, a, sizeof a), node_name(c->to, b, sizeof b));
    else
        snprintf(line, sizeof line, "%s",
                 c->dir == 0                 ? "link 1→2"
                 : c->dir == 1               ? "link 2→1"
                 : c->dir == LINKSCRIPT_BOTH ? "link 1→2 and 2→1"
                                             : "every link");
    snprintf(buf, n, "t %.1f s: %s now '%s' (script line %d)", (double)c->t_us / 1e6, line, c->spec.text, c->line);
    return buf;
}

int linkscript_run_to(const LinkScript *ls, int *cursor, Engine *e, int64_t t_us, LinkScriptStep step, void *ctx,
                      const LinkChange **last, NrError *err)
{
    int applied = 0;
    while (ls && *cursor < ls->n && ls->ch[*cursor].t_us <= t_us) {
        int64_t at = ls->ch[*cursor].t_us;
        /* MUs are sent at sample instants: stopping 1 us short of the change
         * leaves every MU of time >= T to the new spec */
        if (at > 0)
            step(ctx, at - 1);
        if (!linkscript_apply(ls, *cursor, e, err))
            return -1;
        if (last)
            *last = &ls->ch[*cursor];
        (*cursor)++;
        applied++;
    }
    step(ctx, t_us);
    return applied;
}
