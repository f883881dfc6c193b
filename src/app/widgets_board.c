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

static int text_w(Gfx *g, int font, const char *s)
{
    int tw = 0, th = 0;
    gfx_text_size(g, font, s, &tw, &th);
    return tw;
}

/* One arrangement of the box: a font, blocks in ncol columns. */
typedef struct BoardFit {
    int font, ncol, rows;
    float l, pad, gap, colw[RACEFLOW_VIEWS], inner, bw, bh;
} BoardFit;

/* The box in font with ncol columns; true when it fits w x h as it is. */
static bool board_layout(Gfx *g, int font, int ncol, BoardBlock *b, int nviews, int ncars,
                         const char *const *heads, float w, float h, BoardFit *f)
{
    f->font = font;
    f->ncol = ncol;
    f->l = (float)gfx_line_h(g, font);
    f->pad = f->l;
    f->gap = 2 * f->l;
    float sum = f->gap * (float)(ncol - 1), wide = 0;
    for (int c = 0; c < ncol; c++)
        f->colw[c] = 0;
    for (int v = 0; v < nviews; v++) {
        b[v].w = 0;
        for (int i = 0; i < b[v].n; i++) {
            int tw = text_w(g, font, b[v].line[i]);
            b[v].w = tw > b[v].w ? tw : b[v].w;
        }
        f->colw[v % ncol] = (float)b[v].w > f->colw[v % ncol] ? (float)b[v].w : f->colw[v % ncol];
    }
    for (int c = 0; c < ncol; c++)
        sum += f->colw[c];
    for (int i = 0; i < 3; i++) {
        float tw = (float)text_w(g, font, heads[i]);
        wide = tw > wide ? tw : wide;
    }
    f->inner = wide > sum ? wide : sum;
    f->rows = (nviews + ncol - 1) / ncol;
    f->bw = f->inner + 2 * f->pad;
    f->bh = 2 * f->pad + f->l * 3.0f + (float)f->rows * (f->l * (float)(1 + ncars) + f->l * 0.5f);
    return f->bw <= w && f->bh <= h;
}

/* The normal font, else the small one, in two columns (P1 | P2, ...),
 * else three, else one; when none fits, the small font with a tighter
 * margin and the columns the height needs, each line shortened to its
 * column from its end (the last lap times go first). */
static void board_fit(Gfx *g, BoardBlock *b, int nviews, int ncars, const char *const *heads, int w, int h,
                      BoardFit *f)
{
    static const int cols[3] = {2, 3, 1};
    for (int font = GFX_NORMAL; font >= GFX_SMALL; font--)
        for (int i = 0; i < 3; i++)
            if (cols[i] <= nviews && board_layout(g, font, cols[i], b, nviews, ncars, heads, (float)w, (float)h, f))
                return;
    int ncol = 1;
    while (ncol < 3 && ncol < nviews &&
           !(board_layout(g, GFX_SMALL, ncol, b, nviews, ncars, heads, (float)w, (float)h, f), f->bh <= (float)h))
        ncol++;
    board_layout(g, GFX_SMALL, ncol, b, nviews, ncars, heads, (float)w, (float)h, f);
    f->pad = f->l * 0.5f;
    f->gap = f->l;
    float room = (float)w - 2 * f->pad, sum = f->gap * (float)(ncol - 1);
    for (int c = 0; c < ncol; c++)
        sum += f->colw[c];
    if (sum > room)
        for (int c = 0; c < ncol; c++)
            f->colw[c] = (room - f->gap * (float)(ncol - 1)) / (float)ncol;
    f->inner = f->inner < room ? f->inner : room;
    f->bw = f->inner + 2 * f->pad;
    f->bh -= f->l; /* the tighter margin */
}

/* text in at most max_w: whole, else without its last words, else with
 * its middle left out. */
static void board_text(Gfx *g, int font, float x, float y, float max_w, SDL_Color c, const char *text)
{
    char out[BOARD_LINE];
    snprintf(out, sizeof out, "%s", text);
    size_t n = strlen(out);
    while ((float)text_w(g, font, out) > max_w && n > 0) {
        while (n > 0 && out[n - 1] != ' ')
            n--;
        while (n > 0 && out[n - 1] == ' ')
            n--;
        out[n] = '\0';
    }
    if (n == 0)
        gfx_ellipsize(g, font, max_w, text, out, sizeof out);
    if (out[0])
        gfx_text(g, font, (int)x, (int)y, GFX_LEFT, c, "%s", out);
}

void widget_results_board(Gfx *g, int w, int h, const RaceFlow *rf, const char *title, const int *views,
                          const char *const *labels, int nviews, const char *footer)
{
    BoardBlock b[RACEFLOW_VIEWS];
    nviews = nviews > RACEFLOW_VIEWS ? RACEFLOW_VIEWS : nviews;
    for (int v = 0; v < nviews; v++) {
        snprintf(b[v].line[0], BOARD_LINE, "%s", labels[v]);
        widget_result_lines(rf, views[v], &b[v].line[1]);
        b[v].n = 1 + rf->cfg.ncars;
    }
    char status[BOARD_LINE];
    bool differ = agreement(rf, views, nviews, status, sizeof status);
    const char *heads[3] = {title, status, footer};
    BoardFit f;
    board_fit(g, b, nviews, rf->cfg.ncars, heads, w, h, &f);
    float l = f.l, block_h = l * (float)(1 + rf->cfg.ncars);
    float bh = f.bh < (float)h ? f.bh : (float)h;
    float x = ((float)w - f.bw) / 2, y = ((float)h - bh) / 2;
    widget_panel(g->r, x, y, f.bw, bh, differ ? PAL_WARN : PAL_ACCENT);
    gfx_audit_cover(g, x, y, f.bw, bh);
    gfx_room_push(g, x, y, f.bw, bh);
    board_text(g, f.font, x + f.pad, y + f.pad, f.inner, PAL_ACCENT, title);
    float ty = y + f.pad + l * 1.5f, bottom = y + bh - f.pad - 2 * l; /* the last two lines' top */
    for (int v = 0; v < nviews; v++) {
        float bx = x + f.pad;
        for (int c = 0; c < v % f.ncol; c++)
            bx += f.colw[c] + f.gap;
        float by = ty + (float)(v / f.ncol) * (block_h + l * 0.5f);
        for (int i = 0; i < b[v].n && by + l * (float)(i + 1) <= bottom; i++)
            board_text(g, f.font, bx, by + l * (float)i, f.colw[v % f.ncol], i == 0 ? PAL_DIM : PAL_FG, b[v].line[i]);
    }
    board_text(g, f.font, x + f.pad, bottom, f.inner, differ ? PAL_WARN : PAL_FG, status);
    board_text(g, f.font, x + f.pad, bottom + l, f.inner, PAL_FG, footer);
    gfx_room_pop(g);
}
