/* The game with three and four players (issue 19), without a window: the
 * 2 x 2 grid's screen rectangles worked by hand, every screen showing every
 * car, the fourth cell of a three-player game showing none, a key for
 * player 2 moving the car drawn in that frame in the grid, a pad joining
 * seat 3 (SDL virtual joysticks: no pad is attached to the test machine)
 * with its light in car 3's colour, bad seats refused, the HUD's place and
 * links texts, a four-car race run to its results and recording, and each
 * screen's start lights kept legible and inside it in small windows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "netrace_config.h"
#include "play_internal.h"
#include "play_fixture.h"
#include "vpad.h"

#define W 640
#define H 360

typedef struct Fix {
    Track *track;
    SDL_Surface *surf;
    SDL_Renderer *r;
    Bot *bot[2][PLAY_SEATS]; /* two games' bots */
    int game;                /* whose bots make_bots makes */
    PlayConfig cfg;
    char dir[64];
    char rec[128], inputs[128];
} Fix;

typedef struct BotCtx {
    Fix *f;
    int game;
} BotCtx;

static BotCtx bot_ctx[2];

static bool make_bots(void *ctx, Controller ctl[PLAY_SEATS], NrError *err)
{
    BotCtx *bc = ctx;
    Fix *f = bc->f;
    CarParams p;
    car_params_default(&p);
    int n = f->cfg.race.ncars ? f->cfg.race.ncars : 2;
    for (int j = 0; j < n; j++) {
        if (f->cfg.kind[j] != PLAYER_BOT)
            continue;
        bot_free(f->bot[bc->game][j]);
        f->bot[bc->game][j] = bot_new(f->track, &p, (BotDriver){.skill = 0.9, .noise = 0.3}, 7, (uint64_t)j, err);
        if (!f->bot[bc->game][j])
            return false;
        ctl[j] = bot_controller(f->bot[bc->game][j]);
    }
    return true;
}

static int setup(void **state)
{
    Fix *f = calloc(1, sizeof *f);
    NrError err;
    f->track = track_load(NETRACE_SOURCE_DIR "/tracks/default.track", &err);
    if (!f->track || SDL_Init(SDL_INIT_VIDEO | SDL_INIT_GAMECONTROLLER | SDL_INIT_EVENTS) != 0 || TTF_Init() != 0)
        return -1;
    f->surf = SDL_CreateRGBSurfaceWithFormat(0, 1024, 768, 32, SDL_PIXELFORMAT_ARGB8888);
    f->r = SDL_CreateSoftwareRenderer(f->surf);
    snprintf(f->dir, sizeof f->dir, "/tmp/netrace-play4-XXXXXX");
    if (!f->r || !mkdtemp(f->dir))
        return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fix *f = *state;
    for (int g = 0; g < 2; g++)
        for (int j = 0; j < PLAY_SEATS; j++)
            bot_free(f->bot[g][j]);
    SDL_DestroyRenderer(f->r);
    SDL_FreeSurface(f->surf);
    track_free(f->track);
    TTF_Quit();
    SDL_Quit();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", f->dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", f->dir);
    free(f);
    return 0;
}

/* n players of the given kinds on the default track; plain shapes (their
 * colours are exact, sprites are filtered); recording to dir/name. */
static void config(Fix *f, int n, const PlayerKind *kind, const char *name)
{
    memset(&f->cfg, 0, sizeof f->cfg);
    LiveRaceConfig *lc = &f->cfg.race;
    lc->track = f->track;
    lc->track_file = "default.track";
    lc->ncars = n;
    NrError err;
    lc->engine.nschemes = scheme_parse_list("nc,dr", lc->engine.schemes, SCHEME_MAX, &err);
    assert_int_equal(lc->engine.nschemes, 2);
    lc->engine.seed = 3;
    lc->engine.params = scheme_default_params();
    lc->shown = 0;
    lc->flow.laps = 1;
    lc->source = "human";
    lc->created = "test";
    if (name) {
        snprintf(f->rec, sizeof f->rec, "%s/%s.csv", f->dir, name);
        snprintf(f->inputs, sizeof f->inputs, "%s/%s.inputs.csv", f->dir, name);
        lc->rec_path = f->rec;
        lc->inputs_path = f->inputs;
    }
    for (int j = 0; j < PLAY_SEATS; j++)
        f->cfg.kind[j] = j < n ? kind[j] : PLAYER_BOT;
    f->cfg.make_ctl = make_bots;
    bot_ctx[0] = (BotCtx){f, 0};
    bot_ctx[1] = (BotCtx){f, 1};
    f->cfg.make_ctx = &bot_ctx[0];
    f->cfg.assets_dir = NETRACE_SOURCE_DIR "/no-such-assets";
}



static bool same_rgb(SDL_Color a, SDL_Color b)
{
    return a.r == b.r && a.g == b.g && a.b == b.b;
}

/* Pixels of colour c inside rect of the rendered surface. */
static int colour_pixels(SDL_Surface *s, const SDL_FRect *rect, SDL_Color c)
{
    int n = 0;
    for (int y = (int)rect->y; y < (int)(rect->y + rect->h); y++)
        for (int x = (int)rect->x; x < (int)(rect->x + rect->w); x++) {
            Uint32 px = ((Uint32 *)s->pixels)[y * (s->pitch / 4) + x];
            SDL_Color got;
            SDL_GetRGB(px, s->format, &got.r, &got.g, &got.b);
            n += same_rgb(got, c);
        }
    return n;
}

/* Two players side by side as always; three or four in a 2 x 2 grid with a
 * 2 px frame: by hand for 640 x 360 (half 320, 180). */
static void test_layout(void **state)
{
    (void)state;
    PlayState ps;
    memset(&ps, 0, sizeof ps);
    ps.nseats = 2;
    const float two[2][4] = {{0, 0, 319, 360}, {321, 0, 319, 360}};
    for (int j = 0; j < 2; j++) {
        SDL_FRect r = play_screen_rect(&ps, j, W, H);
        assert_true(r.x == two[j][0] && r.y == two[j][1] && r.w == two[j][2] && r.h == two[j][3]);
    }
    const float grid[4][4] = {{0, 0, 319, 179}, {321, 0, 319, 179}, {0, 181, 319, 179}, {321, 181, 319, 179}};
    for (int n = 3; n <= 4; n++) {
        ps.nseats = n;
        for (int j = 0; j < n; j++) {
            SDL_FRect r = play_screen_rect(&ps, j, W, H);
            assert_true(r.x == grid[j][0] && r.y == grid[j][1] && r.w == grid[j][2] && r.h == grid[j][3]);
        }
    }
}

/* The place as a screen shows it: the cars further along, a tie to the
 * later car; the lines that bring the others to a screen. */
static void test_place_and_links(void **state)
{
    (void)state;
    EngineView v;
    memset(&v, 0, sizeof v);
    const double prog[4] = {10.0, 30.0, 10.0, 5.0}; /* car 2 first; cars 1 and 3 tie: car 3 ahead */
    memcpy(v.progress, prog, sizeof prog);
    assert_int_equal(play_place(&v, 4, 1), 1);
    assert_int_equal(play_place(&v, 4, 2), 2);
    assert_int_equal(play_place(&v, 4, 0), 3);
    assert_int_equal(play_place(&v, 4, 3), 4);
    assert_int_equal(play_place(&v, 2, 0), 2); /* two cars: car 2 ahead */

    LinkSpec dflt, fast, up, down;
    NrError err;
    assert_true(linkspec_parse(&dflt, "delay 75ms 10ms", NULL, &err));
    assert_true(linkspec_parse(&fast, "delay 10ms", NULL, &err));
    assert_true(linkspec_parse(&up, "delay 40ms", NULL, &err));
    assert_true(linkspec_parse(&down, "delay 5ms 1ms", NULL, &err));
    PlayConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    PlayState ps;
    memset(&ps, 0, sizeof ps);
    ps.cfg = &cfg;
    EngineConfig *ec = &cfg.race.engine;
    char t[128];
    ps.nseats = 2;
    ec->link[0] = ec->link[1] = &dflt;
    assert_false(play_links_text(&ps, 0, t, sizeof t)); /* the two-player HUD, live */
    ec->pair_link[1][0] = &fast;
    assert_true(play_links_text(&ps, 0, t, sizeof t));
    assert_string_equal(t, "link 2→1 10 ms");
    ps.nseats = 4;
    for (int i = 0; i < 4; i++)
        ec->link[i] = &dflt;
    memset(ec->pair_link, 0, sizeof ec->pair_link);
    assert_true(play_links_text(&ps, 2, t, sizeof t));
    assert_string_equal(t, "links →3 75±10 ms");
    ec->pair_link[3][2] = &fast;
    assert_true(play_links_text(&ps, 2, t, sizeof t));
    assert_string_equal(t, "links →3 10 to 75 ms");
    ec->topology = ROUTE_CS;
    for (int i = 0; i < 4; i++)
        ec->up_link[i] = &up;
    ec->down_link[2] = &down;
    assert_true(play_links_text(&ps, 2, t, sizeof t));
    assert_string_equal(t, "cs relay ↑40 ms ↓5±1 ms");
    ec->server = ROUTE_SYNC;
    assert_true(play_links_text(&ps, 1, t, sizeof t));
    assert_string_equal(t, "cs sync ↑40 ms ↓0 ms"); /* no downlink: no delay */
    linkspec_free(&dflt);
    linkspec_free(&fast);
    linkspec_free(&up);
    linkspec_free(&down);
}

/* Four players on the grid: every screen shows every car (the camera on
 * its own, the others 3 to 9 cw behind or ahead, and the minimap's dots). */
static void test_every_screen_every_car(void **state)
{
    Fix *f = *state;
    const PlayerKind kind[4] = {PLAYER_KEYS, PLAYER_KEYS, PLAYER_BOT, PLAYER_BOT};
    config(f, 4, kind, NULL);
    PlayState ps;
    NrError err;
    assert_true(play_state_init(&ps, &f->cfg, f->r, &err));
    assert_int_equal(ps.nseats, 4);
    play_draw(&ps, W, H);
    SDL_RenderPresent(f->r);
    for (int j = 0; j < 4; j++) {
        SDL_FRect cell = play_screen_rect(&ps, j, W, H);
        for (int c = 0; c < 4; c++)
            if (colour_pixels(f->surf, &cell, pal_car(c)) == 0)
                fail_msg("screen %d shows no pixel of car %d's colour", j + 1, c + 1);
    }
    play_state_free(&ps);
}

/* Three players: the fourth cell is nobody's screen and shows no car. */
static void test_three_players_fourth_cell(void **state)
{
    Fix *f = *state;
    const PlayerKind kind[3] = {PLAYER_KEYS, PLAYER_BOT, PLAYER_BOT};
    config(f, 3, kind, NULL);
    PlayState ps;
    NrError err;
    assert_true(play_state_init(&ps, &f->cfg, f->r, &err));
    play_draw(&ps, W, H);
    SDL_RenderPresent(f->r);
    SDL_FRect fourth = {321, 181, 319, 179};
    assert_true(colour_pixels(f->surf, &fourth, PAL_BG) > 0);
    for (int c = 0; c < 3; c++)
        assert_int_equal(colour_pixels(f->surf, &fourth, pal_car(c)), 0);
    SDL_FRect third = play_screen_rect(&ps, 2, W, H);
    assert_true(colour_pixels(f->surf, &third, pal_car(2)) > 0);
    play_state_free(&ps);
}

/* A key of player 2 read in frame n moves car 2 drawn in frame n, in the
 * grid: two games alike but for Up held before frame n in one. */
static void test_input_to_photon_in_the_grid(void **state)
{
    Fix *f = *state;
    const PlayerKind kind[4] = {PLAYER_KEYS, PLAYER_KEYS, PLAYER_BOT, PLAYER_BOT};
    config(f, 4, kind, NULL);
    PlayState a, b;
    NrError err;
    assert_true(play_state_init(&a, &f->cfg, f->r, &err));
    PlayConfig cfg_b = f->cfg; /* b's own bots: same seed, same streams */
    cfg_b.make_ctx = &bot_ctx[1];
    assert_true(play_state_init(&b, &cfg_b, f->r, &err));
    Uint8 keys_a[SDL_NUM_SCANCODES] = {0}, keys_b[SDL_NUM_SCANCODES] = {0};
    a.key_state = keys_a;
    b.key_state = keys_b;
    play_go_racing(&a);
    play_go_racing(&b);
    keys_b[SDL_SCANCODE_UP] = 1;
    play_frame(&a, 16667);
    play_frame(&b, 16667);
    Pose pa, pb;
    play_shown_pose(&a, 1, 1, &pa);
    play_shown_pose(&b, 1, 1, &pb);
    assert_true(pa.x != pb.x || pa.y != pb.y);
    AppXform xa, xb;
    play_screen_xform(&a, 1, W, H, &xa);
    play_screen_xform(&b, 1, W, H, &xb);
    assert_true(xa.wx != xb.wx || xa.wy != xb.wy);
    assert_true(xa.rect.x == 321 && xa.rect.y == 0); /* P2's cell: top right */
    /* player 1 (keys up) is not driven by Up; the bots of seats 3 and 4
     * read the world, car 2 included, so they may answer its move */
    play_shown_pose(&a, 0, 0, &pa);
    play_shown_pose(&b, 0, 0, &pb);
    assert_true(pa.x == pb.x && pa.y == pb.y);
    assert_true(a.in[1].throttle == 0.0 && b.in[1].throttle == 1.0);
    play_state_free(&a);
    play_state_free(&b);
}

typedef struct LedLog {
    int calls;
    Uint8 rgb[3];
} LedLog;

static int set_led(void *ud, Uint8 r, Uint8 g, Uint8 b)
{
    LedLog *l = ud;
    l->calls++;
    l->rgb[0] = r;
    l->rgb[1] = g;
    l->rgb[2] = b;
    return 0;
}


/* Each screen's start lights in the 2 x 2 grid: at base 5 px at least (7
 * px discs), inside their screen, three lit red two and a half seconds
 * before the start, "GO" inside the screen at the start; at 1024 x 768,
 * 640 x 360 and in a window of 320 x 240 (base 10: the HUD strip and the
 * instruments leave less room than the lights' floor between them), with
 * and without the lagometers. Before, the lights shrank to the room
 * between strip and instruments: 0 px with the lagometers at 640 x 360. */
static void check_lights(PlayState *ps, SDL_Surface *surf, int w, int h, bool go)
{
    GfxAudit *a = calloc(1, sizeof *a);
    assert_non_null(a);
    gfx_audit_start(&ps->view->gfx, a);
    play_draw(ps, w, h);
    gfx_audit_stop(&ps->view->gfx);
    SDL_RenderPresent(ps->r);
    for (int j = 0; j < 4; j++) {
        PlayLights l = play_lights_place(ps, j, w, h);
        SDL_FRect r = play_screen_rect(ps, j, w, h), p = l.panel;
        if (l.base < 5.0f || p.w <= 0 || p.h <= 0 || p.x < r.x || p.y < r.y || p.x + p.w > r.x + r.w ||
            p.y + p.h > r.y + r.h)
            fail_msg("%dx%d lag %d screen %d: lights at base %.2f, panel %.1f,%.1f %.1fx%.1f out of the screen "
                     "%.0f,%.0f %.0fx%.0f", w, h, ps->lag, j + 1, (double)l.base, (double)p.x, (double)p.y,
                     (double)p.w, (double)p.h, (double)r.x, (double)r.y, (double)r.w, (double)r.h);
        /* a disc of radius 1.4 base: at least 100 px each at the floor, at most its square */
        int red = colour_pixels(surf, &p, gfx_rgb(240, 30, 30)), green = colour_pixels(surf, &p, PAL_GO);
        int most = (int)(4.0f * 1.4f * 1.4f * l.base * l.base);
        if (go ? green < 5 * 100 || green > 5 * most : red < 3 * 100 || red > 3 * most)
            fail_msg("%dx%d lag %d screen %d: %d red, %d green pixels in the lights", w, h, ps->lag, j + 1, red,
                     green);
    }
    int gos = 0;
    for (int i = 0; i < a->n; i++) {
        const GfxTextRec *t = &a->rec[i];
        if (strcmp(t->text, "GO") != 0)
            continue;
        gos++;
        if (t->box.x < t->room.x || t->box.y < t->room.y || t->box.x + t->box.w > t->room.x + t->room.w ||
            t->box.y + t->box.h > t->room.y + t->room.h || t->room.w > w / 2 || t->room.h > h / 2)
            fail_msg("%dx%d lag %d: GO at %d,%d %dx%d out of its screen %d,%d %dx%d", w, h, ps->lag, t->box.x,
                     t->box.y, t->box.w, t->box.h, t->room.x, t->room.y, t->room.w, t->room.h);
    }
    assert_int_equal(gos, go ? 4 : 0);
    free(a);
}

static void test_lights_keep_a_floor(void **state)
{
    Fix *f = *state;
    const PlayerKind bots[4] = {PLAYER_BOT, PLAYER_BOT, PLAYER_BOT, PLAYER_BOT};
    config(f, 4, bots, NULL);
    PlayState ps;
    NrError err;
    assert_true(play_state_init(&ps, &f->cfg, f->r, &err));
    assert_int_equal(liverace_flow(ps.lr)->phase, RF_COUNTDOWN); /* bots start by themselves */
    const int size[3][2] = {{1024, 768}, {640, 360}, {320, 240}};
    for (int go = 0; go < 2; go++) {
        int64_t at = go ? 100000 : -2500000; /* three lit; then GO */
        for (int i = 0; i < 60 * 10 && play_lights_to_go(&ps) < at; i++)
            play_frame(&ps, 16667);
        assert_true(play_lights_to_go(&ps) >= at && play_lights_to_go(&ps) < at + 100000);
        for (int z = 0; z < 3; z++)
            for (int lag = 0; lag < 2; lag++) {
                ps.lag = lag;
                check_lights(&ps, f->surf, size[z][0], size[z][1], go);
            }
    }
    play_state_free(&ps);
}

/* Seat 3 plays with a pad: no pad, the grid waits and says so; a virtual
 * pad plugged in joins seat 3 with a button, lights in car 3's colour, has
 * player index 2 and drives car 3; unplugged, it pauses the race naming
 * player 3. */
static void test_pad_for_seat_3(void **state)
{
    Fix *f = *state;
    const PlayerKind kind[4] = {PLAYER_KEYS, PLAYER_BOT, PLAYER_PAD, PLAYER_BOT};
    config(f, 4, kind, NULL);
    PlayState ps;
    NrError err;
    assert_true(play_state_init(&ps, &f->cfg, f->r, &err));
    Uint8 keys[SDL_NUM_SCANCODES] = {0};
    ps.key_state = keys;
    play_key(&ps, SDL_SCANCODE_SPACE);
    assert_int_equal(liverace_flow(ps.lr)->phase, RF_GRID); /* no pad: the grid waits */
    assert_non_null(strstr(ps.msg, "waiting for a gamepad"));
    play_draw(&ps, W, H); /* the grid box names P3's missing pad */
    LedLog led = {0, {0, 0, 0}};
    SDL_Joystick *j = vpad_attach("virtual pad 3", set_led, &led);
    play_pump(&ps);
    SDL_JoystickSetVirtualButton(j, SDL_CONTROLLER_BUTTON_A, 1);
    play_pump(&ps);
    assert_true(pads_has(&ps.pads, 2));
    assert_false(pads_has(&ps.pads, 0) || pads_has(&ps.pads, 1) || pads_has(&ps.pads, 3));
    assert_non_null(strstr(ps.msg, "player 3 drives with virtual pad 3"));
    SDL_Color green = pal_car(2);
    assert_true(led.calls > 0 && led.rgb[0] == green.r && led.rgb[1] == green.g && led.rgb[2] == green.b);
    assert_int_equal(SDL_JoystickGetPlayerIndex(j), 2);
    SDL_JoystickSetVirtualButton(j, SDL_CONTROLLER_BUTTON_A, 0);
    play_pump(&ps);
    play_go_racing(&ps);
    SDL_JoystickSetVirtualAxis(j, SDL_CONTROLLER_AXIS_TRIGGERRIGHT, 32767);
    play_pump(&ps);
    for (int i = 0; i < 60; i++)
        play_frame(&ps, 16667);
    assert_true(liverace_speed(ps.lr, 2) > 1.0); /* the pad drives car 3 */
    assert_true(ps.in[2].throttle == 1.0 && ps.in[0].throttle == 0.0); /* player 1's keys are up */
    vpad_detach(j);
    play_pump(&ps);
    assert_true(ps.paused);
    assert_non_null(strstr(ps.pause_why, "player 3 lost the gamepad (virtual pad 3)"));
    play_state_free(&ps);
}

/* Seats the game cannot fill: keys for player 3, five players, one. */
static void test_bad_seats(void **state)
{
    Fix *f = *state;
    const PlayerKind keys3[3] = {PLAYER_BOT, PLAYER_BOT, PLAYER_KEYS};
    config(f, 3, keys3, NULL);
    PlayState ps;
    NrError err = {{0}};
    assert_false(play_state_init(&ps, &f->cfg, f->r, &err));
    assert_string_equal(err.msg, "player 3 cannot drive with keys: the keyboard drives players 1 and 2");
    play_state_free(&ps);
    const PlayerKind bots[4] = {PLAYER_BOT, PLAYER_BOT, PLAYER_BOT, PLAYER_BOT};
    config(f, 4, bots, NULL);
    f->cfg.race.ncars = 5;
    assert_false(play_state_init(&ps, &f->cfg, f->r, &err));
    assert_string_equal(err.msg, "a game seats 2 to 4 players, not 5");
    play_state_free(&ps);
    f->cfg.race.ncars = 1;
    assert_false(play_state_init(&ps, &f->cfg, f->r, &err));
    play_state_free(&ps);
}

/* Four bots race a lap in the game loop to the results: every car finishes
 * in the truth, the board is drawn at two window sizes, and the recording
 * holds four cars. */
static void test_four_bots_to_the_results(void **state)
{
    Fix *f = *state;
    const PlayerKind bots[4] = {PLAYER_BOT, PLAYER_BOT, PLAYER_BOT, PLAYER_BOT};
    config(f, 4, bots, "four");
    PlayState ps;
    NrError err;
    assert_true(play_state_init(&ps, &f->cfg, f->r, &err));
    assert_int_equal(liverace_flow(ps.lr)->phase, RF_COUNTDOWN); /* bots start by themselves */
    for (int i = 0; i < 60 * 120 && liverace_flow(ps.lr)->phase != RF_DONE; i++)
        play_frame(&ps, 16667);
    const RaceFlow *rf = liverace_flow(ps.lr);
    assert_int_equal(rf->phase, RF_DONE);
    RaceResult truth;
    raceflow_result(rf, RACEFLOW_TRUTH, &truth);
    assert_int_equal(truth.ncars, 4);
    for (int c = 0; c < 4; c++)
        assert_true(truth.finished[c]);
    play_draw(&ps, W, H);
    play_draw(&ps, 1024, 768);
    play_state_free(&ps); /* the recording is in place */
    Recording rec;
    assert_true(recording_load(&rec, f->rec, &err));
    assert_int_equal(rec.ncars, 4);
    assert_string_equal(recording_meta_get(&rec, "topology"), "p2p");
    recording_free(&rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_place_and_links),
        cmocka_unit_test(test_every_screen_every_car),
        cmocka_unit_test(test_three_players_fourth_cell),
        cmocka_unit_test(test_input_to_photon_in_the_grid),
        cmocka_unit_test(test_pad_for_seat_3),
        cmocka_unit_test(test_bad_seats),
        cmocka_unit_test(test_four_bots_to_the_results),
        cmocka_unit_test(test_lights_keep_a_floor),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
