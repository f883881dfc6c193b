/* The replay window of a race of more than two cars (issue 19): every
 * terminal's screen shows each car where the engine displays it, in its
 * colour; the badges, the orders and the red frames are the engine's; the
 * N-car gauge strings carry the metrics (worked by hand on a made-up
 * Metrics); the overview's cells focus their scheme when clicked; the
 * links of such a race have no controls. Offscreen (software renderer). */
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
#include "netrace_config.h"
#include "pixels.h"

typedef struct Fix {
    Track *track;
    Recording rec;
    LinkSpec link;
    Replay *rp;
    SDL_Surface *surf;
    SDL_Renderer *r;
    AppState *s;
} Fix;

static int setup(void **state)
{
    Fix *f = calloc(1, sizeof *f);
    NrError err = {{0}};
    if (!recording_load(&f->rec, NETRACE_SOURCE_DIR "/recordings/four.csv", &err) ||
        !(f->track = track_load(NETRACE_SOURCE_DIR "/tracks/default.track", &err)) ||
        !linkspec_parse(&f->link, "delay 75ms 10ms distribution paretonormal", NULL, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    EngineConfig ec;
    memset(&ec, 0, sizeof ec);
    ec.track = f->track;
    ec.ncars = f->rec.ncars;
    for (int c = 0; c < ec.ncars; c++)
        ec.link[c] = &f->link;
    ec.seed = 1;
    ec.params = scheme_default_params();
    ec.nschemes = scheme_parse_list("racing", ec.schemes, SCHEME_MAX, &err);
    ec.keep_history = true;
    f->rp = replay_new(&ec, &f->rec, false, &err);
    if (!f->rp || !app_canvas_open(1280, 720, &f->surf, &f->r, &f->s))
        return -1;
    AppConfig cfg = app_config_default();
    cfg.replay = f->rp;
    cfg.links_text = "p2p, 4 terminals: every link delay 75ms 10ms distribution paretonormal";
    if (!app_state_init(f->s, f->rp, &cfg, f->r, &err))
        return -1;
    f->s->paused = true;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fix *f = *state;
    app_canvas_close(f->surf, f->r, f->s);
    replay_free(f->rp);
    recording_free(&f->rec);
    linkspec_free(&f->link);
    track_free(f->track);
    free(f);
    return 0;
}

/* Car c of view v is drawn last among the cars within 3 car widths of it
 * (the own car is drawn over every other): its centre then shows its colour. */
static bool on_top(const EngineView *v, int nc, int j, int c)
{
    if (c == j)
        return true;
    for (int o = 0; o < nc; o++)
        if (o != c && (o == j || o > c) && hypot(v->pose[o].x - v->pose[c].x, v->pose[o].y - v->pose[c].y) < 3.0)
            return false;
    return true;
}

/* Each scheme focused: its four screens each show every car on top at the
 * pixel of its displayed pose in the car's colour, the leader badge the
 * engine's leader, the red frame the engine's inconsistent_now. */
static void screens_show_the_engines_cars(void **state)
{
    Fix *f = *state;
    AppState *s = f->s;
    replay_step_to(f->rp, 12 * NR_US_PER_S);
    int checked = 0;
    for (int k = 0; k < s->data.n; k++) {
        s->focus = k;
        app_draw(s, 1280, 720);
        SDL_RenderPresent(f->r);
        int nc = racedata_cars(&s->data);
        assert_int_equal(nc, 4);
        for (int j = 0; j < nc; j++) {
            EngineView v;
            engine_view(replay_engine(f->rp), k, j, &v);
            assert_int_equal(s->drawn[k].leader[j], v.leader);
            AppXform x;
            app_view_xform(s, k, j, &x);
            for (int c = 0; c < nc; c++) {
                float px, py;
                app_world_to_px(&x, v.pose[c].x, v.pose[c].y, &px, &py);
                bool inside = px >= x.rect.x + 2 && px < x.rect.x + x.rect.w - 2 && py >= x.rect.y + 30 &&
                              py < x.rect.y + x.rect.h - 2;
                if (!inside || !on_top(&v, nc, j, c))
                    continue;
                assert_true(same_rgb(pixel_at(f->surf, (int)px, (int)py), pal_car(c)));
                checked++;
            }
        }
        assert_int_equal(s->drawn[k].frame, engine_metrics(replay_engine(f->rp), k)->inconsistent_now);
    }
    assert_true(checked >= s->data.n * 4); /* every own car at least */
    s->focus = -1;
}

/* Made-up metrics, worked by hand: 10 samples, pairs 1 of 3, mean d =
 * (1, 0, -0.5, 0.5) cw; their mean 0.25, so the disadvantages are +0.75,
 * -0.25, -0.75, +0.25 and the spread sqrt((0.75^2 + 0.25^2) / 2) =
 * 0.559 cw. */
static void gauge_strings_carry_the_metrics(void **state)
{
    (void)state;
    Metrics m;
    metrics_reset(&m);
    m.ncars = 4;
    m.samples = 10;
    m.pair_samples = 3;
    m.pair_inconsistent = 1;
    const double sum[4] = {10, 0, -5, 5};
    for (int i = 0; i < 4; i++) {
        m.sum_d[i] = sum[i];
        m.dir[i].sent = 100 + i;
        m.dir[i].lost = i;
        m.dir[i].late = 2;
        m.dir[i].discarded = 1;
    }
    AppGaugeText t;
    app_gauge_text_n(&m, 4, &t);
    assert_string_equal(t.pairs, "pairs 33.3%");
    assert_string_equal(t.spread, "spread 0.56 cw");
    assert_string_equal(t.dis[0], "+0.75");
    assert_string_equal(t.dis[1], "-0.25");
    assert_string_equal(t.dis[2], "-0.75");
    assert_string_equal(t.dis[3], "+0.25");
    assert_string_equal(t.totals, "sent 406  lost 6  late 8  disc 4");
    app_gauge_text_n(&m, 2, &t); /* two cars: the two-car gauges say it all */
    assert_string_equal(t.pairs, "");
}

static void click(AppState *s, const SDL_FRect *r)
{
    SDL_Event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = SDL_MOUSEBUTTONDOWN;
    ev.button.button = SDL_BUTTON_LEFT;
    ev.button.x = (int)(r->x + r->w / 2);
    ev.button.y = (int)(r->y + r->h / 2);
    app_handle_event(s, &ev);
}

static void key(AppState *s, SDL_Keycode sym)
{
    SDL_Event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = SDL_KEYDOWN;
    ev.key.keysym.sym = sym;
    app_handle_event(s, &ev);
}

/* The overview: a cell per scheme inside the main area, each focusing its
 * scheme when clicked; a click on the focused scheme's screens, 0 or Esc
 * go back. The links have no controls; Up / Down skip them. */
static void cells_focus_and_links_are_fixed(void **state)
{
    Fix *f = *state;
    AppState *s = f->s;
    s->focus = -1;
    app_draw(s, 1280, 720);
    const AppLayout *L = &s->lay;
    for (int k = 0; k < s->data.n; k++) {
        const SDL_FRect *c = &L->cell[k];
        assert_true(c->w > 0 && c->h > 0);
        assert_true(c->x >= L->main.x && c->y >= L->main.y && c->x + c->w <= L->main.x + L->main.w + 1 &&
                    c->y + c->h <= L->main.y + L->main.h + 1);
    }
    click(s, &L->cell[2]);
    assert_int_equal(s->focus, 2);
    app_draw(s, 1280, 720);
    click(s, &s->lay.view[2][0]);
    assert_int_equal(s->focus, -1);
    key(s, SDLK_4);
    assert_int_equal(s->focus, 3);
    key(s, SDLK_ESCAPE);
    assert_int_equal(s->focus, -1);
    for (int c = 0; c <= CTL_DIST; c++)
        assert_true(s->lay.ctl[c].w == 0);
    assert_int_equal(s->sel, CTL_DELTA);
    key(s, SDLK_UP);
    assert_int_equal(s->sel, CTL_SPEED); /* round the shown ones: Delta, T_dr, speed */
    key(s, SDLK_DOWN);
    key(s, SDLK_DOWN);
    assert_int_equal(s->sel, CTL_TDR);
    app_ctl_change(s, CTL_DELAY12, +1, false);
    assert_non_null(strstr(s->msg, "links are set on the command line"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(screens_show_the_engines_cars),
        cmocka_unit_test(gauge_strings_carry_the_metrics),
        cmocka_unit_test(cells_focus_and_links_are_fixed),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
