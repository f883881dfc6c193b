/* The driving screens' instruments drawn (drivewidgets.c, software
 * renderer): the off-screen arrows and their labels (clear of the
 * speedometer and of a message box, a pulled-back arrow's label stepped
 * along its edge) and the speedometer's radius kept per size and scale. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivehud.h"

static bool rects_overlap(const SDL_FRect *a, const SDL_FRect *b)
{
    return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

/* A state that draws text (the dial's numbers) on a w x h surface at a
 * base of 20 px; text_state_free releases it. */
static SDL_Surface *text_state(AppState *v, int w, int h)
{
    char font[512];
    assert_int_equal(TTF_Init(), 0);
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
    v->r = SDL_CreateSoftwareRenderer(surf);
    assert_true(gfx_pick_font(NULL, font, sizeof font));
    gfx_init(&v->gfx, v->r, font);
    v->lay.base = 20;
    gfx_set_scale(&v->gfx, 20);
    return surf;
}

static void text_state_free(AppState *v, SDL_Surface *surf)
{
    gfx_free(&v->gfx);
    SDL_DestroyRenderer(v->r);
    SDL_FreeSurface(surf);
    TTF_Quit();
}

/* An arrow's label keeps clear of what is in taken: a car 400 px left of
 * and 300 px below the centre of a 960 x 540 view leaves the inset on its
 * bottom edge at x = 480 - 400 * 258 / 300 = 136, where the speedometer
 * (bottom left, 140 px across) is; with the dial taken the label steps
 * along the edge off it (the speedometer, drawn after the arrows, hid the
 * label's start before). */
static void arrow_label_clear_of_the_speedometer(void **state)
{
    (void)state;
    static AppState v;
    SDL_Surface *surf = text_state(&v, 960, 540);
    SDL_FRect rect = {0, 0, 960, 540}, inset = {12, 12, 936, 516}, dial, taken[3];
    AppXform x = {.rect = rect, .cx = 480, .cy = 270, .scale = 10};
    Pose other = {.x = -40, .y = -30};
    assert_true(drivewidget_speedo_rect(&v, &rect, &dial));
    int n = 0;
    assert_true(drivewidget_arrow(&v, &x, &inset, 0, &other, 1, "P2 1.3 s behind", taken, &n, 3));
    assert_int_equal(n, 2); /* the arrow's box, the label's */
    assert_true(rects_overlap(&taken[0], &dial)); /* nothing taken: both would sit on the dial */
    assert_true(rects_overlap(&taken[1], &dial));
    assert_false(rects_overlap(&taken[1], &taken[0])); /* the label beside its arrow, not over it */
    taken[0] = dial;
    n = 1;
    assert_true(drivewidget_arrow(&v, &x, &inset, 0, &other, 1, "P2 1.3 s behind", taken, &n, 3));
    assert_int_equal(n, 3);
    assert_false(rects_overlap(&taken[1], &dial));
    assert_false(rects_overlap(&taken[2], &dial));
    assert_false(rects_overlap(&taken[2], &taken[1]));
    assert_true(taken[2].x >= inset.x - 3 && taken[2].x + taken[2].w <= inset.x + inset.w + 3);
    text_state_free(&v, surf);
}

/* The dial's square from the radius worked out for the rect's size. */
static void assert_speedo_is_computed(AppState *v, const SDL_FRect *rect, const SDL_FRect *box)
{
    int searches = v->speedo_searches;
    float rad = drivewidget_speedo_radius(v, rect->w, rect->h), pad = floorf((float)v->lay.base * 0.5f);
    v->speedo_searches = searches; /* that search was the test's */
    assert_true(rad >= 36);
    assert_true(box->w == 2 * rad && box->h == 2 * rad);
    assert_true(box->x == rect->x + pad && box->y == rect->y + rect->h - pad - 2 * rad);
}

/* The speedometer's radius is searched once per room size and text scale,
 * not on every call (each screen asked up to four times a frame), and the
 * kept answer is the one worked out: the four screens of a 2 x 2 grid at
 * 1024x768 over ten frames, resized to 1920x1080's cells, at a text scale
 * of 1.5 (base 30), then back to the earlier ones (each step's radius
 * differs from the one before, so an answer kept under the wrong key
 * shows). */
static void speedo_radius_kept_per_size_and_scale(void **state)
{
    (void)state;
    static AppState v;
    SDL_Surface *surf = text_state(&v, 1280, 720);
    SDL_FRect box, small[4] = {{0, 0, 512, 384}, {512, 0, 512, 384}, {0, 384, 512, 384}, {512, 384, 512, 384}};
    for (int frame = 0; frame < 10; frame++)
        for (int j = 0; j < 4; j++)
            for (int ask = 0; ask < 4; ask++) {
                assert_true(drivewidget_speedo_rect(&v, &small[j], &box));
                assert_speedo_is_computed(&v, &small[j], &box);
            }
    assert_int_equal(v.speedo_searches, 1);
    float rad_small = box.w / 2;
    SDL_FRect cell = {960, 540, 960, 540};
    assert_true(drivewidget_speedo_rect(&v, &cell, &box));
    assert_speedo_is_computed(&v, &cell, &box);
    assert_int_equal(v.speedo_searches, 2);
    float rad_cell = box.w / 2;
    assert_true(rad_cell != rad_small); /* a cache keyed on nothing would keep the first */
    v.lay.base = 30;
    gfx_set_scale(&v.gfx, 30);
    assert_true(drivewidget_speedo_rect(&v, &cell, &box));
    assert_speedo_is_computed(&v, &cell, &box);
    assert_int_equal(v.speedo_searches, 3);
    assert_true(box.w / 2 != rad_cell); /* larger text: larger numbers, a larger dial to carry them */
    v.lay.base = 20;
    gfx_set_scale(&v.gfx, 20);
    for (int j = 0; j < 4; j++) {
        assert_true(drivewidget_speedo_rect(&v, &small[j], &box));
        assert_speedo_is_computed(&v, &small[j], &box);
    }
    assert_true(drivewidget_speedo_rect(&v, &cell, &box));
    assert_speedo_is_computed(&v, &cell, &box);
    assert_int_equal(v.speedo_searches, 3); /* both still kept */
    SDL_FRect narrow = {0, 0, 119, 400};
    assert_false(drivewidget_speedo_rect(&v, &narrow, &box));
    assert_int_equal(v.speedo_searches, 3);
    text_state_free(&v, surf);
}

/* Pixels of colour c inside r (the surface is ARGB8888). */
static int pixels_in(SDL_Surface *surf, const SDL_FRect *r, SDL_Color c)
{
    Uint32 want = SDL_MapRGB(surf->format, c.r, c.g, c.b) | 0xff000000u;
    int n = 0;
    for (int y = (int)r->y; y < (int)(r->y + r->h); y++)
        for (int x = (int)r->x; x < (int)(r->x + r->w); x++)
            n += (((Uint32 *)((Uint8 *)surf->pixels + y * surf->pitch))[x] | 0xff000000u) == want;
    return n;
}

/* An arrow keeps its triangle off a message box: a car 400 px straight
 * below the centre of a 960 x 540 view leaves the inset at (480, 528), in
 * the box across the bottom centre; the arrow is pulled back up its line,
 * still drawn, none of its pixels in the box (its tip was in it before). */
static void arrow_keeps_off_the_message(void **state)
{
    (void)state;
    static AppState v;
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, 960, 540, 32, SDL_PIXELFORMAT_ARGB8888);
    v.r = SDL_CreateSoftwareRenderer(surf);
    v.lay.base = 20;
    SDL_FRect rect = {0, 0, 960, 540}, inset = {12, 12, 936, 516}, box = {380, 470, 200, 60}, taken[2] = {box};
    AppXform x = {.rect = rect, .cx = 480, .cy = 270, .scale = 10};
    Pose other = {.x = 0, .y = -40};
    SDL_SetRenderDrawColor(v.r, 0, 0, 0, 255);
    SDL_RenderClear(v.r);
    int n = 1;
    assert_true(drivewidget_arrow(&v, &x, &inset, 0, &other, 1, NULL, taken, &n, 2));
    SDL_RenderFlush(v.r);
    assert_int_equal(pixels_in(surf, &box, pal_car(1)), 0);
    /* drawn whole: a triangle 35.2 px long (1.6 x 22) on a 35.2 px base, about 620 px */
    assert_true(pixels_in(surf, &rect, pal_car(1)) > 500);
    SDL_DestroyRenderer(v.r);
    SDL_FreeSurface(surf);
}

/* Two cars straight below the centre of a 960 x 540 view (5 px apart)
 * leave the inset on its bottom edge inside a message box across the
 * bottom centre: the first arrow is pulled back up off the box, the second
 * up off the box, the first arrow and its label (issue 22's trial D4); each
 * label clear of the box, both arrows and the other label. (The edge an
 * arrow came from is read before its pull-back, so a label that must step
 * steps along that edge.) */
static void pulled_back_label_steps_along_its_edge(void **state)
{
    (void)state;
    static AppState v;
    SDL_Surface *surf = text_state(&v, 960, 540);
    SDL_FRect rect = {0, 0, 960, 540}, inset = {12, 12, 936, 516}, box = {380, 470, 200, 60}, taken[5];
    AppXform x = {.rect = rect, .cx = 480, .cy = 270, .scale = 10};
    Pose a = {.x = 0, .y = -40}, b = {.x = 0.5, .y = -40};
    int n = 0;
    taken[n++] = box; /* drivehud_draw takes the message box first */
    assert_true(drivewidget_arrow(&v, &x, &inset, 0, &a, 1, "P2 0.4 s behind", taken, &n, 5));
    assert_true(drivewidget_arrow(&v, &x, &inset, 0, &b, 2, "P3 0.5 s behind", taken, &n, 5));
    assert_int_equal(n, 5); /* the box, arrow and label, arrow and label */
    assert_true(taken[2].y + taken[2].h < box.y); /* the first label above the box, with its arrow */
    for (int i = 0; i < 5; i++)
        for (int k = 0; k < 5; k++)
            if (i != k && (i == 2 || i == 4))
                assert_false(rects_overlap(&taken[i], &taken[k]));
    assert_true(taken[3].y + taken[3].h <= taken[1].y + 0.01f); /* the second arrow above the first */
    text_state_free(&v, surf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(arrow_label_clear_of_the_speedometer),
        cmocka_unit_test(speedo_radius_kept_per_size_and_scale),
        cmocka_unit_test(arrow_keeps_off_the_message),
        cmocka_unit_test(pulled_back_label_steps_along_its_edge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
