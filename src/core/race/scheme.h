/* Consistency / prediction schemes: the vtable every scheme implements and
 * the registry that finds them by name.
 *
 * A scheme instance lives at one terminal. Terminal j owns car j: it samples
 * its own car every period (scheme_type->on_local), may send MUs through a
 * Transport (which carries them to every other terminal), receives the other
 * terminals' MUs (on_receive) and says where it displays each car (display). The two halves of a scheme talk only through
 * the Transport, so the same code runs over the emulated link (engine.c) and
 * over a real network.
 *
 * All times a scheme sees are its own terminal's local clock in microseconds;
 * MU timestamps are the sender's local clock (DESIGN.md: synchronised clocks
 * by default, offset / drift optional).
 *
 * Contracts:
 *   init(self, params, own_car, ncars, grid)  self is state_size zeroed bytes;
 *        ncars in 2..SCHEME_MAX_CARS cars race, own_car among them; grid[c]
 *        (ncars entries) is car c's start-grid MU at t = 0, known to every
 *        terminal. Per-car state is an array of SCHEME_MAX_CARS indexed by
 *        car, of which the first ncars are live.
 *   set_params(self, params)            live change (Delta, T_dr, ...).
 *   on_local(self, mu, now, tx)         own car sampled at now (== mu->gen_us);
 *        the scheme sends zero or more MUs with transport_send().
 *   on_receive(self, mu, now)           an MU from another terminal arrived
 *        at now (mu->car in 0..ncars-1, never own_car: mu.h checked it); returns how it was taken (used, late but used, discarded).
 *   display(self, car, now, out)        where car is shown at now; pure (no
 *        state change), defined for any now >= the last event time.
 *   display_all(self, ncars, now, out)  optional (NULL: display car by
 *        car): out[c] = what display(self, c, now) gives, for every car,
 *        but that the heading may be left 0 where finding it costs (a dead
 *        reckoned car's atan2): its one caller, the engine's views, keeps
 *        x, y and seq alone.
 *   output_time(self, mu, now)          optional: when mu, just taken with
 *        RX_USED at now, is shown (>= now when held); NULL = at now.
 *   scheme_state_size(t, ncars)         an instance's bytes with ncars cars.
 *   scheme_find(name)                   registry lookup, NULL when unknown.
 *   scheme_registry()                   NULL-terminated table of every scheme.
 *   scheme_parse_list(list, out, max, err)  comma-separated names or groups
 *        ("all": the papers' twelve, "racing": the racing paper's four,
 *        "after": the four schemes after the papers, "every": all of them)
 *        -> count, or -1 + err.
 *   scheme_params_check(p, err)         false + err when an adapt_* setting
 *        is out of its range (scheme.h's comments give them).
 *   scheme_delta_late(s, n, delta_us, mean_ms, names, cap)  the causality
 *        check: how many of s[0..n) hold for Delta (holds_delta) while a
 *        link's mean one-way delay mean_ms exceeds Delta, so that most of
 *        their remote MUs arrive after it and are discarded (the other car
 *        stays near the grid); their names ", "-separated into names (cap
 *        bytes; "" when none, names may be NULL). The front ends' one
 *        check: the command lines' warnings, the window's notice.
 */
#ifndef NR_SCHEME_H
#define NR_SCHEME_H

#include "nr_common.h"

#define SCHEME_MAX 24
/* Cars a scheme instance holds (DESIGN.md: races of 2 to 8 cars). */
#define SCHEME_MAX_CARS 8
/* Largest Delta the schemes' buffers hold (their rings keep 128 samples of
 * 33 ms); the command line and the window refuse larger values. */
#define SCHEME_DELTA_MAX_US (4000 * NR_US_PER_MS)
/* Most observed delays the adaptive schemes' window keeps (adapt_window). */
#define LAGEST_WINDOW_MAX 256

typedef enum MuKind { MU_UPDATE = 0, MU_PARITY = 1 } MuKind;

/* A media unit: one sample of one car, as carried over the network. */
typedef struct Mu {
    int32_t car;      /* 0-based */
    int32_t seq;      /* sample index of its generation */
    int64_t gen_us;   /* generation timestamp, sender's local clock */
    double x, y;      /* car widths */
    double heading;   /* radians */
    double speed;     /* car widths per second */
    double vx, vy;    /* sender's DR velocity estimate (cw/s), 0 if unused */
    int32_t kind;     /* MuKind */
    int32_t nbytes;   /* wire size in bytes (header + payload) */
    double aux[6];    /* scheme-specific payload (e.g. parity data) */
} Mu;

/* A displayed car. seq >= 0 when the pose is exactly recorded sample seq of
 * that car (the engine then knows its progress without projecting). */
typedef struct Pose {
    double x, y, heading;
    int32_t seq;
} Pose;

typedef struct SchemeParams {
    int64_t delta_us;     /* Delta of causality control (100 ms) */
    double tdr_cw;        /* DR threshold, car widths (0.25) */
    int64_t converge_us;  /* DR convergence time; 0 = at once */
    int64_t period_us;    /* sampling period (33 ms) */
    /* The schemes after the papers (adaptive-causality, local-lag,
     * group-sync, equalize; lagest.h): a lag that follows a statistic of the
     * one-way delays the terminal observed (arrival - generation time of the
     * MUs that arrived). docs/schemes.md gives each scheme's rule. */
    double adapt_quantile;   /* the statistic: this quantile of the window, 0..1 (0.95) */
    int32_t adapt_window;    /* the window: the last this many arrived MUs, 1..LAGEST_WINDOW_MAX (64) */
    int64_t adapt_margin_us; /* added to the statistic (10 ms) */
    int64_t adapt_min_us;    /* the lag's bounds (0 .. 1000 ms); a lag starts at Delta, clamped */
    int64_t adapt_max_us;
    double adapt_slew;       /* how fast the lag moves: ms of lag per ms of race time; 0.5 */
} SchemeParams;

typedef struct Transport {
    void *ctx;
    void (*send)(void *ctx, const Mu *mu);
} Transport;

static inline void transport_send(Transport *tx, const Mu *mu)
{
    tx->send(tx->ctx, mu);
}

/* RX_REJECTED: refused by the receive boundary (mu.h) before any scheme saw
 * it; schemes never return it. */
typedef enum RxResult { RX_USED = 0, RX_LATE_USED = 1, RX_DISCARDED = 2, RX_REJECTED = 3 } RxResult;

typedef struct SchemeType {
    const char *name;    /* command-line name, e.g. "dr-causality" */
    const char *title;   /* short display name, e.g. "DR+Causality" */
    const char *abbr;    /* at most 6 characters, for a crowded window: "DR+C" */
    const char *summary; /* one line for --help and the window */
    size_t state_size;
    /* true when the sender may send more than one packet per sample (e.g.
     * independent parity packets): the engine then draws the link's second
     * stream for every sample slot. */
    bool extra_packets;
    /* 0, or the size of one record when the state ends with an array of
     * per-car (or per-peer) records of which a race of ncars cars never
     * uses the last SCHEME_MAX_CARS - ncars (e.g. a causality buffer per
     * car): a terminal then allocates scheme_state_size(t, ncars), so a
     * two-car race keeps its two-car footprint. */
    size_t car_size;
    /* true when the scheme shows a remote MU at its generation time + Delta
     * and discards one that arrives later (Delta-causality, Sec. 3): with a
     * link slower than Delta on average most MUs are discarded, and the
     * front ends warn (race_warn_delta). */
    bool holds_delta;
    /* true when the sender half sends an update MU at every own sample (nc,
     * causality, the lag schemes, EPP): a receiver that gets seq s + 2 of a
     * car after seq s knows s + 1 was lost (the lagometer's losses on a real
     * network, lagring.h). DR senders send when their threshold fires. */
    bool every_sample;
    void (*init)(void *self, const SchemeParams *p, int own_car, int ncars, const Mu *grid);
    void (*set_params)(void *self, const SchemeParams *p);
    void (*on_local)(void *self, const Mu *mu, int64_t now_us, Transport *tx);
    RxResult (*on_receive)(void *self, const Mu *mu, int64_t now_us);
    void (*display)(const void *self, int car, int64_t now_us, Pose *out);
    void (*display_all)(const void *self, int ncars, int64_t now_us, Pose *out); /* optional */
    /* Optional: when an MU that on_receive just took (RX_USED) is output,
     * on the terminal's clock: generation + Delta for a scheme that holds
     * MUs (causality), generation + its lag for the lag schemes. NULL: on
     * arrival. Pure. The lagometer shows output - arrival as the time the
     * MU was held (lagring.h). */
    int64_t (*output_time)(const void *self, const Mu *mu, int64_t now_us);
} SchemeType;

/* Bytes of one instance at a terminal of ncars cars (see car_size). */
static inline size_t scheme_state_size(const SchemeType *t, int ncars)
{
    return t->state_size - (size_t)(SCHEME_MAX_CARS - ncars) * t->car_size;
}

const SchemeType *const *scheme_registry(void);
const SchemeType *scheme_find(const char *name);
int scheme_parse_list(const char *list, const SchemeType **out, int max, NrError *err);
SchemeParams scheme_default_params(void);
bool scheme_params_check(const SchemeParams *p, NrError *err);
int scheme_delta_late(const SchemeType *const *s, int n, int64_t delta_us, double mean_ms, char *names, size_t cap);

#endif
