/* The study session's screen on the one window loop (studywin.h): the
 * steps the session gives, the players' readiness and answers, the race on
 * the game's state. */
#include "studywin_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool drives_itself(const StudyWin *sw, int j)
{
    PlayerKind k = sw->cfg->play.kind[j];
    return k == PLAYER_BOT || k == PLAYER_SCRIPT;
}

static void fail(StudyWin *sw, const NrError *err)
{
    fprintf(stderr, "netrace study: %s\n", err->msg);
    sw->result = STUDYWIN_FAILED;
    sw->phase = SW_OVER;
    sw->want_quit = true;
}

static void begin_phase(StudyWin *sw, StudyPhase ph)
{
    /* a bot drives without being asked; a break is the people's, and the
     * players who ended it are ready for the race after it */
    bool after_break = sw->phase == SW_BREAK && ph == SW_CARD;
    sw->phase = ph;
    sw->phase_us = sw->clock_us;
    for (int j = 0; j < 2; j++)
        sw->ready[j] = ph == SW_CARD && (drives_itself(sw, j) || after_break);
}

/* The session's next step; false after a failed hook (the window closes). */
static bool go_next(StudyWin *sw)
{
    NrError err = {{0}};
    StudyStep st;
    memset(&st, 0, sizeof st);
    if (!sw->cfg->hooks.next(sw->cfg->hooks.ctx, &st, &err)) {
        fail(sw, &err);
        return false;
    }
    sw->step = st;
    switch (st.kind) {
    case STUDY_STEP_RACE:
        if (!play_next_race(sw->ps, st.play, &err)) {
            fail(sw, &err);
            return false;
        }
        begin_phase(sw, SW_CARD);
        break;
    case STUDY_STEP_RATE:
        begin_phase(sw, SW_RATE);
        for (int j = 0; j < 2; j++)
            studyrate_begin(&sw->rater[j], st.given[j], sw->cfg->plan->nq, sw->clock_us);
        break;
    case STUDY_STEP_BREAK:
        begin_phase(sw, SW_BREAK);
        break;
    default:
        begin_phase(sw, SW_DONE);
        sw->result = STUDYWIN_DONE;
        break;
    }
    return true;
}

/* A press of player j on the rating screen: an answer confirmed goes to
 * the hooks at once. */
static void rate_input(StudyWin *sw, int j, int in)
{
    StudyRater *rt = &sw->rater[j];
    const StudyPlan *plan = sw->cfg->plan;
    int score;
    int64_t ms;
    if (!studyrate_input(rt, plan->q, plan->nq, in, sw->clock_us, &score, &ms))
        return;
    NrError err = {{0}};
    if (!sw->cfg->hooks.answer(sw->cfg->hooks.ctx, sw->step.race, j + 1, rt->q, score, ms, &err)) {
        fail(sw, &err);
        return;
    }
    sw->step.given[j][rt->q] = true;
    studyrate_given(rt, sw->step.given[j], plan->nq, sw->clock_us);
}

/* A key or button of player j outside the race. */
static void player_input(StudyWin *sw, int j, int in)
{
    switch (sw->phase) {
    case SW_CARD:
    case SW_BREAK:
        sw->ready[j] = true;
        break;
    case SW_RATE:
        rate_input(sw, j, in);
        break;
    case SW_DONE:
        sw->want_quit = true;
        break;
    default:
        break;
    }
}

static void key_input(StudyWin *sw, const SDL_KeyboardEvent *k)
{
    bool ctrl = (k->keysym.mod & KMOD_CTRL) != 0;
    SDL_Scancode sc = k->keysym.scancode;
    int player, action;
    if (playkeys_gate(&sw->ps->gate, &sw->ps->keys, k, &player, &action)) /* alone: no Ctrl + */
        player_input(sw, player, action == PK_THROTTLE ? STUDYRATE_UP
                                 : action == PK_BRAKE  ? STUDYRATE_DOWN
                                 : action == PK_RIGHT || action == PK_MARK ? STUDYRATE_CONFIRM
                                                                           : STUDYRATE_NONE);
    if (k->type != SDL_KEYDOWN)
        return;
    if (ctrl && (k->keysym.sym == SDLK_q || k->keysym.sym == SDLK_c)) {
        sw->want_quit = true;
        return;
    }
    if (gfx_scale_key(&sw->ps->view->scale, k)) /* the text scale, as in the game (it keeps it for the races) */
        return;
    if (k->repeat)
        return;
    if (sc == SDL_SCANCODE_F11) {
        sw->want_fullscreen = true;
    } else if (sc == SDL_SCANCODE_F12) {
        sw->want_shot = true;
    } else if (sw->phase == SW_DONE && (sc == SDL_SCANCODE_ESCAPE || sc == SDL_SCANCODE_Q ||
                                        sc == SDL_SCANCODE_RETURN || sc == SDL_SCANCODE_SPACE)) {
        sw->want_quit = true;
    }
}

/* Pads: joining and losing (the game's pads), buttons, the left stick. */
static void pad_input(StudyWin *sw, const SDL_Event *ev)
{
    PlayState *ps = sw->ps;
    PadEvent pe;
    if (pads_event(&ps->pads, ev, &pe)) {
        if (pe.news == PAD_JOINED) {
            play_message(ps, "player %d plays with %s", pe.player + 1, pe.name);
            player_input(sw, pe.player, STUDYRATE_NONE);
        } else {
            play_message(ps, "player %d lost the gamepad (%s): plug it in and press a button", pe.player + 1,
                         pe.name);
        }
        return;
    }
    if (ev->type == SDL_CONTROLLERBUTTONDOWN) {
        int j = pads_player_of(&ps->pads, ev->cbutton.which);
        Uint8 b = ev->cbutton.button;
        int in = b == SDL_CONTROLLER_BUTTON_DPAD_UP     ? STUDYRATE_UP
                 : b == SDL_CONTROLLER_BUTTON_DPAD_DOWN ? STUDYRATE_DOWN
                 : b == SDL_CONTROLLER_BUTTON_A || b == SDL_CONTROLLER_BUTTON_DPAD_RIGHT ? STUDYRATE_CONFIRM
                                                                                        : STUDYRATE_NONE;
        if (j >= 0)
            player_input(sw, j, in);
    } else if (ev->type == SDL_CONTROLLERAXISMOTION && ev->caxis.axis == SDL_CONTROLLER_AXIS_LEFTY) {
        int j = pads_player_of(&ps->pads, ev->caxis.which);
        if (j < 0)
            return;
        int in = studyrate_stick(&sw->rater[j], ev->caxis.value); /* one move each time it leaves the centre */
        if (in != STUDYRATE_NONE && sw->phase == SW_RATE)
            rate_input(sw, j, in);
    }
}

void studywin_event(StudyWin *sw, const SDL_Event *ev)
{
    if (ev->type == SDL_QUIT || (ev->type == SDL_WINDOWEVENT && ev->window.event == SDL_WINDOWEVENT_CLOSE)) {
        sw->want_quit = true;
        return;
    }
    if (sw->phase == SW_RACE) { /* the game's keys, pads and pause */
        play_handle_event(sw->ps, ev);
        return;
    }
    if (ev->type == SDL_KEYDOWN || ev->type == SDL_KEYUP) /* a Shift confirms on its release */
        key_input(sw, &ev->key);
    else
        pad_input(sw, ev);
}

void studywin_advance(StudyWin *sw, int64_t wall_dt_us)
{
    PlayState *ps = sw->ps;
    wall_dt_us = wall_dt_us < 0 ? 0 : wall_dt_us > 100000 ? 100000 : wall_dt_us; /* a stall is not waited */
    sw->clock_us += wall_dt_us;
    switch (sw->phase) {
    case SW_CARD:
        play_frame(ps, wall_dt_us);
        if (sw->ready[0] && sw->ready[1]) { /* the lights */
            raceflow_go(liverace_flow(ps->lr), ps->flow_us);
            sw->phase = SW_RACE;
            sw->phase_us = sw->clock_us;
        }
        break;
    case SW_RACE:
        play_frame(ps, wall_dt_us);
        if (liverace_done(ps->lr)) {
            NrError err = {{0}};
            if (!sw->cfg->hooks.race_done(sw->cfg->hooks.ctx, ps->lr, &err))
                fail(sw, &err);
            else
                begin_phase(sw, SW_FINISHED);
        }
        break;
    case SW_FINISHED:
        play_frame(ps, wall_dt_us);
        if (sw->clock_us - sw->phase_us >= STUDYWIN_FINISH_US)
            go_next(sw);
        break;
    case SW_RATE:
        if (studyrate_done(&sw->rater[0], sw->cfg->plan->nq) && studyrate_done(&sw->rater[1], sw->cfg->plan->nq))
            go_next(sw);
        break;
    case SW_BREAK:
        if (sw->ready[0] && sw->ready[1])
            go_next(sw);
        break;
    default:
        break;
    }
}

bool studywin_open(StudyWin **out, const StudyWinConfig *cfg, SDL_Renderer *r, NrError *err)
{
    *out = NULL;
    StudyWin *sw = calloc(1, sizeof *sw);
    PlayState *ps = calloc(1, sizeof *ps);
    if (!sw || !ps) {
        free(sw);
        free(ps);
        return nr_error_set(err, "out of memory");
    }
    sw->cfg = cfg;
    sw->ps = ps;
    sw->result = STUDYWIN_CLOSED;
    if (!play_state_init(ps, &cfg->play, r, err)) {
        studywin_close(sw);
        return false;
    }
    go_next(sw); /* a failed hook said why: the screen is over at once */
    *out = sw;
    return true;
}

StudyWinResult studywin_result(const StudyWin *sw)
{
    return sw->result;
}

void studywin_close(StudyWin *sw)
{
    if (!sw)
        return;
    if (sw->ps) {
        play_state_free(sw->ps);
        free(sw->ps);
    }
    free(sw);
}

static void scr_event(void *ctx, const SDL_Event *ev)
{
    studywin_event(ctx, ev);
}

static void scr_advance(void *ctx, int64_t wall_dt_us)
{
    studywin_advance(ctx, wall_dt_us);
}

static void scr_draw(void *ctx, int w, int h)
{
    studywin_draw(ctx, w, h);
}

static unsigned scr_requests(void *ctx)
{
    StudyWin *sw = ctx;
    PlayState *ps = sw->ps;
    unsigned r = (sw->want_quit || ps->want_quit ? WIN_QUIT : 0) |
                 (sw->want_fullscreen || ps->want_fullscreen ? WIN_FULLSCREEN : 0) |
                 (sw->want_shot || ps->want_shot ? WIN_SHOT : 0);
    sw->want_fullscreen = sw->want_shot = ps->want_fullscreen = ps->want_shot = false;
    return r;
}

static double scr_time(void *ctx)
{
    return (double)((StudyWin *)ctx)->ps->race_us / 1e6;
}

static void scr_message(void *ctx, const char *text)
{
    play_message(((StudyWin *)ctx)->ps, "%s", text);
}

static void scr_bench_title(void *ctx, int w, int h, char *buf, size_t n)
{
    (void)ctx;
    snprintf(buf, n, "study: %dx%d", w, h);
}

WinScreen studywin_screen(StudyWin *sw)
{
    return (WinScreen){.ctx = sw, .shot_prefix = "netrace-study", .event = scr_event, .advance = scr_advance,
                       .draw = scr_draw, .requests = scr_requests, .race_time_s = scr_time, .message = scr_message,
                       .bench_title = scr_bench_title};
}

StudyWinResult studywin_run(const StudyWinConfig *cfg)
{
    const PlayConfig *pc = &cfg->play;
    WinLoopConfig wc = {.title = pc->title ? pc->title : "netrace study", .width = pc->width, .height = pc->height,
                        .fullscreen = pc->fullscreen, .gamepads = true, .shot_dir = pc->shot_dir};
    WinLoop L;
    if (!winloop_open(&L, &wc))
        return STUDYWIN_FAILED;
    StudyWin *sw = NULL;
    NrError err = {{0}};
    StudyWinResult res = STUDYWIN_FAILED;
    if (!studywin_open(&sw, cfg, L.r, &err)) {
        fprintf(stderr, "netrace study: %s\n", err.msg);
    } else {
        if (sw->ps->sprites.icon)
            SDL_SetWindowIcon(L.win, sw->ps->sprites.icon);
        WinScreen scr = studywin_screen(sw);
        if (sw->phase != SW_OVER)
            winloop_run(&L, &scr);
        res = studywin_result(sw);
    }
    studywin_close(sw);
    winloop_close(&L);
    return res;
}
