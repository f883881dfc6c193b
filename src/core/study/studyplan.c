/* Study plan reader: `netrace-study 1` files, one statement per line
 * (docs/studies.md). */
#include "studyplan.h"

#include "link.h"
#include "nr_file.h"
#include "scheme.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define PLAN_MAGIC "netrace-study"
#define PLAN_DEFAULT_DELTA_US (100 * NR_US_PER_MS)
#define PLAN_DEFAULT_TDR_CW 0.25
#define PLAN_DEFAULT_TRACK "default.track"
#define PLAN_DEFAULT_LAPS 2

/* The parser's state: where it is and what the current scope has set. */
typedef struct PlanParse {
    StudyPlan *plan;
    const char *name;
    int line;
    StudyCondition defaults;   /* condition fields given before any condition */
    StudyCondition *cur;       /* the condition being read; &defaults before */
    unsigned set;              /* fields given in the current scope (bits) */
    unsigned default_set;      /* fields given study-wide */
    unsigned study_set;        /* study statements given (each at most once) */
    unsigned cond_set[STUDY_MAX_CONDITIONS]; /* fields each condition gave itself */
    char practice_label[STUDY_LABEL_MAX];
    char repeat_label[STUDY_LABEL_MAX];
    int practice_line, repeat_line;
} PlanParse;

enum { F_SCHEME = 1, F_LINK12 = 2, F_LINK21 = 4, F_DELTA = 8, F_TDR = 16, F_TRACK = 32, F_LAPS = 64,
       F_SECONDS = 128, F_TOPOLOGY = 256 };

static bool bad(PlanParse *ps, NrError *err, const char *field, const char *fmt, ...) NR_PRINTF(4, 5);
static bool bad(PlanParse *ps, NrError *err, const char *field, const char *fmt, ...)
{
    char what[NR_ERROR_MAX / 2];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return nr_error_set(err, "%s:%d: field %s: %s", ps->name, ps->line, field, what);
}

/* A whole number in [lo, hi] or a usage of the field's name in the error. */
static bool int_field(PlanParse *ps, const char *field, const char *v, int64_t lo, int64_t hi, int64_t *out,
                      NrError *err)
{
    if (!nr_parse_int64(v, out) || *out < lo || *out > hi)
        return bad(ps, err, field, "'%s', expected a whole number from %lld to %lld", v, (long long)lo,
                   (long long)hi);
    return true;
}

/* Labels and ids land in CSV columns and file names: letters, digits, - _ . */
static bool label_ok(const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n == 0 || n >= max)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                  c == '_' || c == '.';
        if (!ok)
            return false;
    }
    return true;
}

/* ---- condition fields (study-wide defaults before the first condition) ---- */

static bool field_once(PlanParse *ps, unsigned bit, const char *field, NrError *err)
{
    if (ps->set & bit)
        return bad(ps, err, field, "given twice in %s", ps->cur == &ps->defaults ? "the study-wide defaults" :
                                                                                    ps->cur->label);
    ps->set |= bit;
    return true;
}

static bool set_link(PlanParse *ps, int dir, const char *field, const char *v, NrError *err)
{
    LinkSpec spec;
    NrError lerr = {{0}};
    memset(&spec, 0, sizeof spec);
    if (!*v)
        return bad(ps, err, field, "expected a link spec in netem grammar (docs/link.md)");
    if (!linkspec_parse(&spec, v, NULL, &lerr))
        return bad(ps, err, field, "%s", lerr.msg);
    bool fits = strlen(spec.text) < STUDY_LINK_MAX;
    if (fits)
        snprintf(ps->cur->link[dir], STUDY_LINK_MAX, "%s", spec.text);
    linkspec_free(&spec);
    return fits || bad(ps, err, field, "longer than the plan allows");
}

static bool cond_field(PlanParse *ps, const char *key, char *v, NrError *err)
{
    StudyCondition *c = ps->cur;
    int64_t n;
    double d;
    if (strcmp(key, "scheme") == 0) {
        if (!field_once(ps, F_SCHEME, key, err))
            return false;
        if (!scheme_find(v) || strlen(v) >= STUDY_LABEL_MAX)
            return bad(ps, err, key, "'%s' is not a scheme (netrace help replay lists them)", v);
        snprintf(c->scheme, sizeof c->scheme, "%s", v);
    } else if (strcmp(key, "link12") == 0 || strcmp(key, "link21") == 0) {
        int dir = key[4] == '2';
        return field_once(ps, dir ? F_LINK21 : F_LINK12, key, err) && set_link(ps, dir, key, v, err);
    } else if (strcmp(key, "links") == 0) {
        return field_once(ps, F_LINK12 | F_LINK21, key, err) && set_link(ps, 0, key, v, err) &&
               set_link(ps, 1, key, v, err);
    } else if (strcmp(key, "delta") == 0) {
        if (!field_once(ps, F_DELTA, key, err) ||
            !int_field(ps, key, v, 0, SCHEME_DELTA_MAX_US / NR_US_PER_MS, &n, err))
            return false;
        c->delta_us = n * NR_US_PER_MS;
    } else if (strcmp(key, "tdr") == 0) {
        if (!field_once(ps, F_TDR, key, err))
            return false;
        if (!nr_parse_double(v, &d) || !(d > 0) || d > 100)
            return bad(ps, err, key, "'%s', expected car widths, more than 0 and at most 100", v);
        c->tdr_cw = d;
    } else if (strcmp(key, "track") == 0) {
        if (!field_once(ps, F_TRACK, key, err))
            return false;
        if (!*v || strlen(v) >= STUDY_TRACK_MAX || strchr(v, '/') || strcmp(v, "..") == 0 || strcmp(v, ".") == 0)
            return bad(ps, err, key, "'%s', expected a track file name without '/' (looked up in tracks/)", v);
        snprintf(c->track, sizeof c->track, "%s", v);
    } else if (strcmp(key, "laps") == 0) {
        if (!field_once(ps, F_LAPS, key, err) || !int_field(ps, key, v, 1, 99, &n, err))
            return false;
        if (ps->set & F_SECONDS)
            return bad(ps, err, key, "a race is laps or seconds, not both");
        c->laps = (int)n;
        c->duration_us = 0;
    } else if (strcmp(key, "seconds") == 0) {
        if (!field_once(ps, F_SECONDS, key, err))
            return false;
        if (!nr_parse_double(v, &d) || d < 1 || d > 3600)
            return bad(ps, err, key, "'%s', expected seconds from 1 to 3600", v);
        if (ps->set & F_LAPS)
            return bad(ps, err, key, "a race is laps or seconds, not both");
        c->duration_us = (int64_t)llround(d * 1e6);
        c->laps = 0;
    } else if (strcmp(key, "topology") == 0) {
        if (!field_once(ps, F_TOPOLOGY, key, err))
            return false;
        if (strcmp(v, "p2p") != 0)
            return bad(ps, err, key, "'%s', expected p2p (the only topology so far)", v);
        snprintf(c->topology, sizeof c->topology, "%s", v);
    }
    return true;
}

static bool is_cond_key(const char *key)
{
    static const char *const keys[] = {"scheme", "link12", "link21", "links", "delta",
                                       "tdr",    "track",  "laps",   "seconds", "topology"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(key, keys[i]) == 0)
            return true;
    return false;
}

/* ---- study statements ------------------------------------------------------ */

static bool once(PlanParse *ps, unsigned bit, const char *key, NrError *err)
{
    if (ps->study_set & bit)
        return bad(ps, err, key, "given twice");
    ps->study_set |= bit;
    return true;
}

/* Splits "WORD REST" in place: returns WORD, *rest the trimmed rest. */
static char *word(char *s, char **rest)
{
    s = nr_trim(s);
    char *p = s + strcspn(s, " \t");
    if (*p)
        *p++ = '\0';
    *rest = nr_trim(p);
    return s;
}

static bool st_condition(PlanParse *ps, char *v, NrError *err)
{
    StudyPlan *pl = ps->plan;
    char *rest;
    v = word(v, &rest);
    if (*rest && strcmp(rest, "practice") != 0)
        return bad(ps, err, "condition", "'%s' after the label, expected nothing or 'practice'", rest);
    if (!label_ok(v, STUDY_LABEL_MAX))
        return bad(ps, err, "condition", "'%s', expected a label of letters, digits, '-', '_' or '.'", v);
    if (studyplan_find_condition(pl, v) >= 0)
        return bad(ps, err, "condition", "'%s' is already a condition", v);
    if (pl->ncond == STUDY_MAX_CONDITIONS)
        return bad(ps, err, "condition", "more than %d conditions", STUDY_MAX_CONDITIONS);
    if (ps->cur != &ps->defaults)
        ps->cond_set[pl->ncond - 1] = ps->set;
    else
        ps->default_set = ps->set;
    StudyCondition *c = &pl->cond[pl->ncond++];
    *c = ps->defaults;
    snprintf(c->label, sizeof c->label, "%s", v);
    c->line = ps->line;
    c->practice_only = *rest != '\0';
    ps->cur = c;
    ps->set = 0;
    return true;
}

static bool st_question(PlanParse *ps, char *v, NrError *err)
{
    StudyPlan *pl = ps->plan;
    char *rest, *kind;
    char *id = word(v, &rest);
    kind = word(rest, &rest);
    if (!label_ok(id, STUDY_LABEL_MAX))
        return bad(ps, err, "question", "'%s', expected an id of letters, digits, '-', '_' or '.'", id);
    if (studyplan_find_question(pl, id) >= 0)
        return bad(ps, err, "question", "'%s' asked twice", id);
    if (pl->nq == STUDY_MAX_QUESTIONS)
        return bad(ps, err, "question", "more than %d questions", STUDY_MAX_QUESTIONS);
    StudyQuestion *q = &pl->q[pl->nq];
    if (strcmp(kind, "acr") == 0)
        q->kind = STUDY_Q_ACR5;
    else if (strcmp(kind, "yesno") == 0)
        q->kind = STUDY_Q_YESNO;
    else
        return bad(ps, err, "question", "kind '%s', expected acr (5 Excellent .. 1 Bad) or yesno", kind);
    if (!*rest || strlen(rest) >= STUDY_TEXT_MAX)
        return bad(ps, err, "question", "expected the question's text after its kind (at most 159 bytes)");
    snprintf(q->id, sizeof q->id, "%s", id);
    snprintf(q->text, sizeof q->text, "%s", rest);
    pl->nq++;
    return true;
}

/* practice N [LABEL] */
static bool st_practice(PlanParse *ps, char *v, NrError *err)
{
    char *rest;
    char *n = word(v, &rest);
    int64_t k;
    if (!int_field(ps, "practice", n, 0, STUDY_MAX_PRACTICE, &k, err))
        return false;
    ps->plan->practice = (int)k;
    if (*rest && !label_ok(rest, STUDY_LABEL_MAX))
        return bad(ps, err, "practice", "'%s', expected the label of a condition", rest);
    snprintf(ps->practice_label, sizeof ps->practice_label, "%s", rest);
    ps->practice_line = ps->line;
    return true;
}

/* repeat LABEL [at N] | repeat none */
static bool st_repeat(PlanParse *ps, char *v, NrError *err)
{
    char *rest;
    char *label = word(v, &rest);
    if (strcmp(label, "none") == 0 && !*rest)
        return true;
    if (!label_ok(label, STUDY_LABEL_MAX))
        return bad(ps, err, "repeat", "'%s', expected the label of a condition or none", label);
    snprintf(ps->repeat_label, sizeof ps->repeat_label, "%s", label);
    ps->repeat_line = ps->line;
    if (!*rest)
        return true;
    char *at = word(rest, &rest);
    int64_t k;
    if (strcmp(at, "at") != 0)
        return bad(ps, err, "repeat", "'%s', expected 'at POSITION' after the label", at);
    if (!int_field(ps, "repeat", rest, 1, STUDY_MAX_RACES, &k, err))
        return false;
    ps->plan->repeat_at = (int)k;
    return true;
}

static bool st_simple(PlanParse *ps, const char *key, char *v, NrError *err)
{
    StudyPlan *pl = ps->plan;
    int64_t k;
    if (strcmp(key, "name") == 0) {
        if (!label_ok(v, STUDY_TEXT_MAX))
            return bad(ps, err, key, "'%s', expected a name of letters, digits, '-', '_' or '.'", v);
        snprintf(pl->name, sizeof pl->name, "%s", v);
    } else if (strcmp(key, "seed") == 0) {
        if (!int_field(ps, key, v, 0, INT64_MAX, &k, err))
            return false;
        pl->seed = (uint64_t)k;
    } else if (strcmp(key, "blind") == 0) {
        if (strcmp(v, "on") != 0 && strcmp(v, "off") != 0)
            return bad(ps, err, key, "'%s', expected on or off", v);
        pl->blind = v[1] == 'n';
    } else if (strcmp(key, "repetitions") == 0) {
        if (!int_field(ps, key, v, 1, STUDY_MAX_REPETITIONS, &k, err))
            return false;
        pl->repetitions = (int)k;
    } else if (strcmp(key, "break") == 0) {
        char *rest;
        char *w = word(v, &rest);
        if (strcmp(w, "none") == 0 && !*rest)
            return true;
        if (strcmp(w, "every") != 0)
            return bad(ps, err, key, "'%s', expected 'every N' (races) or none", w);
        if (!int_field(ps, key, rest, 1, STUDY_MAX_RACES, &k, err))
            return false;
        pl->break_every = (int)k;
    }
    return true;
}

static bool statement(PlanParse *ps, char *text, NrError *err)
{
    static const char *const study_keys[] = {"name", "seed", "blind", "repetitions", "practice", "repeat",
                                             "break"};
    char *v;
    char *key = word(text, &v);
    if (is_cond_key(key)) {
        if (!*v)
            return bad(ps, err, key, "expected a value after the keyword");
        return cond_field(ps, key, v, err);
    }
    if (strcmp(key, "condition") == 0)
        return st_condition(ps, v, err);
    if (strcmp(key, "question") == 0)
        return st_question(ps, v, err);
    for (unsigned i = 0; i < sizeof study_keys / sizeof study_keys[0]; i++) {
        if (strcmp(key, study_keys[i]) != 0)
            continue;
        if (!*v)
            return bad(ps, err, key, "expected a value after the keyword");
        if (!once(ps, 1u << i, key, err))
            return false;
        if (i == 4)
            return st_practice(ps, v, err);
        if (i == 5)
            return st_repeat(ps, v, err);
        return st_simple(ps, key, v, err);
    }
    if (strcmp(key, PLAN_MAGIC) == 0)
        return bad(ps, err, key, "second header line");
    return nr_error_set(err, "%s:%d: unknown keyword '%s' (docs/studies.md lists them)", ps->name, ps->line, key);
}

/* ---- whole plan ------------------------------------------------------------- */

static void default_questions(StudyPlan *pl)
{
    static const StudyQuestion defaults[] = {
        {"operability", STUDY_Q_ACR5, "How well could you drive your car?"},
        {"fairness", STUDY_Q_ACR5, "How fair was the race to you?"},
        {"overall", STUDY_Q_ACR5, "Overall quality of the race"},
        {"acceptable", STUDY_Q_YESNO, "Would you accept playing like this?"},
    };
    pl->nq = (int)(sizeof defaults / sizeof defaults[0]);
    memcpy(pl->q, defaults, sizeof defaults);
}

/* After the last line: every condition complete, labels resolved. */
static bool finish_plan(PlanParse *ps, NrError *err)
{
    StudyPlan *pl = ps->plan;
    if (ps->cur != &ps->defaults)
        ps->cond_set[pl->ncond - 1] = ps->set;
    for (int i = 0; i < pl->ncond; i++)
        if (!pl->cond[i].practice_only)
            pl->rated[pl->nrated++] = i;
    if (pl->nrated < 2)
        return nr_error_set(err, "%s: %d rated condition%s, expected at least 2 (a study compares conditions)",
                            ps->name, pl->nrated, pl->nrated == 1 ? "" : "s");
    static const struct { unsigned bit; const char *field; } need[] = {
        {F_SCHEME, "scheme"}, {F_LINK12, "link12"}, {F_LINK21, "link21"}};
    for (int i = 0; i < pl->ncond; i++)
        for (size_t k = 0; k < sizeof need / sizeof need[0]; k++)
            if (!((ps->cond_set[i] | ps->default_set) & need[k].bit))
                return nr_error_set(err, "%s:%d: field %s: condition %s has none (give it there or before the "
                                    "first condition, for all)", ps->name, pl->cond[i].line, need[k].field,
                                    pl->cond[i].label);
    if (!pl->name[0])
        return nr_error_set(err, "%s: field name: missing (the study's name, e.g. 'name pilot-1')", ps->name);
    pl->practice_cond = pl->rated[0];
    if (ps->practice_label[0] && (pl->practice_cond = studyplan_find_condition(pl, ps->practice_label)) < 0)
        return nr_error_set(err, "%s:%d: field practice: '%s' is not a condition", ps->name, ps->practice_line,
                            ps->practice_label);
    pl->repeat_cond = -1;
    if (ps->repeat_label[0]) {
        if ((pl->repeat_cond = studyplan_find_condition(pl, ps->repeat_label)) < 0 ||
            pl->cond[pl->repeat_cond].practice_only)
            return nr_error_set(err, "%s:%d: field repeat: '%s' is not a rated condition", ps->name,
                                ps->repeat_line, ps->repeat_label);
        int rated = pl->repetitions * pl->nrated + 1;
        if (pl->repeat_at > rated)
            return nr_error_set(err, "%s:%d: field repeat: at %d, expected a position from 1 to %d (the rated "
                                "races with the repeat)", ps->name, ps->repeat_line, pl->repeat_at, rated);
    }
    if (pl->nq == 0)
        default_questions(pl);
    return true;
}

static void plan_defaults(PlanParse *ps, StudyPlan *plan, const char *name)
{
    memset(plan, 0, sizeof *plan);
    memset(ps, 0, sizeof *ps);
    ps->plan = plan;
    ps->name = name;
    ps->cur = &ps->defaults;
    plan->blind = true;
    plan->repetitions = 1;
    plan->repeat_cond = -1;
    ps->defaults.delta_us = PLAN_DEFAULT_DELTA_US;
    ps->defaults.tdr_cw = PLAN_DEFAULT_TDR_CW;
    ps->defaults.laps = PLAN_DEFAULT_LAPS;
    snprintf(ps->defaults.track, sizeof ps->defaults.track, "%s", PLAN_DEFAULT_TRACK);
    snprintf(ps->defaults.topology, sizeof ps->defaults.topology, "p2p");
}

/* One line, newline and comment cut: blank, the header, or a statement. */
static bool plan_line(PlanParse *ps, char *buf, bool *have_magic, NrError *err)
{
    char *hash = strchr(buf, '#');
    if (hash)
        *hash = '\0';
    char *s = nr_trim(buf);
    if (!*s)
        return true;
    if (!nr_text_is_printable(s))
        return nr_error_set(err, "%s:%d: control characters in the line (a plan is plain text)", ps->name, ps->line);
    if (*have_magic)
        return statement(ps, s, err);
    char *v;
    char *key = word(s, &v);
    if (strcmp(key, PLAN_MAGIC) != 0)
        return nr_error_set(err, "%s:%d: expected '%s %d' as the first statement (not a study plan?)", ps->name,
                            ps->line, PLAN_MAGIC, STUDYPLAN_VERSION);
    int64_t ver;
    if (!nr_parse_int64(v, &ver) || ver != STUDYPLAN_VERSION)
        return nr_error_set(err, "%s:%d: field version: '%s', this netrace reads version %d", ps->name, ps->line, v,
                            STUDYPLAN_VERSION);
    *have_magic = true;
    return true;
}

bool studyplan_read(StudyPlan *plan, FILE *f, const char *name, NrError *err)
{
    PlanParse ps;
    plan_defaults(&ps, plan, name);
    char *buf = malloc(NR_LINE_MAX);
    if (!buf)
        return nr_error_set(err, "%s: out of memory", name);
    bool ok = true, have_magic = false;
    size_t got;
    NrLine lr;
    while (ok && (lr = nr_line_read(f, buf, NR_LINE_MAX, &got)) != NR_LINE_EOF) {
        ps.line++;
        if (lr == NR_LINE_LONG)
            ok = nr_error_set(err, "%s:%d: line longer than %d bytes", name, ps.line, NR_LINE_MAX - 1);
        else if (lr == NR_LINE_NUL)
            ok = nr_error_set(err, "%s:%d: binary data (NUL byte) in a text file", name, ps.line);
        else if (lr == NR_LINE_ERROR)
            ok = nr_error_set(err, "%s:%d: read error", name, ps.line);
        else
            ok = plan_line(&ps, buf, &have_magic, err);
    }
    free(buf);
    if (ok && !have_magic)
        ok = nr_error_set(err, "%s: empty: expected '%s %d' first", name, PLAN_MAGIC, STUDYPLAN_VERSION);
    if (ok)
        ok = finish_plan(&ps, err);
    if (!ok)
        memset(plan, 0, sizeof *plan);
    return ok;
}

bool studyplan_load(StudyPlan *plan, const char *path, NrError *err)
{
    memset(plan, 0, sizeof *plan);
    FILE *f = nr_file_open(path, "a study plan", err);
    if (!f)
        return false;
    bool ok = studyplan_read(plan, f, path, err);
    fclose(f);
    return ok;
}

int studyplan_find_condition(const StudyPlan *plan, const char *label)
{
    for (int i = 0; i < plan->ncond; i++)
        if (strcmp(plan->cond[i].label, label) == 0)
            return i;
    return -1;
}

int studyplan_find_question(const StudyPlan *plan, const char *id)
{
    for (int i = 0; i < plan->nq; i++)
        if (strcmp(plan->q[i].id, id) == 0)
            return i;
    return -1;
}

bool studyplan_score_ok(const StudyQuestion *q, int score)
{
    return q->kind == STUDY_Q_ACR5 ? score >= 1 && score <= 5 : score == 0 || score == 1;
}
