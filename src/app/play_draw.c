/* One frame of the game: each player's screen (camera on the own car, the
 * race as that terminal displays it), the start lights and the overlays
 * (grid, pause, help, results as each terminal saw them). */
#include "play_internal.h"
#include "widgets.h"

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

/* The link that brings the other car to screen j, in short. */
static void link_text(const LinkSpec *in, char *ls, size_t n)
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

static void hud(PlayState *ps, int j, const SDL_FRect *rect)
{
    const Engine *e = liverace_engine(ps->lr);
    int k = ps->cfg->race.shown;
    Hud h;
    memset(&h, 0, sizeof h);
    h.car = j;
    kind_text(ps, j, h.who, sizeof h.who);
    widget_hud_race(liverace_flow(ps->lr), j, ps->race_us, &h);
    EngineView v; /* the position as this terminal shows it */
    engine_view(e, k, j, &v);
    h.first = v.leader == j;
    char ls[64];
    link_text(engine_link(e, 1 - j), ls, sizeof ls);
    snprintf(h.right, sizeof h.right, "%s · link %d→%d %s", engine_scheme(e, k)->name, 2 - j, j + 1, ls);
    widget_hud(ps->view, rect, &h);
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
    widget_car(ps->view, ps->sprites.car[1 - j], &x, &other, 1 - j); /* the own car on top */
    widget_car(ps->view, ps->sprites.car[j], &x, &own, j);
    Pose both[2];
    both[j] = own;
    both[1 - j] = other;
    widget_minimap(ps->view, &x.rect, both, j);
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

static void lights(PlayState *ps, int w)
{
    const RaceFlow *rf = liverace_flow(ps->lr);
    /* race time to the lights going out: the countdown began 5 s before */
    int64_t to_go = rf->phase == RF_COUNTDOWN ? ps->flow_us - rf->countdown_us - RACEFLOW_LIGHTS * RACEFLOW_LIGHT_US
                    : rf->phase >= RF_RACING ? ps->race_us
                                             : INT64_MIN;
    widget_lights(&ps->view->gfx, (float)ps->view->lay.base, w, to_go);
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
    widget_text_box(&ps->view->gfx, w, h, lines, 5, PAL_ACCENT);
}

static const char *const help_lines[] = {
    "netrace play - keys",
    "Player 1: W throttle, S brake, A / D steer (or --keys FILE)",
    "Player 2: Up throttle, Down brake, Left / Right steer",
    "Gamepad: right trigger or A throttle, left trigger or B / X brake,",
    "         left stick or d-pad steer, Start pause",
    "Reverse: hold the brake at a standstill (slow, up to 5 cw/s)",
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

const char *const *play_help_lines(int *n)
{
    *n = (int)(sizeof help_lines / sizeof help_lines[0]);
    return help_lines;
}

static void results_box(PlayState *ps, int w, int h)
{
    const RaceFlow *rf = liverace_flow(ps->lr);
    char title[160];
    snprintf(title, sizeof title, "Results (%s): %s", engine_scheme(liverace_engine(ps->lr), ps->cfg->race.shown)->name,
             rf->cfg.duration_us > 0 ? "standings at the time limit" : "finishing order and lap times");
    static const char *const who[3] = {"as P1's screen showed it:", "as P2's screen showed it:", "the truth (physics):"};
    static const int views[3] = {0, 1, RACEFLOW_TRUTH};
    widget_results(&ps->view->gfx, w, h, rf, title, views, who, 3,
                   "Enter race again · O replay this race · Tab overview · Q quit");
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
        widget_text_box(&ps->view->gfx, w, h, lines, 4, ps->pause_why[0] ? PAL_WARN : PAL_ACCENT);
    }
    if (ps->help) {
        int n;
        const char *const *lines = play_help_lines(&n);
        widget_text_box(&ps->view->gfx, w, h, lines, n, PAL_ACCENT);
    }
    if (ps->msg_frames > 0 && ps->msg[0]) {
        Gfx *g = &v->gfx;
        float l = (float)gfx_line_h(g, GFX_NORMAL);
        int tw, th;
        gfx_text_size(g, GFX_NORMAL, ps->msg, &tw, &th);
        widget_panel(ps->r, ((float)w - (float)tw) / 2 - l / 2, (float)h - 2.2f * l, (float)tw + l, 1.6f * l, PAL_DIM);
        gfx_text(g, GFX_NORMAL, w / 2, (int)((float)h - 1.9f * l), GFX_CENTER, PAL_FG, "%s", ps->msg);
    }
}
