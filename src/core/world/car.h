/* Car physics: a kinematic bicycle model with a tyre grip limit (friction
 * circle), aerodynamic drag and rolling resistance, solid car bodies (oriented
 * rectangles) and the track edge (grass, then a wall).
 *
 * The model, per unit mass, in car widths (cw) and seconds:
 *   longitudinal  a_t = T*A_engine - B*A_brake*sign(v) - k_drag*v*|v| - k_roll*v
 *                 clipped to the grip (|a_t| <= grip); on grass the extra
 *                 rolling resistance k_grass*v drags on the body on top of it
 *                 (a = a_t - k_grass*v) and takes none of the grip; below
 *                 0.5 cw/s a held brake drives backwards at A_reverse up to
 *                 v_reverse.
 *   steering      delta = steer * delta_max; yaw rate w = v tan(delta) / L
 *                 (the kinematic bicycle model, wheelbase L), limited so that
 *                 the lateral acceleration v*w stays within what the friction
 *                 circle leaves beside a_t: sqrt(grip^2 - a_t^2) (understeer).
 *   sliding       a sideways velocity (from a collision or a wall) decays at
 *                 most at the grip.
 *   surface       beyond half the track width the car is on grass: rolling
 *                 resistance k_grass and a lower grip; CAR_GRASS_CW beyond the
 *                 edge stands a wall (world.c): a body corner that reaches it
 *                 gets a rigid-body impulse at that corner (car_wall_impulse).
 *   spin          a yaw rate from an impact (spin) adds to the steering's and
 *                 decays as the tyres bite: at grip * (L / 2) / I per second
 *                 (the tyres' largest side force at an axle, its lever half
 *                 the wheelbase, over the body's moment of inertia per unit
 *                 mass I = (CAR_LENGTH_CW^2 + CAR_WIDTH_CW^2) / 12).
 *   slipstream    a car up to CAR_DRAFT_CW behind another, within a car
 *                 width of its axis, saves up to CAR_DRAFT_MAX of its drag
 *                 (world.c sets Car.draft), which lets it pass on a straight.
 *   bodies        CAR_LENGTH_CW x CAR_WIDTH_CW rectangles; overlapping bodies
 *                 are pushed apart along the axis of least overlap (separating
 *                 axis theorem) and exchange an impulse along it (equal
 *                 masses, restitution CAR_RESTITUTION), so they never overlap
 *                 after a step.
 * Terminal speed on a straight under full throttle solves
 * A_engine = k_drag v^2 + k_roll v; the low-speed turning radius is
 * L / tan(delta). docs/driving.md gives every constant.
 *
 * Contracts:
 *   car_params_default(p)          the constants above.
 *   car_input_clamp(in)            throttle, brake to [0, 1], steer to [-1, 1];
 *                                  non-finite values become 0.
 *   car_step(c, in, p, grass, dt)  advances one car dt seconds on its surface
 *                                  (no walls, no other cars). Pure arithmetic:
 *                                  same inputs, same bits.
 *   car_overlap(a, b, &nx, &ny, &depth)  true when the two bodies overlap;
 *                                  (nx, ny) is the unit axis from a to b along
 *                                  which depth separates them.
 *   car_collide(a, b)              separates two overlapping bodies and
 *                                  applies the impulse; false when apart.
 *   car_speed(c)                   signed speed along the heading (cw/s).
 *   car_corners(c, out)            the body's four corners (front left,
 *                                  rear left, rear right, front right).
 *   car_wall_impulse(c, px, py, nx, ny, e, mu)  a contact of the body at
 *                                  point (px, py) with a fixed obstacle whose
 *                                  unit normal (nx, ny) points from the car
 *                                  into it: when the point approaches it
 *                                  (normal speed vn > 0), the rigid-body
 *                                  impulse j = (1 + e) vn / (1 + (r x n)^2 / I)
 *                                  along -n and Coulomb friction up to mu j
 *                                  (never more than stops the point's
 *                                  sliding) change the velocity and the spin
 *                                  (Baraff, "Physically Based Modeling:
 *                                  Rigid Body Simulation", SIGGRAPH 2001
 *                                  course notes, section 8; friction capped
 *                                  as in Mirtich, "Impulse-based Dynamic
 *                                  Simulation of Rigid Body Systems", 1996,
 *                                  ch. 4). Returns vn, 0 when the point
 *                                  does not approach (nothing changed).
 *   car_collide_closing(a, b, &closing)  car_collide, with the closing
 *                                  speed along the contact normal before the
 *                                  impulse (0 when they were separating).
 */
#ifndef NR_CAR_H
#define NR_CAR_H

#include "nr_common.h"

#define CAR_LENGTH_CW 2.0
#define CAR_WIDTH_CW 1.0
#define CAR_GRASS_CW 2.5          /* grass strip between the track edge and the wall */
#define CAR_RESTITUTION 0.3       /* car to car */
#define CAR_WALL_RESTITUTION 0.2  /* car to wall */
#define CAR_WALL_FRICTION 0.5     /* Coulomb friction, car body on the wall */
/* the body's moment of inertia per unit mass (cw^2): a uniform rectangle */
#define CAR_INERTIA_CW2 ((CAR_LENGTH_CW * CAR_LENGTH_CW + CAR_WIDTH_CW * CAR_WIDTH_CW) / 12.0)
#define CAR_DRAFT_MAX 0.5         /* drag saved right behind another car */
#define CAR_DRAFT_CW 16.0         /* slipstream length behind a car */

typedef struct CarInput {
    double throttle; /* 0..1 */
    double brake;    /* 0..1; at a standstill it reverses */
    double steer;    /* -1 (right) .. 1 (left) */
} CarInput;

typedef struct CarParams {
    double a_engine;  /* cw/s^2 at full throttle */
    double a_brake;   /* cw/s^2 at full brake */
    double a_reverse; /* cw/s^2 backwards */
    double v_reverse; /* cw/s, largest reverse speed */
    double k_drag;    /* 1/cw */
    double k_roll;    /* 1/s */
    double k_grass;   /* 1/s, rolling resistance on grass */
    double grip;      /* cw/s^2, tyre grip on the track */
    double grip_grass;
    double wheelbase; /* cw */
    double steer_max; /* rad */
} CarParams;

/* A car's state: position of its centre, heading, velocity in its own frame. */
typedef struct Car {
    double x, y;     /* cw */
    double heading;  /* rad, 0 = +x, counter-clockwise */
    double v;        /* cw/s along the heading */
    double v_side;   /* cw/s sideways (left positive) */
    double yaw_rate; /* rad/s of the last step (steering and spin) */
    double spin;     /* rad/s of yaw from an impact, on top of the steering's */
    double draft;    /* 0..CAR_DRAFT_MAX: share of drag saved in a slipstream */
} Car;

void car_params_default(CarParams *p);
CarInput car_input_clamp(CarInput in);
void car_step(Car *c, const CarInput *in, const CarParams *p, bool grass, double dt);
bool car_overlap(const Car *a, const Car *b, double *nx, double *ny, double *depth);
bool car_collide(Car *a, Car *b);
double car_speed(const Car *c);
void car_corners(const Car *c, double out[4][2]);
double car_wall_impulse(Car *c, double px, double py, double nx, double ny, double e, double mu);
bool car_collide_closing(Car *a, Car *b, double *closing);

#endif
