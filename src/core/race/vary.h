/* The parameters a sweep can vary (`netrace sweep --vary NAME=LIST`): a
 * table of names, units, ranges and what each sets in a run's links and
 * scheme parameters; value lists; the full-factorial grid.
 *
 * A run's variable part is a VaryTarget: both links (copies the caller owns)
 * and the scheme parameters. Each parameter sets one field (delay12 the
 * mean delay of link 1->2, loss the random loss of both links, burst turns
 * both links' loss into Gilbert-Elliott bursts of that mean length keeping
 * the loss rate, ...). Topology and server behaviour (issue 19) are rows to
 * add to the table when they exist.
 *
 * Contracts:
 *   vary_params()              NULL-name-terminated table of every parameter.
 *   vary_find(name)            the parameter, NULL when unknown.
 *   vary_parse(text, axis, err)  "NAME=LIST", LIST "A:B:STEP" (inclusive,
 *        STEP > 0, A <= B) or "a,b,c"; every value within the parameter's
 *        range, at most VARY_MAX_VALUES; false + err (unknown name: err names
 *        it; the caller adds a suggestion).
 *   vary_find_in(table, name) / vary_parse_in(table, text, axis, err)  the
 *        same over another command's table of the same shape (fairness's
 *        receivers' delays), whose rows' field and dirs that command reads.
 *   vary_grid_size(axes, n)    product of the axes' counts (0 when none, or
 *        beyond VARY_MAX_POINTS: the caller refuses).
 *   vary_point(axes, n, index, values)  the values of grid point index, the
 *        FIRST axis varying fastest (so a panel's x values are adjacent).
 *   vary_apply(target, param, value, err)  sets the parameter in target;
 *        false + err when the link cannot take it (a trace or gamma link's
 *        delay, a gemodel link's loss rate).
 *   vary_finish(target)        after every vary_apply of a point: turns the
 *        loss of both links into bursts when burst > 1.
 */
#ifndef NR_VARY_H
#define NR_VARY_H

#include "link.h"
#include "scheme.h"

#define VARY_MAX_VALUES 256
#define VARY_MAX_AXES 8
#define VARY_MAX_POINTS 65536

typedef enum VaryField {
    VARY_DELAY, VARY_JITTER, VARY_LOSS, VARY_BURST, VARY_DELTA, VARY_TDR, VARY_CONVERGE
} VaryField;

typedef struct VaryParam {
    const char *name;   /* command-line name, e.g. "delay12" */
    const char *unit;   /* "ms", "%", "cw", "packets" */
    VaryField field;
    int dirs;           /* links it sets: bit 0 link 12, bit 1 link 21 */
    double lo, hi;      /* accepted range */
    const char *doc;    /* one line for --help and the docs */
} VaryParam;

typedef struct VaryAxis {
    const VaryParam *param;
    double v[VARY_MAX_VALUES];
    int n;
} VaryAxis;

typedef struct VaryTarget {
    LinkSpec link[2];   /* owned by the caller (linkspec_copy of the base) */
    SchemeParams params;
    double burst;       /* mean loss burst length in packets; 1 = random loss */
} VaryTarget;

const VaryParam *vary_params(void);
const VaryParam *vary_find(const char *name);
bool vary_parse(const char *text, VaryAxis *axis, NrError *err);
const VaryParam *vary_find_in(const VaryParam *table, const char *name);
bool vary_parse_in(const VaryParam *table, const char *text, VaryAxis *axis, NrError *err);
int64_t vary_grid_size(const VaryAxis *axes, int n);
void vary_point(const VaryAxis *axes, int n, int64_t index, double *values);
bool vary_apply(VaryTarget *t, const VaryParam *p, double value, NrError *err);
void vary_finish(VaryTarget *t);

#endif
