/* The driving screens' instruments: speedometer, off-screen arrows, the
 * flash and sparks of a hit (drivewidgets.h). */
#include "drivewidgets.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define SPEEDO_A0 (1.25 * NR_PI)  /* 225 degrees: 0 cw/s */
#define SPEEDO_SWEEP (1.5 * NR_PI) /* 270 degrees clockwise */
#define PAL_SPEEDO_FACE gfx_rgba(12, 14, 18, 205)
#define PAL_SPEEDO_SCALE gfx_rgb(120, 126, 136)

double drivewidget_speedo_angle(double speed_cws)
{
    double f = fabs(speed_cws) / DRIVEWIDGET_SPEEDO_MAX;
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    return SPEEDO_A0 - SPEEDO_SWEEP * f;
}

/* A point at radius rad and angle a (counter-clockwise, screen y down). */
static SDL_FPoint polar(float cx, float cy, float rad, double a)
{
    SDL_FPoint p = {cx + rad * (float)cos(a), cy - rad * (float)sin(a)};
    return p;
}

/* The dial's face: a 32-gon (two 16-gons half a side apart). */
static void face(SDL_Renderer *r, float cx, float cy, float rad)
{
    for (int k = 0; k < 2; k++) {
        SDL_FPoint p[16];
        for (int i = 0; i < 16; i++)
            p[i] = polar(cx, cy, rad, (i + 0.5 * k) * NR_PI / 8);
        gfx_poly(r, p, 16, PAL_SPEEDO_FACE);
    }
}

/* The arc from speed a to speed b (cw/s) at radius 0.86 rad in segments of
 * 1/36 of the scale, as one batch of quads. */
static void arc(SDL_Renderer *r, float cx, float cy, float rad, double a, double b, SDL_Color c)
{
    enum { SEGS = 36 };
    SDL_Vertex v[4 * SEGS];
    int idx[6 * SEGS], order[6 * SEGS], nv = 0, ni = 0;
    float w = fmaxf(2.0f, rad * 0.09f) / 2, r0 = rad * 0.86f - w, r1 = rad * 0.86f + w;
    for (int i = 0; i < SEGS; i++) {
        double s0 = DRIVEWIDGET_SPEEDO_MAX * i / SEGS, s1 = DRIVEWIDGET_SPEEDO_MAX * (i + 1) / SEGS;
        if (s1 <= a + 1e-9 || s0 >= b - 1e-9)
            continue;
        double a0 = drivewidget_speedo_angle(fmax(s0, a)), a1 = drivewidget_speedo_angle(fmin(s1, b));
        SDL_FPoint q[4] = {polar(cx, cy, r0, a0), polar(cx, cy, r1, a0), polar(cx, cy, r1, a1), polar(cx, cy, r0, a1)};
        static const int quad[6] = {0, 1, 2, 0, 2, 3};
        for (int k = 0; k < 6; k++)
            idx[ni++] = nv + quad[k];
        for (int k = 0; k < 4; k++)
            v[nv++] = (SDL_Vertex){.position = q[k], .color = c};
    }
    app_draw_quads(r, v, nv, idx, ni, order);
}

static bool overlaps(const SDL_FRect *a, const SDL_FRect *b)
{
    return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

/* The box of number k on the dial: its centre on the radius at 0.47, or
 * nearer the centre when that keeps its box inside the ticks' ring (0.62):
 * the small dials of 3-4 players' screens (a radius of 36-44 px). */
static SDL_FRect number_box(AppState *v, float cx, float cy, float rad, int k)
{
    char t[16];
    int tw, th;
    snprintf(t, sizeof t, "%d", k);
    gfx_text_size(&v->gfx, GFX_SMALL, t, &tw, &th);
    double a = drivewidget_speedo_angle(k);
    /* how far the box reaches out along its radius, a pixel kept clear */
    float reach = (float)(fabs(cos(a)) * tw / 2 + fabs(sin(a)) * th / 2) + 1.0f;
    SDL_FPoint p = polar(cx, cy, fminf(rad * 0.47f, rad * 0.62f - reach), a);
    return (SDL_FRect){p.x - (float)tw / 2, p.y - (float)th / 2, (float)tw, (float)th};
}

/* Which numbers the scale shows: every 10 cw/s, else every 20, when two
 * neighbours' boxes keep apart (a pixel of touching allowed, as the text
 * audit does), each box clear of the hub and above the read-out (its top
 * at 0.2 rad below the centre); 0: none. */
static int number_step(AppState *v, float cx, float cy, float rad)
{
    float hub = fmaxf(2.5f, rad * 0.07f) + 1.0f;
    for (int every = 10; every <= 20; every += 10) {
        bool fits = true;
        for (int k = every; k < (int)DRIVEWIDGET_SPEEDO_MAX && fits; k += every) {
            SDL_FRect a = number_box(v, cx, cy, rad, k);
            SDL_FRect core = {cx - hub, cy - hub, 2 * hub, 2 * hub};
            fits = a.y + a.h <= cy + rad * 0.2f + 1.0f && !overlaps(&a, &core) && a.w > 0;
            if (fits && k + every < (int)DRIVEWIDGET_SPEEDO_MAX) {
                SDL_FRect b = number_box(v, cx, cy, rad, k + every);
                SDL_FRect ai = {a.x + 1, a.y + 1, a.w - 2, a.h - 2};
                fits = !overlaps(&ai, &b);
            }
        }
        if (fits)
            return every;
    }
    return 0;
}

/* The still parts (face, unlit arc, ticks, numbers, the top speed's mark)
 * of a dial of radius rad centred at cx, cy on the current target. */
static void dial_draw(AppState *v, float cx, float cy, float rad, double top)
{
    face(v->r, cx, cy, rad);
    arc(v->r, cx, cy, rad, 0.0, DRIVEWIDGET_SPEEDO_MAX, PAL_PANEL);
    int every = number_step(v, cx, cy, rad);
    for (int k = 0; k <= (int)DRIVEWIDGET_SPEEDO_MAX; k += 5) {
        double a = drivewidget_speedo_angle(k);
        bool major = k % 10 == 0;
        SDL_FPoint p0 = polar(cx, cy, rad * (major ? 0.62f : 0.68f), a), p1 = polar(cx, cy, rad * 0.76f, a);
        gfx_thick_line(v->r, p0.x, p0.y, p1.x, p1.y, fmaxf(1.0f, rad * (major ? 0.04f : 0.025f)), PAL_SPEEDO_SCALE);
        if (every > 0 && k % every == 0 && k > 0 && k < (int)DRIVEWIDGET_SPEEDO_MAX) { /* the bottom is the read-out's */
            SDL_FRect b = number_box(v, cx, cy, rad, k);
            gfx_text(&v->gfx, GFX_SMALL, (int)(b.x + b.w / 2), (int)b.y, GFX_CENTER, PAL_DIM, "%d", k);
        }
    }
    if (top > 0) { /* the top speed on a straight */
        double a = drivewidget_speedo_angle(top);
        SDL_FPoint p0 = polar(cx, cy, rad * 0.78f, a), p1 = polar(cx, cy, rad * 0.95f, a);
        gfx_thick_line(v->r, p0.x, p0.y, p1.x, p1.y, fmaxf(1.0f, rad * 0.03f), PAL_FG);
    }
}

/* The dial drawn into a texture of side px, kept in the AppState until the
 * size changes: the dial costs a copy a frame, not its polygons. NULL
 * without render targets, and while the text audit runs (gfx.h: its boxes
 * are the window's, so the dial is drawn straight into the frame then). */
static SDL_Texture *dial_texture(AppState *v, int px, double top)
{
    if (v->gfx.audit)
        return NULL;
    if (v->dial_tex && v->dial_tex_px == px)
        return v->dial_tex;
    if (v->dial_tex)
        SDL_DestroyTexture(v->dial_tex);
    v->dial_tex_px = px;
    v->dial_tex = SDL_CreateTexture(v->r, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_TARGET, px, px);
    SDL_Texture *old = SDL_GetRenderTarget(v->r);
    if (!v->dial_tex || SDL_SetRenderTarget(v->r, v->dial_tex) != 0) {
        if (v->dial_tex)
            SDL_DestroyTexture(v->dial_tex);
        v->dial_tex = NULL;
        return NULL;
    }
    SDL_SetTextureBlendMode(v->dial_tex, SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(v->r, 0, 0, 0, 0);
    SDL_RenderClear(v->r);
    SDL_SetRenderDrawBlendMode(v->r, SDL_BLENDMODE_NONE); /* the face's alpha goes into the texture as it is */
    dial_draw(v, (float)px / 2, (float)px / 2, (float)px / 2, top);
    SDL_SetRenderTarget(v->r, old);
    return v->dial_tex;
}

float drivewidget_speedo_radius(AppState *v, float w, float h)
{
    float side = fminf(w, h);
    if (side < 120)
        return 0;
    v->speedo_searches++;
    float rad = floorf(fminf(fmaxf(side * 0.13f, 36.0f), 120.0f)), pad = floorf((float)v->lay.base * 0.5f);
    /* A small dial grows until its scale carries 10, 20 and 30 (the 2 x 2
     * cells at 1280x720 and 1920x1080 showed only 20), as far as the rect
     * keeps DRIVEWIDGET_SPEEDO_CLEAR_LINES lines and two gaps above it (the
     * HUD strip and a message box): at larger text scales it stays small. */
    float l = (float)gfx_line_h(&v->gfx, GFX_NORMAL);
    float most = floorf((h - pad - (float)DRIVEWIDGET_SPEEDO_CLEAR_LINES * l - 2 * pad) / 2);
    if (l > 0 && rad < most && number_step(v, rad, rad, rad) != 10) {
        float lo = rad, hi = fminf(most, 120.0f); /* numbers every 10 fit at hi, not at lo */
        if (number_step(v, hi, hi, hi) == 10) {
            while (hi - lo > 1) {
                float mid = floorf((lo + hi) / 2);
                if (number_step(v, mid, mid, mid) == 10)
                    hi = mid;
                else
                    lo = mid;
            }
            rad = hi;
        }
    }
    return rad;
}

bool drivewidget_speedo_rect(AppState *v, const SDL_FRect *rect, SDL_FRect *box)
{
    if (fminf(rect->w, rect->h) < 120)
        return false;
    /* the radius depends on the rect's size, the layout's base (the pad)
     * and the text's size (the numbers' boxes, the lines kept clear): kept
     * per key, worked out on a miss (each screen asks up to four times a
     * frame: its lights, arrows, fade and dial) */
    int n = (int)(sizeof v->speedo_fit / sizeof v->speedo_fit[0]), k = 0;
    while (k < n && !(v->speedo_fit[k].w == rect->w && v->speedo_fit[k].h == rect->h &&
                      v->speedo_fit[k].base == v->lay.base && v->speedo_fit[k].font_px == v->gfx.base_px))
        k++;
    if (k == n) {
        k = v->speedo_fit_next;
        v->speedo_fit_next = (k + 1) % n;
        v->speedo_fit[k].w = rect->w;
        v->speedo_fit[k].h = rect->h;
        v->speedo_fit[k].base = v->lay.base;
        v->speedo_fit[k].font_px = v->gfx.base_px;
        v->speedo_fit[k].rad = drivewidget_speedo_radius(v, rect->w, rect->h);
    }
    float rad = v->speedo_fit[k].rad, pad = floorf((float)v->lay.base * 0.5f);
    *box = (SDL_FRect){rect->x + pad, rect->y + rect->h - pad - 2 * rad, 2 * rad, 2 * rad};
    return true;
}

void drivewidget_speedo(AppState *v, const SDL_FRect *rect, double speed, double top, double opacity)
{
    SDL_FRect box;
    if (!drivewidget_speedo_rect(v, rect, &box))
        return;
    float rad = box.w / 2, cx = box.x + rad, cy = box.y + rad;
    SDL_Texture *dial = dial_texture(v, (int)box.w, top);
    if (dial) {
        opacity = opacity < 0 ? 0 : opacity > 1 ? 1 : opacity;
        SDL_SetTextureAlphaMod(dial, (Uint8)(255 * opacity));
        SDL_Rect dst = {(int)box.x, (int)box.y, (int)box.w, (int)box.h};
        SDL_RenderCopy(v->r, dial, NULL, &dst);
    } else {
        SDL_SetRenderDrawBlendMode(v->r, SDL_BLENDMODE_BLEND);
        dial_draw(v, cx, cy, rad, top);
        SDL_SetRenderDrawBlendMode(v->r, SDL_BLENDMODE_NONE);
    }
    if (fabs(speed) > 0.05)
        arc(v->r, cx, cy, rad, 0.0, fmin(fabs(speed), DRIVEWIDGET_SPEEDO_MAX), PAL_ACCENT);
    SDL_FPoint tip = polar(cx, cy, rad * 0.8f, drivewidget_speedo_angle(speed));
    gfx_thick_line(v->r, cx, cy, tip.x, tip.y, fmaxf(2.0f, rad * 0.05f), PAL_FG);
    gfx_disc(v->r, cx, cy, fmaxf(2.5f, rad * 0.07f), PAL_FG);
    /* the read-out in the dial's open bottom */
    int whole = (int)lround(fabs(speed));
    int lb = gfx_line_h(&v->gfx, GFX_BIG), ls = gfx_line_h(&v->gfx, GFX_SMALL);
    float ty = cy + rad * 0.2f;
    if (speed < -0.5)
        gfx_text(&v->gfx, GFX_BIG, (int)cx, (int)ty, GFX_CENTER, PAL_FG, "R %d", whole);
    else
        gfx_text(&v->gfx, GFX_BIG, (int)cx, (int)ty, GFX_CENTER, PAL_FG, "%d", whole);
    if (ty + (float)(lb + ls) < cy + rad * 1.02f)
        gfx_text(&v->gfx, GFX_SMALL, (int)cx, (int)ty + lb, GFX_CENTER, PAL_DIM, "cw/s");
}

bool drivewidget_arrow_place(const AppXform *x, const SDL_FRect *inset, float px, float py, float *ax, float *ay,
                             double *dir)
{
    if (px >= inset->x && px <= inset->x + inset->w && py >= inset->y && py <= inset->y + inset->h)
        return false;
    float dx = px - x->cx, dy = py - x->cy;
    if (fabsf(dx) < 1e-6f && fabsf(dy) < 1e-6f)
        return false;
    /* how far along (dx, dy) from the centre the line leaves inset */
    float t = INFINITY;
    if (dx > 0)
        t = fminf(t, (inset->x + inset->w - x->cx) / dx);
    if (dx < 0)
        t = fminf(t, (inset->x - x->cx) / dx);
    if (dy > 0)
        t = fminf(t, (inset->y + inset->h - x->cy) / dy);
    if (dy < 0)
        t = fminf(t, (inset->y - x->cy) / dy);
    t = fmaxf(0.0f, t);
    *ax = x->cx + dx * t;
    *ay = x->cy + dy * t;
    *dir = atan2(dy, dx);
    return true;
}

/* The label's place near (bx, by), inside inset, clear of the taken
 * rectangles: tried there, then stepped along the edge; w = 0 when no
 * step is clear (the label is left out). */
static SDL_FRect label_place(const SDL_FRect *inset, float bx, float by, float tw, float th, bool across,
                             const SDL_FRect *taken, int ntaken)
{
    SDL_FRect r = {0, 0, tw + 6, th + 2};
    for (int k = 0; k < 9; k++) {
        float step = (float)((k + 1) / 2) * (k % 2 ? 1.0f : -1.0f), dx = 0, dy = step * (th + 6);
        if (across) /* a top or bottom edge: step sideways by a label's width */
            dx = step * (tw + 10), dy = 0;
        r.x = fmaxf(inset->x, fminf(bx - tw / 2 + dx, inset->x + inset->w - tw)) - 3;
        r.y = fmaxf(inset->y, fminf(by - th / 2 + dy, inset->y + inset->h - th)) - 1;
        bool clear = true;
        for (int i = 0; i < ntaken && clear; i++)
            clear = !overlaps(&r, &taken[i]);
        if (clear)
            return r;
    }
    r.w = r.h = 0; /* no clear place: the arrow alone, its label left out (never over another) */
    return r;
}

/* The arrow's triangle with its tip at (ax, ay) pointing along (c, s). */
static void arrow_tri(float ax, float ay, float c, float s, float size, SDL_FPoint tri[3])
{
    tri[0] = (SDL_FPoint){ax, ay};
    tri[1] = (SDL_FPoint){ax - c * size * 1.6f - s * size * 0.8f, ay - s * size * 1.6f + c * size * 0.8f};
    tri[2] = (SDL_FPoint){ax - c * size * 1.6f + s * size * 0.8f, ay - s * size * 1.6f - c * size * 0.8f};
}

/* The triangle's box with its 2.5 px rim and a little more. */
static SDL_FRect tri_box(const SDL_FPoint tri[3])
{
    float x0 = fminf(tri[0].x, fminf(tri[1].x, tri[2].x)) - 3, x1 = fmaxf(tri[0].x, fmaxf(tri[1].x, tri[2].x)) + 3;
    float y0 = fminf(tri[0].y, fminf(tri[1].y, tri[2].y)) - 3, y1 = fmaxf(tri[0].y, fmaxf(tri[1].y, tri[2].y)) + 3;
    return (SDL_FRect){x0, y0, x1 - x0, y1 - y0};
}

static bool tri_meets_any(const SDL_FPoint tri[3], const SDL_FRect *r, int n)
{
    SDL_FRect b = tri_box(tri);
    for (int i = 0; i < n; i++)
        if (r[i].w > 0 && overlaps(&b, &r[i]))
            return true;
    return false;
}

/* The tip on the border, the base inside; over one of the n rectangles
 * keep (the speedometer, the minimap, a message box, earlier arrows and
 * labels) it is pulled back along its line towards the view's centre to
 * the first place clear of all of them; false when there is none. */
static bool arrow_pull_back(const AppXform *x, const SDL_FRect *keep, int n, float size, float c, float s, float *ax,
                            float *ay, SDL_FPoint tri[3])
{
    arrow_tri(*ax, *ay, c, s, size, tri);
    float len = hypotf(*ax - x->cx, *ay - x->cy);
    for (float back = 2.0f; tri_meets_any(tri, keep, n) && back < len; back += 2.0f) {
        SDL_FPoint t[3];
        arrow_tri(*ax - c * back, *ay - s * back, c, s, size, t);
        if (!tri_meets_any(t, keep, n)) {
            *ax -= c * back;
            *ay -= s * back;
            memcpy(tri, t, sizeof t);
        }
    }
    return !tri_meets_any(tri, keep, n);
}

bool drivewidget_arrow(AppState *v, const AppXform *x, const SDL_FRect *inset, int nlabel_only, const Pose *pose,
                       int car, const char *label, SDL_FRect *taken, int *ntaken, int max_taken)
{
    float px, py, ax, ay;
    double dir;
    app_world_to_px(x, pose->x, pose->y, &px, &py);
    if (!drivewidget_arrow_place(x, inset, px, py, &ax, &ay, &dir))
        return false;
    float size = fmaxf(9.0f, (float)v->lay.base * 1.1f), c = (float)cos(dir), s = (float)sin(dir);
    /* the label's steps go along the edge the arrow sits on (across on the
     * top or the bottom edge, up and down on a side), a pulled-back arrow's
     * too: read before the pull-back moves it off the edge */
    bool across = fminf(fabsf(ay - inset->y), fabsf(ay - inset->y - inset->h)) < 1.0f;
    SDL_FPoint tri[3];
    int nkeep = *ntaken - nlabel_only;
    if (!arrow_pull_back(x, taken + nlabel_only, nkeep > 0 ? nkeep : 0, size, c, s, &ax, &ay, tri))
        return false; /* no clear place on its line (a crowded 2 x 2 cell): left out, never over a widget */
    SDL_FPoint out[3];
    for (int i = 0; i < 3; i++) { /* a dark rim, 2 px */
        float mx = (tri[0].x + tri[1].x + tri[2].x) / 3, my = (tri[0].y + tri[1].y + tri[2].y) / 3;
        float ex = tri[i].x - mx, ey = tri[i].y - my, el = sqrtf(ex * ex + ey * ey);
        out[i].x = tri[i].x + (el > 0 ? ex / el * 2.5f : 0);
        out[i].y = tri[i].y + (el > 0 ? ey / el * 2.5f : 0);
    }
    gfx_poly(v->r, out, 3, gfx_rgb(10, 10, 12));
    gfx_poly(v->r, tri, 3, pal_car(car));
    if (*ntaken < max_taken) /* later arrows and every label keep off it, its own too */
        taken[(*ntaken)++] = tri_box(tri);
    if (!label || !label[0])
        return true;
    int tw, th;
    gfx_text_size(&v->gfx, GFX_SMALL, label, &tw, &th);
    /* the label's centre behind the arrow's base, as far as its box
     * reaches along the arrow's line (the box's half extents projected) */
    float back = size * 1.6f + 6 + fabsf(c) * ((float)tw / 2 + 3) + fabsf(s) * ((float)th / 2 + 1);
    SDL_FRect r = label_place(inset, ax - c * back, ay - s * back, (float)tw, (float)th, across, taken, *ntaken);
    if (r.w <= 0)
        return true;
    if (*ntaken < max_taken)
        taken[(*ntaken)++] = r;
    SDL_SetRenderDrawBlendMode(v->r, SDL_BLENDMODE_BLEND);
    gfx_fill(v->r, r.x, r.y, r.w, r.h, PAL_SPEEDO_FACE);
    SDL_SetRenderDrawBlendMode(v->r, SDL_BLENDMODE_NONE);
    gfx_text(&v->gfx, GFX_SMALL, (int)(r.x + 3), (int)(r.y + 1), GFX_LEFT, pal_car(car), "%s", label);
    return true;
}

void drivewidget_flash(SDL_Renderer *r, const SDL_FRect *rect, double level)
{
    if (!(level > 0.01))
        return;
    level = level > 1 ? 1 : level;
    float t = fminf(rect->w, rect->h) * 0.035f * (float)level + 2.0f;
    SDL_Color c = gfx_rgba(255, 236, 170, (Uint8)(70 + 150 * level));
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    gfx_fill(r, rect->x, rect->y, rect->w, t, c);
    gfx_fill(r, rect->x, rect->y + rect->h - t, rect->w, t, c);
    gfx_fill(r, rect->x, rect->y + t, t, rect->h - 2 * t, c);
    gfx_fill(r, rect->x + rect->w - t, rect->y + t, t, rect->h - 2 * t, c);
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
}

void drivewidget_sparks(AppState *v, const AppXform *x, const DriveSpark *sparks, int n)
{
    for (int i = 0; i < n; i++) {
        const DriveSpark *s = &sparks[i];
        if (s->age_s >= DRIVEWIDGET_SPARK_LIFE_S)
            continue;
        float x0, y0, x1, y1;
        app_world_to_px(x, s->x, s->y, &x0, &y0);
        app_world_to_px(x, s->x - s->vx * 0.03, s->y - s->vy * 0.03, &x1, &y1); /* a 30 ms streak */
        double fade = 1.0 - s->age_s / DRIVEWIDGET_SPARK_LIFE_S;
        SDL_Color c = gfx_rgb(255, (Uint8)(200 + 55 * fade), (Uint8)(90 + 140 * fade));
        gfx_thick_line(v->r, x0, y0, x1, y1, fmaxf(1.5f, x->scale * 0.12f), c);
    }
}
