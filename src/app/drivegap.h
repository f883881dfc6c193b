/* The time gap between two cars as one screen displays them, as a timing
 * screen measures it: how long ago the car ahead passed the point where the
 * car behind is now. Fed with the displayed along-track progress of every
 * car at the race time of each sample (the race flow's progress at that
 * terminal), so the gap is the one this terminal shows, late, predicted or
 * Delta behind as its scheme makes it. Pure arithmetic, no SDL.
 *
 * Contracts:
 *   drivegap_reset(g)  empty (a new race).
 *   drivegap_add(g, t_us, progress, ncars)  one sample: progress[c] (cw,
 *        unwrapped) of the first ncars (<= DRIVEGAP_CARS) cars at race time
 *        t_us. The newest sample is always kept; one closer than
 *        DRIVEGAP_STEP_US to the sample before the newest replaces the
 *        newest, so kept samples are a step apart; the oldest go past
 *        DRIVEGAP_KEEP. A time that goes back resets it (a restart).
 *   drivegap_gap_s(g, me, other, &est)  the gap in seconds: > 0 when other
 *        is ahead of me (other passed my position that long ago), < 0
 *        when it is behind (I passed its position that long ago), 0 with
 *        no sample. The crossing is interpolated linearly between the two
 *        samples around it (the latest crossing: a car that went backwards
 *        passed the point more than once). When the history does not reach
 *        back to it (the grid, a car lapped long ago), the distance over
 *        the leader's mean speed of its last 2 s (at least 1 cw/s) and
 *        *est = true.
 */
#ifndef NR_DRIVEGAP_H
#define NR_DRIVEGAP_H

#include <stdbool.h>
#include <stdint.h>

#define DRIVEGAP_CARS 8 /* RACEFLOW_CARS: a served race of 8 */
#define DRIVEGAP_KEEP 512
#define DRIVEGAP_STEP_US 200000 /* 200 ms between kept samples: 102 s of history */

typedef struct DriveGap {
    int n, head, ncars; /* head: the next slot to write */
    int64_t t[DRIVEGAP_KEEP];
    double p[DRIVEGAP_KEEP][DRIVEGAP_CARS];
} DriveGap;

void drivegap_reset(DriveGap *g);
void drivegap_add(DriveGap *g, int64_t t_us, const double *progress, int ncars);
double drivegap_gap_s(const DriveGap *g, int me, int other, bool *est);

#endif
