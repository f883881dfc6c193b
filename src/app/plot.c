/* Line-chart panels (axes, round ticks, units, legend) for the window's
 * strip charts and the batch commands' PNG figures. */
#include "app_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Colour-blind-safe palette without the two car colours (orange-red, sky blue). */
static const uint32_t palette[] = {
    0x00B07A, /* green */
    0xD050C8, /* magenta */
    0xE0B020, /* gold */
    0x9070F0, /* violet */
    0x909090, /* grey */
    0x70D040, /* lime */
    0xB07840, /* brown */
    0x20C0C0, /* teal */
    0x4068E8, /* royal blue (pink looked like the magenta of series 1) */
    0xB8B860, /* olive */
    0xFFA8D8, /* light pink (lavender looked like the violet of series 3) */
    0xD02050, /* crimson (moss looked like the lime of series 5) */
};

/* Series past the sixth are dashed: twelve hues alone are at the limit of
 * what reads apart on a projector. On and off lengths in pixels, over the
 * curve's length, so a dense curve (a point per column) dashes too. */
#define PLOT_DASH_ON 9.0f
#define PLOT_DASH_OFF 5.0f
#define PLOT_SOLID_SERIES 6

bool plot_series_dashed(int i)
{
    return i >= PLOT_SOLID_SERIES;
}

/* One segment of a curve: solid, or the dashed pieces of it that fall on
 * the "on" part of the pattern, *phase carrying the length already drawn.
 * fast: w one-pixel lines a pixel apart (the window), else a thick line. */
static void curve_segment(SDL_Renderer *r, bool fast, bool dashed, float x0, float y0, float x1, float y1, float w,
                          SDL_Color c, float *phase)
{
    float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
    float t = 0;
    while (t < len || (len == 0 && t == 0)) {
        float pos = fmodf(*phase, PLOT_DASH_ON + PLOT_DASH_OFF);
        bool on = !dashed || pos < PLOT_DASH_ON;
        float piece = !dashed ? len : on ? PLOT_DASH_ON - pos : PLOT_DASH_ON + PLOT_DASH_OFF - pos;
        if (piece > len - t)
            piece = len - t;
        if (on) {
            float ax = len > 0 ? x0 + dx * t / len : x0, ay = len > 0 ? y0 + dy * t / len : y0;
            float bx = len > 0 ? x0 + dx * (t + piece) / len : x1, by = len > 0 ? y0 + dy * (t + piece) / len : y1;
            if (fast) {
                SDL_SetRenderDrawColor(r, c.r, c.g, c.b, 255);
                for (int o = 0; o < (int)w; o++)
                    SDL_RenderDrawLineF(r, ax, ay + (float)o, bx, by + (float)o);
            } else {
                gfx_thick_line(r, ax, ay, bx, by, w, c);
            }
        }
        if (len == 0)
            break;
        t += piece;
        *phase += piece;
    }
}

uint32_t plot_series_colour(int i)
{
    int n = (int)(sizeof palette / sizeof palette[0]);
    return palette[((i % n) + n) % n];
}

static SDL_Color col(uint32_t rgb)
{
    return gfx_rgb((Uint8)(rgb >> 16), (Uint8)(rgb >> 8), (Uint8)rgb);
}

PlotTheme plot_theme_dark(void)
{
    PlotTheme t = {0x181A1E, 0xE0E0E0, 0x34383E, 0x9098A0, true};
    return t;
}

PlotTheme plot_theme_light(void)
{
    PlotTheme t = {0xFFFFFF, 0x101010, 0xE2E2E2, 0x404040, false};
    return t;
}

/* Round tick step for a range: 1, 2 or 5 times a power of ten. */
static double nice_step(double range, int nticks)
{
    if (!(range > 0))
        return 1.0;
    double raw = range / nticks;
    double p = pow(10.0, floor(log10(raw)));
    double f = raw / p;
    double m = f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10;
    return m * p;
}

double plot_tick_step(double range, double pixels, double min_gap_px)
{
    int most = min_gap_px > 0 ? (int)(pixels / min_gap_px) : 1;
    if (most < 1)
        most = 1;
    double step = nice_step(range, most);
    while (range / step > most + 1e-9) /* nice_step may round the step down */
        step *= 2;
    return step;
}

static void data_range(const PlotPanel *p, bool xaxis, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int s = 0; s < p->nseries; s++) {
        const PlotSeries *se = &p->series[s];
        for (int i = 0; i < se->n; i++) {
            double v = xaxis ? se->x[i] : se->y[i];
            double other = xaxis ? se->y[i] : se->x[i];
            if (!isfinite(v) || !isfinite(other))
                continue;
            *lo = fmin(*lo, v);
            *hi = fmax(*hi, v);
            if (!xaxis && se->lo && se->hi && isfinite(se->lo[i]) && isfinite(se->hi[i])) {
                *lo = fmin(*lo, se->lo[i]);
                *hi = fmax(*hi, se->hi[i]);
            }
        }
    }
    if (!isfinite(*lo)) {
        *lo = 0;
        *hi = 1;
    }
    if (p->zero_line && !xaxis) {
        *lo = fmin(*lo, 0);
        *hi = fmax(*hi, 0);
    }
    if (*hi - *lo < 1e-12) {
        if (fabs(*lo) < 1e-12 && !xaxis) { /* all zero: show 0..1 above the axis */
            *hi = 1.0;
            return;
        }
        double d = fabs(*lo) > 1e-12 ? fabs(*lo) * 0.1 : 1.0;
        *lo -= d;
        *hi += d;
    }
}

/* The y coordinate a value is drawn at: v itself, or on a symmetric log
 * scale with linear threshold c: sign(v) log10(1 + |v| / c). */
static double sym_t(double c, double v)
{
    return c > 0 ? copysign(log10(1.0 + fabs(v) / c), v) : v;
}

/* The i-th tick of a symmetric log axis over [lo, hi]: 0, then +-10^k from
 * the first power of ten at or above c; false past the last. */
static bool sym_tick(double c, double lo, double hi, int i, double *v)
{
    if (i == 0) {
        *v = 0;
        return lo <= 0 && hi >= 0;
    }
    double d = pow(10.0, ceil(log10(c) - 1e-9) + (double)((i - 1) / 2));
    *v = (i % 2) ? d : -d;
    return d <= fmax(fabs(lo), fabs(hi)) * 1.0001;
}

static void fmt_tick(char *buf, size_t n, double v, double step)
{
    if (fabs(v) < step * 1e-6)
        v = 0;
    int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
    if (dec > 6)
        dec = 6;
    snprintf(buf, n, "%.*f", dec, v);
}

/* Legend entries laid out in rows under the plot: the number of rows for
 * width w, and (when draw) the entries themselves from y. */
static int legend_rows(Gfx *g, const PlotPanel *p, float x, float y, float w, bool draw, float thick, SDL_Color fg)
{
    int lh = gfx_line_h(g, GFX_SMALL);
    if (lh <= 0 || p->nseries <= 0)
        return 0;
    float cx = x, sw = (float)lh * 1.4f, gap = (float)lh * 0.9f;
    int rows = 1;
    for (int s = 0; s < p->nseries; s++) {
        const char *label = p->series[s].label ? p->series[s].label : "";
        int tw, th;
        gfx_text_size(g, GFX_SMALL, label, &tw, &th);
        float iw = sw + (float)lh * 0.3f + (float)tw;
        if (cx > x && cx + iw > x + w) {
            rows++;
            cx = x;
        }
        if (draw) {
            float ry = y + (float)(lh * (rows - 1));
            float phase = 0, sy = ry + (float)lh / 2;
            curve_segment(g->r, false, plot_series_dashed(s), cx, sy, cx + sw, sy, thick, col(plot_series_colour(s)),
                          &phase);
            gfx_text(g, GFX_SMALL, (int)(cx + sw + (float)lh * 0.3f), (int)ry, GFX_LEFT, fg, "%s", label);
        }
        cx += iw + gap;
    }
    return rows;
}

void plot_draw_panel(Gfx *g, SDL_FRect a, const PlotPanel *p, const PlotTheme *th)
{
    SDL_Renderer *r = g->r;
    int lh = gfx_line_h(g, GFX_SMALL);
    int fs = g->base_px ? g->base_px : 12;
    SDL_Color fg = col(th->fg), grid = col(th->grid), axis = col(th->axis);
    SDL_Rect panel = {(int)a.x, (int)a.y, (int)a.w, (int)a.h};
    SDL_RenderSetClipRect(r, &panel);

    double x0, x1, y0, y1;
    if (p->fixed_x) {
        x0 = p->xmin;
        x1 = p->xmax;
    } else {
        data_range(p, true, &x0, &x1);
    }
    if (p->fixed_y) {
        y0 = p->ymin;
        y1 = p->ymax;
    } else {
        data_range(p, false, &y0, &y1);
    }
    if (!(x1 > x0))
        x1 = x0 + 1;
    if (!(y1 > y0))
        y1 = y0 + 1;
    double xs = nice_step(x1 - x0, a.w > 500 ? 8 : 5);
    double ys = nice_step(y1 - y0, a.h > 300 ? 6 : 4);
    /* data ranges end on round ticks */
    if (!p->fixed_x) {
        x0 = floor(x0 / xs + 1e-9) * xs;
        x1 = ceil(x1 / xs - 1e-9) * xs;
    }
    double sl = p->symlog > 0 ? p->symlog : 0;
    if (!p->fixed_y && sl == 0) {
        y0 = floor(y0 / ys + 1e-9) * ys;
        y1 = ceil(y1 / ys - 1e-9) * ys;
    }

    /* Tick label widths decide the left margin. */
    char buf[64];
    int ylw = 0;
    for (double v = ceil(y0 / ys - 1e-9) * ys; sl == 0 && v <= y1 + ys * 1e-9; v += ys) {
        int w, h;
        fmt_tick(buf, sizeof buf, v, ys);
        gfx_text_size(g, GFX_SMALL, buf, &w, &h);
        if (w > ylw)
            ylw = w;
    }
    double tv;
    for (int i = 0; sl > 0 && i < 40; i++) {
        if (!sym_tick(sl, y0, y1, i, &tv)) {
            if (i > 0 && i % 2 == 0)
                break;
            continue;
        }
        int w, h;
        snprintf(buf, sizeof buf, "%g", tv);
        gfx_text_size(g, GFX_SMALL, buf, &w, &h);
        if (w > ylw)
            ylw = w;
    }
    /* a symmetric log axis spans its data, with a twentieth to spare */
    double Y0 = sym_t(sl, y0), Y1 = sym_t(sl, y1);
    if (sl > 0 && !p->fixed_y) {
        double m = (Y1 - Y0) * 0.05;
        Y0 -= m;
        Y1 += m;
    }
    float pad = (float)fs * 0.4f, flh = (float)lh;
    float thick = fs >= 20 ? 3.0f : 2.0f;
    float left = a.x + pad + (float)ylw + pad;
    float right = a.x + a.w - pad - flh * 0.6f; /* room for the last x tick label */
    /* the y label has a line of its own, the top tick label half a line below it */
    float top = a.y + pad / 2 + (p->title ? flh * 1.1f : 0) + (p->ylabel ? flh * 1.6f : flh * 0.5f);
    int lrows = legend_rows(g, p, left, 0, right - left, false, thick, fg);
    float bottom = a.y + a.h - flh * (1.1f + (p->xlabel ? 1.0f : 0.0f) + (float)lrows) - pad / 2;
    if (lrows > 0 && bottom - top < flh * 4) { /* a short panel keeps its curves, not the legend */
        bottom += flh * (float)lrows;
        lrows = 0;
    }
    if (right - left < 20 || bottom - top < 20) {
        SDL_RenderSetClipRect(r, NULL);
        return;
    }
    float pw = right - left, ph = bottom - top;
    /* A short panel gets fewer y ticks: labels at least 1.4 lines apart. */
    double ys_fit = plot_tick_step(y1 - y0, ph, flh * 1.4);
    if (ys_fit > ys && sl == 0) {
        ys = ys_fit;
        if (!p->fixed_y) {
            y0 = floor(y0 / ys + 1e-9) * ys;
            y1 = ceil(y1 / ys - 1e-9) * ys;
            /* the axis spans the widened range: a top tick drawn above the
             * panel went through the title */
            Y0 = y0;
            Y1 = y1;
        }
    }
#define PX(v) (left + (float)(((v) - x0) / (x1 - x0)) * pw)
#define PY(v) (bottom - (float)((sym_t(sl, (v)) - Y0) / (Y1 - Y0)) * ph)

    float ty = a.y + pad / 2;
    if (p->title) {
        gfx_text(g, GFX_SMALL, (int)(left + pw / 2), (int)ty, GFX_CENTER, fg, "%s", p->title);
        ty += flh * 1.1f;
    }
    if (p->ylabel) /* horizontal, above the y axis: no rotated text needed */
        gfx_text(g, GFX_SMALL, (int)(a.x + pad), (int)ty, GFX_LEFT, fg, "%s", p->ylabel);
    /* grid and ticks */
    for (double v = ceil(y0 / ys - 1e-9) * ys; sl == 0 && v <= y1 + ys * 1e-9; v += ys) {
        float y = PY(v);
        gfx_fill(r, left, y, pw, 1, grid);
        fmt_tick(buf, sizeof buf, v, ys);
        gfx_text(g, GFX_SMALL, (int)(left - pad), (int)(y - flh / 2), GFX_RIGHT, fg, "%s", buf);
    }
    /* symmetric log: decades, each label at least 1.4 lines from the last
     * one drawn on its side of zero */
    float last_y[2] = {-1e9f, -1e9f};
    for (int i = 0; sl > 0 && i < 40; i++) {
        if (!sym_tick(sl, y0, y1, i, &tv)) {
            if (i > 0 && i % 2 == 0)
                break;
            continue;
        }
        float y = PY(tv);
        int side = tv < 0;
        if (y < top - 1 || y > bottom + 1 || fabsf(y - last_y[side]) < flh * 1.4f ||
            (i > 0 && fabsf(y - PY(0.0)) < flh * 1.4f && y0 <= 0 && y1 >= 0))
            continue;
        last_y[side] = y;
        gfx_fill(r, left, y, pw, 1, grid);
        snprintf(buf, sizeof buf, "%g", tv);
        gfx_text(g, GFX_SMALL, (int)(left - pad), (int)(y - flh / 2), GFX_RIGHT, fg, "%s", buf);
    }
    for (double v = ceil(x0 / xs - 1e-9) * xs; v <= x1 + xs * 1e-9; v += xs) {
        float x = PX(v);
        gfx_fill(r, x, top, 1, ph, grid);
        gfx_fill(r, x, bottom, 1, pad, axis);
        fmt_tick(buf, sizeof buf, v, xs);
        gfx_text(g, GFX_SMALL, (int)x, (int)bottom + 1, GFX_CENTER, fg, "%s", buf);
    }
    if (p->zero_line && y0 < 0 && y1 > 0)
        gfx_fill(r, left, PY(0.0), pw, 1, axis);
    gfx_fill(r, left, top, 1, ph, axis);
    gfx_fill(r, left, bottom, pw, 1, axis);
    float by = bottom + flh * 1.05f;
    if (p->xlabel) {
        gfx_text(g, GFX_SMALL, (int)(left + pw / 2), (int)by, GFX_CENTER, fg, "%s", p->xlabel);
        by += flh;
    }
    if (lrows > 0)
        legend_rows(g, p, left, by, pw, true, thick, fg);

    /* curves, clipped to the plot area */
    SDL_Rect clip = {(int)left, (int)top, (int)pw + 1, (int)ph + 1};
    SDL_RenderSetClipRect(r, &clip);
    for (int s = 0; s < p->nseries; s++) {
        const PlotSeries *se = &p->series[s];
        SDL_Color c = col(plot_series_colour(s));
        float w = (p->highlight == s + 1) ? thick * 2 : thick;
        bool dashed = plot_series_dashed(s);
        if (th->fast_lines && !dashed) {
            /* polyline runs of up to 256 points, drawn w times one pixel apart */
            SDL_FPoint run[256];
            int m = 0;
            SDL_SetRenderDrawColor(r, c.r, c.g, c.b, 255);
            for (int i = 0; i <= se->n; i++) {
                bool ok = i < se->n && isfinite(se->x[i]) && isfinite(se->y[i]);
                if (ok) {
                    run[m].x = PX(se->x[i]);
                    run[m].y = PY(se->y[i]);
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
                        run[0].y = PY(se->y[i]);
                        m = 1;
                    } else {
                        m = 0;
                    }
                }
            }
            continue;
        }
        if (se->lo && se->hi && !th->fast_lines) {
            /* the spread: error bars with caps at marked points, else a band */
            SDL_Color band = c;
            band.a = 64;
            SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
            for (int i = 0; i < se->n; i++) {
                bool ok = isfinite(se->x[i]) && isfinite(se->lo[i]) && isfinite(se->hi[i]);
                if (ok && se->markers) {
                    float qx = PX(se->x[i]), y0p = PY(se->lo[i]), y1p = PY(se->hi[i]);
                    gfx_fill(r, qx - w / 2, y1p, w, y0p - y1p + 1, c);
                    gfx_fill(r, qx - w * 2.5f, y1p - w / 2, w * 5, w, c);
                    gfx_fill(r, qx - w * 2.5f, y0p - w / 2, w * 5, w, c);
                } else if (ok && !se->markers && i + 1 < se->n && isfinite(se->x[i + 1]) &&
                           isfinite(se->lo[i + 1]) && isfinite(se->hi[i + 1])) {
                    float ax = PX(se->x[i]), bx = PX(se->x[i + 1]);
                    SDL_Vertex v[4] = {
                        {{ax, PY(se->hi[i])}, band, {0, 0}}, {{bx, PY(se->hi[i + 1])}, band, {0, 0}},
                        {{bx, PY(se->lo[i + 1])}, band, {0, 0}}, {{ax, PY(se->lo[i])}, band, {0, 0}},
                    };
                    static const int quad[6] = {0, 1, 2, 0, 2, 3};
                    SDL_RenderGeometry(r, NULL, v, 4, quad, 6);
                }
            }
            SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
        }
        bool have = false;
        float px = 0, py = 0, phase = 0;
        for (int i = 0; i < se->n; i++) {
            if (!isfinite(se->x[i]) || !isfinite(se->y[i])) {
                have = false;
                continue;
            }
            float qx = PX(se->x[i]), qy = PY(se->y[i]);
            if (have)
                curve_segment(r, th->fast_lines, dashed, px, py, qx, qy, w, c, &phase);
            if (se->markers && !th->fast_lines)
                gfx_disc(r, qx, qy, w * 1.3f, c);
            px = qx;
            py = qy;
            have = true;
        }
    }
    SDL_RenderSetClipRect(r, NULL);
#undef PX
#undef PY
}

bool plot_path_ok(const char *path, NrError *err)
{
    size_t n = strlen(path);
    const char *ext = n >= 4 ? path + n - 4 : "";
    if (n > 4 && (ext[0] == '.') && (ext[1] | 0x20) == 'p' && (ext[2] | 0x20) == 'n' && (ext[3] | 0x20) == 'g')
        return true;
    return nr_error_set(err, "%s: plots are written as PNG only: name the file .png", path);
}

int plot_write_png(const PlotFigure *fig, const char *path, NrError *err)
{
    int W = fig->width ? fig->width : 1200, H = fig->height ? fig->height : 800;
    if (W < 100 || H < 100 || W > 16384 || H > 16384) {
        nr_error_set(err, "%s: plot size %dx%d out of range (100..16384)", path, W, H);
        return 1;
    }
    if (fig->npanels < 1 || fig->npanels > PLOT_MAX_PANELS || !fig->panels) {
        nr_error_set(err, "%s: a plot needs 1..%d panels", path, PLOT_MAX_PANELS);
        return 1;
    }
    for (int i = 0; i < fig->npanels; i++)
        if (fig->panels[i].nseries < 0 || fig->panels[i].nseries > PLOT_MAX_SERIES) {
            nr_error_set(err, "%s: panel %d has %d series (0..%d)", path, i + 1,
                         fig->panels[i].nseries, PLOT_MAX_SERIES);
            return 1;
        }
    GfxOffscreen o;
    if (!gfx_offscreen_open(&o, W, H, path, err))
        return 1;
    SDL_Renderer *r = o.r;
    Gfx *g = SDL_calloc(1, sizeof *g);
    int rc = 1;
    if (!g) {
        nr_error_set(err, "%s: out of memory", path);
        goto done;
    }
    char font[512];
    gfx_pick_font(fig->font_path, font, sizeof font);
    gfx_init(g, r, font[0] ? font : NULL);
    int cols = fig->cols > 0 ? fig->cols : fig->npanels;
    int rows = (fig->npanels + cols - 1) / cols;
    {
        /* text scaled to one panel: about 16 lines high, 40 characters wide */
        int pw0 = W / cols, ph0 = H / rows;
        int base = ph0 / 16 < pw0 / 40 ? ph0 / 16 : pw0 / 40;
        gfx_set_scale(g, base < 10 ? 10 : base > 22 ? 22 : base);
    }
    PlotTheme th = plot_theme_light();
    SDL_Color bg = col(th.bg);
    SDL_SetRenderDrawColor(r, bg.r, bg.g, bg.b, 255);
    SDL_RenderClear(r);
    float top = 0;
    if (fig->title) {
        int tf = GFX_BIG, tw = 0, tlh = 0;
        for (; tf > GFX_SMALL; tf--) {
            gfx_text_size(g, tf, fig->title, &tw, &tlh);
            if (tw < W - 16)
                break;
        }
        int lh = gfx_line_h(g, tf);
        gfx_text(g, tf, W / 2, lh / 4, GFX_CENTER, col(th.fg), "%s", fig->title);
        top = (float)lh * 1.3f;
    }
    float pw = (float)W / (float)cols, ph = ((float)H - top) / (float)rows;
    for (int i = 0; i < fig->npanels; i++) {
        SDL_FRect a = {pw * (float)(i % cols) + 4, top + ph * (float)(i / cols) + 4, pw - 8, ph - 8};
        plot_draw_panel(g, a, &fig->panels[i], &th);
    }
    SDL_RenderPresent(r);
    rc = gfx_save_png(r, W, H, path, err) ? 0 : 1;
done:
    if (g) {
        gfx_free(g);
        SDL_free(g);
    }
    gfx_offscreen_close(&o);
    return rc;
}
