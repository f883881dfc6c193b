/* Draws every picture in assets/ (car sprites, window icon) from shapes in
 * this file and writes them with IMG_SavePNG: the reproducible step behind
 * the folder (nothing is downloaded or drawn by hand).
 *
 *   ./build/make_assets assets      # writes assets/car1.png .. car4.png, icon.png
 *
 * Each pixel is the average of 8 x 8 sub-samples of a stack of shapes
 * (later shapes on top), so edges are anti-aliased and the output depends
 * only on this code: same program, same bytes. Sprites point along +x (the
 * heading 0 of the world) and are 2:1 like the physics' car body (about 2
 * car widths long, 1 wide); the game scales them to the car's size.
 */
#include <SDL.h>
#include <SDL_image.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define SUB 8

typedef struct Rgba {
    double r, g, b, a;
} Rgba;

/* Rounded rectangle centred at (cx, cy), half sizes hx, hy, corner radius rad. */
static bool in_rrect(double x, double y, double cx, double cy, double hx, double hy, double rad)
{
    double dx = fabs(x - cx) - (hx - rad), dy = fabs(y - cy) - (hy - rad);
    if (dx <= 0 || dy <= 0)
        return fabs(x - cx) <= hx && fabs(y - cy) <= hy;
    return dx * dx + dy * dy <= rad * rad;
}

static bool in_ellipse(double x, double y, double cx, double cy, double rx, double ry)
{
    double u = (x - cx) / rx, v = (y - cy) / ry;
    return u * u + v * v <= 1.0;
}

static Rgba rgb(int r, int g, int b)
{
    Rgba c = {r / 255.0, g / 255.0, b / 255.0, 1.0};
    return c;
}

static Rgba shade(Rgba c, double f)
{
    Rgba o = {c.r * f, c.g * f, c.b * f, c.a};
    return o;
}

/* The car in unit coordinates: x in [0, 2] from tail to nose, y in [0, 1]
 * from right to left side. Returns the colour of the topmost shape. */
static Rgba car_at(double x, double y, Rgba paint)
{
    Rgba none = {0, 0, 0, 0};
    Rgba c = none;
    Rgba tyre = rgb(22, 22, 24), dark = rgb(12, 12, 14);
    /* tyres stick out of the body a little */
    if (in_rrect(x, y, 0.45, 0.14, 0.22, 0.13, 0.05) || in_rrect(x, y, 0.45, 0.86, 0.22, 0.13, 0.05) ||
        in_rrect(x, y, 1.50, 0.16, 0.19, 0.12, 0.05) || in_rrect(x, y, 1.50, 0.84, 0.19, 0.12, 0.05))
        c = tyre;
    /* rear wing and front wing */
    if (in_rrect(x, y, 0.10, 0.5, 0.09, 0.46, 0.04))
        c = shade(paint, 0.55);
    if (in_rrect(x, y, 1.86, 0.5, 0.08, 0.42, 0.04))
        c = shade(paint, 0.7);
    /* body: outline, then paint */
    if (in_rrect(x, y, 1.0, 0.5, 0.86, 0.33, 0.16) || in_ellipse(x, y, 1.62, 0.5, 0.34, 0.2))
        c = dark;
    if (in_rrect(x, y, 1.0, 0.5, 0.82, 0.29, 0.14) || in_ellipse(x, y, 1.62, 0.5, 0.31, 0.17))
        c = paint;
    /* a white stripe down the middle, front to back */
    if (fabs(y - 0.5) < 0.05 && x > 0.25 && x < 1.9 && !(in_ellipse(x, y, 0.98, 0.5, 0.27, 0.17)))
        c = rgb(245, 245, 240);
    /* cockpit: dark glass with a highlight, the driver's helmet */
    if (in_ellipse(x, y, 0.98, 0.5, 0.27, 0.17))
        c = rgb(30, 36, 48);
    if (in_ellipse(x, y, 1.08, 0.56, 0.08, 0.05))
        c = rgb(150, 170, 200);
    if (in_ellipse(x, y, 0.9, 0.5, 0.09, 0.09))
        c = rgb(250, 220, 60);
    return c;
}

/* The icon: a dark rounded square, a grey oval track with white edges, the
 * two cars' colours as dots on it. Unit coordinates [0, 1]^2. */
static Rgba icon_at(double x, double y)
{
    Rgba none = {0, 0, 0, 0};
    Rgba c = none;
    if (in_rrect(x, y, 0.5, 0.5, 0.5, 0.5, 0.18))
        c = rgb(40, 110, 50);
    bool outer = in_ellipse(x, y, 0.5, 0.5, 0.40, 0.30), inner = in_ellipse(x, y, 0.5, 0.5, 0.22, 0.12);
    bool outer_e = in_ellipse(x, y, 0.5, 0.5, 0.42, 0.32), inner_e = in_ellipse(x, y, 0.5, 0.5, 0.20, 0.10);
    if (outer_e && !inner_e)
        c = rgb(235, 235, 235);
    if (outer && !inner)
        c = rgb(70, 72, 78);
    if (in_ellipse(x, y, 0.30, 0.77, 0.085, 0.085))
        c = rgb(255, 96, 48);
    if (in_ellipse(x, y, 0.58, 0.79, 0.085, 0.085))
        c = rgb(48, 168, 255);
    return c;
}

typedef Rgba (*Painter)(double x, double y, const void *ctx);

static Rgba paint_car(double x, double y, const void *ctx)
{
    return car_at(x, y, *(const Rgba *)ctx);
}

static Rgba paint_icon(double x, double y, const void *ctx)
{
    (void)ctx;
    return icon_at(x, y);
}

/* w x h pixels covering unit width uw and height uh; premultiplied average
 * of the sub-samples, written straight (not premultiplied) into RGBA. */
static SDL_Surface *draw(int w, int h, double uw, double uh, Painter p, const void *ctx)
{
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_RGBA32);
    if (!s)
        return NULL;
    for (int py = 0; py < h; py++) {
        Uint8 *row = (Uint8 *)s->pixels + py * s->pitch;
        for (int px = 0; px < w; px++) {
            double r = 0, g = 0, b = 0, a = 0;
            for (int sy = 0; sy < SUB; sy++)
                for (int sx = 0; sx < SUB; sx++) {
                    double x = (px + (sx + 0.5) / SUB) * uw / w;
                    /* image rows go down; unit y goes up (left side of the car on top) */
                    double y = uh - (py + (sy + 0.5) / SUB) * uh / h;
                    Rgba c = p(x, y, ctx);
                    r += c.r * c.a;
                    g += c.g * c.a;
                    b += c.b * c.a;
                    a += c.a;
                }
            double n = SUB * SUB;
            Uint8 *o = row + 4 * px;
            o[3] = (Uint8)lround(a / n * 255.0);
            o[0] = a > 0 ? (Uint8)lround(r / a * 255.0) : 0;
            o[1] = a > 0 ? (Uint8)lround(g / a * 255.0) : 0;
            o[2] = a > 0 ? (Uint8)lround(b / a * 255.0) : 0;
        }
    }
    return s;
}

static int save(SDL_Surface *s, const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!s || IMG_SavePNG(s, path) != 0) {
        fprintf(stderr, "make_assets: cannot write %s: %s\n", path, SDL_GetError());
        SDL_FreeSurface(s);
        return 1;
    }
    printf("make_assets: %s (%dx%d)\n", path, s->w, s->h);
    SDL_FreeSurface(s);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: make_assets DIR\n");
        return 2;
    }
    const char *dir = argv[1];
    /* the window's car colours (pal_car in src/app/palette.h): play's
     * four seats */
    Rgba col[4] = {rgb(255, 96, 48), rgb(48, 168, 255), rgb(110, 230, 60), rgb(230, 70, 220)};
    int rc = 0;
    for (int c = 0; c < 4; c++) {
        char name[16];
        snprintf(name, sizeof name, "car%d.png", c + 1);
        rc |= save(draw(128, 64, 2.0, 1.0, paint_car, &col[c]), dir, name);
    }
    rc |= save(draw(64, 64, 1.0, 1.0, paint_icon, NULL), dir, "icon.png");
    return rc;
}
