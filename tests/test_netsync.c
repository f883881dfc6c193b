/* Clock synchronisation over real UDP on loopback: two sockets, the
 * server's clock given an artificial 250 ms offset and 30 ppm drift, NTP
 * exchanges through the wire format; the estimate must land within 1 ms of
 * the truth (issue "Network play" 3). Spoofed datagrams (right magic, wrong
 * token) and garbage sent at the server in between are counted and never
 * disturb it. Loopback only (127.0.0.1), bounded in count and time. */
#include "clocksync.h"
#include "netclock.h"
#include "netudp.h"
#include "rng.h"
#include "wire.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define TOKEN UINT64_C(0x5eed5eed5eed5eed)
#define OFFSET_US 250000
#define DRIFT_PPM 30.0

/* Waits (at most 1 s) for a datagram on s: its size, *stamp its arrival
 * on s's clock (taken by the port's receive thread). */
static int recv_wait(NetPort *s, const NetClock *c, uint8_t *buf, NetAddr *from, int64_t *stamp)
{
    int64_t end = netclock_now_us(c) + NR_US_PER_S;
    for (;;) {
        int64_t now = netclock_now_us(c);
        int n = netport_recv(s, now, buf, NETUDP_MAX, from, stamp);
        if (n != NETPORT_NONE || now > end)
            return n == NETPORT_NONE ? 0 : n;
        netport_wait(s, end);
    }
}

static void sync_on_loopback(void **state)
{
    (void)state;
    NrError err;
    assert_true(net_init(&err));
    NetClock cc, sc;
    netclock_real(&cc, 0, 0.0);
    netclock_real(&sc, OFFSET_US, DRIFT_PPM);
    NetPort *srv = netudp_open(0, &sc, &err), *cli = netudp_open(0, &cc, &err);
    assert_non_null(srv);
    assert_non_null(cli);
    NetAddr to_srv, to_cli, from;
    int64_t t2, t4;
    assert_true(netudp_resolve("127.0.0.1", netport_number(srv), &to_srv, &err));
    assert_true(netudp_resolve("127.0.0.1", netport_number(cli), &to_cli, &err));
    ClockSync cs;
    clocksync_init(&cs);
    WireCheck sck = {.token = TOKEN, .ncars = 2, .own_car = 0, .nschemes = 1};
    WireCheck cck = {.token = TOKEN, .ncars = 2, .own_car = 1, .nschemes = 1};
    Rng r;
    rng_seed(&r, 5, 0);
    uint8_t buf[NETUDP_MAX + 1], out[WIRE_MAX_BYTES];
    int rejected = 0, hostile = 0;
    for (uint32_t id = 1; id <= 300; id++) {
        /* Some hostile traffic at the server first. */
        for (int h = 0; h < 3; h++) {
            WirePacket spoof = {.kind = WIRE_SYNC_REQ, .token = TOKEN ^ 1, .pkt_seq = id};
            size_t n = wire_encode(&spoof, out, sizeof out);
            if (h == 1) { /* random bytes */
                n = 1 + (size_t)rng_below(&r, 200);
                for (size_t j = 0; j < n; j++)
                    out[j] = (uint8_t)rng_below(&r, 256);
            }
            assert_true(netport_send(cli, &to_srv, out, (int)n));
            hostile++;
        }
        WirePacket req = {.kind = WIRE_SYNC_REQ, .token = TOKEN, .pkt_seq = id};
        req.u.sync.id = id;
        req.u.sync.t1_us = netclock_now_us(&cc);
        size_t n = wire_encode(&req, out, sizeof out);
        assert_true(netport_send(cli, &to_srv, out, (int)n));
        /* The server answers the one real probe and counts the rest. */
        WirePacket in;
        for (;;) {
            int got = recv_wait(srv, &sc, buf, &from, &t2);
            assert_true(got > 0);
            sck.now_us = t2;
            if (wire_decode(buf, (size_t)got, &sck, &in) != WIRE_OK) {
                rejected++;
                continue;
            }
            assert_int_equal(in.kind, WIRE_SYNC_REQ);
            WirePacket resp = {.kind = WIRE_SYNC_RESP, .token = TOKEN, .pkt_seq = id};
            resp.u.sync = (WireSync){in.u.sync.id, in.u.sync.t1_us, t2, netclock_now_us(&sc)};
            n = wire_encode(&resp, out, sizeof out);
            assert_true(netport_send(srv, &from, out, (int)n));
            break;
        }
        int got = recv_wait(cli, &cc, buf, &from, &t4);
        cck.now_us = t4;
        assert_int_equal(wire_decode(buf, (size_t)got, &cck, &in), WIRE_OK);
        assert_true(in.u.sync.id == id);
        assert_true(clocksync_add(&cs, in.u.sync.t1_us, in.u.sync.t2_us, in.u.sync.t3_us, t4));
    }
    assert_int_equal(rejected, hostile); /* every one counted, none taken */
    /* The truth at one instant: both clocks read back to back. */
    int64_t c0 = netclock_now_us(&cc), s0 = netclock_now_us(&sc), c1 = netclock_now_us(&cc);
    double truth = (double)s0 - 0.5 * (double)(c0 + c1);
    double est = (double)clocksync_offset(&cs, c1);
    printf("loopback: offset estimate %.1f us, truth %.1f us, error %.1f us, bound %lld us, rtt %lld us\n", est,
           truth, est - truth, (long long)clocksync_error_bound(&cs, c1), (long long)clocksync_rtt(&cs));
    assert_true(fabs(est - truth) < 1000.0);
    assert_true(fabs(est - truth) <= (double)clocksync_error_bound(&cs, c1) + 1);
    netport_close(srv);
    netport_close(cli);
    net_quit();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sync_on_loopback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
