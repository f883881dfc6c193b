/* The joiner's code prompt (netwin.h netwin_ask_code): a window that asks
 * for the host's join code before the session starts, and the typing rules
 * it follows (netwin_code_key), kept apart from the race's window. */
#include "netwin.h"

#include "palette.h"
#include "widgets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int netwin_code_key(char *typed, size_t cap, int key, char code[WIRECRYPT_CODE_CHARS + 1])
{
    size_t n = strlen(typed);
    if (key == SDLK_BACKSPACE) {
        if (n > 0)
            typed[n - 1] = '\0';
        return NETWIN_CODE_TYPING;
    }
    if (key == SDLK_RETURN || key == SDLK_KP_ENTER)
        return wirecrypt_code_normalise(typed, code) ? NETWIN_CODE_DONE : NETWIN_CODE_BAD;
    int c = key >= 'a' && key <= 'z' ? key - 'a' + 'A' : key; /* SDL keycodes of letters are lower case */
    bool ok = (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
    if (ok && n + 1 < cap)
        typed[n] = (char)c, typed[n + 1] = '\0';
    return NETWIN_CODE_TYPING;
}

typedef struct CodePrompt {
    Gfx gfx;
    const char *host;
    char typed[NETWIN_CODE_TYPED];
    char *code;
    bool bad, done, quit, fullscreen;
    double scale;
    volatile sig_atomic_t *stop;
} CodePrompt;

static void prompt_event(void *ctx, const SDL_Event *ev)
{
    CodePrompt *p = ctx;
    if (ev->type == SDL_QUIT || (ev->type == SDL_WINDOWEVENT && ev->window.event == SDL_WINDOWEVENT_CLOSE))
        p->quit = true;
    if (ev->type != SDL_KEYDOWN)
        return;
    SDL_Keycode k = ev->key.keysym.sym;
    if (k == SDLK_ESCAPE) {
        p->quit = true;
        return;
    }
    if (k == SDLK_F11) { /* F is a letter of the code here */
        p->fullscreen = true;
        return;
    }
    if (gfx_scale_key(&p->scale, &ev->key))
        return;
    int r = netwin_code_key(p->typed, sizeof p->typed, (int)k, p->code);
    p->done = r == NETWIN_CODE_DONE;
    p->bad = r == NETWIN_CODE_BAD;
}

void netwin_code_draw(Gfx *g, const char *host, const char *typed, bool bad, double scale, int w, int h)
{
    SDL_Color grass = PAL_GRASS;
    SDL_SetRenderDrawColor(g->r, grass.r, grass.g, grass.b, 255);
    SDL_RenderClear(g->r);
    gfx_begin_frame(g);
    gfx_set_scale(g, gfx_base_px(w, h, scale));
    char l1[200], l1b[200], l2[NETWIN_CODE_TYPED + 2];
    snprintf(l1, sizeof l1, "Join %.120s: type the code the host's window shows", host);
    snprintf(l1b, sizeof l1b, "Join %.120s", host);
    snprintf(l2, sizeof l2, "%s_", typed);
    const char *l1s[3] = {l1, l1b, "type the join code"}, *l2s[1] = {l2};
    const char *l3s[2] = {bad ? "that is not a code: 10 letters and digits (the dash optional)"
                              : "A-Z 0-9, Backspace, Enter to join, Esc to leave",
                          bad ? "not a code: 10 letters and digits" : "Enter join, Esc leave"};
    float room = (float)w - (float)gfx_line_h(g, GFX_NORMAL);
    gfx_text_fit(g, GFX_NORMAL, w / 2, h / 4, GFX_CENTER, PAL_ACCENT, room, l1s, 3);
    widget_panel(g->r, (float)w / 4, (float)h * 0.36f, (float)w / 2, (float)h / 7, PAL_ACCENT);
    gfx_room_push(g, (float)w / 4, (float)h * 0.36f, (float)w / 2, (float)h / 7);
    gfx_text_shrink(g, GFX_BIG, w / 2, (int)((float)h * 0.395f), GFX_CENTER, PAL_FG, (float)w / 2 - 4, l2s[0]);
    gfx_room_pop(g);
    gfx_text_fit(g, GFX_NORMAL, w / 2, (int)((float)h * 0.6f), GFX_CENTER, bad ? PAL_WARN : PAL_DIM, room, l3s, 2);
}

static void prompt_draw(void *ctx, int w, int h)
{
    CodePrompt *p = ctx;
    netwin_code_draw(&p->gfx, p->host, p->typed, p->bad, p->scale, w, h);
}

static void prompt_advance(void *ctx, int64_t wall_dt_us)
{
    (void)ctx, (void)wall_dt_us; /* nothing moves: the prompt waits for keys */
}

static double prompt_time(void *ctx)
{
    (void)ctx;
    return 0.0;
}

static void prompt_message(void *ctx, const char *text)
{
    (void)ctx, (void)text; /* a screenshot's path: stderr says it too */
}

static unsigned prompt_requests(void *ctx)
{
    CodePrompt *p = ctx;
    unsigned r = (p->quit || p->done || (p->stop && *p->stop) ? WIN_QUIT : 0) | (p->fullscreen ? WIN_FULLSCREEN : 0);
    p->fullscreen = false;
    return r;
}

int netwin_ask_code(const NetWinConfig *cfg, const char *host, char code[WIRECRYPT_CODE_CHARS + 1],
                    volatile sig_atomic_t *stop)
{
    const char *want = getenv("SDL_VIDEODRIVER");
    WinLoopConfig wc = {.title = cfg->title ? cfg->title : "netrace", .width = cfg->width, .height = cfg->height,
                        .fullscreen = cfg->fullscreen,
                        .invisible_ok = want && (strcmp(want, "dummy") == 0 || strcmp(want, "offscreen") == 0)};
    WinLoop loop;
    memset(&loop, 0, sizeof loop);
    if (!winloop_open(&loop, &wc))
        return 3;
    CodePrompt p;
    memset(&p, 0, sizeof p);
    p.host = host;
    p.scale = cfg->scale > 0 ? cfg->scale : 1.0;
    p.code = code;
    p.stop = stop;
    char font[512];
    gfx_pick_font(cfg->font_path, font, sizeof font);
    gfx_init(&p.gfx, loop.r, font[0] ? font : NULL);
    WinScreen scr = {.ctx = &p, .shot_prefix = "netrace-code", .event = prompt_event, .advance = prompt_advance,
                     .draw = prompt_draw, .requests = prompt_requests, .race_time_s = prompt_time,
                     .message = prompt_message};
    winloop_run(&loop, &scr);
    gfx_free(&p.gfx);
    winloop_close(&loop);
    return p.done ? 0 : 1;
}
