/* A race being driven: the physics world, each car's controller, the
 * engine fed sample by sample with every selected scheme, the recording
 * (and the inputs file) written while driving, and the race flow (laps and
 * finish as each terminal saw them). One loop for the game window and for
 * `play --headless`: the caller only says how far race time has come.
 *
 * Order within one call of liverace_advance(lr, t): the one physics loop
 * (raceloop.h) runs every physics step (WORLD_DT_US) whose start time is
 * <= t: at a sample time, every 33 ms, the cars' poses (world_sample) are
 * pushed to the engine and appended to the recording, the engine is
 * stepped to that sample and the race flow reads what each terminal
 * displays then (the engine's on_sample hook); at a control time
 * (WORLD_CONTROL_US) each controller gives its input (an external one: the
 * last liverace_set_input), which the inputs file gets; then the world
 * steps. Finally the engine is stepped to t (it stops at the last pushed
 * sample, at most one period behind t: deliveries due after it wait for the
 * next sample, engine.h). So an input set before a call
 * moves the car within that call (a frame of 16.7 ms holds at least one
 * control time), and what the frame draws after it already shows the move:
 * input to photon is the next presented frame.
 *
 * Race time 0 is the start (the lights going out); the cars stand on the
 * grid slots at rest then. After the race flow reaches RF_DONE no more
 * samples are pushed, the engine is finished and the recording closed.
 *
 * Contracts:
 *   liverace_new(cfg, err)   the world on cfg->track's grid, the engine
 *        (cfg->engine with track, period, car count and sizes filled in),
 *        the race flow, the recording (cfg->rec_path: opened at once as
 *        rec_path.part; NULL = none) and the inputs file beside it
 *        (cfg->inputs_path, the same way); sample 0 (the grid) is pushed
 *        and processed. NULL + err on a bad config or an unopenable file
 *        (an existing .part is never replaced).
 *   liverace_free(lr)        finalises the recording if still open (a race
 *        quit half way is kept: renamed into place; one that never left the
 *        grid, the lights still on, is removed: it holds only the grid),
 *        frees everything.
 *        The recording's header carries the race's condition (recording.h
 *        meta): scheme (the shown one), link12, link21 (canonical netem
 *        text; "medium" for a caller's own medium), delta_ms, tdr_cw,
 *        converge_ms, seed, then cfg->meta[0..nmeta) (a study's study,
 *        pair, race, condition); an extra key the format refuses is an
 *        error.
 *   liverace_run_headless(lr, err)  a race of bots / scripts to its end as
 *        fast as possible: the countdown at once, then liverace_advance one
 *        sample period at a time until liverace_done, the engine stepped to
 *        the last time. Returns that race time in us; *write_ok false + err
 *        (the first failure) when the recording could not be written.
 *   liverace_set_input(lr, car, in)  input of an external controller (held).
 *   liverace_advance(lr, t_us, err)  see above; false + err when the
 *        recording cannot be written (the race goes on unrecorded: err says
 *        so once).
 *   liverace_close_recording(lr, err)  closes both files now (renames the
 *        .part files); later samples are not recorded. Idempotent.
 *   liverace_flow(lr)        the race flow: the caller runs the grid and the
 *        countdown (raceflow_go / raceflow_tick) before advancing.
 *   liverace_engine / liverace_world / liverace_now / liverace_done
 *   liverace_pose(lr, car, &pose)  the car's physics pose now (every step,
 *        not only at samples; not quantised).
 *   liverace_speed(lr, car)  its speed along the heading (cw/s).
 *   liverace_mark(lr, player, kind, err)  a mark (recording.h RecMark) at
 *        the race time of the physics now (liverace_now, in ms) by player
 *        (1-based; 0 = nobody's: the experimenter's key) of kind
 *        (recording.h: dissatisfied, mark, ...): written into the recording and flushed at
 *        once, and kept in the race's list. Only while racing (RF_RACING or
 *        RF_FINISHING): false otherwise, or + err when the mark is not valid
 *        or cannot be written (the race goes on).
 *   liverace_marks(lr, &n)   the marks so far, in order (n of them).
 *   liverace_last_change(lr, &count)  the link-script change applied last
 *        (NULL before the first) and how many have been applied; a caller
 *        that sees count grow shows the change.
 *
 * Link scripts (cfg->script, linkscript.h): liverace_advance applies each
 * change at its race time exactly as a replay of the recording does (the
 * race is driven to T - 1 us, the link set, the race goes on), so the live
 * race and `replay --link-script` of its recording agree bit for bit. A
 * change the engine refuses is skipped and reported through err once.
 */
#ifndef NR_LIVERACE_H
#define NR_LIVERACE_H

#include "engine.h"
#include "linkscript.h"
#include "raceflow.h"
#include "recording.h"
#include "controller.h"
#include "raceloop.h"
#include "world.h"

typedef struct LiveRaceConfig {
    const Track *track;       /* borrowed */
    const char *track_file;   /* the recording's 'track' field */
    int ncars;                /* cars on the grid and terminals, 2 to ENGINE_MAX_CARS (0 = 2) */
    EngineConfig engine;      /* links, seed, params, schemes, clocks */
    int shown;                /* scheme whose terminals the race flow reads */
    RaceFlowConfig flow;      /* laps or duration (lap_cw filled in) */
    const Controller *ctl[ENGINE_MAX_CARS]; /* borrowed; NULL = external (liverace_set_input) */
    const char *rec_path;     /* NULL = no recording */
    const char *inputs_path;  /* every car's inputs (inputs.h); NULL = none */
    const char *source;       /* "human" or "autopilot" */
    const char *created;      /* the recording's 'created' (the caller's clock) */
    const LinkScript *script; /* borrowed; NULL = the links never change by script */
    const RecMeta *meta;      /* extra condition lines for the recording; borrowed */
    int nmeta;
} LiveRaceConfig;

typedef struct LiveRace LiveRace;

LiveRace *liverace_new(const LiveRaceConfig *cfg, NrError *err);
void liverace_free(LiveRace *lr);
void liverace_set_input(LiveRace *lr, int car, const CarInput *in);
bool liverace_advance(LiveRace *lr, int64_t t_us, NrError *err);
int64_t liverace_run_headless(LiveRace *lr, bool *write_ok, NrError *err);
bool liverace_close_recording(LiveRace *lr, NrError *err);
RaceFlow *liverace_flow(LiveRace *lr);
Engine *liverace_engine(LiveRace *lr);
const World *liverace_world(const LiveRace *lr);
int64_t liverace_now(const LiveRace *lr);
bool liverace_done(const LiveRace *lr);
void liverace_pose(const LiveRace *lr, int car, Pose *out);
double liverace_speed(const LiveRace *lr, int car);
const LinkChange *liverace_last_change(const LiveRace *lr, int *count);
bool liverace_mark(LiveRace *lr, int player, const char *kind, NrError *err);
const RecMark *liverace_marks(const LiveRace *lr, int *n);

#endif
