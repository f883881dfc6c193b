/* EPP over the link emulator: delivery probability p[D] (eq. 25) and the
 * packet fates of a run (common random numbers for every scheme).
 *
 * Contracts:
 *   epp_pd_closed(spec, window_us, out)  p = (1-q) P(delay <= window) in
 *        closed form (eq. 25) when the spec is a constant or shifted-gamma
 *        delay (no jitter, no correlation, no table, no duplication) with no
 *        loss or uncorrelated random loss; false (out untouched) otherwise.
 *   epp_pd(spec, rate_hz, D, pd, closed)  pd[i] = p[D+i] for i = 0..3 with
 *        window (D+i) T; closed form when possible, otherwise Monte Carlo
 *        over EPP_PD_DRAWS draws of a Link seeded with EPP_PD_SEED; *closed
 *        tells which.
 *   epp_traffic_draw(t, upd, ep)  fates of the update packets (from upd) and
 *        of the independent EPPs (from ep), one draw per update index; a
 *        negative delay means "now"; a duplicate counts by its earlier copy.
 */
#ifndef NR_EPP_LINK_H
#define NR_EPP_LINK_H

#include "epp_sim.h"
#include "link.h"

#define EPP_PD_DRAWS 200000
#define EPP_PD_SEED 1

bool epp_pd_closed(const LinkSpec *spec, int64_t window_us, double *out);
void epp_pd(const LinkSpec *spec, int rate_hz, int D, double pd[4], bool *closed);
void epp_traffic_draw(EppTraffic *t, Link *upd, Link *ep);

#endif
