/* The per-line links of a network terminal (`--link I-J SPEC`, docs/netplay.md
 * "Peer-to-peer races of N", docs/nplayers.md "Link matrix"): parsed for
 * `host`, `join` and `serve`, checked as far as the command line can; and
 * the address join is given.
 *
 * Contracts:
 *   net_line_flag(cmd, &lines, argc, argv, &i)  argv[i] is `--link` and its
 *        value names a line (I-J, I-s, s-J): the line and its SPEC into
 *        *lines (allocated on first use; linkmatrix_free + free by the
 *        caller), i past both; CLI_OK, or CLI_USAGE after a usage line
 *        naming the flag (no SPEC, a bad line or spec). -1: not this form
 *        (`--link SPEC`, or another flag), nothing taken.
 *   net_check_lines(cmd, lines, role, cars)  what the command line can
 *        check: the host's lines are 1-J with J a car of its race; a
 *        joiner's are not the server's (s-J); the server's are s-J with J
 *        a seat. CLI_OK, or CLI_USAGE after a usage line naming the line.
 *        A joiner's I is checked once it knows its car (netsession.h).
 *   net_host_main / net_join_main / net_serve_main(argc, argv)  the runs of
 *        `netrace host`, `join` and `serve` (cmd_net.c; their texts:
 *        net_help.c).
 */
#ifndef NR_NET_LINES_H
#define NR_NET_LINES_H

#include "cli.h"
#include "linkmatrix.h"

#include <stddef.h>
#include <stdint.h>

typedef enum NetLineRole { NET_LINES_HOST, NET_LINES_JOINER, NET_LINES_SERVER } NetLineRole;

int net_line_flag(const char *cmd, LinkMatrix **lines, int argc, char **argv, int *i);
int net_check_lines(const char *cmd, const LinkMatrix *m, NetLineRole role, int cars);
int net_host_main(int argc, char **argv);
int net_join_main(int argc, char **argv);
int net_serve_main(int argc, char **argv);

#endif
