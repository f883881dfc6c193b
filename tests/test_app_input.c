/* The replay window's input without a window: keys and mouse change the
 * engine's parameters (a trace link is kept, its steps refused), the race
 * clock follows wall time times the speed, link text survives the
 * controls' round trip, random input keeps the state valid. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app_fixture.h"
#include "pixels.h"
#include "rng.h"

static void push_key(SDL_Keycode sym, Uint16 mod)
{
    SDL_Event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = SDL_KEYDOWN;
    ev.key.state = SDL_PRESSED;
    ev.key.keysym.sym = sym;
    ev.key.keysym.mod = mod;
    assert_int_equal(SDL_PushEvent(&ev), 1);
}

static void pump(AppState *s)
{
    SDL_Event ev;
    while (SDL_PollEvent(&ev))
        app_handle_event(s, &ev);
}

/* A link that replays a measured trace keeps it: the delay, jitter and loss
 * keys would rebuild a netem spec and drop the file, so they say why not. */
static void trace_link_kept_by_the_controls(void **state)
{
    Fixture *f = *state;
    AppState *s = f->s;
    char path[] = "/tmp/nr_app_trace_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *text = "direction,seq,delay_us\n12,0,40000\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    char spec_text[128];
    snprintf(spec_text, sizeof spec_text, "trace %s", path);
    LinkSpec t;
    NrError err = {{0}};
    assert_true(linkspec_parse(&t, spec_text, NULL, &err));
    assert_true(engine_set_link(f->e, 0, &t, &err));
    linkspec_free(&t);
    char buf[64];
    app_ctl_value(s, CTL_DELAY12, buf, sizeof buf);
    assert_string_equal(buf, "trace");
    for (int ctl = CTL_DELAY12; ctl <= CTL_LOSS12; ctl++) {
        s->msg[0] = '\0';
        app_ctl_change(s, ctl, 1, false);
        assert_string_equal(engine_link(f->e, 0)->text, spec_text);
        assert_non_null(strstr(s->msg, "link 1->2 is a trace"));
    }
    /* The other direction still takes its steps; D leaves the trace alone. */
    int64_t d21 = engine_link(f->e, 1)->delay_us;
    app_ctl_change(s, CTL_DELAY21, 1, false);
    assert_int_equal(engine_link(f->e, 1)->delay_us, (d21 / 10000 + 1) * 10000);
    app_ctl_change(s, CTL_DIST, 1, false);
    assert_string_equal(engine_link(f->e, 0)->text, spec_text);
    assert_true(engine_set_link(f->e, 0, &f->link[0], &err)); /* as the fixture had it */
    unlink(path);
}

/* The causality notice (issue 22 trial D3): the fixture's links (50 / 80
 * ms) under Delta 100 ms give none; raising delay 1->2 with the window's
 * control past Delta shows it in the status bar (warning colour, left)
 * naming both Delta schemes, Delta and the link; back under Delta, gone. */
static void causality_notice_follows_the_delay(void **state)
{
    Fixture *f = *state;
    AppState *s = f->s;
    char lng[256], shrt[128];
    NrError err = {{0}};
    assert_true(engine_set_link(f->e, 0, &f->link[0], &err)); /* 50 ms, whatever the tests before left */
    SchemeParams was = *engine_params(f->e), p = was;
    p.delta_us = 100 * NR_US_PER_MS; /* whatever the tests before set */
    engine_set_params(f->e, &p);
    assert_false(app_delta_notice(f->e, -1, lng, sizeof lng, shrt, sizeof shrt));
    for (int ms = 60; ms <= 120; ms += 10) {
        app_ctl_change(s, CTL_DELAY12, 1, false);
        assert_int_equal(engine_link(f->e, 0)->delay_us, ms * NR_US_PER_MS);
        bool on = app_delta_notice(f->e, -1, lng, sizeof lng, shrt, sizeof shrt);
        assert_int_equal(on, ms > 100); /* 100 ms is not below Delta 100 ms */
        if (on) {
            char want[128];
            snprintf(want, sizeof want, "causality, dr-causality: Δ 100 ms is below link 1→2's mean delay %d ms", ms);
            assert_non_null(strstr(lng, want));
        }
    }
    app_draw(s, 1280, 720);
    const SDL_FRect *st = &s->lay.status;
    int warn = 0;
    for (int x = (int)st->x; x < (int)(st->x + st->w / 2); x++)
        for (int y = (int)st->y; y < (int)(st->y + st->h); y++)
            warn += same_rgb(pixel_at(f->surf, x, y), PAL_WARN);
    assert_true(warn > 20); /* the notice's text */
    assert_false(app_delta_notice(f->e, 0, lng, sizeof lng, shrt, sizeof shrt)); /* nc alone: none */
    assert_true(engine_set_link(f->e, 0, &f->link[0], &err)); /* as the fixture had it */
    assert_false(app_delta_notice(f->e, -1, lng, sizeof lng, shrt, sizeof shrt));
    p.delta_us = 40 * NR_US_PER_MS; /* Delta below 50 ms: on again */
    engine_set_params(f->e, &p);
    assert_true(app_delta_notice(f->e, -1, lng, sizeof lng, shrt, sizeof shrt));
    assert_non_null(strstr(lng, "Δ 40 ms is below link 2→1's mean delay 80 ms")); /* the slower link */
    engine_set_params(f->e, &was);
    p.delta_us = 100 * NR_US_PER_MS;
    engine_set_params(f->e, &p);
    app_draw(s, 1280, 720);
    warn = 0;
    for (int x = (int)st->x; x < (int)(st->x + st->w / 2); x++)
        for (int y = (int)st->y; y < (int)(st->y + st->h); y++)
            warn += same_rgb(pixel_at(f->surf, x, y), PAL_WARN);
    assert_int_equal(warn, 0);
    engine_set_params(f->e, &was);
}

static void keys_change_the_parameters(void **state)
{
    Fixture *f = *state;
    AppState *s = f->s;
    s->sel = CTL_DELAY12;
    int64_t d0 = engine_link(f->e, 0)->delay_us;
    push_key(SDLK_RIGHT, 0);
    push_key(SDLK_RIGHT, 0);
    pump(s);
    assert_int_equal(engine_link(f->e, 0)->delay_us, d0 + 20000);
    push_key(SDLK_LEFT, KMOD_LSHIFT); /* x5 steps of 10 ms */
    pump(s);
    assert_int_equal(engine_link(f->e, 0)->delay_us, d0 + 20000 - 50000);
    assert_int_equal(engine_link(f->e, 1)->delay_us, 80000); /* the other direction untouched */

    /* Down selects the next control: jitter 1->2 in steps of 5 ms */
    push_key(SDLK_DOWN, 0);
    push_key(SDLK_RIGHT, 0);
    pump(s);
    assert_int_equal(s->sel, CTL_JITTER12);
    assert_int_equal(engine_link(f->e, 0)->jitter_us, 5000);
    assert_int_equal(engine_link(f->e, 0)->delay_us, d0 - 30000);

    /* loss 2->1 in steps of 1 % */
    s->sel = CTL_LOSS21;
    push_key(SDLK_RIGHTBRACKET, 0);
    pump(s);
    assert_int_equal(engine_link(f->e, 1)->loss_kind, LINK_LOSS_RANDOM);
    assert_float_equal(engine_link(f->e, 1)->loss_p, 0.01, 1e-9);

    /* distribution: D cycles none -> normal on both directions */
    assert_int_equal(engine_link(f->e, 0)->table.n, 0);
    push_key(SDLK_d, 0);
    pump(s);
    assert_true(engine_link(f->e, 0)->table.n > 0); /* 1->2 has jitter: a table */
    assert_non_null(strstr(engine_link(f->e, 0)->text, "normal"));

    /* Delta and T_dr */
    int64_t delta0 = engine_params(f->e)->delta_us;
    double tdr0 = engine_params(f->e)->tdr_cw;
    s->sel = CTL_DELTA;
    push_key(SDLK_RIGHT, 0);
    pump(s);
    assert_int_equal(engine_params(f->e)->delta_us, delta0 + 10000);
    s->sel = CTL_TDR;
    push_key(SDLK_LEFT, 0);
    pump(s);
    assert_float_equal(engine_params(f->e)->tdr_cw, tdr0 - 0.05, 1e-9);

    /* pause, speed, focus, overlays, help, restart, reset gauges */
    bool paused = s->paused;
    push_key(SDLK_SPACE, 0);
    push_key(SDLK_EQUALS, 0);
    push_key(SDLK_2, 0);
    push_key(SDLK_g, 0);
    push_key(SDLK_t, 0);
    push_key(SDLK_m, 0);
    push_key(SDLK_h, 0);
    pump(s);
    assert_int_equal(s->paused, !paused);
    assert_float_equal(s->speed, 2.0, 1e-12);
    assert_int_equal(s->focus, 1);
    assert_int_equal(s->overlays, APP_OVERLAY_GHOST | APP_OVERLAY_TRAILS | APP_OVERLAY_INFLIGHT);
    assert_true(s->help);
    push_key(SDLK_ESCAPE, 0); /* closes the help first */
    push_key(SDLK_ESCAPE, 0); /* then back to the overview */
    pump(s);
    assert_false(s->help);
    assert_int_equal(s->focus, -1);
    /* every scheme has a key: Shift+1..3 are schemes 10..12 (issue 13 item 5) */
    int nk = engine_scheme_count(f->e);
    for (int k = 9; k < nk && k < 18; k++) {
        push_key((SDL_Keycode)(SDLK_1 + (k - 9)), KMOD_LSHIFT);
        pump(s);
        assert_int_equal(s->focus, k);
    }
    if (nk < 18) { /* a key past the last scheme changes nothing */
        int was = s->focus;
        push_key((SDL_Keycode)(SDLK_1 + (nk - 9)), KMOD_LSHIFT);
        pump(s);
        assert_int_equal(s->focus, was);
    }
    assert_true(nk >= 12); /* the registry's twelve: the loop above ran */
    push_key(SDLK_0, 0);
    pump(s);

    replay_step_to(f->rp, 2 * NR_US_PER_S);
    push_key(SDLK_c, 0);
    pump(s);
    assert_int_equal(engine_metrics(f->e, 0)->samples, 0);
    push_key(SDLK_r, 0);
    pump(s);
    assert_int_equal(engine_now(f->e), 0);

    /* single step: one period of race time, paused */
    push_key(SDLK_n, 0);
    pump(s);
    assert_true(s->paused);
    assert_int_equal(engine_now(f->e), engine_params(f->e)->period_us);

    push_key(SDLK_p, 0);
    push_key(SDLK_F11, 0);
    push_key(SDLK_q, 0);
    pump(s);
    assert_true(s->want_shot && s->want_fullscreen && s->want_quit);
    s->want_shot = s->want_fullscreen = s->want_quit = false;
    s->overlays = 0;
    s->help = false;
}

static void mouse_on_the_controls(void **state)
{
    Fixture *f = *state;
    AppState *s = f->s;
    app_draw(s, 1280, 720);
    int64_t j0 = engine_link(f->e, 1)->jitter_us;
    SDL_Event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = SDL_MOUSEBUTTONDOWN;
    ev.button.button = SDL_BUTTON_LEFT;
    ev.button.x = (int)(s->lay.plus[CTL_JITTER21].x + s->lay.plus[CTL_JITTER21].w / 2);
    ev.button.y = (int)(s->lay.plus[CTL_JITTER21].y + s->lay.plus[CTL_JITTER21].h / 2);
    app_handle_event(s, &ev);
    assert_int_equal(engine_link(f->e, 1)->jitter_us, j0 + 5000);
    assert_int_equal(s->sel, CTL_JITTER21);
    ev.button.x = (int)(s->lay.minus[CTL_JITTER21].x + 1);
    ev.button.y = (int)(s->lay.minus[CTL_JITTER21].y + 1);
    app_handle_event(s, &ev);
    assert_int_equal(engine_link(f->e, 1)->jitter_us, j0);
    /* the loop button and a click on a scheme's row */
    bool loop = s->loop;
    ev.button.x = (int)(s->lay.ctl[BTN_LOOP].x + 2);
    ev.button.y = (int)(s->lay.ctl[BTN_LOOP].y + 2);
    app_handle_event(s, &ev);
    assert_int_equal(s->loop, !loop);
    int k = engine_scheme_count(f->e) - 1;
    ev.button.x = (int)(s->lay.view[k][1].x + 3);
    ev.button.y = (int)(s->lay.view[k][1].y + 3);
    app_handle_event(s, &ev);
    assert_int_equal(s->focus, k);
    ev.button.button = SDL_BUTTON_RIGHT;
    app_handle_event(s, &ev);
    assert_int_equal(s->focus, -1);
}

static void clock_follows_wall_time_times_speed(void **state)
{
    Fixture *f = *state;
    AppState *s = f->s;
    replay_restart(f->rp);
    s->paused = false;
    s->speed = 2.0;
    s->race_frac_us = 0;
    /* the engine stops at the last 33 ms sample instant the app clock passed */
    app_advance(s, 100000); /* 0.1 s of wall time: 0.2 s of race */
    assert_int_equal(engine_now(f->e), 198000);
    s->speed = 0.25;
    app_advance(s, 100000); /* 0.225 s */
    assert_int_equal(engine_now(f->e), 198000);
    app_advance(s, 100000); /* 0.25 s */
    assert_int_equal(engine_now(f->e), 231000);
    s->paused = true;
    app_advance(s, 100000);
    assert_int_equal(engine_now(f->e), 231000);
    s->paused = false;
    s->speed = 1.0;
    app_advance(s, 10000); /* 0.26 s: no sample passed */
    assert_int_equal(engine_now(f->e), 231000);
    app_advance(s, 3000); /* 0.263 s: none yet */
    assert_int_equal(engine_now(f->e), 231000);
    app_advance(s, 2000); /* 0.265 s > 0.264 s */
    assert_int_equal(engine_now(f->e), 264000);
    s->paused = false;
    s->speed = 1.0;
}

static void link_text_round_trip(void **state)
{
    (void)state;
    LinkSpec a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    NrError err = {{0}};
    assert_true(linkspec_parse(&a, "delay 75ms 10ms distribution paretonormal loss 2% duplicate 1%", NULL, &err));
    char text[LINK_TEXT_MAX];
    assert_true(app_link_text(&a, 120000, 30000, 0.05, "paretonormal", text, sizeof text));
    assert_true(linkspec_parse(&b, text, NULL, &err));
    assert_int_equal(b.delay_us, 120000);
    assert_int_equal(b.jitter_us, 30000);
    assert_true(b.table.n > 0);
    assert_int_equal(b.loss_kind, LINK_LOSS_RANDOM);
    assert_float_equal(b.loss_p, 0.05, 1e-9);
    assert_float_equal(b.dup_p, 0.01, 1e-9);
    linkspec_free(&b);
    memset(&b, 0, sizeof b);
    /* no jitter: no distribution; zero loss: no loss clause */
    assert_true(app_link_text(&a, 0, 0, 0.0, "pareto", text, sizeof text));
    assert_null(strstr(text, "distribution"));
    assert_null(strstr(text, "loss"));
    assert_true(linkspec_parse(&b, text, NULL, &err));
    assert_int_equal(b.delay_us, 0);
    assert_int_equal(b.table.n, 0);
    linkspec_free(&a);
    linkspec_free(&b);
}

/* Random keys, clicks and wheel turns with frames in between (seeded): the
 * state stays valid (focus, selection, speed in range) and nothing crashes
 * (the sanitizer build runs this too). */
static void random_input_keeps_the_state_valid(void **state)
{
    Fixture *f = *state;
    AppState *s = f->s;
    static const SDL_Keycode keys[] = {
        SDLK_SPACE, SDLK_n, SDLK_PERIOD, SDLK_PLUS, SDLK_MINUS, SDLK_r, SDLK_l, SDLK_c, SDLK_g, SDLK_t, SDLK_m,
        SDLK_z, SDLK_d, SDLK_h, SDLK_ESCAPE, SDLK_TAB, SDLK_0, SDLK_1, SDLK_5, SDLK_9, SDLK_UP, SDLK_DOWN,
        SDLK_LEFT, SDLK_RIGHT, SDLK_LEFTBRACKET, SDLK_RIGHTBRACKET, SDLK_F1, SDLK_a,
    };
    int nkeys = (int)(sizeof keys / sizeof keys[0]);
    Rng rng;
    rng_seed(&rng, 2024, 6);
    for (int i = 0; i < 1500; i++) {
        SDL_Event ev;
        memset(&ev, 0, sizeof ev);
        int kind = (int)rng_below(&rng, 3);
        if (kind == 0) {
            ev.type = SDL_KEYDOWN;
            ev.key.keysym.sym = keys[rng_below(&rng, (uint64_t)nkeys)];
            ev.key.keysym.mod = rng_below(&rng, 4) == 0 ? KMOD_LSHIFT : KMOD_NONE;
        } else if (kind == 1) {
            ev.type = SDL_MOUSEBUTTONDOWN;
            ev.button.button = rng_below(&rng, 5) == 0 ? SDL_BUTTON_RIGHT : SDL_BUTTON_LEFT;
            ev.button.x = (int)rng_below(&rng, 1280);
            ev.button.y = (int)rng_below(&rng, 720);
        } else {
            ev.type = SDL_MOUSEWHEEL;
            ev.wheel.y = rng_below(&rng, 2) ? 1 : -1;
        }
        app_handle_event(s, &ev);
        assert_true(s->focus >= -1 && s->focus < engine_scheme_count(f->e));
        assert_true(s->sel >= 0 && s->sel < CTL_NVALUES);
        assert_true(s->speed >= 0.25 && s->speed <= 8.0);
        if (i % 10 == 0) {
            app_advance(s, 16667 * (int64_t)rng_below(&rng, 20));
            app_draw(s, 1280, 720);
        }
    }
    assert_true(engine_link(f->e, 0)->delay_us >= 0 && engine_link(f->e, 0)->delay_us <= 2000000);
    assert_true(engine_params(f->e)->tdr_cw >= 0.05 - 1e-12 && engine_params(f->e)->tdr_cw <= 5.0 + 1e-12);
    s->want_quit = s->want_fullscreen = s->want_shot = false;
    s->help = false;
    s->focus = -1;
    s->overlays = 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(keys_change_the_parameters),
        cmocka_unit_test(causality_notice_follows_the_delay),
        cmocka_unit_test(mouse_on_the_controls),
        cmocka_unit_test(clock_follows_wall_time_times_speed),
        cmocka_unit_test(link_text_round_trip),
        cmocka_unit_test(random_input_keeps_the_state_valid),
        cmocka_unit_test(trace_link_kept_by_the_controls),
    };
    return cmocka_run_group_tests(tests, app_fixture_setup, app_fixture_teardown);
}
