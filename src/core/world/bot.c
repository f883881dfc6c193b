/* The bot: a seeded racing driver on the car physics (bot.h). */
#include "bot.h"
#include "rng.h"

#include <math.h>
#include <stdlib.h>

#define PROFILE_DS 0.5     /* cw between speed-profile points */
#define V_TOP 42.0         /* cw/s: above the terminal speed, so straights are flat out */
#define PASS_RANGE 12.0    /* cw: a car this close ahead is towed behind */
#define PASS_PULL 4.5      /* cw: ... and attacked from this close */
#define DEFEND_RANGE 5.0   /* cw: a car this close behind is covered */
#define BODY_GAP 1.4       /* cw: lateral distance that clears another car */
#define ATTACK_PUSH 1.14   /* speed target attacking: beyond the planned grip, to the tyres' limit */

struct Bot {
    const Track *track;
    CarParams p;
    BotDriver d;
    Rng rng;
    int nprof;
    double *vprof;   /* planned speed at s = i * PROFILE_DS */
    double *line;    /* racing-line offset (left positive) at the same points */
    double pace, wander, steer_noise; /* Ornstein-Uhlenbeck states */
    double mistake_left_s;  /* time left of the current mistake */
    double mistake_pace;    /* pace factor during a lift-off mistake */
    double stuck_s;         /* time spent slow while trying to drive */
    double recover_left_s;  /* time left of backing out */
    int pass_side;          /* +1 left, -1 right while attacking, 0 not */
};

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Ornstein-Uhlenbeck step: mean 0, time constant tau, stationary sd. */
static double ou(Rng *r, double x, double tau, double sd, double dt)
{
    double a = exp(-dt / tau);
    return x * a + sd * sqrt(1.0 - a * a) * rng_normal(r);
}

static double mean_curvature(const Track *t, double s)
{
    double k = 0;
    for (int i = -4; i <= 4; i++)
        k += track_curvature(t, s + i);
    return k / 9.0;
}

Bot *bot_new(const Track *track, const CarParams *params, BotDriver driver, uint64_t seed, uint64_t stream,
             NrError *err)
{
    if (!(driver.skill >= 0 && driver.skill <= 1) || !(driver.noise >= 0 && driver.noise <= 1)) {
        nr_error_set(err, "bot: skill %g and noise %g must be in [0, 1]", driver.skill, driver.noise);
        return NULL;
    }
    Bot *b = calloc(1, sizeof *b);
    double len = track_length(track);
    int n = (int)ceil(len / PROFILE_DS);
    if (b) {
        b->vprof = malloc(sizeof(double) * (size_t)n);
        b->line = malloc(sizeof(double) * (size_t)n);
    }
    if (!b || !b->vprof || !b->line) {
        bot_free(b);
        nr_error_set(err, "bot: out of memory");
        return NULL;
    }
    b->track = track;
    b->p = *params;
    b->d = driver;
    b->nprof = n;
    rng_seed(&b->rng, seed, stream);
    double q = driver.skill;
    /* Planned grip: a margin below the tyres' limit, smaller with skill. */
    double grip_plan = params->grip * (0.72 + 0.16 * q);
    double vtop = V_TOP * (0.93 + 0.07 * q);
    double half = track_width(track) / 2;
    for (int i = 0; i < n; i++) {
        double s = i * PROFILE_DS;
        double k = mean_curvature(track, s);
        /* The line cuts to the inside of a bend (curvature > 0: a left bend,
         * inside = left = positive offset), which opens the radius a little. */
        b->line[i] = clampd(50.0 * k, -1.0, 1.0) * (half - 1.2);
        double ka = fabs(k) * 0.85;
        b->vprof[i] = ka > 1e-9 ? fmin(vtop, sqrt(grip_plan / ka)) : vtop;
    }
    /* Braking envelope, planned at 80 % of the brakes: two passes backwards
     * round the closed track. */
    double abrk = 0.8 * params->a_brake * (0.85 + 0.15 * q);
    for (int pass = 0; pass < 2; pass++)
        for (int i = n - 1; i >= 0; i--) {
            double next = b->vprof[(i + 1) % n];
            double lim = sqrt(next * next + 2.0 * abrk * PROFILE_DS);
            if (b->vprof[i] > lim)
                b->vprof[i] = lim;
        }
    return b;
}

void bot_free(Bot *b)
{
    if (!b)
        return;
    free(b->vprof);
    free(b->line);
    free(b);
}

static int profile_index(const Bot *b, double s)
{
    double len = track_length(b->track);
    double u = fmod(s, len);
    if (u < 0)
        u += len;
    int i = (int)(u / PROFILE_DS);
    return i >= b->nprof ? b->nprof - 1 : i;
}

void bot_input(Bot *b, const World *w, int car, CarInput *out)
{
    const double dt = (double)WORLD_CONTROL_US * 1e-6;
    const Car *me = &w->car[car];
    const Track *t = b->track;
    double q = b->d.skill, nz = b->d.noise;
    double len = track_length(t), half = track_width(t) / 2;
    double s = world_progress(w, car);
    double v = me->v;
    /* Noise: pace, line wander, steering; and mistakes. */
    b->pace = ou(&b->rng, b->pace, 1.5, 0.01 + 0.05 * nz, dt);
    b->wander = ou(&b->rng, b->wander, 3.0, 0.2 + 0.8 * nz, dt);
    b->steer_noise = ou(&b->rng, b->steer_noise, 0.3, 0.03 * nz, dt);
    if (b->mistake_left_s > 0) {
        b->mistake_left_s -= dt;
    } else if (rng_uniform(&b->rng) < 0.2 * nz * (1.2 - q) * dt) {
        b->mistake_left_s = 0.3 + 0.7 * rng_uniform(&b->rng);
        if (rng_uniform(&b->rng) < 0.5)
            b->mistake_pace = 0.6 + 0.25 * rng_uniform(&b->rng); /* lift-off */
        else
            b->wander += (rng_uniform(&b->rng) < 0.5 ? -1 : 1) * (0.5 + 1.0 * rng_uniform(&b->rng)); /* wide */
    }
    /* Recovery: a car pinned against the wall or another car (slow for
     * half a second with the throttle open), or pointing far off the
     * track's direction at low speed, backs out with opposite lock. */
    double th, tx, ty;
    track_point(t, s, &tx, &ty, &th);
    double herr = nr_wrap_angle(th - me->heading);
    b->stuck_s = v < 2.0 ? b->stuck_s + dt : 0.0;
    if (b->recover_left_s <= 0 && (b->stuck_s > 0.5 || (v < 4.0 && fabs(herr) > 1.2))) {
        b->recover_left_s = 1.0;
        b->stuck_s = 0.0;
    }
    if (b->recover_left_s > 0) {
        b->recover_left_s -= dt;
        *out = (CarInput){0.0, 1.0, herr > 0 ? -1.0 : 1.0};
        if (fabs(herr) < 0.4 && b->recover_left_s < 0.6)
            b->recover_left_s = 0; /* facing the right way again */
        return;
    }
    double ld = 3.0 + 0.35 * fmax(v, 0.0);
    int ia = profile_index(b, s + ld);
    double line = b->line[ia] + b->wander;
    double brake_look = b->pass_side != 0 ? 0.05 : 0.15; /* attacking: brakes later */
    double vt = b->vprof[profile_index(b, s + brake_look * fmax(v, 0.0))] * (1.0 + b->pace);
    if (b->pass_side != 0)
        vt *= ATTACK_PUSH; /* attacking: more of the grip in the bends */
    if (b->mistake_left_s > 0 && b->mistake_pace > 0)
        vt *= b->mistake_pace;
    if (b->mistake_left_s <= 0)
        b->mistake_pace = 0;
    /* Racing: the nearest other car along the track. */
    int other = -1;
    double dbest = INFINITY;
    for (int c = 0; c < w->ncars; c++) {
        if (c == car)
            continue;
        double d = remainder(world_progress(w, c) - s, len);
        if (fabs(d) < fabs(dbest)) {
            dbest = d;
            other = c;
        }
    }
    if (other < 0 || dbest > PASS_PULL + 2.0 || dbest < -CAR_LENGTH_CW)
        b->pass_side = 0;
    if (other >= 0) {
        double d = dbest;
        double oo = world_offset(w, other), om = world_offset(w, car);
        double vo = w->car[other].v;
        if (d > 0 && d < PASS_RANGE) {
            /* Attack: stay in the slipstream (its line) until close, then
             * pull out and keep to that side until the pass is done or
             * given up, only where a car fits beside it (the line's limit
             * is a car's width inside the edge). */
            double lim = half - 1.2;
            if (d < PASS_PULL && b->pass_side == 0) {
                /* Up the inside of the next bend (the shorter way round),
                 * else on the side with more room. */
                double kn = mean_curvature(t, s + 15.0);
                int side = fabs(kn) > 0.01 ? (kn > 0 ? 1 : -1) : (oo >= 0 ? -1 : 1);
                if (fabs(oo + side * 2.4) <= lim)
                    b->pass_side = side;
            }
            if (b->pass_side != 0) {
                line = clampd(oo + b->pass_side * 2.4, -lim, lim);
            } else {
                double wgt = clampd((PASS_RANGE - d) / (PASS_RANGE - PASS_PULL), 0.0, 1.0);
                line = line * (1.0 - wgt) + oo * wgt;
            }
            /* Never drive into it: lift while still behind and in line. */
            if (d < CAR_LENGTH_CW + 0.6 && fabs(om - oo) < BODY_GAP && v > vo)
                vt = fmin(vt, vo - 1.0);
        } else if (d <= 0 && d > -CAR_LENGTH_CW && b->pass_side != 0) {
            line = clampd(oo + b->pass_side * 2.4, -(half - 1.2), half - 1.2); /* alongside: hold it */
        } else if (d < 0 && d > -DEFEND_RANGE && fabs(mean_curvature(t, s + ld)) < 0.01) {
            /* Defend on the straights: lean towards the attacker's line. */
            double wgt = 0.3 * (1.0 + d / DEFEND_RANGE);
            line = line * (1.0 - wgt) + oo * wgt;
        }
    }
    line = clampd(line, -(half - 0.7), half - 0.7);
    /* Pure pursuit towards the line point ld ahead. */
    double px, py, h;
    track_point(t, s + ld, &px, &py, &h);
    px += -sin(h) * line;
    py += cos(h) * line;
    double ch = cos(me->heading), sh = sin(me->heading);
    double dx = (px - me->x) * ch + (py - me->y) * sh;
    double dy = -(px - me->x) * sh + (py - me->y) * ch;
    double k = 2.0 * dy / (dx * dx + dy * dy + 1e-9);
    double delta = atan(k * b->p.wheelbase);
    out->steer = clampd(delta / b->p.steer_max + b->steer_noise, -1.0, 1.0);
    /* Speed: throttle or brake on the error. */
    double e = vt - v;
    if (e >= 0) {
        out->throttle = clampd(0.8 * e + 0.5 * (b->p.k_drag * v * v + b->p.k_roll * v) / b->p.a_engine, 0, 1);
        out->brake = 0;
    } else {
        out->throttle = 0;
        out->brake = clampd(-0.35 * e, 0, 1);
    }
}

static void bot_controller_input(void *self, const World *w, int car, CarInput *out)
{
    bot_input(self, w, car, out);
}

Controller bot_controller(Bot *b)
{
    return (Controller){b, bot_controller_input};
}
