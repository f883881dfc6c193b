/* A study over the network in simulated time: the host's study session
 * (study_net.c) and the joiner (study_join.c), each stepped as the
 * commands step them, over the in-memory hub (netmem.h) with simulated
 * clocks (the joiner's 250 ms off and synchronised by the sessions). A
 * plan of three races (a practice race and two rated ones), bots at the
 * wheels, each end's answers scripted in its own file: the host's DIR ends
 * with both players' answers (player 2's carried in sealed STUDY
 * datagrams), every race's metrics and both players' mark counts, the
 * host's terminal logs; the joiner's logs in its own folder. Then the same
 * study with the host stopped in the middle of race 2's ratings and
 * resumed: the joiner answers what is missing in a rate-only session, and
 * DIR ends with the same answers. Last, the joiner's player in its window
 * (netwin.h "A study", SDL's dummy driver): its rating screens answered by
 * keys pushed into SDL's queue, blind HUD, a mark while racing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "inputs.h"
#include "netmem.h"
#include "netmerge.h"
#include "raceloop.h"
#include "netwin_internal.h"
#include "netrace_config.h"
#include "study_cli.h"

/* The command registry is main.c's; these tests call the session itself. */
const CliCommand *const cli_commands[] = {NULL};

#define T0 (INT64_C(1000) * NR_US_PER_S)
#define CODE "7K3QM-X9A2C"
#define JOIN_OFFSET_US 250000

static const char PLAN[] = "netrace-study 1\n"
                           "name nettest\n"
                           "seed 5\n"
                           "practice 1 P\n"
                           "seconds 1\n"
                           "link21 delay 40ms 5ms\n"
                           "condition P practice\n"
                           "  scheme nc\n"
                           "  links none\n"
                           "condition A\n"
                           "  scheme nc\n"
                           "  link12 delay 30ms\n"
                           "condition B\n"
                           "  scheme dr\n"
                           "  link12 delay 120ms 20ms\n";

static char root[64];
static const char *plan_file = "plan.txt"; /* the plan the rig's host runs (root/...) */

/* The score each end's player gives: race r, player p, question q. */
static int wanted(int r, int p, int q)
{
    return q == 3 ? (r + p) % 2 : 1 + (r * 3 + p + q) % 5;
}

static void write_answers(const char *path, int player)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    static const char *const ids[4] = {"operability", "fairness", "overall", "acceptable"};
    fprintf(f, "race,player,question,score,response_ms\n");
    for (int r = 2; r <= 3; r++)
        for (int q = 0; q < 4; q++)
            fprintf(f, "%d,%d,%s,%d,%d\n", r, player, ids[q], wanted(r, player, q), 1000 * player + 10 * r + q);
    fclose(f);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = calloc(1, (size_t)n + 1);
    if (fread(b, 1, (size_t)n, f) != (size_t)n)
        n = 0;
    fclose(f);
    return b;
}

/* DIR's answers by hand: both players, both rated races, the scores and
 * response times each end's file gave. */
static void check_answers(const char *dir)
{
    char p[256];
    snprintf(p, sizeof p, "%s/ratings.csv", dir);
    char *text = slurp(p);
    assert_non_null(text);
    int lines = 0;
    for (char *c = text; *c; c++)
        lines += *c == '\n';
    assert_int_equal(lines, 1 + 2 * 2 * 4);
    static const char *const ids[4] = {"operability", "fairness", "overall", "acceptable"};
    for (int r = 2; r <= 3; r++)
        for (int pl = 1; pl <= 2; pl++)
            for (int q = 0; q < 4; q++) {
                char a[128], b[128];
                snprintf(a, sizeof a, "nettest,1,%d,%d,A,rated,%s,%d,%d\n", pl, r, ids[q], wanted(r, pl, q),
                         1000 * pl + 10 * r + q);
                snprintf(b, sizeof b, "nettest,1,%d,%d,B,rated,%s,%d,%d\n", pl, r, ids[q], wanted(r, pl, q),
                         1000 * pl + 10 * r + q);
                if (!strstr(text, a) && !strstr(text, b))
                    fail_msg("no row '%s' in %s", a, p);
            }
    free(text);
}

static void open_study(StudyCli *s, StudySession *ss, const char *dir, bool resume, const char *answers)
{
    char plan[128];
    snprintf(plan, sizeof plan, "%s/%s", root, plan_file);
    memset(s, 0, sizeof *s);
    NrError err;
    assert_true(studyplan_load(&s->plan, plan, &err));
    s->plan_path = strdup(plan);
    s->pair = 1;
    s->out_dir = dir;
    s->resume = resume;
    s->ratings_path = answers;
    players_init(&s->pl);
    s->pl.kind[0] = s->pl.kind[1] = PLAYER_BOT;
    assert_int_equal(study_session_open(ss, s), CLI_OK);
}

typedef struct End {
    NetClock clock;
    NetPort *port;
    bool done;
} End;

/* Both ends of a study over the hub, as two processes would start them. */
typedef struct Rig {
    int64_t truth;
    NetHub *hub;
    End he, je;
    NetAddr ha;
    StudyCli s;
    StudySession *ss;
    FILE *say;
    char host_answers[128], join_answers[128], join_dir[128];
    StudyNetOpts ho, jo;
    CliPlayers jp;
    StudyNetHost *h;
    StudyNetJoin *j;
} Rig;

/* Host and joiner from scratch (new processes), the same ports; window:
 * the joiner's player rates in the window. */
static void rig_open(Rig *g, const char *dir, bool resume, const char *join_file, bool window)
{
    memset(g, 0, sizeof *g);
    g->truth = T0;
    g->hub = nethub_new(7, &g->truth);
    netclock_sim(&g->he.clock, &g->truth, 0, 0.0);
    netclock_sim(&g->je.clock, &g->truth, JOIN_OFFSET_US, 0.0);
    g->ha = (NetAddr){.host = 0x0a000001, .port = 41000};
    NetAddr ja = {.host = 0x0a000002, .port = 41001};
    g->he.port = nethub_port(g->hub, g->ha, &g->he.clock);
    g->je.port = nethub_port(g->hub, ja, &g->je.clock);
    NetMemLink lk = {.delay_us = 3000, .jitter_us = 1000};
    nethub_set_link(g->he.port, &lk);
    nethub_set_link(g->je.port, &lk);
    snprintf(g->host_answers, sizeof g->host_answers, "%s/host-answers.csv", root);
    snprintf(g->join_answers, sizeof g->join_answers, "%s/%s", root, join_file);
    snprintf(g->join_dir, sizeof g->join_dir, "%s-joiner", dir);
    mkdir(g->join_dir, 0777);
    g->ss = calloc(1, sizeof *g->ss);
    open_study(&g->s, g->ss, dir, resume, g->host_answers);
    g->say = tmpfile();
    g->ho = (StudyNetOpts){.code = CODE, .net_port = g->he.port, .clock = &g->he.clock, .entropy = 11, .say = g->say};
    g->jo = (StudyNetOpts){.code = CODE, .net_port = g->je.port, .clock = &g->je.clock, .host_addr = &g->ha,
                           .entropy = 22, .ratings_path = window ? NULL : g->join_answers, .out_dir = g->join_dir,
                           .say = g->say, .window = window};
    players_init(&g->jp);
    g->jp.kind[0] = g->jp.kind[1] = PLAYER_BOT;
    g->h = study_net_host_new(g->ss, &g->ho);
    g->j = study_net_join_new(&g->jo, &g->jp);
    assert_true(g->h && g->j);
}

static void rig_close(Rig *g, int *host_rc, int *join_rc)
{
    *host_rc = study_net_host_end(g->h);
    *join_rc = study_net_join_end(g->j);
    players_free(&g->jp);
    study_session_free(g->ss);
    free(g->ss);
    players_free(&g->s.pl);
    free((char *)g->s.plan_path);
    fclose(g->say);
    nethub_free(g->hub);
}

static int64_t to_true(const End *e, int64_t local)
{
    return local == INT64_MAX ? INT64_MAX : local - e->clock.offset_us;
}

static int64_t earliest(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* One turn of both ends; false once both are over. */
static bool turn(Rig *g)
{
    if (!g->he.done && !study_net_host_step(g->h))
        g->he.done = true;
    if (!g->je.done && !study_net_join_step(g->j))
        g->je.done = true;
    return !(g->he.done && g->je.done) && g->truth < T0 + 3600 * NR_US_PER_S;
}

/* Simulated time on to the next thing due (extra: the window's next frame). */
static void next_time(Rig *g, int64_t extra_local)
{
    int64_t next = nethub_next_due(g->hub);
    if (!g->he.done)
        next = earliest(next, to_true(&g->he, study_net_host_wake(g->h)));
    if (!g->je.done)
        next = earliest(next, to_true(&g->je, earliest(study_net_join_wake(g->j), extra_local)));
    g->truth = next > g->truth ? next : g->truth + 1;
}

/* Both ends stepped until over; stop_at: the host stops (as killed) once
 * that many answers of race 2 are kept. */
static void run(Rig *g, int stop_at)
{
    while (turn(g)) {
        int kept = 0;
        for (int i = 0; i < g->ss->given.n; i++)
            kept += g->ss->given.r[i].race == 2;
        if (stop_at > 0 && kept >= stop_at)
            return; /* the host stops here: its DIR as it is */
        next_time(g, INT64_MAX);
    }
}

/* One study (or its resumption) over the hub, both ends headless. */
static void study_over_hub(const char *dir, bool resume, int stop_at, const char *join_file, int *host_rc,
                           int *join_rc)
{
    Rig g;
    rig_open(&g, dir, resume, join_file, false);
    run(&g, stop_at);
    rig_close(&g, host_rc, join_rc);
}

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/netrace-studynet-XXXXXX");
    if (!mkdtemp(root))
        return -1;
    char p[128];
    snprintf(p, sizeof p, "%s/plan.txt", root);
    FILE *f = fopen(p, "w");
    if (!f)
        return -1;
    fputs(PLAN, f);
    fclose(f);
    snprintf(p, sizeof p, "%s/plan-break.txt", root); /* a break after every rated race: before race 3 */
    f = fopen(p, "w");
    if (!f)
        return -1;
    fprintf(f, "%sbreak every 1\n", PLAN);
    fclose(f);
    snprintf(p, sizeof p, "%s/host-answers.csv", root);
    write_answers(p, 1);
    snprintf(p, sizeof p, "%s/join-answers.csv", root);
    write_answers(p, 2);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "cp %s/tracks/default.track %s/", NETRACE_SOURCE_DIR, root);
    setenv("SOURCE_DATE_EPOCH", "0", 1);
    return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    return system(cmd) == 0 ? 0 : -1;
}

/* Each car of a network race alone on its grid slot (as its terminal
 * drove it), from the race's inputs file: every sample of the recording
 * bit for bit. */
typedef struct Resim {
    World w;
    const InputScript *s;
    int player, n, want;
    const Recording *rec;
    int differ;
} Resim;

static bool resim_sample(void *ctx, int64_t t_us)
{
    (void)t_us;
    Resim *r = ctx;
    RecSample got;
    world_sample(&r->w, 0, &got);
    const RecSample *want = recording_at(r->rec, r->player, r->n);
    bool same = got.t_ms == want->t_ms && memcmp(&got.x, &want->x, sizeof got.x) == 0 && /* bit for bit */
                memcmp(&got.y, &want->y, sizeof got.y) == 0 &&
                memcmp(&got.heading, &want->heading, sizeof got.heading) == 0 &&
                memcmp(&got.speed, &want->speed, sizeof got.speed) == 0;
    if (!same && r->differ++ == 0)
        fprintf(stderr, "car %d sample %d: %d %.17g %.17g %.17g %.17g, recorded %d %.17g %.17g %.17g %.17g\n",
                r->player + 1, r->n, (int)got.t_ms, got.x, got.y, got.heading, got.speed, (int)want->t_ms, want->x,
                want->y, want->heading, want->speed);
    return ++r->n < r->want;
}

static bool resim_control(void *ctx, const World *w, int car, int64_t t_us, CarInput *out)
{
    (void)w;
    (void)car;
    Resim *r = ctx;
    inputs_at(r->s, r->player, (int32_t)(t_us / 1000), out);
    return true;
}

static void resimulate_each_car(const char *dir, int race)
{
    char p[256];
    NrError err = {{0}};
    Recording rec;
    InputScript s;
    snprintf(p, sizeof p, "%s/race-%03d.csv", dir, race);
    if (!recording_load(&rec, p, &err))
        fail_msg("%s", err.msg);
    assert_string_equal(rec.source, "network");
    snprintf(p, sizeof p, "%s/race-%03d.inputs.csv", dir, race);
    if (!inputs_load(&s, p, &err))
        fail_msg("%s", err.msg);
    snprintf(p, sizeof p, "%s/default.track", root);
    Track *t = track_load(p, &err);
    assert_non_null(t);
    assert_true(rec.nsamples > 20);
    for (int c = 0; c < 2; c++) {
        Resim r = {.s = &s, .player = c, .want = rec.nsamples, .rec = &rec};
        assert_true(world_init_solo(&r.w, t, c, &err));
        RaceLoop loop;
        raceloop_init(&loop, &r.w, 0, WORLD_SAMPLE_US, &(RaceLoopHooks){&r, resim_sample, resim_control});
        raceloop_run(&loop, (int64_t)rec.nsamples * WORLD_SAMPLE_US);
        assert_int_equal(r.n, rec.nsamples);
        if (r.differ)
            fail_msg("race %d car %d: %d of %d samples differ from the inputs' re-simulation", race, c + 1, r.differ,
                     r.n);
    }
    track_free(t);
    inputs_free(&s);
    recording_free(&rec);
}

/* DIR holds every race's recording (the header with the condition and
 * the study's keys), its inputs and the joiner's log, byte for byte as
 * the joiner wrote it; each car re-simulates from the inputs. */
static void check_recordings(const char *dir)
{
    char p[256], q[256];
    const char *kinds[3] = {"practice", "rated", "rated"};
    for (int r = 1; r <= 3; r++) {
        snprintf(p, sizeof p, "%s/race-%03d.joiner.log", dir, r);
        snprintf(q, sizeof q, "%s-joiner/race-%03d.joiner.log", dir, r);
        char *a = slurp(p), *b = slurp(q);
        assert_non_null(a);
        assert_non_null(b);
        assert_string_equal(a, b);
        assert_non_null(strstr(a, "\nevent,")); /* whole: its end rows are in */
        assert_non_null(strstr(a, ",end,completed\n"));
        free(a);
        free(b);
        NrError err = {{0}};
        Recording rec;
        snprintf(p, sizeof p, "%s/race-%03d.csv", dir, r);
        if (!recording_load(&rec, p, &err))
            fail_msg("%s", err.msg);
        char race[8];
        snprintf(race, sizeof race, "%d", r);
        const char *want[5][2] = {{"study", "nettest"}, {"pair", "1"}, {"race", race}, {"race_kind", kinds[r - 1]},
                                  {"link21", r == 1 ? "none" : "delay 40ms 5ms"}}; /* P: links none */
        for (int k = 0; k < 5; k++) {
            const char *v = recording_meta_get(&rec, want[k][0]);
            if (!v || strncmp(v, want[k][1], strlen(want[k][1])) != 0)
                fail_msg("race %d %s: '%s', expected '%s'", r, want[k][0], v ? v : "(none)", want[k][1]);
        }
        const char *cond = recording_meta_get(&rec, "condition");
        assert_non_null(cond);
        assert_string_equal(recording_meta_get(&rec, "scheme"), strcmp(cond, "B") == 0 ? "dr" : "nc");
        assert_non_null(recording_meta_get(&rec, "seed"));
        assert_non_null(recording_meta_get(&rec, "delta_ms"));
        recording_free(&rec);
        resimulate_each_car(dir, r);
    }
}

static void test_three_races(void **state)
{
    (void)state;
    char dir[128], p[256];
    snprintf(dir, sizeof dir, "%s/s1", root);
    int hrc, jrc;
    study_over_hub(dir, false, 0, "join-answers.csv", &hrc, &jrc);
    assert_int_equal(hrc, CLI_OK);
    assert_int_equal(jrc, CLI_OK);
    check_answers(dir);
    snprintf(p, sizeof p, "%s/metrics.csv", dir);
    char *met = slurp(p);
    assert_non_null(met);
    for (int r = 1; r <= 3; r++) {
        char want[64];
        snprintf(want, sizeof want, ",1,%d,", r);
        assert_non_null(strstr(met, want));
    }
    assert_non_null(strstr(met, ",marks_p1,0\n"));
    assert_non_null(strstr(met, ",marks_p2,0\n"));
    free(met);
    struct stat st;
    for (int r = 1; r <= 3; r++) {
        snprintf(p, sizeof p, "%s/race-%03d.host.log", dir, r);
        assert_int_equal(stat(p, &st), 0);
        snprintf(p, sizeof p, "%s-joiner/race-%03d.joiner.log", dir, r);
        assert_int_equal(stat(p, &st), 0);
    }
    check_recordings(dir);
}

/* The joiner's answers without those DIR kept (ratings.csv's player 2
 * rows of race 2): asked one of them, it would fail. */
static void write_missing(const char *kept_text)
{
    char p[128];
    snprintf(p, sizeof p, "%s/join-rest.csv", root);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    static const char *const ids[4] = {"operability", "fairness", "overall", "acceptable"};
    fprintf(f, "race,player,question,score,response_ms\n");
    int skipped = 0;
    for (int r = 2; r <= 3; r++)
        for (int q = 0; q < 4; q++) {
            char row[96];
            snprintf(row, sizeof row, ",2,%d,B,rated,%s,", r, ids[q]);
            if (strstr(kept_text, row)) {
                skipped++;
                continue;
            }
            fprintf(f, "%d,2,%s,%d,%d\n", r, ids[q], wanted(r, 2, q), 2000 + 10 * r + q);
        }
    fclose(f);
    assert_int_equal(skipped, 1);
}

/* The host stops with five answers of race 2 kept (its player's four, one
 * of the joiner's): --resume drives nothing again before race 3; race 2's
 * ratings come in a rate-only session, the joiner asked only its three
 * missing answers (its file lacks the one kept); DIR ends with every
 * answer, those kept before as they were, race 2's log untouched. */
static void test_resume_mid_rating(void **state)
{
    (void)state;
    char dir[128], p[256];
    snprintf(dir, sizeof dir, "%s/s2", root);
    int hrc, jrc;
    study_over_hub(dir, false, 5, "join-answers.csv", &hrc, &jrc);
    snprintf(p, sizeof p, "%s/ratings.csv", dir);
    char *before = slurp(p);
    assert_non_null(before);
    int lines = 0;
    for (char *c = before; *c; c++)
        lines += *c == '\n';
    assert_int_equal(lines, 1 + 5);
    write_missing(before);
    struct stat st;
    snprintf(p, sizeof p, "%s/race-003.host.log", dir);
    assert_int_not_equal(stat(p, &st), 0); /* not driven yet */
    snprintf(p, sizeof p, "%s/race-002.host.log", dir);
    char *log2 = slurp(p);
    assert_non_null(log2);
    /* as if the host was killed before the joiner's logs of races 1 and 2
     * came (or were merged): the resumed session fetches them again, race
     * 1 (practice, complete otherwise) in a session for its log alone */
    for (int r = 1; r <= 2; r++) {
        static const char *const tails[3] = {"joiner.log", "csv", "inputs.csv"};
        for (int k = 0; k < 3; k++) {
            snprintf(p, sizeof p, "%s/race-%03d.%s", dir, r, tails[k]);
            remove(p);
        }
    }
    study_over_hub(dir, true, 0, "join-rest.csv", &hrc, &jrc);
    assert_int_equal(hrc, CLI_OK);
    assert_int_equal(jrc, CLI_OK);
    check_answers(dir);
    snprintf(p, sizeof p, "%s/ratings.csv", dir);
    char *after = slurp(p);
    assert_true(strncmp(before, after, strlen(before)) == 0); /* kept as they were */
    snprintf(p, sizeof p, "%s/race-002.host.log", dir);
    char *log2_after = slurp(p);
    assert_non_null(log2_after);
    assert_string_equal(log2, log2_after); /* race 2 was not driven again */
    for (int r = 1; r <= 3; r++) {
        snprintf(p, sizeof p, "%s/race-%03d.aborted-1.host.log", dir, r);
        assert_int_not_equal(stat(p, &st), 0);
        snprintf(p, sizeof p, "%s/race-%03d.aborted-1.host.log.part", dir, r);
        assert_int_not_equal(stat(p, &st), 0);
    }
    snprintf(p, sizeof p, "%s/race-003.host.log", dir);
    assert_int_equal(stat(p, &st), 0);
    check_recordings(dir);
    free(before);
    free(after);
    free(log2);
    free(log2_after);
}

/* The joiner killed while it races race 2 (never stepped again, nothing
 * sent: as kill -9) and started again: the host, silent peer after 15 s,
 * offers race 2 again (its attempt's log kept aside, the joiner's too) and
 * the study ends complete, every answer in DIR once. */
static void test_joiner_comes_back(void **state)
{
    (void)state;
    char dir[128], p[256];
    snprintf(dir, sizeof dir, "%s/s4", root);
    Rig g;
    rig_open(&g, dir, false, "join-answers.csv", false);
    bool racing2 = false;
    while (!racing2 && turn(&g)) {
        Session *s = study_net_join_session(g.j);
        SessionStatus st;
        if (s)
            session_status(s, &st);
        racing2 = s && session_study(s) && session_study(s)->race == 2 && st.phase == SESSION_RACING;
        next_time(&g, INT64_MAX);
    }
    assert_true(racing2);
    StudyNetJoin *dead = g.j;
    CliPlayers jp2;
    players_init(&jp2);
    jp2.kind[0] = jp2.kind[1] = PLAYER_BOT;
    g.j = study_net_join_new(&g.jo, &jp2); /* the joiner's machine starts it again */
    assert_non_null(g.j);
    run(&g, 0);
    assert_true(study_net_host_complete(g.h));
    study_net_join_end(dead); /* its memory (it sends its BYE to a host long gone) */
    int hrc, jrc;
    rig_close(&g, &hrc, &jrc);
    assert_int_equal(hrc, CLI_OK);
    assert_int_equal(jrc, CLI_OK);
    players_free(&jp2);
    check_answers(dir);
    struct stat st;
    snprintf(p, sizeof p, "%s/race-002.aborted-1.host.log", dir); /* the failed race's, closed */
    assert_int_equal(stat(p, &st), 0);
    snprintf(p, sizeof p, "%s-joiner/race-002.aborted-1.joiner.log.part", dir); /* killed: never closed */
    assert_int_equal(stat(p, &st), 0);
    for (int r = 1; r <= 3; r++) {
        snprintf(p, sizeof p, "%s/race-%03d.host.log", dir, r);
        assert_int_equal(stat(p, &st), 0);
        snprintf(p, sizeof p, "%s-joiner/race-%03d.joiner.log", dir, r);
        assert_int_equal(stat(p, &st), 0);
    }
    check_recordings(dir); /* race 2's of the attempt that completed */
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

/* The joiner's subject at its window after a frame: one key at most, as
 * a person presses them (none while the last one waits in SDL's queue).
 * Racing in race 2 it marks once (Left Shift); on the rating screen, past
 * the guard, W / S towards its answer (the first press: 3 Fair, or Yes /
 * No as it points), D to confirm. keys[race][q]: the keys it pressed. */
static void joiner_subject(const NetWin *nw, int64_t *marked_us, int keys[4][4])
{
    const NetWinStudyState *st = &nw->st;
    if (SDL_PeepEvents(NULL, 0, SDL_PEEKEVENT, SDL_KEYDOWN, SDL_KEYDOWN) > 0 || !nw->session)
        return;
    NetRace nr;
    netwin_race_read(nw->session, &nr);
    if (st->phase == NWS_RACE && st->race.race == 2 && nr.st.phase == SESSION_RACING && *marked_us < 0 &&
        nr.st.race_us >= 500 * NR_US_PER_MS) {
        char hud[64];
        netwin_study_hud(nw, hud, sizeof hud);
        assert_true(st->race.blind);
        assert_string_equal(hud, "race 2 of 3"); /* blind: no scheme, no link, no clock */
        push_key(SDL_SCANCODE_LSHIFT);
        *marked_us = nr.st.race_us;
        return;
    }
    const StudyRater *rt = &st->rater;
    if (st->phase != NWS_RATE || studyrate_done(rt, st->race.nq) || st->clock_us - rt->shown_us < STUDYRATE_GUARD_US)
        return;
    const StudyQuestion *q = &st->q[rt->q];
    int want = wanted(st->race.race, 2, rt->q);
    int target = q->kind == STUDY_Q_YESNO ? 1 - want : 5 - want; /* the option's index, top to bottom */
    SDL_Scancode k = rt->choice < 0   ? (q->kind == STUDY_Q_YESNO && target == 1 ? SDL_SCANCODE_S : SDL_SCANCODE_W)
                     : rt->choice > target ? SDL_SCANCODE_W
                     : rt->choice < target ? SDL_SCANCODE_S
                                           : SDL_SCANCODE_D;
    keys[st->race.race][rt->q]++;
    push_key(k);
}

/* The joiner's mark of race 2, by hand: its log's row (kind dissatisfied,
 * flushed), merge of the two logs gives the recording's mark of player 2
 * at the race time of the key's frame (the next frame after the press:
 * within 100 ms) with the study's keys (study, pair, race, condition,
 * race_kind), `info` lists it, the report counts it (race 2's
 * condition: player 1 none, player 2 one: 0.5 a player-race; the other:
 * 0). */
static void check_merged_mark(const char *dir, int64_t marked_us)
{
    assert_true(marked_us >= 500 * NR_US_PER_MS);
    char hp[256], jp[256], out[256], cmd[1024];
    snprintf(hp, sizeof hp, "%s/race-002.host.log", dir);
    snprintf(jp, sizeof jp, "%s-joiner/race-002.joiner.log", dir);
    char *jl = slurp(jp);
    assert_non_null(jl);
    assert_non_null(strstr(jl, "\n# columns mark: row,local_us,sync_us,kind\n"));
    assert_non_null(strstr(jl, ",dissatisfied\n"));
    free(jl);
    TermLog h, j;
    NrError err;
    if (!termlog_load(&h, hp, &err) || !termlog_load(&j, jp, &err))
        fail_msg("%s", err.msg);
    Recording rec;
    if (!netmerge_recording(&h, &j, &rec, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(rec.nmarks, 1);
    assert_int_equal(rec.marks[0].player, 2);
    assert_string_equal(rec.marks[0].kind, "dissatisfied");
    int64_t at_ms = marked_us / NR_US_PER_MS;
    assert_true(rec.marks[0].t_ms >= at_ms && rec.marks[0].t_ms <= at_ms + 100);
    snprintf(out, sizeof out, "%s/merged-002.csv", dir);
    assert_true(recording_save(&rec, out, &err));
    const char *bin = getenv("NETRACE_BIN");
    if (bin) { /* info reads it back as written */
        snprintf(cmd, sizeof cmd, "'%s' info '%s' 2>&1 | grep -qx 'mark: %lld,2,dissatisfied'", bin, out,
                 (long long)rec.marks[0].t_ms);
        assert_int_equal(system(cmd), 0);
    }
    /* the study's own keys from the host's log, as a study on one machine
     * writes them; the condition is the plan's (A nc, B dr) */
    const char *want[4][2] = {{"study", "nettest"}, {"pair", "1"}, {"race", "2"}, {"race_kind", "rated"}};
    for (int k = 0; k < 4; k++) {
        const char *v = recording_meta_get(&rec, want[k][0]);
        if (!v || strcmp(v, want[k][1]) != 0)
            fail_msg("%s: '%s', expected '%s'", want[k][0], v ? v : "(none)", want[k][1]);
    }
    const char *cond = recording_meta_get(&rec, "condition"), *scheme = recording_meta_get(&rec, "scheme");
    assert_true(cond && scheme);
    assert_string_equal(scheme, strcmp(cond, "A") == 0 ? "nc" : "dr");
    assert_true(strcmp(cond, "A") == 0 || strcmp(cond, "B") == 0);
    recording_free(&rec);
    termlog_free(&h);
    termlog_free(&j);
    char csv[256];
    snprintf(csv, sizeof csv, "%s/report.csv", dir);
    char *dirs[1] = {(char *)dir};
    FILE *keep = stdout;
    stdout = fopen("/dev/null", "w");
    int rc = study_report(dirs, 1, csv, NULL);
    fclose(stdout);
    stdout = keep;
    assert_int_equal(rc, CLI_OK);
    char *rep = slurp(csv);
    assert_non_null(rep);
    const char *half = "\nnettest,%c,,marks_per_race,0.5,2\n", *none = "\nnettest,%c,,marks_per_race,0,2\n";
    char row[4][64];
    for (int k = 0; k < 4; k++)
        snprintf(row[k], sizeof row[k], k % 2 ? none : half, "ABBA"[k]);
    bool a_marked = strstr(rep, row[0]) && strstr(rep, row[1]);
    bool b_marked = strstr(rep, row[2]) && strstr(rep, row[3]);
    if (!a_marked && !b_marked)
        fail_msg("report.csv: expected race 2's condition 0.5 marks per player-race, the other 0:\n%s", rep);
    free(rep);
}

/* A rig whose joiner had its window: the study over at both ends, the
 * last screen, both ends' exit codes OK. */
static void window_rig_close(Rig *g, StudyScreen *sc)
{
    assert_true(study_net_join_over(g->j));
    study_screen_end(sc, true, NULL, false);
    int hrc, jrc;
    rig_close(g, &hrc, &jrc);
    assert_int_equal(hrc, CLI_OK);
    assert_int_equal(jrc, CLI_OK);
}

/* The joiner's player rates in its window (the dummy video driver, frames
 * of SESSION_FRAME_US on the joiner's simulated clock, keys pushed into
 * SDL's queue); the host's from its file. DIR gets both players' answers,
 * the joiner's with the response times of its screen's clock: the guard
 * (15 frames) and one frame per key after the first, by hand; its mark in
 * race 2 counted in the metrics. */
static void test_joiner_window(void **state)
{
    (void)state;
    char dir[128], p[256];
    snprintf(dir, sizeof dir, "%s/s3", root);
    Rig g;
    rig_open(&g, dir, false, "join-answers.csv", true);
    NetWinConfig wc = {.kind = PLAYER_BOT, .width = 640, .height = 360, .frame_dt_us = SESSION_FRAME_US};
    StudyScreen sc = {0};
    assert_true(study_screen_open(&sc, &wc, &g.je.clock, NULL));
    study_net_join_hooks(g.j, &sc.hooks);
    int64_t marked_us = -1; /* the race time when its mark key went down */
    int keys[4][4] = {{0}};
    GfxAudit *seen = calloc(1, sizeof *seen); /* the strings each frame drew */
    int waits = 0, codes = 0;
    while (turn(&g)) {
        gfx_audit_start(&sc.nw->gfx0, seen);
        assert_true(study_screen_step(&sc, study_net_join_session(g.j)));
        gfx_audit_stop(&sc.nw->gfx0);
        for (int i = 0; i < seen->n; i++) {
            waits += strstr(seen->rec[i].text, "waiting for the other machine") != NULL;
            codes += strstr(seen->rec[i].text, "7K3QM") != NULL || strstr(seen->rec[i].text, "join code") != NULL;
        }
        joiner_subject(sc.nw, &marked_us, keys);
        next_time(&g, study_screen_wake(&sc));
    }
    assert_true(waits > 0);     /* the screens between races were drawn */
    assert_int_equal(codes, 0); /* and the secret code on none of them (the joiner typed it) */
    /* the wait drawn by hand as a host's screen: the code before its first
     * race only (the experimenter may read it out), never between races */
    NetRace nr;
    memset(&nr, 0, sizeof nr);
    nr.host = true;
    snprintf(nr.code, sizeof nr.code, "%s", CODE);
    NetWinStudyState kept = sc.nw->st;
    sc.nw->st.over = false;
    sc.nw->st.phase = NWS_WAIT;
    for (int had = 0; had < 2; had++) {
        sc.nw->st.have_race = had;
        gfx_audit_start(&sc.nw->gfx0, seen);
        assert_true(netwin_study_draws(sc.nw, &nr, 640, 360));
        gfx_audit_stop(&sc.nw->gfx0);
        codes = 0;
        for (int i = 0; i < seen->n; i++)
            codes += strstr(seen->rec[i].text, "7K3QM") != NULL;
        assert_int_equal(codes, had ? 0 : 1);
    }
    sc.nw->st = kept;
    free(seen);
    window_rig_close(&g, &sc);
    snprintf(p, sizeof p, "%s/ratings.csv", dir);
    char *text = slurp(p);
    assert_non_null(text);
    static const char *const ids[4] = {"operability", "fairness", "overall", "acceptable"};
    for (int r = 2; r <= 3; r++)
        for (int q = 0; q < 4; q++) {
            char want[96];
            long long ms = (15LL + keys[r][q] - 1) * SESSION_FRAME_US / 1000;
            snprintf(want, sizeof want, ",rated,%s,%d,%lld\n", ids[q], wanted(r, 2, q), ms);
            char row[32];
            snprintf(row, sizeof row, "nettest,1,2,%d,", r);
            const char *at = strstr(text, row);
            while (at && strncmp(strchr(at + strlen(row), ','), want, strlen(want)) != 0)
                at = strstr(at + 1, row);
            if (!at)
                fail_msg("no row %s...%s in %s", row, want, p);
        }
    free(text);
    snprintf(p, sizeof p, "%s/metrics.csv", dir);
    char *met = slurp(p);
    assert_non_null(met);
    assert_true(strstr(met, ",marks_p2,1\n") != NULL);
    free(met);
    check_merged_mark(dir, marked_us);
}

/* A plan's break over the network (before race 3): the joiner's window
 * shows the break and the race waits for its player through 20 s of
 * simulated time (past the 15 s deadlines: the host still hears the
 * joiner's clock probes), no countdown, nothing failed; a key, and race 3
 * is driven and rated. The headless host rested at once. */
static void test_break_holds(void **state)
{
    (void)state;
    char dir[128];
    snprintf(dir, sizeof dir, "%s/s5", root);
    plan_file = "plan-break.txt";
    Rig g;
    rig_open(&g, dir, false, "join-answers.csv", true);
    plan_file = "plan.txt";
    /* a frame every 200 ms of the joiner's clock: 20 s of rest is 100 frames, not 600 */
    NetWinConfig wc = {.kind = PLAYER_BOT, .width = 640, .height = 360, .frame_dt_us = 200 * NR_US_PER_MS};
    StudyScreen sc = {0};
    assert_true(study_screen_open(&sc, &wc, &g.je.clock, NULL));
    study_net_join_hooks(g.j, &sc.hooks);
    int64_t marked_us = -1, rest_from = -1;
    int keys[4][4] = {{0}}, rest_frames = 0;
    GfxAudit *seen = calloc(1, sizeof *seen);
    for (;;) { /* frames are drawn in the session's steps too: the audit spans the turn */
        gfx_audit_start(&sc.nw->gfx0, seen);
        if (sc.nw->view)
            gfx_audit_start(&sc.nw->view->gfx, seen);
        bool more = turn(&g) && study_screen_step(&sc, study_net_join_session(g.j));
        gfx_audit_stop(&sc.nw->gfx0);
        if (sc.nw->view)
            gfx_audit_stop(&sc.nw->view->gfx);
        if (!more)
            break;
        Session *s = study_net_join_session(g.j);
        const NetStudyRace *st = s ? session_study(s) : NULL;
        if (st && st->race == 3 && !sc.nw->st.rested) {
            assert_true(st->brk);
            SessionStatus ss;
            session_status(s, &ss);
            assert_true(ss.phase < SESSION_COUNTDOWN); /* no race while its player rests */
            for (int i = 0; i < seen->n; i++)
                rest_frames += strstr(seen->rec[i].text, "Break: race 3 of 3 is next") != NULL;

            if (rest_from < 0)
                rest_from = g.truth;
            if (g.truth - rest_from >= 20 * NR_US_PER_S && SDL_PeepEvents(NULL, 0, SDL_PEEKEVENT, SDL_KEYDOWN,
                                                                          SDL_KEYDOWN) == 0)
                push_key(SDL_SCANCODE_W); /* its throttle key: done resting */
        } else {
            joiner_subject(sc.nw, &marked_us, keys);
        }
        next_time(&g, study_screen_wake(&sc));
    }
    free(seen);
    assert_true(rest_from > 0);
    assert_true(rest_frames > 75); /* the break on its screen all along (20 s of 200 ms frames) */
    window_rig_close(&g, &sc);
    char p[256];
    snprintf(p, sizeof p, "%s/race-003.csv", dir); /* driven after the break */
    struct stat sb;
    assert_int_equal(stat(p, &sb), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_races),
        cmocka_unit_test(test_resume_mid_rating),
        cmocka_unit_test(test_joiner_comes_back),
        cmocka_unit_test(test_joiner_window),
        cmocka_unit_test(test_break_holds),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
