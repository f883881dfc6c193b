/* Nothing cut on the study's own screens (issue 20): each player's rating
 * screen (studyrate.h) as the study window lays it out (two columns, one
 * per player) and as the network window does (this terminal's player in
 * the middle), every question of the default plan with nothing chosen and
 * with a choice, and "Thank you" once done; and the boxes of the cards,
 * the wait between races and the end. At every size and text scale of
 * fit_fixture.h, at the study screens' own text size (studyrate_base_px):
 * every string inside its room (the column, an answer's button), none over
 * another (tests/text_audit.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit_fixture.h"
#include "palette.h"
#include "studyrate.h"
#include "text_audit.h"
#include "widgets.h"

static const char PLAN[] = "netrace-study 1\nname fit\nscheme nc\nlinks none\ncondition A\ncondition B\n";
static const char HINT[] = "W / S or Up / Down: choose · D, Right or Shift: confirm";

static bool plan_read(StudyPlan *p)
{
    NrError err = {{0}};
    FILE *f = fmemopen((void *)PLAN, strlen(PLAN), "r");
    bool ok = f && studyplan_read(p, f, "fit.study", &err);
    if (f)
        fclose(f);
    return ok;
}

/* One frame of rating screens: the two players' columns (local) or this
 * terminal's (network), at question q (nq: done) with choice. */
static void draw_raters(Gfx *g, const StudyPlan *p, bool network, int q, int choice, int w, int h)
{
    for (int j = 0; j < (network ? 1 : 2); j++) {
        StudyRater rt = {.q = q, .choice = choice};
        StudyRateLook lk = {.seat = network ? 1 : j, .x0 = network ? (float)w / 4 : (float)j * (float)w / 2,
                            .width = (float)w / 2, .h = h, .m = studyrate_base_px(w, h, 0), .race = 10,
                            .nraces = 10, .hint = HINT, .waiting = network ? "waiting for the other player"
                                                                           : "waiting for player 2"};
        studyrate_draw(g, &rt, p->q, p->nq, &lk);
    }
}

static int audit_boxes(Gfx *g, GfxAudit *a, int w, int h, const char *size)
{
    static const char *const boxes[][3] = {
        {"Race 10 of 10", "a practice race: not rated", "it starts when both machines are ready"},
        {"Next race", "waiting for the other machine", "join code 7K3QM-X9A2C"},
        {"Break: 3 rated races done, 3 to go", "press a key when you are ready", ""},
        {"Break: race 10 of 10 is next", "take a rest", "press a key when you are ready"},
        {"The session stopped", "Please call the experimenter.", "Esc closes the window"},
    };
    int bad = 0;
    for (size_t b = 0; b < sizeof boxes / sizeof boxes[0]; b++) {
        gfx_audit_start(g, a);
        widget_text_box(g, w, h, boxes[b], 3, PAL_ACCENT);
        gfx_audit_stop(g);
        char name[160];
        snprintf(name, sizeof name, "study box '%s', %s", boxes[b][0], size);
        bad += text_audit_faults(a, name);
    }
    return bad;
}

static void study_screens_cut_nothing(void **state)
{
    Canvas *c = *state;
    StudyPlan p;
    assert_true(plan_read(&p));
    assert_int_equal(p.nq, 4);
    int bad = 0;
    GfxAudit *a = calloc(1, sizeof *a);
    char font[512];
    gfx_pick_font(NULL, font, sizeof font);
    for (int i = 0; i < NSIZES; i++) {
        const Size *z = &fit_sizes[i];
        Gfx g;
        gfx_init(&g, canvas_at(c, z), font[0] ? font : NULL);
        gfx_set_scale(&g, studyrate_base_px(z->w, z->h, z->scale));
        char size[64];
        snprintf(size, sizeof size, "%dx%d scale %g", z->w, z->h, z->scale);
        for (int net = 0; net < 2; net++)
            for (int q = 0; q <= p.nq; q++)
                for (int choice = -1; choice < 2; choice += 3) { /* none, and the second answer */
                    gfx_audit_start(&g, a);
                    draw_raters(&g, &p, net, q, choice, z->w, z->h);
                    gfx_audit_stop(&g);
                    char name[160];
                    snprintf(name, sizeof name, "%s rating, question %d, choice %d, %s", net ? "network" : "study",
                             q + 1, choice, size);
                    bad += text_audit_faults(a, name);
                }
        bad += audit_boxes(&g, a, z->w, z->h, size);
        gfx_free(&g);
    }
    free(a);
    assert_int_equal(bad, 0);
}

/* The study's text size: its own from the window, times the scale, held
 * under the cap a column holds (by hand: 1024x768 gives min(27, 16) = 16;
 * x1.25 = 20; x3 = 48 capped at min(38, 23) = 23; 1920x1080 min(38, 30) =
 * 30, x2 = 60 capped at min(54, 43) = 43; 960x540 x0.5: 15 x 0.5 = 7 -> 8). */
static void study_text_size_by_hand(void **state)
{
    (void)state;
    assert_int_equal(studyrate_base_px(1024, 768, 1.0), 16);
    assert_int_equal(studyrate_base_px(1024, 768, 0), 16);
    assert_int_equal(studyrate_base_px(1024, 768, 1.25), 20);
    assert_int_equal(studyrate_base_px(1024, 768, 3.0), 23);
    assert_int_equal(studyrate_base_px(1920, 1080, 1.0), 30);
    assert_int_equal(studyrate_base_px(1920, 1080, 2.0), 43);
    assert_int_equal(studyrate_base_px(960, 540, 0.5), 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(study_text_size_by_hand),
        cmocka_unit_test(study_screens_cut_nothing),
    };
    return cmocka_run_group_tests(tests, fit_setup, fit_teardown);
}
