/* The engine on synthetic races whose answers are known by hand: cars at
 * constant speed on a circle's centre line, constant link delays. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "experiment.h"
#include "fixedmedium.h"
#include "replay.h"

#define MS NR_US_PER_MS
#define PERIOD_MS 33

static Track *circle_track(void)
{
    char text[8192];
    int w = snprintf(text, sizeof text, "netrace-track 1\nname circle\nwidth 10\n");
    const double r = 300.0;
    for (int i = 0; i < 96; i++) {
        double a = 2.0 * NR_PI * i / 96;
        w += snprintf(text + w, sizeof text - (size_t)w, "point %.9f %.9f\n", r * cos(a), r * sin(a));
    }
    NrError err;
    Track *t = track_parse(text, "circle", &err);
    if (!t)
        fprintf(stderr, "%s\n", err.msg);
    assert_non_null(t);
    return t;
}

/* Car c starts at arc length s0[c] and runs at v[c] cw/s along the centre
 * line, so its true progress is s0 + v t exactly. */
static void make_race_period(Recording *rec, const Track *t, int nsamples, const double s0[2],
                             const double v[2], int period_ms)
{
    memset(rec, 0, sizeof *rec);
    rec->version = RECORDING_VERSION;
    strcpy(rec->track, "circle");
    strcpy(rec->source, "autopilot");
    rec->period_ms = period_ms;
    rec->ncars = 2;
    rec->nsamples = nsamples;
    rec->samples = calloc((size_t)(2 * nsamples), sizeof(RecSample));
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < nsamples; i++) {
            RecSample *s = &rec->samples[c * nsamples + i];
            double tt = i * period_ms / 1000.0;
            s->t_ms = i * period_ms;
            track_point(t, s0[c] + v[c] * tt, &s->x, &s->y, &s->heading);
            s->speed = v[c];
        }
}

static void make_race(Recording *rec, const Track *t, int nsamples, const double s0[2], const double v[2])
{
    make_race_period(rec, t, nsamples, s0, v, PERIOD_MS);
}

static void config(EngineConfig *cfg, const Recording *rec, const Track *t, const LinkSpec *l12,
                   const LinkSpec *l21, const char *schemes)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->track = t;
    cfg->period_ms = rec->period_ms;
    cfg->link[0] = l12;
    cfg->link[1] = l21;
    cfg->seed = 7;
    cfg->params = scheme_default_params();
    NrError err;
    cfg->nschemes = scheme_parse_list(schemes, cfg->schemes, SCHEME_MAX, &err);
    assert_true(cfg->nschemes > 0);
}

static LinkSpec spec(const char *text)
{
    LinkSpec s;
    NrError err;
    memset(&s, 0, sizeof s);
    if (!linkspec_parse(&s, text, NULL, &err))
        fprintf(stderr, "%s\n", err.msg);
    return s;
}

/* Age of the newest MU shown by NC at sample k with a constant delay D:
 * the newest generation time g = j P with g + D <= t_k, or 0 (the grid). */
static double nc_age_s(int k, int delay_ms)
{
    int t = k * PERIOD_MS;
    int g = t - delay_ms < 0 ? 0 : ((t - delay_ms) / PERIOD_MS) * PERIOD_MS;
    return (t - g) / 1000.0;
}

static void nc_positional_errors_by_hand(void **state)
{
    (void)state;
    Track *t = circle_track();
    Recording rec;
    const double s0[2] = {0.0, 5.0}, v[2] = {30.0, 20.0};
    const int n = 300;
    make_race(&rec, t, n, s0, v);
    LinkSpec l12 = spec("delay 100ms"), l21 = spec("delay 50ms");
    EngineConfig cfg;
    config(&cfg, &rec, t, &l12, &l21, "nc");
    cfg.keep_history = true;
    Replay *rp = replay_new(&cfg, &rec, false, NULL);
    assert_non_null(rp);
    Engine *e = replay_engine(rp);
    assert_non_null(e);
    replay_step_to(rp, replay_end_us(rp));
    int hn;
    const MetricSample *h = engine_history(e, 0, &hn);
    assert_int_equal(hn, n);
    double sum = 0;
    int bad = 0;
    for (int k = 0; k < n; k++) {
        /* d1: car 1 true at terminal 1 minus car 1 seen at terminal 2. */
        double d1 = v[0] * nc_age_s(k, 100), d2 = v[1] * nc_age_s(k, 50);
        assert_true(fabs(h[k].d1 - d1) < 1e-6);
        assert_true(fabs(h[k].d2 - d2) < 1e-6);
        sum += d1 - d2;
        /* Car 1 overtakes car 2 (5 cw ahead, 10 cw/s slower) at 0.5 s.
         * Terminal 1: own car 1 true, car 2 aged; terminal 2 the reverse. */
        double tt = k * PERIOD_MS / 1000.0;
        bool ahead1 = s0[0] + v[0] * tt > s0[1] + v[1] * (tt - nc_age_s(k, 50));
        bool ahead2 = s0[0] + v[0] * (tt - nc_age_s(k, 100)) > s0[1] + v[1] * tt;
        bad += ahead1 != ahead2;
        assert_int_equal(h[k].inconsistent, ahead1 != ahead2);
    }
    const Metrics *m = engine_metrics(e, 0);
    assert_true(bad > 0);
    assert_int_equal(m->inconsistent, bad);
    assert_true(fabs(metrics_mean_d1_minus_d2(m) - sum / n) < 1e-6);
    /* Every MU sent; all but those still in flight at the end delivered. */
    assert_int_equal(m->dir[0].sent, n);
    assert_int_equal(m->dir[1].sent, n);
    assert_int_equal(m->dir[0].delivered, n - 4); /* 100 ms = 3.03 periods in flight */
    assert_int_equal(m->dir[1].delivered, n - 2);
    replay_free(rp);
    linkspec_free(&l12);
    linkspec_free(&l21);
    recording_free(&rec);
    track_free(t);
}

/* An MU due exactly at a sample instant is delivered before that instant's
 * metrics sample: with a 66 ms (two-period) delay NC shows MU k - 2 at
 * sample k, so d1 = v * 0.066 from sample 2 on. */
static void arrival_at_sample_time_precedes_metrics(void **state)
{
    (void)state;
    Track *t = circle_track();
    Recording rec;
    const double s0[2] = {0.0, 5.0}, v[2] = {30.0, 20.0};
    make_race(&rec, t, 50, s0, v);
    LinkSpec l = spec("delay 66ms");
    EngineConfig cfg;
    config(&cfg, &rec, t, &l, &l, "nc");
    cfg.keep_history = true;
    Replay *rp = replay_new(&cfg, &rec, false, NULL);
    assert_non_null(rp);
    Engine *e = replay_engine(rp);
    replay_step_to(rp, replay_end_us(rp));
    int hn;
    const MetricSample *h = engine_history(e, 0, &hn);
    for (int k = 2; k < hn; k++) {
        assert_true(fabs(h[k].d1 - v[0] * 0.066) < 1e-6);
        assert_true(fabs(h[k].d2 - v[1] * 0.066) < 1e-6);
    }
    replay_free(rp);
    linkspec_free(&l);
    recording_free(&rec);
    track_free(t);
}

/* Causality with Delta = 100 ms and delays below Delta: both terminals show
 * both cars exactly as of now - Delta (rounded down to a sample), so the
 * race looks the same at both terminals: d1 = d2 = 0, never inconsistent. */
static void causality_consistent_when_delay_below_delta(void **state)
{
    (void)state;
    Track *t = circle_track();
    Recording rec;
    const double s0[2] = {0.0, 5.0}, v[2] = {30.0, 20.0};
    make_race(&rec, t, 200, s0, v);
    LinkSpec l12 = spec("delay 90ms"), l21 = spec("delay 10ms");
    EngineConfig cfg;
    config(&cfg, &rec, t, &l12, &l21, "causality");
    RunResult r;
    assert_true(experiment_run(&cfg, &rec, &r, NULL));
    assert_true(r.inconsistency_rate == 0.0);
    assert_true(fabs(r.mean_abs_d1) < 1e-9 && fabs(r.mean_abs_d2) < 1e-9);
    assert_int_equal(r.dir[0].discarded, 0);
    linkspec_free(&l12);
    linkspec_free(&l21);

    /* Above Delta every MU is late and discarded: car 1 stays on the grid at
     * terminal 2 while terminal 1 shows it as of now - Delta. */
    l12 = spec("delay 150ms");
    l21 = spec("delay 10ms");
    config(&cfg, &rec, t, &l12, &l21, "causality");
    assert_true(experiment_run(&cfg, &rec, &r, NULL));
    assert_int_equal(r.dir[0].discarded, r.dir[0].delivered);
    assert_true(r.dir[0].delivered > 150);
    linkspec_free(&l12);
    linkspec_free(&l21);
    recording_free(&rec);
    track_free(t);
}

/* At the largest Delta the buffers hold, causality still shows both cars as
 * of now - Delta: a delay of 3 s one way and 50 ms the other changes nothing
 * (d1 = d2 = 0), and at the end car 1 is shown at the sample taken Delta
 * earlier (rounded down to a sample). */
static void causality_at_largest_delta(void **state)
{
    (void)state;
    Track *t = circle_track();
    Recording rec;
    const double s0[2] = {0.0, 5.0}, v[2] = {30.0, 20.0};
    make_race(&rec, t, 400, s0, v);
    LinkSpec l12 = spec("delay 3s"), l21 = spec("delay 50ms");
    EngineConfig cfg;
    config(&cfg, &rec, t, &l12, &l21, "causality");
    cfg.params.delta_us = SCHEME_DELTA_MAX_US;
    Replay *rp = replay_new(&cfg, &rec, false, NULL);
    assert_non_null(rp);
    Engine *e = replay_engine(rp);
    replay_step_to(rp, replay_end_us(rp));
    const Metrics *m = engine_metrics(e, 0);
    assert_int_equal(m->inconsistent, 0);
    assert_true(m->sum_abs_d1 == 0.0 && m->sum_abs_d2 == 0.0);
    assert_int_equal(m->dir[0].discarded, 0);
    EngineView view;
    engine_view(e, 0, 1, &view);
    int64_t shown_ms = 399 * PERIOD_MS - SCHEME_DELTA_MAX_US / MS;
    int seq = (int)(shown_ms / PERIOD_MS);
    assert_int_equal(view.pose[0].seq, seq);
    assert_true(fabs(view.progress[0] - (s0[0] + v[0] * seq * PERIOD_MS / 1000.0)) < 1e-6);
    replay_free(rp);
    linkspec_free(&l12);
    linkspec_free(&l21);
    recording_free(&rec);
    track_free(t);
}

/* The schemes' buffers hold 128 samples: with a 10 ms recording a Delta of
 * 2 s (200 samples) cannot be honoured (the rings would forget the frame of
 * now - Delta and show a newer one), so the engine refuses it; a live change
 * is held at the largest Delta that fits. Within the buffers (1.2 s here)
 * causality shows both cars as of now - Delta at both terminals: d1 = d2 = 0
 * whatever the delays below Delta. */
static void causality_delta_beyond_buffers_at_short_period(void **state)
{
    (void)state;
    Track *t = circle_track();
    Recording rec;
    const double s0[2] = {0.0, 5.0}, v[2] = {30.0, 20.0};
    make_race_period(&rec, t, 600, s0, v, 10);
    LinkSpec l12 = spec("delay 1s"), l21 = spec("delay 50ms");
    EngineConfig cfg;
    config(&cfg, &rec, t, &l12, &l21, "causality");
    cfg.params.delta_us = 2000 * MS;
    NrError err;
    assert_null(replay_new(&cfg, &rec, false, &err));
    assert_non_null(strstr(err.msg, "Delta 2000 ms"));
    cfg.params.delta_us = 1200 * MS;
    Replay *rp = replay_new(&cfg, &rec, false, &err);
    assert_non_null(rp);
    Engine *e = replay_engine(rp);
    replay_step_to(rp, replay_end_us(rp));
    const Metrics *m = engine_metrics(e, 0);
    assert_true(m->sum_abs_d1 == 0.0 && m->sum_abs_d2 == 0.0);
    assert_int_equal(m->dir[0].discarded, 0);
    SchemeParams p = cfg.params;
    p.delta_us = 2000 * MS;
    engine_set_params(e, &p);
    assert_true(engine_params(e)->delta_us <= 1280 * MS); /* 128 samples of 10 ms */
    replay_free(rp);

    /* The largest Delta at 33 ms fits 128 samples of 33 ms, but not of a
     * terminal clock 10 % slow (29.7 ms apart: 3.8 s). */
    Recording rec33;
    make_race(&rec33, t, 200, s0, v);
    config(&cfg, &rec33, t, &l12, &l21, "causality");
    cfg.params.delta_us = SCHEME_DELTA_MAX_US;
    cfg.clock[1].drift_ppm = -100000.0;
    assert_null(replay_new(&cfg, &rec33, false, &err));
    cfg.clock[1].drift_ppm = -1000.0;
    rp = replay_new(&cfg, &rec33, false, &err);
    assert_non_null(rp);
    replay_free(rp);
    recording_free(&rec33);
    linkspec_free(&l12);
    linkspec_free(&l21);
    recording_free(&rec);
    track_free(t);
}

/* Common random numbers: NC and Causality send every MU, so they see the
 * same losses and the same deliveries; a lossless link loses nothing. */
static void schemes_share_the_traffic(void **state)
{
    (void)state;
    Track *t = circle_track();
    Recording rec;
    const double s0[2] = {0.0, 5.0}, v[2] = {30.0, 20.0};
    make_race(&rec, t, 600, s0, v);
    LinkSpec l12 = spec("delay 60ms 40ms loss 20%"), l21 = spec("delay 60ms 40ms");
    EngineConfig cfg;
    config(&cfg, &rec, t, &l12, &l21, "nc,causality");
    RunResult r[2];
    assert_true(experiment_run(&cfg, &rec, r, NULL));
    assert_int_equal(r[0].dir[0].lost, r[1].dir[0].lost);
    assert_int_equal(r[0].dir[0].delivered, r[1].dir[0].delivered);
    assert_true(r[0].dir[0].lost > 60 && r[0].dir[0].lost < 180); /* 20% of 600, wide */
    assert_int_equal(r[0].dir[1].lost, 0);
    linkspec_free(&l12);
    linkspec_free(&l21);
    recording_free(&rec);
    track_free(t);
}

/* A link without delay delivers an MU at the instant it is sent: an MU
 * generated at sample k is due at t_k (due at or before t_k), so it is shown
 * at that sample's metrics. NC over two delay-free links is then exactly
 * consistent (the formula of nc_age_s with D = 0: age 0), and so is a zero
 * delay drawn by a jittered link ("a negative delay means send now"). */
static void zero_delay_mu_is_shown_at_its_own_sample(void **state)
{
    (void)state;
    Track *t = circle_track();
    Recording rec;
    const double s0[2] = {0.0, 5.0}, v[2] = {30.0, 20.0};
    make_race(&rec, t, 60, s0, v);
    EngineConfig cfg;
    config(&cfg, &rec, t, NULL, NULL, "nc");
    cfg.keep_history = true;
    Replay *rp = replay_new(&cfg, &rec, false, NULL);
    assert_non_null(rp);
    Engine *e = replay_engine(rp);
    assert_non_null(e);
    replay_step_to(rp, replay_end_us(rp));
    int hn;
    const MetricSample *h = engine_history(e, 0, &hn);
    assert_int_equal(hn, 60);
    for (int k = 0; k < hn; k++) {
        assert_true(h[k].d1 == 0.0);
        assert_true(h[k].d2 == 0.0);
        assert_false(h[k].inconsistent);
    }
    assert_int_equal(engine_metrics(e, 0)->dir[0].delivered, 60);
    replay_free(rp);
    recording_free(&rec);
    track_free(t);
}

/* Same seed, same bytes; another seed, other bytes. */
static void same_seed_same_csv(void **state)
{
    (void)state;
    Track *t = circle_track();
    Recording rec;
    const double s0[2] = {0.0, 2.0}, v[2] = {25.0, 24.0};
    make_race(&rec, t, 500, s0, v);
    LinkSpec l12 = spec("delay 75ms 30ms"), l21 = spec("delay 75ms 10ms loss 5%");
    char *buf[3];
    size_t len[3];
    for (int run = 0; run < 3; run++) {
        EngineConfig cfg;
        config(&cfg, &rec, t, &l12, &l21, "all");
        cfg.seed = run < 2 ? 11 : 12;
        RunResult r[SCHEME_MAX];
        assert_true(experiment_run(&cfg, &rec, r, NULL));
        FILE *f = open_memstream(&buf[run], &len[run]);
        RunKey key = {75, 30, 75, 10, 100, 0.25, cfg.seed};
        result_csv_header(f);
        for (int k = 0; k < cfg.nschemes; k++)
            result_csv_row(f, &key, &r[k]);
        fclose(f);
    }
    assert_int_equal(len[0], len[1]);
    assert_memory_equal(buf[0], buf[1], len[0]);
    assert_true(len[0] != len[2] || memcmp(buf[0], buf[2], len[0]) != 0);
    for (int i = 0; i < 3; i++)
        free(buf[i]);
    linkspec_free(&l12);
    linkspec_free(&l21);
    recording_free(&rec);
    track_free(t);
}

/* Stepping in small pieces ends where one big step ends; restart replays
 * the same traffic. */
static void stepping_and_restart_are_consistent(void **state)
{
    (void)state;
    Track *t = circle_track();
    Recording rec;
    const double s0[2] = {0.0, 2.0}, v[2] = {25.0, 24.0};
    make_race(&rec, t, 400, s0, v);
    LinkSpec l = spec("delay 80ms 40ms distribution normal loss 3%");
    EngineConfig cfg;
    config(&cfg, &rec, t, &l, &l, "all");
    Replay *a = replay_new(&cfg, &rec, false, NULL), *b = replay_new(&cfg, &rec, false, NULL);
    assert_non_null(a);
    assert_non_null(b);
    replay_step_to(a, replay_end_us(a));
    for (int64_t tt = 0; tt <= replay_end_us(b); tt += 7 * MS + 1)
        replay_step_to(b, tt);
    replay_step_to(b, replay_end_us(b));
    for (int k = 0; k < cfg.nschemes; k++)
        assert_memory_equal(engine_metrics(replay_engine(a), k), engine_metrics(replay_engine(b), k), sizeof(Metrics));
    Metrics first = *engine_metrics(replay_engine(a), 2);
    replay_restart(a);
    replay_step_to(a, replay_end_us(a));
    assert_memory_equal(&first, engine_metrics(replay_engine(a), 2), sizeof(Metrics));
    replay_free(a);
    replay_free(b);
    linkspec_free(&l);
    recording_free(&rec);
    track_free(t);
}

/* A live link change applies to MUs sent after it. */
static void live_link_change(void **state)
{
    (void)state;
    Track *t = circle_track();
    Recording rec;
    const double s0[2] = {0.0, 2.0}, v[2] = {25.0, 24.0};
    make_race(&rec, t, 300, s0, v);
    LinkSpec fast = spec("delay 10ms"), lossy = spec("delay 10ms loss 100%");
    EngineConfig cfg;
    config(&cfg, &rec, t, &fast, &fast, "nc");
    Replay *rp = replay_new(&cfg, &rec, false, NULL);
    assert_non_null(rp);
    Engine *e = replay_engine(rp);
    replay_step_to(rp, 99 * PERIOD_MS * MS); /* samples 0..99 sent */
    assert_true(engine_set_link(e, 0, &lossy, NULL));
    replay_step_to(rp, replay_end_us(rp));
    const Metrics *m = engine_metrics(e, 0);
    assert_int_equal(m->dir[0].lost, 200);
    assert_int_equal(m->dir[1].lost, 0);
    assert_string_equal(engine_link(e, 0)->text, lossy.text);
    replay_free(rp);
    linkspec_free(&fast);
    linkspec_free(&lossy);
    recording_free(&rec);
    track_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nc_positional_errors_by_hand),
        cmocka_unit_test(arrival_at_sample_time_precedes_metrics),
        cmocka_unit_test(causality_consistent_when_delay_below_delta),
        cmocka_unit_test(causality_at_largest_delta),
        cmocka_unit_test(causality_delta_beyond_buffers_at_short_period),
        cmocka_unit_test(schemes_share_the_traffic),
        cmocka_unit_test(zero_delay_mu_is_shown_at_its_own_sample),
        cmocka_unit_test(same_seed_same_csv),
        cmocka_unit_test(stepping_and_restart_are_consistent),
        cmocka_unit_test(live_link_change),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
