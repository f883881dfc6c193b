/* Adaptive Delta-causality control: the racing paper's Delta-causality
 * (Section 3: every MU, local ones included, output at generation + Delta;
 * an MU arriving later is discarded) with Delta following the network
 * delay, as the adaptive Delta-causality control its authors' group
 * proposed after it: Delta = the adapt_quantile of the
 * last adapt_window observed delays + adapt_margin, within
 * [adapt_min, adapt_max], moving at adapt_slew (lagest.h). Each terminal
 * sets its own Delta from the MUs it receives. */
#include "lagview.h"

static void init(void *self, const SchemeParams *p, int own_car, int ncars, const Mu *grid)
{
    lagview_init(self, p, own_car, ncars, grid, LAGV_DISCARD_LATE);
}

const SchemeType scheme_adaptive_causality = {
    .name = "adaptive-causality",
    .title = "Adaptive Δ",
    .abbr = "AdaptΔ",
    .summary = "Delta-causality, Delta = observed delay quantile + margin; late MUs discarded",
    .state_size = sizeof(LagView),
    .car_size = sizeof(LagCar),
    .every_sample = true,
    .init = init,
    .set_params = lagview_set_params,
    .on_local = lagview_local,
    .on_receive = lagview_receive,
    .display = lagview_display,
    .output_time = lagview_output_time,
};
