/* The window's gauges (inconsistency, fairness bar, d1 / d2, counters) and
 * strip charts, each chart cached in a layer redrawn when its history grows. */
#include "app_paint.h"

#include <stdio.h>
#include <string.h>

/* ---- gauges ------------------------------------------------------------ */

void app_gauge_text(const Metrics *m, AppGaugeText *t)
{
    double f = metrics_mean_d1_minus_d2(m);
    snprintf(t->rate, sizeof t->rate, "inconsistent %.1f%%", metrics_inconsistency_rate(m) * 100.0);
    snprintf(t->recent, sizeof t->recent, "last 5 s %.1f%%", metrics_recent_rate(m) * 100.0);
    const char *who = f >= APP_FAIR_EVEN_CW ? "P1 disadvantaged" : f <= -APP_FAIR_EVEN_CW ? "P2 disadvantaged" : "even";
    /* three significant digits at most: +184 cw, +4.9 cw and +0.13 cw all fit */
    int dec = fabs(f) < 9.995 ? 2 : fabs(f) < 99.95 ? 1 : 0;
    snprintf(t->fair, sizeof t->fair, "mean d1-d2 %+.*f cw", dec, nr_unsigned_zero(f, dec));
    snprintf(t->who, sizeof t->who, "%s", who);
    snprintf(t->d, sizeof t->d, "d1 %+.2f  d2 %+.2f cw", nr_unsigned_zero(m->d1, 2), nr_unsigned_zero(m->d2, 2));
    snprintf(t->mus, sizeof t->mus, "sent %lld/%lld  discarded %lld/%lld", (long long)m->dir[0].sent,
             (long long)m->dir[1].sent, (long long)m->dir[0].discarded, (long long)m->dir[1].discarded);
}

/* Where |v| (car widths) falls on the fairness bars' scale, 0..1 of a half
 * bar: logarithmic from APP_FAIR_EVEN_CW, so that one scheme's +184 cw
 * does not flatten another's +4.9 cw to nothing. Below it the bar is empty,
 * as the word beside it says "even" (the old symmetric log scale, linear
 * below 0.05 cw, filled 29 % of a half bar for 0.049 cw, "even"); above
 * it a stub at least, as the word names who is disadvantaged. */
double app_fair_fill(double v, double range)
{
    double c = APP_FAIR_EVEN_CW, a = fabs(v);
    if (!(a >= c))
        return 0.0;
    if (!(range > c))
        return 1.0;
    return fmin(1.0, APP_FAIR_STUB + (1.0 - APP_FAIR_STUB) * log(a / c) / log(range / c));
}

/* Common scale of the fairness bars: the largest |mean d1 - d2|, rounded up. */
static double fairness_range(const AppState *s)
{
    double mx = 0.5;
    for (int k = 0; k < s->data.n; k++)
        mx = fmax(mx, fabs(metrics_mean_d1_minus_d2(s->data.metrics[k])));
    static const double steps[] = {0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (mx <= steps[i])
            return steps[i];
    return mx;
}

/* Where the next gauge line goes: x, y its top left, w its width, l the
 * line height, bottom the panel's (pixels). */
typedef struct GaugePen {
    float x, y, w, l, pad, bottom;
    int font;
} GaugePen;

/* Room for n more lines. */
static bool room(const GaugePen *p, float n)
{
    return p->y + n * p->l <= p->bottom + 1;
}

/* The overview's panel title: "7 EPP-xv epp-xv": the short name goes first,
 * then the title falls back to the name, then to the number: detail is
 * dropped, never letters. */
static void gauge_title(AppState *s, int k, const SDL_FRect *g, GaugePen *p)
{
    const SchemeType *st = s->data.scheme[k];
    gfx_fill(s->r, g->x, g->y, 4, g->h, pal_scheme(k));
    char title[96], num[16];
    snprintf(title, sizeof title, "%d %s", k + 1, st->title ? st->title : st->name);
    snprintf(num, sizeof num, "%d", k + 1);
    int tw0, th0, nw, nh;
    gfx_text_size(&s->gfx, GFX_NORMAL, title, &tw0, &th0);
    gfx_text_size(&s->gfx, GFX_SMALL, st->name, &nw, &nh);
    float room_px = p->w - 4;
    int tfont = GFX_NORMAL;
    if ((float)tw0 > room_px) {
        snprintf(title, sizeof title, "%d %s", k + 1, st->name);
        gfx_text_size(&s->gfx, GFX_NORMAL, title, &tw0, &th0);
        if ((float)tw0 > room_px) { /* the name in the small font, else the number */
            tfont = GFX_SMALL;
            gfx_text_size(&s->gfx, GFX_SMALL, title, &tw0, &th0);
            if ((float)tw0 > room_px)
                snprintf(title, sizeof title, "%s", num);
        }
        nw = 1 << 20; /* the name is in the title now, or does not fit */
    }
    tw0 = gfx_text(&s->gfx, tfont, (int)p->x + 4, (int)p->y, GFX_LEFT, pal_scheme(k), "%s", title);
    if ((float)(tw0 + nw) + 2 * p->pad <= room_px)
        gfx_text(&s->gfx, GFX_SMALL, (int)p->x + 4 + tw0 + (int)(2 * p->pad), (int)(p->y + lh(s, GFX_NORMAL) - p->l),
                 GFX_LEFT, PAL_DIM, "%s", st->name);
    p->y += lh(s, GFX_NORMAL) * 1.05f;
    p->x += 4;
    p->w -= 4;
}

/* Inconsistency: a bar filled by the rate, the text over it; the recent
 * rate beside, or on a line of its own while the fairness bar and its
 * value still fit below (the detail to drop). */
static void gauge_rate(AppState *s, const Metrics *m, const AppGaugeText *t, GaugePen *p)
{
    float x = p->x, w = p->w, l = p->l, pad = p->pad;
    double rate = metrics_inconsistency_rate(m);
    gfx_fill(s->r, x, p->y, w, l, gfx_rgb(52, 56, 64));
    gfx_fill(s->r, x, p->y, (float)(w * fmin(1.0, rate)), l, gfx_rgb(150, 60, 60));
    int tw = gfx_text(&s->gfx, p->font, (int)(x + pad), (int)p->y, GFX_LEFT, PAL_FG, "%s", t->rate);
    int rw, rh;
    gfx_text_size(&s->gfx, p->font, t->recent, &rw, &rh);
    SDL_Color rc = m->inconsistent_now ? PAL_WARN : PAL_DIM;
    if ((float)(tw + rw) + 3 * pad < w) {
        gfx_text(&s->gfx, p->font, (int)(x + w - pad), (int)p->y, GFX_RIGHT, rc, "%s", t->recent);
    } else if (p->y + l * 1.15f + 3 * l + pad <= p->bottom + 1) {
        p->y += l;
        gfx_text(&s->gfx, p->font, (int)(x + pad), (int)p->y, GFX_LEFT, rc, "%s", t->recent);
    }
    p->y += l * 1.15f;
}

/* Fairness: a centred bar filled towards the disadvantaged player, on the
 * rows' common symmetric log scale, ticks by decades. */
static void gauge_fair_bar(AppState *s, double f, double R, GaugePen *p)
{
    SDL_Renderer *r = s->r;
    float x = p->x, w = p->w, y = p->y, pad = p->pad;
    float bh = p->l * 0.9f, cxm = x + w / 2;
    gfx_fill(r, x, y, w, bh, gfx_rgb(52, 56, 64));
    float fw = (float)(app_fair_fill(f, R) * (w / 2));
    if (f > 0)
        gfx_fill(r, cxm, y, fw, bh, PAL_CAR1);
    else if (f < 0)
        gfx_fill(r, cxm - fw, y, fw, bh, PAL_CAR2);
    for (double d = 0.1; d <= R * 1.0001; d *= 10) {
        float tx = (float)(app_fair_fill(d, R) * (w / 2));
        gfx_fill(r, cxm + tx - 0.5f, y + bh * 0.6f, 1, bh * 0.4f, gfx_rgb(150, 155, 165));
        gfx_fill(r, cxm - tx - 0.5f, y + bh * 0.6f, 1, bh * 0.4f, gfx_rgb(150, 155, 165));
    }
    gfx_fill(r, cxm - 1, y - 2, 3, bh + 4, PAL_FG);
    gfx_text(&s->gfx, GFX_SMALL, (int)(x + pad), (int)(y + (bh - lh(s, GFX_SMALL)) / 2), GFX_LEFT, gfx_rgb(0, 0, 0),
             "P2");
    gfx_text(&s->gfx, GFX_SMALL, (int)(x + w - pad), (int)(y + (bh - lh(s, GFX_SMALL)) / 2), GFX_RIGHT,
             gfx_rgb(0, 0, 0), "P1");
    p->y += bh + pad / 2;
}

/* "mean d1-d2 +0.13 cw", else "d1-d2 +0.13 cw", else "+0.13 cw": the unit
 * stays; who is disadvantaged beside it or below. */
static void gauge_fair_text(AppState *s, double f, const AppGaugeText *t, GaugePen *p)
{
    SDL_Color fc = f >= APP_FAIR_EVEN_CW ? PAL_CAR1 : f <= -APP_FAIR_EVEN_CW ? PAL_CAR2 : PAL_FG;
    const char *fair = t->fair;
    for (int cut = 0; cut < 2; cut++) {
        int fw0, fh0;
        gfx_text_size(&s->gfx, p->font, fair, &fw0, &fh0);
        if ((float)fw0 <= p->w)
            break;
        const char *sp = strchr(fair, ' ');
        if (sp)
            fair = sp + 1;
    }
    int fw1 = gfx_text(&s->gfx, p->font, (int)p->x, (int)p->y, GFX_LEFT, fc, "%s", fair);
    int ww, wh;
    gfx_text_size(&s->gfx, p->font, t->who, &ww, &wh);
    if ((float)(fw1 + ww) + 2 * p->pad < p->w) {
        gfx_text(&s->gfx, p->font, (int)(p->x + p->w), (int)p->y, GFX_RIGHT, fc, "%s", t->who);
    } else if (p->y + 2 * p->l <= p->bottom + 1) {
        p->y += p->l;
        gfx_text(&s->gfx, p->font, (int)p->x, (int)p->y, GFX_LEFT, fc, "%s", t->who);
    }
    p->y += p->l;
}

/* d1 / d2 and the counters (on one line when compact), and in the focus
 * view the legend of what they mean. */
static void gauge_counts(AppState *s, const AppGaugeText *t, bool big, bool compact, const SDL_FRect *g, GaugePen *p)
{
    if (compact) {
        int w1 = gfx_text(&s->gfx, p->font, (int)p->x, (int)p->y, GFX_LEFT, PAL_FG, "%s", t->d);
        if ((float)w1 + p->w * 0.45f < p->w)
            gfx_text(&s->gfx, p->font, (int)(p->x + p->w), (int)p->y, GFX_RIGHT, PAL_DIM, "%s", t->mus);
        return;
    }
    gfx_text(&s->gfx, p->font, (int)p->x, (int)p->y, GFX_LEFT, PAL_FG, "%s", t->d);
    p->y += p->l;
    if (!room(p, 1))
        return;
    gfx_text(&s->gfx, p->font, (int)p->x, (int)p->y, GFX_LEFT, PAL_DIM, "%s", t->mus);
    p->y += p->l;
    if (!big)
        return;
    p->y += p->l * 0.5f;
    static const char *const lines[] = {
        "d1: car 1 at P1 minus at P2 (cw)",
        "d2: car 2 at P2 minus at P1 (cw)",
        "d1-d2 > 0: P1 disadvantaged",
        "bar: log scale, ticks 0.1, 1, 10.. cw",
        "sent/discarded: 1→2 / 2→1",
    };
    for (int i = 0; i < 5 && p->y + p->l < g->y + g->h; i++, p->y += p->l)
        gfx_text(&s->gfx, GFX_SMALL, (int)p->x, (int)p->y, GFX_LEFT, PAL_DIM, "%s", lines[i]);
}

/* The gauge panel's lines, top to bottom, as many as fit. */
static void draw_gauge_lines(AppState *s, int k, bool big, const SDL_FRect *g, float l, float pad)
{
    const AppGaugeText t = s->gtext[k];
    const Metrics *m = s->data.metrics[k];
    GaugePen p = {g->x + pad, g->y + pad / 2, g->w - 2 * pad, l, pad, g->y + g->h, big ? GFX_NORMAL : GFX_SMALL};
    if (!big)
        gauge_title(s, k, g, &p);
    bool compact = p.bottom - p.y < 5.3f * l;
    if (!room(&p, 1))
        return;
    gauge_rate(s, m, &t, &p);
    if (!room(&p, 1))
        return;
    double f = metrics_mean_d1_minus_d2(m);
    gauge_fair_bar(s, f, fairness_range(s), &p);
    if (!room(&p, 1))
        return;
    gauge_fair_text(s, f, &t, &p);
    if (room(&p, 1))
        gauge_counts(s, &t, big, compact, g, &p);
}

void app_draw_gauges(AppState *s, int k, bool big)
{
    const SDL_FRect *g = &s->lay.gauge[k];
    if (g->w < 20 || g->h < 10)
        return;
    SDL_Renderer *r = s->r;
    int font = big ? GFX_NORMAL : GFX_SMALL;
    float l = lh(s, font), pad = (float)s->lay.base * 0.3f;
    gfx_fill(r, g->x, g->y, g->w, g->h, PAL_PANEL);
    SDL_Rect clip = {(int)g->x, (int)g->y, (int)g->w, (int)g->h};
    SDL_RenderSetClipRect(r, &clip);
    draw_gauge_lines(s, k, big, g, l, pad);
    SDL_RenderSetClipRect(r, NULL);
}

/* ---- cached layers ----------------------------------------------------- */

/* Makes l a w x h render target and points the renderer at it; false when
 * targets are unsupported (the caller then draws straight to the frame). */
bool app_layer_begin(AppState *s, AppLayer *l, int w, int h)
{
    if (!l->tex || l->w != w || l->h != h) {
        if (l->tex)
            SDL_DestroyTexture(l->tex);
        l->tex = SDL_CreateTexture(s->r, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_TARGET, w, h);
        l->w = w;
        l->h = h;
        l->key = 0;
        l->text_key[0] = '\0';
        if (!l->tex)
            return false;
    }
    if (SDL_SetRenderTarget(s->r, l->tex) != 0)
        return false;
    return true;
}

void app_layer_end(AppState *s, AppLayer *l, float x, float y)
{
    SDL_SetRenderTarget(s->r, NULL);
    SDL_Rect dst = {(int)x, (int)y, l->w, l->h};
    SDL_RenderCopy(s->r, l->tex, NULL, &dst);
}

/* ---- strip charts ------------------------------------------------------ */

static void draw_chart(AppState *s, int pass, SDL_FRect a)
{
    int n = s->data.n;
    PlotSeries se[SCHEME_MAX];
    double end_s = (double)s->data.end_us / 1e6;
    int cap = (int)a.w;
    cap = cap > APP_CHART_PTS ? APP_CHART_PTS : cap < 2 ? 2 : cap;
    for (int k = 0; k < n; k++) {
        int hn = s->data.nhistory[k];
        const MetricSample *h = s->data.history[k];
        int m = (h && hn > 0) ? (hn < cap ? hn : cap) : 0;
        for (int i = 0; i < m; i++) {
            int src = m > 1 ? (int)((int64_t)i * (hn - 1) / (m - 1)) : 0;
            s->chart_x[k][i] = (double)h[src].t_us / 1e6;
            s->chart_y[k][i] = pass == 0 ? h[src].rate * 100.0 : h[src].d1 - h[src].d2;
        }
        se[k].label = s->data.scheme[k]->name;
        se[k].x = s->chart_x[k];
        se[k].y = s->chart_y[k];
        se[k].n = m;
        se[k].markers = false;
        se[k].lo = se[k].hi = NULL;
    }
    PlotPanel p;
    memset(&p, 0, sizeof p);
    p.series = se;
    p.nseries = n;
    p.fixed_x = true;
    p.xmin = 0;
    p.xmax = end_s > 0 ? end_s : 1;
    p.xlabel = "race time (s)";
    p.highlight = s->focus + 1;
    p.zero_line = true;
    p.title = pass == 0 ? "inconsistency rate, cumulative (%)" : "d1 - d2 per sample (car widths, log scale)";
    /* one scheme's excursion to +-1000 cw must not hide the others' +-1 */
    p.symlog = pass == 0 ? 0 : 0.1;
    int64_t origin = app_mark_origin_us(s); /* the marks on the race's time axis */
    for (int i = 0; i < s->nmarks; i++)
        s->mark_s[i] = (double)(origin + s->marks[i].t_ms * NR_US_PER_MS) / 1e6;
    p.marks = s->mark_s;
    p.nmarks = s->nmarks;
    PlotTheme th = plot_theme_dark();
    gfx_fill(s->r, a.x, a.y, a.w, a.h, PAL_PANEL);
    plot_draw_panel(&s->gfx, a, &p, &th);
}

/* The two charts, each redrawn into its layer only when the history has
 * grown by about one pixel column, was reset, or the layout changed. */
void app_draw_charts(AppState *s)
{
    int n = s->data.n;
    int64_t total = 0;
    for (int k = 0; k < n; k++)
        total += s->data.nhistory[k];
    int64_t race_samples = s->data.end_us / s->data.period_us + 1;
    for (int pass = 0; pass < 2; pass++) {
        const SDL_FRect *a = &s->lay.chart[pass];
        if (a->w < 40 || a->h < 40)
            return;
        AppLayer *l = &s->chart_layer[pass];
        int64_t per_px = race_samples / (int64_t)a->w + 1;
        int64_t bucket = (int64_t)(n > 0 ? n : 1) * per_px;
        /* the second chart's buckets are offset by half: never both redrawn in one frame */
        uint64_t key = ((uint64_t)((total + (pass ? bucket / 2 : 0)) / bucket) << 16) ^
                       ((uint64_t)(s->focus + 2) << 8) ^ (uint64_t)n ^ ((uint64_t)s->lay.base << 40) ^
                       ((uint64_t)s->nmarks << 48) ^
                       (total == 0 ? 0x5a5a5a5aULL : 0);
        if (s->no_layers || !app_layer_begin(s, l, (int)a->w, (int)a->h)) {
            SDL_SetRenderTarget(s->r, NULL);
            draw_chart(s, pass, *a);
            continue;
        }
        if (l->key != key) {
            SDL_FRect at = {0, 0, a->w, a->h};
            draw_chart(s, pass, at);
            l->key = key;
        }
        app_layer_end(s, l, a->x, a->y);
    }
}
