/* The window's strip charts (a PlotPanel drawn with SDL's renderer): axes
 * on round ticks, a symmetric log scale when asked, a light grid, one
 * polyline per series (dashed past the sixth), the legend. The layout is
 * plot_layout.c's, the same as the batch figures' (plot_cairo.c); the
 * window's panels carry their unit in the title, so no y label is drawn
 * here, and spreads and markers are the figures' only. */
#include "app_internal.h"
#include "plot_layout.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Dash on and off lengths in pixels, over the curve's length, so a dense
 * curve (a point per column) dashes too. */
#define PLOT_DASH_ON 9.0f
#define PLOT_DASH_OFF 5.0f

/* One segment of a curve, w one-pixel lines a pixel apart: solid, or the
 * dashed pieces of it on the "on" part of the pattern, *phase carrying the
 * length already drawn. */
static void curve_segment(SDL_Renderer *r, bool dashed, float x0, float y0, float x1, float y1, float w,
                          SDL_Color c, float *phase)
{
    float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
    float t = 0;
    SDL_SetRenderDrawColor(r, c.r, c.g, c.b, 255);
    while (t < len || (len == 0 && t == 0)) {
        float pos = fmodf(*phase, PLOT_DASH_ON + PLOT_DASH_OFF);
        bool on = !dashed || pos < PLOT_DASH_ON;
        float piece = !dashed ? len : on ? PLOT_DASH_ON - pos : PLOT_DASH_ON + PLOT_DASH_OFF - pos;
        if (piece > len - t)
            piece = len - t;
        if (on) {
            float ax = len > 0 ? x0 + dx * t / len : x0, ay = len > 0 ? y0 + dy * t / len : y0;
            float bx = len > 0 ? x0 + dx * (t + piece) / len : x1, by = len > 0 ? y0 + dy * (t + piece) / len : y1;
            for (int o = 0; o < (int)w; o++)
                SDL_RenderDrawLineF(r, ax, ay + (float)o, bx, by + (float)o);
        }
        if (len == 0)
            break;
        t += piece;
        *phase += piece;
    }
}

static int sdl_text_w(void *ctx, const char *s)
{
    int w = 0, h = 0;
    gfx_text_size((Gfx *)ctx, GFX_SMALL, s, &w, &h);
    return w;
}

static bool boxes_touch(const SDL_Rect *a, const SDL_Rect *b)
{
    SDL_Rect both;
    return a->w > 0 && b->w > 0 && SDL_IntersectRect(a, b, &both) && both.w > 1 && both.h > 1;
}

/* A y tick's label right of the axis, unless it would touch the first x
 * tick's label (the axis corner) or the last y label drawn (a panel too
 * short for two lines of labels): then it is left out. */
static void y_label(Gfx *g, const PlotAxes *A, SDL_Rect xfirst, SDL_Rect *last, float y, const char *text,
                    SDL_Color fg)
{
    int w, h;
    gfx_text_size(g, GFX_SMALL, text, &w, &h);
    SDL_Rect box = {(int)(A->left - A->pad) - w, (int)(y - A->flh / 2), w, h};
    if (boxes_touch(&box, &xfirst) || boxes_touch(&box, last))
        return;
    gfx_text(g, GFX_SMALL, (int)(A->left - A->pad), (int)(y - A->flh / 2), GFX_RIGHT, fg, "%s", text);
    *last = box;
}

/* Title, grid, ticks and their labels, axes, x label, legend. */
static void draw_axes(Gfx *g, const PlotMeasure *m, SDL_FRect a, const PlotPanel *p, const PlotAxes *A,
                      const PlotTheme *th)
{
    SDL_Renderer *r = g->r;
    SDL_Color fg = plot_rgb(th->fg), grid = plot_rgb(th->grid), axis = plot_rgb(th->axis);
    float pad = A->pad, flh = A->flh;
    char buf[64];
    double v, sv[PLOT_MAX_TICKS];
    if (p->title) { /* centred on the plot area, within the panel: shorter, or none */
        float cx = A->left + A->pw / 2, room = 2 * fminf(cx - a.x, a.x + a.w - cx) - pad;
        const char *titles[2] = {p->title, p->title_short};
        gfx_text_fit(g, GFX_SMALL, (int)cx, (int)(a.y + pad / 2), GFX_CENTER, fg, room, titles, 2);
    }
    /* the first x tick's label sits under the axis corner: a y tick label
     * that would touch it is left out */
    SDL_Rect xfirst = {0, 0, 0, 0}, last = {0, 0, 0, 0};
    if (plot_lin_tick(A, false, 0, &v)) {
        int xw, xh;
        plot_fmt_tick(buf, sizeof buf, v, A->xs);
        gfx_text_size(g, GFX_SMALL, buf, &xw, &xh);
        xfirst = (SDL_Rect){(int)plot_ax_px(A, v) - xw / 2, (int)A->bottom + 1, xw, xh};
    }
    for (int i = 0; plot_lin_tick(A, true, i, &v); i++) {
        float y = plot_ax_py(A, v);
        gfx_fill(r, A->left, y, A->pw, 1, grid);
        plot_fmt_tick(buf, sizeof buf, v, A->ys);
        y_label(g, A, xfirst, &last, y, buf, fg);
    }
    int ns = A->sl > 0 ? plot_symlog_ticks(A, sv, PLOT_MAX_TICKS) : 0;
    for (int i = 0; i < ns; i++) {
        float y = plot_ax_py(A, sv[i]);
        gfx_fill(r, A->left, y, A->pw, 1, grid);
        plot_fmt_symlog(buf, sizeof buf, sv[i]);
        y_label(g, A, xfirst, &last, y, buf, fg);
    }
    for (int i = 0; plot_lin_tick(A, false, i, &v); i++) {
        float x = plot_ax_px(A, v);
        gfx_fill(r, x, A->top, 1, A->ph, grid);
        gfx_fill(r, x, A->bottom, 1, pad, axis);
        plot_fmt_tick(buf, sizeof buf, v, A->xs);
        gfx_text(g, GFX_SMALL, (int)x, (int)A->bottom + 1, GFX_CENTER, fg, "%s", buf);
    }
    if (p->zero_line && A->y0 < 0 && A->y1 > 0)
        gfx_fill(r, A->left, plot_ax_py(A, 0.0), A->pw, 1, axis);
    gfx_fill(r, A->left, A->top, 1, A->ph, axis);
    gfx_fill(r, A->left, A->bottom, A->pw, 1, axis);
    float by = A->bottom + flh * 1.05f;
    if (A->xlabel) {
        gfx_text(g, GFX_SMALL, (int)(A->left + A->pw / 2), (int)by, GFX_CENTER, fg, "%s", p->xlabel);
        by += flh;
    }
    float ex[PLOT_MAX_SERIES];
    int er[PLOT_MAX_SERIES];
    int rows = A->lrows > 0 ? plot_legend_place(m, p, A->left, A->pw, ex, er) : 0;
    for (int s = 0; rows > 0 && s < p->nseries; s++) { /* every series (the loop stopped at the row count) */
        float ry = by + flh * (float)er[s], phase = 0, sw = flh * 1.4f;
        curve_segment(r, plot_series_dashed(s), ex[s], ry + flh / 2, ex[s] + sw, ry + flh / 2, A->thick,
                      plot_rgb(plot_series_colour(s)), &phase);
        gfx_text(g, GFX_SMALL, (int)(ex[s] + sw + flh * 0.3f), (int)ry, GFX_LEFT, fg, "%s",
                 p->series[s].label ? p->series[s].label : "");
    }
}

/* A solid curve: polyline runs of up to 256 points drawn w times one
 * pixel apart (cheap enough to redraw every chart column). */
static void fast_curve(SDL_Renderer *r, const PlotAxes *A, const PlotSeries *se, float w, SDL_Color c)
{
    SDL_FPoint run[256];
    int m = 0;
    SDL_SetRenderDrawColor(r, c.r, c.g, c.b, 255);
    for (int i = 0; i <= se->n; i++) {
        bool ok = i < se->n && isfinite(se->x[i]) && isfinite(se->y[i]);
        if (ok) {
            run[m].x = plot_ax_px(A, se->x[i]);
            run[m].y = plot_ax_py(A, se->y[i]);
            m++;
        }
        if (!ok || m == 256) {
            for (int o = 0; o < (int)w && m > 1; o++) {
                for (int q = 0; q < m; q++)
                    run[q].y += o == 0 ? 0.0f : 1.0f;
                SDL_RenderDrawLinesF(r, run, m);
            }
            if (m == 256) { /* continue the curve from the last point */
                run[0].x = run[m - 1].x;
                run[0].y = plot_ax_py(A, se->y[i]);
                m = 1;
            } else {
                m = 0;
            }
        }
    }
}

/* One series: a solid polyline, or dashed past the sixth. */
static void draw_series(SDL_Renderer *r, const PlotPanel *p, const PlotAxes *A, int s)
{
    const PlotSeries *se = &p->series[s];
    SDL_Color c = plot_rgb(plot_series_colour(s));
    float w = (p->highlight == s + 1) ? A->thick * 2 : A->thick;
    if (!plot_series_dashed(s)) {
        fast_curve(r, A, se, w, c);
        return;
    }
    bool have = false;
    float px = 0, py = 0, phase = 0;
    for (int i = 0; i < se->n; i++) {
        if (!isfinite(se->x[i]) || !isfinite(se->y[i])) {
            have = false;
            continue;
        }
        float qx = plot_ax_px(A, se->x[i]), qy = plot_ax_py(A, se->y[i]);
        if (have)
            curve_segment(r, true, px, py, qx, qy, w, c, &phase);
        px = qx;
        py = qy;
        have = true;
    }
}

void plot_draw_panel(Gfx *g, SDL_FRect a, const PlotPanel *p, const PlotTheme *th)
{
    SDL_Renderer *r = g->r;
    SDL_Rect panel = {(int)a.x, (int)a.y, (int)a.w, (int)a.h};
    SDL_RenderSetClipRect(r, &panel);
    gfx_room_push(g, a.x, a.y, a.w, a.h);
    PlotMeasure m = {sdl_text_w, g, (float)gfx_line_h(g, GFX_SMALL), g->base_px};
    PlotAxes A;
    memset(&A, 0, sizeof A);
    if (plot_axes_layout(&m, a.x, a.y, a.w, a.h, p, &A)) {
        draw_axes(g, &m, a, p, &A, th);
        /* curves, clipped to the plot area */
        SDL_Rect clip = {(int)A.left, (int)A.top, (int)A.pw + 1, (int)A.ph + 1};
        SDL_RenderSetClipRect(r, &clip);
        for (int i = 0; i < p->nmarks; i++) /* the marks, behind the curves */
            gfx_fill(r, plot_ax_px(&A, p->marks[i]) - 1, A.top, 2, A.ph, PAL_LAG_MARK);
        for (int s = 0; s < p->nseries; s++)
            draw_series(r, p, &A, s);
    }
    gfx_room_pop(g);
    SDL_RenderSetClipRect(r, NULL);
}
