/* Tracks: arc length and progress against closed forms, unwrapping, on/off
 * track, start grid, and every malformed-track case. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "track.h"

/* A circle of radius R through n equally spaced control points, counter-
 * clockwise from angle 0. */
static char *circle_text(double r, int n, double width)
{
    size_t cap = 64 + (size_t)n * 64;
    char *s = malloc(cap);
    size_t k = (size_t)snprintf(s, cap, "netrace-track 1\nname circle\nwidth %g\n", width);
    for (int i = 0; i < n; i++) {
        double a = 2 * NR_PI * i / n;
        k += (size_t)snprintf(s + k, cap - k, "point %.17g %.17g\n", r * cos(a), r * sin(a));
    }
    return s;
}

/* Stadium: bottom straight y = -R from x = 0 to x = LS (racing +x), right
 * semicircle centred (LS, 0), top straight back, left semicircle centred
 * (0, 0). The start line is mid-way along the bottom straight (LS/2, -R).
 * Straights sampled every 5, arcs every 15 degrees (chord 5.2 at R = 20).
 * Closed-form length 2 LS + 2 pi R. */
#define ST_R 20.0
#define ST_LS 60.0
static char *stadium_text(double width)
{
    size_t cap = 8192;
    char *s = malloc(cap);
    size_t k = (size_t)snprintf(s, cap, "netrace-track 1\nname stadium\nwidth %g\ngrid 2 3 1\n", width);
    for (double x = ST_LS / 2; x < ST_LS; x += 5)
        k += (size_t)snprintf(s + k, cap - k, "point %g %g\n", x, -ST_R);
    for (int d = -90; d < 90; d += 15)
        k += (size_t)snprintf(s + k, cap - k, "point %.17g %.17g\n", ST_LS + ST_R * cos(d * NR_PI / 180),
                              ST_R * sin(d * NR_PI / 180));
    for (double x = ST_LS; x > 0; x -= 5)
        k += (size_t)snprintf(s + k, cap - k, "point %g %g\n", x, ST_R);
    for (int d = 90; d < 270; d += 15)
        k += (size_t)snprintf(s + k, cap - k, "point %.17g %.17g\n", ST_R * cos(d * NR_PI / 180),
                              ST_R * sin(d * NR_PI / 180));
    for (double x = 0; x < ST_LS / 2; x += 5)
        k += (size_t)snprintf(s + k, cap - k, "point %g %g\n", x, -ST_R);
    return s;
}

static Track *parse_ok(char *text)
{
    NrError err = {{0}};
    Track *t = track_parse(text, "test.track", &err);
    if (!t)
        fprintf(stderr, "unexpected error: %s\n", err.msg);
    free(text);
    assert_non_null(t);
    return t;
}

/* Circle R = 50 through 36 points (theta = 10 degrees). For equally spaced
 * points the centripetal spline is the uniform Catmull-Rom one; its
 * tangents at the knots have length R sin(theta) instead of R theta, and
 * the Hermite midpoint then lies 3 R theta^4 / 128 inside the circle
 * (expand cos(theta/2) + sin(theta) sin(theta/2) / 4 - 1). With theta =
 * 0.1745 that is 1.1e-3 cw, a relative radius error of 2.2e-5; the
 * polyline pieces (at most 0.25 cw, i.e. an angle phi <= 0.005) shorten the
 * length by a further phi^2 / 24 = 1e-6. So the length is within 2.3e-5
 * relative of 2 pi R; we allow 5e-5, and 1.5e-3 cw on the radius. */
static void circle_length_and_radius(void **state)
{
    (void)state;
    const double R = 50;
    Track *t = parse_ok(circle_text(R, 36, 8));
    double L = 2 * NR_PI * R;
    assert_true(fabs(track_length(t) - L) <= 5e-5 * L);
    for (int i = 0; i < 1000; i++) {
        double x, y, h;
        double s = track_length(t) * i / 1000.0;
        track_point(t, s, &x, &y, &h);
        assert_true(fabs(hypot(x, y) - R) <= 1.5e-3);
        /* heading of a CCW circle at angle a is a + pi/2 */
        double a = atan2(y, x);
        assert_true(fabs(nr_wrap_angle(h - (a + NR_PI / 2))) < 0.01);
        /* arc length to angle a is R a (start at angle 0) */
        double aa = a < 0 ? a + 2 * NR_PI : a;
        if (aa > 1e-6 && aa < 2 * NR_PI - 1e-6)
            assert_true(fabs(s - R * aa) < 0.01);
    }
    assert_int_equal(track_control_points(t), 36);
    track_free(t);
}

/* Catmull-Rom is only C1: its curvature wobbles around 1/R by O(theta^2)
 * (3% at 10 degrees); allow 10%. Left turns have positive curvature. */
static void circle_curvature(void **state)
{
    (void)state;
    Track *t = parse_ok(circle_text(50, 36, 8));
    for (int i = 0; i < 100; i++) {
        double k = track_curvature(t, track_length(t) * i / 100.0);
        assert_true(fabs(k - 1.0 / 50) < 0.1 / 50);
    }
    track_free(t);
}

/* Projection onto the circle: a point at angle a and any radius projects to
 * arc length R a (within the 0.01 cw of the test above). */
static void circle_projection(void **state)
{
    (void)state;
    const double R = 50;
    Track *t = parse_ok(circle_text(R, 36, 8));
    for (int i = 1; i < 360; i += 7) {
        double a = i * NR_PI / 180;
        for (double r = R - 3.5; r <= R + 3.5; r += 1.75) {
            double s = track_project(t, r * cos(a), r * sin(a));
            assert_true(fabs(s - R * a) < 0.02);
            /* offset: left of a CCW circle is inward, so offset = R - r */
            assert_true(fabs(track_offset(t, r * cos(a), r * sin(a)) - (R - r)) < 0.01);
        }
    }
    track_free(t);
}

/* Far from the centre line inside its box (the middle of a large circle),
 * the search gives up the cell rings and scans every chunk: the nearest
 * point of a circle from an inside point lies on the ray through it, so
 * s = R * angle whatever the distance. R = 600 with width 8 makes a grid of
 * 300 x 300 cells, far more than the ~3800 chunks. A point near the centre
 * has a nearly flat distance to the line along s (|d dist / d s| ~ r / R),
 * so the tolerance there grows with the chord error 0.02 cw times R / r. */
static void circle_projection_far_inside(void **state)
{
    (void)state;
    const double R = 600;
    Track *t = parse_ok(circle_text(R, 72, 8));
    for (int i = 1; i < 360; i += 11) {
        double a = i * NR_PI / 180;
        for (double r = 30; r < R - 10; r += 95) {
            double s = track_project(t, r * cos(a), r * sin(a));
            assert_true(fabs(s - R * a) < 0.05 * R / r + 0.05);
        }
    }
    track_free(t);
}

/* Stadium. Along the straights the spline is exactly straight (collinear,
 * equally spaced neighbours). At each of the 4 joints the tangent estimate
 * mixes the straight and the arc; the curve there departs from the ideal
 * shape by less than the sagitta of one chord, h^2 / (8 R) = 5^2 / 160 =
 * 0.16 cw, over about one chord, which changes the length by far less than
 * that. We allow 0.25 cw in total (1e-3 of the length). */
static void stadium_length_and_progress(void **state)
{
    (void)state;
    Track *t = parse_ok(stadium_text(6));
    double L = 2 * ST_LS + 2 * NR_PI * ST_R;
    assert_true(fabs(track_length(t) - L) < 0.25);
    /* bottom straight away from the joints: exact, s = x - LS/2 (a segment
     * whose neighbours are collinear and equally spaced is straight) */
    assert_true(fabs(track_project(t, 42, -ST_R) - 12) < 1e-6);
    assert_true(fabs(track_project(t, 42, -ST_R + 2.5) - 12) < 1e-6);
    assert_true(fabs(track_progress(t, 18, -ST_R, 0) - -12) < 1e-6);
    /* middle of the top straight: LS/2 + pi R + LS/2 (joint errors add up) */
    assert_true(fabs(track_project(t, ST_LS / 2, ST_R) - (ST_LS + NR_PI * ST_R)) < 0.25);
    /* top of the right semicircle: LS/2 + pi R / 2 */
    assert_true(fabs(track_project(t, ST_LS + ST_R, 0) - (ST_LS / 2 + NR_PI * ST_R / 2)) < 0.25);
    /* straight: heading 0 on the bottom, pi on top, curvature 0 */
    double x, y, h;
    track_point(t, 10, &x, &y, &h);
    assert_true(fabs(x - 40) < 1e-6 && fabs(y + ST_R) < 1e-6 && fabs(h) < 1e-6);
    assert_true(fabs(track_curvature(t, 10)) < 1e-6);
    track_free(t);
}

/* Progress is continuous across the start line and unwraps to the lap
 * nearest near_s. */
static void progress_across_start_line(void **state)
{
    (void)state;
    Track *t = parse_ok(stadium_text(6));
    double L = track_length(t);
    const double x0 = ST_LS / 2; /* the start line */
    assert_true(fabs(track_progress(t, x0 - 0.5, -ST_R, 0) - -0.5) < 1e-6);
    assert_true(fabs(track_progress(t, x0 + 0.5, -ST_R, 0) - 0.5) < 1e-6);
    assert_true(fabs(track_progress(t, x0 - 0.5, -ST_R, L) - (L - 0.5)) < 1e-6);
    assert_true(fabs(track_progress(t, x0 + 0.5, -ST_R, L) - (L + 0.5)) < 1e-6);
    assert_true(fabs(track_progress(t, x0 + 10, -ST_R, 5 * L + 10) - (5 * L + 10)) < 1e-6);
    assert_true(fabs(track_progress(t, x0 + 10, -ST_R, 5 * L + L / 2 - 1) - (5 * L + 10)) < 1e-6);
    assert_true(fabs(track_progress(t, x0 + 10, -ST_R, 5 * L + L / 2 + 11) - (6 * L + 10)) < 1e-6);
    assert_true(fabs(track_progress(t, x0 + 10, -ST_R, -3 * L) - (-3 * L + 10)) < 1e-6);
    /* Drive three laps in steps of 0.5 cw with a lateral wobble, feeding
     * each progress back as near_s: it grows by the step every time. */
    double near = 0;
    double step = 0.5;
    int n = (int)(3 * L / step);
    for (int i = 1; i <= n; i++) {
        double cx, cy, h;
        track_point(t, i * step, &cx, &cy, &h);
        double off = 2.0 * sin(i * 0.1);
        double p = track_progress(t, cx - sin(h) * off, cy + cos(h) * off, near);
        assert_true(p - near > 0.3 && p - near < 0.7);
        near = p;
    }
    assert_true(fabs(near - n * step) < 0.3);
    track_free(t);
}

static void on_off_track(void **state)
{
    (void)state;
    Track *t = parse_ok(stadium_text(6));
    assert_true(track_width(t) == 6);
    assert_true(track_on_track(t, 30, -ST_R + 2.9));
    assert_true(track_on_track(t, 30, -ST_R - 2.9));
    assert_true(track_on_track(t, 30, -ST_R + 3.0));
    assert_false(track_on_track(t, 30, -ST_R + 3.1));
    assert_false(track_on_track(t, 30, -ST_R - 3.1));
    assert_false(track_on_track(t, 30, 0)); /* infield */
    assert_false(track_on_track(t, 1e4, 1e4)); /* far away */
    /* left of the racing direction (+x on the bottom straight) is +y */
    assert_true(fabs(track_offset(t, 30, -ST_R + 2) - 2) < 1e-9);
    assert_true(fabs(track_offset(t, 30, -ST_R - 2) + 2) < 1e-9);
    track_free(t);
}

/* Grid "grid 2 3 1": slot k at arc length -(k+1)*3, lateral +1 (left) for
 * slot 0 and -1 for slot 1. The stadium's start is mid-way along the bottom
 * straight (racing +x), so slot k is at (LS/2 - 3(k+1), -R +- 1), heading 0,
 * progress exactly -3(k+1). */
static void start_grid(void **state)
{
    (void)state;
    Track *t = parse_ok(stadium_text(6));
    assert_int_equal(track_grid_slots(t), 2);
    for (int k = 0; k < 2; k++) {
        double x, y, h, s;
        track_grid(t, k, &x, &y, &h, &s);
        double snom = -(k + 1) * 3.0;
        double off = k == 0 ? 1 : -1;
        assert_true(fabs(x - (ST_LS / 2 + snom)) < 1e-9 && fabs(y - (-ST_R + off)) < 1e-9);
        assert_true(fabs(h) < 1e-9);
        assert_true(fabs(s - snom) < 1e-9);
        assert_true(track_on_track(t, x, y));
    }
    track_free(t);
}

static void default_grid_and_comments(void **state)
{
    (void)state;
    const char *text = "# a comment line\n\nnetrace-track 1   # trailing comment\n"
                       "name  My Track  \nwidth 8\npoint 0 0\npoint 400 0\npoint 200 300\n";
    NrError err;
    Track *t = track_parse(text, "x.track", &err);
    assert_non_null(t);
    assert_string_equal(track_name(t), "My Track");
    assert_int_equal(track_grid_slots(t), 2);
    track_free(t);
}

static void expect_bad(const char *text, const char *needle)
{
    NrError err = {{0}};
    Track *t = track_parse(text, "bad.track", &err);
    if (t || !strstr(err.msg, needle))
        fprintf(stderr, "for %s: got '%s', wanted '%s'\n", text, t ? "(loaded)" : err.msg, needle);
    assert_null(t);
    assert_non_null(strstr(err.msg, needle));
}

#define HDR "netrace-track 1\nname t\nwidth 4\n"
#define TRI "point 0 0\npoint 400 0\npoint 200 300\n"

static void bad_tracks(void **state)
{
    (void)state;
    expect_bad("", "bad.track:1: empty file");
    expect_bad("netrace-track 1\nname Red \033[31mCircuit\nwidth 4\n" TRI,
               "bad.track:2: name holds a control character");
    expect_bad("# only comments\n", "bad.track:1: no header");
    expect_bad("name t\nwidth 4\n" TRI, "bad.track:1: expected the header");
    expect_bad("netrace-track 2\nname t\nwidth 4\n" TRI, "bad.track:1: track format version 2 is not supported");
    expect_bad("netrace-track one\n", "bad.track:1: expected the header");
    expect_bad(HDR "colour red\n" TRI, "bad.track:4: unknown keyword 'colour'");
    expect_bad(HDR "point a 0\n", "bad.track:4: X is 'a', expected a number");
    expect_bad(HDR "point 0 1x\n", "bad.track:4: Y is '1x', expected a number");
    expect_bad(HDR "point nan 0\n", "bad.track:4: X is 'nan', expected a finite number");
    expect_bad(HDR "point 0 inf\n", "bad.track:4: Y is 'inf', expected a finite number");
    expect_bad(HDR "point 0 1e999\n", "bad.track:4: Y is '1e999', expected a finite number");
    expect_bad(HDR "point 0\n", "bad.track:4: 'point' takes two numbers");
    expect_bad(HDR "point 0 0\npoint 40 0\n", "bad.track:5: 2 points, a closed centre line needs at least 3");
    expect_bad(HDR, "bad.track:3: 0 points");
    expect_bad("netrace-track 1\nname t\nwidth 0\n" TRI, "bad.track:3: width 0 out of range");
    expect_bad("netrace-track 1\nname t\nwidth -2\n" TRI, "bad.track:3: width -2 out of range");
    expect_bad("netrace-track 1\nname t\nwidth nan\n" TRI, "bad.track:3: width is 'nan', expected a finite");
    expect_bad("netrace-track 1\nname t\n" TRI, "bad.track:1: missing 'width'");
    expect_bad("netrace-track 1\nwidth 4\n" TRI, "bad.track:1: missing 'name'");
    expect_bad(HDR "width 5\n" TRI, "bad.track:4: second 'width'");
    expect_bad(HDR "point 0 0\npoint 400 0\npoint 400 0\npoint 200 300\n", "bad.track:6: duplicate point (400, 0)");
    expect_bad(HDR TRI "point 0 0\n", "bad.track:7: duplicate point: the last point repeats the first");
    /* A bow tie: the centre line crosses itself. */
    expect_bad(HDR "point 0 0\npoint 60 60\npoint 60 0\npoint 0 60\n", "self-intersecting centre line");
    /* A thin stadium (straights 10 apart, bends of radius 5) 12 wide: the
     * two straights' surfaces overlap. */
    expect_bad("netrace-track 1\nname t\nwidth 12\npoint 0 -5\npoint 20 -5\npoint 40 -5\npoint 60 -5\n"
               "point 65 0\npoint 60 5\npoint 40 5\npoint 20 5\npoint 0 5\npoint -5 0\n",
               "the track surface overlaps itself");
    /* Four points make a rounded square of radius about 14; 30 wide folds
     * its inner edge. */
    expect_bad("netrace-track 1\nname t\nwidth 30\npoint 10 -10\npoint 10 10\npoint -10 10\npoint -10 -10\n",
               "less than half the width");
    expect_bad(HDR "grid 1 3 1\n" TRI, "bad.track:4: grid SLOTS is 1");
    expect_bad(HDR "grid 2 0 1\n" TRI, "bad.track:4: grid SPACING is 0");
    expect_bad(HDR "grid 2 3 -1\n" TRI, "bad.track:4: grid OFFSET is -1");
    expect_bad(HDR "grid 2 3 1.6\n" TRI, "grid OFFSET 1.6 puts cars off");
    expect_bad(HDR "grid 2 3\n" TRI, "bad.track:4: 'grid' takes SLOTS SPACING OFFSET");
    expect_bad(HDR "point 1e6 0\n" TRI, "out of range");
}

static void load_missing_file(void **state)
{
    (void)state;
    NrError err;
    assert_null(track_load("/nonexistent/dir/x.track", &err));
    assert_non_null(strstr(err.msg, "/nonexistent/dir/x.track: cannot open"));
}

/* The bundled track: loads, the grid is on track, and nearest-point
 * projection via the grid index equals a brute-force scan over track_point
 * samples to within the sampling step. */
static void default_track(void **state)
{
    (void)state;
    const char *src = getenv("NETRACE_SOURCE_DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/tracks/default.track", src ? src : ".");
    NrError err;
    Track *t = track_load(path, &err);
    if (!t)
        fprintf(stderr, "%s\n", err.msg);
    assert_non_null(t);
    assert_true(track_width(t) >= 6 && track_width(t) <= 10);
    for (int k = 0; k < track_grid_slots(t); k++) {
        double x, y, s;
        track_grid(t, k, &x, &y, NULL, &s);
        assert_true(track_on_track(t, x, y));
        assert_true(s < 0);
    }
    double L = track_length(t);
    int ns = (int)(L / 0.05);
    double *px = malloc((size_t)ns * sizeof *px), *py = malloc((size_t)ns * sizeof *py);
    for (int i = 0; i < ns; i++)
        track_point(t, L * i / ns, &px[i], &py[i], NULL);
    for (int q = 0; q < 400; q++) {
        double x = -110 + (q * 37 % 320), y = -20 + (q * 53 % 220);
        double best = INFINITY;
        for (int i = 0; i < ns; i++)
            best = fmin(best, hypot(px[i] - x, py[i] - y));
        double s = track_project(t, x, y), fx, fy;
        track_point(t, s, &fx, &fy, NULL);
        double got = hypot(fx - x, fy - y);
        assert_true(got <= best + 1e-9 && got >= best - 0.05);
        assert_true(fabs(fabs(track_offset(t, x, y)) - got) < 1e-9);
    }
    free(px);
    free(py);
    track_free(t);
}

/* track_progress walks from its hint; it must agree with the global nearest
 * point (track_project, unwrapped to the lap nearest the hint) for any point
 * on the track surface and any hint up to 40 car widths away. */
static void hinted_progress_matches_global(void **state)
{
    (void)state;
    const char *src = getenv("NETRACE_SOURCE_DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/tracks/default.track", src ? src : ".");
    NrError err;
    Track *t = track_load(path, &err);
    assert_non_null(t);
    double L = track_length(t), w = track_width(t);
    uint64_t x = 88172645463325252ULL; /* xorshift: test-local, seeded */
    for (int q = 0; q < 20000; q++) {
        double u[3];
        for (int j = 0; j < 3; j++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            u[j] = (double)(x >> 11) * 0x1.0p-53;
        }
        double s = (u[0] * 3 - 1) * L; /* three laps, the first negative */
        double off = (u[1] - 0.5) * 0.98 * w, hint = s + (u[2] - 0.5) * 80;
        double cx, cy, h;
        track_point(t, s, &cx, &cy, &h);
        double px = cx - sin(h) * off, py = cy + cos(h) * off;
        double g = track_project(t, px, py);
        g += nearbyint((hint - g) / L) * L;
        assert_true(fabs(track_progress(t, px, py, hint) - g) < 1e-9);
    }
    track_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(circle_length_and_radius),
        cmocka_unit_test(circle_curvature),
        cmocka_unit_test(circle_projection),
        cmocka_unit_test(circle_projection_far_inside),
        cmocka_unit_test(stadium_length_and_progress),
        cmocka_unit_test(progress_across_start_line),
        cmocka_unit_test(on_off_track),
        cmocka_unit_test(start_grid),
        cmocka_unit_test(default_grid_and_comments),
        cmocka_unit_test(bad_tracks),
        cmocka_unit_test(load_missing_file),
        cmocka_unit_test(default_track),
        cmocka_unit_test(hinted_progress_matches_global),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
