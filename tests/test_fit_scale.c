/* Larger text keeps the words (issue 22: "shorten, wrap or drop a column,
 * never cut a glyph", and a trial at --scale 2 and 3 that found bare row
 * numbers, bare-number badges, a top bar without play's way back, a legend
 * ending mid-sentence and charts with the one tick "0"): the replay
 * window at 1024x768 and 1280x720 at text scales 1.5 .. 3 names every
 * scheme's row at least by its short label, every screen's badge in more
 * than a number, keeps a title's note, each legend entry whole and two y
 * ticks on every chart; every scheme has a short label narrower than its
 * title; no string is cut (tests/text_audit.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fit_fixture.h"
#include "fit_race.h"
#include "text_audit.h"

/* The sizes of the trial: a projector and a 720p laptop at the larger
 * text steps of Ctrl + (gfx_scale_step) up to --scale 3. */
static const Size scale_sizes[] = {
    {1024, 768, 1.5}, {1024, 768, 2.0}, {1024, 768, 2.5}, {1024, 768, 3.0},
    {1280, 720, 1.5}, {1280, 720, 2.0}, {1280, 720, 2.5}, {1280, 720, 3.0},
};
enum { NSCALE_SIZES = (int)(sizeof scale_sizes / sizeof scale_sizes[0]) };

static bool drawn(const GfxAudit *a, const char *text)
{
    for (int i = 0; i < a->n; i++)
        if (!a->rec[i].hidden && strcmp(a->rec[i].text, text) == 0)
            return true;
    return false;
}

/* Scheme k's row shows "k+1 Title" or "k+1 abbr"; returns 1 when neither. */
static int row_named(const GfxAudit *a, const SchemeType *st, int k, const char *what)
{
    char full[96], brief[96];
    snprintf(full, sizeof full, "%d %s", k + 1, st->title);
    snprintf(brief, sizeof brief, "%d %s", k + 1, st->abbr);
    if (drawn(a, full) || drawn(a, brief))
        return 0;
    fprintf(stderr, "%s: row %d shows neither \"%s\" nor \"%s\"\n", what, k + 1, full, brief);
    return 1;
}

static bool inside(SDL_Rect b, SDL_FRect r)
{
    return (float)b.x >= r.x - 1 && (float)b.y >= r.y - 1 && (float)(b.x + b.w) <= r.x + r.w + 1 &&
           (float)(b.y + b.h) <= r.y + r.h + 1;
}

static bool all_digits(const char *t)
{
    if (!*t)
        return false;
    for (; *t; t++)
        if (!isdigit((unsigned char)*t))
            return false;
    return true;
}

/* A screen's badge says who leads in more than a bare number ("2 ahead",
 * "P2"): no string of digits alone in any screen. */
static int badges_speak(const AppState *s, const GfxAudit *a, const char *what)
{
    int bad = 0;
    for (int k = 0; k < s->data.n; k++)
        for (int j = 0; j < racedata_cars(&s->data); j++)
            for (int i = 0; i < a->n; i++)
                if (!a->rec[i].hidden && inside(a->rec[i].box, s->lay.view[k][j]) && all_digits(a->rec[i].text)) {
                    fprintf(stderr, "%s: scheme %d's screen %d: a bare \"%s\"\n", what, k + 1, j + 1, a->rec[i].text);
                    bad++;
                }
    return bad;
}

static bool numeric(const char *t)
{
    char *end;
    strtod(t, &end);
    return end != t && *end == '\0';
}

/* Each chart drawn keeps at least two y tick labels: numbers in the chart
 * above the row of x tick labels (the lowest numbers). */
static int charts_two_ticks(const AppState *s, const GfxAudit *a, const char *what)
{
    int bad = 0;
    for (int c = 0; c < 2; c++) {
        SDL_FRect r = s->lay.chart[c];
        if (r.w < 4 || r.h < 4)
            continue;
        int xrow = -1, ny = 0, last_y = -1000000;
        for (int i = 0; i < a->n; i++)
            if (!a->rec[i].hidden && inside(a->rec[i].box, r) && numeric(a->rec[i].text) && a->rec[i].box.y > xrow)
                xrow = a->rec[i].box.y;
        for (int i = 0; i < a->n; i++)
            if (!a->rec[i].hidden && inside(a->rec[i].box, r) && numeric(a->rec[i].text) &&
                a->rec[i].box.y < xrow - 2 && a->rec[i].box.y != last_y) {
                last_y = a->rec[i].box.y;
                ny++;
            }
        if (ny < 2) {
            fprintf(stderr, "%s: chart %d has %d y tick labels\n", what, c + 1, ny);
            bad++;
        }
    }
    return bad;
}

/* The focus's legend: an entry begun is drawn whole (its wrapped lines
 * joined with spaces give the entry back). */
static int legend_whole(const GfxAudit *a, const char *what)
{
    static const char *const entries[] = {"d1: car 1 at P1 minus at P2 (cw)", "d2: car 2 at P2 minus at P1 (cw)",
                                          "d1-d2 > 0: P1 disadvantaged", "bar: log scale, ticks 0.1, 1, 10.. cw",
                                          "sent/discarded: 1→2 / 2→1"};
    int bad = 0;
    for (size_t e = 0; e < sizeof entries / sizeof entries[0]; e++)
        for (int i = 0; i < a->n; i++) {
            size_t len = strlen(a->rec[i].text), want = strlen(entries[e]);
            if (len < 4 || strncmp(a->rec[i].text, entries[e], len) != 0)
                continue;
            char joined[256];
            snprintf(joined, sizeof joined, "%s", a->rec[i].text);
            for (int q = i + 1; q < a->n && strlen(joined) < want; q++)
                snprintf(joined + strlen(joined), sizeof joined - strlen(joined), " %s", a->rec[q].text);
            if (strcmp(joined, entries[e]) != 0) {
                fprintf(stderr, "%s: the legend's \"%s\" drawn as \"%s\"\n", what, entries[e], joined);
                bad++;
            }
            break;
        }
    return bad;
}

/* The top bar keeps the note of a title (play's way back from its
 * overview), at least once the hint has shortened. */
static int note_kept(const AppState *s, const GfxAudit *a, const char *note, const char *what)
{
    for (int i = 0; note && i < a->n; i++)
        if (inside(a->rec[i].box, s->lay.top) && strstr(a->rec[i].text, note))
            return 0;
    if (note)
        fprintf(stderr, "%s: the top bar lost \"%s\"\n", what, note);
    return note ? 1 : 0;
}

static int audit_one(AppState *s, GfxAudit *a, const Size *z, const char *what, const char *note)
{
    s->scale = z->scale;
    gfx_audit_start(&s->gfx, a);
    app_draw(s, z->w, z->h);
    gfx_audit_stop(&s->gfx);
    int bad = text_audit_faults(a, what) + badges_speak(s, a, what) + charts_two_ticks(s, a, what) +
              note_kept(s, a, note, what);
    if (s->focus < 0)
        for (int k = 0; k < s->data.n; k++)
            bad += row_named(a, s->data.scheme[k], k, what);
    else if (racedata_cars(&s->data) == 2)
        bad += legend_whole(a, what);
    return bad;
}

/* One race at every size above: the overview without and with the
 * lagometers, the first three schemes' focus. title: the window's title
 * (play's overview in place when it has a note), NULL: the recording's. */
static int scaled_layouts(Canvas *c, const char *recording, const char *schemes, const char *title,
                          const char *note)
{
    Race f;
    if (!race_open(&f, recording, schemes))
        return 1;
    replay_step_to(f.rp, 10 * NR_US_PER_S);
    int bad = 0;
    GfxAudit *a = calloc(1, sizeof *a);
    for (int i = 0; i < NSCALE_SIZES; i++) {
        const Size *z = &scale_sizes[i];
        AppState *s = calloc(1, sizeof *s);
        AppConfig cfg = app_config_default();
        cfg.replay = f.rp;
        cfg.title = title ? title : recording;
        cfg.live = title != NULL;
        NrError err = {{0}};
        if (!s || !app_state_init(s, f.rp, &cfg, canvas_at(c, z), &err)) {
            bad++;
            free(s);
            continue;
        }
        s->paused = true;
        s->no_layers = true;
        for (int k = -1; k < 3 && k < s->data.n; k++)
            for (int lag = 0; lag < (k < 0 ? 2 : 1); lag++) {
                char what[160];
                snprintf(what, sizeof what, "%s, %s, %s %d%s, %dx%d scale %g", recording, schemes,
                         k < 0 ? "overview" : "focus", k + 1, lag ? ", lagometer" : "", z->w, z->h, z->scale);
                s->focus = k;
                s->lag = lag;
                bad += audit_one(s, a, z, what, note);
            }
        app_state_free(s);
        free(s);
    }
    free(a);
    race_close(&f);
    return bad;
}

static void scaled_text_keeps_its_words(void **state)
{
    Canvas *c = *state;
    int bad = 0;
    bad += scaled_layouts(c, "default.csv", "every", NULL, NULL);
    bad += scaled_layouts(c, "default.csv", "all", "every scheme (Tab: back to the race)", "Tab: back to the race");
    bad += scaled_layouts(c, "four.csv", "every", NULL, NULL);
    assert_int_equal(bad, 0);
}

/* Every scheme's short label: at most 6 characters, narrower than its title
 * in the window's font (else it would not be the shorter form). */
static void every_scheme_has_a_short_label(void **state)
{
    Canvas *c = *state;
    const SchemeType *st[SCHEME_MAX];
    NrError err = {{0}};
    int n = scheme_parse_list("every", st, SCHEME_MAX, &err);
    assert_true(n >= 16);
    Gfx g;
    char font[512];
    gfx_pick_font(NULL, font, sizeof font);
    gfx_init(&g, canvas_at(c, &scale_sizes[0]), font[0] ? font : NULL);
    gfx_set_scale(&g, 20);
    for (int k = 0; k < n; k++) {
        assert_non_null(st[k]->abbr);
        assert_non_null(st[k]->title);
        size_t glyphs = 0;
        for (const char *p = st[k]->abbr; *p; p++)
            glyphs += ((unsigned char)*p & 0xC0) != 0x80;
        assert_in_range(glyphs, 1, 6);
        int wa, wt, h;
        gfx_text_size(&g, GFX_NORMAL, st[k]->abbr, &wa, &h);
        gfx_text_size(&g, GFX_NORMAL, st[k]->title, &wt, &h);
        if (g.has_font && strcmp(st[k]->abbr, st[k]->title) != 0)
            assert_true(wa < wt);
    }
    gfx_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_scheme_has_a_short_label),
        cmocka_unit_test(scaled_text_keeps_its_words),
    };
    return cmocka_run_group_tests(tests, fit_setup, fit_teardown);
}
