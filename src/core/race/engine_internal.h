/* The Engine's state, shared by its three source files: engine.c (setup,
 * feeding, queries), engine_step.c (samples, sends, deliveries) and
 * engine_views.c (views, displayed progress, the metrics sample). Not a
 * public header: nothing outside those files includes it. */
#ifndef NR_ENGINE_INTERNAL_H
#define NR_ENGINE_INTERNAL_H

#include "engine.h"

/* A pushed sample waiting to be processed. */
typedef struct Pushed {
    CarPose *pose; /* ncars of them, in Engine.ring_pose (sized at setup) */
    int64_t t_us;  /* global sample time */
    int32_t seq;   /* index within its heat */
    bool new_heat;
} Pushed;

typedef struct Slot {
    Metrics m;
    MetricSample *hist; /* history_cap entries, oldest first */
    int hist_n;
} Slot;

/* One terminal's view of one sample, in the pairing ring. */
typedef struct ViewSlot {
    int64_t idx;      /* sample index since the (re)start; -1: empty */
    int64_t t_us;     /* the sample's global time */
    double progress;  /* the terminal's own car's true progress */
    ShownCar *car;    /* [k * ncars + c], n * ncars entries */
} ViewSlot;

typedef struct SinkCtx {
    struct Engine *e;
    int from;
} SinkCtx;

struct Engine {
    const Track *track;
    int n, ncars;
    RouteTopology topology;
    const SchemeType *types[SCHEME_MAX];
    SchemeParams params;
    EngineHooks hooks;
    TerminalClock clock[ENGINE_MAX_CARS];
    bool remote[ENGINE_MAX_CARS];
    bool all_local;                      /* no terminal is remote */
    Terminal *term[ENGINE_MAX_CARS];     /* NULL for a remote terminal */
    SinkCtx sinkctx[ENGINE_MAX_CARS];
    TerminalSink sink[ENGINE_MAX_CARS];
    TerminalFan fan[ENGINE_MAX_CARS];    /* the route terminals' sends */
    /* media, by sending terminal (none for a remote one) */
    DelayLine *dl;                       /* ncars of them; own_dl[d]: in use */
    RouteMedium *route;                  /* every route direction's one medium, or NULL */
    bool own_route[ENGINE_MAX_CARS];     /* med[d] is the route */
    int due_of[ENGINE_MAX_CARS];         /* the direction under which med[d] is in med_dir (the route: its first) */
    bool own_dl[ENGINE_MAX_CARS];
    bool has_med[ENGINE_MAX_CARS];
    int nmed, med_dir[ENGINE_MAX_CARS];  /* the directions that have a medium, ascending */
    bool ahead[ENGINE_MAX_CARS];         /* every receiver of med[d] is remote */
    Medium med[ENGINE_MAX_CARS];
    int64_t due[ENGINE_MAX_CARS];        /* medium_next_due(med[d]) when !due_stale[d] */
    bool due_stale[ENGINE_MAX_CARS];     /* med[d] changed since due[d] was read */
    LinkSpec none;                       /* engine_link of a caller's medium */
    Slot *s;                             /* n of them (a Slot holds a Metrics of about 2.6 kB) */
    bool keep_history;
    int hist_cap;
    int64_t period_us;
    int64_t now_us;
    /* push side */
    Pushed ring[ENGINE_PUSH_AHEAD];
    CarPose *ring_pose;        /* ENGINE_PUSH_AHEAD * ncars */
    int64_t pushed, processed; /* samples since the (re)start */
    int64_t push_next_us;      /* time of the next push */
    int32_t push_seq;          /* its index within its heat */
    int64_t last_pushed_us;
    bool finished;
    /* processing side: the current heat and sample */
    int64_t heat_first;        /* processed index of the heat's sample 0 */
    int32_t cur_seq;
    CarPose cur[ENGINE_MAX_CARS];
    double cur_prog[ENGINE_MAX_CARS];
    /* true progress by sample index (ring of prog_cap; ptag[c][i] = the
     * index slot i holds, -1: none) */
    double *prog[ENGINE_MAX_CARS];
    int64_t *ptag[ENGINE_MAX_CARS];
    int prog_cap;
    const double *given_prog[ENGINE_MAX_CARS];
    int given_n;
    /* views being paired into metrics samples (engine_views.c) */
    int nviews;                          /* ring size: 1 all-local, else ENGINE_VIEWS */
    ViewSlot *views[ENGINE_MAX_CARS];    /* [j][idx % nviews] */
    ShownCar *shown;                     /* the views' storage */
    int64_t next_metric;                 /* next sample index to take */
    int64_t newest[ENGINE_MAX_CARS];     /* newest view index of a remote terminal, -1 */
    int64_t kept[ENGINE_MAX_CARS];       /* newest view index of a remote terminal stored in the ring, -1 */
    int64_t skipped;
    double *seen;                        /* n * ncars * ncars: one sample's displayed progress */
    /* the lagometer (engine_lag.c): [j * n + k], NULL when off */
    LagRing *lag;
    LagEvent *lag_ev;
};

/* Terminal j's local time of global t_us (its emulated clock). */
static inline int64_t engine_local_time(const Engine *e, int terminal, int64_t t_us)
{
    return terminal_clock_local(&e->clock[terminal], t_us);
}
/* engine_step.c */
void engine_sink_send(void *ctx, int k, int to, const Mu *mu);
void engine_sink_send_many(void *ctx, const int *k, const Mu *mu, int n);
/* engine_views.c */
bool engine_alloc_views(Engine *e);
void engine_free_views(Engine *e);
void engine_reset_views(Engine *e);
void engine_capture_views(Engine *e, int64_t idx, int64_t t_us);
void engine_take_metrics(Engine *e);
/* engine_lag.c: the lagometer's rings. The send and receive paths branch
 * once on e->lag to a copy of themselves that also notes the MU's fate,
 * kept out of line (cold): with the lagometer off the hot paths are the
 * code they were (a call inside them costs ~10 instructions per MU in
 * saved registers, callgrind). */
#define ENGINE_LAG_COLD __attribute__((cold, noinline))
bool engine_alloc_lag(Engine *e);
void engine_clear_lag(Engine *e) ENGINE_LAG_COLD;
void engine_lag_arrival(Engine *e, int k, int from, int to, const Mu *mu, int64_t t_us, RxResult r);
void engine_lag_lost(Engine *e, int k, int to, const Mu *mu);
void engine_lag_shown(Engine *e, int j, int64_t t_us, const ShownCar *car) ENGINE_LAG_COLD;
double engine_displayed_progress(const Engine *e, int car, double x, double y, int32_t seq, double hint);
void engine_store_progress(Engine *e, int car, int64_t idx, double v);

#endif
