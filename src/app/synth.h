/* The game's sounds, synthesised in code (no sample files): an engine tone
 * per driving screen whose pitch follows the car's speed, the crash of a
 * hit, the hiss of a car scraping the wall, and the start lights' beeps;
 * mixed into an interleaved stereo float buffer. Pure arithmetic, no SDL
 * and no clock: the caller says what happens and how many frames it wants
 * (sound.h sends them to SDL's audio device). Noise from a seeded stream:
 * the same calls give the same samples.
 *
 * The engine: f = SYNTH_IDLE_HZ + SYNTH_HZ_PER_CWS * |v| (idle 55 Hz, 294 Hz
 * at the 36.2 cw/s top speed), a sawtooth-like sum of the first four
 * harmonics (amplitudes 1, 1/2, 1/3, 1/4) over a half-frequency rumble,
 * louder with the throttle; the pitch and loudness glide (one-pole, time
 * constant SYNTH_GLIDE_S) so a jump in speed never clicks.
 *
 * Contracts:
 *   synth_init(s, rate_hz)  silence at rate_hz (8000..192000).
 *   synth_engine_hz(v)      the engine's frequency at speed v (cw/s).
 *   synth_engine(s, voice, on, speed, throttle, pan)  voice (0..SYNTH_ENGINES-1)
 *        runs at speed v (glides there), throttle 0..1, pan -1 (left) .. 1
 *        (right); on false fades it out.
 *   synth_hit(s, speed, pan, car)  a crash whose loudness grows with the
 *        speed into the wall (car false) or the other car (car true: a
 *        duller knock), up to SYNTH_HIT_FULL_CWS.
 *   synth_scrape(s, voice, speed, pan)  the voice's scraping noise this
 *        frame at loudness by speed (0: none); it fades out unless renewed.
 *   synth_beep(s, hz, seconds)  a sine beep (5 ms ramps at both ends).
 *   synth_render(s, out, frames)  frames stereo frames (2 floats each) into
 *        out, every sample in [-1, 1] (a soft limiter past SYNTH_LIMIT);
 *        exact zeros when nothing sounds.
 *   synth_silent(s)          nothing sounds (every voice has faded out).
 *   synth_quiet(s)           the crashes, scrapes and beeps stop at once
 *        (the engines go on).
 */
#ifndef NR_SYNTH_H
#define NR_SYNTH_H

#include <stdbool.h>
#include <stdint.h>

#define SYNTH_ENGINES 4
#define SYNTH_IDLE_HZ 55.0
#define SYNTH_HZ_PER_CWS 6.6
#define SYNTH_GLIDE_S 0.06
#define SYNTH_HIT_FULL_CWS 15.0
#define SYNTH_BEEPS 4
#define SYNTH_HITS 4
#define SYNTH_LIMIT 0.7

typedef struct SynthEngine {
    bool on;
    double target_hz, hz, phase, sub_phase; /* phases in turns */
    double target_amp, amp, pan;
    double scrape_target, scrape, scrape_lp, scrape_pan;
    int64_t scrape_hold; /* frames the scrape still sounds without a new call */
} SynthEngine;

typedef struct SynthHit {
    double amp, noise_lp, thump_phase, thump_hz, pan, tone; /* tone: the noise's low-pass share */
} SynthHit;

typedef struct SynthBeep {
    double hz, phase;
    int64_t left, total; /* frames */
} SynthBeep;

typedef struct Synth {
    int rate;
    SynthEngine eng[SYNTH_ENGINES];
    SynthHit hit[SYNTH_HITS];
    int hit_next;
    SynthBeep beep[SYNTH_BEEPS];
    uint64_t noise; /* xorshift state */
} Synth;

void synth_init(Synth *s, int rate_hz);
double synth_engine_hz(double speed_cws);
void synth_engine(Synth *s, int voice, bool on, double speed_cws, double throttle, double pan);
void synth_hit(Synth *s, double speed_cws, double pan, bool car);
void synth_scrape(Synth *s, int voice, double speed_cws, double pan);
void synth_beep(Synth *s, double hz, double seconds);
void synth_render(Synth *s, float *out, int frames);
bool synth_silent(const Synth *s);
void synth_quiet(Synth *s);

#endif
