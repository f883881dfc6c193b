/* Local- versus global-clock DR placement over fixed delays (accuracy paper). */
#include "accuracy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void accuracy_result_free(AccuracyResult *r)
{
    if (!r)
        return;
    free(r->t_s);
    free(r->local_err);
    free(r->global_err);
    r->t_s = r->local_err = r->global_err = NULL;
}

/* The configuration's checks; *thr = the DR threshold in force (cw). */
static bool check_config(const AccuracyConfig *cfg, double *thr, NrError *err)
{
    const Recording *rec = cfg->rec;
    if (!rec || rec->nsamples < 2 || rec->period_ms <= 0)
        return nr_error_set(err, "the sender's path needs at least 2 samples and a period > 0 ms");
    if (cfg->car < 0 || cfg->car >= rec->ncars)
        return nr_error_set(err, "car %d not in the recording", cfg->car + 1);
    if (cfg->ndelays < 1 || cfg->ndelays > ACCURACY_MAX_DELAYS)
        return nr_error_set(err, "%d delays; expected 1 to %d", cfg->ndelays, ACCURACY_MAX_DELAYS);
    for (int d = 0; d < cfg->ndelays; d++)
        if (cfg->delay_us[d] < 0)
            return nr_error_set(err, "delay %lld us; expected >= 0", (long long)cfg->delay_us[d]);
    *thr = cfg->threshold_cw == 0.0 ? 0.25 : cfg->threshold_cw;
    if (!(*thr > 0.0))
        return nr_error_set(err, "threshold must be > 0");
    return true;
}

/* The sender's vectors over the first n samples (independent of the
 * receivers): DR_0, then one at every sample whose position the current
 * vector misses by more than thr. Returns their count. */
static int sender_vectors(const AccuracyConfig *cfg, int64_t period_us, int n, double thr, DrVec *vec)
{
    int nvec = 0;
    fair_sample_vec(cfg->rec, cfg->car, period_us, cfg->velocity, 0, &vec[nvec++]);
    for (int i = 1; i < n; i++) {
        DrVec v;
        fair_sample_vec(cfg->rec, cfg->car, period_us, cfg->velocity, i, &v);
        if (drvec_exceeds(&vec[nvec - 1], v.t_us, v.x, v.y, thr))
            vec[nvec++] = v;
    }
    return nvec;
}

/* As the global-clock receiver uses it: x + v (r(t) - s(T)) with r(t) =
 * (1 + rd) t + ro is the line through (x, y) at true time t = (s(T) - ro) /
 * (1 + rd) with velocity (1 + rd) v. With perfect clocks this is vec[k]
 * unchanged (bit for bit). */
static void stamp_vectors(const AccuracyConfig *cfg, const DrVec *vec, int nvec, DrVec *stamped)
{
    double rrate = 1.0 + cfg->recv_drift_ppm * 1e-6;
    for (int k = 0; k < nvec; k++) {
        stamped[k] = vec[k];
        if (cfg->clock_offset_us == 0 && cfg->clock_drift_ppm == 0.0 && cfg->recv_offset_us == 0 &&
            cfg->recv_drift_ppm == 0.0)
            continue;
        double stamp = (double)vec[k].t_us * (1.0 + cfg->clock_drift_ppm * 1e-6) + (double)cfg->clock_offset_us;
        stamped[k].t_us = (int64_t)llround((stamp - (double)cfg->recv_offset_us) / rrate);
        stamped[k].vx *= rrate;
        stamped[k].vy *= rrate;
    }
}

/* The two receivers at one delay. */
typedef struct Receivers {
    ExportAcc loc, glob;
    int e, a;     /* next vector to export / to arrive */
    double rrate; /* the receivers' clock rate, 1 + drift */
} Receivers;

/* Every export and arrival due by time t (us), in time order. */
static void deliver_until(Receivers *rv, const DrVec *vec, const DrVec *stamped, int nvec, int64_t delay, int64_t t)
{
    for (;;) {
        int64_t te = rv->e < nvec ? vec[rv->e].t_us : INT64_MAX;
        int64_t ta = rv->a < rv->e ? vec[rv->a].t_us + delay : INT64_MAX;
        if (te > t && ta > t)
            return;
        if (te <= ta) { /* export first at a tie: a vector exists before it arrives */
            exportacc_export(&rv->loc, te, &vec[rv->e], rv->e);
            exportacc_export(&rv->glob, te, &vec[rv->e], rv->e);
            rv->e++;
        } else {
            DrVec l = vec[rv->a];
            l.t_us = ta;        /* local clock: extrapolate from receipt */
            l.vx *= rv->rrate;  /* at the receivers' clock rate */
            l.vy *= rv->rrate;
            exportacc_place(&rv->loc, ta, &l, rv->a);
            exportacc_place(&rv->glob, ta, &stamped[rv->a], rv->a);
            rv->a++;
        }
    }
}

/* Delay index d: the distance between the real path and each placed path
 * at every sample, their means and the export error split. */
static void run_delay(const AccuracyConfig *cfg, int d, const DrVec *vec, const DrVec *stamped, int nvec,
                      int64_t period_us, AccuracyResult *out)
{
    int n = out->nsamples;
    int64_t delay = cfg->delay_us[d];
    out->delay_us[d] = delay;
    Receivers rv = {.e = 1, .a = 1, .rrate = 1.0 + cfg->recv_drift_ppm * 1e-6};
    exportacc_init(&rv.loc, &vec[0], 0, 0);
    exportacc_init(&rv.glob, &vec[0], 0, 0);
    double sl = 0.0, sg = 0.0;
    for (int i = 0; i < n; i++) {
        int64_t t = (int64_t)i * period_us;
        deliver_until(&rv, vec, stamped, nvec, delay, t);
        exportacc_advance(&rv.loc, t);
        exportacc_advance(&rv.glob, t);
        const RecSample *p = recording_at(cfg->rec, cfg->car, i);
        double x, y;
        drvec_at(&rv.loc.placed, t, &x, &y);
        double el = hypot(p->x - x, p->y - y);
        drvec_at(&rv.glob.placed, t, &x, &y);
        double eg = hypot(p->x - x, p->y - y);
        out->local_err[(size_t)d * (size_t)n + (size_t)i] = el;
        out->global_err[(size_t)d * (size_t)n + (size_t)i] = eg;
        sl += el;
        sg += eg;
    }
    out->mean_local[d] = sl / n;
    out->mean_global[d] = sg / n;
    out->before_local[d] = rv.loc.before;
    out->after_local[d] = rv.loc.after;
    out->before_global[d] = rv.glob.before;
    out->after_global[d] = rv.glob.after;
}

bool accuracy_run(const AccuracyConfig *cfg, AccuracyResult *out, NrError *err)
{
    memset(out, 0, sizeof *out);
    double thr = 0.0;
    if (!check_config(cfg, &thr, err))
        return false;
    const Recording *rec = cfg->rec;
    int64_t period_us = (int64_t)rec->period_ms * NR_US_PER_MS;
    int n = rec->nsamples;
    if (cfg->duration_us > 0 && cfg->duration_us / period_us + 1 < n)
        n = (int)(cfg->duration_us / period_us) + 1;
    DrVec *vec = calloc((size_t)n, sizeof *vec);
    DrVec *stamped = calloc((size_t)n, sizeof *stamped);
    out->t_s = calloc((size_t)n, sizeof *out->t_s);
    out->local_err = calloc((size_t)n * (size_t)cfg->ndelays, sizeof *out->local_err);
    out->global_err = calloc((size_t)n * (size_t)cfg->ndelays, sizeof *out->global_err);
    if (!vec || !stamped || !out->t_s || !out->local_err || !out->global_err) {
        free(vec);
        free(stamped);
        accuracy_result_free(out);
        return nr_error_set(err, "out of memory");
    }
    int nvec = sender_vectors(cfg, period_us, n, thr, vec);
    stamp_vectors(cfg, vec, nvec, stamped);
    out->triggers = nvec - 1;
    out->ndelays = cfg->ndelays;
    out->nsamples = n;
    for (int i = 0; i < n; i++)
        out->t_s[i] = (double)((int64_t)i * period_us) / (double)NR_US_PER_S;
    for (int d = 0; d < cfg->ndelays; d++)
        run_delay(cfg, d, vec, stamped, nvec, period_us, out);
    free(vec);
    free(stamped);
    return true;
}

bool accuracy_write_csv(const AccuracyResult *r, FILE *f, NrError *err)
{
    fprintf(f, "delay_ms,t_s,local_error,global_error\n");
    for (int d = 0; d < r->ndelays; d++)
        for (int i = 0; i < r->nsamples; i++)
            fprintf(f, "%.3f,%.3f,%.9g,%.9g\n", (double)r->delay_us[d] / 1000.0, r->t_s[i],
                    r->local_err[(size_t)d * (size_t)r->nsamples + (size_t)i],
                    r->global_err[(size_t)d * (size_t)r->nsamples + (size_t)i]);
    if (ferror(f))
        return nr_error_set(err, "writing the CSV failed");
    return true;
}
