/* Network play's driving window: one terminal's screen on the session's
 * loop (netwin.h). */
#include "netwin.h"

#include "netplay.h"
#include "play_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the same camera as `netrace play`'s screens (play_draw.c) */
#define NETWIN_VIEW_SPAN_CW 30.0
#define NETWIN_LOOKAHEAD_S 0.2
#define NETWIN_LOOKAHEAD_MAX_CW 5.0

typedef struct NetWin {
    const NetWinConfig *cfg;
    SDL_Window *win;
    SDL_Renderer *r;
    AppState view;
    bool have_view; /* the track is known (the joiner learns it from the host) */
    PlayKeys keys;
    PlayPads pads;
    const Uint8 *key_state;
    double steer;   /* keyboard steering after the ramp */
    uint64_t last;  /* performance counter at the last frame */
    bool quit, help, gauges;
    volatile sig_atomic_t *stop;
    Gfx gfx0;       /* text before the track (and the view's fonts) exist */
    bool have_gfx0;
} NetWin;

/* Both key sets drive the one car of this terminal (WASD or the arrows),
 * or the pad that joined; keys steer through the ramp of `netrace play`. */
static void read_input(NetWin *nw, Session *s, double dt_s)
{
    if (nw->cfg->kind == PLAYER_BOT || nw->cfg->kind == PLAYER_SCRIPT)
        return; /* they drive themselves, in the session's race */
    PlayControl c = {0};
    if (nw->cfg->kind == PLAYER_PAD) {
        pads_read(&nw->pads, 0, &c);
    } else {
        PlayControl a = {0}, b = {0};
        playkeys_read(&nw->keys, 0, nw->key_state, &a);
        playkeys_read(&nw->keys, 1, nw->key_state, &b);
        c.throttle = fmax(a.throttle, b.throttle);
        c.brake = fmax(a.brake, b.brake);
        double target = fmax(-1.0, fmin(1.0, a.steer + b.steer));
        nw->steer = play_steer_ramp(nw->steer, target, dt_s);
        c.steer = nw->steer;
    }
    CarInput in = {.throttle = c.throttle, .brake = c.brake, .steer = c.steer};
    session_set_input(s, &in);
}

static void handle_events(NetWin *nw)
{
    SDL_Event ev;
    while (SDL_PollEvent(&ev)) {
        if (ev.type == SDL_QUIT ||
            (ev.type == SDL_WINDOWEVENT && ev.window.event == SDL_WINDOWEVENT_CLOSE))
            nw->quit = true;
        PadEvent pe;
        if (pads_event(&nw->pads, &ev, &pe) && pe.news == PAD_JOINED)
            fprintf(stderr, "netrace: %s drives\n", pe.name);
        if (ev.type != SDL_KEYDOWN || ev.key.repeat)
            continue;
        SDL_Scancode sc = ev.key.keysym.scancode;
        if (sc == SDL_SCANCODE_Q || sc == SDL_SCANCODE_ESCAPE)
            nw->quit = true;
        else if (sc == SDL_SCANCODE_H || sc == SDL_SCANCODE_F1)
            nw->help = !nw->help;
        else if (sc == SDL_SCANCODE_TAB)
            nw->gauges = !nw->gauges;
    }
}

/* Race time to the lights: one comes on per second from 5 s before the
 * start, all go out at race time 0 (raceflow.h's countdown, on the
 * synchronised clock). */
static void lights(NetWin *nw, int w, int64_t race_us)
{
    if (race_us < -RACEFLOW_LIGHTS * RACEFLOW_LIGHT_US || race_us >= RACEFLOW_LIGHT_US)
        return;
    bool go = race_us >= 0;
    int lit = go ? 0 : (int)((race_us + RACEFLOW_LIGHTS * RACEFLOW_LIGHT_US) / RACEFLOW_LIGHT_US) + 1;
    play_lights_draw(&nw->view.gfx, (float)nw->view.lay.base, w, lit, go);
}

static void hud(NetWin *nw, Session *s, const NetPlay *np, const SessionStatus *st, int w)
{
    Gfx *g = &nw->view.gfx;
    const RaceFlow *rf = netplay_flow(np);
    int me = netplay_car(np), peer = 1 - me;
    float l = (float)gfx_line_h(g, GFX_NORMAL), lb = (float)gfx_line_h(g, GFX_BIG);
    float pad = (float)nw->view.lay.base * 0.4f;
    SDL_SetRenderDrawBlendMode(nw->r, SDL_BLENDMODE_BLEND);
    gfx_fill(nw->r, 0, 0, (float)w, lb + l + 2 * pad, PAL_HUD_BG);
    SDL_SetRenderDrawBlendMode(nw->r, SDL_BLENDMODE_NONE);
    int x0 = (int)pad, y0 = (int)(pad / 2);
    int tw = gfx_text(g, GFX_BIG, x0, y0, GFX_LEFT, pal_car(me), "P%d", me + 1);
    gfx_text(g, GFX_NORMAL, x0 + tw + (int)pad, y0 + (int)(lb - l), GFX_LEFT, PAL_DIM, "%s · peer %s",
             nw->cfg->kind == PLAYER_PAD ? "pad" : nw->cfg->kind == PLAYER_BOT ? "bot" : nw->cfg->kind == PLAYER_SCRIPT ? "script" : "keys",
             st->peer[0] ? st->peer : "-");
    char line[128], t[32];
    int lap = rf->laps[me][me];
    int64_t race = st->race_us > 0 ? st->race_us : 0;
    if (rf->cfg.duration_us > 0) {
        int64_t left = rf->cfg.duration_us - race;
        play_fmt_time(t, sizeof t, left < 0 ? 0 : left);
        snprintf(line, sizeof line, "%.7s left", t);
    } else if (lap >= rf->cfg.laps) {
        play_fmt_time(t, sizeof t, rf->cross_us[me][me][rf->cfg.laps - 1]);
        snprintf(line, sizeof line, "Finished %s", t);
    } else {
        snprintf(line, sizeof line, "Lap %d/%d", lap + 1, rf->cfg.laps);
    }
    gfx_text(g, GFX_BIG, w / 2, y0, GFX_CENTER, PAL_FG, "%s", line);
    /* the order as this terminal displays it (the race flow is fed when
     * both terminals' views of a sample are in: one network delay late) */
    bool first = rf->progress[me][me] >= rf->progress[me][peer];
    gfx_text(g, GFX_BIG, (int)((float)w - pad), y0, GFX_RIGHT, first ? PAL_ACCENT : PAL_FG, "%s", first ? "1st" : "2nd");
    int y1 = (int)(pad / 2 + lb);
    const SchemeType *k = session_scheme(s, netplay_shown(np));
    if (st->bound_us > 0)
        snprintf(line, sizeof line, "clock %+.3f ms ±%.2f · rtt %.2f ms", (double)st->offset_us / 1e3,
                 (double)st->bound_us / 1e3, (double)st->rtt_us / 1e3);
    else
        snprintf(line, sizeof line, "clock: the synchronised one (host) · rtt %.2f ms", (double)st->rtt_us / 1e3);
    gfx_text(g, GFX_NORMAL, x0, y1, GFX_LEFT, PAL_DIM, "%s", line);
    gfx_text(g, GFX_NORMAL, (int)((float)w - pad), y1, GFX_RIGHT, PAL_DIM, "%s · P%d over the network",
             k ? k->name : "?", peer + 1);
}

/* Every scheme's live metrics on the right of the screen, one row each in
 * the scheme's chart colour; the shown scheme marked. */
static void gauges(NetWin *nw, Session *s, const NetPlay *np, int w, int h)
{
    Gfx *g = &nw->view.gfx;
    int n = session_scheme_count(s), me = netplay_car(np);
    float l = (float)gfx_line_h(g, GFX_SMALL), pad = l * 0.5f;
    float pw = fminf((float)w * 0.42f, l * 30.0f), x = (float)w - pw - pad;
    float top = (float)gfx_line_h(g, GFX_BIG) + (float)gfx_line_h(g, GFX_NORMAL) + pad * 2;
    float rowh = 2 * l + pad, ph = rowh * (float)n + l + 2 * pad;
    if (top + ph > (float)h)
        ph = (float)h - top;
    play_panel(nw->r, x, top, pw, ph, gfx_rgb(60, 60, 60));
    gfx_text(g, GFX_SMALL, (int)(x + pad), (int)(top + pad), GFX_LEFT, PAL_DIM, "every scheme, live (both terminals' views)");
    for (int k = 0; k < n; k++) {
        float y = top + pad + l + rowh * (float)k;
        if (y + 2 * l > top + ph)
            break;
        const Metrics *m = netplay_metrics(np, k);
        uint32_t c = plot_series_colour(k);
        SDL_Color sc = gfx_rgb((Uint8)(c >> 16), (Uint8)(c >> 8), (Uint8)c);
        bool shown = k == netplay_shown(np);
        gfx_text(g, GFX_SMALL, (int)(x + pad), (int)y, GFX_LEFT, sc, "%s%s", session_scheme(s, k)->name,
                 shown ? " (on screen)" : "");
        gfx_text(g, GFX_SMALL, (int)(x + pw - pad), (int)y, GFX_RIGHT, PAL_FG, "inconsistent %.1f%%  last 5 s %.1f%%",
                 metrics_inconsistency_rate(m) * 100.0, metrics_recent_rate(m) * 100.0);
        const DirCounters *out = &m->dir[me], *in = &m->dir[1 - me];
        double f = nr_unsigned_zero(metrics_mean_d1_minus_d2(m), 2);
        gfx_text(g, GFX_SMALL, (int)(x + pad), (int)(y + l), GFX_LEFT, PAL_DIM,
                 "d1-d2 %+.2f cw  sent %lld lost %lld  received %lld", f, (long long)out->sent, (long long)out->lost,
                 (long long)in->delivered);
    }
}

static void results(NetWin *nw, const NetPlay *np, int w, int h)
{
    const RaceFlow *rf = netplay_flow(np);
    int me = netplay_car(np);
    char l[4][160];
    const char *lines[6] = {"Finish", l[0], l[1], l[2], l[3], "Q / Esc / Enter: close"};
    for (int v = 0; v < 2; v++) {
        RaceResult r;
        raceflow_result(rf, v == 0 ? me : 1 - me, &r);
        snprintf(l[v], sizeof l[v], "%s: car %d first, car %d second", v == 0 ? "here" : "at the peer", r.order[0] + 1,
                 r.order[1] + 1);
    }
    RaceResult tr;
    raceflow_result(rf, RACEFLOW_TRUTH, &tr);
    snprintf(l[2], sizeof l[2], "the truth (physics): car %d first", tr.order[0] + 1);
    snprintf(l[3], sizeof l[3], "%s", raceflow_orders_differ(rf) ? "the two terminals saw different orders"
                                                                  : "both terminals saw the same order");
    play_text_box(&nw->view.gfx, w, h, lines, 6, raceflow_orders_differ(rf) ? PAL_WARN : PAL_ACCENT);
}

static const char *const help_lines[] = {
    "Keys",
    "W / Up          throttle",
    "S / Down        brake",
    "A D / Left Right  steer",
    "(a pad: triggers and the left stick)",
    "Tab             every scheme's live gauges",
    "H               this help",
    "Q / Esc         leave the race (the peer is told)",
};

static void draw(NetWin *nw, Session *s)
{
    int w, h;
    SDL_GetRendererOutputSize(nw->r, &w, &h);
    AppState *v = &nw->view;
    const Track *t = session_track(s);
    if (!nw->have_view && t) {
        AppConfig ac = app_config_default();
        ac.font_path = nw->cfg->font_path;
        ac.live = true;
        ac.wall_cw = CAR_GRASS_CW;
        app_state_init_track(v, t, &ac, nw->r);
        nw->have_view = true;
    }
    SDL_Color grass = PAL_GRASS;
    SDL_SetRenderDrawColor(nw->r, grass.r, grass.g, grass.b, 255);
    SDL_RenderClear(nw->r);
    SessionStatus st;
    session_status(s, &st);
    const NetPlay *np = session_netplay(s);
    if (!nw->have_view) { /* the view comes with the track: say what the session waits for */
        if (nw->have_gfx0) {
            gfx_begin_frame(&nw->gfx0);
            gfx_set_scale(&nw->gfx0, h / 42 < 10 ? 10 : h / 42);
            char l2[160];
            if (session_is_host(s))
                snprintf(l2, sizeof l2, "netrace join THIS-HOST:%u", (unsigned)session_port(s));
            else
                snprintf(l2, sizeof l2, "no answer yet from the host");
            gfx_text(&nw->gfx0, GFX_BIG, w / 2, h / 3, GFX_CENTER, PAL_ACCENT, "%s",
                     session_is_host(s) ? "Waiting for a joiner" : "Joining the race");
            gfx_text(&nw->gfx0, GFX_NORMAL, w / 2, h / 3 + h / 10, GFX_CENTER, PAL_FG, "%s", l2);
            gfx_text(&nw->gfx0, GFX_NORMAL, w / 2, h / 3 + h / 6, GFX_CENTER, PAL_DIM, "Q / Esc: give up");
        }
        SDL_RenderPresent(nw->r);
        return;
    }
    play_frame_scale(v, w, h);
    AppXform x;
    SDL_FRect rect = {0, 0, (float)w, (float)h};
    if (np && st.phase >= SESSION_COUNTDOWN) {
        Pose own, other;
        int me = netplay_car(np);
        netplay_own_shown(np, netplay_shown(np), &own);
        netplay_display(np, netplay_shown(np), 1 - me, &other);
        double ahead = fmin(fabs(netplay_speed(np)) * NETWIN_LOOKAHEAD_S, NETWIN_LOOKAHEAD_MAX_CW);
        x.rect = rect;
        x.cx = rect.w / 2;
        x.cy = rect.h / 2;
        x.wx = own.x + cos(own.heading) * ahead; /* the camera on the own car as shown */
        x.wy = own.y + sin(own.heading) * ahead;
        x.scale = (float)(fmin(rect.w, rect.h) / NETWIN_VIEW_SPAN_CW);
        app_draw_track(v, &x);
        if (other.seq < 0) /* nothing displayed yet: the grid */
            netplay_grid_pose(np, 1 - me, &other);
        if (st.phase == SESSION_COUNTDOWN)
            netplay_grid_pose(np, me, &own);
        app_draw_car(v, &x, other.x, other.y, other.heading, pal_car(1 - me), false);
        app_draw_car(v, &x, own.x, own.y, own.heading, pal_car(me), false);
        hud(nw, s, np, &st, w);
        if (nw->gauges)
            gauges(nw, s, np, w, h);
        lights(nw, w, st.race_us);
    } else {
        app_fit_xform(v, &rect, &x);
        app_draw_track(v, &x);
    }
    char l1[160], l2[160];
    if (st.phase == SESSION_SYNCING) {
        snprintf(l1, sizeof l1, "peer %s", st.peer);
        snprintf(l2, sizeof l2, "clock offset %+.3f ms ±%.2f ms, round trip %.2f ms", (double)st.offset_us / 1e3,
                 (double)st.bound_us / 1e3, (double)st.rtt_us / 1e3);
        const char *lines[3] = {"Synchronising the clocks", l1, l2};
        play_text_box(&nw->view.gfx, w, h, lines, 3, PAL_ACCENT);
    } else if (st.paused) {
        snprintf(l1, sizeof l1, "the peer has been silent for %.1f s", (double)st.silent_us / 1e6);
        const char *lines[3] = {"PAUSED", l1, "the race goes on when it is heard again; 15 s of silence ends it"};
        play_text_box(&nw->view.gfx, w, h, lines, 3, PAL_WARN);
    } else if (np && st.phase >= SESSION_FINISHED) {
        results(nw, np, w, h);
    }
    if (nw->help)
        play_text_box(&nw->view.gfx, w, h, help_lines, (int)(sizeof help_lines / sizeof help_lines[0]), PAL_ACCENT);
    SDL_RenderPresent(nw->r);
}

static bool frame(void *ctx, Session *s)
{
    NetWin *nw = ctx;
    uint64_t now = SDL_GetPerformanceCounter();
    double dt_s = (double)(now - nw->last) / (double)SDL_GetPerformanceFrequency();
    nw->last = now;
    handle_events(nw);
    read_input(nw, s, dt_s > 0.1 ? 0.1 : dt_s);
    draw(nw, s);
    return !nw->quit && !(nw->stop && *nw->stop);
}

int netwin_run(Session *s, const NetWinConfig *cfg, volatile sig_atomic_t *stop)
{
    /* an invisible driver only when asked for by name (the tests drive the
     * window's loop on SDL's dummy driver); never a silent fallback */
    const char *want = getenv("SDL_VIDEODRIVER");
    if (!app_video_start(want && (strcmp(want, "dummy") == 0 || strcmp(want, "offscreen") == 0)))
        return 3;
    if (SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER) != 0)
        fprintf(stderr, "netrace: no gamepad support (%s): keys only\n", SDL_GetError());
    NrError err = {{0}};
    bool ttf_here = !TTF_WasInit();
    int rc = 3;
    NetWin nw;
    memset(&nw, 0, sizeof nw);
    nw.cfg = cfg;
    nw.stop = stop;
    nw.gauges = cfg->watch;
    if (!gfx_ttf_start(&err)) {
        fprintf(stderr, "netrace: %s\n", err.msg);
        goto done;
    }
    playkeys_default(&nw.keys);
    pads_init(&nw.pads);
    pads_want(&nw.pads, 0, cfg->kind == PLAYER_PAD);
    if (cfg->keys_path && !playkeys_load(&nw.keys, cfg->keys_path, &err)) {
        fprintf(stderr, "netrace: %s\n", err.msg);
        goto done;
    }
    int added;
    if (cfg->pad_mappings && !pads_load_mappings(&nw.pads, cfg->pad_mappings, &added, &err)) {
        fprintf(stderr, "netrace: %s\n", err.msg);
        goto done;
    }
    int w = cfg->width > 0 ? cfg->width : 1280, h = cfg->height > 0 ? cfg->height : 720;
    Uint32 wflags = SDL_WINDOW_RESIZABLE | (cfg->fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
    nw.win = SDL_CreateWindow(cfg->title ? cfg->title : "netrace", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h,
                              wflags);
    nw.r = nw.win ? app_create_renderer(nw.win) : NULL;
    if (!nw.win || !nw.r) {
        fprintf(stderr, "netrace: cannot open the window (%s)\n", SDL_GetError());
        goto done;
    }
    SDL_SetWindowMinimumSize(nw.win, 640, 360);
    char font[512];
    gfx_pick_font(cfg->font_path, font, sizeof font);
    gfx_init(&nw.gfx0, nw.r, font[0] ? font : NULL);
    nw.have_gfx0 = true;
    nw.key_state = SDL_GetKeyboardState(NULL);
    nw.last = SDL_GetPerformanceCounter();
    session_set_frame(s, frame, &nw);
    bool ok = session_run(s, stop);
    session_set_frame(s, NULL, NULL);
    rc = ok ? 0 : 1;
    /* the standings stay up until the player closes them */
    nw.quit = false;
    while (ok && !nw.quit && !(stop && *stop)) {
        SDL_Event ev;
        while (SDL_PollEvent(&ev)) {
            if (ev.type == SDL_QUIT || (ev.type == SDL_WINDOWEVENT && ev.window.event == SDL_WINDOWEVENT_CLOSE) ||
                (ev.type == SDL_KEYDOWN && (ev.key.keysym.scancode == SDL_SCANCODE_Q ||
                                            ev.key.keysym.scancode == SDL_SCANCODE_ESCAPE ||
                                            ev.key.keysym.scancode == SDL_SCANCODE_RETURN)))
                nw.quit = true;
        }
        draw(&nw, s);
        SDL_Delay(30);
    }
done:
    if (nw.have_gfx0)
        gfx_free(&nw.gfx0);
    if (nw.have_view)
        app_state_free(&nw.view);
    pads_free(&nw.pads);
    if (nw.r)
        SDL_DestroyRenderer(nw.r);
    if (nw.win)
        SDL_DestroyWindow(nw.win);
    if (ttf_here)
        TTF_Quit();
    SDL_QuitSubSystem(SDL_INIT_GAMECONTROLLER);
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    return rc;
}
