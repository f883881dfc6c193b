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

/* Ctrl + / Ctrl - / Ctrl 0: larger text for the back of the room (a
 * study's window too); true when the key was one of them. */
bool netwin_scale_key(NetWin *nw, const SDL_KeyboardEvent *k)
{
    if (!gfx_scale_key(&nw->scale, k))
        return false;
    if (nw->view)
        nw->view->scale = nw->scale;
    snprintf(nw->msg, sizeof nw->msg, "text x%g (Ctrl + / - / 0)", nw->scale);
    nw->msg_frames = 120;
    return true;
}

static void scr_event(void *ctx, const SDL_Event *ev)
{
    NetWin *nw = ctx;
    if (app_render_reset(nw->view, ev)) { /* names no window: both windows' textures */
        app_render_reset(nw->watch.s, ev);
        return;
    }
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
        bool key = ev->type == SDL_KEYDOWN || ev->type == SDL_KEYUP;
        bool tab = ev->type == SDL_KEYDOWN && ev->key.keysym.scancode == SDL_SCANCODE_TAB;
        if (key && !tab && playkeys_drives(&nw->keys, ev->key.keysym.scancode))
            return; /* the driving keys drive (the keyboard's state), they change no view */
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
    int player, action;
    if ((ev->type == SDL_KEYDOWN || ev->type == SDL_KEYUP) &&
        playkeys_gate(&nw->gate, &nw->keys, &ev->key, &player, &action) && action == PK_MARK)
        netwin_mark(nw, RECORDING_MARK_DISSATISFIED); /* either key set's: both drive this terminal's car */
    if (ev->type != SDL_KEYDOWN || ev->key.repeat || netwin_scale_key(nw, &ev->key))
        return;
    SDL_Scancode sc = ev->key.keysym.scancode;
    if (playkeys_find(&nw->keys, sc, &player, &action) && action == PK_MARK)
        return;
    if (sc == SDL_SCANCODE_Q || sc == SDL_SCANCODE_ESCAPE || (nw->after_race && sc == SDL_SCANCODE_RETURN))
        nw->quit = true;
    else if (sc == SDL_SCANCODE_H || sc == SDL_SCANCODE_F1)
        nw->help = !nw->help;
    else if (sc == SDL_SCANCODE_TAB)
        nw->want_watch = true;
    else if (sc == SDL_SCANCODE_C || sc == SDL_SCANCODE_M)
        toggle_key(nw, sc);
    else if (sc == SDL_SCANCODE_F11 || (sc == SDL_SCANCODE_F && !playkeys_drives(&nw->keys, sc)))
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
    if (overwin_is_open(&nw->watch)) {
        nw->want_watch = false;
        overwin_close(&nw->watch); /* the window back as it was */
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
    OverWinConfig oc = {.game = nw->loop.win, .game_r = nw->loop.r, .track = nr->track,
                        .font_path = nw->cfg->font_path, .icon = nw->sprites.icon, .scale = nw->scale};
    if (!overwin_open(&nw->watch, &oc, &err)) {
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
        DriveHudIn in = netwin_hud_in(nr);
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

/* The view of the race before (its track freed with its session). */
void netwin_view_drop(NetWin *nw)
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
    netwin_view_make(nw, &nr);
    if (nr.racing && nr.st.rtt_us > 0) /* the clock sync over the race, for the lagometer */
        lagnet_add(nw->net, nr.st.race_us, nr.st.rtt_us, nr.st.offset_us, nr.st.bound_us);
    if (overwin_in_place(&nw->watch) && nw->have_data) { /* the overview instead of the race until Tab */
        nw->watch.s->data = nw->data;
        overwin_draw_here(&nw->watch, w, h);
        return;
    }
    netwin_frame_draw(nw, &nr, w, h);
}

static unsigned scr_requests(void *ctx)
{
    NetWin *nw = ctx;
    bool stop = nw->stop && *nw->stop;
    unsigned r = (nw->quit || stop ? WIN_QUIT : 0) | (nw->fullscreen ? WIN_FULLSCREEN : 0) | (nw->shot ? WIN_SHOT : 0) |
                 overwin_requests(&nw->watch);
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
    if (!nw->session || nw->cfg->study || !netwin_race_data(nw->session, nw->hist, &nw->data))
        return;
    nw->have_data = true;
    nw->data.net = nw->net;
    if (!nw->watch.s)
        return;
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
    nw->scale = cfg->scale > 0 ? cfg->scale : 1.0;
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
    netwin_view_drop(nw); /* it drew the race before's track, freed with its session */
    memset(nw->hist, 0, sizeof *nw->hist);
    nw->have_data = false;
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
    netwin_view_drop(nw);
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
