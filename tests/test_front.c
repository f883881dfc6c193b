/* The front end's shared parts without a display: the one window loop drives
 * a screen's callbacks (events, advance on the wall time, draw at the
 * renderer's size, screenshots, quit, the benchmark's fixed 1/60 s steps);
 * the start lights count down by the race time; the HUD's race lines as a
 * terminal saw them; the network window draws a predicted car where it is
 * predicted. SDL_VIDEODRIVER=dummy. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <SDL_image.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "netwin_race.h"
#include "widgets.h"
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(loop_drives_the_screen),
        cmocka_unit_test(bench_steps_a_sixtieth),
        cmocka_unit_test(lights_count_down_by_race_time),
        cmocka_unit_test(hud_lines_as_the_terminal_saw_them),
        cmocka_unit_test(results_say_one_lap),
        cmocka_unit_test(network_screen_draws_predictions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
