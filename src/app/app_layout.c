/* The window's layout: where the views, gauges, charts, status line and
controls go at any window size down to 1024x576 (docs/window.md). */
#include "app_paint.h"

#include <string.h>

/* ---- layout ------------------------------------------------------------ */

/* Focus: the two views large, the gauges beside, the charts below. */
static void layout_focus(AppState *s, float pad, float fw, float mid_top, float mid_bot)
{
    AppLayout *L = &s->lay;
    /* a quarter of the height, more for larger text: a chart's title, two
     * y ticks 1.4 lines apart and its x axis's two lines (issue 22) */
    float mh = mid_bot - mid_top, ch = floorf(fmaxf(mh * 0.25f, fminf(lh(s, GFX_SMALL) * 6.6f, mh * 0.4f)));
    float cy = mid_bot - ch;
    L->chart[0] = frect(pad, cy, fw / 2 - 1.5f * pad, ch - pad / 2);
    L->chart[1] = frect(fw / 2 + pad / 2, cy, fw / 2 - 1.5f * pad, ch - pad / 2);
    L->main = frect(0, mid_top, fw, cy - mid_top);
    int k = s->focus;
    float gw = floorf(fw * 0.28f);
    float top = L->main.y + lh(s, GFX_BIG) * 1.1f;
    float vh = L->main.h - (top - L->main.y) - pad;
    float vw = (fw - gw - 4 * pad) / 2;
    L->label[k] = frect(pad, L->main.y, fw - 2 * pad, top - L->main.y);
    L->view[k][0] = frect(pad, top, vw, vh);
    L->view[k][1] = frect(2 * pad + vw, top, vw, vh);
    L->gauge[k] = frect(3 * pad + 2 * vw, top, fw - (3 * pad + 2 * vw) - pad, vh);
    L->row[k] = L->main;
    L->cols = 1;
    L->rows = 1;
}

void app_layout_charts_right(AppState *s, float pad, float fw, float mid_top, float mid_bot)
{
    AppLayout *L = &s->lay;
    float chw = floorf(fw * 0.30f), mh = mid_bot - mid_top;
    L->chart[0] = frect(fw - chw, mid_top + pad / 2, chw - pad, mh / 2 - pad);
    L->chart[1] = frect(fw - chw, mid_top + mh / 2 + pad / 2, chw - pad, mh / 2 - pad);
    L->main = frect(0, mid_top, fw - chw, mh);
}

/* Overview: one row per scheme (views, then gauges headed by the scheme's
 * name), two columns past six; the two charts stacked on the right. */
static void layout_overview(AppState *s, float pad, float fw, float mid_top, float mid_bot)
{
    AppLayout *L = &s->lay;
    int n = s->data.n;
    double aspect = (s->bx1 - s->bx0) / (s->by1 - s->by0);
    app_layout_charts_right(s, pad, fw, mid_top, mid_bot);
    int cols = n > 6 ? 2 : 1;
    int rows = n > 0 ? (n + cols - 1) / cols : 1;
    L->cols = cols;
    L->rows = rows;
    float cw = L->main.w / (float)cols, rh = L->main.h / (float)rows;
    for (int k = 0; k < n; k++) {
        float x = cw * (float)(k / rows), y = L->main.y + rh * (float)(k % rows);
        float gmin = cw * 0.34f;
        float vh = rh - pad;
        float vw = (cw - gmin - 4 * pad) / 2;
        if (!s->follow[0] && vw > vh * (float)aspect * 1.1f)
            vw = vh * (float)aspect * 1.1f;
        L->row[k] = frect(x, y, cw, rh);
        L->view[k][0] = frect(x + pad, y + pad / 2, vw, vh);
        L->view[k][1] = frect(x + 2 * pad + vw, y + pad / 2, vw, vh);
        float gx = x + 3 * pad + 2 * vw;
        L->gauge[k] = frect(gx, y + pad / 2, x + cw - gx, vh);
        L->label[k] = frect(gx, y + pad / 2, x + cw - gx, lh(s, GFX_NORMAL));
    }
}

/* The control bar: value controls (label above, [-] value [+] below) and
 * the button row. */
static void layout_controls(AppState *s, float fw, float ls)
{
    AppLayout *L = &s->lay;
    float weight[CTL_NVALUES], wsum = 0, cx0 = 0;
    /* a race's fixed links have no controls (app_links_fixed); T_dr's value
     * has a digit more than the others' ("0.25"): a little wider, so that
     * it stays between its - and + under its label at larger text */
    for (int c = 0; c < CTL_NVALUES; c++)
        wsum += weight[c] = app_links_fixed(s) && c <= CTL_DIST ? 0.0f
                            : c == CTL_DIST                  ? 1.6f
                            : c == CTL_SPEED                 ? 0.85f
                            : c == CTL_TDR                   ? 1.15f
                                                             : 1.0f;
    for (int c = 0; c < CTL_NVALUES; c++) {
        float cwid = fw * weight[c] / wsum;
        if (cwid <= 0)
            continue; /* no rectangle: not drawn, not clickable */
        SDL_FRect b = frect(cx0 + 2, L->ctl_row[0].y + 2, cwid - 4, L->ctl_row[0].h - 4);
        cx0 += cwid;
        L->ctl[c] = b;
        float bs = ls * 1.0f;
        L->minus[c] = frect(b.x + 2, b.y + b.h - bs - 2, bs * 1.2f, bs);
        L->plus[c] = frect(b.x + b.w - bs * 1.2f - 2, b.y + b.h - bs - 2, bs * 1.2f, bs);
    }
    int nb = CTL_COUNT - CTL_NVALUES;
    float bw = fw / (float)nb;
    for (int c = CTL_NVALUES; c < CTL_COUNT; c++) {
        int i = c - CTL_NVALUES;
        L->ctl[c] = frect(bw * (float)i + 2, L->ctl_row[1].y + 2, bw - 4, L->ctl_row[1].h - 4);
    }
}

void app_layout(AppState *s, int w, int h)
{
    AppLayout *L = &s->lay;
    memset(L, 0, sizeof *L);
    L->w = w;
    L->h = h;
    int base = gfx_base_px(w, h, s->scale);
    L->base = base;
    gfx_set_scale(&s->gfx, base);
    float pad = (float)base * 0.4f;
    float ln = lh(s, GFX_NORMAL), ls = lh(s, GFX_SMALL);
    float fw = (float)w, fh = (float)h;

    L->top = frect(0, 0, fw, ln * 1.4f);
    /* value controls: the label line, 2 px, then the -/value/+ line */
    float ctl1 = ls * 1.5f, ctl0 = ls * 2.15f + 10;
    if (!s->e) /* a network race: no live controls, only the status line */
        ctl1 = ctl0 = 0;
    L->ctl_row[1] = frect(0, fh - ctl1, fw, ctl1);
    L->ctl_row[0] = frect(0, fh - ctl1 - ctl0, fw, ctl0);
    L->status = frect(0, L->ctl_row[0].y - ls * 1.3f, fw, ls * 1.3f);
    float mid_top = L->top.h, mid_bot = L->status.y;
    if (racedata_cars(&s->data) > 2)
        app_layout_nrace(s, pad, fw, mid_top, mid_bot);
    else if (s->focus >= 0)
        layout_focus(s, pad, fw, mid_top, mid_bot);
    else
        layout_overview(s, pad, fw, mid_top, mid_bot);
    layout_controls(s, fw, ls);
}
