/* The report's statistics of a study: mean opinion scores with their 95 %
 * intervals, the hidden repeat's agreement, and the scores against the
 * objective measures of the same races.
 *
 * MOS (ITU-T P.800 / P.910 practice): the mean of the scores of one
 * condition and question over every player of every pair, rated races only
 * (the hidden repeat is left out: it would count one race twice). Its 95 %
 * interval is mean +- t(0.975, n - 1) * sd / sqrt(n), sd the sample
 * standard deviation (n - 1). A yes/no question's "MOS" is the share of
 * yes (scores 1 / 0), with the same interval (an approximation that is
 * poor near 0 and 1 for small n: read it as a rough bound). The report's
 * intervals are clipped to the scale (1..5, a share 0..1, a count of marks
 * >= 0): the t interval of a few scores can reach past the scale, where no
 * mean can lie.
 *
 * Hidden repeat agreement, per question: for every player's answer to the
 * repeat, the answer the same player gave the same question in the first
 * rated race of that condition; mean absolute difference and share of
 * identical answers, n = answers compared.
 *
 * Scores against objective measures, per question, one point per answer
 * (rated and repeat races): Pearson's r between the score and the
 * inconsistency rate of the shown scheme in that race, and between the score
 * and the rater's own disadvantage (fairness = mean d1 - d2, > 0 is player 1
 * disadvantaged: player 1's disadvantage is fairness, player 2's is its
 * negative); n answers with both measures.
 *
 * Dissatisfaction marks, per condition: each player's count of marks in
 * each rated race (the key pressed while racing), their mean over players
 * and races with the same interval; n player-races (races of sessions that
 * did not count marks are left out).
 *
 * Contracts:
 *   studystats_mos(v, n, out)   n, mean, sd, 95 % interval of v[0..n);
 *        mean NAN for n < 1, sd and the interval NAN for n < 2.
 *   studystats_clip(s, lo, hi)  the interval of s clipped to [lo, hi] (NAN
 *        stays NAN; the mean and sd are left alone).
 *   studystats_pearson(x, y, n) Pearson's r; NAN for n < 2 or when x or y
 *        does not vary.
 *   studystats_report(plan, d, m, out, err)  the whole report of ratings d
 *        (every pair) and metrics m; false + err when memory runs out.
 */
#ifndef NR_STUDYSTATS_H
#define NR_STUDYSTATS_H

#include "studydata.h"

typedef struct MosStat {
    int n;
    double mean, sd, lo, hi; /* lo, hi: the 95 % interval of the mean */
} MosStat;

typedef struct StudyReport {
    MosStat mos[STUDY_MAX_CONDITIONS][STUDY_MAX_QUESTIONS];
    double incons[STUDY_MAX_CONDITIONS];   /* mean over the condition's rated races */
    double fairness[STUDY_MAX_CONDITIONS];
    int races[STUDY_MAX_CONDITIONS];       /* rated races with metrics */
    int rep_n[STUDY_MAX_QUESTIONS];
    double rep_mad[STUDY_MAX_QUESTIONS], rep_same[STUDY_MAX_QUESTIONS];
    int corr_n[STUDY_MAX_QUESTIONS];
    double r_incons[STUDY_MAX_QUESTIONS], r_disadv[STUDY_MAX_QUESTIONS];
    MosStat marks[STUDY_MAX_CONDITIONS];   /* dissatisfaction marks per player and rated race */
} StudyReport;

void studystats_mos(const double *v, int n, MosStat *out);
void studystats_clip(MosStat *s, double lo, double hi);
double studystats_pearson(const double *x, const double *y, int n);
bool studystats_report(const StudyPlan *plan, const StudyData *d, const StudyMetrics *m, StudyReport *out,
                       NrError *err);

#endif
