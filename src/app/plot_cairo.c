/* The batch commands' figures (plot.h's PlotFigure) drawn with cairo into
 * a PNG, SVG or PDF by the file's extension, written through the one
 * atomic .part writer (nr_part.h). The layout is plot_layout.c's, the same
 * as the window's strip charts. Cairo: one drawing API for the three
 * formats, vector text in SVG and PDF, anti-aliased curves. */
#include "plot.h"
#include "plot_layout.h"

#include "nr_part.h"

#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* DejaVu Sans (fonts-dejavu-core, as the window's font) through fontconfig. */
#define PLOT_FONT "DejaVu Sans"

typedef enum { FMT_PNG, FMT_SVG, FMT_PDF, FMT_NONE } PlotFormat;

static PlotFormat format_of(const char *path)
{
    static const char *ext[3] = {".png", ".svg", ".pdf"};
    size_t n = strlen(path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (int f = 0; f < 3 && n > 4 && strlen(base) > 4; f++) {
        bool same = true;
        for (int i = 0; i < 4; i++)
            same = same && (path[n - 4 + i] | 0x20) == ext[f][i];
        if (same)
            return (PlotFormat)f;
    }
    return FMT_NONE;
}

bool plot_path_ok(const char *path, NrError *err)
{
    if (format_of(path) != FMT_NONE)
        return true;
    return nr_error_set(err, "%s: unknown plot format: name the file .png, .svg or .pdf", path);
}

static void set_rgb(cairo_t *cr, uint32_t rgb, double alpha)
{
    cairo_set_source_rgba(cr, (double)(rgb >> 16 & 255) / 255.0, (double)(rgb >> 8 & 255) / 255.0,
                          (double)(rgb & 255) / 255.0, alpha);
}

/* The length of the valid UTF-8 sequence at s (1..4), 0 when invalid
 * (overlong forms, surrogates and code points past U+10FFFF included). */
static int utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    int n = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    unsigned lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80, hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
    for (int i = 1; i < n; i++)
        if (s[i] < (i == 1 ? lo : 0x80) || s[i] > (i == 1 ? hi : 0xBF))
            return 0;
    return n;
}

/* s as cairo takes it: every byte of an invalid UTF-8 sequence (a file
 * name in Latin-1 in a title) becomes '?', else cairo refuses the figure. */
static const char *utf8_clean(const char *s, char *buf, size_t n)
{
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && o + 5 < n;) {
        int len = utf8_len(p);
        if (len == 0) {
            buf[o++] = '?';
            p++;
            continue;
        }
        for (int i = 0; i < len; i++)
            buf[o++] = (char)*p++;
    }
    buf[o] = 0;
    return buf;
}

static int cairo_text_w(void *ctx, const char *s)
{
    char buf[1024];
    cairo_text_extents_t te;
    cairo_text_extents((cairo_t *)ctx, utf8_clean(s, buf, sizeof buf), &te);
    return (int)ceil(te.x_advance);
}

/* Text with its top at y, anchored left (-1), centred (0) or right (1) on x. */
static void text_at(cairo_t *cr, double x, double y, int align, uint32_t rgb, const char *text)
{
    char buf[1024];
    const char *s = utf8_clean(text, buf, sizeof buf);
    cairo_font_extents_t fe;
    cairo_text_extents_t te;
    cairo_font_extents(cr, &fe);
    cairo_text_extents(cr, s, &te);
    double dx = align < 0 ? 0 : align == 0 ? -te.x_advance / 2 : -te.x_advance;
    set_rgb(cr, rgb, 1);
    cairo_move_to(cr, x + dx, y + fe.ascent);
    cairo_show_text(cr, s);
    cairo_new_path(cr);
}

/* text_at within avail units of length: a label longer than that is set
 * smaller, down to 0.8 of the font size, and past that cut after a whole
 * character with an ellipsis, never clipped by its panel. */
static void text_fit(cairo_t *cr, double x, double y, int align, uint32_t rgb, const char *text, double avail)
{
    char buf[1024];
    const char *s = utf8_clean(text, buf, sizeof buf);
    cairo_text_extents_t te;
    cairo_text_extents(cr, s, &te);
    if (!(avail > 0) || te.x_advance <= avail) {
        text_at(cr, x, y, align, rgb, s);
        return;
    }
    cairo_matrix_t fm;
    cairo_get_font_matrix(cr, &fm);
    double k = avail / te.x_advance;
    cairo_set_font_size(cr, fm.yy * (k > 0.8 ? k : 0.8));
    char cut[1024 + 4];
    size_t n = strlen(s);
    memcpy(cut, s, n + 1);
    cairo_text_extents(cr, cut, &te);
    while (te.x_advance > avail && n > 0) {
        do
            n--;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80); /* a whole UTF-8 character */
        memcpy(cut + n, "\u2026", 4);                         /* 3 bytes and the NUL */
        cairo_text_extents(cr, cut, &te);
    }
    text_at(cr, x, y, align, rgb, cut);
    cairo_set_font_matrix(cr, &fm);
}

/* A pixel-aligned filled rectangle (grid and axis lines stay crisp). */
static void rect(cairo_t *cr, double x, double y, double w, double h, uint32_t rgb)
{
    set_rgb(cr, rgb, 1);
    cairo_rectangle(cr, floor(x), floor(y), w < 1 ? 1 : floor(w), h < 1 ? 1 : floor(h));
    cairo_fill(cr);
}

static void line_style(cairo_t *cr, int s, double w)
{
    static const double dash[2] = {9.0, 5.0}; /* on, off (px), as the window's */
    cairo_set_line_width(cr, w);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_dash(cr, dash, plot_series_dashed(s) ? 2 : 0, 0);
    set_rgb(cr, plot_series_colour(s), 1);
}

/* Ticks and their labels, grid, axes. */
static void draw_ticks(cairo_t *cr, const PlotAxes *A, const PlotPanel *p, const PlotTheme *th)
{
    char buf[64];
    double v, sv[PLOT_MAX_TICKS];
    int ns = A->sl > 0 ? plot_symlog_ticks(A, sv, PLOT_MAX_TICKS) : 0;
    for (int i = 0; i < ns || plot_lin_tick(A, true, i, &v); i++) {
        if (A->sl > 0)
            plot_fmt_symlog(buf, sizeof buf, v = sv[i]);
        else
            plot_fmt_tick(buf, sizeof buf, v, A->ys);
        double y = plot_ax_py(A, v);
        rect(cr, A->left, y, A->pw, 1, th->grid);
        text_at(cr, A->left - A->pad, y - A->flh / 2, 1, th->fg, buf);
    }
    for (int i = 0; plot_lin_tick(A, false, i, &v); i++) {
        double x = plot_ax_px(A, v);
        rect(cr, x, A->top, 1, A->ph, th->grid);
        rect(cr, x, A->bottom, 1, A->pad, th->axis);
        plot_fmt_tick(buf, sizeof buf, v, A->xs);
        text_at(cr, x, A->bottom + 1, 0, th->fg, buf);
    }
    if (p->zero_line && A->y0 < 0 && A->y1 > 0)
        rect(cr, A->left, plot_ax_py(A, 0.0), A->pw, 1, th->axis);
    rect(cr, A->left, A->top, 1, A->ph, th->axis);
    rect(cr, A->left, A->bottom, A->pw, 1, th->axis);
}

/* Title, the y label rotated along the axis, ticks, x label, legend. */
static void draw_axes(cairo_t *cr, const PlotMeasure *m, double ax, double ay, double aw, const PlotPanel *p,
                      const PlotAxes *A, const PlotTheme *th)
{
    float flh = A->flh;
    if (p->title)
        text_fit(cr, A->left + A->pw / 2, ay + A->pad / 2, 0, th->fg, p->title,
                  2 * fmin(A->left + A->pw / 2 - ax, ax + aw - A->left - A->pw / 2));
    if (p->ylabel) {
        cairo_save(cr);
        cairo_translate(cr, ax + A->pad, A->top + A->ph / 2);
        cairo_rotate(cr, -NR_PI / 2); /* reads bottom to top */
        text_fit(cr, 0, 0, 0, th->fg, p->ylabel, A->ph + 2 * A->pad);
        cairo_restore(cr);
    }
    draw_ticks(cr, A, p, th);
    double by = A->bottom + flh * 1.05;
    if (A->xlabel) {
        text_at(cr, A->left + A->pw / 2, by, 0, th->fg, p->xlabel);
        by += flh;
    }
    float ex[PLOT_MAX_SERIES];
    int er[PLOT_MAX_SERIES];
    int rows = A->lrows > 0 ? plot_legend_place(m, p, A->left, A->pw, ex, er) : 0;
    for (int s = 0; rows > 0 && s < p->nseries; s++) {
        double ry = by + flh * er[s], sw = flh * 1.4;
        line_style(cr, s, A->thick);
        cairo_move_to(cr, ex[s], ry + flh / 2);
        cairo_line_to(cr, ex[s] + sw, ry + flh / 2);
        cairo_stroke(cr);
        text_at(cr, ex[s] + sw + flh * 0.3, ry, -1, th->fg, p->series[s].label ? p->series[s].label : "");
    }
}

/* The spread of a series: error bars with caps at marked points, else a
 * translucent band between consecutive finite points. */
static void spread(cairo_t *cr, const PlotAxes *A, const PlotSeries *se, uint32_t rgb, double w)
{
    for (int i = 0; i < se->n; i++) {
        bool ok = isfinite(se->x[i]) && isfinite(se->lo[i]) && isfinite(se->hi[i]);
        double qx = plot_ax_px(A, se->x[i]);
        if (ok && se->markers) {
            double y0 = plot_ax_py(A, se->lo[i]), y1 = plot_ax_py(A, se->hi[i]);
            set_rgb(cr, rgb, 1);
            cairo_set_dash(cr, NULL, 0, 0);
            cairo_set_line_width(cr, w * 0.75);
            cairo_move_to(cr, qx, y0);
            cairo_line_to(cr, qx, y1);
            cairo_move_to(cr, qx - w * 2.5, y0);
            cairo_line_to(cr, qx + w * 2.5, y0);
            cairo_move_to(cr, qx - w * 2.5, y1);
            cairo_line_to(cr, qx + w * 2.5, y1);
            cairo_stroke(cr);
        } else if (ok && i + 1 < se->n && isfinite(se->x[i + 1]) && isfinite(se->lo[i + 1]) &&
                   isfinite(se->hi[i + 1])) {
            double bx = plot_ax_px(A, se->x[i + 1]);
            set_rgb(cr, rgb, 0.25);
            cairo_move_to(cr, qx, plot_ax_py(A, se->hi[i]));
            cairo_line_to(cr, bx, plot_ax_py(A, se->hi[i + 1]));
            cairo_line_to(cr, bx, plot_ax_py(A, se->lo[i + 1]));
            cairo_line_to(cr, qx, plot_ax_py(A, se->lo[i]));
            cairo_close_path(cr);
            cairo_fill(cr);
        }
    }
}

/* One series: its spread, its curve (dashed past the sixth), its markers. */
static void draw_series(cairo_t *cr, const PlotPanel *p, const PlotAxes *A, int s)
{
    const PlotSeries *se = &p->series[s];
    double w = (p->highlight == s + 1) ? A->thick * 2 : A->thick;
    if (se->lo && se->hi)
        spread(cr, A, se, plot_series_colour(s), w);
    line_style(cr, s, w);
    bool have = false;
    for (int i = 0; i < se->n; i++) {
        bool ok = isfinite(se->x[i]) && isfinite(se->y[i]);
        if (ok && have)
            cairo_line_to(cr, plot_ax_px(A, se->x[i]), plot_ax_py(A, se->y[i]));
        else if (ok)
            cairo_move_to(cr, plot_ax_px(A, se->x[i]), plot_ax_py(A, se->y[i]));
        have = ok;
    }
    cairo_stroke(cr);
    for (int i = 0; se->markers && i < se->n; i++)
        if (isfinite(se->x[i]) && isfinite(se->y[i])) {
            cairo_arc(cr, plot_ax_px(A, se->x[i]), plot_ax_py(A, se->y[i]), w * 1.3, 0, 2 * NR_PI);
            cairo_fill(cr);
        }
}

/* Panel p in the box (x, y, w, h), its text fs px high. */
static void draw_panel(cairo_t *cr, double x, double y, double w, double h, double fs, const PlotPanel *p,
                       const PlotTheme *th)
{
    cairo_font_extents_t fe;
    cairo_set_font_size(cr, fs);
    cairo_font_extents(cr, &fe);
    PlotMeasure m = {cairo_text_w, cr, (float)ceil(fe.height), (int)lround(fs)};
    PlotAxes A;
    memset(&A, 0, sizeof A);
    cairo_save(cr);
    cairo_rectangle(cr, x, y, w, h);
    cairo_clip(cr);
    if (plot_axes_layout(&m, (float)x, (float)y, (float)w, (float)h, p, &A)) {
        draw_axes(cr, &m, x, y, w, p, &A, th);
        cairo_rectangle(cr, A.left, A.top, A.pw + 1, A.ph + 1);
        cairo_clip(cr);
        for (int s = 0; s < p->nseries; s++)
            draw_series(cr, p, &A, s);
    }
    cairo_restore(cr);
}

/* The figure: background, title (shrunk to fit the width), the panels in a
 * grid, text scaled to one panel: about 16 lines high, 40 characters wide. */
static void draw_figure(cairo_t *cr, const PlotFigure *fig, int W, int H)
{
    PlotTheme th = plot_theme_light();
    set_rgb(cr, th.bg, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, PLOT_FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    int cols = fig->cols > 0 ? fig->cols : fig->npanels;
    int rows = (fig->npanels + cols - 1) / cols;
    int base = H / rows / 16 < W / cols / 40 ? H / rows / 16 : W / cols / 40;
    base = base < 10 ? 10 : base > 22 ? 22 : base;
    double top = 0;
    if (fig->title) {
        double fs = base * 1.5; /* the window's big font */
        cairo_text_extents_t te;
        char buf[1024];
        const char *t = utf8_clean(fig->title, buf, sizeof buf);
        for (;; fs -= 1) {
            cairo_set_font_size(cr, fs);
            cairo_text_extents(cr, t, &te);
            if (te.x_advance < W - 16 || fs <= base)
                break;
        }
        cairo_font_extents_t fe;
        cairo_font_extents(cr, &fe);
        if (te.x_advance < W - 16) {
            text_at(cr, W / 2.0, fe.height / 4, 0, th.fg, t);
            top = fe.height * 1.3;
        } else { /* two lines, split at the " | " (else the space) nearest the middle */
            size_t n = strlen(t), cut = 0;
            for (int pass = 0; pass < 2 && cut == 0; pass++)
                for (size_t i = 1; i + 2 < n; i++)
                    if (pass ? t[i] == ' ' : (t[i] == '|' && t[i - 1] == ' ' && t[i + 1] == ' '))
                        if (cut == 0 || fabs((double)i - n / 2.0) < fabs((double)cut - n / 2.0))
                            cut = i;
            char first[1024];
            size_t k = cut > 0 && t[cut] == '|' ? cut - 1 : cut;
            memcpy(first, t, k);
            first[k] = 0;
            const char *second = cut > 0 ? t + cut + (t[cut] == '|' ? 2 : 1) : "";
            text_fit(cr, W / 2.0, fe.height / 4, 0, th.fg, first, W - 16);
            text_fit(cr, W / 2.0, fe.height * 1.25, 0, th.fg, second, W - 16);
            top = fe.height * 2.3;
        }
    }
    double pw = (double)W / cols, ph = ((double)H - top) / rows;
    for (int i = 0; i < fig->npanels; i++)
        draw_panel(cr, pw * (i % cols) + 4, top + ph * (i / cols) + 4, pw - 8, ph - 8, base * 0.8, &fig->panels[i],
                   &th);
}

static cairo_status_t part_write(void *closure, const unsigned char *data, unsigned int n)
{
    NrPartFile *pf = closure;
    return fwrite(data, 1, n, pf->f) == n ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static bool fig_ok(const PlotFigure *fig, int W, int H, const char *path, NrError *err)
{
    if (format_of(path) == FMT_NONE)
        return plot_path_ok(path, err);
    if (W < 100 || H < 100 || W > 16384 || H > 16384)
        return nr_error_set(err, "%s: plot size %dx%d out of range (100..16384)", path, W, H);
    if (fig->npanels < 1 || fig->npanels > PLOT_MAX_PANELS || !fig->panels)
        return nr_error_set(err, "%s: a plot needs 1..%d panels", path, PLOT_MAX_PANELS);
    for (int i = 0; i < fig->npanels; i++)
        if (fig->panels[i].nseries < 0 || fig->panels[i].nseries > PLOT_MAX_SERIES)
            return nr_error_set(err, "%s: panel %d has %d series (0..%d)", path, i + 1, fig->panels[i].nseries,
                                PLOT_MAX_SERIES);
    return true;
}

/* Draws fig on a surface of the file's format streaming into out->f. */
static cairo_status_t render(const PlotFigure *fig, int W, int H, PlotFormat f, NrPartFile *out)
{
    cairo_surface_t *s = f == FMT_SVG   ? cairo_svg_surface_create_for_stream(part_write, out, W, H)
                         : f == FMT_PDF ? cairo_pdf_surface_create_for_stream(part_write, out, W, H)
                                        : cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    char title[1024];
    if (f == FMT_PDF && fig->title) /* the document's title: what a paper's figure list shows */
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, utf8_clean(fig->title, title, sizeof title));
    cairo_t *cr = cairo_create(s);
    draw_figure(cr, fig, W, H);
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    if (st == CAIRO_STATUS_SUCCESS && f == FMT_PNG)
        st = cairo_surface_write_to_png_stream(s, part_write, out);
    cairo_surface_finish(s); /* SVG and PDF write their last bytes here */
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(s);
    cairo_surface_destroy(s);
    return st;
}

int plot_write(const PlotFigure *fig, const char *path, NrError *err)
{
    int W = fig->width ? fig->width : 1200, H = fig->height ? fig->height : 800;
    if (!fig_ok(fig, W, H, path, err))
        return 1;
    /* PATH.part (never replacing an existing one), renamed into place when
     * every write succeeded, like every netrace output (nr_part.h) */
    NrPartFile out;
    bool ok = true;
    if (nr_part_open(&out, path, NR_PART_REPLACE) != NR_PART_OK) {
        ok = nr_error_set(err, "%s: cannot write %s: %s%s", path, out.part, nr_part_reason(&out),
                          out.status == NR_PART_EXISTS ? " (left by a killed run?); remove it or choose another name" : "");
    } else {
        PlotFormat f = format_of(path);
        if (f != FMT_PNG) { /* a page of a paper's text width: see plot.h */
            int cols = fig->cols > 0 ? fig->cols : fig->npanels;
            int pw = cols * PLOT_PANEL_PT > PLOT_PAGE_PT ? cols * PLOT_PANEL_PT : PLOT_PAGE_PT;
            int rows = (fig->npanels + cols - 1) / cols;
            H = (int)((double)H * pw / W + 0.5);
            H = H > rows * PLOT_PANEL_PT * 3 / 4 + 30 ? H : rows * PLOT_PANEL_PT * 3 / 4 + 30;
            W = pw;
        }
        cairo_status_t st = render(fig, W, H, f, &out);
        if (st != CAIRO_STATUS_SUCCESS)
            ok = nr_error_set(err, "%s: cannot draw the plot: %s", path,
                              st == CAIRO_STATUS_WRITE_ERROR ? nr_part_reason(&out) : cairo_status_to_string(st));
        else if (nr_part_close(&out) == NR_PART_WRITE)
            ok = nr_error_set(err, "%s: cannot write the plot: %s", path, nr_part_reason(&out));
        else if (out.status != NR_PART_OK)
            ok = nr_error_set(err, "%s: cannot rename %s into place: %s", path, out.part, nr_part_reason(&out));
    }
    nr_part_abort(&out); /* removes the .part unless it was renamed */
    /* cairo's font caches and fontconfig's hold the font until exit: a
     * batch command draws one figure, and a leak checker must see none */
    cairo_debug_reset_static_data();
    FcFini();
    return ok ? 0 : 1;
}
