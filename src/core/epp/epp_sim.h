/* EPP simulation: one sender, one receiver, one lossy delayed link
 * (Cheung & Sakamoto 2007, Sections 4-8).
 *
 * A run is described by an EppTraffic: the true positions of every update
 * (x and y coordinates, independent), the send time of every update, and the
 * fate of two packet streams drawn once per run and shared by every scheme
 * (common random numbers): the update packet of index j, and an independent
 * EPP that would be sent right after it. A piggyback EP shares the fate of
 * its update packet. A scheme only decides which updates carry an EP.
 *
 * Receiver (Sections 4, 5, 7.2): at each display time kT it knows the updates
 * that arrived by kT (and the first EPP_INIT_KNOWN ones, the agreed start
 * positions), recovers any update that is the single unknown of a received
 * EP's window (eqs. 9-13, repeated while something new is recovered: the
 * one recovery of epp_recover_all, shared with the racing schemes), and
 * shows the best prediction of x[k] it has:
 *   - x[k] itself when it has arrived (or was recovered);
 *   - DR (cd/cv/ca) from the newest complete window ending at j, horizon
 *     h = k - j, when h <= D;
 *   - otherwise the EP y[k] built at k - D, if it arrived;
 *   - otherwise DR from the newest complete window, whatever its age.
 *
 * Contracts:
 *   epp_traffic_alloc(t, n, err) / epp_traffic_free(t)
 *   epp_traffic_times(t, rate_hz)   t_us[j] = floor(j * 1e6 / rate).
 *   epp_traffic_model(t, m, r, p, s) x and y follow model m (eqs. 1-5) with
 *        w from eq. 24; the first EPP_INIT_KNOWN updates are 0.
 *   epp_traffic_perfect(t)          every packet arrives at its send time.
 *   epp_work_alloc(w, n, err) / epp_work_free(w)   scratch for epp_run.
 *   epp_run(t, s, k0, k1, w, out)   error at display times k0 <= k < k1
 *        (k0 >= EPP_INIT_KNOWN); no allocation.
 */
#ifndef NR_EPP_SIM_H
#define NR_EPP_SIM_H

#include "epp.h"

#define EPP_NEVER INT64_MAX
#define EPP_INIT_KNOWN 3

typedef struct EppTraffic {
    int n;
    double *x, *y;       /* true positions [n] */
    int64_t *t_us;       /* send time of update j */
    int64_t *upd_arr_us; /* arrival of the update packet j; EPP_NEVER when lost */
    int64_t *ep_arr_us;  /* arrival of an independent EPP sent with update j */
} EppTraffic;

typedef struct EppScheme {
    EppModel method; /* receiver DR and EP construction: cd/xd, cv/xv, ca/xa */
    EppPack pack;
    int D;
    int64_t c_bps; /* available bandwidth C (unused for EPP_PACK_NONE) */
    int rate_hz;
} EppScheme;

typedef struct EppWork {
    int cap;
    unsigned char *has_ep, *known, *ep_ok;
    double *ex, *ey, *zx, *zy;
    EppEp *eps; /* the EPs a display time recovers from */
} EppWork;

typedef struct EppRunStats {
    double err_sum; /* sum of Euclidean errors */
    double sq_sum;  /* sum of squared Euclidean errors */
    int64_t count;  /* display times */
    int64_t eps_sent, recovered, ep_shown;
} EppRunStats;

bool epp_traffic_alloc(EppTraffic *t, int n, NrError *err);
void epp_traffic_free(EppTraffic *t);
void epp_traffic_times(EppTraffic *t, int rate_hz);
void epp_traffic_model(EppTraffic *t, EppModel m, Rng *r, double p, double s);
void epp_traffic_perfect(EppTraffic *t);

bool epp_work_alloc(EppWork *w, int n, NrError *err);
void epp_work_free(EppWork *w);

void epp_run(const EppTraffic *t, const EppScheme *s, int k0, int k1, EppWork *w, EppRunStats *out);

#endif
