/* Network play's driving window: one terminal's screen on the one window
 * loop, ridden by the session's loop (netwin.h). What it reads of the race
 * comes through netwin_race.h. */
#include "netwin_internal.h"

#include "widgets.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Both key sets drive the one car of this terminal (WASD or the arrows),
 * or the pad that joined; keys steer through the ramp of `netrace play`. */
static void read_input(NetWin *nw, double dt_s)
{
    if (nw->cfg->kind == PLAYER_BOT || nw->cfg->kind == PLAYER_SCRIPT || nw->after_race)
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
    nw->throttle = c.throttle;
    CarInput in = {.throttle = c.throttle, .brake = c.brake, .steer = c.steer};
    netwin_race_input(nw->session, &in);
}

/* C: the camera north up or turning with the car; M: sound on or off. */
static void toggle_key(NetWin *nw, SDL_Scancode sc)
{
    if (sc == SDL_SCANCODE_C) {
        DriveCamMode m = nw->hud.cam.mode == DRIVECAM_NORTH ? DRIVECAM_ROTATE : DRIVECAM_NORTH;
        drivecam_set_mode(&nw->hud.cam, m);
        snprintf(nw->msg, sizeof nw->msg, "camera: %s (C)", m == DRIVECAM_ROTATE ? "turning with the car" : "north up");
    } else {
        sound_set_muted(&nw->snd, !nw->snd.muted);
        snprintf(nw->msg, sizeof nw->msg, "%s", nw->snd.muted          ? "sound off (M)"
                                                : sound_playing(&nw->snd) ? "sound on (M)"
                                                                          : "sound on, but no audio device opened");
    }
    nw->msg_frames = 120;
}

/* The mark keys (docs/netlog.md `mark` rows): the player's Shift or a
 * pad's Y (kind dissatisfied, docs/studies.md) and F3 (kind mark, from
 * either window): into this terminal's log at once, kept for the
 * lagometer and the overview's charts; the screen says so. */
void netwin_mark(NetWin *nw, const char *kind)
{
    int64_t race_us;
    bool logged, key = strcmp(kind, RECORDING_MARK_KEY) == 0;
    if (!nw->session || !netwin_race_mark(nw->session, kind, &race_us, &logged)) {
        if (key)
            snprintf(nw->msg, sizeof nw->msg, "F3 marks a race once its start is known");
        nw->msg_frames = key ? 120 : 0;
        return;
    }
    if (nw->nmarks == PLAY_MARKS) {
        memmove(nw->marks, nw->marks + 1, sizeof nw->marks[0] * (PLAY_MARKS - 1));
        nw->nmarks--;
    }
    RecMark *m = &nw->marks[nw->nmarks++];
    *m = (RecMark){.t_ms = race_us > 0 ? race_us / NR_US_PER_MS : 0, .player = netwin_race_own_car(nw->session)};
    snprintf(m->kind, sizeof m->kind, "%s", kind);
    nw->marks_total++;
    if (key)
        snprintf(nw->msg, sizeof nw->msg, "mark %d at %.3f s %s", nw->marks_total, (double)race_us / 1e6,
                 logged ? "in the log" : "(no --log: not kept)");
    else
        snprintf(nw->msg, sizeof nw->msg, "MARKED");
    nw->msg_frames = key ? 120 : 60;
}

static void scr_event(void *ctx, const SDL_Event *ev)
{
    NetWin *nw = ctx;
    if (nw->cfg->study) { /* no lagometer, no overview: the players are blind */
        netwin_study_event(nw, ev);
        return;
    }
    if (overwin_owns(&nw->watch, ev) && ev->type == SDL_KEYDOWN && ev->key.keysym.scancode == SDL_SCANCODE_F3) {
        if (!ev->key.repeat)
            netwin_mark(nw, RECORDING_MARK_KEY); /* the mark key works from either window */
        return;
    }
    if (overwin_owns(&nw->watch, ev)) {
        bool tab = ev->type == SDL_KEYDOWN && ev->key.keysym.scancode == SDL_SCANCODE_TAB;
        if (tab || overwin_event(&nw->watch, ev))
            nw->want_watch = true; /* Tab or closing it: the overview goes */
        return;
    }
    if (ev->type == SDL_QUIT || (ev->type == SDL_WINDOWEVENT && ev->window.event == SDL_WINDOWEVENT_CLOSE))
        nw->quit = true;
    PadEvent pe;
    if (pads_event(&nw->pads, ev, &pe) && pe.news == PAD_JOINED)
        fprintf(stderr, "netrace: %s drives\n", pe.name);
    if (ev->type == SDL_CONTROLLERBUTTONDOWN && ev->cbutton.button == PADS_MARK_BUTTON &&
        pads_player_of(&nw->pads, ev->cbutton.which) == 0)
        netwin_mark(nw, RECORDING_MARK_DISSATISFIED);
    if (ev->type != SDL_KEYDOWN || ev->key.repeat)
        return;
    SDL_Scancode sc = ev->key.keysym.scancode;
    int player, action;
    if (playkeys_find(&nw->keys, sc, &player, &action) && action == PK_MARK) {
        netwin_mark(nw, RECORDING_MARK_DISSATISFIED); /* either key set's: both drive this terminal's car */
        return;
    }
    if (sc == SDL_SCANCODE_Q || sc == SDL_SCANCODE_ESCAPE || (nw->after_race && sc == SDL_SCANCODE_RETURN))
        nw->quit = true;
    else if (sc == SDL_SCANCODE_H || sc == SDL_SCANCODE_F1)
        nw->help = !nw->help;
    else if (sc == SDL_SCANCODE_TAB)
        nw->want_watch = true;
    else if (sc == SDL_SCANCODE_C || sc == SDL_SCANCODE_M)
        toggle_key(nw, sc);
    else if (sc == SDL_SCANCODE_F11)
        nw->fullscreen = true;
    else if (sc == SDL_SCANCODE_F12)
        nw->shot = true;
    else if (sc == SDL_SCANCODE_F2)
        nw->lag = !nw->lag;
    else if (sc == SDL_SCANCODE_F3)
        netwin_mark(nw, RECORDING_MARK_KEY);
}

/* Tab: the overview of every scheme opens beside the window, or closes. */
static void toggle_watch(NetWin *nw, const NetRace *nr)
{
    if (nw->watch.win) {
        nw->want_watch = false;
        overwin_close(&nw->watch);
        return;
    }
    if (!nr->track)
        return; /* it opens once the race is known (the joiner learns it from the host) */
    nw->want_watch = false;
    if (nr->ncars > 2) { /* overwin.c draws two terminals' screens */
        snprintf(nw->msg, sizeof nw->msg, "the overview draws races of two cars: this one has %d (the summary "
                 "and the log have every scheme's metrics)", nr->ncars);
        nw->msg_frames = 240;
        return;
    }
    NrError err = {{0}};
    if (!overwin_open(&nw->watch, nw->loop.win, NULL, nr->track, nw->cfg->font_path, nw->sprites.icon, &err)) {
        snprintf(nw->msg, sizeof nw->msg, "cannot open the overview window: %.200s", err.msg);
        nw->msg_frames = 240;
    } else {
        nw->watch.s->lag = nw->lag; /* opens with the lagometer as this window shows it (F2 in each) */
    }
}

/* The camera, the gap, a hit's feedback and the sounds (drivehud.h), as
 * `netrace play` moves them on each frame. */
static void feedback(NetWin *nw, const NetRace *nr, double dt_s)
{
    if (nr->racing) {
        bool running = !nr->st.paused && nr->st.phase < SESSION_FINISHED && !nw->after_race;
        DriveHudIn in = {.own = nr->pose[nr->me], .speed_cws = nr->speed, .contact = nr->contact, .rf = nr->rf,
                         .view = nr->me, .ncars = nr->ncars};
        drivehud_update(&nw->hud, &in, running ? dt_s : 0.0);
        bool human = nw->cfg->kind == PLAYER_KEYS || nw->cfg->kind == PLAYER_PAD;
        drivehud_sound(&nw->hud, &nw->snd.synth, 0, &in, human ? nw->throttle : 0.6, 0.0, running);
    }
    drivehud_lights_sound(&nw->snd.synth, &nw->lights_beeped, nr->racing ? nr->st.race_us : INT64_MIN);
    sound_pump(&nw->snd);
}

static void scr_advance(void *ctx, int64_t wall_dt_us)
{
    NetWin *nw = ctx;
    double dt_s = (double)wall_dt_us / 1e6;
    if (nw->cfg->study)
        netwin_study_advance(nw, wall_dt_us);
    if (!nw->session)
        return;
    dt_s = dt_s > 0.1 ? 0.1 : dt_s;
    read_input(nw, dt_s);
    NetRace nr;
    netwin_race_read(nw->session, &nr);
    if (nw->want_watch)
        toggle_watch(nw, &nr);
    feedback(nw, &nr, dt_s);
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
    app_draw_track(nw->view, &x);
    for (int c = 0; c < nr->ncars; c++) /* the own car on top */
        if (c != nr->me)
            widget_car(nw->view, c < WIDGET_CAR_SPRITES ? nw->sprites.car[c] : NULL, &x, &nr->pose[c], c);
    SDL_FRect mini;
    double fade = widget_minimap_rect(nw->view, &rect, &mini) ? drivehud_fade(&nw->hud, &x, &mini) : 1.0;
    widget_minimap(nw->view, &rect, nr->pose, nr->ncars, nr->me, (Uint8)(WIDGET_MINIMAP_ALPHA * fade));
    DriveHudOthers o = {.n = 0, .me = nr->me, .own = *own, .speed_cws = nr->speed};
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
                          .title = title};
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
    "Shift (a pad: Y) mark this moment in the log",
    "Tab             every scheme's overview in a second window",
    "C               the camera: north up, or turning with the car",
    "M               sound on / off",
    "F2 lagometer on / off · F3 mark: a time-stamped mark into the --log",
    "F11 fullscreen · F12 screenshot · H / F1 this help",
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
    gfx_set_scale(&nw->gfx0, h / 42 < 10 ? 10 : h / 42);
    char l2[160], l3[160];
    const char *title = netwin_race_wait_text(nr, l2, l3, sizeof l2);
    gfx_text(&nw->gfx0, GFX_BIG, w / 2, h / 4, GFX_CENTER, PAL_ACCENT, "%s", title);
    gfx_text(&nw->gfx0, GFX_BIG, w / 2, h / 4 + h / 8, GFX_CENTER, PAL_FG, "%s", l2);
    gfx_text(&nw->gfx0, GFX_NORMAL, w / 2, h / 4 + h / 4, GFX_CENTER, PAL_FG, "%s", l3);
    gfx_text(&nw->gfx0, GFX_NORMAL, w / 2, h / 4 + h / 3, GFX_CENTER, PAL_DIM, "Q / Esc: give up");
}

static void draw_failure(NetWin *nw, int w, int h)
{
    if (!nw->have_gfx0)
        return;
    gfx_begin_frame(&nw->gfx0);
    gfx_set_scale(&nw->gfx0, h / 42 < 10 ? 10 : h / 42);
    NetRace nr;
    netwin_race_read(nw->session, &nr);
    /* a wrong code looks like silence to the joiner: the host drops it */
    const char *lines[4] = {"No race", nw->msg, "Q / Esc / Enter: close", NULL};
    if (!nr.host && !nr.track) {
        lines[2] = "the host did not answer to that join code: check the code its window shows";
        lines[3] = "Q / Esc / Enter: close";
    }
    widget_text_box(&nw->gfx0, w, h, lines, lines[3] ? 4 : 3, PAL_WARN);
}

static void drop_view(NetWin *nw)
{
    if (nw->view) {
        app_state_free(nw->view);
        free(nw->view);
    }
    nw->view = NULL;
    nw->view_track = NULL;
}

static void scr_draw(void *ctx, int w, int h)
{
    NetWin *nw = ctx;
    NetRace nr;
    memset(&nr, 0, sizeof nr);
    if (nw->session)
        netwin_race_read(nw->session, &nr);
    if (nr.track != nw->view_track) /* a study's next race: its own track */
        drop_view(nw);
    if (!nw->view && nr.track && (nw->view = calloc(1, sizeof *nw->view)) != NULL) {
        AppConfig ac = app_config_default();
        ac.font_path = nw->cfg->font_path;
        ac.live = true;
        ac.wall_cw = CAR_GRASS_CW;
        app_state_init_track(nw->view, nr.track, &ac, nw->loop.r);
        nw->view_track = nr.track;
    }
    SDL_Color grass = PAL_GRASS;
    SDL_SetRenderDrawColor(nw->loop.r, grass.r, grass.g, grass.b, 255);
    SDL_RenderClear(nw->loop.r);
    if (nw->failed) {
        draw_failure(nw, w, h);
        return;
    }
    if (nw->cfg->study && netwin_study_draws(nw, &nr, w, h))
        return;
    if (!nw->view) {
        draw_waiting(nw, &nr, w, h);
        return;
    }
    play_frame_scale(nw->view, w, h);
    if (nr.racing && nr.st.rtt_us > 0) /* the clock sync over the race, for the lagometer */
        lagnet_add(nw->net, nr.st.race_us, nr.st.rtt_us, nr.st.offset_us, nr.st.bound_us);
    if (nr.racing) {
        draw_race(nw, &nr, w, h);
    } else {
        AppXform x;
        SDL_FRect rect = {0, 0, (float)w, (float)h};
        app_fit_xform(nw->view, &rect, &x);
        app_draw_track(nw->view, &x);
    }
    draw_boxes(nw, &nr, w, h);
}

static unsigned scr_requests(void *ctx)
{
    NetWin *nw = ctx;
    bool stop = nw->stop && *nw->stop;
    unsigned r = (nw->quit || stop ? WIN_QUIT : 0) | (nw->fullscreen ? WIN_FULLSCREEN : 0) | (nw->shot ? WIN_SHOT : 0);
    nw->fullscreen = nw->shot = false;
    return r;
}

static double scr_time(void *ctx)
{
    NetRace nr;
    if (!((NetWin *)ctx)->session)
        return 0.0;
    netwin_race_read(((NetWin *)ctx)->session, &nr);
    return nr.st.race_us > 0 ? (double)nr.st.race_us / 1e6 : 0.0;
}

static void scr_message(void *ctx, const char *text)
{
    NetWin *nw = ctx;
    snprintf(nw->msg, sizeof nw->msg, "%.255s", text);
    nw->msg_frames = 240;
}

/* The overview's data every frame (its charts span the race from the
 * start, whenever Tab opens it), drawn beside when open. */
static void scr_after(void *ctx)
{
    NetWin *nw = ctx;
    if (!nw->session || nw->cfg->study || !netwin_race_data(nw->session, nw->hist, &nw->data) || !nw->watch.s)
        return;
    nw->data.net = nw->net;
    nw->watch.s->data = nw->data;
    nw->watch.s->marks = nw->marks;
    nw->watch.s->nmarks = nw->nmarks;
    overwin_draw(&nw->watch);
}

static bool on_session_frame(void *ctx)
{
    NetWin *nw = ctx;
    WinScreen scr = {.ctx = nw, .shot_prefix = nw->cfg->study ? "netrace-study" : "netrace-net", .event = scr_event,
                     .advance = scr_advance, .draw = scr_draw, .requests = scr_requests, .race_time_s = scr_time,
                     .message = scr_message, .after = scr_after};
    /* no pacing here: the session calls every SESSION_FRAME_US */
    if (!winloop_frame(&nw->loop, &scr, false))
        nw->quit = true;
    return !nw->quit;
}

static bool on_attached_frame(void *ctx, Session *s)
{
    (void)s;
    return on_session_frame(ctx);
}

bool netwin_frame(NetWin *nw)
{
    return on_session_frame(nw);
}

bool netwin_closed(const NetWin *nw)
{
    return nw->quit || (nw->stop && *nw->stop);
}

/* A race that did not happen or broke off: why (the session's line, such
 * as the give-up when the host never answered a wrong code) until the
 * player closes it or NETWIN_FAIL_FRAMES frames (30 ms each) have passed. */
#define NETWIN_FAIL_FRAMES 600
static void show_failure(NetWin *nw)
{
    snprintf(nw->msg, sizeof nw->msg, "%.255s", netwin_race_error(nw->session));
    nw->after_race = true;
    nw->failed = true;
    for (int i = 0; i < NETWIN_FAIL_FRAMES && on_session_frame(nw); i++)
        SDL_Delay(30);
}

/* Keys, pads and their mapping files; false after one line on stderr
 * naming the file (netwin_run returns 4). */
static bool setup_input(NetWin *nw)
{
    NrError err = {{0}};
    playkeys_default(&nw->keys);
    pads_init(&nw->pads);
    pads_want(&nw->pads, 0, nw->cfg->kind == PLAYER_PAD);
    int added;
    if ((nw->cfg->keys_path && !playkeys_load(&nw->keys, nw->cfg->keys_path, &err)) ||
        (nw->cfg->pad_mappings && !pads_load_mappings(&nw->pads, nw->cfg->pad_mappings, &added, &err))) {
        fprintf(stderr, "%s: %s\n", nw->cfg->title ? nw->cfg->title : "netrace", err.msg);
        return false;
    }
    nw->key_state = SDL_GetKeyboardState(NULL);
    return true;
}

NetWin *netwin_open(const NetWinConfig *cfg, volatile sig_atomic_t *stop, int *rc)
{
    /* an invisible driver only when asked for by name (the tests drive the
     * window's loop on SDL's dummy driver); never a silent fallback */
    const char *want = getenv("SDL_VIDEODRIVER");
    WinLoopConfig wc = {.title = cfg->title ? cfg->title : "netrace", .width = cfg->width, .height = cfg->height,
                        .fullscreen = cfg->fullscreen, .gamepads = true, .shot_dir = cfg->shot_dir,
                        .invisible_ok = want && (strcmp(want, "dummy") == 0 || strcmp(want, "offscreen") == 0)};
    NetWin *nw = calloc(1, sizeof *nw);
    *rc = 3;
    if (!nw || !winloop_open(&nw->loop, &wc)) {
        free(nw);
        return NULL;
    }
    nw->loop.fixed_dt_us = cfg->frame_dt_us;
    nw->cfg = cfg;
    nw->stop = stop;
    nw->want_watch = cfg->watch && !cfg->study;
    drivehud_reset(&nw->hud, cfg->camera_rotate ? DRIVECAM_ROTATE : DRIVECAM_NORTH);
    sound_open(&nw->snd, cfg->mute);
    nw->lag = cfg->lagometer && !cfg->study;
    nw->st.finished_us = -1;
    nw->hist = calloc(1, sizeof *nw->hist);
    nw->net = calloc(1, sizeof *nw->net);
    if (!nw->hist || !nw->net || !setup_input(nw)) {
        *rc = nw->hist && nw->net ? 4 : 3;
        netwin_close(nw);
        return NULL;
    }
    char font[512];
    gfx_pick_font(cfg->font_path, font, sizeof font);
    gfx_init(&nw->gfx0, nw->loop.r, font[0] ? font : NULL);
    nw->have_gfx0 = true;
    widget_sprites_load(&nw->sprites, nw->loop.r, NULL);
    if (nw->sprites.icon)
        SDL_SetWindowIcon(nw->loop.win, nw->sprites.icon);
    *rc = 0;
    return nw;
}

void netwin_attach(NetWin *nw, Session *s)
{
    if (s == nw->session)
        return;
    overwin_close(&nw->watch);
    drop_view(nw); /* it drew the race before's track, freed with its session */
    memset(nw->hist, 0, sizeof *nw->hist);
    nw->session = s;
    nw->after_race = nw->failed = false;
    if (s)
        netwin_race_attach(s, on_attached_frame, nw);
    if (nw->cfg->study)
        netwin_study_attach(nw);
}

void netwin_close(NetWin *nw)
{
    if (!nw)
        return;
    overwin_close(&nw->watch);
    sound_close(&nw->snd);
    widget_sprites_free(&nw->sprites);
    if (nw->have_gfx0)
        gfx_free(&nw->gfx0);
    drop_view(nw);
    pads_free(&nw->pads);
    free(nw->hist);
    free(nw->net);
    winloop_close(&nw->loop);
    free(nw);
}

int netwin_run(Session *s, const NetWinConfig *cfg, volatile sig_atomic_t *stop)
{
    int rc;
    NetWin *nw = netwin_open(cfg, stop, &rc);
    if (!nw)
        return rc;
    nw->session = s;
    bool ok = netwin_race_run(s, on_session_frame, nw, stop);
    rc = ok ? 0 : 1;
    bool left = nw->quit; /* Q or Esc: the player knows why */
    /* the standings stay up until the player closes them */
    nw->quit = false;
    nw->after_race = true;
    while (ok && on_session_frame(nw))
        SDL_Delay(30);
    if (!ok && !left && !(stop && *stop))
        show_failure(nw);
    netwin_close(nw);
    return rc;
}
