/* The overview's data gathered from an Engine (replay and local play). */
#include "racedata.h"

#include <string.h>

void racedata_from_engine(RaceData *d, const Engine *e, int64_t end_us)
{
    d->n = engine_scheme_count(e);
    for (int k = 0; k < d->n; k++) {
        d->scheme[k] = engine_scheme(e, k);
        d->metrics[k] = engine_metrics(e, k);
        d->history[k] = engine_history(e, k, &d->nhistory[k]);
        for (int j = 0; j < 2; j++) {
            engine_view(e, k, j, &d->view[k][j]);
            d->known[k][j] = true;
            d->lag[k][j] = engine_lag(e, k, j);
        }
    }
    for (int j = 0; j < 2; j++)
        d->late_us[j] = 0;
    d->now_us = engine_now(e);
    d->end_us = end_us;
    d->delta_us = engine_params(e)->delta_us;
    d->net = NULL;
    int64_t period = engine_params(e)->period_us;
    d->period_us = period > 0 ? period : 33 * NR_US_PER_MS;
}
