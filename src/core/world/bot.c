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
#define PHASE_TAU 6.0      /* s: slow pace phases (tyres, attention) */
#define PHASE_SD 0.03      /* their sd at noise 0.5, share of the target */
#define MISTAKE_PRESSURE 8.0 /* mistakes this much more often with a car close behind */
#define PASS_EDGE 0.7      /* cw: a car racing for position goes this close to the edge */
#define LINE_APPROACH 15.0 /* cw: the line is outside this far before and after a bend */
#define PULL_PER_CLOSING 0.6 /* s: pulls out this much earlier per cw/s of closing speed */
#define ATTACK_LOOK 20.0   /* cw: the bend an attack is aimed at lies this far ahead */
#define FOLLOW_GAP 2.8     /* cw: along-track gap kept in line behind another car */
#define FOLLOW_GAIN 1.5    /* 1/s: speed allowed above the car ahead per cw beyond that gap */
#define SBS_GAP 2.0        /* cw: centre to centre side by side */
#define ALONGSIDE_CW 2.6   /* cw: along-track distance under which two cars are alongside */
#define ATTACK_PUSH 1.10   /* speed target attacking up the inside: beyond the planned grip, to the tyres' limit */
#define NOVICE_SLOW 0.45   /* a novice's pace: 1 - 0.45 n of skill 0's at skill -n */
#define MAKE_WAY 1.0       /* cw/s: a novice alongside another car drives this much slower than it */

struct Bot {
    const Track *track;
    CarParams p;
    BotDriver d;
    Rng rng;
    int nprof;
    double *vprof;   /* planned speed at s = i * PROFILE_DS */
    double grip_plan; /* cw/s^2: the grip the plan uses */
    double *line;    /* racing-line offset (left positive) at the same points */
    double pace, phase, wander, steer_noise; /* Ornstein-Uhlenbeck states */
    double mistake_left_s;  /* time left of the current mistake */
    double mistake_pace;    /* pace factor during a lift-off mistake */
    double stuck_s;         /* time spent slow while trying to drive */
    double v_prev;          /* cw/s: the speed at the last control step */
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
    if (!(driver.skill >= BOT_SKILL_MIN && driver.skill <= 1) || !(driver.noise >= 0 && driver.noise <= 1)) {
        nr_error_set(err, "bot: skill %g must be in [%g, 1] and noise %g in [0, 1]", driver.skill, BOT_SKILL_MIN,
                     driver.noise);
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
    double abrk = 0.8 * params->a_brake * (0.85 + 0.15 * q);
    if (q < 0) {
        /* A novice: skill 0's plan at a pace f of it. Bends and straights
         * both slow by f (a bend's speed goes with the root of the grip, so
         * the grip by f^2), braking as gently, on the same racing line. */
        double f = 1.0 - NOVICE_SLOW * -q;
        grip_plan = params->grip * 0.72 * f * f;
        vtop = V_TOP * 0.93 * f;
        abrk = 0.8 * params->a_brake * 0.85 * f;
    }
    b->grip_plan = grip_plan;
    double half = track_width(track) / 2;
    for (int i = 0; i < n; i++) {
        double s = i * PROFILE_DS;
        double k = mean_curvature(track, s);
        /* Outside, inside, outside: the line keeps to the inside of a bend
         * (curvature > 0: a left bend, inside = left = positive offset) and
         * to its outside LINE_APPROACH before and after it, which opens the
         * radius and leaves the inside to a car diving up it. */
        double c = clampd(50.0 * k, -1.0, 1.0);
        double around = clampd(50.0 * mean_curvature(track, s + LINE_APPROACH), -1.0, 1.0) +
                        clampd(50.0 * mean_curvature(track, s - LINE_APPROACH), -1.0, 1.0);
        b->line[i] = clampd(c - (1.0 - fabs(c)) * around, -1.0, 1.0) * (half - 1.2);
        double ka = fabs(k) * 0.85;
        b->vprof[i] = ka > 1e-9 ? fmin(vtop, sqrt(grip_plan / ka)) : vtop;
    }
    /* Braking envelope, planned at 80 % of the brakes: two passes backwards
     * round the closed track. */
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

/* What one control step of bot_input works out, handed between its parts. */
typedef struct Step {
    const World *w;
    int car;
    int other;         /* the nearest other car along the track; -1: none */
    double dbest;      /* cw along the track to it, + ahead (INFINITY: none) */
    double dt;         /* s: the control period */
    double s, v;       /* own progress (cw) and speed (cw/s) */
    double ld;         /* cw: the steering's look-ahead */
    double brake_look; /* s: the speed target is read this far ahead */
    double lim_pass;   /* cw: racing for position, this far off the centre */
    double line, vt;   /* aimed offset (cw, left +) and speed target (cw/s) */
    bool racing_close; /* side by side with the other car */
} Step;

/* The nearest other car along the track (racing, pressure); -1 when alone. */
static int nearest_other(const World *w, int car, double s, double len, double *dbest)
{
    int other = -1;
    *dbest = INFINITY;
    for (int c = 0; c < w->ncars; c++) {
        if (c == car)
            continue;
        double d = remainder(world_progress(w, c) - s, len);
        if (fabs(d) < fabs(*dbest)) {
            *dbest = d;
            other = c;
        }
    }
    return other;
}

/* Noise: pace, line wander, steering; and mistakes, more of them under
 * pressure (a car close behind: dbest < 0). */
static void drift_noise(Bot *b, double dbest, double dt)
{
    double q = fmax(b->d.skill, 0.0), nz = b->d.noise; /* a novice errs as skill 0 */
    double pressure = dbest < 0 && dbest > -DEFEND_RANGE ? MISTAKE_PRESSURE : 1.0;
    b->pace = ou(&b->rng, b->pace, 1.5, 0.01 + 0.05 * nz, dt);
    b->phase = ou(&b->rng, b->phase, PHASE_TAU, PHASE_SD * (0.5 + nz), dt);
    b->wander = ou(&b->rng, b->wander, 3.0, 0.2 + 0.8 * nz, dt);
    b->steer_noise = ou(&b->rng, b->steer_noise, 0.3, 0.03 * nz, dt);
    if (b->mistake_left_s > 0) {
        b->mistake_left_s -= dt;
    } else if (rng_uniform(&b->rng) < 0.2 * nz * (1.2 - q) * pressure * dt) {
        b->mistake_left_s = 0.3 + 0.7 * rng_uniform(&b->rng);
        if (rng_uniform(&b->rng) < 0.5)
            b->mistake_pace = 0.6 + 0.25 * rng_uniform(&b->rng); /* lift-off */
        else
            b->wander += (rng_uniform(&b->rng) < 0.5 ? -1 : 1) * (0.5 + 1.0 * rng_uniform(&b->rng)); /* wide */
    }
}

/* Recovery: a car pinned against the wall or another car (slow for half a
 * second with the throttle open), or pointing far off the track's direction
 * at low speed, backs out with opposite lock. True (and *out set) while it
 * does. */
static bool recover(Bot *b, const Step *st, CarInput *out)
{
    const Car *me = &st->w->car[st->car];
    double th, tx, ty;
    track_point(b->track, st->s, &tx, &ty, &th);
    double herr = nr_wrap_angle(th - me->heading);
    /* Stuck: slow and not gaining speed (pinned). A car climbing out of a
     * reverse gains speed, so it is not stuck even below 2 cw/s; nor does
     * backing out count, or the bot backs out again before its speed turns
     * positive, and again, and reverses round the track. */
    bool gaining = st->v - b->v_prev > 1.0 * st->dt; /* more than 1 cw/s^2 */
    b->v_prev = st->v;
    b->stuck_s = st->v < 2.0 && !gaining && b->recover_left_s <= 0 ? b->stuck_s + st->dt : 0.0;
    if (b->recover_left_s <= 0 && (b->stuck_s > 0.5 || (st->v < 4.0 && fabs(herr) > 1.2))) {
        b->recover_left_s = 1.0;
        b->stuck_s = 0.0;
    }
    if (b->recover_left_s <= 0)
        return false;
    b->recover_left_s -= st->dt;
    *out = (CarInput){0.0, 1.0, herr > 0 ? -1.0 : 1.0};
    if (fabs(herr) < 0.4 && b->recover_left_s < 0.6)
        b->recover_left_s = 0; /* facing the right way again */
    return true;
}

/* Side by side (d cw along, sep cw across): both hold their side of the
 * track, a car's width apart, and race on; the one behind with no room left
 * on its side backs out. oo, vo: the other car's offset and speed. */
static void side_by_side(Bot *b, Step *st, double d, double oo, double vo, double sep)
{
    st->racing_close = true;
    int side = sep > 0 ? 1 : -1;
    double want = oo + side * SBS_GAP;
    st->line = side > 0 ? fmax(st->line, want) : fmin(st->line, want);
    if (d > 0) {
        if (fabs(want) > st->lim_pass + 0.3) {
            st->vt = fmin(st->vt, vo - 1.0);
            b->pass_side = 0;
        } else {
            b->pass_side = side;
        }
    }
}

/* Behind (d cw): tow in its slipstream (its line) and attack where a pass
 * can work: up the inside of the next bend, where a car fits, or out of the
 * tow on a straight with a speed surplus (closing fast, it pulls out
 * earlier, before it has to lift). An attack that would end on the outside
 * of a bend before getting alongside is given up. */
static void behind(Bot *b, Step *st, double d, double oo, double vo, double sep)
{
    double kn = mean_curvature(b->track, st->s + ATTACK_LOOK);
    bool bend = fabs(kn) > 0.01;
    int inside = kn > 0 ? 1 : -1;
    if (b->pass_side == 0 && d < PASS_PULL + PULL_PER_CLOSING * fmax(0.0, st->v - vo)) {
        int side = bend ? inside : (oo >= 0 ? -1 : 1);
        if ((bend || st->v > vo + 0.3) && fabs(oo + side * SBS_GAP) <= st->lim_pass)
            b->pass_side = side;
    }
    if (b->pass_side != 0 && bend && b->pass_side != inside && d > 1.0)
        b->pass_side = 0;
    if (b->pass_side != 0) {
        st->line = clampd(oo + b->pass_side * SBS_GAP, -st->lim_pass, st->lim_pass);
    } else {
        double wgt = clampd((PASS_RANGE - d) / (PASS_RANGE - PASS_PULL), 0.0, 1.0);
        st->line = st->line * (1.0 - wgt) + oo * wgt;
    }
    /* Never drive into it: in line behind it, close to a following gap at
     * its speed. */
    if (fabs(sep) < BODY_GAP)
        st->vt = fmin(st->vt, vo + FOLLOW_GAIN * (d - FOLLOW_GAP));
}

/* A novice (skill < 0) races nobody: no attack, no cover, no squeeze. In
 * line behind another car (d cw ahead, sep cw across) it keeps the
 * following gap; alongside it holds its side and lifts, so the other car
 * goes by. oo, vo: the other car's offset and speed. */
static void make_way(Step *st, double d, double oo, double vo, double sep)
{
    if (fabs(d) < ALONGSIDE_CW && fabs(sep) > 0.7) {
        double want = oo + (sep > 0 ? SBS_GAP : -SBS_GAP);
        st->line = sep > 0 ? fmax(st->line, want) : fmin(st->line, want);
        st->vt = fmin(st->vt, vo - MAKE_WAY);
    } else if (d > 0 && d < PASS_RANGE && fabs(sep) < BODY_GAP) {
        st->vt = fmin(st->vt, vo + FOLLOW_GAIN * (d - FOLLOW_GAP));
    }
}

/* Racecraft against the nearest other car: alongside, behind it, or
 * defending on the straights (lean towards the attacker's line); a novice
 * makes way instead. */
static void race_other(Bot *b, Step *st)
{
    const World *w = st->w;
    double d = st->dbest;
    double oo = world_offset(w, st->other), om = world_offset(w, st->car);
    double vo = w->car[st->other].v;
    double sep = om - oo;
    if (b->d.skill < 0) {
        make_way(st, d, oo, vo, sep);
    } else if (fabs(d) < ALONGSIDE_CW && fabs(sep) > 0.7) {
        side_by_side(b, st, d, oo, vo, sep);
    } else if (d > 0 && d < PASS_RANGE) {
        behind(b, st, d, oo, vo, sep);
    } else if (d < 0 && d > -DEFEND_RANGE && fabs(mean_curvature(b->track, st->s + st->ld)) < 0.01) {
        double wgt = 0.3 * (1.0 + d / DEFEND_RANGE);
        st->line = st->line * (1.0 - wgt) + oo * wgt;
    }
}

/* Held off the racing line (side by side, attacking) a car follows the bend
 * at its offset n, radius (1 - k n) / |k|, without the line's cut: the
 * outside is faster, the inside slower, both within the planned grip (the
 * physics clips the rest). */
static void hold_offset_speed(const Bot *b, Step *st)
{
    double kv = mean_curvature(b->track, st->s + st->brake_look * fmax(st->v, 0.0) + 2.0);
    double om = world_offset(st->w, st->car);
    if (fabs(kv) > 1e-4) {
        double r = fmax(2.0, (1.0 - kv * om) / fabs(kv));
        double vmax = sqrt(b->grip_plan * r) * (1.0 + b->pace + b->phase);
        if (b->pass_side * kv > 0)
            vmax *= ATTACK_PUSH; /* attacking up the inside */
        st->vt = fmin(st->vt, vmax);
    }
}

/* Pure pursuit towards the line point ld ahead; returns the wheel angle
 * (rad) it asks, before the steering noise. */
static double steer(const Bot *b, const Step *st, CarInput *out)
{
    const Car *me = &st->w->car[st->car];
    double px, py, h;
    track_point(b->track, st->s + st->ld, &px, &py, &h);
    px += -sin(h) * st->line;
    py += cos(h) * st->line;
    double ch = cos(me->heading), sh = sin(me->heading);
    double dx = (px - me->x) * ch + (py - me->y) * sh;
    double dy = -(px - me->x) * sh + (py - me->y) * ch;
    double k = 2.0 * dy / (dx * dx + dy * dy + 1e-9);
    double delta = atan(k * b->p.wheelbase);
    out->steer = clampd(delta / b->p.steer_max + b->steer_noise, -1.0, 1.0);
    return delta;
}

/* Speed: throttle or brake on the error from the target vt. Off the track
 * the grip is lower: aim slower, by the square root of the grip. The
 * lateral acceleration the turn asks (v^2 k for the path's curvature k of
 * wheel angle delta): running out of grip (understeer), the driver slows to
 * what the tyres hold; and leaves them that much grip, no more drive or
 * braking than the friction circle has beside it. */
static void pedals(const Bot *b, const Step *st, double delta, CarInput *out)
{
    const Track *t = b->track;
    double v = st->v, vt = st->vt;
    bool grass = world_on_grass(st->w, st->car);
    double grip = grass ? b->p.grip_grass : b->p.grip;
    if (grass)
        vt *= sqrt(b->p.grip_grass / b->p.grip);
    double kpath = fabs(tan(clampd(delta, -b->p.steer_max, b->p.steer_max))) / b->p.wheelbase;
    double lat = v * v * kpath;
    double kloc = fabs(mean_curvature(t, st->s)) /
                  fmax(0.5, 1.0 - mean_curvature(t, st->s) * world_offset(st->w, st->car));
    if (v * v * kloc > 0.95 * grip)
        vt = fmin(vt, sqrt(0.9 * grip / kloc)); /* too fast for the bend where it is */
    double e = vt - v;
    if (e >= 0) {
        /* Drive: no more than the friction circle leaves beside the turn
         * (at the limit, just what holds the speed against drag and
         * rolling resistance, which leaves the whole grip to the turn). */
        double hold = b->p.k_drag * v * v + b->p.k_roll * v;
        double room = sqrt(fmax(0.0, grip * grip - fmin(lat, grip) * fmin(lat, grip)));
        double thr = 0.8 * e + 0.5 * (hold + (grass ? b->p.k_grass * v : 0.0)) / b->p.a_engine;
        out->throttle = clampd(fmin(thr, (room + hold) / b->p.a_engine), 0, 1);
        out->brake = 0;
    } else {
        /* Brake, keeping at least 60 % of the grip for the turn. */
        double room = sqrt(fmax(0.0, grip * grip - fmin(lat, 0.8 * grip) * fmin(lat, 0.8 * grip)));
        out->throttle = 0;
        out->brake = clampd(fmin(-0.35 * e, room / b->p.a_brake), 0, 1);
    }
}

void bot_input(Bot *b, const World *w, int car, CarInput *out)
{
    const Track *t = b->track;
    Step st = {.w = w, .car = car, .dt = (double)WORLD_CONTROL_US * 1e-6};
    st.s = world_progress(w, car);
    st.v = w->car[car].v;
    st.other = nearest_other(w, car, st.s, track_length(t), &st.dbest);
    drift_noise(b, st.dbest, st.dt);
    if (recover(b, &st, out))
        return;
    st.ld = 3.0 + 0.35 * fmax(st.v, 0.0);
    st.line = b->line[profile_index(b, st.s + st.ld)] + b->wander;
    /* Attacking up the inside of the next bend: brakes later. */
    bool inside_attack = b->pass_side * mean_curvature(t, st.s + 15.0) > 0.002;
    st.brake_look = inside_attack ? 0.05 : 0.15;
    st.vt = b->vprof[profile_index(b, st.s + st.brake_look * fmax(st.v, 0.0))] * (1.0 + b->pace + b->phase);
    if (b->mistake_left_s > 0 && b->mistake_pace > 0)
        st.vt *= b->mistake_pace;
    if (b->mistake_left_s <= 0)
        b->mistake_pace = 0;
    if (st.other < 0 || st.dbest > PASS_PULL + 4.0 || st.dbest < -CAR_LENGTH_CW - 0.5)
        b->pass_side = 0;
    st.lim_pass = track_width(t) / 2 - PASS_EDGE; /* racing for position: to the kerb */
    if (st.other >= 0)
        race_other(b, &st);
    if (inside_attack)
        st.vt *= ATTACK_PUSH; /* more of the grip in the bend */
    if (b->pass_side != 0 || st.racing_close)
        hold_offset_speed(b, &st);
    st.line = clampd(st.line, -st.lim_pass, st.lim_pass);
    double delta = steer(b, &st, out);
    pedals(b, &st, delta, out);
}

double bot_line(const Bot *b, double s)
{
    return b->line[profile_index(b, s)];
}

static void bot_controller_input(void *self, const World *w, int car, CarInput *out)
{
    bot_input(self, w, car, out);
}

Controller bot_controller(Bot *b)
{
    return (Controller){b, bot_controller_input};
}
