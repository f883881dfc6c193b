/* One player's rating screen: its questions, choices, answers and drawing
 * (studyrate.h). */
#include "studyrate.h"

#include "palette.h"

#include <stdio.h>
#include <string.h>

#define WRAP_LINES 6

static const char *const ACR_LABELS[5] = {"Excellent", "Good", "Fair", "Poor", "Bad"};
static const char *const YESNO_LABELS[2] = {"Yes", "No"};

int studyrate_options(const StudyQuestion *q, const char **labels)
{
    int n = q->kind == STUDY_Q_YESNO ? 2 : 5;
    for (int i = 0; i < n; i++)
        labels[i] = q->kind == STUDY_Q_YESNO ? YESNO_LABELS[i] : ACR_LABELS[i];
    return n;
}

/* ITU-T P.800 ACR: the list runs 5 Excellent (top) .. 1 Bad; yes 1, no 0. */
int studyrate_score(const StudyQuestion *q, int option)
{
    return q->kind == STUDY_Q_YESNO ? 1 - option : 5 - option;
}

static int next_question(const bool *given, int nq, int q)
{
    while (q < nq && given[q])
        q++;
    return q;
}

void studyrate_begin(StudyRater *rt, const bool *given, int nq, int64_t now_us)
{
    *rt = (StudyRater){.q = next_question(given, nq, 0), .choice = -1, .shown_us = now_us};
}

void studyrate_given(StudyRater *rt, const bool *given, int nq, int64_t now_us)
{
    rt->q = next_question(given, nq, rt->q + 1);
    rt->choice = -1;
    rt->shown_us = now_us;
}

bool studyrate_done(const StudyRater *rt, int nq)
{
    return rt->q >= nq;
}

bool studyrate_input(StudyRater *rt, const StudyQuestion *qs, int nq, int in, int64_t now_us, int *score,
                     int64_t *response_ms)
{
    if (rt->q >= nq || now_us - rt->shown_us < STUDYRATE_GUARD_US)
        return false;
    const char *labels[5];
    int n = studyrate_options(&qs[rt->q], labels);
    if (in == STUDYRATE_CONFIRM && rt->choice >= 0) {
        *score = studyrate_score(&qs[rt->q], rt->choice);
        *response_ms = (now_us - rt->shown_us) / NR_US_PER_MS;
        return true;
    }
    if ((in == STUDYRATE_UP || in == STUDYRATE_DOWN) && rt->choice < 0)
        /* the first press: the middle grade, or the yes / no it points at */
        rt->choice = n == 2 ? (in == STUDYRATE_UP ? 0 : 1) : n / 2;
    else if (in == STUDYRATE_UP && rt->choice > 0)
        rt->choice--;
    else if (in == STUDYRATE_DOWN && rt->choice >= 0 && rt->choice < n - 1)
        rt->choice++;
    return false;
}

int studyrate_stick(StudyRater *rt, int value)
{
    int zone = value < -20000 ? -1 : value > 20000 ? 1 : value > -8000 && value < 8000 ? 0 : 2;
    if (zone == 2 || zone == rt->stick)
        return STUDYRATE_NONE;
    rt->stick = zone;
    return zone < 0 ? STUDYRATE_UP : zone > 0 ? STUDYRATE_DOWN : STUDYRATE_NONE;
}

/* text in lines of at most maxw pixels, broken between words; the count. */
static int wrap(Gfx *g, int font, const char *text, int maxw, char (*out)[GFX_TEXT_MAX], int max)
{
    int n = 0;
    const char *s = text;
    while (*s && n < max) {
        while (*s == ' ')
            s++;
        size_t best = 0, len = 0;
        for (;;) {
            size_t next = len;
            while (s[next] && s[next] != ' ')
                next++;
            if (next >= GFX_TEXT_MAX)
                next = GFX_TEXT_MAX - 1;
            char buf[GFX_TEXT_MAX];
            memcpy(buf, s, next);
            buf[next] = '\0';
            int tw, th;
            gfx_text_size(g, font, buf, &tw, &th);
            if ((tw > maxw && best > 0) || next == len)
                break;
            best = len = next;
            if (!s[next] || next == GFX_TEXT_MAX - 1)
                break;
            len++; /* past the space */
        }
        if (best == 0) /* no break fits: the word alone */
            while (s[best] && s[best] != ' ' && best < GFX_TEXT_MAX - 1)
                best++;
        memcpy(out[n], s, best);
        out[n++][best] = '\0';
        s += best;
    }
    return n;
}

static void draw_options(Gfx *g, const StudyRater *rt, const StudyQuestion *q, float x, float y, float bw,
                         float avail)
{
    const char *labels[5];
    int n = studyrate_options(q, labels);
    float lb = (float)gfx_line_h(g, GFX_BIG), row = lb * 2.0f;
    if (row * (float)n > avail)
        row = avail / (float)n;
    y += (avail - row * (float)n) / 3; /* the list a little above the middle of its room */
    int font = GFX_BIG; /* a smaller font where the buttons got lower than the big one (large text) */
    while (font != GFX_SMALL && (float)gfx_line_h(g, font) > row * 0.84f)
        font = font == GFX_BIG ? GFX_NORMAL : GFX_SMALL;
    lb = (float)gfx_line_h(g, font);
    for (int i = 0; i < n; i++) {
        float ry = y + row * (float)i;
        bool on = i == rt->choice;
        gfx_fill(g->r, x, ry, bw, row * 0.84f, on ? PAL_ACCENT : PAL_PANEL);
        gfx_frame(g->r, x, ry, bw, row * 0.84f, on ? PAL_ACCENT : PAL_DIM);
        int ty = (int)(ry + (row * 0.84f - lb) / 2);
        SDL_Color c = on ? PAL_BAR : PAL_FG;
        char label[64];
        if (q->kind == STUDY_Q_YESNO)
            snprintf(label, sizeof label, "%s", labels[i]);
        else
            snprintf(label, sizeof label, "%d  %-9s", studyrate_score(q, i), labels[i]);
        gfx_room_push(g, x, ry, bw, row * 0.84f); /* the label stays in its button */
        gfx_text_shrink(g, font, (int)(x + bw / 2), ty, GFX_CENTER, c, (int)bw, label);
        gfx_room_pop(g);
    }
}

/* The keys' hint under the answers: one line, else two (wrapped at
 * spaces: large text on a narrow column), else shortened. */
static void draw_hint(Gfx *g, const StudyRateLook *lk, float bottom, float ln)
{
    float m = (float)lk->m, cx = lk->x0 + lk->width / 2;
    int max_w = (int)(lk->width - 2 * m), tw, th;
    gfx_text_size(g, GFX_NORMAL, lk->hint, &tw, &th);
    char lines[WRAP_LINES][GFX_TEXT_MAX];
    int nl = tw > max_w ? wrap(g, GFX_NORMAL, lk->hint, max_w, lines, WRAP_LINES) : 1;
    if (nl == 2) {
        for (int i = 0; i < 2; i++)
            gfx_text(g, GFX_NORMAL, (int)cx, (int)(bottom + ln * ((float)i + 0.05f)), GFX_CENTER, PAL_DIM, "%s",
                     lines[i]);
        return;
    }
    gfx_text_shrink(g, GFX_NORMAL, (int)cx, (int)(bottom + ln * 0.4f), GFX_CENTER, PAL_DIM, max_w, lk->hint);
}

static void draw_column(Gfx *g, const StudyRater *rt, const StudyQuestion *qs, int nq, const StudyRateLook *lk)
{
    float x0 = lk->x0, half = lk->width, m = (float)lk->m;
    float ln = (float)gfx_line_h(g, GFX_NORMAL), lb = (float)gfx_line_h(g, GFX_BIG);
    SDL_Color seat = pal_car(lk->seat);
    gfx_text(g, GFX_BIG, (int)(x0 + m), (int)m, GFX_LEFT, seat, "P%d", lk->seat + 1);
    gfx_text(g, GFX_NORMAL, (int)(x0 + half - m), (int)(m + (lb - ln)), GFX_RIGHT, PAL_DIM, "race %d of %d",
             lk->race, lk->nraces);
    float y = m + lb * 1.8f;
    if (rt->q >= nq) {
        gfx_text(g, GFX_BIG, (int)(x0 + half / 2), (int)((float)lk->h * 0.4f), GFX_CENTER, PAL_GO, "Thank you");
        gfx_text_shrink(g, GFX_NORMAL, (int)(x0 + half / 2), (int)((float)lk->h * 0.4f + lb * 1.5f), GFX_CENTER,
                        PAL_FG, (int)(half - 2 * m), lk->waiting);
        return;
    }
    gfx_text(g, GFX_NORMAL, (int)(x0 + m), (int)y, GFX_LEFT, PAL_DIM, "question %d of %d", rt->q + 1, nq);
    y += ln * 1.5f;
    char lines[WRAP_LINES][GFX_TEXT_MAX];
    int nl = wrap(g, GFX_BIG, qs[rt->q].text, (int)(half - 3 * m), lines, WRAP_LINES);
    for (int i = 0; i < nl; i++)
        gfx_text(g, GFX_BIG, (int)(x0 + m * 1.5f), (int)(y + lb * (float)i), GFX_LEFT, PAL_FG, "%s", lines[i]);
    y += lb * (float)(nl > 3 ? nl : 3) + lb * 0.5f; /* the answers stay put from question to question */
    float bottom = (float)lk->h - m - ln * 2.0f;
    draw_options(g, rt, &qs[rt->q], x0 + m * 2, y, half - 4 * m, bottom - y);
    draw_hint(g, lk, bottom, ln);
}

void studyrate_draw(Gfx *g, const StudyRater *rt, const StudyQuestion *qs, int nq, const StudyRateLook *lk)
{
    float x0 = lk->x0, half = lk->width, m = (float)lk->m;
    SDL_Color seat = pal_car(lk->seat);
    gfx_frame(g->r, x0 + m / 2, m / 2, half - m, (float)lk->h - m, seat);
    gfx_room_push(g, x0 + m / 2, m / 2, half - m, (float)lk->h - m); /* the player's column */
    draw_column(g, rt, qs, nq, lk);
    gfx_room_pop(g);
}

int studyrate_base_px(int w, int h, double scale)
{
    int base = h / 28 < w / 64 ? h / 28 : w / 64;
    base = base < 12 ? 12 : base > 40 ? 40 : base;
    double px = base * (scale > 0 ? scale : 1.0);
    int top = h / 20 < w / 44 ? h / 20 : w / 44;
    px = px > top ? top : px;
    return px < 8 ? 8 : (int)px;
}
