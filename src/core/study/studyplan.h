/* Study plans: the text file that describes a study with human subjects
 * (conditions, repetitions, practice, a hidden repeat, breaks, questions,
 * blinding), its reader and its checks. Format: docs/studies.md.
 *
 * A plan is untrusted input: every error is one line "FILE:LINE: field F:
 * what was expected" (FILE: ... for a whole-file problem), and nothing of a
 * refused plan is kept.
 *
 * Contracts:
 *   studyplan_read(plan, f, name, err)  parses the open stream (name is used
 *        in messages; f is not closed). plan is zeroed first. True with a
 *        complete plan: at least 2 rated conditions (a condition declared
 *        `condition LABEL practice` is for practice races only), each with a scheme, both links
 *        (the study-wide defaults filled in), a track and laps or seconds;
 *        the questions (the four defaults when the plan names none).
 *        False + err otherwise.
 *   studyplan_load(plan, path, err)  studyplan_read of a file (nr_file_open:
 *        regular files only).
 *   studyplan_find_condition(plan, label)  index of the condition with that
 *        label, -1 when none.
 *   studyplan_find_question(plan, id)      index of the question, -1 when none.
 *   studyplan_score_ok(q, score)  score is a valid answer to q: 1..5 for an
 *        ACR question, 0 (no) or 1 (yes) for a yes/no question.
 *
 * Links are checked with linkspec_parse (system tables, then the built-in
 * fallback) and kept as their canonical text; schemes by the registry.
 */
#ifndef NR_STUDYPLAN_H
#define NR_STUDYPLAN_H

#include "nr_common.h"

#include <stdio.h>

#define STUDYPLAN_VERSION 1
#define STUDY_MAX_CONDITIONS 16
#define STUDY_MAX_QUESTIONS 8
#define STUDY_LABEL_MAX 24   /* condition labels, question ids, scheme names */
#define STUDY_TEXT_MAX 160   /* study name, question text */
#define STUDY_LINK_MAX 512   /* a link's canonical text */
#define STUDY_TRACK_MAX 128  /* a track file name (no '/') */
#define STUDY_MAX_REPETITIONS 8
#define STUDY_MAX_PRACTICE 4
/* Every race of a session: practice + repetitions * conditions + a repeat. */
#define STUDY_MAX_RACES (STUDY_MAX_PRACTICE + STUDY_MAX_REPETITIONS * STUDY_MAX_CONDITIONS + 1)

/* ITU-T P.800 / P.910 absolute category rating: 5 Excellent .. 1 Bad. */
typedef enum StudyQuestionKind { STUDY_Q_ACR5, STUDY_Q_YESNO } StudyQuestionKind;

typedef struct StudyQuestion {
    char id[STUDY_LABEL_MAX];   /* as in ratings files: operability, ... */
    StudyQuestionKind kind;
    char text[STUDY_TEXT_MAX];  /* what the rating screen asks */
} StudyQuestion;

typedef struct StudyCondition {
    char label[STUDY_LABEL_MAX]; /* the experimenter's name of it ("A", "dr-300") */
    char scheme[STUDY_LABEL_MAX];
    char link[2][STUDY_LINK_MAX]; /* [0] = 1->2, [1] = 2->1, canonical netem text */
    int64_t delta_us;            /* Delta of causality control */
    double tdr_cw;               /* DR threshold, car widths */
    char track[STUDY_TRACK_MAX]; /* file name, looked up in tracks/ */
    int laps;                    /* laps mode when duration_us == 0 */
    int64_t duration_us;         /* a fixed-length race when > 0 */
    char topology[8];            /* "p2p": the only one so far */
    bool practice_only;          /* `condition LABEL practice`: never rated */
    int line;                    /* where the condition starts */
} StudyCondition;

typedef struct StudyPlan {
    char name[STUDY_TEXT_MAX];   /* the study's id in ratings.csv */
    uint64_t seed;               /* permutes condition labels, places the repeat */
    bool blind;                  /* players are not shown the condition */
    int repetitions;             /* rated passes over the conditions (1) */
    int practice;                /* unrated races before the first rated one (0) */
    int practice_cond;           /* condition the practice races drive */
    int repeat_cond;             /* condition repeated once, hidden; -1 = none */
    int repeat_at;               /* 1-based position among rated races; 0 = seeded */
    int break_every;             /* a break after every N rated races; 0 = none */
    StudyCondition cond[STUDY_MAX_CONDITIONS];
    int ncond;
    int rated[STUDY_MAX_CONDITIONS]; /* the conditions of the Williams square */
    int nrated;
    StudyQuestion q[STUDY_MAX_QUESTIONS];
    int nq;
} StudyPlan;

bool studyplan_read(StudyPlan *plan, FILE *f, const char *name, NrError *err);
bool studyplan_load(StudyPlan *plan, const char *path, NrError *err);
int studyplan_find_condition(const StudyPlan *plan, const char *label);
int studyplan_find_question(const StudyPlan *plan, const char *id);
bool studyplan_score_ok(const StudyQuestion *q, int score);

#endif
