/* A remote terminal (engine.h): two engines, each with one terminal local
 * and the other remote, joined by hand (what one forwards the other
 * receives at its due time; each one's view of a sample reaches the other
 * three samples later), must compute exactly the metrics and counters of
 * one all-local engine on the same race and links: the same traffic (the
 * DelayLine of direction d draws stream d of the seed in both), the same
 * displays, the same arithmetic. Also: views arriving out of order are
 * paired in sample order, and a sample whose remote view never comes is
 * skipped once a later view of that terminal has arrived; the latest
 * remote view, as the network window draws the peer's screens, is the
 * local engine's display of the same sample. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "recording.h"

#include "netrace_config.h"

#define QMAX 65536
#define VIEW_LAG 3 /* samples a view takes to reach the other engine */

typedef struct Msg {
    int to;
    MediumDelivery d;
} Msg;

typedef struct Pair {
    Engine *e[2];  /* e[j]: terminal j local, the other remote */
    Msg q[QMAX];   /* forwarded, not yet received */
    int nq;
    int64_t samples_seen[2]; /* on_sample calls */
    int32_t last_seq[2];
} Pair;

typedef struct Side {
    Pair *p;
    int me;
} Side;

static void fwd(void *ctx, const MediumDelivery *d)
{
    Side *s = ctx;
    assert_true(s->p->nq < QMAX);
    assert_int_equal(d->from, s->me);
    s->p->q[s->p->nq++] = (Msg){d->to, *d};
}

static void on_sample(void *ctx, const EngineSample *es)
{
    Side *s = ctx;
    /* samples are taken in order, each once */
    assert_true(es->seq > s->p->last_seq[s->me]);
    s->p->last_seq[s->me] = es->seq;
    s->p->samples_seen[s->me]++;
}

static void config(EngineConfig *cfg, const Track *t, const LinkSpec *l[2])
{
    memset(cfg, 0, sizeof *cfg);
    cfg->track = t;
    cfg->period_ms = 33;
    cfg->link[0] = l[0];
    cfg->link[1] = l[1];
    cfg->seed = 11;
    cfg->params = scheme_default_params();
    NrError err;
    cfg->nschemes = scheme_parse_list("all", cfg->schemes, SCHEME_MAX, &err);
    assert_true(cfg->nschemes >= 5);
}

/* Every forwarded MU due at or before t reaches its engine, in due order. */
static void deliver_due(Pair *p, int64_t t)
{
    for (;;) {
        int best = -1;
        for (int i = 0; i < p->nq; i++)
            if (p->q[i].d.due_us <= t && (best < 0 || p->q[i].d.due_us < p->q[best].d.due_us))
                best = i;
        if (best < 0)
            return;
        Msg m = p->q[best]; /* equal due times keep their forwarding order */
        memmove(&p->q[best], &p->q[best + 1], sizeof *p->q * (size_t)(p->nq - best - 1));
        p->nq--;
        engine_receive(p->e[m.to], m.d.scheme, m.d.from, m.to, &m.d.mu, m.d.due_us);
    }
}

/* Terminal j's view of sample seq handed to the other engine. */
static bool pass_view(Pair *p, int j, int32_t seq)
{
    TerminalView v;
    assert_true(engine_local_view(p->e[j], j, seq, &v));
    return engine_put_view(p->e[1 - j], j, &v);
}

/* Runs the race through both engines; views of sample i pass at sample
 * i + VIEW_LAG, except terminal 0's view of drop_seq (lost); swap_at: the
 * views of that sample and the next pass in reverse order. */
static void run_pair(Pair *p, const Recording *rec, int32_t drop_seq, int32_t swap_at)
{
    for (int i = 0; i < rec->nsamples + VIEW_LAG; i++) {
        int64_t t = (int64_t)i * 33000;
        if (i < rec->nsamples) {
            for (int j = 0; j < 2; j++)
                engine_step_to(p->e[j], t - 1); /* forwards due before the sample */
            deliver_due(p, t - 1);
            for (int j = 0; j < 2; j++)
                engine_step_to(p->e[j], t); /* and those due at its instant */
            deliver_due(p, t);
            CarPose poses[2];
            for (int c = 0; c < 2; c++) {
                const RecSample *s = &rec->samples[(size_t)c * (size_t)rec->nsamples + (size_t)i];
                poses[c] = (CarPose){s->x, s->y, s->heading, s->speed};
            }
            for (int j = 0; j < 2; j++) {
                assert_true(engine_push(p->e[j], poses, 2, 0));
                engine_step_to(p->e[j], t);
            }
        }
        int32_t v = i - VIEW_LAG;
        if (v < 0 || (swap_at >= 0 && v == swap_at + 1))
            continue;
        int32_t order[2] = {v, v};
        int n = 1;
        if (v == swap_at) { /* sample v + 1's views first, then v's */
            order[0] = v + 1;
            n = 2;
        }
        for (int o = 0; o < n; o++)
            for (int j = 0; j < 2; j++)
                if (!(j == 0 && order[o] == drop_seq))
                    pass_view(p, j, order[o]);
    }
}

static void open_pair(Pair *p, Side side[2], const EngineConfig *base)
{
    memset(p, 0, sizeof *p);
    NrError err;
    for (int j = 0; j < 2; j++) {
        side[j] = (Side){p, j};
        p->last_seq[j] = -1;
        EngineConfig c = *base;
        c.remote[1 - j] = true;
        c.hooks = (EngineHooks){&side[j], on_sample, fwd};
        p->e[j] = engine_new(&c, &err);
        assert_non_null(p->e[j]);
    }
}

/* The all-local engine over the recording, finished. */
static Engine *run_local(const EngineConfig *cfg, const Recording *rec)
{
    NrError err;
    Engine *all = engine_new(cfg, &err);
    assert_non_null(all);
    for (int i = 0; i < rec->nsamples; i++) {
        CarPose poses[2];
        for (int c = 0; c < 2; c++) {
            const RecSample *s = &rec->samples[(size_t)c * (size_t)rec->nsamples + (size_t)i];
            poses[c] = (CarPose){s->x, s->y, s->heading, s->speed};
        }
        assert_true(engine_push(all, poses, 2, 0));
        engine_step_to(all, (int64_t)i * 33000);
    }
    engine_finish(all);
    return all;
}

/* Engine j's metrics of one scheme against the all-local engine's. */
static void assert_same_metrics(const Metrics *m, const Metrics *a, int j, int nsamples)
{
    assert_int_equal(m->samples, nsamples);
    assert_int_equal(m->inconsistent, a->inconsistent);
    /* bit for bit: the same displays, the same sums in the same order */
    assert_true(m->sum_d1 == a->sum_d1 && m->sum_d2 == a->sum_d2);
    assert_true(m->sum_abs_d1 == a->sum_abs_d1 && m->sum_abs_d2 == a->sum_abs_d2);
    /* terminal j's sends are counted at j, its receipts at j too */
    const DirCounters *out = &m->dir[j], *aout = &a->dir[j];
    assert_int_equal(out->sent, aout->sent);
    assert_int_equal(out->bytes, aout->bytes);
    assert_int_equal(out->lost, aout->lost);
    assert_int_equal(out->duplicated, aout->duplicated);
    const DirCounters *in = &m->dir[1 - j], *ain = &a->dir[1 - j];
    assert_int_equal(in->delivered, ain->delivered);
    assert_int_equal(in->late, ain->late);
    assert_int_equal(in->discarded, ain->discarded);
}

/* Each engine's latest view of its remote terminal (the peer's screen in
 * the network window) is what the all-local engine displays at that
 * terminal at the same sample: the same positions and samples shown, the
 * same progress, laps and leader, bit for bit; the heading (a VIEW carries
 * none) is the track's at the displayed progress. A local terminal has no
 * remote view. */
static void assert_remote_view_is_local(Pair *p, const Engine *all, const EngineConfig *base, int32_t last)
{
    const Track *t = base->track;
    int predicted = 0;
    for (int j = 0; j < 2; j++) {
        int r = 1 - j;
        EngineView v, want;
        assert_int_equal(engine_remote_view(p->e[j], 0, j, &v), -1);
        assert_int_equal(engine_remote_view(p->e[j], base->nschemes, r, &v), -1);
        for (int k = 0; k < base->nschemes; k++) {
            assert_int_equal(engine_remote_view(p->e[j], k, r, &v), last);
            engine_view(all, k, r, &want);
            for (int c = 0; c < 2; c++) {
                assert_true(v.pose[c].x == want.pose[c].x && v.pose[c].y == want.pose[c].y);
                assert_int_equal(v.pose[c].seq, want.pose[c].seq);
                assert_true(v.progress[c] == want.progress[c]);
                assert_int_equal(v.lap[c], want.lap[c]);
                double heading;
                track_point(t, v.progress[c], NULL, NULL, &heading);
                assert_true(v.pose[c].heading == heading);
                predicted += v.pose[c].seq < 0;
            }
            assert_int_equal(v.leader, want.leader);
        }
    }
    assert_true(predicted > 0); /* a DR scheme's prediction was among them */
}

static void remote_equals_local(void **state)
{
    (void)state;
    NrError err;
    Track *t = track_load(NETRACE_SOURCE_DIR "/tracks/default.track", &err);
    assert_non_null(t);
    Recording rec;
    assert_true(recording_load(&rec, NETRACE_SOURCE_DIR "/recordings/default.csv", &err));
    LinkSpec spec[2];
    assert_true(linkspec_parse(&spec[0], "delay 45ms 20ms distribution paretonormal loss 5%", NULL, &err));
    assert_true(linkspec_parse(&spec[1], "delay 110ms 30ms duplicate 3%", NULL, &err));
    const LinkSpec *l[2] = {&spec[0], &spec[1]};
    EngineConfig base;
    config(&base, t, l);
    Engine *all = run_local(&base, &rec);
    Pair *p = malloc(sizeof *p);
    assert_non_null(p);
    Side side[2];
    open_pair(p, side, &base);
    run_pair(p, &rec, -1, 200);
    for (int j = 0; j < 2; j++) {
        assert_int_equal(p->samples_seen[j], rec.nsamples);
        assert_int_equal(engine_views_skipped(p->e[j]), 0);
        for (int k = 0; k < base.nschemes; k++)
            assert_same_metrics(engine_metrics(p->e[j], k), engine_metrics(all, k), j, rec.nsamples);
    }
    /* the links did something: losses one way, duplicates the other */
    assert_true(engine_metrics(all, 0)->dir[0].lost > 0);
    assert_true(engine_metrics(all, 0)->dir[1].duplicated > 0);
    assert_remote_view_is_local(p, all, &base, rec.nsamples - 1);
    for (int j = 0; j < 2; j++)
        engine_free(p->e[j]);

    /* Terminal 0's view of sample 100 is lost: engine 1 gives that sample
     * up once a view 30 samples later is in, engine 0 has both views. */
    open_pair(p, side, &base);
    run_pair(p, &rec, 100, -1);
    assert_int_equal(engine_views_skipped(p->e[0]), 0);
    assert_int_equal(engine_metrics(p->e[0], 0)->samples, rec.nsamples);
    assert_int_equal(engine_views_skipped(p->e[1]), 1);
    assert_int_equal(engine_metrics(p->e[1], 0)->samples, rec.nsamples - 1);
    /* the lost view arriving now is refused (its sample was given up), as
     * is a view of the local terminal; engine 1 has no local view of 0 */
    ShownCar none[SCHEME_MAX * 2];
    memset(none, 0, sizeof none);
    TerminalView late = {.seq = 100, .nschemes = base.nschemes, .ncars = 2, .car = none};
    assert_false(engine_put_view(p->e[1], 0, &late));
    assert_false(engine_put_view(p->e[1], 1, &late));
    /* the lost view leaves the newest kept one as engine 1's remote view;
     * before any view arrives there is none */
    EngineView ev;
    assert_int_equal(engine_remote_view(p->e[1], 0, 0, &ev), rec.nsamples - 1);
    TerminalView v;
    assert_false(engine_local_view(p->e[1], 0, rec.nsamples - 1, &v));
    assert_true(engine_local_view(p->e[1], 1, rec.nsamples - 1, &v));
    assert_int_equal(engine_metrics(p->e[1], 0)->samples, rec.nsamples - 1);
    for (int j = 0; j < 2; j++)
        engine_free(p->e[j]);
    open_pair(p, side, &base);
    assert_int_equal(engine_remote_view(p->e[0], 0, 1, &ev), -1);
    for (int j = 0; j < 2; j++)
        engine_free(p->e[j]);
    free(p);
    engine_free(all);
    for (int d = 0; d < 2; d++)
        linkspec_free(&spec[d]);
    recording_free(&rec);
    track_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(remote_equals_local),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
