/* The race engine: two terminals (terminal.h), one medium per direction
 * (medium.h; a DelayLine per direction unless the caller brings its own),
 * every selected scheme side by side on the same traffic, and the metrics.
 * It is fed sample by sample: engine_push adds every car's pose at the next
 * sample time, as a driven race produces it or as the replay adapter
 * (replay.h) reads it from a file. The same engine serves the batch runner,
 * the window and the driving game.
 *
 * Global time is integer microseconds from the race start; sample i is at
 * i * period. Terminal j (0-based) owns car j; direction 0 carries terminal
 * 0 -> 1 ("link12"), direction 1 carries 1 -> 0 ("link21").
 *
 * Event order at one instant: deliveries due at or before t (in due order),
 * then the samples generated at t (car 0 then car 1; each scheme's sender
 * half sees its own car), then the deliveries of MUs sent at t without
 * delay, then the metrics sample. Metrics are taken every period at sample
 * times. After engine_finish nothing is delivered past the last sample.
 *
 * Memory: everything is allocated in engine_new. Pushed samples wait in a
 * ring of ENGINE_PUSH_AHEAD samples; each car's true progress is kept for
 * the last cfg.ring_samples samples (displayed poses older than that are
 * projected like any pose between samples); the per-sample history keeps
 * the last cfg.history_cap samples (older halves are dropped as it fills,
 * so a one-hour race runs in constant memory). The replay adapter sizes
 * the history to the file, so a whole 30 s race stays in the window and
 * --series, and gives the file's progress (cfg.progress), so its ring is
 * one entry.
 *
 * Contracts:
 *   engine_new(cfg, err)       copies what it needs from cfg (links, params,
 *        scheme list); track and the optional progress / media are borrowed
 *        and must outlive the engine. NULL + err on bad config.
 *   engine_free(e)             NULL-safe.
 *   engine_push(e, poses, ncars, flags)  every car's pose at the next sample
 *        time (sample index = samples pushed so far in this heat, time =
 *        heat start + index * period). ncars must be the engine's car
 *        count. ENGINE_PUSH_NEW_HEAT starts a new heat with this sample as
 *        its sample 0 (a replay loop): the terminals restart on it as the
 *        grid, the media are cleared, the history is cleared, metrics and
 *        random streams continue. The first push is always a heat start.
 *        False (nothing pushed) when the push ring is full (step first), the
 *        race is finished, or a pose is not finite.
 *   engine_finish(e)           no more samples: events stop at the last
 *        pushed sample (deliveries due later are never delivered).
 *   engine_step_to(e, t)       processes every event up to and including
 *        min(t, the last pushed sample's time), except that before
 *        engine_finish deliveries due after the last pushed sample wait for
 *        the next push. now becomes t when t is within the pushed samples
 *        (or, after finish, up to the last sample); t < now is ignored.
 *   engine_now / engine_pushed_us (time of the last pushed sample, -1 before
 *        any) / engine_done (finished and every pushed sample processed)
 *   engine_view(e, k, j, out)  displayed cars at terminal j under scheme k
 *        at the current time: poses, progress, lap, leader.
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
 *   engine_set_params(e, p)    live change of Delta, T_dr, ...
 *   engine_reset_metrics(e)    zero every metric (gauges reset).
 *   engine_restart(e)          back to before the first push with the
 *        initial random state: pushing the same samples gives the same
 *        traffic again.
 *   engine_in_flight(e, k, dir, out, max)  MUs of scheme k in flight on dir
 *        (for the window's overlay); returns the count written.
 *   engine_terminal(e, j)      terminal j (read-only: rejection counters).
 */
#ifndef NR_ENGINE_H
#define NR_ENGINE_H

#include "delayline.h"
#include "metrics.h"
#include "terminal.h"
#include "track.h"

#define ENGINE_QUEUE_LIMIT DELAYLINE_QUEUE_LIMIT
#define ENGINE_PUSH_AHEAD 64          /* samples pushed but not yet processed */
#define ENGINE_RING_DEFAULT 4096      /* progress ring: ~135 s at 33 ms */
#define ENGINE_HISTORY_DEFAULT 8192   /* history samples: ~4.5 min at 33 ms */

enum { ENGINE_PUSH_NEW_HEAT = 1 };

/* One car's true state at a sample time. */
typedef struct CarPose {
    double x, y;    /* car widths */
    double heading; /* radians */
    double speed;   /* car widths per second */
} CarPose;

typedef struct EngineConfig {
    const Track *track;      /* borrowed */
    int32_t period_ms;       /* sampling period (33) */
    int ncars;               /* 2 (0 = 2) */
    const LinkSpec *link[2]; /* [0] = 1->2, [1] = 2->1; NULL = no delay */
    /* Optional: the caller's own media (borrowed); when medium[d] is set,
     * link[d] is ignored. */
    const Medium *medium[2];
    uint64_t seed;
    SchemeParams params;
    const SchemeType *schemes[SCHEME_MAX];
    int nschemes;
    TerminalClock clock[2];
    bool keep_history;   /* record the per-sample series (window, plots) */
    int history_cap;     /* samples kept; 0 = ENGINE_HISTORY_DEFAULT */
    int ring_samples;    /* progress ring; 0 = ENGINE_RING_DEFAULT */
    /* Optional: each car's true progress at heat sample i, i < progress_n
     * (recording_progress), borrowed; batch runners compute it once for
     * many engines. Must equal what the engine would compute. */
    const double *progress[2];
    int progress_n;
} EngineConfig;

typedef struct EngineView {
    Pose pose[2];       /* displayed pose of car 0 and car 1 */
    double progress[2]; /* unwrapped along-track progress (car widths) */
    int lap[2];         /* completed laps as displayed */
    int leader;         /* car shown ahead (0 or 1) */
} EngineView;

typedef struct Engine Engine;

/* The largest Delta the schemes' buffers honour at this sampling period and
 * these terminal clocks; engine_new refuses more, engine_set_params clamps. */
int64_t engine_delta_max_us(int32_t period_ms, const TerminalClock clock[2]);
Engine *engine_new(const EngineConfig *cfg, NrError *err);
void engine_free(Engine *e);
bool engine_push(Engine *e, const CarPose *poses, int ncars, unsigned flags);
void engine_finish(Engine *e);
void engine_step_to(Engine *e, int64_t t_us);
int64_t engine_now(const Engine *e);
int64_t engine_pushed_us(const Engine *e);
bool engine_done(const Engine *e);
int engine_scheme_count(const Engine *e);
const SchemeType *engine_scheme(const Engine *e, int k);
void engine_view(const Engine *e, int k, int terminal, EngineView *out);
void engine_truth(const Engine *e, int car, Pose *out, double *progress);
const Metrics *engine_metrics(const Engine *e, int k);
const MetricSample *engine_history(const Engine *e, int k, int *n);
bool engine_set_link(Engine *e, int dir, const LinkSpec *spec, NrError *err);
const LinkSpec *engine_link(const Engine *e, int dir);
void engine_set_params(Engine *e, const SchemeParams *p);
const SchemeParams *engine_params(const Engine *e);
void engine_reset_metrics(Engine *e);
void engine_restart(Engine *e);
int engine_in_flight(const Engine *e, int k, int dir, InFlight *out, int max);
const Track *engine_track(const Engine *e);
const Terminal *engine_terminal(const Engine *e, int j);

#endif
