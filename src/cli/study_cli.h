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
 *        in one run. With ss->net, RATE also for a driven race (practice
 *        too) whose DIR has neither race-NNN.csv nor race-NNN.joiner.log.
 *   study_session_again(ss)  the race study_session_next gave last comes
 *        again from its start: DRIVE when it has no metrics, else RATE
 *        when answers are missing (a network race its peer left).
 *   study_session_setup(ss, race, rs, human)  the race's configuration in
 *        rs (links, every scheme with the shown one, Delta, T_dr, seed, the
 *        recording and inputs paths in DIR, the study's header lines), what
 *        an unfinished attempt left moved aside (race-NNN.aborted-K.*), and
 *        the experimenter's line on stdout ("race 3 of 10: rated B (scheme
 *        nc; link12 ...; link21 ...)"). CLI_OK or an exit code after one line.
 *        rs->lc borrows rs and ss; study_setup_free(rs) frees it.
 *   study_session_race_done(ss, race, e, shown, marks, recorded)  the race
 *        is over and DIR/race-NNN.RECORDED is in place (csv: the recording;
 *        host.log: a network race's log): every scheme's metrics and the
 *        players' mark counts (marks[j] < 0: not known yet) appended to
 *        metrics.csv in one write (the race counts as driven from then on).
 *        CLI_OK or CLI_FAIL after one line.
 *   study_session_marks(ss, race, scheme, player, count)  one mark count
 *        learned later (a network race's joiner), appended.
 *   study_marks_count(marks, n, out)  each player's dissatisfaction marks.
 *   study_session_answer(ss, race, player, q, score, response_ms)  one
 *        answer appended to ratings.csv (fsync'ed before it returns);
 *        response_ms -1 when not measured. CLI_OK or CLI_FAIL after one line.
 *   study_session_given(ss, race, player, q)  the answer is in DIR already.
 *   study_session_rate_left(ss, race)  a driven race still wants its RATE
 *        step: a rated race with an answer missing, or with ss->net one
 *        whose DIR has neither its recording nor the joiner's log (what
 *        study_session_next returns RATE for; a resumed race found done
 *        since is skipped by the network host).
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
 *   Over the network (study_net.c, study_join.c; docs/studies.md "Over the
 *   network"), each end a steppable runner (the commands loop it with real
 *   waits, the tests in simulated time):
 *   study_net_host_new(ss, o)  the host of session ss (DIR begun): one host
 *        session per race of the order; NULL after one line. step: one turn
 *        (false once the study is over, stopped or failed), wake: the local
 *        time it wants to run next, session: the race's session (NULL
 *        between races), end: the exit code, freed.
 *   study_net_join_new(o, pl)  the joiner: joins each race of the host's
 *        session until the last (pl drives; o->ratings_path answers for its
 *        player 2); the same step / wake / session / end.
 *   study_net_host_complete(h) / study_net_join_over(j)  the study's last
 *        race done. study_net_host_hooks(h, out) / study_net_join_hooks(j,
 *        out)  the window's hooks (netwin.h NetWinStudy) when o->window:
 *        this end's player's answers from its rating screen.
 *   study_screen_open(sc, wc, clock, stop) / study_screen_step(sc, s) /
 *        study_screen_wake(sc) / study_screen_end(sc, complete, why,
 *        until_closed)  the window (study_netwin.c) of a runner: sc->hooks
 *        set after open; each step attaches the race's session s (NULL
 *        between races: a frame when due); false once the window was
 *        closed; end shows the last screen (until closed when asked).
 *   study_run_host(ss, o, wc, stop), study_run_join(o, pl, wc, stop)  the
 *        runners looped in real time until over or *stop (a signal), with
 *        the window when wc (o->window then).
 *   study_host_main(ss, pc, headless) / study_join_main(s, pc, headless)
 *        `study --host` / `study --join`: each end's options from the
 *        command line (the joiner's window asks for the code when not
 *        given), SIGINT / SIGTERM stop, the runner's exit code.
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
#include "netwin.h"
#include "session.h"
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
    bool net_host;            /* --host: the races offered over UDP, one session each */
    const char *net_join;     /* --join HOST[:PORT]: this end joins the host's races */
    const char *net_code, *net_allow;
    int net_port;             /* --port (-1: the default) */
    char join_dir[STUDY_PATH_LEN]; /* the joiner without --out: the folder made for its logs */
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
    bool net;           /* over the network: a driven race without its recording (nor the joiner's
                           log to make it) comes again as RATE (study_net.c fetches the log) */
} StudySession;

/* One race as the session sets it up: what liverace needs, and the memory
 * it borrows. */
typedef struct StudyRaceSetup {
    RaceOpts o;
    bool o_init;
    LiveRaceConfig lc;
    RecMeta meta[8];
    char rec[STUDY_PATH_LEN], inputs[STUDY_PATH_LEN];
    char note[64];      /* the players' top bar under blinding: "race 3 of 10", "race 1 of 10 · practice" */
} StudyRaceSetup;

/* A study over the network: each end's settings. */
typedef struct StudyNetOpts {
    const char *code;          /* the join code: the host's (NULL: drawn, said once), the joiner's (required) */
    uint16_t port;             /* host: the port it listens on; joiner: its own (0: any) */
    const char *allow;         /* host: take joiners only from this host */
    const char *host;          /* joiner: the host's name or address */
    uint16_t host_port;
    const char *out_dir;       /* joiner: its terminal logs, race-NNN.joiner.log (NULL: none) */
    const char *ratings_path;  /* joiner: its player's answers (player 2 lines) */
    NetPort *net_port;         /* tests: an in-memory port (borrowed), clock, host address, entropy */
    const NetClock *clock;
    const NetAddr *host_addr;
    uint64_t entropy;
    FILE *say;                 /* the sessions' one-line messages (NULL: stderr) */
    bool window;               /* this end's player rates in the window (the hooks), not from a file */
    bool external_input;       /* keys or a pad drive this end's car (the window's), not a controller */
} StudyNetOpts;

/* The window of a study over the network (study_netwin.c). */
typedef struct StudyScreen {
    NetWin *nw;
    NetWinConfig wc;     /* its copy, with the hooks */
    NetWinStudy hooks;
    const NetClock *clock;
    Session *shown;      /* the session attached */
    int64_t next_frame;  /* between races: the next frame's local time */
} StudyScreen;

typedef struct StudyNetHost StudyNetHost;
typedef struct StudyNetJoin StudyNetJoin;

void study_print_order(FILE *f, const StudyCli *s, const StudyOrder *ord);
StudyNetHost *study_net_host_new(StudySession *ss, const StudyNetOpts *o);
bool study_net_host_step(StudyNetHost *h);
int64_t study_net_host_wake(const StudyNetHost *h);
Session *study_net_host_session(StudyNetHost *h);
int study_net_host_end(StudyNetHost *h);
StudyNetJoin *study_net_join_new(const StudyNetOpts *o, CliPlayers *pl);
bool study_net_join_step(StudyNetJoin *j);
int64_t study_net_join_wake(const StudyNetJoin *j);
Session *study_net_join_session(StudyNetJoin *j);
int study_net_join_end(StudyNetJoin *j);
bool study_net_host_complete(const StudyNetHost *h);
void study_net_host_hooks(StudyNetHost *h, NetWinStudy *out);
bool study_net_join_over(const StudyNetJoin *j);
void study_net_join_hooks(StudyNetJoin *j, NetWinStudy *out);
bool study_screen_open(StudyScreen *sc, const NetWinConfig *wc, const NetClock *clock, volatile sig_atomic_t *stop);
bool study_screen_step(StudyScreen *sc, Session *s);
int64_t study_screen_wake(const StudyScreen *sc);
void study_screen_end(StudyScreen *sc, bool complete, const char *why, bool until_closed);
int study_run_host(StudySession *ss, const StudyNetOpts *o, const NetWinConfig *wc, volatile sig_atomic_t *stop);
int study_run_join(const StudyNetOpts *o, CliPlayers *pl, const NetWinConfig *wc, volatile sig_atomic_t *stop);
int study_host_main(StudySession *ss, const PlayConfig *pc, bool headless);
int study_join_main(StudyCli *s, const PlayConfig *pc, bool headless);
int study_session_open(StudySession *ss, StudyCli *s);
int study_session_begin(StudySession *ss);
StudyNext study_session_next(StudySession *ss, const StudyRace **race);
void study_session_again(StudySession *ss);
int study_session_setup(StudySession *ss, const StudyRace *race, StudyRaceSetup *rs, bool human);
void study_setup_free(StudyRaceSetup *rs);
int study_session_race_done(StudySession *ss, const StudyRace *race, const Engine *e, int shown, const int marks[2],
                            const char *recorded);
int study_session_marks(StudySession *ss, const StudyRace *race, const char *scheme, int player, int count);
void study_marks_count(const RecMark *marks, int n, int out[2]);
int study_session_answer(StudySession *ss, const StudyRace *race, int player, int q, int score,
                         int64_t response_ms);
bool study_session_given(const StudySession *ss, int race, int player, int q);
bool study_session_rate_left(const StudySession *ss, const StudyRace *race);
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
