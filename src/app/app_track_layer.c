/* The track under the views kept between frames: a window-sized layer into
 * which each view's track is drawn with its own screen coordinates, redrawn
 * only when that view's camera changes (app_internal.h, app_track_layer). */
#include "app_paint.h"

#include <string.h>

/* Whether two cameras give the same pixels: every field the drawing reads,
 * compared bit for bit (a float that moved by one ulp is a new camera). */
static bool same_camera(const AppXform *a, const AppXform *b)
{
    if (memcmp(&a->rect, &b->rect, sizeof a->rect) != 0 || memcmp(&a->cx, &b->cx, sizeof a->cx) != 0 ||
        memcmp(&a->cy, &b->cy, sizeof a->cy) != 0 || memcmp(&a->wx, &b->wx, sizeof a->wx) != 0 ||
        memcmp(&a->wy, &b->wy, sizeof a->wy) != 0 || memcmp(&a->scale, &b->scale, sizeof a->scale) != 0 ||
        a->rotated != b->rotated)
        return false;
    return !a->rotated || (memcmp(&a->rot, &b->rot, sizeof a->rot) == 0 &&
                           memcmp(&a->rot_cos, &b->rot_cos, sizeof a->rot_cos) == 0 &&
                           memcmp(&a->rot_sin, &b->rot_sin, sizeof a->rot_sin) == 0);
}

static bool same_rect(const SDL_Rect *a, const SDL_Rect *b)
{
    return a->x == b->x && a->y == b->y && a->w == b->w && a->h == b->h;
}

Uint32 app_screen_format(SDL_Renderer *r)
{
    SDL_Window *win = SDL_RenderGetWindow(r);
    Uint32 f = win ? SDL_GetWindowPixelFormat(win) : SDL_PIXELFORMAT_UNKNOWN;
    return f == SDL_PIXELFORMAT_RGB888 || f == SDL_PIXELFORMAT_ARGB8888 ? f : SDL_PIXELFORMAT_ARGB8888;
}

/* The layer for an output of w x h pixels; every slot forgotten when it is
 * made anew. NULL if the renderer has no target textures. */
static SDL_Texture *layer_for(AppState *s, int w, int h)
{
    AppTrackLayer *L = &s->track_layer;
    if (!app_layer_size(s, &L->layer, w, h))
        return NULL;
    if (L->layer.key == 0) { /* made anew */
        L->layer.key = 1;
        L->nslots = 0;
        L->next = 0;
        SDL_SetTextureBlendMode(L->layer.tex, SDL_BLENDMODE_NONE); /* opaque pixels copied as they are */
    }
    return L->layer.tex;
}

/* The slot for clip, or a new one (taking the slots in turn when all are
 * taken). Every other slot whose clip meets this one is forgotten: its
 * pixels are about to go. */
static AppTrackSlot *slot_for(AppTrackLayer *L, const SDL_Rect *clip)
{
    for (int i = 0; i < L->nslots; i++)
        if (same_rect(&L->slot[i].clip, clip))
            return &L->slot[i];
    for (int i = 0; i < L->nslots;) {
        if (SDL_HasIntersection(&L->slot[i].clip, clip))
            L->slot[i] = L->slot[--L->nslots];
        else
            i++;
    }
    AppTrackSlot *slot;
    if (L->nslots < APP_TRACK_SLOTS) {
        slot = &L->slot[L->nslots++];
    } else {
        slot = &L->slot[L->next];
        L->next = (L->next + 1) % APP_TRACK_SLOTS;
    }
    memset(slot, 0, sizeof *slot);
    slot->clip = *clip;
    return slot;
}

/* Draws x's track into the layer inside clip; false (the screen is the
 * target again) if the renderer refuses the layer. */
static bool layer_draw(AppState *s, SDL_Texture *tex, const SDL_Rect *clip, const AppXform *x)
{
    if (SDL_SetRenderTarget(s->r, tex) != 0) {
        SDL_SetRenderTarget(s->r, NULL);
        s->track_layer.nslots = 0;
        return false;
    }
    /* the layer's pixels are the screen's: the same clip, the same
     * coordinates, so the same triangles land on the same pixels */
    SDL_RenderSetClipRect(s->r, clip);
    app_track_paint(s, clip, x);
    SDL_RenderSetClipRect(s->r, NULL);
    SDL_SetRenderTarget(s->r, NULL); /* the screen's clip comes back with it */
    return true;
}

/* A view whose camera moves on every frame (the game's while the car
 * drives) would pay the layer's copy for nothing: when its camera moved on
 * this visit and the two before, its track is drawn on the screen (false)
 * and the camera only noted; the layer takes it again on the first visit
 * that finds the camera where it was (paused, on the grid). The overview
 * draws each race instant twice, or once where a 33 ms sample falls between
 * two frames: two moves in a row stay in the layer. */
bool app_track_layer(AppState *s, const SDL_Rect *clip, const AppXform *x)
{
    int w = 0, h = 0;
    if (s->no_layers || SDL_GetRenderTarget(s->r) || SDL_GetRendererOutputSize(s->r, &w, &h) != 0 || clip->w <= 0 ||
        clip->h <= 0 || clip->x < 0 || clip->y < 0 || clip->x + clip->w > w || clip->y + clip->h > h)
        return false;
    SDL_Texture *tex = layer_for(s, w, h);
    if (!tex)
        return false;
    AppTrackSlot *slot = slot_for(&s->track_layer, clip);
    bool same = same_camera(&slot->x, x);
    if (slot->held && same) {
        slot->moves = 0;
    } else {
        bool direct = !same && slot->moves >= 2; /* moved on this visit and the two before */
        slot->moves = !same ? (slot->moves < 2 ? slot->moves + 1 : 2) : 0;
        slot->x = *x;
        slot->held = false;
        if (direct || !layer_draw(s, tex, clip, x))
            return false;
        slot->held = true;
    }
    SDL_RenderCopy(s->r, tex, clip, clip);
    return true;
}

void app_track_paint(AppState *s, const SDL_Rect *clip, const AppXform *x)
{
    if (app_track_tiles(s, clip, x))
        return;
    gfx_fill(s->r, (float)clip->x, (float)clip->y, (float)clip->w, (float)clip->h, PAL_GRASS);
    app_draw_track(s, x);
}

void app_track_layer_free(AppState *s)
{
    if (s->track_layer.layer.tex)
        SDL_DestroyTexture(s->track_layer.layer.tex);
    memset(&s->track_layer, 0, sizeof s->track_layer);
}
