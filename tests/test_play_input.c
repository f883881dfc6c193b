/* The players' controls: the key map file (defaults, remapping, one-line
 * errors with the line number) and gamepads through SDL's virtual joystick
 * API (no pad is attached to the test machine): hot-plug, press a button to
 * join, player LED and index, unplug, analogue reading. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "play_input.h"
#include "vpad.h"

#include <math.h>

static void assert_close(double a, double b, double eps)
{
    if (!(fabs(a - b) <= eps))
        fail_msg("%.17g != %.17g", a, b);
}

static void test_default_keys(void **st)
{
    (void)st;
    PlayKeys k;
    playkeys_default(&k);
    Uint8 state[SDL_NUM_SCANCODES] = {0};
    PlayControl c;
    state[SDL_SCANCODE_W] = 1;
    state[SDL_SCANCODE_A] = 1;
    playkeys_read(&k, 0, state, &c);
    assert_true(c.throttle == 1.0 && c.brake == 0.0 && c.steer == 1.0); /* left is positive */
    playkeys_read(&k, 1, state, &c);
    assert_true(c.throttle == 0.0 && c.steer == 0.0); /* WASD is not player 2's */
    state[SDL_SCANCODE_RIGHT] = 1;
    state[SDL_SCANCODE_DOWN] = 1;
    playkeys_read(&k, 1, state, &c);
    assert_true(c.brake == 1.0 && c.steer == -1.0);
    state[SDL_SCANCODE_LEFT] = 1; /* both ways at once: straight */
    playkeys_read(&k, 1, state, &c);
    assert_true(c.steer == 0.0);
    char d[64];
    playkeys_describe(&k, 0, d, sizeof d);
    assert_string_equal(d, "W/A/S/D");
    playkeys_describe(&k, 1, d, sizeof d);
    assert_string_equal(d, "↑/←/↓/→");
    /* the mark keys: each player's Shift */
    assert_int_equal(k.key[0][PK_MARK][0], SDL_SCANCODE_LSHIFT);
    assert_int_equal(k.key[1][PK_MARK][0], SDL_SCANCODE_RSHIFT);
    assert_string_equal(playkeys_key_name(&k, 1, PK_MARK), "Right Shift");
    assert_string_equal(playkeys_key_name(&k, 1, PK_THROTTLE), "↑");
}

/* One key event of a window through the gate: 1 when a key acts (and
 * which), 0 when not. */
static int gate_ev(PlayKeyGate *g, const PlayKeys *k, Uint32 type, SDL_Scancode sc, Uint16 mod, int *pa)
{
    SDL_KeyboardEvent ev;
    memset(&ev, 0, sizeof ev);
    ev.type = type;
    ev.keysym.scancode = sc;
    ev.keysym.sym = SDL_GetKeyFromScancode(sc);
    ev.keysym.mod = mod;
    int player = -1, action = -1;
    bool act = playkeys_gate(g, k, &ev, &player, &action);
    *pa = act ? player * 10 + action : -1;
    return act;
}

/* Ctrl + on a US keyboard is Ctrl+Shift+= and Left Shift is player 1's
 * mark / confirm key: whichever of Ctrl and Shift goes down first, the
 * combination acts as no player's key; Shift tapped alone acts on its
 * release; another player's key while Shift is held spoils nothing; a
 * plain key with Ctrl, Alt or GUI held does not act (issue 22 trial D2). */
static void test_keys_act_alone(void **st)
{
    (void)st;
    PlayKeys k;
    playkeys_default(&k);
    PlayKeyGate g;
    memset(&g, 0, sizeof g);
    int pa;
    const Uint32 D = SDL_KEYDOWN, U = SDL_KEYUP;
    const SDL_Scancode LS = SDL_SCANCODE_LSHIFT, LC = SDL_SCANCODE_LCTRL, EQ = SDL_SCANCODE_EQUALS;
    /* Shift alone: nothing on the press, player 1's mark on the release */
    assert_int_equal(gate_ev(&g, &k, D, LS, KMOD_LSHIFT, &pa), 0);
    assert_int_equal(gate_ev(&g, &k, U, LS, KMOD_NONE, &pa), 1);
    assert_int_equal(pa, 0 * 10 + PK_MARK);
    assert_int_equal(gate_ev(&g, &k, U, LS, KMOD_NONE, &pa), 0); /* a second release: nothing */
    /* Ctrl, then Shift, then = (Ctrl + typed): nothing at all */
    assert_int_equal(gate_ev(&g, &k, D, LC, KMOD_LCTRL, &pa), 0);
    assert_int_equal(gate_ev(&g, &k, D, LS, KMOD_LCTRL | KMOD_LSHIFT, &pa), 0);
    assert_int_equal(gate_ev(&g, &k, D, EQ, KMOD_LCTRL | KMOD_LSHIFT, &pa), 0);
    assert_int_equal(gate_ev(&g, &k, U, EQ, KMOD_LCTRL | KMOD_LSHIFT, &pa), 0);
    assert_int_equal(gate_ev(&g, &k, U, LS, KMOD_LCTRL, &pa), 0);
    assert_int_equal(gate_ev(&g, &k, U, LC, KMOD_NONE, &pa), 0);
    /* Shift first, then Ctrl, then =: nothing either */
    assert_int_equal(gate_ev(&g, &k, D, LS, KMOD_LSHIFT, &pa), 0);
    assert_int_equal(gate_ev(&g, &k, D, LC, KMOD_LCTRL | KMOD_LSHIFT, &pa), 0);
    assert_int_equal(gate_ev(&g, &k, D, EQ, KMOD_LCTRL | KMOD_LSHIFT, &pa), 0);
    assert_int_equal(gate_ev(&g, &k, U, LC, KMOD_LSHIFT, &pa), 0);
    assert_int_equal(gate_ev(&g, &k, U, LS, KMOD_NONE, &pa), 0);
    /* Shift with a key of the game's (Shift+=, Shift+F12): not a mark */
    assert_int_equal(gate_ev(&g, &k, D, LS, KMOD_LSHIFT, &pa), 0);
    assert_int_equal(gate_ev(&g, &k, D, SDL_SCANCODE_F12, KMOD_LSHIFT, &pa), 0);
    assert_int_equal(gate_ev(&g, &k, U, LS, KMOD_NONE, &pa), 0);
    /* player 2 presses Up while player 1 holds Shift: both act */
    assert_int_equal(gate_ev(&g, &k, D, LS, KMOD_LSHIFT, &pa), 0);
    assert_int_equal(gate_ev(&g, &k, D, SDL_SCANCODE_UP, KMOD_LSHIFT, &pa), 1);
    assert_int_equal(pa, 1 * 10 + PK_THROTTLE);
    assert_int_equal(gate_ev(&g, &k, D, SDL_SCANCODE_RSHIFT, KMOD_LSHIFT | KMOD_RSHIFT, &pa), 0);
    assert_int_equal(gate_ev(&g, &k, U, LS, KMOD_RSHIFT, &pa), 1);
    assert_int_equal(pa, 0 * 10 + PK_MARK);
    assert_int_equal(gate_ev(&g, &k, U, SDL_SCANCODE_RSHIFT, KMOD_NONE, &pa), 1);
    assert_int_equal(pa, 1 * 10 + PK_MARK);
    /* a plain player key acts on its press, not with Ctrl, Alt or GUI held,
     * and not on a repeat or a release */
    assert_int_equal(gate_ev(&g, &k, D, SDL_SCANCODE_D, KMOD_NONE, &pa), 1);
    assert_int_equal(pa, 0 * 10 + PK_RIGHT);
    assert_int_equal(gate_ev(&g, &k, U, SDL_SCANCODE_D, KMOD_NONE, &pa), 0);
    assert_int_equal(gate_ev(&g, &k, D, SDL_SCANCODE_D, KMOD_RCTRL, &pa), 0);
    assert_int_equal(gate_ev(&g, &k, D, SDL_SCANCODE_RIGHT, KMOD_LALT, &pa), 0);
    assert_int_equal(gate_ev(&g, &k, D, SDL_SCANCODE_W, KMOD_LGUI, &pa), 0);
    assert_int_equal(gate_ev(&g, &k, D, SDL_SCANCODE_S, KMOD_LSHIFT, &pa), 1); /* Shift is no combination */
    assert_int_equal(gate_ev(&g, &k, D, EQ, KMOD_NONE, &pa), 0); /* no player's key */
    SDL_KeyboardEvent rep;
    memset(&rep, 0, sizeof rep);
    rep.type = SDL_KEYDOWN;
    rep.repeat = 1;
    rep.keysym.scancode = SDL_SCANCODE_D;
    int player, action;
    assert_false(playkeys_gate(&g, &k, &rep, &player, &action));
}

static void test_remap(void **st)
{
    (void)st;
    PlayKeys k;
    NrError err;
    const char *text = "# two keyboards' worth\n\n"
                       "p1.throttle I \"Left Shift\"   # either\n"
                       "p1.left J\r\n"
                       "p1.right L\n"
                       "p1.brake K\n"
                       "p2.throttle Keypad 8\n";
    /* "Keypad 8" unquoted is two words: the 8 is not a key of its own here */
    assert_true(playkeys_parse(&k, "p2.throttle \"Keypad 8\"\n", "m", &err));
    assert_int_equal(k.key[1][PK_THROTTLE][0], SDL_SCANCODE_KP_8);
    assert_int_equal(k.key[0][PK_THROTTLE][0], SDL_SCANCODE_W); /* the rest stays default */
    assert_false(playkeys_parse(&k, text, "keys.conf", &err));
    assert_string_equal(err.msg, "keys.conf:7: unknown key 'Keypad' (SDL scancode names: W, Up, \"Left Shift\", Keypad 8 ...)");
    assert_true(playkeys_parse(&k, "p1.throttle I \"Left Shift\"   # either\np1.left J\r\np1.right L\np1.brake K\n", "m", &err));
    Uint8 state[SDL_NUM_SCANCODES] = {0};
    PlayControl c;
    state[SDL_SCANCODE_LSHIFT] = 1;
    state[SDL_SCANCODE_J] = 1;
    state[SDL_SCANCODE_W] = 1; /* W is free now */
    playkeys_read(&k, 0, state, &c);
    assert_true(c.throttle == 1.0 && c.steer == 1.0);
    /* Left Shift was player 1's default mark key: the file's throttle takes
     * it and the mark is left without a key (a key map from before the mark
     * key still loads); player 2's mark keeps Right Shift */
    int p, a;
    assert_true(playkeys_find(&k, SDL_SCANCODE_LSHIFT, &p, &a));
    assert_true(p == 0 && a == PK_THROTTLE);
    assert_int_equal(k.key[0][PK_MARK][0], 0);
    assert_string_equal(playkeys_key_name(&k, 0, PK_MARK), "-");
    assert_true(playkeys_find(&k, SDL_SCANCODE_RSHIFT, &p, &a));
    assert_true(p == 1 && a == PK_MARK);
    /* a mark named in the file is the file's; bound twice it is an error */
    assert_true(playkeys_parse(&k, "p1.mark E\np2.mark \"Keypad 0\"\n", "m", &err));
    assert_true(playkeys_find(&k, SDL_SCANCODE_E, &p, &a) && p == 0 && a == PK_MARK);
    assert_true(playkeys_find(&k, SDL_SCANCODE_KP_0, &p, &a) && p == 1 && a == PK_MARK);
    assert_false(playkeys_find(&k, SDL_SCANCODE_LSHIFT, &p, &a));
    assert_false(playkeys_parse(&k, "p1.mark W\n", "m", &err));
    assert_string_equal(err.msg, "m: key 'W' is bound to both p1.throttle and p1.mark");
}

static void expect_error(const char *text, const char *msg)
{
    PlayKeys k;
    playkeys_default(&k);
    k.key[0][PK_THROTTLE][0] = SDL_SCANCODE_Z; /* a failed parse leaves k alone */
    NrError err;
    assert_false(playkeys_parse(&k, text, "k", &err));
    assert_string_equal(err.msg, msg);
    assert_int_equal(k.key[0][PK_THROTTLE][0], SDL_SCANCODE_Z);
}

static void test_bad_maps(void **st)
{
    (void)st;
    expect_error("p1.throttle W\np3.left A\n",
                 "k:2: 'p3.left': the keyboard drives players 1 and 2 (players 3 and 4 play with pads, bots or "
                 "scripts)");
    expect_error("p5.left A\n",
                 "k:1: unknown action 'p5.left' (expected p1.throttle, p1.brake, p1.left, p1.right, p1.mark or the same for p2)");
    expect_error("p1.jump Space\n",
                 "k:1: unknown action 'p1.jump' (expected p1.throttle, p1.brake, p1.left, p1.right, p1.mark or the same for p2)");
    expect_error("\n\np1.left Frobnicate\n", "k:3: unknown key 'Frobnicate' (SDL scancode names: W, Up, \"Left Shift\", Keypad 8 ...)");
    expect_error("p1.left\n", "k:1: p1.left needs at least one key");
    expect_error("p1.left \"Left Shift\n", "k:1: unterminated quote");
    expect_error("p1.left Escape\n", "k:1: key 'Escape' is one of the game's own keys (docs/play.md)");
    expect_error("p1.left F3\n", "k:1: key 'F3' is one of the game's own keys (docs/play.md)"); /* the mark key */
    expect_error("p1.left A\np1.left B\n", "k:2: p1.left is given twice");
    expect_error("p1.left A B E F G\n", "k:1: at most 4 keys per action");
    expect_error("p2.left A\n", "k: key 'A' is bound to both p1.left and p2.left");
    expect_error("p1.left X X\n", "k: key 'X' listed twice for p1.left");
    expect_error("p1.left A\x01\n", "k:1: control character in the line");
}

static void test_load_file(void **st)
{
    (void)st;
    char path[] = "/tmp/netrace-keys-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("p2.left J\np2.right L\n", f);
    fclose(f);
    PlayKeys k;
    NrError err;
    assert_true(playkeys_load(&k, path, &err));
    assert_int_equal(k.key[1][PK_LEFT][0], SDL_SCANCODE_J);
    remove(path);
    assert_false(playkeys_load(&k, path, &err));
    assert_non_null(strstr(err.msg, "cannot open a key map"));
    assert_false(playkeys_load(&k, "/tmp", &err)); /* one line, not a read of a directory */
    assert_non_null(strstr(err.msg, "is a directory"));
}

/* ---- gamepads through SDL's virtual joysticks --------------------------- */

typedef struct Led {
    int calls;
    Uint8 r, g, b;
} Led;

static int set_led(void *userdata, Uint8 r, Uint8 g, Uint8 b)
{
    Led *l = userdata;
    l->calls++;
    l->r = r;
    l->g = g;
    l->b = b;
    return 0;
}

static SDL_Joystick *attach(const char *name, Led *led)
{
    return vpad_attach(name, led ? set_led : NULL, led);
}

#define detach vpad_detach

/* Pumps SDL and hands every event to the pads; returns the news seen. */
static int pump(PlayPads *p, PadEvent *got, int max)
{
    SDL_PumpEvents();
    SDL_Event ev;
    int n = 0;
    while (SDL_PollEvent(&ev)) {
        PadEvent pe;
        if (pads_event(p, &ev, &pe) && n < max)
            got[n++] = pe;
    }
    return n;
}

static void press(SDL_Joystick *j, int button, bool down)
{
    assert_int_equal(SDL_JoystickSetVirtualButton(j, button, down ? 1 : 0), 0);
}

static int setup_sdl(void **st)
{
    (void)st;
    return SDL_Init(SDL_INIT_GAMECONTROLLER | SDL_INIT_EVENTS) == 0 ? 0 : -1;
}

static int teardown_sdl(void **st)
{
    (void)st;
    SDL_Quit();
    return 0;
}

static void test_pads_join_and_unplug(void **st)
{
    (void)st;
    PlayPads p;
    pads_init(&p);
    pads_want(&p, 1, true); /* only player 2 plays with a pad */
    Led led = {0};
    PadEvent got[4];
    SDL_Joystick *a = attach("pad one", &led);
    assert_int_equal(pump(&p, got, 4), 0); /* plugged in: opened, not playing */
    assert_int_equal(p.npads, 1);
    assert_false(pads_has(&p, 1));
    press(a, SDL_CONTROLLER_BUTTON_A, true);
    assert_int_equal(pump(&p, got, 4), 1);
    assert_int_equal(got[0].news, PAD_JOINED);
    assert_int_equal(got[0].player, 1);
    assert_string_equal(got[0].name, "pad one");
    assert_true(pads_has(&p, 1));
    assert_false(pads_has(&p, 0));
    assert_int_equal(SDL_GameControllerGetPlayerIndex(p.pad[0].gc), 1);
    assert_int_equal(pads_player_of(&p, SDL_JoystickInstanceID(a)), 1);
    assert_true(led.calls >= 1); /* player 2's car colour, blue */
    assert_int_equal(led.r, 48);
    assert_int_equal(led.g, 168);
    assert_int_equal(led.b, 255);
    press(a, SDL_CONTROLLER_BUTTON_A, false);
    pump(&p, got, 4);

    /* a second pad: nobody else waits, its buttons do nothing */
    SDL_Joystick *b = attach("pad two", NULL);
    pump(&p, got, 4);
    press(b, SDL_CONTROLLER_BUTTON_START, true);
    assert_int_equal(pump(&p, got, 4), 0);
    assert_int_equal(p.npads, 2);
    assert_int_equal(pads_player_of(&p, SDL_JoystickInstanceID(b)), -1); /* a spectator's pad */

    /* unplugged: the player is named and waits for a pad again */
    detach(a);
    assert_int_equal(pump(&p, got, 4), 1);
    assert_int_equal(got[0].news, PAD_LOST);
    assert_int_equal(got[0].player, 1);
    assert_false(pads_has(&p, 1));
    assert_int_equal(p.npads, 1);
    /* the other pad joins with its next press */
    press(b, SDL_CONTROLLER_BUTTON_START, false);
    pump(&p, got, 4);
    press(b, SDL_CONTROLLER_BUTTON_B, true);
    assert_int_equal(pump(&p, got, 4), 1);
    assert_int_equal(got[0].news, PAD_JOINED);
    assert_int_equal(got[0].player, 1);
    assert_string_equal(pads_name(&p, 1), "pad two");
    pads_free(&p);
    detach(b);
    pump(&p, got, 4);
}

static void test_pad_reading(void **st)
{
    (void)st;
    PlayPads p;
    pads_init(&p);
    pads_want(&p, 0, true);
    PadEvent got[4];
    SDL_Joystick *a = attach("reader", NULL);
    pump(&p, got, 4);
    press(a, SDL_CONTROLLER_BUTTON_X, true);
    assert_int_equal(pump(&p, got, 4), 1);
    SDL_Joystick *j = a;
    PlayControl c;
    pads_read(&p, 0, &c);
    assert_true(c.brake == 1.0); /* X still held: brake */
    press(a, SDL_CONTROLLER_BUTTON_X, false);
    /* stick half right: beyond the 15 % dead zone, rescaled: (0.5 - 0.15) / 0.85 */
    SDL_JoystickSetVirtualAxis(j, SDL_CONTROLLER_AXIS_LEFTX, 16384);
    SDL_JoystickSetVirtualAxis(j, SDL_CONTROLLER_AXIS_TRIGGERRIGHT, 32767);
    pump(&p, got, 4);
    pads_read(&p, 0, &c);
    double x = 16384.0 / 32767.0;
    assert_close(c.steer, -(x - 0.15) / 0.85, 1e-12);
    assert_close(c.throttle, 1.0, 1e-12);
    assert_close(c.brake, 0.0, 1e-12);
    /* inside the dead zone: straight */
    SDL_JoystickSetVirtualAxis(j, SDL_CONTROLLER_AXIS_LEFTX, -3000);
    pump(&p, got, 4);
    pads_read(&p, 0, &c);
    assert_close(c.steer, 0.0, 1e-12);
    /* d-pad left: full left lock */
    press(a, SDL_CONTROLLER_BUTTON_DPAD_LEFT, true);
    pump(&p, got, 4);
    pads_read(&p, 0, &c);
    assert_close(c.steer, 1.0, 1e-12);
    /* a player without a pad reads nothing */
    pads_read(&p, 1, &c);
    assert_true(c.throttle == 0.0 && c.brake == 0.0 && c.steer == 0.0);
    pads_free(&p);
    detach(a);
    pump(&p, got, 4);
}

static void test_mapping_file(void **st)
{
    (void)st;
    char path[] = "/tmp/netrace-pads-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("# user mappings\n"
          "03000000aaaa0000bbbb000000000000,Lab Wheel,a:b0,b:b1,leftx:a0,righttrigger:a2,lefttrigger:a3,platform:Linux,\n"
          "03000000cccc0000dddd000000000000,Other OS pad,a:b0,platform:Windows,\n"
          "\n"
          "this is not a mapping\n",
          f);
    fclose(f);
    PlayPads p;
    pads_init(&p);
    int added = -1;
    NrError err;
    assert_false(pads_load_mappings(&p, path, &added, &err));
    assert_int_equal(added, 1); /* the Linux line; the Windows one skipped */
    assert_non_null(strstr(err.msg, ":5: not a gamepad mapping"));
    assert_non_null(strstr(err.msg, path));
    SDL_JoystickGUID g = SDL_JoystickGetGUIDFromString("03000000aaaa0000bbbb000000000000");
    char *m = SDL_GameControllerMappingForGUID(g);
    assert_non_null(m);
    assert_non_null(strstr(m, "Lab Wheel"));
    SDL_free(m);
    remove(path);
    assert_false(pads_load_mappings(&p, path, &added, &err));
    assert_non_null(strstr(err.msg, "cannot open gamepad mappings"));
    /* a device: refused at once (fgets on /dev/zero read empty lines forever) */
    assert_false(pads_load_mappings(&p, "/dev/zero", &added, &err));
    assert_non_null(strstr(err.msg, "not a regular file"));
}

/* Issue 24: 10^5 mapping lines took 191 s (SDL's list search per line).
 * Capped: 4,096 mappings load, the 4,097th line is named; a file over
 * 4 MiB is refused before a line is read. */
static void test_mapping_caps(void **st)
{
    (void)st;
    char path[] = "/tmp/netrace-pads-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    for (int i = 0; i < 5000; i++)
        fprintf(f, "03000000%08x00000000000000000000,Pad %d,a:b0,platform:Linux,\n", (unsigned)i, i);
    fclose(f);
    PlayPads p;
    pads_init(&p);
    int added = -1;
    NrError err;
    assert_false(pads_load_mappings(&p, path, &added, &err));
    assert_int_equal(added, 4096);
    assert_non_null(strstr(err.msg, ":4097: more than 4096 gamepad mappings"));
    f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fseek(f, (4L << 20), SEEK_SET), 0); /* a sparse 4 MiB + 1 */
    fputc('\n', f);
    fclose(f);
    assert_false(pads_load_mappings(&p, path, &added, &err));
    assert_int_equal(added, 0);
    assert_non_null(strstr(err.msg, ": 4194305 bytes, more than the 4194304"));
    remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_keys),
        cmocka_unit_test(test_keys_act_alone),
        cmocka_unit_test(test_remap),
        cmocka_unit_test(test_bad_maps),
        cmocka_unit_test(test_load_file),
        cmocka_unit_test_setup_teardown(test_pads_join_and_unplug, setup_sdl, teardown_sdl),
        cmocka_unit_test_setup_teardown(test_pad_reading, setup_sdl, teardown_sdl),
        cmocka_unit_test_setup_teardown(test_mapping_file, setup_sdl, teardown_sdl),
        cmocka_unit_test_setup_teardown(test_mapping_caps, setup_sdl, teardown_sdl),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
