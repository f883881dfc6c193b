/* Studies with human subjects: Williams squares checked by their defining
 * properties (n = 2..9), pair orders over a full set of pairs, the plan
 * reader's answers to good and bad plans, the answer files, MOS, intervals,
 * the repeat's agreement and correlations against hand computations, and
 * the recording's condition lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "recording.h"
#include "studyorder.h"
#include "studystats.h"
#include "williams.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool parse(StudyPlan *p, const char *text, NrError *err)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    assert_non_null(f);
    bool ok = studyplan_read(p, f, "t.study", err);
    fclose(f);
    return ok;
}

static void williams_square(void **state)
{
    (void)state;
    /* the first row by the construction's definition: 0, 1, n-1, 2, n-2 */
    int row[16];
    assert_true(williams_row(5, 0, row));
    int want[5] = {0, 1, 4, 2, 3};
    assert_memory_equal(row, want, sizeof want);
    assert_int_equal(williams_rows(0), 0);
    for (int n = 2; n <= 9; n++) {
        int rows = williams_rows(n);
        assert_int_equal(rows, n % 2 ? 2 * n : n);
        int pos[9][9] = {{0}}, adj[9][9] = {{0}};
        for (int r = 0; r < rows; r++) {
            assert_true(williams_row(n, r, row));
            int seen[9] = {0};
            for (int j = 0; j < n; j++) {
                assert_true(row[j] >= 0 && row[j] < n);
                seen[row[j]]++;
                pos[row[j]][j]++;
                if (j > 0)
                    adj[row[j - 1]][row[j]]++;
            }
            for (int k = 0; k < n; k++)
                assert_int_equal(seen[k], 1); /* a permutation */
        }
        int times = rows / n; /* 1 for even n, 2 for odd n */
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++) {
                assert_int_equal(pos[a][b], times);                 /* once per position (twice for odd n) */
                assert_int_equal(adj[a][b], a == b ? 0 : times);    /* each ordered pair adjacent equally often */
            }
    }
}

static const char *PLAN4 = "netrace-study 1\n"
                           "name t\nseed 3\npractice 2 P\nrepeat B\nbreak every 2\n"
                           "seconds 20\nlink21 delay 75ms\n"
                           "condition P practice\n scheme nc\n links none\n"
                           "condition A\n scheme nc\n link12 delay 50ms\n"
                           "condition B # a comment\n scheme dr\n link12 delay 200ms 30ms\n tdr 0.5\n"
                           "condition C\n scheme causality\n link12 delay 100ms\n delta 150\n"
                           "condition D\n scheme nc\n link12 delay 300ms\n laps 1\n";

static void plan_good(void **state)
{
    (void)state;
    StudyPlan p;
    NrError err = {{0}};
    assert_true(parse(&p, PLAN4, &err));
    assert_string_equal(p.name, "t");
    assert_int_equal(p.ncond, 5);
    assert_int_equal(p.nrated, 4);
    assert_true(p.cond[0].practice_only);
    assert_int_equal(p.practice, 2);
    assert_int_equal(p.practice_cond, 0);
    assert_int_equal(p.repeat_cond, 2);
    assert_true(p.blind); /* on by default */
    /* defaults: Delta 100 ms, T_dr 0.25, the default track, the 4 default questions */
    assert_int_equal(p.cond[1].delta_us, 100000);
    assert_int_equal(p.cond[3].delta_us, 150000);
    assert_float_equal(p.cond[1].tdr_cw, 0.25, 0);
    assert_float_equal(p.cond[2].tdr_cw, 0.5, 0);
    assert_string_equal(p.cond[1].track, "default.track");
    assert_string_equal(p.cond[1].link[1], "delay 75ms");
    assert_int_equal(p.cond[1].duration_us, 20000000);
    assert_int_equal(p.cond[4].duration_us, 0); /* laps replaces the default seconds */
    assert_int_equal(p.cond[4].laps, 1);
    assert_int_equal(p.nq, 4);
    assert_string_equal(p.q[0].id, "operability");
    assert_int_equal(p.q[3].kind, STUDY_Q_YESNO);
    assert_true(studyplan_score_ok(&p.q[0], 5) && !studyplan_score_ok(&p.q[0], 0) && !studyplan_score_ok(&p.q[0], 6));
    assert_true(studyplan_score_ok(&p.q[3], 0) && !studyplan_score_ok(&p.q[3], 2));
}

static void plan_bad(void **state)
{
    (void)state;
    static const struct { const char *text, *msg; } cases[] = {
        {"", "t.study: empty"},
        {"netrace-track 1\n", "t.study:1: expected 'netrace-study 1'"},
        {"netrace-study 2\n", "t.study:1: field version"},
        {"netrace-study 1\nname x\ncondition A\n scheme warp\n", "t.study:4: field scheme: 'warp' is not a scheme"},
        {"netrace-study 1\nname x\ncondition A\n link12 delay fast\n", "t.study:4: field link12"},
        {"netrace-study 1\nname x\ncondition A\n delta 9000\n", "t.study:4: field delta"},
        {"netrace-study 1\nname x\ncondition A\n laps 2\n seconds 3\n", "t.study:5: field seconds"},
        {"netrace-study 1\nname x\ncondition A\n track ../etc/passwd\n", "t.study:4: field track"},
        {"netrace-study 1\nname x\ncondition A\ncondition A\n", "t.study:4: field condition: 'A' is already"},
        {"netrace-study 1\nname x\nfrobnicate 3\n", "t.study:3: unknown keyword 'frobnicate'"},
        {"netrace-study 1\nname x\nseed 1\nseed 2\n", "t.study:4: field seed: given twice"},
        {"netrace-study 1\nname x\nquestion q likert How?\n", "t.study:3: field question: kind 'likert'"},
        {"netrace-study 1\nname x\nblind maybe\n", "t.study:3: field blind"},
        {"netrace-study 1\nname x\nscheme nc\nlinks none\ncondition A\n", "1 rated condition, expected at least 2"},
        {"netrace-study 1\nname x\nscheme nc\ncondition A\ncondition B\n", "field link12: condition A has none"},
        {"netrace-study 1\nname x\nscheme nc\nlinks none\nrepeat Z\ncondition A\ncondition B\n",
         "t.study:5: field repeat: 'Z' is not a rated condition"},
        {"netrace-study 1\nscheme nc\nlinks none\ncondition A\ncondition B\n", "field name: missing"},
        {"netrace-study 1\nname a,b\n", "t.study:2: field name"},
        {"netrace-study 1\nname x\nrepeat A at 0\n", "t.study:3: field repeat"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        StudyPlan p;
        NrError err = {{0}};
        if (parse(&p, cases[i].text, &err) || !strstr(err.msg, cases[i].msg)) {
            fprintf(stderr, "case %zu: '%s', expected '%s'\n", i, err.msg, cases[i].msg);
            fail();
        }
        assert_int_equal(p.ncond, 0); /* nothing of a refused plan is kept */
    }
}

static void orders(void **state)
{
    (void)state;
    StudyPlan p;
    NrError err = {{0}};
    assert_true(parse(&p, PLAN4, &err));
    /* 4 rated conditions: 4 pairs make a full square */
    int pos[STUDY_MAX_CONDITIONS][4] = {{0}};
    for (int pair = 1; pair <= 4; pair++) {
        StudyOrder o, again;
        assert_true(studyorder_make(&p, pair, &o, &err));
        assert_true(studyorder_make(&p, pair, &again, &err));
        assert_memory_equal(&o, &again, sizeof o); /* reproducible */
        assert_int_equal(o.nrace, 2 + 4 + 1);
        assert_int_equal(o.race[0].kind, STUDY_RACE_PRACTICE);
        assert_int_equal(o.race[1].kind, STUDY_RACE_PRACTICE);
        assert_int_equal(o.race[0].cond, 0);
        int k = 0, first_b = -1, rated = 0;
        for (int i = 2; i < o.nrace; i++) {
            const StudyRace *r = &o.race[i];
            assert_int_equal(r->index, i + 1);
            rated++;
            assert_int_equal(r->break_after, rated % 2 == 0 && i != o.nrace - 1);
            if (r->kind == STUDY_RACE_REPEAT) {
                assert_int_equal(r->cond, 2);
                assert_int_not_equal(o.race[i - 1].cond, 2);      /* next to no race of B */
                assert_true(i == o.nrace - 1 || o.race[i + 1].cond != 2);
                continue;
            }
            if (r->cond == 2 && first_b < 0)
                first_b = i;
            pos[r->cond][k++]++;
        }
        for (int i = 0; i < o.nrace; i++)
            for (int j = i + 1; j < o.nrace; j++)
                assert_true(o.race[i].seed != o.race[j].seed);
    }
    for (int c = 1; c <= 4; c++)
        for (int k = 0; k < 4; k++)
            assert_int_equal(pos[c][k], 1); /* each condition once in each position over the pairs */
    /* the label permutation is one permutation of the rated conditions */
    int perm[STUDY_MAX_CONDITIONS], seen[STUDY_MAX_CONDITIONS] = {0};
    studyorder_labels(&p, perm);
    for (int i = 0; i < 4; i++)
        seen[perm[i]]++;
    for (int c = 1; c <= 4; c++)
        assert_int_equal(seen[c], 1);
    StudyOrder o;
    assert_false(studyorder_make(&p, 0, &o, &err));
}

static void mos_by_hand(void **state)
{
    (void)state;
    /* 4, 5, 3, 4: mean 4; squares of deviations 0 + 1 + 1 + 0 = 2, sd =
     * sqrt(2 / 3) = 0.816497; t(0.975, 3) = 3.182; half = 3.182 * 0.816497 /
     * sqrt(4) = 1.299047 -> [2.700953, 5.299047] */
    double v[] = {4, 5, 3, 4};
    MosStat s;
    studystats_mos(v, 4, &s);
    assert_int_equal(s.n, 4);
    assert_float_equal(s.mean, 4.0, 1e-12);
    assert_float_equal(s.sd, 0.816497, 1e-6);
    assert_float_equal(s.lo, 2.700953, 1e-6);
    assert_float_equal(s.hi, 5.299047, 1e-6);
    studystats_mos(v, 1, &s); /* one score: a mean, no interval */
    assert_float_equal(s.mean, 4.0, 0);
    assert_true(isnan(s.sd) && isnan(s.lo) && isnan(s.hi));
    /* x = 1, 2, 3; y = 2, 4, 7: sxy = 5, sxx = 2, syy = 114 / 9; r = 5 / sqrt(2 * 114 / 9) = 0.993399 */
    double x[] = {1, 2, 3}, y[] = {2, 4, 7}, flat[] = {1, 1, 1};
    assert_float_equal(studystats_pearson(x, y, 3), 0.993399, 1e-6);
    assert_true(isnan(studystats_pearson(x, flat, 3)));
    assert_true(isnan(studystats_pearson(x, y, 1)));
}

static void report_by_hand(void **state)
{
    (void)state;
    StudyPlan p;
    NrError err = {{0}};
    assert_true(parse(&p, "netrace-study 1\nname t\nscheme nc\nlinks none\nrepeat A at 3\n"
                          "question q acr How was it?\ncondition A\ncondition B\n", &err));
    /* pair, race, player, cond, kind, score; A = 0, B = 1 */
    static const int rows[][6] = {
        {1, 1, 1, 0, STUDY_RACE_RATED, 4}, {1, 1, 2, 0, STUDY_RACE_RATED, 5},
        {1, 2, 1, 1, STUDY_RACE_RATED, 2}, {1, 2, 2, 1, STUDY_RACE_RATED, 3},
        {1, 3, 1, 0, STUDY_RACE_REPEAT, 4}, {1, 3, 2, 0, STUDY_RACE_REPEAT, 3},
        {2, 1, 1, 1, STUDY_RACE_RATED, 1}, {2, 1, 2, 1, STUDY_RACE_RATED, 2},
        {2, 2, 1, 0, STUDY_RACE_RATED, 3}, {2, 2, 2, 0, STUDY_RACE_RATED, 4},
        {2, 3, 1, 0, STUDY_RACE_REPEAT, 3}, {2, 3, 2, 0, STUDY_RACE_REPEAT, 4},
    };
    StudyRating r[12];
    for (int i = 0; i < 12; i++)
        r[i] = (StudyRating){.pair = rows[i][0], .race = rows[i][1], .player = rows[i][2], .cond = rows[i][3],
                             .kind = (StudyRaceKind)rows[i][4], .question = 0, .score = rows[i][5],
                             .response_ms = -1};
    StudyData d = {.r = r, .n = 12, .cap = 12};
    /* pair, race -> inconsistency, fairness, each player's marks (-1: not counted) */
    StudyRaceMetrics mm[6] = {
        {1, 1, 0, STUDY_RACE_RATED, 0.1, 1.0, {2, 0}},   {1, 2, 1, STUDY_RACE_RATED, 0.3, -1.0, {0, 0}},
        {1, 3, 0, STUDY_RACE_REPEAT, 0.2, 0.5, {5, 5}},  {2, 1, 1, STUDY_RACE_RATED, 0.4, 2.0, {3, 1}},
        {2, 2, 0, STUDY_RACE_RATED, 0.0, 0.0, {1, -1}},  {2, 3, 0, STUDY_RACE_REPEAT, 0.1, -0.5, {5, 5}},
    };
    StudyMetrics m = {.m = mm, .n = 6, .cap = 6};
    StudyReport rep;
    assert_true(studystats_report(&p, &d, &m, &rep, &err));
    /* A, rated only: 4, 5, 3, 4 (mos_by_hand); B: 2, 3, 1, 2, the same spread around 2 */
    assert_int_equal(rep.mos[0][0].n, 4);
    assert_float_equal(rep.mos[0][0].mean, 4.0, 1e-12);
    assert_float_equal(rep.mos[0][0].lo, 2.700953, 1e-6);
    assert_float_equal(rep.mos[0][0].hi, 5.0, 0); /* 5.299047 clipped to the scale's top */
    assert_float_equal(rep.mos[1][0].mean, 2.0, 1e-12);
    assert_float_equal(rep.mos[1][0].lo, 1.0, 0); /* 0.700953 clipped to its bottom */
    assert_float_equal(rep.mos[1][0].hi, 3.299047, 1e-6);
    /* repeat vs first rated A: pair 1 (4 vs 4, 3 vs 5), pair 2 (3 vs 3, 4 vs 4):
     * |differences| 0, 2, 0, 0 -> mean 0.5, identical 3 of 4 */
    assert_int_equal(rep.rep_n[0], 4);
    assert_float_equal(rep.rep_mad[0], 0.5, 1e-12);
    assert_float_equal(rep.rep_same[0], 0.75, 1e-12);
    /* condition means of the rated races: A (0.1 + 0.0) / 2, fairness (1 + 0) / 2; B (0.3 + 0.4) / 2, (-1 + 2) / 2 */
    assert_float_equal(rep.incons[0], 0.05, 1e-12);
    assert_float_equal(rep.fairness[0], 0.5, 1e-12);
    assert_float_equal(rep.incons[1], 0.35, 1e-12);
    assert_int_equal(rep.races[1], 2);
    /* every answer paired by hand with its race's inconsistency and the
     * rater's disadvantage (player 2: minus the fairness) */
    double sc[12] = {4, 5, 2, 3, 4, 3, 1, 2, 3, 4, 3, 4};
    double in[12] = {0.1, 0.1, 0.3, 0.3, 0.2, 0.2, 0.4, 0.4, 0.0, 0.0, 0.1, 0.1};
    double dis[12] = {1.0, -1.0, -1.0, 1.0, 0.5, -0.5, 2.0, -2.0, 0.0, -0.0, -0.5, 0.5};
    assert_int_equal(rep.corr_n[0], 12);
    assert_float_equal(rep.r_incons[0], studystats_pearson(sc, in, 12), 1e-12);
    assert_float_equal(rep.r_disadv[0], studystats_pearson(sc, dis, 12), 1e-12);
    assert_true(rep.r_incons[0] < 0); /* low scores go with the inconsistent races here */
    /* marks per player and rated race (the repeat left out, -1 not counted):
     * A 2, 0, 1: mean 1, sd 1, t(0.975, 2) = 4.303 -> half 4.303 / sqrt(3) = 2.484;
     * B 0, 0, 3, 1: mean 1, sd sqrt(6 / 3), t(0.975, 3) = 3.182 -> half 3.182 * 1.4142 / 2 = 2.250
     * (t from the printed table's three decimals, as stats.h has it) */
    assert_int_equal(rep.marks[0].n, 3);
    assert_float_equal(rep.marks[0].mean, 1.0, 1e-12);
    assert_float_equal(rep.marks[0].hi, 1.0 + 4.303 / sqrt(3.0), 1e-9);
    assert_float_equal(rep.marks[0].lo, 0.0, 0); /* 1 - 2.484 < 0: no count is negative */
    assert_int_equal(rep.marks[1].n, 4);
    assert_float_equal(rep.marks[1].sd, sqrt(2.0), 1e-12);
    assert_float_equal(rep.marks[1].hi, 1.0 + 3.182 * sqrt(2.0) / 2.0, 1e-9);
    assert_float_equal(rep.marks[1].lo, 0.0, 0); /* 1 - 2.250 clipped */
}

static void report_clips_intervals(void **state)
{
    (void)state;
    StudyPlan p;
    NrError err = {{0}};
    assert_true(parse(&p, "netrace-study 1\nname t\nscheme nc\nlinks none\n"
                          "question g acr Grade?\nquestion ok yesno Fine?\ncondition A\ncondition B\n", &err));
    /* condition A: grades 5, 5, 4 (mean 14 / 3, sd sqrt(1 / 3), t(0.975, 2) = 4.303:
     * half 4.303 * 0.57735 / sqrt(3) = 1.434333 -> [3.232333, 6.100999] -> [3.232333, 5]);
     * yes, yes, no (share 2 / 3, the same sd and half: [-0.767667, 2.101] -> [0, 1]);
     * condition B: grades 1, 2 (mean 1.5, sd 0.707107, t(0.975, 1) = 12.706:
     * half 12.706 * 0.707107 / sqrt(2) = 6.353 -> [-4.853, 7.853] -> [1, 5]) */
    static const int rows[][4] = {{1, 0, 0, 5}, {2, 0, 0, 5}, {3, 0, 0, 4}, {1, 0, 1, 1},
                                  {2, 0, 1, 1}, {3, 0, 1, 0}, {1, 1, 0, 1}, {2, 1, 0, 2}};
    StudyRating r[8];
    for (int i = 0; i < 8; i++)
        r[i] = (StudyRating){.pair = rows[i][0], .race = 1 + rows[i][1], .player = 1, .cond = rows[i][1],
                             .kind = STUDY_RACE_RATED, .question = rows[i][2], .score = rows[i][3],
                             .response_ms = -1};
    StudyData d = {.r = r, .n = 8, .cap = 8};
    StudyMetrics m = {.m = NULL, .n = 0, .cap = 0};
    StudyReport rep;
    assert_true(studystats_report(&p, &d, &m, &rep, &err));
    assert_float_equal(rep.mos[0][0].mean, 14.0 / 3.0, 1e-12);
    assert_float_equal(rep.mos[0][0].lo, 14.0 / 3.0 - 1.434333, 1e-6);
    assert_float_equal(rep.mos[0][0].hi, 5.0, 0);
    assert_float_equal(rep.mos[0][1].mean, 2.0 / 3.0, 1e-12);
    assert_float_equal(rep.mos[0][1].lo, 0.0, 0);
    assert_float_equal(rep.mos[0][1].hi, 1.0, 0);
    assert_float_equal(rep.mos[1][0].lo, 1.0, 0);
    assert_float_equal(rep.mos[1][0].hi, 5.0, 0);
    assert_true(isnan(rep.mos[1][1].lo)); /* no answer: nothing to clip */
    MosStat one = {.n = 1, .mean = 3, .sd = NAN, .lo = NAN, .hi = NAN};
    studystats_clip(&one, 1, 5);
    assert_true(isnan(one.lo) && isnan(one.hi));
}

static bool answers(StudyData *d, const StudyPlan *p, const char *text, NrError *err)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    assert_non_null(f);
    bool ok = studydata_read_answers(d, p, f, "a.csv", err);
    fclose(f);
    return ok;
}

static void answer_files(void **state)
{
    (void)state;
    StudyPlan p;
    NrError err = {{0}};
    assert_true(parse(&p, PLAN4, &err));
    StudyData d;
    assert_true(answers(&d, &p, "race,player,question,score\n# c\n3,1,operability,5\n3,2,acceptable,yes\n"
                                "4,1,acceptable,0,1250\n", &err));
    assert_int_equal(d.n, 3);
    const StudyRating *r = studydata_find(&d, 0, 3, 2, 3);
    assert_non_null(r);
    assert_int_equal(r->score, 1);
    assert_int_equal(studydata_find(&d, 0, 4, 1, 3)->response_ms, 1250);
    assert_null(studydata_find(&d, 0, 4, 2, 3));
    studydata_free(&d);
    static const struct { const char *text, *msg; } bad[] = {
        {"3,1,operability,6\n", "a.csv:1: field score: '6'"},
        {"3,1,acceptable,maybe\n", "a.csv:1: field score: 'maybe'"},
        {"3,3,operability,4\n", "a.csv:1: field player"},
        {"0,1,operability,4\n", "a.csv:1: field race"},
        {"3,1,speed,4\n", "a.csv:1: field question: 'speed'"},
        {"3,1,operability\n", "a.csv:1: 3 fields"},
        {"3,1,operability,4\n3,1,operability,5\n", "a.csv:2: race 3, player 1, question operability answered twice"},
        {"3,1,operability,4,-5\n", "a.csv:1: field response_ms"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (answers(&d, &p, bad[i].text, &err) || !strstr(err.msg, bad[i].msg)) {
            fprintf(stderr, "case %zu: '%s', expected '%s'\n", i, err.msg, bad[i].msg);
            fail();
        }
    }
    /* a session's ratings.csv: rows as written read back, a cut last line ignored */
    StudyRating w = {.pair = 2, .race = 3, .player = 1, .cond = 2, .kind = STUDY_RACE_REPEAT, .question = 1,
                     .score = 2, .response_ms = -1};
    char text[512];
    int n = snprintf(text, sizeof text, "%s", STUDYDATA_RATINGS_HEADER);
    n += studydata_rating_row(text + n, sizeof text - (size_t)n, &p, &w);
    assert_string_equal(text + strlen(STUDYDATA_RATINGS_HEADER), "t,2,1,3,B,repeat,fairness,2,NA\n");
    snprintf(text + n, sizeof text - (size_t)n, "t,2,2,3,B,repeat,fair");
    FILE *f = fmemopen(text, strlen(text), "r");
    assert_true(studydata_read_ratings(&d, &p, f, "r.csv", &err));
    fclose(f);
    assert_int_equal(d.n, 1);
    assert_int_equal(d.cut, 1);
    assert_memory_equal(&d.r[0], &w, sizeof w);
    studydata_free(&d);
}

static void recording_condition(void **state)
{
    (void)state;
    Recording rec;
    memset(&rec, 0, sizeof rec);
    rec.version = RECORDING_VERSION;
    snprintf(rec.track, sizeof rec.track, "default.track");
    snprintf(rec.source, sizeof rec.source, "autopilot");
    rec.period_ms = 33;
    rec.ncars = 2;
    rec.nsamples = 1;
    RecSample s[2] = {{.t_ms = 0, .x = 1}, {.t_ms = 0, .x = 2}};
    rec.samples = s;
    assert_true(recording_meta_add(&rec, "scheme", "dr"));
    assert_true(recording_meta_add(&rec, "link12", "delay 200ms 30ms distribution paretonormal"));
    assert_true(recording_meta_add(&rec, "pair", "3"));
    assert_false(recording_meta_add(&rec, "track", "x"));        /* the format's own key */
    assert_false(recording_meta_add(&rec, "Bad Key", "x"));
    assert_false(recording_meta_add(&rec, "note", "two\nlines"));
    char path[64];
    snprintf(path, sizeof path, "/tmp/test_study_%ld.csv", (long)getpid());
    NrError err = {{0}};
    assert_true(recording_save(&rec, path, &err));
    Recording back;
    assert_true(recording_load(&back, path, &err));
    assert_int_equal(back.nmeta, 3);
    assert_string_equal(recording_meta_get(&back, "scheme"), "dr");
    assert_string_equal(recording_meta_get(&back, "link12"), "delay 200ms 30ms distribution paretonormal");
    assert_string_equal(recording_meta_get(&back, "pair"), "3");
    assert_null(recording_meta_get(&back, "seed"));
    recording_free(&back);
    remove(path);
    /* an old recording without them still loads */
    char old[256];
    const char *src = getenv("NETRACE_SOURCE_DIR");
    snprintf(old, sizeof old, "%s/recordings/default.csv", src ? src : ".");
    assert_true(recording_load(&back, old, &err));
    assert_int_equal(back.nmeta, 0);
    recording_free(&back);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(williams_square), cmocka_unit_test(plan_good),      cmocka_unit_test(plan_bad),
        cmocka_unit_test(orders),          cmocka_unit_test(mos_by_hand),    cmocka_unit_test(report_by_hand),
        cmocka_unit_test(report_clips_intervals),
        cmocka_unit_test(answer_files),    cmocka_unit_test(recording_condition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
