/* The lagometer strip (src/app/lagometer.c) drawn on a software renderer:
 * each fate's column where and as tall as worked out by hand from the
 * strip's geometry (lagometer.h), the predicted band, the marks; and the
 * replay window's strips in each terminal's screen, which show that
 * terminal's fates (F2 toggles them), with the recording's marks on the
 * strip and on the charts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "app_internal.h"
#include "lagometer.h"
#include "race_fixture.h"

static SDL_Color pixel(SDL_Surface *s, int x, int y)
{
    Uint32 v = ((Uint32 *)s->pixels)[y * (s->pitch / 4) + x];
    SDL_Color c;
    SDL_GetRGBA(v, s->format, &c.r, &c.g, &c.b, &c.a);
    return c;
}

static bool same(SDL_Color a, SDL_Color b)
{
    return a.r == b.r && a.g == b.g && a.b == b.b;
}

static int count(SDL_Surface *s, SDL_FRect r, SDL_Color c)
{
    int n = 0;
    for (int y = (int)r.y; y < (int)(r.y + r.h); y++)
        for (int x = (int)r.x; x < (int)(r.x + r.w); x++)
            n += same(pixel(s, x, y), c);
    return n;
}

/* A strip of 600 x 200 px without text (no font): the plot runs from x = 1
 * over 598 px for the 5 s before now = 5 s; the band is 14 % of the 198 px
 * between the frame's lines (27.72 px from y = 1), the delay plot from
 * y = 29.72 to 199 (169.28 px) on a 200 ms scale (the tallest column, 150
 * ms, and Delta, 100 ms, need more than 100 ms). */
#define X_OF(t_us) (1.0 + (double)(t_us) * 598.0 / 5e6)
#define Y_OF(v_us) (199.0 - (double)(v_us) / 200000.0 * 169.28)

static void strip_columns_by_hand(void **state)
{
    (void)state;
    GfxOffscreen o;
    NrError err;
    assert_true(gfx_offscreen_open(&o, 600, 200, "test", &err));
    Gfx g;
    gfx_init(&g, o.r, NULL); /* no text: the picture alone */
    LagEvent ev[16];
    LagRing ring;
    lagring_init(&ring, ev, 16);
    Mu mu = {.car = 1, .kind = MU_UPDATE};
    mu.seq = 30; /* at 0.99 s, 60 ms, on time */
    lagring_arrival(&ring, &mu, 990000 + 60000, 60000, 0, RX_USED, 0);
    mu.seq = 60; /* at 1.98 s, 40 ms, held 60 ms */
    lagring_arrival(&ring, &mu, 1980000 + 40000, 40000, 60000, RX_USED, 0);
    mu.seq = 90; /* at 2.97 s, 150 ms, discarded */
    lagring_arrival(&ring, &mu, 2970000 + 150000, 150000, 0, RX_DISCARDED, 0);
    mu.seq = 100; /* at 3.3 s, 120 ms, late but used */
    lagring_arrival(&ring, &mu, 3300000 + 120000, 120000, 0, RX_LATE_USED, 0);
    mu.seq = 120; /* at 3.96 s, lost */
    lagring_lost(&ring, &mu, 3960000);
    for (int s = 0; s < 152; s++) /* car 1 predicted before 1 s, car 0 (own) always */
        lagring_shown(&ring, (int64_t)s * 33000, (s < 30 ? 2u : 0u) | 1u);
    RecMark mark = {.t_ms = 4500};
    LagometerIn in = {.ring = &ring, .own = 0, .now_us = 5000000, .period_us = 33000, .limit_us = 100000,
                      .marks = &mark, .nmarks = 1};
    assert_int_equal(lagometer_scale(&in), 200000);
    SDL_SetRenderDrawColor(o.r, 0, 0, 0, 255);
    SDL_RenderClear(o.r);
    lagometer_draw(&g, &in, (SDL_FRect){0, 0, 600, 200});
    SDL_RenderPresent(o.r);
    SDL_Surface *s = o.surf;
#define AT(t_us, v_us) pixel(s, (int)X_OF(t_us) + 2, (int)Y_OF(v_us))
    assert_true(same(AT(990000, 10000), PAL_LAG_ON_TIME));
    assert_true(same(AT(990000, 50000), PAL_LAG_ON_TIME));
    assert_false(same(AT(990000, 75000), PAL_LAG_ON_TIME)); /* above its 60 ms */
    assert_true(same(AT(1980000, 30000), PAL_LAG_ON_TIME)); /* the delay ... */
    assert_true(same(AT(1980000, 55000), PAL_LAG_HELD));    /* ... then the time held, to 100 ms */
    assert_true(same(AT(1980000, 90000), PAL_LAG_HELD));
    assert_false(same(AT(1980000, 115000), PAL_LAG_HELD));
    assert_true(same(AT(2970000, 140000), PAL_LAG_DISCARDED));
    assert_false(same(AT(2970000, 165000), PAL_LAG_DISCARDED));
    assert_true(same(AT(3300000, 110000), PAL_LAG_LATE));
    assert_true(same(AT(3960000, 5000), PAL_LAG_LOST)); /* a lost MU: the plot's whole height */
    assert_true(same(AT(3960000, 195000), PAL_LAG_LOST));
    assert_false(same(AT(2500000, 5000), PAL_LAG_ON_TIME)); /* no MU there */
    /* the band: car 1 predicted until 0.957 s; the own car never counts */
    assert_true(same(pixel(s, (int)X_OF(500000), 14), PAL_LAG_PREDICTED));
    assert_false(same(pixel(s, (int)X_OF(2000000), 14), PAL_LAG_PREDICTED));
    /* the mark at 4.5 s crosses the strip */
    assert_true(same(pixel(s, (int)X_OF(4500000), 100), PAL_LAG_MARK));
    assert_true(same(pixel(s, (int)X_OF(4500000), 14), PAL_LAG_MARK));
    /* nothing drawn outside r: a strip in the top half leaves the rest */
    SDL_RenderClear(o.r);
    lagometer_draw(&g, &in, (SDL_FRect){0, 0, 600, 100});
    SDL_RenderPresent(o.r);
    assert_int_equal(count(s, (SDL_FRect){0, 101, 600, 99}, PAL_LAG_ON_TIME), 0);
    assert_int_equal(count(s, (SDL_FRect){0, 101, 600, 99}, PAL_LAG_LOST), 0);
    gfx_free(&g);
    gfx_offscreen_close(&o);
}

/* lagnet_add: one estimate per sample period, the newest kept; the older
 * half dropped when full. */
static void network_history_by_period(void **state)
{
    (void)state;
    LagNetHist *h = calloc(1, sizeof *h);
    assert_non_null(h);
    lagnet_add(h, 0, 500, 100, 50);
    lagnet_add(h, 20000, 400, 90, 40); /* the same 33 ms period: replaces */
    assert_int_equal(h->n, 1);
    assert_int_equal(h->rtt_us[0], 400);
    assert_int_equal(h->offset_us, 90);
    for (int i = 1; i <= LAG_NET_SAMPLES; i++)
        lagnet_add(h, (int64_t)i * 33000, i, 0, 0);
    assert_int_equal(h->n, LAG_NET_SAMPLES / 2 + 1);
    assert_int_equal(h->t_us[h->n - 1], (int64_t)LAG_NET_SAMPLES * 33000);
    assert_true(h->have);
    free(h);
}

/* ---- the replay window ---------------------------------------------------- */

typedef struct Win {
    Track *t;
    Recording rec;
    LinkSpec link[2];
    Replay *rp;
    SDL_Surface *surf;
    SDL_Renderer *r;
    AppState *s;
} Win;

/* nc and causality (Delta 100 ms) over 50 ms from 1 to 2 and 150 ms from 2
 * to 1, a mark at 3 s: P1's causality screen discards every MU, P2's holds
 * each for 50 ms; nc shows them on arrival. */
static void open_win(Win *w)
{
    memset(w, 0, sizeof *w);
    w->t = circle();
    race(&w->rec, w->t, 160);
    assert_true(recording_mark_add(&w->rec, &(RecMark){.t_ms = 3000, .kind = "mark"}));
    NrError err;
    assert_true(linkspec_parse(&w->link[0], "delay 50ms", NULL, &err));
    assert_true(linkspec_parse(&w->link[1], "delay 150ms", NULL, &err));
    EngineConfig ec;
    memset(&ec, 0, sizeof ec);
    ec.track = w->t;
    ec.link[0] = &w->link[0];
    ec.link[1] = &w->link[1];
    ec.params = scheme_default_params();
    ec.nschemes = scheme_parse_list("nc,causality", ec.schemes, SCHEME_MAX, &err);
    ec.keep_history = true;
    ec.lagometer = true;
    w->rp = replay_new(&ec, &w->rec, false, &err);
    assert_non_null(w->rp);
    assert_int_equal(TTF_Init(), 0);
    w->surf = SDL_CreateRGBSurfaceWithFormat(0, 1280, 720, 32, SDL_PIXELFORMAT_ARGB8888);
    w->r = SDL_CreateSoftwareRenderer(w->surf);
    w->s = calloc(1, sizeof *w->s);
    AppConfig cfg = app_config_default();
    cfg.replay = w->rp;
    cfg.lagometer = true;
    assert_true(app_state_init(w->s, w->rp, &cfg, w->r, &err));
}

static void close_win(Win *w)
{
    app_state_free(w->s);
    free(w->s);
    SDL_DestroyRenderer(w->r);
    SDL_FreeSurface(w->surf);
    replay_free(w->rp);
    recording_free(&w->rec);
    linkspec_free(&w->link[0]);
    linkspec_free(&w->link[1]);
    track_free(w->t);
    TTF_Quit();
}

static void frame(Win *w)
{
    app_draw(w->s, 1280, 720);
    SDL_RenderPresent(w->r);
}

static void replay_strips_show_each_terminals_fates(void **state)
{
    (void)state;
    Win w;
    open_win(&w);
    replay_step_to(w.rp, 4 * NR_US_PER_S);
    frame(&w);
    AppState *s = w.s;
    for (int j = 0; j < 2; j++) {
        SDL_FRect nc = lagometer_view_rect(&s->lay.view[0][j], s->lay.base, false);
        SDL_FRect ca = lagometer_view_rect(&s->lay.view[1][j], s->lay.base, false);
        assert_true(count(w.surf, nc, PAL_LAG_ON_TIME) > 100);
        assert_int_equal(count(w.surf, nc, PAL_LAG_DISCARDED), 0);
        assert_int_equal(count(w.surf, nc, PAL_LAG_HELD), 0);
        /* P1 (j = 0) gets 150 ms MUs: all late; P2 50 ms ones: all held */
        assert_true(count(w.surf, ca, j == 0 ? PAL_LAG_DISCARDED : PAL_LAG_HELD) > 100);
        assert_int_equal(count(w.surf, ca, j == 0 ? PAL_LAG_HELD : PAL_LAG_DISCARDED), 0);
        assert_true(count(w.surf, ca, PAL_LAG_MARK) > 0); /* the mark at 3 s */
    }
    int marks_on_chart = count(w.surf, s->lay.chart[0], PAL_LAG_MARK);
    /* F2 hides them; the charts lose the mark when the recording has none */
    SDL_Event ev = {.type = SDL_KEYDOWN};
    ev.key.keysym.sym = SDLK_F2;
    app_handle_event(s, &ev);
    assert_false(s->lag);
    s->nmarks = 0;
    frame(&w);
    for (int j = 0; j < 2; j++) {
        SDL_FRect ca = lagometer_view_rect(&s->lay.view[1][j], s->lay.base, false);
        assert_int_equal(count(w.surf, ca, PAL_LAG_DISCARDED) + count(w.surf, ca, PAL_LAG_HELD), 0);
    }
    assert_true(marks_on_chart > count(w.surf, s->lay.chart[0], PAL_LAG_MARK));
    /* F3 in a replay writes nothing and says so */
    ev.key.keysym.sym = SDLK_F3;
    app_handle_event(s, &ev);
    assert_non_null(strstr(s->msg, "not a replay"));
    close_win(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(strip_columns_by_hand),
        cmocka_unit_test(network_history_by_period),
        cmocka_unit_test(replay_strips_show_each_terminals_fates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
