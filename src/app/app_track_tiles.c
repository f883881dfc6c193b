/* The track under the north-up follow cameras drawn once into tiles and
 * copied: a ladder of zoom levels, a world-aligned grid of square tiles per
 * level rendered when first needed and kept in an LRU (app_internal.h,
 * app_track_tiles). The mipmap idea: draw a picture once per scale step,
 * rescale it by less than one step when shown. */
#include "app_paint.h"

#include <math.h>
#include <string.h>

/* Level L draws the track at 2^(L / APP_TILE_STEPS) pixels per car width. */
float app_tile_level_scale(int level)
{
    return (float)exp2((double)level / APP_TILE_STEPS);
}

/* The largest level whose scale is at most scale: the view enlarges it by
 * less than one step. Taking the level below (not above) means a copy only
 * ever repeats rows and columns of the tile, never drops one: a one-pixel
 * edge line cannot vanish. */
int app_tile_level(float scale)
{
    int level = (int)floor(log2((double)scale) * APP_TILE_STEPS);
    while (app_tile_level_scale(level + 1) <= scale) /* log2 rounded down a level's exact scale */
        level++;
    while (level > APP_TILE_LEVEL_MIN && app_tile_level_scale(level) > scale)
        level--;
    return level;
}

static unsigned tile_hash(int level, int ix, int iy)
{
    uint32_t h = (uint32_t)level * 0x9E3779B1u ^ (uint32_t)ix * 0x85EBCA77u ^ (uint32_t)iy * 0xC2B2AE3Du;
    h ^= h >> 15;
    return h & (APP_TILE_HASH - 1);
}

/* The entry of tile (level, ix, iy), or -1. */
static int tile_find(const AppTileCache *c, int level, int ix, int iy)
{
    for (unsigned i = tile_hash(level, ix, iy);; i = (i + 1) & (APP_TILE_HASH - 1)) {
        int e = c->hash[i] - 1;
        if (e < 0)
            return -1;
        const AppTile *t = &c->tile[e];
        if (t->level == level && t->ix == ix && t->iy == iy)
            return e;
    }
}

static void hash_insert(AppTileCache *c, int e)
{
    const AppTile *t = &c->tile[e];
    unsigned i = tile_hash(t->level, t->ix, t->iy);
    while (c->hash[i])
        i = (i + 1) & (APP_TILE_HASH - 1);
    c->hash[i] = (int16_t)(e + 1);
}

/* Marks entry e copied in the current frame: it keeps its place until
 * the next frame begins. */
static void tile_hold(AppTileCache *c, int e)
{
    if (c->tile[e].frame != c->frame) {
        c->tile[e].frame = c->frame;
        c->held++;
    }
}

/* An entry for a new tile: a free one, else the least recently copied of
 * those the current frame has not copied (its texture kept for the new
 * tile); -1 if every entry is held. The index is rebuilt after an
 * eviction: rare (a new tile with the cache full), and simpler than
 * deleting from an open-addressed table. */
static int tile_take(AppTileCache *c)
{
    if (c->n < APP_TILE_CAP) {
        c->tile[c->n].frame = 0;
        return c->n++;
    }
    int old = -1;
    for (int e = 0; e < APP_TILE_CAP; e++)
        if (c->tile[e].frame != c->frame && (old < 0 || c->tile[e].used < c->tile[old].used))
            old = e;
    if (old < 0)
        return -1;
    c->tile[old].level = APP_TILE_LEVEL_MIN - 1; /* matches no lookup */
    memset(c->hash, 0, sizeof c->hash);
    for (int e = 0; e < c->n; e++)
        if (e != old)
            hash_insert(c, e);
    return old;
}

/* The camera that puts tile (level, ix, iy)'s world corner at pixel 0, 0 of
 * an APP_TILE_PX square: level pixel (gx, gy) = (wx, -wy) x scale. */
static void tile_xform(int level, int ix, int iy, AppXform *x)
{
    memset(x, 0, sizeof *x);
    x->rect = (SDL_FRect){0, 0, APP_TILE_PX, APP_TILE_PX};
    x->scale = app_tile_level_scale(level);
    x->wx = (double)ix * APP_TILE_PX / x->scale;
    x->wy = -(double)iy * APP_TILE_PX / x->scale;
}

/* Draws tile t into its texture (made on first use), then gives the
 * renderer back its target and clip. False if no texture or target. */
static bool tile_render(AppState *s, AppTile *t)
{
    AppXform x;
    tile_xform(t->level, t->ix, t->iy, &x);
    t->grass = !app_track_meets(s, &x);
    if (t->grass) /* no track within reach: copied as a plain fill */
        return true;
    if (!t->tex) {
        t->tex = SDL_CreateTexture(s->r, app_screen_format(s->r), SDL_TEXTUREACCESS_TARGET, APP_TILE_PX,
                                   APP_TILE_PX);
        if (!t->tex)
            return false;
        SDL_SetTextureBlendMode(t->tex, SDL_BLENDMODE_NONE);
    }
    SDL_Texture *old = SDL_GetRenderTarget(s->r);
    SDL_Rect clip;
    SDL_bool clipped = SDL_RenderIsClipEnabled(s->r);
    SDL_RenderGetClipRect(s->r, &clip);
    bool ok = SDL_SetRenderTarget(s->r, t->tex) == 0;
    if (ok) {
        gfx_fill(s->r, 0, 0, APP_TILE_PX, APP_TILE_PX, PAL_GRASS);
        app_draw_track(s, &x);
        s->tiles.renders++;
    }
    SDL_SetRenderTarget(s->r, old);
    SDL_RenderSetClipRect(s->r, clipped ? &clip : NULL);
    return ok;
}

/* Tile (level, ix, iy), rendered if the cache lacks it, held for the
 * frame; NULL if it cannot be drawn or no entry is free (the caller draws
 * the track itself). */
static const AppTile *tile_get(AppState *s, int level, int ix, int iy)
{
    AppTileCache *c = &s->tiles;
    int e = tile_find(c, level, ix, iy);
    if (e < 0) {
        e = tile_take(c);
        if (e < 0)
            return NULL;
        AppTile *t = &c->tile[e];
        t->level = level;
        t->ix = ix;
        t->iy = iy;
        if (!tile_render(s, t)) {
            t->level = APP_TILE_LEVEL_MIN - 1;
            return NULL;
        }
        hash_insert(c, e);
    }
    c->tile[e].used = ++c->clock;
    tile_hold(c, e);
    return &c->tile[e];
}

/* Where a view puts level pixel u along one axis: the boundary of pixels u
 * - 1 and u, rounded once by one formula, so neighbouring tiles share it. */
static int edge_px(double origin, double ratio, int u)
{
    return (int)floor(origin + (double)u * ratio + 0.5);
}

/* The part of one tile row or column inside [lo, hi) of the view: the
 * destination [*d0, *d1) and the source pixels [*s0, *s1) that SDL's
 * nearest-neighbour stretch of the whole tile would show there (its step:
 * 16.16 fixed point, sampling pixel centres). False if nothing shows. */
static bool tile_span(int t0, int t1, int lo, int hi, int *d0, int *d1, int *s0, int *s1)
{
    *d0 = t0 > lo ? t0 : lo;
    *d1 = t1 < hi ? t1 : hi;
    if (*d1 <= *d0)
        return false;
    uint32_t inc = ((uint32_t)APP_TILE_PX << 16) / (uint32_t)(t1 - t0);
    uint32_t a = (uint32_t)(*d0 - t0), b = (uint32_t)(*d1 - 1 - t0);
    *s0 = (int)((a * inc + inc / 2) >> 16);
    *s1 = (int)((b * inc + inc / 2) >> 16) + 1;
    return true;
}

/* Where a view meets one level's grid: ox, oy the view pixel of level
 * pixel 0, 0; ratio view pixels per level pixel (1 to one step). */
typedef struct TileGrid {
    int level;
    double ox, oy, ratio;
} TileGrid;

/* A walk that holds the tiles a view finds cached and counts those it
 * lacks; the entries it newly held, to let go if the view is not served. */
typedef struct TileTally {
    int missing, nnew;
    int16_t fresh[APP_TILE_CAP];
} TileTally;

/* Tile (ix, iy) met by a walk: held and counted (tally), or (tally NULL)
 * copied to dst from its pixels src. False if a copy cannot be served. */
static bool tile_visit(AppState *s, const TileGrid *g, TileTally *tally, int ix, int iy, const SDL_Rect *src,
                       const SDL_Rect *dst)
{
    AppTileCache *c = &s->tiles;
    if (tally) {
        int e = tile_find(c, g->level, ix, iy);
        tally->missing += e < 0;
        if (e >= 0 && c->tile[e].frame != c->frame) {
            tally->fresh[tally->nnew++] = (int16_t)e; /* distinct entries: at most the cap */
            tile_hold(c, e);
        }
        return true;
    }
    const AppTile *t = tile_get(s, g->level, ix, iy);
    if (!t)
        return false;
    if (t->grass)
        gfx_fill(s->r, (float)dst->x, (float)dst->y, (float)dst->w, (float)dst->h, PAL_GRASS);
    else
        SDL_RenderCopy(s->r, t->tex, src, dst);
    return true;
}

/* Every tile of g that shows inside clip, each visited once (tile_visit).
 * The caller has bounded the index range (tiles_fit). */
static bool tiles_walk(AppState *s, const SDL_Rect *clip, const TileGrid *g, TileTally *tally)
{
    double span = APP_TILE_PX * g->ratio; /* a tile on the view */
    int ix0 = (int)floor(((double)clip->x - g->ox) / span) - 1, iy0 = (int)floor(((double)clip->y - g->oy) / span) - 1;
    for (int iy = iy0; edge_px(g->oy, g->ratio, iy * APP_TILE_PX) < clip->y + clip->h; iy++) {
        int y0 = edge_px(g->oy, g->ratio, iy * APP_TILE_PX), y1 = edge_px(g->oy, g->ratio, (iy + 1) * APP_TILE_PX);
        SDL_Rect src, dst;
        int sy1, dy1;
        if (!tile_span(y0, y1, clip->y, clip->y + clip->h, &dst.y, &dy1, &src.y, &sy1))
            continue;
        for (int ix = ix0; edge_px(g->ox, g->ratio, ix * APP_TILE_PX) < clip->x + clip->w; ix++) {
            int x0 = edge_px(g->ox, g->ratio, ix * APP_TILE_PX), x1 = edge_px(g->ox, g->ratio, (ix + 1) * APP_TILE_PX);
            int sx1, dx1;
            if (!tile_span(x0, x1, clip->x, clip->x + clip->w, &dst.x, &dx1, &src.x, &sx1))
                continue;
            dst.w = dx1 - dst.x;
            dst.h = dy1 - dst.y;
            src.w = sx1 - src.x;
            src.h = sy1 - src.y;
            if (!tile_visit(s, g, tally, ix, iy, &src, &dst))
                return false;
        }
    }
    return true;
}

/* Whether the tiles inside clip have safe indices (every tile corner's
 * level pixel ix x APP_TILE_PX fits an int) and fit the cache beside those
 * the frame holds; those cached are held then, so that making room for
 * the missing ones evicts none of them. A camera that is not finite, or a
 * thousand kilometres of car widths off, gets the direct drawing. */
static bool tiles_fit(AppState *s, const SDL_Rect *clip, const TileGrid *g)
{
    double span = APP_TILE_PX * g->ratio, lim = 1e6; /* tiles from level pixel 0 */
    double i0 = ((double)clip->x - g->ox) / span, j0 = ((double)clip->y - g->oy) / span;
    double i1 = i0 + clip->w / span, j1 = j0 + clip->h / span;
    if (!isfinite(i0) || !isfinite(j0) || fabs(i0) > lim || fabs(j0) > lim || fabs(i1) > lim || fabs(j1) > lim ||
        (i1 - i0 + 3) * (j1 - j0 + 3) > 4.0 * APP_TILE_CAP)
        return false;
    TileTally tally;
    tally.missing = tally.nnew = 0;
    tiles_walk(s, clip, g, &tally);
    if (tally.missing <= APP_TILE_CAP - s->tiles.held)
        return true;
    for (int i = 0; i < tally.nnew; i++) /* this frame's tiles fill the cache: drawn directly, tiled when they fit */
        s->tiles.tile[tally.fresh[i]].frame = 0;
    s->tiles.held -= tally.nnew;
    return false;
}

bool app_track_tiles(AppState *s, const SDL_Rect *clip, const AppXform *x)
{
    if (s->no_tiles || x->rotated || !(x->scale >= app_tile_level_scale(APP_TILE_LEVEL_MIN)) ||
        !(x->scale <= app_tile_level_scale(APP_TILE_LEVEL_MAX)) || clip->w <= 0 || clip->h <= 0 ||
        !SDL_RenderTargetSupported(s->r))
        return false;
    if (s->tiles.frame == 0) /* no frame begun: the first */
        s->tiles.frame = 1;
    TileGrid g = {.level = app_tile_level(x->scale)};
    g.ratio = (double)x->scale / app_tile_level_scale(g.level);
    /* view pixel = cx + (wx' - wx) scale = ox + gx' ratio, gx' = wx' x level scale */
    g.ox = x->cx - x->wx * x->scale;
    g.oy = x->cy + x->wy * x->scale;
    /* copies inside the output: SDL 2.26 stretches a copy that passes its
     * edge through a temporary surface made for it */
    SDL_Rect out = {0, 0, 0, 0}, area;
    if (SDL_GetRendererOutputSize(s->r, &out.w, &out.h) != 0)
        return false;
    if (!SDL_IntersectRect(clip, &out, &area))
        return true; /* nothing of the view shows */
    return tiles_fit(s, &area, &g) && tiles_walk(s, &area, &g, NULL);
}

void app_track_tiles_frame(AppState *s)
{
    s->tiles.frame++;
    s->tiles.held = 0;
}

void app_track_tiles_free(AppState *s)
{
    for (int e = 0; e < APP_TILE_CAP; e++)
        if (s->tiles.tile[e].tex)
            SDL_DestroyTexture(s->tiles.tile[e].tex);
    memset(&s->tiles, 0, sizeof s->tiles);
}
