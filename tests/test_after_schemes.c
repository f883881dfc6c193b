/* The four schemes after the papers (adaptive-causality, local-lag,
 * group-sync, equalize) on constant-speed races with fixed and stepped
 * delays, every expectation computed by hand in the comments.
 *
 * The harness: two terminals, A (own car 0) and B (own car 1); each samples
 * its car every 33 ms (seq k at 33k ms) and sends through its scheme; the MU
 * of seq k from A arrives at B at 33k + d12(33k) ms, from B at A at
 * 33k + d21(33k) ms; d doubles for MUs generated at or after the step (the
 * link script '10 12 delay ...' of the engine). Arrivals at an instant come
 * before that instant's samples, as in the engine. Defaults: quantile 0.95
 * of the last 64 delays, margin 10 ms, bounds 0..1000 ms, slew 0.5, so
 * m = 64 - ceil(0.95 * 64) + 1 = 64 - 61 + 1 = 4 arrivals at a new delay
 * move the statistic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lagview.h"

#define MS NR_US_PER_MS
#define NSEQ 700 /* 23.1 s of samples */

typedef struct Pair Pair;
typedef struct Port {
    Pair *pair;
    int dir; /* 0: A -> B (link 12), 1: B -> A (link 21) */
} Port;

struct Pair {
    const SchemeType *t;
    void *st[2];
    Port port[2];
    Mu sent[2][NSEQ];
    bool has[2][NSEQ];
    int next[2];        /* next seq to deliver per direction (no reordering) */
    int64_t d_ms[2][2]; /* [dir][before, after the step] */
    int64_t step_ms;
    int64_t t_ms;       /* last instant simulated */
    int rx[2][4];       /* [receiving terminal][RxResult] counts */
};

static void port_send(void *ctx, const Mu *mu)
{
    Port *p = ctx;
    assert_true(mu->seq >= 0 && mu->seq < NSEQ);
    p->pair->sent[p->dir][mu->seq] = *mu;
    p->pair->has[p->dir][mu->seq] = true;
}

static Mu mu_at(int car, int seq)
{
    Mu m;
    memset(&m, 0, sizeof m);
    m.car = car;
    m.seq = seq;
    m.gen_us = (int64_t)seq * 33 * MS;
    m.x = 10.0 * (double)seq * 0.033; /* 10 cw/s */
    m.y = 3.0 * car;
    m.speed = 10.0;
    return m;
}

static int64_t arrival_ms(const Pair *p, int dir, int seq)
{
    int64_t gen = (int64_t)seq * 33;
    return gen + p->d_ms[dir][gen >= p->step_ms];
}

/* step_dirs: bit 0 doubles link 12 at step_ms, bit 1 link 21. */
static Pair *pair_new(const char *name, int64_t d12, int64_t d21, int64_t step_ms, int step_dirs)
{
    Pair *p = calloc(1, sizeof *p);
    SchemeParams sp = scheme_default_params();
    Mu grid[2] = {mu_at(0, 0), mu_at(1, 0)};
    p->t = scheme_find(name);
    assert_non_null(p->t);
    assert_int_equal(p->t->state_size, sizeof(LagView));
    for (int j = 0; j < 2; j++) {
        p->st[j] = calloc(1, p->t->state_size);
        p->t->init(p->st[j], &sp, j, 2, grid);
        p->port[j] = (Port){p, j};
    }
    p->d_ms[0][0] = d12;
    p->d_ms[0][1] = (step_dirs & 1) ? 2 * d12 : d12;
    p->d_ms[1][0] = d21;
    p->d_ms[1][1] = (step_dirs & 2) ? 2 * d21 : d21;
    p->step_ms = step_ms;
    p->t_ms = -1;
    return p;
}

static void pair_free(Pair *p)
{
    free(p->st[0]);
    free(p->st[1]);
    free(p);
}

static void run_until(Pair *p, int64_t end_ms)
{
    for (int64_t t = p->t_ms + 1; t <= end_ms; t++) {
        for (int dir = 0; dir < 2; dir++) {
            int rcv = 1 - dir;
            while (p->next[dir] < NSEQ && p->has[dir][p->next[dir]] && arrival_ms(p, dir, p->next[dir]) == t) {
                RxResult r = p->t->on_receive(p->st[rcv], &p->sent[dir][p->next[dir]], t * MS);
                p->rx[rcv][r]++;
                p->next[dir]++;
            }
        }
        if (t % 33 == 0 && t / 33 < NSEQ)
            for (int j = 0; j < 2; j++) {
                Mu m = mu_at(j, (int)(t / 33));
                Transport tx = {&p->port[j], port_send};
                p->t->on_local(p->st[j], &m, t * MS, &tx);
            }
    }
    p->t_ms = end_ms;
}

/* Lag at terminal j at t ms, in ms (t must be the last instant run). */
static int64_t lag_ms(Pair *p, int j, int64_t t)
{
    run_until(p, t);
    return lagview_lag(p->st[j], t * MS) / MS;
}

static int shown_seq(Pair *p, int j, int car, int64_t t)
{
    run_until(p, t);
    Pose pose;
    p->t->display(p->st[j], car, t * MS, &pose);
    return pose.seq;
}

static void quantile_of_a_sliding_window(void **state)
{
    (void)state;
    SchemeParams sp = scheme_default_params();
    sp.adapt_window = 4;
    sp.adapt_quantile = 0.5;
    LagEst e;
    lagest_init(&e, &sp);
    assert_false(lagest_ready(&e));
    lagest_observe(&e, 10);
    lagest_observe(&e, 40);
    lagest_observe(&e, 20);
    lagest_observe(&e, 30);
    assert_int_equal(lagest_value(&e), 20); /* sorted 10 20 30 40, ceil(0.5 * 4) = 2nd */
    lagest_observe(&e, 50);                 /* 10 leaves: 20 30 40 50 */
    assert_int_equal(lagest_value(&e), 30);
    lagest_observe(&e, -5); /* counts as 0; the oldest, 40, leaves: 0 20 30 50 */
    assert_int_equal(lagest_value(&e), 20);
    e.quantile = 1.0;
    assert_int_equal(lagest_value(&e), 50);
    e.quantile = 0.0;
    assert_int_equal(lagest_value(&e), 0); /* at least the smallest */
}

static void lag_moves_at_its_slew(void **state)
{
    (void)state;
    Lag l;
    lag_init(&l, 100 * MS, 0.5);
    lag_retarget(&l, 60 * MS, 50 * MS);
    /* 40 ms down at 0.5 ms per ms: 80 ms, reached at 130 ms. */
    assert_int_equal(lag_at(&l, 129 * MS), 60 * MS + 500);
    assert_int_equal(lag_at(&l, 130 * MS), 60 * MS);
    assert_int_equal(lag_at(&l, 9000 * MS), 60 * MS);
    lag_retarget(&l, 80 * MS, 200 * MS); /* up 20 ms: 40 ms */
    assert_int_equal(lag_at(&l, 220 * MS), 70 * MS);
    assert_int_equal(lag_at(&l, 240 * MS), 80 * MS);
}

/* Fixed 50 ms both ways, doubled to 100 ms at 10 s.
 * Start: Delta = 100 ms; the first arrival (seq 0 at 50 ms) sets the target
 * 50 + 10 = 60 ms: down 40 ms at 0.5 -> 60 ms at 130 ms (60.5 at 129: 100 -
 * 0.5 * 79). No MU is late at 50 ms < 60 ms.
 * Step: seq 304 (gen 10032) is the first at 100 ms (arrives 10132); the 4th,
 * seq 307 (gen 10131), arrives 10231: target 110, reached at 10231 + 50 / 0.5
 * = 10331 (109 at 10330). Bound of lagest.h: 10000 + 100 + 4 * 33 + 100 =
 * 10332. Late: MU k (gen 33k) arrives 33k + 100 with lag 60 until 10231, then
 * 60 + floor(0.5 (33k + 100 - 10231)): k = 304..309 are past gen + lag
 * (309: 10297 > 10197 + 93), k = 310 is not (10330 <= 10230 + 109): 6 late. */
static void adaptive_causality_follows_a_doubled_delay(void **state)
{
    (void)state;
    Pair *p = pair_new("adaptive-causality", 50, 50, 10000, 3);
    assert_int_equal(lag_ms(p, 1, 0), 100);
    run_until(p, 129);
    assert_int_equal(lagview_lag(p->st[1], 129 * MS), 60500); /* us: 100000 - floor(0.5 * 79000) */
    assert_int_equal(lag_ms(p, 1, 130), 60);
    /* 5 s: both cars shown 60 ms behind at both terminals: seq floor(4940 / 33) = 149. */
    assert_int_equal(shown_seq(p, 1, 0, 5000), 149);
    assert_int_equal(shown_seq(p, 1, 1, 5000), 149);
    assert_int_equal(shown_seq(p, 0, 1, 5000), 149);
    assert_int_equal(p->rx[1][RX_DISCARDED], 0);
    /* 10150: seq 304 (gen 10032 <= 10150 - 60) was discarded: 303 shown. */
    assert_int_equal(shown_seq(p, 1, 0, 10150), 303);
    assert_int_equal(lag_ms(p, 1, 10330), 109);
    assert_int_equal(lag_ms(p, 1, 10331), 110);
    assert_int_equal(lag_ms(p, 0, 10332), 110); /* the same at A (symmetric links) */
    run_until(p, 20000);
    assert_int_equal(p->rx[1][RX_DISCARDED], 6);
    assert_int_equal(p->rx[0][RX_DISCARDED], 6);
    assert_int_equal(p->rx[1][RX_LATE_USED], 0);
    /* 20 s: lag 110, seq floor(19890 / 33) = 602. */
    assert_int_equal(shown_seq(p, 1, 0, 20000), 602);
    pair_free(p);
}

/* Local lag on the same race: the same lag (the same statistic), but the six
 * late MUs are used on arrival: at 10150 seq 304 (arrived 10132, gen 10032
 * <= 10150 - 60) is shown. */
static void local_lag_uses_late_mus(void **state)
{
    (void)state;
    Pair *p = pair_new("local-lag", 50, 50, 10000, 3);
    assert_int_equal(lag_ms(p, 1, 130), 60);
    assert_int_equal(shown_seq(p, 1, 1, 5000), 149); /* the own car lags too */
    assert_int_equal(shown_seq(p, 1, 0, 10150), 304);
    assert_int_equal(lag_ms(p, 1, 10331), 110);
    run_until(p, 20000);
    assert_int_equal(p->rx[1][RX_DISCARDED], 0);
    assert_int_equal(p->rx[1][RX_LATE_USED], 6);
    pair_free(p);
}

/* Group sync, 50 ms A -> B, 80 ms B -> A: each side measures its incoming
 * delay and sends it; both take max(50, 80) + 10 = 90 ms. At 5 s every car at
 * both terminals shows seq floor(4910 / 33) = 148.
 * Step of link 12 to 100 ms: B's 4th arrival at 100 ms is seq 307 at 10231:
 * B's target 110, reached at 10231 + 20 / 0.5 = 10271. B's next sample, seq
 * 311 (gen 10263), carries 100 to A at 10263 + 80 = 10343: A reaches 110 at
 * 10343 + 40 = 10383. */
static void group_sync_takes_the_slower_direction(void **state)
{
    (void)state;
    Pair *p = pair_new("group-sync", 50, 80, 10000, 1);
    for (int j = 0; j < 2; j++)
        for (int car = 0; car < 2; car++)
            assert_int_equal(shown_seq(p, j, car, 5000), 148);
    assert_int_equal(lag_ms(p, 0, 9000), 90);
    assert_int_equal(lag_ms(p, 1, 10270), 109);
    assert_int_equal(lag_ms(p, 1, 10271), 110);
    assert_int_equal(lag_ms(p, 0, 10342), 90);
    assert_int_equal(lag_ms(p, 0, 10382), 109);
    assert_int_equal(lag_ms(p, 0, 10383), 110);
    run_until(p, 20000);
    assert_int_equal(p->rx[0][RX_DISCARDED] + p->rx[1][RX_DISCARDED], 0);
    pair_free(p);
}

/* Equalize, 50 ms A -> B, 80 ms B -> A: E = max(50, 80) = 80 at both (no
 * margin). At 5 s: A shows car 1 as of 4920 (seq floor(4920 / 33) = 149), B
 * holds car 0 to the same (149, where nc would show floor(4950 / 33) = 150),
 * and each shows its own car now (seq floor(5000 / 33) = 151).
 * Step of link 12 to 100: E = 100; B retargets at 10231 (+20 / 0.5 -> 10271),
 * A at 10343 (-> 10383). */
static void equalize_holds_the_faster_direction(void **state)
{
    (void)state;
    Pair *p = pair_new("equalize", 50, 80, 10000, 1);
    assert_int_equal(lag_ms(p, 0, 0), 0); /* starts at 0: nothing to equalise yet */
    assert_int_equal(shown_seq(p, 0, 1, 5000), 149);
    assert_int_equal(shown_seq(p, 1, 0, 5000), 149);
    assert_int_equal(shown_seq(p, 0, 0, 5000), 151);
    assert_int_equal(shown_seq(p, 1, 1, 5000), 151);
    assert_int_equal(lag_ms(p, 1, 10271), 100);
    assert_int_equal(lag_ms(p, 0, 10382), 99);
    assert_int_equal(lag_ms(p, 0, 10383), 100);
    pair_free(p);
}

/* The other terminal's statistic is untrusted: NaN, negative or beyond the
 * lag's range is ignored; a valid one moves the target. */
static void group_ignores_a_bad_peer_statistic(void **state)
{
    (void)state;
    SchemeParams sp = scheme_default_params();
    Mu grid[2] = {mu_at(0, 0), mu_at(1, 0)};
    LagView v;
    lagview_init(&v, &sp, 1, 2, grid, LAGV_GROUP);
    Mu m = mu_at(0, 1); /* gen 33 ms, arrives 83: own statistic 50 ms */
    m.aux[1] = 1.0;
    m.aux[0] = NAN;
    lagview_receive(&v, &m, 83 * MS);
    assert_int_equal(v.car[0].peer_us, -1);
    assert_int_equal(v.lag.target_us, 60 * MS);
    m = mu_at(0, 2);
    m.aux[1] = 1.0;
    m.aux[0] = 1e300;
    lagview_receive(&v, &m, 116 * MS);
    assert_int_equal(v.car[0].peer_us, -1);
    m = mu_at(0, 3);
    m.aux[1] = 1.0;
    m.aux[0] = 200.0 * MS;
    lagview_receive(&v, &m, 149 * MS);
    assert_int_equal(v.car[0].peer_us, 200 * MS);
    assert_int_equal(v.lag.target_us, 210 * MS);
}

/* What a terminal sent: the count and the last MU. */
typedef struct Sent {
    int n;
    Mu mu;
} Sent;

static void capture(void *ctx, const Mu *mu)
{
    Sent *s = ctx;
    s->n++;
    s->mu = *mu;
}

/* N cars: each other car's delays have their own window and the lag covers
 * the slowest line in. Car 0's twenty MUs come 50 ms late, car 2's one MU
 * 200 ms: one window of all 21 would put its 0.95 quantile (the 20th
 * smallest) at 50 ms; per car the statistic is max(50, 200) = 200 ms, the
 * target 200 + 10 ms margin, and it rides to the others in aux[0]. */
static void n_cars_cover_the_slowest_line(void **state)
{
    (void)state;
    SchemeParams sp = scheme_default_params();
    Mu grid[3] = {mu_at(0, 0), mu_at(1, 0), mu_at(2, 0)};
    LagView v;
    lagview_init(&v, &sp, 1, 3, grid, LAGV_GROUP);
    for (int k = 1; k <= 20; k++) {
        Mu m = mu_at(0, k);
        lagview_receive(&v, &m, m.gen_us + 50 * MS);
    }
    assert_int_equal(v.lag.target_us, 60 * MS);
    Mu slow = mu_at(2, 21);
    int64_t now = slow.gen_us + 200 * MS;
    lagview_receive(&v, &slow, now);
    assert_int_equal(v.lag.target_us, 210 * MS);
    Sent sent = {0};
    Transport tx = {.send = capture, .ctx = &sent};
    Mu own = mu_at(1, 30);
    lagview_local(&v, &own, own.gen_us, &tx);
    assert_int_equal(sent.n, 1);
    assert_true(sent.mu.aux[0] == 200.0 * MS && sent.mu.aux[1] == 1.0);
    /* a third terminal's statistic above both raises the group's target */
    Mu m = mu_at(2, 22);
    m.aux[0] = 300.0 * MS;
    m.aux[1] = 1.0;
    lagview_receive(&v, &m, m.gen_us + 200 * MS);
    assert_int_equal(v.lag.target_us, 310 * MS);
}

static void groups_of_the_registry(void **state)
{
    (void)state;
    const SchemeType *out[SCHEME_MAX];
    NrError err;
    assert_int_equal(scheme_parse_list("all", out, SCHEME_MAX, &err), 12); /* the papers' twelve */
    assert_string_equal(out[11]->name, "epp-xa-p");
    assert_int_equal(scheme_parse_list("after", out, SCHEME_MAX, &err), 4);
    assert_string_equal(out[0]->name, "adaptive-causality");
    assert_string_equal(out[3]->name, "equalize");
    assert_int_equal(scheme_parse_list("every", out, SCHEME_MAX, &err), 16);
    assert_int_equal(scheme_parse_list("racing,after", out, SCHEME_MAX, &err), 8);
    SchemeParams sp = scheme_default_params();
    assert_true(scheme_params_check(&sp, &err));
    sp.adapt_min_us = 300 * MS;
    sp.adapt_max_us = 200 * MS;
    assert_false(scheme_params_check(&sp, &err));
    sp = scheme_default_params();
    sp.adapt_slew = 0.0;
    assert_false(scheme_params_check(&sp, &err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(quantile_of_a_sliding_window),
        cmocka_unit_test(lag_moves_at_its_slew),
        cmocka_unit_test(adaptive_causality_follows_a_doubled_delay),
        cmocka_unit_test(local_lag_uses_late_mus),
        cmocka_unit_test(group_sync_takes_the_slower_direction),
        cmocka_unit_test(equalize_holds_the_faster_direction),
        cmocka_unit_test(group_ignores_a_bad_peer_statistic),
        cmocka_unit_test(n_cars_cover_the_slowest_line),
        cmocka_unit_test(groups_of_the_registry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
