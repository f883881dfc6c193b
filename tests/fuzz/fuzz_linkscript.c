/* Fuzz harness: link scripts (TIME_S LINE SPEC lines); an accepted script
 * holds at least one change, in time order, each line valid (12, 21, both,
 * all, or I-J between two nodes of a race: terminals 0..7 or the server,
 * named back as it was written), each spec's canonical text parsing back,
 * and checking it against every race (2 to 8 cars, p2p or cs) says yes or
 * why not; a refused one says why. */
#include "linkmatrix.h"
#include "linkscript.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool node_ok(int node)
{
    return (node >= 0 && node < ROUTE_MAX_CARS) || node == ENGINE_SERVER;
}

/* Change c's line: one the parser can make, and its name parses back to it. */
static bool line_ok(const LinkChange *c)
{
    char name[48];
    linkscript_line_name(c, name, sizeof name);
    switch (c->dir) {
    case 0:
        return c->from == 0 && c->to == 1 && strcmp(name, "12") == 0;
    case 1:
        return c->from == 1 && c->to == 0 && strcmp(name, "21") == 0;
    case LINKSCRIPT_BOTH:
        return strcmp(name, "12+21") == 0;
    case LINKSCRIPT_ALL:
        return strcmp(name, "all") == 0;
    case LINKSCRIPT_LINE: {
        int from, to;
        return node_ok(c->from) && node_ok(c->to) && c->from != c->to && linkmatrix_pair(name, &from, &to) &&
               from == c->from && to == c->to;
    }
    default:
        return false;
    }
}

/* Checking against every race: true, or false with a message. */
static bool check_ok(const LinkScript *ls)
{
    for (int ncars = 2; ncars <= ROUTE_MAX_CARS; ncars++)
        for (int topo = ROUTE_P2P; topo <= ROUTE_CS; topo++) {
            NrError err;
            err.msg[0] = '\0';
            if (!linkscript_check(ls, "fuzz", ncars, (RouteTopology)topo, &err) && err.msg[0] == '\0')
                return false;
        }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0'; /* a NUL inside ends the text, as a C string */
    LinkScript ls;
    NrError err;
    err.msg[0] = '\0';
    bool ok = linkscript_parse(&ls, text, "fuzz", NULL, &err);
    free(text);
    if (!ok) {
        if (err.msg[0] == '\0' || ls.n != 0 || ls.ch != NULL)
            abort();
        return 0;
    }
    if (ls.n < 1 || ls.n > LINKSCRIPT_MAX)
        abort();
    for (int i = 0; i < ls.n; i++) {
        const LinkChange *c = &ls.ch[i];
        if (c->t_us < 0 || (i > 0 && c->t_us < ls.ch[i - 1].t_us) || !line_ok(c) || c->line < 1 ||
            (i > 0 && c->line <= ls.ch[i - 1].line))
            abort();
        char text[64]; /* shorter than most lines: truncated, within the buffer */
        if (strncmp(linkscript_describe(c, text, sizeof text), "t ", 2) != 0)
            abort();
        LinkSpec back;
        memset(&back, 0, sizeof back);
        if (!linkspec_parse(&back, c->spec.text, NULL, &err))
            abort();
        linkspec_free(&back);
    }
    if (linkscript_next_us(&ls, 0) != ls.ch[0].t_us || linkscript_next_us(&ls, ls.n) != INT64_MAX || !check_ok(&ls))
        abort();
    linkscript_free(&ls);
    return 0;
}
