/* The results box of a race of more than two cars (widgets.h,
 * widget_results_board): one block per view (its label, then the finishing
 * order with finish and lap times), two blocks a row when the window is
 * wide enough, and a line naming the screens whose order is not the
 * truth's. */
#include "widgets.h"

#include <stdio.h>
#include <string.h>

#define BOARD_LINE 160

typedef struct BoardBlock {
    int n;                                   /* lines: the label, then a car each */
    char line[1 + RACEFLOW_CARS][BOARD_LINE];
    int w;                                   /* widest line (px) */
} BoardBlock;

/* The agreement line: the terminals among themselves, then against the
 * truth (the screens whose order differs from it, as "P2, P4"). */
static bool agreement(const RaceFlow *rf, const int *views, int nviews, char *buf, size_t n)
{
    char who[64] = "";
    size_t used = 0;
    for (int v = 0; v < nviews; v++)
        if (views[v] != RACEFLOW_TRUTH && !raceflow_same_order(rf, views[v], RACEFLOW_TRUTH)) {
            int m = snprintf(who + used, sizeof who - used, "%sP%d", used ? ", " : "", views[v] + 1);
            if (m > 0 && (size_t)m < sizeof who - used)
                used += (size_t)m;
        }
    bool differ = raceflow_orders_differ(rf);
    if (differ)
        snprintf(buf, n, "THE SCREENS DISAGREE on the finishing order: %s not the truth's", who);
    else if (used)
        snprintf(buf, n, "every screen shows the same order, not the truth's");
    else
        snprintf(buf, n, "every screen agrees on the order");
    return differ;
}

static int text_w(Gfx *g, const char *s)
{
    int tw = 0, th = 0;
    gfx_text_size(g, GFX_NORMAL, s, &tw, &th);
    return tw;
}

void widget_results_board(Gfx *g, int w, int h, const RaceFlow *rf, const char *title, const int *views,
                          const char *const *labels, int nviews, const char *footer)
{
    BoardBlock b[RACEFLOW_VIEWS];
    nviews = nviews > RACEFLOW_VIEWS ? RACEFLOW_VIEWS : nviews;
    int colw[2] = {0, 0};
    for (int v = 0; v < nviews; v++) {
        snprintf(b[v].line[0], BOARD_LINE, "%s", labels[v]);
        widget_result_lines(rf, views[v], &b[v].line[1]);
        b[v].n = 1 + rf->cfg.ncars;
        b[v].w = 0;
        for (int i = 0; i < b[v].n; i++) {
            int tw = text_w(g, b[v].line[i]);
            b[v].w = tw > b[v].w ? tw : b[v].w;
        }
    }
    char status[BOARD_LINE];
    bool differ = agreement(rf, views, nviews, status, sizeof status);
    float l = (float)gfx_line_h(g, GFX_NORMAL), pad = l, gap = 2 * l;
    int wide = 0;
    for (int v = 0; v < nviews; v++)
        colw[v % 2] = b[v].w > colw[v % 2] ? b[v].w : colw[v % 2];
    int head = text_w(g, title), st = text_w(g, status), ft = text_w(g, footer);
    wide = head > st ? head : st;
    wide = ft > wide ? ft : wide;
    /* two blocks a row when they fit the window, else one column */
    int ncol = (float)(colw[0] + colw[1]) + gap + 2 * pad <= (float)w ? 2 : 1;
    float cw0 = ncol == 2 ? (float)colw[0] : (float)(colw[0] > colw[1] ? colw[0] : colw[1]);
    float inner = ncol == 2 ? (float)(colw[0] + colw[1]) + gap : cw0;
    inner = (float)wide > inner ? (float)wide : inner;
    int rows = (nviews + ncol - 1) / ncol;
    float block_h = l * (float)(1 + rf->cfg.ncars);
    float bw = inner + 2 * pad, bh = 2 * pad + l * 3.0f + (float)rows * block_h + (float)rows * l * 0.5f;
    float x = ((float)w - bw) / 2, y = ((float)h - bh) / 2;
    widget_panel(g->r, x, y, bw, bh, differ ? PAL_WARN : PAL_ACCENT);
    float ty = y + pad;
    gfx_text(g, GFX_NORMAL, (int)(x + pad), (int)ty, GFX_LEFT, PAL_ACCENT, "%s", title);
    ty += l * 1.5f;
    for (int v = 0; v < nviews; v++) {
        float bx = x + pad + (ncol == 2 && v % 2 ? (float)colw[0] + gap : 0.0f);
        float by = ty + (float)(v / ncol) * (block_h + l * 0.5f);
        for (int i = 0; i < b[v].n; i++)
            gfx_text(g, GFX_NORMAL, (int)bx, (int)(by + l * (float)i), GFX_LEFT, i == 0 ? PAL_DIM : PAL_FG, "%s",
                     b[v].line[i]);
    }
    ty += (float)rows * (block_h + l * 0.5f);
    gfx_text(g, GFX_NORMAL, (int)(x + pad), (int)ty, GFX_LEFT, differ ? PAL_WARN : PAL_FG, "%s", status);
    gfx_text(g, GFX_NORMAL, (int)(x + pad), (int)(ty + l), GFX_LEFT, PAL_FG, "%s", footer);
}
