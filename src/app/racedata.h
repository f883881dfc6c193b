/* What the overview of every scheme draws of a race, gathered once per frame
 * from whatever runs it (DESIGN.md "one runtime"): the schemes, each one's
 * metrics and history, and what each terminal displays of both cars. The
 * gauges, the charts and the thumbnails read this, never an Engine, so the
 * same overview shows a replay, a game and a network race (where the peer's
 * screens are what its latest VIEW packet said, late_us old).
 *
 * Contracts:
 *   racedata_from_engine(d, e, end_us)  fills d from engine e at its current
 *        instant (every terminal's view known); end_us is the end of the
 *        charts' time axis (the recording's end, or now for a live race);
 *        the lagometer's rings when the engine keeps them, no network
 *        history.
 */
#ifndef NR_RACEDATA_H
#define NR_RACEDATA_H

#include "engine.h"
#include "lagometer.h"

typedef struct RaceData {
    int n;                                    /* schemes */
    const SchemeType *scheme[SCHEME_MAX];
    const Metrics *metrics[SCHEME_MAX];       /* borrowed until the race moves on */
    const MetricSample *history[SCHEME_MAX];  /* oldest first; NULL = none */
    int nhistory[SCHEME_MAX];
    EngineView view[SCHEME_MAX][2];           /* [scheme][terminal] */
    bool known[SCHEME_MAX][2];                /* false: that terminal's screen is not known here */
    int64_t late_us[2];                       /* how old each terminal's screens are (us): 0 when
                                               * computed here, a network delay for the peer's */
    int64_t now_us, end_us, period_us;        /* race time, the charts' end, the sampling period */
    const LagRing *lag[SCHEME_MAX][2];        /* the lagometer's rings (engine_lag); NULL: none here */
    int64_t delta_us;                         /* Delta in force (the lagometer's line) */
    const LagNetHist *net;                    /* network play's clock estimates; NULL otherwise */
} RaceData;

void racedata_from_engine(RaceData *d, const Engine *e, int64_t end_us);

#endif
