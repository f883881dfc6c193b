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

/* Keeps a car inside the wall: CAR_GRASS_CW beyond the track edge the
 * sideways motion towards the wall reverses with CAR_WALL_RESTITUTION, and
 * the motion along it loses what the impact's friction takes (scraping). */
static void wall(World *w, Car *c)
{
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
    double ch = cos(c->heading), sh = sin(c->heading);
    double vx = c->v * ch - c->v_side * sh, vy = c->v * sh + c->v_side * ch;
    double vn = vx * nx + vy * ny;
    if (vn > 0) {
        /* The impact reverses the normal speed (restitution) and its
         * impulse, through Coulomb friction (coefficient 0.5), takes at
         * most as much speed along the wall: a glancing touch scrapes a
         * little, a square hit stops the car. */
        double tx = vx - vn * nx, ty = vy - vn * ny;
        double vt = hypot(tx, ty);
        double keep = vt > 0 ? fmax(0.0, vt - 0.5 * (1.0 + CAR_WALL_RESTITUTION) * vn) / vt : 0.0;
        vx = keep * tx - CAR_WALL_RESTITUTION * vn * nx;
        vy = keep * ty - CAR_WALL_RESTITUTION * vn * ny;
        c->v = vx * ch + vy * sh;
        c->v_side = -vx * sh + vy * ch;
    }
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

void world_step(World *w, const CarInput *in)
{
    double dt = (double)WORLD_DT_US * 1e-6;
    for (int c = 0; c < w->ncars; c++)
        w->car[c].draft = draft_of(w, c);
    for (int c = 0; c < w->ncars; c++)
        car_step(&w->car[c], &in[c], &w->params, w->grass[c], dt);
    for (int c = 0; c < w->ncars; c++)
        wall(w, &w->car[c]);
    /* Pairs until no body overlaps another (a push can create a new
     * overlap with a third car); car to car last, so no overlap remains
     * even where a car is pushed a little into the wall. */
    for (int round = 0; round < 8; round++) {
        bool any = false;
        for (int a = 0; a < w->ncars; a++)
            for (int b = a + 1; b < w->ncars; b++)
                any |= car_collide(&w->car[a], &w->car[b]);
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
