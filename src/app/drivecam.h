/* The camera of a driving screen (the game's screens, the network window):
 * it widens with speed and looks ahead along the car's motion, far enough
 * at top speed to see the braking point of the next bend, and moves
 * smoothly: the span, the look-ahead and (rotate mode) the screen's
 * rotation each follow their target through a critically damped spring,
 * so the picture never jumps when the speed or the heading does (a wall
 * hit, a spin). North up (the minimap's and the replay window's
 * orientation) or rotating with the car (its nose up).
 *
 * The targets, in car widths (cw) and cw/s, for a speed v along the
 * heading (docs/play.md "The screens"):
 *   span  DRIVECAM_SPAN0_CW + DRIVECAM_SPAN_S * |v| across the short side
 *         of the view (30 cw at rest, 51.6 at the 36 cw/s top speed), but
 *         never fewer than DRIVECAM_MIN_PX_CW pixels per cw;
 *   ahead DRIVECAM_AHEAD_S * v along the heading (backwards when
 *         reversing), at most DRIVECAM_AHEAD_SHARE of the span.
 * At top speed the view shows 19.8 + 25.8 = 45.6 cw ahead of the car in
 * its worst direction (along the short side): braking from 36 cw/s to
 * the 17 cw/s of a radius-20 bend at the full 14 cw/s^2 takes 35 cw
 * ((36^2 - 17^2) / 28), and the rest leaves 0.3 s to react.
 *
 * Contracts:
 *   drivecam_span_cw(v), drivecam_ahead_cw(v)  the targets above.
 *   drivecam_spring(&x, &vel, target, omega, dt)  the exact solution of
 *        x'' = -omega^2 (x - target) - 2 omega x' over dt with the target
 *        held (a critically damped spring: no overshoot, x and x'
 *        continuous; Lowe, "Critically Damped Ease-In/Ease-Out Smoothing",
 *        Game Programming Gems 4, 2004). dt <= 0 changes nothing.
 *   drivecam_reset(c, mode)  the next update snaps to its targets (a new
 *        race, the car placed on the grid).
 *   drivecam_update(c, pose, v, dt_s)  follows the car at pose moving at v
 *        for dt_s seconds of the app's clock.
 *   drivecam_set_mode(c, mode)  north up or rotating with the car; the
 *        screen turns to the new orientation through the spring.
 *   drivecam_kick(c, dx, dy)  a jolt of the look-ahead (cw/s, world): a
 *        hit's feedback, smoothed by the same spring.
 *   drivecam_xform(c, pose, rect, &x)  the view's transform into rect
 *        (any size): the car at pose plus the smoothed look-ahead at the
 *        centre, the smoothed span across rect's short side, rotated so
 *        the smoothed heading points up in rotate mode.
 *   drivecam_mode_parse(text, &mode)  "north" or "rotate"; false otherwise.
 *   drivecam_mode_name(mode)  its name.
 */
#ifndef NR_DRIVECAM_H
#define NR_DRIVECAM_H

#include "app_internal.h"

#define DRIVECAM_SPAN0_CW 30.0
#define DRIVECAM_SPAN_S 0.6       /* cw of span per cw/s */
#define DRIVECAM_AHEAD_S 0.55     /* look-ahead: seconds of the speed */
#define DRIVECAM_AHEAD_SHARE 0.42 /* at most this share of the span */
#define DRIVECAM_MIN_PX_CW 6.0    /* a car never shorter than 12 px */
#define DRIVECAM_OMEGA_SPAN 2.5   /* rad/s: 90 % of a change in about 1.6 s */
#define DRIVECAM_OMEGA_AHEAD 4.0  /* rad/s: about 1 s */
#define DRIVECAM_OMEGA_ROT 6.0    /* rad/s: about 0.65 s */

typedef enum DriveCamMode { DRIVECAM_NORTH, DRIVECAM_ROTATE } DriveCamMode;

typedef struct DriveCam {
    DriveCamMode mode;
    bool primed;             /* false: the next update snaps */
    double span, span_v;     /* cw, cw/s */
    double ax, ay, ax_v, ay_v; /* look-ahead offset from the car (world cw) */
    double rot, rot_v;       /* the screen's rotation (rad, unwrapped): heading -
                              * pi/2 in rotate mode, 0 north up */
} DriveCam;

double drivecam_span_cw(double speed_cws);
double drivecam_ahead_cw(double speed_cws);
void drivecam_spring(double *x, double *vel, double target, double omega, double dt_s);
void drivecam_reset(DriveCam *c, DriveCamMode mode);
void drivecam_update(DriveCam *c, const Pose *pose, double speed_cws, double dt_s);
void drivecam_set_mode(DriveCam *c, DriveCamMode mode);
void drivecam_kick(DriveCam *c, double dx_cws, double dy_cws);
void drivecam_xform(const DriveCam *c, const Pose *pose, const SDL_FRect *rect, AppXform *x);
bool drivecam_mode_parse(const char *text, DriveCamMode *mode);
const char *drivecam_mode_name(DriveCamMode mode);

#endif
