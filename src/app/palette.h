/* The one palette of every screen (replay overview, game, network window,
 * plots' window theme): named colours and the colour of each car and of
 * each scheme, the same in views, gauges, legends and help. */
#ifndef NR_PALETTE_H
#define NR_PALETTE_H

#include "gfx.h"
#include "plot.h"

#define PAL_BG gfx_rgb(24, 26, 30)          /* behind the overview's panels */
#define PAL_PANEL gfx_rgb(36, 39, 45)       /* gauge panels, controls */
#define PAL_BOX gfx_rgb(16, 18, 24)         /* text boxes over a screen (widget_panel) */
#define PAL_BAR gfx_rgb(14, 15, 18)         /* top bar, status line, control rows */
#define PAL_FG gfx_rgb(225, 228, 232)       /* text */
#define PAL_DIM gfx_rgb(150, 156, 165)      /* secondary text */
#define PAL_ACCENT gfx_rgb(255, 214, 64)    /* titles, the selection, "1st" */
#define PAL_WARN gfx_rgb(255, 120, 120)     /* disagreement, pause on a fault */
#define PAL_GRASS gfx_rgb(38, 84, 48)
#define PAL_ASPHALT gfx_rgb(78, 80, 86)
#define PAL_EDGE gfx_rgb(235, 235, 235)     /* track edges, start line */
#define PAL_WALL gfx_rgb(170, 50, 45)       /* the walls beyond the grass */
#define PAL_CAPTION gfx_rgb(16, 30, 20)     /* caption strips of the views */
#define PAL_HUD_BG gfx_rgba(10, 14, 12, 190) /* a driving screen's HUD strip */
#define PAL_GO gfx_rgb(40, 220, 80)         /* the start lights' green */

/* The lagometer (lagometer.h): each MU's fate, the time held on top of the
 * delay, the samples shown predicted, the marks, the strip's panel (opaque:
 * a blended panel under 24 strips cost 2.7 M instructions a frame). */
#define PAL_LAG_ON_TIME gfx_rgb(70, 200, 100)
#define PAL_LAG_HELD gfx_rgb(180, 240, 190)
#define PAL_LAG_LATE gfx_rgb(240, 210, 60)
#define PAL_LAG_DISCARDED gfx_rgb(235, 65, 60)
#define PAL_LAG_LOST gfx_rgb(215, 90, 230)
#define PAL_LAG_REJECTED gfx_rgb(140, 140, 140)
#define PAL_LAG_PREDICTED gfx_rgb(110, 190, 255)
#define PAL_LAG_MARK PAL_ACCENT
#define PAL_LAG_LIMIT gfx_rgb(190, 195, 205) /* Delta's line */
#define PAL_LAG_BG gfx_rgb(12, 14, 17)

/* Car 1 orange, car 2 blue, car 3 green, car 4 magenta, then yellow,
 * cyan, violet and pink, everywhere (tools/make_assets.c paints the
 * sprites and play_input.c the pads' lights in them): hues apart from each
 * other, from the grass and from the asphalt. */
#define PAL_CAR1 gfx_rgb(255, 96, 48)
#define PAL_CAR2 gfx_rgb(48, 168, 255)
#define PAL_CARS_MAX 8

static inline SDL_Color pal_car(int c)
{
    static const Uint8 rgb[PAL_CARS_MAX][3] = {{255, 96, 48},  {48, 168, 255}, {110, 230, 60},  {230, 70, 220},
                                              {250, 215, 40}, {40, 225, 215}, {160, 120, 255}, {255, 160, 190}};
    int i = c < 0 ? 0 : c % PAL_CARS_MAX;
    return gfx_rgb(rgb[i][0], rgb[i][1], rgb[i][2]);
}

/* Scheme k's colour: its chart series colour (plot_series_colour). */
static inline SDL_Color pal_scheme(int k)
{
    uint32_t v = plot_series_colour(k);
    return gfx_rgb((Uint8)(v >> 16), (Uint8)(v >> 8), (Uint8)v);
}

/* a + (b - a) t, opaque. */
static inline SDL_Color pal_mix(SDL_Color a, SDL_Color b, float t)
{
    return gfx_rgba((Uint8)(a.r + (b.r - a.r) * t), (Uint8)(a.g + (b.g - a.g) * t),
                    (Uint8)(a.b + (b.b - a.b) * t), 255);
}

#endif
