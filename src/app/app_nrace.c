/* The window of a race of more than two cars (issue 19; docs/window.md
 * "Races of N cars"): with a scheme focused, its N screens large with its
 * gauges (inconsistency, the pairwise rate, the fairness spread and each
 * player's disadvantage) above a compact grid of every scheme, each cell
 * giving its rates and the order of the cars on each terminal's screen;
 * the overview is that grid alone with each cell's N screens in small.
 * The strip charts stay on the right. Metrics as docs/nplayers.md defines
 * them (the racing paper's Section 2 measures extended to N cars). */
#include "app_paint.h"

#include <stdio.h>
#include <string.h>

/* ---- layout ------------------------------------------------------------- */

/* The column count that gives n views in w x h the largest short side. */
static int grid_cols(int n, float w, float h, float *side)
{
    int best = 1;
    *side = 0;
    for (int c = 1; c <= n; c++) {
        int rows = (n + c - 1) / c;
        float v = fminf(w / (float)c, h / (float)rows);
        if (v > *side + 0.5f) {
            *side = v;
            best = c;
        }
    }
    return best;
}

/* Scheme k's N screens in a grid filling area. */
static void layout_views(AppState *s, int k, SDL_FRect area, float pad)
{
    int nc = racedata_cars(&s->data);
    float side;
    int cols = grid_cols(nc, area.w, area.h, &side), rows = (nc + cols - 1) / cols;
    float vw = (area.w - pad * (float)(cols - 1)) / (float)cols, vh = (area.h - pad * (float)(rows - 1)) / (float)rows;
    for (int j = 0; j < nc; j++)
        s->lay.view[k][j] = frect(area.x + (vw + pad) * (float)(j % cols), area.y + (vh + pad) * (float)(j / cols), vw, vh);
}

/* A cell's header: the title line and the rates line. */
static float cell_header_h(const AppState *s)
{
    return lh(s, GFX_NORMAL) * 1.05f + lh(s, GFX_SMALL) * 1.1f;
}

/* One line of the order: "P8" and a chip per car, then "6 of 8". */
static float order_row_w(const AppState *s)
{
    float ls = lh(s, GFX_SMALL);
    return ls * 1.6f + (float)racedata_cars(&s->data) * ls * 1.25f + ls * 2.5f;
}

/* Every scheme's cell in area: as many columns as keep a cell wide enough
 * for a line of the order (or, with views, for useful screens); then what
 * fits below the header: the N screens (views) when they are at least four
 * lines high, else the orders, else nothing more (the header alone:
 * detail dropped, never cut). */
static void layout_cells(AppState *s, SDL_FRect area, bool views, float pad)
{
    AppLayout *L = &s->lay;
    int n = s->data.n, nc = racedata_cars(&s->data);
    float ls = lh(s, GFX_SMALL), head = cell_header_h(s), min_w = fmaxf(order_row_w(s), ls * 6.0f) + 2 * pad;
    int cols = 1;
    float best = -1;
    for (int c = 1; c <= n; c++) { /* the most room under the header, cells at least min_w wide */
        int rows = (n + c - 1) / c;
        float cw = area.w / (float)c, ch = area.h / (float)rows - head - pad;
        if (cw < min_w && c > 1)
            break;
        float side = ch;
        if (views)
            grid_cols(nc, cw - 2 * pad, ch, &side);
        if (side > best) {
            best = side;
            cols = c;
        }
    }
    int rows = n > 0 ? (n + cols - 1) / cols : 1;
    float cw = area.w / (float)cols, ch = area.h / (float)rows;
    L->cell_views = views && best >= ls * 4.0f;
    L->cell_order = !L->cell_views && ch - head - pad >= ls * 1.15f; /* at least the common order */
    for (int k = 0; k < n; k++) {
        float x = area.x + cw * (float)(k % cols), y = area.y + ch * (float)(k / cols);
        L->cell[k] = frect(x + pad / 2, y + pad / 2, cw - pad, ch - pad);
        if (L->cell_views)
            layout_views(s, k, frect(x + pad, y + pad / 2 + head, cw - 2 * pad, ch - head - pad), pad / 2);
        if (k != s->focus)
            L->row[k] = L->cell[k]; /* a click focuses it */
    }
}

void app_layout_nrace(AppState *s, float pad, float fw, float mid_top, float mid_bot)
{
    AppLayout *L = &s->lay;
    app_layout_charts_right(s, pad, fw, mid_top, mid_bot);
    L->cols = L->rows = 1;
    int k = s->focus;
    if (k < 0) {
        layout_cells(s, frect(L->main.x + pad / 2, L->main.y, L->main.w - pad, L->main.h), true, pad);
        return;
    }
    /* the focused scheme: title, its N screens, its gauges at the right;
     * every scheme's cell below (a single scheme: no grid) */
    float grid_h = s->data.n > 1 ? floorf(L->main.h * 0.36f) : 0;
    float top = L->main.y + lh(s, GFX_BIG) * 1.1f, bottom = L->main.y + L->main.h - grid_h;
    float gw = floorf(L->main.w * 0.30f);
    L->label[k] = frect(pad, L->main.y, L->main.w - 2 * pad, top - L->main.y);
    SDL_FRect screens = frect(pad, top, L->main.w - gw - 3 * pad, bottom - top - pad);
    layout_views(s, k, screens, pad);
    L->gauge[k] = frect(screens.x + screens.w + pad, top, gw, screens.h);
    L->row[k] = frect(L->main.x, L->main.y, L->main.w, bottom - L->main.y); /* a click: the overview */
    if (grid_h > 0)
        layout_cells(s, frect(L->main.x + pad / 2, bottom, L->main.w - pad, grid_h), false, pad);
}

/* ---- the order on each screen ------------------------------------------- */

/* The cars in the order terminal view v shows them, the leader first: by
 * displayed progress, a tie counting the later car ahead (metrics.h). */
static void order_of(const EngineView *v, int nc, int *order)
{
    for (int c = 0; c < nc; c++)
        order[c] = c;
    for (int i = 1; i < nc; i++) /* insertion sort: at most 8 */
        for (int q = i; q > 0; q--) {
            int a = order[q - 1], b = order[q];
            bool swap = v->progress[b] > v->progress[a] || (v->progress[b] == v->progress[a] && b > a);
            if (!swap)
                break;
            order[q - 1] = b;
            order[q] = a;
        }
}

/* The order most terminals show (the first of the most frequent). */
static int majority(int orders[][ENGINE_MAX_CARS], int nc)
{
    int best = 0, best_n = 0;
    for (int j = 0; j < nc; j++) {
        int same = 0;
        for (int q = 0; q < nc; q++)
            same += memcmp(orders[j], orders[q], sizeof(int) * (size_t)nc) == 0;
        if (same > best_n) {
            best_n = same;
            best = j;
        }
    }
    return best;
}

/* A chip per car in its colour with its number, in order; the chips at
 * positions where ref differs are underlined in red. Returns the width. */
static float order_chips(AppState *s, float x, float y, const int *order, const int *ref, int nc)
{
    float ls = lh(s, GFX_SMALL), chip = ls * 1.25f;
    for (int i = 0; i < nc; i++, x += chip) {
        int c = order[i];
        gfx_fill(s->r, x, y + 1, chip - 2, ls - 2, pal_car(c));
        gfx_text(&s->gfx, GFX_SMALL, (int)(x + (chip - 2) / 2), (int)y, GFX_CENTER, gfx_rgb(0, 0, 0), "%d", c + 1);
        if (ref && ref[i] != c)
            gfx_fill(s->r, x, y + ls - 1, chip - 2, 2, PAL_WARN);
    }
    return chip * (float)nc;
}

/* The order of the cars on the screens of scheme k, compactly: the order
 * most screens show ("=" and its chips, and how many show it), then each
 * screen that shows another, its differences underlined in red; screens
 * past the cell's bottom are counted ("+2 more"). */
static void draw_orders(AppState *s, int k, float x, float y, float w, float bottom)
{
    int nc = racedata_cars(&s->data), orders[ENGINE_MAX_CARS][ENGINE_MAX_CARS], known = 0;
    for (int j = 0; j < nc; j++) {
        order_of(&s->data.view[k][j], nc, orders[j]);
        known += s->data.known[k][j];
        if (s->data.known[k][j])
            s->drawn[k].leader[j] = orders[j][0];
    }
    int maj = majority(orders, nc), same = 0;
    for (int j = 0; j < nc; j++)
        same += s->data.known[k][j] && memcmp(orders[j], orders[maj], sizeof(int) * (size_t)nc) == 0;
    float ls = lh(s, GFX_SMALL), lab = ls * 1.6f;
    if (y + ls > bottom + 1)
        return;
    gfx_text(&s->gfx, GFX_SMALL, (int)x, (int)y, GFX_LEFT, PAL_DIM, "=");
    float cw = order_chips(s, x + lab, y, orders[maj], NULL, nc);
    char all[32], n_of[32];
    snprintf(all, sizeof all, "all %d screens", known);
    snprintf(n_of, sizeof n_of, "%d of %d", same, known);
    const char *says[2] = {same == known ? all : n_of, same == known ? "all" : n_of};
    gfx_text_fit(&s->gfx, GFX_SMALL, (int)(x + lab + cw + ls * 0.4f), (int)y, GFX_LEFT, PAL_DIM,
                 w - lab - cw - ls * 0.4f, says, 2);
    y += ls * 1.15f;
    int left = known - same;
    for (int j = 0; j < nc; j++) {
        if (!s->data.known[k][j] || memcmp(orders[j], orders[maj], sizeof(int) * (size_t)nc) == 0)
            continue;
        if (y + 2 * ls * 1.15f > bottom + 1 && left > 1) { /* the last line says how many are left */
            char more[32];
            snprintf(more, sizeof more, "+%d more", left);
            const char *m[1] = {more};
            if (y + ls <= bottom + 1)
                gfx_text_fit(&s->gfx, GFX_SMALL, (int)x, (int)y, GFX_LEFT, PAL_WARN, w, m, 1);
            return;
        }
        gfx_text(&s->gfx, GFX_SMALL, (int)x, (int)y, GFX_LEFT, pal_car(j), "P%d", j + 1);
        order_chips(s, x + lab, y, orders[j], orders[maj], nc);
        y += ls * 1.15f;
        left--;
    }
}

/* ---- gauges ------------------------------------------------------------- */

void app_gauge_text_n(const Metrics *m, int ncars, AppGaugeText *t)
{
    t->pairs[0] = t->spread[0] = t->totals[0] = '\0';
    for (int i = 0; i < ENGINE_MAX_CARS; i++)
        t->dis[i][0] = '\0';
    if (ncars <= 2)
        return;
    snprintf(t->pairs, sizeof t->pairs, "pairs %.1f%%", metrics_pair_rate(m) * 100.0);
    double sp = metrics_fairness_spread(m);
    int dec = sp < 9.995 ? 2 : sp < 99.95 ? 1 : 0; /* three significant digits at most */
    snprintf(t->spread, sizeof t->spread, "spread %.*f cw", dec, sp);
    for (int i = 0; i < ncars && i < ENGINE_MAX_CARS; i++) {
        double d = metrics_disadvantage(m, i);
        int di = fabs(d) < 9.995 ? 2 : fabs(d) < 99.95 ? 1 : 0;
        snprintf(t->dis[i], sizeof t->dis[i], "%+.*f", di, nr_unsigned_zero(d, di));
    }
    DirCounters sum = {0};
    for (int d = 0; d < ncars && d < METRICS_MAX_CARS; d++) {
        sum.sent += m->dir[d].sent;
        sum.lost += m->dir[d].lost;
        sum.late += m->dir[d].late;
        sum.discarded += m->dir[d].discarded;
    }
    snprintf(t->totals, sizeof t->totals, "sent %lld  lost %lld  late %lld  disc %lld", (long long)sum.sent,
             (long long)sum.lost, (long long)sum.late, (long long)sum.discarded);
}

/* Common scale of the disadvantage bars: the largest |disadvantage| of any
 * player under any scheme, rounded up (as the two-car fairness bars). */
static double disadvantage_range(const AppState *s)
{
    double mx = 0.5;
    for (int k = 0; k < s->data.n; k++)
        for (int i = 0; i < racedata_cars(&s->data); i++)
            mx = fmax(mx, fabs(metrics_disadvantage(s->data.metrics[k], i)));
    static const double steps[] = {0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (mx <= steps[i])
            return steps[i];
    return mx;
}

/* A rate as a bar filled to it with its text over it. */
static void rate_bar(AppState *s, double rate, const char *text, GaugePen *p)
{
    gfx_fill(s->r, p->x, p->y, p->w, p->l, gfx_rgb(52, 56, 64));
    gfx_fill(s->r, p->x, p->y, (float)(p->w * fmin(1.0, rate)), p->l, gfx_rgb(150, 60, 60));
    const char *pct = app_text_after(text, "pairs ");
    const char *forms[2] = {text, pct};
    gfx_text_fit(&s->gfx, p->font, (int)(p->x + p->pad), (int)p->y, GFX_LEFT, PAL_FG, p->w - p->pad, forms, 2);
    p->y += p->l * 1.15f;
}

/* Each player's disadvantage: "P3", a bar from the centre (right, in the
 * player's colour: shown further behind than the others on average; left:
 * ahead), on the common log scale, and its value. */
static void disadvantage_rows(AppState *s, int k, const AppGaugeText *t, GaugePen *p)
{
    int nc = racedata_cars(&s->data);
    double R = disadvantage_range(s);
    float lab = lh(s, GFX_SMALL) * 1.8f, val = 0;
    for (int i = 0; i < nc; i++) {
        int w, h;
        gfx_text_size(&s->gfx, p->font, t->dis[i], &w, &h);
        val = fmaxf(val, (float)w + p->pad);
    }
    float bw = p->w - lab - val - p->pad;
    for (int i = 0; i < nc && p->y + p->l <= p->bottom + 1; i++, p->y += p->l * 1.05f) {
        double d = metrics_disadvantage(s->data.metrics[k], i);
        gfx_text(&s->gfx, GFX_SMALL, (int)p->x, (int)p->y, GFX_LEFT, pal_car(i), "P%d", i + 1);
        if (bw > 20) {
            float bx = p->x + lab, mid = bx + bw / 2, fill = (float)(app_fair_fill(d, R) * (bw / 2));
            gfx_fill(s->r, bx, p->y + p->l * 0.15f, bw, p->l * 0.7f, gfx_rgb(52, 56, 64));
            gfx_fill(s->r, d > 0 ? mid : mid - fill, p->y + p->l * 0.15f, fill, p->l * 0.7f, pal_car(i));
            gfx_fill(s->r, mid - 1, p->y, 2, p->l, PAL_FG);
        }
        gfx_text(&s->gfx, p->font, (int)(p->x + p->w), (int)p->y, GFX_RIGHT, PAL_FG, "%s", t->dis[i]);
    }
}

/* The focused scheme's panel: the rates, the spread, each player's
 * disadvantage, the counters, and what they mean while there is room. */
static void draw_big_gauges(AppState *s, int k)
{
    const SDL_FRect *g = &s->lay.gauge[k];
    if (g->w < 40 || g->h < 20)
        return;
    const AppGaugeText *t = &s->gtext[k];
    const Metrics *m = s->data.metrics[k];
    float pad = (float)s->lay.base * 0.3f;
    gfx_fill(s->r, g->x, g->y, g->w, g->h, PAL_PANEL);
    SDL_Rect clip = {(int)g->x, (int)g->y, (int)g->w, (int)g->h};
    SDL_RenderSetClipRect(s->r, &clip);
    gfx_room_push(&s->gfx, g->x, g->y, g->w, g->h);
    GaugePen p = {g->x + pad, g->y + pad / 2, g->w - 2 * pad, lh(s, GFX_NORMAL), pad, g->y + g->h, GFX_NORMAL};
    app_gauge_rate(s, m, t, &p);
    if (p.y + p.l <= p.bottom)
        rate_bar(s, metrics_pair_rate(m), t->pairs, &p);
    const char *sp[2] = {t->spread, app_text_after(t->spread, "spread ")};
    if (p.y + p.l <= p.bottom) {
        gfx_text_fit(&s->gfx, GFX_NORMAL, (int)p.x, (int)p.y, GFX_LEFT, PAL_FG, p.w, sp, 2);
        p.y += p.l * 1.2f;
    }
    const char *head[2] = {"disadvantage (cw)", "disadv. (cw)"};
    if (p.y + p.l <= p.bottom) {
        gfx_text_fit(&s->gfx, GFX_SMALL, (int)p.x, (int)p.y, GFX_LEFT, PAL_DIM, p.w, head, 2);
        p.y += lh(s, GFX_SMALL) * 1.1f;
    }
    disadvantage_rows(s, k, t, &p);
    static const char *const notes[] = {
        "disadvantage > 0: the player is shown further behind than the others, on average",
        "pairs: the pairs of cars whose order the screens disagree on",
        "spread: standard deviation of the players' mean errors",
    };
    float ls = lh(s, GFX_SMALL);
    char wrapped[6][GFX_TEXT_MAX];
    int nw = 0;
    if (p.y + ls <= p.bottom) {
        const char *tot[1] = {t->totals};
        p.y += ls * 0.3f;
        if (gfx_text_fit(&s->gfx, GFX_SMALL, (int)p.x, (int)p.y, GFX_LEFT, PAL_DIM, p.w, tot, 1) > 0)
            p.y += ls * 1.3f;
    }
    for (int i = 0; i < 3; i++) {
        nw = gfx_wrap(&s->gfx, GFX_SMALL, p.w, notes[i], wrapped, 6);
        for (int q = 0; q < nw && p.y + ls <= p.bottom; q++, p.y += ls)
            gfx_text(&s->gfx, GFX_SMALL, (int)p.x, (int)p.y, GFX_LEFT, PAL_DIM, "%s", wrapped[q]);
    }
    gfx_room_pop(&s->gfx);
    SDL_RenderSetClipRect(s->r, NULL);
}

/* ---- the compact grid --------------------------------------------------- */

/* A cell's rates line, the longest form that fits. */
static void cell_rates(AppState *s, int k, GaugePen *p)
{
    const AppGaugeText *t = &s->gtext[k];
    const char *pct = app_text_after(t->rate, "inconsistent "), *pairs = t->pairs,
               *sp = app_text_after(t->spread, "spread ");
    char f[4][GFX_TEXT_MAX];
    snprintf(f[0], sizeof f[0], "incons. %.20s  %.40s  %.40s", pct, pairs, t->spread);
    snprintf(f[1], sizeof f[1], "%.20s  %.40s  spread %.40s", pct, pairs, sp);
    snprintf(f[2], sizeof f[2], "%.20s  %.40s", pct, pairs);
    snprintf(f[3], sizeof f[3], "%.20s", pct);
    const char *forms[4] = {f[0], f[1], f[2], f[3]};
    SDL_Color c = s->data.metrics[k]->inconsistent_now ? PAL_WARN : PAL_FG;
    gfx_text_fit(&s->gfx, GFX_SMALL, (int)p->x, (int)p->y, GFX_LEFT, c, p->w, forms, 4);
    p->y += lh(s, GFX_SMALL) * 1.1f;
}

/* Scheme k's cell: title, rates, then its N screens in small or the order
 * on each screen; framed in red while the screens disagree, in the accent
 * colour when it is the focused scheme. */
static void draw_cell(AppState *s, int k)
{
    const SDL_FRect *c = &s->lay.cell[k];
    if (c->w < 20 || c->h < lh(s, GFX_NORMAL))
        return;
    float pad = (float)s->lay.base * 0.3f;
    gfx_fill(s->r, c->x, c->y, c->w, c->h, PAL_PANEL);
    gfx_room_push(&s->gfx, c->x, c->y, c->w, c->h);
    GaugePen p = {c->x + pad, c->y + pad / 2, c->w - 2 * pad, lh(s, GFX_SMALL), pad, c->y + c->h, GFX_SMALL};
    app_gauge_title(s, k, c, &p);
    if (p.y + p.l <= p.bottom + 1)
        cell_rates(s, k, &p);
    gfx_room_pop(&s->gfx);
    if (s->lay.cell_views) {
        for (int j = 0; j < racedata_cars(&s->data); j++)
            app_draw_view(s, k, j);
    } else if (s->lay.cell_order) {
        gfx_room_push(&s->gfx, c->x, c->y, c->w, c->h);
        draw_orders(s, k, p.x, p.y, p.w, p.bottom);
        gfx_room_pop(&s->gfx);
    }
    s->drawn[k].frame = s->data.metrics[k]->inconsistent_now;
    float t = fmaxf(2.0f, (float)s->lay.base * 0.12f);
    SDL_Color fc = s->drawn[k].frame ? gfx_rgb(230, 40, 40) : k == s->focus ? PAL_ACCENT : PAL_PANEL;
    for (int i = 0; i < (int)t; i++)
        gfx_frame(s->r, c->x + (float)i, c->y + (float)i, c->w - 2 * (float)i, c->h - 2 * (float)i, fc);
}

void app_draw_nrace(AppState *s)
{
    int k = s->focus;
    if (k >= 0) {
        app_draw_label(s, k);
        for (int j = 0; j < racedata_cars(&s->data); j++)
            app_draw_view(s, k, j);
        app_draw_disagree(s, k);
        draw_big_gauges(s, k);
    }
    for (int q = 0; q < s->data.n; q++)
        draw_cell(s, q);
}
