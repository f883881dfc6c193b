/* Small layout helpers shared by the overview's drawing files (app_draw.c,
 * app_gauges.c); the colours are palette.h's. Private to src/app. */
#ifndef NR_APP_PAINT_H
#define NR_APP_PAINT_H

#include "app_internal.h"
#include "palette.h"

#include <math.h>
#include <string.h>

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

/* text past prefix when text starts with it, else text (the shorter forms
 * of a gauge string: "inconsistent 12.3%" -> "12.3%"). */
static inline const char *app_text_after(const char *text, const char *prefix)
{
    size_t n = strlen(prefix);
    return strncmp(text, prefix, n) == 0 ? text + n : text;
}

/* app_gauges.c: one scheme's gauges (big: the focus view's), the two strip
 * charts; a cached layer: app_layer_begin renders into it (false: draw
 * directly), app_layer_end copies it to (x, y). */
void app_draw_gauges(AppState *s, int k, bool big);
void app_draw_charts(AppState *s);
bool app_layer_begin(AppState *s, AppLayer *l, int w, int h);
void app_layer_end(AppState *s, AppLayer *l, float x, float y);

/* app_bars.c: the top bar, the status line with the control bar and
 * buttons (a cached layer), the help overlay. */
void app_draw_top(AppState *s);
void app_draw_bars(AppState *s);
void app_draw_help(AppState *s);

#endif
