/* The links of an N-car race, one netem spec per line of its topology
 * (route.h; docs/nplayers.md "Link matrix"): given on the command line
 * (`--link I-J SPEC`) or in a file of lines `I-J SPEC` (`#` starts a
 * comment). Terminals are 1..N; `s` is the server (client-server: `I-s`
 * the uplink of client I, `s-J` the downlink to J).
 *
 * Contracts:
 *   linkmatrix_init(m) / linkmatrix_free(m)   empty / release (NULL-safe).
 *   linkmatrix_set(m, pair, spec, where, err)  parses "I-J" and the spec
 *        (where names the source in messages: "--link" or "FILE:LINE"),
 *        replacing an earlier entry of the pair. False + err ("where: ...")
 *        on a bad pair or spec.
 *   linkmatrix_load(m, path, err)   every line of a file; a pair given twice
 *        in the file is an error. False + err "PATH:LINE: ...".
 *   linkmatrix_check(m, ncars, topologies, complete, err)  every entry
 *        names terminals 1..ncars and lines one of the topologies has
 *        (LINKMATRIX_P2P: I-J with I != J; LINKMATRIX_CS: I-s or s-J; a
 *        mask of them); with complete, every such line is given. False +
 *        err naming the entry (its source) or the first missing line.
 *   linkmatrix_get(m, from, to)     the spec of a line (0-based terminals,
 *        LINKMATRIX_SERVER for the server) or NULL when not given.
 *   linkmatrix_pair(pair, &from, &to)  "I-J" (1..ROUTE_MAX_CARS or s,
 *        I != J) as 0-based nodes; false when it is not one.
 */
#ifndef NR_LINKMATRIX_H
#define NR_LINKMATRIX_H

#include "route.h"

#define LINKMATRIX_SERVER ROUTE_SERVER /* node index of the server */
#define LINKMATRIX_NODES (ROUTE_MAX_CARS + 1)
#define LINKMATRIX_P2P (1u << ROUTE_P2P) /* topology masks of linkmatrix_check */
#define LINKMATRIX_CS (1u << ROUTE_CS)

typedef struct LinkMatrix {
    LinkSpec spec[LINKMATRIX_NODES][LINKMATRIX_NODES];
    bool set[LINKMATRIX_NODES][LINKMATRIX_NODES];
    char where[LINKMATRIX_NODES][LINKMATRIX_NODES][64]; /* its source, for messages */
} LinkMatrix;

void linkmatrix_init(LinkMatrix *m);
void linkmatrix_free(LinkMatrix *m);
bool linkmatrix_set(LinkMatrix *m, const char *pair, const char *spec, const char *where, NrError *err);
bool linkmatrix_load(LinkMatrix *m, const char *path, NrError *err);
bool linkmatrix_check(const LinkMatrix *m, int ncars, unsigned topologies, bool complete, NrError *err);
const LinkSpec *linkmatrix_get(const LinkMatrix *m, int from, int to);
bool linkmatrix_pair(const char *pair, int *from, int *to);

#endif
