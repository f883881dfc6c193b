/* The driving screens' camera: span and look-ahead from the speed, each
 * smoothed by a critically damped spring (drivecam.h). */
#include "drivecam.h"

#include <math.h>
#include <string.h>

double drivecam_span_cw(double speed_cws)
{
    return DRIVECAM_SPAN0_CW + DRIVECAM_SPAN_S * fabs(speed_cws);
}

double drivecam_ahead_cw(double speed_cws)
{
    double cap = DRIVECAM_AHEAD_SHARE * drivecam_span_cw(speed_cws);
    return fmax(-cap, fmin(cap, DRIVECAM_AHEAD_S * speed_cws));
}

void drivecam_spring(double *x, double *vel, double target, double omega, double dt_s)
{
    if (!(dt_s > 0))
        return;
    /* y = x - target obeys y'' + 2 w y' + w^2 y = 0:
     * y(t) = (y0 + (v0 + w y0) t) e^(-w t) */
    double y = *x - target, v = *vel, k = v + omega * y, e = exp(-omega * dt_s);
    *x = target + (y + k * dt_s) * e;
    *vel = (v - omega * k * dt_s) * e;
}

void drivecam_reset(DriveCam *c, DriveCamMode mode)
{
    memset(c, 0, sizeof *c);
    c->mode = mode;
}

/* The target rotation, unwrapped to the nearest turn of the current one
 * (a heading crossing +-pi must not spin the screen round). */
static double rot_target(const DriveCam *c, double heading)
{
    double t = heading - NR_PI / 2;
    return c->rot + nr_wrap_angle(t - c->rot);
}

void drivecam_update(DriveCam *c, const Pose *pose, double speed_cws, double dt_s)
{
    double ahead = drivecam_ahead_cw(speed_cws), span = drivecam_span_cw(speed_cws);
    if (!c->primed) {
        c->primed = true;
        c->span = span;
        c->rot = pose->heading - NR_PI / 2;
        c->ax = cos(pose->heading) * ahead;
        c->ay = sin(pose->heading) * ahead;
        c->span_v = c->rot_v = c->ax_v = c->ay_v = 0.0;
        return;
    }
    drivecam_spring(&c->span, &c->span_v, span, DRIVECAM_OMEGA_SPAN, dt_s);
    double dir = pose->heading;
    if (c->mode == DRIVECAM_ROTATE) {
        drivecam_spring(&c->rot, &c->rot_v, rot_target(c, pose->heading), DRIVECAM_OMEGA_ROT, dt_s);
        dir = c->rot + NR_PI / 2; /* ahead is up the screen: the car stays centred across */
    } else if (c->rot != 0.0 || c->rot_v != 0.0) {
        /* back to north up from rotate mode: turning, not a jump */
        double north = c->rot - nr_wrap_angle(c->rot);
        drivecam_spring(&c->rot, &c->rot_v, north, DRIVECAM_OMEGA_ROT, dt_s);
        if (fabs(c->rot - north) < 1e-4 && fabs(c->rot_v) < 1e-3)
            c->rot = c->rot_v = 0.0;
    }
    drivecam_spring(&c->ax, &c->ax_v, cos(dir) * ahead, DRIVECAM_OMEGA_AHEAD, dt_s);
    drivecam_spring(&c->ay, &c->ay_v, sin(dir) * ahead, DRIVECAM_OMEGA_AHEAD, dt_s);
}

void drivecam_set_mode(DriveCam *c, DriveCamMode mode)
{
    if (c->mode == mode)
        return;
    if (mode == DRIVECAM_ROTATE && c->rot == 0.0)
        c->rot_v = 0.0; /* from north up (rot 0) the screen turns to the nose */
    c->mode = mode;
}

void drivecam_kick(DriveCam *c, double dx_cws, double dy_cws)
{
    c->ax_v += dx_cws;
    c->ay_v += dy_cws;
}

void drivecam_xform(const DriveCam *c, const Pose *pose, const SDL_FRect *rect, AppXform *x)
{
    memset(x, 0, sizeof *x);
    x->rect = *rect;
    x->cx = rect->x + rect->w / 2;
    x->cy = rect->y + rect->h / 2;
    double ax = c->primed ? c->ax : 0.0, ay = c->primed ? c->ay : 0.0;
    double span = c->primed ? c->span : DRIVECAM_SPAN0_CW;
    x->wx = pose->x + ax;
    x->wy = pose->y + ay;
    double px = fmin(rect->w, rect->h);
    x->scale = (float)fmax(px / span, fmin(DRIVECAM_MIN_PX_CW, px / DRIVECAM_SPAN0_CW));
    if (c->mode == DRIVECAM_ROTATE || c->rot != 0.0) {
        x->rotated = true;
        x->rot = c->primed || c->mode != DRIVECAM_ROTATE ? c->rot : pose->heading - NR_PI / 2;
        x->rot_cos = cos(x->rot);
        x->rot_sin = sin(x->rot);
    }
}

bool drivecam_mode_parse(const char *text, DriveCamMode *mode)
{
    if (strcmp(text, "north") == 0)
        *mode = DRIVECAM_NORTH;
    else if (strcmp(text, "rotate") == 0)
        *mode = DRIVECAM_ROTATE;
    else
        return false;
    return true;
}

const char *drivecam_mode_name(DriveCamMode mode)
{
    return mode == DRIVECAM_ROTATE ? "rotate" : "north";
}
