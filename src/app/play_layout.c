/* Where the players' screens go (two side by side, three or four in a 2 x 2
 * grid), the frame between them, the fourth cell of a three-player game,
 * the start lights, where a message goes, and the HUD's parts that depend
 * on the car count (the place as a screen shows it, the lines that bring
 * the other cars). */
#include "play_internal.h"

#include "drivewidgets.h"
#include "lagometer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

SDL_FRect play_screen_rect(const PlayState *ps, int j, int w, int h)
{
    if (ps->nseats <= 2) { /* side by side, as two players always had it */
        float half = (float)w / 2.0f;
        SDL_FRect r = {j == 0 ? 0.0f : half + 1.0f, 0.0f, half - 1.0f, (float)h};
        return r;
    }
    float hw = (float)w / 2.0f, hh = (float)h / 2.0f;
    bool right = j % 2 == 1, bottom = j >= 2;
    SDL_FRect r = {right ? hw + 1.0f : 0.0f, bottom ? hh + 1.0f : 0.0f, hw - 1.0f, hh - 1.0f};
    return r;
}

int play_place(const EngineView *v, int ncars, int j)
{
    int ahead = 0; /* cars shown further along; a tie goes to the later car (engine_view's leader) */
    for (int c = 0; c < ncars; c++)
        if (c != j && (v->progress[c] > v->progress[j] || (v->progress[c] == v->progress[j] && c > j)))
            ahead++;
    return ahead + 1;
}

/* One spec's text when every spec has it, else the range of their mean
 * delays. */
static void specs_text(const LinkSpec *const *spec, int n, char *buf, size_t len)
{
    bool same = true;
    double lo = 1e300, hi = -1e300;
    for (int i = 0; i < n; i++) {
        const char *a = spec[i] ? spec[i]->text : "", *b = spec[0] ? spec[0]->text : "";
        same = same && strcmp(a, b) == 0;
        double m = spec[i] ? linkspec_mean_ms(spec[i]) : 0.0; /* NULL: no delay (engine.h) */
        lo = m < lo ? m : lo;
        hi = m > hi ? m : hi;
    }
    if (same && spec[0])
        app_link_short(spec[0], buf, len);
    else if (same)
        snprintf(buf, len, "0 ms");
    else
        snprintf(buf, len, "%.0f to %.0f ms", lo, hi);
}

bool play_links_text(const PlayState *ps, int j, char *buf, size_t len)
{
    const EngineConfig *ec = &ps->cfg->race.engine;
    const LinkSpec *spec[PLAY_SEATS];
    int n = 0;
    bool pairs = false;
    for (int i = 0; i < ps->nseats; i++)
        if (i != j) {
            pairs = pairs || ec->pair_link[i][j];
            spec[n++] = ec->topology == ROUTE_CS ? (ec->up_link[i] ? ec->up_link[i] : ec->link[i])
                        : ec->pair_link[i][j]    ? ec->pair_link[i][j]
                                                 : ec->link[i];
        }
    if (ps->nseats == 2 && ec->topology == ROUTE_P2P && !pairs)
        return false; /* the two-player links, live (engine_link) */
    char t[64];
    specs_text(spec, n, t, sizeof t);
    if (ec->topology == ROUTE_P2P) {
        if (n == 1)
            snprintf(buf, len, "link %d→%d %s", 2 - j, j + 1, t);
        else
            snprintf(buf, len, "links →%d %s", j + 1, t);
        return true;
    }
    char down[64];
    if (ec->down_link[j])
        app_link_short(ec->down_link[j], down, sizeof down);
    else
        snprintf(down, sizeof down, "0 ms");
    /* the uplinks of the others, then the server's line to this client */
    snprintf(buf, len, "cs %s ↑%s ↓%s", ec->server == ROUTE_SYNC ? "sync" : "relay", t, down);
    return true;
}

/* The fourth cell of a three-player grid: the track and the race's
 * condition, no car (every screen is some terminal's; this one is
 * nobody's, so it shows no positions). */
static void fourth_cell(PlayState *ps, int w, int h)
{
    AppState *v = ps->view;
    float hw = (float)w / 2.0f, hh = (float)h / 2.0f;
    SDL_FRect cell = {hw + 1.0f, hh + 1.0f, hw - 1.0f, hh - 1.0f};
    gfx_fill(ps->r, cell.x, cell.y, cell.w, cell.h, PAL_BG);
    Gfx *g = &v->gfx;
    float l = (float)gfx_line_h(g, GFX_NORMAL), pad = (float)v->lay.base;
    float side = fminf(cell.w - 2 * pad, cell.h - 5 * l - 2 * pad);
    SDL_Texture *tex = side >= 40 ? app_track_texture(v, (int)side, (int)side) : NULL;
    if (tex) {
        SDL_Rect dst = {(int)(cell.x + (cell.w - side) / 2), (int)(cell.y + pad), (int)side, (int)side};
        SDL_RenderCopy(ps->r, tex, NULL, &dst);
    }
    const Engine *e = liverace_engine(ps->lr);
    const EngineConfig *ec = &ps->cfg->race.engine;
    const RaceFlow *rf = liverace_flow(ps->lr);
    int cx = (int)(cell.x + cell.w / 2), y = (int)(cell.y + cell.h - 3.5f * l - pad / 2);
    gfx_text(g, GFX_NORMAL, cx, y, GFX_CENTER, PAL_FG, "%d players · scheme %s · %s", ps->nseats,
             engine_scheme(e, ps->cfg->race.shown)->name,
             ec->topology == ROUTE_P2P ? "p2p" : ec->server == ROUTE_SYNC ? "cs sync" : "cs relay");
    gfx_text(g, GFX_NORMAL, cx, y + (int)l, GFX_CENTER, PAL_DIM, "Δ %.0f ms · T_dr %.3g cw",
             (double)engine_params(e)->delta_us / 1000.0, engine_params(e)->tdr_cw);
    char t[32];
    widget_fmt_running(t, sizeof t, rf->phase >= RF_RACING ? ps->race_us : 0);
    gfx_text(g, GFX_NORMAL, cx, y + (int)(2 * l), GFX_CENTER, PAL_DIM, "race time %s", t);
}

/* The top of screen j's lowest instruments: its speedometer, minimap and
 * lagometer (the screen's bottom without them). */
static float instruments_top(const PlayState *ps, int j, int w, int h)
{
    SDL_FRect r = play_screen_rect(ps, j, w, h), box;
    SDL_FRect room = drivehud_room(&ps->hud[j], ps->view, &r);
    float top = r.y + r.h;
    if (drivewidget_speedo_rect(ps->view, &room, &box))
        top = fminf(top, box.y);
    if (widget_minimap_rect(ps->view, &r, &box))
        top = fminf(top, box.y);
    if (ps->lag)
        top = fminf(top, lagometer_screen_rect(&r, ps->view->lay.base).y);
    return top;
}

SDL_FRect play_message_rect(const PlayState *ps, int w, int h, float bw, float bh)
{
    float top = (float)h, gap = (float)ps->view->lay.base * 0.5f;
    for (int j = ps->nseats <= 2 ? 0 : 2; j < ps->nseats; j++) /* the bottom row's screens */
        top = fminf(top, instruments_top(ps, j, w, h));
    return (SDL_FRect){((float)w - bw) / 2, top - gap - bh, bw, bh};
}

void play_layout_frame(PlayState *ps, int w, int h)
{
    SDL_Color dark = gfx_rgb(10, 10, 10);
    gfx_fill(ps->r, (float)w / 2 - 1, 0, 2, (float)h, dark);
    if (ps->nseats <= 2)
        return;
    gfx_fill(ps->r, 0, (float)h / 2 - 1, (float)w, 2, dark);
    if (ps->nseats == 3)
        fourth_cell(ps, w, h);
}

/* The lights' floor in a 2 x 2 grid: a base of 5 px draws lights 7 px in
 * radius (a 99 x 24 px panel), still told lit from dark at a glance. */
#define LIGHTS_BASE_MIN 5.0f

PlayLights play_lights_place(const PlayState *ps, int j, int w, int h)
{
    /* centred across the screen, just under its HUD strip, above its
     * instruments (one set where the four screens meet covered the bottom
     * screens' HUD and the top ones' read-outs), smaller where the cell is
     * narrow or short; where the instruments leave less room than the
     * floor, over them (the countdown is what matters then), never past
     * the screen's edges */
    float base = (float)ps->view->lay.base, pw, ph, gap = base * 0.5f, strip = drivehud_top_px(ps->view);
    SDL_FRect r = play_screen_rect(ps, j, w, h);
    float y0 = r.y + strip + gap, y1 = instruments_top(ps, j, w, h) - gap, b = base;
    widget_lights_size(b, &pw, &ph);
    float fit_w = 0.9f * r.w / pw; /* the share of base that still fits the screen's width */
    b *= fminf(1.0f, fminf(fit_w, fmaxf(y1 - y0, 0.0f) / ph));
    b = fmaxf(b, fminf(LIGHTS_BASE_MIN, base * fminf(fit_w, r.h / ph)));
    widget_lights_size(b, &pw, &ph);
    float top = fmaxf(r.y, fminf(y0, r.y + r.h - ph));
    return (PlayLights){b, {r.x + r.w / 2 - pw / 2, top, pw, ph}};
}

void play_layout_lights(PlayState *ps, int w, int h)
{
    int64_t to_go = play_lights_to_go(ps);
    float base = (float)ps->view->lay.base;
    if (ps->nseats <= 2) { /* top centre, over the frame between the two screens */
        widget_lights(&ps->view->gfx, base, w, to_go);
        return;
    }
    if (!widget_lights_shown(to_go)) /* the rest of the race: no screen's instruments to measure */
        return;
    for (int j = 0; j < ps->nseats; j++) {
        PlayLights l = play_lights_place(ps, j, w, h);
        SDL_FRect r = play_screen_rect(ps, j, w, h);
        gfx_room_push(&ps->view->gfx, r.x, r.y, r.w, r.h); /* "GO" under them stays on this screen */
        widget_lights_at(&ps->view->gfx, l.base, r.x + r.w / 2, l.panel.y + l.panel.h / 2, to_go);
        gfx_room_pop(&ps->view->gfx);
    }
}
