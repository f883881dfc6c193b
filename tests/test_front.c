/* The front end's shared parts without a display: the one window loop drives
 * a screen's callbacks (events, advance on the wall time, draw at the
 * renderer's size, screenshots, quit, the benchmark's fixed 1/60 s steps);
 * the start lights count down by the race time; the HUD's race lines as a
 * terminal saw them; the network window draws a predicted car where it is
 * predicted, and its overview draws the peer's screens from the peer's
 * latest VIEW, captioned with its age; the pause box says which end
 * stopped; the joiner's code prompt turns keys into the code and the
 * host's waiting screen shows it. SDL_VIDEODRIVER=dummy. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <SDL_image.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app_internal.h"
#include "netwin.h"
#include "netwin_race.h"
#include "overwin.h"
#include "widgets.h"

#include "netrace_config.h"
#include "winloop.h"

/* ---- a screen that counts what the loop asks of it ------------------- */

typedef struct Probe {
    int events, user_events, advances, draws, begins, titles, messages;
    int64_t dt_sum_us, dt_min_us;
    int draw_w, draw_h;
    unsigned pending; /* WIN_* bits the next requests() reports */
    bool quit;
    char said[2300];
} Probe;

static void p_event(void *ctx, const SDL_Event *ev)
{
    Probe *p = ctx;
    p->events++;
    if (ev->type == SDL_USEREVENT)
        p->user_events++;
}

static void p_advance(void *ctx, int64_t dt)
{
    Probe *p = ctx;
    p->advances++;
    p->dt_sum_us += dt;
    if (p->advances == 1 || dt < p->dt_min_us)
        p->dt_min_us = dt;
}

static void p_draw(void *ctx, int w, int h)
{
    Probe *p = ctx;
    p->draws++;
    p->draw_w = w;
    p->draw_h = h;
}

static unsigned p_requests(void *ctx)
{
    Probe *p = ctx;
    unsigned r = p->pending | (p->quit ? WIN_QUIT : 0);
    p->pending = 0;
    return r;
}

static double p_time(void *ctx)
{
    (void)ctx;
    return 12.34;
}

static void p_message(void *ctx, const char *text)
{
    Probe *p = ctx;
    p->messages++;
    snprintf(p->said, sizeof p->said, "%s", text);
}

static void p_begin(void *ctx)
{
    ((Probe *)ctx)->begins++;
}

static void p_title(void *ctx, int w, int h, char *buf, size_t n)
{
    ((Probe *)ctx)->titles++;
    snprintf(buf, n, "probe %dx%d", w, h);
}

static WinScreen probe_screen(Probe *p)
{
    WinScreen s = {.ctx = p, .shot_prefix = "probe", .event = p_event, .advance = p_advance, .draw = p_draw,
                   .requests = p_requests, .race_time_s = p_time, .message = p_message, .bench_begin = p_begin,
                   .bench_title = p_title};
    return s;
}

static void loop_drives_the_screen(void **state)
{
    (void)state;
    char dir[] = "/tmp/netrace-front-XXXXXX";
    assert_non_null(mkdtemp(dir));
    WinLoopConfig c = {.title = "probe", .width = 320, .height = 200, .invisible_ok = true, .shot_dir = dir};
    WinLoop L;
    assert_true(winloop_open(&L, &c));
    Probe p;
    memset(&p, 0, sizeof p);
    WinScreen scr = probe_screen(&p);
    /* one frame: the pending event reaches the screen, then one advance
     * and one draw at the renderer's size */
    SDL_Event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = SDL_USEREVENT;
    SDL_PushEvent(&ev);
    assert_true(winloop_frame(&L, &scr, false));
    assert_int_equal(p.user_events, 1);
    assert_int_equal(p.advances, 1);
    assert_int_equal(p.draws, 1);
    int rw, rh;
    SDL_GetRendererOutputSize(L.r, &rw, &rh);
    assert_int_equal(p.draw_w, rw);
    assert_int_equal(p.draw_h, rh);
    assert_true(p.dt_min_us >= 0);
    /* a screenshot asked for: PREFIX-...-t0012.3.png in the folder, said */
    p.pending = WIN_SHOT;
    assert_true(winloop_frame(&L, &scr, false));
    assert_int_equal(p.messages, 1);
    char want[256];
    snprintf(want, sizeof want, "screenshot: %s/probe-", dir);
    assert_true(strncmp(p.said, want, strlen(want)) == 0);
    const char *path = p.said + strlen("screenshot: ");
    assert_non_null(strstr(path, "-t0012.3.png"));
    SDL_Surface *png = IMG_Load(path);
    assert_non_null(png);
    assert_int_equal(png->w, rw);
    assert_int_equal(png->h, rh);
    SDL_FreeSurface(png);
    remove(path);
    /* quit: the frame says so */
    p.quit = true;
    assert_false(winloop_frame(&L, &scr, false));
    winloop_close(&L);
    rmdir(dir);
}

static void bench_steps_a_sixtieth(void **state)
{
    (void)state;
    WinLoopConfig c = {.title = "probe", .width = 320, .height = 200, .invisible_ok = true};
    WinLoop L;
    assert_true(winloop_open(&L, &c));
    Probe p;
    memset(&p, 0, sizeof p);
    WinScreen scr = probe_screen(&p);
    winloop_bench(&L, &scr, 7);
    /* begun once, 7 frames of 1/60 s each (16667 us), one header line */
    assert_int_equal(p.begins, 1);
    assert_int_equal(p.advances, 7);
    assert_int_equal(p.draws, 7);
    assert_int_equal(p.dt_sum_us, 7 * 16667);
    assert_int_equal(p.dt_min_us, 16667);
    assert_int_equal(p.titles, 1);
    winloop_close(&L);
}

/* ---- window sizes and the overview's place ------------------------------ */

/* Issue 22: bare `netrace` on a 1024x768 display opened 1280x720 at x =
 * -128. The default is 1280x720 capped at the usable area; the window
 * stays on the display. The overview of every scheme goes beside a game
 * window the display holds twice, else (a 1024 display: halves would be
 * 512 wide) in the game's own window, whose size Tab leaves as it was.
 * SDL's dummy display is 1024x768. */
static void windows_fit_the_display(void **state)
{
    (void)state;
    int w, h;
    winloop_default_size(1024, 768, &w, &h);
    assert_true(w == 1024 && h == 720);
    winloop_default_size(1920, 1080, &w, &h);
    assert_true(w == 1280 && h == 720);
    winloop_default_size(800, 600, &w, &h);
    assert_true(w == 800 && h == 600);
    winloop_default_size(1280, 720, &w, &h);
    assert_true(w == 1280 && h == 720);
    WinLoopConfig c = {.title = "probe", .invisible_ok = true};
    WinLoop L;
    assert_true(winloop_open(&L, &c));
    SDL_Rect b;
    assert_int_equal(SDL_GetDisplayUsableBounds(0, &b), 0);
    int x, y;
    SDL_GetWindowSize(L.win, &w, &h);
    SDL_GetWindowPosition(L.win, &x, &y);
    assert_true(w == (b.w < 1280 ? b.w : 1280) && h == (b.h < 720 ? b.h : 720));
    assert_true(x >= b.x && y >= b.y && x + w <= b.x + b.w && y + h <= b.y + b.h);
    NrError err;
    Track *t = track_load(NETRACE_SOURCE_DIR "/tracks/default.track", &err);
    assert_non_null(t);
    OverWin ow;
    OverWinConfig oc = {.game = L.win, .game_r = L.r, .track = t};
    assert_true(overwin_open(&ow, &oc, &err));
    assert_true(overwin_in_place(&ow) == (2 * w > b.w && b.w / 2 < OVERWIN_MIN_W));
    SDL_Event key;
    memset(&key, 0, sizeof key);
    key.type = SDL_KEYDOWN;
    key.key.windowID = SDL_GetWindowID(L.win);
    key.key.keysym.sym = SDLK_F12;
    assert_true(overwin_owns(&ow, &key));
    assert_false(overwin_event(&ow, &key));
    assert_int_equal(overwin_requests(&ow), WIN_SHOT); /* the game's loop shoots what it shows */
    overwin_close(&ow);
    int w2, h2;
    SDL_GetWindowSize(L.win, &w2, &h2);
    assert_true(w2 == w && h2 == h);
    /* a small game window: the overview beside it, in a window of its own */
    SDL_SetWindowMinimumSize(L.win, 100, 100);
    SDL_SetWindowSize(L.win, b.w / 2 - 10, 300);
    assert_true(overwin_open(&ow, &oc, &err));
    assert_false(overwin_in_place(&ow));
    assert_non_null(ow.win);
    assert_false(overwin_owns(&ow, &key)); /* the game window's key stays the game's */
    overwin_close(&ow);
    track_free(t);
    winloop_close(&L);
}

/* ---- start lights ------------------------------------------------------ */

/* Runs of colour c along row y: how many lights of that colour are drawn. */
static int runs(SDL_Surface *s, int y, SDL_Color c)
{
    int n = 0;
    bool in = false;
    for (int x = 0; x < s->w; x++) {
        Uint32 v = ((Uint32 *)((Uint8 *)s->pixels + y * s->pitch))[x];
        SDL_Color p;
        SDL_GetRGBA(v, s->format, &p.r, &p.g, &p.b, &p.a);
        bool on = p.r == c.r && p.g == c.g && p.b == c.b;
        if (on && !in)
            n++;
        in = on;
    }
    return n;
}

static void lights_count_down_by_race_time(void **state)
{
    (void)state;
    GfxOffscreen o;
    NrError err = {{0}};
    assert_true(gfx_offscreen_open(&o, 640, 360, "lights", &err));
    Gfx g;
    gfx_init(&g, o.r, NULL); /* no text: only the discs */
    const float base = 12.0f;
    const int row = (int)(base * 7.0f); /* the lights' centre line */
    const SDL_Color red = {240, 30, 30, 255};
    /* race time (us) -> lit red lights, green lights: one more lit each
     * second from 5 s before the start, all green for the first second,
     * nothing before or after */
    const struct {
        int64_t t;
        int red, green;
    } cases[] = {
        {-5000001, 0, 0}, {-5000000, 1, 0}, {-4000001, 1, 0}, {-4000000, 2, 0}, {-2500000, 3, 0},
        {-1, 5, 0},       {0, 0, 5},        {999999, 0, 5},   {1000000, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        SDL_SetRenderDrawColor(o.r, 0, 0, 0, 255);
        SDL_RenderClear(o.r);
        widget_lights(&g, base, 640, cases[i].t);
        SDL_RenderPresent(o.r);
        assert_int_equal(runs(o.surf, row, red), cases[i].red);
        assert_int_equal(runs(o.surf, row, PAL_GO), cases[i].green);
    }
    gfx_free(&g);
    gfx_offscreen_close(&o);
}

/* The lights' panel is as large as widget_lights_size says (the 2 x 2
 * grid sizes each screen's lights by it): at base 10 each light 14 px in
 * radius, gaps of 9.8, so 5 x 28 + 6 x 9.8 = 198.8 by 28 + 2 x 9.8 =
 * 47.6; drawn on white at bases 8, 10 and 17.5, the pixels not white span
 * that size (a pixel of rounding) centred where asked. */
static void lights_panel_is_its_size(void **state)
{
    (void)state;
    GfxOffscreen o;
    NrError err = {{0}};
    assert_true(gfx_offscreen_open(&o, 640, 360, "lights", &err));
    Gfx g;
    gfx_init(&g, o.r, NULL);
    float w, h;
    widget_lights_size(10.0f, &w, &h);
    assert_true(fabsf(w - 198.8f) < 1e-3f && fabsf(h - 47.6f) < 1e-3f);
    const float bases[3] = {8.0f, 10.0f, 17.5f};
    for (int b = 0; b < 3; b++) {
        SDL_SetRenderDrawColor(o.r, 255, 255, 255, 255);
        SDL_RenderClear(o.r);
        widget_lights_at(&g, bases[b], 320, 180, -2500000); /* three lit */
        SDL_RenderPresent(o.r);
        int x0 = o.surf->w, x1 = -1, y0 = o.surf->h, y1 = -1;
        for (int y = 0; y < o.surf->h; y++)
            for (int x = 0; x < o.surf->w; x++) {
                Uint32 v = ((Uint32 *)((Uint8 *)o.surf->pixels + y * o.surf->pitch))[x];
                if ((v & 0xffffffu) != 0xffffffu) {
                    x0 = x < x0 ? x : x0;
                    x1 = x > x1 ? x : x1;
                    y0 = y < y0 ? y : y0;
                    y1 = y > y1 ? y : y1;
                }
            }
        widget_lights_size(bases[b], &w, &h);
        assert_true(fabsf((float)(x1 + 1 - x0) - w) <= 1.0f && fabsf((float)(y1 + 1 - y0) - h) <= 1.0f);
        assert_true(fabsf((float)(x0 + x1 + 1) / 2 - 320) <= 1.0f && fabsf((float)(y0 + y1 + 1) / 2 - 180) <= 1.0f);
    }
    gfx_free(&g);
    gfx_offscreen_close(&o);
}

/* A text box (results, pause, a message) over the track hides it: inside
 * the frame every pixel is the box's colour whatever was under it (the
 * boxes were 90 % opaque: over white asphalt lines 40,42,47 showed). */
static void boxes_are_opaque(void **state)
{
    (void)state;
    GfxOffscreen o;
    NrError err = {{0}};
    assert_true(gfx_offscreen_open(&o, 200, 100, "box", &err));
    const SDL_Color under[3] = {{255, 255, 255, 255}, {205, 45, 40, 255}, {0, 0, 0, 255}};
    for (int i = 0; i < 3; i++) {
        SDL_SetRenderDrawColor(o.r, under[i].r, under[i].g, under[i].b, 255);
        SDL_RenderClear(o.r);
        widget_panel(o.r, 20, 10, 160, 80, PAL_ACCENT);
        SDL_RenderPresent(o.r);
        /* rows 11..88 inside the frame: from x = 21 to 178, one run of the box's colour */
        for (int y = 11; y < 89; y += 7) {
            assert_int_equal(runs(o.surf, y, PAL_BOX), 1);
            Uint32 v = ((Uint32 *)((Uint8 *)o.surf->pixels + y * o.surf->pitch))[100];
            SDL_Color p;
            SDL_GetRGBA(v, o.surf->format, &p.r, &p.g, &p.b, &p.a);
            assert_true(p.r == PAL_BOX.r && p.g == PAL_BOX.g && p.b == PAL_BOX.b);
        }
    }
    gfx_offscreen_close(&o);
}

/* ---- the HUD's race lines ---------------------------------------------- */

static void hud_lines_as_the_terminal_saw_them(void **state)
{
    (void)state;
    RaceFlow rf;
    RaceFlowConfig c = {.laps = 3, .lap_cw = 100};
    raceflow_init(&rf, &c);
    rf.phase = RF_RACING;
    /* terminal 1 saw its own car cross the line at 30 s and 62.5 s */
    rf.laps[0][0] = 2;
    rf.cross_us[0][0][0] = 30000000;
    rf.cross_us[0][0][1] = 62500000;
    Hud h;
    memset(&h, 0, sizeof h);
    widget_hud_race(&rf, 0, 70040000, &h);
    assert_string_equal(h.centre, "Lap 3/3");
    assert_string_equal(h.lap, "0:07.5");    /* 70.04 - 62.5 s, in tenths */
    assert_string_equal(h.best, "0:30.000"); /* laps of 30 s and 32.5 s */
    /* finished: the finish time, the last lap's time with milliseconds */
    rf.laps[0][0] = 3;
    rf.cross_us[0][0][2] = 93750000;
    widget_hud_race(&rf, 0, 95000000, &h);
    assert_string_equal(h.centre, "Finished 1:33.750");
    assert_string_equal(h.lap, "0:31.250");
    assert_string_equal(h.best, "0:30.000");
    /* the paper's 30 s race: the time left in tenths; before the start, 0 */
    RaceFlowConfig t = {.laps = 1, .duration_us = 30000000, .lap_cw = 100};
    raceflow_init(&rf, &t);
    rf.phase = RF_RACING;
    widget_hud_race(&rf, 1, 10040000, &h);
    assert_string_equal(h.centre, "0:19.9 left");
    assert_string_equal(h.lap, "0:10.0");
    assert_string_equal(h.best, "");
    widget_hud_race(&rf, 1, -2000000, &h);
    assert_string_equal(h.centre, "0:30.0 left");
    /* after the limit (a network session's clock runs on): the lap clock
     * stops at 30 s with the race */
    rf.phase = RF_DONE;
    widget_hud_race(&rf, 1, 41250000, &h);
    assert_string_equal(h.centre, "0:00.0 left");
    assert_string_equal(h.lap, "0:30.0");
}

/* Issue 22: "1 laps". A 3-lap race where terminal 1 saw car 1 finish its
 * first lap only, and a 1-lap race it finished: one lap, singular. */
static void results_say_one_lap(void **state)
{
    (void)state;
    RaceFlow rf;
    RaceFlowConfig c = {.laps = 3, .lap_cw = 100};
    raceflow_init(&rf, &c);
    rf.phase = RF_RACING;
    rf.laps[0][0] = 1;
    rf.cross_us[0][0][0] = 30000000;
    char lines[2][160];
    widget_result_lines(&rf, 0, lines);
    bool seen = false;
    for (int i = 0; i < 2; i++) {
        assert_null(strstr(lines[i], "1 laps"));
        seen = seen || strstr(lines[i], "not seen finishing (1 lap)") != NULL;
    }
    assert_true(seen);
    RaceFlowConfig one = {.laps = 1, .lap_cw = 100};
    raceflow_init(&rf, &one);
    rf.phase = RF_RACING;
    rf.laps[0][0] = 1;
    rf.cross_us[0][0][0] = 30000000;
    widget_result_lines(&rf, 0, lines);
    assert_non_null(strstr(lines[0], "0:30.000  lap 0:30.000"));
}

/* ---- the network window's cars --------------------------------------- */

/* A dead-reckoning prediction between updates carries no sample (seq -1):
 * the network window drew the peer's car on its grid slot for it (the
 * countdown's rule), so under DR the peer sat behind the start line most
 * of the race. Only the countdown shows the grid. */
static void network_screen_draws_predictions(void **state)
{
    (void)state;
    Pose predicted = {120.5, -3.25, 0.5, -1}, sample = {118.0, -3.0, 0.5, 41}, grid = {-6.0, 1.5, 0.0, -1};
    Pose out;
    netwin_race_pose(false, &predicted, &grid, &out);
    assert_true(out.x == 120.5 && out.y == -3.25 && out.heading == 0.5);
    netwin_race_pose(false, &sample, &grid, &out);
    assert_true(out.x == 118.0 && out.seq == 41);
    netwin_race_pose(true, &predicted, &grid, &out);
    assert_true(out.x == -6.0 && out.y == 1.5);
}

static void drop_forward(void *ctx, const MediumDelivery *d)
{
    (void)ctx;
    (void)d; /* what would go to the peer: not needed here */
}

/* The overview of a network race said "at the peer" for every screen of
 * the peer, though its VIEW packets carry them: the peer's screen under
 * each scheme is its latest view (the cars where it showed them, the
 * progress of the samples shown), captioned with how old it is. */
static void overview_shows_the_peer(void **state)
{
    (void)state;
    NrError err;
    Track *t = track_load(NETRACE_SOURCE_DIR "/tracks/default.track", &err);
    assert_non_null(t);
    EngineConfig cfg = {.track = t, .period_ms = 33, .params = scheme_default_params(), .remote = {false, true},
                        .hooks = {.forward = drop_forward}};
    cfg.nschemes = scheme_parse_list("nc,dr", cfg.schemes, SCHEME_MAX, &err);
    assert_int_equal(cfg.nschemes, 2);
    Engine *e = engine_new(&cfg, &err);
    if (!e)
        fail_msg("%s", err.msg);
    RaceData d;
    memset(&d, 0, sizeof d);
    assert_false(netwin_race_peer(e, 0, 1, 0, &d)); /* no VIEW yet: the screen is not known */
    assert_false(d.known[0][1]);
    double gx[2], gy[2], gh, gs[2];
    CarPose grid[2];
    for (int c = 0; c < 2; c++) {
        track_grid(t, c, &gx[c], &gy[c], &gh, &gs[c]);
        grid[c] = (CarPose){gx[c], gy[c], gh, 0.0};
    }
    for (int i = 0; i < 2; i++) {
        assert_true(engine_push(e, grid, 2, 0));
        engine_step_to(e, i * 33000);
    }
    /* the peer's view of sample 1: under nc both cars at their sample 1
     * (the grid); under dr car 0 predicted 3 cw ahead of its grid slot */
    double ahead = gs[0] + 3.0, px, py;
    track_point(t, ahead, &px, &py, NULL);
    ShownCar shown[4] = {{gx[0], gy[0], 1}, {gx[1], gy[1], 1}, {px, py, -1}, {gx[1], gy[1], 1}};
    TerminalView v = {.seq = 1, .nschemes = 2, .ncars = 2, .progress = gs[1], .car = shown};
    assert_true(engine_put_view(e, 1, &v));
    int64_t now = 100 * NR_US_PER_MS; /* the view of sample 1 (33 ms) is 67 ms old */
    for (int k = 0; k < 2; k++) {
        assert_true(netwin_race_peer(e, k, 1, now, &d));
        assert_true(d.known[k][1]);
        assert_int_equal(d.late_us[1], 67 * NR_US_PER_MS);
        const EngineView *ev = &d.view[k][1];
        for (int c = 0; c < 2; c++) {
            assert_true(ev->pose[c].x == shown[2 * k + c].x && ev->pose[c].y == shown[2 * k + c].y);
            assert_int_equal(ev->pose[c].seq, shown[2 * k + c].seq);
        }
        assert_true(ev->progress[1] == gs[1]); /* the progress the view carried */
        assert_int_equal(ev->lap[0], 0);
    }
    assert_true(fabs(d.view[0][1].progress[0] - gs[0]) < 1e-6); /* the grid sample shown */
    assert_true(fabs(d.view[1][1].progress[0] - ahead) < 1e-6);  /* projected near the truth */
    /* car 0's slot is ahead of car 1's; the prediction only more so */
    assert_true(gs[0] > gs[1]);
    assert_int_equal(d.view[0][1].leader, 0);
    assert_int_equal(d.view[1][1].leader, 0);
    char cap[48];
    app_view_caption(1, d.late_us[1], true, cap, sizeof cap);
    assert_string_equal(cap, "P2 screen 67 ms ago");
    app_view_caption(1, d.late_us[1], false, cap, sizeof cap);
    assert_string_equal(cap, "P2 67ms ago");
    app_view_caption(0, 0, true, cap, sizeof cap);
    assert_string_equal(cap, "P1 screen");
    app_view_caption(0, 0, false, cap, sizeof cap);
    assert_string_equal(cap, "P1");
    /* after the race the peer's last VIEW ages with the clock: "P2 screen
     * 19800 ms ago" pushed the name out of the overview's caption (issue
     * 22's trial: blank captions in host --watch after the race) */
    app_view_caption(1, 4999 * NR_US_PER_MS, true, cap, sizeof cap);
    assert_string_equal(cap, "P2 screen 4999 ms ago");
    app_view_caption(1, 5000 * NR_US_PER_MS, true, cap, sizeof cap);
    assert_string_equal(cap, "P2 last view");
    app_view_caption(1, 19800 * NR_US_PER_MS, false, cap, sizeof cap);
    assert_string_equal(cap, "P2 last");
    engine_free(e);
    track_free(t);
}

/* The pause box said "the peer has been silent for X s" even when this
 * terminal itself had stalled: it says which end stopped. */
static void pause_box_says_which_end(void **state)
{
    (void)state;
    char why[160];
    SessionStatus st = {.phase = SESSION_RACING, .paused = true, .silent_us = 4200 * NR_US_PER_MS};
    st.pause_cause = NETSESSION_PAUSE_PEER_SILENT;
    const char *next = netwin_race_pause_text(&st, why, sizeof why);
    assert_string_equal(why, "the peer has been silent for 4.2 s");
    assert_non_null(strstr(next, "heard again"));
    st.pause_cause = NETSESSION_PAUSE_STALLED;
    st.stalled_us = 5030 * NR_US_PER_MS;
    next = netwin_race_pause_text(&st, why, sizeof why);
    assert_string_equal(why, "this terminal stalled: it was not run for 5.0 s");
    assert_non_null(strstr(next, "one race time"));
    st.pause_cause = NETSESSION_PAUSE_PEER;
    netwin_race_pause_text(&st, why, sizeof why);
    assert_non_null(strstr(why, "the peer paused"));
}

/* Keys into the prompt's text: lower case kept upper, the dash optional,
 * other keys ignored, Backspace drops one, Enter gives the canonical code
 * (wirecrypt.h: 10 characters of Crockford's base 32) or says it is none. */
static int type_keys(char *typed, size_t cap, const char *keys, char *code)
{
    int r = NETWIN_CODE_TYPING;
    for (const char *k = keys; *k; k++)
        r = netwin_code_key(typed, cap, *k == '<' ? SDLK_BACKSPACE : *k == '\n' ? SDLK_RETURN : *k, code);
    return r;
}

static void code_prompt_keys(void **state)
{
    (void)state;
    char typed[NETWIN_CODE_TYPED] = "", code[WIRECRYPT_CODE_CHARS + 1] = "";
    assert_int_equal(type_keys(typed, sizeof typed, "ab3de-fgh.,jk", code), NETWIN_CODE_TYPING);
    assert_string_equal(typed, "AB3DE-FGHJK"); /* '.' and ',' are not the code's */
    assert_int_equal(type_keys(typed, sizeof typed, "<<", code), NETWIN_CODE_TYPING);
    assert_string_equal(typed, "AB3DE-FGH");
    assert_int_equal(type_keys(typed, sizeof typed, "\n", code), NETWIN_CODE_BAD); /* 8 characters */
    assert_int_equal(type_keys(typed, sizeof typed, "x9\n", code), NETWIN_CODE_DONE);
    assert_string_equal(code, "AB3DEFGHX9");
    /* without the dash, and Backspace on nothing does nothing */
    char t2[NETWIN_CODE_TYPED] = "";
    assert_int_equal(type_keys(t2, sizeof t2, "<0123456789\n", code), NETWIN_CODE_DONE);
    assert_string_equal(code, "0123456789");
    /* the text stops at its capacity (4 bytes: 3 characters and the NUL) */
    char t3[4] = "";
    type_keys(t3, sizeof t3, "abcdef", code);
    assert_string_equal(t3, "ABC");
}

/* The host's window before a joiner: the code to type, and the port. */
static void waiting_screen_shows_the_code(void **state)
{
    (void)state;
    NetRace nr;
    memset(&nr, 0, sizeof nr);
    nr.host = true;
    nr.port = 41000;
    strcpy(nr.code, "AB3DE-FGHX9");
    char l2[160], l3[160];
    const char *title = netwin_race_wait_text(&nr, l2, l3, sizeof l2);
    assert_string_equal(title, "Waiting for a joiner");
    assert_non_null(strstr(l2, "AB3DE-FGHX9"));
    assert_non_null(strstr(l3, ":41000"));
    nr.host = false;
    netwin_race_wait_text(&nr, l2, l3, sizeof l2);
    assert_non_null(strstr(l2, "AB3DE-FGHX9"));
    assert_non_null(strstr(l3, "no answer"));
}

/* Issue 22: the network window's H help names every key its window takes
 * (scr_event in netwin.c), each as a word of a line. */
static void network_help_lists_every_key(void **state)
{
    (void)state;
    static const char *const keys[] = {"W",  "S",  "A",   "D",   "Up", "Down", "Left", "Right", "Tab", "C",
                                       "M",  "F2", "F3",  "F11", "F12", "H",   "F1",   "Q",     "Esc", "Enter"};
    int n = 0;
    const char *const *lines = netwin_help_lines(&n);
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        bool found = false;
        size_t wl = strlen(keys[k]);
        for (int i = 0; i < n && !found; i++)
            for (const char *p = strstr(lines[i], keys[k]); p && !found; p = strstr(p + 1, keys[k]))
                found = (p == lines[i] || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[wl]);
        if (!found)
            fail_msg("the network window's help does not list %s", keys[k]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(network_help_lists_every_key),
        cmocka_unit_test(loop_drives_the_screen),
        cmocka_unit_test(bench_steps_a_sixtieth),
        cmocka_unit_test(windows_fit_the_display),
        cmocka_unit_test(lights_count_down_by_race_time),
        cmocka_unit_test(lights_panel_is_its_size),
        cmocka_unit_test(boxes_are_opaque),
        cmocka_unit_test(hud_lines_as_the_terminal_saw_them),
        cmocka_unit_test(results_say_one_lap),
        cmocka_unit_test(network_screen_draws_predictions),
        cmocka_unit_test(overview_shows_the_peer),
        cmocka_unit_test(pause_box_says_which_end),
        cmocka_unit_test(code_prompt_keys),
        cmocka_unit_test(waiting_screen_shows_the_code),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
