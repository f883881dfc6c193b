/* A Terminal: one player's side of a race (DESIGN.md "Live play"). It owns
 * its car index, its clock, one instance of every selected scheme, and says
 * what it displays. It knows nothing of the other terminal or of the medium:
 * what its schemes send leaves through a TerminalSink, what arrives comes in
 * through terminal_receive, which validates every MU (mu.h) before any
 * scheme sees it and counts the rejections.
 *
 * Used alone (network play, one process per player):
 *     Terminal *t = terminal_new(&(TerminalConfig){.car = me, .ncars = 2,
 *         .schemes = ..., .nschemes = n, .params = p}, &err);
 *     terminal_start(t, grid, local_now);          at the race start
 *     each own sample:   terminal_local(t, &mu, local_now, &sink);
 *                        (the sink encodes scheme k's MU into a packet)
 *     each packet:       terminal_receive(t, k, &mu, local_arrival_time);
 *     each frame:        terminal_display(t, k, car, local_now, &pose);
 * The Engine (engine.h) is two of these plus one medium per direction plus
 * the metrics, with the clocks emulated by terminal_clock_local.
 *
 * All times a Terminal takes are its own local clock in microseconds.
 *
 * Contracts:
 *   terminal_clock_local(c, t_us)   local time of global t_us under clock c:
 *        t + offset + round(t * drift_ppm * 1e-6).
 *   terminal_clock_parse(text, c)   "OFFSET_MS[,DRIFT_PPM]" (--clock, a
 *        recording's clock_I) into c, the offset rounded to the nearest
 *        microsecond; false (c untouched) unless both are numbers with
 *        |offset| <= TERMINAL_CLOCK_MAX_MS and |drift| <= _MAX_PPM.
 *   terminal_new(cfg, err)          allocates every scheme instance (the
 *        only allocation); NULL + err when cfg is bad (car outside
 *        0..ncars-1, ncars outside 2..TERMINAL_MAX_CARS, nschemes outside
 *        1..SCHEME_MAX) or out of memory. Until terminal_start the
 *        terminal is idle: terminal_local sends nothing, terminal_receive
 *        validates, then discards (RX_DISCARDED), terminal_display gives
 *        the origin with seq -1.
 *   terminal_free(t)                NULL-safe.
 *   terminal_start(t, grid, local_us)  (re)starts every scheme instance:
 *        grid[c] is car c's start MU (ncars entries); their gen_us is set to
 *        local_us (each terminal knows the grid in its own clock).
 *   terminal_local(t, mu, local_us, sink)  own car sampled at local_us
 *        (mu->car == the terminal's car, mu->gen_us == local_us): every
 *        scheme's sender half runs in scheme order; what scheme k sends goes
 *        to sink->send(sink->ctx, k, to, mu) for every other terminal `to`.
 *   terminal_local_fan(t, mu, local_us, fan)  the same, what the schemes
 *        send going to every other terminal (in ascending order) at once:
 *        kept until every scheme has run, then handed over in sending order
 *        by fan->send_many(fan->ctx, k, mu, n) (one call, or one per
 *        TERMINAL_FAN_BATCH sends).
 *   terminal_receive(t, k, mu, local_us)  an MU for scheme k arrived at
 *        local_us: RX_REJECTED (counted, nothing else changes) unless
 *        mu_validate passes, else scheme k's on_receive result.
 *   terminal_receive_many(t, k, n, mu, fields_ok, local_us, out)  the same
 *        bytes for schemes k[0..n) at once (every scheme's copy of one MU):
 *        validated once (mu_validate_known: fields_ok is mu_fields_ok(mu)
 *        computed where the bytes were stored, false to check everything);
 *        out[i] is what terminal_receive(t, k[i], mu, local_us) gives (a
 *        rejection counts n times).
 *   terminal_rejected(t, check)     MUs rejected for that MuCheck reason
 *        (MU_OK: all reasons together) since start / reset.
 *   terminal_reset_counters(t)
 *   terminal_display(t, k, car, local_us, out)  where scheme k shows car at
 *        local_us. Pure.
 *   terminal_display_all(t, k, local_us, out)  out[c] for every car c, as
 *        terminal_display gives each (the scheme's display_all when it has
 *        one, which may leave a heading 0: scheme.h).
 *   terminal_output_time(t, k, mu, local_us)  when scheme k outputs mu,
 *        which it just took with RX_USED at local_us (SchemeType.output_time;
 *        local_us for a scheme without one). Pure.
 *   terminal_set_params(t, p)       live change for every scheme.
 *   terminal_car / terminal_scheme_count / terminal_scheme
 */
#ifndef NR_TERMINAL_H
#define NR_TERMINAL_H

#include "mu.h"

/* As many cars as a scheme instance holds (scheme.h). */
#define TERMINAL_MAX_CARS SCHEME_MAX_CARS

typedef struct TerminalClock {
    int64_t offset_us; /* local = global + offset + drift */
    double drift_ppm;
} TerminalClock;

typedef struct TerminalConfig {
    int car;   /* the car this terminal owns (0-based) */
    int ncars; /* cars in the race (2) */
    SchemeParams params;
    const SchemeType *const *schemes;
    int nschemes;
    int64_t rx_window_us; /* mu_validate window; 0 = MU_WINDOW_DEFAULT_US */
} TerminalConfig;

/* Where a terminal's schemes send: scheme k's MU for terminal `to`. */
typedef struct TerminalSink {
    void *ctx;
    void (*send)(void *ctx, int k, int to, const Mu *mu);
} TerminalSink;

/* Where a terminal's schemes send when every MU goes to every other
 * terminal (terminal_local_fan): the sends of one terminal_local_fan call
 * in one call, scheme k[i] sending mu[i], in sending order (more than
 * TERMINAL_FAN_BATCH of them: several calls, in order). */
#define TERMINAL_FAN_BATCH 16
typedef struct TerminalFan {
    void *ctx;
    void (*send_many)(void *ctx, const int *k, const Mu *mu, int n);
} TerminalFan;

typedef struct Terminal Terminal;

int64_t terminal_clock_local(const TerminalClock *c, int64_t t_us);
#define TERMINAL_CLOCK_MAX_MS 1e6
#define TERMINAL_CLOCK_MAX_PPM 1e5
bool terminal_clock_parse(const char *text, TerminalClock *c);
Terminal *terminal_new(const TerminalConfig *cfg, NrError *err);
void terminal_free(Terminal *t);
void terminal_start(Terminal *t, const Mu *grid, int64_t local_us);
void terminal_local(Terminal *t, const Mu *mu, int64_t local_us, const TerminalSink *sink);
void terminal_local_fan(Terminal *t, const Mu *mu, int64_t local_us, const TerminalFan *fan);
RxResult terminal_receive(Terminal *t, int k, const Mu *mu, int64_t local_us);
void terminal_receive_many(Terminal *t, const int *k, int n, const Mu *mu, bool fields_ok, int64_t local_us,
                           RxResult *out);
int64_t terminal_rejected(const Terminal *t, MuCheck check);
void terminal_reset_counters(Terminal *t);
void terminal_display(const Terminal *t, int k, int car, int64_t local_us, Pose *out);
void terminal_display_all(const Terminal *t, int k, int64_t local_us, Pose *out);
int64_t terminal_output_time(const Terminal *t, int k, const Mu *mu, int64_t local_us);
void terminal_set_params(Terminal *t, const SchemeParams *p);
int terminal_car(const Terminal *t);
int terminal_scheme_count(const Terminal *t);
const SchemeType *terminal_scheme(const Terminal *t, int k);

#endif
