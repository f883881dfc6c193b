/* Fuzz harness: study plans and the answers files read against them. An
 * accepted plan is complete (2+ rated conditions, each with a known scheme,
 * links that parse back, laps or seconds; 1+ questions; the practice and
 * repeat conditions resolved) and every pair's order is a valid one; a
 * refused plan says why and keeps nothing. The input's second half, after
 * a line "---", is read as an answers file for the plan. */
#include "link.h"
#include "scheme.h"
#include "studydata.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_plan(const StudyPlan *p)
{
    if (p->nrated < 2 || p->ncond > STUDY_MAX_CONDITIONS || p->nq < 1 || p->nq > STUDY_MAX_QUESTIONS ||
        p->practice_cond < 0 || p->practice_cond >= p->ncond ||
        (p->repeat_cond >= 0 && p->cond[p->repeat_cond].practice_only))
        abort();
    for (int i = 0; i < p->ncond; i++) {
        const StudyCondition *c = &p->cond[i];
        if (!scheme_find(c->scheme) || (c->laps < 1) == (c->duration_us <= 0) || !(c->tdr_cw > 0))
            abort();
        for (int d = 0; d < 2; d++) {
            LinkSpec s;
            NrError e;
            memset(&s, 0, sizeof s);
            if (!linkspec_parse(&s, c->link[d], NULL, &e))
                abort();
            linkspec_free(&s);
        }
    }
    for (int pair = 1; pair <= 3; pair++) {
        StudyOrder o;
        NrError e;
        if (!studyorder_make(p, pair, &o, &e) || o.nrace < p->nrated * p->repetitions)
            abort();
        int seen[STUDY_MAX_CONDITIONS] = {0};
        for (int i = 0; i < o.nrace; i++) {
            if (o.race[i].index != i + 1 || o.race[i].cond < 0 || o.race[i].cond >= p->ncond)
                abort();
            if (o.race[i].kind == STUDY_RACE_RATED)
                seen[o.race[i].cond]++;
        }
        for (int k = 0; k < p->nrated; k++)
            if (seen[p->rated[k]] != p->repetitions)
                abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    const uint8_t *cut = NULL;
    for (size_t i = 0; i + 4 <= size && !cut; i++)
        if (memcmp(data + i, "\n---", 4) == 0)
            cut = data + i + 1;
    size_t plan_len = cut ? (size_t)(cut - data) : size;
    FILE *f = fmemopen((void *)data, plan_len ? plan_len : 1, "r");
    if (!f)
        return 0;
    StudyPlan p;
    NrError err;
    err.msg[0] = '\0';
    bool ok = plan_len > 0 && studyplan_read(&p, f, "fuzz.study", &err);
    fclose(f);
    if (!ok) {
        if (plan_len > 0 && (err.msg[0] == '\0' || p.ncond != 0))
            abort();
        return 0;
    }
    check_plan(&p);
    if (!cut || (size_t)(data + size - cut) < 5)
        return 0;
    FILE *g = fmemopen((void *)(cut + 4), (size_t)(data + size - cut) - 4, "r");
    if (!g)
        return 0;
    StudyData d;
    err.msg[0] = '\0';
    if (studydata_read_answers(&d, &p, g, "fuzz.csv", &err)) {
        for (int i = 0; i < d.n; i++)
            if (!studyplan_score_ok(&p.q[d.r[i].question], d.r[i].score) || d.r[i].player < 1 || d.r[i].player > 2)
                abort();
        studydata_free(&d);
    } else if (err.msg[0] == '\0' || d.n != 0) {
        abort();
    }
    fclose(g);
    return 0;
}
