/* Nothing cut (issue 22, "a window a classroom can read"): every layout of
 * the replay window of two to eight cars (overview, focus, help, each
 * without and with the lagometers) and of the game of two to four players
 * (grid, lights, race, the lagometers, pause, help, results, a message;
 * the network window: test_fit_net.c), drawn offscreen at the sizes of
 * projectors and laptops (960x540 .. 1920x1080, fit_fixture.h) and at a
 * larger text scale, with every scheme,
 * keeps every string inside its panel, button or strip and inside the
 * window, and no string over another (tests/text_audit.h). The text layer records each string's box and its
 * room while auditing (gfx_audit_start), the way test_app's road test
 * scans the track's pixels. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"
#include "autopilot.h"
#include "bot.h"
#include "drivewidgets.h"
#include "lagometer.h"
#include "netrace_config.h"
#include "play_internal.h"
#include "fit_fixture.h"
#include "fit_game.h"
#include "fit_race.h"
#include "text_audit.h"

/* One frame of the window at size z on a memory surface, audited. */
static int audit_frame(AppState *s, GfxAudit *a, const Size *z, const char *what)
{
    char name[160];
    snprintf(name, sizeof name, "%s %dx%d scale %g", what, z->w, z->h, z->scale);
    s->scale = z->scale;
    gfx_audit_start(&s->gfx, a);
    app_draw(s, z->w, z->h);
    gfx_audit_stop(&s->gfx);
    if (s->gfx.has_font && a->n < 10) {
        fprintf(stderr, "%s: only %d strings drawn\n", name, a->n);
        return 1;
    }
    return text_audit_faults(a, name);
}

/* Every layout of one replay at every size: the overview, each scheme's
 * focus, the help over both. */
static int audit_replay(Canvas *c, const char *recording, const char *schemes, int64_t t_us)
{
    Race f;
    if (!race_open(&f, recording, schemes))
        return 1;
    replay_step_to(f.rp, t_us);
    int bad = 0;
    GfxAudit *a = calloc(1, sizeof *a);
    for (int i = 0; i < NSIZES; i++) {
        const Size *z = &fit_sizes[i];
        SDL_Renderer *r = canvas_at(c, z);
        AppState *s = calloc(1, sizeof *s);
        AppConfig cfg = app_config_default();
        cfg.replay = f.rp;
        cfg.title = recording;
        cfg.links_text = f.rec.ncars > 2 ? "p2p, 8 terminals: every link delay 75ms 10ms distribution paretonormal" : NULL;
        NrError err = {{0}};
        if (!s || !app_state_init(s, f.rp, &cfg, r, &err)) {
            bad++;
            continue;
        }
        s->paused = true;
        s->no_layers = true; /* the layers' coordinates are their own: audit the frame itself */
        char what[96];
        snprintf(what, sizeof what, "%s, %s, overview", recording, schemes);
        bad += audit_frame(s, a, z, what);
        s->help = true;
        snprintf(what, sizeof what, "%s, %s, help", recording, schemes);
        bad += audit_frame(s, a, z, what);
        s->help = false;
        for (int lag = 0; lag < 2; lag++) { /* without and with the lagometers (F2) */
            s->lag = lag;
            const char *on = lag ? ", lagometer" : "";
            for (int k = lag ? -1 : 0; k < s->data.n; k++) {
                s->focus = k;
                snprintf(what, sizeof what, "%s, %s, %s %d%s", recording, schemes, k < 0 ? "overview" : "focus",
                         k + 1, on);
                bad += audit_frame(s, a, z, what);
            }
        }
        s->focus = -1;
        s->help = true; /* the help with the lagometer's legend, over the strips */
        snprintf(what, sizeof what, "%s, %s, help, lagometer", recording, schemes);
        bad += audit_frame(s, a, z, what);
        app_state_free(s);
        free(s);
    }
    free(a);
    race_close(&f);
    return bad;
}

static void replay_layouts_cut_nothing(void **state)
{
    Canvas *c = *state;
    int bad = 0;
    bad += audit_replay(c, "default.csv", "every", 10 * NR_US_PER_S);
    bad += audit_replay(c, "default.csv", "all", 10 * NR_US_PER_S);
    bad += audit_replay(c, "default.csv", "racing", 10 * NR_US_PER_S);
    bad += audit_replay(c, "close.csv", "nc", 20 * NR_US_PER_S);
    assert_int_equal(bad, 0);
}

/* Issue 19: the window of four and of eight cars. */
static void nrace_layouts_cut_nothing(void **state)
{
    Canvas *c = *state;
    int bad = 0;
    bad += audit_replay(c, "four.csv", "every", 12 * NR_US_PER_S);
    bad += audit_replay(c, "four.csv", "racing", 12 * NR_US_PER_S);
    bad += audit_replay(c, "autopilot 8", "every", 15 * NR_US_PER_S);
    bad += audit_replay(c, "autopilot 3", "nc", 15 * NR_US_PER_S);
    assert_int_equal(bad, 0);
}

/* ---- the game ----------------------------------------------------------- */

static bool rects_meet(const SDL_FRect *a, const SDL_FRect *b)
{
    return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

/* A message's box covers no string (the audit marks those under it
 * hidden: it hid P2's "cw/s") and no screen's speedometer, minimap or
 * lagometer. */
static int message_covers(PlayState *ps, const GfxAudit *a, int w, int h, const char *name)
{
    int bad = 0;
    for (int i = 0; i < a->n; i++)
        if (a->rec[i].hidden) {
            fprintf(stderr, "%s: the message hides '%s'\n", name, a->rec[i].text);
            bad++;
        }
    int tw, th;
    float l = (float)gfx_line_h(&ps->view->gfx, GFX_NORMAL);
    char fit[GFX_TEXT_MAX]; /* as play_draw lays it out */
    gfx_ellipsize(&ps->view->gfx, GFX_NORMAL, (float)w - 2 * l, ps->msg, fit, sizeof fit);
    gfx_text_size(&ps->view->gfx, GFX_NORMAL, fit, &tw, &th);
    SDL_FRect box = play_message_rect(ps, w, h, (float)tw + l, 1.6f * l);
    for (int j = 0; j < ps->nseats; j++) {
        SDL_FRect r = play_screen_rect(ps, j, w, h), room = drivehud_room(&ps->hud[j], ps->view, &r), part[3];
        bool has[3] = {drivewidget_speedo_rect(ps->view, &room, &part[0]),
                       widget_minimap_rect(ps->view, &r, &part[1]), ps->lag};
        part[2] = lagometer_screen_rect(&r, ps->view->lay.base);
        for (int k = 0; k < 3; k++)
            if (has[k] && rects_meet(&box, &part[k])) {
                fprintf(stderr, "%s: the message covers P%d's %s\n", name, j + 1,
                        k == 0 ? "speedometer" : k == 1 ? "minimap" : "lagometer");
                bad++;
            }
    }
    return bad;
}

/* The start lights' panel covers no string (the audit marks those under it
 * hidden: in a 2 x 2 grid it sat where the four screens meet, over the
 * bottom screens' HUD strips). */
static int lights_cover(const GfxAudit *a, const char *name)
{
    int bad = 0;
    for (int i = 0; i < a->n; i++)
        if (a->rec[i].hidden) {
            fprintf(stderr, "%s: the start lights hide '%s'\n", name, a->rec[i].text);
            bad++;
        }
    return bad;
}

/* How many strings equal to text the frame drew. */
static int drawn_count(const GfxAudit *a, const char *text)
{
    int n = 0;
    for (int i = 0; i < a->n; i++)
        n += strcmp(a->rec[i].text, text) == 0;
    return n;
}

/* Every screen's dial carries 10, 20 and 30 with the lagometers on at
 * 1024x768, 1280x720 and 1920x1080 (a 2 x 2 cell's dial had none at
 * 1024x768, then only 20 at the two others: the small dial grows for them
 * where the cell leaves the HUD strip and a message box room). */
static int dial_numbers(Canvas *c, PlayState *ps, GfxAudit *a, int ncars)
{
    int bad = 0;
    for (int i = 0; i < 3; i++) {
        const Size *z = &fit_sizes[i];
        canvas_at(c, z);
        ps->view->scale = z->scale;
        gfx_audit_start(&ps->view->gfx, a);
        play_draw(ps, z->w, z->h);
        gfx_audit_stop(&ps->view->gfx);
        const char *num[3] = {"20", "10", "30"};
        for (int k = 0; k < 3; k++)
            if (drawn_count(a, num[k]) < ncars) {
                fprintf(stderr, "play, %d cars, lagometer %dx%d: '%s' on %d of %d dials\n", ncars, z->w, z->h,
                        num[k], drawn_count(a, num[k]), ncars);
                bad++;
            }
    }
    return bad;
}

/* The game's frame at every size, audited (the game draws on the canvas). */
static int audit_play_frame(Canvas *c, PlayState *ps, GfxAudit *a, const char *what)
{
    int bad = 0;
    for (int i = 0; i < NSIZES; i++) {
        const Size *z = &fit_sizes[i];
        canvas_at(c, z);
        ps->view->scale = z->scale;
        char name[160];
        snprintf(name, sizeof name, "play, %s %dx%d scale %g", what, z->w, z->h, z->scale);
        gfx_audit_start(&ps->view->gfx, a);
        play_draw(ps, z->w, z->h);
        gfx_audit_stop(&ps->view->gfx);
        bad += text_audit_faults(a, name);
        if (ps->msg_frames > 0 && !ps->paused && !ps->help)
            bad += message_covers(ps, a, z->w, z->h, name);
        else if (strstr(what, "lights"))
            bad += lights_cover(a, name);
        if (ps->view->gfx.has_font && a->n < 5) {
            fprintf(stderr, "%s: only %d strings drawn\n", name, a->n);
            bad++;
        }
    }
    return bad;
}

/* Every screen of a game of ncars at every size: the grid, the lights, the
 * race without and with the lagometers (F2), a message, pause, help and
 * the results. */
static int audit_game(Canvas *c, const Track *t, int ncars)
{
    Bots bots = {.track = t};
    PlayConfig cfg;
    PlayState *ps = game_open(c, &bots, ncars, &cfg);
    if (!ps)
        return 1;
    GfxAudit *a = calloc(1, sizeof *a);
    char what[64];
#define AUDIT(name) (snprintf(what, sizeof what, "%d cars, %s", ncars, name), audit_play_frame(c, ps, a, what))
    int bad = AUDIT("grid");
    key(ps, SDL_SCANCODE_SPACE);
    for (int i = 0; i < 2 * 60; i++)
        play_frame(ps, 16667);
    bad += AUDIT("lights");
    for (int i = 0; i < 10 * 60; i++)
        play_frame(ps, 16667);
    bad += AUDIT("race");
    const char *shot = "screenshot: /home/a-teacher/Pictures/netrace/netrace-play-20250101-120000-t0012.3.png";
    play_message(ps, "%s", shot);
    bad += AUDIT("message");
    ps->msg_frames = 0;
    key(ps, SDL_SCANCODE_F2);
    bad += !ps->lag;
    bad += AUDIT("race, lagometer");
    bad += dial_numbers(c, ps, a, ncars);
    play_message(ps, "%s", shot);
    bad += AUDIT("message, lagometer");
    ps->msg_frames = 0;
    key(ps, SDL_SCANCODE_P);
    bad += AUDIT("pause, lagometer");
    key(ps, SDL_SCANCODE_H);
    bad += AUDIT("help, lagometer");
    key(ps, SDL_SCANCODE_H);
    key(ps, SDL_SCANCODE_P);
    for (int i = 0; i < 60 * 60 && liverace_flow(ps->lr)->phase != RF_DONE; i++)
        play_frame(ps, 16667);
    bad += liverace_flow(ps->lr)->phase != RF_DONE;
    bad += AUDIT("results, lagometer");
#undef AUDIT
    play_state_free(ps);
    free(ps);
    free(a);
    for (int j = 0; j < PLAY_SEATS; j++)
        bot_free(bots.bot[j]);
    return bad;
}

static void game_layouts_cut_nothing(void **state)
{
    Canvas *c = *state;
    NrError err = {{0}};
    Track *t = track_load(NETRACE_SOURCE_DIR "/tracks/default.track", &err);
    assert_non_null(t);
    /* F is fullscreen (no player drives with it), Ctrl + the text larger */
    Bots bots = {.track = t};
    PlayConfig cfg;
    PlayState *ps = game_open(c, &bots, 2, &cfg);
    assert_non_null(ps);
    key(ps, SDL_SCANCODE_F);
    assert_true(ps->want_fullscreen);
    SDL_Event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = SDL_KEYDOWN;
    ev.key.keysym.sym = SDLK_EQUALS;
    ev.key.keysym.scancode = SDL_SCANCODE_EQUALS;
    ev.key.keysym.mod = KMOD_RCTRL;
    play_handle_event(ps, &ev);
    assert_true(fabs(ps->view->scale - 1.1) < 1e-9);
    play_state_free(ps);
    free(ps);
    for (int j = 0; j < PLAY_SEATS; j++)
        bot_free(bots.bot[j]);
    int bad = audit_game(c, t, 2);
    bad += audit_game(c, t, 3);
    bad += audit_game(c, t, 4);
    track_free(t);
    assert_int_equal(bad, 0);
}

/* ---- text scale ----------------------------------------------------------- */

/* The T_dr control keeps its label with its value between - and + at every
 * size and scale (at 1280x720 x1.5 its "0.25" went up in the label's place,
 * the label dropped). */
static void tdr_control_keeps_its_label(void **state)
{
    Canvas *c = *state;
    Race f;
    assert_true(race_open(&f, "default.csv", "all"));
    replay_step_to(f.rp, 5 * NR_US_PER_S);
    GfxAudit *a = calloc(1, sizeof *a);
    int bad = 0;
    for (int i = 0; i < NSIZES; i++) {
        const Size *z = &fit_sizes[i];
        AppState *s = calloc(1, sizeof *s);
        AppConfig cfg = app_config_default();
        NrError err = {{0}};
        assert_true(app_state_init(s, f.rp, &cfg, canvas_at(c, z), &err));
        s->no_layers = true;
        s->scale = z->scale;
        gfx_audit_start(&s->gfx, a);
        app_draw(s, z->w, z->h);
        gfx_audit_stop(&s->gfx);
        const SDL_FRect *b = &s->lay.ctl[CTL_TDR];
        int label_y = -1, value_y = -1;
        for (int q = 0; q < a->n; q++) {
            const SDL_Rect *x = &a->rec[q].box;
            if (x->x < (int)b->x || x->x + x->w > (int)(b->x + b->w) || x->y < (int)b->y)
                continue;
            if (strcmp(a->rec[q].text, "T_dr") == 0)
                label_y = x->y;
            else if (strncmp(a->rec[q].text, "0.25", 4) == 0)
                value_y = x->y;
        }
        if (label_y < 0 || value_y <= label_y) {
            fprintf(stderr, "%dx%d x%g: T_dr's label at %d, its value at %d\n", z->w, z->h, z->scale, label_y,
                    value_y);
            bad++;
        }
        app_state_free(s);
        free(s);
    }
    free(a);
    race_close(&f);
    assert_int_equal(bad, 0);
}

/* The base text size: min(h / 42, w / 72) in 10..40 (docs/window.md), times
 * the scale, capped at min(h / 26, w / 48); Ctrl + / - / 0 step it. */
static void text_scale_steps(void **state)
{
    Canvas *c = *state;
    assert_int_equal(gfx_base_px(1280, 720, 1.0), 17);
    assert_int_equal(gfx_base_px(1920, 1080, 1.0), 25);
    assert_int_equal(gfx_base_px(1024, 768, 1.0), 14);  /* 1024 / 72 */
    assert_int_equal(gfx_base_px(640, 360, 1.0), 10);   /* at least 10 */
    assert_int_equal(gfx_base_px(3840, 2160, 1.0), 40); /* at most 40 */
    assert_int_equal(gfx_base_px(1280, 720, 1.5), 26);  /* 25.5 rounded */
    assert_int_equal(gfx_base_px(1280, 720, 3.0), 26);  /* the cap: 1280 / 48 */
    assert_int_equal(gfx_base_px(1920, 1080, 0.5), 13); /* 12.5 rounded */
    assert_true(fabs(gfx_scale_step(1.0, +1) - 1.1) < 1e-9);
    assert_true(fabs(gfx_scale_step(1.0, -1) - 0.9) < 1e-9);
    assert_true(fabs(gfx_scale_step(1.05, -1) - 1.0) < 1e-9);
    assert_true(gfx_scale_step(3.0, +1) == GFX_SCALE_MAX && gfx_scale_step(0.5, -1) == GFX_SCALE_MIN);
    /* the replay window: Ctrl + twice, Ctrl -, Ctrl 0; a plain + is the speed */
    Race f;
    assert_true(race_open(&f, "default.csv", "racing"));
    SDL_Renderer *r = canvas_at(c, &(Size){1280, 720, 1.0});
    AppState *s = calloc(1, sizeof *s);
    AppConfig cfg = app_config_default();
    cfg.replay = f.rp;
    cfg.scale = 1.25;
    NrError err = {{0}};
    assert_true(app_state_init(s, f.rp, &cfg, r, &err));
    app_draw(s, 1280, 720);
    assert_int_equal(s->lay.base, 21); /* 17 x 1.25 */
    SDL_Event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = SDL_KEYDOWN;
    ev.key.keysym.sym = SDLK_EQUALS;
    ev.key.keysym.mod = KMOD_LCTRL;
    app_handle_event(s, &ev);
    app_handle_event(s, &ev);
    assert_true(fabs(s->scale - 1.75) < 1e-9);
    assert_non_null(strstr(s->msg, "text x1.75"));
    app_draw(s, 1280, 720);
    assert_int_equal(s->lay.base, 26); /* 29.75 capped */
    ev.key.keysym.sym = SDLK_MINUS;
    app_handle_event(s, &ev);
    assert_true(fabs(s->scale - 1.5) < 1e-9);
    ev.key.keysym.sym = SDLK_0;
    app_handle_event(s, &ev);
    assert_true(s->scale == 1.0);
    double speed = s->speed;
    ev.key.keysym.sym = SDLK_EQUALS;
    ev.key.keysym.mod = 0;
    app_handle_event(s, &ev);
    assert_true(s->scale == 1.0 && s->speed == 2 * speed);
    app_state_free(s);
    free(s);
    race_close(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(replay_layouts_cut_nothing),
        cmocka_unit_test(nrace_layouts_cut_nothing),
        cmocka_unit_test(game_layouts_cut_nothing),
        cmocka_unit_test(text_scale_steps),
        cmocka_unit_test(tdr_control_keeps_its_label),
    };
    return cmocka_run_group_tests(tests, fit_setup, fit_teardown);
}
