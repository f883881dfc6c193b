/* The route's queue (route.h): the order it hands deliveries out in,
 * globally and terminal by terminal, its groups, the MU bytes stored once,
 * netem's queue limit per line and scheme, and the two hops of cs worked
 * by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "route.h"

#define MS NR_US_PER_MS
#define P_US (33 * MS)

static LinkSpec spec_of(const char *text)
{
    LinkSpec s;
    NrError err;
    memset(&s, 0, sizeof s);
    assert_true(linkspec_parse(&s, text, NULL, &err));
    return s;
}

static Mu mu_of(int car, int32_t seq, int64_t gen_us)
{
    return (Mu){.car = car, .seq = seq, .gen_us = gen_us, .x = car, .y = seq, .kind = MU_UPDATE, .nbytes = 48};
}

/* One delivery as the route hands it out. */
typedef struct Got {
    int64_t due_us, sent_us;
    int from, to, k;
    int32_t seq;
} Got;

/* Every group due by t_us, globally (to < 0) or for terminal `to`. */
static int drain(RouteMedium *r, int to, int64_t t_us, Got *out, int n)
{
    RouteDueTo due;
    if (to >= 0)
        route_due_begin(r, to, t_us, &due);
    for (int32_t g; (g = to < 0 ? route_pop_group(r, t_us) : route_due_next(r, &due)) >= 0;) {
        const RouteGroup *gr = route_group(r, g);
        const RouteFan *fa = route_fan(r, gr);
        for (int e = 0; e < fa->n; e++)
            if (gr->mask & (UINT32_C(1) << e))
                out[n++] = (Got){gr->due_us, fa->sent_us, gr->from, gr->to, fa->k[e], route_mu(r, fa->mu[e])->seq};
        route_drop_group(r, g);
    }
    return n;
}

/* Four terminals, two schemes, lines of 10 ms and 43 ms: sends 33 ms apart
 * meet in due times (10 + 33 = 43), so equal times from several senders
 * and slots wait together. The global order is (due, sender, destination,
 * sending order) and each terminal's own deliveries come in that order
 * when taken terminal by terminal. */
static void order_global_and_per_terminal(void **state)
{
    (void)state;
    enum { N = 4, SLOTS = 40, MAX = 4 * 3 * 2 * SLOTS };
    LinkSpec fast = spec_of("delay 10ms"), slow = spec_of("delay 43ms");
    RouteConfig rc = {.topology = ROUTE_P2P, .ncars = N, .seed = 3, .nschemes = 2};
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            rc.link[i][j] = (i + j) % 2 ? &fast : &slow;
    static Got all[MAX], each[MAX];
    int nall = 0, neach = 0;
    for (int pass = 0; pass < 2; pass++) {
        RouteMedium r;
        NrError err;
        assert_true(route_init(&r, &rc, &err));
        Medium m = route_medium(&r);
        for (int s = 0; s < SLOTS; s++) {
            int64_t t = (int64_t)s * P_US;
            /* every third slot: several groups of a line are due at once */
            if (pass == 0 && s % 3 == 0)
                nall = drain(&r, -1, t, all, nall);
            else if (s % 3 == 0)
                for (int to = 0; to < N; to++)
                    neach = drain(&r, to, t, each, neach);
            for (int from = 0; from < N; from++) {
                medium_slot(&m, from, s, t);
                Mu mu = mu_of(from, s, t);
                for (int k = 0; k < 2; k++) {
                    RouteFates f = route_send_all(&r, k, from, &mu, t);
                    assert_int_equal(f.lost + f.duplicated + f.overflow, 0);
                }
            }
        }
        route_free(&r);
    }
    assert_int_equal(nall, neach);
    /* globally sorted by (due, from, to), each line in sending order */
    int ties = 0;
    for (int i = 1; i < nall; i++) {
        const Got *a = &all[i - 1], *b = &all[i];
        assert_true(a->due_us <= b->due_us);
        if (a->due_us == b->due_us) {
            ties += a->from != b->from;
            assert_true(a->from < b->from || (a->from == b->from && a->to <= b->to));
            if (a->from == b->from && a->to == b->to)
                assert_true(a->sent_us < b->sent_us || (a->sent_us == b->sent_us && a->k < b->k));
        }
    }
    assert_true(ties > 0);
    /* terminal by terminal: the same deliveries to each, in the same order */
    for (int to = 0; to < N; to++) {
        int i = 0, j = 0;
        for (;;) {
            while (i < nall && all[i].to != to)
                i++;
            while (j < neach && each[j].to != to)
                j++;
            if (i == nall || j == neach)
                break;
            assert_memory_equal(&all[i], &each[j], sizeof all[i]);
            i++;
            j++;
        }
        assert_true(i == nall && j == neach);
    }
    linkspec_free(&fast);
    linkspec_free(&slow);
}

/* The schemes' copies of one sample's MU share the slot's fate: one group
 * per line, the bytes stored once when they are the same. */
static void copies_share_a_group_and_bytes(void **state)
{
    (void)state;
    LinkSpec l = spec_of("delay 50ms 20ms");
    RouteConfig rc = {.topology = ROUTE_P2P, .ncars = 3, .seed = 5, .nschemes = 3};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            rc.link[i][j] = &l;
    RouteMedium r;
    NrError err;
    assert_true(route_init(&r, &rc, &err));
    Medium m = route_medium(&r);
    medium_slot(&m, 1, 0, 0);
    Mu a = mu_of(1, 0, 0), b = a;
    b.vx = 2.0; /* scheme 2 sends other bytes */
    route_send_all(&r, 0, 1, &a, 0);
    route_send_all(&r, 1, 1, &a, 0);
    route_send_all(&r, 2, 1, &b, 0);
    int groups = 0;
    for (int32_t g; (g = route_pop_group(&r, INT64_MAX - 1)) >= 0; groups++) {
        const RouteGroup *gr = route_group(&r, g);
        const RouteFan *fa = route_fan(&r, gr);
        assert_int_equal(gr->from, 1);
        assert_int_equal(fa->n, 3);
        assert_int_equal(gr->mask, 7); /* all three copies */
        assert_true(fa->k[0] == 0 && fa->k[1] == 1 && fa->k[2] == 2);
        assert_int_equal(fa->mu[0], fa->mu[1]); /* the same bytes: one record */
        assert_true(fa->mu[2] != fa->mu[0] && route_mu(&r, fa->mu[2])->vx == 2.0);
        route_drop_group(&r, g);
    }
    assert_int_equal(groups, 2); /* 1 -> 0 and 1 -> 2 */
    route_free(&r);
    linkspec_free(&l);
}

/* Two terminals, p2p: line 0 -> 1 slow, 1 -> 0 without delay. */
static void two_terminals(RouteMedium *r, const LinkSpec *slow, const LinkSpec *none, int nschemes, uint64_t seed)
{
    RouteConfig rc = {.topology = ROUTE_P2P, .ncars = 2, .seed = seed, .nschemes = nschemes};
    rc.link[0][1] = slow;
    rc.link[1][0] = none;
    NrError err;
    assert_true(route_init(r, &rc, &err));
}

/* netem's limit of 1000 packets holds per line and scheme: a line that
 * delays by 100 s takes 1000 slots of MUs, then drops each copy, also in
 * a class sent at once (route_send_many). */
static void queue_limit_per_line_and_scheme(void **state)
{
    (void)state;
    LinkSpec slow = spec_of("delay 100s"), none = spec_of("");
    RouteMedium r;
    two_terminals(&r, &slow, &none, 2, 1);
    Medium m = route_medium(&r);
    int overflow = 0;
    for (int s = 0; s < DELAYLINE_QUEUE_LIMIT + 10; s++) {
        medium_slot(&m, 0, s, (int64_t)s * P_US);
        Mu mu = mu_of(0, s, (int64_t)s * P_US);
        overflow += route_send_all(&r, 0, 0, &mu, (int64_t)s * P_US).overflow;
        if (s < 5)
            assert_int_equal(route_send_all(&r, 1, 0, &mu, (int64_t)s * P_US).overflow, 0);
    }
    assert_int_equal(overflow, 10);
    /* a class of the two (route_send_many): scheme 0, at its limit, drops
     * its copy; scheme 1's is admitted, due at its send + 100 s */
    int64_t t = (int64_t)(DELAYLINE_QUEUE_LIMIT + 10) * P_US;
    medium_slot(&m, 0, DELAYLINE_QUEUE_LIMIT + 10, t);
    Mu mus[2] = {mu_of(0, DELAYLINE_QUEUE_LIMIT + 10, t), mu_of(0, DELAYLINE_QUEUE_LIMIT + 10, t)};
    int k[2] = {0, 1};
    RouteFates f[2];
    route_send_many(&r, k, 0, mus, 2, t, f);
    assert_int_equal(f[0].overflow, 1);
    assert_int_equal(f[0].lost_to, 2);
    assert_int_equal(f[1].overflow + f[1].lost + f[1].lost_to, 0);
    assert_int_equal(r.line[1].q[0].n, DELAYLINE_QUEUE_LIMIT);
    assert_int_equal(r.line[1].q[1].n, 6);
    assert_int_equal(route_next_due(&r), 100 * NR_US_PER_S);
    static Got got[DELAYLINE_QUEUE_LIMIT + 8];
    int n = drain(&r, 1, INT64_MAX - 1, got, 0);
    assert_int_equal(n, DELAYLINE_QUEUE_LIMIT + 6);
    assert_int_equal(got[n - 1].k, 1);
    assert_int_equal(got[n - 1].due_us, t + 100 * NR_US_PER_S);
    route_free(&r);
    linkspec_free(&slow);
    linkspec_free(&none);
}

/* A line's queue is a ring that wraps (at DELAYLINE_QUEUE_LIMIT groups per
 * scheme or a little more): 900 groups in flight on a 900-slot delay,
 * 5000 slots, each slot sending one MU and taking what is due. Every MU
 * arrives once, in sending order, its delay exactly 900 slots. */
static void line_ring_wraps(void **state)
{
    (void)state;
    LinkSpec slow = spec_of("delay 29700ms"), none = spec_of(""); /* 900 slots of 33 ms */
    RouteMedium r;
    two_terminals(&r, &slow, &none, 1, 3);
    Medium m = route_medium(&r);
    int32_t next = 0;
    for (int s = 0; s < 5000; s++) {
        int64_t t = (int64_t)s * P_US;
        medium_slot(&m, 0, s, t);
        Mu mu = mu_of(0, s, t);
        route_send_all(&r, 0, 0, &mu, t);
        Got got[4];
        int n = drain(&r, 1, t, got, 0);
        for (int i = 0; i < n; i++, next++) {
            assert_int_equal(got[i].seq, next);
            assert_int_equal(got[i].due_us, got[i].sent_us + 900 * P_US);
        }
    }
    assert_int_equal(next, 5000 - 900);
    route_free(&r);
    linkspec_free(&slow);
    linkspec_free(&none);
}

/* route_send_many of one class (update MUs of one instant): three
 * schemes, two of them the same bytes, on lines of exactly 40 ms: each
 * line takes the three copies into one group due at 40 ms, and each
 * scheme counts one copy on it (by hand). A line that loses the slot's
 * packet loses every copy. */
static void class_sent_as_one(void **state)
{
    (void)state;
    LinkSpec l = spec_of("delay 40ms"), lossy = spec_of("loss 100%");
    RouteConfig rc = {.topology = ROUTE_P2P, .ncars = 3, .seed = 2, .nschemes = 3};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            rc.link[i][j] = i == 2 ? &lossy : &l;
    RouteMedium r;
    NrError err;
    assert_true(route_init(&r, &rc, &err));
    Medium m = route_medium(&r);
    medium_slot(&m, 0, 0, 0);
    medium_slot(&m, 2, 0, 0);
    Mu a = mu_of(0, 0, 0), b = a, mus[3];
    b.vx = 1.5;
    mus[0] = mus[1] = a;
    mus[2] = b;
    int k[3] = {0, 1, 2};
    RouteFates f[3];
    route_send_many(&r, k, 0, mus, 3, 0, f);
    for (int i = 0; i < 3; i++)
        assert_int_equal(f[i].lost + f[i].duplicated + f[i].overflow, 0);
    for (int to = 1; to < 3; to++)
        for (int s = 0; s < 3; s++)
            assert_int_equal(r.line[to].q[s].n, 1); /* line 0 -> to */
    for (int i = 0; i < 3; i++)
        mus[i].car = 2;
    route_send_many(&r, k, 2, mus, 3, 0, f); /* every line out of 2 loses it */
    for (int i = 0; i < 3; i++) {
        assert_int_equal(f[i].lost, 2);
        assert_int_equal(f[i].lost_to, 3); /* terminals 0 and 1 */
    }
    Got got[8];
    int n = drain(&r, -1, INT64_MAX - 1, got, 0);
    assert_int_equal(n, 6);
    for (int i = 0; i < n; i++) {
        assert_int_equal(got[i].from, 0);
        assert_int_equal(got[i].to, 1 + i / 3);
        assert_int_equal(got[i].k, i % 3);
        assert_int_equal(got[i].due_us, 40 * MS);
    }
    route_free(&r);
    linkspec_free(&l);
    linkspec_free(&lossy);
}

/* route_send_many against the same sends one by one (route_send_all), on
 * two routes of one seed: jitter, loss, duplicates, a fifo line, parity
 * MUs, a scheme sending twice in a slot and classes of mixed bytes give
 * the same fates and the same deliveries. */
static void send_many_is_send_all_in_order(void **state)
{
    (void)state;
    enum { N = 4, SLOTS = 60, MAX = 8192 };
    LinkSpec spec[3] = {spec_of("delay 30ms 20ms loss 10% duplicate 10%"), spec_of("delay 40ms 40ms order fifo"),
                        spec_of("delay 25ms 25ms")};
    for (int topo = 0; topo < 2; topo++) {
        RouteConfig rc = {.topology = topo ? ROUTE_CS : ROUTE_P2P, .server = ROUTE_SYNC, .hold_us = 60 * MS,
                          .ncars = N, .seed = 9, .nschemes = 4};
        for (int i = 0; i < N; i++) {
            rc.up[i] = &spec[2];
            for (int j = 0; j < N; j++)
                rc.link[i][j] = &spec[(i + j) % 3];
        }
        static Got got[2][MAX];
        static RouteFates fates[2][MAX];
        int n[2] = {0, 0}, nf[2] = {0, 0};
        for (int way = 0; way < 2; way++) {
            RouteMedium r;
            NrError err;
            assert_true(route_init(&r, &rc, &err));
            Medium m = route_medium(&r);
            for (int s = 0; s < SLOTS; s++) {
                int64_t t = (int64_t)s * P_US;
                for (int from = 0; from < N; from++) {
                    medium_slot(&m, from, s, t);
                    int k[5] = {0, 1, 2, 3, 3};
                    Mu mu[5];
                    for (int i = 0; i < 5; i++)
                        mu[i] = mu_of(from, s, t);
                    mu[2].vx = s % 2 ? 0.5 : 0.0;  /* sometimes the same bytes as 0 and 1 */
                    mu[3].kind = s % 5 == 0 ? MU_PARITY : MU_UPDATE;
                    /* scheme 3 twice now and then: in one call, or in a
                     * second call of the same slot */
                    int count = s % 7 == 3 || s % 7 == 5 ? 5 : 4, first = s % 7 == 5 ? 4 : count;
                    RouteFates *f = &fates[way][nf[way]];
                    if (way == 0) {
                        for (int i = 0; i < count; i++)
                            f[i] = route_send_all(&r, k[i], from, &mu[i], t);
                    } else {
                        route_send_many(&r, k, from, mu, first, t, f);
                        if (first < count)
                            route_send_many(&r, k + first, from, mu + first, count - first, t, f + first);
                    }
                    nf[way] += count;
                }
                n[way] = drain(&r, -1, t + P_US - 1, got[way], n[way]);
                assert_true(n[way] < MAX - 64);
            }
            route_free(&r);
        }
        assert_int_equal(n[0], n[1]);
        assert_memory_equal(got[0], got[1], sizeof got[0][0] * (size_t)n[0]);
        assert_int_equal(nf[0], nf[1]);
        assert_memory_equal(fates[0], fates[1], sizeof fates[0][0] * (size_t)nf[0]);
    }
    for (int i = 0; i < 3; i++)
        linkspec_free(&spec[i]);
}

/* cs: relay forwards on arrival, so i -> j is due at up_i + down_j; sync
 * holds each MU to gen + hold when it arrives earlier. */
static void cs_hops_by_hand(void **state)
{
    (void)state;
    LinkSpec up[3] = {spec_of("delay 20ms"), spec_of("delay 70ms"), spec_of("delay 5ms")};
    LinkSpec down[3] = {spec_of("delay 1ms"), spec_of("delay 2ms"), spec_of("delay 3ms")};
    const int up_ms[3] = {20, 70, 5}, down_ms[3] = {1, 2, 3};
    for (int server = 0; server < 2; server++) {
        RouteConfig rc = {.topology = ROUTE_CS, .server = server ? ROUTE_SYNC : ROUTE_RELAY, .ncars = 3,
                          .hold_us = 50 * MS, .seed = 2, .nschemes = 1};
        for (int i = 0; i < 3; i++) {
            rc.up[i] = &up[i];
            for (int j = 0; j < 3; j++)
                rc.link[i][j] = &down[j];
        }
        RouteMedium r;
        NrError err;
        assert_true(route_init(&r, &rc, &err));
        Medium m = route_medium(&r);
        const int64_t t = 330 * MS; /* sample 10 */
        for (int from = 0; from < 3; from++) {
            medium_slot(&m, from, 10, t);
            Mu mu = mu_of(from, 10, t);
            route_send_all(&r, 0, from, &mu, t);
        }
        Got got[6];
        assert_int_equal(drain(&r, -1, INT64_MAX - 1, got, 0), 6);
        for (int i = 0; i < 6; i++) {
            int hop1 = up_ms[got[i].from];
            if (server && hop1 < 50)
                hop1 = 50; /* held to gen + 50 ms */
            assert_int_equal(got[i].due_us, t + (int64_t)(hop1 + down_ms[got[i].to]) * MS);
            assert_int_equal(got[i].sent_us, t);
        }
        route_free(&r);
    }
    for (int i = 0; i < 3; i++) {
        linkspec_free(&up[i]);
        linkspec_free(&down[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(order_global_and_per_terminal),
        cmocka_unit_test(copies_share_a_group_and_bytes),
        cmocka_unit_test(queue_limit_per_line_and_scheme),
        cmocka_unit_test(cs_hops_by_hand),
        cmocka_unit_test(line_ring_wraps),
        cmocka_unit_test(class_sent_as_one),
        cmocka_unit_test(send_many_is_send_all_in_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
