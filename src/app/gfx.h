/* Drawing helpers shared by every screen, the snapshots and the plots: fonts
 * at three sizes scaled with the window, a cache of text textures (a label
 * is re-rendered only when its text changes), filled polygons and thick
 * lines (gfx.c); the font files, SDL_ttf and PNG saving (gfx_io.c). The
 * colours are in palette.h.
 *
 * Contracts:
 *   gfx_init(g, r, font_path)  binds a renderer; font_path NULL = no text
 *        (every text call then draws nothing and returns width 0).
 *   gfx_set_scale(g, base_px)  (re)opens the fonts when the base size
 *        changes: small = 0.8 x base, normal = base, big = 1.5 x base.
 *   gfx_text(g, font, x, y, align, colour, fmt...)  draws one line; returns
 *        its width in pixels. align: GFX_LEFT, GFX_CENTER, GFX_RIGHT (x is
 *        the left edge, centre or right edge); y is the top.
 *   gfx_text_size(g, font, text, &w, &h)  measured without drawing.
 *   gfx_line_h(g, font)        line height in pixels (0 without a font).
 *   gfx_fill / gfx_frame / gfx_poly / gfx_thick_line / gfx_disc  shapes.
 *   gfx_free(g)                textures and fonts; the renderer is not owned.
 *   gfx_default_font(buf, n)   the font file used when none is asked for:
 *        $NETRACE_FONT, else DejaVu Sans Mono, else fontconfig's monospace;
 *        false when none is readable.
 *   gfx_pick_font(requested, buf, n)  requested, else gfx_default_font;
 *        prints one line on stderr and returns false (buf empty) when there
 *        is none: the caller draws without text.
 *   gfx_ttf_start(err)         starts SDL_ttf unless running (false + err).
 *   gfx_save_png(r, w, h, path, err)  the renderer's current w x h frame
 *        to path as PNG, written as path.part (never over an existing
 *        .part) and renamed into place; false + err ("PATH: ...").
 */
#ifndef NR_GFX_H
#define NR_GFX_H

#include <SDL.h>
#include <SDL_ttf.h>
#include <stdbool.h>

#include "nr_common.h"

#define GFX_TEXT_CACHE 512
#define GFX_TEXT_MAX 160

enum { GFX_SMALL = 0, GFX_NORMAL = 1, GFX_BIG = 2, GFX_NFONTS = 3 };
enum { GFX_LEFT = 0, GFX_CENTER = 1, GFX_RIGHT = 2 };

typedef struct GfxText {
    uint32_t hash;
    uint32_t used; /* frame stamp, for eviction */
    int font;
    SDL_Color col;
    char text[GFX_TEXT_MAX];
    SDL_Texture *tex;
    int w, h;
} GfxText;

typedef struct GfxSize {
    uint32_t hash;
    int font, w, h;
    char text[GFX_TEXT_MAX];
} GfxSize;

#define GFX_SIZE_CACHE 256

typedef struct Gfx {
    SDL_Renderer *r;
    char font_path[512];
    bool has_font;
    int base_px;
    TTF_Font *font[GFX_NFONTS];
    GfxText cache[GFX_TEXT_CACHE];
    GfxSize sizes[GFX_SIZE_CACHE]; /* measured widths, replaced on collision */
    uint32_t frame;
    int rendered; /* labels rendered (cache misses) since init, for tests */
} Gfx;

bool gfx_init(Gfx *g, SDL_Renderer *r, const char *font_path);
void gfx_free(Gfx *g);
void gfx_set_scale(Gfx *g, int base_px);
void gfx_begin_frame(Gfx *g);
int gfx_text(Gfx *g, int font, int x, int y, int align, SDL_Color c, const char *fmt, ...)
    NR_PRINTF(7, 8);
void gfx_text_size(Gfx *g, int font, const char *text, int *w, int *h);
int gfx_line_h(const Gfx *g, int font);

/* A memory surface with SDL's software renderer and SDL_ttf started: no
 * display needed. open: false + err ("WHAT: ...") on failure, nothing held.
 * close: NULL-safe parts, stops SDL_ttf if open started it. */
typedef struct GfxOffscreen {
    SDL_Surface *surf;
    SDL_Renderer *r;
    bool ttf_here;
} GfxOffscreen;

bool gfx_offscreen_open(GfxOffscreen *o, int w, int h, const char *what, NrError *err);
void gfx_offscreen_close(GfxOffscreen *o);

bool gfx_default_font(char *buf, size_t n);
bool gfx_pick_font(const char *requested, char *buf, size_t n);
bool gfx_ttf_start(NrError *err);
bool gfx_save_png(SDL_Renderer *r, int w, int h, const char *path, NrError *err);

void gfx_fill(SDL_Renderer *r, float x, float y, float w, float h, SDL_Color c);
void gfx_frame(SDL_Renderer *r, float x, float y, float w, float h, SDL_Color c);
/* Convex polygon with n <= 16 corners (fan from the first). */
void gfx_poly(SDL_Renderer *r, const SDL_FPoint *p, int n, SDL_Color c);
void gfx_thick_line(SDL_Renderer *r, float x0, float y0, float x1, float y1, float width,
                    SDL_Color c);
void gfx_disc(SDL_Renderer *r, float x, float y, float radius, SDL_Color c);

static inline SDL_Color gfx_rgb(Uint8 r, Uint8 g, Uint8 b)
{
    SDL_Color c = {r, g, b, 255};
    return c;
}
static inline SDL_Color gfx_rgba(Uint8 r, Uint8 g, Uint8 b, Uint8 a)
{
    SDL_Color c = {r, g, b, a};
    return c;
}

#endif
