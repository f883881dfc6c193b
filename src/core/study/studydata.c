/* Study session data: answers, ratings.csv and metrics.csv (studydata.h). */
#include "studydata.h"

#include "nr_file.h"
#include "recording.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 10

typedef bool (*RowFn)(void *ctx, const StudyPlan *plan, char **f, int nf, const char *name, int line,
                      NrError *err);

/* Reads CSV lines, skipping blanks and '#' lines, the first line being the
 * header when header is given (it must match, without its newline) or
 * optional when header_word is (a first line whose first field is it). */
static bool read_lines(FILE *f, const char *name, const char *header, const char *header_word, int *cut,
                       RowFn fn, void *ctx, const StudyPlan *plan, NrError *err)
{
    char *buf = malloc(NR_LINE_MAX);
    if (!buf)
        return nr_error_set(err, "%s: out of memory", name);
    bool ok = true, first = true;
    int line = 0;
    size_t got;
    NrLine lr;
    while (ok && (lr = nr_line_read(f, buf, NR_LINE_MAX, &got)) != NR_LINE_EOF) {
        line++;
        if (lr != NR_LINE_OK) {
            ok = nr_error_set(err, "%s:%d: %s", name, line, lr == NR_LINE_LONG ? "line too long" :
                              lr == NR_LINE_NUL ? "binary data (NUL byte) in a text file" : "read error");
            break;
        }
        if (cut && got > 0 && buf[got - 1] != '\n') { /* a writer killed mid-line */
            (*cut)++;
            break;
        }
        char *s = nr_trim(buf);
        if (first && header) {
            size_t hl = strlen(header) - 1;
            if (strlen(s) != hl || strncmp(s, header, hl) != 0)
                ok = nr_error_set(err, "%s:%d: expected the header line '%.*s'", name, line, (int)hl, header);
            first = false;
            continue;
        }
        if (!*s || *s == '#')
            continue;
        char *fld[MAX_FIELDS];
        int nf = nr_csv_split(s, fld, MAX_FIELDS);
        bool is_header = first && header_word && nf > 0 && strcmp(fld[0], header_word) == 0;
        first = false;
        if (is_header)
            continue;
        if (nf < 0)
            ok = nr_error_set(err, "%s:%d: more than %d fields", name, line, MAX_FIELDS);
        else
            ok = fn(ctx, plan, fld, nf, name, line, err);
    }
    free(buf);
    if (ok && first && header)
        ok = nr_error_set(err, "%s: empty, expected the header line", name);
    return ok;
}

static bool int_in(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    return nr_parse_int64(s, out) && *out >= lo && *out <= hi;
}

static bool push_rating(StudyData *d, const StudyRating *r, const char *name, NrError *err)
{
    if (d->n == STUDYDATA_MAX_ROWS)
        return nr_error_set(err, "%s: more than %d answers", name, STUDYDATA_MAX_ROWS);
    if (d->n == d->cap) {
        int cap = d->cap ? d->cap * 2 : 64;
        StudyRating *nr = realloc(d->r, (size_t)cap * sizeof *nr);
        if (!nr)
            return nr_error_set(err, "%s: out of memory", name);
        d->r = nr;
        d->cap = cap;
    }
    d->r[d->n++] = *r;
    return true;
}

/* question and score fields of either file: fills r->question and r->score */
static bool question_score(const StudyPlan *plan, const char *qf, const char *sf, StudyRating *r, const char *name,
                           int line, NrError *err)
{
    int q = studyplan_find_question(plan, qf);
    if (q < 0)
        return nr_error_set(err, "%s:%d: field question: '%s' is not a question of the plan", name, line, qf);
    int64_t v = -1;
    if (plan->q[q].kind == STUDY_Q_YESNO && (strcmp(sf, "yes") == 0 || strcmp(sf, "no") == 0))
        v = sf[0] == 'y';
    else if (!nr_parse_int64(sf, &v))
        v = -1;
    if (!studyplan_score_ok(&plan->q[q], (int)(v < -1 || v > 5 ? -1 : v)))
        return nr_error_set(err, "%s:%d: field score: '%s', expected %s for question %s", name, line, sf,
                            plan->q[q].kind == STUDY_Q_ACR5 ? "1 to 5 (5 Excellent .. 1 Bad)" : "yes, no, 1 or 0",
                            qf);
    r->question = q;
    r->score = (int)v;
    return true;
}

static bool response_field(const char *s, StudyRating *r, const char *name, int line, NrError *err)
{
    int64_t v;
    r->response_ms = -1;
    if (!s || !*s || strcmp(s, "NA") == 0)
        return true;
    if (!int_in(s, 0, INT32_MAX, &v))
        return nr_error_set(err, "%s:%d: field response_ms: '%s', expected milliseconds >= 0 or NA", name, line, s);
    r->response_ms = v;
    return true;
}

static bool answer_row(void *ctx, const StudyPlan *plan, char **f, int nf, const char *name, int line, NrError *err)
{
    StudyData *d = ctx;
    if (nf != 4 && nf != 5)
        return nr_error_set(err, "%s:%d: %d fields, expected race,player,question,score[,response_ms]", name, line,
                            nf);
    StudyRating r = {.cond = -1, .kind = STUDY_RACE_RATED};
    int64_t v;
    if (!int_in(f[0], 1, STUDY_MAX_RACES, &v))
        return nr_error_set(err, "%s:%d: field race: '%s', expected a race number from 1 to %d", name, line, f[0],
                            STUDY_MAX_RACES);
    r.race = (int)v;
    if (!int_in(f[1], 1, 2, &v))
        return nr_error_set(err, "%s:%d: field player: '%s', expected 1 or 2", name, line, f[1]);
    r.player = (int)v;
    if (!question_score(plan, f[2], f[3], &r, name, line, err) ||
        !response_field(nf == 5 ? f[4] : NULL, &r, name, line, err))
        return false;
    if (studydata_find(d, 0, r.race, r.player, r.question))
        return nr_error_set(err, "%s:%d: race %d, player %d, question %s answered twice", name, line, r.race,
                            r.player, f[2]);
    return push_rating(d, &r, name, err);
}

bool studydata_read_answers(StudyData *out, const StudyPlan *plan, FILE *f, const char *name, NrError *err)
{
    memset(out, 0, sizeof *out);
    bool ok = read_lines(f, name, NULL, "race", NULL, answer_row, out, plan, err);
    if (!ok)
        studydata_free(out);
    return ok;
}

static bool kind_field(const char *s, StudyRaceKind *k)
{
    if (strcmp(s, "rated") == 0)
        *k = STUDY_RACE_RATED;
    else if (strcmp(s, "repeat") == 0)
        *k = STUDY_RACE_REPEAT;
    else if (strcmp(s, "practice") == 0)
        *k = STUDY_RACE_PRACTICE;
    else
        return false;
    return true;
}

/* pair, race, condition and kind columns shared by ratings.csv and metrics.csv */
static bool race_fields(const StudyPlan *plan, char **f, int *pair, int *race, int *cond, StudyRaceKind *kind,
                        const char *name, int line, NrError *err)
{
    int64_t v;
    if (strcmp(f[0], plan->name) != 0)
        return nr_error_set(err, "%s:%d: field study: '%s', the plan is study '%s'", name, line, f[0], plan->name);
    if (!int_in(f[1], 1, STUDYORDER_MAX_PAIR, &v))
        return nr_error_set(err, "%s:%d: field pair: '%s', expected a pair number", name, line, f[1]);
    *pair = (int)v;
    if (!int_in(f[2], 1, STUDY_MAX_RACES, &v))
        return nr_error_set(err, "%s:%d: field race: '%s', expected a race number", name, line, f[2]);
    *race = (int)v;
    if ((*cond = studyplan_find_condition(plan, f[3])) < 0)
        return nr_error_set(err, "%s:%d: field condition: '%s' is not a condition of the plan", name, line, f[3]);
    if (!kind_field(f[4], kind))
        return nr_error_set(err, "%s:%d: field kind: '%s', expected rated, repeat or practice", name, line, f[4]);
    return true;
}

static bool rating_row(void *ctx, const StudyPlan *plan, char **f, int nf, const char *name, int line, NrError *err)
{
    StudyData *d = ctx;
    if (nf != 9)
        return nr_error_set(err, "%s:%d: %d fields, expected 9 (%.*s)", name, line, nf,
                            (int)strlen(STUDYDATA_RATINGS_HEADER) - 1, STUDYDATA_RATINGS_HEADER);
    StudyRating r;
    memset(&r, 0, sizeof r);
    int64_t v;
    /* the columns are study,pair,player,race,...: race_fields wants pair,race,condition,kind in a row */
    char *rf[5] = {f[0], f[1], f[3], f[4], f[5]};
    if (!race_fields(plan, rf, &r.pair, &r.race, &r.cond, &r.kind, name, line, err))
        return false;
    if (!int_in(f[2], 1, 2, &v))
        return nr_error_set(err, "%s:%d: field player: '%s', expected 1 or 2", name, line, f[2]);
    r.player = (int)v;
    if (!question_score(plan, f[6], f[7], &r, name, line, err) || !response_field(f[8], &r, name, line, err))
        return false;
    if (studydata_find(d, r.pair, r.race, r.player, r.question))
        return nr_error_set(err, "%s:%d: pair %d, race %d, player %d, question %s answered twice", name, line,
                            r.pair, r.race, r.player, f[6]);
    return push_rating(d, &r, name, err);
}

bool studydata_read_ratings(StudyData *out, const StudyPlan *plan, FILE *f, const char *name, NrError *err)
{
    memset(out, 0, sizeof *out);
    bool ok = read_lines(f, name, STUDYDATA_RATINGS_HEADER, NULL, &out->cut, rating_row, out, plan, err);
    if (!ok)
        studydata_free(out);
    return ok;
}

const StudyRating *studydata_find(const StudyData *d, int pair, int race, int player, int question)
{
    for (int i = d->n - 1; i >= 0; i--) {
        const StudyRating *r = &d->r[i];
        if (r->pair == pair && r->race == race && r->player == player && r->question == question)
            return r;
    }
    return NULL;
}

void studydata_free(StudyData *d)
{
    if (!d)
        return;
    free(d->r);
    memset(d, 0, sizeof *d);
}

static StudyRaceMetrics *metrics_slot(StudyMetrics *m, int pair, int race, const char *name, NrError *err)
{
    for (int i = 0; i < m->n; i++)
        if (m->m[i].pair == pair && m->m[i].race == race)
            return &m->m[i];
    if (m->n == STUDYDATA_MAX_ROWS) {
        nr_error_set(err, "%s: more than %d races", name, STUDYDATA_MAX_ROWS);
        return NULL;
    }
    if (m->n == m->cap) {
        int cap = m->cap ? m->cap * 2 : 32;
        StudyRaceMetrics *nm = realloc(m->m, (size_t)cap * sizeof *nm);
        if (!nm) {
            nr_error_set(err, "%s: out of memory", name);
            return NULL;
        }
        m->m = nm;
        m->cap = cap;
    }
    StudyRaceMetrics *s = &m->m[m->n++];
    *s = (StudyRaceMetrics){.pair = pair, .race = race, .inconsistency = NAN, .fairness = NAN, .marks = {-1, -1}};
    return s;
}

static bool metric_row(void *ctx, const StudyPlan *plan, char **f, int nf, const char *name, int line, NrError *err)
{
    StudyMetrics *m = ctx;
    if (nf != 9)
        return nr_error_set(err, "%s:%d: %d fields, expected 9 (%.*s)", name, line, nf,
                            (int)strlen(STUDYDATA_METRICS_HEADER) - 1, STUDYDATA_METRICS_HEADER);
    int pair, race, cond;
    StudyRaceKind kind;
    double v;
    if (!race_fields(plan, f, &pair, &race, &cond, &kind, name, line, err))
        return false;
    if (strcmp(f[6], "0") != 0 && strcmp(f[6], "1") != 0)
        return nr_error_set(err, "%s:%d: field shown: '%s', expected 1 or 0", name, line, f[6]);
    if (!nr_parse_double(f[8], &v))
        return nr_error_set(err, "%s:%d: field value: '%s', expected a number", name, line, f[8]);
    bool incons = strcmp(f[7], "inconsistency_rate") == 0, fair = strcmp(f[7], "fairness") == 0;
    int marks = strcmp(f[7], "marks_p1") == 0 ? 1 : strcmp(f[7], "marks_p2") == 0 ? 2 : 0;
    if (f[6][0] != '1' || (!incons && !fair && !marks))
        return true;
    if (marks && !(v >= 0 && v <= RECORDING_MAX_MARKS && v == floor(v)))
        return nr_error_set(err, "%s:%d: field value: '%s', expected a count of marks", name, line, f[8]);
    StudyRaceMetrics *s = metrics_slot(m, pair, race, name, err);
    if (!s)
        return false;
    s->cond = cond;
    s->kind = kind;
    if (marks)
        s->marks[marks - 1] = (int)v;
    else
        *(incons ? &s->inconsistency : &s->fairness) = v;
    return true;
}

bool studydata_read_metrics(StudyMetrics *out, const StudyPlan *plan, FILE *f, const char *name, NrError *err)
{
    memset(out, 0, sizeof *out);
    int cut = 0;
    bool ok = read_lines(f, name, STUDYDATA_METRICS_HEADER, NULL, &cut, metric_row, out, plan, err);
    if (!ok)
        studydata_metrics_free(out);
    return ok;
}

void studydata_metrics_free(StudyMetrics *m)
{
    if (!m)
        return;
    free(m->m);
    memset(m, 0, sizeof *m);
}

int studydata_rating_row(char *buf, size_t n, const StudyPlan *plan, const StudyRating *r)
{
    char resp[24] = "NA";
    if (r->response_ms >= 0)
        snprintf(resp, sizeof resp, "%lld", (long long)r->response_ms);
    return snprintf(buf, n, "%s,%d,%d,%d,%s,%s,%s,%d,%s\n", plan->name, r->pair, r->player, r->race,
                    plan->cond[r->cond].label, studyorder_kind_name(r->kind), plan->q[r->question].id, r->score,
                    resp);
}

int studydata_metric_row(char *buf, size_t n, const StudyPlan *plan, int pair, const StudyRace *race,
                         const char *scheme, bool shown, const char *metric, double value)
{
    char v[64];
    nr_format_double(v, sizeof v, value);
    return snprintf(buf, n, "%s,%d,%d,%s,%s,%s,%d,%s,%s\n", plan->name, pair, race->index,
                    plan->cond[race->cond].label, studyorder_kind_name(race->kind), scheme, shown ? 1 : 0, metric,
                    v);
}
