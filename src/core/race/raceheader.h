/* A race's condition in a recording's header: its topology, the spec of
 * every line of it (the link matrix) and every terminal's clock, written by
 * the live race (play, study) and merge, read back by replay so that a
 * recording re-runs under its own condition (docs/formats.md "Recording
 * files"; the lines of docs/nplayers.md "Link matrix").
 *
 * Keys (recording_meta_add; terminals 1..cars, `s` the server):
 *   topology: p2p | cs relay | cs sync   (written for more than two cars or cs)
 *   link_I_J: SPEC   p2p line I -> J      link_I_s / link_s_I: SPEC   cs lines
 *   link12, link21: SPEC   the lines 1 -> 2 and 2 -> 1 of a two-car p2p race
 *        (the only lines recordings had before the matrix)
 *   link_out_N: SPEC   merged recordings before the matrix: every line out of N
 *   clock_I: OFF_MS,PPM   terminal I's clock (written for each terminal when
 *        any is off the global one; absent: 0, 0)
 *   delta_ms, tdr_cw, converge_ms, seed: the schemes' parameters and the
 *        link draws' seed (liverace.c writes them; read here, checked)
 * SPEC is netem text (linkspec.h), `none` for no delay, or `medium` (a line
 * the race ran on a medium of its own, a trace: nothing to re-run, left
 * unset).
 *
 * Contracts:
 *   raceheader_read(h, rec, path, err)  parses those keys of rec->meta
 *        (other keys are not its own). False + err "PATH:LINE: KEY 'VALUE':
 *        what was expected" for the first bad one: a bad spec, topology or
 *        clock, a terminal beyond the recording's cars, a line the topology
 *        has not, a parameter out of its flag's range (--delta 0..4000,
 *        --tdr 0..1000, --converge 0..10000, --seed a whole number). Among keys naming one line link_I_J wins over link12 /
 *        link21, which win over link_out_N. h is freed by raceheader_free
 *        either way.
 *   raceheader_free(h)                   releases the specs (NULL-safe).
 *   raceheader_add(meta, ec)             adds ec's condition: topology
 *        (wide races), the lines (two cars p2p: link12, link21 as before;
 *        else every line of the topology, link_I_J or link_I_s + link_s_I,
 *        by the engine's own rule for a line's spec), the clocks (when any
 *        is off the global one). False when the header is full.
 */
#ifndef NR_RACEHEADER_H
#define NR_RACEHEADER_H

#include "engine.h"
#include "linkmatrix.h"
#include "recording.h"

typedef struct RaceHeader {
    bool have_topology;
    RouteTopology topology;
    RouteServer server;
    LinkMatrix lines;                       /* the lines the header gives */
    bool medium[LINKMATRIX_NODES][LINKMATRIX_NODES]; /* lines given as `medium` */
    TerminalClock clock[ENGINE_MAX_CARS];
    unsigned clock_set;                     /* bit I-1: clock_I given */
    unsigned params;                        /* RACEHEADER_* bits: the keys given */
    int64_t delta_us, converge_us;
    double tdr_cw;
    uint64_t seed;
} RaceHeader;

enum { RACEHEADER_DELTA = 1, RACEHEADER_TDR = 2, RACEHEADER_CONVERGE = 4, RACEHEADER_SEED = 8 };

bool raceheader_read(RaceHeader *h, const Recording *rec, const char *path, NrError *err);
void raceheader_free(RaceHeader *h);
bool raceheader_add(Recording *meta, const EngineConfig *ec);

#endif
