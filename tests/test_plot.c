/* Plots (plot.h): the format follows the file's extension, a PNG has the
 * requested size, the grid stays within the axis, short axes get fewer
 * ticks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <SDL_image.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app_internal.h"
#include "plot.h"

/* Issue 13 item 7, issue 22: the format follows the extension (PNG, SVG,
 * PDF); --plot x.jpg must not get PNG bytes under a JPEG name. */
static void plots_are_png_svg_or_pdf(void **state)
{
    (void)state;
    NrError err = {{0}};
    assert_true(plot_path_ok("out/sweep.png", &err));
    assert_true(plot_path_ok("SWEEP.PNG", &err));
    assert_true(plot_path_ok("fig.svg", &err));
    assert_true(plot_path_ok("out/Fig.PdF", &err));
    assert_false(plot_path_ok("sweep.jpg", &err));
    assert_non_null(strstr(err.msg, "sweep.jpg: unknown plot format: name the file .png, .svg or .pdf"));
    assert_false(plot_path_ok("sweep.png.jpeg", &err));
    assert_false(plot_path_ok(".png", &err));
    assert_false(plot_path_ok("out/.svg", &err));
    assert_false(plot_path_ok("png", &err));
    assert_false(plot_path_ok("", &err));
}

static void plot_png_has_the_requested_size(void **state)
{
    (void)state;
    double x[5] = {0, 50, 100, 150, 200}, y0[5] = {0, 10, NAN, 30, 40}, y1[5] = {5, 5, 6, 7, 9};
    double lo[5] = {-1, 8, NAN, 25, 38}, hi[5] = {1, 12, NAN, 35, 42}, lo1[5] = {4, 4, 5, 6, 8},
           hi1[5] = {6, 6, 7, 8, 10};
    /* error bars on the marked series, a band on the other */
    PlotSeries s[2] = {{"nc", x, y0, 5, true, lo, hi}, {"dr", x, y1, 5, false, lo1, hi1}};
    PlotPanel p[2];
    memset(p, 0, sizeof p);
    p[0].title = "inconsistency";
    p[0].xlabel = "delay 1->2 (ms)";
    p[0].ylabel = "rate (%)";
    p[0].series = s;
    p[0].nseries = 2;
    p[1] = p[0];
    p[1].zero_line = true;
    PlotFigure fig = {"test figure", p, 2, 2, 640, 360};
    char path[64]; /* the format follows the extension */
    snprintf(path, sizeof path, "/tmp/netrace-test-plot-%ld.png", (long)getpid());
    NrError err = {{0}};
    assert_int_equal(plot_write(&fig, path, &err), 0);
    SDL_Surface *img = IMG_Load(path);
    assert_non_null(img);
    assert_int_equal(img->w, 640);
    assert_int_equal(img->h, 360);
    SDL_FreeSurface(img);
    fig.npanels = 0;
    assert_int_equal(plot_write(&fig, path, &err), 1);
    fig.npanels = 2;
    fig.width = 5;
    assert_int_equal(plot_write(&fig, path, &err), 1);
    unlink(path);
}

/* Colour of pixel (x, y) of a 24/32-bit surface as 0xRRGGBB. */
static uint32_t pixel_rgb(SDL_Surface *img, int x, int y)
{
    Uint32 v = 0;
    const Uint8 *px = (const Uint8 *)img->pixels + y * img->pitch + x * img->format->BytesPerPixel;
    memcpy(&v, px, img->format->BytesPerPixel);
    Uint8 r, g, b;
    SDL_GetRGB(v, img->format, &r, &g, &b);
    return (uint32_t)r << 16 | (uint32_t)g << 8 | b;
}

/* A short panel widens its tick step (plot_tick_step) and rounds the y
 * range out to it: every horizontal grid line must then lie on the y axis,
 * none above it (a top tick drawn above the panel crossed the title). The
 * light theme's grid is 0xE2E2E2 and its axis 0x404040. */
static void plot_grid_stays_within_the_axis(void **state)
{
    (void)state;
    double x[4] = {0, 10, 20, 30}, y[4] = {0, 7, 19, 22};
    PlotSeries s = {"nc", x, y, 4, false, NULL, NULL};
    PlotPanel p;
    memset(&p, 0, sizeof p);
    p.title = "inconsistency rate, cumulative (%)";
    p.xlabel = "race time (s)";
    p.series = &s;
    p.nseries = 1;
    p.fixed_x = true;
    p.xmax = 30;
    PlotFigure fig = {NULL, &p, 1, 1, 640, 110};
    char path[64]; /* the format follows the extension */
    snprintf(path, sizeof path, "/tmp/netrace-test-grid-%ld.png", (long)getpid());
    NrError err = {{0}};
    assert_int_equal(plot_write(&fig, path, &err), 0);
    SDL_Surface *img = IMG_Load(path);
    unlink(path);
    assert_non_null(img);
    SDL_LockSurface(img);
    /* the y axis: the column with the longest run of axis colour */
    int axis_x = -1, axis_top = -1, best = 0;
    for (int cx = 0; cx < img->w / 2; cx++) {
        int run = 0, first = -1;
        for (int cy = 0; cy < img->h; cy++) {
            if (pixel_rgb(img, cx, cy) == 0x404040) {
                if (run == 0)
                    first = cy;
                run++;
                if (run > best) {
                    best = run;
                    axis_x = cx;
                    axis_top = first;
                }
            } else {
                run = 0;
            }
        }
    }
    assert_true(axis_x >= 0 && best > 20);
    int grid_rows = 0;
    for (int cy = 0; cy < img->h; cy++) {
        int n = 0;
        for (int cx = axis_x + 1; cx < img->w; cx++)
            n += pixel_rgb(img, cx, cy) == 0xE2E2E2;
        if (n > (img->w - axis_x) / 2) { /* a horizontal grid line */
            grid_rows++;
            assert_true(cy >= axis_top);
        }
    }
    assert_true(grid_rows >= 2); /* the check saw the ticks */
    SDL_UnlockSurface(img);
    SDL_FreeSurface(img);
}

/* Tick labels on a short axis stay apart: a 40 px axis with 20 px labels
 * holds two steps, so a range of 1.0 gets a step of 0.5 (not 0.2, which put
 * six labels on top of each other in the focus view's charts); a tall axis
 * keeps fine steps. */
static void short_axes_get_fewer_ticks(void **state)
{
    (void)state;
    assert_true(fabs(plot_tick_step(1.0, 40, 20) - 0.5) < 1e-12);
    assert_true(fabs(plot_tick_step(1.0, 400, 20) - 0.05) < 1e-12); /* 20 steps allowed */
    /* one step allowed: the round step 2 leaves 1.5 steps, so it doubles to 4 */
    assert_true(fabs(plot_tick_step(3.0, 30, 20) - 4.0) < 1e-12);
    for (double range = 0.01; range < 1e4; range *= 1.7)
        for (int px = 10; px < 800; px += 37) {
            double st = plot_tick_step(range, px, 14);
            assert_true(range / st <= (px / 14 > 0 ? px / 14 : 1) + 1e-9);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plot_png_has_the_requested_size),
        cmocka_unit_test(plot_grid_stays_within_the_axis),
        cmocka_unit_test(plots_are_png_svg_or_pdf),
        cmocka_unit_test(short_axes_get_fewer_ticks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
