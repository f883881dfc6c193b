/* The overview of every scheme beside the race, or in its place (overwin.h). */
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
    if (w->win) { /* in place the renderer is the game's */
        if (w->r)
            SDL_DestroyRenderer(w->r);
        SDL_DestroyWindow(w->win);
    }
    if (w->halved && w->game) { /* the game's window as it was */
        SDL_SetWindowSize(w->game, w->game_was.w, w->game_was.h);
        SDL_SetWindowPosition(w->game, w->game_was.x, w->game_was.y);
    }
    memset(w, 0, sizeof *w);
}

bool overwin_is_open(const OverWin *w)
{
    return w->s != NULL;
}

bool overwin_in_place(const OverWin *w)
{
    return w->s != NULL && w->in_place;
}

typedef enum Place { PLACE_BESIDE, PLACE_HALVES, PLACE_IN_PLACE } Place;

/* Beside the game's window when the display holds both at its size;
 * halves of the display when each is still OVERWIN_MIN_W wide; else in
 * place (a fullscreen game too: it cannot be halved). */
static Place choose_place(SDL_Window *game, SDL_Rect *b)
{
    int gw, gh, d = SDL_GetWindowDisplayIndex(game);
    SDL_GetWindowSize(game, &gw, &gh);
    if (d < 0 || SDL_GetDisplayUsableBounds(d, b) != 0)
        return PLACE_IN_PLACE;
    if (SDL_GetWindowFlags(game) & SDL_WINDOW_FULLSCREEN)
        return PLACE_IN_PLACE;
    if (2 * gw <= b->w && gh <= b->h)
        return PLACE_BESIDE;
    return b->w / 2 >= OVERWIN_MIN_W ? PLACE_HALVES : PLACE_IN_PLACE;
}

/* Its own window, the size of the game's (or half the display). */
static bool open_window(OverWin *w, Place where, const SDL_Rect *b, NrError *err)
{
    int gx, gy, gw, gh;
    SDL_GetWindowPosition(w->game, &gx, &gy);
    SDL_GetWindowSize(w->game, &gw, &gh);
    int ww = gw, wh = gh;
    if (where == PLACE_HALVES) {
        /* two 1280x720 on a 1920x1080 display: each gets half of it, side
         * by side and full height, so the class sees the drivers' screens
         * and every scheme with nothing of the display left black */
        w->halved = true;
        w->game_was = (SDL_Rect){gx, gy, gw, gh};
        ww = b->w / 2;
        wh = b->h;
        SDL_SetWindowSize(w->game, ww, wh);
        SDL_SetWindowPosition(w->game, b->x, b->y);
        gx = b->x;
        gy = b->y;
    } else {
        SDL_SetWindowPosition(w->game, b->x, gy);
        gx = b->x;
    }
    w->win = SDL_CreateWindow("netrace - every scheme, live", gx + ww, gy, ww, wh, SDL_WINDOW_RESIZABLE);
    w->r = w->win ? winloop_create_renderer(w->win) : NULL;
    if (!w->r)
        return nr_error_set(err, "%s", SDL_GetError());
    SDL_SetWindowMinimumSize(w->win, 640, 360);
    return true;
}

bool overwin_open(OverWin *w, const OverWinConfig *c, NrError *err)
{
    memset(w, 0, sizeof *w);
    w->game = c->game;
    w->shot_dir = c->shot_dir;
    SDL_Rect b;
    Place where = choose_place(c->game, &b);
    w->in_place = where == PLACE_IN_PLACE;
    if (w->in_place)
        w->r = c->game_r;
    else if (!open_window(w, where, &b, err)) {
        overwin_close(w);
        return false;
    }
    w->s = calloc(1, sizeof *w->s);
    if (!w->s) {
        nr_error_set(err, "out of memory");
        overwin_close(w);
        return false;
    }
    AppConfig ac = app_config_default();
    ac.font_path = c->font_path;
    ac.live = true;
    ac.wall_cw = CAR_GRASS_CW;
    ac.scale = c->scale;
    ac.links_text = c->links_text;
    /* in place the top bar says how back to the race */
    ac.title = w->in_place ? "every scheme (Tab: back to the race)" : NULL;
    if (c->e) {
        if (!app_state_init_engine(w->s, c->e, NULL, &ac, w->r, err)) {
            overwin_close(w);
            return false;
        }
    } else {
        app_state_init_track(w->s, c->track, &ac, w->r);
    }
    if (c->icon && w->win)
        SDL_SetWindowIcon(w->win, c->icon);
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
    if (!w->s || id == 0)
        return false;
    if (w->in_place) /* the keys and the mouse; the window itself stays the game's */
        return ev->type != SDL_WINDOWEVENT && id == SDL_GetWindowID(w->game);
    return w->win && id == SDL_GetWindowID(w->win);
}

bool overwin_event(OverWin *w, const SDL_Event *ev)
{
    if (!w->s)
        return false;
    app_handle_event(w->s, ev);
    unsigned req = app_requests(w->s);
    if (w->in_place) {
        w->want |= req & (WIN_FULLSCREEN | WIN_SHOT);
    } else {
        if (req & WIN_FULLSCREEN)
            winfull_toggle(&w->full, w->win);
        w->want_shot |= (req & WIN_SHOT) != 0;
    }
    return (req & WIN_QUIT) != 0;
}

unsigned overwin_requests(OverWin *w)
{
    unsigned r = w->in_place ? w->want : 0;
    w->want = 0;
    return r;
}

void overwin_draw(OverWin *w)
{
    if (!w->s || w->in_place)
        return;
    int ww, wh;
    SDL_GetRendererOutputSize(w->r, &ww, &wh);
    app_draw(w->s, ww, wh);
    if (w->want_shot) { /* the frame as drawn, before it is shown */
        w->want_shot = false;
        WinLoop own = {.win = w->win, .r = w->r, .shot_dir = w->shot_dir};
        WinScreen scr = app_screen(w->s);
        scr.shot_prefix = "netrace-overview";
        winloop_shot(&own, &scr, ww, wh);
    }
    SDL_RenderPresent(w->r);
}

void overwin_draw_here(OverWin *w, int ww, int wh)
{
    if (w->s && w->in_place)
        app_draw(w->s, ww, wh);
}
