/* p[D] from the link spec (eq. 25) and per-run packet fates for EPP runs. */
#include "epp_link.h"

#include <math.h>

bool epp_pd_closed(const LinkSpec *spec, int64_t window_us, double *out)
{
    /* A duplicate copy can survive the packet's loss or beat its delay:
     * leave that to the Monte Carlo. */
    if (spec->jitter_us != 0 || spec->delay_corr != 0.0 || spec->table.n != 0 || spec->dup_p > 0.0)
        return false;
    double q;
    if (spec->loss_kind == LINK_LOSS_NONE)
        q = 0.0;
    else if (spec->loss_kind == LINK_LOSS_RANDOM && spec->loss_corr == 0.0)
        q = spec->loss_p;
    else
        return false;
    /* A negative base delay means "send now" for the constant part only when
     * there is no gamma term; keep the closed form to the plain cases. */
    double kappa = (double)spec->delay_us;
    double within;
    if (spec->gamma) {
        if (kappa < 0.0 || !(spec->gamma_shape > 0.0) || !(spec->gamma_scale_us > 0.0))
            return false;
        double x = ((double)window_us - kappa) / spec->gamma_scale_us;
        within = x <= 0.0 ? 0.0 : epp_gamma_p(spec->gamma_shape, x);
    } else {
        within = (kappa < 0.0 ? 0.0 : kappa) <= (double)window_us ? 1.0 : 0.0;
    }
    *out = (1.0 - q) * within;
    return true;
}

void epp_pd(const LinkSpec *spec, int rate_hz, int D, double pd[4], bool *closed)
{
    int64_t win[4];
    for (int i = 0; i < 4; i++)
        win[i] = (int64_t)(D + i) * NR_US_PER_S / rate_hz;
    bool ok = true;
    for (int i = 0; i < 4 && ok; i++)
        ok = epp_pd_closed(spec, win[i], &pd[i]);
    *closed = ok;
    if (ok)
        return;
    Link l;
    link_init(&l, spec, EPP_PD_SEED, 0);
    int64_t hit[4] = {0, 0, 0, 0};
    for (int n = 0; n < EPP_PD_DRAWS; n++) {
        LinkDraw d;
        link_draw(&l, &d);
        if (d.lost)
            continue;
        int64_t delay = d.delay_us < 0 ? 0 : d.delay_us;
        if (d.dup && d.dup_delay_us < delay)
            delay = d.dup_delay_us < 0 ? 0 : d.dup_delay_us;
        for (int i = 0; i < 4; i++)
            hit[i] += delay <= win[i];
    }
    link_free(&l);
    for (int i = 0; i < 4; i++)
        pd[i] = (double)hit[i] / EPP_PD_DRAWS;
}

static int64_t arrival(Link *l, int64_t sent_us)
{
    LinkDraw d;
    link_draw(l, &d);
    if (d.lost)
        return EPP_NEVER;
    int64_t delay = d.delay_us < 0 ? 0 : d.delay_us;
    if (d.dup && d.dup_delay_us < delay)
        delay = d.dup_delay_us < 0 ? 0 : d.dup_delay_us;
    return sent_us + delay;
}

void epp_traffic_draw(EppTraffic *t, Link *upd, Link *ep)
{
    for (int j = 0; j < t->n; j++) {
        t->upd_arr_us[j] = arrival(upd, t->t_us[j]);
        t->ep_arr_us[j] = arrival(ep, t->t_us[j]);
    }
}
