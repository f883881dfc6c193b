/* Car physics: kinematic bicycle model with a grip limit, drag, rolling
 * resistance, solid bodies (car.h). */
#include "car.h"

#include <math.h>

void car_params_default(CarParams *p)
{
    /* Calibrated to the racing speeds of netrace's races: top speed about
     * 36 cw/s, lateral grip 15 cw/s^2 (a radius-20 bend at about 17 cw/s),
     * laps of the default circuit in about 35 s. */
    *p = (CarParams){
        .a_engine = 9.0,
        .a_brake = 14.0,
        .a_reverse = 3.0,
        .v_reverse = 5.0,
        .k_drag = 0.0055,
        .k_roll = 0.05,
        .k_grass = 0.35,
        .grip = 15.0,
        .grip_grass = 8.0,
        .wheelbase = 1.2,
        .steer_max = 0.6,
    };
}

static double clamp(double v, double lo, double hi)
{
    return !(v >= lo) ? lo : v > hi ? hi : v; /* NaN -> lo */
}

CarInput car_input_clamp(CarInput in)
{
    CarInput out = {
        .throttle = isfinite(in.throttle) ? clamp(in.throttle, 0.0, 1.0) : 0.0,
        .brake = isfinite(in.brake) ? clamp(in.brake, 0.0, 1.0) : 0.0,
        .steer = isfinite(in.steer) ? clamp(in.steer, -1.0, 1.0) : 0.0,
    };
    return out;
}

double car_speed(const Car *c)
{
    return c->v;
}

/* An impact's spin turns the body, not its motion: the velocity keeps its
 * direction in the world (it turns into sideways sliding, which the grip
 * then takes away), and the spin decays as the tyres bite (car.h). A car
 * that never hit anything has none and never comes here (bit for bit the
 * model before the walls spun cars). */
static void car_spin(Car *c, double grip, const CarParams *p, double dt)
{
    double stop = grip * 0.5 * p->wheelbase / CAR_INERTIA_CW2 * dt;
    double s1 = fabs(c->spin) <= stop ? 0.0 : c->spin - copysign(stop, c->spin);
    double turn = 0.5 * (c->spin + s1) * dt, ct = cos(turn), st = sin(turn);
    double v = c->v, vs = c->v_side;
    c->heading = nr_wrap_angle(c->heading + turn);
    c->v = v * ct + vs * st;
    c->v_side = -v * st + vs * ct;
    c->yaw_rate += turn / dt;
    c->spin = s1;
}

void car_step(Car *c, const CarInput *inp, const CarParams *p, bool grass, double dt)
{
    CarInput in = car_input_clamp(*inp);
    double grip = grass ? p->grip_grass : p->grip;
    double roll = p->k_roll + (grass ? p->k_grass : 0.0);
    double v = c->v;
    /* Longitudinal: engine, brakes, drag, rolling resistance, within the
     * grip. A held brake at (nearly) a standstill reverses. */
    double a;
    bool reversing = in.brake > 0 && v <= 0.5 && in.throttle == 0;
    if (reversing) {
        a = v > -p->v_reverse ? -in.brake * p->a_reverse : 0.0;
    } else {
        double brake = in.brake * p->a_brake;
        a = in.throttle * p->a_engine - (v > 0 ? brake : v < 0 ? -brake : 0.0);
    }
    a -= (1.0 - c->draft) * p->k_drag * v * fabs(v) + p->k_roll * v;
    a = clamp(a, -grip, grip);
    /* The grass's extra resistance drags on the body: it slows the car but
     * takes none of the tyres' grip, so a car on the grass still steers. */
    double a_tyre = a;
    a -= (roll - p->k_roll) * v;
    double v1 = v + a * dt;
    /* Brakes and resistance stop a car; they never drive it backwards (only
     * a held brake from rest does, above). */
    if (!reversing && ((v > 0 && v1 < 0) || (v < 0 && v1 > 0)))
        v1 = 0.0;
    if (in.throttle == 0 && in.brake == 0 && v == 0.0)
        v1 = 0.0; /* at rest stays at rest, bit for bit */
    /* Lateral: kinematic bicycle yaw rate, limited by what the friction
     * circle leaves beside the longitudinal acceleration. */
    double delta = in.steer * p->steer_max;
    double vm = 0.5 * (v + v1);
    double w = vm * tan(delta) / p->wheelbase;
    double lat_avail = sqrt(fmax(0.0, grip * grip - a_tyre * a_tyre));
    if (fabs(vm * w) > lat_avail)
        w = copysign(lat_avail / fabs(vm), w);
    /* Sideways sliding (after a collision or a wall) decays at the grip. */
    double vs = c->v_side;
    double dec = grip * dt;
    vs = fabs(vs) <= dec ? 0.0 : vs - copysign(dec, vs);
    /* Move along the heading at the middle of the step (exact chord of the
     * arc to second order in w*dt). */
    double hm = c->heading + 0.5 * w * dt;
    double ch = cos(hm), sh = sin(hm);
    double vsm = 0.5 * (c->v_side + vs);
    c->x += (vm * ch - vsm * sh) * dt;
    c->y += (vm * sh + vsm * ch) * dt;
    c->heading = nr_wrap_angle(c->heading + w * dt);
    c->v = v1;
    c->v_side = vs;
    c->yaw_rate = w;
    if (c->spin != 0.0)
        car_spin(c, grip, p, dt);
}

/* Corners of a body (half length and half width along its axes). */
void car_corners(const Car *c, double out[4][2])
{
    double hx = 0.5 * CAR_LENGTH_CW, hy = 0.5 * CAR_WIDTH_CW;
    double ch = cos(c->heading), sh = sin(c->heading);
    const double sx[4] = {1, -1, -1, 1}, sy[4] = {1, 1, -1, -1};
    for (int i = 0; i < 4; i++) {
        out[i][0] = c->x + sx[i] * hx * ch - sy[i] * hy * sh;
        out[i][1] = c->y + sx[i] * hx * sh + sy[i] * hy * ch;
    }
}

bool car_overlap(const Car *a, const Car *b, double *nx, double *ny, double *depth)
{
    /* Separating axis theorem for two rectangles: the four face normals. */
    double ca[4][2], cb[4][2];
    car_corners(a, ca);
    car_corners(b, cb);
    double axes[4][2] = {{cos(a->heading), sin(a->heading)},
                         {-sin(a->heading), cos(a->heading)},
                         {cos(b->heading), sin(b->heading)},
                         {-sin(b->heading), cos(b->heading)}};
    double best = INFINITY, bx = 1, by = 0;
    for (int k = 0; k < 4; k++) {
        double ax = axes[k][0], ay = axes[k][1];
        double amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;
        for (int i = 0; i < 4; i++) {
            double pa = ca[i][0] * ax + ca[i][1] * ay, pb = cb[i][0] * ax + cb[i][1] * ay;
            amin = fmin(amin, pa);
            amax = fmax(amax, pa);
            bmin = fmin(bmin, pb);
            bmax = fmax(bmax, pb);
        }
        double o = fmin(amax, bmax) - fmax(amin, bmin);
        if (o <= 0)
            return false;
        if (o < best) {
            best = o;
            /* Point the axis from a to b. */
            double d = (b->x - a->x) * ax + (b->y - a->y) * ay;
            bx = d >= 0 ? ax : -ax;
            by = d >= 0 ? ay : -ay;
        }
    }
    if (nx)
        *nx = bx;
    if (ny)
        *ny = by;
    if (depth)
        *depth = best;
    return true;
}

/* Velocity of a car in world coordinates and back. */
static void world_vel(const Car *c, double *vx, double *vy)
{
    double ch = cos(c->heading), sh = sin(c->heading);
    *vx = c->v * ch - c->v_side * sh;
    *vy = c->v * sh + c->v_side * ch;
}

static void set_world_vel(Car *c, double vx, double vy)
{
    double ch = cos(c->heading), sh = sin(c->heading);
    c->v = vx * ch + vy * sh;
    c->v_side = -vx * sh + vy * ch;
}

bool car_collide(Car *a, Car *b)
{
    return car_collide_closing(a, b, NULL);
}

bool car_collide_closing(Car *a, Car *b, double *closing_out)
{
    double nx, ny, depth;
    if (closing_out)
        *closing_out = 0.0;
    if (!car_overlap(a, b, &nx, &ny, &depth))
        return false;
    /* Push apart, half each, a hair beyond touching. */
    double push = 0.5 * depth + 1e-6;
    a->x -= nx * push;
    a->y -= ny * push;
    b->x += nx * push;
    b->y += ny * push;
    /* Impulse along the normal between equal masses when they approach. */
    double avx, avy, bvx, bvy;
    world_vel(a, &avx, &avy);
    world_vel(b, &bvx, &bvy);
    double closing = (bvx - avx) * nx + (bvy - avy) * ny;
    if (closing < 0) {
        double j = -(1.0 + CAR_RESTITUTION) * closing / 2.0;
        set_world_vel(a, avx - j * nx, avy - j * ny);
        set_world_vel(b, bvx + j * nx, bvy + j * ny);
        if (closing_out)
            *closing_out = -closing;
    }
    return true;
}

double car_wall_impulse(Car *c, double px, double py, double nx, double ny, double e, double mu)
{
    double rx = px - c->x, ry = py - c->y;
    double vx, vy;
    world_vel(c, &vx, &vy);
    /* the contact point's velocity: the centre's plus w x r */
    double w = c->yaw_rate;
    double vn = (vx - w * ry) * nx + (vy + w * rx) * ny;
    if (!(vn > 0))
        return 0.0;
    double inv_i = 1.0 / CAR_INERTIA_CW2, rn = rx * ny - ry * nx;
    /* the normal impulse: the point leaves at -e times its approach */
    double jn = (1.0 + e) * vn / (1.0 + rn * rn * inv_i);
    vx -= jn * nx;
    vy -= jn * ny;
    w -= rn * jn * inv_i;
    /* then Coulomb friction against the point's sliding: at most mu jn and
     * at most what stops the sliding (it never reverses it) */
    double tx = -ny, ty = nx, rt = rx * ty - ry * tx;
    double vt = (vx - w * ry) * tx + (vy + w * rx) * ty;
    double jt = fmin(mu * jn, fabs(vt) / (1.0 + rt * rt * inv_i));
    jt = copysign(jt, vt);
    vx -= jt * tx;
    vy -= jt * ty;
    w -= rt * jt * inv_i;
    set_world_vel(c, vx, vy);
    c->spin += w - c->yaw_rate;
    c->yaw_rate = w;
    return vn;
}
