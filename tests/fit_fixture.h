/* The fit tests' canvas (test_fit.c, test_fit_net.c): the sizes of
 * projectors and laptops every layout is drawn at, one memory surface as
 * large as the largest, a viewport of each size on it. */
#ifndef NR_FIT_FIXTURE_H
#define NR_FIT_FIXTURE_H

#include "gfx.h"

#include <stdlib.h>

typedef struct Size {
    int w, h;
    double scale;
} Size;

/* Projectors (1024x768, 1024x576), a 720p laptop, halves of a 1920x1080
 * display (960x540, and 960x1080 where Tab puts the game and the overview
 * side by side), full HD; larger text on 720p and 768p (up to the cap of
 * gfx_base_px), smaller on 540p. */
static const Size fit_sizes[] = {
    {1024, 768, 1.0}, {1280, 720, 1.0}, {1920, 1080, 1.0}, {960, 540, 1.0}, {960, 1080, 1.0},
    {1024, 576, 1.0}, {1280, 720, 1.5}, {1024, 768, 1.25}, {1280, 720, 3.0}, {1920, 1080, 2.0}, {960, 540, 0.5},
};
enum { NSIZES = (int)(sizeof fit_sizes / sizeof fit_sizes[0]) };

/* One surface as large as the largest size; each size draws into a
 * viewport of its own at the top left (the audit's window is the viewport). */
typedef struct Canvas {
    SDL_Surface *surf;
    SDL_Renderer *r;
} Canvas;

static inline SDL_Renderer *canvas_at(Canvas *c, const Size *z)
{
    SDL_Rect vp = {0, 0, z->w, z->h};
    SDL_RenderSetViewport(c->r, &vp);
    return c->r;
}

static inline int fit_setup(void **state)
{
    if (TTF_Init() != 0 || SDL_Init(SDL_INIT_VIDEO | SDL_INIT_GAMECONTROLLER | SDL_INIT_EVENTS) != 0)
        return -1;
    Canvas *c = calloc(1, sizeof *c);
    c->surf = SDL_CreateRGBSurfaceWithFormat(0, 1920, 1080, 32, SDL_PIXELFORMAT_ARGB8888);
    c->r = c->surf ? SDL_CreateSoftwareRenderer(c->surf) : NULL;
    *state = c;
    return c->r ? 0 : -1;
}

static inline int fit_teardown(void **state)
{
    Canvas *c = *state;
    SDL_DestroyRenderer(c->r);
    SDL_FreeSurface(c->surf);
    free(c);
    SDL_Quit();
    TTF_Quit();
    return 0;
}

#endif
