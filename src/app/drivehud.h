/* One driving screen's own state and its instruments, shared by the game's
 * screens (play_draw.c) and the network window (netwin.c): the camera
 * (drivecam.h), the time gaps to the other cars as this screen shows them
 * (drivegap.h), the feedback of a hit (the flash, sparks, a jolt of the
 * camera; the sound reads impact_cws and scraping) and the drawing of the
 * speedometer and of the arrows towards cars off screen (drivewidgets.h).
 * Everything is drawn into one view's rectangle: any size, any number of
 * views.
 *
 * Contracts:
 *   drivehud_reset(h, mode)  a new race: the camera snaps at the next
 *        update, no gap history, contacts read afresh (a hit before the
 *        reset never flashes).
 *   drivehud_update(h, in, dt_s)  once a frame (dt_s of the app's clock, 0
 *        while paused): the camera follows in->own at in->speed_cws; the
 *        race flow's progress of view in->view is added to the gap history
 *        when its sample time moved on; a contact of the own car
 *        (in->contact, counters of world.h) begun since the last update
 *        sets impact_cws to its speed (0 otherwise), lights the flash,
 *        throws sparks and jolts the camera; scraping says the car is in
 *        contact now.
 *   drivehud_xform(h, v, own, rect, &x)  the camera's transform into rect:
 *        centred on and spanning the part of rect below the HUD strip
 *        (DRIVEHUD_TOP_LINES lines of v's text) and above the lagometer
 *        when h->lagometer, x->rect all of rect.
 *   drivehud_draw(h, v, x, others)  the sparks, the arrow towards each
 *        other car off the view with its gap ("P2 1.3 s ahead",
 *        "P2 0.8 s behind", "~" when estimated: drivehud_gap_text), the
 *        flash and the speedometer, into x's rect (the top strip of
 *        DRIVEHUD_TOP_LINES text lines is left to the HUD, the bottom one
 *        of the lagometer to it when h->lagometer); the arrows and their
 *        labels keep off the speedometer, others->minimap, others->keep_clear
 *        and each other, a label off its own arrow (h->arrow_box,
 *        h->label_box: where they went).
 *   drivehud_room(h, v, rect)  the part of screen rect the speedometer and
 *        the arrows keep to: above the lagometer when h->lagometer (unless
 *        that would leave less than 40 % of rect), else all of rect.
 *   drivehud_top_px(v)  the height in pixels of a screen's HUD strip
 *        (DRIVEHUD_TOP_LINES lines of the normal font).
 *   drivehud_gap_text(buf, n, car, gap_s, est)  the arrow's label.
 *   drivehud_fade(h, x, box)  how opaque (DRIVEHUD_FADE_MIN..1) an
 *        instrument covering box (pixels) should be: less when it covers
 *        the car or the road the camera looks at (a ray from the car along
 *        its look-ahead, or 10 or 20 degrees beside it, crosses the box
 *        grown by a car length), fully opaque at rest or clear of both.
 *        drivehud_draw fades the speedometer so; the caller gives the
 *        minimap WIDGET_MINIMAP_ALPHA times drivehud_fade(h, x,
 *        widget_minimap_rect's box).
 *   drivehud_sound(h, synth, voice, in, throttle, pan, on)  this screen's
 *        sounds after drivehud_update: its engine (voice) at the car's
 *        speed, the crash of a hit begun (a duller knock against a car),
 *        the scrape while in contact; pan -1 (left) .. 1 (right).
 *   drivehud_lights_sound(synth, &seen, to_go_us)  the start lights' beeps
 *        (to_go_us as widget_lights takes it: race time, negative in the
 *        countdown, INT64_MIN when no countdown runs): a 440 Hz beep as
 *        each red light comes on, 880 Hz as they go out; seen (0 before
 *        the countdown) remembers which were played.
 */
#ifndef NR_DRIVEHUD_H
#define NR_DRIVEHUD_H

#include "drivecam.h"
#include "drivegap.h"
#include "drivewidgets.h"
#include "raceflow.h"
#include "rng.h"
#include "synth.h"
#include "world.h"

#define DRIVEHUD_SPARKS 32
#define DRIVEHUD_FLASH_S 0.45  /* a hit's flash fades in this long */
#define DRIVEHUD_TOP_LINES 2.9 /* the HUD strip's height in text lines */
#define DRIVEHUD_FADE_MIN 0.3  /* an instrument over the road ahead: this opaque */
#define DRIVEHUD_TAKEN (4 + 2 * DRIVEGAP_CARS) /* drivehud_draw's rectangles: the own car, 3 widgets, arrows, labels */

typedef struct DriveHudIn {
    Pose own;                    /* the own car as this screen draws it */
    double speed_cws;            /* its speed along the heading */
    const WorldContact *contact; /* its contacts (NULL: none known) */
    const RaceFlow *rf;          /* NULL: no gaps */
    int view;                    /* rf's view of this screen (its terminal) */
    int ncars;
} DriveHudIn;

typedef struct DriveHudOthers {
    int n;
    int car[DRIVEGAP_CARS];   /* the other cars' indices */
    Pose pose[DRIVEGAP_CARS]; /* as this screen shows them */
    int me;
    Pose own;                 /* the own car as this screen draws it */
    double speed_cws;         /* the own car's, for the speedometer */
    SDL_FRect keep_clear;     /* a box the arrows and their labels keep off (a message's); w 0: none */
    SDL_FRect minimap;        /* the minimap's box (widget_minimap_rect), kept off likewise; w 0: none */
} DriveHudOthers;

typedef struct DriveHud {
    DriveCam cam;
    DriveGap gap;
    int64_t gap_t;        /* the race flow's sample time last added */
    bool contact_known;
    uint32_t hits_seen, steps_seen;
    double impact_cws;    /* a hit begun at the last update: its speed; 0 none */
    bool impact_car;      /* that hit was against a car */
    bool scraping;        /* in contact at the last update */
    double flash;         /* 0..1 */
    DriveSpark spark[DRIVEHUD_SPARKS];
    int spark_next;
    Rng rng;
    bool lagometer;       /* set by the caller: its lagometer (lagometer_screen_rect) is
                           * drawn along the bottom; the camera, arrows and speedometer
                           * keep above it */
    /* the last drivehud_draw's arrows: each one's box (with its rim) and
     * its label's (w 0: left out), for the tests of their places */
    SDL_FRect arrow_box[DRIVEGAP_CARS], label_box[DRIVEGAP_CARS];
    int narrows;
} DriveHud;

void drivehud_reset(DriveHud *h, DriveCamMode mode);
void drivehud_update(DriveHud *h, const DriveHudIn *in, double dt_s);
void drivehud_xform(const DriveHud *h, const AppState *v, const Pose *own, const SDL_FRect *rect, AppXform *x);
void drivehud_draw(DriveHud *h, AppState *v, const AppXform *x, const DriveHudOthers *others);
void drivehud_gap_text(char *buf, size_t n, int car, double gap_s, bool est);
double drivehud_fade(const DriveHud *h, const AppXform *x, const SDL_FRect *box);
SDL_FRect drivehud_room(const DriveHud *h, const AppState *v, const SDL_FRect *rect);
float drivehud_top_px(const AppState *v);
void drivehud_sound(const DriveHud *h, Synth *synth, int voice, const DriveHudIn *in, double throttle, double pan,
                    bool on);
void drivehud_lights_sound(Synth *synth, int *seen, int64_t to_go_us);

#endif
