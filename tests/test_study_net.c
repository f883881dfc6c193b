/* A study over the network in simulated time (study_rig.h): the host's
 * study session (study_net.c) and the joiner (study_join.c), each stepped
 * as the commands step them. A plan of three races (a practice race and
 * two rated ones), bots at the wheels, each end's answers scripted in its
 * own file: the host's DIR ends with both players' answers (player 2's
 * carried in sealed STUDY datagrams), every race's metrics, both players'
 * mark counts, both terminals' logs (the joiner's sent to the host) and
 * every race's recording and inputs, from which each car re-simulates bit
 * for bit. Then the same study with the host stopped in the middle of race
 * 2's ratings and resumed (the joiner answers what is missing in a
 * rate-only session, and sends the logs DIR lost), and with the joiner
 * killed and started again. The joiner's window: test_study_netwin.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "study_rig.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_races),
        cmocka_unit_test(test_resume_mid_rating),
        cmocka_unit_test(test_joiner_comes_back),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
