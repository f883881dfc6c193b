/* `--link I-J SPEC` of the network terminals: parsed and checked as far as
 * the command line can; join's HOST[:PORT] (net_lines.h). */
#include "net_lines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "2-3", "2-s", "s-3": digits or s, a dash, digits or s. */
static bool is_line(const char *v)
{
    size_t a = strspn(v, "0123456789s");
    return a > 0 && v[a] == '-' && v[a + 1] && v[a + 1 + strspn(v + a + 1, "0123456789s")] == '\0';
}

int net_line_flag(const char *cmd, LinkMatrix **lines, int argc, char **argv, int *i)
{
    const char *pair = *i + 1 < argc ? argv[*i + 1] : "";
    if (strcmp(argv[*i], "--link") != 0 || !is_line(pair))
        return -1;
    if (*i + 2 >= argc)
        return cli_usage_error(cmd, "--link %s: expected the line's SPEC after it (e.g. --link 1-3 'delay 75ms')",
                               pair);
    if (!*lines && (*lines = malloc(sizeof **lines)) != NULL)
        linkmatrix_init(*lines);
    if (!*lines)
        return cli_fail(cmd, "out of memory");
    NrError err = {{0}};
    if (!linkmatrix_set(*lines, pair, argv[*i + 2], "--link", &err))
        return cli_usage_error(cmd, "%s", err.msg);
    *i += 2;
    return CLI_OK;
}

int net_check_lines(const char *cmd, const LinkMatrix *m, NetLineRole role, int cars)
{
    NrError err = {{0}};
    if (role != NET_LINES_JOINER &&
        !linkmatrix_check(m, cars, role == NET_LINES_HOST ? LINKMATRIX_P2P : LINKMATRIX_CS, false, &err))
        return cli_usage_error(cmd, "%s", err.msg);
    for (int i = 0; i < LINKMATRIX_NODES; i++)
        for (int j = 0; j < LINKMATRIX_NODES; j++) {
            if (!m->set[i][j])
                continue;
            char from[8], to[8];
            snprintf(from, sizeof from, i == LINKMATRIX_SERVER ? "s" : "%d", i + 1);
            snprintf(to, sizeof to, j == LINKMATRIX_SERVER ? "s" : "%d", j + 1);
            if (role == NET_LINES_HOST && i != 0)
                return cli_usage_error(cmd, "--link %s-%s: the host drives car 1: its lines are 1-J", from, to);
            if (role == NET_LINES_JOINER && i == LINKMATRIX_SERVER)
                return cli_usage_error(cmd, "--link %s-%s: a line out of the server is the server's (netrace serve)",
                                       from, to);
            if (role == NET_LINES_SERVER && i != LINKMATRIX_SERVER)
                return cli_usage_error(cmd, "--link %s-%s: the server's lines are its downlinks s-J (a client's "
                                            "uplink is its own: netrace join --link)", from, to);
        }
    return CLI_OK;
}
