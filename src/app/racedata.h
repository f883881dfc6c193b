/* What the overview of every scheme draws of a race, gathered once per frame
 * from whatever runs it (DESIGN.md "one runtime"): the schemes, each one's
 * metrics and history, and what each terminal displays of both cars. The
 * gauges, the charts and the thumbnails read this, never an Engine, so the
 * same overview shows a replay, a game and a network race (where the peer's
 * screens are what its latest VIEW packet said, late_us old).
 *
 * Contracts:
 *   racedata_from_engine(d, e, end_us)  fills d from engine e at its current
 *        instant (every terminal's view known, all N of them); end_us is
 *        the end of the charts' time axis (the recording's end, or now for
 *        a live race); the lagometer's rings when the engine keeps them,
 *        no network history.
 *   racedata_cars(d)   the race's car count (2..ENGINE_MAX_CARS).
 */
#ifndef NR_RACEDATA_H
#define NR_RACEDATA_H

#include "engine.h"
#include "lagometer.h"

typedef struct RaceData {
    int n;                                    /* schemes */
    int ncars;                                /* cars and terminals; 0 = 2 (racedata_cars) */
    const SchemeType *scheme[SCHEME_MAX];
    const Metrics *metrics[SCHEME_MAX];       /* borrowed until the race moves on */
    const MetricSample *history[SCHEME_MAX];  /* oldest first; NULL = none */
    int nhistory[SCHEME_MAX];
    EngineView view[SCHEME_MAX][ENGINE_MAX_CARS]; /* [scheme][terminal] */
    bool known[SCHEME_MAX][ENGINE_MAX_CARS];  /* false: that terminal's screen is not known here */
    int64_t late_us[ENGINE_MAX_CARS];         /* how old each terminal's screens are (us): 0 when
                                               * computed here, a network delay for the peer's */
    int64_t now_us, end_us, period_us;        /* race time, the charts' end, the sampling period */
    const LagRing *lag[SCHEME_MAX][ENGINE_MAX_CARS]; /* the lagometer's rings (engine_lag); NULL: none here */
    int64_t delta_us;                         /* Delta in force (the lagometer's line) */
    const LagNetHist *net;                    /* network play's clock estimates; NULL otherwise */
} RaceData;

void racedata_from_engine(RaceData *d, const Engine *e, int64_t end_us);

/* The race's cars (2 when the owner left ncars 0, as a two-car network race does). */
static inline int racedata_cars(const RaceData *d)
{
    return d->ncars >= 2 && d->ncars <= ENGINE_MAX_CARS ? d->ncars : 2;
}

#endif
