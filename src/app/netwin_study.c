/* The network window's study screens (netwin.h "A study";
 * netwin_internal.h): a card before each race, "Finished" after it, this
 * terminal's player's rating screen (studyrate.h), the wait between races
 * and the last screen; the race itself is netwin.c's, blind. */
#include "netwin_internal.h"

#include "studywin.h"
#include "widgets.h"

#include <stdio.h>
#include <string.h>

void netwin_study_attach(NetWin *nw)
{
    NetWinStudyState *st = &nw->st;
    st->phase = NWS_WAIT;
    st->finished_us = -1;
    st->done_said = false;
    st->rested = false;
}

void netwin_study_over(NetWin *nw, bool complete, const char *why)
{
    nw->st.over = true;
    nw->st.complete = complete;
    snprintf(nw->st.why, sizeof nw->st.why, "%s", why ? why : "");
}

/* The race's questions as the rating screen asks them. */
static void take_questions(NetWinStudyState *st)
{
    for (int q = 0; q < st->race.nq && q < STUDY_MAX_QUESTIONS; q++) {
        StudyQuestion *d = &st->q[q];
        memset(d, 0, sizeof *d);
        snprintf(d->id, sizeof d->id, "%s", st->race.q[q].id);
        snprintf(d->text, sizeof d->text, "%s", st->race.q[q].text);
        d->kind = st->race.q[q].kind == 1 ? STUDY_Q_YESNO : STUDY_Q_ACR5;
    }
}

/* Every answer given (none for a practice race): the hooks hear it once. */
static void said_done(NetWin *nw)
{
    if (!nw->st.done_said)
        nw->cfg->study->done(nw->cfg->study->ctx, nw->session);
    nw->st.done_said = true;
}

static void rated(NetWin *nw)
{
    nw->st.phase = NWS_THANKS;
    said_done(nw);
}

/* The finish held, then the rating screen once the hooks let it begin. */
static void begin_rating(NetWin *nw, const SessionStatus *ss)
{
    NetWinStudyState *st = &nw->st;
    if (ss->phase < SESSION_FINISHED)
        return;
    if (!st->race.rated) { /* nothing to rate: the race is over here */
        said_done(nw);
        return;
    }
    if (st->finished_us < 0)
        st->finished_us = st->clock_us;
    if (!st->race.rate_only && st->clock_us - st->finished_us < STUDYWIN_FINISH_US)
        return;
    memset(st->given, 0, sizeof st->given);
    if (!nw->cfg->study->can_rate(nw->cfg->study->ctx, nw->session, st->given))
        return;
    take_questions(st);
    studyrate_begin(&st->rater, st->given, st->race.nq, st->clock_us);
    st->phase = NWS_RATE;
    if (studyrate_done(&st->rater, st->race.nq)) /* all kept before (a resumed session) */
        rated(nw);
}

void netwin_study_advance(NetWin *nw, int64_t wall_dt_us)
{
    NetWinStudyState *st = &nw->st;
    st->clock_us += wall_dt_us < 0 ? 0 : wall_dt_us > 100000 ? 100000 : wall_dt_us; /* a stall is not waited */
    const NetStudyRace *r = nw->session ? netwin_race_study(nw->session) : NULL;
    if (!r)
        return;
    if (st->phase == NWS_WAIT) {
        st->race = *r;
        st->have_race = true;
        st->phase = NWS_RACE;
    }
    st->race.nq = r->nq; /* the joiner's questions come after WELCOME */
    memcpy(st->race.q, r->q, sizeof st->race.q);
    NetRace nr;
    netwin_race_read(nw->session, &nr);
    if (st->phase == NWS_RACE)
        begin_rating(nw, &nr.st);
}

/* A race after a plan's break, not begun: this end's player rests until
 * it presses one of its keys or buttons. */
static bool resting(const NetWin *nw)
{
    const NetWinStudyState *st = &nw->st;
    return nw->session && st->phase == NWS_RACE && st->race.brk && !st->rested;
}

static void rested(NetWin *nw)
{
    nw->st.rested = true;
    netwin_race_study_rested(nw->session);
}

/* A press on the rating screen: an answer confirmed goes to the hooks. */
static void rate(NetWin *nw, int in)
{
    NetWinStudyState *st = &nw->st;
    int score;
    int64_t ms;
    if (st->phase != NWS_RATE || !studyrate_input(&st->rater, st->q, st->race.nq, in, st->clock_us, &score, &ms))
        return;
    int q = st->rater.q;
    if (!nw->cfg->study->answer(nw->cfg->study->ctx, nw->session, q, score, ms)) {
        nw->quit = true; /* the hook said why: the study stops */
        return;
    }
    st->given[q] = true;
    studyrate_given(&st->rater, st->given, st->race.nq, st->clock_us);
    if (studyrate_done(&st->rater, st->race.nq))
        rated(nw);
}

static void key_down(NetWin *nw, const SDL_KeyboardEvent *k)
{
    SDL_Scancode sc = k->keysym.scancode;
    int player, action;
    if (playkeys_gate(&nw->gate, &nw->keys, k, &player, &action)) { /* either key set: this terminal's player */
        if (resting(nw))
            rested(nw);
        else if (nw->st.phase == NWS_RACE && action == PK_MARK)
            netwin_mark(nw, RECORDING_MARK_DISSATISFIED);
        else
            rate(nw, action == PK_THROTTLE ? STUDYRATE_UP
                     : action == PK_BRAKE  ? STUDYRATE_DOWN
                     : action == PK_RIGHT || action == PK_MARK ? STUDYRATE_CONFIRM
                                                               : STUDYRATE_NONE);
    }
    if (k->type != SDL_KEYDOWN)
        return;
    if ((k->keysym.mod & KMOD_CTRL) && (k->keysym.sym == SDLK_q || k->keysym.sym == SDLK_c)) {
        nw->quit = true;
        return;
    }
    if (k->repeat || netwin_scale_key(nw, k))
        return;
    if (sc == SDL_SCANCODE_F11 || (sc == SDL_SCANCODE_F && !playkeys_drives(&nw->keys, sc))) {
        nw->fullscreen = true;
    } else if (sc == SDL_SCANCODE_F12) {
        nw->shot = true;
    } else if (nw->st.over && (sc == SDL_SCANCODE_ESCAPE || sc == SDL_SCANCODE_Q || sc == SDL_SCANCODE_RETURN ||
                               sc == SDL_SCANCODE_SPACE)) {
        nw->quit = true;
    }
}

static void pad_event(NetWin *nw, const SDL_Event *ev)
{
    PadEvent pe;
    if (pads_event(&nw->pads, ev, &pe)) {
        snprintf(nw->msg, sizeof nw->msg, pe.news == PAD_JOINED ? "%s plays" : "lost %s: plug it in and press a button",
                 pe.name);
        nw->msg_frames = 120;
        return;
    }
    if (ev->type == SDL_CONTROLLERBUTTONDOWN && pads_player_of(&nw->pads, ev->cbutton.which) == 0) {
        Uint8 b = ev->cbutton.button;
        if (resting(nw))
            rested(nw);
        else if (b == PADS_MARK_BUTTON && nw->st.phase == NWS_RACE)
            netwin_mark(nw, RECORDING_MARK_DISSATISFIED);
        else
            rate(nw, b == SDL_CONTROLLER_BUTTON_DPAD_UP     ? STUDYRATE_UP
                     : b == SDL_CONTROLLER_BUTTON_DPAD_DOWN ? STUDYRATE_DOWN
                     : b == SDL_CONTROLLER_BUTTON_A || b == SDL_CONTROLLER_BUTTON_DPAD_RIGHT ? STUDYRATE_CONFIRM
                                                                                            : STUDYRATE_NONE);
    } else if (ev->type == SDL_CONTROLLERAXISMOTION && ev->caxis.axis == SDL_CONTROLLER_AXIS_LEFTY &&
               pads_player_of(&nw->pads, ev->caxis.which) == 0) {
        rate(nw, studyrate_stick(&nw->st.rater, ev->caxis.value));
    }
}

void netwin_study_event(NetWin *nw, const SDL_Event *ev)
{
    if (ev->type == SDL_QUIT || (ev->type == SDL_WINDOWEVENT && ev->window.event == SDL_WINDOWEVENT_CLOSE))
        nw->quit = true;
    else if (ev->type == SDL_KEYDOWN || ev->type == SDL_KEYUP) /* a Shift confirms on its release */
        key_down(nw, &ev->key);
    else
        pad_event(nw, ev);
}

void netwin_study_hud(const NetWin *nw, char *buf, size_t n)
{
    snprintf(buf, n, "race %d of %d%s", nw->st.race.race, nw->st.race.races, nw->st.race.practice ? " · practice" : "");
}

/* The study's own screens' text size (a rater is w / 2 wide, as on the
 * two-player screen) and background. */
static Gfx *own_screen(NetWin *nw, int w, int h)
{
    Gfx *g = &nw->gfx0;
    int base = studyrate_base_px(w, h, nw->scale);
    nw->st.font_base = base;
    gfx_begin_frame(g);
    gfx_set_scale(g, base);
    SDL_Color bg = PAL_BG;
    SDL_SetRenderDrawColor(g->r, bg.r, bg.g, bg.b, 255);
    SDL_RenderClear(g->r);
    return g;
}

static void card_lines(const NetWinStudyState *st, char *title, char *sub, size_t n)
{
    snprintf(title, n, "Race %d of %d", st->race.race, st->race.races);
    snprintf(sub, n, "%s", st->race.rate_only  ? "its ratings (the race was driven before)"
                           : st->race.practice ? "a practice race: not rated"
                                               : "rate it when it ends");
}

static void draw_rating(NetWin *nw, const NetRace *nr, int w, int h)
{
    NetWinStudyState *st = &nw->st;
    Gfx *g = own_screen(nw, w, h);
    char hint[160];
    if (nw->cfg->kind == PLAYER_PAD)
        snprintf(hint, sizeof hint, "d-pad or stick: choose · A: confirm");
    else
        snprintf(hint, sizeof hint, "%s / %s or %s / %s: choose · %s, %s or Shift: confirm", /* both key sets */
                 playkeys_key_name(&nw->keys, 0, PK_THROTTLE), playkeys_key_name(&nw->keys, 0, PK_BRAKE),
                 playkeys_key_name(&nw->keys, 1, PK_THROTTLE), playkeys_key_name(&nw->keys, 1, PK_BRAKE),
                 playkeys_key_name(&nw->keys, 0, PK_RIGHT), playkeys_key_name(&nw->keys, 1, PK_RIGHT));
    int seat = nr->st.own_car >= 0 ? nr->st.own_car : 0;
    StudyRateLook lk = {.seat = seat, .x0 = (float)w / 4, .width = (float)w / 2, .h = h, .m = st->font_base,
                        .race = st->race.race, .nraces = st->race.races, .hint = hint,
                        .waiting = "waiting for the other player"};
    studyrate_draw(g, &st->rater, st->q, st->race.nq, &lk);
}

bool netwin_study_draws(NetWin *nw, const NetRace *nr, int w, int h)
{
    NetWinStudyState *st = &nw->st;
    if (!nw->have_gfx0)
        return true;
    char l1[160], l2[160], l3[160];
    const char *lines[3] = {l1, l2, l3};
    if (st->over) {
        Gfx *g = own_screen(nw, w, h);
        snprintf(l1, sizeof l1, "%s", st->complete ? "Thank you!" : "The session stopped");
        snprintf(l2, sizeof l2, "%s", st->complete ? "The session is complete." : "Please call the experimenter.");
        snprintf(l3, sizeof l3, "Esc closes the window");
        widget_text_box(g, w, h, lines, 3, PAL_ACCENT);
    } else if (st->phase == NWS_RATE || st->phase == NWS_THANKS) {
        draw_rating(nw, nr, w, h);
    } else if (st->phase == NWS_WAIT || !nr->track) {
        Gfx *g = own_screen(nw, w, h);
        if (st->phase == NWS_RACE) /* a rate-only race: no track, the ratings come at once */
            card_lines(st, l1, l2, sizeof l1);
        else
            snprintf(l1, sizeof l1, "%s", st->have_race ? "Next race" : "The study");
        if (st->phase != NWS_RACE) /* the next one, or this one again after a break-off */
            snprintf(l2, sizeof l2, "waiting for the other machine");
        /* the code is a secret for joining: only the host's screen shows
         * it, and only before its first race (the joiner is told it once;
         * later races rejoin by themselves) */
        bool tell = nr->host && !st->have_race && nr->code[0];
        snprintf(l3, sizeof l3, "%s%s", tell ? "join code " : "", tell ? nr->code : "");
        widget_text_box(g, w, h, lines, l3[0] ? 3 : 2, PAL_ACCENT);
    } else {
        return false;
    }
    return true;
}

void netwin_study_boxes(NetWin *nw, const NetRace *nr, int w, int h)
{
    Gfx *g = &nw->view->gfx;
    char l1[160], l2[160];
    if (resting(nw)) { /* the plan's break, as on one machine */
        snprintf(l1, sizeof l1, "Break: race %d of %d is next", nw->st.race.race, nw->st.race.races);
        const char *lines[3] = {l1, "take a rest", "press a key when you are ready"};
        widget_text_box(g, w, (int)((float)h * 0.6f), lines, 3, PAL_ACCENT);
    } else if (nr->st.phase < SESSION_COUNTDOWN) {
        card_lines(&nw->st, l1, l2, sizeof l1);
        const char *lines[3] = {l1, l2, "it starts when both machines are ready"};
        widget_text_box(g, w, (int)((float)h * 0.6f), lines, 3, pal_car(nr->st.own_car >= 0 ? nr->st.own_car : 0));
    } else if (nr->st.phase >= SESSION_FINISHED) {
        const char *lines[1] = {"Finished"};
        widget_text_box(g, w, (int)((float)h * 0.6f), lines, 1, PAL_ACCENT);
    }
}
