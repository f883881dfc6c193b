/* The races of one pair's session: practice first, then the rated races in
 * a counterbalanced order (Williams rows chosen by the pair number), the
 * hidden repeat of one condition among them, and the breaks.
 *
 * How the order is drawn (docs/studies.md, "Orders"):
 *   - The plan's seed permutes the rated conditions' labels once for the
 *     whole study: Williams symbol k is condition perm[k] (Fisher-Yates on the
 *     seeded stream STUDYORDER_STREAM_LABELS). Every pair of a study shares
 *     the permutation, so the set of pairs stays balanced.
 *   - Pair p (1-based) drives Williams row p - 1 in its first repetition,
 *     row p in its second, and so on (rows taken modulo the row count:
 *     n for an even number of conditions, 2n for an odd one). A study with a
 *     multiple of that many pairs is completely balanced.
 *   - The hidden repeat: at the plan's `repeat ... at K` (it becomes rated
 *     race K), or else at a position drawn on the stream (seed, pair) among
 *     the positions next to no race of the same condition, after the
 *     condition's first rated race when there are such positions there
 *     (the last position when there are none at all).
 *   - Race i (1-based over the whole session) runs its links and bots on
 *     seed rng_hash(rng_hash(plan seed, pair), i).
 *
 * Contracts:
 *   studyorder_make(plan, pair, out, err)  fills out; false + err when pair
 *        < 1 or > STUDYORDER_MAX_PAIR.
 *   studyorder_labels(plan, perm)  the label permutation alone.
 *   studyorder_kind_name(kind)     "practice", "rated", "repeat".
 */
#ifndef NR_STUDYORDER_H
#define NR_STUDYORDER_H

#include "studyplan.h"

#define STUDYORDER_MAX_PAIR 100000
#define STUDYORDER_STREAM_LABELS 0x5354554459ULL /* "STUDY" */
#define STUDYORDER_STREAM_REPEAT 0x5245504541ULL /* "REPEA" */

typedef enum StudyRaceKind { STUDY_RACE_PRACTICE, STUDY_RACE_RATED, STUDY_RACE_REPEAT } StudyRaceKind;

typedef struct StudyRace {
    int index;          /* 1-based over the session, practice included */
    int cond;           /* index into plan->cond */
    StudyRaceKind kind;
    bool break_after;   /* a break follows this race */
    uint64_t seed;      /* links and bots of this race */
} StudyRace;

typedef struct StudyOrder {
    int pair;
    int nrace;
    StudyRace race[STUDY_MAX_RACES];
    int perm[STUDY_MAX_CONDITIONS]; /* Williams symbol -> condition (plan->rated[0..nrated)) */
    int first_row;                  /* Williams row of the first repetition */
} StudyOrder;

bool studyorder_make(const StudyPlan *plan, int pair, StudyOrder *out, NrError *err);
void studyorder_labels(const StudyPlan *plan, int *perm);
const char *studyorder_kind_name(StudyRaceKind kind);

#endif
