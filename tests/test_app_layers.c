/* The replay window's layers kept between frames (the track tiles and
 * layer, the charts, the control bar) stay true to what they show: a
 * renderer that lost its textures' pixels (SDL_RENDER_TARGETS_RESET,
 * SDL_RENDER_DEVICE_RESET, through the window loop's own dispatch) gets
 * every one drawn again, and a chart shows a new focus on the frame that
 * brings it, samples or not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "app_fixture.h"
#include "winloop.h"

static const SDL_Color LOST = {255, 0, 255, 255};

/* What some drivers leave in a target texture after a reset: anything; here
 * a colour the window never draws. */
static void lose_pixels(SDL_Renderer *r, SDL_Texture *tex)
{
    if (!tex)
        return;
    assert_int_equal(SDL_SetRenderTarget(r, tex), 0);
    SDL_SetRenderDrawColor(r, LOST.r, LOST.g, LOST.b, 255);
    SDL_RenderClear(r);
    SDL_SetRenderTarget(r, NULL);
}

static void lose_every_target(AppState *s)
{
    for (int e = 0; e < APP_TILE_CAP; e++)
        lose_pixels(s->r, s->tiles.tile[e].tex);
    lose_pixels(s->r, s->track_layer.layer.tex);
    lose_pixels(s->r, s->chart_layer[0].tex);
    lose_pixels(s->r, s->chart_layer[1].tex);
    lose_pixels(s->r, s->bar_layer.tex);
}

/* One frame of the replay window's loop (its events, the paused race, the
 * drawing through the layers), then the same frame drawn directly: the
 * pixels that differ. */
static size_t loop_frame_differs(Fixture *f)
{
    WinLoop L = {.r = f->r, .fixed_dt_us = 16667};
    WinScreen scr = app_screen(f->s);
    assert_true(winloop_frame(&L, &scr, false));
    size_t bytes = (size_t)f->surf->pitch * (size_t)f->surf->h, differ = 0;
    Uint8 *looped = malloc(bytes);
    assert_non_null(looped);
    memcpy(looped, f->surf->pixels, bytes);
    f->s->no_layers = true;
    app_draw(f->s, 1280, 720);
    SDL_RenderPresent(f->r);
    f->s->no_layers = false;
    for (size_t i = 0; i < bytes; i += 4)
        differ += memcmp(looped + i, (Uint8 *)f->surf->pixels + i, 4) != 0;
    free(looped);
    return differ;
}

/* Each reset event pushed on SDL's queue and read by the window loop: the
 * layers and tiles whose pixels were lost are drawn again on that frame
 * (without it the frame copies the lost colour: every view, both charts,
 * the bar); a device reset frees the labels' textures too. */
static void render_resets_draw_the_layers_again(void **state)
{
    Fixture *f = *state;
    const Uint32 resets[2] = {SDL_RENDER_TARGETS_RESET, SDL_RENDER_DEVICE_RESET};
    replay_step_to(f->rp, 5 * NR_US_PER_S);
    f->s->focus = -1;
    f->s->paused = true; /* nothing moves: every layer would be copied as it is */
    for (int i = 0; i < 2; i++) {
        assert_true(loop_frame_differs(f) < LAYER_PIXEL_SLACK); /* fills every layer */
        assert_true(f->s->tiles.n > 0 && f->s->track_layer.layer.tex && f->s->chart_layer[0].tex &&
                    f->s->chart_layer[1].tex && f->s->bar_layer.tex);
        lose_every_target(f->s);
        SDL_Event ev = {.type = resets[i]};
        assert_int_equal(SDL_PushEvent(&ev), 1);
        size_t differ = loop_frame_differs(f);
        fprintf(stderr, "after event 0x%x: %zu pixels differ from the direct drawing\n", resets[i], differ);
        assert_true(differ < LAYER_PIXEL_SLACK);
        assert_true(f->s->tiles.renders > 0); /* the tiles drawn anew, not the lost ones copied */
        if (resets[i] == SDL_RENDER_DEVICE_RESET && f->s->gfx.has_font) {
            int labels = 0;
            for (int k = 0; k < GFX_TEXT_CACHE; k++)
                labels += f->s->gfx.cache[k].tex != NULL;
            assert_true(labels > 0); /* made again by the frame */
        }
    }
    /* an event that is no reset changes nothing */
    SDL_Event other = {.type = SDL_USEREVENT};
    assert_false(app_render_reset(f->s, &other));
    assert_non_null(f->s->track_layer.layer.tex);
    f->s->paused = false;
}

/* The pixels of both charts that differ between a frame drawn through the
 * layers (the one that brings whatever changed) and the same drawn
 * directly. */
static size_t charts_differ(Fixture *f)
{
    Uint8 *layered = frame_both_ways(f);
    size_t differ = 0;
    for (int pass = 0; pass < 2; pass++) {
        const SDL_FRect *a = &f->s->lay.chart[pass];
        for (int y = (int)a->y; y < (int)(a->y + a->h); y++)
            for (int x = (int)a->x; x < (int)(a->x + a->w); x++) {
                size_t at = (size_t)y * (size_t)f->surf->pitch + 4 * (size_t)x;
                differ += memcmp(layered + at, (Uint8 *)f->surf->pixels + at, 4) != 0;
            }
    }
    free(layered);
    return differ;
}

/* A new focus on a frame that also brings new samples (the frame on which
 * a chart's redraw for its history alone waits a frame) shows on that
 * frame: the charts equal the direct drawing's, from one focused scheme to
 * another and from the overview to a scheme and back. (Before, the chart
 * kept the old focus's highlight for one frame: hundreds of pixels.) */
static void charts_show_a_new_focus_at_once(void **state)
{
    Fixture *f = *state;
    const int focus[] = {0, 1, 4, -1, 2, -1};
    f->s->focus = focus[0];
    replay_step_to(f->rp, 6 * NR_US_PER_S);
    app_draw(f->s, 1280, 720);
    app_draw(f->s, 1280, 720); /* no new sample: every chart current */
    for (size_t i = 1; i < sizeof focus / sizeof focus[0]; i++) {
        replay_step_to(f->rp, (int64_t)(6 * NR_US_PER_S + 200000 * (int64_t)i)); /* 6 samples a scheme */
        f->s->focus = focus[i];
        size_t differ = charts_differ(f);
        fprintf(stderr, "focus %d -> %d on a sample frame: %zu chart pixels differ\n", focus[i - 1], focus[i],
                differ);
        assert_true(differ < LAYER_PIXEL_SLACK);
    }
    /* the history alone still waits a frame (202f61a): the same focus, new samples */
    uint64_t key = f->s->chart_layer[0].key;
    replay_step_to(f->rp, 7 * NR_US_PER_S + 500000);
    app_draw(f->s, 1280, 720);
    assert_true(f->s->chart_layer[0].key == key);
    app_draw(f->s, 1280, 720);
    assert_true(f->s->chart_layer[0].key != key);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(render_resets_draw_the_layers_again),
        cmocka_unit_test(charts_show_a_new_focus_at_once),
    };
    return cmocka_run_group_tests(tests, app_fixture_setup, app_fixture_teardown);
}
