/* Synthetic sender paths for the one-sender experiments and their tests:
 * a car driving with a random, smoothly varying speed and turn rate.
 *
 * Contracts:
 *   synthpath_make(rec, seed, seconds, period_ms, err)  fills rec (one car,
 *        source "synthetic") with samples every period_ms for seconds;
 *        speed 4..16 cw/s and turn rate within +-1.5 rad/s, both changing
 *        every 0.5..2.5 s; deterministic per seed. Free with recording_free.
 *   synthpath_segments(rec, seconds, period_ms, segment_ms, speeds, turns,
 *        nseg, err)  piecewise constant speed and heading: segment k moves
 *        straight at speeds[k] cw/s with heading turns[k] rad, so the
 *        velocity only changes every segment_ms (test scenarios).
 */
#ifndef NR_SYNTHPATH_H
#define NR_SYNTHPATH_H

#include "recording.h"

bool synthpath_make(Recording *rec, uint64_t seed, double seconds, int32_t period_ms, NrError *err);
bool synthpath_segments(Recording *rec, double seconds, int32_t period_ms, int32_t segment_ms,
                        const double *speeds, const double *headings, int nseg, NrError *err);

#endif
