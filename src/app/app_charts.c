/* The window's strip charts, each cached in a layer (a texture) redrawn
 * only when its history has grown by about a pixel column: the cumulative
 * inconsistency rate and, with two cars, d1 - d2 per sample, with more
 * cars the fairness spread (docs/window.md). */
#include "app_paint.h"

#include <stdio.h>
#include <string.h>

/* ---- cached layers ----------------------------------------------------- */

/* Makes l a w x h render target in the window's pixel format, made anew
 * (its keys forgotten) when its size changed; false when targets are
 * unsupported. */
bool app_layer_size(AppState *s, AppLayer *l, int w, int h)
{
    if (!l->tex || l->w != w || l->h != h) {
        if (l->tex)
            SDL_DestroyTexture(l->tex);
        l->tex = SDL_CreateTexture(s->r, app_screen_format(s->r), SDL_TEXTUREACCESS_TARGET, w, h);
        l->w = w;
        l->h = h;
        l->key = 0;
        l->text_key[0] = '\0';
    }
    return l->tex != NULL;
}

/* Makes l a w x h render target and points the renderer at it; false when
 * targets are unsupported (the caller then draws straight to the frame). */
bool app_layer_begin(AppState *s, AppLayer *l, int w, int h)
{
    return app_layer_size(s, l, w, h) && SDL_SetRenderTarget(s->r, l->tex) == 0;
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
    int n = s->data.n, nc = racedata_cars(&s->data);
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
            s->chart_y[k][i] = pass == 0 ? h[src].rate * 100.0 : nc > 2 ? h[src].spread : h[src].d1 - h[src].d2;
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
    p.title = pass == 0 ? "inconsistency rate, cumulative (%)"
              : nc > 2 ? "fairness spread, cumulative (car widths, log scale)"
                       : "d1 - d2 per sample (car widths, log scale)";
    p.title_short = pass == 0 ? "inconsistency (%)" : nc > 2 ? "spread (cw, log)" : "d1 - d2 (cw, log)";
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
 * grown by about one pixel column, was reset, or the layout changed. A
 * chart's history grows on the frames that bring a new sample, which are
 * also the frames on which every screen's camera moves; so a redraw due
 * to the history's growth alone (not to a new focus, layout, mark or
 * race, which show at once) waits for the next frame that brings none (at
 * most one frame: with a sample on every frame, as when fast-forwarding,
 * it is drawn on the second), keeping the two costs on different frames. */
void app_draw_charts(AppState *s)
{
    int n = s->data.n;
    int64_t total = 0;
    for (int k = 0; k < n; k++)
        total += s->data.nhistory[k];
    bool grew = total != s->chart_total;
    s->chart_total = total;
    int64_t race_samples = s->data.period_us > 0 ? s->data.end_us / s->data.period_us + 1 : 1;
    for (int pass = 0; pass < 2; pass++) {
        const SDL_FRect *a = &s->lay.chart[pass];
        if (a->w < 40 || a->h < 40)
            return;
        AppLayer *l = &s->chart_layer[pass];
        int64_t per_px = race_samples / (int64_t)a->w + 1;
        int64_t bucket = (int64_t)(n > 0 ? n : 1) * per_px;
        /* what the chart shows besides its history's length */
        uint64_t shows = ((uint64_t)(s->focus + 2) << 8) ^ (uint64_t)n ^ ((uint64_t)s->lay.base << 40) ^
                         ((uint64_t)s->nmarks << 48) ^ (total == 0 ? 0x5a5a5a5aULL : 0);
        /* the second chart's buckets are offset by half: never both redrawn in one frame */
        uint64_t key = ((uint64_t)((total + (pass ? bucket / 2 : 0)) / bucket) << 16) ^ shows;
        if (s->no_layers || !app_layer_begin(s, l, (int)a->w, (int)a->h)) {
            SDL_SetRenderTarget(s->r, NULL);
            draw_chart(s, pass, *a);
            continue;
        }
        bool only_grew = grew && shows == s->chart_shows[pass]; /* not a new focus, layout, race */
        s->chart_shows[pass] = shows;
        if (l->key != key && l->key != 0 && only_grew && !s->chart_waits[pass]) {
            s->chart_waits[pass] = true; /* the old picture for one more frame */
        } else if (l->key != key) {
            SDL_FRect at = {0, 0, a->w, a->h};
            draw_chart(s, pass, at);
            l->key = key;
            s->chart_waits[pass] = false;
        }
        app_layer_end(s, l, a->x, a->y);
    }
}
