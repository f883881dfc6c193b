/* A `netrace serve` race without the sockets: the server's and N clients'
 * session state machines (netsession.h) in one process, in simulated time,
 * every datagram sealed, encoded and decoded, over an ideal network of 1 ms
 * each way; bots drive. Reports the server's CPU microseconds per race
 * sample (opening, checking and relaying every client's MUs and VIEWs,
 * answering the clock probes) for relay and sync, and the clients' per
 * sample for comparison. A benchmark, run by hand (not a test):
 * build/bench/bench_serve [CARS] [SECONDS_OF_RACE] [SCHEMES] */
#include "bot.h"
#include "netsession.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "netrace_config.h"

#define TERMS 9
#define QMAX 65536
#define NET_US 1000

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct Flight {
    int to;
    int64_t due;
    int n;
    NetAddr from;
    uint8_t b[WIRE_MAX_BYTES + 64];
} Flight;

typedef struct Served {
    NetSession *s[TERMS];
    NetAddr addr[TERMS];
    Bot *bot[TERMS];
    int n;
    Flight *q;
    int nq;
    double cpu[TERMS];
} Served;

static bool make_bot(void *ctx, const Track *track, int car, uint64_t seed, Controller *out, NrError *err)
{
    Bot **b = ctx;
    CarParams p;
    car_params_default(&p);
    *b = bot_new(track, &p, (BotDriver){.skill = 0.9, .noise = 0.5}, seed, (uint64_t)car, err);
    if (!*b)
        return false;
    *out = bot_controller(*b);
    return true;
}

/* What terminal i has to send goes on the ideal network. */
static void flush(Served *w, int i, int64_t now)
{
    NetDatagram d;
    while (netsession_pop_datagram(w->s[i], &d)) {
        for (int j = 0; j < w->n; j++)
            if (netaddr_equal(&d.to, &w->addr[j]) && w->nq < QMAX) {
                Flight *f = &w->q[w->nq++];
                *f = (Flight){.to = j, .due = now + NET_US, .n = d.n, .from = w->addr[i]};
                memcpy(f->b, d.bytes, (size_t)d.n);
            }
    }
}

/* One step: the earliest datagram or deadline; false when all are over. */
static bool step(Served *w, int64_t *now)
{
    int64_t t = INT64_MAX;
    int who = -1, fl = -1;
    for (int i = 0; i < w->nq; i++)
        if (w->q[i].due < t)
            t = w->q[i].due, fl = i, who = w->q[i].to;
    for (int i = 0; i < w->n; i++) {
        int64_t d = netsession_over(w->s[i]) ? INT64_MAX : netsession_next_deadline(w->s[i]);
        if (d < t)
            t = d, who = i, fl = -1;
    }
    if (who < 0)
        return false;
    static int64_t last_t;
    static int same;
    same = t == last_t ? same + 1 : 0;
    last_t = t;
    if (same == 100000) {
        NetSessionStatus st;
        netsession_status(w->s[who], t, &st);
        fprintf(stderr, "bench_serve: terminal %d stuck at %lld (phase %d, race %lld, flight %d)\n", who, (long long)t,
                st.phase, (long long)st.race_us, fl);
        exit(1);
    }
    *now = t > *now ? t : *now;
    double c0 = cpu_seconds();
    if (fl >= 0) {
        Flight f = w->q[fl];
        w->q[fl] = w->q[--w->nq];
        if (!netsession_over(w->s[who]))
            netsession_input(w->s[who], *now, &f.from, f.b, f.n);
    } else {
        netsession_tick(w->s[who], *now);
    }
    w->cpu[who] += cpu_seconds() - c0;
    flush(w, who, *now);
    return true;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *b = calloc(1 << 20, 1);
    size_t n = f && b ? fread(b, 1, (1 << 20) - 1, f) : 0;
    if (f)
        fclose(f);
    b[n] = '\0';
    return b;
}

static int run(int cars, int mode, int seconds, const char *schemes, char *track)
{
    Served w = {.n = cars + 1, .q = malloc(sizeof(Flight) * QMAX)};
    NrError err = {{0}};
    for (int i = 0; i < w.n; i++) {
        w.addr[i] = (NetAddr){.host = 0x0100000au + (uint32_t)i, .port = (uint16_t)(41000 + i)};
        NetSessionConfig c = {.host = i == 0, .server = i == 0, .ncars = cars, .server_mode = mode,
                              .peer = w.addr[0], .entropy = 99 + (uint64_t)i, .code = "7K3QMX9A2C",
                              .track_text = track, .track_file = "default.track", .schemes = schemes,
                              .params = scheme_default_params(), .seconds_ms = seconds * 1000, .seed = 7,
                              .make_controller = make_bot, .ctx = &w.bot[i]};
        memset(c.salt, 5, sizeof c.salt);
        w.s[i] = netsession_new(&c, 1000000, &err);
        if (!w.s[i]) {
            fprintf(stderr, "bench_serve: %s\n", err.msg);
            return 1;
        }
    }
    int64_t now = 1000000;
    while (step(&w, &now))
        ;
    NetSessionStatus st;
    netsession_status(w.s[1], now, &st);
    long samples = (long)(seconds * 1000 / 33 + 1);
    double client = 0;
    for (int i = 1; i < w.n; i++)
        client += w.cpu[i] / w.n;
    printf("%d cars, %s, %s: server %.2f us per sample, a client %.2f us per sample (%ld samples, %s)\n", cars,
           mode ? "sync" : "relay", schemes, w.cpu[0] * 1e6 / (double)samples,
           client * 1e6 / (double)samples, samples, netsession_failed(w.s[0]) ? netsession_error(w.s[0]) : "completed");
    for (int i = 0; i < w.n; i++) {
        netsession_free(w.s[i]);
        bot_free(w.bot[i]);
    }
    free(w.q);
    return 0;
}

int main(int argc, char **argv)
{
    int cars = argc > 1 ? atoi(argv[1]) : 4, seconds = argc > 2 ? atoi(argv[2]) : 20;
    const char *schemes = argc > 3 ? argv[3] : "nc,causality,dr,dr-causality";
    char path[4096];
    snprintf(path, sizeof path, "%s/tracks/default.track", NETRACE_SOURCE_DIR);
    char *track = read_text(path);
    int rc = run(cars, 0, seconds, schemes, track) || run(cars, 1, seconds, schemes, track);
    free(track);
    return rc;
}
