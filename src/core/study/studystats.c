/* MOS, intervals, repeat agreement and correlations of a study (studystats.h). */
#include "studystats.h"

#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void studystats_mos(const double *v, int n, MosStat *out)
{
    double half;
    out->n = n;
    stats_mean_ci95(v, n, 1, &out->mean, &half);
    out->sd = NAN;
    if (n >= 2) {
        double ss = 0;
        for (int i = 0; i < n; i++)
            ss += (v[i] - out->mean) * (v[i] - out->mean);
        out->sd = sqrt(ss / (n - 1));
    }
    out->lo = out->mean - half;
    out->hi = out->mean + half;
}

void studystats_clip(MosStat *s, double lo, double hi)
{
    if (isfinite(s->lo))
        s->lo = s->lo < lo ? lo : s->lo > hi ? hi : s->lo;
    if (isfinite(s->hi))
        s->hi = s->hi > hi ? hi : s->hi < lo ? lo : s->hi;
}

double studystats_pearson(const double *x, const double *y, int n)
{
    if (n < 2)
        return NAN;
    double mx = 0, my = 0;
    for (int i = 0; i < n; i++) {
        mx += x[i];
        my += y[i];
    }
    mx /= n;
    my /= n;
    double sxy = 0, sxx = 0, syy = 0;
    for (int i = 0; i < n; i++) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    if (sxx <= 0 || syy <= 0)
        return NAN;
    return sxy / sqrt(sxx * syy);
}

static const StudyRaceMetrics *race_metrics(const StudyMetrics *m, int pair, int race)
{
    for (int i = 0; i < m->n; i++)
        if (m->m[i].pair == pair && m->m[i].race == race)
            return &m->m[i];
    return NULL;
}

/* The answer to the first rated race of r's condition by the same player. */
static const StudyRating *original(const StudyData *d, const StudyRating *r)
{
    const StudyRating *best = NULL;
    for (int i = 0; i < d->n; i++) {
        const StudyRating *o = &d->r[i];
        if (o->kind == STUDY_RACE_RATED && o->pair == r->pair && o->player == r->player && o->cond == r->cond &&
            o->question == r->question && (!best || o->race < best->race))
            best = o;
    }
    return best;
}

static void objective_means(const StudyPlan *plan, const StudyMetrics *m, StudyReport *out)
{
    for (int c = 0; c < plan->ncond; c++) {
        double si = 0, sf = 0;
        int k = 0;
        for (int i = 0; i < m->n; i++)
            if (m->m[i].cond == c && m->m[i].kind == STUDY_RACE_RATED && isfinite(m->m[i].inconsistency) &&
                isfinite(m->m[i].fairness)) {
                si += m->m[i].inconsistency;
                sf += m->m[i].fairness;
                k++;
            }
        out->races[c] = k;
        out->incons[c] = k ? si / k : NAN;
        out->fairness[c] = k ? sf / k : NAN;
    }
}

/* Each condition's dissatisfaction marks per player and rated race (the
 * sessions that counted them), as a mean with its 95 % interval. */
static bool marks_stats(const StudyPlan *plan, const StudyMetrics *m, StudyReport *out)
{
    double *v = malloc((size_t)(2 * m->n + 1) * sizeof *v);
    if (!v)
        return false;
    for (int c = 0; c < plan->ncond; c++) {
        int k = 0;
        for (int i = 0; i < m->n; i++)
            for (int j = 0; j < 2; j++)
                if (m->m[i].cond == c && m->m[i].kind == STUDY_RACE_RATED && m->m[i].marks[j] >= 0)
                    v[k++] = m->m[i].marks[j];
        studystats_mos(v, k, &out->marks[c]);
        studystats_clip(&out->marks[c], 0, INFINITY); /* a count is never negative */
    }
    free(v);
    return true;
}

/* One question: the repeat's agreement and the correlations (buffers of d->n). */
static void question_stats(const StudyData *d, const StudyMetrics *m, int q, double *x, double *y, double *z,
                           StudyReport *out)
{
    int nr = 0, same = 0, nc = 0;
    double mad = 0;
    for (int i = 0; i < d->n; i++) {
        const StudyRating *r = &d->r[i];
        if (r->question != q || r->kind == STUDY_RACE_PRACTICE)
            continue;
        if (r->kind == STUDY_RACE_REPEAT) {
            const StudyRating *o = original(d, r);
            if (o) {
                nr++;
                mad += fabs((double)(r->score - o->score));
                same += r->score == o->score;
            }
        }
        const StudyRaceMetrics *rm = race_metrics(m, r->pair, r->race);
        if (rm && isfinite(rm->inconsistency) && isfinite(rm->fairness)) {
            x[nc] = r->score;
            y[nc] = rm->inconsistency;
            z[nc] = r->player == 1 ? rm->fairness : -rm->fairness;
            nc++;
        }
    }
    out->rep_n[q] = nr;
    out->rep_mad[q] = nr ? mad / nr : NAN;
    out->rep_same[q] = nr ? (double)same / nr : NAN;
    out->corr_n[q] = nc;
    out->r_incons[q] = studystats_pearson(x, y, nc);
    out->r_disadv[q] = studystats_pearson(x, z, nc);
}

bool studystats_report(const StudyPlan *plan, const StudyData *d, const StudyMetrics *m, StudyReport *out,
                       NrError *err)
{
    memset(out, 0, sizeof *out);
    size_t n = d->n > 0 ? (size_t)d->n : 1;
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *z = malloc(n * sizeof *z);
    if (!x || !y || !z) {
        free(x);
        free(y);
        free(z);
        return nr_error_set(err, "study report: out of memory");
    }
    for (int c = 0; c < plan->ncond; c++)
        for (int q = 0; q < plan->nq; q++) {
            int k = 0;
            for (int i = 0; i < d->n; i++)
                if (d->r[i].cond == c && d->r[i].question == q && d->r[i].kind == STUDY_RACE_RATED)
                    x[k++] = d->r[i].score;
            studystats_mos(x, k, &out->mos[c][q]);
            if (plan->q[q].kind == STUDY_Q_YESNO) /* the share of yes */
                studystats_clip(&out->mos[c][q], 0, 1);
            else /* the five grades */
                studystats_clip(&out->mos[c][q], 1, 5);
        }
    objective_means(plan, m, out);
    for (int q = 0; q < plan->nq; q++)
        question_stats(d, m, q, x, y, z, out);
    free(x);
    if (!marks_stats(plan, m, out))
        return nr_error_set(err, "study report: out of memory");
    free(y);
    free(z);
    return true;
}
