/* Group synchronization (Ishibashi and Tasaka's group synchronization
 * control for multimedia groups, as applied to networked games after the
 * racing paper): every terminal outputs each MU at the same moment, its
 * generation time + G, G set by the slowest path. Each terminal measures its
 * incoming delay (the adapt_quantile of its observed delays) and sends that
 * statistic on its MUs (aux[0]); both then take G = the larger of the two
 * (with N cars the largest of every terminal's, docs/schemes.md) +
 * adapt_margin, within the bounds, moving at adapt_slew, and show every car
 * as of now - G. A late MU is shown on arrival. */
#include "lagview.h"

static void init(void *self, const SchemeParams *p, int own_car, int ncars, const Mu *grid)
{
    lagview_init(self, p, own_car, ncars, grid, LAGV_GROUP);
}

const SchemeType scheme_group_sync = {
    .name = "group-sync",
    .title = "Group Sync",
    .abbr = "GSync",
    .summary = "every terminal outputs at gen + the slower direction's delay + margin",
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
