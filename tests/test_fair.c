/* One sender, N receivers: fairness algorithms against the paper's
 * invariants (Theorem 4.1, Section 4.4's equal-delay case, Section 5.2's
 * credit arithmetic, Section 5.1's budget) and the accuracy paper's
 * after export error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy.h"
#include "fair_budget.h"
#include "fair_schedule.h"
#include "fairsim.h"
#include "synthpath.h"

static void parse_specs(LinkSpec *specs, int n, const char *const *texts)
{
    for (int m = 0; m < n; m++) {
        NrError err = {{0}};
        if (!linkspec_parse(&specs[m], texts[m], NULL, &err))
            fail_msg("%s", err.msg);
    }
}

static void free_specs(LinkSpec *specs, int n)
{
    for (int m = 0; m < n; m++)
        linkspec_free(&specs[m]);
}

static void base_config(FairConfig *c, const Recording *rec, int n, const LinkSpec *fwd, const LinkSpec *rev)
{
    memset(c, 0, sizeof *c);
    c->rec = rec;
    c->nrecv = n;
    c->fwd = fwd;
    c->rev = rev;
    c->seed = 7;
}

/* Piecewise straight path: the velocity changes every 2 s, so each change
 * gives one trigger and every vector (and its feedback) arrives before the
 * next one: the situation of Theorem 4.1's proof. */
static void segment_path(Recording *rec)
{
    static const double speeds[] = {10, 6, 12, 8, 14};
    static const double heads[] = {0.0, 1.2, -0.7, 2.5, 0.4};
    NrError err = {{0}};
    if (!synthpath_segments(rec, 30.0, 33, 2000, speeds, heads, 5, &err))
        fail_msg("%s", err.msg);
}

static void check_theorem_4_1(const char *const *fwd_t, const char *const *rev_t)
{
    Recording rec;
    segment_path(&rec);
    LinkSpec fwd[3], rev[3];
    parse_specs(fwd, 3, fwd_t);
    parse_specs(rev, 3, rev_t);
    FairConfig c;
    base_config(&c, &rec, 3, fwd, rev);
    NrError err = {{0}};
    FairSim *s = fairsim_new(&c, fair_algo_find("fair-schedule"), &err);
    assert_non_null(s);
    FairScheduleState *f = fairsim_algo_state(s);
    int64_t seen = 0, checked = 0, delayed = 0;
    while (fairsim_step(s)) {
        if (f->schedules == seen)
            continue;
        seen = f->schedules;
        /* The sender's accumulated error (estimates corrected by feedback)
         * is the true accumulated export error of each receiver ... */
        for (int m = 0; m < 3; m++) {
            double truth = fairsim_true_error(s, m);
            if (fabs(f->acc_before[m] - truth) > 1e-9 * (1.0 + truth))
                fail_msg("schedule %lld receiver %d: belief %.12g, true %.12g", (long long)seen, m,
                         f->acc_before[m], truth);
        }
        /* ... and accumulated error plus estimate is equal across receivers
         * (Theorem 4.1), up to the whole-microsecond delta. */
        for (int m = 0; m < 3; m++) {
            assert_false(f->capped[m]);
            if (fabs(f->e_after[m] - f->e_after[0]) > 1e-4)
                fail_msg("schedule %lld: E_%d = %.9g, E_0 = %.9g", (long long)seen, m, f->e_after[m],
                         f->e_after[0]);
        }
        /* the receiver with the largest E (the farthest at first) is not delayed */
        int zero = 0;
        for (int m = 0; m < 3; m++) {
            zero += f->delta_us[m] == 0;
            delayed += f->delta_us[m] > 1000;
        }
        assert_true(zero >= 1);
        checked++;
    }
    assert_true(checked >= 10);
    assert_true(delayed >= checked); /* the near receivers were held back */
    fairsim_free(s);
    free_specs(fwd, 3);
    free_specs(rev, 3);
    recording_free(&rec);
}

/* Deterministic delays: the estimates are exact. */
static void theorem_4_1(void **state)
{
    (void)state;
    const char *const fwd_t[] = {"delay 300ms", "delay 100ms", "delay 200ms"};
    const char *const rev_t[] = {"delay 150ms", "delay 50ms", "delay 250ms"};
    check_theorem_4_1(fwd_t, rev_t);
}

/* Jittered delays: the estimates are wrong, and only the feedback's
 * relative export error (A - S) brings the belief back to the truth. */
static void theorem_4_1_inexact(void **state)
{
    (void)state;
    const char *const fwd_t[] = {"delay 300ms 80ms", "delay 100ms 60ms", "delay 200ms 90ms"};
    const char *const rev_t[] = {"delay 150ms 40ms", "delay 50ms 20ms", "delay 250ms 90ms"};
    check_theorem_4_1(fwd_t, rev_t);
}

/* Every algorithm that keeps a belief (fair-schedule, budget-prob,
 * budget-det): when each vector and its feedback arrive before the next
 * trigger, the sender's accumulated error of every receiver (including the
 * exact error of vectors it skipped or flushed) is the true one. */
static void belief_is_truth(void **state)
{
    (void)state;
    static const char *const names[] = {"fair-schedule", "budget-prob", "budget-det"};
    Recording rec;
    segment_path(&rec);
    const char *const fwd_t[] = {"delay 300ms 80ms", "delay 100ms 60ms", "delay 200ms 90ms"};
    LinkSpec fwd[3];
    parse_specs(fwd, 3, fwd_t);
    FairConfig c;
    base_config(&c, &rec, 3, fwd, fwd);
    for (int k = 0; k < 3; k++) {
        NrError err = {{0}};
        FairSim *s = fairsim_new(&c, fair_algo_find(names[k]), &err);
        assert_non_null(s);
        /* both state structs start with their FairBelief */
        const FairBelief *b = fairsim_algo_state(s);
        int64_t seen = 0;
        while (fairsim_step(s)) {
            if (b->triggers == seen)
                continue;
            seen = b->triggers;
            for (int m = 0; m < 3; m++) {
                double truth = fairsim_true_error(s, m);
                if (fabs(b->acc_at_trigger[m] - truth) > 1e-9 * (1.0 + truth))
                    fail_msg("%s trigger %lld receiver %d: belief %.12g, true %.12g", names[k], (long long)seen,
                             m, b->acc_at_trigger[m], truth);
            }
        }
        assert_true(seen >= 10);
        assert_true(fairsim_true_error(s, 0) > 0.0);
        fairsim_free(s);
    }
    free_specs(fwd, 3);
    recording_free(&rec);
}

/* Test algorithms built on the belief: every receiver is scheduled with a
 * fixed delta (10 s: always flushed by the next trigger; 0: sent at once). */
typedef struct FixedDelta {
    FairBelief b;
} FixedDelta;

static bool fixed_init(void *st, FairSim *s, NrError *err)
{
    (void)err;
    belief_init(&((FixedDelta *)st)->b, s);
    return true;
}

static void late_trigger(void *st, FairSim *s, int64_t id, int64_t t_us)
{
    (void)id;
    (void)t_us;
    FixedDelta *f = st;
    belief_begin_trigger(&f->b, s);
    for (int m = 0; m < fairsim_nrecv(s); m++)
        belief_commit(&f->b, s, m, 10 * NR_US_PER_S);
}

static void now_trigger(void *st, FairSim *s, int64_t id, int64_t t_us)
{
    (void)id;
    (void)t_us;
    FixedDelta *f = st;
    belief_begin_trigger(&f->b, s);
    for (int m = 0; m < fairsim_nrecv(s); m++)
        belief_commit(&f->b, s, m, 0);
}

static void fixed_feedback(void *st, FairSim *s, int m, int64_t id, int64_t send_us, int64_t da_us)
{
    belief_feedback(&((FixedDelta *)st)->b, s, m, id, send_us, da_us);
}

static const FairAlgo always_flushed = {
    .name = "test-flushed", .state_size = sizeof(FixedDelta), .init = fixed_init,
    .on_trigger = late_trigger, .on_feedback = fixed_feedback,
};
static const FairAlgo send_now = {
    .name = "test-now", .state_size = sizeof(FixedDelta), .init = fixed_init,
    .on_trigger = now_trigger, .on_feedback = fixed_feedback,
};

/* Section 4.6, first case: a schedule flushed by the next trigger is never
 * sent, and the sender counts exactly Err(DR_i, T_i, T_i+1) for it instead
 * of its estimate: the belief is the truth at every trigger. */
static void flushed_schedule_is_exact(void **state)
{
    (void)state;
    Recording rec;
    NrError err = {{0}};
    assert_true(synthpath_make(&rec, 21, 20.0, 33, &err));
    const char *const t[] = {"delay 300ms 100ms", "delay 50ms"};
    LinkSpec fwd[2];
    parse_specs(fwd, 2, t);
    FairConfig c;
    base_config(&c, &rec, 2, fwd, fwd);
    FairSim *s = fairsim_new(&c, &always_flushed, &err);
    assert_non_null(s);
    const FairBelief *b = fairsim_algo_state(s);
    int64_t seen = 0;
    while (fairsim_step(s)) {
        if (b->triggers == seen)
            continue;
        seen = b->triggers;
        for (int m = 0; m < 2; m++) {
            double truth = fairsim_true_error(s, m);
            if (fabs(b->acc_at_trigger[m] - truth) > 1e-9 * (1.0 + truth))
                fail_msg("trigger %lld receiver %d: belief %.12g, true %.12g", (long long)seen, m,
                         b->acc_at_trigger[m], truth);
        }
    }
    assert_true(seen > 20);
    assert_true(fairsim_sent(s) == 0);
    fairsim_free(s);
    free_specs(fwd, 2);
    recording_free(&rec);
}

/* Section 4.6, second case: feedback 3 s late (after later triggers) is
 * folded in when it arrives; once every feedback is in, the belief is the
 * truth again. Segments 4 and 5 have the same velocity, so the path has a
 * 4 s gap without triggers at its end. */
static void late_feedback_is_folded_in(void **state)
{
    (void)state;
    static const double speeds[] = {10, 6, 12, 8, 8};
    static const double heads[] = {0.0, 1.2, -0.7, 2.5, 2.5};
    Recording rec;
    NrError err = {{0}};
    assert_true(synthpath_segments(&rec, 30.0, 33, 2000, speeds, heads, 5, &err));
    const char *const fwd_t[] = {"delay 300ms 100ms", "delay 100ms 60ms"};
    const char *const rev_t[] = {"delay 3s", "delay 3500ms"};
    LinkSpec fwd[2], rev[2];
    parse_specs(fwd, 2, fwd_t);
    parse_specs(rev, 2, rev_t);
    FairConfig c;
    base_config(&c, &rec, 2, fwd, rev);
    FairSim *s = fairsim_new(&c, &send_now, &err);
    assert_non_null(s);
    const FairBelief *b = fairsim_algo_state(s);
    int64_t seen = 0;
    int differ = 0;
    while (fairsim_step(s)) {
        if (b->triggers == seen)
            continue;
        seen = b->triggers;
        for (int m = 0; m < 2; m++)
            differ += fabs(b->acc_at_trigger[m] - fairsim_true_error(s, m)) > 1e-6;
    }
    assert_true(differ > 0); /* estimates were pending at triggers */
    /* last trigger at 26 s, feedback in by 26 + 0.4 + 3.5 s < 29.9 s */
    assert_true(fairsim_now_us(s) >= 29900000);
    for (int m = 0; m < 2; m++) {
        double truth = fairsim_true_error(s, m);
        if (fabs(b->acc[m] - truth) > 1e-9 * (1.0 + truth))
            fail_msg("receiver %d: belief %.12g, true %.12g", m, b->acc[m], truth);
    }
    fairsim_free(s);
    free_specs(fwd, 2);
    free_specs(rev, 2);
    recording_free(&rec);
}

/* The ring of records awaiting feedback is full of vectors that will never
 * be answered (255 lost ones, prefilled here): a new record must push out
 * the oldest, not one still awaiting its feedback. Triggers every second for
 * 19 s, feedback 2.5 s back: two real records are outstanding at every
 * trigger; by 29.9 s every feedback is in and the belief is the truth
 * (Section 4.6, second case) -- only if no real record was dropped. */
static void full_ring_drops_the_oldest(void **state)
{
    (void)state;
    double speeds[30], heads[30];
    for (int k = 0; k < 30; k++) {
        speeds[k] = k < 20 ? 6.0 + (k % 4) * 2.0 : 9.0;
        heads[k] = k < 20 ? 0.5 * k : 1.0;
    }
    Recording rec;
    NrError err = {{0}};
    assert_true(synthpath_segments(&rec, 30.0, 33, 1000, speeds, heads, 30, &err));
    const char *const fwd_t[] = {"delay 300ms 100ms", "delay 100ms"};
    const char *const rev_t[] = {"delay 2500ms", "delay 2500ms"};
    LinkSpec fwd[2], rev[2];
    parse_specs(fwd, 2, fwd_t);
    parse_specs(rev, 2, rev_t);
    FairConfig c;
    base_config(&c, &rec, 2, fwd, rev);
    FairSim *s = fairsim_new(&c, &send_now, &err);
    assert_non_null(s);
    FairBelief *b = fairsim_algo_state(s);
    for (int m = 0; m < 2; m++) {
        for (int k = 0; k < BELIEF_RING - 1; k++)
            b->rec[m][k] = (BeliefRec){.id = -1 - k, .prev_id = 0, .send_us = 0, .s = 0.0};
        b->nrec[m] = BELIEF_RING - 1;
    }
    while (fairsim_step(s)) {
    }
    assert_true(b->triggers >= 15);
    assert_true(b->dropped > 0);
    for (int m = 0; m < 2; m++) {
        double truth = fairsim_true_error(s, m);
        if (fabs(b->acc[m] - truth) > 1e-9 * (1.0 + truth))
            fail_msg("receiver %d: belief %.12g, true %.12g", m, b->acc[m], truth);
    }
    fairsim_free(s);
    free_specs(fwd, 2);
    free_specs(rev, 2);
    recording_free(&rec);
}

static void run_algo(const char *name, const FairConfig *c, FairSeries *out)
{
    NrError err = {{0}};
    FairSim *s = fairsim_new(c, fair_algo_find(name), &err);
    if (!s)
        fail_msg("%s", err.msg);
    if (!fairsim_run(s, out, &err))
        fail_msg("%s", err.msg);
    fairsim_free(s);
}

/* Hand computation. The sender drives +x at 10 cw/s and turns to +y at
 * t = 2 s. Samples every 33 ms: at 2.013 s the prediction error is 0.184 cw,
 * at 2.046 s it is |(20, 0.46) - (20.46, 0)| = 0.65 > 0.25: DR_1 =
 * (2.046 s, 20, 0.46, 0, 10). Until a receiver places it, the distance to
 * DR_0 is |(-0.46 - 10u, 0.46 + 10u)| = sqrt(2) (0.46 + 10u), so a receiver
 * at delay d accumulates sqrt(2) (0.46 d + 5 d^2). */
static void one_turn_hand_value(void **state)
{
    (void)state;
    static const double speeds[] = {10, 10};
    static const double heads[] = {0.0, NR_PI / 2};
    Recording rec;
    NrError err = {{0}};
    assert_true(synthpath_segments(&rec, 3.0, 33, 2000, speeds, heads, 2, &err));
    const char *const t[] = {"delay 200ms", "delay 500ms"};
    LinkSpec fwd[2];
    parse_specs(fwd, 2, t);
    FairConfig c;
    base_config(&c, &rec, 2, fwd, fwd);
    FairSeries b, f;
    run_algo("base", &c, &b);
    run_algo("fair-schedule", &c, &f);
    assert_int_equal(b.triggers, 1);
    int k = b.nsnap - 1; /* 2.9 s: both vectors long arrived */
    assert_true(fabs(b.t_s[k] - 2.9) < 1e-9);
    double e200 = sqrt(2.0) * (0.46 * 0.2 + 5 * 0.04), e500 = sqrt(2.0) * (0.46 * 0.5 + 5 * 0.25);
    assert_true(fabs(b.err[k * 2] - e200) < 1e-9);
    assert_true(fabs(b.err[k * 2 + 1] - e500) < 1e-9);
    /* fair-schedule holds DR_1 back 300 ms from the near receiver: both at
     * the far one's error (to the whole microsecond of delta) */
    assert_true(fabs(f.err[k * 2] - e500) < 1e-4);
    assert_true(fabs(f.err[k * 2 + 1] - e500) < 1e-9);
    assert_true(f.sd[k] < 1e-4);
    assert_true(b.dr_sent[k] == 2 && f.dr_sent[k] == 2);
    fairseries_free(&b);
    fairseries_free(&f);
    free_specs(fwd, 2);
    recording_free(&rec);
}

/* Section 4.4: with no relative error and equal delays every delta is 0, so
 * fair-schedule sends exactly what base sends. */
static void equal_delays_reduce_to_base(void **state)
{
    (void)state;
    Recording rec;
    NrError err = {{0}};
    assert_true(synthpath_make(&rec, 3, 40.0, 33, &err));
    const char *const t[] = {"delay 400ms", "delay 400ms", "delay 400ms", "delay 400ms"};
    LinkSpec fwd[4];
    parse_specs(fwd, 4, t);
    FairConfig c;
    base_config(&c, &rec, 4, fwd, fwd);
    FairSeries a, b;
    run_algo("base", &c, &a);
    run_algo("fair-schedule", &c, &b);
    assert_int_equal(a.nsnap, b.nsnap);
    assert_true(a.triggers > 50);
    for (int k = 0; k < a.nsnap; k++) {
        assert_true(a.dr_sent[k] == b.dr_sent[k]);
        for (int m = 0; m < 4; m++)
            assert_true(a.err[k * 4 + m] == b.err[k * 4 + m]);
    }
    assert_true(a.mean[a.nsnap - 1] > 0.0);
    /* base sends every trigger to every receiver */
    assert_true(a.dr_sent[a.nsnap - 1] == 4 * a.triggers);
    fairseries_free(&a);
    fairseries_free(&b);
    free_specs(fwd, 4);
    recording_free(&rec);
}

/* Section 5.2's example: a frequency of 1/3.5 is sent at the 4th trigger
 * with a credit of 0.5, then at the 3rd, and so on. */
static void credit_example(void **state)
{
    (void)state;
    double credit = 0.0;
    assert_int_equal(budget_det_gap(1.0 / 3.5, &credit), 4);
    assert_true(fabs(credit - 0.5) < 1e-12);
    assert_int_equal(budget_det_gap(1.0 / 3.5, &credit), 3);
    assert_true(fabs(credit) < 1e-12);
    assert_int_equal(budget_det_gap(1.0 / 3.5, &credit), 4);
    /* a whole schedule has no credit: every 2nd trigger */
    credit = 0.0;
    assert_int_equal(budget_det_gap(0.5, &credit), 2);
    assert_true(fabs(credit) < 1e-12);
    /* frequency 1: every trigger */
    assert_int_equal(budget_det_gap(1.0, &credit), 1);
}

static void frequencies(void **state)
{
    (void)state;
    double f[3];
    const double acc1[3] = {1, 1, 2};
    budget_frequencies(acc1, 3, 1.0, f);
    assert_true(fabs(f[0] - 0.25) < 1e-15 && fabs(f[1] - 0.25) < 1e-15 && fabs(f[2] - 0.5) < 1e-15);
    /* budget 2: 1.6 is capped at 1 and 0.6 goes equally to the other two */
    const double acc2[3] = {8, 1, 1};
    budget_frequencies(acc2, 3, 2.0, f);
    assert_true(fabs(f[0] - 1.0) < 1e-15 && fabs(f[1] - 0.5) < 1e-12 && fabs(f[2] - 0.5) < 1e-12);
    /* no error yet: 1/n each */
    const double acc3[3] = {0, 0, 0};
    budget_frequencies(acc3, 3, 1.0, f);
    assert_true(fabs(f[0] - 1.0 / 3) < 1e-15 && fabs(f[2] - 1.0 / 3) < 1e-15);
}

/* Section 5.1: one DR vector per trigger against three vectors every third
 * trigger: the same number of vectors (within one per receiver, once
 * budget-det's first-trigger broadcast is counted). */
static void budget_matches_base_third(void **state)
{
    (void)state;
    Recording rec;
    NrError err = {{0}};
    assert_true(synthpath_make(&rec, 11, 60.0, 33, &err));
    const char *const specs[] = {"delay 800ms 100ms", "delay 500ms 100ms", "delay 200ms 100ms"};
    LinkSpec fwd[3];
    parse_specs(fwd, 3, specs);
    FairConfig c;
    base_config(&c, &rec, 3, fwd, fwd);
    FairSeries third, prob, det;
    run_algo("base-third", &c, &third);
    run_algo("budget-prob", &c, &prob);
    run_algo("budget-det", &c, &det);
    assert_true(third.triggers > 100);
    assert_true(third.triggers == prob.triggers && third.triggers == det.triggers);
    int64_t n3 = third.dr_sent[third.nsnap - 1];
    int64_t np = prob.dr_sent[prob.nsnap - 1];
    int64_t nd = det.dr_sent[det.nsnap - 1];
    int64_t t = third.triggers;
    assert_true(n3 == 3 * (t / 3));
    /* budget-prob: exactly one per trigger, so it differs from base-third
     * only by the last t mod 3 triggers (less than one per receiver) */
    assert_true(np == t);
    assert_true(np - n3 >= 0 && np - n3 < 3);
    /* budget-det: the first trigger goes to all three (Section 5.2, 2 more
     * than the budget of 1); after that it spends the budget of one per
     * trigger, within one per receiver (schedules still running at the end). */
    if (llabs(nd - 2 - t) > 3)
        fail_msg("%lld triggers: base-third %lld, budget-prob %lld, budget-det %lld vectors", (long long)t,
                 (long long)n3, (long long)np, (long long)nd);
    fairseries_free(&third);
    fairseries_free(&prob);
    fairseries_free(&det);
    free_specs(fwd, 3);
    recording_free(&rec);
}

static void same_seed_same_series(void **state)
{
    (void)state;
    Recording rec;
    NrError err = {{0}};
    assert_true(synthpath_make(&rec, 5, 20.1, 33, &err)); /* 20.097 s of samples */
    const char *const t[] = {"delay 800ms 180ms", "delay 200ms 180ms"};
    LinkSpec fwd[2];
    parse_specs(fwd, 2, t);
    FairConfig c;
    base_config(&c, &rec, 2, fwd, fwd);
    for (int i = 0; fair_algos[i]; i++) {
        FairSeries a, b;
        run_algo(fair_algos[i]->name, &c, &a);
        run_algo(fair_algos[i]->name, &c, &b);
        assert_int_equal(a.nsnap, b.nsnap);
        assert_int_equal(a.nsnap, 201); /* 0.0 s to 20.0 s every 100 ms */
        assert_memory_equal(a.err, b.err, sizeof(double) * (size_t)a.nsnap * 2);
        assert_memory_equal(a.dr_sent, b.dr_sent, sizeof(int64_t) * (size_t)a.nsnap);
        for (int k = 1; k < a.nsnap; k++)
            assert_true(a.err[k * 2] >= a.err[(k - 1) * 2]); /* accumulated: never decreases */
        fairseries_free(&a);
        fairseries_free(&b);
    }
    free_specs(fwd, 2);
    recording_free(&rec);
}

/* The summary averages the last snapshot over seeds; the CSV has one row
 * per snapshot with one column per receiver. Hand-built series. */
static void summary_and_csv(void **state)
{
    (void)state;
    double t_s[2] = {0.0, 0.1}, mean[2][2] = {{0, 3}, {0, 5}}, sd[2][2] = {{0, 1}, {0, 2}};
    int64_t sent[2][2] = {{0, 4}, {0, 6}};
    double err[2][4] = {{0, 0, 2, 4}, {0, 0, 4, 6}};
    FairSeries se[2];
    memset(se, 0, sizeof se);
    for (int i = 0; i < 2; i++) {
        snprintf(se[i].algo, sizeof se[i].algo, "base");
        se[i].seed = 10 + (uint64_t)i;
        se[i].nrecv = 2;
        se[i].nsnap = 2;
        se[i].t_s = t_s;
        se[i].mean = mean[i];
        se[i].sd = sd[i];
        se[i].dr_sent = sent[i];
        se[i].err = err[i];
        se[i].triggers = 7 + i;
    }
    FairResults r = {.nseries = 2, .series = se};
    FairSummary rows[4];
    assert_int_equal(fair_results_summary(&r, rows, 4), 1);
    assert_string_equal(rows[0].algo, "base");
    assert_true(rows[0].final_mean == 4.0 && rows[0].final_sd == 1.5 && rows[0].dr_sent == 5.0);
    assert_true(rows[0].triggers == 7.5 && rows[0].final_err[0] == 3.0 && rows[0].final_err[1] == 5.0);
    FILE *f = tmpfile();
    assert_non_null(f);
    NrError e = {{0}};
    assert_true(fair_results_write_csv(&r, f, &e));
    rewind(f);
    char line[256];
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "algorithm,seed,t_s,mean_error,sd_error,dr_sent,err_r1,err_r2\n");
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "base,10,0.000,0,0,0,0,0\n");
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "base,10,0.100,3,1,4,2,4\n");
    int rows_left = 0;
    while (fgets(line, sizeof line, f))
        rows_left++;
    assert_int_equal(rows_left, 2);
    fclose(f);
}

/* Section 5.1 step a): only the budget algorithms run at the lowered
 * threshold; a lower threshold means more triggers. */
static void budget_threshold(void **state)
{
    (void)state;
    Recording rec;
    NrError err = {{0}};
    assert_true(synthpath_make(&rec, 8, 20.0, 33, &err));
    const char *const t[] = {"delay 100ms", "delay 300ms", "delay 500ms"};
    LinkSpec fwd[3];
    parse_specs(fwd, 3, t);
    FairExperiment ex;
    memset(&ex, 0, sizeof ex);
    base_config(&ex.cfg, &rec, 3, fwd, fwd);
    ex.algos[0] = fair_algo_find("base");
    ex.algos[1] = fair_algo_find("budget-det");
    ex.algos[2] = fair_algo_find("base-third");
    ex.nalgos = 3;
    ex.runs = 2;
    FairResults r;
    assert_true(fair_experiment_run(&ex, &r, &err));
    assert_int_equal(r.nseries, 6);
    assert_true(r.series[0].triggers == r.series[2].triggers && r.series[0].triggers == r.series[4].triggers);
    ex.budget_threshold_cw = 0.05;
    FairResults low;
    assert_true(fair_experiment_run(&ex, &low, &err));
    assert_true(low.series[0].triggers == r.series[0].triggers); /* base unchanged */
    assert_true(low.series[4].triggers == r.series[4].triggers); /* base-third unchanged */
    assert_true(low.series[2].triggers > r.series[2].triggers);  /* budget-det: more triggers */
    assert_string_equal(low.series[2].algo, "budget-det");
    assert_true(low.series[2].seed == 7 && low.series[3].seed == 8);
    fair_results_free(&r);
    fair_results_free(&low);
    free_specs(fwd, 3);
    recording_free(&rec);
}

static void bad_config(void **state)
{
    (void)state;
    Recording rec;
    NrError err = {{0}};
    assert_true(synthpath_make(&rec, 5, 5.0, 33, &err));
    LinkSpec fwd[1];
    const char *const t[] = {"delay 10ms"};
    parse_specs(fwd, 1, t);
    FairConfig c;
    base_config(&c, &rec, 0, fwd, fwd);
    assert_null(fairsim_new(&c, fair_algo_find("base"), &err));
    assert_non_null(strstr(err.msg, "receivers"));
    c.nrecv = 65;
    assert_null(fairsim_new(&c, fair_algo_find("base"), &err));
    c.nrecv = 1;
    c.snapshot_us = -5;
    assert_null(fairsim_new(&c, fair_algo_find("base"), &err));
    assert_null(fair_algo_find("nonsense"));
    free_specs(fwd, 1);
    recording_free(&rec);
}

/* Accuracy paper Section 2: with synchronised clocks the placed path equals
 * the exported path once the vector is received: after export error 0. */
static void global_clock_after_error_zero(void **state)
{
    (void)state;
    Recording rec;
    NrError err = {{0}};
    assert_true(synthpath_make(&rec, 9, 30.0, 33, &err));
    const int64_t delays[] = {0, 100000, 300000, 800000};
    AccuracyConfig c = {.rec = &rec, .ndelays = 4, .delay_us = delays};
    AccuracyResult r;
    assert_true(accuracy_run(&c, &r, &err));
    assert_true(r.triggers > 50);
    for (int d = 0; d < 4; d++) {
        assert_true(r.after_global[d] == 0.0);
        if (delays[d] > 0) {
            assert_true(r.after_local[d] > 0.0);
            assert_true(r.before_global[d] > 0.0);
        }
    }
    /* zero delay: both methods place the same path */
    for (int i = 0; i < r.nsamples; i++)
        assert_true(r.local_err[i] == r.global_err[i]);
    accuracy_result_free(&r);
    /* a sender clock 50 ms ahead breaks the global method's after error */
    c.clock_offset_us = 50000;
    assert_true(accuracy_run(&c, &r, &err));
    assert_true(r.after_global[1] > 0.0);
    accuracy_result_free(&r);
    recording_free(&rec);
}

/* Only the difference of the clocks matters to the global method: a sender
 * 40 ms ahead is a receiver 40 ms behind. The local method ignores stamps:
 * clock offsets leave it bit for bit unchanged. */
static void clock_offsets(void **state)
{
    (void)state;
    Recording rec;
    NrError err = {{0}};
    assert_true(synthpath_make(&rec, 4, 20.0, 33, &err));
    const int64_t delays[] = {100000, 300000};
    AccuracyConfig c = {.rec = &rec, .ndelays = 2, .delay_us = delays};
    AccuracyResult perfect, sender, recv;
    assert_true(accuracy_run(&c, &perfect, &err));
    c.clock_offset_us = 40000;
    assert_true(accuracy_run(&c, &sender, &err));
    c.clock_offset_us = 0;
    c.recv_offset_us = -40000;
    assert_true(accuracy_run(&c, &recv, &err));
    size_t n = (size_t)perfect.nsamples * 2;
    assert_memory_equal(perfect.local_err, sender.local_err, n * sizeof(double));
    assert_memory_equal(perfect.local_err, recv.local_err, n * sizeof(double));
    double worst = 0.0;
    for (size_t i = 0; i < n; i++) {
        assert_true(fabs(sender.global_err[i] - recv.global_err[i]) < 1e-9);
        double d = fabs(sender.global_err[i] - perfect.global_err[i]);
        worst = d > worst ? d : worst;
    }
    assert_true(worst > 0.1); /* a 40 ms error at 4..16 cw/s shows */
    accuracy_result_free(&perfect);
    accuracy_result_free(&sender);
    accuracy_result_free(&recv);
    recording_free(&rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(theorem_4_1),
        cmocka_unit_test(theorem_4_1_inexact),
        cmocka_unit_test(belief_is_truth),
        cmocka_unit_test(flushed_schedule_is_exact),
        cmocka_unit_test(late_feedback_is_folded_in),
        cmocka_unit_test(one_turn_hand_value),
        cmocka_unit_test(equal_delays_reduce_to_base),
        cmocka_unit_test(credit_example),
        cmocka_unit_test(frequencies),
        cmocka_unit_test(budget_matches_base_third),
        cmocka_unit_test(same_seed_same_series),
        cmocka_unit_test(summary_and_csv),
        cmocka_unit_test(budget_threshold),
        cmocka_unit_test(bad_config),
        cmocka_unit_test(global_clock_after_error_zero),
        cmocka_unit_test(clock_offsets),
        cmocka_unit_test(full_ring_drops_the_oldest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
