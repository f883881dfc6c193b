/* The data of a study session: the players' answers (the headless --ratings
 * file and the session's ratings.csv) and the objective metrics of every
 * race (metrics.csv), their CSV rows and their readers. docs/studies.md
 * describes the columns.
 *
 * ratings.csv: study,pair,player,race,condition,kind,question,score,response_ms
 *   (kind: rated | repeat; score 1..5 for ACR questions, 1 yes / 0 no;
 *   response_ms: NA when not measured, as in a headless session).
 * metrics.csv: study,pair,race,condition,kind,scheme,shown,metric,value
 *   (shown: 1 for the scheme the players saw; metric: samples,
 *   inconsistency_rate, fairness, mean_d1, mean_d2, mean_abs_d1, mean_abs_d2;
 *   on the shown scheme's rows also marks_p1, marks_p2: each player's
 *   dissatisfaction marks in the race, whose times the recording holds).
 *
 * Contracts:
 *   studydata_read_answers(out, plan, f, name, err)  the headless answers:
 *        lines race,player,question,score[,response_ms]; an optional header
 *        line starting with "race"; '#' lines and blank lines skipped. yes /
 *        no are accepted for yes/no questions. Each (race, player, question)
 *        at most once. False + err "NAME:LINE: field F: ..." otherwise.
 *   studydata_read_ratings(out, plan, f, name, err)  a session's ratings.csv
 *        (header required); a last line without its newline (a writer killed
 *        in the middle of it) is ignored and counted in out->cut.
 *   studydata_find(d, pair, race, player, question)  the answer or NULL.
 *   studydata_free(d)   NULL-safe; d reusable.
 *   studydata_read_metrics(out, plan, f, name, err)  the shown scheme's
 *        inconsistency rate and fairness of every race of metrics.csv, and
 *        the players' mark counts (metrics marks_p1, marks_p2; -1 when a
 *        session from before the marks has none).
 *   studydata_rating_row(buf, n, study, r, plan)   one ratings.csv row with
 *        its newline; studydata_metric_row(buf, n, ...) one metrics.csv row.
 *   The *_HEADER strings are the files' first lines (with the newline).
 */
#ifndef NR_STUDYDATA_H
#define NR_STUDYDATA_H

#include "studyorder.h"

#define STUDYDATA_RATINGS_HEADER "study,pair,player,race,condition,kind,question,score,response_ms\n"
#define STUDYDATA_METRICS_HEADER "study,pair,race,condition,kind,scheme,shown,metric,value\n"
#define STUDYDATA_MAX_ROWS 1000000

typedef struct StudyRating {
    int pair;            /* 0 in an answers file (it belongs to one pair) */
    int race, player;    /* 1-based */
    int cond;            /* plan condition; -1 in an answers file */
    StudyRaceKind kind;
    int question;        /* index into plan->q */
    int score;
    int64_t response_ms; /* -1: not measured */
} StudyRating;

typedef struct StudyData {
    StudyRating *r;
    int n, cap;
    int cut;             /* cut last lines ignored */
} StudyData;

typedef struct StudyRaceMetrics {
    int pair, race, cond;
    StudyRaceKind kind;
    double inconsistency, fairness; /* of the shown scheme */
    int marks[2];                   /* each player's dissatisfaction marks; -1: not in the file (older sessions) */
} StudyRaceMetrics;

typedef struct StudyMetrics {
    StudyRaceMetrics *m;
    int n, cap;
} StudyMetrics;

bool studydata_read_answers(StudyData *out, const StudyPlan *plan, FILE *f, const char *name, NrError *err);
bool studydata_read_ratings(StudyData *out, const StudyPlan *plan, FILE *f, const char *name, NrError *err);
const StudyRating *studydata_find(const StudyData *d, int pair, int race, int player, int question);
void studydata_free(StudyData *d);
bool studydata_read_metrics(StudyMetrics *out, const StudyPlan *plan, FILE *f, const char *name, NrError *err);
void studydata_metrics_free(StudyMetrics *m);
int studydata_rating_row(char *buf, size_t n, const StudyPlan *plan, const StudyRating *r);
int studydata_metric_row(char *buf, size_t n, const StudyPlan *plan, int pair, const StudyRace *race,
                         const char *scheme, bool shown, const char *metric, double value);

#endif
