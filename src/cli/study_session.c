/* The study session's one state machine (study_cli.h): DIR new or resumed,
 * what comes next in the pair's order, each race's setup, its metrics and
 * the answers appended as they are given (docs/studies.md). The headless
 * run and the window drive it. */
#include "study_cli.h"

#include "cli_load.h"
#include "experiment.h"
#include "liverace.h"
#include "nr_file.h"
#include "race_opts.h"
#include "studydata.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CMD STUDY_CMD
#define SESSION_MAGIC "netrace-study-session 1"
#define PLAN_COPY_MAX (1u << 20) /* a plan is a few kilobytes */
#define PATH_LEN STUDY_PATH_LEN


static void dir_path(const StudySession *ss, char *out, const char *name)
{
    snprintf(out, PATH_LEN, "%s/%s", ss->s->out_dir, name);
}

/* The one writer of the session's logs: whole rows appended to PATH (its
 * header first when the file is new), then flushed and synced, so an answer
 * given is an answer kept through kill -9 or a power cut. A last line cut by
 * an earlier crash is cut off first (it was never a whole answer). */
static bool append_rows(const char *path, const char *header, const char *rows)
{
    int fd = open(path, O_RDWR | O_CREAT | O_APPEND, 0644);
    if (fd < 0)
        return cli_fail(CMD, "%s: cannot open: %s", path, strerror(errno)), false;
    struct stat st;
    bool ok = fstat(fd, &st) == 0;
    off_t end = ok ? st.st_size : 0;
    char c = '\n';
    while (ok && end > 0 && pread(fd, &c, 1, end - 1) == 1 && c != '\n')
        end--;
    if (ok && end != st.st_size)
        ok = ftruncate(fd, end) == 0;
    size_t hl = end == 0 ? strlen(header) : 0, rl = strlen(rows);
    ok = ok && (hl == 0 || write(fd, header, hl) == (ssize_t)hl) && write(fd, rows, rl) == (ssize_t)rl;
    ok = ok && fsync(fd) == 0;
    if (close(fd) != 0)
        ok = false;
    if (!ok)
        cli_fail(CMD, "%s: write error: %s", path, strerror(errno));
    return ok;
}

/* Reads a small file whole into buf (NUL-terminated); false when it cannot. */
static bool read_small(const char *path, const char *what, char *buf, size_t cap, size_t *len)
{
    NrError err = {{0}};
    FILE *f = nr_file_open(path, what, &err);
    if (!f)
        return cli_fail(CMD, "%s", err.msg), false;
    *len = fread(buf, 1, cap - 1, f);
    bool ok = !ferror(f) && *len < cap - 1;
    fclose(f);
    buf[*len] = '\0';
    if (!ok)
        cli_fail(CMD, "%s: unreadable or larger than %zu bytes", path, cap - 2);
    return ok;
}

/* Writes text to PATH through the atomic .part writer. */
static bool write_whole(const char *path, const char *text, size_t len)
{
    NrPartFile out;
    int rc = CLI_OK;
    FILE *f = cli_out_open(CMD, &out, path, &rc);
    if (!f)
        return false;
    bool ok = fwrite(text, 1, len, f) == len;
    return cli_out_close(CMD, &out, ok, &rc);
}

static bool dir_is_empty(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    struct dirent *e;
    bool empty = true;
    while (empty && (e = readdir(d)) != NULL)
        empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
    closedir(d);
    return empty;
}

/* A new session may use DIR: it does not exist or is an empty folder. */
static int check_new(const StudySession *ss)
{
    const char *dir = ss->s->out_dir;
    struct stat st;
    if (stat(dir, &st) == 0 && !(S_ISDIR(st.st_mode) && dir_is_empty(dir)))
        return cli_usage_error(CMD, "--out %s: exists and is not an empty folder (--resume continues a session; "
                                    "another DIR starts a new one)", dir);
    return CLI_OK;
}

/* A new session: DIR (new or empty), the plan's copy, session.txt, order.csv. */
static int new_session(StudySession *ss, const char *plan_text, size_t plan_len)
{
    const char *dir = ss->s->out_dir;
    struct stat st;
    int rc = check_new(ss);
    if (rc != CLI_OK)
        return rc;
    if (stat(dir, &st) != 0 && mkdir(dir, 0777) != 0)
        return cli_fail(CMD, "%s: cannot create the folder: %s", dir, strerror(errno));
    char path[PATH_LEN], text[256 + 64 * STUDY_MAX_RACES];
    dir_path(ss, path, "plan.study");
    if (!write_whole(path, plan_text, plan_len))
        return CLI_FAIL;
    int n = snprintf(text, sizeof text, "%s\npair %d\n", SESSION_MAGIC, ss->s->pair);
    dir_path(ss, path, "session.txt");
    if (!write_whole(path, text, (size_t)n))
        return CLI_FAIL;
    n = snprintf(text, sizeof text, "race,kind,condition,seed,break_after\n");
    for (int i = 0; i < ss->ord.nrace; i++) {
        const StudyRace *r = &ss->ord.race[i];
        n += snprintf(text + n, sizeof text - (size_t)n, "%d,%s,%s,%llu,%d\n", r->index,
                      studyorder_kind_name(r->kind), ss->s->plan.cond[r->cond].label, (unsigned long long)r->seed,
                      r->break_after ? 1 : 0);
    }
    dir_path(ss, path, "order.csv");
    return write_whole(path, text, (size_t)n) ? CLI_OK : CLI_FAIL;
}

/* --resume: DIR holds a session of this pair and this very plan. */
static int check_resume(StudySession *ss, const char *plan_text, size_t plan_len)
{
    char path[PATH_LEN], *buf = malloc(PLAN_COPY_MAX + 2);
    size_t len;
    if (!buf)
        return cli_fail(CMD, "out of memory");
    int rc = CLI_FAIL;
    char want[64];
    snprintf(want, sizeof want, "%s\npair %d\n", SESSION_MAGIC, ss->s->pair);
    dir_path(ss, path, "session.txt");
    if (!read_small(path, "a study session's session.txt (is --out a session folder?)", buf, 256, &len)) {
        ;
    } else if (strcmp(buf, want) != 0) {
        cli_fail(CMD, "%s: not the session of pair %d (--pair as the session began)", path, ss->s->pair);
    } else {
        dir_path(ss, path, "plan.study");
        if (read_small(path, "the plan's copy", buf, PLAN_COPY_MAX + 2, &len)) {
            if (len != plan_len || memcmp(buf, plan_text, len) != 0)
                cli_fail(CMD, "%s: the plan %s differs from the one the session began with (kept here)", path,
                         ss->s->plan_path);
            else
                rc = CLI_OK;
        }
    }
    free(buf);
    return rc;
}

/* What DIR already holds: the answers given and the races driven. */
static int load_progress(StudySession *ss)
{
    char path[PATH_LEN];
    NrError err = {{0}};
    struct stat st;
    dir_path(ss, path, "ratings.csv");
    if (stat(path, &st) == 0 && !study_read_csv(ss->s->out_dir, "ratings.csv", &ss->s->plan, &ss->given, NULL, &err))
        return cli_fail(CMD, "%s", err.msg);
    dir_path(ss, path, "metrics.csv");
    if (stat(path, &st) == 0 && !study_read_csv(ss->s->out_dir, "metrics.csv", &ss->s->plan, NULL, &ss->met, &err))
        return cli_fail(CMD, "%s", err.msg);
    return CLI_OK;
}

static bool race_driven(const StudySession *ss, int race)
{
    for (int i = 0; i < ss->met.n; i++)
        if (ss->met.m[i].pair == ss->s->pair && ss->met.m[i].race == race)
            return true;
    return false;
}

/* A network race's recording is in DIR, or can be made there from both
 * logs (the joiner's came over). */
static bool race_recorded(const StudySession *ss, int race)
{
    char path[PATH_LEN], base[64];
    struct stat st;
    snprintf(base, sizeof base, "race-%03d.csv", race);
    dir_path(ss, path, base);
    if (stat(path, &st) == 0)
        return true;
    snprintf(base, sizeof base, "race-%03d.joiner.log", race);
    dir_path(ss, path, base);
    return stat(path, &st) == 0;
}

/* A race not driven to its end (killed, or its metrics never written):
 * whatever it left is moved to race-NNN.aborted-K.*, never overwritten. */
static int keep_aside(const StudySession *ss, int race)
{
    static const char *const tails[] = {".csv",      ".csv.part",      ".inputs.csv", ".inputs.csv.part",
                                        ".host.log", ".host.log.part", ".joiner.log", ".joiner.log.part"};
    enum { NTAILS = sizeof tails / sizeof tails[0] };
    char from[NTAILS][PATH_LEN], to[PATH_LEN], base[64];
    struct stat st;
    bool any = false;
    for (int t = 0; t < NTAILS; t++) {
        snprintf(base, sizeof base, "race-%03d%s", race, tails[t]);
        dir_path(ss, from[t], base);
        any |= stat(from[t], &st) == 0;
    }
    if (!any)
        return CLI_OK;
    for (int k = 1; k < 1000; k++) {
        bool free_k = true;
        for (int t = 0; t < NTAILS && free_k; t++) {
            snprintf(base, sizeof base, "race-%03d.aborted-%d%s", race, k, tails[t]);
            dir_path(ss, to, base);
            free_k = stat(to, &st) != 0;
        }
        if (!free_k)
            continue;
        for (int t = 0; t < NTAILS; t++) {
            snprintf(base, sizeof base, "race-%03d.aborted-%d%s", race, k, tails[t]);
            dir_path(ss, to, base);
            if (stat(from[t], &st) == 0 && rename(from[t], to) != 0)
                return cli_fail(CMD, "%s: cannot move it aside: %s", from[t], strerror(errno));
            if (stat(to, &st) == 0)
                fprintf(stderr, "netrace study: race %d did not finish; kept its %s as %s\n", race, tails[t], to);
        }
        return CLI_OK;
    }
    return cli_fail(CMD, "race %d: too many aborted attempts kept in %s", race, ss->s->out_dir);
}

/* Every scheme's metrics of the race and the players' mark counts (on the
 * shown scheme's rows: the times are in the recording), appended in one
 * write: from then on the race counts as driven. */
static bool write_metrics(StudySession *ss, const StudyRace *race, const Engine *e, int shown, const int marks[2])
{
    RunResult res[SCHEME_MAX];
    experiment_results(e, res);
    int n = engine_scheme_count(e);
    size_t cap = (size_t)(n * 7 + 2) * 256, len = 0;
    char *rows = malloc(cap);
    if (!rows)
        return cli_fail(CMD, "out of memory"), false;
    for (int k = 0; k < n; k++) {
        const RunResult *r = &res[k];
        const char *names[] = {"samples", "inconsistency_rate", "fairness", "mean_d1", "mean_d2", "mean_abs_d1",
                               "mean_abs_d2"};
        double v[] = {(double)r->samples, r->inconsistency_rate, r->mean_d1_minus_d2, r->mean_d1, r->mean_d2,
                      r->mean_abs_d1, r->mean_abs_d2};
        for (int m = 0; m < 7; m++)
            len += (size_t)studydata_metric_row(rows + len, cap - len, &ss->s->plan, ss->s->pair, race,
                                                r->scheme->name, k == shown, names[m], v[m]);
    }
    for (int j = 1; j <= 2; j++)
        if (marks[j - 1] >= 0)
            len += (size_t)studydata_metric_row(rows + len, cap - len, &ss->s->plan, ss->s->pair, race,
                                                res[shown].scheme->name, true, j == 1 ? "marks_p1" : "marks_p2",
                                                marks[j - 1]);
    char path[PATH_LEN];
    dir_path(ss, path, "metrics.csv");
    bool ok = len < cap && append_rows(path, STUDYDATA_METRICS_HEADER, rows);
    free(rows);
    if (ok) { /* counts as driven from now on */
        StudyRaceMetrics m = {.pair = ss->s->pair, .race = race->index};
        StudyRaceMetrics *grown = realloc(ss->met.m, (size_t)(ss->met.n + 1) * sizeof *grown);
        if (!grown)
            return cli_fail(CMD, "out of memory"), false;
        ss->met.m = grown;
        ss->met.m[ss->met.n++] = m;
        ss->met.cap = ss->met.n;
    }
    return ok;
}

/* The recording's study lines, after the condition liverace writes. */
static int study_meta(const StudySession *ss, const StudyRace *race, RecMeta *meta)
{
    const StudyPlan *pl = &ss->s->plan;
    int n = 0;
    snprintf(meta[n].key, sizeof meta[n].key, "study");
    snprintf(meta[n++].value, sizeof meta[0].value, "%s", pl->name);
    snprintf(meta[n].key, sizeof meta[n].key, "pair");
    snprintf(meta[n++].value, sizeof meta[0].value, "%d", ss->s->pair);
    snprintf(meta[n].key, sizeof meta[n].key, "race");
    snprintf(meta[n++].value, sizeof meta[0].value, "%d", race->index);
    snprintf(meta[n].key, sizeof meta[n].key, "condition");
    snprintf(meta[n++].value, sizeof meta[0].value, "%s", pl->cond[race->cond].label);
    snprintf(meta[n].key, sizeof meta[n].key, "race_kind");
    snprintf(meta[n++].value, sizeof meta[0].value, "%s", studyorder_kind_name(race->kind));
    return n;
}


int study_session_setup(StudySession *ss, const StudyRace *race, StudyRaceSetup *rs, bool human)
{
    const StudyCondition *c = &ss->s->plan.cond[race->cond];
    memset(rs, 0, sizeof *rs);
    printf("race %d of %d: %s %s (scheme %s; link12 %s; link21 %s)\n", race->index, ss->ord.nrace,
           studyorder_kind_name(race->kind), c->label, c->scheme, c->link[0], c->link[1]);
    fflush(stdout); /* the experimenter's terminal, at once */
    int rc = race_driven(ss, race->index) ? CLI_OK : keep_aside(ss, race->index); /* rated again: kept */
    if (rc != CLI_OK)
        return rc;
    RaceOpts *o = &rs->o;
    race_opts_init(o, "all");
    rs->o_init = true;
    o->link_text[0] = c->link[0];
    o->link_text[1] = c->link[1];
    o->seed = race->seed;
    o->params.delta_us = c->delta_us;
    o->params.tdr_cw = c->tdr_cw;
    if ((rc = race_opts_parse(o, CMD)) != CLI_OK)
        return rc;
    const SchemeType *type = scheme_find(c->scheme);
    int shown = -1;
    for (int k = 0; k < o->nschemes; k++)
        if (o->schemes[k] == type)
            shown = k;
    if (shown < 0)
        return cli_fail(CMD, "scheme %s is not among all schemes", c->scheme);
    char at[STUDY_LABEL_MAX + 32]; /* on the experimenter's terminal with the race's line */
    snprintf(at, sizeof at, "race %d, condition %s: ", race->index, c->label);
    race_warn_delta_at(&type, 1, CMD, at, c->delta_us, &o->link[0], &o->link[1]);
    char name[64];
    snprintf(name, sizeof name, "race-%03d.csv", race->index);
    dir_path(ss, rs->rec, name);
    snprintf(name, sizeof name, "race-%03d.inputs.csv", race->index);
    dir_path(ss, rs->inputs, name);
    snprintf(rs->note, sizeof rs->note, "race %d of %d%s", race->index, ss->ord.nrace,
             race->kind == STUDY_RACE_PRACTICE ? " · practice" : ""); /* as the network window says */
    LiveRaceConfig *lc = &rs->lc;
    lc->track = ss->track[race->cond];
    lc->track_file = c->track;
    race_opts_engine_config(o, &lc->engine);
    lc->engine.track = lc->track;
    lc->shown = shown;
    lc->flow.laps = c->laps;
    lc->flow.duration_us = c->duration_us;
    lc->rec_path = rs->rec;
    lc->inputs_path = rs->inputs;
    lc->source = human ? "human" : "autopilot";
    lc->created = ss->created;
    lc->meta = rs->meta;
    lc->nmeta = study_meta(ss, race, rs->meta);
    return CLI_OK;
}

void study_setup_free(StudyRaceSetup *rs)
{
    if (rs->o_init)
        race_opts_free(&rs->o);
    rs->o_init = false;
}

void study_marks_count(const RecMark *marks, int nmarks, int out[2])
{
    out[0] = out[1] = 0;
    for (int i = 0; i < nmarks; i++)
        if (marks[i].player >= 1 && marks[i].player <= 2 && strcmp(marks[i].kind, RECORDING_MARK_DISSATISFIED) == 0)
            out[marks[i].player - 1]++;
}

int study_session_race_done(StudySession *ss, const StudyRace *race, const Engine *e, int shown, const int marks[2],
                            const char *recorded)
{
    char rec[PATH_LEN], name[64];
    struct stat st;
    snprintf(name, sizeof name, "race-%03d.%s", race->index, recorded);
    dir_path(ss, rec, name);
    if (stat(rec, &st) != 0) /* a recording that could not be written: the race does not count */
        return cli_fail(CMD, "race %d: its recording %s is not in place", race->index, rec);
    return write_metrics(ss, race, e, shown, marks) ? CLI_OK : CLI_FAIL;
}

int study_session_marks(StudySession *ss, const StudyRace *race, const char *scheme, int player, int count)
{
    char path[PATH_LEN], row[512];
    studydata_metric_row(row, sizeof row, &ss->s->plan, ss->s->pair, race, scheme, true,
                         player == 1 ? "marks_p1" : "marks_p2", count);
    dir_path(ss, path, "metrics.csv");
    return append_rows(path, STUDYDATA_METRICS_HEADER, row) ? CLI_OK : CLI_FAIL;
}

bool study_session_given(const StudySession *ss, int race, int player, int q)
{
    return studydata_find(&ss->given, ss->s->pair, race, player, q) != NULL;
}

int study_session_answer(StudySession *ss, const StudyRace *race, int player, int q, int score,
                         int64_t response_ms)
{
    const StudyPlan *pl = &ss->s->plan;
    if (!studyplan_score_ok(&pl->q[q], score))
        return cli_fail(CMD, "race %d, player %d, question %s: %d is not an answer to it", race->index, player,
                        pl->q[q].id, score);
    StudyRating r = {.pair = ss->s->pair, .race = race->index, .player = player, .cond = race->cond,
                     .kind = race->kind, .question = q, .score = score, .response_ms = response_ms};
    char path[PATH_LEN], row[512];
    dir_path(ss, path, "ratings.csv");
    studydata_rating_row(row, sizeof row, pl, &r);
    if (!append_rows(path, STUDYDATA_RATINGS_HEADER, row))
        return CLI_FAIL;
    StudyRating *grown = realloc(ss->given.r, (size_t)(ss->given.n + 1) * sizeof *grown);
    if (!grown)
        return cli_fail(CMD, "out of memory");
    ss->given.r = grown;
    ss->given.r[ss->given.n++] = r;
    ss->given.cap = ss->given.n;
    return CLI_OK;
}

static bool all_given(const StudySession *ss, const StudyRace *race)
{
    for (int player = 1; player <= 2; player++)
        for (int q = 0; q < ss->s->plan.nq; q++)
            if (!study_session_given(ss, race->index, player, q))
                return false;
    return true;
}

bool study_session_rate_left(const StudySession *ss, const StudyRace *race)
{
    return (race->kind != STUDY_RACE_PRACTICE && !all_given(ss, race)) || (ss->net && !race_recorded(ss, race->index));
}

int study_session_resume_at(const StudySession *ss)
{
    for (int i = 0; i < ss->ord.nrace; i++) {
        const StudyRace *r = &ss->ord.race[i];
        if (!race_driven(ss, r->index) || (r->kind != STUDY_RACE_PRACTICE && !all_given(ss, r)))
            return r->index;
    }
    return 0;
}

StudyNext study_session_next(StudySession *ss, const StudyRace **race)
{
    for (; ss->cursor < ss->ord.nrace; ss->cursor++, ss->stage = 0) {
        const StudyRace *r = &ss->ord.race[ss->cursor];
        *race = r;
        if (ss->stage == 0) {
            if (ss->s->stop_after && r->index > ss->s->stop_after)
                return STUDY_NEXT_STOP;
            ss->stage = 1;
            if (!race_driven(ss, r->index)) {
                ss->active = true;
                return STUDY_NEXT_DRIVE;
            }
        }
        if (ss->stage == 1) {
            ss->stage = 2;
            if (study_session_rate_left(ss, r)) {
                ss->active = true;
                return STUDY_NEXT_RATE;
            }
        }
        if (ss->stage == 2) {
            ss->stage = 3;
            if (r->break_after && ss->active && ss->cursor + 1 < ss->ord.nrace)
                return STUDY_NEXT_BREAK;
        }
    }
    *race = NULL;
    return STUDY_NEXT_DONE;
}

void study_session_again(StudySession *ss)
{
    if (ss->cursor < ss->ord.nrace)
        ss->stage = 0;
}

/* --ratings FILE: read, and every answer for a race the order rates. */
static int load_answers(StudySession *ss)
{
    NrError err = {{0}};
    const char *path = ss->s->ratings_path;
    FILE *f = nr_file_open(path, "ratings (race,player,question,score)", &err);
    if (!f || !studydata_read_answers(&ss->answers, &ss->s->plan, f, path, &err)) {
        if (f)
            fclose(f);
        return cli_fail(CMD, "%s", err.msg);
    }
    fclose(f);
    for (int i = 0; i < ss->answers.n; i++) {
        int race = ss->answers.r[i].race;
        if (race > ss->ord.nrace)
            return cli_fail(CMD, "%s: an answer for race %d; pair %d drives %d races", path, race, ss->s->pair,
                            ss->ord.nrace);
        if (ss->ord.race[race - 1].kind == STUDY_RACE_PRACTICE)
            return cli_fail(CMD, "%s: an answer for race %d, a practice race (not rated)", path, race);
    }
    return CLI_OK;
}

/* DIR ready (begin: new, or resumed), the plan's bytes checked against its
 * copy; !begin: the checks alone, nothing written. */
static int open_dir(StudySession *ss, bool begin)
{
    if (!begin && !ss->s->resume)
        return check_new(ss);
    char *text = malloc(PLAN_COPY_MAX + 2);
    size_t len;
    if (!text)
        return cli_fail(CMD, "out of memory");
    int rc = read_small(ss->s->plan_path, "a study plan", text, PLAN_COPY_MAX + 2, &len) ? CLI_OK : CLI_FAIL;
    if (rc == CLI_OK)
        rc = ss->s->resume ? check_resume(ss, text, len) : new_session(ss, text, len);
    free(text);
    if (rc == CLI_OK)
        rc = load_progress(ss);
    return rc;
}

int study_session_begin(StudySession *ss)
{
    if (ss->begun)
        return CLI_OK;
    ss->begun = true;
    return ss->s->resume ? CLI_OK : open_dir(ss, true);
}

/* Every condition's track is found and loads before the subjects sit down
 * (and before DIR is touched); conditions on one track share it. */
static int load_tracks(StudySession *ss)
{
    const StudyPlan *pl = &ss->s->plan;
    for (int c = 0; c < pl->ncond; c++) {
        for (int d = 0; d < c && !ss->track[c]; d++)
            if (strcmp(pl->cond[d].track, pl->cond[c].track) == 0)
                ss->track[c] = ss->track[d];
        if (ss->track[c])
            continue;
        char path[PATH_LEN];
        NrError err = {{0}};
        if (!cli_find_track(ss->s->plan_path, pl->cond[c].track, path, sizeof path))
            return cli_fail(CMD, "%s:%d: condition %s: track %s not found (beside the plan, in its ../tracks/ or "
                                 "in tracks/)", ss->s->plan_path, pl->cond[c].line, pl->cond[c].label,
                            pl->cond[c].track);
        if (!(ss->track[c] = track_load(path, &err)))
            return cli_fail(CMD, "%s", err.msg);
        if (track_grid_slots(ss->track[c]) < 2)
            return cli_fail(CMD, "%s: a race needs two grid slots", path);
    }
    return CLI_OK;
}

/* The causality check (race_warn_delta_at) of every condition, on stderr
 * before the subjects sit down: a causality condition whose Delta is below
 * its link's mean delay shows the other car stuck near the grid. */
static void warn_conditions(const StudyPlan *pl, const char *plan_path)
{
    for (int c = 0; c < pl->ncond; c++) {
        const StudyCondition *cd = &pl->cond[c];
        const SchemeType *type = scheme_find(cd->scheme);
        LinkSpec l[2];
        memset(l, 0, sizeof l);
        NrError err = {{0}};
        if (type && linkspec_parse(&l[0], cd->link[0], NULL, &err) && linkspec_parse(&l[1], cd->link[1], NULL, &err)) {
            char at[PATH_LEN + STUDY_LABEL_MAX + 32];
            snprintf(at, sizeof at, "%s:%d: condition %s: ", plan_path, cd->line, cd->label);
            race_warn_delta_at(&type, 1, CMD, at, cd->delta_us, &l[0], &l[1]);
        }
        linkspec_free(&l[0]);
        linkspec_free(&l[1]);
    }
}

int study_session_open(StudySession *ss, StudyCli *s)
{
    memset(ss, 0, sizeof *ss);
    ss->s = s;
    NrError err = {{0}};
    if (!studyorder_make(&s->plan, s->pair, &ss->ord, &err))
        return cli_usage_error(CMD, "--pair: %s", err.msg);
    if (!cli_created_text(CMD, ss->created, sizeof ss->created))
        return CLI_USAGE;
    int rc = load_tracks(ss);
    if (rc == CLI_OK)
        warn_conditions(&s->plan, s->plan_path);
    if (rc == CLI_OK && s->ratings_path)
        rc = load_answers(ss);
    if (rc == CLI_OK)
        rc = open_dir(ss, s->resume);
    return rc;
}

void study_session_free(StudySession *ss)
{
    for (int c = STUDY_MAX_CONDITIONS - 1; c >= 0; c--) { /* each track once: by its first condition */
        bool shared = false;
        for (int d = 0; d < c; d++)
            shared |= ss->track[d] == ss->track[c];
        if (!shared)
            track_free(ss->track[c]);
    }
    memset(ss->track, 0, sizeof ss->track);
    studydata_free(&ss->answers);
    studydata_free(&ss->given);
    studydata_metrics_free(&ss->met);
}
