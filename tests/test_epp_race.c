/* EPP schemes of the racing replay (epp-*), driven through their vtables with
 * a recording transport: token-bucket schedule, single-loss recovery (eqs.
 * 9-13) and the EP shown under multiple losses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "epp.h"
#include "rng.h"
#include "scheme.h"

#define MS NR_US_PER_MS
#define PERIOD (33 * MS)
#define NS 120

typedef struct Sent {
    Mu mu[2 * NS + 8];
    int n;
} Sent;

static void record_send(void *ctx, const Mu *mu)
{
    Sent *s = ctx;
    if (s->n < 2 * NS + 8)
        s->mu[s->n++] = *mu;
}

/* One instance of a scheme in its own zeroed, aligned buffer. */
typedef struct Inst {
    const SchemeType *t;
    void *self;
} Inst;

static Inst inst_new(const char *name, int own, const Mu grid[2])
{
    Inst in;
    in.t = scheme_find(name);
    assert_non_null(in.t);
    in.self = calloc(1, in.t->state_size);
    assert_non_null(in.self);
    SchemeParams p = scheme_default_params();
    in.t->init(in.self, &p, own, 2, grid);
    return in;
}

/* A random path of car 0 sampled every 33 ms (48-byte MUs as the engine). */
static void make_path(Mu *mu, int n, uint64_t seed)
{
    Rng r;
    rng_seed(&r, seed, 0);
    double x = 0, y = 0, vx = 0.3, vy = 0.1;
    for (int i = 0; i < n; i++) {
        memset(&mu[i], 0, sizeof mu[i]);
        mu[i].car = 0;
        mu[i].seq = i;
        mu[i].gen_us = (int64_t)i * PERIOD;
        mu[i].x = x;
        mu[i].y = y;
        mu[i].kind = MU_UPDATE;
        mu[i].nbytes = 48;
        vx += 0.05 * (rng_uniform(&r) - 0.5);
        vy += 0.05 * (rng_uniform(&r) - 0.5);
        x += vx;
        y += vy;
    }
}

static void send_all(const char *name, const Mu *path, Sent *out)
{
    Mu grid[2] = {path[0], path[0]};
    grid[1].car = 1;
    Inst snd = inst_new(name, 0, grid);
    Transport tx = {out, record_send};
    out->n = 0;
    for (int i = 0; i < NS; i++)
        snd.t->on_local(snd.self, &path[i], path[i].gen_us, &tx);
    free(snd.self);
}

static void registry_knows_epp(void **state)
{
    (void)state;
    const char *names[] = {"epp-xd", "epp-xv", "epp-xa", "epp-raw-cv", "epp-raw-ca", "epp-xv-p", "epp-xa-p"};
    for (int i = 0; i < 7; i++)
        assert_non_null(scheme_find(names[i]));
}

/* Budget 48 B x 8 = 384 bits per period after the first update; an
 * independent EPP costs 53 x 8 = 424 bits: over updates 0..99 the bucket
 * gains 99 x 384 = 38016 bits and (never overflowing, at most one per update)
 * releases floor(38016 / 424) = 89 EPPs. By hand the first misses are
 * updates 0 and 1 (0, then 384 < 424), then 11: after sending at 2 the
 * bucket holds 344 and loses 40 per send, 24 after update 10, 408 at 11.
 * Piggyback EPs cost 25 x 8 = 200 < 384 bits: every update from 1 on. */
static void sender_schedule(void **state)
{
    (void)state;
    Mu path[NS];
    make_path(path, NS, 1);
    Sent s;
    send_all("epp-xv", path, &s);
    int upd = 0, par = 0, par100 = 0;
    bool has[NS] = {false};
    for (int i = 0; i < s.n; i++) {
        if (s.mu[i].kind == MU_PARITY) {
            par++;
            par100 += s.mu[i].seq < 100;
            has[s.mu[i].seq] = true;
            assert_int_equal(s.mu[i].nbytes, 53);
            assert_true(s.mu[i].aux[2] == 1.0); /* no delay heard yet: D = 1 */
            /* xv, D = 1: y = 2 x[n] - x[n-1] (eq. 7) */
            int n = s.mu[i].seq;
            assert_true(fabs(s.mu[i].aux[0] - (2 * path[n].x - path[n - 1].x)) < 1e-12);
        } else {
            upd++;
        }
    }
    assert_int_equal(upd, NS);
    assert_int_equal(par100, 89);
    assert_false(has[0] || has[1] || has[11]);
    assert_true(has[2] && has[10] && has[12]);

    send_all("epp-xa-p", path, &s);
    assert_int_equal(s.n, NS);
    for (int i = 0; i < s.n; i++) {
        assert_int_equal(s.mu[i].kind, MU_UPDATE);
        assert_int_equal(s.mu[i].nbytes, i == 0 ? 48 : 48 + 25);
        assert_true(s.mu[i].aux[3] == (i == 0 ? 0.0 : 1.0));
    }
    send_all("epp-raw-cv", path, &s);
    assert_int_equal(s.n, NS);
}

/* Deliver the sender's MUs 10 ms after generation, dropping some; return the
 * receiver (own car 1) after the MUs generated up to and including `upto`. */
static Inst deliver(const char *name, const Mu *path, const Sent *s, int upto, const int *lost_upd, int nlost_upd,
                    const int *lost_ep, int nlost_ep)
{
    Mu grid[2] = {path[0], path[0]};
    grid[1].car = 1;
    Inst rx = inst_new(name, 1, grid);
    for (int i = 0; i < s->n; i++) {
        const Mu *m = &s->mu[i];
        if (m->seq > upto)
            break;
        bool drop = false;
        for (int k = 0; k < nlost_upd; k++)
            drop |= m->kind == MU_UPDATE && m->seq == lost_upd[k];
        for (int k = 0; k < nlost_ep; k++)
            drop |= m->kind == MU_PARITY && m->seq == lost_ep[k];
        if (!drop)
            rx.t->on_receive(rx.self, m, m->gen_us + 10 * MS);
    }
    return rx;
}

/* Update n lost, its EPP delivered: x[n] is restored exactly (eq. 9 for xv,
 * eq. 11 for xa), so 10 ms later the display is the DR from the true window
 * ending at n with horizon h = 10/33: cv (h+1) x[n] - h x[n-1]; ca
 * alpha_0(h) x[n] + alpha_1(h) x[n-1] + alpha_2(h) x[n-2] with the
 * polynomial forms (h+1)(h+2)/2, -h(h+2), h(h+1)/2 of eq. 6's sums. The
 * raw baseline has to extrapolate from n-1 instead. */
static void single_loss_recovered(void **state)
{
    (void)state;
    Mu path[NS];
    make_path(path, NS, 2);
    const int n = 40;
    const double h = 10.0 / 33.0;
    for (int v = 0; v < 2; v++) {
        const char *name = v == 0 ? "epp-xv" : "epp-xa";
        Sent s;
        send_all(name, path, &s);
        int lost[1] = {n};
        Inst rx = deliver(name, path, &s, n, lost, 1, NULL, 0);
        Pose p;
        rx.t->display(rx.self, 0, path[n].gen_us + 10 * MS, &p);
        double want;
        if (v == 0)
            want = (h + 1) * path[n].x - h * path[n - 1].x;
        else
            want = (h + 1) * (h + 2) / 2 * path[n].x - h * (h + 2) * path[n - 1].x +
                   h * (h + 1) / 2 * path[n - 2].x;
        assert_true(fabs(p.x - want) < 1e-9);
        free(rx.self);

        const char *raw = v == 0 ? "epp-raw-cv" : "epp-raw-ca";
        send_all(raw, path, &s);
        rx = deliver(raw, path, &s, n, lost, 1, NULL, 0);
        rx.t->display(rx.self, 0, path[n].gen_us + 10 * MS, &p);
        assert_true(fabs(p.x - want) > 1e-6);
        free(rx.self);
    }
    /* the polynomial forms agree with eq. 6's sums at whole horizons */
    for (int k = 1; k <= 4; k++) {
        double a[3];
        epp_alpha(k, a);
        assert_true(a[0] == (k + 1) * (k + 2) / 2.0 && a[1] == -k * (k + 2.0) && a[2] == k * (k + 1) / 2.0);
    }
}

/* Updates n-1 and n lost and the EPP of n-1 lost too: the EPP of n cannot
 * restore anything (two unknowns), so at its target time (n + D) T it is
 * shown as the prediction (Section 5.2). */
static void multiple_losses_show_the_ep(void **state)
{
    (void)state;
    Mu path[NS];
    make_path(path, NS, 3);
    const int n = 50;
    Sent s;
    send_all("epp-xv", path, &s);
    const Mu *ep = NULL;
    for (int i = 0; i < s.n; i++)
        if (s.mu[i].kind == MU_PARITY && s.mu[i].seq == n)
            ep = &s.mu[i];
    assert_non_null(ep);
    int lost_upd[2] = {n - 1, n}, lost_ep[1] = {n - 1};
    Inst rx = deliver("epp-xv", path, &s, n, lost_upd, 2, lost_ep, 1);
    Pose p;
    rx.t->display(rx.self, 0, path[n].gen_us + PERIOD, &p); /* D = 1 */
    assert_true(p.x == ep->aux[0] && p.y == ep->aux[1]);
    free(rx.self);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(registry_knows_epp),
        cmocka_unit_test(sender_schedule),
        cmocka_unit_test(single_loss_recovered),
        cmocka_unit_test(multiple_losses_show_the_ep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
