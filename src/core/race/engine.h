/* The race engine, one for every mode (DESIGN.md "one runtime"): its
 * terminals (terminal.h), one medium per sending terminal (medium.h; a
 * DelayLine unless the caller brings its own), every selected scheme side by
 * side on the same traffic, and the metrics. It is fed sample by sample:
 * engine_push adds every car's pose at the next sample time, as a driven
 * race produces it (liverace.h) or as the replay adapter (replay.h) reads it
 * from a file. The same engine serves the batch runner, the window, the
 * driving game and each end of a network race (netterm.h).
 *
 * A terminal is local or remote. A local terminal's displays are computed
 * here (its Terminal, its schemes fed by its own car and by the MUs that
 * reach it: from a medium, or from the network through engine_receive). A
 * remote terminal (cfg.remote[j], network play) runs in another process: it
 * has no Terminal and no medium here, the MUs addressed to it leave through
 * hooks.forward, and its displays arrive as views (engine_put_view: what
 * each scheme shows of every car at one of its samples, and its own car's
 * true progress then). The metrics sample of sample i is taken once every
 * terminal's view of i is known, in sample order, from those views alone;
 * so the same arithmetic gives the same numbers whether a display was
 * computed here or arrived (test_engine_remote checks it bit for bit). A remote
 * view that never comes is given up (counted, that sample skipped) once a
 * view of that terminal ENGINE_VIEW_SKIP samples later has arrived, or
 * when the local view of the same sample would be overwritten
 * (ENGINE_VIEWS samples later). An all-local engine pairs each sample at
 * once.
 *
 * Global time is integer microseconds from the race start; sample i is at
 * i * period. Terminal j (0-based) owns car j; direction d is what terminal
 * d sends (direction 0 carries terminal 0 -> 1, "link12"; 1 carries 1 -> 0,
 * "link21"); per-car and per-terminal state is sized by the car count (2 to
 * ENGINE_MAX_CARS; metrics.h gives the N-car measures). With more than two
 * cars, pair links or the client-server topology, terminal d's medium is a
 * RouteMedium (route.h) reaching every other terminal, remote ones too (a
 * network race of N cars, either topology: netterm.h).
 *
 * Event order at one instant: deliveries due at or before t (in due order),
 * then the samples generated at t (car 0 then car 1; each scheme's sender
 * half sees its own car), then the deliveries of MUs sent at t without
 * delay, then the local terminals' views and the metrics sample (when every
 * view of it is known). Metrics are taken every period at sample times.
 * After engine_finish nothing is delivered past the last sample. What goes
 * to remote terminals only is forwarded as soon as it is due, up to the
 * time of engine_step_to, even past the last pushed sample (it leaves on
 * the wire; nothing here depends on it).
 *
 * Memory: everything is allocated in engine_new. Pushed samples wait in a
 * ring of ENGINE_PUSH_AHEAD samples; each car's true progress is kept for
 * the last cfg.ring_samples samples (displayed poses older than that are
 * projected like any pose between samples); the per-sample history keeps
 * the last cfg.history_cap samples (older halves are dropped as it fills,
 * so a one-hour race runs in constant memory). The replay adapter sizes
 * the history to the file, so a whole 30 s race stays in the window and
 * --series, and gives the file's progress (cfg.progress), so its ring is
 * one entry. The views being paired: one per terminal when all are local,
 * ENGINE_VIEWS per terminal when one is remote.
 *
 * Contracts:
 *   engine_new(cfg, err)       copies what it needs from cfg (links, params,
 *        scheme list); track and the optional progress / media are borrowed
 *        and must outlive the engine. NULL + err on bad config.
 *   engine_free(e)             NULL-safe.
 *   engine_push(e, poses, ncars, flags)  every car's pose at the next sample
 *        time: sample index = samples pushed so far in this heat, time =
 *        heat start + index * period. ncars must be the engine's car
 *        count. ENGINE_PUSH_NEW_HEAT starts a new heat with this sample as
 *        its sample 0 (a replay loop): the terminals restart on it as the
 *        grid, the media are cleared, the history is cleared, metrics and
 *        random streams continue. The first push is always a heat start.
 *        False (nothing pushed) when the push ring is full (step first), the
 *        race is finished, or a pose is not finite. A remote terminal's car
 *        is pushed too (any finite pose, e.g. its grid slot): it is that
 *        car's grid in a heat's first sample and nothing else (its truth
 *        comes with its views).
 *   engine_finish(e)           no more samples: events stop at the last
 *        pushed sample (deliveries due later are never delivered).
 *   engine_step_to(e, t)       processes every event up to and including
 *        min(t, the last pushed sample's time), except that before
 *        engine_finish deliveries due after the last pushed sample wait for
 *        the next push. now becomes t when t is within the pushed samples
 *        (or, after finish, up to the last sample); t < now is ignored.
 *   engine_car_count / engine_topology   the race's cars and topology.
 *   engine_now / engine_pushed_us (time of the last pushed sample, -1 before
 *        any) / engine_done (finished and every pushed sample processed)
 *   engine_view(e, k, j, out)  displayed cars at terminal j under scheme k
 *        at the current time: poses, progress, lap, leader (a remote
 *        terminal: nothing is displayed here, origins with seq -1).
 *   engine_truth(e, c, out, progress)  car c's pose at the latest processed
 *        sample.
 *   engine_metrics(e, k)       scheme k's cumulative counters and sums.
 *   engine_history(e, k, &n)   the last n per-sample metric samples of the
 *        current heat, oldest first (at most cfg.history_cap).
 *   engine_set_link(e, dir, spec, err)  live change of an engine-made
 *        DelayLine; applies to MUs sent after the call; the random streams
 *        continue. False + err when the medium is the caller's.
 *   engine_link(e, dir)        the DelayLine's spec (a "none" spec for a
 *        caller's medium).
 *   engine_set_line(e, from, to, spec, err)  live change of the line from
 *        -> to of any race: terminals 0..N-1, ENGINE_SERVER the server (cs:
 *        I -> server the uplink of client I, server -> J the downlink to
 *        J); two cars p2p: engine_set_link of direction from. Applies to
 *        MUs sent after the call; the random streams continue. False + err
 *        when the race has no such line or it runs over the caller's medium.
 *   engine_set_params(e, p)    live change of Delta, T_dr, ...
 *   engine_reset_metrics(e)    zero every metric (gauges reset).
 *   engine_restart(e)          back to before the first push with the
 *        initial random state: pushing the same samples gives the same
 *        traffic again.
 *   engine_in_flight(e, k, dir, out, max)  MUs of scheme k in flight on dir
 *        (for the window's overlay); returns the count written.
 *   engine_terminal(e, j)      terminal j (read-only: rejection counters);
 *        NULL for a remote terminal.
 *   engine_display(e, k, j, car, out)  where scheme k shows car at local
 *        terminal j now (terminal_display at j's clock); the origin with
 *        seq -1 for a remote terminal.
 *   engine_set_clock(e, j, clock)  live change of terminal j's clock (a
 *        network terminal's skew: its scheme clock minus race time).
 *   engine_receive(e, k, from, to, mu, t_us)  an MU of scheme k sent by
 *        terminal `from` reached local terminal `to` at global time t_us
 *        (network play: the packet's arrival): terminal_receive at to's
 *        clock, counted in dir[from] as a medium's delivery is. Step the
 *        engine to t_us - 1 first (a delivery at a sample's instant comes
 *        before it). RX_REJECTED without any count when k, from or to is
 *        not one of this race's (local) terminals.
 *   engine_put_view(e, j, v)   remote terminal j's view of its sample
 *        v->seq (of the current heat): kept when within the ENGINE_VIEWS
 *        samples being paired, its car's progress becomes known, and every
 *        sample whose views are complete is taken. False (ignored, though
 *        it still counts as j's newest) when j is not remote, the scheme
 *        count differs, or the sample was given up or is too far ahead.
 *   engine_remote_view(e, k, j, out)  remote terminal j's newest view that
 *        arrived and was kept (engine_put_view), as an EngineView of scheme
 *        k: each car where j displayed it, its progress as a paired view's
 *        (the true progress of the sample shown, else projected near the
 *        car's truth at that sample), laps and leader as engine_view's;
 *        a VIEW carries no heading, so each car's is the track's direction
 *        at its displayed progress. Returns that view's sample (of the
 *        current heat; it arrived one network delay after the sample's
 *        instant), -1 (out untouched) when j is local, k is not a scheme
 *        or no view of this heat was kept yet.
 *   engine_local_view(e, j, seq, out)  local terminal j's view of sample
 *        seq (what a VIEW packet carries); false when no longer kept.
 *   engine_views_skipped(e)    samples given up for a missing remote view.
 *   engine_lag(e, k, j)        the lagometer's ring of scheme k at local
 *        terminal j (lagring.h): every MU bound to j and its fate (from the
 *        scheme's receive result and output time, or the medium's loss;
 *        over the network, losses from the sequence gaps of every_sample
 *        schemes), and the samples at which j showed another car
 *        predicted (a displayed pose with seq < 0). NULL without
 *        cfg.lagometer, for a remote terminal or k, j out of range.
 *        Cleared at each heat's start and by engine_restart.
 *
 * Hooks (cfg.hooks, optional; called from inside engine calls):
 *   on_sample(ctx, s)  after each metrics sample: s->truth[c] each car's
 *        true progress, engine_sample_seen(s, k, j, c) car c's displayed
 *        progress at terminal j under scheme k (the race flow reads it).
 *   forward(ctx, d)    a delivery due to a remote terminal (d->to), in due
 *        order; required when a terminal is remote.
 *   engine_sample_race_progress(s, k, out)  the race flow's RaceProgress of
 *        a metrics sample under scheme k (every car at every terminal).
 */
#ifndef NR_ENGINE_H
#define NR_ENGINE_H

#include "delayline.h"
#include "lagring.h"
#include "route.h"
#include "metrics.h"
#include "raceflow.h"
#include "terminal.h"
#include "track.h"

#define ENGINE_QUEUE_LIMIT DELAYLINE_QUEUE_LIMIT
#define ENGINE_PUSH_AHEAD 64          /* samples pushed but not yet processed */
#define ENGINE_RING_DEFAULT 4096      /* progress ring: ~135 s at 33 ms */
#define ENGINE_HISTORY_DEFAULT 8192   /* history samples: ~4.5 min at 33 ms */
#define ENGINE_MAX_CARS 8             /* per-car / per-terminal arrays (DESIGN.md: 2 to 8 cars) */
#define ENGINE_VIEWS 256              /* views kept per terminal while remote ones arrive (~8.4 s); a power of 2 */
#define ENGINE_VIEW_SKIP 30           /* a missing remote view is given up 1 s of samples later */
#define ENGINE_SERVER ROUTE_SERVER    /* the server's node in engine_set_line */

enum { ENGINE_PUSH_NEW_HEAT = 1 };

/* One car's true state at a sample time. */
typedef struct CarPose {
    double x, y;    /* car widths */
    double heading; /* radians */
    double speed;   /* car widths per second */
} CarPose;

/* One displayed car in a view: its position and the sample it shows
 * exactly (-1: a predicted or interpolated pose). */
typedef struct ShownCar {
    double x, y;
    int32_t seq;
} ShownCar;

/* One terminal's displays at one of its samples. */
typedef struct TerminalView {
    int32_t seq;          /* the sample (within the heat) */
    int nschemes, ncars;
    double progress;      /* the terminal's own car's true progress (cw) */
    const ShownCar *car;  /* [k * ncars + c]: car c as scheme k shows it */
} TerminalView;

/* One metrics sample, as the on_sample hook sees it. */
typedef struct EngineSample {
    int64_t t_us;
    int32_t seq;
    int ncars;
    const double *truth; /* [c] true progress */
    const double *seen;  /* [(k * ncars + j) * ncars + c] displayed progress */
} EngineSample;

static inline double engine_sample_seen(const EngineSample *s, int k, int j, int c)
{
    return s->seen[((size_t)k * (size_t)s->ncars + (size_t)j) * (size_t)s->ncars + (size_t)c];
}

/* What the race flow reads of one metrics sample: the truth and scheme k's
 * displayed progress at every terminal (raceflow.h). */
void engine_sample_race_progress(const EngineSample *s, int k, RaceProgress *out);

typedef struct EngineHooks {
    void *ctx;
    void (*on_sample)(void *ctx, const EngineSample *s);
    void (*forward)(void *ctx, const MediumDelivery *d);
} EngineHooks;

typedef struct EngineConfig {
    const Track *track;      /* borrowed */
    int32_t period_ms;       /* sampling period (33) */
    int ncars;               /* 2 to ENGINE_MAX_CARS (0 = 2) */
    /* What terminal d sends crosses link[d] ([0] = 1->2, [1] = 2->1); NULL =
     * no delay. With more cars or another topology, link[d] is the default
     * of every line out of terminal d (route.h). */
    const LinkSpec *link[ENGINE_MAX_CARS];
    /* Topology (route.h): ROUTE_P2P (default) or ROUTE_CS with its server
     * behaviour; cs holds sync MUs until gen + Delta (params.delta_us). */
    RouteTopology topology;
    RouteServer server;
    /* p2p: pair_link[i][j] for the line i->j (NULL: link[i]); cs:
     * up_link[i] client i -> server (NULL: link[i]), down_link[j] server ->
     * client j (NULL: no delay). Two cars p2p without pair links run on the
     * two-player DelayLines, bit for bit as before. */
    const LinkSpec *pair_link[ENGINE_MAX_CARS][ENGINE_MAX_CARS];
    const LinkSpec *up_link[ENGINE_MAX_CARS];
    const LinkSpec *down_link[ENGINE_MAX_CARS];
    /* Optional: the caller's own media (borrowed); when medium[d] is set,
     * link[d] is ignored. */
    const Medium *medium[ENGINE_MAX_CARS];
    /* Terminal j runs elsewhere: its displays come through engine_put_view
     * (at least one terminal must be local). */
    bool remote[ENGINE_MAX_CARS];
    uint64_t seed;
    SchemeParams params;
    const SchemeType *schemes[SCHEME_MAX];
    int nschemes;
    TerminalClock clock[ENGINE_MAX_CARS];
    bool keep_history;   /* record the per-sample series (window, plots) */
    int history_cap;     /* samples kept; 0 = ENGINE_HISTORY_DEFAULT */
    int ring_samples;    /* progress ring; 0 = ENGINE_RING_DEFAULT */
    /* Optional: each car's true progress at heat sample i, i < progress_n
     * (recording_progress), borrowed; batch runners compute it once for
     * many engines. Must equal what the engine would compute. */
    const double *progress[ENGINE_MAX_CARS];
    int progress_n;
    EngineHooks hooks;
    /* Keep the lagometer's rings (lagring.h): one per local terminal per
     * scheme, allocated here; off, nothing is kept and nothing is spent. */
    bool lagometer;
} EngineConfig;

typedef struct EngineView {
    Pose pose[ENGINE_MAX_CARS];       /* displayed pose of each car */
    double progress[ENGINE_MAX_CARS]; /* unwrapped along-track progress (car widths) */
    int lap[ENGINE_MAX_CARS];         /* completed laps as displayed */
    int leader;                       /* car shown ahead (a tie: the later car) */
} EngineView;

typedef struct Engine Engine;

/* The largest Delta the schemes' buffers honour at this sampling period and
 * these terminal clocks (nclocks of them); engine_new refuses more,
 * engine_set_params clamps. */
int64_t engine_delta_max_us(int32_t period_ms, const TerminalClock *clock, int nclocks);
Engine *engine_new(const EngineConfig *cfg, NrError *err);
void engine_free(Engine *e);
bool engine_push(Engine *e, const CarPose *poses, int ncars, unsigned flags);
void engine_finish(Engine *e);
void engine_step_to(Engine *e, int64_t t_us);
int64_t engine_now(const Engine *e);
int64_t engine_pushed_us(const Engine *e);
bool engine_done(const Engine *e);
int engine_scheme_count(const Engine *e);
int engine_car_count(const Engine *e);
RouteTopology engine_topology(const Engine *e);
const SchemeType *engine_scheme(const Engine *e, int k);
void engine_view(const Engine *e, int k, int terminal, EngineView *out);
void engine_truth(const Engine *e, int car, Pose *out, double *progress);
const Metrics *engine_metrics(const Engine *e, int k);
const MetricSample *engine_history(const Engine *e, int k, int *n);
bool engine_set_link(Engine *e, int dir, const LinkSpec *spec, NrError *err);
const LinkSpec *engine_link(const Engine *e, int dir);
bool engine_set_line(Engine *e, int from, int to, const LinkSpec *spec, NrError *err);
void engine_set_params(Engine *e, const SchemeParams *p);
const SchemeParams *engine_params(const Engine *e);
void engine_reset_metrics(Engine *e);
void engine_restart(Engine *e);
int engine_in_flight(const Engine *e, int k, int dir, InFlight *out, int max);
const Track *engine_track(const Engine *e);
const Terminal *engine_terminal(const Engine *e, int j);
void engine_display(const Engine *e, int k, int j, int car, Pose *out);
void engine_set_clock(Engine *e, int j, const TerminalClock *clock);
RxResult engine_receive(Engine *e, int k, int from, int to, const Mu *mu, int64_t t_us);
bool engine_put_view(Engine *e, int j, const TerminalView *v);
int32_t engine_remote_view(const Engine *e, int k, int j, EngineView *out);
bool engine_local_view(const Engine *e, int j, int32_t seq, TerminalView *out);
int64_t engine_views_skipped(const Engine *e);
const LagRing *engine_lag(const Engine *e, int k, int j);

#endif
