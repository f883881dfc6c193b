/* Each scheme on hand-built MU scenarios (racing paper Section 3 semantics),
 * driven directly through its vtable with a recording transport. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scheme.h"
#include "scheme_util.h"

#define MS NR_US_PER_MS

typedef struct Sent {
    Mu mu[64];
    int n;
} Sent;

static void record_send(void *ctx, const Mu *mu)
{
    Sent *s = ctx;
    if (s->n < 64)
        s->mu[s->n++] = *mu;
}

static Mu mu_at(int car, int seq, double x, double y)
{
    Mu m;
    memset(&m, 0, sizeof m);
    m.car = car;
    m.seq = seq;
    m.gen_us = (int64_t)seq * 33 * MS;
    m.x = x;
    m.y = y;
    return m;
}

typedef struct Inst {
    const SchemeType *t;
    void *st;
} Inst;

static Inst make(const char *name, int own, const SchemeParams *p, const Mu grid[2])
{
    Inst i = {scheme_find(name), NULL};
    assert_non_null(i.t);
    i.st = calloc(1, i.t->state_size);
    i.t->init(i.st, p, own, 2, grid);
    return i;
}

static Pose show(const Inst *i, int car, int64_t now)
{
    Pose p;
    i->t->display(i->st, car, now, &p);
    return p;
}

/* The causality check by hand: Delta 100 ms against a link's mean delay;
 * only the schemes that hold for Delta (causality, dr-causality) count,
 * named in their order; a mean equal to Delta is not below it. */
static void delta_late_names_the_causality_schemes(void **state)
{
    (void)state;
    const SchemeType *s[SCHEME_MAX];
    NrError err;
    int n = scheme_parse_list("nc,causality,dr,dr-causality", s, SCHEME_MAX, &err);
    assert_int_equal(n, 4);
    char names[64];
    assert_int_equal(scheme_delta_late(s, n, 100 * NR_US_PER_MS, 200.0, names, sizeof names), 2);
    assert_string_equal(names, "causality, dr-causality");
    assert_int_equal(scheme_delta_late(s, n, 100 * NR_US_PER_MS, 100.0, names, sizeof names), 0);
    assert_string_equal(names, "");
    assert_int_equal(scheme_delta_late(s, n, 100 * NR_US_PER_MS, 100.5, names, sizeof names), 2);
    assert_int_equal(scheme_delta_late(s, n, 250 * NR_US_PER_MS, 200.0, names, sizeof names), 0);
    assert_int_equal(scheme_delta_late(s, 1, 0, 0.5, names, sizeof names), 0); /* nc holds no Delta */
    assert_int_equal(scheme_delta_late(s + 1, 1, 50 * NR_US_PER_MS, 75.0, NULL, 0), 1);
    char tiny[13]; /* room for one name: the count stays, no name is cut */
    assert_int_equal(scheme_delta_late(s, n, 0, 1.0, tiny, sizeof tiny), 2);
    assert_string_equal(tiny, "causality");
}

static void registry_lists_and_finds(void **state)
{
    (void)state;
    const SchemeType *out[SCHEME_MAX];
    NrError err;
    assert_int_equal(scheme_parse_list("racing", out, SCHEME_MAX, &err), 4);
    assert_string_equal(out[0]->name, "nc");
    assert_string_equal(out[3]->name, "dr-causality");
    assert_int_equal(scheme_parse_list("dr,nc,dr", out, SCHEME_MAX, &err), 2);
    assert_int_equal(scheme_parse_list("nc,bogus", out, SCHEME_MAX, &err), -1);
    assert_non_null(strstr(err.msg, "unknown scheme 'bogus'"));
    assert_int_equal(scheme_parse_list("nc,,dr", out, SCHEME_MAX, &err), -1);
    assert_int_equal(scheme_parse_list("nc,", out, SCHEME_MAX, &err), -1); /* empty last name */
    int all = scheme_parse_list("every", out, SCHEME_MAX, &err);
    int count = 0;
    for (const SchemeType *const *r = scheme_registry(); *r; r++)
        count++;
    assert_int_equal(all, count);
}

/* NC shows every arrival at once, even a stale one overtaken by a newer MU. */
static void nc_shows_on_arrival(void **state)
{
    (void)state;
    SchemeParams p = scheme_default_params();
    Mu grid[2] = {mu_at(0, 0, 0, 0), mu_at(1, 0, 0, 3)};
    Inst rx = make("nc", 1, &p, grid);
    assert_true(show(&rx, 0, 10 * MS).x == 0.0);
    Mu m2 = mu_at(0, 2, 2.0, 0);
    Mu m1 = mu_at(0, 1, 1.0, 0);
    assert_int_equal(rx.t->on_receive(rx.st, &m2, 80 * MS), RX_USED);
    assert_true(show(&rx, 0, 80 * MS).x == 2.0);
    assert_int_equal(rx.t->on_receive(rx.st, &m1, 90 * MS), RX_USED);
    assert_true(show(&rx, 0, 90 * MS).x == 1.0);
    free(rx.st);
}

/* Causality: an MU is output at exactly gen + Delta (not one microsecond
 * earlier), a late one is discarded, and the own car waits Delta too. */
static void causality_outputs_at_gen_plus_delta(void **state)
{
    (void)state;
    SchemeParams p = scheme_default_params(); /* Delta = 100 ms */
    Mu grid[2] = {mu_at(0, 0, 0, 0), mu_at(1, 0, 0, 3)};
    Inst rx = make("causality", 1, &p, grid);
    Mu m1 = mu_at(0, 1, 1.0, 0); /* gen 33 ms, limit 133 ms */
    assert_int_equal(rx.t->on_receive(rx.st, &m1, 60 * MS), RX_USED);
    assert_true(show(&rx, 0, 133 * MS - 1).x == 0.0);
    assert_true(show(&rx, 0, 133 * MS).x == 1.0);
    assert_int_equal(show(&rx, 0, 133 * MS).seq, 1);

    Mu m2 = mu_at(0, 2, 2.0, 0); /* gen 66 ms, limit 166 ms, arrives 166.001 */
    assert_int_equal(rx.t->on_receive(rx.st, &m2, 166 * MS + 1), RX_DISCARDED);
    assert_true(show(&rx, 0, 200 * MS).x == 1.0);
    Mu m3 = mu_at(0, 3, 3.0, 0); /* gen 99 ms arriving exactly at its limit */
    assert_int_equal(rx.t->on_receive(rx.st, &m3, 199 * MS), RX_USED);
    assert_true(show(&rx, 0, 199 * MS).x == 3.0);

    /* Own car: sampled at 33 ms, shown from 133 ms on. */
    Sent sent = {.n = 0};
    Transport tx = {&sent, record_send};
    Mu own = mu_at(1, 1, 0.5, 3);
    rx.t->on_local(rx.st, &own, own.gen_us, &tx);
    assert_int_equal(sent.n, 1);
    assert_true(show(&rx, 1, 132 * MS).x == 0.0);
    assert_true(show(&rx, 1, 133 * MS).x == 0.5);
    free(rx.st);
}

/* DR sender: a car moving at 1 cw per sample from a standing start. The
 * first-order prediction from the grid (velocity 0) errs by 1.0 > 0.25 at the
 * first sample, so MU 1 is sent; from then on the velocity estimate is exact
 * and nothing is sent until the car changes speed. Then the error grows by
 * the speed change per sample: with a change of 0.1 cw per sample the error
 * is 0.1, 0.2, 0.3 -> sent at the third sample after the change. */
static void dr_sends_exactly_when_error_exceeds_tdr(void **state)
{
    (void)state;
    SchemeParams p = scheme_default_params();
    Mu grid[2] = {mu_at(0, 0, 0, 0), mu_at(1, 0, 0, 3)};
    Inst s = make("dr", 0, &p, grid);
    Sent sent = {.n = 0};
    Transport tx = {&sent, record_send};
    double x = 0;
    int sent_at[16];
    int nsent = 0;
    for (int i = 1; i <= 12; i++) {
        double v = i <= 5 ? 1.0 : 1.1; /* speed change after sample 5 */
        x += v;
        Mu m = mu_at(0, i, x, 0);
        int before = sent.n;
        s.t->on_local(s.st, &m, m.gen_us, &tx);
        if (sent.n > before)
            sent_at[nsent++] = i;
    }
    /* Prediction error after the change at samples 6, 7, 8: 0.1, 0.2, 0.3. */
    assert_int_equal(nsent, 2);
    assert_int_equal(sent_at[0], 1);
    assert_int_equal(sent_at[1], 8);
    /* The transmitted MU carries the velocity of the last two transmitted
     * MUs: (x8 - x1) / (7 samples) in cw per second. */
    double x1 = 1.0, x8 = 5.0 + 3 * 1.1;
    assert_true(fabs(sent.mu[1].vx - (x8 - x1) / (7 * 0.033)) < 1e-9);

    /* Exactly at the threshold nothing is sent (strictly exceeds). */
    SchemeParams q = p;
    q.tdr_cw = 1.0;
    Inst t = make("dr", 0, &q, grid);
    Sent s2 = {.n = 0};
    Transport tx2 = {&s2, record_send};
    Mu m1 = mu_at(0, 1, 1.0, 0);
    t.t->on_local(t.st, &m1, m1.gen_us, &tx2);
    assert_int_equal(s2.n, 0);
    Mu m2 = mu_at(0, 2, 2.0 + 1e-9, 0);
    t.t->on_local(t.st, &m2, m2.gen_us, &tx2);
    assert_int_equal(s2.n, 1);
    free(s.st);
    free(t.st);
}

/* DR receiver (global clock): last MU + velocity of the last two MUs times
 * the time since the last MU's timestamp. dr-local: the MU's own velocity
 * times the time since receipt. */
static void dr_receivers_extrapolate(void **state)
{
    (void)state;
    SchemeParams p = scheme_default_params();
    Mu grid[2] = {mu_at(0, 0, 0, 0), mu_at(1, 0, 0, 3)};
    Inst g = make("dr", 1, &p, grid);
    Inst l = make("dr-local", 1, &p, grid);
    Mu m = mu_at(0, 10, 3.3, 0); /* gen 330 ms; from grid: v = 3.3/0.33 = 10 cw/s */
    m.vx = 10.0;
    assert_int_equal(g.t->on_receive(g.st, &m, 400 * MS), RX_USED);
    assert_int_equal(l.t->on_receive(l.st, &m, 400 * MS), RX_USED);
    /* at 500 ms: global 3.3 + 10 * 0.170 = 5.0; local 3.3 + 10 * 0.100 = 4.3 */
    assert_true(fabs(show(&g, 0, 500 * MS).x - 5.0) < 1e-12);
    assert_true(fabs(show(&l, 0, 500 * MS).x - 4.3) < 1e-12);
    /* An older MU arriving later is stale for both. */
    Mu old = mu_at(0, 5, 1.0, 0);
    assert_int_equal(g.t->on_receive(g.st, &old, 510 * MS), RX_DISCARDED);
    assert_int_equal(l.t->on_receive(l.st, &old, 510 * MS), RX_DISCARDED);
    free(g.st);
    free(l.st);
}

/* DR+Causality: an MU received in time is used from gen + Delta; one that
 * arrives after its limit is used at the next output time (the next own
 * sample, here the next multiple of the 33 ms period); both cars are shown as of the newest own sample at or
 * before now - Delta. */
static void dr_causality_holds_and_uses_late_mu(void **state)
{
    (void)state;
    SchemeParams p = scheme_default_params();
    Mu grid[2] = {mu_at(0, 0, 0, 0), mu_at(1, 0, 0, 3)};
    Inst s = make("dr-causality", 1, &p, grid);
    Sent sent = {.n = 0};
    Transport tx = {&sent, record_send};
    /* Own car parked: samples at 0..297 ms, interleaved with the arrivals
     * in time order as the engine calls them. */
    for (int i = 0; i <= 4; i++) {
        Mu own = mu_at(1, i, 0, 3);
        s.t->on_local(s.st, &own, own.gen_us, &tx);
    }
    Mu m1 = mu_at(0, 3, 0.99, 0); /* gen 99 ms, v from grid = 10 cw/s */
    assert_int_equal(s.t->on_receive(s.st, &m1, 150 * MS), RX_USED);
    for (int i = 5; i <= 6; i++) {
        Mu own = mu_at(1, i, 0, 3);
        s.t->on_local(s.st, &own, own.gen_us, &tx);
    }
    /* 198 ms shows the 66 ms frame; MU 1 is held until 199 ms: the grid */
    assert_true(show(&s, 0, 198 * MS).x == 0.0);
    /* 199 ms shows the 99 ms frame: exactly the MU */
    assert_true(fabs(show(&s, 0, 199 * MS).x - 0.99) < 1e-12);
    assert_int_equal(show(&s, 0, 199 * MS).seq, 3);
    Mu own7 = mu_at(1, 7, 0, 3);
    s.t->on_local(s.st, &own7, own7.gen_us, &tx);

    /* MU gen 132 ms (limit 232) arriving at 240 ms: late, used at 264 ms. */
    Mu m2 = mu_at(0, 4, 2.0, 0);
    assert_int_equal(s.t->on_receive(s.st, &m2, 240 * MS), RX_LATE_USED);
    /* 250 ms shows the 132 ms frame: 0.99 + 10 * 0.033 */
    assert_true(fabs(show(&s, 0, 250 * MS).x - 1.32) < 1e-12);
    assert_int_equal(show(&s, 1, 250 * MS).seq, 4);
    assert_true(fabs(show(&s, 0, 263 * MS).x - 1.32) < 1e-12);
    Mu own8 = mu_at(1, 8, 0, 3);
    s.t->on_local(s.st, &own8, own8.gen_us, &tx); /* output time 264 ms */
    assert_true(fabs(show(&s, 0, 264 * MS).x - 2.0) < 1e-12);
    free(s.st);
}

/* DR+Causality with the receiver's clock 10 ms ahead of global time: its
 * output times (own samples) are at 10 + 33 i ms of its clock, not at
 * multiples of 33 ms. A late MU is used at the terminal's next output time.
 * MU 1 (gen 33 ms, x 1) in time, released at 133; MU 2 (gen 66, x 3) arrives
 * at 170 > 166: late, used at the next own sample, 175 (not at 198). At
 * 175 the shown frame is the own sample of 43 ms: with MU 2, prev = MU 1,
 * x = 3 + (2 / 0.033) (0.043 - 0.066) = 3 - 46 / 33; without it (grid at
 * 10 ms, x 0, then MU 1), x = 1 + (1 / 0.023) 0.010 = 1 + 10 / 23. */
static void dr_causality_late_mu_at_next_own_output(void **state)
{
    (void)state;
    SchemeParams p = scheme_default_params();
    const int64_t off = 10 * MS;
    Mu grid[2] = {mu_at(0, 0, 0, 0), mu_at(1, 0, 0, 3)};
    grid[0].gen_us = grid[1].gen_us = off; /* the grid in this terminal's clock */
    Inst s = make("dr-causality", 1, &p, grid);
    Sent sent = {.n = 0};
    Transport tx = {&sent, record_send};
    int i = 0;
    for (; i <= 4; i++) { /* own samples at 10 .. 142 ms */
        Mu own = mu_at(1, i, 0, 3);
        own.gen_us += off;
        s.t->on_local(s.st, &own, own.gen_us, &tx);
    }
    Mu m1 = mu_at(0, 1, 1.0, 0);
    assert_int_equal(s.t->on_receive(s.st, &m1, 50 * MS), RX_USED);
    Mu m2 = mu_at(0, 2, 3.0, 0);
    assert_int_equal(s.t->on_receive(s.st, &m2, 170 * MS), RX_LATE_USED);
    assert_true(fabs(show(&s, 0, 174 * MS).x - (1.0 + 10.0 / 23.0)) < 1e-9);
    Mu own = mu_at(1, 5, 0, 3);
    own.gen_us += off;
    s.t->on_local(s.st, &own, own.gen_us, &tx); /* output time 175 ms */
    assert_true(fabs(show(&s, 0, 175 * MS).x - (3.0 - 46.0 / 33.0)) < 1e-9);
    free(s.st);
}

static void drop_send(void *ctx, const Mu *mu)
{
    (void)ctx;
    (void)mu;
}

/* display_all gives, car for car, what display gives: every scheme that
 * has one, four cars, own car 1 moving, the others' MUs arriving after
 * 20 to 150 ms (some past Delta, some out of order), looked at on and
 * between the samples. The heading is display's, or 0 for the dead-
 * reckoned schemes only (scheme.h: they leave it 0 where it costs an
 * atan2). */
static void display_all_is_display_car_by_car(void **state)
{
    (void)state;
    enum { NCARS = 4 };
    SchemeParams p = scheme_default_params();
    int checked = 0;
    for (const SchemeType *const *t = scheme_registry(); *t; t++) {
        if (!(*t)->display_all)
            continue;
        Mu grid[NCARS];
        for (int c = 0; c < NCARS; c++)
            grid[c] = mu_at(c, 0, 2.0 * c, 0.0);
        void *st = calloc(1, (*t)->state_size);
        assert_non_null(st);
        (*t)->init(st, &p, 1, NCARS, grid);
        bool dr = strcmp((*t)->name, "dr") == 0 || strcmp((*t)->name, "dr-causality") == 0;
        Transport tx = {NULL, drop_send};
        uint32_t x = 99;
        for (int seq = 1; seq < 60; seq++) {
            int64_t now = (int64_t)seq * 33 * MS;
            for (int c = 0; c < NCARS; c++) {
                if (c == 1)
                    continue;
                x = x * 1103515245u + 12345u;
                int back = 1 + (int)((x >> 16) % 5); /* generated 33 to 165 ms ago */
                Mu m = mu_at(c, seq - back < 0 ? 0 : seq - back, 2.0 * c + 0.3 * (seq - back), 0.1 * c);
                (*t)->on_receive(st, &m, now - 1);
            }
            Mu own = mu_at(1, seq, 2.0 + 0.4 * seq, 0.05 * seq);
            (*t)->on_local(st, &own, now, &tx);
            for (int64_t dt = 0; dt < 33 * MS; dt += 11 * MS) {
                Pose all[NCARS], one;
                (*t)->display_all(st, NCARS, now + dt, all);
                for (int c = 0; c < NCARS; c++) {
                    (*t)->display(st, c, now + dt, &one);
                    assert_memory_equal(&one.x, &all[c].x, sizeof one.x);
                    assert_memory_equal(&one.y, &all[c].y, sizeof one.y);
                    assert_true((dr && all[c].heading == 0.0) || memcmp(&one.heading, &all[c].heading, sizeof one.heading) == 0);
                    assert_int_equal(one.seq, all[c].seq);
                }
            }
        }
        free(st);
        checked++;
    }
    assert_true(checked >= 4); /* the racing paper's four have one */
}

/* The schemes keep of an MU its time, pose and sample only (MuKept): what
 * a display shows is those fields exactly, whatever else the MU carried; a
 * full ring (MURING_CAP MUs) makes its oldest the fallback. */
static void kept_mu_is_the_shown_fields(void **state)
{
    (void)state;
    Mu m = mu_at(1, 7, 0.1 + 1e-12, -3.75);
    m.heading = 2.5;
    m.speed = 40.0;
    m.vx = m.vy = 9.0;
    m.aux[0] = 1.0;
    MuKept k = mu_kept(&m);
    assert_true(k.gen_us == 7 * 33 * MS && k.seq == 7);
    assert_true(k.x == 0.1 + 1e-12 && k.y == -3.75 && k.heading == 2.5);
    Pose p;
    pose_from_kept(&k, &p);
    assert_true(p.x == m.x && p.y == m.y && p.heading == 2.5 && p.seq == 7);

    MuRing r;
    Mu base = mu_at(1, 0, 0.0, 0.0);
    muring_clear(&r, &base);
    for (int seq = 1; seq <= MURING_CAP + 2; seq++) { /* x = seq */
        Mu u = mu_at(1, seq, (double)seq, 0.0);
        muring_insert(&r, &u);
    }
    /* seq 1 and 2 left the full ring in turn: seq 2 is the fallback */
    assert_true(muring_latest_before(&r, 0)->seq == 2);
    assert_true(muring_latest_before(&r, 2 * 33 * MS + 32 * MS)->x == 2.0);
    assert_true(muring_latest_before(&r, 3 * 33 * MS)->x == 3.0);
    assert_true(muring_latest_before(&r, INT64_MAX)->seq == MURING_CAP + 2);
}

/* A dead-reckoned car's heading is that of its velocity, found when a
 * display asks (the last MU's own heading while the velocity is 0); the
 * engine's display_all leaves it 0. By hand: grid at (0, 0), MU at (3, 4)
 * 330 ms later: v = (3, 4) / 0.33, heading atan2(4, 3). */
static void dr_heading_is_the_velocity_s(void **state)
{
    (void)state;
    SchemeParams p = scheme_default_params();
    for (int s = 0; s < 2; s++) {
        Mu grid[2] = {mu_at(0, 0, 0, 0), mu_at(1, 0, 0, 3)};
        grid[0].heading = 1.25;
        Inst g = make(s == 0 ? "dr" : "dr-causality", 1, &p, grid);
        assert_true(show(&g, 0, 0).heading == 1.25); /* no velocity yet */
        Mu m = mu_at(0, 10, 3.0, 4.0);
        m.heading = -2.0;
        assert_int_equal(g.t->on_receive(g.st, &m, 340 * MS), RX_USED);
        int64_t at = 2000 * MS; /* past Delta: dr-causality applied it */
        for (int i = 1; i <= 60; i++) { /* the own car's samples up to `at` */
            Mu own = mu_at(1, i, 0, 3);
            Transport tx = {NULL, drop_send};
            g.t->on_local(g.st, &own, own.gen_us, &tx);
        }
        assert_true(fabs(show(&g, 0, at).heading - atan2(4.0, 3.0)) < 1e-15);
        Pose all[2];
        g.t->display_all(g.st, 2, at, all);
        assert_true(all[0].heading == 0.0 && all[0].x == show(&g, 0, at).x && all[0].y == show(&g, 0, at).y);
        free(g.st);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(registry_lists_and_finds),
        cmocka_unit_test(delta_late_names_the_causality_schemes),
        cmocka_unit_test(nc_shows_on_arrival),
        cmocka_unit_test(causality_outputs_at_gen_plus_delta),
        cmocka_unit_test(dr_sends_exactly_when_error_exceeds_tdr),
        cmocka_unit_test(dr_receivers_extrapolate),
        cmocka_unit_test(dr_heading_is_the_velocity_s),
        cmocka_unit_test(dr_causality_holds_and_uses_late_mu),
        cmocka_unit_test(dr_causality_late_mu_at_next_own_output),
        cmocka_unit_test(display_all_is_display_car_by_car),
        cmocka_unit_test(kept_mu_is_the_shown_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
