/* The headless study session: every race of a pair's order through the live
 * runtime of `play --headless`, the answers appended as they are given, the
 * objective metrics of every scheme, and --resume (docs/studies.md). */
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
#define PATH_LEN 4200

typedef struct Session {
    StudyCli *s;
    StudyOrder ord;
    StudyData answers; /* --ratings FILE */
    StudyData given;   /* DIR/ratings.csv so far */
    StudyMetrics met;  /* DIR/metrics.csv so far */
    char created[32];
} Session;

static void dir_path(const Session *ss, char *out, const char *name)
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

/* A new session: DIR (new or empty), the plan's copy, session.txt, order.csv. */
static int new_session(Session *ss, const char *plan_text, size_t plan_len)
{
    const char *dir = ss->s->out_dir;
    struct stat st;
    if (stat(dir, &st) == 0 && !(S_ISDIR(st.st_mode) && dir_is_empty(dir)))
        return cli_usage_error(CMD, "--out %s: exists and is not an empty folder (--resume continues a session; "
                                    "another DIR starts a new one)", dir);
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
static int check_resume(Session *ss, const char *plan_text, size_t plan_len)
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
static int load_progress(Session *ss)
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

static bool race_driven(const Session *ss, int race)
{
    for (int i = 0; i < ss->met.n; i++)
        if (ss->met.m[i].pair == ss->s->pair && ss->met.m[i].race == race)
            return true;
    return false;
}

/* A race not driven to its end (killed, or its metrics never written):
 * whatever it left is moved to race-NNN.aborted-K.*, never overwritten. */
static int keep_aside(const Session *ss, int race)
{
    static const char *const tails[] = {".csv", ".csv.part", ".inputs.csv", ".inputs.csv.part"};
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

/* Every scheme's metrics of the race, appended in one write. */
static bool write_metrics(Session *ss, const StudyRace *race, const Engine *e, int shown)
{
    RunResult res[SCHEME_MAX];
    experiment_results(e, res);
    int n = engine_scheme_count(e);
    size_t cap = (size_t)n * 7 * 256, len = 0;
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
static int study_meta(const Session *ss, const StudyRace *race, RecMeta *meta)
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

/* Drives one race with every scheme live (the shown one on the players'
 * screens), records it and its inputs, appends its metrics. */
static int drive_race(Session *ss, const StudyRace *race, const Track *track, const char *track_file)
{
    const StudyCondition *c = &ss->s->plan.cond[race->cond];
    RaceOpts o;
    race_opts_init(&o, "all");
    o.link_text[0] = c->link[0];
    o.link_text[1] = c->link[1];
    o.seed = race->seed;
    o.params.delta_us = c->delta_us;
    o.params.tdr_cw = c->tdr_cw;
    int rc = race_opts_parse(&o, CMD);
    const SchemeType *type = scheme_find(c->scheme);
    int shown = -1;
    for (int k = 0; k < o.nschemes && rc == CLI_OK; k++)
        if (o.schemes[k] == type)
            shown = k;
    if (rc != CLI_OK || shown < 0) {
        race_opts_free(&o);
        return rc != CLI_OK ? rc : cli_fail(CMD, "scheme %s is not among all schemes", c->scheme);
    }
    char rec[PATH_LEN], inputs[PATH_LEN], name[64];
    snprintf(name, sizeof name, "race-%03d.csv", race->index);
    dir_path(ss, rec, name);
    snprintf(name, sizeof name, "race-%03d.inputs.csv", race->index);
    dir_path(ss, inputs, name);
    RecMeta meta[8];
    LiveRaceConfig lc;
    memset(&lc, 0, sizeof lc);
    lc.track = track;
    lc.track_file = track_file;
    race_opts_engine_config(&o, &lc.engine);
    lc.engine.track = track;
    lc.shown = shown;
    lc.flow.laps = c->laps;
    lc.flow.duration_us = c->duration_us;
    lc.rec_path = rec;
    lc.inputs_path = inputs;
    lc.source = "autopilot"; /* bots and scripts: a subject's race will say human */
    lc.created = ss->created;
    lc.meta = meta;
    lc.nmeta = study_meta(ss, race, meta);
    NrError err = {{0}};
    Controller ctl[PLAY_SEATS];
    memset(ctl, 0, sizeof ctl);
    LiveRace *lr = NULL;
    if (players_make(&ss->s->pl, track, race->seed, ctl, &err)) {
        lc.ctl[0] = &ctl[0];
        lc.ctl[1] = &ctl[1];
        lr = liverace_new(&lc, &err);
    }
    bool ok = lr != NULL;
    if (ok) {
        liverace_run_headless(lr, &ok, &err);
        ok = ok && liverace_close_recording(lr, &err);
    }
    if (!ok)
        cli_fail(CMD, "race %d: %s", race->index, err.msg);
    else
        ok = write_metrics(ss, race, liverace_engine(lr), shown);
    liverace_free(lr);
    race_opts_free(&o);
    return ok ? CLI_OK : CLI_FAIL;
}

/* The headless StudyAsk: the answer the --ratings file gives. */
static int ask_file(void *ctx, const StudyRace *race, int player, int question, StudyRating *out)
{
    const Session *ss = ctx;
    const StudyRating *a = studydata_find(&ss->answers, 0, race->index, player, question);
    if (!a)
        return cli_fail(CMD, "%s: no answer for race %d, player %d, question %s (the session stops here; "
                             "--resume continues)", ss->s->ratings_path, race->index, player,
                        ss->s->plan.q[question].id);
    *out = *a;
    return CLI_OK;
}

/* The answers of both players to every question of a rated race, each
 * appended the moment it is taken; the first missing one ends the session. */
static int take_ratings(Session *ss, const StudyRace *race, StudyAsk ask, void *ask_ctx)
{
    const StudyPlan *pl = &ss->s->plan;
    char path[PATH_LEN], row[512];
    dir_path(ss, path, "ratings.csv");
    for (int player = 1; player <= 2; player++)
        for (int q = 0; q < pl->nq; q++) {
            if (studydata_find(&ss->given, ss->s->pair, race->index, player, q))
                continue; /* given before a crash: kept, not asked again */
            StudyRating r;
            int rc = ask(ask_ctx, race, player, q, &r);
            if (rc != CLI_OK)
                return rc;
            r.pair = ss->s->pair;
            r.race = race->index;
            r.player = player;
            r.question = q;
            r.cond = race->cond;
            r.kind = race->kind;
            studydata_rating_row(row, sizeof row, pl, &r);
            if (!append_rows(path, STUDYDATA_RATINGS_HEADER, row))
                return CLI_FAIL;
        }
    return CLI_OK;
}

/* --ratings FILE: read, and every answer for a race the order rates. */
static int load_answers(Session *ss)
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

/* DIR ready (new or resumed), the plan's bytes checked against its copy. */
static int open_session(Session *ss)
{
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

/* Every condition's track is found and loads before the subjects sit down
 * (and before DIR is touched). */
static int check_tracks(const Session *ss)
{
    const StudyPlan *pl = &ss->s->plan;
    for (int c = 0; c < pl->ncond; c++) {
        char path[PATH_LEN];
        NrError err = {{0}};
        if (!cli_find_track(ss->s->plan_path, pl->cond[c].track, path, sizeof path))
            return cli_fail(CMD, "%s:%d: condition %s: track %s not found (beside the plan, in its ../tracks/ or "
                                 "in tracks/)", ss->s->plan_path, pl->cond[c].line, pl->cond[c].label,
                            pl->cond[c].track);
        Track *t = track_load(path, &err);
        if (!t)
            return cli_fail(CMD, "%s", err.msg);
        if (track_grid_slots(t) < 2) {
            track_free(t);
            return cli_fail(CMD, "%s: a race needs two grid slots", path);
        }
        track_free(t);
    }
    return CLI_OK;
}

static int run_races(Session *ss)
{
    const StudyPlan *pl = &ss->s->plan;
    Track *track = NULL;
    int track_cond = -1, rc = CLI_OK;
    for (int i = 0; i < ss->ord.nrace && rc == CLI_OK; i++) {
        const StudyRace *race = &ss->ord.race[i];
        const StudyCondition *c = &pl->cond[race->cond];
        if (ss->s->stop_after && race->index > ss->s->stop_after) {
            printf("stopped after race %d of %d (--resume continues at race %d)\n", ss->s->stop_after,
                   ss->ord.nrace, race->index);
            break;
        }
        if (!race_driven(ss, race->index)) {
            if (track_cond < 0 || strcmp(pl->cond[track_cond].track, c->track) != 0) {
                char path[PATH_LEN];
                NrError err = {{0}};
                track_free(track);
                track_cond = -1;
                if (!cli_find_track(ss->s->plan_path, c->track, path, sizeof path))
                    rc = cli_fail(CMD, "%s: condition %s: track %s not found (beside the plan or in tracks/)",
                                  ss->s->plan_path, c->label, c->track);
                else if (!(track = track_load(path, &err)))
                    rc = cli_fail(CMD, "%s", err.msg);
                else
                    track_cond = race->cond;
            }
            printf("race %d of %d: %s %s (scheme %s; link12 %s; link21 %s)\n", race->index, ss->ord.nrace,
                   studyorder_kind_name(race->kind), c->label, c->scheme, c->link[0], c->link[1]);
            if (rc == CLI_OK)
                rc = keep_aside(ss, race->index);
            if (rc == CLI_OK)
                rc = drive_race(ss, race, track, c->track);
        }
        if (rc == CLI_OK && race->kind != STUDY_RACE_PRACTICE)
            rc = take_ratings(ss, race, ask_file, ss);
        if (rc == CLI_OK && race->break_after)
            printf("break\n");
    }
    track_free(track);
    return rc;
}

int study_run_session(StudyCli *s)
{
    Session *ss = calloc(1, sizeof *ss);
    if (!ss)
        return cli_fail(CMD, "out of memory");
    ss->s = s;
    NrError err = {{0}};
    int rc = CLI_OK;
    if (!studyorder_make(&s->plan, s->pair, &ss->ord, &err))
        rc = cli_usage_error(CMD, "--pair: %s", err.msg);
    if (rc == CLI_OK && !cli_created_text(CMD, ss->created, sizeof ss->created))
        rc = CLI_USAGE;
    if (rc == CLI_OK)
        rc = check_tracks(ss);
    if (rc == CLI_OK)
        rc = load_answers(ss);
    if (rc == CLI_OK)
        rc = open_session(ss);
    if (rc == CLI_OK)
        rc = run_races(ss);
    if (rc == CLI_OK && (!s->stop_after || s->stop_after >= ss->ord.nrace))
        printf("study %s, pair %d: session complete in %s\n", s->plan.name, s->pair, s->out_dir);
    studydata_free(&ss->answers);
    studydata_free(&ss->given);
    studydata_metrics_free(&ss->met);
    free(ss);
    return rc;
}
