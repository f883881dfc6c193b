/* Nothing cut (issue 22, "a window a classroom can read"): every layout of
 * the replay window (overview, focus, help), drawn offscreen at the sizes
 * of projectors and laptops (960x540 .. 1920x1080) and at a larger text
 * scale, with every scheme, keeps every string inside its panel, button or
 * strip and inside the window, and no string over another
 * (tests/text_audit.h). The text layer records each string's box and its
 * room while auditing (gfx_audit_start), the way test_app's road test
 * scans the track's pixels. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"
#include "netrace_config.h"
#include "text_audit.h"

typedef struct Size {
    int w, h;
    double scale;
} Size;

/* Projectors (1024x768, 1024x576), a 720p laptop, half of a 1920 display
 * (two windows side by side), full HD; larger text on 720p and 768p. */
static const Size sizes[] = {
    {1024, 768, 1.0}, {1280, 720, 1.0}, {1920, 1080, 1.0}, {960, 540, 1.0},
    {1024, 576, 1.0}, {1280, 720, 1.5}, {1024, 768, 1.25},
};
enum { NSIZES = (int)(sizeof sizes / sizeof sizes[0]) };

typedef struct Race {
    Track *track;
    Recording rec;
    LinkSpec link;
    Replay *rp;
} Race;

static bool race_open(Race *f, const char *recording, const char *schemes)
{
    memset(f, 0, sizeof *f);
    NrError err = {{0}};
    char path[1024];
    snprintf(path, sizeof path, "%s/recordings/%s", NETRACE_SOURCE_DIR, recording);
    if (!recording_load(&f->rec, path, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return false;
    }
    snprintf(path, sizeof path, "%s/tracks/%s", NETRACE_SOURCE_DIR, f->rec.track);
    f->track = track_load(path, &err);
    if (!f->track || !linkspec_parse(&f->link, "delay 75ms 10ms distribution paretonormal", NULL, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return false;
    }
    EngineConfig ec;
    memset(&ec, 0, sizeof ec);
    ec.track = f->track;
    ec.ncars = f->rec.ncars;
    for (int c = 0; c < f->rec.ncars; c++)
        ec.link[c] = &f->link;
    ec.seed = 1;
    ec.params = scheme_default_params();
    ec.nschemes = scheme_parse_list(schemes, ec.schemes, SCHEME_MAX, &err);
    ec.keep_history = true;
    f->rp = ec.nschemes > 0 ? replay_new(&ec, &f->rec, false, &err) : NULL;
    if (!f->rp)
        fprintf(stderr, "%s\n", err.msg);
    return f->rp != NULL;
}

static void race_close(Race *f)
{
    replay_free(f->rp);
    recording_free(&f->rec);
    linkspec_free(&f->link);
    track_free(f->track);
}

/* One frame of the window at size z on a memory surface, audited. */
static int audit_frame(AppState *s, GfxAudit *a, const Size *z, const char *what)
{
    char name[160];
    snprintf(name, sizeof name, "%s %dx%d scale %g", what, z->w, z->h, z->scale);
    s->scale = z->scale;
    gfx_audit_start(&s->gfx, a);
    app_draw(s, z->w, z->h);
    gfx_audit_stop(&s->gfx);
    if (s->gfx.has_font && a->n < 10) {
        fprintf(stderr, "%s: only %d strings drawn\n", name, a->n);
        return 1;
    }
    return text_audit_faults(a, name);
}

/* Every layout of one replay at every size: the overview, each scheme's
 * focus, the help over both. */
static int audit_replay(const char *recording, const char *schemes, int64_t t_us)
{
    Race f;
    if (!race_open(&f, recording, schemes))
        return 1;
    replay_step_to(f.rp, t_us);
    int bad = 0;
    GfxAudit *a = calloc(1, sizeof *a);
    for (int i = 0; i < NSIZES; i++) {
        const Size *z = &sizes[i];
        SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, z->w, z->h, 32, SDL_PIXELFORMAT_ARGB8888);
        SDL_Renderer *r = surf ? SDL_CreateSoftwareRenderer(surf) : NULL;
        AppState *s = calloc(1, sizeof *s);
        AppConfig cfg = app_config_default();
        cfg.replay = f.rp;
        cfg.title = recording;
        NrError err = {{0}};
        if (!r || !s || !app_state_init(s, f.rp, &cfg, r, &err)) {
            bad++;
            continue;
        }
        s->paused = true;
        s->no_layers = true; /* the layers' coordinates are their own: audit the frame itself */
        char what[96];
        snprintf(what, sizeof what, "%s, %s, overview", recording, schemes);
        bad += audit_frame(s, a, z, what);
        s->help = true;
        snprintf(what, sizeof what, "%s, %s, help", recording, schemes);
        bad += audit_frame(s, a, z, what);
        s->help = false;
        for (int k = 0; k < s->data.n; k++) {
            s->focus = k;
            snprintf(what, sizeof what, "%s, %s, focus %d", recording, schemes, k + 1);
            bad += audit_frame(s, a, z, what);
        }
        s->focus = -1;
        app_state_free(s);
        free(s);
        SDL_DestroyRenderer(r);
        SDL_FreeSurface(surf);
    }
    free(a);
    race_close(&f);
    return bad;
}

static void replay_layouts_cut_nothing(void **state)
{
    (void)state;
    int bad = 0;
    bad += audit_replay("default.csv", "every", 10 * NR_US_PER_S);
    bad += audit_replay("default.csv", "all", 10 * NR_US_PER_S);
    bad += audit_replay("default.csv", "racing", 10 * NR_US_PER_S);
    bad += audit_replay("close.csv", "nc", 20 * NR_US_PER_S);
    assert_int_equal(bad, 0);
}

static int setup(void **state)
{
    (void)state;
    return TTF_Init() == 0 && SDL_Init(SDL_INIT_EVENTS) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    SDL_Quit();
    TTF_Quit();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(replay_layouts_cut_nothing),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
