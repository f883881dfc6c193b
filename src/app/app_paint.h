/* Paint shared by the window's drawing files (app_draw.c, app_gauges.c):
 * the palette and small layout helpers. Private to src/app. */
#ifndef NR_APP_PAINT_H
#define NR_APP_PAINT_H

#include "app_internal.h"

#include <math.h>

#define BG gfx_rgb(24, 26, 30)
#define PANEL gfx_rgb(36, 39, 45)
#define FG gfx_rgb(225, 228, 232)
#define DIM gfx_rgb(150, 156, 165)
#define GRASS APP_GRASS
#define ASPHALT gfx_rgb(78, 80, 86)
#define EDGE gfx_rgb(235, 235, 235)
#define ACCENT gfx_rgb(255, 214, 64)
#define WARN gfx_rgb(255, 120, 120)

static inline SDL_Color car_colour(int c)
{
    return c == 0 ? APP_CAR1 : APP_CAR2;
}

static inline SDL_Color scheme_colour(int k)
{
    uint32_t v = plot_series_colour(k);
    return gfx_rgb((Uint8)(v >> 16), (Uint8)(v >> 8), (Uint8)v);
}

static inline SDL_Color mix(SDL_Color a, SDL_Color b, float t)
{
    return gfx_rgba((Uint8)(a.r + (b.r - a.r) * t), (Uint8)(a.g + (b.g - a.g) * t),
                    (Uint8)(a.b + (b.b - a.b) * t), 255);
}

static inline float lh(const AppState *s, int font)
{
    int h = gfx_line_h(&s->gfx, font);
    return h > 0 ? (float)h : (float)s->lay.base * (font == GFX_SMALL ? 1.0f : font == GFX_BIG ? 1.8f : 1.2f);
}

static inline SDL_FRect frect(float x, float y, float w, float h)
{
    SDL_FRect r = {floorf(x), floorf(y), floorf(w), floorf(h)};
    if (r.w < 0)
        r.w = 0;
    if (r.h < 0)
        r.h = 0;
    return r;
}

/* app_gauges.c: one scheme's gauges (big: the focus view's), the two strip
 * charts; a cached layer: app_layer_begin renders into it (false: draw
 * directly), app_layer_end copies it to (x, y). */
void app_draw_gauges(AppState *s, int k, bool big);
void app_draw_charts(AppState *s);
bool app_layer_begin(AppState *s, AppLayer *l, int w, int h);
void app_layer_end(AppState *s, AppLayer *l, float x, float y);

#endif
