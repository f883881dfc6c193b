/* The time gap between two cars from their displayed progress (drivegap.h). */
#include "drivegap.h"

#include <math.h>
#include <string.h>

void drivegap_reset(DriveGap *g)
{
    memset(g, 0, sizeof *g);
}

/* The slot of the k-th newest sample (k = 0 the newest). */
static int slot(const DriveGap *g, int k)
{
    return (g->head - 1 - k + 2 * DRIVEGAP_KEEP) % DRIVEGAP_KEEP;
}

void drivegap_add(DriveGap *g, int64_t t_us, const double *progress, int ncars)
{
    if (g->n > 0 && t_us < g->t[slot(g, 0)])
        drivegap_reset(g); /* time went back: a new race */
    int at;
    if (g->n >= 2 && t_us - g->t[slot(g, 1)] < DRIVEGAP_STEP_US) {
        at = slot(g, 0); /* the newest moves on */
    } else {
        at = g->head;
        g->head = (g->head + 1) % DRIVEGAP_KEEP;
        if (g->n < DRIVEGAP_KEEP)
            g->n++;
    }
    g->ncars = ncars < DRIVEGAP_CARS ? ncars : DRIVEGAP_CARS;
    g->t[at] = t_us;
    for (int c = 0; c < g->ncars; c++)
        g->p[at][c] = progress[c];
}

/* The leader's mean speed over its last 2 s (or what history there is). */
static double leader_speed(const DriveGap *g, int leader)
{
    int k = 1;
    while (k < g->n - 1 && g->t[slot(g, 0)] - g->t[slot(g, k)] < 2000000)
        k++;
    double dt = (double)(g->t[slot(g, 0)] - g->t[slot(g, k)]) / 1e6;
    double v = dt > 0 ? (g->p[slot(g, 0)][leader] - g->p[slot(g, k)][leader]) / dt : 0.0;
    return v > 1.0 ? v : 1.0;
}

double drivegap_gap_s(const DriveGap *g, int me, int other, bool *est)
{
    *est = false;
    if (g->n == 0 || me < 0 || other < 0 || me >= g->ncars || other >= g->ncars)
        return 0.0;
    int s0 = slot(g, 0);
    double pm = g->p[s0][me], po = g->p[s0][other];
    if (pm == po)
        return 0.0;
    int leader = po > pm ? other : me;
    double target = po > pm ? pm : po, sign = po > pm ? 1.0 : -1.0;
    /* the latest crossing of target by the leader, between samples k and k - 1 */
    for (int k = 1; k < g->n; k++) {
        int a = slot(g, k), b = slot(g, k - 1);
        if (g->p[a][leader] <= target) {
            double span = g->p[b][leader] - g->p[a][leader];
            double f = span > 0 ? (target - g->p[a][leader]) / span : 0.0;
            double t_cross = (double)g->t[a] + f * (double)(g->t[b] - g->t[a]);
            return sign * ((double)g->t[s0] - t_cross) / 1e6;
        }
    }
    *est = true;
    return sign * (g->p[s0][leader] - target) / leader_speed(g, leader);
}
