/* The study session in the window (study_window.c on the study screen,
 * studywin.c) on SDL's dummy video driver: the session's real hooks and
 * DIR, driven by key events the test pushes into SDL's queue as two
 * subjects at one keyboard would press them (a virtual subject per player
 * reads its half of the screen: the card, the question shown, the choice
 * highlighted), frames of 1/60 s. Bots drive the cars (seeded, so every
 * run drives the same races).
 *
 * Each session runs in a child process (SDL started there), so that a
 * session can be killed with SIGKILL at a chosen moment: in the middle of a
 * rating screen, between two races, in the middle of a race; or its window
 * closed (SDL_QUIT) on a break. --resume then finishes the session, and
 * DIR must hold what an uninterrupted session holds: the same recordings
 * byte for byte, the same metrics, the same answers (response times apart:
 * they are the subjects' own), every answer given before the kill kept
 * as it was, nothing overwritten (a race cut short kept aside). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "netrace_config.h"
#include "study_cli.h"
#include "studywin_internal.h"
#include "vpad.h"

/* The command registry is main.c's; these tests call the session itself. */
const CliCommand *const cli_commands[] = {NULL};

#define FRAME_US 16667
#define MAX_FRAMES 20000 /* 5.5 minutes of screen time: a session here takes under a minute */

/* Three races of one second (a practice race, then A and B in the pair's
 * Williams order), a break after the first rated one, the four default
 * questions. */
static const char PLAN[] = "netrace-study 1\n"
                           "name wintest\n"
                           "seed 5\n"
                           "practice 1 P\n"
                           "break every 1\n"
                           "seconds 1\n"
                           "link21 delay 75ms 10ms distribution paretonormal\n"
                           "condition P practice\n"
                           "  scheme nc\n"
                           "  links none\n"
                           "condition A\n"
                           "  scheme nc\n"
                           "  link12 delay 75ms 10ms distribution paretonormal\n"
                           "condition B\n"
                           "  scheme dr\n"
                           "  link12 delay 200ms 30ms distribution paretonormal\n";

static char root[64];

/* What the test does to a session at a moment of it. */
typedef enum Stop { RUN_TO_END, KILL_MID_RATING, KILL_ON_CARD, KILL_MID_RACE, CLOSE_ON_BREAK, STOP_AFTER_2 } Stop;

/* The answer subject `player` gives to question q of race r (ratings.csv's
 * score): every grade and both yes / no appear. */
static int wanted(const StudyQuestion *q, int race, int player, int qi)
{
    return q->kind == STUDY_Q_YESNO ? (race + player) % 2 : 1 + (race + player + qi) % 5;
}

static void push_key(SDL_Scancode sc)
{
    SDL_Event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = SDL_KEYDOWN;
    ev.key.keysym.scancode = sc;
    ev.key.keysym.sym = SDL_GetKeyFromScancode(sc);
    SDL_PushEvent(&ev);
    ev.type = SDL_KEYUP;
    SDL_PushEvent(&ev);
}

/* One frame of subject j: at most one key, as a person presses them. */
static void subject(StudyWin *sw, int j)
{
    const PlayKeys *k = &sw->ps->keys;
    if ((sw->phase == SW_CARD || sw->phase == SW_BREAK) && !sw->ready[j]) {
        push_key(k->key[j][PK_THROTTLE][0]);
        return;
    }
    const StudyRater *rt = &sw->rater[j];
    if (sw->phase != SW_RATE || rt->q >= sw->cfg->plan->nq || sw->clock_us - rt->shown_us < STUDYRATE_GUARD_US)
        return;
    const StudyQuestion *q = &sw->cfg->plan->q[rt->q];
    int want = wanted(q, sw->step.race, j + 1, rt->q);
    int target = q->kind == STUDY_Q_YESNO ? 1 - want : 5 - want; /* the option's index, top first */
    if (rt->choice < 0 || rt->choice > target)
        push_key(k->key[j][PK_THROTTLE][0]); /* up (the first press: the middle grade, or yes) */
    else if (rt->choice < target)
        push_key(k->key[j][PK_BRAKE][0]);
    else
        push_key(k->key[j][j ? PK_MARK : PK_RIGHT][0]); /* confirm: P1 with D, P2 with its mark key */
}

/* While racing: player 1 marks two moments of race 2 (its mark key); the
 * players' top bars name no scheme and no link (blinding). False when a
 * screen gives the condition away. */
static bool race_frame(StudyWin *sw, int64_t *next_mark_us)
{
    PlayState *ps = sw->ps;
    if (sw->phase != SW_RACE || liverace_flow(ps->lr)->phase != RF_RACING)
        return true;
    if (sw->step.race == 2 && ps->race_us >= *next_mark_us && *next_mark_us <= 600 * NR_US_PER_MS) {
        push_key(ps->keys.key[0][PK_MARK][0]);
        *next_mark_us += 300 * NR_US_PER_MS;
    }
    const Engine *e = liverace_engine(ps->lr);
    char expect[64]; /* the bar names the race, and a practice race as one (as the network window does) */
    snprintf(expect, sizeof expect, "race %d of 3%s", sw->step.race, sw->step.practice ? " · practice" : "");
    for (int j = 0; j < 2; j++) {
        char right[160];
        play_hud_right(ps, j, right, sizeof right);
        if (strstr(right, "link") || strstr(right, engine_scheme(e, ps->cfg->race.shown)->name) ||
            strstr(right, "ms") || !strstr(right, expect) || (strstr(right, "practice") != NULL) != sw->step.practice)
            return false;
    }
    return true;
}

static int answers_of(const StudySession *ss, int race)
{
    int n = 0;
    for (int i = 0; i < ss->given.n; i++)
        n += ss->given.r[i].race == race;
    return n;
}

/* Whether the test stops the session now (after this frame's step). */
static bool stop_now(const StudyWin *sw, const StudySession *ss, Stop stop, bool *closed)
{
    switch (stop) {
    case KILL_MID_RATING: /* three answers of the first rated race in */
        return sw->phase == SW_RATE && sw->step.race == 2 && answers_of(ss, 2) == 3;
    case KILL_ON_CARD: /* between races: the card of the last race */
        return sw->phase == SW_CARD && sw->step.race == 3;
    case KILL_MID_RACE: /* half a second into the last race */
        return sw->phase == SW_RACE && sw->step.race == 3 && sw->ps->race_us > 500 * NR_US_PER_MS;
    case CLOSE_ON_BREAK:
        if (sw->phase == SW_BREAK && !*closed) {
            SDL_Event ev = {.type = SDL_QUIT};
            SDL_PushEvent(&ev); /* the window closed */
            *closed = true;
        }
        return false;
    default:
        return false;
    }
}

/* Runs one session (new, or --resume) into dir in this process; returns
 * the exit code the command would give, or raises SIGKILL at `stop`. */
static int run_session(const char *dir, bool resume, Stop stop)
{
    char plan_path[128];
    snprintf(plan_path, sizeof plan_path, "%s/plan.txt", root);
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) != 0 || TTF_Init() != 0)
        return 90;
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, 1024, 768, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Renderer *r = SDL_CreateSoftwareRenderer(surf);
    StudyCli s;
    memset(&s, 0, sizeof s);
    NrError err;
    if (!r || !studyplan_load(&s.plan, plan_path, &err))
        return 91;
    s.plan_path = plan_path;
    s.pair = 1;
    s.out_dir = dir;
    s.resume = resume;
    s.stop_after = stop == STOP_AFTER_2 ? 2 : 0; /* --stop-after 2 */
    players_init(&s.pl);
    s.pl.kind[0] = s.pl.kind[1] = PLAYER_BOT; /* bots drive; the subjects rate on the keys */
    StudySession ss;
    PlayConfig pc;
    memset(&pc, 0, sizeof pc);
    int rc = study_session_open(&ss, &s);
    StudyWindow *w = rc == CLI_OK ? study_window_new(&ss, &pc) : NULL;
    StudyWin *sw = NULL;
    if (w && studywin_open(&sw, study_window_config(w), r, &err)) {
        WinScreen scr = studywin_screen(sw);
        bool closed = false, blind = true;
        int64_t next_mark_us = 300 * NR_US_PER_MS;
        for (int f = 0; f < MAX_FRAMES; f++) { /* winloop_frame's order, on simulated time */
            for (int j = 0; j < 2; j++)
                subject(sw, j);
            blind &= race_frame(sw, &next_mark_us);
            if (sw->phase == SW_DONE)
                push_key(SDL_SCANCODE_ESCAPE);
            SDL_Event ev;
            while (SDL_PollEvent(&ev))
                scr.event(scr.ctx, &ev);
            if (scr.requests(scr.ctx) & WIN_QUIT)
                break;
            scr.advance(scr.ctx, FRAME_US);
            if (f % 20 == 0) /* every screen drawn now and then */
                scr.draw(scr.ctx, 1024, 768);
            if (stop_now(sw, &ss, stop, &closed))
                raise(SIGKILL);
        }
        rc = study_window_done(w, studywin_result(sw));
        studywin_close(sw);
        if (!blind)
            rc = 92;
    } else if (w) {
        rc = study_window_done(w, STUDYWIN_FAILED);
    }
    study_session_free(&ss);
    players_free(&s.pl);
    SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
    TTF_Quit();
    SDL_Quit();
    return rc;
}

/* run_session in a child; the child's wait status. */
static int in_child(const char *dir, bool resume, Stop stop)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int rc = run_session(dir, resume, stop);
        fflush(NULL);
        _exit(rc);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return status;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    *len = fread(b, 1, (size_t)n, f);
    b[*len] = '\0';
    fclose(f);
    return b;
}

static void assert_same_file(const char *a_dir, const char *b_dir, const char *name)
{
    char pa[256], pb[256];
    snprintf(pa, sizeof pa, "%s/%s", a_dir, name);
    snprintf(pb, sizeof pb, "%s/%s", b_dir, name);
    size_t la, lb;
    char *a = slurp(pa, &la), *b = slurp(pb, &lb);
    if (!a || !b || la != lb || memcmp(a, b, la) != 0)
        fail_msg("%s differs from %s", pb, pa);
    free(a);
    free(b);
}

/* ratings.csv's rows without response_ms, sorted (the order in which two
 * players answer is theirs): one string, rows joined. */
static char *answers_without_times(const char *dir, int *rows)
{
    char p[256];
    snprintf(p, sizeof p, "%s/ratings.csv", dir);
    size_t len;
    char *text = slurp(p, &len);
    assert_non_null(text);
    char *line[64], *save = NULL;
    int n = 0;
    for (char *l = strtok_r(text, "\n", &save); l && n < 64; l = strtok_r(NULL, "\n", &save)) {
        char *comma = strrchr(l, ',');
        assert_non_null(comma);
        if (strncmp(l, "study,", 6) != 0) {
            int64_t ms;
            if (!nr_parse_int64(comma + 1, &ms) || ms < STUDYRATE_GUARD_US / NR_US_PER_MS)
                fail_msg("response time '%s' in %s: not measured", comma + 1, l);
        }
        *comma = '\0';
        line[n++] = l;
    }
    for (int i = 1; i < n; i++) /* insertion sort: a few rows */
        for (int k = i; k > 0 && strcmp(line[k - 1], line[k]) > 0; k--) {
            char *t = line[k];
            line[k] = line[k - 1];
            line[k - 1] = t;
        }
    char *out = calloc(1, len + (size_t)n + 1);
    for (int i = 0; i < n; i++)
        strcat(strcat(out, line[i]), "\n");
    free(text);
    *rows = n;
    return out;
}

/* --resume of dir runs to the end, and dir then holds the uninterrupted
 * session's answers (times apart), last race and metrics. */
static void resume_matches(const char *ref, const char *dir)
{
    int status = in_child(dir, true, RUN_TO_END);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), CLI_OK);
    int ra, rb;
    char *a = answers_without_times(ref, &ra), *b = answers_without_times(dir, &rb);
    assert_string_equal(a, b);
    free(a);
    free(b);
    assert_same_file(ref, dir, "race-003.csv");
    assert_same_file(ref, dir, "metrics.csv");
}

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/netrace-studywin-XXXXXX");
    if (!mkdtemp(root))
        return -1;
    char p[128];
    snprintf(p, sizeof p, "%s/plan.txt", root);
    FILE *f = fopen(p, "w");
    if (!f)
        return -1;
    fputs(PLAN, f);
    fclose(f);
    char track[128];
    snprintf(track, sizeof track, "cp %s/tracks/default.track %s/", NETRACE_SOURCE_DIR, root);
    setenv("SOURCE_DATE_EPOCH", "0", 1);
    return system(track) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    return system(cmd) == 0 ? 0 : -1;
}

static void dir_of(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", root, name);
}

/* The whole session on the screens: both subjects' answers in ratings.csv
 * with their scores and measured response times, every race recorded with
 * its condition, the metrics of all three races. */
static void test_whole_session(void **state)
{
    (void)state;
    char ref[128];
    dir_of(ref, sizeof ref, "ref");
    int status = in_child(ref, false, RUN_TO_END);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), CLI_OK);
    int rows;
    char *ans = answers_without_times(ref, &rows);
    assert_int_equal(rows, 1 + 2 * 2 * 4); /* header, 2 rated races x 2 players x 4 questions */
    /* the subjects' own answers, by hand from wanted(): race 2, player 1:
     * operability 1 + (2 + 1 + 0) % 5 = 4, fairness 1 + 4 % 5 = 5, overall
     * 1 + 5 % 5 = 1, acceptable (2 + 1) % 2 = 1 (yes); race 3, player 2:
     * operability 1 + 5 % 5 = 1, acceptable (3 + 2) % 2 = 1 */
    const char *rows_by_hand[] = {",1,2,%s,rated,operability,4\n", ",1,2,%s,rated,fairness,5\n",
                                  ",1,2,%s,rated,overall,1\n", ",1,2,%s,rated,acceptable,1\n",
                                  ",2,3,%s,rated,operability,1\n", ",2,3,%s,rated,acceptable,1\n"};
    for (size_t i = 0; i < sizeof rows_by_hand / sizeof rows_by_hand[0]; i++) {
        char a[80], b[80];
        snprintf(a, sizeof a, rows_by_hand[i], "A");
        snprintf(b, sizeof b, rows_by_hand[i], "B");
        if (!strstr(ans, a) && !strstr(ans, b))
            fail_msg("no row like '%s' in:\n%s", a, ans);
    }
    free(ans);
    char p[256];
    for (int race = 1; race <= 3; race++) {
        snprintf(p, sizeof p, "%s/race-%03d.csv", ref, race);
        Recording rec;
        NrError err;
        assert_true(recording_load(&rec, p, &err));
        assert_string_equal(recording_meta_get(&rec, "study"), "wintest");
        assert_non_null(recording_meta_get(&rec, "condition"));
        assert_string_equal(rec.source, "autopilot");
        /* player 1 marked race 2 twice while racing, at 0.3 and 0.6 s */
        assert_int_equal(rec.nmarks, race == 2 ? 2 : 0);
        for (int i = 0; i < rec.nmarks; i++) {
            assert_int_equal(rec.marks[i].player, 1);
            assert_string_equal(rec.marks[i].kind, "dissatisfied");
            assert_true(rec.marks[i].t_ms >= 300 * (i + 1) && rec.marks[i].t_ms < 300 * (i + 1) + 40);
        }
        recording_free(&rec);
    }
    snprintf(p, sizeof p, "%s/metrics.csv", ref);
    size_t len;
    char *met = slurp(p, &len);
    assert_non_null(met);
    assert_true(strstr(met, ",1,2,A,rated,nc,1,marks_p1,2\n") || strstr(met, ",1,2,B,rated,dr,1,marks_p1,2\n"));
    assert_non_null(strstr(met, ",1,3,")); /* the last race's metrics */
    free(met);
}

/* Killed (SIGKILL) with three answers of race 2 given: those three stay as
 * they were; --resume asks the rest, drives nothing again, and DIR ends as
 * the uninterrupted session's. */
static void test_kill_mid_rating(void **state)
{
    (void)state;
    char ref[128], dir[128], p[256];
    dir_of(ref, sizeof ref, "ref");
    dir_of(dir, sizeof dir, "killed-rating");
    int status = in_child(dir, false, KILL_MID_RATING);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    snprintf(p, sizeof p, "%s/ratings.csv", dir);
    size_t len;
    char *before = slurp(p, &len);
    assert_non_null(before);
    int lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += before[i] == '\n';
    assert_int_equal(lines, 1 + 3);
    resume_matches(ref, dir);
    size_t len2;
    char *after = slurp(p, &len2);
    assert_true(len2 > len && memcmp(before, after, len) == 0); /* the answers given before, untouched */
    free(before);
    free(after);
    const char *same[] = {"race-001.csv", "race-002.csv", "race-003.csv", "race-003.inputs.csv", "metrics.csv",
                          "order.csv", "plan.study", "session.txt"};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
        assert_same_file(ref, dir, same[i]);
}

/* Killed between races (on the card of race 3, its grid's recording open)
 * and killed half a second into race 3: --resume drives race 3 anew (what
 * the cut attempt left kept aside as race-003.aborted-1.*), and DIR ends as
 * the uninterrupted session's. */
static void test_kill_between_and_mid_race(void **state)
{
    (void)state;
    char ref[128], dir[128], p[256];
    dir_of(ref, sizeof ref, "ref");
    for (int k = 0; k < 2; k++) {
        dir_of(dir, sizeof dir, k ? "killed-race" : "killed-card");
        int status = in_child(dir, false, k ? KILL_MID_RACE : KILL_ON_CARD);
        assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        snprintf(p, sizeof p, "%s/race-003.csv.part", dir);
        struct stat st;
        /* the card shows the race's grid, its recording open as .part */
        assert_int_equal(stat(p, &st), 0);
        resume_matches(ref, dir);
        snprintf(p, sizeof p, "%s/race-003.aborted-1.csv.part", dir);
        assert_int_equal(stat(p, &st), 0); /* kept aside, never overwritten */
    }
}

/* The window closed on the break after race 2, and a session stopped
 * after race 2 (--stop-after 2, its last screen "That is all for now"):
 * exit 0, and --resume goes on with race 3 (the break is not shown again). */
static void test_window_closed(void **state)
{
    (void)state;
    char ref[128], dir[128];
    dir_of(ref, sizeof ref, "ref");
    for (int k = 0; k < 2; k++) {
        dir_of(dir, sizeof dir, k ? "stopped" : "closed");
        int status = in_child(dir, false, k ? STOP_AFTER_2 : CLOSE_ON_BREAK);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), CLI_OK);
        char p[256];
        struct stat st;
        snprintf(p, sizeof p, "%s/race-003.csv", dir);
        assert_int_not_equal(stat(p, &st), 0); /* not before race 3 */
        snprintf(p, sizeof p, "%s/race-002.csv", dir);
        assert_int_equal(stat(p, &st), 0);
        resume_matches(ref, dir);
    }
}

/* ---- the rating screen by itself, with hooks of the test's own -------- */

typedef struct Fake {
    StudyStep steps[2];
    int nsteps, next;
    int n;                 /* answers taken */
    int player[16], q[16], score[16];
    int64_t ms[16];
} Fake;

static bool fake_next(void *ctx, StudyStep *st, NrError *err)
{
    (void)err;
    Fake *f = ctx;
    *st = f->steps[f->next < f->nsteps ? f->next++ : f->nsteps - 1];
    return true;
}

static bool fake_race_done(void *ctx, LiveRace *lr, NrError *err)
{
    (void)ctx, (void)lr;
    return nr_error_set(err, "no race in this test");
}

static bool fake_answer(void *ctx, int race, int player, int q, int score, int64_t ms, NrError *err)
{
    (void)err;
    Fake *f = ctx;
    assert_int_equal(race, 2);
    f->player[f->n] = player;
    f->q[f->n] = q;
    f->score[f->n] = score;
    f->ms[f->n++] = ms;
    return true;
}

/* n frames of 1/60 s: every pending SDL event to the screen, then a step. */
static void frames(StudyWin *sw, int n)
{
    for (int i = 0; i < n; i++) {
        SDL_Event ev;
        while (SDL_PollEvent(&ev))
            studywin_event(sw, &ev);
        studywin_advance(sw, FRAME_US);
    }
}

static void pad_button(StudyWin *sw, SDL_Joystick *j, SDL_GameControllerButton b)
{
    SDL_JoystickSetVirtualButton(j, b, 1);
    frames(sw, 1);
    SDL_JoystickSetVirtualButton(j, b, 0);
    frames(sw, 1);
}

static void push_key_mod(Uint32 type, SDL_Scancode sc, Uint16 mod)
{
    SDL_Event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = type;
    ev.key.keysym.scancode = sc;
    ev.key.keysym.sym = SDL_GetKeyFromScancode(sc);
    ev.key.keysym.mod = mod;
    SDL_PushEvent(&ev);
}

static void key_press(StudyWin *sw, SDL_Scancode sc)
{
    push_key(sc);
    frames(sw, 1);
}

/* Rating with a gamepad (player 1: it joins with a button, the d-pad and
 * the left stick choose, A confirms) and with keys (player 2), one
 * question at a time: the first press lands on 3 Fair (Yes / No on a
 * yes/no question), keys within the guard after a question appears do
 * nothing, each answer reaches the hooks with the time from its question
 * to the confirm, and the screen moves on when both are done. Runs last:
 * SDL stays in this process. */
static void test_pad_and_keys_rate(void **state)
{
    (void)state;
    assert_int_equal(SDL_Init(SDL_INIT_VIDEO | SDL_INIT_GAMECONTROLLER | SDL_INIT_EVENTS), 0);
    assert_int_equal(TTF_Init(), 0);
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, 1024, 768, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Renderer *r = SDL_CreateSoftwareRenderer(surf);
    NrError err;
    Track *track = track_load(NETRACE_SOURCE_DIR "/tracks/default.track", &err);
    assert_non_null(track);
    FILE *pf = fmemopen((void *)PLAN, sizeof PLAN - 1, "r");
    StudyPlan plan;
    assert_true(studyplan_read(&plan, pf, "plan", &err));
    fclose(pf);
    Fake fake = {.nsteps = 2};
    fake.steps[0] = (StudyStep){.kind = STUDY_STEP_RATE, .race = 2, .nraces = 3};
    fake.steps[0].given[1][1] = true; /* player 2 answered fairness before (a resumed screen) */
    fake.steps[1] = (StudyStep){.kind = STUDY_STEP_DONE, .nraces = 3};
    StudyWinConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.hooks = (StudyWinHooks){.ctx = &fake, .next = fake_next, .race_done = fake_race_done, .answer = fake_answer};
    cfg.plan = &plan;
    LiveRaceConfig *lc = &cfg.play.race;
    lc->track = track;
    lc->track_file = "default.track";
    lc->engine.nschemes = scheme_parse_list("nc", lc->engine.schemes, SCHEME_MAX, &err);
    lc->engine.params = scheme_default_params();
    lc->flow.laps = 1;
    cfg.play.kind[0] = PLAYER_PAD;
    cfg.play.kind[1] = PLAYER_KEYS;
    cfg.play.session = cfg.play.blind = true;
    StudyWin *sw;
    assert_true(studywin_open(&sw, &cfg, r, &err));
    assert_int_equal(sw->phase, SW_RATE);
    assert_int_equal(sw->rater[1].q, 0);
    SDL_Joystick *pad = vpad_attach("virtual pad", NULL, NULL);
    frames(sw, 2);
    pad_button(sw, pad, SDL_CONTROLLER_BUTTON_A); /* joins player 1; inside the guard: no answer */
    assert_true(pads_has(&sw->ps->pads, 0));
    assert_int_equal(fake.n, 0);
    frames(sw, 12); /* 16 frames (267 ms) of the question: past the guard */
    pad_button(sw, pad, SDL_CONTROLLER_BUTTON_DPAD_DOWN); /* first press: 3 Fair (index 2) */
    assert_int_equal(sw->rater[0].choice, 2);
    pad_button(sw, pad, SDL_CONTROLLER_BUTTON_DPAD_DOWN); /* 2 Poor */
    SDL_JoystickSetVirtualAxis(pad, SDL_CONTROLLER_AXIS_LEFTY, -30000); /* stick up: 3 Fair */
    frames(sw, 2);
    SDL_JoystickSetVirtualAxis(pad, SDL_CONTROLLER_AXIS_LEFTY, -25000); /* still up: no second move */
    frames(sw, 1);
    SDL_JoystickSetVirtualAxis(pad, SDL_CONTROLLER_AXIS_LEFTY, 0);
    frames(sw, 1);
    SDL_JoystickSetVirtualAxis(pad, SDL_CONTROLLER_AXIS_LEFTY, -30000); /* again: 4 Good */
    frames(sw, 1);
    SDL_JoystickSetVirtualAxis(pad, SDL_CONTROLLER_AXIS_LEFTY, 0);
    frames(sw, 1);
    assert_int_equal(sw->rater[0].choice, 1);
    pad_button(sw, pad, SDL_CONTROLLER_BUTTON_A); /* confirmed */
    assert_int_equal(fake.n, 1);
    assert_true(fake.player[0] == 1 && fake.q[0] == 0 && fake.score[0] == 4);
    /* events are read before a frame's step: the confirm came after 2 + 2 +
     * 12 + 2 + 2 + 2 + 1 + 1 + 1 + 1 = 26 frames of the question, 26 x
     * 16.667 ms = 433 ms */
    assert_int_equal(fake.ms[0], 26 * FRAME_US / 1000);
    pad_button(sw, pad, SDL_CONTROLLER_BUTTON_A); /* inside the next question's guard: nothing */
    assert_int_equal(fake.n, 1);
    assert_int_equal(sw->rater[0].choice, -1);
    /* player 2 on the keys: Up lands on 3 Fair, Right confirms; its
     * fairness (given before) is skipped */
    key_press(sw, SDL_SCANCODE_UP);
    key_press(sw, SDL_SCANCODE_RIGHT);
    assert_int_equal(fake.n, 2);
    assert_true(fake.player[1] == 2 && fake.q[1] == 0 && fake.score[1] == 3);
    assert_int_equal(sw->rater[1].q, 2);
    frames(sw, 16);
    key_press(sw, SDL_SCANCODE_DOWN); /* overall: 3 Fair, then 2 */
    key_press(sw, SDL_SCANCODE_DOWN);
    /* Ctrl + as typed with the right hand on a US keyboard (Ctrl+Shift+=,
     * Right Shift being player 2's confirm key): the text grows and no
     * answer is taken (issue 22 trial D2) */
    double scale0 = sw->ps->view->scale;
    const Uint16 both = KMOD_RCTRL | KMOD_RSHIFT;
    push_key_mod(SDL_KEYDOWN, SDL_SCANCODE_RCTRL, KMOD_RCTRL);
    push_key_mod(SDL_KEYDOWN, SDL_SCANCODE_RSHIFT, both);
    push_key_mod(SDL_KEYDOWN, SDL_SCANCODE_EQUALS, both);
    push_key_mod(SDL_KEYUP, SDL_SCANCODE_EQUALS, both);
    push_key_mod(SDL_KEYUP, SDL_SCANCODE_RSHIFT, KMOD_RCTRL);
    push_key_mod(SDL_KEYUP, SDL_SCANCODE_RCTRL, KMOD_NONE);
    frames(sw, 1);
    assert_true(sw->ps->view->scale > scale0);
    assert_int_equal(fake.n, 2);
    assert_int_equal(sw->rater[1].q, 2);
    push_key_mod(SDL_KEYDOWN, SDL_SCANCODE_RSHIFT, KMOD_RSHIFT); /* Shift alone confirms, on its release */
    frames(sw, 1);
    assert_int_equal(fake.n, 2);
    push_key_mod(SDL_KEYUP, SDL_SCANCODE_RSHIFT, KMOD_NONE);
    frames(sw, 1);
    frames(sw, 16);
    key_press(sw, SDL_SCANCODE_DOWN); /* acceptable: the first Down is No */
    key_press(sw, SDL_SCANCODE_RIGHT);
    assert_int_equal(fake.n, 4);
    assert_true(fake.q[2] == 2 && fake.score[2] == 2 && fake.q[3] == 3 && fake.score[3] == 0);
    assert_int_equal(sw->rater[1].q, plan.nq); /* player 2 done: waits */
    assert_int_equal(sw->phase, SW_RATE);
    studywin_draw(sw, 1024, 768);
    for (int q = 1; q < plan.nq; q++) { /* player 1: Fair for the rest, Yes for acceptable */
        frames(sw, 16);
        pad_button(sw, pad, SDL_CONTROLLER_BUTTON_DPAD_UP);
        pad_button(sw, pad, SDL_CONTROLLER_BUTTON_DPAD_RIGHT);
    }
    assert_int_equal(fake.n, 7);
    assert_true(fake.score[4] == 3 && fake.score[5] == 3 && fake.score[6] == 1);
    frames(sw, 1);
    assert_int_equal(sw->phase, SW_DONE);
    assert_int_equal(studywin_result(sw), STUDYWIN_DONE);
    studywin_draw(sw, 1024, 768);
    key_press(sw, SDL_SCANCODE_ESCAPE);
    assert_true(sw->want_quit);
    vpad_detach(pad);
    studywin_close(sw);
    track_free(track);
    SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
    TTF_Quit();
    SDL_Quit();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole_session),
        cmocka_unit_test(test_kill_mid_rating),
        cmocka_unit_test(test_kill_between_and_mid_race),
        cmocka_unit_test(test_window_closed),
        cmocka_unit_test(test_pad_and_keys_rate),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
