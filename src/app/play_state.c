/* The game's state and frame logic: controls, grid and countdown on the
 * app clock, pause / restart / quit, pads joining and leaving. */
#include "play_internal.h"
#include "netrace_config.h"

#include <SDL_image.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(PLAY_PLAYERS == PLAY_SEATS, "a pad for every seat");
static void step_race(PlayState *ps, int64_t wall_dt_us);

void play_message(PlayState *ps, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->msg, sizeof ps->msg, fmt, ap);
    va_end(ap);
    ps->msg_frames = PLAY_MSG_FRAMES;
}

double play_steer_ramp(double current, double target, double dt_s)
{
    if (dt_s <= 0)
        return current;
    /* towards the centre (or through it) at the faster rate */
    double rate = (target == 0.0 || target * current < 0.0) ? PLAY_CENTRE_RATE : PLAY_STEER_RATE;
    double step = rate * dt_s;
    if (fabs(target - current) <= step)
        return target;
    return current + (target > current ? step : -step);
}

static bool human(const PlayConfig *cfg, int j)
{
    return cfg->kind[j] == PLAYER_KEYS || cfg->kind[j] == PLAYER_PAD;
}

/* No person at the wheel: the race starts by itself. */
static bool nobody(const PlayState *ps)
{
    for (int j = 0; j < ps->nseats; j++)
        if (human(ps->cfg, j))
            return false;
    return true;
}

/* Every player able to drive: a pad player holds a pad. */
static bool all_ready(const PlayState *ps)
{
    for (int j = 0; j < ps->nseats; j++)
        if (ps->cfg->kind[j] == PLAYER_PAD && !pads_has(&ps->pads, j))
            return false;
    return true;
}

/* "wrote FILE" on stderr for the race's recording and inputs once they are
 * in place, as every netrace command announces what it wrote (a race that
 * never left the grid leaves no file). */
static void announce(PlayState *ps)
{
    if (ps->announced)
        return;
    ps->announced = true;
    const char *files[2] = {ps->rec_path, ps->inputs_path};
    for (int i = 0; i < 2; i++) {
        FILE *f = files[i][0] ? fopen(files[i], "r") : NULL;
        if (f) {
            fclose(f);
            fprintf(stderr, "wrote %s\n", files[i]);
        }
    }
}

static bool start_race(PlayState *ps, NrError *err)
{
    const PlayConfig *cfg = ps->cfg;
    LiveRaceConfig rc = cfg->race;
    memset(ps->ctl, 0, sizeof ps->ctl);
    if (cfg->make_ctl && !cfg->make_ctl(cfg->make_ctx, ps->ctl, err))
        return false;
    for (int j = 0; j < ps->nseats; j++)
        rc.ctl[j] = human(cfg, j) ? NULL : &ps->ctl[j];
    if (ps->race_no > 1 && cfg->race.rec_path) {
        if (!cfg->next_rec_path ||
            !cfg->next_rec_path(cfg->make_ctx, ps->race_no, ps->rec_path, ps->inputs_path, sizeof ps->rec_path))
            return nr_error_set(err, "no name for the recording of race %d", ps->race_no);
        rc.rec_path = ps->rec_path;
        rc.inputs_path = ps->inputs_path;
    } else if (cfg->race.rec_path) {
        snprintf(ps->rec_path, sizeof ps->rec_path, "%s", cfg->race.rec_path);
        snprintf(ps->inputs_path, sizeof ps->inputs_path, "%s", cfg->race.inputs_path ? cfg->race.inputs_path : "");
    }
    ps->lr = liverace_new(&rc, err);
    if (!ps->lr)
        return false;
    ps->flow_us = 0;
    ps->race_us = 0;
    ps->rec_failed = false;
    ps->announced = false;
    ps->script_seen = 0;
    ps->nmarks = ps->marks_total = 0;
    memset(ps->steer, 0, sizeof ps->steer);
    memset(ps->in, 0, sizeof ps->in);
    memset(ps->marked_until_us, 0, sizeof ps->marked_until_us);
    for (int j = 0; j < PLAY_SEATS; j++)
        drivehud_reset(&ps->hud[j], ps->cam_mode);
    ps->lights_beeped = 0;
    return true;
}

bool play_state_init(PlayState *ps, const PlayConfig *cfg, SDL_Renderer *r, NrError *err)
{
    memset(ps, 0, sizeof *ps);
    ps->cfg = cfg;
    ps->r = r;
    ps->race_no = 1;
    ps->nseats = cfg->race.ncars ? cfg->race.ncars : 2;
    if (ps->nseats < 2 || ps->nseats > PLAY_SEATS)
        return nr_error_set(err, "a game seats 2 to %d players, not %d", PLAY_SEATS, ps->nseats);
    for (int j = PLAYKEYS_PLAYERS; j < ps->nseats; j++)
        if (cfg->kind[j] == PLAYER_KEYS)
            return nr_error_set(err, "player %d cannot drive with keys: the keyboard drives players 1 and 2", j + 1);
    ps->lag = cfg->lagometer;
    ps->key_state = SDL_GetKeyboardState(NULL);
    ps->cam_mode = cfg->camera_rotate ? DRIVECAM_ROTATE : DRIVECAM_NORTH;
    sound_open(&ps->snd, true); /* silent: the window unmutes it (play_run_window) */
    playkeys_default(&ps->keys);
    if (cfg->keys_path && !playkeys_load(&ps->keys, cfg->keys_path, err))
        return false;
    pads_init(&ps->pads);
    for (int j = 0; j < ps->nseats; j++)
        pads_want(&ps->pads, j, cfg->kind[j] == PLAYER_PAD);
    if (cfg->pad_mappings) {
        int added;
        if (!pads_load_mappings(&ps->pads, cfg->pad_mappings, &added, err))
            return false;
    }
    if (!start_race(ps, err))
        return false;
    ps->view = calloc(1, sizeof *ps->view);
    if (!ps->view)
        return nr_error_set(err, "out of memory");
    AppConfig ac = app_config_default();
    ac.font_path = cfg->font_path;
    ac.live = true;
    ac.wall_cw = CAR_GRASS_CW; /* the physics' wall beyond the grass */
    ac.scale = cfg->scale;
    if (!app_state_init_engine(ps->view, liverace_engine(ps->lr), NULL, &ac, r, err))
        return false;
    widget_sprites_load(&ps->sprites, r, cfg->assets_dir);
    /* bots and scripts need nobody to press start (a session starts its races) */
    if (nobody(ps) && !cfg->session)
        raceflow_go(liverace_flow(ps->lr), 0);
    return true;
}

void play_state_free(PlayState *ps)
{
    if (!ps)
        return;
    liverace_free(ps->lr); /* finalises the recording */
    ps->lr = NULL;
    announce(ps);
    if (ps->view) {
        app_state_free(ps->view);
        free(ps->view);
        ps->view = NULL;
    }
    widget_sprites_free(&ps->sprites);
    pads_free(&ps->pads);
    sound_close(&ps->snd);
}

bool play_restart(PlayState *ps, NrError *err)
{
    NrError e2 = {{0}};
    if (!liverace_close_recording(ps->lr, &e2))
        play_message(ps, "%s", e2.msg);
    liverace_free(ps->lr);
    announce(ps);
    ps->lr = NULL;
    ps->race_no++;
    if (!start_race(ps, err))
        return false;
    ps->view->e = liverace_engine(ps->lr);
    ps->view->gtext_valid = false;
    ps->paused = false;
    ps->pause_why[0] = '\0';
    if (nobody(ps))
        raceflow_go(liverace_flow(ps->lr), 0);
    return true;
}

bool play_next_race(PlayState *ps, const PlayConfig *cfg, NrError *err)
{
    NrError e2 = {{0}};
    if (!liverace_close_recording(ps->lr, &e2))
        play_message(ps, "%s", e2.msg);
    bool same_track = cfg->race.track == ps->cfg->race.track;
    liverace_free(ps->lr);
    announce(ps);
    ps->lr = NULL;
    ps->cfg = cfg;
    ps->race_no = 1;
    ps->rec_path[0] = ps->inputs_path[0] = '\0';
    int seats = cfg->race.ncars ? cfg->race.ncars : 2;
    if (seats != ps->nseats) /* a session keeps its players */
        return nr_error_set(err, "the next race has %d players, this game %d", seats, ps->nseats);
    for (int j = 0; j < ps->nseats; j++)
        pads_want(&ps->pads, j, cfg->kind[j] == PLAYER_PAD);
    if (!start_race(ps, err))
        return false;
    if (same_track) {
        ps->view->e = liverace_engine(ps->lr);
        ps->view->gtext_valid = false;
    } else { /* the view's geometry is the track's */
        AppConfig ac = ps->view->cfg;
        app_state_free(ps->view);
        if (!app_state_init_engine(ps->view, liverace_engine(ps->lr), NULL, &ac, ps->r, err))
            return false;
    }
    ps->paused = ps->help = ps->help_paused = false;
    ps->pause_why[0] = '\0';
    return true;
}

bool play_mark(PlayState *ps, int player, const char *kind)
{
    NrError err = {{0}};
    bool key = player == 0;
    if (!liverace_mark(ps->lr, player, kind, &err)) {
        if (err.msg[0] || key)
            play_message(ps, "%s", err.msg[0] ? err.msg : "F3 marks a race while it runs");
        return false;
    }
    int n;
    const RecMark *m = liverace_marks(ps->lr, &n);
    if (ps->nmarks == PLAY_MARKS) { /* the oldest leaves the screen, not the file */
        memmove(ps->marks, ps->marks + 1, sizeof ps->marks[0] * (PLAY_MARKS - 1));
        ps->nmarks--;
    }
    ps->marks[ps->nmarks++] = m[n - 1];
    ps->marks_total++;
    if (key)
        play_message(ps, "mark %d at %.3f s in %s", ps->marks_total, (double)m[n - 1].t_ms / 1000.0,
                     ps->rec_path[0] ? ps->rec_path : "the race (not recorded)");
    else
        ps->marked_until_us[player - 1] = ps->flow_us + PLAY_MARK_SHOW_US;
    return true;
}

static void set_pause(PlayState *ps, bool on)
{
    RacePhase ph = liverace_flow(ps->lr)->phase;
    if (ph == RF_DONE)
        return;
    if (!on && !all_ready(ps) && ph != RF_GRID) {
        play_message(ps, "a pad player has no pad: press a button on a gamepad to join first");
        return;
    }
    ps->paused = on;
    ps->help_paused = false;
    if (!on)
        ps->pause_why[0] = '\0';
}

/* Reading the keys mid-race should not cost a lap: the help pauses the race
 * and closing it resumes, unless the race was paused already. */
static void toggle_help(PlayState *ps)
{
    ps->help = !ps->help;
    if (ps->help && !ps->paused) {
        RacePhase ph = liverace_flow(ps->lr)->phase;
        if (ph == RF_COUNTDOWN || ph == RF_RACING || ph == RF_FINISHING) {
            ps->paused = true;
            ps->help_paused = true;
        }
    } else if (!ps->help && ps->help_paused) {
        ps->help_paused = false;
        set_pause(ps, false);
    }
}

static void start_countdown(PlayState *ps)
{
    RaceFlow *rf = liverace_flow(ps->lr);
    if (rf->phase != RF_GRID)
        return;
    if (!all_ready(ps)) {
        play_message(ps, "waiting for a gamepad: press a button on it to join");
        return;
    }
    raceflow_go(rf, ps->flow_us);
}

/* The keys a session keeps (a study's race): pause, help, fullscreen,
 * screenshot, the camera (C) and the sound (M); restart, replay, overview,
 * quit and start belong to the session. */
static bool session_key(SDL_Scancode sc)
{
    return sc == SDL_SCANCODE_ESCAPE || sc == SDL_SCANCODE_P || sc == SDL_SCANCODE_H || sc == SDL_SCANCODE_F1 ||
           sc == SDL_SCANCODE_F11 || sc == SDL_SCANCODE_F12 || sc == SDL_SCANCODE_C || sc == SDL_SCANCODE_M;
}

static void toggle_camera(PlayState *ps)
{
    ps->cam_mode = ps->cam_mode == DRIVECAM_NORTH ? DRIVECAM_ROTATE : DRIVECAM_NORTH;
    for (int j = 0; j < PLAY_SEATS; j++)
        drivecam_set_mode(&ps->hud[j].cam, ps->cam_mode);
    play_message(ps, "camera: %s (C)", ps->cam_mode == DRIVECAM_ROTATE ? "turning with the car" : "north up");
}

static void toggle_sound(PlayState *ps)
{
    sound_set_muted(&ps->snd, !ps->snd.muted);
    play_message(ps, "%s", ps->snd.muted          ? "sound off (M)"
                           : sound_playing(&ps->snd) ? "sound on (M)"
                                                    : "sound on, but no audio device opened: silent");
}

static void handle_key(PlayState *ps, const SDL_KeyboardEvent *k)
{
    SDL_Keycode sym = k->keysym.sym;
    bool ctrl = (k->keysym.mod & KMOD_CTRL) != 0;
    RacePhase ph = liverace_flow(ps->lr)->phase;
    int player, action;
    bool act = playkeys_gate(&ps->gate, &ps->keys, k, &player, &action); /* before the game's keys see it */
    if (act && action == PK_MARK && !ps->paused)
        play_mark(ps, player + 1, RECORDING_MARK_DISSATISFIED);
    if (k->type != SDL_KEYDOWN)
        return;
    if (ctrl && (sym == SDLK_q || sym == SDLK_c)) {
        ps->want_quit = true;
        return;
    }
    if (gfx_scale_key(&ps->view->scale, k)) { /* larger text for the back of the room */
        play_message(ps, "text x%g (Ctrl + / - / 0)", ps->view->scale);
        return;
    }
    if (k->repeat)
        return;
    if (playkeys_drives(&ps->keys, k->keysym.scancode))
        return; /* a player's key: marked above when it acts, or driving */
    if (ps->cfg->session && !session_key(k->keysym.scancode))
        return;
    switch (k->keysym.scancode) {
    case SDL_SCANCODE_ESCAPE:
    case SDL_SCANCODE_P:
        if (ps->help)
            toggle_help(ps);
        else
            set_pause(ps, !ps->paused);
        break;
    case SDL_SCANCODE_H:
    case SDL_SCANCODE_F1:
        toggle_help(ps);
        break;
    case SDL_SCANCODE_TAB:
        ps->want_watch = true;
        break;
    case SDL_SCANCODE_F: /* as in the replay window, unless a player drives with it */
        if (!playkeys_drives(&ps->keys, k->keysym.scancode))
            ps->want_fullscreen = true;
        break;
    case SDL_SCANCODE_F11:
        ps->want_fullscreen = true;
        break;
    case SDL_SCANCODE_F12:
        ps->want_shot = true;
        break;
    case SDL_SCANCODE_F2:
        ps->lag = !ps->lag;
        break;
    case SDL_SCANCODE_F3:
        play_mark(ps, 0, RECORDING_MARK_KEY);
        break;
    case SDL_SCANCODE_RETURN:
    case SDL_SCANCODE_SPACE:
        if (ph == RF_GRID)
            start_countdown(ps);
        else if (ph == RF_DONE) {
            NrError err = {{0}};
            if (!play_restart(ps, &err)) {
                fprintf(stderr, "netrace play: %s\n", err.msg);
                ps->want_quit = true;
            }
        }
        break;
    case SDL_SCANCODE_R:
        if (ps->paused || ph == RF_DONE) {
            NrError err = {{0}};
            if (!play_restart(ps, &err)) {
                fprintf(stderr, "netrace play: %s\n", err.msg);
                ps->want_quit = true;
            }
        }
        break;
    case SDL_SCANCODE_Q:
        if (ps->paused || ph == RF_DONE || ph == RF_GRID)
            ps->want_quit = true;
        break;
    case SDL_SCANCODE_O:
        if (ph == RF_DONE)
            ps->want_replay = true;
        break;
    case SDL_SCANCODE_C:
        toggle_camera(ps);
        break;
    case SDL_SCANCODE_M:
        toggle_sound(ps);
        break;
    default:
        break;
    }
}

void play_handle_event(PlayState *ps, const SDL_Event *ev)
{
    PadEvent pe;
    if (pads_event(&ps->pads, ev, &pe)) {
        if (pe.news == PAD_LOST) {
            RacePhase ph = liverace_flow(ps->lr)->phase;
            snprintf(ps->pause_why, sizeof ps->pause_why,
                     "player %d lost the gamepad (%s): plug it in and press a button", pe.player + 1, pe.name);
            if (ph == RF_COUNTDOWN || ph == RF_RACING || ph == RF_FINISHING)
                ps->paused = true;
            play_message(ps, "%s", ps->pause_why);
        } else {
            play_message(ps, "player %d drives with %s", pe.player + 1, pe.name);
            if (ps->paused && all_ready(ps))
                snprintf(ps->pause_why, sizeof ps->pause_why, "player %d is back: Esc / P or Start resumes",
                         pe.player + 1);
        }
        return;
    }
    switch (ev->type) {
    case SDL_QUIT:
        ps->want_quit = true;
        break;
    case SDL_KEYDOWN:
    case SDL_KEYUP: /* a Shift mark key acts on its release */
        handle_key(ps, &ev->key);
        break;
    case SDL_CONTROLLERBUTTONDOWN: {
        /* Start on a playing pad: start the race, pause or resume (a pad
         * nobody plays with is a spectator's); Y marks */
        int j = pads_player_of(&ps->pads, ev->cbutton.which);
        if (j >= 0 && ev->cbutton.button == PADS_MARK_BUTTON && !ps->paused)
            play_mark(ps, j + 1, RECORDING_MARK_DISSATISFIED);
        if (ev->cbutton.button == SDL_CONTROLLER_BUTTON_START && j >= 0) {
            RacePhase ph = liverace_flow(ps->lr)->phase;
            if (ph == RF_GRID && !ps->cfg->session)
                start_countdown(ps);
            else if (ph != RF_GRID)
                set_pause(ps, !ps->paused);
        }
        break;
    }
    default:
        break;
    }
}

/* The controls of human player j this frame. */
static void read_controls(PlayState *ps, int j, double dt_s)
{
    PlayControl c = {0};
    if (ps->cfg->kind[j] == PLAYER_KEYS) {
        playkeys_read(&ps->keys, j, ps->key_state, &c);
        ps->steer[j] = play_steer_ramp(ps->steer[j], c.steer, dt_s);
        c.steer = ps->steer[j];
    } else if (ps->cfg->kind[j] == PLAYER_PAD) {
        pads_read(&ps->pads, j, &c);
    }
    ps->in[j] = c;
    CarInput in = {.throttle = c.throttle, .brake = c.brake, .steer = c.steer};
    liverace_set_input(ps->lr, j, &in);
}

void play_feedback(PlayState *ps, double dt_s)
{
    const RaceFlow *rf = liverace_flow(ps->lr);
    const World *w = liverace_world(ps->lr);
    bool running = !ps->paused && rf->phase != RF_DONE;
    for (int j = 0; j < ps->nseats; j++) {
        DriveHudIn in = {.speed_cws = liverace_speed(ps->lr, j), .contact = world_contact(w, j), .rf = rf,
                         .view = j, .ncars = w->ncars};
        play_shown_pose(ps, j, j, &in.own);
        drivehud_update(&ps->hud[j], &in, dt_s);
        double throttle = human(ps->cfg, j) ? ps->in[j].throttle : 0.6; /* a bot's is its own */
        drivehud_sound(&ps->hud[j], &ps->snd.synth, j, &in, throttle, play_screen_pan(ps, j), running);
    }
    drivehud_lights_sound(&ps->snd.synth, &ps->lights_beeped, play_lights_to_go(ps));
    sound_pump(&ps->snd);
}

void play_frame(PlayState *ps, int64_t wall_dt_us)
{
    bool still = ps->paused || liverace_flow(ps->lr)->phase == RF_DONE;
    step_race(ps, wall_dt_us);
    int64_t dt = still || wall_dt_us < 0 ? 0 : wall_dt_us > 100000 ? 100000 : wall_dt_us;
    play_feedback(ps, (double)dt / 1e6);
}

/* One frame's logic: controls, the grid and countdown, the race. */
static void step_race(PlayState *ps, int64_t wall_dt_us)
{
    if (ps->msg_frames > 0)
        ps->msg_frames--;
    if (wall_dt_us < 0)
        wall_dt_us = 0;
    if (wall_dt_us > 100000) /* a stalled frame does not jump the race */
        wall_dt_us = 100000;
    RaceFlow *rf = liverace_flow(ps->lr);
    if (ps->paused || rf->phase == RF_DONE)
        return;
    ps->flow_us += wall_dt_us;
    if (rf->phase == RF_GRID)
        return;
    if (rf->phase == RF_COUNTDOWN) {
        int64_t go = rf->countdown_us + RACEFLOW_LIGHTS * RACEFLOW_LIGHT_US;
        if (!raceflow_tick(rf, ps->flow_us))
            return;
        /* the part of this frame after the lights went out is race time */
        wall_dt_us = ps->flow_us - go;
    }
    double dt_s = (double)wall_dt_us / 1e6;
    for (int j = 0; j < ps->nseats; j++)
        if (human(ps->cfg, j))
            read_controls(ps, j, dt_s);
    ps->race_us += wall_dt_us;
    NrError err = {{0}};
    if (!liverace_advance(ps->lr, ps->race_us, &err) && !ps->rec_failed) {
        ps->rec_failed = true;
        fprintf(stderr, "netrace play: %s\n", err.msg);
        play_message(ps, "%s", err.msg);
    }
    int changes;
    const LinkChange *last = liverace_last_change(ps->lr, &changes);
    if (last && changes != ps->script_seen) {
        char line[LINK_TEXT_MAX + 96];
        ps->script_seen = changes;
        play_message(ps, "%s", linkscript_describe(last, line, sizeof line));
    }
    if (rf->phase == RF_DONE) {
        NrError e2 = {{0}};
        if (!liverace_close_recording(ps->lr, &e2))
            play_message(ps, "%s", e2.msg);
        else if (ps->rec_path[0]) {
            if (!ps->cfg->session) /* a session's players need no file names */
                play_message(ps, "race recorded: %s", ps->rec_path);
            announce(ps);
        }
    }
}
