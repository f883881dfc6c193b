/* The world of a driven race: a track, N cars on the car physics (car.h),
 * stepped at a fixed time step from each car's inputs; walls, car to car
 * collisions, progress and laps.
 *
 * Time: WORLD_DT_US per step; the inputs are read every WORLD_CONTROL_US
 * (two steps) and the race is sampled every 33 ms (six steps), so a recorded
 * input stream re-simulates the race bit for bit.
 *
 * Contracts:
 *   world_init(w, track, ncars, err)  cars at rest on grid slots 0..ncars-1;
 *        t = 0. False + err when ncars is outside 1..min(WORLD_MAX_CARS, the
 *        track's grid slots). The track is borrowed.
 *   world_init_solo(w, track, slot, err)  one car (index 0) at rest on grid
 *        slot `slot`: a network terminal simulates only its own car (the
 *        peer's comes over the wire). False + err when the slot is not one
 *        of the track's.
 *   world_step(w, in)   one step with in[c] for car c (clamped): physics of
 *        every car, walls, then car to car collisions (bodies never overlap
 *        after it), then progress; t += WORLD_DT_US.
 *   world_sample(w, c, out)  car c as a recording sample at the current time
 *        (t_ms, x, y, heading, speed), quantised to 1e-4 cw / rad and 1e-3
 *        cw/s so files stay short: the engine and the recording both take
 *        this value, so a live race and the replay of its file agree.
 *   world_progress(w, c)     unwrapped along-track progress (cw) of car c,
 *        from its grid slot's progress at t = 0.
 *   world_laps(w, c)          completed laps (progress / length, floor, >= 0).
 *   world_on_grass(w, c)      the car's centre is beyond the track edge.
 *   world_offset(w, c)        signed lateral offset from the centre line.
 *   world_contact(w, c)       car c's contacts so far (WorldContact): the
 *        walls and the other cars, for the app's feedback (sparks, sound);
 *        the physics never reads them.
 */
#ifndef NR_WORLD_H
#define NR_WORLD_H

#include "car.h"
#include "recording.h"
#include "track.h"

#define WORLD_MAX_CARS 8
#define WORLD_DT_US 5500       /* physics step: 33 ms / 6 */
#define WORLD_CONTROL_US 11000 /* inputs are read every 2 steps */
#define WORLD_SAMPLE_US 33000  /* the racing paper's 33 ms sample */
/* A wall contact acts at the centre up to this angle between the car's
 * axis and the wall and this speed into it, at the corner from the next,
 * linearly between (world.c, wall_lever). */
#define WORLD_WALL_ALPHA0_DEG 25.0
#define WORLD_WALL_ALPHA1_DEG 40.0
#define WORLD_WALL_VN0_CWS 8.0
#define WORLD_WALL_VN1_CWS 12.0

/* What car c touched: counters that only grow (a reader remembers the
 * last it saw) and the latest contact. A hit begins with a contact after
 * WORLD_HIT_QUIET_US without any (a scrape is one hit). */
#define WORLD_HIT_QUIET_US 200000
typedef struct WorldContact {
    uint32_t hits;     /* hits begun (wall or car) */
    uint32_t steps;    /* physics steps spent in contact */
    bool now;          /* in contact at the last step */
    int64_t last_us;   /* the world's time of the last contact */
    int other;         /* the last contact: -1 the wall, else the other car */
    double hit_cws;    /* normal speed at the start of the last hit (cw/s) */
    double x, y;       /* where the last contact touched (cw) */
} WorldContact;

typedef struct World {
    const Track *track;
    CarParams params;
    int ncars;
    Car car[WORLD_MAX_CARS];
    double progress[WORLD_MAX_CARS]; /* unwrapped, cw */
    double start_progress[WORLD_MAX_CARS];
    bool grass[WORLD_MAX_CARS];
    WorldContact contact[WORLD_MAX_CARS];
    int64_t t_us;
} World;

bool world_init(World *w, const Track *track, int ncars, NrError *err);
bool world_init_solo(World *w, const Track *track, int slot, NrError *err);
void world_step(World *w, const CarInput *in);
void world_sample(const World *w, int c, RecSample *out);
double world_progress(const World *w, int c);
int world_laps(const World *w, int c);
bool world_on_grass(const World *w, int c);
double world_offset(const World *w, int c);
const WorldContact *world_contact(const World *w, int c);

#endif
