/* The widgets every driving screen shares (the game's screens, the
 * network window): car sprites, the minimap, the HUD strip, the start
 * lights, text boxes and the results box with lap times. They draw from
 * plain values (poses, a race flow, strings), never from an Engine or a
 * session, so a new screen (or issue 22's lagometer beside them) composes
 * them. The track itself is app_draw_track's; colours palette.h's.
 *
 * Contracts:
 *   widget_sprites_load(sp, r, assets_dir)  car1.png .. car4.png and icon.png
 *        from assets_dir, else ./assets, else the source tree's; a missing
 *        one: one line on stderr, plain shapes. widget_sprites_free(sp).
 *   widget_car(v, sprite, x, pose, car)  the car as a sprite (2 x 1 cw), or
 *        app_draw_car's shape when sprite is NULL.
 *   widget_minimap(v, screen, pose, ncars, own, alpha)  the whole track in
 *        the bottom right corner of screen (its opacity alpha:
 *        WIDGET_MINIMAP_ALPHA, less when the road ahead or the car is under
 *        it: drivehud_fade), the ncars cars as dots (own on top); nothing on
 *        a screen too small.
 *   widget_minimap_rect(v, screen, &m)  where it goes (false: nowhere).
 *   widget_hud(v, rect, hud)  the strip at the top of a driving screen.
 *   widget_hud_race(rf, car, race_us, &hud)  fills hud's race lines as this
 *        terminal sees its own car: time left or lap n/N or the finish, the
 *        running lap's time and the best lap (a timed race's clocks stop at
 *        its limit, however far race_us runs on).
 *   widget_lights(g, base, w, to_go_us)  the five start lights centred at
 *        the top: one lit per second from 5 s before the lights go out
 *        (to_go_us = race time, negative before the start), all green with
 *        GO for the first second; nothing otherwise (raceflow.h's countdown).
 *   widget_lights_at(g, base, cx, cy, to_go_us)  the same centred at (cx,
 *        cy) (a 2 x 2 grid's cell), its panel marked over the text under it
 *        for the audit (gfx_audit_cover).
 *   widget_lights_size(base, &w, &h)  that panel's size (pixels).
 *   widget_lights_shown(to_go_us)  whether the lights show at all: the
 *        countdown and the first RACEFLOW_LIGHT_US of the race ("GO").
 *   widget_panel(r, x, y, w, h, frame)  an opaque framed panel (PAL_BOX).
 *   widget_text_box(g, w, h, lines, n, frame)  lines centred in a panel,
 *        line 0 in the accent colour.
 *   widget_text_box_in(g, area, lines, n, frame)  the same within area
 *        (centred in it, fitted to it).
 *   widget_results(g, w, h, rf, title, views, labels, nviews, footer)  the
 *        results box: for each view (a terminal or RACEFLOW_TRUTH) the
 *        finishing order with finish and lap times (or progress at the time
 *        limit), a line saying whether the terminals agree, the footer.
 *        Two cars and up to three views: one column; more cars or views:
 *        widget_results_board.
 *   widget_results_board(...)  the same arguments: the views' blocks in two
 *        columns (P1 | P2, P3 | P4, ..., then the truth), the line saying
 *        which screens' orders differ from the truth's (widgets_board.c).
 *   widget_result_lines(rf, who, lines)  the results box's car lines (one
 *        per car of rf, lines holds rf->cfg.ncars) as view `who` saw the
 *        race: "1. car 2 (P2)  1:05.000  laps 0:33.0 ...", "lap" / "laps" by
 *        the count.
 *   widget_fmt_time(buf, n, us)  m:ss.mmm ("--:--.---" when negative).
 *   widget_fmt_running(buf, n, us)  m:ss.t (a running clock in tenths).
 */
#ifndef NR_WIDGETS_H
#define NR_WIDGETS_H

#include "app_internal.h"
#include "raceflow.h"

#define WIDGET_CAR_SPRITES 4 /* car1.png .. car4.png: play's seats */

typedef struct WidgetSprites {
    SDL_Texture *car[WIDGET_CAR_SPRITES]; /* NULL = plain shapes */
    SDL_Surface *icon;   /* the window icon; NULL = none */
} WidgetSprites;

typedef struct Hud {
    int car;            /* whose screen: its colour */
    char who[96];       /* beside "P1": keys, pad, bot, the peer */
    char centre[64];    /* "0:19.9 left", "Lap 2/3", "Finished 1:08.123" */
    int place;          /* 1-based position as this screen shows it: "1st" (accent), "2nd", ... */
    char lap[48];       /* the running lap's time */
    char best[48];      /* the best lap; "" = none yet */
    char right[160];    /* the second line's right side (scheme, link, clock) */
} Hud;

void widget_sprites_load(WidgetSprites *sp, SDL_Renderer *r, const char *assets_dir);
void widget_sprites_free(WidgetSprites *sp);
void widget_car(AppState *v, SDL_Texture *sprite, const AppXform *x, const Pose *p, int car);
#define WIDGET_MINIMAP_ALPHA 210
void widget_minimap(AppState *v, const SDL_FRect *screen, const Pose *pose, int ncars, int own, Uint8 alpha);
bool widget_minimap_rect(const AppState *v, const SDL_FRect *screen, SDL_FRect *m);
void widget_hud(AppState *v, const SDL_FRect *rect, const Hud *hud);
void widget_hud_race(const RaceFlow *rf, int car, int64_t race_us, Hud *hud);
void widget_lights(Gfx *g, float base, int w, int64_t to_go_us);
void widget_lights_at(Gfx *g, float base, float cx, float cy, int64_t to_go_us);
bool widget_lights_shown(int64_t to_go_us);
void widget_lights_size(float base, float *w, float *h);
void widget_panel(SDL_Renderer *r, float x, float y, float w, float h, SDL_Color frame);
void widget_text_box(Gfx *g, int w, int h, const char *const *lines, int n, SDL_Color frame);
void widget_text_box_in(Gfx *g, SDL_FRect area, const char *const *lines, int n, SDL_Color frame);
void widget_results(Gfx *g, int w, int h, const RaceFlow *rf, const char *title, const int *views,
                    const char *const *labels, int nviews, const char *footer);
void widget_results_board(Gfx *g, int w, int h, const RaceFlow *rf, const char *title, const int *views,
                          const char *const *labels, int nviews, const char *footer);
void widget_result_lines(const RaceFlow *rf, int who, char (*lines)[160]);
void widget_fmt_time(char *buf, size_t n, int64_t us);
void widget_fmt_running(char *buf, size_t n, int64_t us);

#endif
