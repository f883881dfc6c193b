/* Races of N cars over both topologies (route.h, metrics.h; docs/nplayers.md):
 * three cars at constant speeds along a track's centre line, fixed link
 * delays, the scheme `nc`; every expectation is worked from the delays. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "race_fixture.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "scheme_util.h"

#define MS NR_US_PER_MS
#define P 33  /* sampling period, ms */
#define NC 3
#define NS 60 /* samples: 1.98 s */

/* A circle of radius 300 cw (3 s of the race covers under 100 cw of its
 * 1885 cw): positions come from track_point, so car c's true progress is
 * s0[c] + v[c] t up to the projection's rounding. */
static Track *circle_track(void)
{
    return circle_of(300, 96);
}

/* Car 0 starts last and fastest: it passes car 1 at 0.3 s (3 cw at 10 cw/s)
 * and car 2 at 0.45 s (9 cw at 20 cw/s); car 1 passes car 2 at 0.6 s. */
static const double s0[NC] = {0.0, 3.0, 9.0}, v[NC] = {30.0, 20.0, 10.0};

static double truth(int c, int t_ms)
{
    return s0[c] + v[c] * t_ms / 1000.0;
}

/* NC shows at terminal j the newest MU of car c that arrived: generated at
 * g = a multiple of P with g + D <= t (D the total delay c -> j), else the
 * grid (g = 0). */
static double shown(int c, int t_ms, int delay_ms)
{
    int g = t_ms - delay_ms < 0 ? 0 : ((t_ms - delay_ms) / P) * P;
    return truth(c, g);
}

typedef struct Expect {
    double rate, pair_rate, mean_d[NC];
} Expect;

/* The N-car measures of metrics.h from the delay matrix d[c][j] (ms), by
 * the definitions: order and pairs compared between terminals, d_ij = car i
 * at terminal i - car i at terminal j. */
static Expect expect(int d[NC][NC])
{
    Expect x = {0};
    int bad = 0, bad_pairs = 0;
    for (int k = 0; k < NS; k++) {
        int t = k * P;
        double seen[NC][NC];
        for (int j = 0; j < NC; j++)
            for (int c = 0; c < NC; c++)
                seen[j][c] = c == j ? truth(c, t) : shown(c, t, d[c][j]);
        int pairs = 0;
        for (int a = 0; a < NC; a++)
            for (int b = a + 1; b < NC; b++) {
                bool ahead0 = seen[0][a] > seen[0][b], differ = false;
                for (int j = 1; j < NC; j++)
                    differ |= (seen[j][a] > seen[j][b]) != ahead0;
                pairs += differ;
            }
        bad += pairs > 0;
        bad_pairs += pairs;
        for (int i = 0; i < NC; i++) {
            double di = 0;
            for (int j = 0; j < NC; j++)
                if (j != i)
                    di += seen[i][i] - seen[j][i];
            x.mean_d[i] += di / (NC - 1) / NS;
        }
    }
    x.rate = (double)bad / NS;
    x.pair_rate = (double)bad_pairs / (3.0 * NS);
    return x;
}

static LinkSpec delay_spec(int ms)
{
    char text[64];
    snprintf(text, sizeof text, "delay %dms", ms);
    LinkSpec s;
    NrError err;
    memset(&s, 0, sizeof s);
    assert_true(linkspec_parse(&s, text, NULL, &err));
    return s;
}

static void run(EngineConfig *cfg, const Track *t, Metrics *out)
{
    cfg->track = t;
    cfg->period_ms = P;
    cfg->ncars = NC;
    cfg->seed = 3;
    if (cfg->params.period_us == 0)
        cfg->params = scheme_default_params();
    NrError err;
    cfg->nschemes = scheme_parse_list("nc", cfg->schemes, SCHEME_MAX, &err);
    Engine *e = engine_new(cfg, &err);
    if (!e)
        fprintf(stderr, "%s\n", err.msg);
    assert_non_null(e);
    for (int k = 0; k < NS; k++) {
        CarPose pose[NC];
        for (int c = 0; c < NC; c++) {
            track_point(t, truth(c, k * P), &pose[c].x, &pose[c].y, &pose[c].heading);
            pose[c].speed = v[c];
        }
        assert_true(engine_push(e, pose, NC, 0));
        engine_step_to(e, (int64_t)k * P * MS);
    }
    engine_finish(e);
    engine_step_to(e, (int64_t)NS * P * MS);
    *out = *engine_metrics(e, 0);
    engine_free(e);
}

static void check(const Metrics *m, const Expect *x)
{
    assert_int_equal(m->samples, NS);
    assert_true(metrics_inconsistency_rate(m) == x->rate);
    assert_true(metrics_pair_rate(m) == x->pair_rate);
    double mean = 0, ss = 0;
    for (int i = 0; i < NC; i++)
        mean += x->mean_d[i] / NC;
    for (int i = 0; i < NC; i++) {
        assert_true(fabs(metrics_mean_d(m, i) - x->mean_d[i]) < 1e-9);
        assert_true(fabs(metrics_disadvantage(m, i) - (x->mean_d[i] - mean)) < 1e-9);
        ss += (x->mean_d[i] - mean) * (x->mean_d[i] - mean);
    }
    assert_true(fabs(metrics_fairness_spread(m) - sqrt(ss / NC)) < 1e-9);
}

/* p2p, a delay per ordered pair (multiples of the period, so a shown MU's
 * age is its delay once t >= the delay). Steady state (t >= 99 ms):
 * d_01 = 30 * 0.033 = 0.99, d_02 = 30 * 0.066 = 1.98 -> d_0 = 1.485;
 * d_10 = 20 * 0.033 = 0.66, d_12 = 20 * 0.099 = 1.98 -> d_1 = 1.32;
 * d_20 = 10 * 0.066 = 0.66, d_21 = 10 * 0.033 = 0.33 -> d_2 = 0.495. */
static void p2p_three_cars_by_hand(void **state)
{
    (void)state;
    Track *t = circle_track();
    int d[NC][NC] = {{0, 33, 66}, {33, 0, 99}, {66, 33, 0}}; /* [from][to] */
    LinkSpec l[NC][NC];
    EngineConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    for (int i = 0; i < NC; i++)
        for (int j = 0; j < NC; j++)
            if (i != j) {
                l[i][j] = delay_spec(d[i][j]);
                cfg.pair_link[i][j] = &l[i][j];
            }
    Metrics m;
    run(&cfg, t, &m);
    Expect x = expect(d);
    /* The overtakes make the terminals disagree on some samples, not all. */
    assert_true(x.rate > 0.0 && x.rate < 0.5);
    assert_true(fabs(x.mean_d[0] - 1.485) < 0.2 && fabs(x.mean_d[2] - 0.495) < 0.1);
    check(&m, &x);
    /* The last sample's steady state, d1 = d_01 as the two-player field. */
    assert_true(fabs(m.d1 - 0.99) < 1e-9);
    for (int i = 0; i < NC; i++)
        for (int j = 0; j < NC; j++)
            if (i != j)
                linkspec_free(&l[i][j]);
    track_free(t);
}

/* A client-server config: uplink i of up[i] ms, downlink j of down[j] ms. */
static void cs_links(EngineConfig *cfg, RouteServer server, const int up[NC], const int down[NC], LinkSpec u[NC],
                     LinkSpec w[NC])
{
    memset(cfg, 0, sizeof *cfg);
    cfg->topology = ROUTE_CS;
    cfg->server = server;
    for (int i = 0; i < NC; i++) {
        u[i] = delay_spec(up[i]);
        w[i] = delay_spec(down[i]);
        cfg->up_link[i] = &u[i];
        cfg->down_link[i] = &w[i];
    }
}

static void free_links(LinkSpec u[NC], LinkSpec w[NC])
{
    for (int i = 0; i < NC; i++) {
        linkspec_free(&u[i]);
        linkspec_free(&w[i]);
    }
}

/* cs relay: car i's MU to j waits up_i then down_j, exactly the sum. With
 * up = {33, 0, 33} and down = {0, 33, 33}: D_ij = up_i + down_j. */
static void cs_relay_adds_both_hops(void **state)
{
    (void)state;
    Track *t = circle_track();
    const int up[NC] = {33, 0, 33}, down[NC] = {0, 33, 33};
    int d[NC][NC];
    LinkSpec u[NC], w[NC];
    EngineConfig cfg;
    cs_links(&cfg, ROUTE_RELAY, up, down, u, w);
    for (int i = 0; i < NC; i++)
        for (int j = 0; j < NC; j++)
            d[i][j] = up[i] + down[j];
    Metrics m;
    run(&cfg, t, &m);
    Expect x = expect(d);
    check(&m, &x);
    /* The same delays as p2p pair links give the same metrics bit for bit
     * (no loss, no jitter: the route changes nothing else). */
    LinkSpec l[NC][NC];
    EngineConfig p2p;
    memset(&p2p, 0, sizeof p2p);
    for (int i = 0; i < NC; i++)
        for (int j = 0; j < NC; j++)
            if (i != j) {
                l[i][j] = delay_spec(d[i][j]);
                p2p.pair_link[i][j] = &l[i][j];
            }
    Metrics mp;
    run(&p2p, t, &mp);
    assert_true(mp.inconsistent == m.inconsistent && mp.pair_inconsistent == m.pair_inconsistent);
    for (int i = 0; i < NC; i++)
        assert_true(mp.sum_d[i] == m.sum_d[i]);
    free_links(u, w);
    for (int i = 0; i < NC; i++)
        for (int j = 0; j < NC; j++)
            if (i != j)
                linkspec_free(&l[i][j]);
    track_free(t);
}

/* cs sync with Delta = 99 ms: every MU (uplinks <= 33 ms) leaves the server
 * at gen + 99 ms to every client, so D_ij = 99 + down_j whatever up_i. */
static void cs_sync_common_output_time(void **state)
{
    (void)state;
    Track *t = circle_track();
    const int up[NC] = {33, 0, 33}, down[NC] = {0, 33, 66};
    int d[NC][NC];
    LinkSpec u[NC], w[NC];
    EngineConfig cfg;
    cs_links(&cfg, ROUTE_SYNC, up, down, u, w);
    cfg.params = scheme_default_params();
    cfg.params.delta_us = 99 * MS;
    for (int i = 0; i < NC; i++)
        for (int j = 0; j < NC; j++)
            d[i][j] = 99 + down[j];
    Metrics m;
    run(&cfg, t, &m);
    Expect x = expect(d);
    check(&m, &x);
    free_links(u, w);
    track_free(t);
}

/* Every scheme of the registry ("every": the papers' and the four after
 * them) runs on both topologies with 8 cars (no crash, every sample taken,
 * the MUs each terminal sends reach the seven others). */
static void eight_cars_every_scheme(void **state)
{
    (void)state;
    Track *t = circle_track();
    LinkSpec l = delay_spec(75);
    for (int topo = 0; topo < 2; topo++) {
        EngineConfig cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.track = t;
        cfg.period_ms = P;
        cfg.ncars = 8;
        cfg.topology = topo ? ROUTE_CS : ROUTE_P2P;
        cfg.params = scheme_default_params();
        NrError err;
        cfg.nschemes = scheme_parse_list("every", cfg.schemes, SCHEME_MAX, &err);
        int nreg = 0;
        while (scheme_registry()[nreg])
            nreg++;
        assert_int_equal(cfg.nschemes, nreg);
        for (int c = 0; c < 8; c++) {
            cfg.link[c] = &l;
            cfg.down_link[c] = &l;
        }
        Engine *e = engine_new(&cfg, &err);
        assert_non_null(e);
        for (int k = 0; k < NS; k++) {
            CarPose pose[8];
            for (int c = 0; c < 8; c++) {
                track_point(t, 2.0 * c + (10.0 + c) * k * P / 1000.0, &pose[c].x, &pose[c].y, &pose[c].heading);
                pose[c].speed = 10.0 + c;
            }
            assert_true(engine_push(e, pose, 8, 0));
            engine_step_to(e, (int64_t)k * P * MS);
        }
        engine_finish(e);
        engine_step_to(e, (int64_t)NS * P * MS);
        for (int k = 0; k < engine_scheme_count(e); k++) {
            const Metrics *m = engine_metrics(e, k);
            assert_int_equal(m->samples, NS);
            assert_true(m->pair_inconsistent <= m->pair_samples && m->pair_samples == 28 * NS);
            if (strcmp(engine_scheme(e, k)->name, "nc") == 0)
                for (int c = 0; c < 8; c++)
                    assert_int_equal(m->dir[c].sent, 7 * NS);
        }
        engine_free(e);
    }
    linkspec_free(&l);
    track_free(t);
}

/* Common random numbers on both topologies: nc and causality send every MU,
 * so over jittery, lossy lines they lose the same MUs and see the same
 * number delivered; in cs an MU lost on the uplink is lost for both its
 * receivers alike (lost counts a multiple of 2 per sender). */
static void same_mu_same_fate(void **state)
{
    (void)state;
    Track *t = circle_track();
    LinkSpec l;
    NrError err;
    memset(&l, 0, sizeof l);
    assert_true(linkspec_parse(&l, "delay 50ms 20ms loss 20%", NULL, &err));
    for (int topo = 0; topo < 2; topo++) {
        EngineConfig cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.track = t;
        cfg.period_ms = P;
        cfg.ncars = NC;
        cfg.seed = 11;
        cfg.topology = topo ? ROUTE_CS : ROUTE_P2P;
        cfg.params = scheme_default_params();
        cfg.nschemes = scheme_parse_list("nc,causality", cfg.schemes, SCHEME_MAX, &err);
        for (int c = 0; c < NC; c++)
            cfg.link[c] = &l; /* p2p every line, cs every uplink; downlinks none */
        Engine *e = engine_new(&cfg, &err);
        assert_non_null(e);
        for (int k = 0; k < NS; k++) {
            CarPose pose[NC];
            for (int c = 0; c < NC; c++) {
                track_point(t, truth(c, k * P), &pose[c].x, &pose[c].y, &pose[c].heading);
                pose[c].speed = v[c];
            }
            assert_true(engine_push(e, pose, NC, 0));
            engine_step_to(e, (int64_t)k * P * MS);
        }
        engine_finish(e);
        engine_step_to(e, (int64_t)NS * P * MS);
        const Metrics *a = engine_metrics(e, 0), *b = engine_metrics(e, 1);
        for (int c = 0; c < NC; c++) {
            assert_int_equal(a->dir[c].sent, 2 * NS);
            assert_int_equal(a->dir[c].lost, b->dir[c].lost);
            assert_int_equal(a->dir[c].delivered, b->dir[c].delivered);
            assert_true(a->dir[c].lost > 0 && a->dir[c].lost < NS);
            if (topo)
                assert_int_equal(a->dir[c].lost % 2, 0);
        }
        engine_free(e);
    }
    linkspec_free(&l);
    track_free(t);
}

static void bad_car_counts_refused(void **state)
{
    (void)state;
    Track *t = circle_track();
    EngineConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.track = t;
    cfg.period_ms = P;
    cfg.params = scheme_default_params();
    NrError err;
    cfg.nschemes = scheme_parse_list("nc", cfg.schemes, SCHEME_MAX, &err);
    cfg.ncars = 9;
    assert_null(engine_new(&cfg, &err));
    assert_non_null(strstr(err.msg, "9 cars"));
    cfg.ncars = 1;
    assert_null(engine_new(&cfg, &err));
    cfg.ncars = 3;
    cfg.topology = (RouteTopology)7;
    assert_null(engine_new(&cfg, &err));
    assert_non_null(strstr(err.msg, "topology"));
    track_free(t);
}

/* A two-car race keeps its two-car footprint (car_size): the causality
 * schemes' per-car buffers of cars 3..8 are not allocated, so a two-player
 * sweep does not pay 8 cars' pages on every run. */
static void two_cars_keep_two_car_state(void **state)
{
    (void)state;
    for (const SchemeType *const *t = scheme_registry(); *t; t++) {
        size_t two = scheme_state_size(*t, 2), eight = scheme_state_size(*t, 8);
        assert_true(eight == (*t)->state_size && two <= eight);
        assert_true(two == eight - 6 * (*t)->car_size);
    }
    /* causality: two MU rings (one per car), not eight */
    assert_true(scheme_state_size(scheme_find("causality"), 2) < 3 * sizeof(MuRing));
    /* dr-causality: its own ring and one peer's held MUs */
    assert_true(scheme_state_size(scheme_find("dr-causality"), 2) < 3 * sizeof(MuRing));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(p2p_three_cars_by_hand),
        cmocka_unit_test(cs_relay_adds_both_hops),
        cmocka_unit_test(cs_sync_common_output_time),
        cmocka_unit_test(eight_cars_every_scheme),
        cmocka_unit_test(same_mu_same_fate),
        cmocka_unit_test(bad_car_counts_refused),
        cmocka_unit_test(two_cars_keep_two_car_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
