/* Replay of a recorded race: the small adapter that feeds a file's samples
 * to the engine (engine_push) ahead of the time it is stepped to, and
 * restarts the race as a new heat when looping. Batch runs (sweep, replay
 * --csv / --series, experiment_run) and the window all go through it.
 *
 * Sizing: the engine's history holds the whole file (a 30 s race is 910
 * samples), so the window's plots and --series see every sample of the
 * heat; the file's true progress is computed once here
 * (recording_progress) unless the config brings it, so the engine's progress
 * ring is not needed (one entry).
 *
 * Contracts:
 *   replay_new(cfg, rec, loop, err)  an engine for cfg with the period, ring
 *        sizes and progress taken from rec (borrowed, must outlive the
 *        replay; cfg's own values for those are ignored), racing the file's
 *        first cfg->ncars cars (0 = 2), at t = 0 with sample 0 processed.
 *        NULL + err when rec has fewer than two cars or than cfg->ncars, no
 *        sample, a bad period, or the engine refuses cfg.
 *   replay_free(r)                NULL-safe; frees the engine.
 *   replay_step_to(r, t_us)       pushes the file's samples up to the first
 *        one after t_us (or finishes the race at the file's end unless
 *        looping; looping pushes the file again as a new heat starting at
 *        the next period), then engine_step_to(t_us). Past the end of a
 *        non-looping race it stops at the end.
 *   replay_end_us(r)              global time of the current heat's last
 *        sample.
 *   replay_done(r)                the race (not looping) was played to its end.
 *   replay_set_loop(r, loop)      live change: takes effect at the end of
 *        the current heat if the race is not already finished.
 *   replay_restart(r)             back to t = 0 with the initial random
 *        state (engine_restart), sample 0 processed: the same traffic again.
 *   replay_engine(r)              the engine, for views, metrics and live
 *        changes (not for pushing).
 *   replay_recording(r)
 */
#ifndef NR_REPLAY_H
#define NR_REPLAY_H

#include "engine.h"
#include "recording.h"

typedef struct Replay Replay;

Replay *replay_new(const EngineConfig *cfg, const Recording *rec, bool loop, NrError *err);
void replay_free(Replay *r);
void replay_step_to(Replay *r, int64_t t_us);
int64_t replay_end_us(const Replay *r);
bool replay_done(const Replay *r);
void replay_set_loop(Replay *r, bool loop);
void replay_restart(Replay *r);
Engine *replay_engine(Replay *r);
const Recording *replay_recording(const Replay *r);

#endif
