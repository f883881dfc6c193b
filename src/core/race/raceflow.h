/* The flow of a driven race (grid, countdown lights, racing, finish, done)
 * and its lap and finish bookkeeping as each terminal saw it.
 *
 * A networked race has one truth (the physics) and one picture per terminal
 * (what its scheme displays: the other car late, predicted or Delta behind).
 * The racing paper (Yasui & Ishibashi, Section 2) measures the disagreement
 * between those pictures; a player who is shown crossing the line second
 * at one terminal and first at the other lives that disagreement. So laps,
 * lap times and the finishing order are kept once per terminal (from the
 * displayed progress the engine reports) and once in the truth, and the
 * results say when the orders differ. A race has cfg.ncars cars and as many
 * terminals (2 to RACEFLOW_CARS; issue 19's N-car races).
 *
 * Times: flow time: the app's clock in microseconds, paused time excluded, for
 * the grid and countdown; race time, in microseconds since the lights went out
 * (the recording's t = 0), for everything after. Progress: unwrapped
 * along-track progress in car widths from the start line (the grid is at
 * negative progress); lap k (1-based) is complete when progress >= k * L.
 *
 * Phases: RF_GRID (waiting for players: pads join) -> raceflow_go ->
 * RF_COUNTDOWN (RACEFLOW_LIGHTS red lights come on one per
 * RACEFLOW_LIGHT_US, then go out together: the start) -> RF_RACING ->
 * RF_FINISHING (the truth's race is over: every car completed the laps, or
 * the time limit passed, or the grace after the first finisher ran out, or
 * nobody finished within laps * RACEFLOW_MAX_LAP_US; the
 * cars keep being fed so each terminal can show the finish late) -> RF_DONE
 * (every terminal showed every finish, or RACEFLOW_TAIL_US passed).
 *
 * Contracts:
 *   raceflow_init(rf, cfg)      phase RF_GRID; cfg copied. laps >= 1 or
 *        duration_us > 0 (laps mode when duration_us == 0); ncars 0 = 2,
 *        clamped to 2..RACEFLOW_CARS.
 *   raceflow_go(rf, flow_us)    RF_GRID -> RF_COUNTDOWN starting at flow_us.
 *   raceflow_tick(rf, flow_us)  advances the countdown; returns true at the
 *        call that turns RF_COUNTDOWN into RF_RACING (race time 0 is the
 *        instant countdown_start + RACEFLOW_LIGHTS * RACEFLOW_LIGHT_US).
 *   raceflow_lights(rf, flow_us)  red lights lit now (0..RACEFLOW_LIGHTS);
 *        0 on the grid and after the start.
 *   raceflow_sample(rf, t_us, p)  one race sample at race time t_us
 *        (increasing): p->truth[c] is car c's true progress, p->seen[j][c]
 *        car c's progress as terminal j displays it (c, j < ncars; the
 *        rest is not read). Records lap
 *        crossings (the first sample at or past each line) and moves the
 *        phase on. Ignored outside RF_RACING / RF_FINISHING.
 *   raceflow_result(rf, who, out)  the standings as who saw them (who a
 *        terminal 0..ncars-1, RACEFLOW_TRUTH the physics; anything else
 *        reads as the truth): order[0..ncars) with the winner first.
 *        Finished cars by finish time, ties to the lower car index, then
 *        unfinished ones by last progress. In time mode the order is the
 *        progress at the time limit as who displayed it then.
 *   raceflow_same_order(rf, a, b)  views a and b (terminals or the truth)
 *        have the same finishing order.
 *   raceflow_orders_differ(rf)  true when two terminals' finishing orders
 *        differ (with two cars: terminal 1's and terminal 2's).
 */
#ifndef NR_RACEFLOW_H
#define NR_RACEFLOW_H

#include "nr_common.h"

#define RACEFLOW_CARS 8         /* cars and terminals at most (ENGINE_MAX_CARS) */
#define RACEFLOW_TRUTH RACEFLOW_CARS /* index of the truth after the terminals */
#define RACEFLOW_VIEWS (RACEFLOW_CARS + 1) /* every terminal, then the truth */
#define RACEFLOW_MAX_LAPS 99
#define RACEFLOW_LIGHTS 5       /* red lights, as a Formula 1 start */
#define RACEFLOW_LIGHT_US (1000 * NR_US_PER_MS)
/* After the truth's finish, how long the terminals may lag in showing it:
 * beyond any Delta (4 s at most) a terminal still waits for, so a terminal
 * that never shows the finish (a car frozen on the grid behind a link slower
 * than Delta) does not hold the race open. */
#define RACEFLOW_TAIL_US (5000 * NR_US_PER_MS)
/* In laps mode, how long the others may still finish after the first car
 * (then they are classified by progress, not finished). */
#define RACEFLOW_GRACE_US (30000 * NR_US_PER_MS)
/* In laps mode, a race nobody finishes (a script that stops, two players
 * parked on the grass) ends after this much race time per lap: ten times a
 * slow lap of the default track, so only a stopped race meets it. */
#define RACEFLOW_MAX_LAP_US (600 * NR_US_PER_S)

typedef enum RacePhase {
    RF_GRID,
    RF_COUNTDOWN,
    RF_RACING,
    RF_FINISHING,
    RF_DONE,
} RacePhase;

typedef struct RaceFlowConfig {
    int laps;            /* laps mode: 1..RACEFLOW_MAX_LAPS */
    int64_t duration_us; /* time mode when > 0 (the paper's fixed 30 s race) */
    double lap_cw;       /* track length (car widths) */
    int ncars;           /* cars = terminals; 0 = 2 */
} RaceFlowConfig;

/* One sample's progress (car widths): the truth and each terminal's display. */
typedef struct RaceProgress {
    double truth[RACEFLOW_CARS];
    double seen[RACEFLOW_CARS][RACEFLOW_CARS]; /* [terminal][car] */
} RaceProgress;

typedef struct RaceResult {
    int ncars;
    int order[RACEFLOW_CARS];           /* car indices, winner first (ncars of them) */
    bool finished[RACEFLOW_CARS];       /* laps mode: seen completing every lap */
    int64_t finish_us[RACEFLOW_CARS];   /* race time of the finish as seen; -1 if not */
    int laps_done[RACEFLOW_CARS];       /* completed laps as seen */
    int64_t lap_us[RACEFLOW_CARS][RACEFLOW_MAX_LAPS]; /* lap times (first lap from the start) */
    double progress[RACEFLOW_CARS];     /* last progress as seen (car widths) */
} RaceResult;

typedef struct RaceFlow {
    RaceFlowConfig cfg;
    RacePhase phase;
    int64_t countdown_us; /* flow time the countdown began */
    int64_t race_us;      /* last race sample time */
    int64_t over_us;      /* race time the truth's race ended; -1 while racing */
    int64_t first_finish_us; /* truth; -1 before */
    /* per view (terminal j at j, the truth at RACEFLOW_TRUTH) and car */
    int laps[RACEFLOW_VIEWS][RACEFLOW_CARS];
    int64_t cross_us[RACEFLOW_VIEWS][RACEFLOW_CARS][RACEFLOW_MAX_LAPS];
    double progress[RACEFLOW_VIEWS][RACEFLOW_CARS];
} RaceFlow;

void raceflow_init(RaceFlow *rf, const RaceFlowConfig *cfg);
void raceflow_go(RaceFlow *rf, int64_t flow_us);
bool raceflow_tick(RaceFlow *rf, int64_t flow_us);
int raceflow_lights(const RaceFlow *rf, int64_t flow_us);
void raceflow_sample(RaceFlow *rf, int64_t t_us, const RaceProgress *p);
void raceflow_result(const RaceFlow *rf, int who, RaceResult *out);
bool raceflow_same_order(const RaceFlow *rf, int a, int b);
bool raceflow_orders_differ(const RaceFlow *rf);

#endif
