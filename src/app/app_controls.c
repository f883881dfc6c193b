/* The overview's live controls: link specs rebuilt with one value changed
 * and handed to the engine (engine_set_link, engine_set_params), the
 * buttons (pause, step, restart, loop, reset, overlays, zoom, help). */
#include "app_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const dist_names[] = {"none", "normal", "pareto", "paretonormal"};
#define NDIST 4

static const double speeds[] = {0.25, 0.5, 1, 2, 4, 8};
#define NSPEEDS 6

/* Name of a spec's distribution table as the cycle knows it. */
static void spec_dist(const LinkSpec *l, char *buf, size_t n)
{
    if (l->table.n <= 0) {
        snprintf(buf, n, "none");
        return;
    }
    const char *base = strrchr(l->table.name, '/');
    base = base ? base + 1 : l->table.name;
    snprintf(buf, n, "%s", base);
    char *dot = strstr(buf, ".dist");
    if (dot)
        *dot = '\0';
}

static void fmt_time(char *buf, size_t n, int64_t us)
{
    if (us % 1000 == 0)
        snprintf(buf, n, "%lldms", (long long)(us / 1000));
    else
        snprintf(buf, n, "%lldus", (long long)us);
}

bool app_link_text(const LinkSpec *l, int64_t delay_us, int64_t jitter_us, double loss_p,
                   const char *dist, char *buf, size_t n)
{
    char d[32], j[32], tmp[96];
    size_t len = 0;
    buf[0] = '\0';
#define ADD(...)                                                                                   \
    do {                                                                                           \
        snprintf(tmp, sizeof tmp, __VA_ARGS__);                                                    \
        size_t tl = strlen(tmp);                                                                   \
        if (len + tl + 1 > n)                                                                      \
            return false;                                                                          \
        memcpy(buf + len, tmp, tl + 1);                                                            \
        len += tl;                                                                                 \
    } while (0)
    fmt_time(d, sizeof d, delay_us);
    ADD("delay %s", d);
    if (jitter_us > 0) {
        fmt_time(j, sizeof j, jitter_us);
        ADD(" %s", j);
        if (l->delay_corr > 0)
            ADD(" %g%%", l->delay_corr * 100.0);
        if (dist && strcmp(dist, "none") != 0)
            ADD(" distribution %s", dist);
    }
    if (loss_p > 0) {
        ADD(" loss %g%%", loss_p * 100.0);
        if (l->loss_kind == LINK_LOSS_RANDOM && l->loss_corr > 0)
            ADD(" %g%%", l->loss_corr * 100.0);
    } else if (loss_p < 0 && l->loss_kind == LINK_LOSS_GEMODEL) {
        /* loss untouched: keep the Gilbert-Elliott model as it was */
        ADD(" loss gemodel %g%% %g%% %g%% %g%%", l->ge_p * 100.0, l->ge_r * 100.0, l->ge_h * 100.0,
            l->ge_k * 100.0);
    }
    if (l->dup_p > 0)
        ADD(" duplicate %g%%", l->dup_p * 100.0);
    if (l->fifo)
        ADD(" order fifo");
#undef ADD
    return true;
}

/* The causality check (scheme_delta_late, the command lines' too) on the
 * window's live race: its schemes (only the shown one with shown >= 0),
 * Delta and the slower of its two links. */
bool app_delta_notice(const Engine *e, int shown, char *buf, size_t n, char *sbuf, size_t sn)
{
    buf[0] = sbuf[0] = '\0';
    if (engine_car_count(e) != 2 || engine_topology(e) != ROUTE_P2P)
        return false; /* N cars, cs: the command line names no link either */
    const SchemeType *st[SCHEME_MAX];
    int ns = 0;
    for (int k = 0; k < engine_scheme_count(e) && ns < SCHEME_MAX; k++)
        if (shown < 0 || k == shown)
            st[ns++] = engine_scheme(e, k);
    double m12 = linkspec_mean_ms(engine_link(e, 0)), m21 = linkspec_mean_ms(engine_link(e, 1));
    double most = fmax(m12, m21), delta_ms = (double)engine_params(e)->delta_us / (double)NR_US_PER_MS;
    char names[128];
    if (!scheme_delta_late(st, ns, engine_params(e)->delta_us, most, names, sizeof names))
        return false;
    const char *link = m12 >= m21 ? "1→2" : "2→1";
    snprintf(buf, n, "%s: Δ %.0f ms is below link %s's mean delay %.0f ms: most updates arrive late and are "
                     "discarded", names, delta_ms, link, most);
    snprintf(sbuf, sn, "%s: Δ %.0f ms < delay %s %.0f ms", names, delta_ms, link, most);
    return true;
}

/* Current loss probability of a spec as the loss control shows it. */
void app_link_short(const LinkSpec *in, char *ls, size_t n)
{
    int dl = (int)(in->delay_us / NR_US_PER_MS), jt = (int)(in->jitter_us / NR_US_PER_MS);
    bool random_loss = in->loss_kind == LINK_LOSS_RANDOM;
    if (random_loss && in->loss_p >= 1.0) /* an outage: say so, not "0 ms" */
        snprintf(ls, n, "down (loss 100%%)");
    else if (jt > 0)
        snprintf(ls, n, "%d±%d ms", dl, jt);
    else
        snprintf(ls, n, "%d ms", dl);
    if (random_loss && in->loss_p > 0 && in->loss_p < 1.0) {
        size_t u = strlen(ls);
        snprintf(ls + u, n - u, " loss %.3g%%", in->loss_p * 100.0);
    }
}

static double spec_loss(const LinkSpec *l)
{
    return l->loss_kind == LINK_LOSS_RANDOM ? l->loss_p : 0.0;
}

/* Rebuild direction dir's spec with one field changed and hand it to the engine. */
static void change_link(AppState *s, int dir, int64_t delay_us, int64_t jitter_us, double loss_p,
                        const char *dist)
{
    const LinkSpec *cur = engine_link(s->e, dir);
    char text[LINK_TEXT_MAX];
    if (!app_link_text(cur, delay_us, jitter_us, loss_p, dist, text, sizeof text)) {
        app_set_message(s, "link %s: spec too long", dir == 0 ? "1->2" : "2->1");
        return;
    }
    LinkSpec spec;
    memset(&spec, 0, sizeof spec);
    NrError err = {{0}};
    if (!linkspec_parse(&spec, text, s->cfg.table_dir, &err)) {
        app_set_message(s, "link %s '%s': %s", dir == 0 ? "1->2" : "2->1", text, err.msg);
        linkspec_free(&spec);
        return;
    }
    if (!engine_set_link(s->e, dir, &spec, &err))
        app_set_message(s, "link %s: %s", dir == 0 ? "1->2" : "2->1", err.msg);
    linkspec_free(&spec);
}

static int speed_index(double v)
{
    int best = 0;
    for (int i = 1; i < NSPEEDS; i++)
        if (fabs(speeds[i] - v) < fabs(speeds[best] - v))
            best = i;
    return best;
}

void app_ctl_value(const AppState *s, int ctl, char *buf, size_t n)
{
    int dir = (ctl >= CTL_DELAY21 && ctl <= CTL_LOSS21) ? 1 : 0;
    const LinkSpec *l = engine_link(s->e, dir);
    const SchemeParams *p = engine_params(s->e);
    if (l->trace.on && ctl >= CTL_DELAY12 && ctl <= CTL_LOSS21) {
        snprintf(buf, n, "trace"); /* the measured trace gives them */
        return;
    }
    switch (ctl) {
    case CTL_DELAY12:
    case CTL_DELAY21:
        snprintf(buf, n, "%.0f ms", (double)l->delay_us / 1000.0);
        break;
    case CTL_JITTER12:
    case CTL_JITTER21:
        snprintf(buf, n, "%.0f ms", (double)l->jitter_us / 1000.0);
        break;
    case CTL_LOSS12:
    case CTL_LOSS21:
        snprintf(buf, n, "%g %%", spec_loss(l) * 100.0);
        break;
    case CTL_DIST:
        spec_dist(engine_link(s->e, 0), buf, n);
        break;
    case CTL_DELTA:
        snprintf(buf, n, "%.0f ms", (double)p->delta_us / 1000.0);
        break;
    case CTL_TDR:
        snprintf(buf, n, "%.2f cw", p->tdr_cw);
        break;
    case CTL_SPEED:
        snprintf(buf, n, "%gx", s->speed);
        break;
    default:
        buf[0] = '\0';
    }
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* One link's delay, jitter or loss control: the spec rebuilt with the new
 * value (a trace link refuses: rebuilding would drop the measured trace). */
static void change_link_ctl(AppState *s, int ctl, int step)
{
    int ld = (ctl >= CTL_DELAY21 && ctl <= CTL_LOSS21) ? 1 : 0;
    const LinkSpec *l = engine_link(s->e, ld);
    char dist[64];
    spec_dist(l, dist, sizeof dist);
    double keep_loss = l->loss_kind == LINK_LOSS_GEMODEL ? -1.0 : spec_loss(l);
    if (l->trace.on) {
        app_set_message(s, "link %s is a trace: its delays and losses come from the file (--link%s)",
                        ld == 0 ? "1->2" : "2->1", ld == 0 ? "12" : "21");
        return;
    }
    if (ctl == CTL_DELAY12 || ctl == CTL_DELAY21) {
        int64_t v = clamp64((l->delay_us / 10000 + step) * 10000, 0, 2000000);
        change_link(s, ld, v, l->jitter_us, keep_loss, dist);
    } else if (ctl == CTL_JITTER12 || ctl == CTL_JITTER21) {
        int64_t v = clamp64((l->jitter_us / 5000 + step) * 5000, 0, 1000000);
        change_link(s, ld, l->delay_us, v, keep_loss, dist);
    } else {
        double v = floor(spec_loss(l) * 100.0 + 0.5) + step;
        v = v < 0 ? 0 : v > 90 ? 90 : v;
        change_link(s, ld, l->delay_us, l->jitter_us, v / 100.0, dist);
    }
}

/* The distribution of both links, cycled by dir. */
static void change_dist(AppState *s, int dir)
{
    char dist[64];
    spec_dist(engine_link(s->e, 0), dist, sizeof dist);
    int cur = 0;
    for (int i = 0; i < NDIST; i++)
        if (strcmp(dist, dist_names[i]) == 0)
            cur = i;
    int next = ((cur + (dir >= 0 ? 1 : -1)) % NDIST + NDIST) % NDIST;
    for (int d = 0; d < 2; d++) {
        const LinkSpec *ll = engine_link(s->e, d);
        if (ll->trace.on)
            continue; /* a trace has no jitter to shape */
        change_link(s, d, ll->delay_us, ll->jitter_us, ll->loss_kind == LINK_LOSS_GEMODEL ? -1.0 : spec_loss(ll),
                    dist_names[next]);
    }
    if (engine_link(s->e, 0)->jitter_us == 0 && engine_link(s->e, 1)->jitter_us == 0)
        app_set_message(s, "distribution applies to the jitter: set a jitter first");
}

void app_ctl_change(AppState *s, int ctl, int dir, bool big)
{
    if (s->cfg.live && ctl == CTL_SPEED)
        return; /* the race runs at the drivers' pace */
    if (!s->e) {
        app_set_message(s, "a network race: its links and parameters were set when it began");
        return;
    }
    if (app_links_fixed(s) && ctl <= CTL_DIST) {
        app_set_message(s, "this race's links are set on the command line (--link I-J, --links FILE)");
        return;
    }
    int step = dir * (big ? 5 : 1);
    SchemeParams p = *engine_params(s->e);
    switch (ctl) {
    case CTL_DELAY12: case CTL_JITTER12: case CTL_LOSS12:
    case CTL_DELAY21: case CTL_JITTER21: case CTL_LOSS21:
        change_link_ctl(s, ctl, step);
        break;
    case CTL_DIST:
        change_dist(s, dir);
        break;
    case CTL_DELTA:
        p.delta_us = clamp64((p.delta_us / 10000 + step) * 10000, 0, SCHEME_DELTA_MAX_US);
        engine_set_params(s->e, &p);
        break;
    case CTL_TDR: {
        double v = floor(p.tdr_cw * 20.0 + 0.5) + step;
        v = v < 1 ? 1 : v > 100 ? 100 : v;
        p.tdr_cw = v / 20.0;
        engine_set_params(s->e, &p);
        break;
    }
    case CTL_SPEED: {
        int i = speed_index(s->speed) + (dir > 0 ? 1 : -1);
        s->speed = speeds[i < 0 ? 0 : i >= NSPEEDS ? NSPEEDS - 1 : i];
        break;
    }
    default:
        break;
    }
}

double app_speed_nearest(double v)
{
    return speeds[speed_index(v)];
}

static void single_step(AppState *s)
{
    s->paused = true;
    int64_t period = app_period_us(s->e);
    if (replay_done(s->rp) && s->loop)
        app_restart(s);
    app_step_to(s, engine_now(s->e) + period);
}

void app_ctl_press(AppState *s, int ctl)
{
    if (s->cfg.live && (ctl == BTN_PAUSE || ctl == BTN_STEP || ctl == BTN_RESTART || ctl == BTN_LOOP)) {
        app_set_message(s, "the race is being driven: pause or restart it in the game window");
        return;
    }
    if (!s->e && (ctl == BTN_RESET || ctl == BTN_GHOST || ctl == BTN_INFLIGHT)) {
        app_set_message(s, "a network race: its metrics and packets are the terminals' own");
        return;
    }
    switch (ctl) {
    case BTN_PAUSE:
        s->paused = !s->paused;
        break;
    case BTN_STEP:
        single_step(s);
        break;
    case BTN_RESTART:
        app_restart(s);
        break;
    case BTN_LOOP:
        s->loop = !s->loop;
        break;
    case BTN_RESET:
        engine_reset_metrics(s->e);
        s->gtext_valid = false;
        app_set_message(s, "gauges reset at t = %.1f s", (double)engine_now(s->e) / 1e6);
        break;
    case BTN_GHOST:
        s->overlays ^= APP_OVERLAY_GHOST;
        break;
    case BTN_TRAILS:
        s->overlays ^= APP_OVERLAY_TRAILS;
        if (s->overlays & APP_OVERLAY_TRAILS)
            app_clear_trails(s); /* no stale positions from the last time they were on */
        break;
    case BTN_INFLIGHT:
        s->overlays ^= APP_OVERLAY_INFLIGHT;
        break;
    case BTN_ZOOM:
        s->follow[s->focus >= 0] = !s->follow[s->focus >= 0];
        break;
    case BTN_HELP:
        s->help = !s->help;
        break;
    default:
        break;
    }
}

