/* A network terminal's own processing (netterm.h + the wire format), without
 * the sockets: two terminals in one process, every packet encoded, decoded
 * and received, with two bots driving. Reports CPU microseconds per sample
 * at one terminal (its car's physics, every scheme's sender half, the VIEW,
 * the DelayLine) and per MU packet (encode, decode, the schemes' receiver
 * halves), for all schemes and for nc alone. A benchmark, run by hand (not
 * a test): build/bench/bench_netplay [SECONDS_OF_RACE] */
#include "bot.h"
#include "netterm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "netrace_config.h"

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define QMAX 4096

typedef struct Bench {
    uint8_t q[QMAX][WIRE_MAX_BYTES];
    size_t qn[QMAX];
    int qto[QMAX], nq;
    long mu_packets, views;
    double encode_s;
} Bench;

typedef struct Side {
    Bench *b;
    int me;
} Side;

static void out_packet(void *ctx, WirePacket *p, int64_t send_us, int to)
{
    (void)send_us;
    (void)to; /* two cars: the other */
    Side *s = ctx;
    Bench *b = s->b;
    p->token = 42;
    b->mu_packets += p->kind == WIRE_MU;
    b->views += p->kind == WIRE_VIEW;
    if (b->nq == QMAX)
        return;
    b->qto[b->nq] = 1 - s->me;
    b->qn[b->nq] = wire_encode(p, b->q[b->nq], WIRE_MAX_BYTES);
    b->nq++;
}

static void run(const Track *t, const char *list, double race_s)
{
    NrError err;
    const SchemeType *schemes[SCHEME_MAX];
    int n = scheme_parse_list(list, schemes, SCHEME_MAX, &err);
    Bench *b = calloc(1, sizeof *b);
    Side side[2] = {{b, 0}, {b, 1}};
    NetTermOut out[2] = {{&side[0], out_packet, NULL, NULL}, {&side[1], out_packet, NULL, NULL}};
    NetTerminal *np[2];
    Bot *bot[2];
    Controller ctl[2];
    CarParams params;
    car_params_default(&params);
    for (int c = 0; c < 2; c++) {
        bot[c] = bot_new(t, &params, (BotDriver){0.9, 0.5}, 1, (uint64_t)c, &err);
        ctl[c] = bot_controller(bot[c]);
        NetTermConfig cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.track = t;
        cfg.car = c;
        memcpy(cfg.schemes, schemes, sizeof schemes[0] * (size_t)n);
        cfg.nschemes = n;
        cfg.params = scheme_default_params();
        cfg.flow.duration_us = (int64_t)(race_s * 2e6);
        cfg.ctl = &ctl[c];
        np[c] = netterm_new(&cfg, &err);
        netterm_start(np[c], &out[c]);
    }
    double send_s = 0, recv_s = 0;
    long packets = 0;
    int64_t end = (int64_t)(race_s * 1e6);
    for (int64_t tt = WORLD_SAMPLE_US; tt <= end; tt += WORLD_SAMPLE_US) {
        double a = cpu_seconds();
        for (int c = 0; c < 2; c++)
            netterm_advance(np[c], tt, &out[c]);
        double m = cpu_seconds();
        for (int i = 0; i < b->nq; i++) {
            WireCheck chk = {.token = 42};
            netterm_check(np[b->qto[i]], tt, &chk);
            WirePacket p;
            if (wire_decode(b->q[i], b->qn[i], &chk, &p) == WIRE_OK)
                netterm_receive(np[b->qto[i]], &p, tt);
            packets++;
        }
        b->nq = 0;
        double z = cpu_seconds();
        send_s += m - a;
        recv_s += z - m;
    }
    long samples = 2L * (long)(end / WORLD_SAMPLE_US);
    printf("%-6s %2d schemes: %.2f us per sample per terminal (physics, senders, view, encode); "
           "%.2f us per received packet (decode, receivers, metrics); %ld MU packets for %ld samples "
           "(%.2f per sample)\n",
           list, n, send_s * 1e6 / (double)samples, recv_s * 1e6 / (double)packets, b->mu_packets, samples,
           (double)b->mu_packets / (double)samples);
    for (int c = 0; c < 2; c++) {
        netterm_free(np[c]);
        bot_free(bot[c]);
    }
    free(b);
}

int main(int argc, char **argv)
{
    double race_s = argc > 1 ? atof(argv[1]) : 300;
    if (!(race_s > 0)) {
        fprintf(stderr, "usage: bench_netplay [SECONDS_OF_RACE]\n");
        return 2;
    }
    NrError err;
    Track *t = track_load(NETRACE_SOURCE_DIR "/tracks/default.track", &err);
    if (!t) {
        fprintf(stderr, "bench_netplay: %s\n", err.msg);
        return 1;
    }
    for (int rep = 0; rep < 3; rep++) {
        run(t, "all", race_s);
        run(t, "nc", race_s);
    }
    track_free(t);
    return 0;
}
