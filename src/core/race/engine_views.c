/* The engine's views and metrics sample: what each terminal displays at a
 * sample (computed here for a local terminal, arrived for a remote one),
 * the displayed progress of a shown car, and the pairing of every
 * terminal's view of a sample into one metrics sample (engine.h; racing
 * paper Section 2 for d1, d2 and the inconsistency). */
#include "engine_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool engine_alloc_views(Engine *e)
{
    bool any_remote = false;
    for (int j = 0; j < e->ncars; j++)
        any_remote |= e->remote[j];
    /* All local: each sample is taken as soon as it is processed. */
    e->nviews = any_remote ? ENGINE_VIEWS : 1;
    size_t per = (size_t)e->n * (size_t)e->ncars;
    e->shown = calloc((size_t)e->ncars * (size_t)e->nviews * per, sizeof *e->shown);
    e->seen = calloc(per * (size_t)e->ncars, sizeof *e->seen);
    if (!e->shown || !e->seen)
        return false;
    for (int j = 0; j < e->ncars; j++) {
        e->views[j] = calloc((size_t)e->nviews, sizeof *e->views[j]);
        if (!e->views[j])
            return false;
        for (int i = 0; i < e->nviews; i++)
            e->views[j][i].car = e->shown + ((size_t)j * (size_t)e->nviews + (size_t)i) * per;
    }
    return true;
}

void engine_free_views(Engine *e)
{
    for (int j = 0; j < e->ncars; j++)
        free(e->views[j]);
    free(e->shown);
    free(e->seen);
}

void engine_reset_views(Engine *e)
{
    for (int j = 0; j < e->ncars; j++) {
        for (int i = 0; i < e->nviews && e->views[j]; i++)
            e->views[j][i].idx = -1;
        e->newest[j] = -1;
        e->kept[j] = -1;
    }
    e->next_metric = 0;
    e->skipped = 0;
}

void engine_store_progress(Engine *e, int car, int64_t idx, double v)
{
    e->prog[car][idx % e->prog_cap] = v;
    e->ptag[car][idx % e->prog_cap] = idx;
}

/* True progress of the current heat's sample seq of car, if still known. */
static bool known_progress(const Engine *e, int car, int32_t seq, double *out)
{
    if (seq < e->given_n) {
        *out = e->given_prog[car][seq];
        return true;
    }
    int64_t i = e->heat_first + seq;
    if (e->ptag[car][i % e->prog_cap] != i)
        return false;
    *out = e->prog[car][i % e->prog_cap];
    return true;
}

/* The true progress of the sample shown when known, else the projection
 * near the car's true progress at that instant (hint). */
double engine_displayed_progress(const Engine *e, int car, double x, double y, int32_t seq, double hint)
{
    double v;
    if (seq >= 0 && known_progress(e, car, seq, &v))
        return v;
    return track_progress(e->track, x, y, hint);
}

/* nviews is a power of two (1 or ENGINE_VIEWS): a mask, not a division,
 * on the per-sample path. */
static ViewSlot *slot_of(const Engine *e, int j, int64_t idx)
{
    return &e->views[j][idx & (e->nviews - 1)];
}

/* Every local terminal's displays at sample idx (time t_us), after the
 * deliveries of that instant. A sample whose local view is about to be
 * overwritten is given up first. */
void engine_capture_views(Engine *e, int64_t idx, int64_t t_us)
{
    while (e->next_metric <= idx - e->nviews) {
        e->skipped++;
        e->next_metric++;
    }
    const int n = e->n, nc = e->ncars; /* locals: the stores below may alias e */
    for (int j = 0; j < nc; j++) {
        if (e->remote[j])
            continue;
        ViewSlot *v = slot_of(e, j, idx);
        const Terminal *term = e->term[j];
        int64_t lt = engine_local_time(e, j, t_us);
        v->idx = idx;
        v->t_us = t_us;
        v->progress = e->cur_prog[j];
        ShownCar *out = v->car;
        for (int k = 0; k < n; k++) {
            Pose pose[ENGINE_MAX_CARS];
            terminal_display_all(term, k, lt, pose);
            for (int c = 0; c < nc; c++)
                *out++ = (ShownCar){pose[c].x, pose[c].y, pose[c].seq};
        }
        if (e->lag)
            engine_lag_shown(e, j, t_us, v->car);
    }
}

/* The progress of poses a sample has projected already, by car: terminals
 * that show a car from the same MUs show it at the same pose, projected
 * once (the hint, the car's truth at the sample, is the same for every
 * terminal and scheme). */
#define PROJECTED_MAX 8

typedef struct Projected {
    uint64_t x[ENGINE_MAX_CARS][PROJECTED_MAX], y[ENGINE_MAX_CARS][PROJECTED_MAX];
    double v[ENGINE_MAX_CARS][PROJECTED_MAX];
    int n[ENGINE_MAX_CARS];
} Projected;

static uint64_t bits_of(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

/* engine_displayed_progress, each pose of a sample projected once. */
static double seen_progress(const Engine *e, Projected *pr, int c, const ShownCar *sc, double hint)
{
    double v;
    if (sc->seq >= 0 && known_progress(e, c, sc->seq, &v))
        return v;
    uint64_t x = bits_of(sc->x), y = bits_of(sc->y);
    int n = pr->n[c] < PROJECTED_MAX ? pr->n[c] : PROJECTED_MAX;
    for (int i = 0; i < n; i++)
        if (pr->x[c][i] == x && pr->y[c][i] == y)
            return pr->v[c][i];
    v = track_progress(e->track, sc->x, sc->y, hint);
    int i = pr->n[c]++ % PROJECTED_MAX; /* full: the oldest makes room */
    pr->x[c][i] = x;
    pr->y[c][i] = y;
    pr->v[c][i] = v;
    return v;
}

/* Sample idx's metrics from every terminal's view of it. */
static void pair_views(Engine *e, int64_t idx)
{
    Projected pr;
    memset(pr.n, 0, sizeof pr.n);
    const ViewSlot *at[ENGINE_MAX_CARS];
    double truth[ENGINE_MAX_CARS];
    const int n = e->n, nc = e->ncars;
    int64_t t = -1;
    for (int j = 0; j < nc; j++) {
        at[j] = slot_of(e, j, idx);
        truth[j] = at[j]->progress; /* terminal j owns car j */
        if (!e->remote[j] && t < 0)
            t = at[j]->t_us; /* a local view's time: a remote one is only data */
    }
    /* A sample of the given progress (known_progress's first case) read
     * here, the rest by seen_progress: the given arrays in locals, as the
     * stores into seen could otherwise alias them. */
    const double *given[ENGINE_MAX_CARS];
    const int given_n = e->given_n;
    for (int c = 0; c < nc; c++)
        given[c] = e->given_prog[c];
    double *p = e->seen; /* [(k * nc + j) * nc + c] */
    for (int k = 0; k < n; k++, p += nc * nc) {
        for (int j = 0; j < nc; j++) {
            const ShownCar *sc = at[j]->car + k * nc;
            double *row = p + j * nc;
            for (int c = 0; c < nc; c++) {
                int32_t seq = sc[c].seq;
                row[c] = seq >= 0 && seq < given_n ? given[c][seq] : seen_progress(e, &pr, c, &sc[c], truth[c]);
            }
        }
        Slot *s = &e->s[k];
        metrics_add(&s->m, t, p, nc);
        if (!s->hist)
            continue;
        MetricSample ms = metrics_sample(&s->m, t);
        if (s->hist_n == e->hist_cap) { /* drop the older half: constant memory */
            int drop = (e->hist_cap + 1) / 2;
            memmove(s->hist, s->hist + drop, sizeof *s->hist * (size_t)(s->hist_n - drop));
            s->hist_n -= drop;
        }
        s->hist[s->hist_n++] = ms;
    }
    if (e->hooks.on_sample) {
        EngineSample es = {t, (int32_t)(idx - e->heat_first), nc, truth, e->seen};
        e->hooks.on_sample(e->hooks.ctx, &es);
    }
}

/* Takes every sample, in order, whose views are all known; gives up one
 * whose missing remote views every such terminal has left behind by
 * ENGINE_VIEW_SKIP samples. */
void engine_take_metrics(Engine *e)
{
    while (e->next_metric < e->processed) {
        int64_t i = e->next_metric;
        bool missing = false, wait = false;
        for (int j = 0; j < e->ncars; j++) {
            if (slot_of(e, j, i)->idx == i)
                continue;
            missing = true;
            if (!e->remote[j] || e->newest[j] < i + ENGINE_VIEW_SKIP)
                wait = true;
        }
        if (wait)
            return;
        if (missing)
            e->skipped++;
        else
            pair_views(e, i);
        e->next_metric++;
    }
}

bool engine_put_view(Engine *e, int j, const TerminalView *v)
{
    if (j < 0 || j >= e->ncars || !e->remote[j] || v->nschemes != e->n || v->ncars != e->ncars || v->seq < 0)
        return false;
    int64_t idx = e->heat_first + v->seq;
    if (idx > e->newest[j])
        e->newest[j] = idx;
    if (idx < e->next_metric || idx >= e->next_metric + e->nviews) {
        engine_take_metrics(e);
        return false; /* given up already, or beyond what the ring holds */
    }
    ViewSlot *s = slot_of(e, j, idx);
    s->idx = idx;
    s->t_us = -1;
    s->progress = v->progress;
    memcpy(s->car, v->car, sizeof *s->car * (size_t)e->n * (size_t)e->ncars);
    engine_store_progress(e, j, idx, v->progress);
    if (idx > e->kept[j])
        e->kept[j] = idx;
    engine_take_metrics(e);
    return true;
}

bool engine_local_view(const Engine *e, int j, int32_t seq, TerminalView *out)
{
    if (j < 0 || j >= e->ncars || e->remote[j] || seq < 0)
        return false;
    int64_t idx = e->heat_first + seq;
    const ViewSlot *s = slot_of(e, j, idx);
    if (s->idx != idx)
        return false;
    *out = (TerminalView){.seq = seq, .nschemes = e->n, .ncars = e->ncars, .progress = s->progress,
                          .car = s->car};
    return true;
}

int64_t engine_views_skipped(const Engine *e)
{
    return e->skipped;
}

/* Laps and leader of a view whose poses and progress are filled (one rule
 * for a local and a remote terminal's screen). */
static void view_standing(const Engine *e, EngineView *out)
{
    double len = track_length(e->track);
    for (int c = 0; c < e->ncars; c++) {
        out->lap[c] = (int)floor(out->progress[c] / len);
        if (out->lap[c] < 0)
            out->lap[c] = 0;
    }
    out->leader = 0; /* the car shown furthest; a tie goes to the later car */
    for (int c = 1; c < e->ncars; c++)
        if (out->progress[c] >= out->progress[out->leader])
            out->leader = c;
}

void engine_view(const Engine *e, int k, int terminal, EngineView *out)
{
    for (int c = 0; c < e->ncars; c++) {
        engine_display(e, k, terminal, c, &out->pose[c]);
        out->progress[c] = engine_displayed_progress(e, c, out->pose[c].x, out->pose[c].y, out->pose[c].seq,
                                                     e->cur_prog[c]);
    }
    view_standing(e, out);
}

int32_t engine_remote_view(const Engine *e, int k, int j, EngineView *out)
{
    if (j < 0 || j >= e->ncars || !e->remote[j] || k < 0 || k >= e->n || e->kept[j] < e->heat_first)
        return -1;
    const ViewSlot *s = slot_of(e, j, e->kept[j]);
    if (s->idx != e->kept[j])
        return -1;
    int32_t seq = (int32_t)(s->idx - e->heat_first);
    const ShownCar *sc = s->car + k * e->ncars;
    for (int c = 0; c < e->ncars; c++) {
        /* a predicted pose is projected near the car's truth at that
         * sample, as when the view is paired (pair_views) */
        double hint = e->cur_prog[c];
        if (c == j)
            hint = s->progress;
        else
            (void)known_progress(e, c, seq, &hint);
        out->progress[c] = engine_displayed_progress(e, c, sc[c].x, sc[c].y, sc[c].seq, hint);
        double heading;
        track_point(e->track, out->progress[c], NULL, NULL, &heading); /* a VIEW carries no heading */
        out->pose[c] = (Pose){sc[c].x, sc[c].y, heading, sc[c].seq};
    }
    view_standing(e, out);
    return seq;
}

void engine_display(const Engine *e, int k, int j, int car, Pose *out)
{
    if (e->remote[j]) {
        *out = (Pose){0.0, 0.0, 0.0, -1};
        return;
    }
    terminal_display(e->term[j], k, car, engine_local_time(e, j, e->now_us), out);
}

void engine_sample_race_progress(const EngineSample *s, int k, RaceProgress *out)
{
    memset(out, 0, sizeof *out);
    for (int c = 0; c < s->ncars && c < RACEFLOW_CARS; c++) {
        out->truth[c] = s->truth[c];
        for (int j = 0; j < s->ncars && j < RACEFLOW_CARS; j++)
            out->seen[j][c] = engine_sample_seen(s, k, j, c);
    }
}
