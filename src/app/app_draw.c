/* One frame of the window: layout, the players' views, gauges, strip charts,
 * status line, controls and the help overlay. Draws only what the engine
 * reports; the only state it keeps is display state (trails, textures). */
#include "app_paint.h"

#include <math.h>
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


/* ---- views ------------------------------------------------------------- */

/* Whole track fitted into rect, or (follow mode) a camera on both cars. */
static void xform_for(const AppState *s, const SDL_FRect *rect, int k, int j, AppXform *x)
{
    x->rect = *rect;
    x->cx = rect->x + rect->w / 2;
    x->cy = rect->y + rect->h / 2;
    if (s->follow[s->focus >= 0] && k >= 0) {
        const EngineView v = s->data.view[k][j];
        x->wx = (v.pose[0].x + v.pose[1].x) / 2;
        x->wy = (v.pose[0].y + v.pose[1].y) / 2;
        double dist = hypot(v.pose[0].x - v.pose[1].x, v.pose[0].y - v.pose[1].y);
        /* car widths across the short side: both cars with a margin, at
         * least 30 in the large focus views and 14 in the overview's
         * thumbnails (cars of ~2 x 1 cw big enough to see on a projector) */
        double span = fmax(s->focus >= 0 ? 30.0 : 14.0, dist * 1.4 + 8.0);
        double px = fmin(rect->w, rect->h);
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

/* Quads given as two triangles each (6 indices) drawn as two runs: every
 * quad's first triangle, then every second one. SDL 2.26's software
 * renderer takes two consecutive triangles that look like an axis-aligned
 * rectangle (on a partial check) for one and fills a rectangle instead:
 * that cut a wedge out of the road where a bend meets a straight and left
 * a one-pixel seam between the quads of every straight. */
static void draw_quads(SDL_Renderer *r, const SDL_Vertex *v, int nv, const int *idx, int m, int *order)
{
    int half = m / 2;
    for (int q = 0, t = 0; q + 6 <= m; q += 6, t += 3)
        for (int c = 0; c < 3; c++) {
            order[t + c] = idx[q + c];
            order[half + t + c] = idx[q + 3 + c];
        }
    SDL_RenderGeometry(r, NULL, v, nv, order, m);
}

/* Asphalt as a triangle strip, white edges, a chequered start line. */
void app_draw_track(AppState *s, const AppXform *x)
{
    SDL_Renderer *r = s->r;
    int n = s->npts;
    for (int i = 0; i < n; i++) {
        SDL_Vertex *a = &s->vert[2 * i], *b = &s->vert[2 * i + 1];
        app_world_to_px(x, s->lx[i], s->ly[i], &a->position.x, &a->position.y);
        app_world_to_px(x, s->rx[i], s->ry[i], &b->position.x, &b->position.y);
        a->color = b->color = PAL_ASPHALT;
        a->tex_coord.x = a->tex_coord.y = b->tex_coord.x = b->tex_coord.y = 0;
    }
    int m = 0;
    float x0 = x->rect.x, x1 = x->rect.x + x->rect.w, y0 = x->rect.y, y1 = x->rect.y + x->rect.h;
    for (int i = 0; i < n; i++) {
        int i0 = 2 * i, i1 = 2 * ((i + 1) % n);
        /* a quad wholly off the view costs the rasteriser its setup for
         * nothing (a zoomed view sees a few dozen of the ~900) */
        const SDL_FPoint *q[4] = {&s->vert[i0].position, &s->vert[i0 + 1].position, &s->vert[i1].position,
                                  &s->vert[i1 + 1].position};
        float qx0 = q[0]->x, qx1 = q[0]->x, qy0 = q[0]->y, qy1 = q[0]->y;
        for (int c = 1; c < 4; c++) {
            qx0 = fminf(qx0, q[c]->x);
            qx1 = fmaxf(qx1, q[c]->x);
            qy0 = fminf(qy0, q[c]->y);
            qy1 = fmaxf(qy1, q[c]->y);
        }
        if (qx1 < x0 || qx0 > x1 || qy1 < y0 || qy0 > y1)
            continue;
        s->idx[m++] = i0;
        s->idx[m++] = i0 + 1;
        s->idx[m++] = i1;
        s->idx[m++] = i0 + 1;
        s->idx[m++] = i1 + 1;
        s->idx[m++] = i1;
    }
    draw_quads(r, s->vert, 2 * n, s->idx, m, s->tri_order);
    /* white edge lines: one quad per segment and side, all in one batch */
    float ew = fmaxf(1.0f, x->scale * 0.25f);
    int nv = 0, ni = 0;
    /* sides 2 and 3: the walls beyond the grass, when the physics has them */
    int nsides = s->cfg.wall_cw > 0 ? 4 : 2;
    float ww = fmaxf(1.5f, x->scale * 0.4f);
    for (int side = 0; side < nsides; side++) {
        const double *ex = side == 0 ? s->lx : side == 1 ? s->rx : side == 2 ? s->lwx : s->rwx;
        const double *ey = side == 0 ? s->ly : side == 1 ? s->ry : side == 2 ? s->lwy : s->rwy;
        float lw = side < 2 ? ew : ww;
        SDL_Color col = side < 2 ? PAL_EDGE : PAL_WALL;
        for (int i = 0; i < n; i++) {
            int i1 = (i + 1) % n;
            float x0, y0, x1, y1;
            app_world_to_px(x, ex[i], ey[i], &x0, &y0);
            app_world_to_px(x, ex[i1], ey[i1], &x1, &y1);
            /* off the view: nothing to draw (zoomed views see a few segments) */
            if (fmaxf(x0, x1) < x->rect.x - lw || fminf(x0, x1) > x->rect.x + x->rect.w + lw ||
                fmaxf(y0, y1) < x->rect.y - lw || fminf(y0, y1) > x->rect.y + x->rect.h + lw)
                continue;
            float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
            if (len < 1e-6f)
                continue;
            float nx = -dy / len * lw * 0.5f, ny = dx / len * lw * 0.5f;
            SDL_FPoint q[4] = {{x0 + nx, y0 + ny}, {x1 + nx, y1 + ny}, {x1 - nx, y1 - ny}, {x0 - nx, y0 - ny}};
            for (int c = 0; c < 4; c++) {
                s->edge_vert[nv + c].position = q[c];
                s->edge_vert[nv + c].color = col;
                s->edge_vert[nv + c].tex_coord.x = s->edge_vert[nv + c].tex_coord.y = 0;
            }
            static const int quad[6] = {0, 1, 2, 0, 2, 3};
            for (int c = 0; c < 6; c++)
                s->edge_idx[ni++] = nv + quad[c];
            nv += 4;
        }
    }
    draw_quads(r, s->edge_vert, nv, s->edge_idx, ni, s->tri_order);
    /* start / finish line: chequered band across the track at s = 0 */
    const Track *t = s->track;
    double w = track_width(t), sx, sy, sh;
    track_point(t, 0.0, &sx, &sy, &sh);
    int squares = 8;
    double sq = w / squares, fx = cos(sh), fy = sin(sh), nx = -fy, ny = fx;
    for (int row = 0; row < 2; row++)
        for (int q = 0; q < squares; q++) {
            double o0 = -w / 2 + q * sq, a0 = row * sq * 0.6, a1 = a0 + sq * 0.6;
            SDL_FPoint p[4];
            double cs[4][2] = {{o0, a0}, {o0 + sq, a0}, {o0 + sq, a1}, {o0, a1}};
            for (int i = 0; i < 4; i++)
                app_world_to_px(x, sx + nx * cs[i][0] + fx * cs[i][1], sy + ny * cs[i][0] + fy * cs[i][1],
                                &p[i].x, &p[i].y);
            gfx_poly(r, p, 4, ((q + row) & 1) ? gfx_rgb(20, 20, 20) : PAL_EDGE);
        }
}

/* The whole-track picture of a view size, drawn once into a texture. */
SDL_Texture *app_track_texture(AppState *s, int w, int h)
{
    for (int i = 0; i < 2; i++)
        if (s->track_tex[i] && s->track_tex_w[i] == w && s->track_tex_h[i] == h)
            return s->track_tex[i];
    int i = s->track_tex_next;
    s->track_tex_next = (i + 1) % 2;
    if (s->track_tex[i])
        SDL_DestroyTexture(s->track_tex[i]);
    s->track_tex[i] = SDL_CreateTexture(s->r, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_TARGET, w, h);
    s->track_tex_w[i] = w;
    s->track_tex_h[i] = h;
    if (!s->track_tex[i])
        return NULL;
    SDL_Texture *old = SDL_GetRenderTarget(s->r);
    if (SDL_SetRenderTarget(s->r, s->track_tex[i]) != 0) {
        SDL_DestroyTexture(s->track_tex[i]);
        s->track_tex[i] = NULL;
        return NULL;
    }
    SDL_SetRenderDrawColor(s->r, PAL_GRASS.r, PAL_GRASS.g, PAL_GRASS.b, 255);
    SDL_RenderClear(s->r);
    SDL_FRect rect = {0, 0, (float)w, (float)h};
    AppXform x;
    xform_for(s, &rect, -1, 0, &x);
    app_draw_track(s, &x);
    SDL_SetRenderTarget(s->r, old);
    return s->track_tex[i];
}

/* A car: dark outline, body in the car's colour, a pale nose. Never drawn
 * smaller than a few pixels so the whole-track views still show it. */
void app_draw_car(AppState *s, const AppXform *x, double wx, double wy, double heading, SDL_Color c,
                     bool outline_only)
{
    float cx, cy;
    app_world_to_px(x, wx, wy, &cx, &cy);
    float wpx = fmaxf(x->scale * 1.0f, (float)s->lay.base * 0.45f);
    float lpx = wpx * 2.0f;
    float fx = (float)cos(heading), fy = -(float)sin(heading); /* screen y down */
    float nx = -fy, ny = fx;
    float hl = lpx / 2, hw = wpx / 2;
    SDL_FPoint body[4] = {{cx + fx * hl + nx * hw, cy + fy * hl + ny * hw},
                          {cx + fx * hl - nx * hw, cy + fy * hl - ny * hw},
                          {cx - fx * hl - nx * hw, cy - fy * hl - ny * hw},
                          {cx - fx * hl + nx * hw, cy - fy * hl + ny * hw}};
    if (outline_only) {
        for (int i = 0; i < 4; i++)
            gfx_thick_line(s->r, body[i].x, body[i].y, body[(i + 1) % 4].x, body[(i + 1) % 4].y,
                           fmaxf(1.5f, wpx * 0.18f), c);
        return;
    }
    float o = fmaxf(1.0f, wpx * 0.15f);
    SDL_FPoint out[4] = {{cx + fx * (hl + o) + nx * (hw + o), cy + fy * (hl + o) + ny * (hw + o)},
                         {cx + fx * (hl + o) - nx * (hw + o), cy + fy * (hl + o) - ny * (hw + o)},
                         {cx - fx * (hl + o) - nx * (hw + o), cy - fy * (hl + o) - ny * (hw + o)},
                         {cx - fx * (hl + o) + nx * (hw + o), cy - fy * (hl + o) + ny * (hw + o)}};
    gfx_poly(s->r, out, 4, gfx_rgb(10, 10, 12));
    gfx_poly(s->r, body, 4, c);
    /* nose: the front quarter, so the centre stays the car's colour */
    SDL_FPoint nose[3] = {{cx + fx * hl, cy + fy * hl},
                          {cx + fx * hl * 0.5f + nx * hw * 0.7f, cy + fy * hl * 0.5f + ny * hw * 0.7f},
                          {cx + fx * hl * 0.5f - nx * hw * 0.7f, cy + fy * hl * 0.5f - ny * hw * 0.7f}};
    gfx_poly(s->r, nose, 3, pal_mix(c, gfx_rgb(255, 255, 255), 0.7f));
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
    int n = s->data.n;
    for (int k = 0; k < n; k++)
        for (int j = 0; j < 2; j++) {
            const EngineView v = s->data.view[k][j];
            for (int c = 0; c < 2; c++) {
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
 * race): said so in its place. */
static void draw_unknown(AppState *s, const SDL_FRect *rect, int j)
{
    gfx_fill(s->r, rect->x, rect->y, rect->w, rect->h, PAL_PANEL);
    char full[48];
    snprintf(full, sizeof full, "P%d screen: at the peer", j + 1);
    const char *says[3] = {full, "at the peer", "peer"}; /* detail dropped, never letters */
    int i = 0, tw, th;
    for (; i < 2; i++) {
        gfx_text_size(&s->gfx, GFX_SMALL, says[i], &tw, &th);
        if ((float)tw + 4 <= rect->w)
            break;
    }
    gfx_text(&s->gfx, GFX_SMALL, (int)(rect->x + rect->w / 2), (int)(rect->y + rect->h / 2 - lh(s, GFX_SMALL) / 2),
             GFX_CENTER, PAL_DIM, "%s", says[i]);
    gfx_frame(s->r, rect->x, rect->y, rect->w, rect->h, gfx_rgb(90, 95, 105));
}

static void draw_view(AppState *s, int k, int j)
{
    SDL_Renderer *r = s->r;
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
    SDL_RenderSetClipRect(r, &clip);
    if (s->follow[s->focus >= 0]) {
        gfx_fill(r, rect->x, rect->y, rect->w, rect->h, PAL_GRASS);
        app_draw_track(s, &x);
    } else {
        SDL_Texture *tex = app_track_texture(s, clip.w, clip.h);
        if (tex)
            SDL_RenderCopy(r, tex, NULL, &clip);
        else {
            gfx_fill(r, rect->x, rect->y, rect->w, rect->h, PAL_GRASS);
            app_draw_track(s, &x);
        }
    }
    const EngineView v = s->data.view[k][j];
    s->drawn[k].leader[j] = v.leader;
    s->drawn[k].gap[j] = v.progress[0] - v.progress[1];
    s->drawn[k].drawn = true;
    int other = 1 - j;
    if (s->overlays & APP_OVERLAY_TRAILS) {
        for (int c = 0; c < 2; c++) {
            const AppTrail *t = &s->trail[k][j][c];
            SDL_Color col = pal_mix(pal_car(c), PAL_GRASS, 0.35f);
            for (int i = 1; i < t->n; i++) {
                int a = (t->head - i + APP_TRAIL) % APP_TRAIL, b = (t->head - i - 1 + APP_TRAIL) % APP_TRAIL;
                float x0, y0, x1, y1;
                app_world_to_px(&x, t->x[a], t->y[a], &x0, &y0);
                app_world_to_px(&x, t->x[b], t->y[b], &x1, &y1);
                gfx_thick_line(r, x0, y0, x1, y1, fmaxf(1.5f, x.scale * 0.3f), col);
            }
        }
    }
    if ((s->overlays & APP_OVERLAY_INFLIGHT) && s->e) {
        /* MUs travelling towards this terminal carry the other car */
        int dir = other; /* direction other -> j */
        int m = engine_in_flight(s->e, k, dir, s->inflight, ENGINE_QUEUE_LIMIT);
        SDL_Color col = pal_mix(pal_car(other), gfx_rgb(255, 255, 255), 0.55f);
        float rad = fmaxf(2.0f, x.scale * 0.3f);
        for (int i = 0; i < m; i++) {
            float px, py;
            app_world_to_px(&x, s->inflight[i].mu.x, s->inflight[i].mu.y, &px, &py);
            gfx_disc(r, px, py, rad, col);
        }
    }
    if ((s->overlays & APP_OVERLAY_GHOST) && s->e) {
        Pose truth;
        engine_truth(s->e, other, &truth, NULL);
        app_draw_car(s, &x, truth.x, truth.y, truth.heading, pal_mix(pal_car(other), gfx_rgb(255, 255, 255), 0.6f),
                 true);
    }
    /* the other car first, this terminal's own car on top */
    app_draw_car(s, &x, v.pose[other].x, v.pose[other].y, v.pose[other].heading, pal_car(other), false);
    app_draw_car(s, &x, v.pose[j].x, v.pose[j].y, v.pose[j].heading, pal_car(j), false);
    SDL_RenderSetClipRect(r, NULL);

    /* captions: whose screen, who is ahead, laps */
    float ls = lh(s, GFX_SMALL), pad = (float)s->lay.base * 0.25f;
    gfx_fill(r, rect->x, rect->y, rect->w, ls + pad, PAL_CAPTION);
    SDL_Color lc = pal_car(v.leader);
    char lead[32];
    snprintf(lead, sizeof lead, "car %d ahead", v.leader + 1);
    int lw, lhh, pw;
    gfx_text_size(&s->gfx, GFX_SMALL, lead, &lw, &lhh);
    gfx_text_size(&s->gfx, GFX_SMALL, "P1 screen", &pw, &lhh);
    bool wide = (float)(pw + lw) + 6 * pad < rect->w;
    int tw = gfx_text(&s->gfx, GFX_SMALL, (int)(rect->x + pad), (int)(rect->y + pad / 2), GFX_LEFT,
                      pal_car(j), wide ? "P%d screen" : "P%d", j + 1);
    float bx = rect->x + rect->w - (float)lw - 3 * pad;
    if (bx > rect->x + (float)tw + 2 * pad || tw == 0) {
        gfx_fill(r, bx, rect->y + 1, (float)lw + 2 * pad, ls + pad - 2, lc);
        gfx_text(&s->gfx, GFX_SMALL, (int)(bx + pad), (int)(rect->y + pad / 2), GFX_LEFT, gfx_rgb(0, 0, 0), "%s",
                 lead);
    } else { /* too narrow: a block of the leader's colour */
        gfx_fill(r, rect->x + rect->w - ls - pad, rect->y + 1, ls, ls + pad - 2, lc);
    }
    if (rect->h > 12 * (ls + pad)) {
        gfx_fill(r, rect->x, rect->y + rect->h - ls - pad, rect->w, ls + pad, PAL_CAPTION);
        int y = (int)(rect->y + rect->h - ls - pad / 2);
        int w1 = gfx_text(&s->gfx, GFX_SMALL, (int)(rect->x + pad), y, GFX_LEFT, PAL_CAR1, "car 1 lap %d",
                          v.lap[0] + 1);
        gfx_text(&s->gfx, GFX_SMALL, (int)(rect->x + 3 * pad) + w1, y, GFX_LEFT, PAL_CAR2, "car 2 lap %d",
                 v.lap[1] + 1);
    }
    gfx_frame(r, rect->x, rect->y, rect->w, rect->h, gfx_rgb(90, 95, 105));
}

/* A red frame around both screens of scheme k while the engine's latest
 * sample is inconsistent (the screens disagree on who is ahead). */
static void draw_disagree(AppState *s, int k)
{
    s->drawn[k].frame = s->data.metrics[k]->inconsistent_now;
    if (!s->drawn[k].frame)
        return;
    const SDL_FRect *a = &s->lay.view[k][0], *b = &s->lay.view[k][1];
    float t = fmaxf(2.0f, (float)s->lay.base * 0.15f);
    float x0 = a->x - t, y0 = fminf(a->y, b->y) - t, x1 = b->x + b->w + t, y1 = fmaxf(a->y + a->h, b->y + b->h) + t;
    SDL_Color c = gfx_rgb(230, 40, 40);
    gfx_fill(s->r, x0, y0, x1 - x0, t, c);
    gfx_fill(s->r, x0, y1 - t, x1 - x0, t, c);
    gfx_fill(s->r, x0, y0, t, y1 - y0, c);
    gfx_fill(s->r, x1 - t, y0, t, y1 - y0, c);
}

/* ---- bars, controls, help ---------------------------------------------- */

static void draw_top(AppState *s)
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
static void draw_bars(AppState *s)
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
    "within 0.05 car widths of 0 the gauge says 'even'. Bars and the d1-d2 chart",
    "use a log scale (ticks 0.1, 1, 10 cw); the picture is each 33 ms sample.",
};

static void draw_help(AppState *s)
{
    SDL_Renderer *r = s->r;
    float l = lh(s, GFX_NORMAL);
    int n = (int)(sizeof help_lines / sizeof help_lines[0]);
    int maxw = 0;
    for (int i = 0; i < n; i++) {
        int w, h;
        gfx_text_size(&s->gfx, GFX_NORMAL, help_lines[i], &w, &h);
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
                 "%s", help_lines[i]);
}

/* The focused scheme's name above its two views. */
static void draw_label(AppState *s, int k)
{
    const SDL_FRect *a = &s->lay.label[k];
    const SchemeType *st = s->data.scheme[k];
    float pad = (float)s->lay.base * 0.3f;
    int w = gfx_text(&s->gfx, GFX_BIG, (int)a->x, (int)a->y, GFX_LEFT, pal_scheme(k), "%s",
                     st->title ? st->title : st->name);
    char line[GFX_TEXT_MAX];
    snprintf(line, sizeof line, "%s (%d of %d): %s", st->name, k + 1, s->data.n,
             st->summary ? st->summary : "");
    int lw, lhh;
    gfx_text_size(&s->gfx, GFX_NORMAL, line, &lw, &lhh);
    if (a->x + (float)(w + lw) + 3 * pad > a->x + a->w) /* too long: name and place only */
        snprintf(line, sizeof line, "%s (%d of %d)", st->name, k + 1, s->data.n);
    gfx_text(&s->gfx, GFX_NORMAL, (int)(a->x + (float)w + 3 * pad), (int)(a->y + lh(s, GFX_BIG) - lh(s, GFX_NORMAL)),
             GFX_LEFT, PAL_DIM, "%s", line);
}

void app_draw(AppState *s, int w, int h)
{
    if (s->e) /* else the owner filled s->data (a network race) */
        racedata_from_engine(&s->data, s->e, app_end_us(s));
    gfx_begin_frame(&s->gfx);
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
            s->gtext_t[oldest] = now;
        }
    }
    memset(s->drawn, 0, sizeof s->drawn);
    if (s->focus >= 0) {
        draw_label(s, s->focus);
        draw_view(s, s->focus, 0);
        draw_view(s, s->focus, 1);
        draw_disagree(s, s->focus);
        app_draw_gauges(s, s->focus, true);
    } else {
        for (int k = 0; k < n; k++) {
            draw_view(s, k, 0);
            draw_view(s, k, 1);
            draw_disagree(s, k);
            app_draw_gauges(s, k, false);
        }
    }
    app_draw_charts(s);
    draw_top(s);
    draw_bars(s);
    if (s->help)
        draw_help(s);
}
