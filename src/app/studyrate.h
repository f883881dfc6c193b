/* One player's rating screen (docs/studies.md "Rating"): the questions one
 * at a time, the five grades of ITU-T P.800 / P.910 absolute category
 * rating listed 5 Excellent (top) to 1 Bad, or Yes / No; nothing chosen at
 * first (the first up or down chooses 3 Fair, or the Yes / No it points
 * at), then up and down move the choice and confirm gives it, with its
 * response time (the screen's clock from the question appearing to the
 * confirm; STUDYRATE_GUARD_US of input ignored first so that a held key
 * cannot answer it). The study screen (studywin.c: one per player's half)
 * and the network window (netwin.c: this terminal's player) draw it; the
 * caller keeps the answer, then moves the rater on.
 *
 * Contracts:
 *   studyrate_options(q, labels)  the answers of question q, top to bottom:
 *        their count; labels[i] the text of option i.
 *   studyrate_score(q, i)   the score of option i as ratings.csv has it
 *        (5 .. 1, or 1 yes / 0 no).
 *   studyrate_begin(rt, given, nq, now)  the first question not given
 *        (given[q]; nq: none left) shown from now.
 *   studyrate_input(rt, qs, nq, in, now, &score, &ms)  one press (STUDYRATE_UP,
 *        _DOWN, _CONFIRM): true when it confirmed a choice (score and the
 *        response ms out; the caller keeps it, then studyrate_given).
 *   studyrate_given(rt, given, nq, now)  the shown question was kept (the
 *        caller marked given[q]): the next one not given, from now.
 *   studyrate_stick(rt, value)  a pad's left stick (SDL axis value): one
 *        STUDYRATE_UP / _DOWN each time it leaves the centre (hysteresis),
 *        else STUDYRATE_NONE.
 *   studyrate_done(rt, nq)  every question given.
 *   studyrate_base_px(w, h, scale)  the text size of the study's own screens
 *        (cards, rating, breaks, the end) on a w x h window: larger than the
 *        race's, min(h / 28, w / 64) clamped to 12..40, times the window's
 *        text scale (--scale, Ctrl + / -: gfx.h), at most min(h / 20, w / 44)
 *        (the most a rating column of w / 2 holds), at least 8 px.
 *   studyrate_draw(g, rt, qs, nq, look)  the screen in the look's column:
 *        P<seat>, race i of n, the question, the options with the choice,
 *        the hint; "Thank you" and look->waiting once done.
 */
#ifndef NR_STUDYRATE_H
#define NR_STUDYRATE_H

#include "gfx.h"
#include "studyplan.h"

#define STUDYRATE_GUARD_US (250 * NR_US_PER_MS) /* input ignored when a question appears */

enum { STUDYRATE_NONE, STUDYRATE_UP, STUDYRATE_DOWN, STUDYRATE_CONFIRM };

typedef struct StudyRater {
    int q;            /* the question shown; nq once done */
    int choice;       /* option index (0 = top), -1 = none chosen yet */
    int64_t shown_us; /* the screen's clock when the question appeared */
    int stick;        /* the left stick's zone (-1 up, 0, 1 down) */
} StudyRater;

/* Where and how a rater is drawn. */
typedef struct StudyRateLook {
    int seat;            /* 0-based: the colour and "P<seat + 1>" */
    float x0, width;     /* its column of the window */
    int h;               /* the window's height */
    int m;               /* the margin: the screen's text size */
    int race, nraces;
    const char *hint;    /* how this player chooses and confirms */
    const char *waiting; /* under "Thank you" */
} StudyRateLook;

int studyrate_options(const StudyQuestion *q, const char **labels);
int studyrate_score(const StudyQuestion *q, int option);
void studyrate_begin(StudyRater *rt, const bool *given, int nq, int64_t now_us);
bool studyrate_input(StudyRater *rt, const StudyQuestion *qs, int nq, int in, int64_t now_us, int *score,
                     int64_t *response_ms);
void studyrate_given(StudyRater *rt, const bool *given, int nq, int64_t now_us);
int studyrate_stick(StudyRater *rt, int value);
bool studyrate_done(const StudyRater *rt, int nq);
int studyrate_base_px(int w, int h, double scale);
void studyrate_draw(Gfx *g, const StudyRater *rt, const StudyQuestion *qs, int nq, const StudyRateLook *look);

#endif
