/* One frame of the game: each player's screen (camera on the own car, the
 * race as that terminal displays it; one viewport rectangle each, placed by
 * play_layout.c), the start lights and the overlays (grid, pause, help,
 * results as each terminal saw them: play_board.c). */
#include "play_internal.h"
#include "widgets.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


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

double play_screen_pan(const PlayState *ps, int j)
{
    SDL_FRect r = play_screen_rect(ps, j, 1000, 1000);
    return 0.8 * ((r.x + r.w / 2) / 500.0 - 1.0);
}

void play_screen_xform(const PlayState *ps, int j, int w, int h, AppXform *x)
{
    SDL_FRect rect = play_screen_rect(ps, j, w, h);
    play_view_xform(ps, j, &rect, x);
}

void play_view_xform(const PlayState *ps, int j, const SDL_FRect *viewport, AppXform *x)
{
    SDL_FRect rect = *viewport;
    Pose p;
    play_shown_pose(ps, j, j, &p);
    drivehud_xform(&ps->hud[j], ps->view, &p, &rect, x);
}

const char *play_kind_text(const PlayState *ps, int j, char *buf, size_t n)
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

void play_hud_right(const PlayState *ps, int j, char *buf, size_t n)
{
    const Engine *e = liverace_engine(ps->lr);
    const char *scheme = engine_scheme(e, ps->cfg->race.shown)->name;
    bool marked = ps->flow_us < ps->marked_until_us[j];
    const char *note = ps->cfg->hud_note ? ps->cfg->hud_note : "";
    char ls[96];
    if (ps->cfg->blind) /* a study's players see no scheme and no link */
        snprintf(buf, n, "%s%s%s", marked ? "MARKED" : "", marked && *note ? " · " : "", note);
    else if (play_links_text(ps, j, ls, sizeof ls)) /* N cars or cs */
        snprintf(buf, n, "%s%s · %s", marked ? "MARKED · " : "", scheme, ls);
    else {
        const LinkSpec *in = engine_link(e, 1 - j);
        const SchemeType *st = engine_scheme(e, ps->cfg->race.shown);
        app_link_short(in, ls, sizeof ls);
        char late[48] = ""; /* the causality check: the other car's updates miss Delta */
        if (scheme_delta_late(&st, 1, engine_params(e)->delta_us, linkspec_mean_ms(in), NULL, 0))
            snprintf(late, sizeof late, " > Δ %.0f ms: updates late!",
                     (double)engine_params(e)->delta_us / (double)NR_US_PER_MS);
        snprintf(buf, n, "%s%s · link %d→%d %s%s", marked ? "MARKED · " : "", scheme, 2 - j, j + 1, ls, late);
    }
}

static void hud(PlayState *ps, int j, const SDL_FRect *rect)
{
    const Engine *e = liverace_engine(ps->lr);
    int k = ps->cfg->race.shown;
    Hud h;
    memset(&h, 0, sizeof h);
    h.car = j;
    play_kind_text(ps, j, h.who, sizeof h.who);
    widget_hud_race(liverace_flow(ps->lr), j, ps->race_us, &h);
    EngineView v; /* the position as this terminal shows it */
    engine_view(e, k, j, &v);
    h.place = play_place(&v, ps->nseats, j);
    play_hud_right(ps, j, h.right, sizeof h.right);
    widget_hud(ps->view, rect, &h);
}

/* Player j's lagometer (F2): the MUs reaching terminal j under the shown
 * scheme; both screens' strips on one scale (scale_us). */
static void lag_in(const PlayState *ps, int j, LagometerIn *in)
{
    const Engine *e = liverace_engine(ps->lr);
    const SchemeType *st = engine_scheme(e, ps->cfg->race.shown);
    *in = (LagometerIn){.ring = engine_lag(e, ps->cfg->race.shown, j), .own = j, .now_us = engine_now(e),
                        .period_us = engine_params(e)->period_us,
                        .limit_us = st->holds_delta ? engine_params(e)->delta_us : 0, .marks = ps->marks,
                        .nmarks = ps->nmarks, .title = st->title ? st->title : st->name};
}

static void draw_lag(PlayState *ps, int j, const SDL_FRect *screen, int64_t scale_us)
{
    LagometerIn in;
    lag_in(ps, j, &in);
    char title[96];
    snprintf(title, sizeof title, "P%d lagometer · %s", j + 1, in.title);
    in.title = title;
    in.scale_us = scale_us;
    in.compact = lagometer_screen_compact(screen, ps->view->lay.base);
    lagometer_draw(&ps->view->gfx, &in, lagometer_screen_rect(screen, ps->view->lay.base));
}

/* Player j's screen in its viewport: the track, every car as this terminal
 * shows it (the own car on top), the minimap, the HUD, the lagometer (F2). */
static void draw_screen(PlayState *ps, int j, const SDL_FRect *viewport, int64_t lag_scale_us,
                        const SDL_FRect *msg_box)
{
    AppXform x;
    ps->hud[j].lagometer = ps->lag; /* the camera and instruments keep above it */
    play_view_xform(ps, j, viewport, &x);
    SDL_Rect clip = {(int)x.rect.x, (int)x.rect.y, (int)x.rect.w, (int)x.rect.h};
    SDL_RenderSetClipRect(ps->r, &clip);
    /* no tiles: a driving camera moves on every frame and is drawn, so its
     * rare layer pictures are drawn too (the same lines at rest as moving) */
    ps->view->no_tiles = true;
    if (!app_track_layer(ps->view, &clip, &x)) /* a camera at rest: copied */
        app_draw_track(ps->view, &x);
    Pose pose[PLAY_SEATS];
    for (int c = 0; c < ps->nseats; c++)
        play_shown_pose(ps, j, c, &pose[c]);
    for (int c = 0; c < ps->nseats; c++)
        if (c != j)
            widget_car(ps->view, ps->sprites.car[c], &x, &pose[c], c);
    SDL_FRect mini = {0, 0, 0, 0};
    double fade = widget_minimap_rect(ps->view, &x.rect, &mini) ? drivehud_fade(&ps->hud[j], &x, &mini) : 1.0;
    widget_minimap(ps->view, &x.rect, pose, ps->nseats, j, (Uint8)(WIDGET_MINIMAP_ALPHA * fade));
    DriveHudOthers o = {.n = 0, .me = j, .own = pose[j], .speed_cws = liverace_speed(ps->lr, j), .keep_clear = *msg_box,
                        .minimap = mini};
    for (int c = 0; c < ps->nseats && o.n < DRIVEGAP_CARS; c++)
        if (c != j) {
            o.car[o.n] = c;
            o.pose[o.n++] = pose[c];
        }
    drivehud_draw(&ps->hud[j], ps->view, &x, &o); /* over the minimap: an arrow may point past it */
    widget_car(ps->view, ps->sprites.car[j], &x, &pose[j], j); /* the own car over all of them */
    hud(ps, j, &x.rect);
    if (ps->lag)
        draw_lag(ps, j, &x.rect, lag_scale_us);
    SDL_RenderSetClipRect(ps->r, NULL);
}

void play_frame_scale(AppState *v, int w, int h)
{
    gfx_begin_frame(&v->gfx);
    int base = gfx_base_px(w, h, v->scale);
    v->lay.base = base;
    v->lay.w = w;
    v->lay.h = h;
    gfx_set_scale(&v->gfx, base);
}

int64_t play_lights_to_go(const PlayState *ps)
{
    const RaceFlow *rf = liverace_flow(ps->lr);
    /* race time to the lights going out: the countdown began 5 s before */
    return rf->phase == RF_COUNTDOWN ? ps->flow_us - rf->countdown_us - RACEFLOW_LIGHTS * RACEFLOW_LIGHT_US
           : rf->phase >= RF_RACING  ? ps->race_us
                                     : INT64_MIN;
}

static const char *const help_lines[] = {
    "netrace play - keys",
    "Player 1: W throttle, S brake, A / D steer (or --keys FILE)",
    "Player 2: Up throttle, Down brake, Left / Right steer",
    "Gamepad: right trigger or A throttle, left trigger or B / X brake,",
    "         left stick or d-pad steer, Start pause",
    "Players 3 and 4: a gamepad (press a button to join), a bot or a script",
    "Reverse: hold the brake at a standstill (slow, up to 5 cw/s)",
    "Mark a moment: P1 Left Shift, P2 Right Shift (tapped alone), pad Y",
    "Space / Enter  start the race on the grid; race again after the finish",
    "Esc / P        pause / resume",
    "R              restart (when paused or finished)",
    "Q              quit (when paused, on the grid or finished); Ctrl-Q any time",
    "Tab            every scheme's overview: a second window, or this one if small",
    "O              the replay window on the race just driven (after the finish)",
    "C              the camera: north up, or turning with the car (--camera)",
    "M              sound on / off (--mute)",
    "F2 lagometer on / off · F3 mark: drops a time-stamped mark into the recording",
    "F or F11 fullscreen · F12 screenshot · H / F1 this help",
    "Ctrl + / Ctrl -  larger / smaller text (Ctrl 0: as the window fits)",
    "",
    "Each screen shows the race as that player's terminal displays it under",
    "the chosen scheme: the other car late, predicted or Delta behind.",
};

const char *const *play_help_lines(int *n)
{
    *n = (int)(sizeof help_lines / sizeof help_lines[0]);
    return help_lines;
}

/* A study's race: the driving keys, the mark, pause; nothing of schemes. */
static const char *const session_help_lines[] = {
    "netrace study - keys",
    "Player 1: W throttle, S brake, A / D steer (or --keys FILE)",
    "Player 2: Up throttle, Down brake, Left / Right steer",
    "Gamepad: right trigger or A throttle, left trigger or B / X brake,",
    "         left stick or d-pad steer, Start pause",
    "Reverse: hold the brake at a standstill (slow, up to 5 cw/s)",
    "Not happy with the game right now? Press your mark key:",
    "         tap player 1 Left Shift, player 2 Right Shift alone, a pad's Y",
    "Esc / P        pause / resume",
    "F11 fullscreen · F12 screenshot · H this help",
};

const char *const *play_session_help_lines(int *n)
{
    *n = (int)(sizeof session_help_lines / sizeof session_help_lines[0]);
    return session_help_lines;
}

/* The transient message's box (w 0: none) and its text fitted to the
 * window (fit, GFX_TEXT_MAX bytes): play_message_rect's place. */
static SDL_FRect message_box(PlayState *ps, int w, int h, char *fit)
{
    fit[0] = '\0';
    if (ps->msg_frames <= 0 || !ps->msg[0])
        return (SDL_FRect){0, 0, 0, 0};
    Gfx *g = &ps->view->gfx;
    float l = (float)gfx_line_h(g, GFX_NORMAL);
    int tw, th;
    gfx_ellipsize(g, GFX_NORMAL, (float)w - 2 * l, ps->msg, fit, GFX_TEXT_MAX);
    gfx_text_size(g, GFX_NORMAL, fit, &tw, &th);
    for (int j = 0; j < ps->nseats; j++) /* the rooms above the lagometers, as draw_screen sets them */
        ps->hud[j].lagometer = ps->lag;
    return play_message_rect(ps, w, h, (float)tw + l, 1.6f * l);
}

void play_draw(PlayState *ps, int w, int h)
{
    AppState *v = ps->view;
    play_frame_scale(v, w, h);
    /* grass everywhere once; each screen draws the track over it */
    SDL_Color grass = PAL_GRASS;
    SDL_SetRenderDrawColor(ps->r, grass.r, grass.g, grass.b, 255);
    SDL_RenderClear(ps->r);
    int64_t lag_scale = 0; /* one scale for every screen's strip */
    for (int j = 0; j < ps->nseats && ps->lag; j++) {
        LagometerIn in;
        lag_in(ps, j, &in);
        int64_t s = lagometer_scale(&in);
        lag_scale = s > lag_scale ? s : lag_scale;
    }
    char fit[GFX_TEXT_MAX]; /* the message: a long path loses its middle, not its end */
    SDL_FRect msg_box = message_box(ps, w, h, fit);
    for (int j = 0; j < ps->nseats; j++) {
        SDL_FRect rect = play_screen_rect(ps, j, w, h);
        draw_screen(ps, j, &rect, lag_scale, &msg_box);
    }
    play_layout_frame(ps, w, h);
    play_layout_lights(ps, w, h);
    RacePhase ph = liverace_flow(ps->lr)->phase;
    bool session = ps->cfg->session; /* a study's screen draws its own boxes */
    if (ph == RF_GRID && !session)
        play_grid_box(ps, w, h);
    if (ph == RF_DONE && !session)
        play_results_box(ps, w, h);
    /* the pause and help boxes keep above a message ("text x1.25" over a
     * help line for its 2 s: issue 22's trial) */
    SDL_FRect area = {0, 0, (float)w, msg_box.w > 0 ? msg_box.y - (float)v->lay.base * 0.5f : (float)h};
    if (ps->paused && !ps->help) {
        const char *lines[4] = {"PAUSED", ps->pause_why[0] ? ps->pause_why : "the race clock is stopped",
                                session ? "Esc / P resume" : "Esc / P resume · R restart · Q quit", "H help"};
        widget_text_box_in(&ps->view->gfx, area, lines, 4, ps->pause_why[0] ? PAL_WARN : PAL_ACCENT);
    }
    if (ps->help) { /* the keys, then how to read the lagometer */
        int n;
        const char *const *keys = session ? play_session_help_lines(&n) : play_help_lines(&n);
        const char *lines[48];
        int m = 0;
        for (int i = 0; i < n && m < 48; i++)
            lines[m++] = keys[i];
        for (int i = 0; !session && lagometer_legend(i) && m < 48; i++) /* a study shows no lagometer */
            lines[m++] = lagometer_legend(i);
        widget_text_box_in(&ps->view->gfx, area, lines, m, PAL_ACCENT);
    }
    if (msg_box.w > 0) {
        Gfx *g = &v->gfx;
        float l = (float)gfx_line_h(g, GFX_NORMAL);
        widget_panel(ps->r, msg_box.x, msg_box.y, msg_box.w, msg_box.h, PAL_DIM);
        gfx_audit_cover(g, msg_box.x, msg_box.y, msg_box.w, msg_box.h);
        gfx_room_push(g, msg_box.x, msg_box.y, msg_box.w, msg_box.h);
        gfx_text(g, GFX_NORMAL, w / 2, (int)(msg_box.y + 0.3f * l), GFX_CENTER, PAL_FG, "%s", fit);
        gfx_room_pop(g);
    }
}
