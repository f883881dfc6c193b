/* `netrace study`: the parts of the command (docs/studies.md).
 *
 * The session (study_session.c) is one state machine for every way of
 * running it: headless (study_headless.c: bots or scripts, answers from a
 * file) and in the window (study_window.c: the players drive and rate on
 * their screens). It owns DIR: the plan's copy, the order, each race's
 * recording and inputs, the answers and the metrics, every one written as
 * it is given, and --resume.
 *
 * Contracts:
 *   study_print_order(f, s, ord)  the pair's races, one line each, with the
 *        condition in full (the experimenter's view) and the breaks.
 *   study_session_open(ss, s)  the order of s->pair, every condition's track
 *        loaded, the answers file (s->ratings_path, when given); DIR: a new
 *        session's must not exist or be empty (nothing is written yet), a
 *        resumed one's pair and plan are checked and what it holds read.
 *        CLI_OK, or an exit code after one line.
 *   study_session_begin(ss)  a new session's DIR made: the plan's copy,
 *        session.txt, order.csv (a resumed one has them); once, before the
 *        first race (the window calls it once it is open, so a window that
 *        cannot open leaves no DIR behind).
 *   study_session_next(ss, &race)  what comes next, from where the session
 *        is: DRIVE a race without metrics; RATE a rated race with answers
 *        missing; BREAK after a race the plan breaks after (only once this
 *        run drove or rated something: a resumed session does not repeat
 *        old breaks); STOP before a race past s->stop_after; DONE. Each call
 *        moves on: DRIVE and RATE are not returned again for the same race
 *        in one run.
 *   study_session_setup(ss, race, rs, human)  the race's configuration in
 *        rs (links, every scheme with the shown one, Delta, T_dr, seed, the
 *        recording and inputs paths in DIR, the study's header lines), what
 *        an unfinished attempt left moved aside (race-NNN.aborted-K.*), and
 *        the experimenter's line on stdout ("race 3 of 10: rated B (scheme
 *        nc; link12 ...; link21 ...)"). CLI_OK or an exit code after one line.
 *        rs->lc borrows rs and ss; study_setup_free(rs) frees it.
 *   study_session_race_done(ss, race, e, shown, marks, nmarks)  the race is
 *        over and recorded: every scheme's metrics and the players' mark
 *        counts appended to metrics.csv in one write (the race counts as
 *        driven from then on). CLI_OK or CLI_FAIL after one line.
 *   study_session_answer(ss, race, player, q, score, response_ms)  one
 *        answer appended to ratings.csv (fsync'ed before it returns);
 *        response_ms -1 when not measured. CLI_OK or CLI_FAIL after one line.
 *   study_session_given(ss, race, player, q)  the answer is in DIR already.
 *   study_session_resume_at(ss)  the first race without its recording or
 *        complete ratings (where --resume goes on); 0 when none is left.
 *   study_session_free(ss)
 *   study_run_headless(ss)  the session with bots / scripts and the answers
 *        file; study_run_window(ss, pc) in the window with pc's players and
 *        window settings. CLI_OK (also when stopped or the window closed:
 *        stdout says where --resume goes on), CLI_FAIL, CLI_USAGE.
 *   study_window_new(ss, pc) / study_window_config(w) / study_window_done(w,
 *        res)  study_run_window in parts, for a caller that runs the study
 *        screen itself (the tests, on the dummy video driver): the screen's
 *        config with the session's hooks (NULL after one line), then the
 *        exit code of the screen's result (w freed).
 *   study_read_csv(dir, name, plan, d, m, err)  reads DIR/NAME: a session's
 *        ratings.csv into *d when d is given, else its metrics.csv into *m.
 *   study_report(dirs, n, csv, plot)  the report of n session folders (one
 *        plan): table on stdout, long-format CSV and PNG when asked.
 */
#ifndef NR_STUDY_CLI_H
#define NR_STUDY_CLI_H

#include "cli.h"
#include "liverace.h"
#include "players.h"
#include "race_opts.h"
#include "studydata.h"
#include "studywin.h"

#define STUDY_CMD "study"
#define STUDY_PATH_LEN 4200

typedef struct StudyCli {
    const char *plan_path;
    StudyPlan plan;
    int pair;
    const char *out_dir;
    const char *ratings_path; /* the headless players' answers */
    bool resume;
    int stop_after;           /* end after this race (0 = run to the end) */
    CliPlayers pl;
    const char *window_flag;  /* a window flag given (refused with --headless) */
} StudyCli;

typedef enum StudyNext { STUDY_NEXT_DRIVE, STUDY_NEXT_RATE, STUDY_NEXT_BREAK, STUDY_NEXT_STOP, STUDY_NEXT_DONE } StudyNext;

typedef struct StudySession {
    StudyCli *s;
    StudyOrder ord;
    StudyData answers;  /* --ratings FILE */
    StudyData given;    /* DIR/ratings.csv so far */
    StudyMetrics met;   /* DIR/metrics.csv so far */
    char created[32];
    Track *track[STUDY_MAX_CONDITIONS]; /* each condition's track */
    int cursor, stage;  /* study_session_next's place: race index, step within it */
    bool active;        /* this run drove or rated a race */
    bool begun;         /* study_session_begin done */
} StudySession;

/* One race as the session sets it up: what liverace needs, and the memory
 * it borrows. */
typedef struct StudyRaceSetup {
    RaceOpts o;
    bool o_init;
    LiveRaceConfig lc;
    RecMeta meta[8];
    char rec[STUDY_PATH_LEN], inputs[STUDY_PATH_LEN];
    char note[64];      /* the players' top bar under blinding: "race 3 of 10" */
} StudyRaceSetup;

void study_print_order(FILE *f, const StudyCli *s, const StudyOrder *ord);
int study_session_open(StudySession *ss, StudyCli *s);
int study_session_begin(StudySession *ss);
StudyNext study_session_next(StudySession *ss, const StudyRace **race);
int study_session_setup(StudySession *ss, const StudyRace *race, StudyRaceSetup *rs, bool human);
void study_setup_free(StudyRaceSetup *rs);
int study_session_race_done(StudySession *ss, const StudyRace *race, const Engine *e, int shown,
                            const RecMark *marks, int nmarks);
int study_session_answer(StudySession *ss, const StudyRace *race, int player, int q, int score,
                         int64_t response_ms);
bool study_session_given(const StudySession *ss, int race, int player, int q);
int study_session_resume_at(const StudySession *ss);
void study_session_free(StudySession *ss);
int study_run_headless(StudySession *ss);
int study_run_window(StudySession *ss, const PlayConfig *pc);
typedef struct StudyWindow StudyWindow;
StudyWindow *study_window_new(StudySession *ss, const PlayConfig *pc);
const StudyWinConfig *study_window_config(const StudyWindow *w);
int study_window_done(StudyWindow *w, StudyWinResult res);
bool study_read_csv(const char *dir, const char *name, const StudyPlan *plan, StudyData *d, StudyMetrics *m,
                    NrError *err);
int study_report(char **dirs, int n, const char *csv, const char *plot);

#endif
