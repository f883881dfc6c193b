/* The Terminal on its own (as network play uses it) and the receive
 * boundary: hostile MUs are counted rejections, never reach a scheme. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "terminal.h"

#define MS NR_US_PER_MS

typedef struct Outbox {
    int k[64], to[64];
    Mu mu[64];
    int n;
} Outbox;

static void outbox_send(void *ctx, int k, int to, const Mu *mu)
{
    Outbox *o = ctx;
    if (o->n < 64) {
        o->k[o->n] = k;
        o->to[o->n] = to;
        o->mu[o->n++] = *mu;
    }
}

static Mu mu_of(int car, int seq, double x, double y)
{
    Mu m;
    memset(&m, 0, sizeof m);
    m.car = car;
    m.seq = seq;
    m.gen_us = (int64_t)seq * 33 * MS;
    m.x = x;
    m.y = y;
    m.kind = MU_UPDATE;
    m.nbytes = 48;
    return m;
}

/* Terminal 1 (car 1) running every racing scheme. */
static Terminal *racing_terminal(void)
{
    const SchemeType *s[SCHEME_MAX];
    NrError err;
    int n = scheme_parse_list("all", s, SCHEME_MAX, &err);
    assert_true(n > 4);
    TerminalConfig c = {.car = 1, .ncars = 2, .params = scheme_default_params(), .schemes = s, .nschemes = n};
    Terminal *t = terminal_new(&c, &err);
    assert_non_null(t);
    Mu grid[2] = {mu_of(0, 0, 0.0, 0.0), mu_of(1, 0, 0.0, 3.0)};
    terminal_start(t, grid, 0);
    return t;
}

/* Today's crash 1: NC stores a received MU at shown[mu->car]; car 5 wrote
 * past its two-entry array (heap overflow under the sanitizer). */
/* --clock and a recording's clock_I: milliseconds to the nearest
 * microsecond. 1.005 ms is 1004.9999999999999 us in binary, so a cast
 * gave 1004 us where the text says 1005 (by hand: 1.005 * 1000). */
static void clock_text_is_rounded_to_the_microsecond(void **state)
{
    (void)state;
    TerminalClock c;
    assert_true(terminal_clock_parse("1.005", &c));
    assert_int_equal(c.offset_us, 1005);
    assert_true(c.drift_ppm == 0.0);
    assert_true(terminal_clock_parse("-2.675,30", &c));
    assert_int_equal(c.offset_us, -2675);
    assert_true(c.drift_ppm == 30.0);
    assert_true(terminal_clock_parse("1000000,-100000", &c)); /* the bounds themselves */
    assert_int_equal(c.offset_us, 1000000000);
    const char *bad[] = {"", "x", "1000000.5", "1,100000.5", "1,", "nan", "1,2,3", "12ms"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        c = (TerminalClock){7, 7.0};
        assert_false(terminal_clock_parse(bad[k], &c));
        assert_int_equal(c.offset_us, 7); /* untouched */
    }
}

static void car_out_of_range_is_rejected(void **state)
{
    (void)state;
    Terminal *t = racing_terminal();
    for (int car = -1; car <= 5; car += 6) {
        Mu m = mu_of(car, 1, 1.0, 1.0);
        for (int k = 0; k < terminal_scheme_count(t); k++)
            assert_int_equal(terminal_receive(t, k, &m, 40 * MS), RX_REJECTED);
    }
    assert_int_equal(terminal_rejected(t, MU_BAD_CAR), 2 * terminal_scheme_count(t));
    assert_int_equal(terminal_rejected(t, MU_OK), 2 * terminal_scheme_count(t));
    /* The display is untouched: car 0 still on the grid under NC. */
    Pose p;
    terminal_display(t, 0, 0, 40 * MS, &p);
    assert_true(p.x == 0.0 && p.y == 0.0);
    terminal_free(t);
}

/* Today's crash 2: causality computes gen_us + Delta; gen_us = INT64_MAX
 * overflowed a signed integer. Far timestamps either way are refused. */
static void timestamp_far_from_the_clock_is_rejected(void **state)
{
    (void)state;
    Terminal *t = racing_terminal();
    int64_t bad[] = {INT64_MAX, INT64_MIN, INT64_MAX - 50 * MS, 40 * MS + MU_WINDOW_DEFAULT_US + 1,
                     40 * MS - MU_WINDOW_DEFAULT_US - 1};
    int nbad = (int)(sizeof bad / sizeof bad[0]);
    for (int i = 0; i < nbad; i++) {
        Mu m = mu_of(0, 1, 1.0, 1.0);
        m.gen_us = bad[i];
        for (int k = 0; k < terminal_scheme_count(t); k++)
            assert_int_equal(terminal_receive(t, k, &m, 40 * MS), RX_REJECTED);
    }
    assert_int_equal(terminal_rejected(t, MU_BAD_TIME), nbad * terminal_scheme_count(t));
    /* The window's edges are inside it. */
    Mu m = mu_of(0, 1, 1.0, 1.0);
    m.gen_us = 40 * MS + MU_WINDOW_DEFAULT_US;
    assert_int_equal(mu_validate(&m, 2, 1, 40 * MS, MU_WINDOW_DEFAULT_US), MU_OK);
    m.gen_us = 40 * MS - MU_WINDOW_DEFAULT_US;
    assert_int_equal(mu_validate(&m, 2, 1, 40 * MS, MU_WINDOW_DEFAULT_US), MU_OK);
    terminal_free(t);
}

static void non_finite_and_unknown_fields_are_rejected(void **state)
{
    (void)state;
    Terminal *t = racing_terminal();
    Mu ok = mu_of(0, 1, 1.0, 1.0);
    struct {
        Mu mu;
        MuCheck why;
    } cases[12];
    int n = 0;
    for (int i = 0; i < 12; i++)
        cases[i].mu = ok;
    cases[n].mu.x = NAN, cases[n++].why = MU_BAD_NUMBER;
    cases[n].mu.y = INFINITY, cases[n++].why = MU_BAD_NUMBER;
    cases[n].mu.heading = NAN, cases[n++].why = MU_BAD_NUMBER;
    cases[n].mu.speed = -INFINITY, cases[n++].why = MU_BAD_NUMBER;
    cases[n].mu.vx = 1e300, cases[n++].why = MU_BAD_NUMBER; /* finite, overflows DR */
    cases[n].mu.aux[5] = NAN, cases[n++].why = MU_BAD_NUMBER;
    cases[n].mu.x = 2e6, cases[n++].why = MU_BAD_NUMBER;     /* beyond RECORDING_MAX_POS */
    cases[n].mu.kind = 7, cases[n++].why = MU_BAD_KIND;
    cases[n].mu.nbytes = -1, cases[n++].why = MU_BAD_KIND;
    cases[n].mu.seq = -3, cases[n++].why = MU_BAD_SEQ;
    cases[n].mu.car = 1, cases[n++].why = MU_BAD_CAR;        /* the receiver's own car */
    for (int i = 0; i < n; i++) {
        assert_int_equal(mu_validate(&cases[i].mu, 2, 1, 40 * MS, MU_WINDOW_DEFAULT_US), cases[i].why);
        assert_int_equal(terminal_receive(t, 0, &cases[i].mu, 40 * MS), RX_REJECTED);
    }
    assert_int_equal(terminal_rejected(t, MU_OK), n);
    assert_int_equal(terminal_rejected(t, MU_BAD_KIND), 2);
    terminal_reset_counters(t);
    assert_int_equal(terminal_rejected(t, MU_OK), 0);
    /* A well-formed MU passes and NC shows it. */
    assert_int_equal(mu_validate(&ok, 2, 1, 40 * MS, MU_WINDOW_DEFAULT_US), MU_OK);
    assert_int_equal(terminal_receive(t, 0, &ok, 40 * MS), RX_USED);
    Pose p;
    terminal_display(t, 0, 0, 40 * MS, &p);
    assert_true(p.x == 1.0 && p.y == 1.0 && p.seq == 1);
    terminal_free(t);
}

/* A terminal on its own: its own samples leave through the sink, addressed
 * to the other terminal, once per scheme that sends; NC and causality send
 * every sample, the DR schemes only when the prediction error exceeds T_dr. */
static void terminal_alone_sends_through_its_sink(void **state)
{
    (void)state;
    const SchemeType *s[2] = {scheme_find("nc"), scheme_find("dr")};
    TerminalConfig c = {.car = 0, .ncars = 2, .params = scheme_default_params(), .schemes = s, .nschemes = 2};
    NrError err;
    Terminal *t = terminal_new(&c, &err);
    assert_non_null(t);
    Mu grid[2] = {mu_of(0, 0, 0.0, 0.0), mu_of(1, 0, 0.0, 3.0)};
    terminal_start(t, grid, 0);
    Outbox o = {0};
    TerminalSink sink = {&o, outbox_send};
    Mu m = mu_of(0, 1, 0.1, 0.0); /* 0.1 cw from the grid: below T_dr */
    terminal_local(t, &m, m.gen_us, &sink);
    assert_int_equal(o.n, 1);
    assert_int_equal(o.k[0], 0);
    assert_int_equal(o.to[0], 1);
    m = mu_of(0, 2, 1.0, 0.0); /* 1 cw: above T_dr, DR sends too */
    terminal_local(t, &m, m.gen_us, &sink);
    assert_int_equal(o.n, 3);
    assert_int_equal(o.k[1], 0);
    assert_int_equal(o.k[2], 1);
    assert_true(o.mu[2].x == 1.0);
    terminal_free(t);
}

/* What the boundary cannot know, the scheme checks: an EPP receiver given a
 * valid-looking MU at the largest sequence number, carrying an EP of a huge
 * horizon, computed seq + D in int (signed overflow under the sanitizer) and
 * trusted D. Now such an EP is ignored (D above what a sender ever uses) and
 * the arithmetic is 64-bit; the display stays finite. */
static void epp_receiver_survives_extreme_fields(void **state)
{
    (void)state;
    const SchemeType *s[3] = {scheme_find("epp-xd"), scheme_find("epp-xa"), scheme_find("epp-xv-p")};
    TerminalConfig c = {.car = 1, .ncars = 2, .params = scheme_default_params(), .schemes = s, .nschemes = 3};
    NrError err;
    Terminal *t = terminal_new(&c, &err);
    assert_non_null(t);
    Mu grid[2] = {mu_of(0, 0, 0.0, 0.0), mu_of(1, 0, 0.0, 3.0)};
    terminal_start(t, grid, 0);
    int64_t now = 40 * MS;
    double horizons[] = {1e6, 65536.0, 17.0, 1.0}; /* all within the boundary's bounds */
    for (int h = 0; h < 4; h++) {
        Mu m = mu_of(0, 1, 1.0, 1.0);
        m.seq = INT32_MAX - h;
        m.gen_us = now;
        m.aux[0] = 5.0;
        m.aux[1] = 5.0;
        m.aux[2] = horizons[h];
        m.aux[3] = 1.0;
        for (int k = 0; k < 3; k++) {
            assert_int_equal(mu_validate(&m, 2, 1, now, MU_WINDOW_DEFAULT_US), MU_OK);
            terminal_receive(t, k, &m, now);
            m.kind = MU_PARITY;
            terminal_receive(t, k, &m, now);
            m.kind = MU_UPDATE;
            Pose p;
            terminal_display(t, k, 0, now + 33 * MS, &p);
            assert_true(isfinite(p.x) && isfinite(p.y) && isfinite(p.heading));
        }
    }
    terminal_free(t);
}

/* The route checks an MU's own fields once for every receiver
 * (mu_fields_ok); each receiver then checks the car and the time only
 * (mu_validate_known). Every reason, first one first, as mu_validate gives
 * it, worked out case by case. */
static void known_fields_give_the_same_answer(void **state)
{
    (void)state;
    Mu ok = mu_of(0, 1, 1.0, 1.0);
    struct {
        Mu mu;
        bool fields; /* mu_fields_ok */
        MuCheck why; /* at terminal 2 (car 1) of 2, clock 40 ms */
    } c[9];
    for (int i = 0; i < 9; i++)
        c[i].mu = ok;
    c[0].fields = true, c[0].why = MU_OK;
    c[1].mu.car = 1, c[1].fields = true, c[1].why = MU_BAD_CAR; /* the receiver's own */
    c[2].mu.car = 2, c[2].fields = true, c[2].why = MU_BAD_CAR; /* no such car */
    c[3].mu.gen_us = 40 * MS + MU_WINDOW_DEFAULT_US + 1, c[3].fields = true, c[3].why = MU_BAD_TIME;
    c[4].mu.seq = -1, c[4].fields = false, c[4].why = MU_BAD_SEQ;
    c[5].mu.kind = 9, c[5].fields = false, c[5].why = MU_BAD_KIND;
    c[6].mu.aux[2] = INFINITY, c[6].fields = false, c[6].why = MU_BAD_NUMBER;
    c[7].mu.car = -1, c[7].mu.x = NAN, c[7].fields = false, c[7].why = MU_BAD_CAR; /* car first */
    c[8].mu.x = NAN, c[8].mu.gen_us = INT64_MIN, c[8].fields = false, c[8].why = MU_BAD_NUMBER;
    for (int i = 0; i < 9; i++) {
        const Mu *m = &c[i].mu;
        assert_int_equal(mu_fields_ok(m), c[i].fields);
        assert_int_equal(mu_validate_known(m, mu_fields_ok(m), 2, 1, 40 * MS, MU_WINDOW_DEFAULT_US), c[i].why);
        assert_int_equal(mu_validate_known(m, false, 2, 1, 40 * MS, MU_WINDOW_DEFAULT_US), c[i].why);
        assert_int_equal(mu_validate(m, 2, 1, 40 * MS, MU_WINDOW_DEFAULT_US), c[i].why);
    }
    /* Through a terminal: a rejection counts once per scheme. */
    Terminal *t = racing_terminal();
    int ks[4] = {0, 1, 2, 3};
    RxResult rx[4];
    terminal_receive_many(t, ks, 4, &c[3].mu, true, 40 * MS, rx);
    for (int i = 0; i < 4; i++)
        assert_int_equal(rx[i], RX_REJECTED);
    assert_int_equal(terminal_rejected(t, MU_BAD_TIME), 4);
    terminal_receive_many(t, ks, 2, &c[0].mu, true, 40 * MS, rx);
    assert_int_equal(rx[0], RX_USED);
    assert_int_equal(terminal_rejected(t, MU_OK), 4);
    terminal_free(t);
}

static void bad_configs_are_refused(void **state)
{
    (void)state;
    const SchemeType *s[1] = {scheme_find("nc")};
    NrError err;
    TerminalConfig c = {.car = 2, .ncars = 2, .params = scheme_default_params(), .schemes = s, .nschemes = 1};
    assert_null(terminal_new(&c, &err));
    c.car = 0;
    c.ncars = 9;
    assert_null(terminal_new(&c, &err));
    c.ncars = 2;
    c.nschemes = 0;
    assert_null(terminal_new(&c, &err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(car_out_of_range_is_rejected),
        cmocka_unit_test(timestamp_far_from_the_clock_is_rejected),
        cmocka_unit_test(non_finite_and_unknown_fields_are_rejected),
        cmocka_unit_test(terminal_alone_sends_through_its_sink),
        cmocka_unit_test(epp_receiver_survives_extreme_fields),
        cmocka_unit_test(known_fields_give_the_same_answer),
        cmocka_unit_test(bad_configs_are_refused),
        cmocka_unit_test(clock_text_is_rounded_to_the_microsecond),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
