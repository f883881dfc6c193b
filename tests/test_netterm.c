/* Two network terminals (netterm.h) joined in-process by a fixed-delay
 * "network" that carries every packet through the wire format: their live
 * metrics, computed from each other's VIEW packets, must equal the engine's
 * replay of the race they drove (their own samples) over links of the same
 * delay, for every scheme (DESIGN.md: the same engine logic on every
 * medium; docs/netplay.md "Live metrics"). Also: one packet per sample
 * when the schemes send the same bytes, masks naming exactly the senders,
 * and a lost view skipped at both ends; each car re-simulated alone from
 * the inputs its terminal gave (NetTermOut.input) equals it bit for bit. */
#include "bot.h"
#include "experiment.h"
#include "inputs.h"
#include "netterm.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "netrace_config.h"

#define DELAY_US 50000 /* not a multiple of 33 ms: no delivery ties a sample */
#define QMAX 8192
#define SAMPLES 400

typedef struct Packet {
    int to;
    int64_t due;
    uint8_t bytes[WIRE_MAX_BYTES];
    size_t n;
} Packet;

typedef struct Net {
    Packet q[QMAX];
    int nq;
    int from;            /* the terminal whose out is running */
    Recording rec;       /* both cars' own samples */
    int64_t mu_packets, mu_masks_bits, views;
    int64_t drop_view_seq; /* a VIEW of this seq from terminal 0 is lost (-1: none) */
    int drop_mu_mod;       /* > 0: terminal 0's MU packets of seq % mod == 3 are lost */
    InputLine in[2][4 * SAMPLES]; /* each terminal's input lines (NetTermOut.input) */
    int nin[2];
} Net;

typedef struct Out {
    Net *net;
    int me;
} Out;

static void out_packet(void *ctx, WirePacket *p, int64_t send_us, int to)
{
    Out *o = ctx;
    Net *net = o->net;
    assert_int_equal(to, 1 - o->me); /* two cars: every packet to the other */
    p->token = 42;
    if (p->kind == WIRE_MU) {
        net->mu_packets++;
        for (uint32_t m = p->u.mu.schemes; m; m &= m - 1)
            net->mu_masks_bits++;
        if (o->me == 0 && net->drop_mu_mod > 0 && p->u.mu.mu.seq % net->drop_mu_mod == 3)
            return;
    } else {
        net->views++;
        if (o->me == 0 && p->u.view.seq == net->drop_view_seq)
            return;
    }
    assert_true(net->nq < QMAX);
    Packet *q = &net->q[net->nq++];
    q->to = 1 - o->me;
    q->due = send_us + DELAY_US;
    q->n = wire_encode(p, q->bytes, sizeof q->bytes);
    assert_true(q->n > 0);
}

static void out_sample(void *ctx, int32_t seq, const RecSample *s)
{
    Out *o = ctx;
    if (seq < SAMPLES)
        o->net->rec.samples[o->me * SAMPLES + seq] = *s;
}

static void out_input(void *ctx, int64_t t_us, const CarInput *in)
{
    Out *o = ctx;
    Net *net = o->net;
    assert_true(t_us % WORLD_CONTROL_US == 0); /* read at a control time */
    assert_true(net->nin[o->me] < 4 * SAMPLES);
    net->in[o->me][net->nin[o->me]++] = (InputLine){(int32_t)(t_us / 1000), o->me, *in};
}

/* Drives both terminals for SAMPLES samples plus the tail of deliveries. */
static void drive(Net *net, const Track *t, const SchemeType *const *schemes, int n, NetTerminal *np[2])
{
    Out outs[2] = {{net, 0}, {net, 1}};
    NetTermOut out[2] = {{&outs[0], out_packet, out_sample, out_input}, {&outs[1], out_packet, out_sample, out_input}};
    Bot *bot[2];
    Controller ctl[2];
    CarParams params;
    car_params_default(&params);
    NrError err;
    for (int c = 0; c < 2; c++) {
        bot[c] = bot_new(t, &params, (BotDriver){0.9, 0.5}, 3, (uint64_t)c, &err);
        assert_non_null(bot[c]);
        ctl[c] = bot_controller(bot[c]);
        NetTermConfig cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.track = t;
        cfg.car = c;
        for (int k = 0; k < n; k++)
            cfg.schemes[k] = schemes[k];
        cfg.nschemes = n;
        cfg.params = scheme_default_params();
        cfg.flow.duration_us = 3600 * NR_US_PER_S;
        cfg.ctl = &ctl[c];
        cfg.seed = 1;
        cfg.lagometer = true; /* it only watches: the metrics below are the replay's all the same */
        np[c] = netterm_new(&cfg, &err);
        assert_non_null(np[c]);
    }
    for (int c = 0; c < 2; c++)
        netterm_start(np[c], &out[c]);
    int64_t end = (int64_t)(SAMPLES - 1) * WORLD_SAMPLE_US;
    for (int64_t t_us = 0; t_us <= end + DELAY_US + 1000; t_us += 500) {
        int64_t lim = t_us < end ? t_us : end; /* no own samples past the last */
        /* deliveries due by t_us, in due order, each after the samples before it */
        for (;;) {
            int best = -1;
            for (int i = 0; i < net->nq; i++)
                if (net->q[i].due <= t_us && (best < 0 || net->q[i].due < net->q[best].due))
                    best = i;
            if (best < 0)
                break;
            Packet p = net->q[best]; /* equal due times leave in sending order */
            memmove(&net->q[best], &net->q[best + 1], sizeof *net->q * (size_t)(net->nq - best - 1));
            net->nq--;
            for (int c = 0; c < 2; c++)
                netterm_advance(np[c], (p.due - 1 < lim ? p.due - 1 : lim), &out[c]);
            WireCheck chk = {.token = 42};
            netterm_check(np[p.to], p.due, &chk);
            WirePacket w;
            assert_int_equal(wire_decode(p.bytes, p.n, &chk, &w), WIRE_OK);
            /* as the engine after its last sample: views still arrive
             * (they are the measurement), MUs no more */
            if (w.kind == WIRE_VIEW || p.due <= end)
                netterm_receive(np[p.to], &w, p.due);
        }
        for (int c = 0; c < 2; c++)
            netterm_advance(np[c], lim, &out[c]);
    }
    for (int c = 0; c < 2; c++)
        bot_free(bot[c]);
}

/* The lagometer at terminal 1 (issue 22): terminal 0's MU packets of seq
 * % 7 == 3 are lost on the wire, the others arrive 50 ms late. What nc
 * (every sample) gets shows the losses from the gaps in its seqs, every
 * other arrival on time 50 ms late; causality (Delta 100 ms) holds each
 * for 50 ms; the DR schemes send when they like: no loss can be inferred.
 * Terminal 0's ring is terminal 1's business: none here. */
static void lagometer_over_the_wire(Net *net, const Track *t, const SchemeType *const *schemes, int n)
{
    free(net->rec.samples);
    memset(net, 0, sizeof *net);
    net->drop_view_seq = -1;
    net->drop_mu_mod = 7;
    net->rec.samples = calloc(2 * SAMPLES, sizeof *net->rec.samples);
    NetTerminal *np[2];
    drive(net, t, schemes, n, np);
    const Engine *e = netterm_engine(np[1]);
    assert_null(engine_lag(e, 0, 0));
    for (int k = 0; k < n; k++) {
        const LagRing *r = engine_lag(e, k, 1);
        const char *name = schemes[k]->name;
        bool nc = strcmp(name, "nc") == 0, ca = strcmp(name, "causality") == 0;
        int lost = 0, newest = -1;
        for (int i = 0; i < lagring_count(r); i++) {
            const LagEvent *ev = lagring_at(r, i);
            lost += ev->fate == LAG_LOST;
            newest = ev->seq > newest ? ev->seq : newest;
            if (ev->fate == LAG_LOST) {
                assert_true(schemes[k]->every_sample);
                assert_int_equal(ev->seq % 7, 3);
                assert_int_equal(ev->sent_us, (int64_t)ev->seq * WORLD_SAMPLE_US);
            } else if (nc || ca) {
                assert_int_equal(ev->delay_us, DELAY_US);
                assert_int_equal(ev->fate, nc ? LAG_ON_TIME : LAG_HELD);
                assert_int_equal(ev->hold_us, ca ? 100000 - DELAY_US : 0);
            }
        }
        if (nc || ca) { /* every sample 3, 10, 17, ... before the newest that arrived */
            assert_true(lagring_count(r) < LAG_EVENTS_PER_SENDER && newest > SAMPLES - 10);
            assert_int_equal(lost, (newest - 3 + 6) / 7);
        }
        if (strncmp(name, "dr", 2) == 0)
            assert_int_equal(lost, 0);
    }
    for (int c = 0; c < 2; c++)
        netterm_free(np[c]);
}

/* Each car alone on its grid slot, as its terminal drove it, from the
 * input lines it gave (through an input script's text, as a log's input
 * rows and `merge --inputs` carry them): every sample bit for bit. */
typedef struct Resim {
    World w;
    InputScript *s;
    int player;
    RecSample got[SAMPLES];
    int n;
} Resim;

static bool resim_sample(void *ctx, int64_t t_us)
{
    (void)t_us;
    Resim *r = ctx;
    if (r->n < SAMPLES)
        world_sample(&r->w, 0, &r->got[r->n++]);
    return r->n < SAMPLES;
}

static bool resim_control(void *ctx, const World *w, int car, int64_t t_us, CarInput *out)
{
    (void)w;
    (void)car;
    Resim *r = ctx;
    inputs_at(r->s, r->player, (int32_t)(t_us / 1000), out);
    return true;
}

static void inputs_resimulate_each_car(const Net *net, const Track *t)
{
    char path[] = "/tmp/test_netterm_inputs_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    remove(path); /* the writer refuses nothing but an existing .part; the path is its */
    NrError err = {{0}};
    InputsWriter *iw = inputs_writer_open(path, &err);
    assert_non_null(iw);
    for (int c = 0; c < 2; c++) {
        assert_true(net->nin[c] > 10); /* the bots steer: many changes */
        assert_int_equal(net->in[c][0].t_ms, 0);
        for (int i = 0; i < net->nin[c]; i++)
            assert_true(inputs_writer_add(iw, net->in[c][i].t_ms, c, &net->in[c][i].in, &err));
    }
    assert_true(inputs_writer_close(iw, &err));
    InputScript s;
    assert_true(inputs_load(&s, path, &err));
    remove(path);
    Resim *r = calloc(1, sizeof *r);
    for (int c = 0; c < 2; c++) {
        memset(r, 0, sizeof *r);
        r->s = &s;
        r->player = c;
        assert_true(world_init_solo(&r->w, t, c, &err));
        RaceLoop loop;
        raceloop_init(&loop, &r->w, 0, WORLD_SAMPLE_US, &(RaceLoopHooks){r, resim_sample, resim_control});
        raceloop_run(&loop, (int64_t)SAMPLES * WORLD_SAMPLE_US);
        assert_int_equal(r->n, SAMPLES);
        for (int i = 0; i < SAMPLES; i++) { /* field by field, bit for bit (not the struct's padding) */
            const RecSample *a = &r->got[i], *b = &net->rec.samples[c * SAMPLES + i];
            assert_int_equal(a->t_ms, b->t_ms);
            assert_memory_equal(&a->x, &b->x, sizeof a->x);
            assert_memory_equal(&a->y, &b->y, sizeof a->y);
            assert_memory_equal(&a->heading, &b->heading, sizeof a->heading);
            assert_memory_equal(&a->speed, &b->speed, sizeof a->speed);
        }
    }
    free(r);
    inputs_free(&s);
}

static void live_metrics_equal_replay(void **state)
{
    (void)state;
    NrError err;
    Track *t = track_load(NETRACE_SOURCE_DIR "/tracks/default.track", &err);
    assert_non_null(t);
    const SchemeType *schemes[SCHEME_MAX];
    int n = scheme_parse_list("all", schemes, SCHEME_MAX, &err);
    assert_true(n >= 5);
    Net *net = calloc(1, sizeof *net);
    assert_non_null(net);
    net->drop_view_seq = -1;
    net->rec.version = RECORDING_VERSION;
    net->rec.period_ms = 33;
    net->rec.ncars = 2;
    net->rec.nsamples = SAMPLES;
    net->rec.samples = calloc(2 * SAMPLES, sizeof *net->rec.samples);
    NetTerminal *np[2];
    drive(net, t, schemes, n, np);
    /* the engine over the recording the two terminals drove */
    LinkSpec spec;
    assert_true(linkspec_parse(&spec, "delay 50ms", NULL, &err));
    EngineConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.track = t;
    cfg.link[0] = cfg.link[1] = &spec;
    cfg.seed = 1;
    cfg.params = scheme_default_params();
    cfg.nschemes = n;
    for (int k = 0; k < n; k++)
        cfg.schemes[k] = schemes[k];
    RunResult res[SCHEME_MAX];
    assert_true(experiment_run(&cfg, &net->rec, res, &err));
    for (int k = 0; k < n; k++) {
        for (int c = 0; c < 2; c++) {
            const Metrics *m = netterm_metrics(np[c], k);
            assert_int_equal(m->samples, res[k].samples);
            assert_int_equal(m->samples, SAMPLES);
            /* bit for bit: the same arithmetic on the same displays */
            assert_true(metrics_inconsistency_rate(m) == res[k].inconsistency_rate);
            assert_true(metrics_mean_d1_minus_d2(m) == res[k].mean_d1_minus_d2);
            assert_true(metrics_mean_abs_d1(m) == res[k].mean_abs_d1);
            assert_true(metrics_mean_abs_d2(m) == res[k].mean_abs_d2);
            /* what each terminal's schemes sent is what the engine sent */
            assert_int_equal(m->dir[c].sent, res[k].dir[c].sent);
            assert_int_equal(m->dir[1 - c].delivered, res[k].dir[1 - c].delivered);
        }
    }
    /* One packet per sample when the schemes agree: nc and causality always
     * send the sample, so with every scheme the packets are far fewer than
     * the schemes' sends, and every mask bit is one scheme's send. */
    int64_t sends = 0;
    for (int k = 0; k < n; k++)
        sends += res[k].dir[0].sent + res[k].dir[1].sent;
    assert_int_equal(net->mu_masks_bits, sends);
    assert_true(net->mu_packets < sends / 2);
    assert_true(net->mu_packets >= 2 * SAMPLES); /* at least the sample itself, each way */
    for (int c = 0; c < 2; c++)
        netterm_free(np[c]);
    /* terminal 0's VIEW of sample 100 is lost: terminal 1 skips that sample
     * (terminal 0 has both views of it), nothing else changes */
    free(net->rec.samples);
    memset(net, 0, sizeof *net);
    net->drop_view_seq = 100;
    net->rec.samples = calloc(2 * SAMPLES, sizeof *net->rec.samples);
    drive(net, t, schemes, n, np);
    assert_int_equal(netterm_metrics(np[0], 0)->samples, SAMPLES);
    assert_int_equal(netterm_views_skipped(np[0]), 0);
    assert_int_equal(netterm_metrics(np[1], 0)->samples, SAMPLES - 1);
    assert_int_equal(netterm_views_skipped(np[1]), 1);
    for (int c = 0; c < 2; c++)
        netterm_free(np[c]);
    inputs_resimulate_each_car(net, t);
    lagometer_over_the_wire(net, t, schemes, n);
    linkspec_free(&spec);
    free(net->rec.samples);
    free(net);
    track_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(live_metrics_equal_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
