/* The driving screens' widgets keep off each other (issue 22's trial D4:
 * an off-screen car's arrow on the speedometer, a label over the minimap's
 * frame, a label over its own arrow, the "text x1.25" notice over a line of
 * the H help): in the game at 1024x768, 1280x720 and 1920x1080, two seats
 * side by side and a 2 x 2 grid, each screen's arrows towards the other
 * cars put all round it (every 6 degrees, near and far, with and without a
 * message box), the arrows' boxes and their labels meet none of the
 * speedometer, the minimap, the HUD strip and the message box, no label
 * meets an arrow or another label, all inside the screen; the help and the
 * pause box with a message show every line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivehud.h"
#include "fit_fixture.h"
#include "fit_game.h"
#include "widgets.h"

static bool meet(const SDL_FRect *a, const SDL_FRect *b)
{
    return a->w > 0 && b->w > 0 && a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h &&
           b->y < a->y + a->h;
}

static bool within(const SDL_FRect *a, const SDL_FRect *r)
{
    return a->x >= r->x && a->y >= r->y && a->x + a->w <= r->x + r->w && a->y + a->h <= r->y + r->h;
}

/* The widgets of screen j in a w x h window the arrows keep off: the
 * speedometer, the minimap, the HUD strip, the message box (w 0: none). */
static int widgets_of(PlayState *ps, int j, int w, int h, const SDL_FRect *msg, SDL_FRect out[4])
{
    SDL_FRect r = play_screen_rect(ps, j, w, h), room = drivehud_room(&ps->hud[j], ps->view, &r);
    memset(out, 0, 4 * sizeof out[0]);
    drivewidget_speedo_rect(ps->view, &room, &out[0]);
    widget_minimap_rect(ps->view, &r, &out[1]);
    out[2] = (SDL_FRect){r.x, r.y, r.w, drivehud_top_px(ps->view)};
    out[3] = *msg;
    return 4;
}

static const char *const widget_name[4] = {"speedometer", "minimap", "HUD strip", "message"};

/* Screen j drawn with the other cars at the given bearings (degrees,
 * world) and distance (cw) from its own car; faults counted. */
static int screen_clear(PlayState *ps, int j, int w, int h, const SDL_FRect *msg, const double *deg, int n,
                        double dist_cw, const char *what)
{
    SDL_FRect rect = play_screen_rect(ps, j, w, h), wid[4];
    widgets_of(ps, j, w, h, msg, wid);
    AppXform x;
    play_view_xform(ps, j, &rect, &x);
    Pose own;
    play_shown_pose(ps, j, j, &own);
    DriveHudOthers o = {.n = 0, .me = j, .own = own, .keep_clear = *msg, .minimap = wid[1]};
    for (int i = 0; i < n; i++) {
        o.car[o.n] = (j + 1 + i) % ps->nseats;
        o.pose[o.n] = own;
        o.pose[o.n].x += dist_cw * cos(deg[i] * NR_PI / 180);
        o.pose[o.n].y += dist_cw * sin(deg[i] * NR_PI / 180);
        o.n++;
    }
    drivehud_draw(&ps->hud[j], ps->view, &x, &o);
    const DriveHud *hd = &ps->hud[j];
    int bad = 0;
    for (int a = 0; a < hd->narrows; a++) {
        const SDL_FRect *box[2] = {&hd->arrow_box[a], &hd->label_box[a]};
        for (int b = 0; b < 2; b++) {
            if (box[b]->w <= 0)
                continue;
            for (int k = 0; k < 4; k++)
                if (meet(box[b], &wid[k])) {
                    fprintf(stderr, "%s: P%d's %s %d at (%.0f, %.0f %.0fx%.0f) over its %s\n", what, j + 1,
                            b ? "label" : "arrow", a + 1, box[b]->x, box[b]->y, box[b]->w, box[b]->h, widget_name[k]);
                    bad++;
                }
            if (!within(box[b], &rect)) {
                fprintf(stderr, "%s: P%d's %s %d outside the screen\n", what, j + 1, b ? "label" : "arrow", a + 1);
                bad++;
            }
        }
        for (int q = 0; q < hd->narrows; q++) /* a label over any arrow (its own too) or another label */
            if (meet(&hd->label_box[a], &hd->arrow_box[q]) || (q != a && meet(&hd->label_box[a], &hd->label_box[q]))) {
                fprintf(stderr, "%s: P%d's label %d over %s %d\n", what, j + 1, a + 1,
                        meet(&hd->label_box[a], &hd->arrow_box[q]) ? "arrow" : "label", q + 1);
                bad++;
            }
    }
    return bad;
}

/* Every screen at every size, the other cars all round. Returns the
 * faults and how many arrows were drawn (the test must see some). */
static int hud_layouts(Canvas *c, PlayState *ps, int *arrows)
{
    static const Size sizes[] = {{1024, 768, 1.0}, {1280, 720, 1.0}, {1920, 1080, 1.0}, {1280, 720, 1.5}};
    int bad = 0;
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        int w = sizes[z].w, h = sizes[z].h;
        canvas_at(c, &sizes[z]);
        ps->view->scale = sizes[z].scale;
        play_frame_scale(ps->view, w, h);
        float l = (float)gfx_line_h(&ps->view->gfx, GFX_NORMAL);
        SDL_FRect none = {0, 0, 0, 0}, msg = play_message_rect(ps, w, h, 16 * l, 1.6f * l);
        for (int m = 0; m < 2; m++)
            for (int j = 0; j < ps->nseats; j++)
                for (int d = 0; d < 360; d += 6)
                    for (int far = 0; far < 2; far++) {
                        char what[96];
                        snprintf(what, sizeof what, "%d seats %dx%d x%g, %d deg, %s%s", ps->nseats, w, h,
                                 sizes[z].scale, d, far ? "far" : "near", m ? ", message" : "");
                        double deg[3] = {d, d + 25, d + 180};
                        bad += screen_clear(ps, j, w, h, m ? &msg : &none, deg, ps->nseats - 1, far ? 400 : 40, what);
                        *arrows += ps->hud[j].narrows;
                    }
    }
    return bad;
}

static void arrows_keep_off_the_widgets(void **state)
{
    Canvas *c = *state;
    NrError err = {{0}};
    Track *t = track_load(NETRACE_SOURCE_DIR "/tracks/default.track", &err);
    assert_non_null(t);
    int bad = 0;
    for (int ncars = 2; ncars <= 4; ncars += 2) {
        Bots bots = {.track = t};
        PlayConfig cfg;
        PlayState *ps = game_open(c, &bots, ncars, &cfg);
        assert_non_null(ps);
        int arrows = 0;
        bad += hud_layouts(c, ps, &arrows);
        assert_true(arrows > 1000);
        play_state_free(ps);
        free(ps);
        for (int j = 0; j < PLAY_SEATS; j++)
            bot_free(bots.bot[j]);
    }
    track_free(t);
    assert_int_equal(bad, 0);
}

/* The H help and the pause box with a message (Ctrl + says "text x1.25"
 * for 2 s): no string shown without the message hidden under its box. */
static void help_shows_every_line_under_a_message(void **state)
{
    Canvas *c = *state;
    NrError err = {{0}};
    Track *t = track_load(NETRACE_SOURCE_DIR "/tracks/default.track", &err);
    assert_non_null(t);
    Bots bots = {.track = t};
    PlayConfig cfg;
    PlayState *ps = game_open(c, &bots, 2, &cfg);
    assert_non_null(ps);
    GfxAudit *a = calloc(1, sizeof *a), *without = calloc(1, sizeof *without);
    int bad = 0;
    for (int i = 0; i < NSIZES; i++) {
        const Size *z = &fit_sizes[i];
        canvas_at(c, z);
        ps->view->scale = z->scale;
        for (int box = 0; box < 2; box++) {
            ps->help = box == 0;
            ps->paused = box == 1;
            /* without the message: what the box itself covers (the HUD) */
            ps->msg_frames = 0;
            gfx_audit_start(&ps->view->gfx, without);
            play_draw(ps, z->w, z->h);
            gfx_audit_stop(&ps->view->gfx);
            play_message(ps, "text x%g (Ctrl + / - / 0)", z->scale);
            gfx_audit_start(&ps->view->gfx, a);
            play_draw(ps, z->w, z->h);
            gfx_audit_stop(&ps->view->gfx);
            int tw, th; /* the message's box, as play_draw lays it out */
            float l = (float)gfx_line_h(&ps->view->gfx, GFX_NORMAL);
            char fit[GFX_TEXT_MAX];
            gfx_ellipsize(&ps->view->gfx, GFX_NORMAL, (float)z->w - 2 * l, ps->msg, fit, sizeof fit);
            gfx_text_size(&ps->view->gfx, GFX_NORMAL, fit, &tw, &th);
            SDL_FRect mbox = play_message_rect(ps, z->w, z->h, (float)tw + l, 1.6f * l);
            for (int k = 0; k < a->n; k++) {
                bool shown_before = false;
                for (int q = 0; q < without->n && !shown_before; q++)
                    shown_before = !without->rec[q].hidden && strcmp(without->rec[q].text, a->rec[k].text) == 0;
                SDL_FRect b = {(float)a->rec[k].box.x, (float)a->rec[k].box.y, (float)a->rec[k].box.w,
                               (float)a->rec[k].box.h};
                if (a->rec[k].hidden && shown_before && meet(&b, &mbox)) {
                    fprintf(stderr, "%s %dx%d x%g: the message hides '%s'\n", box ? "pause" : "help", z->w, z->h,
                            z->scale, a->rec[k].text);
                    bad++;
                }
            }
        }
    }
    free(without);
    free(a);
    play_state_free(ps);
    free(ps);
    for (int j = 0; j < PLAY_SEATS; j++)
        bot_free(bots.bot[j]);
    track_free(t);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(arrows_keep_off_the_widgets),
        cmocka_unit_test(help_shows_every_line_under_a_message),
    };
    return cmocka_run_group_tests(tests, fit_setup, fit_teardown);
}
