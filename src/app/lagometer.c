/* The lagometer strip (lagometer.h): one rectangle, drawn from a LagRing. */
#include "lagometer.h"
#include "palette.h"
#include "world.h"

#include <stdio.h>
#include <string.h>

#define LAG_BATCH 256
#define LAG_TEXT_STEP_US (250 * NR_US_PER_MS) /* the legend's shares move 4 times a second */

/* Rectangles of one colour, drawn in one call. */
typedef struct Batch {
    SDL_Color c;
    int n;
    SDL_FRect r[LAG_BATCH];
} Batch;

static void batch_flush(SDL_Renderer *rd, Batch *b)
{
    if (b->n == 0)
        return;
    SDL_SetRenderDrawColor(rd, b->c.r, b->c.g, b->c.b, b->c.a);
    SDL_RenderFillRectsF(rd, b->r, b->n);
    b->n = 0;
}

static void batch_add(SDL_Renderer *rd, Batch *b, float x, float y, float w, float h)
{
    if (h <= 0 || w <= 0)
        return;
    if (b->n == LAG_BATCH)
        batch_flush(rd, b);
    b->r[b->n++] = (SDL_FRect){x, y, w, h};
}

/* The strip's geometry: time across, delay up. */
typedef struct Geo {
    float x, w;           /* the plot's pixels across */
    float band_y, band_h; /* the predicted band */
    float plot_y, plot_h; /* the delay plot */
    float col_w;          /* one sample period */
    int64_t from, span, scale_us;
} Geo;

static float x_of(const Geo *g, int64_t t)
{
    return g->x + (float)((double)(t - g->from) * g->w / (double)g->span);
}

/* Height in pixels of v microseconds on the delay plot (at most the plot). */
static float h_of(const Geo *g, int64_t v)
{
    double f = (double)v / (double)g->scale_us;
    return (float)(f < 0 ? 0 : f > 1 ? 1 : f) * g->plot_h;
}

static const LagEvent *visible(const LagometerIn *in, const Geo *g, int i)
{
    const LagEvent *e = lagring_at(in->ring, i);
    return e->sent_us >= g->from - in->period_us && e->sent_us <= in->now_us ? e : NULL;
}

/* The smallest round scale holding every column, Delta and the round trip. */
int64_t lagometer_scale(const LagometerIn *in)
{
    Geo g = {.from = in->now_us - LAG_SPAN_US};
    int64_t top = in->limit_us;
    for (int i = 0; in->ring && i < lagring_count(in->ring); i++) {
        const LagEvent *e = visible(in, &g, i);
        if (e && (int64_t)e->delay_us + e->hold_us > top)
            top = (int64_t)e->delay_us + e->hold_us;
    }
    for (int i = 0; in->net && i < in->net->n; i++)
        if (in->net->t_us[i] >= g.from && in->net->rtt_us[i] > top)
            top = in->net->rtt_us[i];
    static const int64_t steps[] = {100, 200, 300, 500};
    for (int64_t mult = 1;; mult *= 10)
        for (int s = 0; s < 4; s++)
            if (steps[s] * mult * NR_US_PER_MS >= top || mult >= 100000)
                return steps[s] * mult * NR_US_PER_MS;
}

/* Every MU of the strip as its column; lost ones behind the others. */
static void draw_columns(SDL_Renderer *rd, const LagometerIn *in, const Geo *g)
{
    Batch b[LAG_FATES + 1]; /* + the time held, on top of the delay */
    const SDL_Color col[LAG_FATES + 1] = {PAL_LAG_ON_TIME, PAL_LAG_ON_TIME,   PAL_LAG_LATE,
                                          PAL_LAG_DISCARDED, PAL_LAG_LOST, PAL_LAG_REJECTED, PAL_LAG_HELD};
    for (int f = 0; f <= LAG_FATES; f++) {
        b[f].c = col[f];
        b[f].n = 0;
    }
    float bottom = g->plot_y + g->plot_h;
    for (int i = 0; i < lagring_count(in->ring); i++) {
        const LagEvent *e = visible(in, g, i);
        if (!e || e->fate < 0 || e->fate >= LAG_FATES)
            continue;
        float x = x_of(g, e->sent_us), h = h_of(g, e->delay_us);
        if (e->fate == LAG_LOST) {
            batch_add(rd, &b[LAG_LOST], x, g->plot_y, g->col_w, g->plot_h);
        } else if (e->fate == LAG_REJECTED) {
            batch_add(rd, &b[LAG_REJECTED], x, bottom - 3, g->col_w, 3);
        } else {
            batch_add(rd, &b[e->fate], x, bottom - h, g->col_w, h);
            if (e->fate == LAG_HELD) {
                float top = h_of(g, (int64_t)e->delay_us + e->hold_us);
                batch_add(rd, &b[LAG_FATES], x, bottom - top, g->col_w, top - h);
            }
        }
    }
    batch_flush(rd, &b[LAG_LOST]);
    for (int f = 0; f <= LAG_FATES; f++)
        batch_flush(rd, &b[f]);
}

/* The band of the samples at which another car was shown predicted. */
static void draw_predicted(SDL_Renderer *rd, const LagometerIn *in, const Geo *g)
{
    Batch b = {.c = PAL_LAG_PREDICTED};
    unsigned others = ~(1u << in->own);
    int64_t run0 = -1, run1 = -1;
    int n = lagring_shown_count(in->ring);
    for (int i = 0; i <= n; i++) {
        int64_t t = 0;
        bool on = i < n && (lagring_shown_at(in->ring, i, &t) & others) && t >= g->from - in->period_us &&
                  t <= in->now_us;
        if (on && run0 >= 0 && t - run1 <= in->period_us) {
            run1 = t;
            continue;
        }
        if (run0 >= 0) {
            float x0 = x_of(g, run0);
            batch_add(rd, &b, x0, g->band_y, x_of(g, run1) + g->col_w - x0, g->band_h);
        }
        run0 = run1 = on ? t : -1;
    }
    batch_flush(rd, &b);
}

/* Seconds ticks, Delta, the marks and the round trip over the columns. */
static void draw_guides(SDL_Renderer *rd, const LagometerIn *in, const Geo *g, float top, float bottom)
{
    Batch b = {.c = PAL_DIM};
    for (int64_t s = (g->from / NR_US_PER_S + 1) * NR_US_PER_S; s <= in->now_us; s += NR_US_PER_S)
        batch_add(rd, &b, x_of(g, s), bottom - 4, 1, 4);
    batch_flush(rd, &b);
    b.c = PAL_LAG_LIMIT; /* one line over the columns (dashes were 20 rectangles a strip) */
    if (in->limit_us > 0 && in->limit_us <= g->scale_us)
        batch_add(rd, &b, g->x, g->plot_y + g->plot_h - h_of(g, in->limit_us), g->w, 1);
    batch_flush(rd, &b);
    b.c = PAL_LAG_MARK;
    for (int i = 0; i < in->nmarks; i++) {
        int64_t t = in->mark_origin_us + in->marks[i].t_ms * NR_US_PER_MS;
        if (t >= g->from && t <= in->now_us)
            batch_add(rd, &b, x_of(g, t) - 1, top, 2, bottom - top);
    }
    batch_flush(rd, &b);
    if (!in->net)
        return;
    SDL_FPoint p[LAG_NET_SAMPLES];
    int np = 0;
    for (int i = 0; i < in->net->n; i++)
        if (in->net->t_us[i] >= g->from && in->net->t_us[i] <= in->now_us)
            p[np++] = (SDL_FPoint){x_of(g, in->net->t_us[i]), g->plot_y + g->plot_h - h_of(g, in->net->rtt_us[i])};
    SDL_Color c = PAL_FG;
    SDL_SetRenderDrawColor(rd, c.r, c.g, c.b, 255);
    if (np > 1)
        SDL_RenderDrawLinesF(rd, p, np);
}

static void fmt_scale(char *buf, size_t n, int64_t us)
{
    if (us >= NR_US_PER_S)
        snprintf(buf, n, "%lld s", (long long)(us / NR_US_PER_S));
    else
        snprintf(buf, n, "%lld ms", (long long)(us / NR_US_PER_MS));
}

/* The top line: the title, the clock synchronisation (network play), the
 * scale; what does not fit is left out, never cut. */
static void draw_title(Gfx *g, const LagometerIn *in, const Geo *geo, SDL_FRect r, float pad)
{
    char scale[32], net[96] = "";
    fmt_scale(scale, sizeof scale, geo->scale_us);
    if (in->net && in->net->have)
        snprintf(net, sizeof net, "rtt %.2f ms  offset %+.2f ±%.2f ms",
                 in->net->n ? (double)in->net->rtt_us[in->net->n - 1] / 1000.0 : 0.0,
                 (double)in->net->offset_us / 1000.0, (double)in->net->bound_us / 1000.0);
    int sw, tw = 0, nw = 0, th;
    gfx_text_size(g, GFX_SMALL, scale, &sw, &th);
    if (in->title)
        gfx_text_size(g, GFX_SMALL, in->title, &tw, &th);
    if (net[0])
        gfx_text_size(g, GFX_SMALL, net, &nw, &th);
    float room = r.w - 2 * pad, gap = 2 * pad;
    bool with_title = in->title && (float)(tw + sw) + gap <= room;
    bool with_net = net[0] && (float)(nw + sw) + gap + (with_title ? (float)tw + gap : 0) <= room;
    int y = (int)(r.y + pad / 2);
    if ((float)sw <= room)
        gfx_text(g, GFX_SMALL, (int)(r.x + r.w - pad), y, GFX_RIGHT, PAL_DIM, "%s", scale);
    if (with_title)
        gfx_text(g, GFX_SMALL, (int)(r.x + pad), y, GFX_LEFT, PAL_FG, "%s", in->title);
    if (with_net)
        gfx_text(g, GFX_SMALL, (int)(r.x + r.w - pad - (float)sw - gap), y, GFX_RIGHT, PAL_FG, "%s", net);
}

typedef struct LegendItem {
    const char *full, *brief;
    SDL_Color c;
    int64_t n;
} LegendItem;

/* The bottom line: each fate's share of the MUs in the strip and the share
 * of samples shown predicted, in the fates' colours (zero shares left out;
 * short words when the long ones do not fit, then as many as fit). */
static void draw_legend(Gfx *g, const LagometerIn *in, SDL_FRect r, float y, float pad)
{
    int64_t t1 = in->now_us - in->now_us % LAG_TEXT_STEP_US, t0 = t1 - LAG_SPAN_US;
    int64_t tally[LAG_FATES], total = 0, pred = 0, shown = 0;
    lagring_tally(in->ring, t0, t1, tally);
    for (int f = 0; f < LAG_FATES; f++)
        total += tally[f];
    for (int i = 0; i < lagring_shown_count(in->ring); i++) {
        int64_t t;
        unsigned m = lagring_shown_at(in->ring, i, &t);
        if (t >= t0 && t < t1) {
            shown++;
            pred += (m & ~(1u << in->own)) != 0;
        }
    }
    LegendItem it[LAG_FATES + 1] = {
        {"on time", "ok", PAL_LAG_ON_TIME, tally[LAG_ON_TIME]},  {"held", "held", PAL_LAG_HELD, tally[LAG_HELD]},
        {"late used", "late", PAL_LAG_LATE, tally[LAG_LATE_USED]}, {"discarded", "disc", PAL_LAG_DISCARDED, tally[LAG_DISCARDED]},
        {"lost", "lost", PAL_LAG_LOST, tally[LAG_LOST]},        {"rejected", "rej", PAL_LAG_REJECTED, tally[LAG_REJECTED]},
        {"predicted", "pred", PAL_LAG_PREDICTED, pred},
    };
    char text[2][LAG_FATES + 1][48];
    int w[2][LAG_FATES + 1], sum[2] = {0, 0}, h;
    for (int i = 0; i <= LAG_FATES; i++)
        for (int v = 0; v < 2; v++) {
            int64_t of = i == LAG_FATES ? shown : total;
            int pct = of > 0 ? (int)((it[i].n * 100 + of / 2) / of) : 0;
            snprintf(text[v][i], sizeof text[v][i], "%s %d%%", v ? it[i].brief : it[i].full, pct);
            w[v][i] = 0;
            if (it[i].n > 0)
                gfx_text_size(g, GFX_SMALL, text[v][i], &w[v][i], &h);
            sum[v] += w[v][i] > 0 ? w[v][i] + (int)(1.5f * pad) : 0;
        }
    if (total == 0 && pred == 0) {
        gfx_text(g, GFX_SMALL, (int)(r.x + pad), (int)y, GFX_LEFT, PAL_DIM, "no MU in the last 5 s");
        return;
    }
    int v = (float)sum[0] <= r.w - 2 * pad ? 0 : 1;
    float x = r.x + pad;
    for (int i = 0; i <= LAG_FATES; i++) {
        if (w[v][i] == 0)
            continue;
        if (x + (float)w[v][i] > r.x + r.w - pad)
            break;
        gfx_text(g, GFX_SMALL, (int)x, (int)y, GFX_LEFT, it[i].c, "%s", text[v][i]);
        x += (float)w[v][i] + 1.5f * pad;
    }
}

static void panel(SDL_Renderer *rd, SDL_FRect r)
{
    gfx_fill(rd, r.x, r.y, r.w, r.h, PAL_LAG_BG);
    gfx_frame(rd, r.x, r.y, r.w, r.h, gfx_rgb(90, 95, 105));
}

void lagometer_draw(Gfx *g, const LagometerIn *in, SDL_FRect r)
{
    SDL_Renderer *rd = g->r;
    if (r.w < 8 || r.h < 6)
        return;
    panel(rd, r);
    float lh = (float)gfx_line_h(g, GFX_SMALL), pad = lh > 0 ? lh * 0.3f : 2;
    bool text = lh > 0 && r.h >= 4.5f * lh;
    /* a compact strip (a short screen) keeps its title, drops the legend */
    bool title = text || (in->compact && lh > 0 && r.h >= 3.0f * lh);
    if (!in->ring) {
        if (lh > 0 && r.h >= lh)
            gfx_text(g, GFX_SMALL, (int)(r.x + r.w / 2), (int)(r.y + (r.h - lh) / 2), GFX_CENTER, PAL_DIM,
                     "%s", r.w > 20 * lh ? "this screen's MUs are not known here" : "not known here");
        return;
    }
    Geo geo = {.x = r.x + 1, .w = r.w - 2, .span = LAG_SPAN_US};
    geo.from = in->now_us - geo.span;
    geo.col_w = (float)((double)in->period_us * geo.w / (double)geo.span);
    geo.col_w = geo.col_w < 1 ? 1 : geo.col_w;
    float top = r.y + 1 + (title ? lh + pad / 2 : 0), bottom = r.y + r.h - 1 - (text ? lh + pad / 2 : 0);
    geo.band_y = top;
    geo.band_h = (bottom - top) * 0.14f < 2 ? 2 : (bottom - top) * 0.14f;
    geo.plot_y = top + geo.band_h + 1;
    geo.plot_h = bottom - geo.plot_y;
    geo.scale_us = in->scale_us > 0 ? in->scale_us : lagometer_scale(in);
    SDL_Rect clip = {(int)r.x, (int)r.y, (int)r.w, (int)r.h};
    SDL_Rect old;
    bool had = SDL_RenderIsClipEnabled(rd);
    SDL_RenderGetClipRect(rd, &old);
    SDL_RenderSetClipRect(rd, &clip);
    draw_columns(rd, in, &geo);
    draw_predicted(rd, in, &geo);
    draw_guides(rd, in, &geo, top, bottom);
    if (title)
        draw_title(g, in, &geo, r, pad);
    if (text)
        draw_legend(g, in, r, bottom + pad / 2, pad);
    SDL_RenderSetClipRect(rd, had ? &old : NULL);
}

/* The full strip's height on a driving screen: the minimap's size
 * (widget_minimap), at least 5.5 lines. */
static float screen_full_h(const SDL_FRect *screen, int base)
{
    float side = screen->w < screen->h ? screen->w : screen->h, h = side * 0.28f;
    return h < 5.5f * (float)base ? 5.5f * (float)base : h;
}

bool lagometer_screen_compact(const SDL_FRect *screen, int base)
{
    return screen->h - screen_full_h(screen, base) < 22.0f * (float)base;
}

SDL_FRect lagometer_screen_rect(const SDL_FRect *screen, int base)
{
    float pad = (float)base * 0.5f, side = screen->w < screen->h ? screen->w : screen->h;
    float h = screen_full_h(screen, base);
    if (lagometer_screen_compact(screen, base)) /* the title and the columns: 3.4 lines */
        h = h < 3.4f * (float)base ? h : 3.4f * (float)base;
    float w = screen->w - (side * 0.28f >= 60 ? side * 0.28f : 0) - 3 * pad;
    if (w > 40.0f * (float)base)
        w = 40.0f * (float)base;
    return (SDL_FRect){screen->x + pad, screen->y + screen->h - h - pad, w, h};
}

SDL_FRect lagometer_view_rect(const SDL_FRect *view, int base, bool focused)
{
    float h = view->h * (focused ? 0.3f : 0.34f), lift = 0;
    if (focused && view->h > 12 * (float)base) /* above the laps caption (app_draw.c) */
        lift = 1.1f * (float)base;
    return (SDL_FRect){view->x, view->y + view->h - h - lift, view->w, h};
}

void lagnet_add(LagNetHist *h, int64_t t_us, int64_t rtt_us, int64_t offset_us, int64_t bound_us)
{
    h->offset_us = offset_us;
    h->bound_us = bound_us;
    h->have = true;
    if (h->n > 0 && t_us / WORLD_SAMPLE_US == h->t_us[h->n - 1] / WORLD_SAMPLE_US) {
        h->rtt_us[h->n - 1] = rtt_us;
        return;
    }
    if (h->n == LAG_NET_SAMPLES) {
        int drop = LAG_NET_SAMPLES / 2;
        memmove(h->t_us, h->t_us + drop, sizeof h->t_us[0] * (size_t)(LAG_NET_SAMPLES - drop));
        memmove(h->rtt_us, h->rtt_us + drop, sizeof h->rtt_us[0] * (size_t)(LAG_NET_SAMPLES - drop));
        h->n -= drop;
    }
    h->t_us[h->n] = t_us;
    h->rtt_us[h->n] = rtt_us;
    h->n++;
}

static const char *const legend_lines[] = {
    "Lagometer (F2): each terminal's MUs of the last 5 s, one column at each MU's sample,",
    "as tall as its delay: green on time; pale top: held until its output time (Delta);",
    "yellow late but used; red late and discarded; magenta: lost; blue band: the other",
    "car shown predicted (dead reckoning). Grey line: Delta. Yellow lines: marks (F3).",
};

const char *lagometer_legend(int i)
{
    return i >= 0 && i < (int)(sizeof legend_lines / sizeof legend_lines[0]) ? legend_lines[i] : NULL;
}
