/* One driving screen's camera, gaps, hit feedback and instruments
 * (drivehud.h). */
#include "drivehud.h"
#include "lagometer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void drivehud_reset(DriveHud *h, DriveCamMode mode)
{
    memset(h, 0, sizeof *h);
    drivecam_reset(&h->cam, mode);
    drivegap_reset(&h->gap);
    h->gap_t = -1;
    for (int i = 0; i < DRIVEHUD_SPARKS; i++)
        h->spark[i].age_s = DRIVEWIDGET_SPARK_LIFE_S;
    rng_seed(&h->rng, 22, 0); /* the sparks' scatter: seeded, only drawn */
}

static void throw_sparks(DriveHud *h, const WorldContact *c, const DriveHudIn *in, int count)
{
    double vx = cos(in->own.heading) * in->speed_cws, vy = sin(in->own.heading) * in->speed_cws;
    for (int i = 0; i < count; i++) {
        DriveSpark *s = &h->spark[h->spark_next];
        h->spark_next = (h->spark_next + 1) % DRIVEHUD_SPARKS;
        double a = 2 * NR_PI * rng_uniform(&h->rng), sp = 3.0 + 7.0 * rng_uniform(&h->rng);
        *s = (DriveSpark){.x = c->x, .y = c->y, .vx = 0.4 * vx + cos(a) * sp, .vy = 0.4 * vy + sin(a) * sp,
                          .age_s = 0.1 * rng_uniform(&h->rng)};
    }
}

/* New contacts of the own car since the last update: the feedback. */
static void read_contact(DriveHud *h, const DriveHudIn *in)
{
    const WorldContact *c = in->contact;
    h->impact_cws = 0.0;
    h->scraping = false;
    if (!c)
        return;
    if (!h->contact_known || c->hits < h->hits_seen || c->steps < h->steps_seen) {
        h->contact_known = true; /* first look, or a new world: nothing new yet */
        h->hits_seen = c->hits;
        h->steps_seen = c->steps;
        return;
    }
    if (c->hits > h->hits_seen) {
        double hit = c->hit_cws;
        h->impact_cws = hit > 0.05 ? hit : 0.05;
        h->impact_car = c->other >= 0;
        h->flash = fmax(h->flash, fmin(1.0, fmax(0.3, hit / 12.0)));
        /* the view jolts towards the contact, a bump the spring smooths */
        double dx = c->x - in->own.x, dy = c->y - in->own.y, d = hypot(dx, dy), k = fmin(hit, 25.0) * 0.5;
        if (d > 1e-9)
            drivecam_kick(&h->cam, dx / d * k, dy / d * k);
        throw_sparks(h, c, in, 4 + (int)fmin(hit, 16.0) / 2);
    }
    if (c->now && c->steps > h->steps_seen) {
        h->scraping = true;
        if (fabs(in->speed_cws) > 3.0)
            throw_sparks(h, c, in, 1);
    }
    h->hits_seen = c->hits;
    h->steps_seen = c->steps;
}

void drivehud_update(DriveHud *h, const DriveHudIn *in, double dt_s)
{
    if (dt_s < 0)
        dt_s = 0;
    drivecam_update(&h->cam, &in->own, in->speed_cws, dt_s);
    if (in->rf && in->rf->race_us != h->gap_t && in->view >= 0 && in->view < RACEFLOW_VIEWS) {
        h->gap_t = in->rf->race_us;
        drivegap_add(&h->gap, in->rf->race_us, in->rf->progress[in->view], in->ncars);
    }
    for (int i = 0; i < DRIVEHUD_SPARKS; i++) {
        DriveSpark *s = &h->spark[i];
        if (s->age_s >= DRIVEWIDGET_SPARK_LIFE_S)
            continue;
        s->age_s += dt_s;
        s->x += s->vx * dt_s;
        s->y += s->vy * dt_s;
    }
    h->flash = fmax(0.0, h->flash - dt_s / DRIVEHUD_FLASH_S);
    read_contact(h, in);
}

/* The HUD strip's height at the top of a view (pixels). */
float drivehud_top_px(const AppState *v)
{
    float l = (float)gfx_line_h(&v->gfx, GFX_NORMAL);
    return l > 0 ? l * (float)DRIVEHUD_TOP_LINES : (float)v->lay.base * 3.0f;
}

SDL_FRect drivehud_room(const DriveHud *h, const AppState *v, const SDL_FRect *rect)
{
    SDL_FRect r = *rect;
    if (h->lagometer) {
        float bottom = lagometer_screen_rect(rect, v->lay.base).y - (float)v->lay.base * 0.5f;
        if (bottom - r.y >= 0.4f * r.h)
            r.h = bottom - r.y;
    }
    return r;
}

void drivehud_xform(const DriveHud *h, const AppState *v, const Pose *own, const SDL_FRect *rect, AppXform *x)
{
    /* the camera centres on and spans the part below the HUD strip (a
     * short 2 x 2 cell loses a sixth of its height to it) and above the
     * lagometer; the track is drawn under both too */
    SDL_FRect focus = drivehud_room(h, v, rect);
    float top = drivehud_top_px(v);
    if (top < rect->h / 3) {
        focus.y += top;
        focus.h -= top;
    }
    drivecam_xform(&h->cam, own, &focus, x);
    x->rect = *rect;
}

void drivehud_gap_text(char *buf, size_t n, int car, double gap_s, bool est)
{
    double a = fabs(gap_s);
    const char *side = gap_s > 0 ? "ahead" : "behind";
    if (a < 0.05)
        snprintf(buf, n, "P%d level", car + 1);
    else if (a < 100)
        snprintf(buf, n, "P%d %s%.1f s %s", car + 1, est ? "~" : "", a, side);
    else
        snprintf(buf, n, "P%d %s%.0f s %s", car + 1, est ? "~" : "", a, side);
}

/* Where the ray from (px, py) along (ux, uy) enters box (its parameter,
 * pixels), or -1 when it misses: the slab method. */
static double ray_box(double px, double py, double ux, double uy, const SDL_FRect *b)
{
    double t0 = 0, t1 = 1e9, lo[2] = {b->x, b->y}, hi[2] = {b->x + b->w, b->y + b->h}, p[2] = {px, py}, u[2] = {ux, uy};
    for (int k = 0; k < 2; k++) {
        if (fabs(u[k]) < 1e-12) {
            if (p[k] < lo[k] || p[k] > hi[k])
                return -1;
            continue;
        }
        double a = (lo[k] - p[k]) / u[k], c = (hi[k] - p[k]) / u[k];
        t0 = fmax(t0, fmin(a, c));
        t1 = fmin(t1, fmax(a, c));
    }
    return t0 <= t1 ? t0 : -1;
}

double drivehud_fade(const DriveHud *h, const AppXform *x, const SDL_FRect *box)
{
    const DriveCam *c = &h->cam;
    double ax = c->ax, ay = c->ay, a = hypot(ax, ay);
    if (!c->primed || a < 1e-9)
        return 1.0;
    if (x->rotated) { /* the look-ahead as the screen shows it */
        double rx = ax * x->rot_cos + ay * x->rot_sin;
        ay = ay * x->rot_cos - ax * x->rot_sin;
        ax = rx;
    }
    /* the car on screen and the way it looks (screen y grows downwards);
     * the box grown by a car length all round */
    double ux = ax / a, uy = -ay / a, px = x->cx - ux * a * x->scale, py = x->cy - uy * a * x->scale;
    double m = 2.0 * x->scale;
    SDL_FRect b = {box->x - (float)m, box->y - (float)m, box->w + 2 * (float)m, box->h + 2 * (float)m};
    /* over the car, or across its line of sight within 20 degrees either side */
    double covered = 0.0;
    for (int k = -2; k <= 2; k++) {
        double ang = k * 10.0 * NR_PI / 180, cs = cos(ang), sn = sin(ang);
        if (ray_box(px, py, ux * cs - uy * sn, ux * sn + uy * cs, &b) >= 0)
            covered = fmax(covered, 1.0 - fabs((double)k) * 0.25);
    }
    double far = fmin(1.0, a / (0.25 * c->span)); /* looking ahead at all: moving */
    return 1.0 - (1.0 - DRIVEHUD_FADE_MIN) * covered * far;
}

/* The car's top speed on a straight (docs/driving.md: a_engine = k_drag v^2
 * + k_roll v), the speedometer's mark. */
static double top_speed_cws(void)
{
    CarParams p;
    car_params_default(&p);
    return (-p.k_roll + sqrt(p.k_roll * p.k_roll + 4 * p.k_drag * p.a_engine)) / (2 * p.k_drag);
}

void drivehud_draw(DriveHud *h, AppState *v, const AppXform *x, const DriveHudOthers *o)
{
    drivewidget_sparks(v, x, h->spark, DRIVEHUD_SPARKS);
    float m = fmaxf(4.0f, (float)v->lay.base * 0.6f), top = drivehud_top_px(v);
    SDL_FRect room = drivehud_room(h, v, &x->rect); /* the arrows and the speedometer */
    SDL_FRect inset = {room.x + m, room.y + top + m, room.w - 2 * m, room.h - top - 2 * m};
    /* the labels keep clear of the own car (a car width and a half round
     * it); the arrows and their labels of the speedometer (drawn after
     * them), the minimap, a message box, each other and their own arrow */
    SDL_FRect taken[DRIVEHUD_TAKEN], dial;
    int ntaken = 1;
    float cx, cy;
    app_world_to_px(x, o->own.x, o->own.y, &cx, &cy);
    taken[0] = (SDL_FRect){cx - 1.5f * x->scale, cy - 1.5f * x->scale, 3 * x->scale, 3 * x->scale};
    h->narrows = 0;
    bool has_dial = drivewidget_speedo_rect(v, &room, &dial);
    if (has_dial)
        taken[ntaken++] = dial;
    if (o->minimap.w > 0)
        taken[ntaken++] = o->minimap;
    if (o->keep_clear.w > 0)
        taken[ntaken++] = o->keep_clear;
    for (int i = 0; i < o->n && inset.w > 0 && inset.h > 0; i++) {
        bool est;
        char label[48];
        double gap = drivegap_gap_s(&h->gap, o->me, o->car[i], &est); /* est is set here, before it is read */
        drivehud_gap_text(label, sizeof label, o->car[i], gap, est);
        int before = ntaken;
        if (drivewidget_arrow(v, x, &inset, 1, &o->pose[i], o->car[i], label, taken, &ntaken, DRIVEHUD_TAKEN) &&
            h->narrows < DRIVEGAP_CARS) { /* its box, then its label's (none: left out) */
            h->arrow_box[h->narrows] = ntaken > before ? taken[before] : (SDL_FRect){0, 0, 0, 0};
            h->label_box[h->narrows++] = ntaken > before + 1 ? taken[before + 1] : (SDL_FRect){0, 0, 0, 0};
        }
    }
    drivewidget_flash(v->r, &x->rect, h->flash);
    double opacity = has_dial ? drivehud_fade(h, x, &dial) : 1.0;
    drivewidget_speedo(v, &room, o->speed_cws, top_speed_cws(), opacity);
}

void drivehud_sound(const DriveHud *h, Synth *synth, int voice, const DriveHudIn *in, double throttle, double pan,
                    bool on)
{
    synth_engine(synth, voice, on, in->speed_cws, throttle, pan);
    if (h->impact_cws > 0)
        synth_hit(synth, h->impact_cws, pan, h->impact_car);
    if (h->scraping)
        synth_scrape(synth, voice, in->speed_cws, pan);
}

void drivehud_lights_sound(Synth *synth, int *seen, int64_t to_go_us)
{
    int64_t count = RACEFLOW_LIGHTS * RACEFLOW_LIGHT_US;
    if (to_go_us < -count) { /* no countdown (the grid, INT64_MIN): ready for the next */
        *seen = 0;
        return;
    }
    int now = to_go_us >= 0 ? RACEFLOW_LIGHTS + 1 : (int)((to_go_us + count) / RACEFLOW_LIGHT_US) + 1;
    if (now <= *seen)
        return;
    if (now == RACEFLOW_LIGHTS + 1) {
        if (to_go_us < RACEFLOW_LIGHT_US) /* the lights went out just now, not long ago (a late start) */
            synth_beep(synth, 880.0, 0.5);
    } else {
        synth_beep(synth, 440.0, 0.18);
    }
    *seen = now;
}
