/* Drawing helpers shared by every screen, the snapshots and the plots: fonts
 * at three sizes scaled with the window, a cache of text textures (a label
 * is re-rendered only when its text changes), filled polygons and thick
 * lines (gfx.c); the font files, SDL_ttf and PNG saving (gfx_io.c); text
 * sizes, fitting text to its room and the text audit of the tests
 * (gfx_fit.c). The colours are in palette.h.
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
 *   gfx_base_px(w, h, scale)   the base text size of a w x h screen:
 *        min(h / 42, w / 72) clamped to 10..40, times scale (--scale and
 *        Ctrl +/-; 1 = as the window's size says), at most min(h / 26,
 *        w / 48) (the largest the layouts hold: 1.5 x on 1280x720), at
 *        least 8 px.
 *   gfx_scale_step(scale, dir)  the next text scale up (dir > 0) or down
 *        of GFX_SCALE_MIN..GFX_SCALE_MAX (browser-like steps); dir 0: 1.
 *   gfx_scale_key(scale, key)  Ctrl + (or =) one step larger, Ctrl - one
 *        smaller, Ctrl 0 back to 1, in *scale; false (unchanged) for any
 *        other key.
 *   gfx_fit(g, font, max_w, alts, n)  the first of alts[0..n) whose width
 *        in font is at most max_w pixels, -1 when none is: the caller
 *        shortens or drops, never cuts.
 *   gfx_text_fit(g, font, x, y, align, c, max_w, alts, n)  draws that one
 *        (nothing when none fits); returns its width (0 when none).
 *   gfx_text_shrink(g, font, x, y, align, c, max_w, text)  text in font,
 *        else in the next smaller fonts, else shortened in its middle in
 *        the small one (gfx_ellipsize); returns the width drawn (0: none).
 *   gfx_wrap(g, font, max_w, text, out, max_lines)  text broken at spaces
 *        into lines of at most max_w pixels (a word wider than that is
 *        broken between characters); returns the lines written to out
 *        (GFX_TEXT_MAX bytes each), at most max_lines.
 *   gfx_ellipsize(g, font, max_w, text, out, n)  text shortened to max_w
 *        by taking characters out of its middle for one "…" (a long path
 *        keeps its start and its file name); "" when not even that fits.
 *   gfx_fit_lines(g, max_w, max_h, lines, n, out)  a box of lines laid
 *        out to fit max_w x max_h: in the normal font, else the small one,
 *        else the small one with long lines wrapped; lines past max_h are
 *        dropped (the first ones kept). out->src[i] is the input line of
 *        laid-out line i (its colour); false when not one line fits.
 *   gfx_room_push(g, rect) / gfx_room_pop(g)  the rectangle the text drawn
 *        until the pop must stay in (a panel, a button, a caption strip);
 *        nested rooms intersect. Only the audit reads it.
 *   gfx_audit_start(g, a) / gfx_audit_stop(g)  a test mode: every string
 *        drawn is recorded in a (its box, the room it must stay in: the
 *        pushed room, the renderer's clip rectangle and viewport); a
 *        panel drawn over earlier text (gfx_audit_cover) hides it.
 *        gfx_audit_cover(g, x, y, w, h)  marks the recorded text under an
 *        opaque panel hidden (the help overlay, a text box).
 *   gfx_fill / gfx_frame / gfx_poly / gfx_thick_line / gfx_disc  shapes.
 *   gfx_free(g)                textures and fonts; the renderer is not owned.
 *   gfx_forget_textures(g)     the text cache's textures freed (the renderer
 *        lost them: SDL_RENDER_DEVICE_RESET); each label made again when drawn.
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
#define GFX_TEXT_MAX 256

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
#define GFX_ROOMS 8
#define GFX_AUDIT_MAX 4096
#define GFX_LINES_MAX 64
#define GFX_SCALE_MIN 0.5
#define GFX_SCALE_MAX 3.0

/* One string drawn while auditing: its pixels and the room it must stay in. */
typedef struct GfxTextRec {
    SDL_Rect box, room;
    bool hidden; /* covered by a panel drawn later */
    char text[64];
} GfxTextRec;

/* gfx_fit_lines's layout: the font, the lines, the box they need. */
typedef struct GfxLines {
    int font, n;
    float line_h;      /* px between lines */
    int w;             /* the widest line (px) */
    char line[GFX_LINES_MAX][GFX_TEXT_MAX];
    int src[GFX_LINES_MAX];
} GfxLines;

typedef struct GfxAudit {
    GfxTextRec rec[GFX_AUDIT_MAX];
    int n;
    int dropped; /* past GFX_AUDIT_MAX */
} GfxAudit;

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
    SDL_Rect room[GFX_ROOMS]; /* gfx_room_push's stack */
    int nroom;
    GfxAudit *audit; /* NULL unless a test audits the text */
} Gfx;

bool gfx_init(Gfx *g, SDL_Renderer *r, const char *font_path);
void gfx_forget_textures(Gfx *g);
void gfx_free(Gfx *g);
void gfx_set_scale(Gfx *g, int base_px);
void gfx_begin_frame(Gfx *g);
int gfx_text(Gfx *g, int font, int x, int y, int align, SDL_Color c, const char *fmt, ...)
    NR_PRINTF(7, 8);
void gfx_text_size(Gfx *g, int font, const char *text, int *w, int *h);
int gfx_line_h(const Gfx *g, int font);
int gfx_base_px(int w, int h, double scale);
double gfx_scale_step(double scale, int dir);
bool gfx_scale_key(double *scale, const SDL_KeyboardEvent *key);
int gfx_fit(Gfx *g, int font, float max_w, const char *const *alts, int n);
int gfx_text_fit(Gfx *g, int font, int x, int y, int align, SDL_Color c, float max_w, const char *const *alts,
                 int n);
int gfx_text_shrink(Gfx *g, int font, int x, int y, int align, SDL_Color c, float max_w, const char *text);
int gfx_wrap(Gfx *g, int font, float max_w, const char *text, char (*out)[GFX_TEXT_MAX], int max_lines);
void gfx_ellipsize(Gfx *g, int font, float max_w, const char *text, char *out, size_t n);
bool gfx_fit_lines(Gfx *g, float max_w, float max_h, const char *const *lines, int n, GfxLines *out);
void gfx_room_push(Gfx *g, float x, float y, float w, float h);
void gfx_room_pop(Gfx *g);
void gfx_audit_start(Gfx *g, GfxAudit *a);
void gfx_audit_stop(Gfx *g);
void gfx_audit_cover(Gfx *g, float x, float y, float w, float h);
/* gfx_text's record of one drawn string (nothing unless auditing). */
void gfx_audit_text(Gfx *g, const SDL_Rect *box, const char *text);

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
