/* EPP sender/receiver simulation over pre-drawn packet fates (Sections 4-8). */
#include "epp_sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool epp_traffic_alloc(EppTraffic *t, int n, NrError *err)
{
    memset(t, 0, sizeof *t);
    if (n <= 0)
        return nr_error_set(err, "epp: traffic of %d updates; expected at least 1", n);
    t->n = n;
    t->x = calloc((size_t)n, sizeof *t->x);
    t->y = calloc((size_t)n, sizeof *t->y);
    t->t_us = calloc((size_t)n, sizeof *t->t_us);
    t->upd_arr_us = calloc((size_t)n, sizeof *t->upd_arr_us);
    t->ep_arr_us = calloc((size_t)n, sizeof *t->ep_arr_us);
    if (!t->x || !t->y || !t->t_us || !t->upd_arr_us || !t->ep_arr_us) {
        epp_traffic_free(t);
        return nr_error_set(err, "epp: out of memory for %d updates", n);
    }
    return true;
}

void epp_traffic_free(EppTraffic *t)
{
    if (!t)
        return;
    free(t->x);
    free(t->y);
    free(t->t_us);
    free(t->upd_arr_us);
    free(t->ep_arr_us);
    memset(t, 0, sizeof *t);
}

void epp_traffic_times(EppTraffic *t, int rate_hz)
{
    for (int j = 0; j < t->n; j++)
        t->t_us[j] = (int64_t)j * NR_US_PER_S / rate_hz;
}

void epp_traffic_model(EppTraffic *t, EppModel m, Rng *r, double p, double s)
{
    for (int j = 0; j < t->n && j < EPP_INIT_KNOWN; j++)
        t->x[j] = t->y[j] = 0.0;
    for (int j = EPP_INIT_KNOWN; j < t->n; j++) {
        double wx[3] = {t->x[j - 1], t->x[j - 2], t->x[j - 3]};
        double wy[3] = {t->y[j - 1], t->y[j - 2], t->y[j - 3]};
        double nx = epp_noise(r, p, s);
        double ny = epp_noise(r, p, s);
        t->x[j] = epp_model_step(m, wx, nx);
        t->y[j] = epp_model_step(m, wy, ny);
    }
}

void epp_traffic_perfect(EppTraffic *t)
{
    for (int j = 0; j < t->n; j++)
        t->upd_arr_us[j] = t->ep_arr_us[j] = t->t_us[j];
}

bool epp_work_alloc(EppWork *w, int n, NrError *err)
{
    memset(w, 0, sizeof *w);
    if (n <= 0)
        return nr_error_set(err, "epp: work area of %d updates; expected at least 1", n);
    w->cap = n;
    w->has_ep = calloc((size_t)n, 1);
    w->known = calloc((size_t)n, 1);
    w->ep_ok = calloc((size_t)n, 1);
    w->ex = calloc((size_t)n, sizeof *w->ex);
    w->ey = calloc((size_t)n, sizeof *w->ey);
    w->zx = calloc((size_t)n, sizeof *w->zx);
    w->zy = calloc((size_t)n, sizeof *w->zy);
    w->eps = calloc((size_t)n, sizeof *w->eps);
    if (!w->has_ep || !w->known || !w->ep_ok || !w->ex || !w->ey || !w->zx || !w->zy || !w->eps) {
        epp_work_free(w);
        return nr_error_set(err, "epp: out of memory for %d updates", n);
    }
    return true;
}

void epp_work_free(EppWork *w)
{
    if (!w)
        return;
    free(w->has_ep);
    free(w->known);
    free(w->ep_ok);
    free(w->ex);
    free(w->ey);
    free(w->zx);
    free(w->zy);
    free(w->eps);
    memset(w, 0, sizeof *w);
}

/* Newest-first window ending at index j (w[i] = a[j - i]). */
static void window_at(const double *a, int j, int o, double *w)
{
    for (int i = 0; i < o; i++)
        w[i] = a[j - i];
}

/* Sender (Sections 5-7): the token bucket decides at which updates an EPP
 * goes out; the EP is the sender's own D-step prediction from the window
 * ending at that update. The bucket starts with the first update that has a
 * full window (index order-1). */
static void plan_eps(const EppTraffic *t, const EppScheme *s, EppWork *w, EppRunStats *out)
{
    memset(w->has_ep, 0, (size_t)t->n);
    if (s->pack == EPP_PACK_NONE)
        return;
    int o = epp_order(s->method);
    int size = s->pack == EPP_PACK_PIGGYBACK ? EPP_PAYLOAD_BYTES : EPP_HEADER_BYTES + EPP_PAYLOAD_BYTES;
    EppBucket b;
    epp_bucket_init(&b, s->c_bps, epp_stream_bps(s->rate_hz), s->rate_hz, size);
    double wx[EPP_MAX_ORDER], wy[EPP_MAX_ORDER];
    for (int j = o - 1; j < t->n; j++) {
        if (!epp_bucket_update(&b))
            continue;
        window_at(t->x, j, o, wx);
        window_at(t->y, j, o, wy);
        w->has_ep[j] = 1;
        w->ex[j] = epp_predict(s->method, s->D, wx);
        w->ey[j] = epp_predict(s->method, s->D, wy);
        out->eps_sent++;
    }
}

static bool window_known(const unsigned char *known, int j, int o)
{
    for (int i = 0; i < o; i++)
        if (!known[j - i])
            return false;
    return true;
}

/* Receiver state at display time k: known updates (received or recovered)
 * in [lo, k] and the EPs received by then. Returns the number recovered. */
static int64_t receive(const EppTraffic *t, const EppScheme *s, EppWork *w, int lo, int k)
{
    const int64_t now = t->t_us[k];
    const int64_t *ep_arr = s->pack == EPP_PACK_PIGGYBACK ? t->upd_arr_us : t->ep_arr_us;
    for (int j = lo; j <= k; j++) {
        bool kn = j < EPP_INIT_KNOWN || t->upd_arr_us[j] <= now;
        w->known[j] = kn;
        if (kn) {
            w->zx[j] = t->x[j];
            w->zy[j] = t->y[j];
        }
        w->ep_ok[j] = w->has_ep[j] && ep_arr[j] <= now;
    }
    if (s->pack == EPP_PACK_NONE)
        return 0;
    /* Eqs. 9-13 (epp_recover_all) over the EPs received by now whose window
     * lies in [lo, k], in update order; an EP whose window is complete can
     * restore nothing (what is known stays known), so it is left out. */
    int o = epp_order(s->method);
    int n = 0;
    for (int j = lo + o - 1; j <= k; j++)
        if (w->ep_ok[j] && !window_known(w->known, j, o))
            w->eps[n++] = (EppEp){j, s->D, w->ex[j], w->ey[j]};
    EppUpdates u = {0, w->known, w->zx, w->zy};
    return epp_recover_all(s->method, w->eps, n, &u);
}

void epp_run(const EppTraffic *t, const EppScheme *s, int k0, int k1, EppWork *w, EppRunStats *out)
{
    memset(out, 0, sizeof *out);
    plan_eps(t, s, w, out);
    const int o = epp_order(s->method);
    const int lookback = s->D + 24;
    if (k0 < EPP_INIT_KNOWN)
        k0 = EPP_INIT_KNOWN;
    if (k1 > t->n)
        k1 = t->n;
    for (int k = k0; k < k1; k++) {
        int lo = k - lookback < 0 ? 0 : k - lookback;
        out->recovered += receive(t, s, w, lo, k);
        double px, py;
        int j = k;
        while (j >= lo + o - 1 && !window_known(w->known, j, o))
            j--;
        bool found = j >= lo + o - 1;
        int h = k - j;
        if (w->known[k]) { /* x[k] itself, whether its window is complete or not */
            px = w->zx[k];
            py = w->zy[k];
        } else if (found && h <= s->D) {
            double wx[EPP_MAX_ORDER], wy[EPP_MAX_ORDER];
            window_at(w->zx, j, o, wx);
            window_at(w->zy, j, o, wy);
            px = epp_predict(s->method, h, wx);
            py = epp_predict(s->method, h, wy);
        } else if (k - s->D >= lo && w->ep_ok[k - s->D]) {
            /* Section 5: with several losses the EP is the prediction. */
            px = w->ex[k - s->D];
            py = w->ey[k - s->D];
            out->ep_shown++;
        } else {
            if (!found) {
                /* Nothing complete in the look-back: the newest complete
                 * window of plain arrivals (the start positions at worst). */
                const int64_t now = t->t_us[k];
                for (j = lo - 1; j >= o - 1; j--) {
                    bool all = true;
                    for (int i = 0; i < o && all; i++)
                        all = j - i < EPP_INIT_KNOWN || t->upd_arr_us[j - i] <= now;
                    if (all)
                        break;
                }
                if (j < o - 1)
                    j = o - 1;
                h = k - j;
                double wx[EPP_MAX_ORDER], wy[EPP_MAX_ORDER];
                window_at(t->x, j, o, wx);
                window_at(t->y, j, o, wy);
                px = epp_predict(s->method, h, wx);
                py = epp_predict(s->method, h, wy);
            } else {
                double wx[EPP_MAX_ORDER], wy[EPP_MAX_ORDER];
                window_at(w->zx, j, o, wx);
                window_at(w->zy, j, o, wy);
                px = epp_predict(s->method, h, wx);
                py = epp_predict(s->method, h, wy);
            }
        }
        double dx = px - t->x[k], dy = py - t->y[k];
        double d2 = dx * dx + dy * dy;
        out->err_sum += sqrt(d2);
        out->sq_sum += d2;
        out->count++;
    }
}
