/* The game without a window: its state, frame logic and drawing on a
 * software renderer bound to a memory surface (SDL_VIDEODRIVER=dummy).
 * Input to photon (a key read in frame n moves the car drawn in frame n),
 * a gamepad unplugged mid-race (the race pauses and names the player), the
 * window closed mid-race (the recording is finalised), plain shapes when the
 * assets are missing. Pads are SDL virtual joysticks: no pad is attached to
 * the test machine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot.h"
#include "inputs.h"
#include "netrace_config.h"
#include "play_internal.h"
#include "play_fixture.h"
#include "vpad.h"

#include <SDL_image.h>

typedef struct Fix Fix;

/* The bots of one game (a restart remakes them; two games, two sets). */
typedef struct BotSet {
    Fix *f;
    Bot *bot[2];
} BotSet;

struct Fix {
    Track *track;
    SDL_Surface *surf;
    SDL_Renderer *r;
    BotSet bots[2];
    PlayConfig cfg;
    char dir[64];
    char rec[128], inputs[128];
};

static bool make_bots(void *ctx, Controller ctl[2], NrError *err)
{
    BotSet *bs = ctx;
    CarParams p;
    car_params_default(&p);
    for (int j = 0; j < 2; j++) {
        if (bs->f->cfg.kind[j] != PLAYER_BOT)
            continue;
        bot_free(bs->bot[j]);
        bs->bot[j] = bot_new(bs->f->track, &p, (BotDriver){.skill = 0.9, .noise = 0.3}, 5, (uint64_t)j, err);
        if (!bs->bot[j])
            return false;
        ctl[j] = bot_controller(bs->bot[j]);
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
    f->surf = SDL_CreateRGBSurfaceWithFormat(0, 640, 360, 32, SDL_PIXELFORMAT_ARGB8888);
    f->r = SDL_CreateSoftwareRenderer(f->surf);
    snprintf(f->dir, sizeof f->dir, "/tmp/netrace-play-XXXXXX");
    if (!mkdtemp(f->dir))
        return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fix *f = *state;
    for (int b = 0; b < 2; b++)
        for (int j = 0; j < 2; j++)
            bot_free(f->bots[b].bot[j]);
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

/* A config for players p1, p2 on the default track, recording to dir/name. */
static void config(Fix *f, PlayerKind p1, PlayerKind p2, const char *name)
{
    memset(&f->cfg, 0, sizeof f->cfg);
    LiveRaceConfig *lc = &f->cfg.race;
    lc->track = f->track;
    lc->track_file = "default.track";
    NrError err;
    int n = scheme_parse_list("nc,dr", lc->engine.schemes, SCHEME_MAX, &err);
    assert_int_equal(n, 2);
    lc->engine.nschemes = n;
    lc->engine.seed = 3;
    lc->engine.params = scheme_default_params();
    lc->engine.keep_history = true;
    lc->shown = 1;
    lc->flow.laps = 1;
    lc->source = "human";
    lc->created = "test";
    if (name) {
        snprintf(f->rec, sizeof f->rec, "%s/%s.csv", f->dir, name);
        snprintf(f->inputs, sizeof f->inputs, "%s/%s.inputs.csv", f->dir, name);
        lc->rec_path = f->rec;
        lc->inputs_path = f->inputs;
    }
    f->cfg.kind[0] = p1;
    f->cfg.kind[1] = p2;
    f->cfg.make_ctl = make_bots;
    f->bots[0].f = f->bots[1].f = f;
    f->cfg.make_ctx = &f->bots[0];
    f->cfg.assets_dir = NETRACE_SOURCE_DIR "/assets";
}


/* A key read in frame n moves the car drawn in frame n: two games, the same
 * but for W pressed before frame n in one of them. */
static void test_input_to_photon(void **state)
{
    Fix *f = *state;
    config(f, PLAYER_KEYS, PLAYER_BOT, NULL);
    PlayState a, b;
    NrError err;
    assert_true(play_state_init(&a, &f->cfg, f->r, &err));
    Uint8 keys_a[SDL_NUM_SCANCODES] = {0}, keys_b[SDL_NUM_SCANCODES] = {0};
    a.key_state = keys_a;
    play_go_racing(&a);
    PlayConfig cfg_b = f->cfg; /* b's own bots: same seed, same streams */
    cfg_b.make_ctx = &f->bots[1];
    assert_true(play_state_init(&b, &cfg_b, f->r, &err));
    b.key_state = keys_b;
    play_go_racing(&b);
    for (int i = 0; i < 10; i++) { /* both idle on the grid line */
        play_frame(&a, 16667);
        play_frame(&b, 16667);
    }
    Pose pa, pb;
    play_shown_pose(&a, 0, 0, &pa);
    play_shown_pose(&b, 0, 0, &pb);
    assert_true(pa.x == pb.x && pa.y == pb.y);
    keys_b[SDL_SCANCODE_W] = 1; /* pressed before frame n */
    play_frame(&a, 16667);
    play_frame(&b, 16667);
    play_shown_pose(&a, 0, 0, &pa);
    play_shown_pose(&b, 0, 0, &pb);
    assert_true(pb.x != pa.x || pb.y != pa.y); /* moved on the frame drawn now */
    /* and the camera of frame n follows the moved car: the drawing differs */
    AppXform xa, xb;
    play_draw(&a, 640, 360);
    play_screen_xform(&a, 0, 640, 360, &xa);
    play_draw(&b, 640, 360);
    play_screen_xform(&b, 0, 640, 360, &xb);
    assert_true(xa.wx != xb.wx || xa.wy != xb.wy);
    /* player 2's screen (a bot, the other terminal) is not driven by W */
    Pose qa, qb;
    play_shown_pose(&a, 1, 1, &qa);
    play_shown_pose(&b, 1, 1, &qb);
    assert_true(qa.x == qb.x && qa.y == qb.y);
    play_state_free(&a);
    play_state_free(&b);
}

static SDL_Joystick *attach_pad(void)
{
    return vpad_attach("virtual pad", NULL, NULL);
}


static void test_pad_unplugged_mid_race(void **state)
{
    Fix *f = *state;
    config(f, PLAYER_BOT, PLAYER_PAD, "padrace");
    PlayState ps;
    NrError err;
    assert_true(play_state_init(&ps, &f->cfg, f->r, &err));
    SDL_Joystick *j = attach_pad();
    play_pump(&ps);
    /* the grid waits for the pad player */
    SDL_Event sp;
    memset(&sp, 0, sizeof sp);
    sp.type = SDL_KEYDOWN;
    sp.key.keysym.scancode = SDL_SCANCODE_SPACE;
    play_handle_event(&ps, &sp);
    assert_int_equal(liverace_flow(ps.lr)->phase, RF_GRID);
    /* press a button to join */
    SDL_JoystickSetVirtualButton(j, SDL_CONTROLLER_BUTTON_A, 1);
    play_pump(&ps);
    assert_true(pads_has(&ps.pads, 1));
    SDL_JoystickSetVirtualButton(j, SDL_CONTROLLER_BUTTON_A, 0);
    play_pump(&ps);
    play_go_racing(&ps);
    /* full throttle on the right trigger for a second */
    SDL_JoystickSetVirtualAxis(j, SDL_CONTROLLER_AXIS_TRIGGERRIGHT, 32767);
    play_pump(&ps);
    for (int i = 0; i < 60; i++)
        play_frame(&ps, 16667);
    assert_true(liverace_speed(ps.lr, 1) > 1.0); /* the pad drives car 2 */
    /* unplugged mid-race */
    vpad_detach(j);
    play_pump(&ps);
    assert_true(ps.paused);
    assert_non_null(strstr(ps.pause_why, "player 2 lost the gamepad"));
    assert_non_null(strstr(ps.pause_why, "virtual pad"));
    int64_t t = ps.race_us;
    for (int i = 0; i < 30; i++)
        play_frame(&ps, 16667);
    assert_int_equal(ps.race_us, t); /* the race clock stopped */
    play_draw(&ps, 640, 360); /* the pause box names the player */
    const char *shots = getenv("NETRACE_TEST_SHOTS"); /* to look at it: a folder for the PNG */
    if (shots) {
        char png[512];
        snprintf(png, sizeof png, "%s/pad-lost.png", shots);
        SDL_RenderPresent(f->r);
        IMG_SavePNG(f->surf, png);
    }
    /* resuming without a pad is refused */
    SDL_Event esc;
    memset(&esc, 0, sizeof esc);
    esc.type = SDL_KEYDOWN;
    esc.key.keysym.scancode = SDL_SCANCODE_ESCAPE;
    play_handle_event(&ps, &esc);
    assert_true(ps.paused);
    /* a pad comes back, joins, and the race resumes */
    SDL_Joystick *j2 = attach_pad();
    play_pump(&ps);
    SDL_JoystickSetVirtualButton(j2, SDL_CONTROLLER_BUTTON_B, 1);
    play_pump(&ps);
    assert_true(pads_has(&ps.pads, 1));
    play_handle_event(&ps, &esc);
    assert_false(ps.paused);
    play_frame(&ps, 16667);
    assert_true(ps.race_us > t);
    /* a spectator's pad: its Start neither pauses nor joins, its unplug is nobody's */
    SDL_Joystick *spec = attach_pad();
    play_pump(&ps);
    SDL_JoystickSetVirtualButton(spec, SDL_CONTROLLER_BUTTON_START, 1);
    play_pump(&ps);
    assert_false(ps.paused);
    vpad_detach(spec);
    play_pump(&ps);
    assert_false(ps.paused);
    play_state_free(&ps);
    vpad_detach(j2);
}

/* Closing the window mid-race: the loop quits and frees the game, which
 * renames the recording and the inputs into place, readable to the last
 * sample driven. */
static void test_window_closed_mid_race(void **state)
{
    Fix *f = *state;
    config(f, PLAYER_BOT, PLAYER_BOT, "closed");
    PlayState ps;
    NrError err;
    assert_true(play_state_init(&ps, &f->cfg, f->r, &err));
    /* bots start without anyone pressing Space: lights, then 2 s of racing */
    for (int i = 0; i < 5 * 60 + 2 + 120; i++)
        play_frame(&ps, 16667);
    assert_int_equal(liverace_flow(ps.lr)->phase, RF_RACING);
    char part[160];
    snprintf(part, sizeof part, "%s.part", f->rec);
    assert_int_equal(access(part, F_OK), 0); /* being written */
    SDL_Event q;
    memset(&q, 0, sizeof q);
    q.type = SDL_QUIT;
    play_handle_event(&ps, &q);
    assert_true(ps.want_quit);
    int64_t driven = ps.race_us;
    play_state_free(&ps);
    assert_int_equal(access(part, F_OK), -1);
    Recording rec;
    assert_true(recording_load(&rec, f->rec, &err));
    assert_false(rec.truncated);
    assert_string_equal(rec.source, "human");
    /* every 33 ms sample up to the time driven */
    int64_t last_ms = (int64_t)rec.samples[rec.nsamples - 1].t_ms;
    assert_true(last_ms <= driven / 1000);
    assert_true(last_ms > driven / 1000 - 33 - 6);
    recording_free(&rec);
    InputScript s;
    assert_true(inputs_load(&s, f->inputs, &err));
    inputs_free(&s);
}

/* No assets: one line each, plain shapes, the game draws on. */
static void test_missing_assets(void **state)
{
    Fix *f = *state;
    config(f, PLAYER_BOT, PLAYER_BOT, NULL);
    f->cfg.assets_dir = "/nonexistent-netrace-assets";
    PlayState ps;
    NrError err;
    assert_true(play_state_init(&ps, &f->cfg, f->r, &err));
    assert_null(ps.sprites.car[0]);
    assert_null(ps.sprites.car[1]);
    assert_null(ps.sprites.icon);
    for (int i = 0; i < 5 * 60 + 30; i++)
        play_frame(&ps, 16667);
    play_draw(&ps, 640, 360);
    /* the own car is drawn in its colour (plain shapes): find car 1's orange
     * on player 1's screen */
    SDL_RenderPresent(f->r);
    int found = 0;
    Uint32 *px = f->surf->pixels;
    for (int y = 0; y < 360; y++)
        for (int x = 0; x < 320; x++) {
            Uint8 r, g, b;
            SDL_GetRGB(px[y * (f->surf->pitch / 4) + x], f->surf->format, &r, &g, &b);
            found += r == 255 && g == 96 && b == 48;
        }
    assert_true(found > 20);
    play_state_free(&ps);
    /* with the assets, sprites */
    config(f, PLAYER_BOT, PLAYER_BOT, NULL);
    assert_true(play_state_init(&ps, &f->cfg, f->r, &err));
    assert_non_null(ps.sprites.car[0]);
    assert_non_null(ps.sprites.icon);
    play_state_free(&ps);
}


static bool next_paths(void *ctx, int race, char *rec, char *inputs, size_t n)
{
    BotSet *bs = ctx;
    snprintf(rec, n, "%s/again-%d.csv", bs->f->dir, race);
    snprintf(inputs, n, "%s/again-%d.inputs.csv", bs->f->dir, race);
    return true;
}

/* R on the pause screen: the race so far is kept (renamed into place) and a
 * new race starts on the grid, recorded under the next name. */
static void test_restart_keeps_the_race(void **state)
{
    Fix *f = *state;
    config(f, PLAYER_KEYS, PLAYER_BOT, "first");
    f->cfg.next_rec_path = next_paths;
    PlayState ps;
    NrError err;
    assert_true(play_state_init(&ps, &f->cfg, f->r, &err));
    play_go_racing(&ps);
    for (int i = 0; i < 60; i++)
        play_frame(&ps, 16667);
    play_key(&ps, SDL_SCANCODE_R); /* not while racing */
    assert_int_equal(ps.race_no, 1);
    play_key(&ps, SDL_SCANCODE_ESCAPE);
    play_key(&ps, SDL_SCANCODE_R);
    assert_int_equal(ps.race_no, 2);
    assert_false(ps.paused);
    assert_int_equal(liverace_flow(ps.lr)->phase, RF_GRID);
    Recording r;
    assert_true(recording_load(&r, f->rec, &err)); /* the first race, finalised */
    assert_true(r.nsamples > 30);
    recording_free(&r);
    char part[160];
    snprintf(part, sizeof part, "%s/again-2.csv.part", f->dir);
    assert_int_equal(access(part, F_OK), 0);
    play_state_free(&ps);
    /* quit on the grid of the second race: nothing was driven, no file left */
    assert_int_equal(access(part, F_OK), -1);
    snprintf(part, sizeof part, "%s/again-2.csv", f->dir);
    assert_int_equal(access(part, F_OK), -1);
    snprintf(part, sizeof part, "%s/again-2.inputs.csv", f->dir);
    assert_int_equal(access(part, F_OK), -1);
}

/* The marks of player p kept for the screens (every key's go through
 * play_mark into ps.marks). */
static int seat_marks(const PlayState *ps, int p)
{
    int n = 0;
    for (int i = 0; i < ps->nmarks; i++)
        n += ps->marks[i].player == p && strcmp(ps->marks[i].kind, "dissatisfied") == 0;
    return n;
}

/* The mark key (player 1 Left Shift, player 2 Right Shift, a pad's Y)
 * while racing: a '# mark:' line with the player in the recording at once,
 * "MARKED" on that player's HUD for a second; nothing on the grid or while
 * paused. Blinding: the HUD names no scheme and no link, only the note. A
 * session (a study) ignores restart, replay, overview and quit keys. */
static void test_mark_blind_session(void **state)
{
    Fix *f = *state;
    config(f, PLAYER_KEYS, PLAYER_KEYS, "marked");
    PlayState ps;
    NrError err;
    assert_true(play_state_init(&ps, &f->cfg, f->r, &err));
    char right[160];
    play_hud_right(&ps, 1, right, sizeof right);
    assert_non_null(strstr(right, "dr · link 1→2 ")); /* not blind: scheme and link */
    play_key(&ps, SDL_SCANCODE_LSHIFT); /* on the grid: no mark */
    assert_int_equal(seat_marks(&ps, 1), 0);
    play_go_racing(&ps);
    for (int i = 0; i < 30; i++)
        play_frame(&ps, 16667);
    play_key(&ps, SDL_SCANCODE_RSHIFT);
    assert_int_equal(seat_marks(&ps, 2), 1);
    assert_int_equal(seat_marks(&ps, 1), 0);
    play_hud_right(&ps, 1, right, sizeof right);
    assert_true(strncmp(right, "MARKED · dr", 11) == 0);
    play_hud_right(&ps, 0, right, sizeof right);
    assert_null(strstr(right, "MARKED"));
    for (int i = 0; i < 61; i++) /* a second later the HUD is back */
        play_frame(&ps, 16667);
    play_hud_right(&ps, 1, right, sizeof right);
    assert_null(strstr(right, "MARKED"));
    /* Ctrl + as a US keyboard types it (Ctrl+Shift+=, Shift being player
     * 1's mark key), either order: the text grows, nobody is marked (issue
     * 22 trial D2); Shift held down marks only when released */
    double scale0 = ps.view->scale;
    play_ctrl_plus(&ps, false);
    assert_true(ps.view->scale > scale0);
    play_ctrl_plus(&ps, true);
    assert_true(ps.view->scale > scale0 + 0.2);
    play_key_event(&ps, SDL_KEYDOWN, SDL_SCANCODE_D, KMOD_LCTRL); /* Ctrl+D: no player's key either */
    assert_int_equal(seat_marks(&ps, 1), 0);
    assert_int_equal(seat_marks(&ps, 2), 1);
    play_key_event(&ps, SDL_KEYDOWN, SDL_SCANCODE_LSHIFT, KMOD_LSHIFT);
    assert_int_equal(seat_marks(&ps, 1), 0);
    play_key_event(&ps, SDL_KEYUP, SDL_SCANCODE_LSHIFT, KMOD_NONE);
    assert_int_equal(seat_marks(&ps, 1), 1);
    play_key(&ps, SDL_SCANCODE_ESCAPE);
    play_key(&ps, SDL_SCANCODE_LSHIFT); /* paused: no mark */
    play_key(&ps, SDL_SCANCODE_ESCAPE);
    play_key(&ps, SDL_SCANCODE_LSHIFT);
    assert_int_equal(seat_marks(&ps, 1), 2);
    /* the marks are in the file already (flushed), player and time */
    char part[160];
    snprintf(part, sizeof part, "%s.part", f->rec);
    FILE *fp = fopen(part, "r");
    assert_non_null(fp);
    char line[256];
    int found = 0;
    while (fgets(line, sizeof line, fp)) {
        long t;
        int pl;
        if (sscanf(line, "# mark: %ld,%d,dissatisfied", &t, &pl) == 2) {
            assert_int_equal(pl, found == 0 ? 2 : 1);
            assert_true(t > 0 && t < 2000);
            found++;
        }
    }
    fclose(fp);
    assert_int_equal(found, 3);
    play_state_free(&ps);
    /* blind, in a session: no scheme, no link; R, Tab, Q and Space do nothing */
    config(f, PLAYER_KEYS, PLAYER_KEYS, NULL);
    f->cfg.blind = true;
    f->cfg.session = true;
    f->cfg.hud_note = "race 3 of 10";
    assert_true(play_state_init(&ps, &f->cfg, f->r, &err));
    play_hud_right(&ps, 0, right, sizeof right);
    assert_string_equal(right, "race 3 of 10");
    play_key(&ps, SDL_SCANCODE_SPACE);
    assert_int_equal(liverace_flow(ps.lr)->phase, RF_GRID); /* the session starts the race */
    raceflow_go(liverace_flow(ps.lr), ps.flow_us);
    for (int i = 0; i < 5 * 60 + 2; i++)
        play_frame(&ps, 16667);
    assert_int_equal(liverace_flow(ps.lr)->phase, RF_RACING);
    play_key(&ps, SDL_SCANCODE_LSHIFT);
    play_hud_right(&ps, 0, right, sizeof right);
    assert_string_equal(right, "MARKED · race 3 of 10");
    play_key(&ps, SDL_SCANCODE_ESCAPE);
    play_key(&ps, SDL_SCANCODE_R);
    play_key(&ps, SDL_SCANCODE_Q);
    play_key(&ps, SDL_SCANCODE_TAB);
    assert_int_equal(ps.race_no, 1);
    assert_false(ps.want_quit || ps.want_watch);
    assert_true(ps.paused);
    play_draw(&ps, 640, 360);
    play_state_free(&ps);
}

/* F3, the mark key: nothing on the grid or in the countdown (said so);
 * while racing a mark at the race time now into the recording, kept for
 * the lagometers; F2 shows and hides them (the engine keeps its rings). */
static void test_mark_key_and_lagometer(void **state)
{
    Fix *f = *state;
    config(f, PLAYER_KEYS, PLAYER_BOT, "marked");
    f->cfg.race.engine.lagometer = true;
    PlayState ps;
    NrError err;
    assert_true(play_state_init(&ps, &f->cfg, f->r, &err));
    assert_false(ps.lag);
    play_key(&ps, SDL_SCANCODE_F3);
    assert_int_equal(ps.nmarks, 0);
    assert_non_null(strstr(ps.msg, "while it runs"));
    play_go_racing(&ps);
    for (int i = 0; i < 60; i++) /* about 1 s of racing */
        play_frame(&ps, 16667);
    int64_t at_ms = liverace_now(ps.lr) / 1000;
    play_key(&ps, SDL_SCANCODE_F3);
    assert_int_equal(ps.nmarks, 1);
    assert_int_equal(ps.marks[0].t_ms, at_ms);
    assert_non_null(strstr(ps.msg, "mark 1 at"));
    play_key(&ps, SDL_SCANCODE_F2);
    assert_true(ps.lag);
    assert_non_null(engine_lag(liverace_engine(ps.lr), 1, 0));
    play_draw(&ps, 640, 360); /* draws with the strips */
    for (int i = 0; i < 30; i++)
        play_frame(&ps, 16667);
    play_key(&ps, SDL_SCANCODE_F3);
    assert_int_equal(ps.nmarks, 2);
    play_state_free(&ps); /* the recording finalised, its marks in it */
    Recording r;
    assert_true(recording_load(&r, f->rec, &err));
    assert_int_equal(r.nmarks, 2);
    assert_int_equal(r.marks[0].t_ms, at_ms);
    assert_true(r.marks[1].t_ms > at_ms);
    for (int i = 0; i < 2; i++) { /* the experimenter's key: nobody's, kind mark */
        assert_int_equal(r.marks[i].player, 0);
        assert_string_equal(r.marks[i].kind, "mark");
    }
    recording_free(&r);
}

/* H mid-race pauses the race; H again resumes it. Esc pauses; H and H
 * again leave it paused. */
static void test_help_pauses(void **state)
{
    Fix *f = *state;
    config(f, PLAYER_KEYS, PLAYER_KEYS, NULL);
    PlayState ps;
    NrError err;
    assert_true(play_state_init(&ps, &f->cfg, f->r, &err));
    play_go_racing(&ps);
    play_key(&ps, SDL_SCANCODE_H);
    assert_true(ps.help && ps.paused);
    int64_t t = ps.race_us;
    play_frame(&ps, 16667);
    assert_int_equal(ps.race_us, t);
    play_key(&ps, SDL_SCANCODE_H);
    assert_false(ps.help || ps.paused);
    play_frame(&ps, 16667);
    assert_true(ps.race_us > t);
    play_key(&ps, SDL_SCANCODE_ESCAPE);
    assert_true(ps.paused);
    play_key(&ps, SDL_SCANCODE_H);
    play_key(&ps, SDL_SCANCODE_H);
    assert_true(ps.paused); /* the player's own pause stays */
    play_key(&ps, SDL_SCANCODE_P);
    assert_false(ps.paused);
    play_state_free(&ps);
}

/* The replay window opened from the game (O) must leave the game's SDL_ttf
 * running: app_run_window quits only what it started. */
static void test_replay_window_keeps_callers_fonts(void **state)
{
    Fix *f = *state;
    assert_true(TTF_WasInit() > 0); /* the game's (setup) */
    Recording rec;
    NrError err;
    assert_true(recording_load(&rec, NETRACE_SOURCE_DIR "/recordings/default.csv", &err));
    EngineConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.track = f->track;
    cfg.nschemes = scheme_parse_list("nc", cfg.schemes, SCHEME_MAX, &err);
    cfg.params = scheme_default_params();
    cfg.keep_history = true;
    Replay *r = replay_new(&cfg, &rec, false, &err);
    assert_non_null(r);
    AppConfig ac = app_config_default();
    ac.replay = r;
    ac.bench_frames = 2; /* the window loop on the dummy driver */
    ac.quiet = true;
    assert_int_equal(app_run_window(&ac), 0);
    assert_true(TTF_WasInit() > 0);
    replay_free(r);
    recording_free(&rec);
}

static void test_steer_ramp(void **state)
{
    (void)state;
    /* towards full lock at 6/s: 0.1 s gives 0.6; back to centre at 10/s */
    assert_true(play_steer_ramp(0.0, 1.0, 0.1) > 0.599 && play_steer_ramp(0.0, 1.0, 0.1) < 0.601);
    assert_true(play_steer_ramp(0.0, 1.0, 1.0) == 1.0);
    assert_true(play_steer_ramp(0.6, 0.0, 0.05) > 0.099 && play_steer_ramp(0.6, 0.0, 0.05) < 0.101);
    assert_true(play_steer_ramp(0.6, 0.0, 1.0) == 0.0);
    assert_true(play_steer_ramp(0.5, -1.0, 0.01) < 0.5); /* reversing goes through centre fast */
    assert_true(play_steer_ramp(0.3, 0.3, 0.0) == 0.3);
}

/* Issue 22: reversing (hold the brake at a standstill, docs/driving.md)
 * was only in the docs, not in the game's H help. */
static void test_help_says_how_to_reverse(void **state)
{
    (void)state;
    int n = 0;
    const char *const *lines = play_help_lines(&n);
    bool found = false;
    for (int i = 0; i < n; i++)
        found = found || (strstr(lines[i], "Reverse") && strstr(lines[i], "brake") && strstr(lines[i], "standstill"));
    assert_true(found);
}

/* Issue 22: a wall hit gives feedback: player 1 swerves left off the
 * grid at full throttle into the wall; that screen flashes, sparks fly, the
 * synthesiser gets a crash and the engine's pitch follows the speed; the
 * other screen does not flash. */
static void test_wall_hit_feedback(void **state)
{
    Fix *f = *state;
    config(f, PLAYER_KEYS, PLAYER_BOT, NULL);
    PlayState ps;
    NrError err;
    assert_true(play_state_init(&ps, &f->cfg, f->r, &err));
    Uint8 keys[SDL_NUM_SCANCODES] = {0};
    ps.key_state = keys;
    play_go_racing(&ps);
    keys[SDL_SCANCODE_W] = 1;
    double flash = 0, other_flash = 0, crash = 0;
    int sparks = 0;
    for (int i = 0; i < 300; i++) {
        keys[SDL_SCANCODE_A] = i >= 20 && i < 34; /* a swerve to the left, away from car 2 */
        play_frame(&ps, 16667);
        flash = fmax(flash, ps.hud[0].flash);
        other_flash = fmax(other_flash, ps.hud[1].flash);
        for (int h = 0; h < SYNTH_HITS; h++)
            crash = fmax(crash, ps.snd.synth.hit[h].amp);
        for (int k = 0; k < DRIVEHUD_SPARKS; k++)
            sparks += ps.hud[0].spark[k].age_s < DRIVEWIDGET_SPARK_LIFE_S;
        if (i % 30 == 0)
            play_draw(&ps, 640, 360); /* the flash, sparks and speedometer draw */
    }
    const WorldContact *c = world_contact(liverace_world(ps.lr), 0);
    assert_true(c->hits >= 1 && c->other == -1);
    assert_true(flash > 0.25 && other_flash == 0.0);
    assert_true(crash > 0 && sparks > 0);
    double v = liverace_speed(ps.lr, 0);
    assert_true(fabs(ps.snd.synth.eng[0].target_hz - synth_engine_hz(v)) < 1e-9);
    play_state_free(&ps);
}

/* Issue 22: the H help lists every key the game takes (the game's own,
 * PLAYKEYS_RESERVED, and the players' defaults), each as a word of a help
 * line (Esc for Escape, Enter for Return). F1 and the arrows' names were
 * checked too; F1 was missing before. */
static bool help_has_word(const char *const *lines, int n, const char *word)
{
    for (int i = 0; i < n; i++) {
        const char *l = lines[i];
        size_t wl = strlen(word);
        for (const char *p = strstr(l, word); p; p = strstr(p + 1, word)) {
            bool start = p == l || !isalnum((unsigned char)p[-1]);
            bool end = !isalnum((unsigned char)p[wl]);
            if (start && end)
                return true;
        }
    }
    return false;
}

static void test_help_lists_every_key(void **state)
{
    (void)state;
    int n = 0;
    const char *const *lines = play_help_lines(&n);
    static const SDL_Scancode reserved[] = PLAYKEYS_RESERVED;
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++) {
        const char *name = reserved[i] == SDL_SCANCODE_ESCAPE   ? "Esc"
                           : reserved[i] == SDL_SCANCODE_RETURN ? "Enter"
                                                                : SDL_GetScancodeName(reserved[i]);
        if (!help_has_word(lines, n, name))
            fail_msg("the H help does not list the key %s", name);
    }
    PlayKeys k;
    playkeys_default(&k);
    for (int j = 0; j < PLAYKEYS_PLAYERS; j++)
        for (int a = 0; a < PK_ACTIONS; a++) {
            const char *name = SDL_GetScancodeName(k.key[j][a][0]);
            if (!help_has_word(lines, n, name))
                fail_msg("the H help does not list player %d's key %s", j + 1, name);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_steer_ramp),
        cmocka_unit_test(test_help_says_how_to_reverse),
        cmocka_unit_test(test_help_lists_every_key),
        cmocka_unit_test(test_wall_hit_feedback),
        cmocka_unit_test(test_input_to_photon),
        cmocka_unit_test(test_pad_unplugged_mid_race),
        cmocka_unit_test(test_window_closed_mid_race),
        cmocka_unit_test(test_missing_assets),
        cmocka_unit_test(test_help_pauses),
        cmocka_unit_test(test_mark_key_and_lagometer),
        cmocka_unit_test(test_restart_keeps_the_race),
        cmocka_unit_test(test_mark_blind_session),
        cmocka_unit_test(test_replay_window_keeps_callers_fonts),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
