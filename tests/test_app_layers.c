/* The replay window's layers kept between frames (the track tiles and
 * layer, the charts, the control bar) stay true to what they show: a
 * chart shows a new focus on the frame that brings it, samples or not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "app_fixture.h"

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
        cmocka_unit_test(charts_show_a_new_focus_at_once),
    };
    return cmocka_run_group_tests(tests, app_fixture_setup, app_fixture_teardown);
}
