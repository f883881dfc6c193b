/* The driving screens' parts against hand computation and closed forms:
 * the camera (drivecam.h: spring, span, look-ahead far enough to brake,
 * smoothness, rotation), the time gap (drivegap.h), the sound synthesiser
 * (synth.h: the engine's pitch against speed, the mixer's buffer, beeps)
 * and its SDL device (sound.h, on SDL's dummy audio driver). The
 * instruments drawn on a screen: test_drivewidgets.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivehud.h"
#include "lagometer.h"
#include "sound.h"

/* ---- camera ------------------------------------------------------------ */

/* The spring is the exact solution of x'' = -w^2 (x - T) - 2 w x': from
 * x0 = 1, v0 = 0, T = 0 it is (1 + w t) e^(-w t), in one step or in many. */
static void spring_closed_form(void **state)
{
    (void)state;
    double w = 4.0;
    for (int steps = 1; steps <= 1000; steps *= 10) {
        double x = 1.0, v = 0.0;
        for (int i = 0; i < steps; i++)
            drivecam_spring(&x, &v, 0.0, w, 0.7 / steps);
        double t = 0.7, want = (1 + w * t) * exp(-w * t), want_v = -w * w * t * exp(-w * t);
        assert_true(fabs(x - want) < 1e-12 && fabs(v - want_v) < 1e-12);
    }
    /* critically damped: a step never overshoots */
    double x = 0.0, v = 0.0, prev = 0.0;
    for (int i = 0; i < 600; i++) {
        drivecam_spring(&x, &v, 10.0, 2.5, 1.0 / 60);
        assert_true(x >= prev && x <= 10.0);
        prev = x;
    }
    x = 3.0;
    v = 1.0;
    drivecam_spring(&x, &v, 0.0, w, 0.0); /* no time: nothing */
    assert_true(x == 3.0 && v == 1.0);
}

/* Issue 22: at the top speed the view must reach the braking point of the
 * next radius-20 bend. Top speed from the physics (a_engine = k_drag v^2 +
 * k_roll v), the bend's speed sqrt(grip R), full braking: the look-ahead
 * plus half the span (the view's worst direction) covers the braking
 * distance and at least 0.25 s of reaction at that speed. */
static void camera_sees_the_braking_point(void **state)
{
    (void)state;
    CarParams p;
    car_params_default(&p);
    double top = (-p.k_roll + sqrt(p.k_roll * p.k_roll + 4 * p.k_drag * p.a_engine)) / (2 * p.k_drag);
    double bend = sqrt(p.grip * 20.0), brake = (top * top - bend * bend) / (2 * p.a_brake);
    assert_true(brake > 34 && brake < 38); /* the "about 35 cw" */
    double seen = drivecam_ahead_cw(top) + drivecam_span_cw(top) / 2;
    assert_true(seen >= brake + 0.25 * top);
    /* and it widens with speed; the look-ahead follows the motion */
    assert_true(drivecam_span_cw(0) == DRIVECAM_SPAN0_CW);
    assert_true(drivecam_span_cw(20) > drivecam_span_cw(10));
    assert_true(drivecam_ahead_cw(-5) < 0); /* reversing: it looks back */
    assert_true(drivecam_ahead_cw(1000) <= DRIVECAM_AHEAD_SHARE * drivecam_span_cw(1000) + 1e-12);
}

/* The car's pixel on a 960 x 1080 view, frame by frame at 60 fps. */
static void car_px(const DriveCam *c, const Pose *p, float *px, float *py)
{
    SDL_FRect rect = {0, 0, 960, 1080};
    AppXform x;
    drivecam_xform(c, p, &rect, &x);
    app_world_to_px(&x, p->x, p->y, px, py);
}

/* A wall hit takes the speed from 30 to 5 cw/s in a step: the targets jump
 * (the look-ahead by 13.75 cw, 255 px at this scale), the picture glides:
 * the car moves on screen by at most 1.5 % of the view per frame and its
 * on-screen velocity changes little from frame to frame (no jerk). */
static void camera_glides_after_a_hit(void **state)
{
    (void)state;
    DriveCam c;
    drivecam_reset(&c, DRIVECAM_NORTH);
    Pose p = {.x = 0, .y = 0, .heading = 0.3};
    drivecam_update(&c, &p, 30.0, 1.0 / 60);
    for (int i = 0; i < 600; i++) /* settled at 30 cw/s */
        drivecam_update(&c, &p, 30.0, 1.0 / 60);
    float x0, y0, x1, y1;
    car_px(&c, &p, &x0, &y0);
    double prev_step = 0.0, worst_step = 0.0, worst_change = 0.0;
    for (int i = 0; i < 240; i++) {
        drivecam_update(&c, &p, 5.0, 1.0 / 60);
        car_px(&c, &p, &x1, &y1);
        double step = hypot(x1 - x0, y1 - y0);
        worst_step = fmax(worst_step, step);
        worst_change = fmax(worst_change, fabs(step - prev_step));
        prev_step = step;
        x0 = x1;
        y0 = y1;
    }
    assert_true(worst_step < 0.015 * 960);
    assert_true(worst_change < 0.004 * 960);
    /* and it got there: the car's offset is the new look-ahead */
    SDL_FRect rect = {0, 0, 960, 1080};
    AppXform x;
    drivecam_xform(&c, &p, &rect, &x);
    assert_true(fabs(hypot(x.wx - p.x, x.wy - p.y) - drivecam_ahead_cw(5.0)) < 0.05);
}

/* Rotate mode: the nose points up the screen once settled, and a heading
 * crossing +-pi does not spin the screen round. */
static void camera_rotates_with_the_car(void **state)
{
    (void)state;
    DriveCam c;
    drivecam_reset(&c, DRIVECAM_ROTATE);
    Pose p = {.x = 5, .y = -2, .heading = 3.0};
    drivecam_update(&c, &p, 20.0, 1.0 / 60);
    float cx, cy, nx, ny;
    SDL_FRect rect = {0, 0, 800, 600};
    AppXform x;
    drivecam_xform(&c, &p, &rect, &x);
    app_world_to_px(&x, p.x, p.y, &cx, &cy);
    app_world_to_px(&x, p.x + cos(p.heading), p.y + sin(p.heading), &nx, &ny);
    assert_true(fabs(nx - cx) < 1e-3 && ny < cy); /* up */
    assert_true(fabs(cx - 400) < 1e-3);           /* centred across */
    double prev = c.rot;
    for (int i = 0; i < 120; i++) { /* through pi at 0.5 rad/s */
        p.heading = nr_wrap_angle(p.heading + 0.5 / 60);
        drivecam_update(&c, &p, 20.0, 1.0 / 60);
        assert_true(fabs(c.rot - prev) < 0.02);
        prev = c.rot;
    }
    assert_true(fabs(app_screen_heading(&x, p.heading)) < 10); /* finite */
    /* back to north: the screen turns back, then is not rotated at all */
    drivecam_set_mode(&c, DRIVECAM_NORTH);
    for (int i = 0; i < 600; i++)
        drivecam_update(&c, &p, 20.0, 1.0 / 60);
    drivecam_xform(&c, &p, &rect, &x);
    assert_false(x.rotated);
    DriveCamMode m;
    assert_true(drivecam_mode_parse("rotate", &m) && m == DRIVECAM_ROTATE);
    assert_false(drivecam_mode_parse("Rotate", &m));
    assert_string_equal(drivecam_mode_name(DRIVECAM_NORTH), "north");
}

/* An instrument fades when it covers the road the camera looks at or the
 * car itself, not at rest or when clear of both; in rotate mode the look is
 * up the screen: the bottom corners stay. On a 960 x 1080 view at 25 cw/s
 * (scale 960 / 45 px per cw) the look-ahead of 13.75 cw puts the car 207 px
 * up and left of the centre when heading south-east. */
static void instruments_fade_over_the_road(void **state)
{
    (void)state;
    SDL_FRect rect = {0, 0, 960, 1080}, bottom_right = {760, 880, 200, 200}, bottom_left = {0, 880, 200, 200},
              over_car = {200, 260, 150, 150};
    AppXform x;
    DriveHud h;
    drivehud_reset(&h, DRIVECAM_NORTH);
    Pose p = {.heading = -NR_PI / 4}; /* south-east: down-right on a north-up screen */
    drivecam_update(&h.cam, &p, 0.0, 1.0 / 60);
    drivecam_xform(&h.cam, &p, &rect, &x);
    assert_true(drivehud_fade(&h, &x, &bottom_right) == 1.0); /* at rest */
    for (int i = 0; i < 600; i++)
        drivecam_update(&h.cam, &p, 25.0, 1.0 / 60);
    drivecam_xform(&h.cam, &p, &rect, &x);
    assert_true(fabs(drivehud_fade(&h, &x, &bottom_right) - DRIVEHUD_FADE_MIN) < 1e-6); /* the road ahead */
    assert_true(fabs(drivehud_fade(&h, &x, &over_car) - DRIVEHUD_FADE_MIN) < 1e-6);     /* the car */
    assert_true(drivehud_fade(&h, &x, &bottom_left) == 1.0);                           /* clear */
    drivehud_reset(&h, DRIVECAM_ROTATE);
    for (int i = 0; i < 600; i++)
        drivecam_update(&h.cam, &p, 25.0, 1.0 / 60);
    drivecam_xform(&h.cam, &p, &rect, &x);
    assert_true(drivehud_fade(&h, &x, &bottom_right) == 1.0 && drivehud_fade(&h, &x, &bottom_left) == 1.0);
}

/* With the lagometer along the bottom (F2) the camera centres the car on
 * the part between the HUD strip and the lagometer: on a 960 x 1080 view
 * at base 25 px (no font: the strip is 3 bases, 75 px) the lagometer is
 * 0.28 * 960 = 268.8 px tall with a 12.5 px margin, so the part ends at
 * 1080 - 268.8 - 2 * 12.5 = 786.2 and a car at rest sits at (75 + 786.2) / 2
 * = 430.6 px, against (75 + 1080) / 2 = 577.5 without. A short view
 * (960 x 250: the full strip, 5.5 bases, would leave 112.5 px, under 22
 * bases) gets the compact strip of 3.4 bases, 85 px: the part ends at
 * 250 - 85 - 25 = 140 and the car sits at (75 + 140) / 2 = 107.5 (the
 * full strip left less than 40 %: the car sat at 162.5, over the strip).
 * A view so short that even that leaves less than 40 % (960 x 150: 40 px)
 * keeps the whole height, and the strip of 75 px is more than a third of
 * it, so the car sits in its middle, 75. */
static void camera_keeps_above_the_lagometer(void **state)
{
    (void)state;
    static AppState v; /* no renderer, no font: the strip's height from the base */
    v.lay.base = 25;
    DriveHud h;
    drivehud_reset(&h, DRIVECAM_NORTH);
    Pose p = {.x = 40, .y = -12, .heading = 0.3};
    drivecam_update(&h.cam, &p, 0.0, 1.0 / 60);
    SDL_FRect rect = {0, 0, 960, 1080}, low = {0, 0, 960, 250};
    AppXform x;
    float cx, cy;
    drivehud_xform(&h, &v, &p, &rect, &x);
    app_world_to_px(&x, p.x, p.y, &cx, &cy);
    assert_true(fabsf(cy - 577.5f) < 0.5f && fabsf(cx - 480.0f) < 0.5f);
    h.lagometer = true;
    drivehud_xform(&h, &v, &p, &rect, &x);
    app_world_to_px(&x, p.x, p.y, &cx, &cy);
    assert_true(fabsf(cy - 430.6f) < 0.5f && fabsf(cx - 480.0f) < 0.5f);
    assert_true(cy < lagometer_screen_rect(&rect, 25).y);
    assert_true(x.rect.h == 1080.0f); /* the track is still drawn under it */
    drivehud_xform(&h, &v, &p, &low, &x);
    app_world_to_px(&x, p.x, p.y, &cx, &cy);
    assert_true(fabsf(cy - 107.5f) < 0.5f);
    assert_true(cy < lagometer_screen_rect(&low, 25).y);
    SDL_FRect lower = {0, 0, 960, 150};
    drivehud_xform(&h, &v, &p, &lower, &x);
    app_world_to_px(&x, p.x, p.y, &cx, &cy);
    assert_true(fabsf(cy - 75.0f) < 0.5f);
}

/* The compact strip goes to short screens only: a 2 x 2 cell of 1024x768
 * (512 x 384, base 14: the full strip 0.28 * 384 = 107.5 px would leave
 * 276.5 < 22 * 14 = 308) gets 3.4 * 14 = 47.6 px, 7 px above the bottom;
 * the two-player screen of 1024x768 (512 x 768: 0.28 * 512 = 143.4 px,
 * 624.6 left) and the network window at 1280x720 (base 17: 0.28 * 720 =
 * 201.6, 518.4 >= 374 left) keep the full strip. */
static void lagometer_compact_in_short_screens(void **state)
{
    (void)state;
    SDL_FRect cell = {0, 384, 512, 384}, tall = {0, 0, 512, 768}, wide = {0, 0, 1280, 720};
    assert_true(lagometer_screen_compact(&cell, 14));
    SDL_FRect r = lagometer_screen_rect(&cell, 14);
    assert_true(fabsf(r.h - 47.6f) < 0.01f && fabsf(r.y - (768.0f - 7.0f - 47.6f)) < 0.01f);
    assert_false(lagometer_screen_compact(&tall, 14));
    r = lagometer_screen_rect(&tall, 14);
    assert_true(fabsf(r.h - 143.36f) < 0.01f);
    assert_false(lagometer_screen_compact(&wide, 17));
    r = lagometer_screen_rect(&wide, 17);
    assert_true(fabsf(r.h - 201.6f) < 0.01f);
}

/* ---- time gap ---------------------------------------------------------- */

/* Two cars at 20 cw/s, one 10 cw ahead: it passed the other's point 0.5 s
 * ago. An accelerating leader p = 5 t^2 + 10 (a = 10) against a follower at
 * 30 t: at T = 8 the follower is at 240, where the leader was at t =
 * sqrt(46) = 6.782 s: 1.218 s, linear interpolation of 100 ms samples
 * within 2 ms. */
static void gap_by_hand(void **state)
{
    (void)state;
    DriveGap g;
    drivegap_reset(&g);
    bool est;
    assert_true(drivegap_gap_s(&g, 0, 1, &est) == 0.0);
    for (int64_t t = 0; t <= 10000000; t += 33000) {
        double p[2] = {20.0 * t / 1e6, 20.0 * t / 1e6 + 10.0};
        drivegap_add(&g, t, p, 2);
    }
    double gap = drivegap_gap_s(&g, 0, 1, &est);
    assert_false(est);
    assert_true(fabs(gap - 0.5) < 1e-9);
    assert_true(fabs(drivegap_gap_s(&g, 1, 0, &est) + 0.5) < 1e-9); /* the other side: behind */
    drivegap_reset(&g);
    for (int64_t t = 0; t <= 8000000; t += 33000) {
        double s = t / 1e6, p[2] = {30.0 * s, 5.0 * s * s + 10.0};
        drivegap_add(&g, t, p, 2);
    }
    double s = 7.986, want = s - sqrt((30.0 * s - 10.0) / 5.0); /* the last sample is at 7.986 s */
    gap = drivegap_gap_s(&g, 0, 1, &est);
    assert_false(est);
    assert_true(fabs(gap - want) < 0.002);
}

/* The leader's history does not reach back to the follower's point (the
 * grid): estimated from the distance and the leader's speed; time going
 * back starts afresh. */
static void gap_estimated_and_reset(void **state)
{
    (void)state;
    DriveGap g;
    drivegap_reset(&g);
    for (int64_t t = 0; t <= 3000000; t += 33000) {
        double p[2] = {-3.0, -6.0 + 25.0 * t / 1e6}; /* car 1 idle on the grid; car 2 away at 25 cw/s */
        drivegap_add(&g, t, p, 2);
    }
    bool est;
    double gap = drivegap_gap_s(&g, 0, 1, &est); /* car 2 passed -3 at 0.12 s */
    assert_false(est);
    assert_true(fabs(gap - (2.97 - 0.12)) < 1e-9);
    drivegap_reset(&g);
    for (int64_t t = 0; t <= 3000000; t += 33000) {
        double p[2] = {-30.0, 25.0 * t / 1e6};
        drivegap_add(&g, t, p, 2);
    }
    gap = drivegap_gap_s(&g, 0, 1, &est); /* 104.25 cw at 25 cw/s */
    assert_true(est);
    assert_true(fabs(gap - (30.0 + 25.0 * 2.97) / 25.0) < 1e-9);
    double p0[2] = {1, 2};
    drivegap_add(&g, 1000, p0, 2); /* time went back */
    assert_int_equal(g.n, 1);
    char b[48];
    drivehud_gap_text(b, sizeof b, 1, 1.26, false);
    assert_string_equal(b, "P2 1.3 s ahead");
    drivehud_gap_text(b, sizeof b, 0, -4.0, true);
    assert_string_equal(b, "P1 ~4.0 s behind");
}

/* ---- sound ------------------------------------------------------------- */

/* The power of x at frequency f (Goertzel), normalised by the length. */
static double power_at(const float *x, int n, int stride, double f, double rate)
{
    double w = 2 * 3.141592653589793 * f / rate, c = 2 * cos(w), s1 = 0, s2 = 0;
    for (int i = 0; i < n; i++) {
        double s0 = x[i * stride] + c * s1 - s2;
        s2 = s1;
        s1 = s0;
    }
    return (s1 * s1 + s2 * s2 - c * s1 * s2) / ((double)n * n);
}

/* The engine's pitch follows the speed: 55 Hz at rest, +6.6 Hz per cw/s;
 * a rendered second of it has its power at that frequency, not beside it. */
static void engine_pitch_with_speed(void **state)
{
    (void)state;
    assert_true(synth_engine_hz(0) == 55.0);
    assert_true(fabs(synth_engine_hz(36.2) - (55.0 + 6.6 * 36.2)) < 1e-12);
    assert_true(synth_engine_hz(-5) == synth_engine_hz(5));
    static float buf[2 * 48000];
    for (double v = 5; v <= 35; v += 15) {
        Synth s;
        synth_init(&s, 48000);
        synth_engine(&s, 0, true, v, 1.0, 0.0);
        synth_render(&s, buf, 4800); /* the glide settles */
        synth_render(&s, buf, 48000);
        double f = synth_engine_hz(v), at = power_at(buf, 48000, 2, f, 48000);
        assert_true(at > 20 * power_at(buf, 48000, 2, 1.25 * f, 48000));
        assert_true(at > 20 * power_at(buf, 48000, 2, 0.8 * f, 48000));
    }
}

/* The mixer: exact silence with nothing on; every sample in [-1, 1] with
 * every voice, crash and beep at once; a beep lasts its length; the same
 * calls give the same bytes; pan sends a voice to its side. */
static void mixer_buffer(void **state)
{
    (void)state;
    static float a[2 * 9600], b[2 * 9600];
    Synth s, t;
    synth_init(&s, 48000);
    synth_render(&s, a, 9600);
    for (int i = 0; i < 2 * 9600; i++)
        assert_true(a[i] == 0.0f);
    assert_true(synth_silent(&s));
    synth_init(&t, 48000);
    for (int k = 0; k < 2; k++) {
        Synth *x = k ? &t : &s;
        for (int v = 0; v < SYNTH_ENGINES; v++) {
            synth_engine(x, v, true, 36, 1, v % 2 ? 1 : -1);
            synth_scrape(x, v, 30, 0);
        }
        for (int h = 0; h < 6; h++)
            synth_hit(x, 40, 0, h % 2);
        synth_beep(x, 880, 0.1);
        synth_beep(x, 440, 0.1);
    }
    synth_render(&s, a, 9600);
    synth_render(&t, b, 9600);
    assert_memory_equal(a, b, sizeof a);
    float peak = 0;
    for (int i = 0; i < 2 * 9600; i++)
        peak = fmaxf(peak, fabsf(a[i]));
    assert_true(peak <= 1.0f && peak > SYNTH_LIMIT);
    /* one beep alone: 0.18 s of sound, then silence */
    synth_init(&s, 48000);
    synth_beep(&s, 440, 0.18);
    synth_render(&s, a, 9600);
    int last = -1;
    for (int i = 0; i < 9600; i++)
        if (a[2 * i] != 0.0f)
            last = i;
    assert_true(last > 8640 - 20 && last < 8640);
    assert_true(synth_silent(&s));
    /* an engine panned hard left is (nearly) nothing on the right */
    synth_init(&s, 48000);
    synth_engine(&s, 0, true, 20, 1, -1);
    synth_render(&s, a, 4800);
    double l = 0, r = 0;
    for (int i = 0; i < 4800; i++) {
        l += fabs(a[2 * i]);
        r += fabs(a[2 * i + 1]);
    }
    assert_true(l > 1000 * r);
    /* off: it fades to exact silence */
    synth_engine(&s, 0, false, 20, 1, -1);
    for (int k = 0; k < 5; k++) /* a second: the glide's 0.06 s takes it below the quiet level */
        synth_render(&s, a, 9600);
    synth_render(&s, a, 100);
    assert_true(a[0] == 0.0f && synth_silent(&s));
}

/* The start lights: five 440 Hz beeps one second apart and one 880 Hz as
 * they go out, whatever the frame rate; none again until a new countdown. */
static void lights_beep(void **state)
{
    (void)state;
    Synth s;
    synth_init(&s, 48000);
    static float buf[2 * 8000];
    int seen = 0, low = 0, high = 0;
    for (int64_t to_go = -6000000; to_go < 3000000; to_go += 16667) {
        drivehud_lights_sound(&s, &seen, to_go < -5000000 ? INT64_MIN : to_go);
        for (int b = 0; b < SYNTH_BEEPS; b++)
            if (s.beep[b].left > 0 && s.beep[b].left == s.beep[b].total) {
                low += s.beep[b].hz == 440.0;
                high += s.beep[b].hz == 880.0;
            }
        synth_render(&s, buf, 800); /* a frame's worth */
    }
    assert_int_equal(low, 5);
    assert_int_equal(high, 1);
    /* a restart: the grid again, then a new countdown beeps again */
    drivehud_lights_sound(&s, &seen, INT64_MIN);
    assert_int_equal(seen, 0);
}

/* SDL's dummy audio driver: the device opens, the queue is kept
 * SOUND_QUEUE_MS ahead (the device paused, so that nothing drains it meanwhile), muting clears it and queues nothing more. A driver
 * that does not exist: silent, harmless. */
static void sound_device(void **state)
{
    (void)state;
    Sound snd;
    assert_true(sound_open(&snd, false)); /* SDL_AUDIODRIVER=dummy (meson's test env) */
    /* the dummy driver drains the queue in real time on its own thread:
     * held still, the queue's size does not depend on how busy the machine is */
    SDL_PauseAudioDevice(snd.dev, 1);
    synth_engine(&snd.synth, 0, true, 20, 1, 0);
    sound_pump(&snd);
    Uint32 q = SDL_GetQueuedAudioSize(snd.dev) / (2 * sizeof(float));
    assert_true(q >= SOUND_RATE_HZ * SOUND_QUEUE_MS / 1000);
    sound_set_muted(&snd, true);
    assert_false(sound_playing(&snd));
    sound_pump(&snd);
    assert_int_equal(SDL_GetQueuedAudioSize(snd.dev), 0);
    sound_set_muted(&snd, false);
    assert_true(sound_playing(&snd));
    sound_close(&snd);
    sound_close(&snd); /* twice: harmless */
    assert_int_equal(SDL_WasInit(SDL_INIT_AUDIO), 0);
    /* muted from the start: no device is even opened */
    assert_false(sound_open(&snd, true));
    assert_int_equal(snd.dev, 0);
    sound_pump(&snd);
    sound_close(&snd);
    setenv("SDL_AUDIODRIVER", "no-such-driver", 1);
    assert_false(sound_open(&snd, false));
    synth_hit(&snd.synth, 20, 0, false);
    sound_pump(&snd);
    sound_set_muted(&snd, true);
    sound_close(&snd);
    setenv("SDL_AUDIODRIVER", "dummy", 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spring_closed_form),
        cmocka_unit_test(camera_sees_the_braking_point),
        cmocka_unit_test(camera_glides_after_a_hit),
        cmocka_unit_test(camera_rotates_with_the_car),
        cmocka_unit_test(instruments_fade_over_the_road),
        cmocka_unit_test(camera_keeps_above_the_lagometer),
        cmocka_unit_test(lagometer_compact_in_short_screens),
        cmocka_unit_test(gap_by_hand),
        cmocka_unit_test(gap_estimated_and_reset),
        cmocka_unit_test(engine_pitch_with_speed),
        cmocka_unit_test(mixer_buffer),
        cmocka_unit_test(lights_beep),
        cmocka_unit_test(sound_device),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
