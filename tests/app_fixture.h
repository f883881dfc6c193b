/* The replay window's test fixture, without a window: a ring track, a
 * race of two cars 40 car widths apart at 10 cw/s, a replay of every
 * scheme over 50 / 80 ms links and the window's state drawing into a
 * 1280x720 memory surface (software renderer). cmocka's group setup and
 * teardown: app_fixture_setup / app_fixture_teardown.
 * Header-only: static inline helpers for the test programs that include it
 * (test_app.c, test_app_input.c, test_app_layers.c; test_app_tiles.c and
 * test_nrace_window.c use app_canvas_open / app_canvas_close, the drawing
 * context under their own race); frames_differ compares a frame drawn
 * through the layers with one drawn directly. */
#ifndef NR_APP_FIXTURE_H
#define NR_APP_FIXTURE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"

/* A circle of radius 60 car widths, counter-clockwise, 24 control points. */
static inline Track *ring_track(void)
{
    char text[4096];
    int n = snprintf(text, sizeof text, "netrace-track 1\nname Test Ring\nwidth 8\n");
    for (int i = 0; i < 24; i++) {
        double a = 2.0 * NR_PI * i / 24.0;
        n += snprintf(text + n, sizeof text - (size_t)n, "point %.4f %.4f\n", 60.0 * cos(a), 60.0 * sin(a));
    }
    NrError err = {{0}};
    Track *t = track_parse(text, "ring", &err);
    if (!t)
        fprintf(stderr, "%s\n", err.msg);
    return t;
}

/* Car 0 at s = 20 + 10 t and car 1 at s = 60 + 10 t (car widths, t in s),
 * on the centre line: 40 car widths apart all race, car 2 always ahead. */
static inline void ring_recording(Recording *rec, const Track *t, int nsamples)
{
    memset(rec, 0, sizeof *rec);
    rec->version = RECORDING_VERSION;
    snprintf(rec->track, sizeof rec->track, "ring.track");
    snprintf(rec->source, sizeof rec->source, "autopilot");
    rec->period_ms = 33;
    rec->ncars = 2;
    rec->nsamples = nsamples;
    rec->samples = calloc((size_t)(2 * nsamples), sizeof(RecSample));
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < nsamples; i++) {
            RecSample *r = &rec->samples[c * nsamples + i];
            double tt = i * 0.033, x, y, h;
            track_point(t, (c ? 60.0 : 20.0) + 10.0 * tt, &x, &y, &h);
            r->t_ms = i * 33;
            r->x = x;
            r->y = y;
            r->heading = h;
            r->speed = 10.0;
        }
}

/* The drawing without a window: SDL's events and SDL_ttf started, a w x h
 * ARGB8888 memory surface, a software renderer on it and a zeroed AppState
 * for the caller to init. False if any of them fails. */
static inline bool app_canvas_open(int w, int h, SDL_Surface **surf, SDL_Renderer **r, AppState **s)
{
    if (TTF_Init() != 0 || SDL_Init(SDL_INIT_EVENTS) != 0)
        return false;
    *surf = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
    *r = *surf ? SDL_CreateSoftwareRenderer(*surf) : NULL;
    *s = calloc(1, sizeof **s);
    return *r && *s;
}

/* Their end: the state's textures and fonts, the renderer, the surface,
 * SDL and SDL_ttf. */
static inline void app_canvas_close(SDL_Surface *surf, SDL_Renderer *r, AppState *s)
{
    app_state_free(s);
    free(s);
    if (r)
        SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
    SDL_Quit();
    TTF_Quit();
}

typedef struct Fixture {
    Track *track;
    Recording rec;
    LinkSpec link[2];
    Replay *rp;
    Engine *e;
    SDL_Surface *surf;
    SDL_Renderer *r;
    AppState *s;
} Fixture;

/* Every scheme over the fixture's track and links, seeded, with history. */
static inline void app_fixture_config(const Fixture *f, uint64_t seed, EngineConfig *ec)
{
    NrError err = {{0}};
    memset(ec, 0, sizeof *ec);
    ec->track = f->track;
    ec->link[0] = &f->link[0];
    ec->link[1] = &f->link[1];
    ec->seed = seed;
    ec->params = scheme_default_params();
    ec->nschemes = scheme_parse_list("all", ec->schemes, SCHEME_MAX, &err);
    ec->keep_history = true;
}

static inline int app_fixture_setup(void **state)
{
    Fixture *f = calloc(1, sizeof *f);
    f->track = ring_track();
    if (!f->track)
        return -1;
    ring_recording(&f->rec, f->track, 304); /* 10 s */
    NrError err = {{0}};
    if (!linkspec_parse(&f->link[0], "delay 50ms", NULL, &err) ||
        !linkspec_parse(&f->link[1], "delay 80ms", NULL, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    EngineConfig ec;
    app_fixture_config(f, 7, &ec);
    if (ec.nschemes < 1)
        return -1;
    f->rp = replay_new(&ec, &f->rec, false, &err);
    if (!f->rp) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    f->e = replay_engine(f->rp);
    if (!app_canvas_open(1280, 720, &f->surf, &f->r, &f->s))
        return -1;
    AppConfig cfg = app_config_default();
    cfg.replay = f->rp;
    if (!app_state_init(f->s, f->rp, &cfg, f->r, &err))
        return -1;
    *state = f;
    return 0;
}

static inline int app_fixture_teardown(void **state)
{
    Fixture *f = *state;
    app_canvas_close(f->surf, f->r, f->s);
    replay_free(f->rp);
    recording_free(&f->rec);
    linkspec_free(&f->link[0]);
    linkspec_free(&f->link[1]);
    track_free(f->track);
    free(f);
    return 0;
}

/* The cached layers (strip charts, control bar) change nothing in the
 * picture: a frame drawn through them equals one drawn directly, but for a
 * few pixels of line rasterisation at other float offsets (a stale layer
 * differs by hundreds: a moved selection box, a new curve segment). */
#define LAYER_PIXEL_SLACK 40

/* A frame drawn through the layers (returned, malloc'd), then the same one
 * drawn directly (left in f->surf). */
static inline Uint8 *frame_both_ways(Fixture *f)
{
    f->s->no_layers = false;
    app_draw(f->s, 1280, 720);
    SDL_RenderPresent(f->r);
    size_t bytes = (size_t)f->surf->pitch * (size_t)f->surf->h;
    Uint8 *cached = malloc(bytes);
    memcpy(cached, f->surf->pixels, bytes);
    f->s->no_layers = true;
    app_draw(f->s, 1280, 720);
    SDL_RenderPresent(f->r);
    f->s->no_layers = false;
    return cached;
}

static inline size_t frames_differ(Fixture *f)
{
    bool paused = f->s->paused;
    f->s->paused = true; /* paused: every gauge string is current in both frames */
    Uint8 *cached = frame_both_ways(f);
    size_t bytes = (size_t)f->surf->pitch * (size_t)f->surf->h, differ = 0; /* pixels */
    for (size_t i = 0; i < bytes; i += 4)
        differ += memcmp(cached + i, (Uint8 *)f->surf->pixels + i, 4) != 0;
    free(cached);
    f->s->paused = paused;
    return differ;
}

#endif
