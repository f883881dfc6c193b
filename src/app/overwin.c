/* The overview of every scheme in a second window (overwin.h). */
#include "overwin.h"

#include "car.h"

#include <stdlib.h>
#include <string.h>

void overwin_close(OverWin *w)
{
    if (w->s) {
        app_state_free(w->s);
        free(w->s);
    }
    if (w->r)
        SDL_DestroyRenderer(w->r);
    if (w->win)
        SDL_DestroyWindow(w->win);
    memset(w, 0, sizeof *w);
}

/* Beside the driving window when the display holds both, else both shrunk
 * to half the display side by side (cascaded only on a display under 640
 * pixels wide). */
static void place(OverWin *w, SDL_Window *game)
{
    int gx, gy, gw, gh, ww, wh;
    SDL_GetWindowPosition(game, &gx, &gy);
    SDL_GetWindowSize(game, &gw, &gh);
    SDL_GetWindowSize(w->win, &ww, &wh);
    SDL_Rect b;
    int d = SDL_GetWindowDisplayIndex(game);
    if (d >= 0 && SDL_GetDisplayUsableBounds(d, &b) == 0 && gw + ww <= b.w) {
        SDL_SetWindowPosition(game, b.x, gy);
        SDL_SetWindowPosition(w->win, b.x + gw, gy);
    } else if (d >= 0 && SDL_GetDisplayUsableBounds(d, &b) == 0 && b.w >= 640) {
        /* both do not fit at their size (two 1280x720 on a 1920x1080
         * projector): each gets half the display, 16:9, side by side, so
         * the class sees the drivers' screens and every scheme at once */
        int hw = b.w / 2, hh = hw * 9 / 16;
        hh = hh > b.h ? b.h : hh;
        SDL_SetWindowSize(game, hw, hh);
        SDL_SetWindowSize(w->win, hw, hh);
        SDL_SetWindowPosition(game, b.x, b.y);
        SDL_SetWindowPosition(w->win, b.x + hw, b.y);
    } else {
        SDL_SetWindowPosition(w->win, gx + 48, gy + 48);
    }
}

bool overwin_open(OverWin *w, SDL_Window *beside, Engine *e, const Track *track, const char *font_path,
                  SDL_Surface *icon, NrError *err)
{
    memset(w, 0, sizeof *w);
    int width, height;
    SDL_GetWindowSize(beside, &width, &height);
    w->win = SDL_CreateWindow("netrace - every scheme, live", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, width,
                              height, SDL_WINDOW_RESIZABLE);
    w->r = w->win ? winloop_create_renderer(w->win) : NULL;
    w->s = w->r ? calloc(1, sizeof *w->s) : NULL;
    if (!w->s) {
        nr_error_set(err, "%s", SDL_GetError());
        overwin_close(w);
        return false;
    }
    AppConfig ac = app_config_default();
    ac.font_path = font_path;
    ac.live = true;
    ac.wall_cw = CAR_GRASS_CW;
    if (e) {
        if (!app_state_init_engine(w->s, e, NULL, &ac, w->r, err)) {
            overwin_close(w);
            return false;
        }
    } else {
        app_state_init_track(w->s, track, &ac, w->r);
    }
    if (icon)
        SDL_SetWindowIcon(w->win, icon);
    place(w, beside);
    return true;
}

static Uint32 event_window(const SDL_Event *ev)
{
    switch (ev->type) {
    case SDL_WINDOWEVENT:
        return ev->window.windowID;
    case SDL_KEYDOWN:
    case SDL_KEYUP:
        return ev->key.windowID;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP:
        return ev->button.windowID;
    case SDL_MOUSEWHEEL:
        return ev->wheel.windowID;
    default:
        return 0;
    }
}

bool overwin_owns(const OverWin *w, const SDL_Event *ev)
{
    Uint32 id = event_window(ev);
    return w->win && id != 0 && id == SDL_GetWindowID(w->win);
}

bool overwin_event(OverWin *w, const SDL_Event *ev)
{
    if (!w->s)
        return false;
    app_handle_event(w->s, ev);
    return w->s->want_quit;
}

void overwin_draw(OverWin *w)
{
    if (!w->s)
        return;
    int ww, wh;
    SDL_GetRendererOutputSize(w->r, &ww, &wh);
    app_draw(w->s, ww, wh);
    SDL_RenderPresent(w->r);
}
