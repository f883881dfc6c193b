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

/* The buttons' labels between the two: the key and one word. */
static const char *const btn_mid[CTL_COUNT - CTL_NVALUES] = {
    "Space pause", "N step", "R restart", "L loop", "C reset", "G ghost", "T trails", "M MUs", "Z zoom", "H help",
};

/* A control's value, then shorter: without spaces ("100ms"), without the
 * unit ("100"), a distribution's short name. */
static void value_forms(const char *val, char (*f)[64], const char **alts)
{
    static const char *const dist_short[][2] = {{"paretonormal", "par-norm"}, {"pareto", "par"}, {"normal", "norm"}};
    snprintf(f[0], 64, "%s", val);
    size_t m = 0;
    for (const char *p = val; *p && m < 63; p++)
        if (*p != ' ')
            f[1][m++] = *p;
    f[1][m] = '\0';
    snprintf(f[2], 64, "%.*s", (int)strspn(val, "0123456789.+-"), val);
    f[3][0] = '\0';
    for (size_t i = 0; i < sizeof dist_short / sizeof dist_short[0]; i++)
        if (strcmp(val, dist_short[i][0]) == 0)
            snprintf(f[3], 64, "%s", dist_short[i][1]);
    alts[0] = f[0];
    alts[1] = strcmp(f[1], f[0]) ? f[1] : NULL;
    alts[2] = f[2][0] && strcmp(f[2], f[1]) ? f[2] : NULL;
    alts[3] = f[3][0] ? f[3] : NULL;
}

/* ---- bars, controls, help ---------------------------------------------- */

/* The top bar's title: "netrace  recordings/x.csv", else the file's name
 * without its folder, else the file name alone; a title that ends in a
 * note in brackets ("every scheme (Tab: back to the race)", play's
 * overview in place) keeps the note alone before it gives way; else
 * nothing. */
#define TOP_TITLES 5
static int top_title_forms(const AppState *s, char (*forms)[GFX_TEXT_MAX], int *keep)
{
    const char *title = s->cfg.title ? s->cfg.title : "", *base = strrchr(title, '/');
    base = base ? base + 1 : title;
    snprintf(forms[0], GFX_TEXT_MAX, "netrace  %s", title);
    snprintf(forms[1], GFX_TEXT_MAX, "netrace  %s", base);
    snprintf(forms[2], GFX_TEXT_MAX, "%s", base);
    const char *note = strrchr(base, '(');
    size_t len = strlen(base);
    int n = 3;
    bool has_note = note && len > 0 && base[len - 1] == ')' && note[1] != ')';
    if (has_note)
        snprintf(forms[n++], GFX_TEXT_MAX, "%.*s", (int)(base + len - 1 - note - 1), note + 1);
    *keep = has_note ? n : n + 1; /* the forms tried with every hint before nothing is */
    forms[n++][0] = '\0';
    return n;
}

/* Race time, state and speed; then the transient message (shortened in
 * its middle to the room left) or the keys' hint (shorter forms). The
 * title gives way first. */
void app_draw_top(AppState *s)
{
    const SDL_FRect *t = &s->lay.top;
    gfx_fill(s->r, t->x, t->y, t->w, t->h, PAL_BAR);
    gfx_room_push(&s->gfx, t->x, t->y, t->w, t->h);
    float pad = (float)s->lay.base * 0.5f, y = t->y + (t->h - lh(s, GFX_NORMAL)) / 2;
    float ys = t->y + (t->h - lh(s, GFX_SMALL)) / 2;
    double now = (double)s->data.now_us / 1e6, end = (double)s->data.end_us / 1e6;
    const char *state = s->snapshot ? "snapshot" : s->paused ? "PAUSED"
                        : s->cfg.live ? "live" : replay_done(s->rp) && !s->loop ? "FINISHED" : "playing";
    char titles[TOP_TITLES][GFX_TEXT_MAX], clock[64], st[64], hint[64];
    int keep, ntitles = top_title_forms(s, titles, &keep);
    snprintf(clock, sizeof clock, "t %5.1f / %.1f s", now, end);
    if (s->cfg.live) /* the race runs at the drivers' pace: no speed, no loop */
        snprintf(st, sizeof st, "%s", state);
    else
        snprintf(st, sizeof st, "%s %gx%s", state, s->speed, s->loop ? "  loop" : "");
    int n = s->data.n;
    if (s->focus >= 0)
        snprintf(hint, sizeof hint, "Esc/0 overview  Tab next  H help");
    else if (n > 9)
        snprintf(hint, sizeof hint, "1-9, Shift 1-%d focus  H help", n - 9 > 9 ? 9 : n - 9);
    else
        snprintf(hint, sizeof hint, "1-%d focus  H help", n);
    bool msg = s->msg_frames > 0 && s->msg[0];
    const char *hints[2] = {hint, "H help"};
    int cw, sw, hh, tw[TOP_TITLES], hw[2] = {0, 0}, ti = ntitles - 1, hi = -1;
    gfx_text_size(&s->gfx, GFX_NORMAL, clock, &cw, &hh);
    gfx_text_size(&s->gfx, GFX_NORMAL, st, &sw, &hh);
    for (int i = 0; i < ntitles; i++)
        gfx_text_size(&s->gfx, GFX_NORMAL, titles[i], &tw[i], &hh);
    for (int h = 0; h < 2; h++)
        gfx_text_size(&s->gfx, GFX_SMALL, hints[h], &hw[h], &hh);
    /* the widest title that leaves half the bar to a message, or room for
     * the longest hint that fits at all; a note gives way to a shorter hint */
    float left0 = pad * 5 + (float)(cw + sw);
    bool found = false;
    for (int pass = 0; pass < 2 && !found; pass++)
        for (int h = msg ? 2 : 0; h < 3 && !found; h++)
            for (int i = pass ? keep : 0; i < (pass ? ntitles : keep) && !found; i++) {
                float right = h == 2 ? (msg ? t->w / 2 : 0) : pad * 3 + (float)hw[h];
                if (left0 + (float)tw[i] + right <= t->w) {
                    ti = i;
                    hi = h < 2 ? h : -1;
                    found = true;
                }
            }
    int w = gfx_text(&s->gfx, GFX_NORMAL, (int)pad, (int)y, GFX_LEFT, PAL_FG, "%s", titles[ti]);
    w += gfx_text(&s->gfx, GFX_NORMAL, (int)(pad * 3) + w, (int)y, GFX_LEFT, PAL_ACCENT, "%s", clock);
    w += gfx_text(&s->gfx, GFX_NORMAL, (int)(pad * 5) + w, (int)y, GFX_LEFT,
                  s->paused && !s->cfg.live ? PAL_WARN : PAL_FG, "%s", st);
    if (msg) {
        char fit[GFX_TEXT_MAX];
        gfx_ellipsize(&s->gfx, GFX_SMALL, t->w - pad * 8 - (float)w, s->msg, fit, sizeof fit);
        gfx_text(&s->gfx, GFX_SMALL, (int)(pad * 7) + w, (int)ys, GFX_LEFT, PAL_ACCENT, "%s", fit);
        s->msg_frames--;
    } else if (hi >= 0) {
        gfx_text(&s->gfx, GFX_SMALL, (int)(t->w - pad), (int)ys, GFX_RIGHT, PAL_DIM, "%s", hints[hi]);
    }
    gfx_room_pop(&s->gfx);
}

/* A spec's text without the word "distribution" (the grammar's keyword;
 * the name after it says enough in a narrow status line). */
static void spec_terse(const char *text, char *out, size_t n)
{
    const char *cut = strstr(text, " distribution ");
    if (cut)
        snprintf(out, n, "%.*s %s", (int)(cut - text), text, cut + strlen(" distribution "));
    else
        snprintf(out, n, "%s", text);
}

/* The links in force, Delta and T_dr, in the longest of its forms that fits:
 * both spec texts; one text when both ways are the same; without the word
 * "distribution"; delay and jitter in short; without the units. A form
 * longer than a label can hold is NULL. */
#define STATUS_FORMS 4
static void status_forms(const AppState *s, char (*f)[GFX_TEXT_MAX], const char **alts)
{
    const SchemeParams *p = engine_params(s->e);
    char par[64], par2[64], ta[LINK_TEXT_MAX], tb[LINK_TEXT_MAX], sa[64], sb[64];
    int len[STATUS_FORMS] = {0};
    snprintf(par, sizeof par, "Δ %.0f ms  T_dr %.2f cw", (double)p->delta_us / 1000.0, p->tdr_cw);
    snprintf(par2, sizeof par2, "Δ %.0f  T_dr %.2f", (double)p->delta_us / 1000.0, p->tdr_cw);
    if (s->cfg.links_text) { /* N cars or client-server: the race's own links */
        spec_terse(s->cfg.links_text, ta, sizeof ta);
        len[0] = snprintf(f[0], GFX_TEXT_MAX, "%s | %s", s->cfg.links_text, par);
        len[1] = snprintf(f[1], GFX_TEXT_MAX, "%s | %s", ta, par2);
        len[2] = snprintf(f[2], GFX_TEXT_MAX, "%s", par2);
        len[3] = -1;
    } else {
        const LinkSpec *a = engine_link(s->e, 0), *b = engine_link(s->e, 1);
        const char *at = a->text[0] ? a->text : "no delay", *bt = b->text[0] ? b->text : "no delay";
        spec_terse(at, ta, sizeof ta);
        spec_terse(bt, tb, sizeof tb);
        app_link_short(a, sa, sizeof sa);
        app_link_short(b, sb, sizeof sb);
        len[0] = snprintf(f[0], GFX_TEXT_MAX, "1→2: %s | 2→1: %s | %s", at, bt, par);
        if (strcmp(at, bt) == 0)
            len[1] = snprintf(f[1], GFX_TEXT_MAX, "both ways: %s | %s", ta, par);
        else
            len[1] = snprintf(f[1], GFX_TEXT_MAX, "1→2: %s | 2→1: %s | %s", ta, tb, par);
        len[2] = snprintf(f[2], GFX_TEXT_MAX, "1→2: %s | 2→1: %s | %s", sa, sb, par);
        len[3] = snprintf(f[3], GFX_TEXT_MAX, "%s | %s | %s", sa, sb, par2);
    }
    for (int i = 0; i < STATUS_FORMS; i++)
        alts[i] = len[i] > 0 && len[i] < GFX_TEXT_MAX ? f[i] : NULL;
}

static void draw_status(AppState *s)
{
    const SDL_FRect *t = &s->lay.status;
    gfx_fill(s->r, t->x, t->y, t->w, t->h, PAL_BAR);
    float pad = (float)s->lay.base * 0.5f;
    char forms[STATUS_FORMS][GFX_TEXT_MAX];
    const char *alts[STATUS_FORMS];
    status_forms(s, forms, alts);
    gfx_room_push(&s->gfx, t->x, t->y, t->w, t->h);
    int y = (int)(t->y + (t->h - lh(s, GFX_SMALL)) / 2);
    char lng[GFX_TEXT_MAX], shrt[GFX_TEXT_MAX];
    float x = pad;
    if (app_delta_notice(s->e, -1, lng, sizeof lng, shrt, sizeof shrt)) { /* first: it explains a stuck car */
        const char *warn[3] = {lng, shrt, "Δ below the link delay"};
        x += (float)gfx_text_fit(&s->gfx, GFX_SMALL, (int)x, y, GFX_LEFT, PAL_WARN, t->w * 0.6f, warn, 3) + 2 * pad;
    }
    gfx_text_fit(&s->gfx, GFX_SMALL, (int)x, y, GFX_LEFT, PAL_FG, t->w - x - pad, alts, STATUS_FORMS);
    gfx_room_pop(&s->gfx);
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
        if (b->w <= 0)
            continue; /* hidden (a race's fixed links) */
        gfx_fill(r, b->x, b->y, b->w, b->h, c == s->sel ? gfx_rgb(70, 64, 30) : PAL_PANEL);
        if (c == s->sel)
            gfx_frame(r, b->x, b->y, b->w, b->h, PAL_ACCENT);
        gfx_room_push(&s->gfx, b->x, b->y, b->w, b->h);
        app_ctl_value(s, c, val, sizeof val);
        const SDL_FRect *mi = &s->lay.minus[c], *pl = &s->lay.plus[c];
        gfx_fill(r, mi->x, mi->y, mi->w, mi->h, gfx_rgb(64, 68, 78));
        gfx_fill(r, pl->x, pl->y, pl->w, pl->h, gfx_rgb(64, 68, 78));
        gfx_text(&s->gfx, GFX_SMALL, (int)(mi->x + mi->w / 2), (int)(mi->y + (mi->h - ls) / 2), GFX_CENTER, PAL_FG, "-");
        gfx_text(&s->gfx, GFX_SMALL, (int)(pl->x + pl->w / 2), (int)(pl->y + (pl->h - ls) / 2), GFX_CENTER, PAL_FG, "+");
        char forms[4][64], up[4][96];
        const char *vals[4];
        value_forms(val, forms, vals);
        /* the value centred on the control, clear of its - and +; when no
         * form of it fits there, beside the label on the line above */
        float room_w = 2 * fminf(b->x + b->w / 2 - (mi->x + mi->w), pl->x - (b->x + b->w / 2)) - 4;
        const char *labels[4] = {ctl_label[c], ctl_short[c], NULL, NULL};
        if (gfx_fit(&s->gfx, GFX_SMALL, room_w, vals, 4) < 0) {
            const char *num = forms[2][0] ? forms[2] : forms[1];
            snprintf(up[0], sizeof up[0], "%s %s", ctl_label[c], val);
            snprintf(up[1], sizeof up[1], "%s %s", ctl_short[c], forms[1]);
            snprintf(up[2], sizeof up[2], "%s %s", ctl_short[c], num);
            snprintf(up[3], sizeof up[3], "%s", num);
            for (int i = 0; i < 4; i++)
                labels[i] = up[i];
        }
        gfx_text_fit(&s->gfx, GFX_SMALL, (int)(b->x + b->w / 2), (int)b->y + 1, GFX_CENTER, PAL_DIM, b->w - 4, labels, 4);
        gfx_text_fit(&s->gfx, GFX_SMALL, (int)(b->x + b->w / 2), (int)(mi->y + (mi->h - ls) / 2), GFX_CENTER,
                     c == s->sel ? PAL_ACCENT : PAL_FG, room_w, vals, 4);
        gfx_room_pop(&s->gfx);
    }
    for (int c = CTL_NVALUES; c < CTL_COUNT; c++) {
        const SDL_FRect *b = &s->lay.ctl[c];
        bool on = ctl_on(s, c);
        gfx_fill(r, b->x, b->y, b->w, b->h, on ? gfx_rgb(40, 90, 70) : PAL_PANEL);
        gfx_room_push(&s->gfx, b->x, b->y, b->w, b->h);
        const char *labels[3] = {ctl_label[c], btn_mid[c - CTL_NVALUES], ctl_short[c]};
        gfx_text_fit(&s->gfx, GFX_SMALL, (int)(b->x + b->w / 2), (int)(b->y + (b->h - ls) / 2), GFX_CENTER,
                     on ? gfx_rgb(255, 255, 255) : PAL_FG, b->w - 4, labels, 3);
        gfx_room_pop(&s->gfx);
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
        gfx_room_push(&s->gfx, t->x, t->y, t->w, t->h);
        gfx_text(&s->gfx, GFX_SMALL, (int)((float)L->base * 0.5f), (int)(t->y + (t->h - lh(s, GFX_SMALL)) / 2),
                 GFX_LEFT, PAL_FG, "network race: every scheme on the same real packets; live metrics from both "
                 "terminals' views");
        gfx_room_pop(&s->gfx);
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
    "1..9         focus scheme 1..9       Shift 1..9 focus scheme 10..18",
    "0 or Esc     overview of all schemes",
    "Tab          next scheme             Shift-Tab  previous scheme",
    "Up / Down    select a control        Left/Right change it (Shift: x5)",
    "[ / ]        change it too           D          cycle the jitter distribution",
    "G            ghost (true position)   T          trails",
    "M            MUs in flight           Z          zoom on the cars",
    "F or F11     fullscreen              P or F12   screenshot (~/Pictures/netrace)",
    "F2           lagometer on / off      F3         mark (a live race's recording / log)",
    "H, F1 or ?   this help               Q, Ctrl-Q  quit",
    "Ctrl + / -   larger / smaller text   Ctrl 0     text as the window fits",
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

/* What the overview shows of a race of more than two cars: the keys are
 * help_lines' up to the mouse's line, then this mouse line and these. */
#define HELP_KEY_LINES 17
#define HELP_LINES_MAX 48
static const char *const help_nrace[] = {
    "click a scheme's cell to focus it, click its screens or right-click for the overview.",
    "",
    "Each cell is one scheme: its screens in small, or '=' and the order of the cars most",
    "screens show (leader first), then each screen that shows another order (red: where).",
    "A red frame: the screens disagree on the order at this sample. 1-9, Tab or a click on",
    "a cell: that scheme's screens large with its gauges; pairs = the pairs of cars whose",
    "order the screens disagree on; spread = standard deviation of the players' mean",
    "errors; disadvantage > 0: that player is shown further behind than the others",
    "(bar to the right). Cars 1-8: orange, blue, green, magenta, yellow, cyan, violet, pink.",
};

/* The help's lines (two cars, or the keys and the N-car overview's), then
 * the lagometer's; returns their count. */
static int help_collect(const AppState *s, const char **out)
{
    int n = 0;
    bool ncar = racedata_cars(&s->data) > 2;
    int keys = ncar ? HELP_KEY_LINES : (int)(sizeof help_lines / sizeof help_lines[0]);
    for (int i = 0; i < keys; i++)
        out[n++] = help_lines[i];
    for (int i = 0; ncar && i < (int)(sizeof help_nrace / sizeof help_nrace[0]); i++)
        out[n++] = help_nrace[i];
    out[n++] = "";
    for (int i = 0; lagometer_legend(i) && n < HELP_LINES_MAX; i++)
        out[n++] = lagometer_legend(i);
    return n;
}

void app_draw_help(AppState *s)
{
    SDL_Renderer *r = s->r;
    float pad = lh(s, GFX_NORMAL);
    const char *lines[HELP_LINES_MAX];
    int n = help_collect(s, lines);
    GfxLines fl; /* the normal font, else the small one, else wrapped */
    gfx_fit_lines(&s->gfx, (float)s->lay.w - 2 * pad, (float)s->lay.h - 2 * pad, lines, n, &fl);
    float w = (float)fl.w + 2 * pad, h = fl.line_h * (float)fl.n + 2 * pad;
    float x = ((float)s->lay.w - w) / 2, y = ((float)s->lay.h - h) / 2;
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    gfx_fill(r, 0, 0, (float)s->lay.w, (float)s->lay.h, gfx_rgba(0, 0, 0, 140));
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
    gfx_fill(r, x, y, w, h, gfx_rgb(30, 33, 40));
    gfx_frame(r, x, y, w, h, PAL_ACCENT);
    gfx_audit_cover(&s->gfx, x, y, w, h);
    gfx_room_push(&s->gfx, x, y, w, h);
    for (int i = 0; i < fl.n; i++)
        gfx_text(&s->gfx, fl.font, (int)(x + pad), (int)(y + pad + fl.line_h * (float)i), GFX_LEFT,
                 fl.src[i] == 0 ? PAL_ACCENT : PAL_FG, "%s", fl.line[i]);
    gfx_room_pop(&s->gfx);
}

