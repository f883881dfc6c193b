/* Extrapolated Parity Packets in the racing replay (Cheung & Sakamoto 2007,
 * Sections 5-7): every MU is sent as an update; a token bucket holding an
 * extra budget of one update packet per period (C = 2R) releases an EPP
 * carrying the sender's D-step prediction (xd / xv / xa); the receiver
 * recovers single losses in a window (eqs. 9-13), shows an EP as the
 * prediction when several updates of its window are missing, and otherwise
 * dead-reckons with cd / cv / ca over the (fractional) time since the
 * newest complete window.
 *
 * D is not a scheme parameter: each terminal estimates the one-way delay of
 * the MUs it receives (EWMA, gain 1/8, assuming symmetric links) and uses
 * D = ceil(delay / period), at least 1, for the EPs it builds; every EP
 * carries its own D so the receiver never has to guess it.
 *
 * epp-raw-cv / epp-raw-ca are the paper's "raw" baseline: the same sender
 * and receiver without any EPP.
 *
 * Wire layout of the EP (aux): aux[0], aux[1] = predicted x, y at
 * gen + D * period; aux[2] = D; aux[3] = 1 (marks an EP in an update MU when
 * piggybacked). Sizes: update MU as the engine makes it, independent EPP
 * H + L = 53 B, piggyback adds L = 25 B. */
#include "epp.h"
#include "scheme_util.h"

#include <math.h>
#include <string.h>

#define EPR_RING 64 /* received samples remembered (about 2 s at 33 ms) */

typedef struct EprUpd {
    int32_t seq; /* -1: empty */
    bool known;
    double x, y;
} EprUpd;

typedef EppEp EprEp; /* seq = base update index; -1: empty */

/* What the receiver knows of one other car's stream. */
typedef struct EprRx {
    Mu grid;
    EprUpd upd[EPR_RING];
    EprEp ep[EPR_RING];
    int32_t newest; /* newest seq heard of (update or EP base) */
    /* newest complete window: ends at best_seq, values newest first */
    int32_t best_seq;
    int64_t best_gen_us;
    double bx[EPP_MAX_ORDER], by[EPP_MAX_ORDER];
} EprRx;

typedef struct EppRace {
    EppModel m;
    EppPack pack;
    int own;
    int64_t period_us;
    Mu own_now;
    /* sender */
    EppBucket bucket;
    bool bucket_ready;
    double hx[EPP_MAX_ORDER], hy[EPP_MAX_ORDER]; /* own window, newest first */
    int nhist;
    /* delay estimate of incoming MUs (for this terminal's D) */
    double delay_us;
    bool has_delay;
    /* receiver: one per other car */
    EprRx rx[SCHEME_MAX_CARS]; /* by car; [own] unused; last: car_size */
} EppRace;

static int tx_horizon(const EppRace *s)
{
    if (!s->has_delay)
        return 1;
    int d = (int)ceil(s->delay_us / (double)s->period_us - 1e-9);
    if (d < 1)
        d = 1;
    if (d > EPR_RING / 4)
        d = EPR_RING / 4;
    return d;
}

/* Before any MU: car c stands on its grid slot (seq 0, and the car at rest
 * before it). */
static void eprx_init(EprRx *r, const Mu *grid)
{
    r->grid = *grid;
    for (int i = 0; i < EPR_RING; i++) {
        r->upd[i].seq = -1;
        r->ep[i].seq = -1;
    }
    r->newest = -1;
    r->best_seq = 0;
    r->best_gen_us = grid->gen_us;
    for (int i = 0; i < EPP_MAX_ORDER; i++) {
        r->bx[i] = grid->x;
        r->by[i] = grid->y;
    }
}

static void epr_init(void *self, const SchemeParams *p, int own_car, int ncars, const Mu *grid, EppModel m,
                     EppPack pack)
{
    EppRace *s = self;
    /* what a terminal of ncars cars allocated (scheme_state_size) */
    memset(s, 0, offsetof(EppRace, rx) + (size_t)ncars * sizeof(EprRx));
    s->m = m;
    s->pack = pack;
    s->own = own_car;
    s->period_us = p->period_us > 0 ? p->period_us : 33 * NR_US_PER_MS;
    s->own_now = grid[own_car];
    for (int c = 0; c < ncars; c++)
        if (c != own_car)
            eprx_init(&s->rx[c], &grid[c]);
}

static void epr_set_params(void *self, const SchemeParams *p)
{
    EppRace *s = self;
    if (p->period_us > 0)
        s->period_us = p->period_us;
}

/* Sender half: the update always; an EP when the bucket allows (Section 7.2). */
static void epr_on_local(void *self, const Mu *mu, int64_t now_us, Transport *tx)
{
    (void)now_us;
    EppRace *s = self;
    s->own_now = *mu;
    if (s->pack == EPP_PACK_NONE) { /* the paper's "raw": updates only */
        transport_send(tx, mu);
        return;
    }
    for (int i = EPP_MAX_ORDER - 1; i > 0; i--) {
        s->hx[i] = s->hx[i - 1];
        s->hy[i] = s->hy[i - 1];
    }
    s->hx[0] = mu->x;
    s->hy[0] = mu->y;
    if (s->nhist < EPP_MAX_ORDER)
        s->nhist++;
    if (s->nhist == 1) /* the car stood still before its first sample */
        for (int i = 1; i < EPP_MAX_ORDER; i++) {
            s->hx[i] = mu->x;
            s->hy[i] = mu->y;
        }
    int upd_bytes = mu->nbytes > 0 ? mu->nbytes : EPP_HEADER_BYTES + EPP_PAYLOAD_BYTES;
    if (!s->bucket_ready) {
        /* Extra budget C - R = one update packet per period. */
        int size = s->pack == EPP_PACK_PIGGYBACK ? EPP_PAYLOAD_BYTES : EPP_HEADER_BYTES + EPP_PAYLOAD_BYTES;
        epp_bucket_init_budget(&s->bucket, (int64_t)upd_bytes * 8, size);
        s->bucket_ready = true;
    }
    bool send_ep = epp_bucket_update(&s->bucket);
    Mu up = *mu;
    if (!send_ep) {
        transport_send(tx, &up);
        return;
    }
    int d = tx_horizon(s);
    double ex = epp_predict(s->m, d, s->hx), ey = epp_predict(s->m, d, s->hy);
    if (s->pack == EPP_PACK_PIGGYBACK) {
        up.aux[0] = ex;
        up.aux[1] = ey;
        up.aux[2] = d;
        up.aux[3] = 1.0;
        up.nbytes = upd_bytes + EPP_PAYLOAD_BYTES;
        transport_send(tx, &up);
        return;
    }
    transport_send(tx, &up);
    Mu par = *mu;
    par.kind = MU_PARITY;
    par.nbytes = EPP_HEADER_BYTES + EPP_PAYLOAD_BYTES;
    memset(par.aux, 0, sizeof par.aux);
    par.aux[0] = ex;
    par.aux[1] = ey;
    par.aux[2] = d;
    par.aux[3] = 1.0;
    transport_send(tx, &par);
}

/* Update j as the receiver knows it; seq < 0 is the car at rest on its grid
 * slot (seq 0 is the grid MU itself). */
static bool upd_get(const EprRx *s, int32_t j, double *x, double *y)
{
    if (j <= 0) {
        *x = s->grid.x;
        *y = s->grid.y;
        return true;
    }
    const EprUpd *u = &s->upd[j % EPR_RING];
    if (u->seq != j || !u->known)
        return false;
    *x = u->x;
    *y = u->y;
    return true;
}

static void upd_set(EprRx *s, int32_t j, double x, double y)
{
    if (j <= 0)
        return;
    EprUpd *u = &s->upd[j % EPR_RING];
    u->seq = j;
    u->known = true;
    u->x = x;
    u->y = y;
}

/* Eqs. 9-13 over every EP in the ring (epp_recover_all, the receiver's one
 * recovery), then the newest complete window. */
static void epr_rebuild(EprRx *s, EppModel m, int64_t period_us)
{
    const int o = epp_order(m);
    int32_t lo = s->newest - EPR_RING + o;
    /* An EP whose window is complete can restore nothing (what is known
     * stays known): only the others go to the recovery. */
    EppEp eps[EPR_RING];
    int n = 0;
    for (int i = 0; i < EPR_RING; i++) {
        const EprEp *e = &s->ep[i];
        if (e->seq < 0 || e->seq < lo)
            continue;
        bool complete = true;
        for (int k = 0; k < o && complete; k++) {
            double x, y;
            complete = upd_get(s, e->seq - k, &x, &y);
        }
        if (!complete)
            eps[n++] = *e;
    }
    if (n > 0) {
        /* The windows of these EPs lie in the ring's span [newest - RING + 1,
         * newest]: recover over a copy of the part they cover, then keep
         * what was restored. */
        int32_t first = eps[0].seq - o + 1, last = eps[0].seq;
        for (int i = 1; i < n; i++) {
            if (eps[i].seq - o + 1 < first)
                first = eps[i].seq - o + 1;
            if (eps[i].seq > last)
                last = eps[i].seq;
        }
        int span = (int)(last - first) + 1; /* <= EPR_RING */
        unsigned char known[EPR_RING];
        double ux[EPR_RING], uy[EPR_RING];
        EppUpdates u = {first, known, ux, uy};
        for (int i = 0; i < span; i++)
            known[i] = upd_get(s, first + i, &ux[i], &uy[i]);
        if (epp_recover_all(m, eps, n, &u) > 0)
            for (int i = 0; i < span; i++) {
                double x, y;
                if (known[i] && !upd_get(s, first + i, &x, &y))
                    upd_set(s, first + i, ux[i], uy[i]);
            }
    }
    for (int32_t j = s->newest; j > s->best_seq && j >= lo; j--) {
        double wx[EPP_MAX_ORDER], wy[EPP_MAX_ORDER];
        bool all = true;
        for (int k = 0; k < o && all; k++)
            all = upd_get(s, j - k, &wx[k], &wy[k]);
        if (!all)
            continue;
        s->best_seq = j;
        s->best_gen_us = s->grid.gen_us + (int64_t)j * period_us;
        for (int k = 0; k < o; k++) {
            s->bx[k] = wx[k];
            s->by[k] = wy[k];
        }
        break;
    }
}

static RxResult epr_on_receive(void *self, const Mu *mu, int64_t now_us)
{
    EppRace *t = self;
    if (mu->car == t->own || mu->seq < 0)
        return RX_DISCARDED;
    double dl = (double)(now_us - mu->gen_us);
    if (dl < 0)
        dl = 0;
    /* One estimate over every incoming stream: D is the terminal's. */
    if (!t->has_delay) {
        t->delay_us = dl;
        t->has_delay = true;
    } else {
        t->delay_us += (dl - t->delay_us) / 8.0;
    }
    EprRx *s = &t->rx[mu->car];
    if (mu->seq > s->newest)
        s->newest = mu->seq;
    if (mu->kind == MU_UPDATE)
        upd_set(s, mu->seq, mu->x, mu->y);
    /* An EP's horizon as a sender makes it (tx_horizon: 1 to EPR_RING / 4);
     * anything else is not an EP this receiver can use. */
    if (mu->aux[3] == 1.0 && mu->aux[2] >= 1.0 && mu->aux[2] <= EPR_RING / 4) {
        EprEp *e = &s->ep[mu->seq % EPR_RING];
        e->seq = mu->seq;
        e->d = (int)mu->aux[2];
        e->x = mu->aux[0];
        e->y = mu->aux[1];
    }
    epr_rebuild(s, t->m, t->period_us);
    return RX_USED;
}

/* Optimal predictor of model m for a real horizon h >= 0: the paper's
 * integer-horizon coefficients (eqs. 7-8) written as polynomials in h, e.g.
 * alpha_0 = (h+1)(h+2)/2, alpha_1 = -h(h+2), alpha_2 = h(h+1)/2. */
static double predict_real(EppModel m, double h, const double *w)
{
    switch (m) {
    case EPP_RD:
        return w[0];
    case EPP_RV:
        return (h + 1.0) * w[0] - h * w[1];
    case EPP_RA:
    default:
        return (h + 1.0) * (h + 2.0) / 2.0 * w[0] - h * (h + 2.0) * w[1] + h * (h + 1.0) / 2.0 * w[2];
    }
}

static void epr_display(const void *self, int car, int64_t now_us, Pose *out)
{
    const EppRace *t = self;
    if (car == t->own) {
        pose_from_mu(&t->own_now, out);
        return;
    }
    const EprRx *s = &t->rx[car];
    const int64_t period_us = t->period_us;
    out->seq = -1;
    out->heading = s->grid.heading;
    /* An EP built from newer updates than the newest complete window, whose
     * target time is the nearest to now, is the prediction (Section 5). */
    const EprEp *best_ep = NULL;
    for (int i = 0; i < EPR_RING; i++) {
        const EprEp *e = &s->ep[i];
        if (e->seq <= s->best_seq)
            continue;
        int64_t target = s->grid.gen_us + ((int64_t)e->seq + e->d) * period_us;
        int64_t off = now_us - target;
        if (off < 0)
            off = -off;
        if (2 * off <= period_us && (!best_ep || e->seq > best_ep->seq))
            best_ep = e;
    }
    if (best_ep) {
        out->x = best_ep->x;
        out->y = best_ep->y;
    } else {
        double h = (double)(now_us - s->best_gen_us) / (double)period_us;
        if (h < 0)
            h = 0;
        out->x = predict_real(t->m, h, s->bx);
        out->y = predict_real(t->m, h, s->by);
    }
    double vx = predict_real(t->m, 1.0, s->bx) - s->bx[0], vy = predict_real(t->m, 1.0, s->by) - s->by[0];
    if (vx != 0.0 || vy != 0.0)
        out->heading = atan2(vy, vx);
}

static void epr_display_all(const void *self, int ncars, int64_t now_us, Pose *out)
{
    for (int c = 0; c < ncars; c++)
        epr_display(self, c, now_us, &out[c]);
}

#define EPR_TYPE(ID, NAME, TITLE, ABBR, MODEL, PACK, SUMMARY)                                                      \
    static void ID##_init(void *self, const SchemeParams *p, int own_car, int ncars, const Mu *grid)               \
    {                                                                                                              \
        epr_init(self, p, own_car, ncars, grid, MODEL, PACK);                                                      \
    }                                                                                                              \
    const SchemeType scheme_##ID = {                                                                               \
        .name = NAME,                                                                                              \
        .title = TITLE,                                                                                            \
        .abbr = ABBR,                                                                                              \
        .summary = SUMMARY,                                                                                        \
        .state_size = sizeof(EppRace),                                                                             \
        .car_size = sizeof(EprRx),                                                                                 \
        .extra_packets = PACK == EPP_PACK_INDEPENDENT,                                                             \
        .every_sample = true,                                                                                      \
        .init = ID##_init,                                                                                         \
        .set_params = epr_set_params,                                                                              \
        .on_local = epr_on_local,                                                                                  \
        .on_receive = epr_on_receive,                                                                              \
        .display = epr_display,                                                                                    \
        .display_all = epr_display_all,                                                                            \
    };

EPR_TYPE(epp_xd, "epp-xd", "EPP-xd", "xd", EPP_RD, EPP_PACK_INDEPENDENT,
         "EPP: updates + independent xd parity (cd), token bucket C = 2R")
EPR_TYPE(epp_xv, "epp-xv", "EPP-xv", "xv", EPP_RV, EPP_PACK_INDEPENDENT,
         "EPP: updates + independent xv parity (cv), token bucket C = 2R")
EPR_TYPE(epp_xa, "epp-xa", "EPP-xa", "xa", EPP_RA, EPP_PACK_INDEPENDENT,
         "EPP: updates + independent xa parity (ca), token bucket C = 2R")
EPR_TYPE(epp_raw_cv, "epp-raw-cv", "raw-cv", "r-cv", EPP_RV, EPP_PACK_NONE,
         "EPP baseline: every MU sent, no parity, cv dead reckoning at the receiver")
EPR_TYPE(epp_raw_ca, "epp-raw-ca", "raw-ca", "r-ca", EPP_RA, EPP_PACK_NONE,
         "EPP baseline: every MU sent, no parity, ca dead reckoning at the receiver")
EPR_TYPE(epp_xv_p, "epp-xv-p", "EPP-xv-p", "xv-p", EPP_RV, EPP_PACK_PIGGYBACK,
         "EPP: xv parity piggybacked on the updates, token bucket C = 2R")
EPR_TYPE(epp_xa_p, "epp-xa-p", "EPP-xa-p", "xa-p", EPP_RA, EPP_PACK_PIGGYBACK,
         "EPP: xa parity piggybacked on the updates, token bucket C = 2R")
