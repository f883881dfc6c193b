/* Players' controls on the SDL side: the keyboard map (player 1 WASD,
 * player 2 arrows, remappable in a small file) and gamepads through
 * SDL_GameController (hot-plug, press a button to join, player LEDs and
 * indices, user mappings from a file). Both produce the same PlayControl,
 * which the game turns into the core's car input.
 *
 * Key map file (docs/play.md): '#' comments, blank lines, and lines
 * `ACTION KEY [KEY...]` where ACTION is p1.throttle, p1.brake, p1.left,
 * p1.right, p1.mark (and p2.*) and KEY an SDL scancode name ("W", "Up",
 * "Left Shift", quoted when it holds a space: "Left Shift"). Up to
 * PLAYKEYS_PER_ACTION keys per action; an action named replaces its
 * defaults. A key bound twice, or bound to one of the game's own keys
 * (PLAYKEYS_RESERVED), is an error; except that a default mark key the file
 * gives to another action is dropped (key maps written before the mark key
 * keep working). The mark key marks a moment of dissatisfaction while
 * racing and confirms on a study's screens (docs/studies.md).
 *
 * Contracts:
 *   playkeys_default(k)          WASD for player 1, arrow keys for player 2;
 *        mark: Left Shift and Right Shift.
 *   playkeys_load(k, path, err)  defaults, then the file's lines; false + err
 *        "FILE:LINE: reason" on the first bad line (k unchanged then).
 *   playkeys_parse(k, text, name, err)  the same from memory.
 *   playkeys_read(k, player, state, out)  the player's digital controls from
 *        a keyboard state array (SDL_GetKeyboardState): steer -1..1 (left
 *        positive, as the heading turns counter-clockwise), throttle and
 *        brake 0 or 1.
 *   playkeys_describe(k, player, buf, n)  "W/A/S/D" style text for the HUD
 *        (the arrow keys as arrows: "↑/←/↓/→"): the four driving actions.
 *   playkeys_key_name(k, player, action)  the action's first key as the HUD
 *        writes it ("-" when unbound).
 *   playkeys_find(k, sc, &player, &action)  whose key sc is: true and the
 *        player (0, 1) and action, or false.
 *   playkeys_drives(k, sc)       some player's key is sc (driving or mark; the
 *        game's other keys then give way: F is fullscreen unless mapped).
 *   playkeys_gate(g, k, ev, &player, &action)  one key event (down or up)
 *        of the window: true with the player and action when a player's key
 *        acts now. A key never acts with Ctrl, Alt or GUI held (Ctrl + on a
 *        US keyboard is Ctrl+Shift+=); a modifier key bound to a player (the
 *        Shift mark keys) acts on its release, and only when it was pressed
 *        alone: no Ctrl, Alt, GUI or key that is no player's (=, -, 0, F12,
 *        Tab...) went down while it was held (another player's keys may).
 *        Every key event of the window goes through it, before the game's
 *        own keys take theirs; repeats never act.
 *
 *   pads_init(p)                 no pads; SDL_INIT_GAMECONTROLLER is the
 *        caller's.
 *   pads_load_mappings(p, path, err)  every line of an SDL gamecontroller
 *        mapping file (SDL_GameControllerAddMapping per line, so a bad line
 *        is named "FILE:LINE: ..."; lines for another platform are skipped).
 *        Returns false + err on an unreadable file or a bad line; the lines
 *        before it stay added. *added counts the mappings taken.
 *   pads_want(p, player, on)     the player (0 .. PLAY_PLAYERS - 1) plays
 *        with a pad (joins with the next button pressed on an unassigned
 *        pad; with several waiting, the lowest seat first).
 *   pads_event(p, ev, out)       one SDL event: opens added pads, assigns a
 *        pad to the first waiting player on a button press (sets the pad's
 *        player index and its LED to the player's car colour), releases a
 *        removed pad. Returns true and fills out when a player joined or
 *        lost a pad.
 *   pads_has(p, player)          the player holds a pad.
 *   pads_player_of(p, id)        the player holding the pad with joystick
 *        instance id, -1 when none does.
 *   pads_read(p, player, out)    the player's analogue controls: steer from
 *        the left stick (dead zone PADS_DEADZONE) or the d-pad, throttle from
 *        the right trigger or A, brake from the left trigger or B / X.
 *   pads_name(p, player)         the pad's name ("" when none).
 *   pads_free(p)                 closes every pad.
 */
#ifndef NR_PLAY_INPUT_H
#define NR_PLAY_INPUT_H

#include <SDL.h>
#include <stdbool.h>

#include "nr_common.h"

#define PLAYKEYS_PLAYERS 2 /* the keyboard drives players 1 and 2 */
#define PLAY_PLAYERS 4     /* seats a pad can take (play.h's PLAY_SEATS) */
#define PLAYKEYS_PER_ACTION 4
#define PADS_MAX 8
#define PADS_DEADZONE 0.15 /* share of the stick's travel ignored around centre */

enum { PK_THROTTLE, PK_BRAKE, PK_LEFT, PK_RIGHT, PK_MARK, PK_ACTIONS };
#define PK_DRIVE 4 /* the driving actions come first */
/* A pad's mark button (the keys' PK_MARK). */
#define PADS_MARK_BUTTON SDL_CONTROLLER_BUTTON_Y

/* The game's own keys, which a player may not take (docs/play.md). */
#define PLAYKEYS_RESERVED                                                                         \
    {SDL_SCANCODE_ESCAPE, SDL_SCANCODE_P, SDL_SCANCODE_H, SDL_SCANCODE_F1, SDL_SCANCODE_TAB,     \
     SDL_SCANCODE_R, SDL_SCANCODE_Q, SDL_SCANCODE_O, SDL_SCANCODE_RETURN, SDL_SCANCODE_SPACE,    \
     SDL_SCANCODE_F11, SDL_SCANCODE_F12, SDL_SCANCODE_C, SDL_SCANCODE_M, SDL_SCANCODE_F2,      \
     SDL_SCANCODE_F3}

typedef struct PlayControl {
    double throttle; /* 0..1 */
    double brake;    /* 0..1 */
    double steer;    /* -1..1, left > 0 */
} PlayControl;

typedef struct PlayKeys {
    SDL_Scancode key[PLAYKEYS_PLAYERS][PK_ACTIONS][PLAYKEYS_PER_ACTION]; /* 0 = unused */
} PlayKeys;

void playkeys_default(PlayKeys *k);
bool playkeys_load(PlayKeys *k, const char *path, NrError *err);
bool playkeys_parse(PlayKeys *k, const char *text, const char *name, NrError *err);
void playkeys_read(const PlayKeys *k, int player, const Uint8 *state, PlayControl *out);
void playkeys_describe(const PlayKeys *k, int player, char *buf, size_t n);
const char *playkeys_key_name(const PlayKeys *k, int player, int action);
bool playkeys_find(const PlayKeys *k, SDL_Scancode sc, int *player, int *action);
/* Whether some player's key is sc (the game's other keys then give way). */
bool playkeys_drives(const PlayKeys *k, SDL_Scancode sc);

/* The modifier keys (SDL_SCANCODE_LCTRL .. RGUI) pressed alone and held. */
typedef struct PlayKeyGate {
    bool alone[8];
} PlayKeyGate;

bool playkeys_gate(PlayKeyGate *g, const PlayKeys *k, const SDL_KeyboardEvent *ev, int *player, int *action);

typedef struct Pad {
    SDL_GameController *gc;
    SDL_JoystickID id;
    int player; /* -1 = not playing */
} Pad;

typedef enum PadNews { PAD_JOINED = 1, PAD_LOST = 2 } PadNews;

typedef struct PadEvent {
    PadNews news;
    int player;
    char name[64];
} PadEvent;

typedef struct PlayPads {
    Pad pad[PADS_MAX];
    int npads;
    bool want[PLAY_PLAYERS];
} PlayPads;

void pads_init(PlayPads *p);
bool pads_load_mappings(PlayPads *p, const char *path, int *added, NrError *err);
void pads_want(PlayPads *p, int player, bool on);
bool pads_event(PlayPads *p, const SDL_Event *ev, PadEvent *out);
bool pads_has(const PlayPads *p, int player);
int pads_player_of(const PlayPads *p, SDL_JoystickID id);
void pads_read(const PlayPads *p, int player, PlayControl *out);
const char *pads_name(const PlayPads *p, int player);
void pads_free(PlayPads *p);

#endif
