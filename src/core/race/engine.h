/* The experiment engine: a recorded race replayed over two emulated links
 * with every selected scheme running side by side on the same traffic.
 *
 * One engine serves the batch runner (stepped as fast as possible) and the
 * window (stepped to wall-clock time x speed). Global time is integer
 * microseconds from the race start. Terminal j (0-based) owns car j; link
 * direction 0 carries terminal 0 -> 1 ("link12"), direction 1 carries 1 -> 0
 * ("link21").
 *
 * Event order at one instant: packet arrivals due at or before t (in due
 * order), then the samples generated at t (car 0 then car 1; each scheme's
 * sender half sees its own car), then the arrivals of MUs sent at t without
 * delay, then the metrics sample when t is a sample time. Metrics are taken every period (33 ms) at sample times.
 *
 * Contracts:
 *   engine_new(cfg, err)       copies what it needs from cfg (links, params,
 *        scheme list); rec and track are borrowed and must outlive the engine.
 *        Allocates everything it will ever use. NULL + err on bad config.
 *   engine_free(e)             NULL-safe.
 *   engine_step_to(e, t)       processes every event up to and including t;
 *        t < now is ignored; past the race end it stops at the end unless
 *        cfg.loop, in which case the race restarts (metrics keep counting,
 *        the history is cleared).
 *   engine_now / engine_end_us / engine_done
 *   engine_view(e, k, j, out)  displayed cars at terminal j under scheme k
 *        at the current time: poses, progress, lap, leader.
 *   engine_truth(e, c, out)    car c's recorded pose at the current time.
 *   engine_metrics(e, k)       scheme k's cumulative counters and sums.
 *   engine_history(e, k, &n)   per-sample metric series since the last
 *        (re)start: n entries.
 *   engine_set_link(e, dir, spec, err)  live change; applies to MUs sent
 *        after the call; the random streams continue.
 *   engine_set_params(e, p)    live change of Delta, T_dr, ...
 *   engine_reset_metrics(e)    zero every metric (gauges reset).
 *   engine_restart(e)          back to t = 0 with the initial random state:
 *        the same traffic again.
 *   engine_in_flight(e, k, dir, out, max)  MUs of scheme k in flight on dir
 *        (for the window's overlay); returns the count written.
 */
#ifndef NR_ENGINE_H
#define NR_ENGINE_H

#include "link.h"
#include "metrics.h"
#include "recording.h"
#include "scheme.h"
#include "track.h"

#define ENGINE_QUEUE_LIMIT 1000 /* packets per direction and scheme, as netem's default limit */

typedef struct TerminalClock {
    int64_t offset_us; /* local = global + offset + drift */
    double drift_ppm;
} TerminalClock;

typedef struct EngineConfig {
    const Recording *rec; /* borrowed */
    const Track *track;   /* borrowed */
    const LinkSpec *link[2]; /* [0] = 1->2, [1] = 2->1; NULL = no delay */
    uint64_t seed;
    SchemeParams params;
    const SchemeType *schemes[SCHEME_MAX];
    int nschemes;
    TerminalClock clock[2];
    bool loop;
    bool keep_history; /* record the per-sample series (window, plots) */
    /* Optional: each car's true progress per sample (recording_progress),
     * borrowed; batch runners compute it once for many engines. */
    const double *progress[2];
} EngineConfig;

typedef struct EngineView {
    Pose pose[2];       /* displayed pose of car 0 and car 1 */
    double progress[2]; /* unwrapped along-track progress (car widths) */
    int lap[2];         /* completed laps as displayed */
    int leader;         /* car shown ahead (0 or 1) */
} EngineView;

typedef struct InFlight {
    Mu mu;
    int64_t sent_us, due_us;
} InFlight;

typedef struct Engine Engine;

/* The largest Delta the schemes' buffers honour at this sampling period and
 * these terminal clocks; engine_new refuses more, engine_set_params clamps. */
int64_t engine_delta_max_us(int32_t period_ms, const TerminalClock clock[2]);
Engine *engine_new(const EngineConfig *cfg, NrError *err);
void engine_free(Engine *e);
void engine_step_to(Engine *e, int64_t t_us);
int64_t engine_now(const Engine *e);
int64_t engine_end_us(const Engine *e);
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
const Recording *engine_recording(const Engine *e);

#endif
