/* Race flow of a driven race and its lap / finish bookkeeping per terminal. */
#include "raceflow.h"

#include <string.h>

void raceflow_init(RaceFlow *rf, const RaceFlowConfig *cfg)
{
    memset(rf, 0, sizeof *rf);
    rf->cfg = *cfg;
    if (rf->cfg.laps < 1)
        rf->cfg.laps = 1;
    if (rf->cfg.laps > RACEFLOW_MAX_LAPS)
        rf->cfg.laps = RACEFLOW_MAX_LAPS;
    if (rf->cfg.ncars < 2)
        rf->cfg.ncars = 2;
    if (rf->cfg.ncars > RACEFLOW_CARS)
        rf->cfg.ncars = RACEFLOW_CARS;
    rf->phase = RF_GRID;
    rf->race_us = -1;
    rf->over_us = -1;
    rf->first_finish_us = -1;
}

void raceflow_go(RaceFlow *rf, int64_t flow_us)
{
    if (rf->phase != RF_GRID)
        return;
    rf->phase = RF_COUNTDOWN;
    rf->countdown_us = flow_us;
}

static int64_t go_at(const RaceFlow *rf)
{
    return rf->countdown_us + RACEFLOW_LIGHTS * RACEFLOW_LIGHT_US;
}

bool raceflow_tick(RaceFlow *rf, int64_t flow_us)
{
    if (rf->phase != RF_COUNTDOWN || flow_us < go_at(rf))
        return false;
    rf->phase = RF_RACING;
    return true;
}

int raceflow_lights(const RaceFlow *rf, int64_t flow_us)
{
    if (rf->phase != RF_COUNTDOWN || flow_us < rf->countdown_us)
        return 0;
    int64_t n = (flow_us - rf->countdown_us) / RACEFLOW_LIGHT_US + 1;
    return n > RACEFLOW_LIGHTS ? RACEFLOW_LIGHTS : (int)n;
}

static void count_laps(RaceFlow *rf, int v, int c, double progress, int64_t t_us)
{
    rf->progress[v][c] = progress;
    while (rf->laps[v][c] < rf->cfg.laps && progress >= (rf->laps[v][c] + 1) * rf->cfg.lap_cw) {
        rf->cross_us[v][c][rf->laps[v][c]] = t_us;
        rf->laps[v][c]++;
    }
}

static bool finished(const RaceFlow *rf, int v, int c)
{
    return rf->cfg.duration_us <= 0 && rf->laps[v][c] >= rf->cfg.laps;
}

/* Every terminal has shown every finish the truth had (a car the truth never
 * finished cannot be waited for). */
static bool terminals_caught_up(const RaceFlow *rf)
{
    for (int j = 0; j < rf->cfg.ncars; j++)
        for (int c = 0; c < rf->cfg.ncars; c++)
            if (finished(rf, RACEFLOW_TRUTH, c) && !finished(rf, j, c))
                return false;
    return true;
}

void raceflow_sample(RaceFlow *rf, int64_t t_us, const RaceProgress *p)
{
    if ((rf->phase != RF_RACING && rf->phase != RF_FINISHING) || t_us <= rf->race_us)
        return;
    rf->race_us = t_us;
    int n = rf->cfg.ncars;
    for (int c = 0; c < n; c++) {
        count_laps(rf, RACEFLOW_TRUTH, c, p->truth[c], t_us);
        for (int j = 0; j < n; j++)
            count_laps(rf, j, c, p->seen[j][c], t_us);
    }
    if (rf->cfg.duration_us > 0) {
        /* time mode: standings as displayed at the limit; nothing after */
        if (t_us >= rf->cfg.duration_us) {
            rf->over_us = t_us;
            rf->phase = RF_DONE;
        }
        return;
    }
    if (rf->phase == RF_RACING) {
        int done = 0;
        for (int c = 0; c < n; c++)
            done += finished(rf, RACEFLOW_TRUTH, c);
        if (done > 0 && rf->first_finish_us < 0)
            rf->first_finish_us = t_us;
        bool stopped = t_us >= rf->cfg.laps * RACEFLOW_MAX_LAP_US;
        if (done == n || (done > 0 && t_us >= rf->first_finish_us + RACEFLOW_GRACE_US) || stopped) {
            rf->over_us = t_us;
            rf->phase = RF_FINISHING;
        }
    }
    if (rf->phase == RF_FINISHING && (terminals_caught_up(rf) || t_us >= rf->over_us + RACEFLOW_TAIL_US))
        rf->phase = RF_DONE;
}

/* a ahead of b in the standings of view v: finished first, earlier finish,
 * then more progress; an exact tie counts car 2 ahead (as the metrics do). */
static bool ahead(const RaceFlow *rf, int v, int a, int b)
{
    bool fa = finished(rf, v, a), fb = finished(rf, v, b);
    if (fa != fb)
        return fa;
    if (fa) {
        int64_t ta = rf->cross_us[v][a][rf->cfg.laps - 1], tb = rf->cross_us[v][b][rf->cfg.laps - 1];
        if (ta != tb)
            return ta < tb;
    }
    if (rf->progress[v][a] != rf->progress[v][b])
        return rf->progress[v][a] > rf->progress[v][b];
    return a > b;
}

void raceflow_result(const RaceFlow *rf, int who, RaceResult *out)
{
    memset(out, 0, sizeof *out);
    int n = rf->cfg.ncars;
    if (who < 0 || who >= n)
        who = RACEFLOW_TRUTH;
    out->ncars = n;
    for (int c = 0; c < n; c++) {
        out->order[c] = c;
        out->finished[c] = finished(rf, who, c);
        out->laps_done[c] = rf->laps[who][c];
        out->progress[c] = rf->progress[who][c];
        out->finish_us[c] = out->finished[c] ? rf->cross_us[who][c][rf->cfg.laps - 1] : -1;
        int64_t prev = 0;
        for (int k = 0; k < rf->laps[who][c]; k++) {
            out->lap_us[c][k] = rf->cross_us[who][c][k] - prev;
            prev = rf->cross_us[who][c][k];
        }
    }
    /* insertion sort: at most RACEFLOW_CARS cars */
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && ahead(rf, who, out->order[k], out->order[k - 1]); k--) {
            int t = out->order[k];
            out->order[k] = out->order[k - 1];
            out->order[k - 1] = t;
        }
}

bool raceflow_same_order(const RaceFlow *rf, int a, int b)
{
    RaceResult ra, rb;
    raceflow_result(rf, a, &ra);
    raceflow_result(rf, b, &rb);
    return memcmp(ra.order, rb.order, sizeof ra.order) == 0;
}

bool raceflow_orders_differ(const RaceFlow *rf)
{
    for (int j = 1; j < rf->cfg.ncars; j++)
        if (!raceflow_same_order(rf, 0, j))
            return true;
    return false;
}
