/* The window's layers in an X11 window's own pixel format (RGB888,
 * app_screen_format): the track layer, the track tiles and the charts' and
 * bars' layers are made in the window's format and copied to it as they
 * are. The other tests draw on a memory surface (ARGB8888); here the
 * replay window is drawn into a window of SDL's dummy video driver, whose
 * pixels are RGB888, and the frame must be the one the ARGB8888 path draws
 * (the same race, the same instant) and the one drawn without the layers,
 * with the grass and the road where the ring race puts them.
 * SDL's software renderer picks another default line method for a
 * window's surface than for a memory surface (the charts' lines then
 * differ by a pixel here and there, whatever the pixel format): both are
 * made with the geometry method (SDL_HINT_RENDER_LINE_METHOD 2) so that
 * only the pixel format differs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "app_fixture.h"

#define W 1280
#define H 720

/* The renderer's frame as 0xRRGGBB per pixel (malloc'd). */
static uint32_t *frame_rgb(SDL_Renderer *r)
{
    uint32_t *px = malloc((size_t)W * H * 4);
    assert_non_null(px);
    assert_int_equal(SDL_RenderReadPixels(r, NULL, SDL_PIXELFORMAT_ARGB8888, px, W * 4), 0);
    for (size_t i = 0; i < (size_t)W * H; i++)
        px[i] &= 0xffffffu;
    return px;
}

static size_t pixels_differ(const uint32_t *a, const uint32_t *b)
{
    size_t n = 0;
    for (size_t i = 0; i < (size_t)W * H; i++)
        n += a[i] != b[i];
    return n;
}

/* The fixture's state drawn at one instant, through the layers or not. */
static uint32_t *draw(AppState *s, SDL_Renderer *r, bool layers)
{
    s->no_layers = !layers;
    s->paused = true; /* every gauge string current */
    s->focus = -1;
    app_draw(s, W, H);
    app_draw(s, W, H); /* a layer made on the first frame is kept on the second */
    uint32_t *px = frame_rgb(r);
    s->no_layers = false;
    return px;
}

static void rgb888_window_draws_the_argb_picture(void **state)
{
    Fixture *f = *state;
    /* a second window state over the fixture's replay, made as the
     * fixture's was (at the race's start: the charts keep what they saw) */
    assert_int_equal(SDL_InitSubSystem(SDL_INIT_VIDEO), 0);
    SDL_Window *win = SDL_CreateWindow("rgb888", 0, 0, W, H, SDL_WINDOW_HIDDEN);
    assert_non_null(win);
    SDL_Renderer *r = SDL_CreateRenderer(win, -1, SDL_RENDERER_SOFTWARE);
    assert_non_null(r);
    assert_int_equal(app_screen_format(r), SDL_PIXELFORMAT_RGB888); /* the path under test */
    AppState *s = calloc(1, sizeof *s);
    AppConfig cfg = app_config_default();
    cfg.replay = f->rp;
    NrError err = {{0}};
    assert_true(app_state_init(s, f->rp, &cfg, r, &err));
    replay_step_to(f->rp, 7 * NR_US_PER_S);
    assert_int_equal(app_screen_format(f->r), SDL_PIXELFORMAT_ARGB8888); /* a memory surface */
    uint32_t *argb = draw(f->s, f->r, true);
    uint32_t *rgb = draw(s, r, true);
    assert_non_null(s->track_layer.layer.tex);
    Uint32 fmt = 0;
    assert_int_equal(SDL_QueryTexture(s->track_layer.layer.tex, &fmt, NULL, NULL, NULL), 0);
    assert_int_equal(fmt, SDL_PIXELFORMAT_RGB888); /* the layer in the window's format */
    assert_non_null(s->chart_layer[0].tex);
    assert_int_equal(SDL_QueryTexture(s->chart_layer[0].tex, &fmt, NULL, NULL, NULL), 0);
    assert_int_equal(fmt, SDL_PIXELFORMAT_RGB888); /* the charts' too */
    uint32_t *direct = draw(s, r, false);

    size_t paths = pixels_differ(argb, rgb), layers = pixels_differ(rgb, direct);
    if (paths != 0 || layers > 40) /* 40: test_app's slack of line rasterisation, layers or not */
        fail_msg("RGB888 window: %zu pixels differ from the ARGB8888 frame, %zu from the frame without layers",
                 paths, layers);
    /* by hand: the ring (radius 60 cw, road 8 cw wide) round the origin;
     * halfway between the cars (car 1 at s = 90 cw at 7 s, car 2 at 130),
     * 1.2 cw out of the centre line (off its marks), the asphalt; 8 cw
     * out, the grass; in P1's screen of the first scheme */
    AppXform x;
    app_view_xform(s, 0, 0, &x);
    float rx, ry, gx, gy;
    double tx, ty, th;
    track_point(f->track, 20.0 + 10.0 * 7.0 + 20.0, &tx, &ty, &th);
    app_world_to_px(&x, tx * 61.2 / 60.0, ty * 61.2 / 60.0, &rx, &ry);
    app_world_to_px(&x, tx * 68.0 / 60.0, ty * 68.0 / 60.0, &gx, &gy);
    assert_true(rx >= x.rect.x && rx < x.rect.x + x.rect.w && ry >= x.rect.y && ry < x.rect.y + x.rect.h);
    assert_true(gx >= x.rect.x && gx < x.rect.x + x.rect.w && gy >= x.rect.y && gy < x.rect.y + x.rect.h);
    SDL_Color road = PAL_ASPHALT, grass = PAL_GRASS;
    uint32_t want_road = (uint32_t)road.r << 16 | (uint32_t)road.g << 8 | road.b;
    uint32_t want_grass = (uint32_t)grass.r << 16 | (uint32_t)grass.g << 8 | grass.b;
    assert_int_equal(rgb[(int)ry * W + (int)rx], want_road);
    assert_int_equal(rgb[(int)gy * W + (int)gx], want_grass);
    free(argb);
    free(rgb);
    free(direct);
    app_state_free(s);
    free(s);
    SDL_DestroyRenderer(r);
    SDL_DestroyWindow(win);
}

int main(void)
{
    SDL_SetHint(SDL_HINT_RENDER_LINE_METHOD, "2"); /* before the fixture's renderer is made */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rgb888_window_draws_the_argb_picture),
    };
    return cmocka_run_group_tests(tests, app_fixture_setup, app_fixture_teardown);
}
