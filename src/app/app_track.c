/* The track and car shapes every view draws: the asphalt strip, kerbs,
 * the centre line's dashes and the grid boxes (when zoomed in), white
 * edges, the walls, a chequered start line, the whole-track picture cached
 * per view size, a car with its nose. */
#include "app_paint.h"

#include <math.h>

/* Quads given as two triangles each (6 indices) drawn as two runs: every
 * quad's first triangle, then every second one. SDL 2.26's software
 * renderer takes two consecutive triangles that look like an axis-aligned
 * rectangle (on a partial check) for one and fills a rectangle instead:
 * that cut a wedge out of the road where a bend meets a straight and left
 * a one-pixel seam between the quads of every straight. */
void app_draw_quads(SDL_Renderer *r, const SDL_Vertex *v, int nv, const int *idx, int m, int *order)
{
    int half = m / 2;
    for (int q = 0, t = 0; q + 6 <= m; q += 6, t += 3)
        for (int c = 0; c < 3; c++) {
            order[t + c] = idx[q + c];
            order[half + t + c] = idx[q + 3 + c];
        }
    SDL_RenderGeometry(r, NULL, v, nv, order, m);
}

/* Plain comparisons: fminf / fmaxf are library calls (their NaN rules keep
 * the compiler from inlining them), and the culling below makes ~5,000 per
 * view: 7 % of an N-car overview's frame. No coordinate here is NaN. */
static inline float min2f(float a, float b)
{
    return a < b ? a : b;
}

static inline float max2f(float a, float b)
{
    return a > b ? a : b;
}

/* ---- culling: a frame of 24 zoomed views would otherwise project every
 * point of the track 24 times (~900 each) to draw the few dozen segments
 * each view shows. The segments come in chunks of APP_TRACK_CHUNK with a
 * world box each (app_track_prepare); a view projects only the chunks whose
 * box meets the world rectangle under its pixels, widened by a margin, and
 * then culls quad by quad as before: the triangles drawn are the same. */

#define KERB_CURV 0.017 /* bends tighter than a radius of 60 cw get kerbs */

/* Whether point k lies on the line through points i and j of both edges
 * (within 1e-6 cw), beyond j: the three are on one straight. */
static bool on_line(const AppState *s, int i, int j, int k)
{
    const double *ex[2] = {s->lx, s->rx}, *ey[2] = {s->ly, s->ry};
    for (int e = 0; e < 2; e++) {
        double ux = ex[e][j] - ex[e][i], uy = ey[e][j] - ey[e][i], vx = ex[e][k] - ex[e][i], vy = ey[e][k] - ey[e][i];
        double len = hypot(ux, uy);
        if (len < 1e-9 || fabs(ux * vy - uy * vx) / len > 1e-6 || ux * vx + uy * vy <= len * len)
            return false;
    }
    return true;
}

void app_track_prepare(AppState *s)
{
    int n = s->npts, nchunks = (n + APP_TRACK_CHUNK - 1) / APP_TRACK_CHUNK;
    float len = (float)track_length(s->track); /* float, as the kerbs were always placed */
    for (int i = 0; i < n; i++)
        s->kerb[i] = fabs(track_curvature(s->track, (double)len * i / n)) > KERB_CURV;
    for (int c = 0; c < nchunks; c++) {
        float *b = s->chunk_box[c];
        b[0] = b[1] = INFINITY;
        b[2] = b[3] = -INFINITY;
        /* segment i runs from point i to point i + 1: the chunk's last
         * segment ends at the next chunk's first point */
        for (int k = c * APP_TRACK_CHUNK; k <= (c + 1) * APP_TRACK_CHUNK && k <= n; k++) {
            int i = k % n;
            const double px[4] = {s->lx[i], s->rx[i], s->lwx[i], s->rwx[i]};
            const double py[4] = {s->ly[i], s->ry[i], s->lwy[i], s->rwy[i]};
            for (int e = 0; e < 4; e++) {
                b[0] = fminf(b[0], (float)px[e]);
                b[1] = fminf(b[1], (float)py[e]);
                b[2] = fmaxf(b[2], (float)px[e]);
                b[3] = fmaxf(b[3], (float)py[e]);
            }
        }
        /* the straights: a run of segments on one line is drawn as one quad
         * (SDL's software renderer pays ~2,000 instructions a triangle) */
        int e = (c + 1) * APP_TRACK_CHUNK < n ? (c + 1) * APP_TRACK_CHUNK : n;
        for (int i = c * APP_TRACK_CHUNK; i < e; i++) {
            int j = i + 1;
            while (j < e && on_line(s, i, j, (j + 1) % n))
                j++;
            s->run[i] = (short)j;
        }
    }
}

/* Marks in on[] the chunks whose world box meets the view's pixels widened
 * by margin_px on every side; returns how many. The world rectangle is the
 * box of the four corners taken back through the view's transform (a
 * rotated camera's is larger than the view: more is kept, never less). */
static int chunks_visible(const AppState *s, const AppXform *x, float margin_px, bool *on)
{
    const SDL_FRect *r = &x->rect;
    float mx = margin_px + 1.0f; /* a pixel more for float rounding */
    const float cxs[2] = {r->x - mx, r->x + r->w + mx}, cys[2] = {r->y - mx, r->y + r->h + mx};
    double wx0 = INFINITY, wy0 = INFINITY, wx1 = -INFINITY, wy1 = -INFINITY;
    for (int i = 0; i < 4; i++) {
        double u = (cxs[i & 1] - x->cx) / x->scale, v = -(cys[i >> 1] - x->cy) / x->scale;
        double dx = u, dy = v;
        if (x->rotated) {
            dx = u * x->rot_cos - v * x->rot_sin;
            dy = u * x->rot_sin + v * x->rot_cos;
        }
        wx0 = fmin(wx0, x->wx + dx);
        wx1 = fmax(wx1, x->wx + dx);
        wy0 = fmin(wy0, x->wy + dy);
        wy1 = fmax(wy1, x->wy + dy);
    }
    int nchunks = (s->npts + APP_TRACK_CHUNK - 1) / APP_TRACK_CHUNK, m = 0;
    for (int c = 0; c < nchunks; c++) {
        const float *b = s->chunk_box[c];
        on[c] = !(b[2] < wx0 || b[0] > wx1 || b[3] < wy0 || b[1] > wy1);
        m += on[c];
    }
    return m;
}

/* The first segment of chunk c and the one past its last. */
static inline int chunk_end(const AppState *s, int c)
{
    int e = (c + 1) * APP_TRACK_CHUNK;
    return e < s->npts ? e : s->npts;
}

/* The asphalt: one quad per segment, those wholly off the view skipped. The
 * edges of the visible chunks' points (and each chunk's end point) are
 * projected into vert[2i] (left) and vert[2i + 1] (right); the markings
 * reuse them. */
static void track_asphalt(AppState *s, const AppXform *x, const bool *on)
{
    SDL_Renderer *r = s->r;
    int n = s->npts, nchunks = (n + APP_TRACK_CHUNK - 1) / APP_TRACK_CHUNK;
    for (int c = 0; c < nchunks; c++) {
        if (!on[c])
            continue;
        for (int k = c * APP_TRACK_CHUNK; k <= chunk_end(s, c); k++) {
            int i = k % n;
            SDL_Vertex *a = &s->vert[2 * i], *b = &s->vert[2 * i + 1];
            app_world_to_px(x, s->lx[i], s->ly[i], &a->position.x, &a->position.y);
            app_world_to_px(x, s->rx[i], s->ry[i], &b->position.x, &b->position.y);
            a->color = b->color = PAL_ASPHALT;
            a->tex_coord.x = a->tex_coord.y = b->tex_coord.x = b->tex_coord.y = 0;
        }
    }
    int m = 0;
    float x0 = x->rect.x, x1 = x->rect.x + x->rect.w, y0 = x->rect.y, y1 = x->rect.y + x->rect.h;
    for (int c = 0; c < nchunks; c++)
        for (int i = c * APP_TRACK_CHUNK; on[c] && i < chunk_end(s, c); i++) {
            /* one quad a segment: long quads of a straight left holes
             * (SDL 2.26's software renderer; test_app road_has_no_holes) */
            int i0 = 2 * i, i1 = 2 * ((i + 1) % n);
            /* a quad wholly off the view costs the rasteriser its setup for
             * nothing (a zoomed view sees a few dozen of the ~900) */
            const SDL_FPoint *q[4] = {&s->vert[i0].position, &s->vert[i0 + 1].position, &s->vert[i1].position,
                                      &s->vert[i1 + 1].position};
            float qx0 = q[0]->x, qx1 = q[0]->x, qy0 = q[0]->y, qy1 = q[0]->y;
            for (int k = 1; k < 4; k++) {
                qx0 = min2f(qx0, q[k]->x);
                qx1 = max2f(qx1, q[k]->x);
                qy0 = min2f(qy0, q[k]->y);
                qy1 = max2f(qy1, q[k]->y);
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
    app_draw_quads(r, s->vert, 2 * n, s->idx, m, s->tri_order);
}

/* White edge lines (and the walls beyond the grass, when the physics has
 * them): one quad per segment and side, all in one batch. */
static void track_edges(AppState *s, const AppXform *x, const bool *on)
{
    SDL_Renderer *r = s->r;
    int n = s->npts;
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
        for (int i = 0, j; i < n; i = j) {
            j = s->run[i]; /* a straight's segments in one quad */
            if (!on[i / APP_TRACK_CHUNK]) { /* the chunk's segments, all off the view */
                j = chunk_end(s, i / APP_TRACK_CHUNK);
                continue;
            }
            int i1 = j % n;
            float x0, y0, x1, y1;
            app_world_to_px(x, ex[i], ey[i], &x0, &y0);
            app_world_to_px(x, ex[i1], ey[i1], &x1, &y1);
            /* off the view: nothing to draw (zoomed views see a few segments) */
            if (max2f(x0, x1) < x->rect.x - lw || min2f(x0, x1) > x->rect.x + x->rect.w + lw ||
                max2f(y0, y1) < x->rect.y - lw || min2f(y0, y1) > x->rect.y + x->rect.h + lw)
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
    app_draw_quads(r, s->edge_vert, nv, s->edge_idx, ni, s->tri_order);
}

/* ---- road markings: kerbs in the bends, the centre line's dashes, the grid
 * boxes, so that speed is felt on a straight (issue 22). Only where a car
 * width is MARK_MIN_PX pixels or more: the overview's thumbnails and the
 * minimap stay plain. They reuse the asphalt's projected edges (vert[2i]
 * left, vert[2i + 1] right) and the edges' scratch buffers. */
#define MARK_MIN_PX 4.0f
#define KERB_W_CW 0.7     /* a kerb's width on the asphalt */
#define KERB_BLOCK 2      /* track points (1 cw apart) per red or white block */
#define DASH_W_CW 0.22
#define DASH_ON 3         /* points of dash, then of gap */
#define PAL_KERB_RED gfx_rgb(205, 45, 40)

static int quad_add(AppState *s, int nv, int *ni, const SDL_FPoint q[4], SDL_Color c)
{
    static const int quad[6] = {0, 1, 2, 0, 2, 3};
    for (int k = 0; k < 4; k++) {
        s->edge_vert[nv + k].position = q[k];
        s->edge_vert[nv + k].color = c;
        s->edge_vert[nv + k].tex_coord.x = s->edge_vert[nv + k].tex_coord.y = 0;
    }
    for (int k = 0; k < 6; k++)
        s->edge_idx[(*ni)++] = nv + quad[k];
    return nv + 4;
}

static bool quad_off_view(const AppXform *x, const SDL_FPoint q[4])
{
    float x0 = q[0].x, x1 = q[0].x, y0 = q[0].y, y1 = q[0].y;
    for (int k = 1; k < 4; k++) {
        x0 = min2f(x0, q[k].x);
        x1 = max2f(x1, q[k].x);
        y0 = min2f(y0, q[k].y);
        y1 = max2f(y1, q[k].y);
    }
    return x1 < x->rect.x || x0 > x->rect.x + x->rect.w || y1 < x->rect.y || y0 > x->rect.y + x->rect.h;
}

/* a + (b - a) t in pixels */
static SDL_FPoint lerp_px(SDL_FPoint a, SDL_FPoint b, float t)
{
    SDL_FPoint p = {a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t};
    return p;
}

/* Kerbs on both edges of every bend and the centre line's dashes. */
static int track_lines(AppState *s, const AppXform *x, const bool *on, int *ni)
{
    int n = s->npts, nv = 0;
    float width = (float)track_width(s->track);
    float kerb = (float)KERB_W_CW / width, dash = (float)(DASH_W_CW / 2) / width;
    for (int i = 0; i < n; i++) {
        if (!on[i / APP_TRACK_CHUNK]) { /* not projected: wholly off the view */
            i = chunk_end(s, i / APP_TRACK_CHUNK) - 1;
            continue;
        }
        int end = i + 1; /* a dash on a straight: its segments in one quad */
        while (!s->kerb[i] && i % (2 * DASH_ON) < DASH_ON && end < s->run[i] && end % (2 * DASH_ON) < DASH_ON &&
               !s->kerb[end])
            end++;
        int j = end % n;
        SDL_FPoint l0 = s->vert[2 * i].position, r0 = s->vert[2 * i + 1].position;
        SDL_FPoint l1 = s->vert[2 * j].position, r1 = s->vert[2 * j + 1].position;
        SDL_FPoint box[4] = {l0, r0, r1, l1};
        if (quad_off_view(x, box)) {
            i = end - 1;
            continue;
        }
        if (s->kerb[i]) {
            SDL_Color c = (i / KERB_BLOCK) % 2 ? PAL_EDGE : PAL_KERB_RED;
            SDL_FPoint kl[4] = {l0, lerp_px(l0, r0, kerb), lerp_px(l1, r1, kerb), l1};
            SDL_FPoint kr[4] = {r0, lerp_px(r0, l0, kerb), lerp_px(r1, l1, kerb), r1};
            nv = quad_add(s, nv, ni, kl, c);
            nv = quad_add(s, nv, ni, kr, c);
        } else if (i % (2 * DASH_ON) < DASH_ON) {
            SDL_FPoint d[4] = {lerp_px(l0, r0, 0.5f - dash), lerp_px(l0, r0, 0.5f + dash),
                               lerp_px(l1, r1, 0.5f + dash), lerp_px(l1, r1, 0.5f - dash)};
            nv = quad_add(s, nv, ni, d, PAL_EDGE);
        }
        i = end - 1;
    }
    return nv;
}

/* A white box on each grid slot: 2.6 x 1.6 cw around where a car stands. */
static int track_grid_boxes(AppState *s, const AppXform *x, int nv, int *ni)
{
    int slots = track_grid_slots(s->track);
    const double hl = 1.3, hw = 0.8, lw = 0.12;
    /* the four sides as (along, across) rectangles in the slot's frame */
    const double side[4][4] = {{-hl, hw - lw, hl, hw}, {-hl, -hw, hl, -hw + lw}, {-hl, -hw, -hl + lw, hw},
                               {hl - lw, -hw, hl, hw}};
    for (int g = 0; g < slots; g++) {
        double gx, gy, h, gs;
        track_grid(s->track, g, &gx, &gy, &h, &gs);
        double fx = cos(h), fy = sin(h), nx = -fy, ny = fx;
        for (int k = 0; k < 4; k++) {
            const double a[4][2] = {{side[k][0], side[k][1]}, {side[k][2], side[k][1]}, {side[k][2], side[k][3]},
                                    {side[k][0], side[k][3]}};
            SDL_FPoint q[4];
            for (int c = 0; c < 4; c++)
                app_world_to_px(x, gx + fx * a[c][0] + nx * a[c][1], gy + fy * a[c][0] + ny * a[c][1], &q[c].x,
                                &q[c].y);
            if (!quad_off_view(x, q))
                nv = quad_add(s, nv, ni, q, PAL_EDGE);
        }
    }
    return nv;
}

static void track_markings(AppState *s, const AppXform *x, const bool *on)
{
    if (x->scale < MARK_MIN_PX)
        return;
    int ni = 0;
    int nv = track_lines(s, x, on, &ni);
    nv = track_grid_boxes(s, x, nv, &ni);
    app_draw_quads(s->r, s->edge_vert, nv, s->edge_idx, ni, s->tri_order);
}

/* The start / finish line: a chequered band across the track at s = 0. */
static void track_start_line(AppState *s, const AppXform *x)
{
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
            gfx_poly(s->r, p, 4, ((q + row) & 1) ? gfx_rgb(20, 20, 20) : PAL_EDGE);
        }
}

/* The widest line drawn past a segment's points: a wall. */
static float track_margin_px(const AppXform *x)
{
    return fmaxf(fmaxf(1.5f, x->scale * 0.4f), fmaxf(1.0f, x->scale * 0.25f));
}

bool app_track_meets(const AppState *s, const AppXform *x)
{
    bool on[APP_TRACK_CHUNKS];
    return chunks_visible(s, x, track_margin_px(x), on) > 0;
}

/* Asphalt as a triangle strip, the markings, white edges, the walls, a
 * chequered start line. */
void app_draw_track(AppState *s, const AppXform *x)
{
    bool on[APP_TRACK_CHUNKS];
    if (chunks_visible(s, x, track_margin_px(x), on) == 0)
        return;
    track_asphalt(s, x, on);
    track_markings(s, x, on);
    track_edges(s, x, on);
    if (on[0]) /* the line lies in the first chunk's box */
        track_start_line(s, x);
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
    app_fit_xform(s, &rect, &x);
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
    heading = app_screen_heading(x, heading);
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

