/* The overview of every scheme beside a driving screen (the game's Tab /
 * --watch, the network window's Tab / --watch): the replay window's
 * overview (AppState) on a live race, which its owner moves on. With an
 * engine (local play) the overview reads it; without (network play) the
 * owner fills s->data before each frame.
 *
 * Where it goes (issue 22, a classroom's projector): a second window the
 * size of the game's beside it when the display holds both; else, when
 * half the display is still at least OVERWIN_MIN_W wide (a 1920 display),
 * both windows at half the display side by side, full height (the game's
 * goes back to its size and place when the overview closes); else (a 1024 or 1280
 * projector, or a fullscreen game) in place: the game's window shows the
 * overview instead of the race until Tab again, at the window's full size.
 *
 * Contracts:
 *   overwin_open(w, cfg, err)  opens it as above. False + err, nothing held.
 *   overwin_is_open(w) / overwin_in_place(w)  open; shown in the game's window.
 *   overwin_owns(w, ev)   the event is the overview's: its own window's, or
 *        in place a key, click or wheel of the game's window (the caller
 *        keeps the keys the game needs: Tab, Esc, pause, the driving keys).
 *   overwin_event(w, ev)  hands it to the overview; true when the overview
 *        asked to close (its window closed, Q). F / F11 toggle its own
 *        window's fullscreen (winfull_toggle), P / F12 save a screenshot of
 *        it; in place both are the game window's: overwin_requests.
 *   overwin_requests(w)   in place: the WIN_FULLSCREEN / WIN_SHOT bits asked
 *        since the last call (then cleared), for the game's loop; else 0.
 *   overwin_draw(w)       one frame of its own window (and a screenshot when
 *        asked); nothing when closed or in place.
 *   overwin_draw_here(w, ww, wh)  in place: the frame in the game's window
 *        (the game's loop presents it).
 *   overwin_close(w)      NULL-safe parts; the game's window back to its
 *        size and place when it was halved; w zeroed.
 */
#ifndef NR_OVERWIN_H
#define NR_OVERWIN_H

#include "app_internal.h"
#include "winloop.h"

/* Two windows side by side below this width each would be unreadable
 * (the 512x288 on a 1024 projector): switch in place instead. */
#define OVERWIN_MIN_W 960

typedef struct OverWinConfig {
    SDL_Window *game;          /* the driving window (borrowed) */
    SDL_Renderer *game_r;      /* its renderer (in place, the overview draws with it) */
    Engine *e;                 /* NULL: a race the owner describes in s->data */
    const Track *track;        /* without e */
    const char *font_path;
    SDL_Surface *icon;         /* NULL = none */
    double scale;              /* text scale; 0 = 1 */
    const char *shot_dir;      /* P / F12 in its own window; NULL = the default */
    const char *links_text;    /* a race whose links are fixed (AppConfig.links_text); NULL = none */
} OverWinConfig;

typedef struct OverWin {
    SDL_Window *win;   /* its own window; NULL in place */
    SDL_Renderer *r;   /* its own, or the game's in place */
    AppState *s;       /* heap: about 1.8 MB */
    SDL_Window *game;
    bool in_place;
    bool halved;       /* the game's window was halved: game_was restores it */
    SDL_Rect game_was;
    WinFull full;      /* its own window's fullscreen */
    const char *shot_dir;
    unsigned want;     /* in place: WIN_* bits for the game's loop */
    bool want_shot;    /* its own window: a screenshot at the next frame */
} OverWin;

bool overwin_open(OverWin *w, const OverWinConfig *cfg, NrError *err);
bool overwin_is_open(const OverWin *w);
bool overwin_in_place(const OverWin *w);
bool overwin_owns(const OverWin *w, const SDL_Event *ev);
bool overwin_event(OverWin *w, const SDL_Event *ev);
unsigned overwin_requests(OverWin *w);
void overwin_draw(OverWin *w);
void overwin_draw_here(OverWin *w, int ww, int wh);
void overwin_close(OverWin *w);

#endif
