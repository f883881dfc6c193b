/* Line charts for the window's strip charts and the batch commands' PNG
 * figures: the series colours, the themes, round tick steps, the figure to
 * PNG. The panels themselves are drawn by plot_draw.c. */
#include "app_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Colour-blind-safe palette without the two car colours (orange-red, sky blue). */
static const uint32_t palette[] = {
    0x00B07A, /* green */
    0xD050C8, /* magenta */
    0xE0B020, /* gold */
    0x9070F0, /* violet */
    0x909090, /* grey */
    0x70D040, /* lime */
    0xB07840, /* brown */
    0x20C0C0, /* teal */
    0x4068E8, /* royal blue (pink looked like the magenta of series 1) */
    0xB8B860, /* olive */
    0xFFA8D8, /* light pink (lavender looked like the violet of series 3) */
    0xD02050, /* crimson (moss looked like the lime of series 5) */
};

/* Series past the sixth are dashed: twelve hues alone are at the limit of
 * what reads apart on a projector. On and off lengths in pixels, over the
 * curve's length, so a dense curve (a point per column) dashes too. */
#define PLOT_SOLID_SERIES 6

bool plot_series_dashed(int i)
{
    return i >= PLOT_SOLID_SERIES;
}

uint32_t plot_series_colour(int i)
{
    int n = (int)(sizeof palette / sizeof palette[0]);
    return palette[((i % n) + n) % n];
}

SDL_Color plot_rgb(uint32_t rgb)
{
    return gfx_rgb((Uint8)(rgb >> 16), (Uint8)(rgb >> 8), (Uint8)rgb);
}

PlotTheme plot_theme_dark(void)
{
    PlotTheme t = {0x181A1E, 0xE0E0E0, 0x34383E, 0x9098A0, true};
    return t;
}

PlotTheme plot_theme_light(void)
{
    PlotTheme t = {0xFFFFFF, 0x101010, 0xE2E2E2, 0x404040, false};
    return t;
}

/* Round tick step for a range: 1, 2 or 5 times a power of ten. */
double plot_nice_step(double range, int nticks)
{
    if (!(range > 0))
        return 1.0;
    double raw = range / nticks;
    double p = pow(10.0, floor(log10(raw)));
    double f = raw / p;
    double m = f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10;
    return m * p;
}

double plot_tick_step(double range, double pixels, double min_gap_px)
{
    int most = min_gap_px > 0 ? (int)(pixels / min_gap_px) : 1;
    if (most < 1)
        most = 1;
    double step = plot_nice_step(range, most);
    while (range / step > most + 1e-9) /* nice_step may round the step down */
        step *= 2;
    return step;
}

bool plot_path_ok(const char *path, NrError *err)
{
    size_t n = strlen(path);
    const char *ext = n >= 4 ? path + n - 4 : "";
    if (n > 4 && (ext[0] == '.') && (ext[1] | 0x20) == 'p' && (ext[2] | 0x20) == 'n' && (ext[3] | 0x20) == 'g')
        return true;
    return nr_error_set(err, "%s: plots are written as PNG only: name the file .png", path);
}

int plot_write_png(const PlotFigure *fig, const char *path, NrError *err)
{
    int W = fig->width ? fig->width : 1200, H = fig->height ? fig->height : 800;
    if (W < 100 || H < 100 || W > 16384 || H > 16384) {
        nr_error_set(err, "%s: plot size %dx%d out of range (100..16384)", path, W, H);
        return 1;
    }
    if (fig->npanels < 1 || fig->npanels > PLOT_MAX_PANELS || !fig->panels) {
        nr_error_set(err, "%s: a plot needs 1..%d panels", path, PLOT_MAX_PANELS);
        return 1;
    }
    for (int i = 0; i < fig->npanels; i++)
        if (fig->panels[i].nseries < 0 || fig->panels[i].nseries > PLOT_MAX_SERIES) {
            nr_error_set(err, "%s: panel %d has %d series (0..%d)", path, i + 1,
                         fig->panels[i].nseries, PLOT_MAX_SERIES);
            return 1;
        }
    GfxOffscreen o;
    if (!gfx_offscreen_open(&o, W, H, path, err))
        return 1;
    SDL_Renderer *r = o.r;
    Gfx *g = SDL_calloc(1, sizeof *g);
    int rc = 1;
    if (!g) {
        nr_error_set(err, "%s: out of memory", path);
        goto done;
    }
    char font[512];
    gfx_pick_font(fig->font_path, font, sizeof font);
    gfx_init(g, r, font[0] ? font : NULL);
    int cols = fig->cols > 0 ? fig->cols : fig->npanels;
    int rows = (fig->npanels + cols - 1) / cols;
    {
        /* text scaled to one panel: about 16 lines high, 40 characters wide */
        int pw0 = W / cols, ph0 = H / rows;
        int base = ph0 / 16 < pw0 / 40 ? ph0 / 16 : pw0 / 40;
        gfx_set_scale(g, base < 10 ? 10 : base > 22 ? 22 : base);
    }
    PlotTheme th = plot_theme_light();
    SDL_Color bg = plot_rgb(th.bg);
    SDL_SetRenderDrawColor(r, bg.r, bg.g, bg.b, 255);
    SDL_RenderClear(r);
    float top = 0;
    if (fig->title) {
        int tf = GFX_BIG, tw = 0, tlh = 0;
        for (; tf > GFX_SMALL; tf--) {
            gfx_text_size(g, tf, fig->title, &tw, &tlh);
            if (tw < W - 16)
                break;
        }
        int lh = gfx_line_h(g, tf);
        gfx_text(g, tf, W / 2, lh / 4, GFX_CENTER, plot_rgb(th.fg), "%s", fig->title);
        top = (float)lh * 1.3f;
    }
    float pw = (float)W / (float)cols, ph = ((float)H - top) / (float)rows;
    for (int i = 0; i < fig->npanels; i++) {
        SDL_FRect a = {pw * (float)(i % cols) + 4, top + ph * (float)(i / cols) + 4, pw - 8, ph - 8};
        plot_draw_panel(g, a, &fig->panels[i], &th);
    }
    SDL_RenderPresent(r);
    rc = gfx_save_png(r, W, H, path, err) ? 0 : 1;
done:
    if (g) {
        gfx_free(g);
        SDL_free(g);
    }
    gfx_offscreen_close(&o);
    return rc;
}
