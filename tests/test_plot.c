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

/* fig drawn as a PNG under /tmp (named by tag) and loaded back, locked. */
static SDL_Surface *drawn_png(const PlotFigure *fig, const char *tag)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/netrace-test-%s-%ld.png", tag, (long)getpid());
    NrError err = {{0}};
    assert_int_equal(plot_write(fig, path, &err), 0);
    SDL_Surface *img = IMG_Load(path);
    unlink(path);
    assert_non_null(img);
    SDL_LockSurface(img);
    return img;
}

/* Text and axis ink: darker than mid grey. */
static bool dark_rgb(uint32_t c)
{
    return ((c >> 16 & 0xFF) + (c >> 8 & 0xFF) + (c & 0xFF)) < 3 * 0x80;
}

/* The first bytes of a file, NUL-ended. */
static void file_head(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t got = fread(buf, 1, n - 1, f);
    buf[got] = 0;
    fclose(f);
}

/* Issue 22's trial: a figure of 1400 x 560 pixels came out as a 1400 pt
 * page (19.4 in), whose text printed at 4 pt in a paper. SVG and PDF pages
 * are 7 in (504 pt) wide, or 252 pt a column of panels when wider, and as
 * tall as the aspect gives but at least 189 pt a row and 30 for the title:
 * 2 columns of 1400 x 560 -> 504 x max(201.6, 219) = 504 x 219;
 * 3 columns of 1800 x 640 -> 756 x max(268.8, 219) = 756 x 269. */
static void vector_page_is_a_text_width(void **state)
{
    (void)state;
    double x[3] = {0, 1, 2}, y[3] = {1, 2, 3};
    PlotSeries s = {"nc", x, y, 3, false, NULL, NULL};
    PlotPanel p[3];
    memset(p, 0, sizeof p);
    for (int i = 0; i < 3; i++) {
        p[i].title = "panel";
        p[i].series = &s;
        p[i].nseries = 1;
    }
    char path[64], head[2048];
    NrError err = {{0}};
    PlotFigure two = {"two", p, 2, 2, 1400, 560};
    snprintf(path, sizeof path, "/tmp/netrace-test-page-%ld.svg", (long)getpid());
    assert_int_equal(plot_write(&two, path, &err), 0);
    file_head(path, head, sizeof head);
    assert_non_null(strstr(head, "width=\"504pt\" height=\"219pt\""));
    unlink(path);
    PlotFigure three = {"three", p, 3, 3, 1800, 640};
    snprintf(path, sizeof path, "/tmp/netrace-test-page-%ld.pdf", (long)getpid());
    assert_int_equal(plot_write(&three, path, &err), 0);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char pdf[1 << 16];
    size_t n = fread(pdf, 1, sizeof pdf - 1, f);
    fclose(f);
    unlink(path);
    bool found = false;
    for (size_t i = 0; i + 24 < n && !found; i++)
        found = memcmp(pdf + i, "/MediaBox [ 0 0 756 269 ]", 24) == 0;
    assert_true(found);
    PlotFigure png = {"png", p, 2, 2, 1400, 560}; /* a PNG keeps its pixels */
    snprintf(path, sizeof path, "/tmp/netrace-test-page-%ld.png", (long)getpid());
    assert_int_equal(plot_write(&png, path, &err), 0);
    SDL_Surface *img = IMG_Load(path);
    unlink(path);
    assert_non_null(img);
    assert_int_equal(img->w, 1400);
    assert_int_equal(img->h, 560);
    SDL_FreeSurface(img);
}

/* A y label longer than its axis is set smaller and, past 0.8 of its size,
 * cut after a whole character with an ellipsis: it no longer runs off the
 * panel. The label's column (left of the tick labels) must leave the top
 * and bottom 12 rows of a 640 x 160 figure free of dark text pixels; the
 * label centred on a ~100 px axis used to span the whole height. */
static void long_label_stays_in_its_panel(void **state)
{
    (void)state;
    double x[3] = {0, 1, 2}, y[3] = {1, 2, 3};
    PlotSeries s = {"nc", x, y, 3, false, NULL, NULL};
    PlotPanel p;
    memset(&p, 0, sizeof p);
    p.title = "t";
    p.xlabel = "x";
    p.ylabel = "a very long y label that a short panel cannot hold: mean error over all seeds, 95 % interval";
    p.series = &s;
    p.nseries = 1;
    PlotFigure fig = {NULL, &p, 1, 1, 640, 160};
    SDL_Surface *img = drawn_png(&fig, "label");
    int dark_top = 0, dark_bottom = 0, dark = 0;
    for (int cy = 0; cy < img->h; cy++)
        for (int cx = 0; cx < 18; cx++) {
            bool d = dark_rgb(pixel_rgb(img, cx, cy));
            dark += d;
            dark_top += d && cy < 12;
            dark_bottom += d && cy >= img->h - 12;
        }
    SDL_UnlockSurface(img);
    SDL_FreeSurface(img);
    assert_true(dark > 50); /* the label is there */
    if (dark_top || dark_bottom)
        fail_msg("label pixels in the top 12 rows: %d, the bottom 12: %d", dark_top, dark_bottom);
}

/* A figure title wider than the page at the base font (a sweep --vary's,
 * with two link specs) goes on two lines split at a " | ": no title pixel
 * in the 4 columns at either edge, where the one line used to run off the
 * page on both sides. */
static void long_title_takes_two_lines(void **state)
{
    (void)state;
    double x[3] = {0, 1, 2}, y[3] = {1, 2, 3};
    PlotSeries s = {"nc", x, y, 3, false, NULL, NULL};
    PlotPanel p;
    memset(&p, 0, sizeof p);
    p.series = &s;
    p.nseries = 1;
    PlotFigure fig = {"default.csv | base link 1->2 delay 75ms 10ms distribution paretonormal | "
                      "2->1 delay 75ms 10ms distribution paretonormal | 1 seed",
                      &p, 1, 1, 400, 300};
    SDL_Surface *img = drawn_png(&fig, "title");
    int edge = 0, rows = 0;
    for (int cy = 0; cy < 40; cy++) {
        int n = 0;
        for (int cx = 0; cx < img->w; cx++) {
            bool d = dark_rgb(pixel_rgb(img, cx, cy));
            n += d;
            edge += d && (cx < 4 || cx >= img->w - 4);
        }
        rows += n > 0;
    }
    SDL_UnlockSurface(img);
    SDL_FreeSurface(img);
    assert_int_equal(edge, 0);
    assert_true(rows > 12); /* two lines of text, not one */
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
        cmocka_unit_test(vector_page_is_a_text_width),
        cmocka_unit_test(long_label_stays_in_its_panel),
        cmocka_unit_test(long_title_takes_two_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
