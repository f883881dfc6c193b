/* The track tile cache under the follow cameras (app_track_tiles.c): a view
 * copied from tiles shows what the same view drawn directly shows, the road
 * and the grass where the ring's geometry puts them at scales between two
 * levels, no seam where tiles meet, nothing outside the view, each tile
 * drawn once while cached, at most the cap of tiles alive, never one
 * evicted in the frame that copied it, and cameras far off or not finite
 * drawn directly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_fixture.h"
#include "pixels.h"

#define W 640
#define H 480
#define RING_R 60.0 /* the centre line's radius (cw); the road is 8 wide: 56 to 64 */

typedef struct TileFix {
    Track *track;
    SDL_Surface *surf;
    SDL_Renderer *r;
    AppState *s;
} TileFix;

static const SDL_Color ASPHALT = {78, 80, 86, 255}, GRASS = {38, 84, 48, 255}, UNDRAWN = {255, 0, 255, 255};

/* A circle of radius 60 car widths round the origin, counter-clockwise
 * from (60, 0), 8 cw wide, 48 control points. */
static Track *tile_ring(void)
{
    char text[8192];
    int n = snprintf(text, sizeof text, "netrace-track 1\nname Tile Ring\nwidth 8\n");
    for (int i = 0; i < 48; i++) {
        double a = 2.0 * NR_PI * i / 48.0;
        n += snprintf(text + n, sizeof text - (size_t)n, "point %.6f %.6f\n", RING_R * cos(a), RING_R * sin(a));
    }
    NrError err = {{0}};
    Track *t = track_parse(text, "ring", &err);
    if (!t)
        fprintf(stderr, "%s\n", err.msg);
    return t;
}

static int setup(void **state)
{
    TileFix *f = calloc(1, sizeof *f);
    f->track = tile_ring();
    if (!f->track || !app_canvas_open(W, H, &f->surf, &f->r, &f->s))
        return -1;
    AppConfig cfg = app_config_default();
    app_state_init_track(f->s, f->track, &cfg, f->r);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    TileFix *f = *state;
    app_canvas_close(f->surf, f->r, f->s);
    track_free(f->track);
    free(f);
    return 0;
}

/* A north-up camera on world point (wx, wy) at the centre of the output. */
static AppXform camera(double wx, double wy, float scale)
{
    AppXform x = {.rect = {0, 0, W, H}, .cx = W / 2, .cy = H / 2, .wx = wx, .wy = wy, .scale = scale};
    return x;
}

static void clear(TileFix *f, SDL_Color c)
{
    SDL_RenderSetClipRect(f->r, NULL);
    SDL_SetRenderDrawColor(f->r, c.r, c.g, c.b, 255);
    SDL_RenderClear(f->r);
}

/* The view through the tiles, on an output filled with UNDRAWN; no clip
 * rect set on the renderer (app_draw_view sets one, but the tiles must
 * keep inside clip by themselves: each copy is cut to it exactly). */
static void draw_tiled(TileFix *f, const SDL_Rect *clip, const AppXform *x)
{
    app_track_tiles_frame(f->s); /* each view its own frame */
    clear(f, UNDRAWN);
    assert_true(app_track_tiles(f->s, clip, x));
    SDL_RenderPresent(f->r);
}

/* The colour at world point (wx, wy) as x shows it. */
static SDL_Color world_pixel(TileFix *f, const AppXform *x, double wx, double wy)
{
    float px, py;
    app_world_to_px(x, wx, wy, &px, &py);
    return pixel_at(f->surf, (int)px, (int)py);
}

/* At a level's own scale and a camera on whole pixels the tiles are the
 * track drawn at the same pixels, shifted by whole tiles: the same
 * triangles. Tolerance 0.1 % of the view (25 of 307,200 differ here, all
 * on the rim of a white edge line, most on a tile's first or last column):
 * the vertices are worked out from another origin (a tile's corner, not
 * the view's centre) and a triangle cut by a tile's border is stepped
 * again from there, so a pixel centre that an edge grazes can fall on the
 * other side. The pixels at the hand-picked points below must all agree. */
static void tiles_match_the_direct_drawing(void **state)
{
    TileFix *f = *state;
    float s = app_tile_level_scale(3 * APP_TILE_STEPS); /* 8 px per car width */
    assert_true(s == 8.0f);
    assert_int_equal(app_tile_level(s), 3 * APP_TILE_STEPS);
    AppXform x = camera(0.0, RING_R, s); /* the top of the ring: pixel (320 - 0, 240 + 480) of level 24 */
    SDL_Rect clip = {0, 0, W, H};
    clear(f, GRASS);
    app_draw_track(f->s, &x);
    SDL_RenderPresent(f->r);
    size_t bytes = (size_t)f->surf->pitch * H;
    Uint8 *direct = malloc(bytes);
    assert_non_null(direct);
    memcpy(direct, f->surf->pixels, bytes);
    draw_tiled(f, &clip, &x);
    int px_differ = 0;
    for (int y = 0; y < H; y++)
        for (int xx = 0; xx < W; xx++) {
            size_t at = (size_t)y * (size_t)f->surf->pitch + 4 * (size_t)xx;
            px_differ += memcmp(direct + at, (Uint8 *)f->surf->pixels + at, 4) != 0;
        }
    free(direct);
    fprintf(stderr, "level scale: %d of %d pixels differ\n", px_differ, W * H);
    assert_true(px_differ <= W * H / 1000);
    for (int a = 60; a <= 120; a += 5) { /* the road 1 and 3 cw either side of the centre line, the grass 6 cw off */
        double c = cos(a * NR_PI / 180), sn = sin(a * NR_PI / 180);
        assert_true(same_rgb(world_pixel(f, &x, 61 * c, 61 * sn), ASPHALT));
        assert_true(same_rgb(world_pixel(f, &x, 57 * c, 57 * sn), ASPHALT));
        assert_true(same_rgb(world_pixel(f, &x, 63 * c, 63 * sn), ASPHALT));
        assert_true(same_rgb(world_pixel(f, &x, 50 * c, 50 * sn), GRASS));
        assert_true(same_rgb(world_pixel(f, &x, 70 * c, 70 * sn), GRASS));
    }
}

/* Between two levels (the lower one enlarged by up to 2^(1/8)): the road
 * and the grass where the ring's geometry puts them, for cameras that sit
 * between pixels, at several scales of one step. */
static void tiles_put_the_road_where_the_ring_is(void **state)
{
    TileFix *f = *state;
    const float scales[] = {5.3f, 6.1f, 8.4f, 8.7f, 11.9f};
    for (size_t i = 0; i < sizeof scales / sizeof scales[0]; i++) {
        float s = scales[i];
        int level = app_tile_level(s);
        assert_true(app_tile_level_scale(level) <= s && s < app_tile_level_scale(level + 1));
        AppXform x = camera(3.37, RING_R - 7.71, s);
        SDL_Rect clip = {0, 0, W, H};
        draw_tiled(f, &clip, &x);
        int looked = 0;
        for (int a = 30; a <= 150; a += 3) {
            double c = cos(a * NR_PI / 180), sn = sin(a * NR_PI / 180);
            const double road[4] = {57, 59, 61, 63}, grass[3] = {0, 50, 70};
            for (int k = 0; k < 4; k++) {
                float px, py;
                app_world_to_px(&x, road[k] * c, road[k] * sn, &px, &py);
                if (px < 1 || py < 1 || px >= W - 1 || py >= H - 1)
                    continue;
                looked++;
                assert_true(same_rgb(world_pixel(f, &x, road[k] * c, road[k] * sn), ASPHALT));
            }
            for (int k = 0; k < 3; k++) {
                float px, py;
                app_world_to_px(&x, grass[k] * c, grass[k] * sn, &px, &py);
                if (px >= 1 && py >= 1 && px < W - 1 && py < H - 1)
                    assert_true(same_rgb(world_pixel(f, &x, grass[k] * c, grass[k] * sn), GRASS));
            }
        }
        assert_true(looked > 40);
    }
}

/* Whether world point (wx, wy) is on the asphalt away from every line:
 * 0.5 cw and more from the edges (56, 64), the centre line's dashes (60). */
static bool plain_road(double wx, double wy)
{
    double r = hypot(wx, wy);
    return r > 56.5 && r < 63.5 && fabs(r - RING_R) > 0.5;
}

/* Counts the pixels of screen column (vertical) or row at `at` inside clip
 * whose world point is plain road but whose colour is not the asphalt's. */
static int seam_pixels(TileFix *f, const AppXform *x, const SDL_Rect *clip, bool vertical, int at, int *looked)
{
    int bad = 0, n = vertical ? clip->h : clip->w;
    for (int i = 0; i < n; i++) {
        int px = vertical ? at : clip->x + i, py = vertical ? clip->y + i : at;
        double wx = x->wx + (px + 0.5 - x->cx) / x->scale, wy = x->wy - (py + 0.5 - x->cy) / x->scale;
        if (!plain_road(wx, wy))
            continue;
        (*looked)++;
        bad += !same_rgb(pixel_at(f->surf, px, py), ASPHALT);
    }
    return bad;
}

/* Where tiles meet inside a view that cuts tiles at its edges: no pixel
 * of another colour on either side of a boundary the road crosses, and
 * nothing drawn outside the view. The boundaries are worked out from the
 * grid's definition: level L's tile (i, j) covers world x from i T / s_L,
 * world y down from -j T / s_L (T = APP_TILE_PX). */
static void tiles_leave_no_seam(void **state)
{
    TileFix *f = *state;
    const float scales[] = {6.1f, 8.4f, 10.0f};
    for (size_t k = 0; k < sizeof scales / sizeof scales[0]; k++) {
        float s = scales[k];
        AppXform x = camera(-5.13, RING_R + 2.29, s);
        SDL_Rect clip = {37, 23, 501, 397};
        x.rect = (SDL_FRect){37, 23, 501, 397};
        draw_tiled(f, &clip, &x);
        double tile_cw = APP_TILE_PX / (double)app_tile_level_scale(app_tile_level(s));
        int looked = 0, bad = 0, boundaries = 0;
        for (int i = -40; i <= 40; i++) {
            double bx = x.cx + (i * tile_cw - x.wx) * s, by = x.cy - (-i * tile_cw - x.wy) * s;
            int cx = (int)floor(bx + 0.5), cy = (int)floor(by + 0.5);
            if (cx - 1 > clip.x && cx + 1 < clip.x + clip.w) {
                boundaries++;
                for (int d = -1; d <= 0; d++)
                    bad += seam_pixels(f, &x, &clip, true, cx + d, &looked);
            }
            if (cy - 1 > clip.y && cy + 1 < clip.y + clip.h) {
                boundaries++;
                for (int d = -1; d <= 0; d++)
                    bad += seam_pixels(f, &x, &clip, false, cy + d, &looked);
            }
        }
        fprintf(stderr, "scale %.1f: %d boundaries, %d road pixels beside them, %d not asphalt\n", (double)s,
                boundaries, looked, bad);
        assert_true(boundaries >= 4);
        assert_true(looked > 100);
        assert_int_equal(bad, 0);
        int outside = 0;
        for (int py = 0; py < H; py++)
            for (int px = 0; px < W; px++) {
                SDL_Point p = {px, py};
                if (!SDL_PointInRect(&p, &clip))
                    outside += !same_rgb(pixel_at(f->surf, px, py), UNDRAWN);
                else
                    outside += same_rgb(pixel_at(f->surf, px, py), UNDRAWN); /* and every pixel inside drawn */
            }
        assert_int_equal(outside, 0);
    }
}

/* A tile is drawn once while its level is in use: the same view again
 * draws none, a camera moved by less than a tile draws only the tiles it
 * newly meets; the least recently copied go first when the cache is full,
 * never more than the cap alive. */
static void tiles_are_drawn_once_and_capped(void **state)
{
    TileFix *f = *state;
    app_track_tiles_free(f->s);
    SDL_Rect clip = {0, 0, W, H};
    AppXform x = camera(0.0, RING_R, 9.0f);
    draw_tiled(f, &clip, &x);
    long first = f->s->tiles.renders;
    /* 640 x 480 px at most 1.0905 x the level's: 6 x 5 tiles and a row and a column cut */
    assert_true(first > 0 && first <= 7 * 6);
    draw_tiled(f, &clip, &x);
    assert_int_equal(f->s->tiles.renders, first);
    AppXform near = camera(1.5, RING_R, 9.1f); /* 13.5 px along, the same level */
    assert_int_equal(app_tile_level(9.1f), app_tile_level(9.0f));
    draw_tiled(f, &clip, &near);
    long moved = f->s->tiles.renders - first;
    assert_true(moved <= 6); /* at most the column it newly meets */
    draw_tiled(f, &clip, &x);
    draw_tiled(f, &clip, &near);
    assert_int_equal(f->s->tiles.renders, first + moved);
    /* round the ring at a large scale: far more tiles than the cap */
    long before = f->s->tiles.renders;
    for (int a = 0; a < 360; a += 2) {
        AppXform lap = camera(RING_R * cos(a * NR_PI / 180), RING_R * sin(a * NR_PI / 180), 60.0f);
        draw_tiled(f, &clip, &lap);
        assert_true(f->s->tiles.n <= APP_TILE_CAP);
        int alive = 0;
        for (int e = 0; e < APP_TILE_CAP; e++)
            alive += f->s->tiles.tile[e].tex != NULL;
        assert_true(alive <= APP_TILE_CAP);
        assert_true(same_rgb(world_pixel(f, &lap, 61 * cos(a * NR_PI / 180), 61 * sin(a * NR_PI / 180)), ASPHALT));
    }
    assert_true(f->s->tiles.renders - before > APP_TILE_CAP);
    assert_int_equal(f->s->tiles.n, APP_TILE_CAP);
    long lap_end = f->s->tiles.renders; /* the last view's tiles are the freshest: kept */
    AppXform last = camera(RING_R * cos(358 * NR_PI / 180), RING_R * sin(358 * NR_PI / 180), 60.0f);
    draw_tiled(f, &clip, &last);
    assert_int_equal(f->s->tiles.renders, lap_end);
    draw_tiled(f, &clip, &x); /* the first view's went long ago: drawn again */
    assert_true(f->s->tiles.renders > lap_end);
}

/* Columns across the ring's top (|x| <= 20 cw, where its edges run
 * nearly along the rows) with no white pixel between 62 and 66 cw from the
 * centre, and between 54 and 58 (the edges at 64 and 56; the dashes at 60
 * outside both bands); *columns counts those looked at. */
static int edge_gaps(TileFix *f, const AppXform *x, int *columns)
{
    const SDL_Color edge = {235, 235, 235, 255};
    const double band[2][2] = {{62, 66}, {54, 58}};
    int missing = 0;
    for (int px = 0; px < W; px++) {
        double wx = x->wx + (px + 0.5 - x->cx) / x->scale;
        for (int b = 0; b < 2 && fabs(wx) <= 20; b++) {
            float top, bottom, ignored;
            app_world_to_px(x, wx, sqrt(band[b][1] * band[b][1] - wx * wx), &ignored, &top);
            app_world_to_px(x, wx, sqrt(band[b][0] * band[b][0] - wx * wx), &ignored, &bottom);
            bool seen = false;
            for (int py = (int)top; py <= (int)bottom && !seen; py++)
                seen = same_rgb(pixel_at(f->surf, px, py), edge);
            (*columns)++;
            missing += !seen;
        }
    }
    return missing;
}

/* A one-pixel edge line stays whole between levels: at 4.1 to 4.9 px per
 * car width an edge is 1.0-1.2 px wide, and a copy that shrank the tiles
 * would drop it wherever it runs along a dropped row (137 of 3,640 columns
 * when tried). The reference is the track drawn directly at each scale,
 * which itself leaves a gap at a few segment joints (6 of 3,640: SDL's
 * thin quads): the tiles may miss at most 1 % of the columns more. */
static void thin_edges_never_vanish(void **state)
{
    TileFix *f = *state;
    int direct = 0, tiled = 0, columns = 0, ignored = 0;
    for (float s = 4.1f; s < 5.0f; s += 0.1f) {
        AppXform x = camera(0.0, RING_R, s);
        SDL_Rect clip = {0, 0, W, H};
        clear(f, GRASS);
        app_draw_track(f->s, &x);
        SDL_RenderPresent(f->r);
        direct += edge_gaps(f, &x, &ignored);
        draw_tiled(f, &clip, &x);
        tiled += edge_gaps(f, &x, &columns);
    }
    fprintf(stderr, "edge gaps: %d drawn, %d tiled, of %d columns\n", direct, tiled, columns);
    assert_true(columns > 1000);
    assert_true(tiled <= direct + columns / 100);
}

/* A view running past the output's corner: its visible part drawn (the
 * road where the ring is), nothing outside it; a view wholly outside draws
 * nothing and is served. */
static void views_past_the_edge_draw_their_visible_part(void **state)
{
    TileFix *f = *state;
    AppXform x = camera(0.0, RING_R, 8.0f); /* the ring's top at the output's centre */
    x.cx = W - 40;                          /* ... moved to 40 px from its right edge */
    x.cy = H - 40;
    SDL_Rect clip = {W - 140, H - 140, 300, 300};
    draw_tiled(f, &clip, &x);
    assert_true(same_rgb(pixel_at(f->surf, W - 40, H - 40 - 8), ASPHALT)); /* 1 cw outside the centre line */
    assert_true(same_rgb(pixel_at(f->surf, W - 1, H - 40 + 8), ASPHALT));  /* 4.9 cw along, 0.8 inside (r 59.2) */
    assert_true(same_rgb(pixel_at(f->surf, W - 1, H - 1), GRASS));         /* r 55.3: the grass inside the ring */
    assert_true(same_rgb(pixel_at(f->surf, W - 40, H - 40 - 60), GRASS));  /* 7.5 cw outside */
    assert_true(same_rgb(pixel_at(f->surf, W - 141, H - 141), UNDRAWN));
    SDL_Rect away = {W + 10, 0, 100, 100};
    draw_tiled(f, &away, &x);
    assert_true(same_rgb(pixel_at(f->surf, W - 1, 0), UNDRAWN));
}

/* A turned camera (the driving view's option) is not served: the caller
 * draws the track. */
static void rotated_cameras_are_drawn(void **state)
{
    TileFix *f = *state;
    SDL_Rect clip = {0, 0, W, H};
    AppXform x = camera(0.0, RING_R, 8.0f);
    x.rotated = true;
    x.rot = 0.3;
    x.rot_cos = cos(0.3);
    x.rot_sin = sin(0.3);
    assert_false(app_track_tiles(f->s, &clip, &x));
    x = camera(0.0, RING_R, 8.0f);
    f->s->no_tiles = true;
    assert_false(app_track_tiles(f->s, &clip, &x));
    f->s->no_tiles = false;
}

/* The big frame of frame_keeps_its_tiles: four views of 1600 x 900 on a
 * 3200 x 1800 output, each on its own quarter of the ring at 30 px per car
 * width (53 x 30 cw each: no tile shared). */
#define BIG_W 3200
#define BIG_H 1800
static void big_view(int k, SDL_Rect *clip, AppXform *x)
{
    const double at[4][2] = {{0, RING_R}, {0, -RING_R}, {RING_R, 0}, {-RING_R, 0}};
    *clip = (SDL_Rect){(k % 2) * BIG_W / 2, (k / 2) * BIG_H / 2, BIG_W / 2, BIG_H / 2};
    *x = (AppXform){.rect = {(float)clip->x, (float)clip->y, (float)clip->w, (float)clip->h},
                    .cx = (float)clip->x + clip->w / 2.0f + 0.37f,
                    .cy = (float)clip->y + clip->h / 2.0f + 0.61f,
                    .wx = at[k][0],
                    .wy = at[k][1],
                    .scale = 30.0f};
}

/* View k as app_draw paints it: the tiles, else (false) the grass and the
 * track drawn, both inside clip. */
static bool paint_view(AppState *s, int k, bool tiles)
{
    SDL_Rect clip;
    AppXform x;
    big_view(k, &clip, &x);
    SDL_RenderSetClipRect(s->r, &clip);
    bool served = tiles && app_track_tiles(s, &clip, &x);
    if (!served) {
        gfx_fill(s->r, (float)clip.x, (float)clip.y, (float)clip.w, (float)clip.h, PAL_GRASS);
        app_draw_track(s, &x);
    }
    SDL_RenderSetClipRect(s->r, NULL);
    return served;
}

/* One frame of the views in mask (bit k: view k); returns the views the
 * tiles served as a mask. */
static unsigned big_frame(AppState *s, unsigned mask)
{
    app_track_tiles_frame(s);
    unsigned served = 0;
    for (int k = 0; k < 4; k++)
        if (mask >> k & 1u)
            served |= (unsigned)paint_view(s, k, true) << k;
    return served;
}

/* A frame whose views need more tiles than the cache holds: the tiles the
 * frame copied stay (a view that no longer fits is drawn directly), so
 * each tile is drawn once (the frame's renders are exactly the tiles of
 * the views served, counted one view at a time) and the same frame again
 * draws none; the picture is each view's as drawn alone (the tiles of a
 * view served, the direct drawing of one not); when the need falls every
 * view is served again. (The old cache evicted the frame's own
 * tiles: every view served, all 4 views' tiles drawn on every frame.) */
static void frame_keeps_its_tiles(void **state)
{
    TileFix *f = *state;
    app_track_tiles_free(f->s);
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, BIG_W, BIG_H, 32, SDL_PIXELFORMAT_ARGB8888);
    assert_non_null(surf);
    SDL_Renderer *big = SDL_CreateSoftwareRenderer(surf);
    assert_non_null(big);
    f->s->r = big;
    long need[4], total = 0; /* each view's tiles drawn (not grass) and taken (grass too) */
    for (int k = 0; k < 4; k++) {
        app_track_tiles_free(f->s);
        assert_int_equal(big_frame(f->s, 1u << k), 1u << k);
        need[k] = f->s->tiles.renders;
        total += f->s->tiles.n;
        fprintf(stderr, "big frame: view %d takes %d tiles, draws %ld (cap %d)\n", k, f->s->tiles.n, need[k],
                APP_TILE_CAP);
    }
    assert_true(total > APP_TILE_CAP);
    app_track_tiles_free(f->s);
    unsigned served = big_frame(f->s, 15);
    long drawn = 0;
    for (int k = 0; k < 4; k++)
        drawn += served >> k & 1u ? need[k] : 0;
    assert_true(served != 0 && served != 15);
    assert_int_equal(f->s->tiles.renders, drawn);
    for (int i = 0; i < 3; i++) { /* the same frame again: nothing drawn anew, the same views served */
        assert_int_equal(big_frame(f->s, 15), served);
        assert_int_equal(f->s->tiles.renders, drawn);
    }
    SDL_RenderPresent(big);
    size_t bytes = (size_t)surf->pitch * BIG_H, differ = 0;
    Uint8 *frame = malloc(bytes);
    assert_non_null(frame);
    memcpy(frame, surf->pixels, bytes);
    for (int k = 0; k < 4; k++) { /* each view alone: tiled if served, else drawn */
        app_track_tiles_frame(f->s);
        assert_int_equal(paint_view(f->s, k, served >> k & 1u), served >> k & 1u);
    }
    SDL_RenderPresent(big);
    for (size_t at = 0; at < bytes; at += 4)
        differ += memcmp(frame + at, (Uint8 *)surf->pixels + at, 4) != 0;
    free(frame);
    fprintf(stderr, "big frame: views served 0x%x, %zu pixels differ from each view drawn alone\n", served, differ);
    assert_int_equal(differ, 0);
    for (int k = 0; k < 4; k++) /* the need falls to one view a frame: each served */
        assert_int_equal(big_frame(f->s, 1u << k), 1u << k);
    assert_int_equal(big_frame(f->s, 3), 3);
    app_track_tiles_free(f->s);
    f->s->r = f->r;
    SDL_DestroyRenderer(big);
    SDL_FreeSurface(surf);
}

/* Cameras that are not finite, or so far off or so large that the tile
 * range would be astronomical: not served (the caller draws), no tile
 * drawn, no hang; the caller's drawing (app_track_paint) returns too. */
static void broken_cameras_are_not_tiled(void **state)
{
    TileFix *f = *state;
    const double centres[][2] = {{NAN, RING_R}, {0, NAN}, {1e30, RING_R}, {0, -1e30}, {INFINITY, 0}, {1e12, 1e12}};
    const float scales[] = {0.0f, NAN, 1e30f, INFINITY, -8.0f};
    SDL_Rect clip = {0, 0, W, H};
    long renders = f->s->tiles.renders;
    for (size_t i = 0; i < sizeof centres / sizeof centres[0]; i++) {
        AppXform x = camera(centres[i][0], centres[i][1], 8.0f);
        app_track_tiles_frame(f->s);
        assert_false(app_track_tiles(f->s, &clip, &x));
        app_track_paint(f->s, &clip, &x);
        x.cx = NAN; /* the view's own centre */
        x.wx = 0;
        x.wy = RING_R;
        assert_false(app_track_tiles(f->s, &clip, &x));
    }
    for (size_t i = 0; i < sizeof scales / sizeof scales[0]; i++) {
        AppXform x = camera(0.0, RING_R, scales[i]);
        app_track_tiles_frame(f->s);
        assert_false(app_track_tiles(f->s, &clip, &x));
        app_track_paint(f->s, &clip, &x);
    }
    assert_int_equal(f->s->tiles.renders, renders);
    AppXform x = camera(0.0, RING_R, 8.0f); /* a sane camera after them: served */
    draw_tiled(f, &clip, &x);
    assert_true(same_rgb(world_pixel(f, &x, 0, 61), ASPHALT));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tiles_match_the_direct_drawing),
        cmocka_unit_test(tiles_put_the_road_where_the_ring_is),
        cmocka_unit_test(tiles_leave_no_seam),
        cmocka_unit_test(tiles_are_drawn_once_and_capped),
        cmocka_unit_test(thin_edges_never_vanish),
        cmocka_unit_test(views_past_the_edge_draw_their_visible_part),
        cmocka_unit_test(rotated_cameras_are_drawn),
        cmocka_unit_test(frame_keeps_its_tiles),
        cmocka_unit_test(broken_cameras_are_not_tiled),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
