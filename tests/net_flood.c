/* Hostile traffic for a live `netrace host` (tests/net/2-hostile.sh): N
 * datagrams to 127.0.0.1:PORT, in turn random bytes, truncated packets
 * (every 50th of them empty),
 * oversized ones, spoofed ones (right magic, wrong token), packets with a
 * token and absurd fields, all in clear, and forged sealed envelopes
 * ("NRS1", a counter, random bytes: docs/wire.md "Sealed datagrams"). The
 * token travels sealed, so the flood sends what an outsider can: a token
 * of its own (LOGFILE, the host's log, is read only for an old `# token:`
 * line).
 * Paced (40,000 a second at most) and throttled on the host socket's
 * receive queue (/proc/net/udp), so the kernel does not drop datagrams
 * before the host reads them when the machine is loaded: every datagram
 * sent should then be counted by the host.
 * Prints `sent: N` and the count of each sort. Loopback only.
 *
 * usage: net_flood PORT LOGFILE N SEED */
#include "netudp.h"
#include "rng.h"
#include "wire.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { RANDOM, TRUNCATED, OVERSIZED, SPOOFED, ABSURD, FORGED, SORTS };
static const char *const sort_names[SORTS] = {"random", "truncated", "oversized", "spoofed", "absurd", "forged"};

static bool read_token(const char *path, uint64_t *token)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char line[512];
    bool ok = false;
    while (!ok && fgets(line, sizeof line, f))
        ok = sscanf(line, "# token: %" SCNx64, token) == 1;
    fclose(f);
    return ok;
}

/* A well-formed packet of a random kind with the session's token. */
static size_t valid_packet(Rng *r, uint64_t token, uint8_t *buf)
{
    WirePacket p;
    memset(&p, 0, sizeof p);
    p.token = token;
    p.pkt_seq = (uint32_t)rng_u64(r);
    switch (rng_below(r, 3)) {
    case 0:
        p.kind = WIRE_CONTROL;
        p.u.control.code = WIRE_BYE; /* from the wrong address it must change nothing */
        break;
    case 1:
        p.kind = WIRE_SYNC_REQ;
        p.u.sync.id = 1;
        p.u.sync.t1_us = 12345;
        break;
    default:
        p.kind = WIRE_MU;
        p.u.mu.schemes = 1;
        p.u.mu.mu = (Mu){.car = 1, .seq = 5, .kind = MU_UPDATE, .nbytes = 48, .x = 1, .y = 2};
        break;
    }
    return wire_encode(&p, buf, WIRE_MAX_BYTES);
}

/* A packet with the token but a field out of range. */
static size_t absurd_packet(Rng *r, uint64_t token, uint8_t *buf)
{
    WirePacket p;
    memset(&p, 0, sizeof p);
    p.token = token;
    p.kind = WIRE_MU;
    p.u.mu.schemes = 1;
    p.u.mu.mu = (Mu){.car = 1, .seq = 5, .kind = MU_UPDATE, .nbytes = 48};
    switch (rng_below(r, 6)) {
    case 0: p.u.mu.mu.x = NAN; break;
    case 1: p.u.mu.mu.car = 7; break;
    case 2: p.u.mu.mu.seq = -3; break;
    case 3: p.u.mu.mu.gen_us = INT64_MAX; break;
    case 4: p.u.mu.schemes = UINT32_C(1) << 31; break; /* a scheme beyond the list */
    default:
        p.kind = WIRE_CONTROL;
        p.u.control.code = 99;
        break;
    }
    if (p.kind == WIRE_CONTROL) { /* the encoder writes any code: patch after */
        size_t n = wire_encode(&(WirePacket){.kind = WIRE_CONTROL, .token = token, .u.control = {WIRE_BYE, 0}},
                               buf, WIRE_MAX_BYTES);
        buf[24] = 99;
        return n;
    }
    return wire_encode(&p, buf, WIRE_MAX_BYTES);
}

/* A sealed envelope nobody sealed (docs/wire.md "Sealed datagrams"): the
 * magic, then a counter and bytes at random, as long as a sealed packet. */
static size_t forged_packet(Rng *r, uint64_t token, uint8_t *buf)
{
    size_t len = valid_packet(r, token, buf) + 28;
    for (size_t j = 4; j < len; j++)
        buf[j] = (uint8_t)rng_below(r, 256);
    memcpy(buf, "NRS1", 4);
    return len;
}

/* Bytes waiting in the receive queue of the UDP socket bound to port on
 * this machine (/proc/net/udp: local address, then tx_queue:rx_queue in
 * hex), -1 when not found. */
static long rx_queue(int port)
{
    FILE *f = fopen("/proc/net/udp", "r");
    if (!f)
        return -1;
    char line[512];
    long q = -1;
    while (q < 0 && fgets(line, sizeof line, f)) {
        unsigned addr, p, txq, rxq;
        if (sscanf(line, " %*d: %x:%x %*x:%*x %*x %x:%x", &addr, &p, &txq, &rxq) == 4 && (int)p == port)
            q = (long)rxq;
    }
    fclose(f);
    return q;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: net_flood PORT LOGFILE N SEED\n");
        return 2;
    }
    int port = atoi(argv[1]);
    long n = atol(argv[3]);
    uint64_t token = 0x5eed5eed5eed5eedu;
    read_token(argv[2], &token);
    if (port <= 0 || n <= 0) {
        fprintf(stderr, "net_flood: a bad port or count\n");
        return 2;
    }
    NrError err = {{0}};
    if (!net_init(&err)) {
        fprintf(stderr, "net_flood: %s\n", err.msg);
        return 1;
    }
    NetClock clock;
    netclock_real(&clock, 0, 0.0);
    NetPort *s = netudp_open(0, &clock, &err);
    NetAddr to;
    if (!s || !netudp_resolve("127.0.0.1", (uint16_t)port, &to, &err)) {
        fprintf(stderr, "net_flood: %s\n", err.msg);
        return 1;
    }
    Rng r;
    rng_seed(&r, (uint64_t)atol(argv[4]), 77);
    uint8_t buf[NETUDP_MAX];
    long count[SORTS] = {0}, sent = 0;
    for (long i = 0; i < n; i++) {
        int sort = (int)(i % SORTS);
        size_t len;
        switch (sort) {
        case RANDOM:
            len = 1 + (size_t)rng_below(&r, WIRE_MAX_BYTES);
            for (size_t j = 0; j < len; j++)
                buf[j] = (uint8_t)rng_below(&r, 256);
            break;
        case TRUNCATED: /* every 50th of them empty: a datagram of no bytes */
            len = valid_packet(&r, token, buf);
            len = (i / SORTS) % 50 == 0 ? 0 : 1 + (size_t)rng_below(&r, len - 1);
            break;
        case OVERSIZED:
            len = valid_packet(&r, token, buf);
            len = WIRE_MAX_BYTES + 1 + (size_t)rng_below(&r, NETUDP_MAX - WIRE_MAX_BYTES);
            break;
        case SPOOFED:
            len = valid_packet(&r, token ^ (1 + rng_below(&r, UINT64_MAX - 1)), buf);
            break;
        case ABSURD:
            len = absurd_packet(&r, token, buf);
            break;
        default:
            len = forged_packet(&r, token, buf);
            break;
        }
        if (netport_send(s, &to, buf, (int)len)) {
            count[sort]++;
            sent++;
        }
        if (i % 16 == 15) { /* at most 40,000 datagrams a second */
            struct timespec ts = {0, 400000};
            nanosleep(&ts, NULL);
            /* the host is behind (descheduled): wait until it reads on */
            for (int w = 0; w < 5000 && rx_queue(port) > 32768; w++) {
                struct timespec tw = {0, 200000};
                nanosleep(&tw, NULL);
            }
        }
    }
    printf("sent: %ld\n", sent);
    for (int k = 0; k < SORTS; k++)
        printf("%s: %ld\n", sort_names[k], count[k]);
    netport_close(s);
    net_quit();
    return 0;
}
