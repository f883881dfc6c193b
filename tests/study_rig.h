/* The rig of the network study tests (test_study_net.c, headless ends;
 * test_study_netwin.c, the joiner's window): a study's host and joiner
 * over the in-memory hub (netmem.h) with simulated clocks (the joiner's
 * 250 ms off, synchronised by the sessions), the plans and both ends'
 * scripted answers in a folder of their own, the turns of both ends in
 * simulated time. Functions are static inline: each test uses some. */
#ifndef NR_TEST_STUDY_RIG_H
#define NR_TEST_STUDY_RIG_H

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
static inline int wanted(int r, int p, int q)
{
    return q == 3 ? (r + p) % 2 : 1 + (r * 3 + p + q) % 5;
}

static inline void write_answers(const char *path, int player)
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

static inline char *slurp(const char *path)
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
static inline void check_answers(const char *dir)
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

static inline void open_study(StudyCli *s, StudySession *ss, const char *dir, bool resume, const char *answers)
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
static inline void rig_open(Rig *g, const char *dir, bool resume, const char *join_file, bool window)
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

static inline void rig_close(Rig *g, int *host_rc, int *join_rc)
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

static inline int64_t to_true(const End *e, int64_t local)
{
    return local == INT64_MAX ? INT64_MAX : local - e->clock.offset_us;
}

static inline int64_t earliest(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* One turn of both ends; false once both are over. */
static inline bool turn(Rig *g)
{
    if (!g->he.done && !study_net_host_step(g->h))
        g->he.done = true;
    if (!g->je.done && !study_net_join_step(g->j))
        g->je.done = true;
    return !(g->he.done && g->je.done) && g->truth < T0 + 3600 * NR_US_PER_S;
}

/* Simulated time on to the next thing due (extra: the window's next frame). */
static inline void next_time(Rig *g, int64_t extra_local)
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
static inline void run(Rig *g, int stop_at)
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
static inline void study_over_hub(const char *dir, bool resume, int stop_at, const char *join_file, int *host_rc,
                           int *join_rc)
{
    Rig g;
    rig_open(&g, dir, resume, join_file, false);
    run(&g, stop_at);
    rig_close(&g, host_rc, join_rc);
}

static inline int setup(void **state)
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

static inline int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    return system(cmd) == 0 ? 0 : -1;
}

#endif
