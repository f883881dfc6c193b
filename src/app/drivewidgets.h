/* The driving screens' instruments, each a function of one view's
 * rectangle (any size, any number of views): the speedometer, the arrow at
 * the edge towards a car off screen, the flash of a hit, the sparks of a
 * contact. Colours from palette.h; none of them orange, green or wall red
 * where the road is (a test driver reads the screen's colours: docs/qa.md).
 *
 * Contracts:
 *   drivewidget_speedo(v, rect, speed, top, opacity)  a dial in rect's bottom left
 *        corner: a 270-degree scale from 0 to DRIVEWIDGET_SPEEDO_MAX cw/s
 *        (ticks every 5, numbers every 10), the arc filled to |speed|, a
 *        needle, the speed in whole cw/s ("R 3" reversing) and "cw/s"; the
 *        mark of the top speed top (cw/s, 0 = none); its face as opaque as
 *        opacity (0..1) says. Its size follows the rect's short side
 *        (nothing on a rect under 120 px), larger where the rect's height
 *        leaves DRIVEWIDGET_SPEEDO_CLEAR_LINES above it and numbers every
 *        10 need it.
 *   drivewidget_speedo_rect(v, rect, &box)  the dial's square (false: none),
 *        its radius kept per rect size, layout base and text size (v's
 *        speedo_fit: the last four, a 2 x 2 grid's screens).
 *   drivewidget_speedo_radius(v, w, h)  the dial's radius (px) in a rect of
 *        w x h, worked out (a search over the numbers' boxes): 0 under 120.
 *   drivewidget_speedo_angle(speed)  the needle's angle (rad, screen
 *        counter-clockwise from right): 225 degrees at 0, -45 at the top of
 *        the scale, clamped.
 *   drivewidget_arrow_place(x, inset, px, py, &ax, &ay, &dir)  where the
 *        arrow towards the point (px, py) (pixels) goes: false when the
 *        point lies inside inset; else (ax, ay) where the line from the
 *        view's centre (x->cx, x->cy) to it leaves inset, dir its angle
 *        (rad, screen y down).
 *   drivewidget_arrow(v, x, inset, nlabel_only, pose, car, label, taken, &ntaken, max)
 *        an arrow in the car's colour on inset's border pointing to the car
 *        at pose when it is off inset, pulled back along its line towards
 *        the view's centre where it would meet one of taken[nlabel_only ..
 *        ntaken) (the speedometer, the minimap, a message box, earlier
 *        arrows and labels); then the label beside it, inside inset, clear
 *        of every rectangle of taken (taken[0 .. nlabel_only): what only
 *        labels keep off, the own car) and of its own arrow, if a step
 *        along the edge finds room (else left out). The arrow's box, then
 *        the label's rectangle are added to taken (up to max). True when
 *        drawn (false too when no place on its line is clear: left out).
 *   drivewidget_flash(r, rect, level)  a pale frame round rect, as thick
 *        and opaque as level (0..1) says; nothing at 0.
 *   drivewidget_sparks(v, x, sparks, n)  the sparks (world positions and
 *        velocities, ages) as short bright streaks.
 */
#ifndef NR_DRIVEWIDGETS_H
#define NR_DRIVEWIDGETS_H

#include "app_internal.h"

#define DRIVEWIDGET_SPEEDO_MAX 40.0 /* cw/s at the end of the dial */
/* text lines a small dial leaves above it when it grows for its numbers:
 * the HUD strip (DRIVEHUD_TOP_LINES) and a message box (1.6 lines) */
#define DRIVEWIDGET_SPEEDO_CLEAR_LINES 4.5
#define DRIVEWIDGET_SPARK_LIFE_S 0.35

typedef struct DriveSpark {
    double x, y, vx, vy; /* cw, cw/s */
    double age_s;        /* >= DRIVEWIDGET_SPARK_LIFE_S: gone */
} DriveSpark;

void drivewidget_speedo(AppState *v, const SDL_FRect *rect, double speed_cws, double top_cws, double opacity);
bool drivewidget_speedo_rect(AppState *v, const SDL_FRect *rect, SDL_FRect *box);
float drivewidget_speedo_radius(AppState *v, float w, float h);
double drivewidget_speedo_angle(double speed_cws);
bool drivewidget_arrow_place(const AppXform *x, const SDL_FRect *inset, float px, float py, float *ax, float *ay,
                             double *dir);
bool drivewidget_arrow(AppState *v, const AppXform *x, const SDL_FRect *inset, int nlabel_only, const Pose *pose,
                       int car, const char *label, SDL_FRect *taken, int *ntaken, int max_taken);
void drivewidget_flash(SDL_Renderer *r, const SDL_FRect *rect, double level);
void drivewidget_sparks(AppState *v, const AppXform *x, const DriveSpark *sparks, int n);

#endif
