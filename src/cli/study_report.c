/* `netrace study --report DIR...`: the sessions of one plan read together,
 * MOS with 95 % intervals, the hidden repeat's agreement, the scores against
 * the objective measures (studystats.h), as a table, a long CSV and a plot. */
#include "study_cli.h"

#include "nr_file.h"
#include "plot.h"
#include "studystats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CMD STUDY_CMD
#define PATH_LEN 4200

typedef struct Report {
    StudyPlan plan;
    StudyData d;     /* every pair's ratings */
    StudyMetrics m;  /* every pair's races */
    int pairs;
    StudyReport r;
} Report;

/* Appends src's rows to dst (the arrays grow as one). */
static bool merge(Report *rp, const StudyData *d, const StudyMetrics *m)
{
    StudyRating *r = realloc(rp->d.r, (size_t)(rp->d.n + d->n + 1) * sizeof *r);
    if (r)
        rp->d.r = r;
    StudyRaceMetrics *x = realloc(rp->m.m, (size_t)(rp->m.n + m->n + 1) * sizeof *x);
    if (x)
        rp->m.m = x;
    if (!r || !x)
        return false;
    memcpy(rp->d.r + rp->d.n, d->r, (size_t)d->n * sizeof *r);
    rp->d.n += d->n;
    rp->d.cap = rp->d.n;
    memcpy(rp->m.m + rp->m.n, m->m, (size_t)m->n * sizeof *x);
    rp->m.n += m->n;
    rp->m.cap = rp->m.n;
    return true;
}

bool study_read_csv(const char *dir, const char *name, const StudyPlan *plan, StudyData *d, StudyMetrics *m,
                    NrError *err)
{
    char path[PATH_LEN];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = nr_file_open(path, d ? "a session's ratings.csv" : "a session's metrics.csv", err);
    if (!f)
        return false;
    bool ok = d ? studydata_read_ratings(d, plan, f, path, err) : studydata_read_metrics(m, plan, f, path, err);
    fclose(f);
    return ok;
}

/* One session folder: its plan must be the first folder's, its pair new. */
static int add_dir(Report *rp, const char *dir, bool first)
{
    char path[PATH_LEN];
    NrError err = {{0}};
    StudyPlan plan;
    snprintf(path, sizeof path, "%s/plan.study", dir);
    if (!studyplan_load(&plan, path, &err))
        return cli_fail(CMD, "%s (is %s a session folder?)", err.msg, dir);
    if (first)
        rp->plan = plan;
    else if (memcmp(&plan, &rp->plan, sizeof plan) != 0)
        return cli_fail(CMD, "%s: another plan than the first folder's (one report, one plan)", path);
    StudyData d;
    StudyMetrics m;
    memset(&m, 0, sizeof m);
    if (!study_read_csv(dir, "ratings.csv", &rp->plan, &d, NULL, &err))
        return cli_fail(CMD, "%s", err.msg);
    if (!study_read_csv(dir, "metrics.csv", &rp->plan, NULL, &m, &err)) {
        studydata_free(&d);
        return cli_fail(CMD, "%s", err.msg);
    }
    int rc = CLI_OK;
    for (int i = 0; i < d.n && rc == CLI_OK; i++)
        for (int k = 0; k < rp->d.n && rc == CLI_OK; k++)
            if (rp->d.r[k].pair == d.r[i].pair)
                rc = cli_fail(CMD, "%s: pair %d is already in another folder", dir, d.r[i].pair);
    if (rc == CLI_OK && !merge(rp, &d, &m))
        rc = cli_fail(CMD, "out of memory");
    rp->pairs++;
    studydata_free(&d);
    studydata_metrics_free(&m);
    return rc;
}

/* v with the given decimals, or NA where it does not exist (no answers, n < 2) */
static const char *num(char *buf, size_t n, double v, int places)
{
    if (isfinite(v))
        snprintf(buf, n, "%.*f", places, v);
    else
        snprintf(buf, n, "NA");
    return buf;
}

static void print_table(const Report *rp)
{
    const StudyPlan *pl = &rp->plan;
    const StudyReport *r = &rp->r;
    printf("study %s: %d session%s, %d answers; MOS = mean score of the rated races (hidden repeat left out), "
           "95 %% interval from Student's t; acceptable: share of yes\n",
           pl->name, rp->pairs, rp->pairs == 1 ? "" : "s", rp->d.n);
    printf("%-10s %-12s %-12s %4s %6s %6s  %-16s %14s %10s\n", "condition", "scheme", "question", "n", "MOS", "sd",
           "95% interval", "inconsistency", "fairness");
    for (int k = 0; k < pl->nrated; k++) {
        int c = pl->rated[k];
        for (int q = 0; q < pl->nq; q++) {
            const MosStat *s = &r->mos[c][q];
            char ci[64], b[4][24];
            snprintf(ci, sizeof ci, "[%s, %s]", num(b[0], 24, s->lo, 2), num(b[1], 24, s->hi, 2));
            printf("%-10s %-12s %-12s %4d %6s %6s  %-16s %14s %10s\n", pl->cond[c].label, pl->cond[c].scheme,
                   pl->q[q].id, s->n, num(b[0], 24, s->mean, 2), num(b[1], 24, s->sd, 2), ci,
                   num(b[2], 24, r->incons[c], 4), num(b[3], 24, r->fairness[c], 3));
        }
    }
    if (pl->repeat_cond >= 0) {
        printf("hidden repeat of %s: answers compared with the first rated race of the condition\n",
               pl->cond[pl->repeat_cond].label);
        for (int q = 0; q < pl->nq; q++) {
            char b[2][24];
            printf("  %-12s n %3d  mean |difference| %s  identical %s %%\n", pl->q[q].id, r->rep_n[q],
                   num(b[0], 24, r->rep_mad[q], 2), num(b[1], 24, 100.0 * r->rep_same[q], 0));
        }
    }
    printf("dissatisfaction marks while racing, per player and rated race\n");
    for (int k = 0; k < pl->nrated; k++) {
        int c = pl->rated[k];
        const MosStat *s = &r->marks[c];
        char b[4][24];
        printf("  %-10s n %3d  mean %s  95%% interval [%s, %s]\n", pl->cond[c].label, s->n, num(b[0], 24, s->mean, 2),
               num(b[1], 24, s->lo, 2), num(b[2], 24, s->hi, 2));
    }
    printf("scores against the shown scheme's measures of the same race (Pearson r; disadvantage: the rater's "
           "own, d1 - d2 signed for player 1)\n");
    for (int q = 0; q < pl->nq; q++) {
        char b[2][24];
        printf("  %-12s n %3d  r(inconsistency) %6s  r(disadvantage) %6s\n", pl->q[q].id, r->corr_n[q],
               num(b[0], 24, r->r_incons[q], 3), num(b[1], 24, r->r_disadv[q], 3));
    }
}

static void csv_row(FILE *f, const char *study, const char *cond, const char *q, const char *stat, double v, int n)
{
    char buf[64];
    if (isfinite(v))
        nr_format_double(buf, sizeof buf, v);
    else
        snprintf(buf, sizeof buf, "NA");
    fprintf(f, "%s,%s,%s,%s,%s,%d\n", study, cond, q, stat, buf, n);
}

/* study,condition,question,statistic,value,n: one row per number. */
static int write_csv(const Report *rp, const char *path)
{
    const StudyPlan *pl = &rp->plan;
    const StudyReport *r = &rp->r;
    NrPartFile out;
    int rc = CLI_OK;
    FILE *f = cli_out_open(CMD, &out, path, &rc);
    if (!f)
        return rc;
    fprintf(f, "study,condition,question,statistic,value,n\n");
    for (int k = 0; k < pl->nrated; k++) {
        int c = pl->rated[k];
        const char *cl = pl->cond[c].label;
        for (int q = 0; q < pl->nq; q++) {
            const MosStat *s = &r->mos[c][q];
            csv_row(f, pl->name, cl, pl->q[q].id, "mos", s->mean, s->n);
            csv_row(f, pl->name, cl, pl->q[q].id, "sd", s->sd, s->n);
            csv_row(f, pl->name, cl, pl->q[q].id, "ci95_low", s->lo, s->n);
            csv_row(f, pl->name, cl, pl->q[q].id, "ci95_high", s->hi, s->n);
        }
        csv_row(f, pl->name, cl, "", "inconsistency_rate", r->incons[c], r->races[c]);
        csv_row(f, pl->name, cl, "", "fairness", r->fairness[c], r->races[c]);
        csv_row(f, pl->name, cl, "", "marks_per_race", r->marks[c].mean, r->marks[c].n);
    }
    for (int q = 0; q < pl->nq; q++) {
        if (pl->repeat_cond >= 0) {
            const char *cl = pl->cond[pl->repeat_cond].label;
            csv_row(f, pl->name, cl, pl->q[q].id, "repeat_mean_abs_diff", r->rep_mad[q], r->rep_n[q]);
            csv_row(f, pl->name, cl, pl->q[q].id, "repeat_identical_share", r->rep_same[q], r->rep_n[q]);
        }
        csv_row(f, pl->name, "all", pl->q[q].id, "r_inconsistency", r->r_incons[q], r->corr_n[q]);
        csv_row(f, pl->name, "all", pl->q[q].id, "r_disadvantage", r->r_disadv[q], r->corr_n[q]);
    }
    if (!cli_out_close(CMD, &out, !ferror(f), &rc))
        return rc;
    cli_wrote(path);
    return CLI_OK;
}

/* One panel per question: each rated condition's MOS (95 % error bars)
 * against its mean inconsistency rate under the shown scheme. */
static int write_plot(const Report *rp, const char *path)
{
    const StudyPlan *pl = &rp->plan;
    int n = pl->nrated, order[STUDY_MAX_CONDITIONS];
    for (int k = 0; k < n; k++)
        order[k] = pl->rated[k];
    for (int i = 1; i < n; i++) /* by inconsistency, so the curve runs left to right */
        for (int j = i; j > 0 && rp->r.incons[order[j]] < rp->r.incons[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    static double x[STUDY_MAX_CONDITIONS], y[STUDY_MAX_QUESTIONS][STUDY_MAX_CONDITIONS],
        lo[STUDY_MAX_QUESTIONS][STUDY_MAX_CONDITIONS], hi[STUDY_MAX_QUESTIONS][STUDY_MAX_CONDITIONS];
    PlotSeries s[STUDY_MAX_QUESTIONS];
    PlotPanel p[STUDY_MAX_QUESTIONS];
    memset(p, 0, sizeof p);
    for (int k = 0; k < n; k++)
        x[k] = 100.0 * rp->r.incons[order[k]];
    for (int q = 0; q < pl->nq; q++) {
        for (int k = 0; k < n; k++) {
            const MosStat *m = &rp->r.mos[order[k]][q];
            y[q][k] = m->mean;
            lo[q][k] = isfinite(m->lo) ? m->lo : m->mean;
            hi[q][k] = isfinite(m->hi) ? m->hi : m->mean;
        }
        s[q] = (PlotSeries){.label = pl->q[q].id, .x = x, .y = y[q], .n = n, .markers = true, .lo = lo[q],
                            .hi = hi[q]};
        bool acr = pl->q[q].kind == STUDY_Q_ACR5;
        p[q] = (PlotPanel){.title = pl->q[q].id, .xlabel = "inconsistency rate of the shown scheme (%)",
                           .ylabel = acr ? "MOS (5 Excellent .. 1 Bad)" : "share yes", .series = &s[q],
                           .nseries = 1, .fixed_y = true, .ymin = acr ? 1 : 0, .ymax = acr ? 5 : 1};
    }
    char title[STUDY_TEXT_MAX + 64];
    snprintf(title, sizeof title, "study %s: MOS with 95 %% intervals, %d session%s", pl->name, rp->pairs,
             rp->pairs == 1 ? "" : "s");
    PlotFigure fig = {.title = title, .panels = p, .npanels = pl->nq, .cols = pl->nq > 2 ? 2 : pl->nq};
    NrError err = {{0}};
    if (plot_write(&fig, path, &err) != 0)
        return cli_fail(CMD, "%s", err.msg);
    cli_wrote(path);
    return CLI_OK;
}

int study_report(char **dirs, int n, const char *csv, const char *plot)
{
    Report *rp = calloc(1, sizeof *rp);
    if (!rp)
        return cli_fail(CMD, "out of memory");
    int rc = CLI_OK;
    for (int i = 0; i < n && rc == CLI_OK; i++)
        rc = add_dir(rp, dirs[i], i == 0);
    NrError err = {{0}};
    if (rc == CLI_OK && !studystats_report(&rp->plan, &rp->d, &rp->m, &rp->r, &err))
        rc = cli_fail(CMD, "%s", err.msg);
    if (rc == CLI_OK)
        print_table(rp);
    if (rc == CLI_OK && csv)
        rc = write_csv(rp, csv);
    if (rc == CLI_OK && plot)
        rc = write_plot(rp, plot);
    studydata_free(&rp->d);
    studydata_metrics_free(&rp->m);
    free(rp);
    return rc;
}
