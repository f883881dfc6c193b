/* Line charts for the window's strip charts and the batch commands'
 * figures: the series colours and the themes. The layout is plot_layout.c,
 * the window draws with plot_draw.c (SDL), the figures with plot_cairo.c. */
#include "app_internal.h"


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
    PlotTheme t = {0x181A1E, 0xE0E0E0, 0x34383E, 0x9098A0};
    return t;
}

PlotTheme plot_theme_light(void)
{
    PlotTheme t = {0xFFFFFF, 0x101010, 0xE2E2E2, 0x404040};
    return t;
}
