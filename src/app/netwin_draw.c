/* Network play's driving window drawn (netwin.h, netwin_internal.h): the
 * race with the game's widgets, the HUD, the lagometer, the boxes over it
 * (clock sync, pause, results, help, messages, a failure), and one frame
 * from a NetRace alone for the tests. */
#include "netwin_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the driving screen's instruments read of the race (drivehud.h). */
DriveHudIn netwin_hud_in(const NetRace *nr)
{
    return (DriveHudIn){.own = nr->pose[nr->me], .speed_cws = nr->speed, .contact = nr->contact, .rf = nr->rf,
                        .view = nr->me, .ncars = nr->ncars};
}

static void hud(NetWin *nw, const NetRace *nr, int w)
{
    Hud h;
    memset(&h, 0, sizeof h);
    int me = nr->me, peer = nr->ncars > 2 ? (me == 0 ? 1 : 0) : 1 - me;
    h.car = me;
    const char *kind = nw->cfg->kind == PLAYER_PAD ? "pad" : nw->cfg->kind == PLAYER_BOT ? "bot"
                       : nw->cfg->kind == PLAYER_SCRIPT ? "script" : "keys";
    bool p2p = nr->ncars > 2 && nr->st.topology == 0;
    if (p2p && nr->host)
        snprintf(h.who, sizeof h.who, "%s · %d joiners%s%s", kind, nr->ncars - 1, nr->code[0] ? " · code " : "",
                 nr->code);
    else
        snprintf(h.who, sizeof h.who, "%s · %s %.48s%s%s", kind, p2p ? "host" : "peer",
                 nr->st.peer[0] ? nr->st.peer : "-", nr->code[0] ? " · code " : "", nr->code);
    widget_hud_race(nr->rf, me, nr->st.race_us, &h);
    /* the order as this terminal displays it (the race flow is fed when
     * both terminals' views of a sample are in: one network delay late) */
    h.place = 1; /* the place among every car, as this terminal displays the order */
    for (int c = 0; c < nr->ncars; c++)
        h.place += c != me && nr->rf->progress[me][c] > nr->rf->progress[me][me] ? 1 : 0;
    char clock[96];
    if (nr->st.bound_us > 0)
        snprintf(clock, sizeof clock, "clock %+.3f ms ±%.2f", (double)nr->st.offset_us / 1e3,
                 (double)nr->st.bound_us / 1e3);
    else
        snprintf(clock, sizeof clock, "clock: the host's");
    if (nw->cfg->study && nw->st.race.blind) { /* the subject sees no condition (docs/studies.md) */
        snprintf(h.who, sizeof h.who, "%s", kind);
        netwin_study_hud(nw, h.right, sizeof h.right);
    } else if (nr->ncars > 2)
        snprintf(h.right, sizeof h.right, "%s · rtt %.2f ms · %s · %d cars %s", clock, (double)nr->st.rtt_us / 1e3,
                 nr->shown, nr->ncars, p2p ? "peer to peer" : "through the server");
    else
        snprintf(h.right, sizeof h.right, "%s · rtt %.2f ms · %s · P%d over the network", clock,
                 (double)nr->st.rtt_us / 1e3, nr->shown, peer + 1);
    SDL_FRect rect = {0, 0, (float)w, 0};
    widget_hud(nw->view, &rect, &h);
}

/* The race: the camera on the own car as shown, looking ahead; both cars,
 * the minimap, the HUD, the lights. */
static void draw_race(NetWin *nw, const NetRace *nr, int w, int h)
{
    AppXform x;
    SDL_FRect rect = {0, 0, (float)w, (float)h};
    const Pose *own = &nr->pose[nr->me];
    nw->hud.lagometer = nw->lag; /* the camera and instruments keep above it */
    drivehud_xform(&nw->hud, nw->view, own, &rect, &x);
    SDL_Rect all = {0, 0, w, h};
    nw->view->no_tiles = true; /* a driving camera: drawn as it moves (play_draw.c) */
    if (!app_track_layer(nw->view, &all, &x)) /* a camera at rest (the grid): copied */
        app_draw_track(nw->view, &x);
    for (int c = 0; c < nr->ncars; c++) /* the own car on top */
        if (c != nr->me)
            widget_car(nw->view, c < WIDGET_CAR_SPRITES ? nw->sprites.car[c] : NULL, &x, &nr->pose[c], c);
    SDL_FRect mini = {0, 0, 0, 0};
    double fade = widget_minimap_rect(nw->view, &rect, &mini) ? drivehud_fade(&nw->hud, &x, &mini) : 1.0;
    widget_minimap(nw->view, &rect, nr->pose, nr->ncars, nr->me, (Uint8)(WIDGET_MINIMAP_ALPHA * fade));
    DriveHudOthers o = {.n = 0, .me = nr->me, .own = *own, .speed_cws = nr->speed, .minimap = mini};
    for (int c = 0; c < nr->ncars && o.n < DRIVEGAP_CARS; c++)
        if (c != nr->me) {
            o.car[o.n] = c;
            o.pose[o.n++] = nr->pose[c];
        }
    drivehud_draw(&nw->hud, nw->view, &x, &o);
    widget_car(nw->view, nr->me < WIDGET_CAR_SPRITES ? nw->sprites.car[nr->me] : NULL, &x, own, nr->me);
    hud(nw, nr, w);
    if (nw->lag) { /* the MUs that reach this terminal, and the clock sync */
        char title[96];
        snprintf(title, sizeof title, "P%d lagometer · %s", nr->me + 1, nr->shown ? nr->shown : "?");
        LagometerIn in = {.ring = nr->lag, .own = nr->me, .now_us = nr->lag_now_us, .period_us = nr->period_us,
                          .limit_us = nr->limit_us, .marks = nw->marks, .nmarks = nw->nmarks, .net = nw->net,
                          .title = title, .compact = lagometer_screen_compact(&rect, nw->view->lay.base)};
        lagometer_draw(&nw->view->gfx, &in, lagometer_screen_rect(&rect, nw->view->lay.base));
    }
    widget_lights(&nw->view->gfx, (float)nw->view->lay.base, w, nr->st.race_us);
}

static const char *const help_lines[] = {
    "Keys",
    "W / Up          throttle",
    "S / Down        brake",
    "A D / Left Right  steer",
    "(a pad: triggers and the left stick)",
    "Shift tapped alone (a pad: Y) mark this moment in the log",
    "Tab             every scheme's overview: beside, or here if the display is small",
    "C               the camera: north up, or turning with the car",
    "M               sound on / off",
    "F2 lagometer on / off · F3 mark: a time-stamped mark into the --log",
    "F or F11 fullscreen · F12 screenshot · H / F1 this help",
    "Ctrl + / Ctrl -  larger / smaller text (Ctrl 0: as the window fits)",
    "Q / Esc         leave the race (the peer is told); Enter too after it",
};

const char *const *netwin_help_lines(int *n)
{
    *n = (int)(sizeof help_lines / sizeof help_lines[0]);
    return help_lines;
}

/* The boxes over the race: clock sync, pause, results, help, a message. */
static void draw_boxes(NetWin *nw, const NetRace *nr, int w, int h)
{
    Gfx *g = &nw->view->gfx;
    char l1[160], l2[160];
    if (nw->cfg->study && !nr->st.paused) {
        netwin_study_boxes(nw, nr, w, h); /* the card, "Finished": no clocks, no results */
    } else if (nr->st.phase == SESSION_SYNCING) {
        snprintf(l1, sizeof l1, "peer %s", nr->st.peer);
        snprintf(l2, sizeof l2, "clock offset %+.3f ms ±%.2f ms, round trip %.2f ms", (double)nr->st.offset_us / 1e3,
                 (double)nr->st.bound_us / 1e3, (double)nr->st.rtt_us / 1e3);
        const char *lines[3] = {"Synchronising the clocks", l1, l2};
        widget_text_box(g, w, h, lines, 3, PAL_ACCENT);
    } else if (nr->st.paused) {
        const char *l3 = netwin_race_pause_text(&nr->st, l1, sizeof l1);
        const char *lines[3] = {"PAUSED", l1, l3};
        widget_text_box(g, w, h, lines, 3, PAL_WARN);
    } else if (nr->racing && nr->st.phase >= SESSION_FINISHED && nr->ncars > 2) {
        char title[160], here[64];
        snprintf(title, sizeof title, "Finish (%s, %d cars): %s", nr->shown, nr->ncars,
                 nr->rf->cfg.duration_us > 0 ? "standings at the time limit" : "finishing order and lap times");
        snprintf(here, sizeof here, "here (P%d's screen):", nr->me + 1);
        const char *labels[2] = {here, "the truth (physics):"};
        int views[2] = {nr->me, RACEFLOW_TRUTH};
        widget_results(g, w, h, nr->rf, title, views, labels, 2, "Q / Esc / Enter: close");
    } else if (nr->racing && nr->st.phase >= SESSION_FINISHED) {
        char title[160], here[64];
        snprintf(title, sizeof title, "Finish (%s): %s", nr->shown,
                 nr->rf->cfg.duration_us > 0 ? "standings at the time limit" : "finishing order and lap times");
        snprintf(here, sizeof here, "here (P%d's screen):", nr->me + 1);
        const char *labels[3] = {here, "at the peer:", "the truth (physics):"};
        int views[3] = {nr->me, 1 - nr->me, RACEFLOW_TRUTH};
        widget_results(g, w, h, nr->rf, title, views, labels, 3, "Q / Esc / Enter: close");
    }
    if (nw->help) { /* the keys, the join code, how to read the lagometer */
        enum { NHELP = (int)(sizeof help_lines / sizeof help_lines[0]) };
        const char *lines[NHELP + 16];
        memcpy(lines, help_lines, sizeof help_lines);
        snprintf(l1, sizeof l1, "join code %s", nr->code[0] ? nr->code : "(none: in clear)");
        lines[NHELP] = l1;
        int n = NHELP + 1;
        for (int i = 0; lagometer_legend(i) && n < NHELP + 16; i++)
            lines[n++] = lagometer_legend(i);
        widget_text_box(g, w, h, lines, n, PAL_ACCENT);
    }
    if (nw->msg_frames > 0) {
        nw->msg_frames--;
        const char *lines[1] = {nw->msg};
        widget_text_box(g, w, (int)((float)h * 1.7f), lines, 1, PAL_DIM);
    }
}

/* Before the track is known: what the session waits for, the join code
 * large (the joiner types it: docs/netplay.md "Join code"). */
static void draw_waiting(NetWin *nw, const NetRace *nr, int w, int h)
{
    if (!nw->have_gfx0)
        return;
    gfx_begin_frame(&nw->gfx0);
    gfx_set_scale(&nw->gfx0, gfx_base_px(w, h, nw->scale));
    char l2[160], l3[160];
    const char *title = netwin_race_wait_text(nr, l2, l3, sizeof l2);
    float room = (float)w - (float)gfx_line_h(&nw->gfx0, GFX_NORMAL);
    gfx_text_shrink(&nw->gfx0, GFX_BIG, w / 2, h / 4, GFX_CENTER, PAL_ACCENT, room, title);
    gfx_text_shrink(&nw->gfx0, GFX_BIG, w / 2, h / 4 + h / 8, GFX_CENTER, PAL_FG, room, l2);
    gfx_text_shrink(&nw->gfx0, GFX_NORMAL, w / 2, h / 4 + h / 4, GFX_CENTER, PAL_FG, room, l3);
    gfx_text_shrink(&nw->gfx0, GFX_NORMAL, w / 2, h / 4 + h / 3, GFX_CENTER, PAL_DIM, room, "Q / Esc: give up");
}

static void draw_failure(NetWin *nw, const NetRace *nr, int w, int h)
{
    if (!nw->have_gfx0)
        return;
    gfx_begin_frame(&nw->gfx0);
    gfx_set_scale(&nw->gfx0, gfx_base_px(w, h, nw->scale));
    /* a wrong code looks like silence to the joiner: the host drops it */
    const char *lines[4] = {"No race", nw->msg, "Q / Esc / Enter: close", NULL};
    if (!nr->host && !nr->track) {
        lines[2] = "the host did not answer to that join code: check the code its window shows";
        lines[3] = "Q / Esc / Enter: close";
    }
    widget_text_box(&nw->gfx0, w, h, lines, lines[3] ? 4 : 3, PAL_WARN);
}

/* The drawing context once the track is known (a study's next race: its
 * own track, a new view). */
void netwin_view_make(NetWin *nw, const NetRace *nr)
{
    if (nr->track != nw->view_track)
        netwin_view_drop(nw);
    if (nw->view || !nr->track || (nw->view = calloc(1, sizeof *nw->view)) == NULL)
        return;
    AppConfig ac = app_config_default();
    ac.font_path = nw->cfg->font_path;
    ac.live = true;
    ac.wall_cw = CAR_GRASS_CW;
    ac.scale = nw->scale;
    app_state_init_track(nw->view, nr->track, &ac, nw->loop.r);
    nw->view_track = nr->track;
}

void netwin_frame_draw(NetWin *nw, const NetRace *nr, int w, int h)
{
    SDL_Color grass = PAL_GRASS;
    SDL_SetRenderDrawColor(nw->loop.r, grass.r, grass.g, grass.b, 255);
    SDL_RenderClear(nw->loop.r);
    if (nw->failed) {
        draw_failure(nw, nr, w, h);
        return;
    }
    if (nw->cfg->study && netwin_study_draws(nw, nr, w, h))
        return;
    if (!nw->view) {
        draw_waiting(nw, nr, w, h);
        return;
    }
    play_frame_scale(nw->view, w, h);
    if (nr->racing) {
        draw_race(nw, nr, w, h);
    } else {
        AppXform x;
        SDL_FRect rect = {0, 0, (float)w, (float)h};
        app_fit_xform(nw->view, &rect, &x);
        app_draw_track(nw->view, &x);
    }
    draw_boxes(nw, nr, w, h);
}

void netwin_draw_frame(SDL_Renderer *r, const NetWinConfig *cfg, const NetRace *nr, const NetWinLook *look, int w,
                       int h, GfxAudit *audit)
{
    NetWin *nw = calloc(1, sizeof *nw);
    if (!nw)
        return;
    nw->cfg = cfg;
    nw->scale = cfg->scale > 0 ? cfg->scale : 1.0;
    nw->loop.r = r;
    char font[512];
    gfx_pick_font(cfg->font_path, font, sizeof font);
    gfx_init(&nw->gfx0, r, font[0] ? font : NULL);
    nw->have_gfx0 = true;
    nw->help = look->help;
    nw->failed = look->failed;
    snprintf(nw->msg, sizeof nw->msg, "%s", look->msg ? look->msg : "");
    nw->msg_frames = look->msg && !look->failed ? 1 : 0;
    nw->lag = look->lag;
    if (look->net && (nw->net = malloc(sizeof *nw->net)) != NULL)
        *nw->net = *look->net;
    drivehud_reset(&nw->hud, cfg->camera_rotate ? DRIVECAM_ROTATE : DRIVECAM_NORTH);
    if (nr->racing) { /* the camera snaps onto the car, the gap is read */
        DriveHudIn in = netwin_hud_in(nr);
        drivehud_update(&nw->hud, &in, 0.0);
    }
    netwin_view_make(nw, nr);
    gfx_audit_start(&nw->gfx0, audit);
    if (nw->view)
        gfx_audit_start(&nw->view->gfx, audit); /* one record: the two fonts draw one frame */
    netwin_frame_draw(nw, nr, w, h);
    gfx_free(&nw->gfx0);
    netwin_view_drop(nw);
    free(nw->net);
    free(nw);
}
