/* The overview's input: keys and mouse on the views, the control bar and
 * the buttons (docs/window.md "Keys"). */
#include "app_internal.h"

static bool in_rect(const SDL_FRect *r, float x, float y)
{
    return r->w > 0 && x >= r->x && x < r->x + r->w && y >= r->y && y < r->y + r->h;
}

static void handle_click(AppState *s, float x, float y, int button)
{
    const AppLayout *L = &s->lay;
    for (int c = 0; c < CTL_NVALUES; c++) {
        if (in_rect(&L->minus[c], x, y)) {
            s->sel = c;
            app_ctl_change(s, c, -1, false);
            return;
        }
        if (in_rect(&L->plus[c], x, y)) {
            s->sel = c;
            app_ctl_change(s, c, +1, false);
            return;
        }
        if (in_rect(&L->ctl[c], x, y)) {
            s->sel = c;
            return;
        }
    }
    for (int c = CTL_NVALUES; c < CTL_COUNT; c++)
        if (in_rect(&L->ctl[c], x, y)) {
            app_ctl_press(s, c);
            return;
        }
    if (s->help) {
        s->help = false;
        return;
    }
    if (button == SDL_BUTTON_RIGHT) {
        s->focus = -1;
        return;
    }
    int n = s->data.n;
    if (racedata_cars(&s->data) > 2) { /* a scheme's cell focuses it; the focused scheme's screens: the overview */
        for (int k = 0; k < n; k++)
            if (in_rect(&L->row[k], x, y)) {
                s->focus = k == s->focus ? -1 : k;
                return;
            }
        return;
    }
    if (s->focus >= 0) {
        if (in_rect(&L->main, x, y))
            s->focus = -1;
        return;
    }
    for (int k = 0; k < n; k++)
        if (in_rect(&L->row[k], x, y)) {
            s->focus = k;
            return;
        }
}

/* Keys that press a button of the button row (the same action as a click). */
static const struct {
    SDL_Keycode sym;
    int btn;
} key_buttons[] = {
    {SDLK_SPACE, BTN_PAUSE}, {SDLK_n, BTN_STEP},     {SDLK_PERIOD, BTN_STEP},   {SDLK_r, BTN_RESTART},
    {SDLK_l, BTN_LOOP},      {SDLK_c, BTN_RESET},    {SDLK_g, BTN_GHOST},       {SDLK_t, BTN_TRAILS},
    {SDLK_m, BTN_INFLIGHT},  {SDLK_z, BTN_ZOOM},     {SDLK_h, BTN_HELP},        {SDLK_F1, BTN_HELP},
    {SDLK_QUESTION, BTN_HELP},
};

/* Focus keys: 1-9 schemes 1-9, Shift+1-9 schemes 10-18 (12 schemes, and
 * more, without Tab); Tab / Shift-Tab the next / previous; 0 the overview.
 * True when sym was one of them. */
static bool focus_key(AppState *s, SDL_Keycode sym, bool shift)
{
    int n = s->data.n, k = -1;
    if (sym == SDLK_TAB) {
        if (n > 0)
            s->focus = shift ? (s->focus <= 0 ? n - 1 : s->focus - 1) : (s->focus + 1 >= n ? -1 : s->focus + 1);
        return true;
    }
    if (sym == SDLK_0 || sym == SDLK_KP_0) {
        s->focus = -1;
        return true;
    }
    if (sym >= SDLK_1 && sym <= SDLK_9)
        k = (int)(sym - SDLK_1) + (shift ? 9 : 0);
    else if (sym >= SDLK_KP_1 && sym <= SDLK_KP_9)
        k = (int)(sym - SDLK_KP_1) + (shift ? 9 : 0);
    else
        return false;
    if (k < n)
        s->focus = k;
    return true;
}

/* The control bar from the keyboard: select, change, speed, distribution.
 * True when sym was one of them. */
static bool control_key(AppState *s, SDL_Keycode sym, bool shift)
{
    switch (sym) {
    case SDLK_PLUS:
    case SDLK_EQUALS:
    case SDLK_KP_PLUS:
        app_ctl_change(s, CTL_SPEED, +1, false);
        return true;
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
        app_ctl_change(s, CTL_SPEED, -1, false);
        return true;
    case SDLK_d:
        app_ctl_change(s, CTL_DIST, shift ? -1 : +1, false);
        return true;
    case SDLK_UP:
    case SDLK_DOWN: /* the next shown control (a race's fixed links have none) */
        do
            s->sel = (s->sel + (sym == SDLK_UP ? CTL_NVALUES - 1 : 1)) % CTL_NVALUES;
        while (app_links_fixed(s) && s->sel <= CTL_DIST);
        return true;
    case SDLK_LEFT:
    case SDLK_LEFTBRACKET:
    case SDLK_RIGHT:
    case SDLK_RIGHTBRACKET:
        app_ctl_change(s, s->sel, sym == SDLK_LEFT || sym == SDLK_LEFTBRACKET ? -1 : +1, shift);
        return true;
    default:
        return false;
    }
}

static void handle_key(AppState *s, const SDL_KeyboardEvent *k)
{
    SDL_Keycode sym = k->keysym.sym;
    Uint16 mod = k->keysym.mod;
    bool shift = (mod & KMOD_SHIFT) != 0, ctrl = (mod & KMOD_CTRL) != 0;
    if (gfx_scale_key(&s->scale, k)) { /* larger text for the back of the room */
        app_set_message(s, "text x%g (Ctrl + / - / 0)", s->scale);
        return;
    }
    if (sym == SDLK_q || (ctrl && (sym == SDLK_w || sym == SDLK_c))) {
        s->want_quit = true;
        return;
    }
    for (size_t i = 0; i < sizeof key_buttons / sizeof key_buttons[0]; i++)
        if (key_buttons[i].sym == sym) {
            app_ctl_press(s, key_buttons[i].btn);
            return;
        }
    if (sym == SDLK_ESCAPE) {
        if (s->help)
            s->help = false;
        else
            s->focus = -1;
    } else if (sym == SDLK_SLASH && shift) {
        app_ctl_press(s, BTN_HELP);
    } else if (sym == SDLK_f || sym == SDLK_F11) {
        s->want_fullscreen = true;
    } else if (sym == SDLK_p || sym == SDLK_F12) {
        s->want_shot = true;
    } else if (sym == SDLK_F2) {
        s->lag = !s->lag;
    } else if (sym == SDLK_F3) { /* a live race's window takes it before the overview */
        app_set_message(s, "F3 marks a live race (play, host, join), not a replay");
    } else if (!control_key(s, sym, shift)) {
        focus_key(s, sym, shift);
    }
}

void app_handle_event(AppState *s, const SDL_Event *ev)
{
    switch (ev->type) {
    case SDL_QUIT:
        s->want_quit = true;
        break;
    case SDL_WINDOWEVENT: /* one of several windows closed (the game's overview) */
        if (ev->window.event == SDL_WINDOWEVENT_CLOSE)
            s->want_quit = true;
        break;
    case SDL_KEYDOWN:
        handle_key(s, &ev->key);
        break;
    case SDL_RENDER_TARGETS_RESET: /* the layers' and tiles' pixels lost */
    case SDL_RENDER_DEVICE_RESET:
        app_render_reset(s, ev);
        break;
    case SDL_MOUSEBUTTONDOWN:
        handle_click(s, (float)ev->button.x, (float)ev->button.y, ev->button.button);
        break;
    case SDL_MOUSEWHEEL: {
        int mx = 0, my = 0;
        SDL_GetMouseState(&mx, &my);
        for (int c = 0; c < CTL_NVALUES; c++)
            if (in_rect(&s->lay.ctl[c], (float)mx, (float)my) && ev->wheel.y != 0) {
                s->sel = c;
                app_ctl_change(s, c, ev->wheel.y > 0 ? +1 : -1, false);
            }
        break;
    }
    default:
        break;
    }
}
