/* One frame of the game: each player's screen (camera on the own car, the
 * race as that terminal displays it), the start lights and the overlays
 * (grid, pause, help, results as each terminal saw them). */
#include "play_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Car widths across the short side of a screen: enough to see a bend and
 * the other car coming, small enough that a car is 20+ pixels long. */
#define PLAY_VIEW_SPAN_CW 30.0
/* The camera looks ahead of the car by this many seconds of its speed, at
 * most PLAY_LOOKAHEAD_MAX_CW, so the road in front is on screen. */
#define PLAY_LOOKAHEAD_S 0.2
#define PLAY_LOOKAHEAD_MAX_CW 5.0

static SDL_FRect screen_rect(int j, int w, int h)
{
    float half = (float)w / 2.0f;
    SDL_FRect r = {j == 0 ? 0.0f : half + 1.0f, 0.0f, half - 1.0f, (float)h};
    return r;
}

void play_shown_pose(const PlayState *ps, int j, int car, Pose *out)
{
    const Engine *e = liverace_engine(ps->lr);
    EngineView v;
    engine_view(e, ps->cfg->race.shown, j, &v);
    *out = v.pose[car];
    if (car != j)
        return;
    Pose truth;
    engine_truth(e, j, &truth, NULL);
    /* the scheme shows the own car where it is: draw where it is this frame */
    if (v.pose[j].x == truth.x && v.pose[j].y == truth.y && v.pose[j].heading == truth.heading)
        liverace_pose(ps->lr, j, out);
}

void play_screen_xform(const PlayState *ps, int j, int w, int h, AppXform *x)
{
    SDL_FRect rect = screen_rect(j, w, h);
    Pose p;
    play_shown_pose(ps, j, j, &p);
    double ahead = fmin(fabs(liverace_speed(ps->lr, j)) * PLAY_LOOKAHEAD_S, PLAY_LOOKAHEAD_MAX_CW);
    x->rect = rect;
    x->cx = rect.x + rect.w / 2;
    x->cy = rect.y + rect.h / 2;
    x->wx = p.x + cos(p.heading) * ahead;
    x->wy = p.y + sin(p.heading) * ahead;
    x->scale = (float)(fmin(rect.w, rect.h) / PLAY_VIEW_SPAN_CW);
}

static void draw_car(PlayState *ps, const AppXform *x, const Pose *p, int c)
{
    if (!ps->car_tex[c]) {
        app_draw_car(ps->view, x, p->x, p->y, p->heading, pal_car(c), false);
        return;
    }
    float cx, cy;
    app_world_to_px(x, p->x, p->y, &cx, &cy);
    /* the sprite is 2:1, the car body 2 cw long and 1 cw wide */
    float len = 2.0f * x->scale, wid = 1.0f * x->scale;
    SDL_FRect dst = {cx - len / 2, cy - wid / 2, len, wid};
    double deg = -p->heading * 180.0 / NR_PI; /* screen y grows downwards */
    SDL_RenderCopyExF(ps->r, ps->car_tex[c], NULL, &dst, deg, NULL, SDL_FLIP_NONE);
}

void play_fmt_time(char *buf, size_t n, int64_t us)
{
    if (us < 0) {
        snprintf(buf, n, "--:--.---");
        return;
    }
    int64_t ms = us / NR_US_PER_MS;
    snprintf(buf, n, "%d:%02d.%03d", (int)(ms / 60000), (int)(ms / 1000 % 60), (int)(ms % 1000));
}

/* A running clock in tenths: its text changes 10 times a second, not every
 * frame (each new text is a font render; digits changing 60 times a second
 * are unreadable anyway). Completed times keep their milliseconds. */
static void fmt_running(char *buf, size_t n, int64_t us)
{
    int64_t ds = (us < 0 ? 0 : us) / (100 * NR_US_PER_MS);
    snprintf(buf, n, "%d:%02d.%d", (int)(ds / 600), (int)(ds / 10 % 60), (int)(ds % 10));
}

static const char *kind_text(const PlayState *ps, int j, char *buf, size_t n)
{
    switch (ps->cfg->kind[j]) {
    case PLAYER_KEYS: {
        char k[64];
        playkeys_describe(&ps->keys, j, k, sizeof k);
        snprintf(buf, n, "keys %s", k);
        break;
    }
    case PLAYER_PAD:
        snprintf(buf, n, "%s", pads_has(&ps->pads, j) ? pads_name(&ps->pads, j) : "no pad yet");
        break;
    case PLAYER_BOT:
        snprintf(buf, n, "bot");
        break;
    default:
        snprintf(buf, n, "script");
        break;
    }
    return buf;
}

static void hud(PlayState *ps, int j, const SDL_FRect *rect)
{
    Gfx *g = &ps->view->gfx;
    const Engine *e = liverace_engine(ps->lr);
    const RaceFlow *rf = liverace_flow(ps->lr);
    int k = ps->cfg->race.shown;
    float l = (float)gfx_line_h(g, GFX_NORMAL), lb = (float)gfx_line_h(g, GFX_BIG);
    float pad = (float)ps->view->lay.base * 0.4f;
    SDL_SetRenderDrawBlendMode(ps->r, SDL_BLENDMODE_BLEND);
    gfx_fill(ps->r, rect->x, rect->y, rect->w, lb + l + 2 * pad, PAL_HUD_BG);
    SDL_SetRenderDrawBlendMode(ps->r, SDL_BLENDMODE_NONE);
    int x0 = (int)(rect->x + pad), y0 = (int)(rect->y + pad / 2);
    char who[96];
    int w = gfx_text(g, GFX_BIG, x0, y0, GFX_LEFT, pal_car(j), "P%d", j + 1);
    gfx_text(g, GFX_NORMAL, x0 + w + (int)pad, y0 + (int)(lb - l), GFX_LEFT, PAL_DIM, "%s", kind_text(ps, j, who, sizeof who));

    /* laps and position as this terminal shows them */
    EngineView v;
    engine_view(e, k, j, &v);
    int lap = rf->laps[j][j];
    char line[128], t[32];
    if (rf->cfg.duration_us > 0) {
        int64_t left = rf->cfg.duration_us - ps->race_us;
        fmt_running(t, sizeof t, left < 0 ? 0 : left);
        snprintf(line, sizeof line, "%s left", t);
    } else if (lap >= rf->cfg.laps) {
        play_fmt_time(t, sizeof t, rf->cross_us[j][j][rf->cfg.laps - 1]);
        snprintf(line, sizeof line, "Finished %s", t); /* as this terminal saw its own line */
    } else {
        snprintf(line, sizeof line, "Lap %d/%d", lap + 1, rf->cfg.laps);
    }
    gfx_text(g, GFX_BIG, (int)(rect->x + rect->w / 2), y0, GFX_CENTER, PAL_FG, "%s", line);
    bool first = v.leader == j;
    gfx_text(g, GFX_BIG, (int)(rect->x + rect->w - pad), y0, GFX_RIGHT, first ? PAL_ACCENT : PAL_FG, "%s",
             first ? "1st" : "2nd");
    /* second row: lap time, the scheme, the link bringing the other car */
    int64_t since = lap > 0 ? rf->cross_us[j][j][lap - 1] : 0;
    bool done = rf->cfg.duration_us <= 0 && lap >= rf->cfg.laps;
    /* the running lap; after the finish, the last lap's time */
    int64_t shown = done ? since - (lap > 1 ? rf->cross_us[j][j][lap - 2] : 0) : ps->race_us - since;
    if (done)
        play_fmt_time(t, sizeof t, shown);
    else
        fmt_running(t, sizeof t, rf->phase >= RF_RACING ? shown : 0);
    int y1 = (int)(rect->y + pad / 2 + lb);
    int lw = gfx_text(g, GFX_NORMAL, x0, y1, GFX_LEFT, PAL_FG, "lap %s", t);
    if (lap > 0) {
        char best[32];
        int64_t b = -1;
        for (int i = 0; i < lap && i < RACEFLOW_MAX_LAPS; i++) {
            int64_t lt = rf->cross_us[j][j][i] - (i ? rf->cross_us[j][j][i - 1] : 0);
            if (b < 0 || lt < b)
                b = lt;
        }
        play_fmt_time(best, sizeof best, b);
        gfx_text(g, GFX_NORMAL, x0 + lw + (int)pad * 2, y1, GFX_LEFT, PAL_DIM, "best %s", best);
    }
    /* the link that brings the other car to this screen, in short */
    const LinkSpec *in = engine_link(e, 1 - j);
    char ls[64];
    int dl = (int)(in->delay_us / NR_US_PER_MS), jt = (int)(in->jitter_us / NR_US_PER_MS);
    bool random_loss = in->loss_kind == LINK_LOSS_RANDOM;
    if (random_loss && in->loss_p >= 1.0) /* an outage: say so, not "0 ms" */
        snprintf(ls, sizeof ls, "down (loss 100%%)");
    else if (jt > 0)
        snprintf(ls, sizeof ls, "%d±%d ms", dl, jt);
    else
        snprintf(ls, sizeof ls, "%d ms", dl);
    if (random_loss && in->loss_p > 0 && in->loss_p < 1.0) {
        size_t u = strlen(ls);
        snprintf(ls + u, sizeof ls - u, " loss %.3g%%", in->loss_p * 100.0);
    }
    gfx_text(g, GFX_NORMAL, (int)(rect->x + rect->w - pad), y1, GFX_RIGHT, PAL_DIM, "%s · link %d→%d %s",
             engine_scheme(e, k)->name, 2 - j, j + 1, ls);
}

/* The whole track in a corner of the screen, both cars as this screen
 * shows them: where am I, where is the other one. */
static void minimap(PlayState *ps, int j, const SDL_FRect *screen)
{
    float side = fminf(screen->w, screen->h) * 0.28f;
    if (side < 60)
        return;
    float pad = (float)ps->view->lay.base * 0.5f;
    SDL_FRect m = {screen->x + screen->w - side - pad, screen->y + screen->h - side - pad, side, side};
    SDL_Texture *tex = app_track_texture(ps->view, (int)side, (int)side);
    if (!tex)
        return;
    SDL_SetTextureAlphaMod(tex, 210);
    SDL_SetTextureBlendMode(tex, SDL_BLENDMODE_BLEND);
    SDL_Rect dst = {(int)m.x, (int)m.y, (int)side, (int)side};
    SDL_RenderCopy(ps->r, tex, NULL, &dst);
    gfx_frame(ps->r, m.x, m.y, m.w, m.h, gfx_rgb(20, 20, 20));
    AppXform x;
    app_fit_xform(ps->view, &m, &x);
    for (int c = 0; c < 2; c++) {
        int car = c == 0 ? 1 - j : j; /* own dot on top */
        Pose p;
        play_shown_pose(ps, j, car, &p);
        float px, py;
        app_world_to_px(&x, p.x, p.y, &px, &py);
        gfx_disc(ps->r, px, py, fmaxf(3.0f, side * 0.03f), gfx_rgb(10, 10, 10));
        gfx_disc(ps->r, px, py, fmaxf(2.0f, side * 0.022f), pal_car(car));
    }
}

static void draw_screen(PlayState *ps, int j, int w, int h)
{
    AppXform x;
    play_screen_xform(ps, j, w, h, &x);
    SDL_Rect clip = {(int)x.rect.x, (int)x.rect.y, (int)x.rect.w, (int)x.rect.h};
    SDL_RenderSetClipRect(ps->r, &clip);
    app_draw_track(ps->view, &x);
    Pose own, other;
    play_shown_pose(ps, j, 1 - j, &other);
    play_shown_pose(ps, j, j, &own);
    draw_car(ps, &x, &other, 1 - j); /* the own car on top */
    draw_car(ps, &x, &own, j);
    minimap(ps, j, &x.rect);
    hud(ps, j, &x.rect);
    SDL_RenderSetClipRect(ps->r, NULL);
}

void play_frame_scale(AppState *v, int w, int h)
{
    gfx_begin_frame(&v->gfx);
    int base = h / 42 < w / 72 ? h / 42 : w / 72;
    base = base < 10 ? 10 : base > 40 ? 40 : base;
    v->lay.base = base;
    v->lay.w = w;
    v->lay.h = h;
    gfx_set_scale(&v->gfx, base);
}

void play_panel(SDL_Renderer *r, float x, float y, float w, float h, SDL_Color frame)
{
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    gfx_fill(r, x, y, w, h, gfx_rgba(16, 18, 24, 230));
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
    gfx_frame(r, x, y, w, h, frame);
}

void play_lights_draw(Gfx *g, float base, int w, int lit, bool go)
{
    float rad = base * 1.4f, gap = rad * 0.7f;
    float total = RACEFLOW_LIGHTS * 2 * rad + (RACEFLOW_LIGHTS - 1) * gap;
    float x0 = ((float)w - total) / 2, y = base * 7.0f;
    play_panel(g->r, x0 - gap, y - rad - gap, total + 2 * gap, 2 * rad + 2 * gap, gfx_rgb(60, 60, 60));
    for (int i = 0; i < RACEFLOW_LIGHTS; i++) {
        float cx = x0 + rad + (float)i * (2 * rad + gap);
        SDL_Color c = go ? PAL_GO : i < lit ? gfx_rgb(240, 30, 30) : gfx_rgb(50, 20, 20);
        gfx_disc(g->r, cx, y, rad, c);
    }
    if (go)
        gfx_text(g, GFX_BIG, w / 2, (int)(y + rad + gap * 2), GFX_CENTER, PAL_GO, "GO");
}

static void lights(PlayState *ps, int w)
{
    const RaceFlow *rf = liverace_flow(ps->lr);
    int lit = raceflow_lights(rf, ps->flow_us);
    bool go = rf->phase >= RF_RACING && ps->race_us < RACEFLOW_LIGHT_US;
    if (rf->phase != RF_COUNTDOWN && !go)
        return;
    play_lights_draw(&ps->view->gfx, (float)ps->view->lay.base, w, lit, go);
}

void play_text_box(Gfx *g, int w, int h, const char *const *lines, int n, SDL_Color frame)
{
    float l = (float)gfx_line_h(g, GFX_NORMAL);
    int maxw = 0;
    for (int i = 0; i < n; i++) {
        int tw, th;
        gfx_text_size(g, GFX_NORMAL, lines[i], &tw, &th);
        maxw = tw > maxw ? tw : maxw;
    }
    float pad = l, bw = (float)maxw + 2 * pad, bh = l * (float)n + 2 * pad;
    float x = ((float)w - bw) / 2, y = ((float)h - bh) / 2;
    play_panel(g->r, x, y, bw, bh, frame);
    for (int i = 0; i < n; i++)
        gfx_text(g, GFX_NORMAL, (int)(x + pad), (int)(y + pad + l * (float)i), GFX_LEFT, i == 0 ? PAL_ACCENT : PAL_FG, "%s",
                 lines[i]);
}

static void grid_box(PlayState *ps, int w, int h)
{
    char l1[160], l2[160], l3[160];
    const char *lines[5] = {"On the grid", l1, l2, l3, "H help · Tab overview of every scheme · Q quit"};
    for (int j = 0; j < 2; j++) {
        char *l = j ? l2 : l1;
        char who[96];
        if (ps->cfg->kind[j] == PLAYER_PAD && !pads_has(&ps->pads, j))
            snprintf(l, 160, "P%d: press a button on a gamepad to join", j + 1);
        else
            snprintf(l, 160, "P%d ready: %s", j + 1, kind_text(ps, j, who, sizeof who));
    }
    snprintf(l3, sizeof l3, "Space / Enter (or Start on a pad): start the race");
    play_text_box(&ps->view->gfx, w, h, lines, 5, PAL_ACCENT);
}

static const char *const help_lines[] = {
    "netrace play - keys",
    "Player 1: W throttle, S brake, A / D steer (or --keys FILE)",
    "Player 2: Up throttle, Down brake, Left / Right steer",
    "Gamepad: right trigger or A throttle, left trigger or B / X brake,",
    "         left stick or d-pad steer, Start pause",
    "Space / Enter  start the race on the grid; race again after the finish",
    "Esc / P        pause / resume",
    "R              restart (when paused or finished)",
    "Q              quit (when paused, on the grid or finished); Ctrl-Q any time",
    "Tab            the overview of every scheme in a second window",
    "O              the replay window on the race just driven (after the finish)",
    "F11 fullscreen · F12 screenshot · H this help",
    "",
    "Each screen shows the race as that player's terminal displays it under",
    "the chosen scheme: the other car late, predicted or Delta behind.",
};

static void result_lines(const PlayState *ps, int who, char (*lines)[160])
{
    const RaceFlow *rf = liverace_flow(ps->lr);
    RaceResult r;
    raceflow_result(rf, who, &r);
    for (int i = 0; i < 2; i++) {
        int c = r.order[i];
        char t[32], laps[96] = "";
        size_t used = 0;
        for (int k = 0; k < r.laps_done[c] && k < 4; k++) {
            char lt[32];
            play_fmt_time(lt, sizeof lt, r.lap_us[c][k]);
            int m = snprintf(laps + used, sizeof laps - used, "%s%s", k ? " " : "", lt);
            if (m > 0 && (size_t)m < sizeof laps - used)
                used += (size_t)m;
        }
        if (rf->cfg.duration_us > 0)
            snprintf(lines[i], 160, "  %d. car %d (P%d)  %.1f cw  %s", i + 1, c + 1, c + 1, r.progress[c], laps);
        else if (r.finished[c]) {
            play_fmt_time(t, sizeof t, r.finish_us[c]);
            snprintf(lines[i], 160, "  %d. car %d (P%d)  %s  laps %s", i + 1, c + 1, c + 1, t, laps);
        } else
            snprintf(lines[i], 160, "  %d. car %d (P%d)  not seen finishing (%d laps)", i + 1, c + 1, c + 1,
                     r.laps_done[c]);
    }
}

static void results_box(PlayState *ps, int w, int h)
{
    const RaceFlow *rf = liverace_flow(ps->lr);
    char buf[14][160];
    const char *lines[14];
    int n = 0;
    snprintf(buf[n], 160, "Results (%s): %s", engine_scheme(liverace_engine(ps->lr), ps->cfg->race.shown)->name,
             rf->cfg.duration_us > 0 ? "standings at the time limit" : "finishing order and lap times");
    lines[n] = buf[n];
    n++;
    const char *who[3] = {"as P1's screen showed it:", "as P2's screen showed it:", "the truth (physics):"};
    int order[3] = {0, 1, RACEFLOW_TRUTH};
    for (int v = 0; v < 3; v++) {
        snprintf(buf[n], 160, "%s", who[v]);
        lines[n] = buf[n];
        n++;
        result_lines(ps, order[v], &buf[n]);
        lines[n] = buf[n];
        lines[n + 1] = buf[n + 1];
        n += 2;
    }
    bool differ = raceflow_orders_differ(rf);
    snprintf(buf[n], 160, "%s",
             differ ? "THE TWO SCREENS DISAGREE on the finishing order" : "both screens agree on the order");
    lines[n] = buf[n];
    n++;
    snprintf(buf[n], 160, "Enter race again · O replay this race · Tab overview · Q quit");
    lines[n] = buf[n];
    n++;
    play_text_box(&ps->view->gfx, w, h, lines, n, differ ? PAL_WARN : PAL_ACCENT);
}

void play_draw(PlayState *ps, int w, int h)
{
    AppState *v = ps->view;
    play_frame_scale(v, w, h);
    /* grass everywhere once; each screen draws the track over it */
    SDL_Color grass = PAL_GRASS;
    SDL_SetRenderDrawColor(ps->r, grass.r, grass.g, grass.b, 255);
    SDL_RenderClear(ps->r);
    draw_screen(ps, 0, w, h);
    draw_screen(ps, 1, w, h);
    gfx_fill(ps->r, (float)w / 2 - 1, 0, 2, (float)h, gfx_rgb(10, 10, 10));
    lights(ps, w);
    RacePhase ph = liverace_flow(ps->lr)->phase;
    if (ph == RF_GRID)
        grid_box(ps, w, h);
    if (ph == RF_DONE)
        results_box(ps, w, h);
    if (ps->paused && !ps->help) {
        const char *lines[4] = {"PAUSED", ps->pause_why[0] ? ps->pause_why : "the race clock is stopped",
                                "Esc / P resume · R restart · Q quit", "H help"};
        play_text_box(&ps->view->gfx, w, h, lines, 4, ps->pause_why[0] ? PAL_WARN : PAL_ACCENT);
    }
    if (ps->help)
        play_text_box(&ps->view->gfx, w, h, help_lines, (int)(sizeof help_lines / sizeof help_lines[0]), PAL_ACCENT);
    if (ps->msg_frames > 0 && ps->msg[0]) {
        Gfx *g = &v->gfx;
        float l = (float)gfx_line_h(g, GFX_NORMAL);
        int tw, th;
        gfx_text_size(g, GFX_NORMAL, ps->msg, &tw, &th);
        play_panel(ps->r, ((float)w - (float)tw) / 2 - l / 2, (float)h - 2.2f * l, (float)tw + l, 1.6f * l, PAL_DIM);
        gfx_text(g, GFX_NORMAL, w / 2, (int)((float)h - 1.9f * l), GFX_CENTER, PAL_FG, "%s", ps->msg);
    }
}
