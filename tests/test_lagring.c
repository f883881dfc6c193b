/* The lagometer's ring (lagring.h) and the engine's filling of it
 * (engine_lag): fates worked out by hand on a fixed-delay link with a known
 * loss pattern, holds, DR's predicted samples, N cars, losses inferred from
 * sequence gaps over a network, and the ring's own bookkeeping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "engine.h"
#include "fixedmedium.h"
#include "lagring.h"
#include "race_fixture.h"

#define P_US 33000 /* the fixture's sampling period */

/* ---- a fixed-delay medium that loses every sample seq % 5 == 2 --------- */

typedef struct Lossy {
    FixedMedium f;
    Medium inner;
    int lose_to; /* lose only MUs to this terminal; -1 = to every one */
} Lossy;

static bool lossy_drops(const Lossy *l, int to, const Mu *mu)
{
    return mu->seq % 5 == 2 && (l->lose_to < 0 || l->lose_to == to);
}

static int lossy_send(void *ctx, int k, int from, int to, const Mu *mu, int64_t now_us)
{
    Lossy *l = ctx;
    if (lossy_drops(l, to, mu))
        return MEDIUM_LOST;
    return medium_send(&l->inner, k, from, to, mu, now_us);
}

static int64_t lossy_next_due(const void *ctx)
{
    const Lossy *l = ctx;
    return medium_next_due(&l->inner);
}

static bool lossy_pop_due(void *ctx, int64_t t_us, MediumDelivery *out)
{
    Lossy *l = ctx;
    return medium_pop_due(&l->inner, t_us, out);
}

static void lossy_clear(void *ctx)
{
    Lossy *l = ctx;
    medium_clear(&l->inner);
}

static const MediumType lossy_type = {.name = "lossy", .send = lossy_send, .next_due = lossy_next_due,
                                      .pop_due = lossy_pop_due, .clear = lossy_clear};

static Medium lossy_init(Lossy *l, int64_t delay_us, int lose_to)
{
    NrError err;
    assert_true(fixedmedium_init(&l->f, delay_us, 4096, &err));
    l->inner = fixedmedium_medium(&l->f);
    l->lose_to = lose_to;
    return (Medium){&lossy_type, l};
}

static void lossy_free(Lossy *l, int n)
{
    for (int d = 0; d < n; d++)
        fixedmedium_free(&l[d].f);
}

/* ---- a race of ncars cars on the fixture's circle, n samples ------------ */

static void base_config(EngineConfig *cfg, const Track *t, int ncars, const char *schemes, int64_t delta_us)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->track = t;
    cfg->period_ms = 33;
    cfg->ncars = ncars;
    cfg->params = scheme_default_params();
    cfg->params.delta_us = delta_us;
    NrError err;
    cfg->nschemes = scheme_parse_list(schemes, cfg->schemes, SCHEME_MAX, &err);
    assert_true(cfg->nschemes > 0);
}

static Engine *run(const Track *t, int ncars, int n, const char *schemes, int64_t delta_us, const Medium *med,
                   bool lagometer)
{
    EngineConfig cfg;
    base_config(&cfg, t, ncars, schemes, delta_us);
    NrError err;
    for (int d = 0; d < ncars; d++)
        cfg.medium[d] = &med[d];
    cfg.lagometer = lagometer;
    Engine *e = engine_new(&cfg, &err);
    assert_non_null(e);
    for (int i = 0; i < n; i++) {
        CarPose p[ENGINE_MAX_CARS];
        for (int c = 0; c < ncars; c++) {
            track_point(t, 10.0 * c + 20.0 * i * 0.033, &p[c].x, &p[c].y, &p[c].heading);
            p[c].speed = 20.0;
        }
        assert_true(engine_push(e, p, ncars, 0));
        engine_step_to(e, (int64_t)i * P_US);
    }
    engine_finish(e);
    engine_step_to(e, INT64_MAX);
    return e;
}

/* The one event of (car, seq) in r; fails when there is none or two. */
static const LagEvent *event_of(const LagRing *r, int car, int32_t seq)
{
    const LagEvent *found = NULL;
    for (int i = 0; i < lagring_count(r); i++) {
        const LagEvent *e = lagring_at(r, i);
        if (e->car == car && e->seq == seq) {
            assert_null(found);
            found = e;
        }
    }
    assert_non_null(found);
    return found;
}

static bool has_event(const LagRing *r, int car, int32_t seq)
{
    for (int i = 0; i < lagring_count(r); i++)
        if (lagring_at(r, i)->car == car && lagring_at(r, i)->seq == seq)
            return true;
    return false;
}

static int events_of(const LagRing *r, int car)
{
    int n = 0;
    for (int i = 0; i < lagring_count(r); i++)
        n += lagring_at(r, i)->car == car;
    return n;
}

/* 60 samples (0 .. 1947 ms) over 150 ms links that lose every seq % 5 == 2:
 * MU s is sent at 33 s ms and arrives at 33 s + 150 ms. The engine stops at
 * the last sample, so the MUs that arrive are s <= 54 (33 s + 150 <= 1947);
 * the lost ones are known at sending, all twelve of 0 .. 59. With causality
 * at Delta = 100 ms every MU that arrives is late (150 > 100): discarded. */
static void causality_below_the_delay_discards_every_arrival(void **state)
{
    (void)state;
    Track *t = circle();
    Lossy l[2];
    Medium m[2] = {lossy_init(&l[0], 150000, -1), lossy_init(&l[1], 150000, -1)};
    Engine *e = run(t, 2, 60, "causality,nc", 100000, m, true);
    for (int j = 0; j < 2; j++) {
        int other = 1 - j;
        const LagRing *ca = engine_lag(e, 0, j), *nc = engine_lag(e, 1, j);
        assert_non_null(ca);
        assert_non_null(nc);
        for (int32_t s = 0; s < 60; s++) {
            bool lost = s % 5 == 2, arrived = !lost && s <= 54;
            if (!lost && !arrived) { /* still in flight at the end: no event */
                assert_false(has_event(ca, other, s));
                assert_false(has_event(nc, other, s));
                continue;
            }
            const LagEvent *a = event_of(ca, other, s), *b = event_of(nc, other, s);
            assert_int_equal(a->fate, lost ? LAG_LOST : LAG_DISCARDED);
            assert_int_equal(b->fate, lost ? LAG_LOST : LAG_ON_TIME);
            assert_int_equal(a->sent_us, (int64_t)s * P_US);
            assert_int_equal(b->sent_us, (int64_t)s * P_US);
            assert_int_equal(a->delay_us, lost ? 0 : 150000);
            assert_int_equal(a->hold_us, 0);
            assert_int_equal(b->hold_us, 0);
        }
        /* 12 lost + 44 arrived of 0 .. 54 and nothing else */
        assert_int_equal(events_of(ca, other), 12 + 44);
        assert_int_equal(events_of(nc, other), 12 + 44);
        int64_t tally[LAG_FATES];
        lagring_tally(ca, 0, 60 * P_US, tally);
        assert_int_equal(tally[LAG_DISCARDED], 44);
        assert_int_equal(tally[LAG_LOST], 12);
        assert_int_equal(tally[LAG_ON_TIME] + tally[LAG_HELD] + tally[LAG_LATE_USED] + tally[LAG_REJECTED], 0);
        /* the engine's own counters agree: discarded and lost per direction */
        assert_int_equal(engine_metrics(e, 0)->dir[other].discarded, 44);
        assert_int_equal(engine_metrics(e, 0)->dir[other].lost, 12);
    }
    engine_free(e);
    lossy_free(l, 2);
    track_free(t);
}

/* Delta = 200 ms above the 150 ms delay: every MU that arrives is held for
 * the 50 ms left to its output time; DR + causality holds the MUs its DR
 * sender sends for the same 50 ms, and below the delay uses them late. */
static void causality_above_the_delay_holds_for_the_rest_of_delta(void **state)
{
    (void)state;
    Track *t = circle();
    Lossy l[2];
    Medium m[2] = {lossy_init(&l[0], 150000, -1), lossy_init(&l[1], 150000, -1)};
    Engine *e = run(t, 2, 60, "causality,dr-causality", 200000, m, true);
    const LagRing *ca = engine_lag(e, 0, 1);
    for (int32_t s = 0; s <= 54; s++) {
        const LagEvent *a = event_of(ca, 0, s);
        assert_int_equal(a->fate, s % 5 == 2 ? LAG_LOST : LAG_HELD);
        assert_int_equal(a->hold_us, s % 5 == 2 ? 0 : 50000);
    }
    const LagRing *dc = engine_lag(e, 1, 1);
    int n = lagring_count(dc);
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        const LagEvent *a = lagring_at(dc, i);
        assert_int_equal(a->fate, a->seq % 5 == 2 ? LAG_LOST : LAG_HELD);
        assert_int_equal(a->hold_us, a->seq % 5 == 2 ? 0 : 50000);
    }
    engine_free(e);
    lossy_free(l, 2);
    Medium m2[2] = {lossy_init(&l[0], 150000, -1), lossy_init(&l[1], 150000, -1)};
    e = run(t, 2, 60, "dr-causality", 100000, m2, true);
    dc = engine_lag(e, 0, 1);
    for (int i = 0; i < lagring_count(dc); i++) {
        const LagEvent *a = lagring_at(dc, i);
        assert_int_equal(a->fate, a->seq % 5 == 2 ? LAG_LOST : LAG_LATE_USED);
    }
    assert_int_equal(engine_metrics(e, 0)->dir[0].late, lagring_count(dc) - engine_metrics(e, 0)->dir[0].lost);
    engine_free(e);
    lossy_free(l, 2);
    track_free(t);
}

/* DR shows the other car predicted at every sample but the grid's (sample
 * 0 is the grid MU itself: its exact sample); causality and nc show
 * received samples only. The own car's bit is never set. */
static void dr_predicts_every_sample_causality_none(void **state)
{
    (void)state;
    Track *t = circle();
    Lossy l[2];
    Medium m[2] = {lossy_init(&l[0], 150000, -1), lossy_init(&l[1], 150000, -1)};
    Engine *e = run(t, 2, 60, "dr,causality,nc", 100000, m, true);
    for (int j = 0; j < 2; j++)
        for (int k = 0; k < 3; k++) {
            const LagRing *r = engine_lag(e, k, j);
            assert_int_equal(lagring_shown_count(r), 60);
            for (int i = 0; i < 60; i++) {
                int64_t ts;
                unsigned mask = lagring_shown_at(r, i, &ts);
                assert_int_equal(ts, (int64_t)i * P_US);
                unsigned want = (k == 0 && i > 0) ? 1u << (1 - j) : 0u;
                assert_int_equal(mask, want);
            }
        }
    engine_free(e);
    lossy_free(l, 2);
    track_free(t);
}

/* Three cars, the links into terminal 2 (0-based) lose seq % 5 == 2, the
 * others lose nothing: terminal 2 sees both other cars' losses, terminals 0
 * and 1 none; every MU is on time under nc. */
static void three_cars_each_terminal_its_own_fates(void **state)
{
    (void)state;
    Track *t = circle();
    Lossy l[3];
    Medium m[3] = {lossy_init(&l[0], 66000, 2), lossy_init(&l[1], 66000, 2), lossy_init(&l[2], 66000, 2)};
    Engine *e = run(t, 3, 30, "nc", 100000, m, true);
    for (int j = 0; j < 3; j++) {
        const LagRing *r = engine_lag(e, 0, j);
        for (int c = 0; c < 3; c++) {
            if (c == j) {
                assert_int_equal(events_of(r, c), 0);
                continue;
            }
            /* sent at 33 s ms, arriving at 33 s + 66 <= 957: s <= 27 */
            for (int32_t s = 0; s <= 27; s++) {
                const LagEvent *a = event_of(r, c, s);
                bool lost = j == 2 && s % 5 == 2;
                assert_int_equal(a->fate, lost ? LAG_LOST : LAG_ON_TIME);
                assert_int_equal(a->delay_us, lost ? 0 : 66000);
            }
        }
    }
    assert_null(engine_lag(e, 1, 0)); /* one scheme */
    assert_null(engine_lag(e, 0, 3)); /* three terminals */
    engine_free(e);
    lossy_free(l, 3);
    track_free(t);
}

/* Without cfg.lagometer there is no ring; with it the race is the same to
 * the last bit (the ring only watches). */
static void the_ring_changes_nothing(void **state)
{
    (void)state;
    Track *t = circle();
    Lossy l[4];
    Medium a[2] = {lossy_init(&l[0], 90000, -1), lossy_init(&l[1], 40000, -1)};
    Medium b[2] = {lossy_init(&l[2], 90000, -1), lossy_init(&l[3], 40000, -1)};
    Engine *off = run(t, 2, 90, "all", 100000, a, false);
    Engine *on = run(t, 2, 90, "all", 100000, b, true);
    assert_null(engine_lag(off, 0, 0));
    for (int k = 0; k < engine_scheme_count(on); k++) {
        assert_non_null(engine_lag(on, k, 1));
        assert_memory_equal(engine_metrics(off, k), engine_metrics(on, k), sizeof(Metrics));
    }
    engine_free(off);
    engine_free(on);
    lossy_free(l, 4);
    track_free(t);
}

/* The engine's own medium of an N-car race (route.h), lossy: every copy the
 * route lost at sending is one LAG_LOST event at the terminal it was for,
 * every copy delivered one event of another fate; the rings hold all of
 * them (60 samples of 3 senders: 180 events each, far below their size). */
static void route_race_losses_are_the_counters(RouteTopology topo)
{
    Track *t = circle();
    EngineConfig cfg;
    base_config(&cfg, t, 4, "nc,causality", 100000);
    LinkSpec spec;
    NrError err;
    assert_true(linkspec_parse(&spec, "delay 50ms 20ms loss 20%", NULL, &err));
    for (int d = 0; d < 4; d++)
        cfg.link[d] = &spec;
    cfg.topology = topo;
    cfg.seed = 7;
    cfg.lagometer = true;
    Engine *e = engine_new(&cfg, &err);
    assert_non_null(e);
    for (int i = 0; i < 60; i++) {
        CarPose p[4];
        for (int c = 0; c < 4; c++) {
            track_point(t, 10.0 * c + 20.0 * i * 0.033, &p[c].x, &p[c].y, &p[c].heading);
            p[c].speed = 20.0;
        }
        assert_true(engine_push(e, p, 4, 0));
        engine_step_to(e, (int64_t)i * P_US);
    }
    engine_finish(e);
    engine_step_to(e, INT64_MAX);
    for (int k = 0; k < 2; k++) {
        int64_t lost = 0, delivered = 0, events[LAG_FATES] = {0};
        for (int d = 0; d < 4; d++) {
            lost += engine_metrics(e, k)->dir[d].lost + engine_metrics(e, k)->dir[d].overflow;
            delivered += engine_metrics(e, k)->dir[d].delivered;
        }
        for (int j = 0; j < 4; j++) {
            const LagRing *r = engine_lag(e, k, j);
            assert_int_equal(events_of(r, j), 0);
            for (int i = 0; i < lagring_count(r); i++)
                events[lagring_at(r, i)->fate]++;
        }
        assert_true(lost > 0);
        assert_int_equal(events[LAG_LOST], lost);
        assert_int_equal(events[LAG_ON_TIME] + events[LAG_HELD] + events[LAG_LATE_USED] + events[LAG_DISCARDED] +
                             events[LAG_REJECTED],
                         delivered);
    }
    engine_free(e);
    linkspec_free(&spec);
    track_free(t);
}

static void route_losses_p2p(void **state)
{
    (void)state;
    route_race_losses_are_the_counters(ROUTE_P2P);
}

static void route_losses_cs(void **state)
{
    (void)state;
    route_race_losses_are_the_counters(ROUTE_CS);
}

/* ---- over a network: terminal 0 remote, its MUs handed in by hand ------- */

static void no_forward(void *ctx, const MediumDelivery *d)
{
    (void)ctx;
    (void)d;
}

/* Samples 0, 1, 2, 4, 5 and 8 of car 0 arrive 40 ms after their instants,
 * 3 at 300 ms (before 8, at 304 ms): nc (every sample) counts 3 lost when 4
 * comes, then, when 3 arrives after all, not lost but on time 201 ms late;
 * 6 and 7 lost once 8 is in. DR's sender sends when it likes, so its gaps
 * say nothing. */
static void network_losses_from_sequence_gaps(void **state)
{
    (void)state;
    Track *t = circle();
    EngineConfig cfg;
    base_config(&cfg, t, 2, "nc,dr", 100000);
    NrError err;
    cfg.remote[0] = true;
    cfg.hooks.forward = no_forward;
    cfg.lagometer = true;
    Engine *e = engine_new(&cfg, &err);
    assert_non_null(e);
    static const int32_t order[] = {0, 1, 2, 4, 5, 3, 8};
    size_t next = 0;
    for (int i = 0; i < 12; i++) {
        CarPose p[2];
        for (int c = 0; c < 2; c++) {
            track_point(t, 10.0 * c + 20.0 * i * 0.033, &p[c].x, &p[c].y, &p[c].heading);
            p[c].speed = 20.0;
        }
        assert_true(engine_push(e, p, 2, 0));
        for (; next < sizeof order / sizeof order[0]; next++) {
            int32_t s = order[next];
            int64_t arr = s == 3 ? 300000 : (int64_t)s * P_US + 40000;
            if (arr >= (int64_t)i * P_US)
                break;
            engine_step_to(e, arr - 1);
            Mu mu = {.car = 0, .seq = s, .gen_us = (int64_t)s * P_US, .nbytes = MU_WIRE_BYTES};
            track_point(t, 20.0 * s * 0.033, &mu.x, &mu.y, &mu.heading);
            for (int k = 0; k < 2; k++)
                engine_receive(e, k, 0, 1, &mu, arr);
        }
        engine_step_to(e, (int64_t)i * P_US);
    }
    const LagRing *nc = engine_lag(e, 0, 1), *dr = engine_lag(e, 1, 1);
    assert_null(engine_lag(e, 0, 0)); /* the remote terminal has none */
    for (int32_t s = 0; s <= 8; s++) {
        const LagEvent *a = event_of(nc, 0, s);
        assert_int_equal(a->fate, (s == 6 || s == 7) ? LAG_LOST : LAG_ON_TIME);
        assert_int_equal(a->sent_us, (int64_t)s * P_US);
        assert_int_equal(a->delay_us, s == 3 ? 300000 - 3 * P_US : (s == 6 || s == 7) ? 0 : 40000);
    }
    assert_int_equal(lagring_count(nc), 9);
    assert_int_equal(lagring_count(dr), 7); /* the arrivals only */
    for (int i = 0; i < lagring_count(dr); i++)
        assert_int_not_equal(lagring_at(dr, i)->fate, LAG_LOST);
    engine_free(e);
    track_free(t);
}

/* ---- the ring alone ----------------------------------------------------- */

static void ring_wraps_tallies_and_caps_gaps(void **state)
{
    (void)state;
    LagEvent ev[8];
    LagRing r;
    lagring_init(&r, ev, 8);
    assert_int_equal(lagring_count(&r), 0);
    Mu mu = {.car = 1, .kind = MU_UPDATE};
    for (int s = 0; s < 11; s++) {
        mu.seq = s;
        lagring_arrival(&r, &mu, s * 1000 + 500, 500, s % 2 ? 200 : 0, RX_USED, 0);
    }
    assert_int_equal(lagring_count(&r), 8);
    for (int i = 0; i < 8; i++) { /* the newest eight: 3 .. 10, oldest first */
        const LagEvent *e = lagring_at(&r, i);
        assert_int_equal(e->seq, i + 3);
        assert_int_equal(e->sent_us, (i + 3) * 1000);
        assert_int_equal(e->fate, (i + 3) % 2 ? LAG_HELD : LAG_ON_TIME);
    }
    int64_t tally[LAG_FATES];
    lagring_tally(&r, 4000, 8000, tally); /* seqs 4 .. 7 */
    assert_int_equal(tally[LAG_HELD], 2);
    assert_int_equal(tally[LAG_ON_TIME], 2);
    /* a gap of 100 samples infers LAG_GAP_MAX losses at most; a rejected MU
     * (any car) touches no gap bookkeeping */
    LagEvent big[256];
    lagring_init(&r, big, 256);
    mu.seq = 0;
    lagring_arrival(&r, &mu, 10000, 0, 0, RX_USED, 1000);
    mu.seq = 101;
    lagring_arrival(&r, &mu, 111000, 0, 0, RX_DISCARDED, 1000);
    assert_int_equal(lagring_count(&r), 2 + LAG_GAP_MAX);
    assert_int_equal(lagring_at(&r, 1)->seq, 101 - LAG_GAP_MAX);
    assert_int_equal(lagring_at(&r, 1)->sent_us, 111000 - LAG_GAP_MAX * 1000);
    assert_int_equal(lagring_at(&r, 1)->fate, LAG_LOST);
    Mu bad = {.car = 120, .seq = 7};
    lagring_arrival(&r, &bad, 0, 0, 0, RX_REJECTED, 1000);
    assert_int_equal(lagring_at(&r, lagring_count(&r) - 1)->fate, LAG_REJECTED);
    lagring_clear(&r);
    assert_int_equal(lagring_count(&r), 0);
    assert_int_equal(lagring_shown_count(&r), 0);
    for (int i = 0; i < LAG_SHOWN + 3; i++)
        lagring_shown(&r, i, (unsigned)i & 3u);
    int64_t ts;
    assert_int_equal(lagring_shown_count(&r), LAG_SHOWN);
    assert_int_equal(lagring_shown_at(&r, 0, &ts), 3u);
    assert_int_equal(ts, 3);
    assert_string_equal(lagring_fate_name(LAG_DISCARDED), "discarded");
    assert_string_equal(lagring_fate_name(99), "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(causality_below_the_delay_discards_every_arrival),
        cmocka_unit_test(causality_above_the_delay_holds_for_the_rest_of_delta),
        cmocka_unit_test(dr_predicts_every_sample_causality_none),
        cmocka_unit_test(three_cars_each_terminal_its_own_fates),
        cmocka_unit_test(the_ring_changes_nothing),
        cmocka_unit_test(route_losses_p2p),
        cmocka_unit_test(route_losses_cs),
        cmocka_unit_test(network_losses_from_sequence_gaps),
        cmocka_unit_test(ring_wraps_tallies_and_caps_gaps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
