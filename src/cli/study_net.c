/* A study over the network (study_cli.h; docs/studies.md "Over the
 * network"): the host runs the plan, one host session (src/net/session.h)
 * per race with the study race in it (netsession.h NetStudyRace: the race
 * i of n, its questions, the joiner's link); the joiner follows, joining
 * each race, and its player's answers come back sealed to the host's DIR.
 * Each end rates on its own (headless here: the --ratings files). */
#include "study_cli.h"

#include "bot.h"
#include "cli_load.h"
#include "netterm.h"
#include "nr_file.h"
#include "session.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CMD STUDY_CMD

struct StudyNetHost {
    StudySession *ss;
    StudyNetOpts o;
    NetClock real;
    const NetClock *clock;
    char code[WIRECRYPT_CODE_TEXT];
    Session *s;
    const StudyRace *race;
    StudyRaceSetup *rs;
    NetStudyRace st;
    char schemes[WIRE_SCHEMES_TEXT], log_path[STUDY_PATH_LEN];
    char *track_text;
    bool finished, metrics_done, peer_done, marks_done, closed, log_done;
    bool rest;  /* a plan's break comes before the next race driven: both players rest first */
    int rc;
    bool over, complete;
};

static void host_event(void *ctx, Session *s, const NetSessionEvent *e);

/* The seat's bot (seeded by the race's seed, as in a local session) or
 * script. */
static bool make_seat(CliPlayers *pl, const Track *track, int car, uint64_t seed, Controller *out, NrError *err)
{
    Controller ctl[PLAY_SEATS];
    memset(ctl, 0, sizeof ctl);
    if (!players_make(pl, track, seed, ctl, err))
        return false;
    *out = ctl[car];
    return true;
}

static bool host_controller(void *ctx, const Track *track, int car, uint64_t seed, Controller *out, NrError *err)
{
    StudyNetHost *h = ctx;
    return make_seat(&h->ss->s->pl, track, car, seed, out, err);
}

/* The study race the session offers: its place, kind, questions, the
 * joiner's link (the condition's 2 -> 1), the joiner's answers kept. */
static bool race_file(const StudyNetHost *h, int race, const char *tail, char *path, size_t n)
{
    struct stat st;
    snprintf(path, n, "%s/race-%03d.%s", h->ss->s->out_dir, race, tail);
    return stat(path, &st) == 0;
}

static void study_race(StudyNetHost *h, const StudyRace *race, bool rate_only)
{
    const StudyPlan *pl = &h->ss->s->plan;
    const StudyCondition *c = &pl->cond[race->cond];
    NetStudyRace *st = &h->st;
    memset(st, 0, sizeof *st);
    st->race = race->index;
    st->races = h->ss->ord.nrace;
    st->practice = race->kind == STUDY_RACE_PRACTICE;
    st->rated = !st->practice;
    st->rate_only = rate_only;
    st->brk = h->rest && !rate_only;
    char path[STUDY_PATH_LEN]; /* the joiner's log makes the recording: wanted unless DIR has it */
    st->log = !rate_only || !race_file(h, race->index, "joiner.log", path, sizeof path);
    st->blind = pl->blind;
    st->nq = st->rated ? pl->nq : 0;
    for (int q = 0; q < st->nq; q++) {
        snprintf(st->q[q].id, sizeof st->q[q].id, "%s", pl->q[q].id);
        snprintf(st->q[q].text, sizeof st->q[q].text, "%s", pl->q[q].text);
        st->q[q].kind = pl->q[q].kind == STUDY_Q_YESNO;
        if (study_session_given(h->ss, race->index, 2, q))
            st->given |= 1u << q;
    }
    snprintf(st->peer_link, sizeof st->peer_link, "%s", strcmp(c->link[1], "none") == 0 ? "" : c->link[1]);
    snprintf(st->name, sizeof st->name, "%s", pl->name);
    snprintf(st->condition, sizeof st->condition, "%s", c->label);
    st->pair = h->ss->s->pair;
    snprintf(st->kind, sizeof st->kind, "%s", studyorder_kind_name(race->kind));
}

/* A host session of race (its ratings only: rate_only). */
static int host_open(StudyNetHost *h, const StudyRace *race, bool rate_only)
{
    StudySession *ss = h->ss;
    const StudyCondition *c = &ss->s->plan.cond[race->cond];
    int rc = study_session_setup(ss, race, h->rs, false);
    if (rc != CLI_OK)
        return rc;
    const RaceOpts *o = &h->rs->o;
    size_t len = 0;
    for (int k = 0; k < o->nschemes; k++)
        len += (size_t)snprintf(h->schemes + len, sizeof h->schemes - len, "%s%s", k ? "," : "", o->schemes[k]->name);
    char path[STUDY_PATH_LEN];
    free(h->track_text);
    h->track_text = NULL;
    NrError err = {{0}};
    if (!cli_find_track(ss->s->plan_path, c->track, path, sizeof path))
        return cli_fail(CMD, "%s: no such track", c->track);
    if (!(h->track_text = cli_read_track_text(path, &err)))
        return cli_fail(CMD, "%s", err.msg);
    study_race(h, race, rate_only);
    snprintf(h->log_path, sizeof h->log_path, "%s/race-%03d.host.log", ss->s->out_dir, race->index);
    SessionConfig sc = {
        .host = true, .port = h->o.port, .allow = h->o.allow, .track_text = h->track_text, .track_file = c->track,
        .schemes = h->schemes, .shown = h->rs->lc.shown, .params = h->rs->lc.engine.params, .laps = c->laps,
        .seconds_ms = c->duration_us / 1000, .seed = race->seed, .log_path = rate_only ? NULL : h->log_path,
        .make_controller = host_controller, .ctx = h, .external_input = h->o.external_input, .cmd = CMD, .code = h->code, .study = &h->st,
        .on_event = host_event, .event_ctx = h, .net_port = h->o.net_port, .clock = h->o.clock,
        .entropy = h->o.entropy ? h->o.entropy + (uint64_t)race->index : 0, .say = h->o.say,
    };
    if (strcmp(c->link[0], "none") != 0)
        sc.link = &o->link[0];
    if (c->duration_us > 0)
        sc.laps = 0;
    h->s = session_new(&sc, &err);
    if (!h->s)
        return cli_fail(CMD, "race %d: %s", race->index, err.msg);
    h->race = race;
    h->metrics_done = rate_only; /* its metrics were written when it was driven */
    h->finished = h->peer_done = h->marks_done = h->closed = false;
    h->log_done = !h->st.log;
    if (h->st.brk && !h->o.window) /* no one to rest: headless */
        session_study_rested(h->s);
    return CLI_OK;
}

/* The joiner's log of the race, whole: DIR/race-NNN.joiner.log written
 * as PATH.part, synced, renamed (a kill before leaves no such file). */
static int keep_joiner_log(StudyNetHost *h, Session *s, int64_t bytes)
{
    char path[STUDY_PATH_LEN];
    size_t n;
    const char *text = session_study_log(s, &n);
    h->log_done = true;
    if (bytes < 0 || !text) {
        printf("race %d: the joiner has no log of it: no recording of the race\n", h->race->index);
        return CLI_OK;
    }
    if (race_file(h, h->race->index, "joiner.log", path, sizeof path))
        return CLI_OK; /* kept before (never replaced) */
    NrPartFile out;
    int rc = CLI_OK;
    FILE *f = cli_out_open(CMD, &out, path, &rc);
    if (!f)
        return rc;
    bool ok = fwrite(text, 1, n, f) == n && fflush(f) == 0 && fsync(fileno(f)) == 0;
    cli_out_close(CMD, &out, ok, &rc);
    return rc;
}

/* The race's recording and inputs from both logs (netrace merge), once
 * DIR has the joiner's; said on the experimenter's terminal. A merge
 * that fails says why and leaves the logs (netrace merge by hand). */
static void record_race(StudyNetHost *h, int race)
{
    char hl[STUDY_PATH_LEN], jl[STUDY_PATH_LEN], rec[STUDY_PATH_LEN], in[STUDY_PATH_LEN];
    if (race_file(h, race, "csv", rec, sizeof rec) || !race_file(h, race, "joiner.log", jl, sizeof jl))
        return;
    if (!race_file(h, race, "host.log", hl, sizeof hl) && !race_file(h, race, "host.log.part", hl, sizeof hl))
        return;
    race_file(h, race, "inputs.csv", in, sizeof in);
    const char *paths[2] = {hl, jl};
    if (cli_merge(&(CliMerge){CMD, paths, 2, rec, NULL, NULL, in, true}) == CLI_OK)
        printf("race %d: recording %s, inputs %s\n", race, rec, in);
    else
        printf("race %d: no recording (the logs stay: netrace merge them by hand)\n", race);
    fflush(stdout);
}

/* The host's player's answers (the --ratings file's player 1 lines). */
static int host_rate(StudyNetHost *h)
{
    const StudyPlan *pl = &h->ss->s->plan;
    for (int q = 0; q < pl->nq; q++) {
        if (study_session_given(h->ss, h->race->index, 1, q))
            continue;
        const StudyRating *a = studydata_find(&h->ss->answers, 0, h->race->index, 1, q);
        if (!a)
            return cli_fail(CMD, "%s: no answer for race %d, player 1, question %s", h->ss->s->ratings_path,
                            h->race->index, pl->q[q].id);
        int rc = study_session_answer(h->ss, h->race, 1, q, a->score, a->response_ms);
        if (rc != CLI_OK)
            return rc;
    }
    return CLI_OK;
}

static bool player_done(const StudyNetHost *h, int player)
{
    for (int q = 0; q < h->st.nq; q++)
        if (!study_session_given(h->ss, h->race->index, player, q))
            return false;
    return true;
}

/* The host's session said something: the finish, the race's views all in
 * (its metrics; then its player rates: no answer of a race is kept before
 * its metrics, so a resumed session never rates a race it drives again),
 * the joiner's answers (kept and acknowledged once the metrics are) and
 * its end. */
static void host_event(void *ctx, Session *s, const NetSessionEvent *e)
{
    StudyNetHost *h = ctx;
    if (h->rc != CLI_OK)
        return;
    const StudyRace *race = h->race;
    if (e->kind == NETSESSION_EV_FINISHED && !h->finished) {
        h->finished = true;
        if (h->st.rate_only && h->st.rated && !h->o.window) /* driven before: its metrics are in DIR */
            h->rc = host_rate(h);
    } else if (e->kind == NETSESSION_EV_STUDY_RACE_DONE && !h->metrics_done) {
        h->metrics_done = true;
        const int marks[2] = {session_marks(s), -1}; /* the joiner's come with its DONE */
        h->rc = study_session_race_done(h->ss, race, netterm_engine(session_netterm(s)), h->rs->lc.shown, marks,
                                        "host.log.part");
        if (h->rc == CLI_OK && h->st.rated && !h->o.window) /* the window's player rates on its screen */
            h->rc = host_rate(h);
    } else if (e->kind == NETSESSION_EV_STUDY_ANSWER && h->metrics_done) {
        if (!study_session_given(h->ss, race->index, 2, e->index))
            h->rc = study_session_answer(h->ss, race, 2, e->index, e->score, e->value);
        if (h->rc == CLI_OK) /* kept (now, or before: its acknowledgement was lost) */
            session_study_ack(s, e->index);
    } else if (e->kind == NETSESSION_EV_STUDY_LOG && !h->log_done) {
        h->rc = keep_joiner_log(h, s, e->value);
    } else if (e->kind == NETSESSION_EV_STUDY_DONE && !h->peer_done) {
        h->peer_done = true;
        if (!h->st.rate_only)
            h->rc = study_session_marks(h->ss, race, h->rs->o.schemes[h->rs->lc.shown]->name, 2, (int)e->value);
    }
}

StudyNetHost *study_net_host_new(StudySession *ss, const StudyNetOpts *o)
{
    StudyNetHost *h = calloc(1, sizeof *h);
    StudyRaceSetup *rs = calloc(1, sizeof *rs);
    if (!h || !rs) {
        free(h);
        free(rs);
        cli_fail(CMD, "out of memory");
        return NULL;
    }
    h->ss = ss;
    h->o = *o;
    h->rs = rs;
    netclock_real(&h->real, 0, 0.0);
    h->clock = o->clock ? o->clock : &h->real;
    if (o->code) {
        snprintf(h->code, sizeof h->code, "%s", o->code);
    } else if (!session_draw_code(h->code)) {
        cli_fail(CMD, "no random source for the join code");
        free(rs);
        free(h);
        return NULL;
    } else {
        fprintf(o->say ? o->say : stderr, "netrace study: join code %s (for every race of the session)\n", h->code);
    }
    if (study_session_begin(ss) != CLI_OK) {
        free(rs);
        free(h);
        return NULL;
    }
    ss->net = true; /* a race's recording needs the joiner's log: it comes again for it */
    for (int i = 0; i < ss->ord.nrace; i++) /* a resumed session: what a kill left unmerged */
        record_race(h, ss->ord.race[i].index);
    return h;
}

/* The next step of the plan, with no session open. */
static void host_next(StudyNetHost *h)
{
    const StudyRace *race;
    StudyNext next = study_session_next(h->ss, &race);
    if (next == STUDY_NEXT_DONE || next == STUDY_NEXT_STOP) {
        h->complete = next == STUDY_NEXT_DONE;
        if (next == STUDY_NEXT_DONE)
            printf("study %s, pair %d: session complete in %s\n", h->ss->s->plan.name, h->ss->s->pair,
                   h->ss->s->out_dir);
        else
            printf("stopped after race %d of %d (--resume continues at race %d)\n", h->ss->s->stop_after,
                   h->ss->ord.nrace, race->index);
        h->over = true;
    } else if (next == STUDY_NEXT_BREAK) {
        h->rest = true;
        printf("break: the next race starts once both players are ready (a key on each screen)\n");
    } else {
        if (next == STUDY_NEXT_RATE) /* a resumed race: its recording from logs DIR has, first */
            record_race(h, race->index);
        if (next == STUDY_NEXT_RATE && !study_session_rate_left(h->ss, race)) {
            fflush(stdout);
            return; /* nothing left of it: the next step goes on */
        }
        h->rc = host_open(h, race, next == STUDY_NEXT_RATE);
        if (next == STUDY_NEXT_RATE && h->rc == CLI_OK)
            printf("race %d: %s (the race was driven before)\n", race->index,
                   h->st.rated && !(player_done(h, 1) && player_done(h, 2)) ? "its ratings" : "the joiner's log");
    }
    fflush(stdout);
}

bool study_net_host_step(StudyNetHost *h)
{
    if (h->over || h->rc != CLI_OK)
        return false;
    if (!h->s) {
        host_next(h);
        return !h->over && h->rc == CLI_OK;
    }
    bool running = session_step(h->s);
    if (running && !h->closed && h->finished && h->metrics_done && h->peer_done && h->log_done && player_done(h, 1) &&
        player_done(h, 2)) {
        h->closed = true; /* both players' answers and the joiner's log kept: the race is over at both ends */
        session_study_close(h->s);
        running = session_step(h->s);
    }
    if (!running) {
        bool ok = session_finish(h->s) && h->closed;
        if (!ok && h->rc == CLI_OK) { /* the joiner left or went silent: the race again, for its next try */
            fprintf(h->o.say ? h->o.say : stderr, "netrace study: race %d did not complete (%s): offered again\n",
                    h->race->index, session_error(h->s)[0] ? session_error(h->s) : "the peer left");
            study_session_again(h->ss);
        }
        session_free(h->s);
        h->s = NULL;
        study_setup_free(h->rs);
        if (ok)
            record_race(h, h->race->index); /* both logs in place now */
        if (ok && !h->st.rate_only)
            h->rest = false; /* rested: the break is over */
    }
    return h->rc == CLI_OK;
}

Session *study_net_host_session(StudyNetHost *h)
{
    return h->s;
}

int64_t study_net_host_wake(const StudyNetHost *h)
{
    return h->s ? session_next_wake(h->s) : netclock_now_us(h->clock);
}

/* The window's hooks: player 1 rates once the race's metrics are kept;
 * each answer kept at once. */
static bool hook_can_rate(void *ctx, Session *s, bool given[STUDY_MAX_QUESTIONS])
{
    StudyNetHost *h = ctx;
    if (s != h->s || !h->metrics_done || h->rc != CLI_OK)
        return false;
    for (int q = 0; q < h->st.nq; q++)
        given[q] = study_session_given(h->ss, h->race->index, 1, q);
    return true;
}

static bool hook_answer(void *ctx, Session *s, int q, int score, int64_t response_ms)
{
    StudyNetHost *h = ctx;
    if (s != h->s || q < 0 || q >= h->st.nq || h->rc != CLI_OK)
        return false;
    if (!study_session_given(h->ss, h->race->index, 1, q))
        h->rc = study_session_answer(h->ss, h->race, 1, q, score, response_ms);
    return h->rc == CLI_OK;
}

static void hook_done(void *ctx, Session *s)
{
    (void)ctx; /* the race closes once both players' answers are kept (study_net_host_step) */
    (void)s;
}

bool study_net_host_complete(const StudyNetHost *h)
{
    return h->complete;
}

void study_net_host_hooks(StudyNetHost *h, NetWinStudy *out)
{
    *out = (NetWinStudy){.ctx = h, .can_rate = hook_can_rate, .answer = hook_answer, .done = hook_done};
}

int study_net_host_end(StudyNetHost *h)
{
    if (!h)
        return CLI_FAIL;
    int rc = h->rc;
    if (h->s) {
        session_quit(h->s, "the study stopped");
        session_free(h->s);
    }
    study_setup_free(h->rs);
    free(h->rs);
    free(h->track_text);
    free(h);
    return rc;
}
