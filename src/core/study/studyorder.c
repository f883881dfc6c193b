/* One pair's order of races (see studyorder.h for how it is drawn). */
#include "studyorder.h"

#include "rng.h"
#include "williams.h"

#include <string.h>

void studyorder_labels(const StudyPlan *plan, int *perm)
{
    Rng r;
    rng_seed(&r, plan->seed, STUDYORDER_STREAM_LABELS);
    for (int i = 0; i < plan->nrated; i++)
        perm[i] = plan->rated[i];
    for (int i = plan->nrated - 1; i > 0; i--) {
        int j = (int)rng_below(&r, (uint64_t)i + 1);
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

/* Where the hidden repeat goes among n rated conditions seq[0..n): the
 * 0-based slot it is inserted before (n = at the end). */
static int repeat_slot(const StudyPlan *plan, int pair, const int *seq, int n)
{
    if (plan->repeat_at > 0)
        return plan->repeat_at - 1;
    int c = plan->repeat_cond, first = n, ok[STUDY_MAX_RACES], nok = 0;
    for (int i = 0; i < n && first == n; i++)
        if (seq[i] == c)
            first = i;
    /* after the first race of the condition if it can be, else anywhere */
    for (int from = first + 1; nok == 0 && from >= 0; from = from > 0 ? 0 : -1)
        for (int s = from; s <= n; s++) {
            bool before_same = s > 0 && seq[s - 1] == c;
            bool after_same = s < n && seq[s] == c;
            if (!before_same && !after_same)
                ok[nok++] = s;
        }
    if (nok == 0)
        return n;
    Rng r;
    rng_seed(&r, rng_hash(plan->seed, (uint64_t)pair), STUDYORDER_STREAM_REPEAT);
    return ok[rng_below(&r, (uint64_t)nok)];
}

bool studyorder_make(const StudyPlan *plan, int pair, StudyOrder *out, NrError *err)
{
    if (pair < 1 || pair > STUDYORDER_MAX_PAIR)
        return nr_error_set(err, "pair %d: expected a pair number from 1 to %d", pair, STUDYORDER_MAX_PAIR);
    memset(out, 0, sizeof *out);
    out->pair = pair;
    int n = plan->nrated;
    studyorder_labels(plan, out->perm);
    out->first_row = (pair - 1) % williams_rows(n);
    int seq[STUDY_MAX_RACES], nseq = 0, row[STUDY_MAX_CONDITIONS];
    for (int rep = 0; rep < plan->repetitions; rep++) {
        williams_row(n, pair - 1 + rep, row);
        for (int j = 0; j < n; j++)
            seq[nseq++] = out->perm[row[j]];
    }
    int slot = plan->repeat_cond >= 0 ? repeat_slot(plan, pair, seq, nseq) : -1;
    uint64_t pair_seed = rng_hash(plan->seed, (uint64_t)pair);
    for (int i = 0; i < plan->practice; i++)
        out->race[out->nrace++] = (StudyRace){.cond = plan->practice_cond, .kind = STUDY_RACE_PRACTICE};
    int rated = 0;
    for (int i = 0; i <= nseq; i++) {
        if (i == slot) {
            out->race[out->nrace++] = (StudyRace){.cond = plan->repeat_cond, .kind = STUDY_RACE_REPEAT};
            rated++;
            if (plan->break_every > 0 && rated % plan->break_every == 0)
                out->race[out->nrace - 1].break_after = true;
        }
        if (i == nseq)
            break;
        out->race[out->nrace++] = (StudyRace){.cond = seq[i], .kind = STUDY_RACE_RATED};
        rated++;
        if (plan->break_every > 0 && rated % plan->break_every == 0)
            out->race[out->nrace - 1].break_after = true;
    }
    out->race[out->nrace - 1].break_after = false; /* the session ends there */
    for (int i = 0; i < out->nrace; i++) {
        out->race[i].index = i + 1;
        out->race[i].seed = rng_hash(pair_seed, (uint64_t)(i + 1));
    }
    return true;
}

const char *studyorder_kind_name(StudyRaceKind kind)
{
    return kind == STUDY_RACE_PRACTICE ? "practice" : kind == STUDY_RACE_REPEAT ? "repeat" : "rated";
}
