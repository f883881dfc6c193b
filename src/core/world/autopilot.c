/* Autopilot bot drivers: a believable, deterministic two-car race on any track.
 *
 * Units: car widths (cw), seconds, radians. The physics step is a third of
 * the sample period; samples are taken every period from t = 0.
 */
#include "autopilot.h"
#include "rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Vehicle limits at skill 1 (1 cw ~ 1.8 m: 30 cw/s ~ 195 km/h, 8 cw/s^2 ~ 1.5 g). */
#define AP_V_TOP 33.0      /* top speed, cw/s */
#define AP_A_LAT 10.0      /* lateral grip the driver plans with, cw/s^2 */
#define AP_A_GRIP 15.0     /* physical grip: steering is limited to this */
#define AP_A_ACC 5.0       /* full-throttle acceleration at rest, cw/s^2 */
#define AP_A_BRAKE 12.0    /* braking, cw/s^2 */
#define AP_PROFILE_DS 0.5  /* speed/line profile resolution, cw */
#define AP_SMOOTH_CW 4.0   /* curvature averaged over +-this, cw */
#define AP_LINE_GAIN 50.0  /* inside offset reaches its maximum at radius 50 */
#define AP_LINE_CUT 0.85   /* effective curvature on the racing line */
#define AP_EDGE_MARGIN 1.2 /* racing line keeps this far from the edge, cw */
#define AP_SUBSTEPS 3

typedef struct Ou {
    double x, tau, sigma; /* value, time constant (s), stationary sd */
} Ou;

static void ou_step(Ou *o, Rng *r, double dt)
{
    o->x += -o->x / o->tau * dt + o->sigma * sqrt(2.0 * dt / o->tau) * rng_normal(r);
}

typedef struct Car {
    Rng rng;
    double x, y, h, v, s;
    double v_top, a_lat, a_acc, a_brake;
    Ou pace, wander, steer, throttle;
    double mistake_rate;       /* per second */
    double lift_until, lift_factor;
    double *vprof;             /* braking-envelope speed profile, [nprof] */
} Car;

/* Round to 1/scale: an integer divided by an exact power of ten is the double
 * nearest that decimal, so "%.Nf" prints it short and reads it back exactly. */
static double quant(double v, double scale)
{
    return nearbyint(v * scale) / scale + 0.0; /* + 0.0 turns -0 into +0 */
}

void autopilot_config_default(AutopilotConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->seed = 1;
    cfg->ncars = 2;
    cfg->duration_ms = 30000;
    cfg->period_ms = 33;
    for (int i = 0; i < RECORDING_MAX_CARS; i++) {
        cfg->driver[i].skill = 0.9;
        cfg->driver[i].noise = 0.5;
    }
    cfg->track_file = "default.track";
    cfg->created = "";
}

/* Racing line offset (left > 0) and |curvature| profiles shared by all cars. */
typedef struct Profile {
    int n;
    double ds;
    double *kabs; /* smoothed |curvature| */
    double *line; /* racing line lateral offset */
} Profile;

static double prof_at(const Profile *p, const double *a, double s)
{
    double u = s / p->ds;
    double fl = floor(u);
    double f = u - fl;
    long i = (long)fmod(fl, (double)p->n);
    if (i < 0)
        i += p->n;
    long j = i + 1 == p->n ? 0 : i + 1;
    return a[i] + f * (a[j] - a[i]);
}

static bool build_profile(const Track *t, Profile *p)
{
    double len = track_length(t);
    p->n = (int)ceil(len / AP_PROFILE_DS);
    p->ds = len / p->n;
    double *k = malloc((size_t)p->n * sizeof *k);
    p->kabs = malloc((size_t)p->n * sizeof *p->kabs);
    p->line = malloc((size_t)p->n * sizeof *p->line);
    if (!k || !p->kabs || !p->line) {
        free(k);
        return false;
    }
    for (int i = 0; i < p->n; i++)
        k[i] = track_curvature(t, i * p->ds);
    int win = (int)ceil(AP_SMOOTH_CW / p->ds);
    double half = track_width(t) / 2 - AP_EDGE_MARGIN;
    if (half < 0)
        half = 0;
    for (int i = 0; i < p->n; i++) {
        double sa = 0, ss = 0;
        for (int d = -win; d <= win; d++) {
            double kk = k[((i + d) % p->n + p->n) % p->n];
            sa += fabs(kk);
            ss += kk;
        }
        p->kabs[i] = sa / (2 * win + 1);
        double g = ss / (2 * win + 1) * AP_LINE_GAIN;
        p->line[i] = (g > 1 ? 1 : g < -1 ? -1 : g) * half;
    }
    free(k);
    return true;
}

static bool build_speed_profile(const Profile *p, Car *c)
{
    c->vprof = malloc((size_t)p->n * sizeof *c->vprof);
    if (!c->vprof)
        return false;
    for (int i = 0; i < p->n; i++) {
        double ke = p->kabs[i] * AP_LINE_CUT;
        double v = ke > 0 ? sqrt(c->a_lat / ke) : c->v_top;
        c->vprof[i] = v < c->v_top ? v : c->v_top;
    }
    /* Braking envelope: v(s) <= sqrt(v(s + ds)^2 + 2 b ds), going backwards
     * twice round the closed track so the wrap is covered. */
    double b = c->a_brake * 0.8; /* plans with a margin */
    for (int pass = 0; pass < 2; pass++)
        for (int i = p->n - 1; i >= 0; i--) {
            double next = c->vprof[i + 1 == p->n ? 0 : i + 1];
            double lim = sqrt(next * next + 2 * b * p->ds);
            if (c->vprof[i] > lim)
                c->vprof[i] = lim;
        }
    return true;
}

/* Chasing: a car up to AP_DRAFT_CW behind another meets less drag on the
 * straights (slipstream) and pushes harder in the bends, so its speed target,
 * top speed and acceleration grow by up to AP_DRAFT_GAIN (most when close).
 * This is what keeps evenly matched drivers together and makes them swap
 * places like the human pairs of the racing paper (Section 4). */
#define AP_DRAFT_CW 20.0
#define AP_DRAFT_GAIN 0.10

static double draft_factor(const Car *cars, int n, int self)
{
    double best = 0;
    for (int j = 0; j < n; j++) {
        if (j == self)
            continue;
        double gap = cars[j].s - cars[self].s;
        if (gap > 0.5 && gap < AP_DRAFT_CW) {
            double f = 1.0 - gap / AP_DRAFT_CW;
            if (f > best)
                best = f;
        }
    }
    return 1.0 + AP_DRAFT_GAIN * best;
}

static void car_step(Car *c, const Track *t, const Profile *p, double now, double dt, double draft)
{
    double width = track_width(t);
    c->s = track_progress(t, c->x, c->y, c->s);
    ou_step(&c->pace, &c->rng, dt);
    ou_step(&c->wander, &c->rng, dt);
    ou_step(&c->steer, &c->rng, dt);
    ou_step(&c->throttle, &c->rng, dt);

    /* Mistakes: a Poisson process; half lift off for a moment, half run wide. */
    if (rng_uniform(&c->rng) < c->mistake_rate * dt) {
        if (rng_uniform(&c->rng) < 0.5) {
            c->lift_until = now + 0.3 + 0.7 * rng_uniform(&c->rng);
            c->lift_factor = 0.6 + 0.25 * rng_uniform(&c->rng);
        } else {
            c->wander.x += (rng_uniform(&c->rng) < 0.5 ? -1 : 1) * (1.0 + 1.5 * rng_uniform(&c->rng));
        }
    }

    /* Speed: profile ahead (already a braking envelope), pace, lift-off. */
    double vplan = prof_at(p, c->vprof, c->s + c->v * dt);
    double vt = vplan > c->v_top * 0.98 ? c->v_top : vplan; /* flat out */
    vt *= draft * (1.0 + c->pace.x);
    /* Chasing and pace never take the car past 85% of the physical grip. */
    double vcap = vplan * sqrt(0.85 * AP_A_GRIP / c->a_lat);
    if (vplan < c->v_top * 0.98 && vt > vcap)
        vt = vcap;
    if (now < c->lift_until)
        vt *= c->lift_factor;
    double offset = track_offset(t, c->x, c->y);
    double edge = width / 2 - fabs(offset);
    if (edge < 0.8)
        vt *= 0.9; /* near the edge: ease off */
    if (c->v < vt) {
        double vd = c->v_top * 1.1 * draft; /* drag-limited speed */
        double a = c->a_acc * (1.0 - (c->v / vd) * (c->v / vd));
        a *= 1.0 + c->throttle.x;
        if (a < 0)
            a = 0;
        c->v += fmin(a * dt, vt - c->v);
    } else {
        c->v -= fmin(c->a_brake * dt, c->v - vt);
    }
    if (c->v < 0)
        c->v = 0;

    /* Steering: pure pursuit towards the racing line plus the driver's own
     * offset, clamped inside the track. */
    double look = 3.0 + 0.35 * c->v;
    double sa = c->s + look;
    double lim = width / 2 - AP_EDGE_MARGIN;
    if (lim < 0)
        lim = 0;
    double n = prof_at(p, p->line, sa) + c->wander.x;
    if (n > lim)
        n = lim;
    else if (n < -lim)
        n = -lim;
    double cx, cy, ch;
    track_point(t, sa, &cx, &cy, &ch);
    double tx = cx - sin(ch) * n, ty = cy + cos(ch) * n;
    double dist = hypot(tx - c->x, ty - c->y);
    double alpha = nr_wrap_angle(atan2(ty - c->y, tx - c->x) - c->h);
    double k = dist > 1e-9 ? 2.0 * sin(alpha) / dist : 0.0;
    k += c->steer.x;
    double kmax = c->v > 1.0 ? AP_A_GRIP / (c->v * c->v) : AP_A_GRIP;
    if (kmax > 0.5)
        kmax = 0.5; /* steering lock: radius 2 cw */
    if (k > kmax)
        k = kmax;
    else if (k < -kmax)
        k = -kmax;
    c->h = nr_wrap_angle(c->h + c->v * k * dt);
    c->x += c->v * cos(c->h) * dt;
    c->y += c->v * sin(c->h) * dt;
}

bool autopilot_race(const Track *t, const AutopilotConfig *cfg, Recording *out, NrError *err)
{
    memset(out, 0, sizeof *out);
    int slots = track_grid_slots(t);
    if (cfg->ncars < 1 || cfg->ncars > RECORDING_MAX_CARS || cfg->ncars > slots)
        return nr_error_set(err, "autopilot: %d cars, the track has %d grid slots (at most %d cars)", cfg->ncars,
                            slots, RECORDING_MAX_CARS);
    if (cfg->period_ms < 1 || cfg->period_ms > 1000)
        return nr_error_set(err, "autopilot: period %ld ms, expected 1 to 1000", (long)cfg->period_ms);
    if (cfg->duration_ms < 0 || cfg->duration_ms > AUTOPILOT_MAX_MS)
        return nr_error_set(err, "autopilot: duration %ld ms, expected 0 to %d", (long)cfg->duration_ms,
                            AUTOPILOT_MAX_MS);
    for (int i = 0; i < cfg->ncars; i++) {
        const AutopilotDriver *d = &cfg->driver[i];
        if (!(d->skill >= 0 && d->skill <= 1) || !(d->noise >= 0 && d->noise <= 1))
            return nr_error_set(err, "autopilot: car %d: skill %g noise %g, both must be in [0, 1]", i + 1,
                                d->skill, d->noise);
    }
    const char *tf = cfg->track_file ? cfg->track_file : "";
    const char *cr = cfg->created ? cfg->created : "";
    if (strlen(tf) >= sizeof out->track || strlen(cr) >= sizeof out->created)
        return nr_error_set(err, "autopilot: track name or creation time too long");
    int nsamples = cfg->duration_ms / cfg->period_ms + 1;

    Profile p = {0, 0, NULL, NULL};
    Car cars[RECORDING_MAX_CARS];
    memset(cars, 0, sizeof cars);
    bool ok = build_profile(t, &p);
    RecSample *samples = ok ? calloc((size_t)nsamples * (size_t)cfg->ncars, sizeof *samples) : NULL;
    ok = ok && samples;
    for (int i = 0; ok && i < cfg->ncars; i++) {
        Car *c = &cars[i];
        const AutopilotDriver *d = &cfg->driver[i];
        rng_seed(&c->rng, cfg->seed, (uint64_t)i + 1);
        track_grid(t, i, &c->x, &c->y, &c->h, &c->s);
        double f = 0.85 + 0.15 * d->skill;
        c->v_top = AP_V_TOP * (0.9 + 0.1 * d->skill);
        c->a_lat = AP_A_LAT * f;
        c->a_acc = AP_A_ACC * f;
        c->a_brake = AP_A_BRAKE * f;
        c->pace = (Ou){0, 1.0, 0.01 + 0.05 * d->noise};
        c->wander = (Ou){0, 3.0, 0.2 + 1.0 * d->noise};
        c->steer = (Ou){0, 0.3, 0.004 * d->noise};
        c->throttle = (Ou){0, 0.5, 0.3 * d->noise};
        c->mistake_rate = 0.2 * d->noise * (1.2 - d->skill);
        ok = build_speed_profile(&p, c);
    }
    if (ok) {
        double dt = cfg->period_ms / 1000.0 / AP_SUBSTEPS;
        for (int k = 0; k < nsamples; k++) {
            for (int sub = 0; k > 0 && sub < AP_SUBSTEPS; sub++) {
                double draft[RECORDING_MAX_CARS];
                for (int i = 0; i < cfg->ncars; i++)
                    draft[i] = draft_factor(cars, cfg->ncars, i);
                for (int i = 0; i < cfg->ncars; i++)
                    car_step(&cars[i], t, &p, ((k - 1) * AP_SUBSTEPS + sub) * dt, dt, draft[i]);
            }
            for (int i = 0; i < cfg->ncars; i++) {
                Car *c = &cars[i];
                RecSample *s = &samples[(size_t)i * (size_t)nsamples + (size_t)k];
                s->t_ms = k * cfg->period_ms;
                s->x = quant(c->x, 1e4);
                s->y = quant(c->y, 1e4);
                s->heading = quant(c->h, 1e4);
                s->speed = quant(c->v, 1e3);
            }
        }
    }
    free(p.kabs);
    free(p.line);
    for (int i = 0; i < cfg->ncars; i++)
        free(cars[i].vprof);
    if (!ok) {
        free(samples);
        return nr_error_set(err, "autopilot: out of memory");
    }
    out->version = RECORDING_VERSION;
    snprintf(out->track, sizeof out->track, "%s", tf);
    snprintf(out->source, sizeof out->source, "autopilot");
    snprintf(out->created, sizeof out->created, "%s", cr);
    out->period_ms = cfg->period_ms;
    out->ncars = cfg->ncars;
    out->nsamples = nsamples;
    out->samples = samples;
    out->truncated = false;
    return true;
}
