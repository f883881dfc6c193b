/* Attack 8 of issue 24 on real loopback (127.0.0.1 only): a blind flood
 * of 10^6 random datagrams (random bytes, 1-1400 of them), 95,000 a
 * second at most as the probe sent them, at the host of a live race
 * between two bots, each end on its own UDP socket and receive thread in
 * one process, from the host's first second on. The race completes, both
 * ends print the same metrics, merge + replay of their logs reproduce
 * them, and each end accounts for every datagram sent to it, its peer's
 * included: sent = packets_received + packets_rejected + kernel_drops,
 * exactly. Where the kernel grants the receive buffer asked (root, or a
 * raised net.core.rmem_max) the receive thread keeps up on a machine with
 * CPU to spare: no kernel drop, no MU or VIEW of the race missing (before:
 * the kernel dropped 44,056,
 * among them 44 MUs and 21 VIEWs, and the two ends' metrics differed;
 * with the old receive path on this test, 55,293 and 91,603 dropped).
 * With a smaller buffer drops are counted and, when the race's own
 * datagrams are among them, the metrics are not compared. The flood stops
 * early only when the machine is too busy to send it all before the
 * host's race ends. */
#include "netsim.h"
#include "netudp.h"
#include "rng.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define FLOOD_N 1000000
#define FLOOD_RATE 95000.0 /* datagrams a second at most */
#define FLOOD_MAX_BYTES 1400

typedef struct Flood {
    uint16_t port;          /* the host's */
    atomic_bool host_done;  /* the host's race has ended: stop */
    long sent;
} Flood;

/* The host's frame: says when its race is over (the flood stops then). */
static bool host_frame(void *ctx, Session *s)
{
    Flood *f = ctx;
    SessionStatus st;
    session_status(s, &st);
    if (st.phase >= SESSION_FINISHED)
        atomic_store(&f->host_done, true);
    return true;
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *flood_main(void *arg)
{
    Flood *f = arg;
    NetClock clock;
    netclock_real(&clock, 0, 0.0);
    NrError err = {{0}};
    NetPort *p = netudp_open(0, &clock, &err);
    NetAddr to;
    if (!p || !netudp_resolve("127.0.0.1", f->port, &to, &err)) {
        fprintf(stderr, "flood: %s\n", err.msg);
        netport_close(p);
        return NULL;
    }
    Rng r;
    rng_seed(&r, 8, 24);
    uint8_t buf[FLOOD_MAX_BYTES];
    double t0 = seconds_now();
    for (long i = 0; i < FLOOD_N && !atomic_load(&f->host_done); i++) {
        int n = 1 + (int)rng_below(&r, FLOOD_MAX_BYTES);
        for (int j = 0; j < n; j += 8) {
            uint64_t x = rng_u64(&r);
            memcpy(buf + j, &x, (size_t)(n - j < 8 ? n - j : 8));
        }
        f->sent += netport_send(p, &to, buf, n);
        double ahead = (double)(i + 1) / FLOOD_RATE - (seconds_now() - t0);
        if (ahead > 0.001) { /* paced, not more than 95,000 a second */
            struct timespec ts = {0, (long)(ahead * 1e9)};
            nanosleep(&ts, NULL);
        }
    }
    printf("flood: %ld datagrams in %.1f s\n", f->sent, seconds_now() - t0);
    netport_close(p);
    return NULL;
}

static void *run_host(void *arg)
{
    Term *t = arg;
    t->ok = session_run(t->s, NULL);
    return NULL;
}

/* The value of `key: value` in a summary. */
static long long key_of(const char *text, const char *key)
{
    char k[64];
    snprintf(k, sizeof k, "\n%s: ", key);
    const char *at = strstr(text, k);
    assert_non_null(at);
    return atoll(at + strlen(k));
}

static char *summary(Session *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    fputc('\n', f);
    session_print(s, f);
    fclose(f);
    return text;
}

/* The metrics lines of a summary (keys SCHEME.NAME), in order. */
static void metrics_lines(const char *text, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    for (const char *l = text; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
        size_t len = strcspn(l, "\n"), key = strcspn(l, ":\n");
        if (memchr(l, '.', key) && n + len + 2 < cap) {
            memcpy(out + n, l, len + 1);
            n += len + 1;
            out[n] = '\0';
        }
    }
}

/* An end accounts for every datagram sent to it, its peer's and the
 * flood's: received + rejected + kernel drops, exactly; nothing of the
 * flood is taken. Returns how many of the race's own datagrams the kernel
 * dropped (none without drops). */
static long long check_accounting(const char *name, const char *text, long long from_peer, long long from_flood)
{
    long long got = key_of(text, "packets_received"), rej = key_of(text, "packets_rejected");
    long long drops = key_of(text, "kernel_drops"), buffer = key_of(text, "receive_buffer_bytes");
    printf("%s: sent to it %lld + %lld = received %lld + rejected %lld + kernel drops %lld (%s); receive buffer "
           "%lld B; mu_lost %lld, views_skipped %lld\n",
           name, from_peer, from_flood, got, rej, drops, from_peer + from_flood == got + rej + drops ? "exact" : "NOT EXACT",
           buffer, key_of(text, "mu_lost"), key_of(text, "views_skipped"));
    assert_true(drops >= 0);
    assert_int_equal(from_peer + from_flood, got + rej + drops);
    assert_true(got <= from_peer);
    /* Whether the receive thread keeps up is a matter of CPU time, not of
     * behaviour: a test asserts nothing timed, so drops are reported (the
     * README gives the figure measured on a quiet machine), never failed. */
    if (drops > 0)
        printf("NOTE: the kernel dropped %lld datagrams for the %s (receive buffer %lld B; %s)\n", drops, name, buffer,
               buffer >= 2 * NETUDP_RCVBUF ? "the receive thread was starved of CPU"
                                           : "root, or a larger net.core.rmem_max, gives a larger buffer");
    if (got == from_peer) {
        assert_int_equal(key_of(text, "mu_lost"), 0);
        assert_int_equal(key_of(text, "views_skipped"), 0);
    }
    return from_peer - got;
}

static void flood_live_race(void **state)
{
    (void)state;
    Sim m; /* netsim's checks read the sessions, the logs and the folder */
    memset(&m, 0, sizeof m);
    snprintf(m.dir, sizeof m.dir, "/tmp/netflood-XXXXXX");
    assert_non_null(mkdtemp(m.dir));
    char path[4096];
    const char *src = getenv("NETRACE_SOURCE_DIR");
    snprintf(path, sizeof path, "%s/tracks/default.track", src ? src : ".");
    char *track = read_all(path);
    const char *schemes = "nc,dr,epp-xv";
    Flood flood = {0};
    snprintf(m.t[0].log, sizeof m.t[0].log, "%s/h.log", m.dir);
    snprintf(m.t[1].log, sizeof m.t[1].log, "%s/j.log", m.dir);
    NrError err = {{0}};
    SessionConfig hc = {.host = true, .cmd = "host", .track_text = track, .track_file = "default.track",
                        .schemes = schemes, .params = scheme_default_params(), .seconds_ms = 12000, .seed = 3,
                        .log_path = m.t[0].log, .make_controller = sim_make_bot, .ctx = &m.t[0], .code = SIM_CODE};
    m.t[0].s = session_new(&hc, &err);
    assert_non_null(m.t[0].s);
    session_set_frame(m.t[0].s, host_frame, &flood);
    flood.port = session_port(m.t[0].s);
    SessionConfig jc = {.cmd = "join", .peer = "127.0.0.1", .peer_port = flood.port, .clock_offset_us = 20000,
                        .log_path = m.t[1].log, .make_controller = sim_make_bot, .ctx = &m.t[1], .code = SIM_CODE};
    m.t[1].s = session_new(&jc, &err);
    assert_non_null(m.t[1].s);
    pthread_t fth, hth;
    assert_int_equal(pthread_create(&fth, NULL, flood_main, &flood), 0);
    assert_int_equal(pthread_create(&hth, NULL, run_host, &m.t[0]), 0);
    m.t[1].ok = session_run(m.t[1].s, NULL);
    pthread_join(hth, NULL);
    atomic_store(&flood.host_done, true);
    pthread_join(fth, NULL);
    char *ht = summary(m.t[0].s), *jt = summary(m.t[1].s);
    assert_true(m.t[0].ok && m.t[1].ok);
    assert_true(flood.sent >= FLOOD_N / 10);
    if (flood.sent < FLOOD_N)
        printf("NOTE: the flood sent %ld of %d before the host's race ended (a busy machine)\n", flood.sent, FLOOD_N);
    long long lost = check_accounting("host", ht, key_of(jt, "packets_sent"), flood.sent) +
                     check_accounting("joiner", jt, key_of(ht, "packets_sent"), 0);
    if (lost == 0) { /* both ends print the same metrics, the replay gives them again */
        char hm[4096], jm[4096];
        metrics_lines(ht, hm, sizeof hm);
        metrics_lines(jt, jm, sizeof jm);
        assert_true(strlen(hm) > 100);
        assert_string_equal(hm, jm);
        assert_same_metrics(&m);
        assert_replay_matches(&m, schemes);
    } else { /* a VIEW lost at one end only is a sample the other counts */
        printf("NOTE: the kernel dropped %lld datagrams of the race itself: the ends' metrics are not compared\n", lost);
    }
    free(ht);
    free(jt);
    for (int i = 0; i < 2; i++) {
        session_free(m.t[i].s);
        bot_free(m.t[i].bot);
    }
    free(track);
    remove(m.t[0].log);
    remove(m.t[1].log);
    rmdir(m.dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(flood_live_race)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
