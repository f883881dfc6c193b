/* Dynamic local lag (Mauve et al., "Local-lag and timewarp", IEEE Trans.
 * Multimedia 6(1), 2004, the local lag the fairness paper's Section 2
 * describes; here the lag adapted to the measured delay as in the dynamic
 * local lag control that followed): each terminal shows every
 * car, its own included, L behind now, L = the adapt_quantile of the last
 * adapt_window observed delays + adapt_margin within the bounds, moving at
 * adapt_slew (lagest.h). Unlike causality control an MU arriving after its
 * output time is not discarded: it is shown on arrival (RX_LATE_USED). */
#include "lagview.h"

static void init(void *self, const SchemeParams *p, int own_car, int ncars, const Mu *grid)
{
    lagview_init(self, p, own_car, ncars, grid, 0);
}

const SchemeType scheme_local_lag = {
    .name = "local-lag",
    .title = "Local Lag",
    .abbr = "LocLag",
    .summary = "every car shown L behind, L = observed delay quantile + margin; late MUs used",
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
