/* The joiner of a study over the network (study_cli.h; docs/studies.md
 * "Over the network"): it needs no plan and no files; it joins the host's
 * session of each race (the race, its questions and this end's link come
 * with it), drives, gives its player's answers (headless: its --ratings
 * file's player 2 lines) and joins again, until the host's last race. */
#include "study_cli.h"

#include "cli_load.h"
#include "nr_file.h"
#include "session.h"

#include <stdlib.h>
#include <string.h>

#define CMD STUDY_CMD
#define JOIN_RETRY_US (1000 * NR_US_PER_MS) /* between tries while the host is not there yet */
#define JOIN_ANSWERS_MAX 100000

/* One line of the joiner's answers file: race,player,question,score[,ms]. */
typedef struct JoinAnswer {
    int race;
    char id[WIRE_STUDY_ID];
    char score[8];     /* 1..5, yes / no, 1 / 0: read against the question's kind */
    int64_t ms;        /* -1: not given */
} JoinAnswer;

struct StudyNetJoin {
    StudyNetOpts o;
    CliPlayers *pl;
    NetClock real;
    const NetClock *clock;
    JoinAnswer *ans;
    int nans;
    Session *s;
    int64_t retry_at;
    bool waiting_said;
    int rc;
    bool over;
};

static bool join_controller(void *ctx, const Track *track, int car, uint64_t seed, Controller *out, NrError *err)
{
    StudyNetJoin *j = ctx;
    Controller ctl[PLAY_SEATS];
    memset(ctl, 0, sizeof ctl);
    if (!players_make(j->pl, track, seed, ctl, err))
        return false;
    *out = ctl[car];
    return true;
}

/* The answers file: player 2's lines (player 1's are the host's). */
static bool read_answers(StudyNetJoin *j, const char *path)
{
    NrError err = {{0}};
    FILE *f = nr_file_open(path, "ratings (race,player,question,score)", &err);
    if (!f)
        return cli_fail(CMD, "%s", err.msg), false;
    char line[512];
    int ln = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        ln++;
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0] || line[0] == '#' || strncmp(line, "race", 4) == 0)
            continue;
        char *fld[6];
        int n = nr_csv_split(line, fld, 6);
        int64_t race, player, ms = -1;
        ok = n >= 4 && n <= 5 && nr_parse_int64(fld[0], &race) && race >= 1 && race <= WIRE_STUDY_RACES &&
             nr_parse_int64(fld[1], &player) && (player == 1 || player == 2) && strlen(fld[2]) < WIRE_STUDY_ID &&
             fld[2][0] && strlen(fld[3]) < 8 && (n < 5 || (nr_parse_int64(fld[4], &ms) && ms >= 0));
        if (!ok)
            cli_fail(CMD, "%s:%d: expected race,player,question,score[,response_ms]", path, ln);
        else if (player == 2 && j->nans < JOIN_ANSWERS_MAX) {
            JoinAnswer *g = realloc(j->ans, (size_t)(j->nans + 1) * sizeof *g);
            if (!g)
                ok = cli_fail(CMD, "out of memory") == CLI_OK;
            else {
                j->ans = g;
                JoinAnswer *a = &j->ans[j->nans++];
                a->race = (int)race;
                snprintf(a->id, sizeof a->id, "%s", fld[2]);
                snprintf(a->score, sizeof a->score, "%s", fld[3]);
                a->ms = ms;
            }
        }
    }
    fclose(f);
    return ok;
}

/* The score of an answer file's text for a question of kind (1 yes/no). */
static int score_of(const char *t, int kind)
{
    int64_t v;
    if (kind == 1 && (strcmp(t, "yes") == 0 || strcmp(t, "no") == 0))
        return t[0] == 'y';
    if (!nr_parse_int64(t, &v))
        return -1;
    return kind == 1 ? (v == 0 || v == 1 ? (int)v : -1) : (v >= 1 && v <= 5 ? (int)v : -1);
}

/* The finish: this player's answers to the race's questions, then done. */
static void join_rate(StudyNetJoin *j, Session *s)
{
    const NetStudyRace *st = session_study(s);
    if (!st)
        return;
    for (int q = 0; q < st->nq && j->rc == CLI_OK; q++) {
        if (st->given & (1u << q))
            continue; /* kept at the host before */
        const JoinAnswer *a = NULL;
        for (int i = 0; i < j->nans && !a; i++)
            if (j->ans[i].race == st->race && strcmp(j->ans[i].id, st->q[q].id) == 0)
                a = &j->ans[i];
        int score = a ? score_of(a->score, st->q[q].kind) : -1;
        if (!a || score < 0 || !session_study_answer(s, q, score, a->ms))
            j->rc = cli_fail(CMD, "%s: no answer for race %d, player 2, question %s", j->o.ratings_path, st->race,
                             st->q[q].id);
    }
    if (j->rc == CLI_OK)
        session_study_done(s, session_marks(s));
}

/* The host wants this end's log of the race (its recording): a driven
 * race's once its views are all in (the log ended here and then sent: the
 * file in place at both ends), a race driven before (a rate-only session)
 * from --out's race-NNN.joiner.log when it is there; none is said so. */
static void join_send_log(StudyNetJoin *j, Session *s, const NetStudyRace *st)
{
    char path[STUDY_PATH_LEN];
    NrError err = {{0}};
    bool ended = st->rate_only || session_log_end(s);
    if (st->rate_only && j->o.out_dir)
        snprintf(path, sizeof path, "%s/race-%03d.joiner.log", j->o.out_dir, st->race);
    else
        snprintf(path, sizeof path, "%s", st->rate_only ? "" : session_log_path(s));
    size_t n = 0;
    char *text = ended && path[0] ? cli_read_text(path, "terminal log", &n, &err) : NULL;
    if (!text)
        fprintf(stderr, "netrace study: race %d: no log of it to send the host (%s)\n", st->race,
                err.msg[0] ? err.msg : !ended ? session_error(s) : "no --out folder");
    session_study_send_log(s, text, text ? n : 0);
    free(text);
}

static void join_event(void *ctx, Session *s, const NetSessionEvent *e)
{
    StudyNetJoin *j = ctx;
    const NetStudyRace *st = session_study(s);
    if (e->kind == NETSESSION_EV_FINISHED && j->rc == CLI_OK && !j->o.window)
        join_rate(j, s);
    if (st && st->log && (st->rate_only ? e->kind == NETSESSION_EV_FINISHED : e->kind == NETSESSION_EV_STUDY_RACE_DONE))
        join_send_log(j, s, st);
}

StudyNetJoin *study_net_join_new(const StudyNetOpts *o, CliPlayers *pl)
{
    StudyNetJoin *j = calloc(1, sizeof *j);
    if (!j) {
        cli_fail(CMD, "out of memory");
        return NULL;
    }
    j->o = *o;
    j->pl = pl;
    netclock_real(&j->real, 0, 0.0);
    j->clock = o->clock ? o->clock : &j->real;
    if (o->ratings_path && !read_answers(j, o->ratings_path)) {
        free(j);
        return NULL;
    }
    return j;
}

static void join_open(StudyNetJoin *j)
{
    SessionConfig sc = {
        .peer = j->o.host, .peer_port = j->o.host_port, .port = j->o.port, .log_study_dir = j->o.out_dir,
        .make_controller = join_controller, .ctx = j, .external_input = j->o.external_input, .cmd = CMD, .code = j->o.code, .on_event = join_event,
        .event_ctx = j, .net_port = j->o.net_port, .clock = j->o.clock, .peer_addr = j->o.host_addr,
        .entropy = j->o.entropy ? j->o.entropy + (uint64_t)netclock_now_us(j->clock) : 0, .say = j->o.say,
    };
    NrError err = {{0}};
    j->s = session_new(&sc, &err);
    if (!j->s)
        j->rc = cli_fail(CMD, "%s", err.msg);
}

/* A session over: the study's last race done, or try again. */
static void join_closed(StudyNetJoin *j)
{
    bool ok = session_finish(j->s);
    const NetStudyRace *st = session_study(j->s);
    if (ok && st) {
        printf("race %d of %d done\n", st->race, st->races);
        j->waiting_said = false;
        j->over = st->race == st->races;
    } else if (st) {
        fprintf(stderr, "netrace study: race %d: %s; joining again\n", st->race, session_error(j->s));
    } else if (!j->waiting_said) {
        fprintf(stderr, "netrace study: waiting for the host's next race\n");
        j->waiting_said = true;
    }
    fflush(stdout);
    session_free(j->s);
    j->s = NULL;
    j->retry_at = netclock_now_us(j->clock) + (ok ? 0 : JOIN_RETRY_US);
}

bool study_net_join_step(StudyNetJoin *j)
{
    if (j->over || j->rc != CLI_OK)
        return false;
    if (!j->s) {
        if (netclock_now_us(j->clock) >= j->retry_at)
            join_open(j);
        return j->rc == CLI_OK;
    }
    const NetStudyRace *st = session_study(j->s);
    if (st && st->brk && !j->o.window) /* headless: no one rests */
        session_study_rested(j->s);
    if (!session_step(j->s))
        join_closed(j);
    return !j->over && j->rc == CLI_OK;
}

int64_t study_net_join_wake(const StudyNetJoin *j)
{
    return j->s ? session_next_wake(j->s) : j->retry_at;
}

Session *study_net_join_session(StudyNetJoin *j)
{
    return j->s;
}

/* The window's hooks: the player rates once finished; the answers and
 * the end go to the host, sealed, until acknowledged. */
static bool hook_can_rate(void *ctx, Session *s, bool given[STUDY_MAX_QUESTIONS])
{
    StudyNetJoin *j = ctx;
    const NetStudyRace *st = session_study(s);
    if (s != j->s || !st)
        return false;
    for (int q = 0; q < st->nq; q++)
        given[q] = (st->given >> q) & 1u;
    return true;
}

static bool hook_answer(void *ctx, Session *s, int q, int score, int64_t response_ms)
{
    StudyNetJoin *j = ctx;
    if (s != j->s)
        return false;
    if (session_study_answer(s, q, score, response_ms))
        return true;
    j->rc = cli_fail(CMD, "answer %d to question %d not taken", score, q + 1);
    return false;
}

static void hook_done(void *ctx, Session *s)
{
    StudyNetJoin *j = ctx;
    if (s == j->s)
        session_study_done(s, session_marks(s));
}

void study_net_join_hooks(StudyNetJoin *j, NetWinStudy *out)
{
    *out = (NetWinStudy){.ctx = j, .can_rate = hook_can_rate, .answer = hook_answer, .done = hook_done};
}

bool study_net_join_over(const StudyNetJoin *j)
{
    return j->over;
}

int study_net_join_end(StudyNetJoin *j)
{
    if (!j)
        return CLI_FAIL;
    int rc = j->rc;
    if (j->s) {
        session_quit(j->s, "the study stopped");
        session_free(j->s);
    }
    free(j->ans);
    free(j);
    return rc;
}
