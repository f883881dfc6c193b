/* Reading back what a test drew on a software renderer's surface: one
 * pixel's colour, and colours compared without their alpha. */
#ifndef NR_TEST_PIXELS_H
#define NR_TEST_PIXELS_H

#include <SDL.h>
#include <stdbool.h>

static inline SDL_Color pixel_at(SDL_Surface *s, int x, int y)
{
    Uint32 v = ((Uint32 *)((Uint8 *)s->pixels + y * s->pitch))[x];
    SDL_Color c;
    SDL_GetRGBA(v, s->format, &c.r, &c.g, &c.b, &c.a);
    return c;
}

static inline bool same_rgb(SDL_Color a, SDL_Color b)
{
    return a.r == b.r && a.g == b.g && a.b == b.b;
}

#endif
