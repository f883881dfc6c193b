/* Delay equalisation (the fairness literature's latency balancing at a
 * server, e.g. Zander, Leeder and Armitage, "Achieving fairness in
 * multiplayer network games through automated latency balancing", ACE
 * 2005; the fairness paper's Section 4.2 equalises the error receivers see,
 * here the delay itself is equalised): the receiver
 * of the faster direction holds each MU until its generation time + E, E the
 * slower direction's delay, so both players see the other car equally late.
 * Each terminal sends the statistic of its incoming delays on its MUs
 * (aux[0]); E = the larger of the two statistics (no margin: equalise, do not
 * add; with N cars the largest of every terminal's, docs/schemes.md), within
 * the bounds, starting at 0 and moving at adapt_slew. The own
 * car is shown at its real position, as with nc; an MU later than E is shown
 * on arrival. */
#include "lagview.h"

static void init(void *self, const SchemeParams *p, int own_car, int ncars, const Mu *grid)
{
    lagview_init(self, p, own_car, ncars, grid, LAGV_GROUP | LAGV_OWN_NOW | LAGV_NO_MARGIN | LAGV_START_ZERO);
}

const SchemeType scheme_equalize = {
    .name = "equalize",
    .title = "Equalize",
    .abbr = "Equal.",
    .summary = "the faster direction's receiver holds MUs to the slower direction's delay",
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
