/* The overview of every scheme in a second window beside a driving screen
 * (the game's Tab / --watch, the network window's Tab / --watch): the
 * replay window's overview (AppState) on a live race, which its owner moves
 * on. With an engine (local play) the overview reads it; without (network
 * play) the owner fills s->data before each overwin_draw.
 *
 * Contracts:
 *   overwin_open(w, beside, e, track, font, icon, err)  opens the window
 *        (the size of beside), placed beside it when the display holds both,
 *        else both at half the display side by side; e NULL = a race the
 *        owner describes in w->s->data. False + err, nothing held.
 *   overwin_owns(w, ev)   the event belongs to the overview window.
 *   overwin_event(w, ev)  hands it to the overview; true when the overview
 *        asked to close (its window closed, Q).
 *   overwin_draw(w)       one frame of the overview; nothing when closed.
 *   overwin_close(w)      NULL-safe parts; w zeroed.
 */
#ifndef NR_OVERWIN_H
#define NR_OVERWIN_H

#include "app_internal.h"

typedef struct OverWin {
    SDL_Window *win;
    SDL_Renderer *r;
    AppState *s; /* heap: about 1.8 MB */
} OverWin;

bool overwin_open(OverWin *w, SDL_Window *beside, Engine *e, const Track *track, const char *font_path,
                  SDL_Surface *icon, NrError *err);
bool overwin_owns(const OverWin *w, const SDL_Event *ev);
bool overwin_event(OverWin *w, const SDL_Event *ev);
void overwin_draw(OverWin *w);
void overwin_close(OverWin *w);

#endif
