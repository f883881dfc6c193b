/* Experiments of the one-sender world: every algorithm x every seed, the
 * budget algorithms' lowered threshold (Section 5.1 step a), the results as
 * data, their CSV and their summary. */
#include "fairsim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const FairAlgo *fair_algo_find(const char *name)
{
    for (int i = 0; fair_algos[i]; i++)
        if (strcmp(fair_algos[i]->name, name) == 0)
            return fair_algos[i];
    return NULL;
}

void fair_results_free(FairResults *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->nseries; i++)
        fairseries_free(&r->series[i]);
    free(r->series);
    r->series = NULL;
    r->nseries = 0;
}

/* Section 5.1 step a) read literally: n' t' = n t with n' = B copies per
 * trigger, so the budget algorithms need t' = n t / B triggers where base
 * has t at the normal threshold. The trigger count falls as the threshold
 * rises (not strictly: the count is a step function of the path), so a
 * bisection on the logarithm of the threshold keeps lo at t' or more and
 * hi below and returns lo, the largest threshold found that reaches t'.
 * When even 1e-6 of the threshold does not reach t' (a path whose vectors
 * are exact between changes, such as the tank's), lo is that floor and
 * *got says how far it fell short. */
static double auto_budget_threshold(const FairExperiment *ex, FairResults *out)
{
    FairConfig cfg = ex->cfg;
    int64_t period_us = (int64_t)cfg.rec->period_ms * NR_US_PER_MS;
    int64_t len_us = (int64_t)(cfg.rec->nsamples - 1) * period_us;
    int64_t snap_us = cfg.snapshot_us > 0 ? cfg.snapshot_us : 100 * NR_US_PER_MS;
    if (cfg.duration_us <= 0 || cfg.duration_us > len_us)
        cfg.duration_us = len_us;
    cfg.duration_us -= cfg.duration_us % snap_us; /* as fairsim_new runs it */
    double thr = cfg.threshold_cw > 0.0 ? cfg.threshold_cw : 0.25;
    double budget = cfg.budget > 0.0 ? cfg.budget : cfg.nrecv / 3.0;
    int64_t t = fair_count_triggers(&cfg, thr);
    out->budget_triggers_want = (int64_t)ceil((double)cfg.nrecv * (double)t / budget - 1e-9);
    double lo = thr * 1e-6, hi = thr;
    if (fair_count_triggers(&cfg, hi) >= out->budget_triggers_want) {
        lo = hi; /* B >= n: the normal threshold already has enough */
    } else if (fair_count_triggers(&cfg, lo) >= out->budget_triggers_want) {
        for (int k = 0; k < 60; k++) {
            double mid = sqrt(lo * hi);
            if (fair_count_triggers(&cfg, mid) >= out->budget_triggers_want)
                lo = mid;
            else
                hi = mid;
        }
    }
    out->budget_triggers_got = fair_count_triggers(&cfg, lo);
    return lo;
}

bool fair_experiment_run(const FairExperiment *ex, FairResults *out, NrError *err)
{
    memset(out, 0, sizeof *out);
    if (ex->nalgos < 1 || ex->nalgos > FAIR_MAX_ALGOS || ex->runs < 1)
        return nr_error_set(err, "need 1 to %d algorithms and at least one run", FAIR_MAX_ALGOS);
    if (ex->budget_threshold_auto && (!ex->cfg.rec || ex->cfg.rec->nsamples < 2 || ex->cfg.rec->period_ms <= 0 ||
                                      ex->cfg.car < 0 || ex->cfg.car >= ex->cfg.rec->ncars || ex->cfg.nrecv < 1))
        return nr_error_set(err, "the budget threshold needs a valid path and receivers");
    double budget_thr = ex->budget_threshold_auto ? auto_budget_threshold(ex, out) : ex->budget_threshold_cw;
    out->budget_threshold_cw = budget_thr > 0.0 ? budget_thr : ex->cfg.threshold_cw;
    out->series = calloc((size_t)ex->nalgos * (size_t)ex->runs, sizeof *out->series);
    if (!out->series)
        return nr_error_set(err, "out of memory");
    out->nrecv = ex->cfg.nrecv;
    for (int a = 0; a < ex->nalgos; a++)
        for (int k = 0; k < ex->runs; k++) {
            int64_t item = (int64_t)a * ex->runs + k;
            if (ex->item_range && (item < ex->item_first || item >= ex->item_end))
                continue;
            FairConfig cfg = ex->cfg;
            cfg.seed = ex->cfg.seed + (uint64_t)k;
            if (ex->algos[a]->lowered_threshold && budget_thr > 0.0)
                cfg.threshold_cw = budget_thr;
            FairSim *s = fairsim_new(&cfg, ex->algos[a], err);
            if (!s) {
                fair_results_free(out);
                return false;
            }
            bool ok = fairsim_run(s, &out->series[out->nseries], err);
            fairsim_free(s);
            if (!ok) {
                fair_results_free(out);
                return false;
            }
            out->nseries++;
        }
    return true;
}

bool fair_results_write_csv(const FairResults *r, FILE *f, NrError *err)
{
    return fair_results_write_csv_prefixed(r, f, "", "", true, err);
}

bool fair_results_write_csv_prefixed(const FairResults *r, FILE *f, const char *names, const char *values,
                                     bool header, NrError *err)
{
    int nrecv = r->nseries ? r->series[0].nrecv : r->nrecv;
    if (header) {
        fprintf(f, "%salgorithm,seed,t_s,mean_error,sd_error,dr_sent", names);
        for (int m = 0; m < nrecv; m++)
            fprintf(f, ",err_r%d", m + 1);
        fputc('\n', f);
    }
    for (int i = 0; i < r->nseries; i++) {
        const FairSeries *s = &r->series[i];
        for (int k = 0; k < s->nsnap; k++) {
            fprintf(f, "%s%s,%llu,%.3f,%.9g,%.9g,%lld", values, s->algo, (unsigned long long)s->seed, s->t_s[k],
                    s->mean[k], s->sd[k], (long long)s->dr_sent[k]);
            for (int m = 0; m < s->nrecv; m++)
                fprintf(f, ",%.9g", s->err[(size_t)k * (size_t)s->nrecv + (size_t)m]);
            fputc('\n', f);
        }
    }
    if (ferror(f))
        return nr_error_set(err, "writing the CSV failed");
    return true;
}

int fair_results_summary(const FairResults *r, FairSummary *rows, int max_rows)
{
    int n = 0;
    int count[FAIR_MAX_ALGOS] = {0};
    for (int i = 0; i < r->nseries; i++) {
        const FairSeries *s = &r->series[i];
        int a = 0;
        while (a < n && strcmp(rows[a].algo, s->algo) != 0)
            a++;
        if (a == n) {
            if (n >= max_rows || n >= FAIR_MAX_ALGOS)
                continue;
            memset(&rows[n], 0, sizeof rows[n]);
            rows[n].algo = s->algo;
            n++;
        }
        if (s->nsnap < 1)
            continue;
        int k = s->nsnap - 1;
        rows[a].final_mean += s->mean[k];
        rows[a].final_sd += s->sd[k];
        rows[a].dr_sent += (double)s->dr_sent[k];
        rows[a].triggers += (double)s->triggers;
        rows[a].nrecv = s->nrecv;
        for (int m = 0; m < s->nrecv && m < FAIR_MAX_RECEIVERS; m++)
            rows[a].final_err[m] += s->err[(size_t)k * (size_t)s->nrecv + (size_t)m];
        count[a]++;
    }
    for (int a = 0; a < n; a++)
        if (count[a]) {
            rows[a].final_mean /= count[a];
            rows[a].final_sd /= count[a];
            rows[a].dr_sent /= count[a];
            rows[a].triggers /= count[a];
            for (int m = 0; m < rows[a].nrecv; m++)
                rows[a].final_err[m] /= count[a];
        }
    return n;
}
