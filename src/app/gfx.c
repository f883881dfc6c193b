/* Drawing helpers: fonts, cached text textures, polygons, thick lines. */
#include "gfx.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool gfx_init(Gfx *g, SDL_Renderer *r, const char *font_path)
{
    memset(g, 0, sizeof *g);
    g->r = r;
    if (font_path && *font_path) {
        snprintf(g->font_path, sizeof g->font_path, "%s", font_path);
        g->has_font = true;
    }
    return true;
}

void gfx_forget_textures(Gfx *g)
{
    memset(g->sizes, 0, sizeof g->sizes);
    for (int i = 0; i < GFX_TEXT_CACHE; i++) {
        if (g->cache[i].tex)
            SDL_DestroyTexture(g->cache[i].tex);
        memset(&g->cache[i], 0, sizeof g->cache[i]);
    }
}

void gfx_free(Gfx *g)
{
    if (!g)
        return;
    gfx_forget_textures(g);
    for (int i = 0; i < GFX_NFONTS; i++)
        if (g->font[i])
            TTF_CloseFont(g->font[i]);
    memset(g->font, 0, sizeof g->font);
}

void gfx_set_scale(Gfx *g, int base_px)
{
    if (base_px < 8)
        base_px = 8;
    if (base_px == g->base_px)
        return;
    g->base_px = base_px;
    gfx_forget_textures(g);
    for (int i = 0; i < GFX_NFONTS; i++) {
        if (g->font[i])
            TTF_CloseFont(g->font[i]);
        g->font[i] = NULL;
    }
    if (!g->has_font)
        return;
    static const double factor[GFX_NFONTS] = {0.8, 1.0, 1.5};
    for (int i = 0; i < GFX_NFONTS; i++) {
        int px = (int)lround(base_px * factor[i]);
        g->font[i] = TTF_OpenFont(g->font_path, px < 7 ? 7 : px);
        if (!g->font[i]) {
            /* The caller checked the file once; a failure here means no text. */
            g->has_font = false;
            for (int k = 0; k < i; k++) {
                TTF_CloseFont(g->font[k]);
                g->font[k] = NULL;
            }
            return;
        }
    }
}

void gfx_begin_frame(Gfx *g)
{
    g->frame++;
}

int gfx_line_h(const Gfx *g, int font)
{
    if (!g->has_font || !g->font[font])
        return 0;
    return TTF_FontLineSkip(g->font[font]);
}

static uint32_t hash_text(const char *s, int font, SDL_Color c)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    h = (h ^ (uint32_t)font) * 16777619u;
    h = (h ^ ((uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b)) * 16777619u;
    return h ? h : 1;
}

/* Finds or renders the texture of one label; NULL without a font. */
static GfxText *lookup(Gfx *g, int font, const char *text, SDL_Color c)
{
    if (!g->has_font || !g->font[font] || !*text)
        return NULL;
    uint32_t h = hash_text(text, font, c);
    int victim = -1;
    for (int probe = 0; probe < 16; probe++) {
        int i = (int)((h + (uint32_t)probe) % GFX_TEXT_CACHE);
        GfxText *e = &g->cache[i];
        if (e->tex && e->hash == h && e->font == font && e->col.r == c.r && e->col.g == c.g &&
            e->col.b == c.b && strcmp(e->text, text) == 0) {
            e->used = g->frame;
            return e;
        }
        /* Prefer an empty slot, else the least recently used one. */
        if (!e->tex) {
            if (victim < 0 || g->cache[victim].tex)
                victim = i;
        } else if (victim < 0 || (g->cache[victim].tex && e->used < g->cache[victim].used)) {
            victim = i;
        }
    }
    GfxText *e = &g->cache[victim];
    if (e->tex)
        SDL_DestroyTexture(e->tex);
    memset(e, 0, sizeof *e);
    SDL_Surface *s = TTF_RenderUTF8_Blended(g->font[font], text, c);
    if (!s)
        return NULL;
    e->tex = SDL_CreateTextureFromSurface(g->r, s);
    e->w = s->w;
    e->h = s->h;
    SDL_FreeSurface(s);
    if (!e->tex)
        return NULL;
    e->hash = h;
    e->font = font;
    e->col = c;
    e->used = g->frame;
    snprintf(e->text, sizeof e->text, "%s", text);
    g->rendered++;
    return e;
}

int gfx_text(Gfx *g, int font, int x, int y, int align, SDL_Color c, const char *fmt, ...)
{
    char buf[GFX_TEXT_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    GfxText *e = lookup(g, font, buf, c);
    if (!e)
        return 0;
    SDL_Rect dst = {x, y, e->w, e->h};
    if (align == GFX_CENTER)
        dst.x -= e->w / 2;
    else if (align == GFX_RIGHT)
        dst.x -= e->w;
    SDL_RenderCopy(g->r, e->tex, NULL, &dst);
    if (g->audit)
        gfx_audit_text(g, &dst, buf);
    return e->w;
}

void gfx_text_size(Gfx *g, int font, const char *text, int *w, int *h)
{
    *w = *h = 0;
    if (!g->has_font || !g->font[font])
        return;
    uint32_t hash = hash_text(text, font, gfx_rgb(0, 0, 0));
    GfxSize *e = &g->sizes[hash % GFX_SIZE_CACHE];
    if (e->hash == hash && e->font == font && strcmp(e->text, text) == 0) {
        *w = e->w;
        *h = e->h;
        return;
    }
    TTF_SizeUTF8(g->font[font], text, w, h);
    if (strlen(text) < sizeof e->text) {
        e->hash = hash;
        e->font = font;
        e->w = *w;
        e->h = *h;
        memcpy(e->text, text, strlen(text) + 1);
    }
}

bool gfx_offscreen_open(GfxOffscreen *o, int w, int h, const char *what, NrError *err)
{
    memset(o, 0, sizeof *o);
    o->ttf_here = !TTF_WasInit();
    if (o->ttf_here && TTF_Init() != 0) {
        o->ttf_here = false;
        return nr_error_set(err, "%s: cannot start SDL_ttf: %s", what, TTF_GetError());
    }
    o->surf = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
    o->r = o->surf ? SDL_CreateSoftwareRenderer(o->surf) : NULL;
    if (!o->r) {
        nr_error_set(err, "%s: cannot create a %dx%d offscreen renderer: %s", what, w, h, SDL_GetError());
        gfx_offscreen_close(o);
        return false;
    }
    return true;
}

void gfx_offscreen_close(GfxOffscreen *o)
{
    if (o->r)
        SDL_DestroyRenderer(o->r);
    if (o->surf)
        SDL_FreeSurface(o->surf);
    if (o->ttf_here)
        TTF_Quit();
    memset(o, 0, sizeof *o);
}

void gfx_fill(SDL_Renderer *r, float x, float y, float w, float h, SDL_Color c)
{
    SDL_SetRenderDrawColor(r, c.r, c.g, c.b, c.a);
    SDL_FRect rc = {x, y, w, h};
    SDL_RenderFillRectF(r, &rc);
}

void gfx_frame(SDL_Renderer *r, float x, float y, float w, float h, SDL_Color c)
{
    SDL_SetRenderDrawColor(r, c.r, c.g, c.b, c.a);
    SDL_FRect rc = {x, y, w, h};
    SDL_RenderDrawRectF(r, &rc);
}

void gfx_poly(SDL_Renderer *r, const SDL_FPoint *p, int n, SDL_Color c)
{
    if (n < 3 || n > 16)
        return;
    SDL_Vertex v[16];
    int idx[3 * 14];
    for (int i = 0; i < n; i++) {
        v[i].position = p[i];
        v[i].color = c;
        v[i].tex_coord.x = v[i].tex_coord.y = 0;
    }
    int m = 0;
    for (int i = 1; i + 1 < n; i++) {
        idx[m++] = 0;
        idx[m++] = i;
        idx[m++] = i + 1;
    }
    SDL_RenderGeometry(r, NULL, v, n, idx, m);
}

void gfx_thick_line(SDL_Renderer *r, float x0, float y0, float x1, float y1, float width,
                    SDL_Color c)
{
    float dx = x1 - x0, dy = y1 - y0;
    float len = sqrtf(dx * dx + dy * dy);
    if (len < 1e-6f)
        return;
    float nx = -dy / len * width * 0.5f, ny = dx / len * width * 0.5f;
    SDL_FPoint p[4] = {{x0 + nx, y0 + ny}, {x1 + nx, y1 + ny}, {x1 - nx, y1 - ny}, {x0 - nx, y0 - ny}};
    gfx_poly(r, p, 4, c);
}

void gfx_disc(SDL_Renderer *r, float x, float y, float radius, SDL_Color c)
{
    SDL_FPoint p[12];
    for (int i = 0; i < 12; i++) {
        double a = 2.0 * 3.14159265358979323846 * i / 12.0;
        p[i].x = x + radius * (float)cos(a);
        p[i].y = y + radius * (float)sin(a);
    }
    gfx_poly(r, p, 12, c);
}
