/* The window's gauges: inconsistency, the fairness bar, d1 / d2, counters
 * (the strip charts are app_charts.c's). */
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

/* Room for n more lines. */
static bool room(const GaugePen *p, float n)
{
    return p->y + n * p->l <= p->bottom + 1;
}

/* The overview's panel title, the first form that fits: "7 EPP-xv" with
 * the command-line name beside it in small, then the title alone in the
 * small font, then the scheme's short label ("7 xv") in either font, and
 * the number only when not even that fits: detail is dropped, never
 * letters (issue 22). */
void app_gauge_title(AppState *s, int k, const SDL_FRect *g, GaugePen *p)
{
    const SchemeType *st = s->data.scheme[k];
    gfx_fill(s->r, g->x, g->y, 4, g->h, pal_scheme(k));
    const char *full = st->title ? st->title : st->name, *brief = st->abbr ? st->abbr : full;
    char title[96], abbr[96], num[16];
    snprintf(title, sizeof title, "%d %s", k + 1, full);
    snprintf(abbr, sizeof abbr, "%d %s", k + 1, brief);
    snprintf(num, sizeof num, "%d", k + 1);
    const char *forms[5] = {title, title, abbr, abbr, num};
    const int fonts[5] = {GFX_NORMAL, GFX_SMALL, GFX_NORMAL, GFX_SMALL, GFX_SMALL};
    float room_px = p->w - 4;
    int f = 0;
    for (; f < 4; f++) {
        int w, h;
        gfx_text_size(&s->gfx, fonts[f], forms[f], &w, &h);
        if ((float)w <= room_px)
            break;
    }
    int tw0 = gfx_text(&s->gfx, fonts[f], (int)p->x + 4, (int)p->y, GFX_LEFT, pal_scheme(k), "%s", forms[f]);
    int nw = 1 << 20, nh;
    if (f == 0)
        gfx_text_size(&s->gfx, GFX_SMALL, st->name, &nw, &nh);
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
void app_gauge_rate(AppState *s, const Metrics *m, const AppGaugeText *t, GaugePen *p)
{
    float x = p->x, w = p->w, l = p->l, pad = p->pad;
    double rate = metrics_inconsistency_rate(m);
    gfx_fill(s->r, x, p->y, w, l, gfx_rgb(52, 56, 64));
    gfx_fill(s->r, x, p->y, (float)(w * fmin(1.0, rate)), l, gfx_rgb(150, 60, 60));
    /* "inconsistent 12.3%", else "incons. 12.3%", else "12.3%" */
    const char *pct = app_text_after(t->rate, "inconsistent "), *rpct = app_text_after(t->recent, "last ");
    char mid[64];
    snprintf(mid, sizeof mid, "incons. %.40s", pct);
    const char *rates[3] = {t->rate, mid, pct};
    /* up to the panel's edge (the bar ends a padding earlier) */
    int tw = gfx_text_fit(&s->gfx, p->font, (int)(x + pad), (int)p->y, GFX_LEFT, PAL_FG, w, rates, 3);
    const char *recents[2] = {t->recent, rpct}; /* "last 5 s 1.2%", else "5 s 1.2%" */
    SDL_Color rc = m->inconsistent_now ? PAL_WARN : PAL_DIM;
    int ri = gfx_fit(&s->gfx, p->font, w - (float)tw - 3 * pad, recents, 2);
    if (ri >= 0) {
        gfx_text(&s->gfx, p->font, (int)(x + w - pad), (int)p->y, GFX_RIGHT, rc, "%s", recents[ri]);
    } else if (p->y + l * 1.15f + 3 * l + pad <= p->bottom + 1) {
        p->y += l;
        gfx_text_fit(&s->gfx, p->font, (int)(x + pad), (int)p->y, GFX_LEFT, rc, w, recents, 2);
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
    int lw, lhh; /* the ends' names, when each fits in its half with the centre line clear */
    gfx_text_size(&s->gfx, GFX_SMALL, "P2", &lw, &lhh);
    if ((float)lw + 2 * pad < w / 2 - 2) {
        gfx_text(&s->gfx, GFX_SMALL, (int)(x + pad), (int)(y + (bh - lh(s, GFX_SMALL)) / 2), GFX_LEFT,
                 gfx_rgb(0, 0, 0), "P2");
        gfx_text(&s->gfx, GFX_SMALL, (int)(x + w - pad), (int)(y + (bh - lh(s, GFX_SMALL)) / 2), GFX_RIGHT,
                 gfx_rgb(0, 0, 0), "P1");
    }
    p->y += bh + pad / 2;
}

/* "mean d1-d2 +0.13 cw", else "d1-d2 +0.13 cw", else "+0.13 cw": the unit
 * stays; who is disadvantaged beside it or below. */
static void gauge_fair_text(AppState *s, double f, const AppGaugeText *t, GaugePen *p)
{
    SDL_Color fc = f >= APP_FAIR_EVEN_CW ? PAL_CAR1 : f <= -APP_FAIR_EVEN_CW ? PAL_CAR2 : PAL_FG;
    /* "mean d1-d2 +0.13 cw", "d1-d2 +0.13 cw", "+0.13 cw", "+0.13" */
    const char *d12 = app_text_after(t->fair, "mean "), *val = app_text_after(d12, "d1-d2 ");
    char num[32];
    snprintf(num, sizeof num, "%.*s", (int)strcspn(val, " "), val);
    const char *fairs[4] = {t->fair, d12, val, num};
    int fw1 = gfx_text_fit(&s->gfx, p->font, (int)p->x, (int)p->y, GFX_LEFT, fc, p->w, fairs, 4);
    char shortwho[32]; /* "P1 disadvantaged", else "P1 disadv." */
    snprintf(shortwho, sizeof shortwho, "%.2s disadv.", t->who);
    const char *whos[2] = {t->who, strcmp(t->who, "even") == 0 ? NULL : shortwho};
    int wi = gfx_fit(&s->gfx, p->font, p->w - (float)fw1 - 2 * p->pad, whos, 2);
    if (wi >= 0) {
        gfx_text(&s->gfx, p->font, (int)(p->x + p->w), (int)p->y, GFX_RIGHT, fc, "%s", whos[wi]);
    } else if (p->y + 2 * p->l <= p->bottom + 1) {
        p->y += p->l;
        gfx_text_fit(&s->gfx, p->font, (int)p->x, (int)p->y, GFX_LEFT, fc, p->w, whos, 2);
    }
    p->y += p->l;
}

/* d1 / d2 and the counters (on one line when compact), and in the focus
 * view the legend of what they mean. */
static void gauge_counts(AppState *s, const AppGaugeText *t, bool big, bool compact, const SDL_FRect *g, GaugePen *p)
{
    /* "d1 +0.05  d2 -0.10 cw", else without the unit and the double space,
     * else "d1+0.05 d2-0.10" */
    char d2[64], d3[64], mus2[96];
    snprintf(d2, sizeof d2, "%s", t->d);
    char *cw = strstr(d2, " cw");
    if (cw)
        *cw = '\0';
    char *dd = strstr(d2, "  ");
    if (dd)
        memmove(dd, dd + 1, strlen(dd));
    size_t m = 0;
    for (size_t i = 0; d2[i] && m + 1 < sizeof d3; i++)
        if (!(d2[i] == ' ' && i > 0 && d2[i - 1] >= '1' && d2[i - 1] <= '2' && d2[i - 2] == 'd'))
            d3[m++] = d2[i];
    d3[m] = '\0';
    long long s12 = 0, s21 = 0, d12 = 0, d21 = 0;
    sscanf(t->mus, "sent %lld/%lld discarded %lld/%lld", &s12, &s21, &d12, &d21);
    snprintf(mus2, sizeof mus2, "sent %lld/%lld disc %lld/%lld", s12, s21, d12, d21);
    const char *ds[3] = {t->d, d2, d3}, *muss[2] = {t->mus, mus2};
    if (compact) {
        int w1 = gfx_text_fit(&s->gfx, p->font, (int)p->x, (int)p->y, GFX_LEFT, PAL_FG, p->w, ds, 3);
        int mi = gfx_fit(&s->gfx, p->font, p->w - (float)w1 - 2 * p->pad, muss, 2);
        if (mi >= 0 && (float)w1 + p->w * 0.45f < p->w)
            gfx_text(&s->gfx, p->font, (int)(p->x + p->w), (int)p->y, GFX_RIGHT, PAL_DIM, "%s", muss[mi]);
        return;
    }
    gfx_text_fit(&s->gfx, p->font, (int)p->x, (int)p->y, GFX_LEFT, PAL_FG, p->w, ds, 3);
    p->y += p->l;
    if (!room(p, 1))
        return;
    gfx_text_fit(&s->gfx, p->font, (int)p->x, (int)p->y, GFX_LEFT, PAL_DIM, p->w, muss, 2);
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
    /* the legend wrapped to the panel, as many whole entries as fit: one
     * that would end mid-sentence is dropped with the rest (issue 22) */
    for (int i = 0; i < 5; i++) {
        char wrapped[4][GFX_TEXT_MAX];
        int nw = gfx_wrap(&s->gfx, GFX_SMALL, p->w, lines[i], wrapped, 4);
        size_t got = nw > 0 ? (size_t)(nw - 1) : 0; /* a space at each break */
        for (int q = 0; q < nw; q++)
            got += strlen(wrapped[q]);
        if (nw == 0 || got < strlen(lines[i]) || !(p->y + (float)nw * p->l < g->y + g->h))
            return;
        for (int q = 0; q < nw; q++, p->y += p->l)
            gfx_text(&s->gfx, GFX_SMALL, (int)p->x, (int)p->y, GFX_LEFT, PAL_DIM, "%s", wrapped[q]);
    }
}

/* The gauge panel's lines, top to bottom, as many as fit. */
static void draw_gauge_lines(AppState *s, int k, bool big, const SDL_FRect *g, float l, float pad)
{
    const AppGaugeText t = s->gtext[k];
    const Metrics *m = s->data.metrics[k];
    GaugePen p = {g->x + pad, g->y + pad / 2, g->w - 2 * pad, l, pad, g->y + g->h, big ? GFX_NORMAL : GFX_SMALL};
    if (!big)
        app_gauge_title(s, k, g, &p);
    bool compact = p.bottom - p.y < 5.3f * l;
    if (!room(&p, 1))
        return;
    app_gauge_rate(s, m, &t, &p);
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
    gfx_room_push(&s->gfx, g->x, g->y, g->w, g->h);
    draw_gauge_lines(s, k, big, g, l, pad);
    gfx_room_pop(&s->gfx);
    SDL_RenderSetClipRect(r, NULL);
}
