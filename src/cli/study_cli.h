/* `netrace study`: the parts of the command (docs/studies.md).
 *
 * Contracts:
 *   study_print_order(f, s, ord)  the pair's races, one line each, with the
 *        condition in full (the experimenter's view) and the breaks.
 *   study_run_session(s)  the headless session of s->pair into s->out_dir
 *        (new, or continued with s->resume); CLI_OK, CLI_FAIL or CLI_USAGE
 *        after one line. Every answer is on disk before the next is taken.
 *   study_read_csv(dir, name, plan, d, m, err)  reads DIR/NAME: a session's
 *        ratings.csv into *d when d is given, else its metrics.csv into *m.
 *   study_report(dirs, n, csv, plot)  the report of n session folders (one
 *        plan): table on stdout, long-format CSV and PNG when asked.
 */
#ifndef NR_STUDY_CLI_H
#define NR_STUDY_CLI_H

#include "cli.h"
#include "players.h"
#include "studydata.h"

#define STUDY_CMD "study"

typedef struct StudyCli {
    const char *plan_path;
    StudyPlan plan;
    int pair;
    const char *out_dir;
    const char *ratings_path; /* the headless players' answers */
    bool resume;
    int stop_after;           /* end after this race (0 = run to the end) */
    CliPlayers pl;
} StudyCli;

/* How a session takes one answer (score and response_ms into *out; the
 * session fills in pair, race, player, question, condition and kind):
 * CLI_OK, or an exit code after one line, which ends the session there.
 * The headless session reads the --ratings file; the window's rating
 * screen (not built yet) will be another. */
typedef int (*StudyAsk)(void *ctx, const StudyRace *race, int player, int question, StudyRating *out);

void study_print_order(FILE *f, const StudyCli *s, const StudyOrder *ord);
int study_run_session(StudyCli *s);
bool study_read_csv(const char *dir, const char *name, const StudyPlan *plan, StudyData *d, StudyMetrics *m,
                    NrError *err);
int study_report(char **dirs, int n, const char *csv, const char *plot);

#endif
