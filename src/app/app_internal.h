/* The window's state, layout and drawing, without a window: the tests and
 * the snapshot path drive these on a software renderer bound to a surface.
 *
 * Contracts:
 *   app_state_init(s, e, cfg, r, err)  binds engine and renderer (neither
 *        owned), opens fonts (missing font: one line on stderr, no text),
 *        allocates every buffer the drawing will use. False + err on failure.
 *   app_state_free(s)                  textures, fonts and buffers.
 *   app_render_reset(s, ev)            whether ev says the renderer's
 *        target textures (SDL_RENDER_TARGETS_RESET) or all its textures
 *        (SDL_RENDER_DEVICE_RESET) lost their pixels; if so, and s is not
 *        NULL, every texture s keeps between frames (the track tiles, the
 *        track, chart and bar layers, the whole-track pictures, the dial;
 *        the labels too on a device reset) is freed, to be made and drawn
 *        again on the next frame. Every window loop owning an AppState
 *        passes its events through it.
 *   app_handle_event(s, ev)            one SDL event (keys, mouse, resize,
 *        quit); changes the engine through its live-change calls and the
 *        view state; window-level requests (quit, fullscreen, screenshot)
 *        are left in s->want_* for the loop.
 *   app_advance(s, wall_dt_us)         moves the app clock by wall time x speed
 *        unless paused (the app's clock; the engine never reads one) and
 *        steps the engine to the last sample instant it passed.
 *   app_draw(s, w, h)                  lays out and draws one frame.
 *   app_view_xform(s, k, j, &x)        the world-to-pixel transform of view
 *        (scheme k, terminal j) of the last layout, as drawn.
 *   app_view_caption(j, late_us, wide, buf, n)  the caption naming
 *        terminal j's screen: "P2 screen" (short "P2"), or with late_us > 0
 *        (a peer's screen from its VIEW) "P2 screen 42 ms ago" (short
 *        "P2 42ms ago"), late_us rounded to the millisecond; from
 *        APP_VIEW_LAST_US on (the peer's last VIEW, after the race or
 *        when it went silent) "P2 last view" (short "P2 last").
 *   app_gauge_text(m, &t)              the gauge strings of one scheme, formatted
 *        from its metrics; app_gauge_text_n(m, ncars, &t) its strings of a
 *        race of more than two cars (pairs, spread, each disadvantage,
 *        the counters' totals; nothing for two).
 *   app_fair_fill(v, range)            how much of a half fairness bar a mean
 *        d1 - d2 of v car widths fills (0..1) on a scale up to range: 0
 *        exactly when the gauge says "even" (|v| < APP_FAIR_EVEN_CW), at
 *        least APP_FAIR_STUB otherwise, then logarithmic up to 1 at range.
 *   app_screen(s)                      the overview as a screen of the one
 *        window loop (winloop.h); app_requests(s) its WIN_* requests.
 *   app_link_text(spec, ...)           a link spec text from a spec with the
 *        window's overrides, for linkspec_parse.
 *   app_link_short(spec, buf, n)       a link in short: "75±10 ms", "75 ms
 *        loss 2%", "down (loss 100%)" (the HUD, a narrow status line).
 */
#ifndef NR_APP_INTERNAL_H
#define NR_APP_INTERNAL_H

#include "app.h"
#include "gfx.h"
#include "palette.h"
#include "plot_layout.h"
#include "racedata.h"
#include "winloop.h"

#define APP_TRACK_PTS_MAX 1024
#define APP_TRACK_CHUNK 16 /* track segments per culling box (app_track.c) */
#define APP_TRACK_CHUNKS (APP_TRACK_PTS_MAX / APP_TRACK_CHUNK)
#define APP_TRAIL 48
#define APP_CHART_PTS 2048
#define APP_GAUGE_REFRESH_US (100 * NR_US_PER_MS)
/* |mean d1 - d2| below this (car widths) reads "even": a twentieth of a car
 * is no advantage a player could notice; the number is shown regardless. */
#define APP_FAIR_EVEN_CW 0.05
/* the least fill of a bar that is not "even" (of a half bar): visible */
#define APP_FAIR_STUB 0.08

typedef enum AppCtl {
    CTL_DELAY12, CTL_JITTER12, CTL_LOSS12,
    CTL_DELAY21, CTL_JITTER21, CTL_LOSS21,
    CTL_DIST, CTL_DELTA, CTL_TDR, CTL_SPEED,
    CTL_NVALUES,
    /* buttons */
    BTN_PAUSE = CTL_NVALUES, BTN_STEP, BTN_RESTART, BTN_LOOP, BTN_RESET,
    BTN_GHOST, BTN_TRAILS, BTN_INFLIGHT, BTN_ZOOM, BTN_HELP,
    CTL_COUNT
} AppCtl;

typedef struct AppXform {
    SDL_FRect rect;  /* the view's pixels */
    float cx, cy;    /* pixel of world point (wx, wy) */
    double wx, wy;
    float scale;     /* pixels per car width; world y grows upwards */
    bool rotated;    /* false (zero): north up; true: the world turned by -rot */
    double rot, rot_cos, rot_sin; /* rad; a driving camera's (drivecam.h) */
} AppXform;

static inline void app_world_to_px(const AppXform *x, double wx, double wy, float *px, float *py)
{
    if (x->rotated) {
        double dx = wx - x->wx, dy = wy - x->wy;
        *px = x->cx + (float)((dx * x->rot_cos + dy * x->rot_sin) * x->scale);
        *py = x->cy - (float)((dy * x->rot_cos - dx * x->rot_sin) * x->scale);
        return;
    }
    *px = x->cx + (float)((wx - x->wx) * x->scale);
    *py = x->cy - (float)((wy - x->wy) * x->scale);
}

/* A world heading as drawn on screen (radians, counter-clockwise from
 * screen right). */
static inline double app_screen_heading(const AppXform *x, double heading)
{
    return x->rotated ? heading - x->rot : heading;
}

typedef struct AppGaugeText {
    char rate[64];   /* cumulative inconsistency rate, % */
    char recent[64]; /* over the last 5 s, % */
    char fair[64];   /* mean d1 - d2 */
    char who[64];    /* who is disadvantaged by the mean */
    char d[64];      /* current d1 and d2 */
    char mus[96];    /* MUs sent and discarded per direction */
    /* more than two cars (app_gauge_text_n) */
    char pairs[48];  /* pairwise inconsistency rate, % */
    char spread[48]; /* the fairness spread, cw */
    char dis[ENGINE_MAX_CARS][24]; /* each player's disadvantage, cw */
    char totals[96]; /* MUs sent, lost, late and discarded by every terminal */
} AppGaugeText;

typedef struct AppLayout {
    int w, h, base;
    int cols, rows;
    SDL_FRect top, main, chart[2], status, ctl_row[2];
    SDL_FRect label[SCHEME_MAX], view[SCHEME_MAX][ENGINE_MAX_CARS], gauge[SCHEME_MAX], row[SCHEME_MAX];
    SDL_FRect cell[SCHEME_MAX]; /* N cars: each scheme's cell of the compact grid */
    bool cell_views, cell_order; /* N cars: the cells show the screens / the orders */
    SDL_FRect ctl[CTL_COUNT], minus[CTL_COUNT], plus[CTL_COUNT];
} AppLayout;

/* A part of the frame drawn into a texture and redrawn only when its key
 * changes (the strip charts, the control bar). */
typedef struct AppLayer {
    SDL_Texture *tex;
    int w, h;
    uint64_t key;
    char text_key[1024];
} AppLayer;

/* The track under the views kept between frames (app_track_layer.c): a
 * window-sized layer and, per view, its clip, its last camera, whether the
 * layer holds that camera's picture and how many visits in a row found the
 * camera moved.
 * A slot for every screen the overview can show (schemes x terminals). */
#define APP_TRACK_SLOTS (SCHEME_MAX * ENGINE_MAX_CARS)
typedef struct AppTrackSlot {
    SDL_Rect clip;
    AppXform x;
    bool held;   /* the layer holds x's picture inside clip */
    uint8_t moves; /* visits in a row (up to 2) that found the camera moved */
} AppTrackSlot;

typedef struct AppTrackLayer {
    AppLayer layer; /* its key: 1 once the slots below describe its pixels */
    AppTrackSlot slot[APP_TRACK_SLOTS];
    int nslots, next;
} AppTrackLayer;

/* The track under the north-up follow cameras as tiles (app_track_tiles.c):
 * level L draws it at 2^(L / APP_TILE_STEPS) pixels per car width on a
 * world-aligned grid of APP_TILE_PX squares; at most APP_TILE_CAP tiles
 * alive (APP_TILE_CAP x 64 KB of pixels), the least recently copied
 * making room, never one copied in the current frame (a view whose tiles
 * do not fit is drawn directly for that frame). A tile with no track
 * within reach keeps no pixels (grass). */
#define APP_TILE_PX 128
#define APP_TILE_STEPS 8
#define APP_TILE_LEVEL_MIN (-2 * APP_TILE_STEPS) /* 0.25 px per car width */
#define APP_TILE_LEVEL_MAX (8 * APP_TILE_STEPS)  /* 256 */
#define APP_TILE_CAP 256
#define APP_TILE_HASH 1024 /* a power of two, at least twice the cap */
typedef struct AppTile {
    SDL_Texture *tex; /* kept for the next tile when this one is evicted */
    int level, ix, iy;
    bool grass;       /* no track within reach: a plain fill, tex unused */
    uint64_t used;    /* the cache's clock at its last copy */
    uint64_t frame;   /* the cache's frame at its last copy */
} AppTile;

typedef struct AppTileCache {
    AppTile tile[APP_TILE_CAP];
    int16_t hash[APP_TILE_HASH]; /* entry + 1, 0 empty; linear probing */
    int n;           /* entries taken */
    uint64_t clock;  /* tile copies so far */
    uint64_t frame;  /* frames begun (app_track_tiles_frame); 0 before the first */
    int held;        /* entries the current frame has copied */
    long renders;    /* tiles drawn so far (tests count them) */
} AppTileCache;

typedef struct AppTrail {
    float x[APP_TRAIL], y[APP_TRAIL];
    int head, n;
} AppTrail;

/* What the last frame drew for one scheme, so that tests can hold it to the
 * metrics: the lead badge of each screen, each screen's displayed gap
 * (progress of car 1 minus car 2, car widths), and the red frame. */
typedef struct AppDrawn {
    int leader[ENGINE_MAX_CARS];
    double gap[2];
    bool frame;
    bool drawn;
} AppDrawn;

typedef struct AppState {
    Replay *rp; /* the race being played */
    Engine *e;  /* replay_engine(rp) or the game's; NULL for a network race
                 * (the owner fills data) or a track-only drawing context */
    RaceData data; /* what is drawn: from e at each app_draw, else the owner's */
    const Track *track; /* what app_draw_track draws */
    AppConfig cfg;
    SDL_Renderer *r;
    Gfx gfx;
    AppLayout lay;

    /* view state */
    bool paused, loop, help;
    bool follow[2];     /* zoom on the cars: [0] overview, [1] focus */
    double speed;
    double scale;       /* text scale (gfx_base_px), 1 = as the window's size says */
    int focus;          /* -1 = overview */
    unsigned overlays;
    int sel;            /* selected value control */
    double race_frac_us; /* how far the app clock is ahead of the engine (us, < one period) */

    /* window-level requests for the loop */
    bool want_quit, want_fullscreen, want_shot;

    char msg[256];      /* one transient message line (errors, screenshot path) */
    int64_t msg_frames;

    /* track geometry in world units, computed once */
    int npts;
    double cx[APP_TRACK_PTS_MAX], cy[APP_TRACK_PTS_MAX];
    double lx[APP_TRACK_PTS_MAX], ly[APP_TRACK_PTS_MAX];
    double rx[APP_TRACK_PTS_MAX], ry[APP_TRACK_PTS_MAX];
    double lwx[APP_TRACK_PTS_MAX], lwy[APP_TRACK_PTS_MAX]; /* walls (cfg.wall_cw > 0) */
    double rwx[APP_TRACK_PTS_MAX], rwy[APP_TRACK_PTS_MAX];
    double bx0, by0, bx1, by1; /* bounding box with a margin */
    float chunk_box[APP_TRACK_CHUNKS][4]; /* world x0, y0, x1, y1 of APP_TRACK_CHUNK segments, walls included */
    bool kerb[APP_TRACK_PTS_MAX];         /* segment i is in a bend that gets kerbs */
    short run[APP_TRACK_PTS_MAX];         /* the straight from point i ends at point run[i] (in i's chunk) */

    /* scratch buffers, fixed size */
    SDL_Vertex vert[2 * APP_TRACK_PTS_MAX + 8];
    SDL_Vertex edge_vert[16 * APP_TRACK_PTS_MAX]; /* edges and walls */
    int edge_idx[24 * APP_TRACK_PTS_MAX];
    int idx[6 * APP_TRACK_PTS_MAX + 12];
    int tri_order[24 * APP_TRACK_PTS_MAX]; /* idx / edge_idx reordered for the renderer (app_draw_track) */
    SDL_FPoint pts[APP_TRACK_PTS_MAX + 1];
    InFlight inflight[ENGINE_QUEUE_LIMIT];
    double chart_x[SCHEME_MAX][APP_CHART_PTS], chart_y[SCHEME_MAX][APP_CHART_PTS];

    /* whole-track textures cached per view size */
    SDL_Texture *track_tex[2];
    int track_tex_w[2], track_tex_h[2];
    int track_tex_next;
    AppTrackLayer track_layer;
    AppTileCache tiles;
    SDL_Texture *dial_tex; /* the speedometer's still parts (drivewidgets.c), per size */
    int dial_tex_px;
    /* the speedometer's radius (drivewidgets.c) per room size and text
     * scale, one a screen of the 2 x 2 grid; speedo_searches counts the
     * radius worked out (tests) */
    struct {
        float w, h, rad;
        int base, font_px;
    } speedo_fit[4];
    int speedo_fit_next, speedo_searches;

    /* gauge strings, refreshed at most every APP_GAUGE_REFRESH_US of race time
     * (digits changing 30 times a second are unreadable and cost renders) */
    AppGaugeText gtext[SCHEME_MAX];
    int64_t gtext_t[SCHEME_MAX];
    bool gtext_valid;

    AppLayer chart_layer[2], bar_layer;
    /* the charts' history length on the previous frame, and whether each
     * chart's redraw waits for a frame that adds no sample (app_charts.c) */
    int64_t chart_total;
    bool chart_waits[2];
    uint64_t chart_shows[2]; /* what each chart showed besides its history (app_charts.c) */
    bool no_layers; /* draw everything every frame (tests compare both ways) */
    bool no_tiles;  /* the follow views' track drawn, not copied from tiles (a driving screen, tests) */
    bool snapshot;  /* drawing a --snapshot: the top bar says so */

    AppDrawn drawn[SCHEME_MAX];
    /* link script: the next change, and the links in force at the start
     * (restored by a restart before the script plays again) */
    int script_next;
    LinkSpec link0[2];

    AppTrail trail[SCHEME_MAX][ENGINE_MAX_CARS][ENGINE_MAX_CARS];
    int64_t trail_t;

    /* the lagometer (F2) and the marks (F3): drawn from data.lag; the marks
     * are the recording's (replay) or the owner's (a live race, whose
     * window takes F3 before the overview), in time order */
    bool lag;
    int64_t lag_scale_us; /* the strips' common delay scale this frame */
    const RecMark *marks;
    int nmarks;
    double mark_s[RECORDING_MAX_MARKS]; /* the charts' x of each */
} AppState;

/* The race's links are not the window's to change (N cars, client-server:
 * cfg.links_text describes them): the link controls are hidden. */
static inline bool app_links_fixed(const AppState *s)
{
    return s->cfg.links_text != NULL;
}

bool app_state_init(AppState *s, Replay *rp, const AppConfig *cfg, SDL_Renderer *r, NrError *err);
/* The same on an engine someone else steps (rp NULL with cfg->live: the
 * game's overview window); the charts' time axis is the race so far. */
bool app_state_init_engine(AppState *s, Engine *e, Replay *rp, const AppConfig *cfg, SDL_Renderer *r, NrError *err);
/* A drawing context without an engine: fonts and the track's geometry, for
 * app_draw_track / app_draw_car / app_fit_xform (a driving screen), or the
 * overview of a race that is not an Engine (network play: the owner fills
 * s->data before each app_draw; no controls). */
void app_state_init_track(AppState *s, const Track *t, const AppConfig *cfg, SDL_Renderer *r);
/* The race end the charts and the top bar show: the replay's end, or now. */
int64_t app_end_us(const AppState *s);
void app_state_free(AppState *s);
void app_handle_event(AppState *s, const SDL_Event *ev);
bool app_render_reset(AppState *s, const SDL_Event *ev);
void app_advance(AppState *s, int64_t wall_dt_us);
/* The latest sample instant at or before t_us: where the window stops the
 * engine, so that it draws the instant the metrics measured. */
int64_t app_sample_floor(const Engine *e, int64_t t_us);
/* Steps the engine to t_us, applying the link script's changes due on the
 * way at their times and saying so in the top bar. */
void app_step_to(AppState *s, int64_t t_us);
/* Back to t = 0: links as at the start when a script plays, trails and
 * gauge strings cleared; pause, speed, focus, overlays, Delta and T_dr and
 * the links the user set (without a script) stay as they are. */
void app_restart(AppState *s);
void app_draw(AppState *s, int w, int h);
/* Scheme k's lagometer in terminal j's screen (view) of the overview. */
void app_draw_lag(AppState *s, int k, int j, const SDL_FRect *view);
/* Where that lagometer goes in the screen: above its laps caption. */
SDL_FRect app_lag_rect(const AppState *s, int k, const SDL_FRect *view);
/* Race time of the marks' zero: the current heat's start in a replay. */
int64_t app_mark_origin_us(const AppState *s);
/* The race time drawn (the engine's, or the owner's data). */
int64_t app_now_us(const AppState *s);
/* The engine's sampling period (33 ms when it has none). */
int64_t app_period_us(const Engine *e);
/* The replay speed step nearest v (0.25x .. 8x). */
double app_speed_nearest(double v);
void app_clear_trails(AppState *s);
unsigned app_requests(AppState *s);
WinScreen app_screen(AppState *s);
void app_layout(AppState *s, int w, int h);
void app_view_xform(const AppState *s, int k, int j, AppXform *x);
#define APP_VIEW_LAST_US (5 * NR_US_PER_S) /* a peer's VIEW this old is its last */
void app_view_caption(int j, int64_t late_us, bool wide, char *buf, size_t n);
void app_gauge_text(const Metrics *m, AppGaugeText *t);
void app_gauge_text_n(const Metrics *m, int ncars, AppGaugeText *t);
double app_fair_fill(double v, double range);
bool app_link_text(const LinkSpec *spec, int64_t delay_us, int64_t jitter_us, double loss_p,
                   const char *dist, char *buf, size_t n);
void app_link_short(const LinkSpec *spec, char *buf, size_t n);
/* The causality notice (scheme_delta_late on the race's schemes, or only
 * scheme shown when >= 0, Delta and the slower link of a two-car p2p
 * race): a long form in buf, a short one in sbuf; false (both "") when
 * no scheme discards most updates. */
bool app_delta_notice(const Engine *e, int shown, char *buf, size_t n, char *sbuf, size_t sn);
void app_set_message(AppState *s, const char *fmt, ...) NR_PRINTF(2, 3);
/* The value of a control as shown in the control bar. */
void app_ctl_value(const AppState *s, int ctl, char *buf, size_t n);
/* Change a value control by dir steps (+1 / -1, x5 with big). */
void app_ctl_change(AppState *s, int ctl, int dir, bool big);
void app_ctl_press(AppState *s, int ctl);
/* The track (asphalt strip, white edges, chequered start line) and a car in
 * plain shapes, as every view draws them; the game's screens use them too. */
void app_draw_track(AppState *s, const AppXform *x);
/* What app_draw_track needs of the track beyond its points, computed once
 * after them (s->npts, the edges and walls): the kerbs, the culling boxes. */
void app_track_prepare(AppState *s);
void app_draw_car(AppState *s, const AppXform *x, double wx, double wy, double heading, SDL_Color c,
                  bool outline_only);
/* Quads as two triangles each (6 indices per quad in idx, m of them),
 * drawn in the order SDL's software renderer fills right (app_track.c);
 * order: m ints of scratch. */
void app_draw_quads(SDL_Renderer *r, const SDL_Vertex *v, int nv, const int *idx, int m, int *order);
/* The whole track fitted into rect (the overview's transform), and its
 * picture w x h drawn once into a cached texture (NULL if none). */
void app_fit_xform(const AppState *s, const SDL_FRect *rect, AppXform *x);
SDL_Texture *app_track_texture(AppState *s, int w, int h);
/* The grass and the track under clip with camera x, drawn into the track
 * layer only when clip's camera changed since the last frame (compared bit
 * for bit), then copied to the screen: the same pixels as drawing them
 * there. False (nothing drawn) when the layer cannot serve: no_layers, a
 * texture target in use, clip outside the output, no target textures. */
bool app_track_layer(AppState *s, const SDL_Rect *clip, const AppXform *x);
void app_track_layer_free(AppState *s);
/* The grass and the track under clip with a north-up camera x (every copy
 * cut to clip and the output), copied from
 * the tiles of the largest level whose scale is at most x's (enlarged by
 * less than one step, nearest pixel: a line keeps at least its width;
 * placed to within half a pixel). False (nothing copied; the caller draws
 * them) when no_tiles, x rotated, its scale outside the levels or not
 * finite, its centre not finite or so far off that the tile indices would
 * not fit an int, the renderer has no target textures or refuses a tile,
 * or the view's tiles do not fit the cache beside those the current frame
 * has copied (asked again on the next frame). Each tile is drawn once
 * while it stays in the cache, and never twice in one frame.
 * app_track_tiles_frame(s) begins a frame (app_draw calls it): the tiles
 * copied since the last call may make room again. */
bool app_track_tiles(AppState *s, const SDL_Rect *clip, const AppXform *x);
void app_track_tiles_frame(AppState *s);
void app_track_tiles_free(AppState *s);
/* The grass and the track under clip: app_track_tiles, else drawn. */
void app_track_paint(AppState *s, const SDL_Rect *clip, const AppXform *x);
/* Level L's scale (pixels per car width) and the level a scale takes. */
float app_tile_level_scale(int level);
int app_tile_level(float scale);
/* Whether app_draw_track would draw anything inside x's rect. */
bool app_track_meets(const AppState *s, const AppXform *x);
/* The pixel format of the window the renderer draws on (RGB888 or
 * ARGB8888; ARGB8888 without a window): a layer in the same format is
 * copied to it row by row (blended from ARGB8888 onto an X11 window's
 * RGB888 the copy cost ~5 instructions a pixel). */
Uint32 app_screen_format(SDL_Renderer *r);

/* Chart panels in the window (plot_draw.c) and a 0xRRGGBB colour as an
 * SDL colour (plot.c). */
void plot_draw_panel(Gfx *g, SDL_FRect area, const PlotPanel *p, const PlotTheme *th);
SDL_Color plot_rgb(uint32_t rgb);

#endif
