/* The world of a driven race: cars on the physics, walls, collisions,
 * progress (world.h). */
#include "world.h"

#include <math.h>
#include <string.h>

bool world_init(World *w, const Track *track, int ncars, NrError *err)
{
    memset(w, 0, sizeof *w);
    int slots = track_grid_slots(track);
    int max = slots < WORLD_MAX_CARS ? slots : WORLD_MAX_CARS;
    if (ncars < 1 || ncars > max)
        return nr_error_set(err, "world: %d cars, expected 1 to %d (the track's grid slots)", ncars, max);
    w->track = track;
    w->ncars = ncars;
    car_params_default(&w->params);
    for (int c = 0; c < ncars; c++) {
        double s;
        track_grid(track, c, &w->car[c].x, &w->car[c].y, &w->car[c].heading, &s);
        /* Progress unwrapped from the grid slot: slots behind the line start
         * at a negative progress (laps count from the first crossing). */
        w->start_progress[c] = s;
        w->progress[c] = w->start_progress[c];
    }
    return true;
}

bool world_init_solo(World *w, const Track *track, int slot, NrError *err)
{
    if (slot < 0 || slot >= WORLD_MAX_CARS || !world_init(w, track, slot + 1, err))
        return slot < 0 || slot >= WORLD_MAX_CARS ? nr_error_set(err, "world: grid slot %d", slot) : false;
    w->car[0] = w->car[slot];
    w->start_progress[0] = w->progress[0] = w->start_progress[slot];
    w->ncars = 1;
    return true;
}

/* A contact of car c at (x, y) this step: against the wall (other -1) or
 * car other, approaching at normal speed vn (cw/s). A hit begins when the
 * car touched nothing for WORLD_HIT_QUIET_US (a scrape's contact comes and
 * goes from step to step: one hit). */
static void touch(World *w, int c, int other, double x, double y, double vn)
{
    WorldContact *ct = &w->contact[c];
    if (!ct->now) { /* the first contact of this step */
        if (ct->steps == 0 || w->t_us - ct->last_us > WORLD_HIT_QUIET_US) {
            ct->hits++;
            ct->hit_cws = 0.0;
        }
        ct->steps++;
        ct->now = true;
    }
    ct->last_us = w->t_us;
    ct->other = other;
    ct->hit_cws = fmax(ct->hit_cws, vn);
    ct->x = x;
    ct->y = y;
}

/* The first wall model: the impact at the centre reverses the normal
 * speed (restitution) and its impulse, through Coulomb friction, takes at
 * most as much speed along the wall: a glancing touch scrapes a little, a
 * square hit stops the car. Returns the normal speed (<= 0: moving away,
 * nothing changed). */
static double wall_at_centre(Car *c, double nx, double ny)
{
    double ch = cos(c->heading), sh = sin(c->heading);
    double vx = c->v * ch - c->v_side * sh, vy = c->v * sh + c->v_side * ch;
    double vn = vx * nx + vy * ny;
    if (vn > 0) {
        double tx = vx - vn * nx, ty = vy - vn * ny;
        double vt = hypot(tx, ty);
        double keep = vt > 0 ? fmax(0.0, vt - CAR_WALL_FRICTION * (1.0 + CAR_WALL_RESTITUTION) * vn) / vt : 0.0;
        vx = keep * tx - CAR_WALL_RESTITUTION * vn * nx;
        vy = keep * ty - CAR_WALL_RESTITUTION * vn * ny;
        c->v = vx * ch + vy * sh;
        c->v_side = -vx * sh + vy * ch;
    }
    return vn;
}

static double ramp(double x, double x0, double x1)
{
    return x <= x0 ? 0.0 : x >= x1 ? 1.0 : (x - x0) / (x1 - x0);
}

/* How much of the lever from the centre to the corner nearest the wall a
 * wall contact takes (0..1): the larger of a ramp on the angle between the
 * body's axis and the wall (WORLD_WALL_ALPHA0_DEG to ALPHA1) and one on the
 * centre's speed into the wall (WORLD_WALL_VN0 to VN1). At 0 the contact
 * acts at the centre, netrace's first wall model, on which the recorded
 * bot races rely (the bundled four-car race touches the wall at up to 18
 * degrees and 6.3 cw/s); a hard or steep hit strikes with the corner and
 * turns the car along the wall instead of pinning it there. *corner: the
 * point of the body furthest towards the wall. */
#define WALL_EVEN_CW 0.1
static double wall_lever(const Car *c, double nx, double ny, double corner[2])
{
    double k[4][2], d[4], dmax = -INFINITY, sum = 0.0;
    car_corners(c, k);
    for (int i = 0; i < 4; i++)
        dmax = fmax(dmax, d[i] = k[i][0] * nx + k[i][1] * ny);
    /* the corners within WALL_EVEN_CW of the furthest share the contact:
     * a square hit strikes with the middle of the nose, not one corner */
    corner[0] = corner[1] = 0.0;
    for (int i = 0; i < 4; i++) {
        double wgt = fmax(0.0, d[i] - dmax + WALL_EVEN_CW);
        corner[0] += wgt * k[i][0];
        corner[1] += wgt * k[i][1];
        sum += wgt;
    }
    corner[0] /= sum;
    corner[1] /= sum;
    double ch = cos(c->heading), sh = sin(c->heading);
    double alpha = asin(fmin(1.0, fabs(ch * nx + sh * ny))) * 180.0 / NR_PI;
    double vn = (c->v * ch - c->v_side * sh) * nx + (c->v * sh + c->v_side * ch) * ny;
    return fmax(ramp(alpha, WORLD_WALL_ALPHA0_DEG, WORLD_WALL_ALPHA1_DEG),
                ramp(vn, WORLD_WALL_VN0_CWS, WORLD_WALL_VN1_CWS));
}

/* Keeps a car inside the wall: CAR_GRASS_CW beyond the track edge its
 * centre is put back on the wall line and the contact takes an impulse
 * with restitution CAR_WALL_RESTITUTION and Coulomb friction
 * CAR_WALL_FRICTION (a glancing touch scrapes a little, a square hit stops
 * the car): at the centre for a shallow contact, at the corner for a
 * steep one (wall_lever; car_wall_impulse, which spins the car). */
static void wall(World *w, int ci)
{
    Car *c = &w->car[ci];
    double half = track_width(w->track) / 2 + CAR_GRASS_CW;
    double off = track_offset(w->track, c->x, c->y);
    if (fabs(off) <= half)
        return;
    /* The outward normal: from the centre-line point towards the car. */
    double s = track_project(w->track, c->x, c->y);
    double px, py, h;
    track_point(w->track, s, &px, &py, &h);
    double nx = -sin(h), ny = cos(h); /* left of the centre line */
    if (off < 0) {
        nx = -nx;
        ny = -ny;
    }
    double excess = fabs(off) - half;
    c->x -= nx * excess;
    c->y -= ny * excess;
    double corner[2], lever = wall_lever(c, nx, ny, corner), vn;
    if (lever > 0.0) {
        px = c->x + lever * (corner[0] - c->x);
        py = c->y + lever * (corner[1] - c->y);
        vn = car_wall_impulse(c, px, py, nx, ny, CAR_WALL_RESTITUTION, CAR_WALL_FRICTION);
    } else {
        vn = wall_at_centre(c, nx, ny);
        px = c->x + nx * 0.5 * CAR_WIDTH_CW;
        py = c->y + ny * 0.5 * CAR_WIDTH_CW;
    }
    touch(w, ci, -1, px, py, vn > 0 ? vn : 0.0);
}

/* Slipstream of car a: the closest car ahead of it on its axis. */
static double draft_of(const World *w, int a)
{
    const Car *ca = &w->car[a];
    double ch = cos(ca->heading), sh = sin(ca->heading), best = 0.0;
    for (int b = 0; b < w->ncars; b++) {
        if (b == a)
            continue;
        double dx = w->car[b].x - ca->x, dy = w->car[b].y - ca->y;
        double along = dx * ch + dy * sh, side = -dx * sh + dy * ch;
        if (along > 0 && along < CAR_DRAFT_CW && fabs(side) < CAR_WIDTH_CW) {
            double d = CAR_DRAFT_MAX * (1.0 - along / CAR_DRAFT_CW);
            best = d > best ? d : best;
        }
    }
    return best;
}

/* Cars a and b apart if they overlap (car_collide), the contact noted for
 * both at the middle of their centres. */
static bool collide(World *w, int a, int b)
{
    double closing;
    if (!car_collide_closing(&w->car[a], &w->car[b], &closing))
        return false;
    double mx = 0.5 * (w->car[a].x + w->car[b].x), my = 0.5 * (w->car[a].y + w->car[b].y);
    touch(w, a, b, mx, my, closing);
    touch(w, b, a, mx, my, closing);
    return true;
}

void world_step(World *w, const CarInput *in)
{
    double dt = (double)WORLD_DT_US * 1e-6;
    for (int c = 0; c < w->ncars; c++)
        w->car[c].draft = draft_of(w, c);
    for (int c = 0; c < w->ncars; c++)
        car_step(&w->car[c], &in[c], &w->params, w->grass[c], dt);
    for (int c = 0; c < w->ncars; c++)
        w->contact[c].now = false;
    for (int c = 0; c < w->ncars; c++)
        wall(w, c);
    /* Pairs until no body overlaps another (a push can create a new
     * overlap with a third car); car to car last, so no overlap remains
     * even where a car is pushed a little into the wall. */
    for (int round = 0; round < 8; round++) {
        bool any = false;
        for (int a = 0; a < w->ncars; a++)
            for (int b = a + 1; b < w->ncars; b++)
                any |= collide(w, a, b);
        if (!any)
            break;
    }
    for (int c = 0; c < w->ncars; c++) {
        w->progress[c] = track_progress(w->track, w->car[c].x, w->car[c].y, w->progress[c]);
        w->grass[c] = fabs(track_offset(w->track, w->car[c].x, w->car[c].y)) > track_width(w->track) / 2;
    }
    w->t_us += WORLD_DT_US;
}

static double quantise(double v, double q)
{
    double r = nearbyint(v / q) * q;
    return r == 0 ? 0.0 : r; /* no -0 in files */
}

void world_sample(const World *w, int c, RecSample *out)
{
    const Car *car = &w->car[c];
    out->t_ms = (int32_t)(w->t_us / 1000);
    out->x = quantise(car->x, 1e-4);
    out->y = quantise(car->y, 1e-4);
    out->heading = quantise(car->heading, 1e-4);
    out->speed = quantise(car->v, 1e-3);
}

double world_progress(const World *w, int c)
{
    return w->progress[c];
}

int world_laps(const World *w, int c)
{
    int laps = (int)floor(w->progress[c] / track_length(w->track));
    return laps > 0 ? laps : 0;
}

bool world_on_grass(const World *w, int c)
{
    return w->grass[c];
}

double world_offset(const World *w, int c)
{
    return track_offset(w->track, w->car[c].x, w->car[c].y);
}

const WorldContact *world_contact(const World *w, int c)
{
    return &w->contact[c];
}
