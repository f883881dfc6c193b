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

/* Where the next gauge line goes: x, y its top left, w its width, l the
 * line height, bottom the panel's (pixels). */
typedef struct GaugePen {
    float x, y, w, l, pad, bottom;
    int font;
} GaugePen;

/* app_gauges.c: one scheme's gauges (big: the focus view's); the panel's
 * title line ("7 EPP-xv epp-xv", shorter as it narrows) and the
 * inconsistency bar with its rates, which the N-car gauges share. */
void app_draw_gauges(AppState *s, int k, bool big);
void app_gauge_title(AppState *s, int k, const SDL_FRect *g, GaugePen *p);
void app_gauge_rate(AppState *s, const Metrics *m, const AppGaugeText *t, GaugePen *p);

/* app_layout.c: the main area left, the two charts stacked on the right
 * (30 % of the width), between mid_top and mid_bot. */
void app_layout_charts_right(AppState *s, float pad, float fw, float mid_top, float mid_bot);

/* app_charts.c: the two strip charts; a cached layer: app_layer_size makes
 * it (anew when its size changed: key 0), app_layer_begin also renders into
 * it (false: draw directly), app_layer_end copies it to (x, y). */
void app_draw_charts(AppState *s);
bool app_layer_size(AppState *s, AppLayer *l, int w, int h);
bool app_layer_begin(AppState *s, AppLayer *l, int w, int h);
void app_layer_end(AppState *s, AppLayer *l, float x, float y);

/* app_draw.c: terminal j's screen under scheme k (its track, overlays,
 * cars and captions) in lay.view[k][j]; the red frame around scheme k's
 * screens while they disagree; the focused scheme's title line. */
void app_draw_view(AppState *s, int k, int j);
void app_draw_disagree(AppState *s, int k);
void app_draw_label(AppState *s, int k);

/* app_nrace.c: races of more than two cars (issue 19): the layout and the
 * frame's schemes (the focused one large with its gauges, every scheme's
 * cell of the compact grid). */
void app_layout_nrace(AppState *s, float pad, float fw, float mid_top, float mid_bot);
void app_draw_nrace(AppState *s);

/* app_bars.c: the top bar, the status line with the control bar and
 * buttons (a cached layer), the help overlay. */
void app_draw_top(AppState *s);
void app_draw_bars(AppState *s);
void app_draw_help(AppState *s);

#endif
