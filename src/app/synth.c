/* The game's sounds synthesised and mixed (synth.h). */
#include "synth.h"

#include <math.h>
#include <string.h>

#define TWO_PI 6.283185307179586
#define HIT_DECAY_S 0.16      /* a crash fades by 1/e in this long */
#define SCRAPE_HOLD_S 0.1     /* a scrape sounds this long after its last call */
#define SCRAPE_FULL_CWS 25.0
#define ENGINE_AMP 0.10       /* idle loudness; + ENGINE_AMP_THROTTLE at full throttle */
#define ENGINE_AMP_THROTTLE 0.07
#define BEEP_AMP 0.35
#define QUIET 1e-5            /* below this a fading voice is silent */

void synth_init(Synth *s, int rate_hz)
{
    memset(s, 0, sizeof *s);
    s->rate = rate_hz < 8000 ? 8000 : rate_hz > 192000 ? 192000 : rate_hz;
    s->noise = 0x9e3779b97f4a7c15ull; /* the noise stream's seed: fixed */
}

double synth_engine_hz(double speed_cws)
{
    return SYNTH_IDLE_HZ + SYNTH_HZ_PER_CWS * fabs(speed_cws);
}

static double clamp01(double v)
{
    return !(v > 0) ? 0.0 : v > 1 ? 1.0 : v;
}

void synth_engine(Synth *s, int voice, bool on, double speed_cws, double throttle, double pan)
{
    if (voice < 0 || voice >= SYNTH_ENGINES)
        return;
    SynthEngine *e = &s->eng[voice];
    if (on && !e->on && e->amp < QUIET)
        e->hz = synth_engine_hz(speed_cws); /* starts at its pitch, not gliding up from 0 */
    e->on = on;
    e->target_hz = synth_engine_hz(speed_cws);
    e->target_amp = on ? ENGINE_AMP + ENGINE_AMP_THROTTLE * clamp01(throttle) : 0.0;
    e->pan = pan < -1 ? -1 : pan > 1 ? 1 : pan;
}

void synth_hit(Synth *s, double speed_cws, double pan, bool car)
{
    double loud = clamp01(fabs(speed_cws) / SYNTH_HIT_FULL_CWS);
    if (loud <= 0)
        return;
    SynthHit *h = &s->hit[s->hit_next];
    s->hit_next = (s->hit_next + 1) % SYNTH_HITS;
    *h = (SynthHit){.amp = 0.15 + 0.65 * loud, .thump_hz = car ? 95.0 : 62.0, .pan = pan < -1 ? -1 : pan > 1 ? 1 : pan,
                    .tone = car ? 0.08 : 0.25};
}

void synth_scrape(Synth *s, int voice, double speed_cws, double pan)
{
    if (voice < 0 || voice >= SYNTH_ENGINES)
        return;
    SynthEngine *e = &s->eng[voice];
    double loud = clamp01(fabs(speed_cws) / SCRAPE_FULL_CWS);
    if (loud <= 0)
        return;
    e->scrape_target = 0.05 + 0.2 * loud;
    e->scrape_pan = pan < -1 ? -1 : pan > 1 ? 1 : pan;
    e->scrape_hold = (int64_t)(SCRAPE_HOLD_S * s->rate);
}

void synth_beep(Synth *s, double hz, double seconds)
{
    for (int i = 0; i < SYNTH_BEEPS; i++) {
        SynthBeep *b = &s->beep[i];
        if (b->left > 0)
            continue;
        b->hz = hz;
        b->phase = 0;
        b->total = b->left = (int64_t)(seconds * s->rate);
        return;
    }
}

/* White noise in [-1, 1) (xorshift64*). */
static double noise(Synth *s)
{
    s->noise ^= s->noise >> 12;
    s->noise ^= s->noise << 25;
    s->noise ^= s->noise >> 27;
    return (double)((s->noise * 2685821657736338717ull) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

/* Equal-power panning: the gains of the left and right channels. */
static void pan_gains(double pan, double g[2])
{
    double a = (pan + 1) * (TWO_PI / 8);
    g[0] = cos(a);
    g[1] = sin(a);
}

/* One engine's sample (and its scrape), gliding towards its targets;
 * g, gs: the engine's and the scrape's pan gains. */
static void engine_sample(Synth *s, SynthEngine *e, double glide, const double *g, const double *gs, double *l, double *r)
{
    e->hz += (e->target_hz - e->hz) * glide;
    e->amp += (e->target_amp - e->amp) * glide;
    if (!e->on && e->amp < QUIET)
        e->amp = 0.0;
    if (e->amp > 0) {
        e->phase += e->hz / s->rate;
        e->sub_phase += 0.5 * e->hz / s->rate;
        e->phase -= floor(e->phase);
        e->sub_phase -= floor(e->sub_phase);
        double s1 = sin(TWO_PI * e->phase), c1 = cos(TWO_PI * e->phase);
        double s2 = 2 * s1 * c1, c2 = c1 * c1 - s1 * s1, s3 = s2 * c1 + c2 * s1, s4 = 2 * s2 * c2;
        double v = e->amp * (0.5 * (s1 + s2 / 2 + s3 / 3 + s4 / 4) + 0.6 * sin(TWO_PI * e->sub_phase));
        *l += v * g[0];
        *r += v * g[1];
    }
    if (e->scrape_hold > 0 && --e->scrape_hold == 0)
        e->scrape_target = 0.0;
    e->scrape += (e->scrape_target - e->scrape) * glide;
    if (e->scrape_target == 0.0 && e->scrape < QUIET)
        e->scrape = 0.0;
    if (e->scrape > 0) {
        double n = noise(s);
        e->scrape_lp += (n - e->scrape_lp) * 0.3;
        double v = e->scrape * (n - e->scrape_lp); /* the hiss: high-passed noise */
        *l += v * gs[0];
        *r += v * gs[1];
    }
}

static void hit_sample(Synth *s, SynthHit *h, double decay, const double *g, double *l, double *r)
{
    if (h->amp <= 0)
        return;
    h->noise_lp += (noise(s) - h->noise_lp) * h->tone;
    h->thump_phase += h->thump_hz / s->rate;
    h->thump_phase -= floor(h->thump_phase);
    double v = h->amp * (0.8 * h->noise_lp / h->tone * 0.25 + 0.7 * sin(TWO_PI * h->thump_phase));
    *l += v * g[0];
    *r += v * g[1];
    h->amp *= decay;
    if (h->amp < QUIET)
        h->amp = 0.0;
}

static double beep_sample(Synth *s, SynthBeep *b)
{
    if (b->left <= 0)
        return 0.0;
    int64_t done = b->total - b->left, ramp = s->rate / 200; /* 5 ms */
    double env = done < ramp ? (double)done / ramp : b->left < ramp ? (double)b->left / ramp : 1.0;
    b->phase += b->hz / s->rate;
    b->phase -= floor(b->phase);
    b->left--;
    return BEEP_AMP * env * sin(TWO_PI * b->phase);
}

static float limit(double x)
{
    double a = fabs(x);
    if (a <= SYNTH_LIMIT)
        return (float)x;
    double y = SYNTH_LIMIT + (1 - SYNTH_LIMIT) * tanh((a - SYNTH_LIMIT) / (1 - SYNTH_LIMIT));
    return (float)copysign(y, x);
}

void synth_render(Synth *s, float *out, int frames)
{
    double glide = 1.0 - exp(-1.0 / (s->rate * SYNTH_GLIDE_S));
    double decay = exp(-1.0 / (s->rate * HIT_DECAY_S));
    double ge[SYNTH_ENGINES][2], gs[SYNTH_ENGINES][2], gh[SYNTH_HITS][2];
    for (int v = 0; v < SYNTH_ENGINES; v++) {
        pan_gains(s->eng[v].pan, ge[v]);
        pan_gains(s->eng[v].scrape_pan, gs[v]);
    }
    for (int h = 0; h < SYNTH_HITS; h++)
        pan_gains(s->hit[h].pan, gh[h]);
    for (int i = 0; i < frames; i++) {
        double l = 0, r = 0;
        for (int v = 0; v < SYNTH_ENGINES; v++)
            engine_sample(s, &s->eng[v], glide, ge[v], gs[v], &l, &r);
        for (int h = 0; h < SYNTH_HITS; h++)
            hit_sample(s, &s->hit[h], decay, gh[h], &l, &r);
        for (int b = 0; b < SYNTH_BEEPS; b++) {
            double v = beep_sample(s, &s->beep[b]);
            l += v;
            r += v;
        }
        out[2 * i] = limit(l);
        out[2 * i + 1] = limit(r);
    }
}

bool synth_silent(const Synth *s)
{
    for (int v = 0; v < SYNTH_ENGINES; v++)
        if (s->eng[v].on || s->eng[v].amp > 0 || s->eng[v].scrape > 0 || s->eng[v].scrape_target > 0)
            return false;
    for (int h = 0; h < SYNTH_HITS; h++)
        if (s->hit[h].amp > 0)
            return false;
    for (int b = 0; b < SYNTH_BEEPS; b++)
        if (s->beep[b].left > 0)
            return false;
    return true;
}

void synth_quiet(Synth *s)
{
    memset(s->hit, 0, sizeof s->hit);
    memset(s->beep, 0, sizeof s->beep);
    for (int v = 0; v < SYNTH_ENGINES; v++) {
        s->eng[v].scrape = s->eng[v].scrape_target = 0.0;
        s->eng[v].scrape_hold = 0;
    }
}
