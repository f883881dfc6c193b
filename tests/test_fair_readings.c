/* The readings of the fairness paper's Sections 4.6 and 5 (FairReadings,
 * docs/fairness.md "Readings"): each reading's rule pinned on hand-worked
 * three-receiver examples -- which receiver gets which DR vector at which
 * trigger, with the random draws fixed.
 *
 * The staircase used throughout: the sender drives at 10 cw/s, east during
 * [0, 1) s, north during [1, 2), east again, and so on, sampled every 20 ms
 * (so a turn falls on a sample). A vector is exact along its segment; 20 ms
 * after turn k the true position is 0.2 cw along the new direction and the
 * old vector's 0.2 cw along the old one: |(-0.2, 0.2)| = 0.283 > 0.25 cw, so
 * trigger k computes DR_k at T_k = k + 0.02 s, and nothing else triggers.
 * Corners: (0,0) (10,0) (10,10) (20,10) (20,20) ...
 * Distances between the vectors' paths (u = t - T_k, in s):
 *   DR_k vs DR_{k-1}: sqrt2 (0.2 + 10 u)  (they part at the corner);
 *   DR_k vs DR_{k-2}: 10 sqrt2, constant (parallel lines, one segment apart);
 *   DR_4 vs DR_1 at t = 4 + s: |(10 + 10 s, -10 - 10 s)| = sqrt2 (10 + 10 s).
 * Hence for a receiver at a constant delay d (seconds):
 *   DR_k sent at T_k, placed at T_k + d over DR_{k-1}: sqrt2 (0.2 d + 5 d^2);
 *   DR_2 not sent (DR_1 placed), over [T_2, T_3]: sqrt2 * 5 (1.02^2 - 0.02^2)
 *     = 5.2 sqrt2;  DR_3 not sent, over [T_3, T_4]: 10 sqrt2;
 *   DR_4 sent at T_4 over DR_1: sqrt2 * integral of (10 + 10 s) over
 *     [0.02, 0.02 + d] = sqrt2 (10.2 d + 5 d^2). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "fair_budget.h"
#include "fairsim.h"
#include "synthpath.h"

#define SQRT2 1.4142135623730951

static const char *const staircase_delays[3] = {"delay 300ms", "delay 200ms", "delay 100ms"};

typedef struct Fixture {
    Recording rec;
    LinkSpec fwd[3], rev[3];
    FairConfig cfg;
} Fixture;

/* Three receivers at 300, 200 and 100 ms, feedback back at once (0 ms). */
static void fixture_init(Fixture *fx, double seconds)
{
    static const double speeds[] = {10, 10};
    static const double heads[] = {0.0, NR_PI / 2};
    NrError err = {{0}};
    memset(fx, 0, sizeof *fx);
    if (!synthpath_segments(&fx->rec, seconds, 20, 1000, speeds, heads, 2, &err))
        fail_msg("%s", err.msg);
    for (int m = 0; m < 3; m++)
        if (!linkspec_parse(&fx->fwd[m], staircase_delays[m], NULL, &err) ||
            !linkspec_parse(&fx->rev[m], "delay 0ms", NULL, &err))
            fail_msg("%s", err.msg);
    fx->cfg.rec = &fx->rec;
    fx->cfg.nrecv = 3;
    fx->cfg.fwd = fx->fwd;
    fx->cfg.rev = fx->rev;
    fx->cfg.seed = 3;
}

static void fixture_free(Fixture *fx)
{
    for (int m = 0; m < 3; m++) {
        linkspec_free(&fx->fwd[m]);
        linkspec_free(&fx->rev[m]);
    }
    recording_free(&fx->rec);
}

/* Steps until trigger `id` has been handled (and everything at its instant). */
static void step_past_trigger(FairSim *s, int64_t id)
{
    while (fairsim_triggers(s) < id)
        assert_true(fairsim_step(s));
}

static FairSim *new_sim(const FairConfig *cfg, const char *algo)
{
    NrError err = {{0}};
    FairSim *s = fairsim_new(cfg, fair_algo_find(algo), &err);
    if (!s)
        fail_msg("%s", err.msg);
    return s;
}

/* The staircase's triggers fall where the header says. */
static void staircase_triggers(void **state)
{
    (void)state;
    Fixture fx;
    fixture_init(&fx, 10.0);
    FairSim *s = new_sim(&fx.cfg, "base");
    for (int64_t k = 1; k <= 9; k++) {
        step_past_trigger(s, k);
        assert_int_equal(fairsim_now_us(s), k * 1000000 + 20000);
        assert_int_equal(fairsim_vec(s, k)->t_us, k * 1000000 + 20000);
    }
    fairsim_free(s);
    assert_int_equal(fair_count_triggers(&fx.cfg, 0.25), 9); /* 10 s of path: T_9 = 9.02 s */
    fixture_free(&fx);
}

/* budget-det's weights under each reading. Trigger 1 goes to all three
 * (f = 1/3, gap 3: tagged at 4); triggers 2 and 3 send nothing; trigger 4
 * sends DR_4 to all three, then computes f_m = a_m / sum(a) and tags m at
 * 4 + ceil(1 / f_m) with credit ceil(1/f) - 1/f. By the header (all in
 * units of sqrt2 cw*s; exact delay estimates, so the belief is the truth):
 *   before DR_4: 0.2 d + 5 d^2 + 5.2 + 10 = {15.71, 15.44, 15.27}
 *   DR_4's estimate S: 10.2 d + 5 d^2 = {3.51, 2.24, 1.07}
 * Trigger 4:
 *   game (estimate): a = {19.22, 17.68, 16.34}, sum 53.24:
 *     1/f = {2.770, 3.011, 3.258}: tags {7, 8, 8}, credits
 *     {3 - 53.24/19.22, 4 - 53.24/17.68, 4 - 53.24/16.34}
 *   game, feedback source (DR_4 counts 0 until confirmed):
 *     a = {15.71, 15.44, 15.27}, sum 46.42: 1/f = {2.955, 3.006, 3.040},
 *     tags {7, 8, 8}
 *   since-last: each was last sent DR_1 before this trigger, when its error
 *     was 0: the same weights as game, with either source
 *   relative: exact estimates make every A - S zero: uniform, tags {7, 7, 7}
 * Trigger 7: receiver 1 alone is sent DR_7 (from DR_4, so S = 3.51 again)
 * after DR_5 (5.2) and DR_6 (10) were skipped; receivers 2 and 3 add 15.2.
 *   game: a = {37.93, 32.88, 31.54}, sum 102.35; receiver 1:
 *     102.35/37.93 - 0.22997 = 2.46842: gap 3 (tag 10), credit 0.53158
 *   game, feedback: a = {34.42, 32.88, 31.54} (DR_7 not counted), sum
 *     98.84: 98.84/34.42 - 0.04519 = 2.82639: tag 10, credit 0.17361
 *   since-last: receiver 1 since DR_4's commit (acc then 15.71), 2 and 3
 *     since theirs (15.44, 15.27): a = {22.22, 17.44, 16.27}, sum 55.93:
 *     55.93/22.22 - 0.22997 = 2.28713: tag 10, credit 0.71287
 *   since-last, feedback: a = {18.71, 17.44, 16.27}, sum 52.42:
 *     52.42/18.71 - 0.04519 = 2.75652: tag 10, credit 0.24348
 *   relative: uniform again, all three sent at 7: tag 10, credit 0 */
typedef struct DetCase {
    FairAccumulated acc;
    FairErrorSource src;
    int64_t tag[3];
    double credit[3]; /* < 0: not checked */
    double credit7;   /* receiver 1's credit after trigger 7 (tag 10) */
} DetCase;

static void det_case(const DetCase *c)
{
    Fixture fx;
    fixture_init(&fx, 12.0);
    fx.cfg.readings.accumulated = c->acc;
    fx.cfg.readings.error_source = c->src;
    FairSim *s = new_sim(&fx.cfg, "budget-det");
    const BudgetState *b = fairsim_algo_state(s);
    step_past_trigger(s, 1);
    for (int m = 0; m < 3; m++) {
        assert_int_equal(b->b.placed[m], 1); /* DR_1 to everyone */
        assert_int_equal(b->tag[m], 4);
    }
    step_past_trigger(s, 3);
    for (int m = 0; m < 3; m++)
        assert_int_equal(b->b.placed[m], 1); /* DR_2, DR_3 to nobody */
    assert_int_equal(fairsim_sent(s), 3);
    step_past_trigger(s, 4);
    for (int m = 0; m < 3; m++) {
        assert_int_equal(b->b.placed[m], 4);
        if (b->tag[m] != c->tag[m])
            fail_msg("reading %d/%d: receiver %d tagged at %lld, expected %lld", (int)c->acc, (int)c->src, m + 1,
                     (long long)b->tag[m], (long long)c->tag[m]);
        if (c->credit[m] >= 0 && fabs(b->credit[m] - c->credit[m]) > 1e-6)
            fail_msg("reading %d/%d: receiver %d credit %.6f, expected %.6f", (int)c->acc, (int)c->src, m + 1,
                     b->credit[m], c->credit[m]);
    }
    /* each receiver keeps DR_4 until its tag and gets that trigger's vector */
    for (int64_t k = 5; k <= 7; k++) {
        step_past_trigger(s, k);
        for (int m = 0; m < 3; m++)
            if (k <= c->tag[m])
                assert_int_equal(b->b.placed[m], k < c->tag[m] ? 4 : k);
    }
    assert_int_equal(b->tag[0], 10);
    if (fabs(b->credit[0] - c->credit7) > 1e-6)
        fail_msg("reading %d/%d: receiver 1 credit at trigger 7 %.6f, expected %.6f", (int)c->acc, (int)c->src,
                 b->credit[0], c->credit7);
    fairsim_free(s);
    fixture_free(&fx);
}

static void det_readings(void **state)
{
    (void)state;
    const double game[3] = {3 - 53.24 / 19.22, 4 - 53.24 / 17.68, 4 - 53.24 / 16.34};
    const double fed[3] = {3 - 46.42 / 15.71, 4 - 46.42 / 15.44, 4 - 46.42 / 15.27};
    const double c1g = game[0], c1f = fed[0];
    const DetCase cases[] = {
        {FAIR_ACC_GAME, FAIR_ERR_ESTIMATE, {7, 8, 8}, {game[0], game[1], game[2]}, 3 - (102.35 / 37.93 - c1g)},
        {FAIR_ACC_GAME, FAIR_ERR_FEEDBACK, {7, 8, 8}, {fed[0], fed[1], fed[2]}, 3 - (98.84 / 34.42 - c1f)},
        {FAIR_ACC_SINCE_LAST, FAIR_ERR_ESTIMATE, {7, 8, 8}, {game[0], game[1], game[2]}, 3 - (55.93 / 22.22 - c1g)},
        {FAIR_ACC_SINCE_LAST, FAIR_ERR_FEEDBACK, {7, 8, 8}, {fed[0], fed[1], fed[2]}, 3 - (52.42 / 18.71 - c1f)},
        {FAIR_ACC_RELATIVE, FAIR_ERR_ESTIMATE, {7, 7, 7}, {-1, -1, -1}, 0.0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        det_case(&cases[i]);
}

/* The relative reading with wrong delay estimates: every estimate starts
 * at 0 and (gain 1e-12) stays there, so S = 0 and R = A - S is each sent
 * vector's whole before-export error. At trigger 4 only DR_1's feedback is
 * in (DR_4's is still travelling): R = sqrt2 (0.2 d + 5 d^2) =
 * sqrt2 {0.51, 0.24, 0.07}, sum 0.82: 1/f = {1.608, 3.417, 11.714}, tags
 * {6, 8, 16}. The game reading on the same run counts DR_2 and DR_3's
 * exact error too: a = sqrt2 {15.71, 15.44, 15.27} (DR_4's S is 0),
 * tags {7, 8, 8}. */
static void relative_reading_with_wrong_estimates(void **state)
{
    (void)state;
    const FairAccumulated acc[2] = {FAIR_ACC_RELATIVE, FAIR_ACC_GAME};
    const int64_t tags[2][3] = {{6, 8, 16}, {7, 8, 8}};
    for (int k = 0; k < 2; k++) {
        Fixture fx;
        fixture_init(&fx, 12.0);
        fx.cfg.readings.accumulated = acc[k];
        fx.cfg.ewma_gain = 1e-12;
        FairSim *s = new_sim(&fx.cfg, "budget-det");
        BudgetState *b = fairsim_algo_state(s);
        for (int m = 0; m < 3; m++)
            b->b.dt_us[m] = 0.0;
        step_past_trigger(s, 4);
        for (int m = 0; m < 3; m++) {
            double d = (3 - m) * 0.1, r = SQRT2 * (0.2 * d + 5 * d * d);
            if (fabs(b->b.rel[m] - r) > 1e-9)
                fail_msg("receiver %d: R %.12g, expected %.12g", m + 1, b->b.rel[m], r);
            assert_int_equal(b->tag[m], tags[k][m]);
        }
        fairsim_free(s);
        fixture_free(&fx);
    }
}

/* belief_weights on a hand-set belief: acc {6, 3, 1}, R {-0.5, 0.25, 1},
 * acc at the last send {2, 3, 0}. */
static void weights_and_draws(void **state)
{
    (void)state;
    FairBelief b;
    memset(&b, 0, sizeof b);
    b.n = 3;
    const double acc[3] = {6, 3, 1}, rel[3] = {-0.5, 0.25, 1}, at_send[3] = {2, 3, 0};
    memcpy(b.acc, acc, sizeof acc);
    memcpy(b.rel, rel, sizeof rel);
    memcpy(b.acc_at_send, at_send, sizeof at_send);
    double w[3], f[3];
    b.weight = FAIR_ACC_GAME;
    belief_weights(&b, w);
    assert_true(w[0] == 6 && w[1] == 3 && w[2] == 1);
    /* f = {0.6, 0.3, 0.1}: budget-det tags 2, 4 and 10 triggers later */
    budget_frequencies(w, 3, 1.0, f);
    double credit = 0;
    assert_int_equal(budget_det_gap(f[0], &credit), 2);
    credit = 0;
    assert_int_equal(budget_det_gap(f[1], &credit), 4);
    credit = 0;
    assert_int_equal(budget_det_gap(f[2], &credit), 10);
    /* budget-prob, draws fixed: u * 10 falls in [0, 6) [6, 9) [9, 10) */
    const bool none[3] = {false, false, false};
    assert_int_equal(budget_prob_pick(w, none, 3, 0.55), 0);
    assert_int_equal(budget_prob_pick(w, none, 3, 0.65), 1);
    assert_int_equal(budget_prob_pick(w, none, 3, 0.95), 2);
    /* a second draw without the first receiver: u * 4 in [0, 3) [3, 4) */
    const bool first[3] = {true, false, false};
    assert_int_equal(budget_prob_pick(w, first, 3, 0.7), 1);
    assert_int_equal(budget_prob_pick(w, first, 3, 0.8), 2);

    b.weight = FAIR_ACC_RELATIVE;
    belief_weights(&b, w);
    assert_true(w[0] == -0.5 && w[1] == 0.25 && w[2] == 1);
    /* clipped at 0: f = {0, 0.2, 0.8}; receiver 1 is held at the floor
     * frequency 1/1000, receiver 3 every 1.25 triggers (gap 2, credit 0.75) */
    budget_frequencies(w, 3, 1.0, f);
    assert_true(f[0] == 0.0 && fabs(f[1] - 0.2) < 1e-15 && fabs(f[2] - 0.8) < 1e-15);
    credit = 0;
    assert_int_equal(budget_det_gap(f[0], &credit), 1000);
    credit = 0;
    assert_int_equal(budget_det_gap(f[2], &credit), 2);
    assert_true(fabs(credit - 0.75) < 1e-12);
    /* u * 1.25 in [0, 0.25) for receiver 2, [0.25, 1.25) for receiver 3 */
    assert_int_equal(budget_prob_pick(w, none, 3, 0.1), 1);
    assert_int_equal(budget_prob_pick(w, none, 3, 0.5), 2);

    b.weight = FAIR_ACC_SINCE_LAST;
    belief_weights(&b, w);
    assert_true(w[0] == 4 && w[1] == 0 && w[2] == 1);
    /* a receiver already sent at this trigger counts since the send before
     * (acc was 1 then): 6 - 1 */
    b.sched[0] = true;
    b.acc_at_prev_send[0] = 1;
    belief_weights(&b, w);
    assert_true(w[0] == 5 && w[1] == 0 && w[2] == 1);
    b.sched[0] = false;
    belief_weights(&b, w);
    /* u * 5 in [0, 4) for receiver 1, [4, 5) for receiver 3; never 2 */
    assert_int_equal(budget_prob_pick(w, none, 3, 0.7), 0);
    assert_int_equal(budget_prob_pick(w, none, 3, 0.85), 2);
    assert_int_equal(budget_prob_pick(w, none, 3, 0.8), 2);
    /* nothing left with a weight: the caller draws uniformly */
    const bool two_gone[3] = {true, false, true};
    assert_int_equal(budget_prob_pick(w, two_gone, 3, 0.3), -1);
}

/* base-third's cycle: DR_1, DR_4, DR_7 (--third-first 1), DR_2, DR_5, DR_8
 * (2) or DR_3, DR_6, DR_9 (3, the default) to all three receivers. The
 * nearest receiver (100 ms) at t = 2.0 s: with DR_1 sent it erred only
 * while DR_1 travelled, sqrt2 (0.2 * 0.1 + 5 * 0.01) = 0.07 sqrt2; without
 * it, DR_1 against DR_0 from 1.02 to 2.0 s: sqrt2 (0.2 * 0.98 + 5 * 0.98^2)
 * = 4.998 sqrt2. */
static void third_cycle(void **state)
{
    (void)state;
    for (int first = 1; first <= 3; first++) {
        Fixture fx;
        fixture_init(&fx, 10.0);
        fx.cfg.readings.third_first = first;
        FairSim *s = new_sim(&fx.cfg, "base-third");
        FairSeries out;
        NrError err = {{0}};
        assert_true(fairsim_run(s, &out, &err));
        for (int k = 1; k <= 9; k++) {
            /* snapshot k + 0.1 s: every copy of DR_k has left at T_k */
            int64_t sent = 3 * (k >= first ? (k - first) / 3 + 1 : 0);
            assert_true(fabs(out.t_s[10 * k + 1] - (k + 0.1)) < 1e-9);
            if (out.dr_sent[10 * k + 1] != sent)
                fail_msg("first %d, trigger %d: %lld sent, expected %lld", first, k,
                         (long long)out.dr_sent[10 * k + 1], (long long)sent);
        }
        double near = out.err[20 * 3 + 2]; /* t = 2.0 s, receiver 3 */
        double want = first == 1 ? 0.07 * SQRT2 : (0.2 * 0.98 + 5 * 0.98 * 0.98) * SQRT2;
        if (fabs(near - want) > 1e-9)
            fail_msg("first %d: receiver 3 at 2.0 s %.12g, expected %.12g", first, near, want);
        fairseries_free(&out);
        fairsim_free(s);
        fixture_free(&fx);
    }
}

/* BZFlag's reading of a trigger: a straight path never exceeds the
 * threshold, so only the heartbeat triggers: every 1000 ms (samples every
 * 20 ms fall on it) gives DR vectors at 1, 2, ..., 9 s of a 9.9 s run; every
 * 300 ms gives 0.3, 0.6, ..., 9.9 s: 33. */
static void heartbeat_triggers(void **state)
{
    (void)state;
    static const double speeds[] = {10}, heads[] = {0.5};
    Fixture fx;
    fixture_init(&fx, 12.0);
    recording_free(&fx.rec);
    NrError err = {{0}};
    assert_true(synthpath_segments(&fx.rec, 12.0, 20, 1000, speeds, heads, 1, &err));
    fx.cfg.duration_us = 9900000;
    assert_int_equal(fair_count_triggers(&fx.cfg, 0.25), 0);
    fx.cfg.readings.heartbeat_us = 1000000;
    assert_int_equal(fair_count_triggers(&fx.cfg, 0.25), 9);
    fx.cfg.readings.heartbeat_us = 300000;
    assert_int_equal(fair_count_triggers(&fx.cfg, 0.25), 33);
    /* the simulation triggers where the count says, and base sends each */
    FairSim *s = new_sim(&fx.cfg, "base");
    FairSeries out;
    assert_true(fairsim_run(s, &out, &err));
    assert_int_equal(out.triggers, 33);
    assert_int_equal(out.dr_sent[out.nsnap - 1], 99);
    assert_true(out.mean[out.nsnap - 1] < 1e-9); /* every vector exact: no error */
    fairseries_free(&out);
    fairsim_free(s);
    fixture_free(&fx);
}

/* --measure-from: the series starts at 5.0 s at zero and is the full run's
 * series minus its value at 5.0 s, vectors sent included. */
static void measure_from(void **state)
{
    (void)state;
    Fixture fx;
    fixture_init(&fx, 10.0);
    FairSeries full, late;
    NrError err = {{0}};
    FairSim *s = new_sim(&fx.cfg, "base-third");
    assert_true(fairsim_run(s, &full, &err));
    fairsim_free(s);
    fx.cfg.readings.measure_from_us = 5050000; /* rounded down to 5.0 s */
    s = new_sim(&fx.cfg, "base-third");
    assert_true(fairsim_run(s, &late, &err));
    fairsim_free(s);
    assert_int_equal(full.nsnap, 101);
    assert_int_equal(late.nsnap, 51);
    for (int k = 0; k < late.nsnap; k++) {
        assert_true(fabs(late.t_s[k] - full.t_s[k + 50]) < 1e-12);
        assert_int_equal(late.dr_sent[k], full.dr_sent[k + 50] - full.dr_sent[50]);
        for (int m = 0; m < 3; m++)
            assert_true(fabs(late.err[k * 3 + m] - (full.err[(k + 50) * 3 + m] - full.err[50 * 3 + m])) < 1e-9);
    }
    assert_true(late.err[0] == 0.0 && late.dr_sent[0] == 0);
    fairseries_free(&full);
    fairseries_free(&late);
    /* a start at or past the end is refused */
    fx.cfg.readings.measure_from_us = 10000000;
    assert_null(fairsim_new(&fx.cfg, fair_algo_find("base"), &err));
    assert_non_null(strstr(err.msg, "measuring from"));
    fixture_free(&fx);
}

/* Section 5.1 step a) read literally: t' = n t / B triggers. On a smooth
 * path the lowered threshold reaches them; on the staircase no threshold
 * adds a trigger (the vectors are exact between turns) and the shortfall is
 * reported. */
static void auto_budget_threshold(void **state)
{
    (void)state;
    Fixture fx;
    fixture_init(&fx, 10.0);
    FairExperiment ex;
    memset(&ex, 0, sizeof ex);
    ex.cfg = fx.cfg;
    ex.algos[0] = fair_algo_find("base");
    ex.algos[1] = fair_algo_find("budget-det");
    ex.nalgos = 2;
    ex.runs = 1;
    ex.budget_threshold_auto = true;
    FairResults r;
    NrError err = {{0}};
    assert_true(fair_experiment_run(&ex, &r, &err));
    assert_int_equal(r.budget_triggers_want, 27); /* 3 receivers x 9 triggers / B = 1 */
    assert_int_equal(r.budget_triggers_got, 9);
    assert_int_equal(r.series[1].triggers, 9);
    fair_results_free(&r);
    fixture_free(&fx);

    Recording smooth;
    assert_true(synthpath_make(&smooth, 4, 20.0, 33, &err));
    ex.cfg.rec = &smooth;
    assert_true(fair_experiment_run(&ex, &r, &err));
    FairConfig at = ex.cfg;
    at.duration_us = 19900000; /* 19.998 s of samples, whole snapshots */
    int64_t t = fair_count_triggers(&at, 0.25);
    assert_true(t > 20);
    assert_int_equal(r.series[0].triggers, t);
    assert_int_equal(r.budget_triggers_want, 3 * t);
    assert_true(r.budget_threshold_cw < 0.25);
    assert_true(r.budget_triggers_got >= 3 * t);
    assert_int_equal(fair_count_triggers(&at, r.budget_threshold_cw), r.budget_triggers_got);
    assert_int_equal(r.series[1].triggers, r.budget_triggers_got);
    fair_results_free(&r);
    recording_free(&smooth);
}

/* The error source on the staircase, budget-det, in sqrt2 cw*s: right
 * after trigger 4 the estimate source has counted DR_4's estimate S =
 * {3.51, 2.24, 1.07} on top of the {15.71, 15.44, 15.27} accumulated so
 * far; the feedback source has not. Once the feedback is in (each
 * receiver's DR_4 arrives at T_4 + d and its feedback at once), both hold
 * the true error {19.22, 17.68, 16.34}. */
static void error_source_counts_on_confirmation(void **state)
{
    (void)state;
    const double before[3] = {15.71, 15.44, 15.27}, after[3] = {19.22, 17.68, 16.34};
    for (int src = 0; src < 2; src++) {
        Fixture fx;
        fixture_init(&fx, 6.0);
        fx.cfg.readings.error_source = (FairErrorSource)src;
        FairSim *s = new_sim(&fx.cfg, "budget-det");
        const BudgetState *b = fairsim_algo_state(s);
        step_past_trigger(s, 4);
        for (int m = 0; m < 3; m++) {
            double want = src == FAIR_ERR_FEEDBACK ? before[m] : after[m];
            if (fabs(b->b.acc[m] - want * SQRT2) > 1e-9)
                fail_msg("source %d receiver %d at trigger 4: %.12g, expected %.12g", src, m + 1, b->b.acc[m],
                         want * SQRT2);
        }
        while (fairsim_now_us(s) < 4400000) /* T_4 + 300 ms has passed */
            assert_true(fairsim_step(s));
        for (int m = 0; m < 3; m++) {
            assert_true(fabs(b->b.acc[m] - after[m] * SQRT2) < 1e-9);
            assert_true(fabs(fairsim_true_error(s, m) - after[m] * SQRT2) < 1e-9);
        }
        fairsim_free(s);
        fixture_free(&fx);
    }
}

/* tank-arcs: the same draws as tank, but a turn keeps the run's speed, so
 * the tank moves on every turn and linear dead reckoning triggers along
 * each arc (radius 11.4 cw at 8.93 cw/s: 0.25 cw of error after about
 * sqrt(2 * 0.25 / (v w)) = 0.27 s), many more times than the tank that
 * turns in place. */
static void tank_arcs(void **state)
{
    (void)state;
    Recording a, b;
    NrError err = {{0}};
    assert_true(synthpath_tank(&a, 2, 60.0, 33, &err));
    assert_true(synthpath_tank_arcs(&b, 2, 60.0, 33, &err));
    assert_string_equal(b.source, "tank-arcs");
    int turning_moves = 0;
    for (int i = 1; i < b.nsamples; i++) {
        const RecSample *p = recording_at(&b, 0, i - 1), *q = recording_at(&b, 0, i);
        /* never faster than the tank */
        assert_true(hypot(q->x - p->x, q->y - p->y) <= SYNTH_TANK_SPEED_CW * 0.033 + 1e-9);
        if (q->speed > 0 && fabs(nr_wrap_angle(q->heading - p->heading)) > 0.02)
            turning_moves++;
    }
    assert_true(turning_moves > 100); /* several seconds of arcs */
    FairConfig c;
    memset(&c, 0, sizeof c);
    c.rec = &a;
    c.duration_us = 60000000;
    int64_t in_place = fair_count_triggers(&c, 0.25);
    c.rec = &b;
    int64_t arcs = fair_count_triggers(&c, 0.25);
    assert_true(arcs > 2 * in_place);
    recording_free(&a);
    recording_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(staircase_triggers),
        cmocka_unit_test(det_readings),
        cmocka_unit_test(relative_reading_with_wrong_estimates),
        cmocka_unit_test(weights_and_draws),
        cmocka_unit_test(third_cycle),
        cmocka_unit_test(heartbeat_triggers),
        cmocka_unit_test(measure_from),
        cmocka_unit_test(auto_budget_threshold),
        cmocka_unit_test(error_source_counts_on_confirmation),
        cmocka_unit_test(tank_arcs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
