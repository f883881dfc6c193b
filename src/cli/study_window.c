/* The study session in the window (study_cli.h): the study screen
 * (studywin.h) runs every race of the order with the players at the keys
 * or pads; its hooks are the session's. The experimenter's terminal gets a
 * line per race with the condition in full, per recording and per answer. */
#include "study_cli.h"
#include "studywin.h"

#include <stdlib.h>
#include <string.h>

#define CMD STUDY_CMD

struct StudyWindow {
    StudySession *ss;
    StudyWinConfig wc;
    StudyRaceSetup *slot[2]; /* the race driven and the one before (the game frees it when the next starts) */
    PlayConfig play[2];
    int cur;                 /* slot of the race being driven */
    const StudyRace *race;   /* the current step's race */
    bool human;              /* a player on keys or a pad */
    RaceOpts idle;           /* the window's first, unrecorded race on the first track */
    bool idle_init;
};
typedef StudyWindow WinRun;

/* The race's bots (seeded by its seed) and scripts (from their start). */
static bool make_ctl(void *ctx, Controller ctl[PLAY_SEATS], NrError *err)
{
    WinRun *w = ctx;
    const StudyRace *race = w->race ? w->race : &w->ss->ord.race[0];
    return players_make(&w->ss->s->pl, w->ss->track[race->cond], race->seed, ctl, err);
}

static bool drive_step(WinRun *w, const StudyRace *race, StudyStep *st)
{
    int k = 1 - w->cur;
    study_setup_free(w->slot[k]); /* the race before last: the game let it go */
    if (study_session_setup(w->ss, race, w->slot[k], w->human) != CLI_OK)
        return false;
    PlayConfig *pc = &w->play[k];
    *pc = w->wc.play;
    pc->race = w->slot[k]->lc;
    pc->hud_note = w->slot[k]->note;
    w->cur = k;
    st->kind = STUDY_STEP_RACE;
    st->practice = race->kind == STUDY_RACE_PRACTICE;
    st->play = pc;
    const StudyCondition *c = &w->ss->s->plan.cond[race->cond];
    if (!w->ss->s->plan.blind) /* the plan shows the players their condition */
        snprintf(st->shown, sizeof st->shown, "%scondition %s: %s", st->practice ? "practice, " : "", c->label,
                 c->scheme);
    return true;
}

/* The BREAK card's count: rated races up to the cursor, and to come. */
static void break_counts(const StudySession *ss, const StudyRace *race, StudyStep *st)
{
    for (int i = 0; i < ss->ord.nrace; i++)
        if (ss->ord.race[i].kind != STUDY_RACE_PRACTICE)
            (*(ss->ord.race[i].index <= race->index ? &st->rated_done : &st->rated_left))++;
}

static bool hook_next(void *ctx, StudyStep *st, NrError *err)
{
    WinRun *w = ctx;
    StudySession *ss = w->ss;
    err->msg[0] = '\0'; /* the session says its own failures on stderr */
    if (study_session_begin(ss) != CLI_OK)
        return false;
    const StudyRace *race;
    StudyNext next = study_session_next(ss, &race);
    st->nraces = ss->ord.nrace;
    st->race = race ? race->index : 0;
    w->race = race;
    fflush(stdout); /* the experimenter's terminal: each line at once */
    switch (next) {
    case STUDY_NEXT_DRIVE:
        return drive_step(w, race, st);
    case STUDY_NEXT_RATE: {
        st->kind = STUDY_STEP_RATE;
        int given = 0;
        for (int j = 0; j < 2; j++)
            for (int q = 0; q < ss->s->plan.nq; q++)
                given += st->given[j][q] = study_session_given(ss, race->index, j + 1, q);
        printf("race %d: rating screens (%d of %d answers given before)\n", race->index, given, 2 * ss->s->plan.nq);
        fflush(stdout);
        return true;
    }
    case STUDY_NEXT_BREAK:
        st->kind = STUDY_STEP_BREAK;
        break_counts(ss, race, st);
        printf("break after race %d\n", race->index);
        fflush(stdout);
        return true;
    case STUDY_NEXT_STOP:
        printf("stopped after race %d of %d (--resume continues at race %d)\n", ss->s->stop_after, ss->ord.nrace,
               race->index);
        fflush(stdout);
        st->kind = STUDY_STEP_DONE;
        st->stopped = true;
        return true;
    default:
        printf("study %s, pair %d: session complete in %s\n", ss->s->plan.name, ss->s->pair, ss->s->out_dir);
        fflush(stdout);
        st->kind = STUDY_STEP_DONE;
        return true;
    }
}

static bool hook_race_done(void *ctx, LiveRace *lr, NrError *err)
{
    WinRun *w = ctx;
    err->msg[0] = '\0';
    int nmarks, count[2];
    const RecMark *marks = liverace_marks(lr, &nmarks);
    study_marks_count(marks, nmarks, count);
    printf("race %d recorded: %s; dissatisfaction marks P1 %d, P2 %d\n", w->race->index, w->slot[w->cur]->rec,
           count[0], count[1]);
    fflush(stdout);
    return study_session_race_done(w->ss, w->race, liverace_engine(lr), w->slot[w->cur]->lc.shown, count, "csv") ==
           CLI_OK;
}

static bool hook_answer(void *ctx, int race, int player, int q, int score, int64_t response_ms, NrError *err)
{
    WinRun *w = ctx;
    err->msg[0] = '\0';
    const StudyRace *r = &w->ss->ord.race[race - 1];
    if (study_session_answer(w->ss, r, player, q, score, response_ms) != CLI_OK)
        return false;
    printf("race %d, player %d: %s %d (%.1f s)\n", race, player, w->ss->s->plan.q[q].id, score,
           (double)response_ms / 1000.0);
    fflush(stdout);
    return true;
}

/* The window's first race: the first condition's track, every player on
 * the grid, nothing recorded; the first card shows over it. */
static int idle_race(WinRun *w, LiveRaceConfig *lc)
{
    race_opts_init(&w->idle, "nc");
    w->idle_init = true;
    int rc = race_opts_parse(&w->idle, CMD);
    if (rc != CLI_OK)
        return rc;
    memset(lc, 0, sizeof *lc);
    const StudyRace *first = &w->ss->ord.race[0];
    lc->track = w->ss->track[first->cond];
    lc->track_file = w->ss->s->plan.cond[first->cond].track;
    race_opts_engine_config(&w->idle, &lc->engine);
    lc->engine.track = lc->track;
    lc->flow.laps = 1;
    lc->source = "human";
    return CLI_OK;
}

StudyWindow *study_window_new(StudySession *ss, const PlayConfig *pc)
{
    WinRun *w = calloc(1, sizeof *w);
    if (w) {
        w->slot[0] = calloc(1, sizeof *w->slot[0]);
        w->slot[1] = calloc(1, sizeof *w->slot[1]);
    }
    if (!w || !w->slot[0] || !w->slot[1]) {
        if (w)
            free(w->slot[0]), free(w->slot[1]);
        free(w);
        cli_fail(CMD, "out of memory");
        return NULL;
    }
    w->ss = ss;
    w->human = players_any_human(&ss->s->pl);
    StudyWinConfig *wc = &w->wc;
    wc->hooks = (StudyWinHooks){.ctx = w, .next = hook_next, .race_done = hook_race_done, .answer = hook_answer};
    wc->plan = &ss->s->plan;
    wc->play = *pc;
    for (int j = 0; j < 2; j++)
        wc->play.kind[j] = ss->s->pl.kind[j];
    wc->play.make_ctl = make_ctl;
    wc->play.make_ctx = w;
    wc->play.blind = ss->s->plan.blind;
    wc->play.session = true;
    wc->play.title = "netrace study";
    if (idle_race(w, &wc->play.race) != CLI_OK) {
        study_window_done(w, STUDYWIN_FAILED);
        return NULL;
    }
    return w;
}

const StudyWinConfig *study_window_config(const StudyWindow *w)
{
    return &w->wc;
}

int study_window_done(StudyWindow *w, StudyWinResult res)
{
    int rc = res == STUDYWIN_FAILED ? CLI_FAIL : CLI_OK;
    int at = study_session_resume_at(w->ss);
    if (res == STUDYWIN_CLOSED && w->ss->begun && at > 0)
        printf("the window was closed before the end: --resume continues at race %d of %d\n", at, w->ss->ord.nrace);
    fflush(stdout);
    for (int k = 0; k < 2; k++) {
        study_setup_free(w->slot[k]);
        free(w->slot[k]);
    }
    if (w->idle_init)
        race_opts_free(&w->idle);
    free(w);
    return rc;
}

int study_run_window(StudySession *ss, const PlayConfig *pc)
{
    StudyWindow *w = study_window_new(ss, pc);
    return w ? study_window_done(w, studywin_run(study_window_config(w))) : CLI_FAIL;
}
