/* One frame of the window: layout, the players' views, gauges, strip charts,
 * status line, controls and the help overlay. Draws only what the engine
 * reports; the only state it keeps is display state (trails, textures). */
#include "app_paint.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- views ------------------------------------------------------------- */

/* Whole track fitted into rect, or (follow mode) a camera on both cars. */
static void xform_for(const AppState *s, const SDL_FRect *view, int k, int j, AppXform *x)
{
    x->rect = *view;
    x->rotated = false;
    SDL_FRect area = *view; /* where the cars are shown: above the lagometer when it is on */
    if (s->lag && k >= 0)
        area.h = app_lag_rect(s, k, view).y - view->y;
    const SDL_FRect *rect = &area;
    x->cx = rect->x + rect->w / 2;
    x->cy = rect->y + rect->h / 2;
    if (s->follow[s->focus >= 0] && k >= 0) {
        const EngineView *v = &s->data.view[k][j];
        double dist;
        if (racedata_cars(&s->data) == 2) {
            x->wx = (v->pose[0].x + v->pose[1].x) / 2;
            x->wy = (v->pose[0].y + v->pose[1].y) / 2;
            dist = hypot(v->pose[0].x - v->pose[1].x, v->pose[0].y - v->pose[1].y);
        } else { /* the box around every car: its centre and diagonal */
            double x0 = v->pose[0].x, x1 = x0, y0 = v->pose[0].y, y1 = y0;
            for (int c = 1; c < racedata_cars(&s->data); c++) {
                x0 = fmin(x0, v->pose[c].x);
                x1 = fmax(x1, v->pose[c].x);
                y0 = fmin(y0, v->pose[c].y);
                y1 = fmax(y1, v->pose[c].y);
            }
            x->wx = (x0 + x1) / 2;
            x->wy = (y0 + y1) / 2;
            dist = hypot(x1 - x0, y1 - y0);
        }
        /* car widths across the short side: both cars with a margin, at
         * least 30 in the large focus views and 14 in the overview's
         * thumbnails (cars of ~2 x 1 cw big enough to see on a projector) */
        double span = fmax(s->focus >= 0 ? 30.0 : 14.0, dist * 1.4 + 8.0);
        double px = fmin(rect->w, rect->h);
        if (racedata_cars(&s->data) > 2) { /* N cars: every car below the caption strip, in the smaller views too */
            float cap = lh(s, GFX_SMALL) + (float)s->lay.base * 0.25f;
            x->cy = rect->y + cap + (rect->h - cap) / 2;
            px = fmin(rect->w, rect->h - cap);
        }
        x->scale = (float)(px / span);
    } else {
        /* leave the caption strips (top, and bottom in large views) clear */
        float cap = lh(s, GFX_SMALL) + (float)s->lay.base * 0.25f;
        float top = rect->h > 3 * cap ? cap : 0;
        float bot = rect->h > 12 * cap ? cap : 0;
        float avail = rect->h - top - bot;
        x->cy = rect->y + top + avail / 2;
        x->wx = (s->bx0 + s->bx1) / 2;
        x->wy = (s->by0 + s->by1) / 2;
        double sx = rect->w / (s->bx1 - s->bx0), sy = avail / (s->by1 - s->by0);
        x->scale = (float)fmin(sx, sy);
    }
}

void app_fit_xform(const AppState *s, const SDL_FRect *rect, AppXform *x)
{
    xform_for(s, rect, -1, 0, x);
}

void app_view_xform(const AppState *s, int k, int j, AppXform *x)
{
    xform_for(s, &s->lay.view[k][j], k, j, x);
}

static void update_trails(AppState *s)
{
    int64_t now = s->data.now_us;
    if (s->trail_t >= 0 && now < s->trail_t) { /* restarted or looped */
        memset(s->trail, 0, sizeof s->trail);
        s->trail_t = -1;
    }
    if (s->trail_t >= 0 && now - s->trail_t < 66 * NR_US_PER_MS)
        return;
    s->trail_t = now;
    int n = s->data.n, nc = racedata_cars(&s->data);
    for (int k = 0; k < n; k++)
        for (int j = 0; j < nc; j++) {
            const EngineView v = s->data.view[k][j];
            for (int c = 0; c < nc; c++) {
                AppTrail *t = &s->trail[k][j][c];
                t->x[t->head] = (float)v.pose[c].x;
                t->y[t->head] = (float)v.pose[c].y;
                t->head = (t->head + 1) % APP_TRAIL;
                if (t->n < APP_TRAIL)
                    t->n++;
            }
        }
}

/* A terminal's screen this process does not know (the peer's, in a network
 * race, before its first VIEW packet): said so in its place. */
static void draw_unknown(AppState *s, const SDL_FRect *rect, int j)
{
    gfx_fill(s->r, rect->x, rect->y, rect->w, rect->h, PAL_PANEL);
    gfx_room_push(&s->gfx, rect->x, rect->y, rect->w, rect->h);
    char full[48];
    snprintf(full, sizeof full, "P%d screen: no view from the peer yet", j + 1);
    const char *says[3] = {full, "no view yet", "peer"}; /* detail dropped, never letters */
    int i = 0, tw, th;
    for (; i < 2; i++) {
        gfx_text_size(&s->gfx, GFX_SMALL, says[i], &tw, &th);
        if ((float)tw + 4 <= rect->w)
            break;
    }
    gfx_text(&s->gfx, GFX_SMALL, (int)(rect->x + rect->w / 2), (int)(rect->y + rect->h / 2 - lh(s, GFX_SMALL) / 2),
             GFX_CENTER, PAL_DIM, "%s", says[i]);
    gfx_room_pop(&s->gfx);
    gfx_frame(s->r, rect->x, rect->y, rect->w, rect->h, gfx_rgb(90, 95, 105));
}

/* The track under a view: zoomed on the cars, through the track layer
 * (redrawn when the camera moved), else copied from the tiles or drawn; or
 * the cached whole-track picture. */
static void view_track(AppState *s, const SDL_Rect *clip, const AppXform *x)
{
    if (!s->follow[s->focus >= 0]) {
        SDL_Texture *tex = app_track_texture(s, clip->w, clip->h);
        if (tex) {
            SDL_RenderCopy(s->r, tex, NULL, clip);
            return;
        }
    }
    if (!app_track_layer(s, clip, x))
        app_track_paint(s, clip, x);
}

/* Overlays under the cars: trails of every car; the MUs on the way to
 * terminal j (they carry the other cars; with more than two cars, every
 * MU the others have on the way); the other cars' true positions. */
static void view_overlays(AppState *s, int k, int j, const AppXform *x)
{
    SDL_Renderer *r = s->r;
    int nc = racedata_cars(&s->data);
    if (s->overlays & APP_OVERLAY_TRAILS) {
        for (int c = 0; c < nc; c++) {
            const AppTrail *t = &s->trail[k][j][c];
            SDL_Color col = pal_mix(pal_car(c), PAL_GRASS, 0.35f);
            for (int i = 1; i < t->n; i++) {
                int a = (t->head - i + APP_TRAIL) % APP_TRAIL, b = (t->head - i - 1 + APP_TRAIL) % APP_TRAIL;
                float x0, y0, x1, y1;
                app_world_to_px(x, t->x[a], t->y[a], &x0, &y0);
                app_world_to_px(x, t->x[b], t->y[b], &x1, &y1);
                gfx_thick_line(r, x0, y0, x1, y1, fmaxf(1.5f, x->scale * 0.3f), col);
            }
        }
    }
    for (int other = 0; other < nc && (s->overlays & APP_OVERLAY_INFLIGHT) && s->e; other++) {
        if (other == j)
            continue;
        int m = engine_in_flight(s->e, k, other, s->inflight, ENGINE_QUEUE_LIMIT); /* direction other -> j */
        SDL_Color col = pal_mix(pal_car(other), gfx_rgb(255, 255, 255), 0.55f);
        float rad = fmaxf(2.0f, x->scale * 0.3f);
        for (int i = 0; i < m; i++) {
            float px, py;
            app_world_to_px(x, s->inflight[i].mu.x, s->inflight[i].mu.y, &px, &py);
            gfx_disc(r, px, py, rad, col);
        }
    }
    for (int other = 0; other < nc && (s->overlays & APP_OVERLAY_GHOST) && s->e; other++) {
        if (other == j)
            continue;
        Pose truth;
        engine_truth(s->e, other, &truth, NULL);
        app_draw_car(s, x, truth.x, truth.y, truth.heading, pal_mix(pal_car(other), gfx_rgb(255, 255, 255), 0.6f),
                     true);
    }
}

/* Both cars' laps at the bottom of a tall view: "car 1 lap 2  car 2 lap 1",
 * else "lap 2  lap 1" in the cars' colours, else nothing; with more cars,
 * the terminal's own car's ("car 3 lap 2"). */
static void view_laps(AppState *s, const SDL_FRect *rect, int j, const EngineView *v, float ls, float pad)
{
    gfx_fill(s->r, rect->x, rect->y + rect->h - ls - pad, rect->w, ls + pad, PAL_CAPTION);
    int y = (int)(rect->y + rect->h - ls - pad / 2);
    if (racedata_cars(&s->data) > 2) {
        char own[32], lap[16];
        snprintf(own, sizeof own, "car %d lap %d", j + 1, v->lap[j] + 1);
        snprintf(lap, sizeof lap, "lap %d", v->lap[j] + 1);
        const char *forms[2] = {own, lap};
        gfx_text_fit(&s->gfx, GFX_SMALL, (int)(rect->x + pad), y, GFX_LEFT, pal_car(j), rect->w - 2 * pad, forms, 2);
        return;
    }
    char a[2][32], b[2][32];
    for (int c = 0; c < 2; c++) {
        snprintf(a[c], sizeof a[c], "car %d lap %d", c + 1, v->lap[c] + 1);
        snprintf(b[c], sizeof b[c], "lap %d", v->lap[c] + 1);
    }
    for (int form = 0; form < 2; form++) {
        const char *t0 = form ? b[0] : a[0], *t1 = form ? b[1] : a[1];
        int w0, w1, hh;
        gfx_text_size(&s->gfx, GFX_SMALL, t0, &w0, &hh);
        gfx_text_size(&s->gfx, GFX_SMALL, t1, &w1, &hh);
        if ((float)(w0 + w1) + 5 * pad > rect->w)
            continue;
        int x1 = gfx_text(&s->gfx, GFX_SMALL, (int)(rect->x + pad), y, GFX_LEFT, PAL_CAR1, "%s", t0);
        gfx_text(&s->gfx, GFX_SMALL, (int)(rect->x + 3 * pad) + x1, y, GFX_LEFT, PAL_CAR2, "%s", t1);
        return;
    }
}

void app_view_caption(int j, int64_t late_us, bool wide, char *buf, size_t n)
{
    int ms = (int)((late_us + NR_US_PER_MS / 2) / NR_US_PER_MS);
    if (late_us <= 0)
        snprintf(buf, n, wide ? "P%d screen" : "P%d", j + 1);
    else if (late_us >= APP_VIEW_LAST_US) /* no VIEW since: the race is over, or the peer is gone */
        snprintf(buf, n, wide ? "P%d last view" : "P%d last", j + 1);
    else /* the peer's screen as its VIEW said it: one network delay ago */
        snprintf(buf, n, wide ? "P%d screen %d ms ago" : "P%d %dms ago", j + 1, ms);
}

/* Captions: whose screen (and how old, when it arrived as a VIEW) and who
 * is ahead on it at the top, both cars' laps at the bottom of a tall view. */
static void view_captions(AppState *s, const SDL_FRect *rect, int j, const EngineView *v)
{
    SDL_Renderer *r = s->r;
    float ls = lh(s, GFX_SMALL), pad = (float)s->lay.base * 0.25f;
    gfx_fill(r, rect->x, rect->y, rect->w, ls + pad, PAL_CAPTION);
    gfx_room_push(&s->gfx, rect->x, rect->y, rect->w, rect->h);
    SDL_Color lc = pal_car(v->leader);
    char lead[32], lead2[32], lead3[16], lead4[16], who[48];
    snprintf(lead, sizeof lead, "car %d ahead", v->leader + 1);
    snprintf(lead2, sizeof lead2, "%d ahead", v->leader + 1);
    snprintf(lead3, sizeof lead3, "P%d", v->leader + 1);
    snprintf(lead4, sizeof lead4, "%d", v->leader + 1);
    int lw, lhh, pw;
    gfx_text_size(&s->gfx, GFX_SMALL, lead, &lw, &lhh);
    app_view_caption(j, s->data.late_us[j], true, who, sizeof who);
    gfx_text_size(&s->gfx, GFX_SMALL, who, &pw, &lhh);
    bool wide = (float)(pw + lw) + 6 * pad < rect->w;
    if (!wide)
        app_view_caption(j, s->data.late_us[j], false, who, sizeof who);
    /* the badge says who leads in words, shorter as the view narrows:
     * "car 2 ahead" or "2 ahead" beside the screen's name, then "2 ahead"
     * alone, then "P2" beside the name or alone; the bare "2" is the last
     * resort (issue 22's trial: bare squares at --scale 3) */
    const char *leads[4] = {lead, lead2, lead3, lead4};
    static const struct {
        int lead;
        bool name;
    } forms[] = {{0, true}, {1, true}, {1, false}, {2, true}, {2, false}, {3, false}};
    gfx_text_size(&s->gfx, GFX_SMALL, who, &pw, &lhh);
    int li = -1;
    bool name = false;
    for (size_t i = 0; i < sizeof forms / sizeof forms[0] && li < 0; i++) {
        gfx_text_size(&s->gfx, GFX_SMALL, leads[forms[i].lead], &lw, &lhh);
        if ((float)((forms[i].name ? pw : 0) + lw) + (forms[i].name ? 5 : 4) * pad < rect->w) {
            li = forms[i].lead;
            name = forms[i].name;
        }
    }
    lw = 0;
    if (li >= 0)
        gfx_text_size(&s->gfx, GFX_SMALL, leads[li], &lw, &lhh);
    float bx = rect->x + rect->w - (float)lw - 3 * pad;
    if (name)
        gfx_text(&s->gfx, GFX_SMALL, (int)(rect->x + pad), (int)(rect->y + pad / 2), GFX_LEFT, pal_car(j), "%s", who);
    if (li >= 0) {
        gfx_fill(r, bx, rect->y + 1, (float)lw + 2 * pad, ls + pad - 2, lc);
        gfx_text(&s->gfx, GFX_SMALL, (int)(bx + pad), (int)(rect->y + pad / 2), GFX_LEFT, gfx_rgb(0, 0, 0), "%s",
                 leads[li]);
    }
    if (rect->h > 12 * (ls + pad))
        view_laps(s, rect, j, v, ls, pad);
    gfx_room_pop(&s->gfx);
    gfx_frame(r, rect->x, rect->y, rect->w, rect->h, gfx_rgb(90, 95, 105));
}

/* Terminal j's screen under scheme k: the track, the overlays, both cars
 * where that terminal displays them (its own on top), the captions. */
void app_draw_view(AppState *s, int k, int j)
{
    const SDL_FRect *rect = &s->lay.view[k][j];
    if (rect->w < 4 || rect->h < 4)
        return;
    if (!s->data.known[k][j]) {
        draw_unknown(s, rect, j);
        return;
    }
    AppXform x;
    app_view_xform(s, k, j, &x);
    SDL_Rect clip = {(int)rect->x, (int)rect->y, (int)rect->w, (int)rect->h};
    SDL_RenderSetClipRect(s->r, &clip);
    view_track(s, &clip, &x);
    const EngineView v = s->data.view[k][j];
    s->drawn[k].leader[j] = v.leader;
    if (j < 2) /* the two-car gap (tests) */
        s->drawn[k].gap[j] = v.progress[0] - v.progress[1];
    s->drawn[k].drawn = true;
    view_overlays(s, k, j, &x);
    for (int other = 0; other < racedata_cars(&s->data); other++) /* the own car on top */
        if (other != j)
            app_draw_car(s, &x, v.pose[other].x, v.pose[other].y, v.pose[other].heading, pal_car(other), false);
    app_draw_car(s, &x, v.pose[j].x, v.pose[j].y, v.pose[j].heading, pal_car(j), false);
    SDL_RenderSetClipRect(s->r, NULL);
    view_captions(s, rect, j, &v);
    if (s->lag)
        app_draw_lag(s, k, j, rect);
}

/* Where scheme k's lagometer goes in a screen (view): along its bottom
 * (lagometer_view_rect), above the laps caption when the screen shows one
 * (view_captions); a focused screen's tall enough for its title and legend
 * when that takes at most 45 % of the screen (the N-car focus's four). */
SDL_FRect app_lag_rect(const AppState *s, int k, const SDL_FRect *view)
{
    SDL_FRect r = lagometer_view_rect(view, s->lay.base, s->focus == k);
    float cap = lh(s, GFX_SMALL) + (float)s->lay.base * 0.25f, text_h = 4.6f * lh(s, GFX_SMALL);
    if (s->focus == k && r.h < text_h && text_h <= 0.45f * view->h)
        r.h = text_h;
    r.y = view->y + view->h - r.h - (view->h > 12 * cap ? cap : 0);
    return r;
}

static void lag_in(const AppState *s, int k, int j, LagometerIn *in)
{
    const SchemeType *st = s->data.scheme[k];
    *in = (LagometerIn){.ring = s->data.lag[k][j], .own = j, .now_us = s->data.now_us,
                        .period_us = s->data.period_us, .limit_us = st->holds_delta ? s->data.delta_us : 0,
                        .marks = s->marks, .nmarks = s->nmarks, .mark_origin_us = app_mark_origin_us(s),
                        .net = s->data.late_us[j] == 0 ? s->data.net : NULL};
}

/* One delay scale for every strip drawn, so that their heights compare. */
static int64_t lag_common_scale(const AppState *s)
{
    int64_t top = 0;
    for (int k = 0; k < s->data.n; k++)
        for (int j = 0; j < racedata_cars(&s->data) && (s->focus < 0 || s->focus == k || racedata_cars(&s->data) > 2); j++) {
            LagometerIn in;
            lag_in(s, k, j, &in);
            int64_t v = lagometer_scale(&in);
            top = v > top ? v : top;
        }
    return top;
}

void app_draw_lag(AppState *s, int k, int j, const SDL_FRect *view)
{
    LagometerIn in;
    lag_in(s, k, j, &in);
    char title[96];
    snprintf(title, sizeof title, "P%d lagometer · %s", j + 1,
             s->data.scheme[k]->title ? s->data.scheme[k]->title : s->data.scheme[k]->name);
    in.title = title;
    in.scale_us = s->lag_scale_us;
    lagometer_draw(&s->gfx, &in, app_lag_rect(s, k, view));
}

/* A red frame around every screen of scheme k while the engine's latest
 * sample is inconsistent (the screens disagree on who is ahead). */
void app_draw_disagree(AppState *s, int k)
{
    s->drawn[k].frame = s->data.metrics[k]->inconsistent_now;
    if (!s->drawn[k].frame)
        return;
    float t = fmaxf(2.0f, (float)s->lay.base * 0.15f);
    const SDL_FRect *a = &s->lay.view[k][0];
    float x0 = a->x, y0 = a->y, x1 = a->x + a->w, y1 = a->y + a->h;
    for (int j = 1; j < racedata_cars(&s->data); j++) {
        const SDL_FRect *b = &s->lay.view[k][j];
        x0 = fminf(x0, b->x);
        y0 = fminf(y0, b->y);
        x1 = fmaxf(x1, b->x + b->w);
        y1 = fmaxf(y1, b->y + b->h);
    }
    x0 -= t;
    y0 -= t;
    x1 += t;
    y1 += t;
    SDL_Color c = gfx_rgb(230, 40, 40);
    gfx_fill(s->r, x0, y0, x1 - x0, t, c);
    gfx_fill(s->r, x0, y1 - t, x1 - x0, t, c);
    gfx_fill(s->r, x0, y0, t, y1 - y0, c);
    gfx_fill(s->r, x1 - t, y0, t, y1 - y0, c);
}

/* The focused scheme's name above its two views. */
void app_draw_label(AppState *s, int k)
{
    const SDL_FRect *a = &s->lay.label[k];
    const SchemeType *st = s->data.scheme[k];
    float pad = (float)s->lay.base * 0.3f;
    gfx_room_push(&s->gfx, a->x, a->y, a->w, a->h);
    int w = gfx_text_shrink(&s->gfx, GFX_BIG, (int)a->x, (int)a->y, GFX_LEFT, pal_scheme(k), a->w,
                            st->title ? st->title : st->name);
    /* beside it: name, place and summary, else name and place, else the place */
    char line[GFX_TEXT_MAX], line2[GFX_TEXT_MAX], line3[32];
    snprintf(line, sizeof line, "%s (%d of %d): %s", st->name, k + 1, s->data.n,
             st->summary ? st->summary : "");
    snprintf(line2, sizeof line2, "%s (%d of %d)", st->name, k + 1, s->data.n);
    snprintf(line3, sizeof line3, "(%d of %d)", k + 1, s->data.n);
    const char *lines[3] = {line, line2, line3};
    gfx_text_fit(&s->gfx, GFX_NORMAL, (int)(a->x + (float)w + 3 * pad), (int)(a->y + lh(s, GFX_BIG) - lh(s, GFX_NORMAL)),
                 GFX_LEFT, PAL_DIM, a->w - (float)w - 3 * pad, lines, 3);
    gfx_room_pop(&s->gfx);
}

void app_draw(AppState *s, int w, int h)
{
    if (s->e) /* else the owner filled s->data (a network race) */
        racedata_from_engine(&s->data, s->e, app_end_us(s));
    gfx_begin_frame(&s->gfx);
    app_track_tiles_frame(s);
    app_layout(s, w, h);
    SDL_SetRenderDrawColor(s->r, PAL_BG.r, PAL_BG.g, PAL_BG.b, 255);
    SDL_RenderClear(s->r);
    if (s->overlays & APP_OVERLAY_TRAILS)
        update_trails(s);
    int n = s->data.n;
    int64_t now = s->data.now_us;
    if (s->paused || !s->gtext_valid) {
        for (int k = 0; k < n; k++) {
            app_gauge_text(s->data.metrics[k], &s->gtext[k]);
            app_gauge_text_n(s->data.metrics[k], racedata_cars(&s->data), &s->gtext[k]);
            s->gtext_t[k] = now;
        }
        s->gtext_valid = true;
    } else {
        /* at most a quarter of the schemes per frame (at least two), the
         * oldest first: label renders spread over frames, no spikes */
        int budget = n / 4 > 2 ? n / 4 : 2;
        for (int done = 0; done < budget; done++) {
            int oldest = -1;
            for (int k = 0; k < n; k++) {
                bool due = now < s->gtext_t[k] || now - s->gtext_t[k] >= APP_GAUGE_REFRESH_US;
                if (due && (oldest < 0 || s->gtext_t[k] < s->gtext_t[oldest]))
                    oldest = k;
            }
            if (oldest < 0)
                break;
            app_gauge_text(s->data.metrics[oldest], &s->gtext[oldest]);
            app_gauge_text_n(s->data.metrics[oldest], racedata_cars(&s->data), &s->gtext[oldest]);
            s->gtext_t[oldest] = now;
        }
    }
    memset(s->drawn, 0, sizeof s->drawn);
    s->lag_scale_us = s->lag ? lag_common_scale(s) : 0;
    if (racedata_cars(&s->data) > 2) {
        app_draw_nrace(s);
    } else if (s->focus >= 0) {
        app_draw_label(s, s->focus);
        app_draw_view(s, s->focus, 0);
        app_draw_view(s, s->focus, 1);
        app_draw_disagree(s, s->focus);
        app_draw_gauges(s, s->focus, true);
    } else {
        for (int k = 0; k < n; k++) {
            app_draw_view(s, k, 0);
            app_draw_view(s, k, 1);
            app_draw_disagree(s, k);
            app_draw_gauges(s, k, false);
        }
    }
    app_draw_charts(s);
    app_draw_top(s);
    app_draw_bars(s);
    if (s->help)
        app_draw_help(s);
}
