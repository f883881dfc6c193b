/* The driving screens' widgets (widgets.h). */
#include "widgets.h"
#include "netrace_config.h"

#include <SDL_image.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* assets/NAME: the given folder, else ./assets, else the source tree's. */
static SDL_Surface *load_asset(const char *assets_dir, const char *name)
{
    char path[4096];
    const char *dirs[2] = {"assets", NETRACE_SOURCE_DIR "/assets"};
    int n = assets_dir ? 1 : 2;
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", assets_dir ? assets_dir : dirs[i], name);
        SDL_Surface *s = IMG_Load(path);
        if (s)
            return s;
    }
    fprintf(stderr, "netrace: asset %s/%s not found or unreadable: plain shapes instead\n",
            assets_dir ? assets_dir : "assets", name);
    return NULL;
}

void widget_sprites_load(WidgetSprites *sp, SDL_Renderer *r, const char *assets_dir)
{
    memset(sp, 0, sizeof *sp);
    for (int c = 0; c < WIDGET_CAR_SPRITES; c++) {
        char name[16];
        snprintf(name, sizeof name, "car%d.png", c + 1);
        SDL_Surface *s = load_asset(assets_dir, name);
        if (s) {
            sp->car[c] = SDL_CreateTextureFromSurface(r, s);
            SDL_FreeSurface(s);
            if (sp->car[c])
                SDL_SetTextureScaleMode(sp->car[c], SDL_ScaleModeLinear);
        }
    }
    sp->icon = load_asset(assets_dir, "icon.png");
}

void widget_sprites_free(WidgetSprites *sp)
{
    for (int c = 0; c < WIDGET_CAR_SPRITES; c++)
        if (sp->car[c])
            SDL_DestroyTexture(sp->car[c]);
    SDL_FreeSurface(sp->icon);
    memset(sp, 0, sizeof *sp);
}

void widget_car(AppState *v, SDL_Texture *sprite, const AppXform *x, const Pose *p, int car)
{
    if (!sprite) {
        app_draw_car(v, x, p->x, p->y, p->heading, pal_car(car), false);
        return;
    }
    float cx, cy;
    app_world_to_px(x, p->x, p->y, &cx, &cy);
    /* the sprite is 2:1, the car body 2 cw long and 1 cw wide */
    float len = 2.0f * x->scale, wid = 1.0f * x->scale;
    SDL_FRect dst = {cx - len / 2, cy - wid / 2, len, wid};
    double deg = -app_screen_heading(x, p->heading) * 180.0 / NR_PI; /* screen y grows downwards */
    SDL_RenderCopyExF(v->r, sprite, NULL, &dst, deg, NULL, SDL_FLIP_NONE);
}

bool widget_minimap_rect(const AppState *v, const SDL_FRect *screen, SDL_FRect *m)
{
    float side = fminf(screen->w, screen->h) * 0.28f;
    if (side < 60)
        return false;
    float pad = (float)v->lay.base * 0.5f;
    *m = (SDL_FRect){screen->x + screen->w - side - pad, screen->y + screen->h - side - pad, side, side};
    return true;
}

void widget_minimap(AppState *v, const SDL_FRect *screen, const Pose *pose, int ncars, int own, Uint8 alpha)
{
    SDL_FRect m;
    if (!widget_minimap_rect(v, screen, &m))
        return;
    float side = m.w;
    SDL_Texture *tex = app_track_texture(v, (int)side, (int)side);
    if (!tex)
        return;
    SDL_SetTextureAlphaMod(tex, alpha);
    SDL_SetTextureBlendMode(tex, SDL_BLENDMODE_BLEND);
    SDL_Rect dst = {(int)m.x, (int)m.y, (int)side, (int)side};
    SDL_RenderCopy(v->r, tex, NULL, &dst);
    gfx_frame(v->r, m.x, m.y, m.w, m.h, gfx_rgb(20, 20, 20));
    AppXform x;
    app_fit_xform(v, &m, &x);
    for (int i = 0; i < ncars; i++) {
        int car = i == ncars - 1 ? own : i < own ? i : i + 1; /* the others in order, own dot on top */
        float px, py;
        app_world_to_px(&x, pose[car].x, pose[car].y, &px, &py);
        gfx_disc(v->r, px, py, fmaxf(3.0f, side * 0.03f), gfx_rgb(10, 10, 10));
        gfx_disc(v->r, px, py, fmaxf(2.0f, side * 0.022f), pal_car(car));
    }
}

/* text and its shorter forms, each without the last " · " part of the one
 * before ("keys · peer 10.0.0.2:41000 · code X" .. "keys"); returns how
 * many (at most max). */
static int dot_forms(const char *text, char (*f)[GFX_TEXT_MAX], const char **alts, int max)
{
    int n = 0;
    snprintf(f[n], GFX_TEXT_MAX, "%s", text);
    alts[n] = f[n];
    n++;
    while (n < max) {
        char *cut = strstr(f[n - 1], " · "), *last = NULL;
        for (; cut; cut = strstr(cut + 1, " · "))
            last = cut;
        if (!last)
            break;
        snprintf(f[n], GFX_TEXT_MAX, "%.*s", (int)(last - f[n - 1]), f[n - 1]);
        alts[n] = f[n];
        n++;
    }
    return n;
}

/* The HUD's first line: "P1", who drives, the race clock or lap in the
 * centre, the place on the right. Texts that would run into each other
 * first take the smaller font for the centre (play's 2 x 2 grid), then
 * shorter forms of who drives ("keys · peer X · code Y" .. "keys"), then
 * the centre loses its line. */
static void hud_line1(AppState *v, const SDL_FRect *rect, const Hud *hud, float pad, float l, float lb)
{
    Gfx *g = &v->gfx;
    int x0 = (int)(rect->x + pad), y0 = (int)(rect->y + pad / 2);
    int w = gfx_text(g, GFX_BIG, x0, y0, GFX_LEFT, pal_car(hud->car), "P%d", hud->car + 1);
    static const char *const suffix[4] = {"th", "st", "nd", "rd"};
    int place = hud->place < 1 ? 1 : hud->place;
    int pw = gfx_text(g, GFX_BIG, (int)(rect->x + rect->w - pad), y0, GFX_RIGHT, place == 1 ? PAL_ACCENT : PAL_FG,
                      "%d%s", place, suffix[place < 4 ? place : 0]);
    float cx = rect->x + rect->w / 2, left = (float)(x0 + w) + pad, right = rect->x + rect->w - pad - (float)pw;
    char f[4][GFX_TEXT_MAX];
    const char *whos[4];
    int n = dot_forms(hud->who, f, whos, 4), cw[2], ch, ww[4];
    gfx_text_size(g, GFX_BIG, hud->centre, &cw[0], &ch);
    gfx_text_size(g, GFX_NORMAL, hud->centre, &cw[1], &ch);
    for (int i = 0; i < n; i++)
        gfx_text_size(g, GFX_NORMAL, whos[i], &ww[i], &ch);
    /* the first (who form, centre font) in which both fit, centre clear of the place */
    for (int i = 0; i < n; i++)
        for (int c = 0; c < 2; c++) {
            float half = (float)cw[c] / 2;
            if (left + (float)ww[i] + pad > cx - half || cx + half + pad > right)
                continue;
            gfx_text(g, GFX_NORMAL, (int)left, y0 + (int)(lb - l), GFX_LEFT, PAL_DIM, "%s", whos[i]);
            gfx_text(g, c ? GFX_NORMAL : GFX_BIG, (int)cx, y0 + (c ? (int)(lb - l) : 0), GFX_CENTER, PAL_FG, "%s",
                     hud->centre);
            return;
        }
    const char *centre[1] = {hud->centre}; /* no room for both: the centre, then who in what is left */
    int c = gfx_text_fit(g, GFX_NORMAL, (int)cx, y0 + (int)(lb - l), GFX_CENTER, PAL_FG, 2 * fminf(cx - left, right - cx) - 2 * pad,
                         centre, 1);
    gfx_text_fit(g, GFX_NORMAL, (int)left, y0 + (int)(lb - l), GFX_LEFT, PAL_DIM,
                 (c > 0 ? cx - (float)c / 2 : right) - left - pad, whos, n);
}

void widget_hud(AppState *v, const SDL_FRect *rect, const Hud *hud)
{
    Gfx *g = &v->gfx;
    float l = (float)gfx_line_h(g, GFX_NORMAL), lb = (float)gfx_line_h(g, GFX_BIG);
    float pad = (float)v->lay.base * 0.4f;
    SDL_SetRenderDrawBlendMode(v->r, SDL_BLENDMODE_BLEND);
    gfx_fill(v->r, rect->x, rect->y, rect->w, lb + l + 2 * pad, PAL_HUD_BG);
    SDL_SetRenderDrawBlendMode(v->r, SDL_BLENDMODE_NONE);
    gfx_room_push(g, rect->x, rect->y, rect->w, lb + l + 2 * pad);
    hud_line1(v, rect, hud, pad, l, lb);
    int x0 = (int)(rect->x + pad), y1 = (int)(rect->y + pad / 2 + lb);
    /* the second line: the running and best laps first, then what is
     * right of them: whole in the normal font, else whole in the small
     * one, else shorter */
    int lw = gfx_text(g, GFX_NORMAL, x0, y1, GFX_LEFT, PAL_FG, "lap %s", hud->lap);
    if (hud->best[0]) {
        char best[64];
        snprintf(best, sizeof best, "best %s", hud->best);
        const char *bests[1] = {best};
        int bw = gfx_text_fit(g, GFX_NORMAL, x0 + lw + (int)pad * 2, y1, GFX_LEFT, PAL_DIM,
                              rect->x + rect->w - pad - (float)(x0 + lw) - 2 * pad, bests, 1);
        lw += bw > 0 ? bw + (int)pad * 2 : 0;
    }
    char f[6][GFX_TEXT_MAX];
    const char *rights[6];
    int n = dot_forms(hud->right, f, rights, 6), ls = gfx_line_h(g, GFX_SMALL);
    float room = rect->x + rect->w - 2 * pad - (float)(x0 + lw) - pad;
    for (int i = 0; i < n; i++)
        for (int font = GFX_NORMAL; font >= GFX_SMALL; font--) {
            const char *one[1] = {rights[i]};
            if (gfx_fit(g, font, room, one, 1) < 0)
                continue;
            gfx_text(g, font, (int)(rect->x + rect->w - pad), y1 + (font == GFX_SMALL ? (int)l - ls : 0), GFX_RIGHT,
                     PAL_DIM, "%s", rights[i]);
            gfx_room_pop(g);
            return;
        }
    gfx_room_pop(g);
}

void widget_hud_race(const RaceFlow *rf, int j, int64_t race_us, Hud *hud)
{
    int lap = rf->laps[j][j];
    char t[32];
    if (race_us < 0)
        race_us = 0;
    if (rf->cfg.duration_us > 0 && race_us > rf->cfg.duration_us)
        race_us = rf->cfg.duration_us; /* a timed race's clocks stop at its limit */
    if (rf->cfg.duration_us > 0) {
        int64_t left = rf->cfg.duration_us - race_us;
        widget_fmt_running(t, sizeof t, left < 0 ? 0 : left);
        snprintf(hud->centre, sizeof hud->centre, "%s left", t);
    } else if (lap >= rf->cfg.laps) {
        widget_fmt_time(t, sizeof t, rf->cross_us[j][j][rf->cfg.laps - 1]);
        snprintf(hud->centre, sizeof hud->centre, "Finished %s", t); /* as this terminal saw its own line */
    } else {
        snprintf(hud->centre, sizeof hud->centre, "Lap %d/%d", lap + 1, rf->cfg.laps);
    }
    /* the running lap; after the finish, the last lap's time */
    int64_t since = lap > 0 ? rf->cross_us[j][j][lap - 1] : 0;
    bool done = rf->cfg.duration_us <= 0 && lap >= rf->cfg.laps;
    int64_t shown = done ? since - (lap > 1 ? rf->cross_us[j][j][lap - 2] : 0) : race_us - since;
    if (done)
        widget_fmt_time(hud->lap, sizeof hud->lap, shown);
    else
        widget_fmt_running(hud->lap, sizeof hud->lap, rf->phase >= RF_RACING ? shown : 0);
    hud->best[0] = '\0';
    int64_t b = -1;
    for (int i = 0; i < lap && i < RACEFLOW_MAX_LAPS; i++) {
        int64_t lt = rf->cross_us[j][j][i] - (i ? rf->cross_us[j][j][i - 1] : 0);
        if (b < 0 || lt < b)
            b = lt;
    }
    if (b >= 0)
        widget_fmt_time(hud->best, sizeof hud->best, b);
}

void widget_fmt_time(char *buf, size_t n, int64_t us)
{
    if (us < 0) {
        snprintf(buf, n, "--:--.---");
        return;
    }
    int64_t ms = us / NR_US_PER_MS;
    snprintf(buf, n, "%d:%02d.%03d", (int)(ms / 60000), (int)(ms / 1000 % 60), (int)(ms % 1000));
}

/* A running clock in tenths: its text changes 10 times a second, not every
 * frame (each new text is a font render; digits changing 60 times a second
 * are unreadable anyway). Completed times keep their milliseconds. */
void widget_fmt_running(char *buf, size_t n, int64_t us)
{
    int64_t ds = (us < 0 ? 0 : us) / (100 * NR_US_PER_MS);
    snprintf(buf, n, "%d:%02d.%d", (int)(ds / 600), (int)(ds / 10 % 60), (int)(ds % 10));
}

void widget_panel(SDL_Renderer *r, float x, float y, float w, float h, SDL_Color frame)
{
    /* opaque: a results table or a message over the kerbs' red and white
     * stays readable (a 90 % panel let the track show through the text) */
    gfx_fill(r, x, y, w, h, PAL_BOX);
    gfx_frame(r, x, y, w, h, frame);
}

void widget_lights(Gfx *g, float base, int w, int64_t to_go_us)
{
    widget_lights_at(g, base, (float)w / 2, base * 7.0f, to_go_us);
}

/* The lights' geometry at a base size: each light's radius, the gap
 * between lights and round them, the first light's left edge x0 and the
 * panel, centred at (cx, cy). */
typedef struct LightsGeom {
    float rad, gap, x0;
    SDL_FRect panel;
} LightsGeom;

static LightsGeom lights_geom(float base, float cx, float cy)
{
    LightsGeom g = {.rad = base * 1.4f};
    g.gap = g.rad * 0.7f;
    float row = RACEFLOW_LIGHTS * 2 * g.rad + (RACEFLOW_LIGHTS - 1) * g.gap; /* the lights alone */
    g.x0 = cx - row / 2;
    g.panel = (SDL_FRect){g.x0 - g.gap, cy - g.rad - g.gap, row + 2 * g.gap, 2 * g.rad + 2 * g.gap};
    return g;
}

void widget_lights_size(float base, float *w, float *h)
{
    LightsGeom g = lights_geom(base, 0, 0);
    *w = g.panel.w;
    *h = g.panel.h;
}

bool widget_lights_shown(int64_t to_go_us)
{
    return to_go_us >= -(int64_t)RACEFLOW_LIGHTS * RACEFLOW_LIGHT_US && to_go_us < RACEFLOW_LIGHT_US;
}

void widget_lights_at(Gfx *g, float base, float cx0, float y, int64_t to_go_us)
{
    int64_t count_us = RACEFLOW_LIGHTS * RACEFLOW_LIGHT_US;
    if (!widget_lights_shown(to_go_us))
        return;
    bool go = to_go_us >= 0;
    int lit = go ? 0 : (int)((to_go_us + count_us) / RACEFLOW_LIGHT_US) + 1;
    LightsGeom lg = lights_geom(base, cx0, y);
    float rad = lg.rad, gap = lg.gap, x0 = lg.x0;
    widget_panel(g->r, lg.panel.x, lg.panel.y, lg.panel.w, lg.panel.h, gfx_rgb(60, 60, 60));
    gfx_audit_cover(g, lg.panel.x, lg.panel.y, lg.panel.w, lg.panel.h);
    for (int i = 0; i < RACEFLOW_LIGHTS; i++) {
        float cx = x0 + rad + (float)i * (2 * rad + gap);
        SDL_Color c = go ? PAL_GO : i < lit ? gfx_rgb(240, 30, 30) : gfx_rgb(50, 20, 20);
        gfx_disc(g->r, cx, y, rad, c);
    }
    if (go)
        gfx_text(g, GFX_BIG, (int)cx0, (int)(y + rad + gap * 2), GFX_CENTER, PAL_GO, "GO");
}

void widget_text_box(Gfx *g, int w, int h, const char *const *lines, int n, SDL_Color frame)
{
    widget_text_box_in(g, (SDL_FRect){0, 0, (float)w, (float)h}, lines, n, frame);
}

void widget_text_box_in(Gfx *g, SDL_FRect area, const char *const *lines, int n, SDL_Color frame)
{
    float pad = (float)gfx_line_h(g, GFX_NORMAL);
    GfxLines fl; /* the normal font, else the small one, else wrapped (gfx_fit_lines) */
    gfx_fit_lines(g, area.w - 2 * pad, area.h - 2 * pad, lines, n, &fl);
    float bw = (float)fl.w + 2 * pad, bh = fl.line_h * (float)fl.n + 2 * pad;
    float x = area.x + (area.w - bw) / 2, y = area.y + (area.h - bh) / 2;
    widget_panel(g->r, x, y, bw, bh, frame);
    gfx_audit_cover(g, x, y, bw, bh);
    gfx_room_push(g, x, y, bw, bh);
    for (int i = 0; i < fl.n; i++)
        gfx_text(g, fl.font, (int)(x + pad), (int)(y + pad + fl.line_h * (float)i), GFX_LEFT,
                 fl.src[i] == 0 ? PAL_ACCENT : PAL_FG, "%s", fl.line[i]);
    gfx_room_pop(g);
}

void widget_result_lines(const RaceFlow *rf, int who, char (*lines)[160])
{
    RaceResult r;
    raceflow_result(rf, who, &r);
    for (int i = 0; i < r.ncars; i++) {
        int c = r.order[i];
        char t[32], laps[96] = "";
        size_t used = 0;
        for (int k = 0; k < r.laps_done[c] && k < 4; k++) {
            char lt[32];
            widget_fmt_time(lt, sizeof lt, r.lap_us[c][k]);
            int m = snprintf(laps + used, sizeof laps - used, "%s%s", k ? " " : "", lt);
            if (m > 0 && (size_t)m < sizeof laps - used)
                used += (size_t)m;
        }
        if (rf->cfg.duration_us > 0)
            snprintf(lines[i], 160, "  %d. car %d (P%d)  %.1f cw  %s", i + 1, c + 1, c + 1, r.progress[c], laps);
        else if (r.finished[c]) {
            widget_fmt_time(t, sizeof t, r.finish_us[c]);
            snprintf(lines[i], 160, "  %d. car %d (P%d)  %s  lap%s %s", i + 1, c + 1, c + 1, t,
                     r.laps_done[c] == 1 ? "" : "s", laps);
        } else
            snprintf(lines[i], 160, "  %d. car %d (P%d)  not seen finishing (%d lap%s)", i + 1, c + 1, c + 1,
                     r.laps_done[c], r.laps_done[c] == 1 ? "" : "s");
    }
}

void widget_results(Gfx *g, int w, int h, const RaceFlow *rf, const char *title, const int *views,
                    const char *const *labels, int nviews, const char *footer)
{
    if (rf->cfg.ncars > 2 || nviews > 3) { /* more cars: blocks in two columns (widgets_board.c) */
        widget_results_board(g, w, h, rf, title, views, labels, nviews, footer);
        return;
    }
    char buf[14][160];
    const char *lines[14];
    int n = 0;
    snprintf(buf[n], 160, "%s", title);
    lines[n] = buf[n];
    n++;
    for (int v = 0; v < nviews && v < 3; v++) {
        snprintf(buf[n], 160, "%s", labels[v]);
        lines[n] = buf[n];
        n++;
        widget_result_lines(rf, views[v], &buf[n]);
        lines[n] = buf[n];
        lines[n + 1] = buf[n + 1];
        n += 2;
    }
    bool differ = raceflow_orders_differ(rf);
    snprintf(buf[n], 160, "%s",
             differ ? "THE TWO SCREENS DISAGREE on the finishing order" : "both screens agree on the order");
    lines[n] = buf[n];
    n++;
    snprintf(buf[n], 160, "%s", footer);
    lines[n] = buf[n];
    n++;
    widget_text_box(g, w, h, lines, n, differ ? PAL_WARN : PAL_ACCENT);
}
