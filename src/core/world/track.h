/* Race tracks: loading the versioned text format and centre-line geometry.
 *
 * A track is a closed centre line given by control points, smoothed into a
 * closed curve and re-sampled by arc length, plus a constant width and a
 * start grid. World unit: one car width. Arc length s grows in the racing
 * direction; s = 0 is the start/finish line.
 *
 * Contracts (every function takes the track first; none allocates after load):
 *   track_load(path, err)       parse and validate a .track file; NULL + err
 *                               ("FILE:LINE: what was expected") on failure.
 *   track_parse(text, name, err) same from memory; name is used in messages.
 *   track_free(t)               NULL-safe.
 *   track_length(t)             centre-line length (car widths), > 0.
 *   track_width(t)              full width (car widths), > 0.
 *   track_point(t, s, &x, &y, &heading)  point and tangent heading (rad) at
 *                               arc length s; any real s, wraps modulo length.
 *   track_curvature(t, s)       signed curvature 1/radius at s (left turn > 0).
 *   track_project(t, x, y)      arc length in [0, length) of the nearest
 *                               centre-line point.
 *   track_progress(t, x, y, near_s)  unwrapped progress: the projection of
 *                               (x, y) plus the whole number of laps that puts
 *                               it nearest to near_s.
 *   track_offset(t, x, y)       signed lateral distance from the centre line
 *                               (left > 0).
 *   track_on_track(t, x, y)     |offset| <= width / 2.
 *   track_grid(t, car, &x, &y, &heading, &s)  start grid slot of car index
 *                               car (0-based); s is its (usually negative)
 *                               unwrapped progress at t = 0.
 *   track_grid_slots(t)         number of grid slots (>= 2).
 *   track_name(t)               name from the file header.
 *   track_control_points(t)     number of control points in the file.
 */
#ifndef NR_TRACK_H
#define NR_TRACK_H

#include "nr_common.h"

typedef struct Track Track;

Track *track_load(const char *path, NrError *err);
Track *track_parse(const char *text, const char *name, NrError *err);
void track_free(Track *t);

double track_length(const Track *t);
double track_width(const Track *t);
void track_point(const Track *t, double s, double *x, double *y, double *heading);
double track_curvature(const Track *t, double s);
double track_project(const Track *t, double x, double y);
double track_progress(const Track *t, double x, double y, double near_s);
double track_offset(const Track *t, double x, double y);
bool track_on_track(const Track *t, double x, double y);
void track_grid(const Track *t, int car, double *x, double *y, double *heading, double *s);
int track_grid_slots(const Track *t);
const char *track_name(const Track *t);
int track_control_points(const Track *t);

#endif
