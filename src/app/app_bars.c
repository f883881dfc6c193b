/* The overview's bars: the top bar (race, time, state, messages), the
 * status line (the links in force, Delta, T_dr), the control bar and the
 * buttons (cached in a layer), the help overlay. */
#include "app_paint.h"

#include <stdio.h>
#include <string.h>

static const char *const ctl_label[CTL_COUNT] = {
    "delay 1→2", "jitter 1→2", "loss 1→2", "delay 2→1", "jitter 2→1", "loss 2→1",
    "distribution", "Δ causality", "T_dr", "speed",
    "Space pause", "N step", "R restart", "L loop", "C reset gauges",
    "G ghost", "T trails", "M MUs", "Z zoom", "H help",
};

/* The same labels, short, for narrow windows (detail is dropped, never letters). */
static const char *const ctl_short[CTL_COUNT] = {
    "d 1→2", "j 1→2", "loss 1→2", "d 2→1", "j 2→1", "loss 2→1",
    "dist", "Δ", "T_dr", "speed",
    "Space", "N", "R", "L", "C", "G", "T", "M", "Z", "H",
};


/* ---- bars, controls, help ---------------------------------------------- */

void app_draw_top(AppState *s)
{
    const SDL_FRect *t = &s->lay.top;
    gfx_fill(s->r, t->x, t->y, t->w, t->h, PAL_BAR);
    float pad = (float)s->lay.base * 0.5f, y = t->y + (t->h - lh(s, GFX_NORMAL)) / 2;
    double now = (double)s->data.now_us / 1e6, end = (double)s->data.end_us / 1e6;
    int w = gfx_text(&s->gfx, GFX_NORMAL, (int)pad, (int)y, GFX_LEFT, PAL_FG, "netrace  %s", s->cfg.title ? s->cfg.title : "");
    w += gfx_text(&s->gfx, GFX_NORMAL, (int)(pad * 3) + w, (int)y, GFX_LEFT, PAL_ACCENT, "t %5.1f / %.1f s", now, end);
    const char *state = s->snapshot ? "snapshot" : s->paused ? "PAUSED"
                        : s->cfg.live ? "live" : replay_done(s->rp) && !s->loop ? "FINISHED" : "playing";
    if (s->cfg.live) /* the race runs at the drivers' pace: no speed, no loop */
        w += gfx_text(&s->gfx, GFX_NORMAL, (int)(pad * 5) + w, (int)y, GFX_LEFT, PAL_FG, "%s", state);
    else
        w += gfx_text(&s->gfx, GFX_NORMAL, (int)(pad * 5) + w, (int)y, GFX_LEFT, s->paused ? PAL_WARN : PAL_FG, "%s %gx%s",
                      state, s->speed, s->loop ? "  loop" : "");
    if (s->msg_frames > 0 && s->msg[0]) {
        gfx_text(&s->gfx, GFX_SMALL, (int)(pad * 7) + w, (int)(t->y + (t->h - lh(s, GFX_SMALL)) / 2), GFX_LEFT,
                 PAL_ACCENT, "%s", s->msg);
        s->msg_frames--;
    } else {
        int n = s->data.n;
        char hint[64];
        if (n > 9)
            snprintf(hint, sizeof hint, "1-9, Shift 1-%d focus  H help", n - 9 > 9 ? 9 : n - 9);
        else
            snprintf(hint, sizeof hint, "1-%d focus  H help", n);
        gfx_text(&s->gfx, GFX_SMALL, (int)(t->w - pad), (int)(t->y + (t->h - lh(s, GFX_SMALL)) / 2), GFX_RIGHT,
                 PAL_DIM, "%s", s->focus >= 0 ? "Esc/0 overview  Tab next  H help" : hint);
    }
}

static void draw_status(AppState *s)
{
    const SDL_FRect *t = &s->lay.status;
    gfx_fill(s->r, t->x, t->y, t->w, t->h, PAL_BAR);
    const SchemeParams *p = engine_params(s->e);
    const LinkSpec *a = engine_link(s->e, 0), *b = engine_link(s->e, 1);
    float pad = (float)s->lay.base * 0.5f;
    gfx_text(&s->gfx, GFX_SMALL, (int)pad, (int)(t->y + (t->h - lh(s, GFX_SMALL)) / 2), GFX_LEFT, PAL_FG,
             "1→2: %s | 2→1: %s | Δ %.0f ms  T_dr %.2f cw", a->text[0] ? a->text : "no delay",
             b->text[0] ? b->text : "no delay", (double)p->delta_us / 1000.0, p->tdr_cw);
}

static bool ctl_on(const AppState *s, int c)
{
    switch (c) {
    case BTN_PAUSE:
        return s->paused;
    case BTN_LOOP:
        return s->loop;
    case BTN_GHOST:
        return (s->overlays & APP_OVERLAY_GHOST) != 0;
    case BTN_TRAILS:
        return (s->overlays & APP_OVERLAY_TRAILS) != 0;
    case BTN_INFLIGHT:
        return (s->overlays & APP_OVERLAY_INFLIGHT) != 0;
    case BTN_ZOOM:
        return s->follow[s->focus >= 0];
    case BTN_HELP:
        return s->help;
    default:
        return false;
    }
}

static void draw_controls(AppState *s)
{
    SDL_Renderer *r = s->r;
    float ls = lh(s, GFX_SMALL);
    gfx_fill(r, 0, s->lay.ctl_row[0].y, (float)s->lay.w, s->lay.ctl_row[0].h + s->lay.ctl_row[1].h, PAL_BAR);
    char val[64];
    for (int c = 0; c < CTL_NVALUES; c++) {
        const SDL_FRect *b = &s->lay.ctl[c];
        gfx_fill(r, b->x, b->y, b->w, b->h, c == s->sel ? gfx_rgb(70, 64, 30) : PAL_PANEL);
        if (c == s->sel)
            gfx_frame(r, b->x, b->y, b->w, b->h, PAL_ACCENT);
        int tw, th;
        gfx_text_size(&s->gfx, GFX_SMALL, ctl_label[c], &tw, &th);
        gfx_text(&s->gfx, GFX_SMALL, (int)(b->x + b->w / 2), (int)b->y + 1, GFX_CENTER, PAL_DIM, "%s",
                 (float)tw + 4 <= b->w ? ctl_label[c] : ctl_short[c]);
        app_ctl_value(s, c, val, sizeof val);
        const SDL_FRect *mi = &s->lay.minus[c], *pl = &s->lay.plus[c];
        gfx_fill(r, mi->x, mi->y, mi->w, mi->h, gfx_rgb(64, 68, 78));
        gfx_fill(r, pl->x, pl->y, pl->w, pl->h, gfx_rgb(64, 68, 78));
        gfx_text(&s->gfx, GFX_SMALL, (int)(mi->x + mi->w / 2), (int)(mi->y + (mi->h - ls) / 2), GFX_CENTER, PAL_FG, "-");
        gfx_text(&s->gfx, GFX_SMALL, (int)(pl->x + pl->w / 2), (int)(pl->y + (pl->h - ls) / 2), GFX_CENTER, PAL_FG, "+");
        gfx_text(&s->gfx, GFX_SMALL, (int)(b->x + b->w / 2), (int)(mi->y + (mi->h - ls) / 2), GFX_CENTER,
                 c == s->sel ? PAL_ACCENT : PAL_FG, "%s", val);
    }
    for (int c = CTL_NVALUES; c < CTL_COUNT; c++) {
        const SDL_FRect *b = &s->lay.ctl[c];
        bool on = ctl_on(s, c);
        gfx_fill(r, b->x, b->y, b->w, b->h, on ? gfx_rgb(40, 90, 70) : PAL_PANEL);
        int tw, th;
        gfx_text_size(&s->gfx, GFX_SMALL, ctl_label[c], &tw, &th);
        gfx_text(&s->gfx, GFX_SMALL, (int)(b->x + b->w / 2), (int)(b->y + (b->h - ls) / 2), GFX_CENTER,
                 on ? gfx_rgb(255, 255, 255) : PAL_FG, "%s", (float)tw + 4 <= b->w ? ctl_label[c] : ctl_short[c]);
    }
}

/* Status line, control bar and buttons: redrawn into their layer only when
 * something they show changes. */
void app_draw_bars(AppState *s)
{
    AppLayout *L = &s->lay;
    if (!s->e) { /* a network race: its settings were fixed when it began */
        const SDL_FRect *t = &L->status;
        gfx_fill(s->r, t->x, t->y, t->w, t->h, PAL_BAR);
        gfx_text(&s->gfx, GFX_SMALL, (int)((float)L->base * 0.5f), (int)(t->y + (t->h - lh(s, GFX_SMALL)) / 2),
                 GFX_LEFT, PAL_FG, "network race: every scheme on the same real packets; live metrics from both "
                 "terminals' views");
        return;
    }
    float y0 = L->status.y;
    int w = L->w, h = L->h - (int)y0;
    char key[sizeof s->bar_layer.text_key], val[64];
    const SchemeParams *p = engine_params(s->e);
    int n = snprintf(key, sizeof key, "%d %d %d %u %d %d %d %d %g|%s|%s|%lld %g", w, h, s->sel, s->overlays,
                     s->paused, s->loop, s->follow[s->focus >= 0], s->help, s->speed, engine_link(s->e, 0)->text,
                     engine_link(s->e, 1)->text, (long long)p->delta_us, p->tdr_cw);
    for (int c = 0; c < CTL_NVALUES && n > 0 && (size_t)n < sizeof key; c++) {
        app_ctl_value(s, c, val, sizeof val);
        n += snprintf(key + n, sizeof key - (size_t)n, "|%s", val);
    }
    bool fits = n > 0 && (size_t)n < sizeof key - 1;
    if (s->no_layers || !fits || h < 4 || !app_layer_begin(s, &s->bar_layer, w, h)) {
        SDL_SetRenderTarget(s->r, NULL);
        draw_status(s);
        draw_controls(s);
        return;
    }
    if (strcmp(key, s->bar_layer.text_key) != 0) {
        /* draw with the bars' rectangles moved to the layer's origin */
        AppLayout saved = *L;
        SDL_FRect *rects[3 + 3 * CTL_COUNT];
        int m = 0;
        rects[m++] = &L->status;
        rects[m++] = &L->ctl_row[0];
        rects[m++] = &L->ctl_row[1];
        for (int c = 0; c < CTL_COUNT; c++) {
            rects[m++] = &L->ctl[c];
            rects[m++] = &L->minus[c];
            rects[m++] = &L->plus[c];
        }
        for (int i = 0; i < m; i++)
            rects[i]->y -= y0;
        SDL_SetRenderDrawColor(s->r, PAL_BG.r, PAL_BG.g, PAL_BG.b, 255);
        SDL_RenderClear(s->r);
        draw_status(s);
        draw_controls(s);
        *L = saved;
        memcpy(s->bar_layer.text_key, key, (size_t)n + 1);
    }
    app_layer_end(s, &s->bar_layer, 0, y0);
}

static const char *const help_lines[] = {
    "Keys",
    "Space        pause / resume          N or .     single step (33 ms)",
    "+ / -        speed 0.25x .. 8x       R          restart (same traffic)",
    "L            loop at the end         C          reset the gauges",
    "1..9         focus scheme 1..9       Shift 1..3 focus scheme 10..12",
    "0 or Esc     overview of all schemes",
    "Tab          next scheme             Shift-Tab  previous scheme",
    "Up / Down    select a control        Left/Right change it (Shift: x5)",
    "[ / ]        change it too           D          cycle the jitter distribution",
    "G            ghost (true position)   T          trails",
    "M            MUs in flight           Z          zoom on the cars",
    "F or F11     fullscreen              P or F12   screenshot (~/Pictures/netrace)",
    "F2           lagometer on / off      F3         mark (a live race's recording / log)",
    "H, F1 or ?   this help               Q, Ctrl-Q  quit",
    "",
    "Mouse: click - / + on a control or roll the wheel over it; click the buttons;",
    "click a scheme's row to focus it, click again or right-click for the overview.",
    "",
    "Each row is one scheme: left the screen of player 1, right the screen of player 2.",
    "Car 1 is orange, car 2 is blue. 'car N ahead' is who leads on that screen;",
    "a red frame: the two screens disagree on the leader at this sample;",
    "the rate counts the samples at which the two screens disagree on the leader.",
    "d1 = car 1's progress on P1's screen minus on P2's screen; d2 likewise for car 2.",
    "Mean d1 - d2 > 0 means player 1 is disadvantaged (bar to the right, orange);",
    "within 0.05 car widths of 0: 'even' and an empty bar. Bars and the d1-d2 chart",
    "use a log scale (ticks 0.1, 1, 10 cw); the picture is each 33 ms sample.",
};

/* Line i of the help: the keys and the picture, then the lagometer's. */
static const char *help_line(int i)
{
    int n = (int)(sizeof help_lines / sizeof help_lines[0]);
    return i < n ? help_lines[i] : i == n ? "" : lagometer_legend(i - n - 1);
}

void app_draw_help(AppState *s)
{
    SDL_Renderer *r = s->r;
    float l = lh(s, GFX_NORMAL);
    int n = 0;
    while (help_line(n))
        n++;
    int maxw = 0;
    for (int i = 0; i < n; i++) {
        int w, h;
        gfx_text_size(&s->gfx, GFX_NORMAL, help_line(i), &w, &h);
        if (w > maxw)
            maxw = w;
    }
    float pad = l;
    float w = (float)maxw + 2 * pad, h = l * (float)n + 2 * pad;
    float x = ((float)s->lay.w - w) / 2, y = ((float)s->lay.h - h) / 2;
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    gfx_fill(r, 0, 0, (float)s->lay.w, (float)s->lay.h, gfx_rgba(0, 0, 0, 140));
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
    gfx_fill(r, x, y, w, h, gfx_rgb(30, 33, 40));
    gfx_frame(r, x, y, w, h, PAL_ACCENT);
    for (int i = 0; i < n; i++)
        gfx_text(&s->gfx, GFX_NORMAL, (int)(x + pad), (int)(y + pad + l * (float)i), GFX_LEFT, i == 0 ? PAL_ACCENT : PAL_FG,
                 "%s", help_line(i));
}

