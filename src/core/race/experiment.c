/* Batch runs, the sweep grid and the long-format result CSV. */
#include "experiment.h"

#include <inttypes.h>
#include <string.h>

void experiment_results(const Engine *e, RunResult *out)
{
    for (int k = 0; k < engine_scheme_count(e); k++) {
        const Metrics *m = engine_metrics(e, k);
        RunResult *r = &out[k];
        r->scheme = engine_scheme(e, k);
        r->samples = m->samples;
        r->inconsistency_rate = metrics_inconsistency_rate(m);
        r->mean_d1_minus_d2 = metrics_mean_d1_minus_d2(m);
        r->mean_d1 = metrics_mean_d1(m);
        r->mean_d2 = metrics_mean_d2(m);
        r->mean_abs_d1 = metrics_mean_abs_d1(m);
        r->mean_abs_d2 = metrics_mean_abs_d2(m);
        memcpy(r->dir, m->dir, sizeof r->dir);
        r->ncars = m->ncars;
        r->pair_rate = metrics_pair_rate(m);
        r->spread = metrics_fairness_spread(m);
        for (int c = 0; c < ENGINE_MAX_CARS; c++)
            r->disadvantage[c] = c < m->ncars ? metrics_disadvantage(m, c) : 0.0;
    }
}

bool experiment_run(const EngineConfig *cfg, const Recording *rec, RunResult *out, NrError *err)
{
    return experiment_run_scripted(cfg, rec, NULL, out, err);
}

bool experiment_run_scripted(const EngineConfig *cfg, const Recording *rec, const LinkScript *script,
                             RunResult *out, NrError *err)
{
    Replay *r = replay_new(cfg, rec, false, err);
    if (!r)
        return false;
    Engine *e = replay_engine(r);
    int cursor = 0;
    if (linkscript_run_to(script, &cursor, e, replay_end_us(r), linkscript_step_replay, r, NULL, err) < 0) {
        replay_free(r);
        return false;
    }
    experiment_results(e, out);
    replay_free(r);
    return true;
}

int sweep_points(const SweepSpec *spec, SweepPoint *out, int max)
{
    int n = 0;
    for (int j = 0; j < spec->njitters; j++)
        for (int d = 0; d < spec->ndelays; d++) {
            if (spec->jitters_ms[j] > spec->delays_ms[d])
                continue; /* the paper skips points whose jitter exceeds the mean */
            if (n < max)
                out[n] = (SweepPoint){spec->delays_ms[d], spec->jitters_ms[j]};
            n++;
        }
    return n < max ? n : max;
}

void sweep_link_text(const SweepSpec *spec, const SweepPoint *pt, char *buf, size_t n)
{
    int w = snprintf(buf, n, "delay %" PRId64 "ms", pt->delay_ms);
    if (pt->jitter_ms > 0 && w >= 0 && (size_t)w < n) {
        w += snprintf(buf + w, n - (size_t)w, " %" PRId64 "ms", pt->jitter_ms);
        if (spec->distribution[0] && w >= 0 && (size_t)w < n)
            w += snprintf(buf + w, n - (size_t)w, " distribution %s", spec->distribution);
    }
    if (spec->extra[0] && w >= 0 && (size_t)w < n)
        snprintf(buf + w, n - (size_t)w, " %s", spec->extra);
}

void result_csv_header_fields(FILE *f)
{
    fputs("scheme,delay12_ms,jitter12_ms,delay21_ms,jitter21_ms,delta_ms,tdr,seed,"
          "inconsistency_rate,mean_d1_minus_d2,mean_abs_d1,mean_abs_d2,mean_d1,mean_d2,"
          "sent12,sent21,delivered12,delivered21,lost12,lost21,late12,late21,"
          "discarded12,discarded21,bytes12,bytes21,samples",
          f);
}

void result_csv_header(FILE *f)
{
    result_csv_header_fields(f);
    fputc('\n', f);
}

void result_csv_row(FILE *f, const RunKey *key, const RunResult *r)
{
    result_csv_row_fields(f, key, r);
    fputc('\n', f);
}

void result_csv_row_fields(FILE *f, const RunKey *key, const RunResult *r)
{
    const DirCounters *a = &r->dir[0], *b = &r->dir[1];
    fprintf(f,
            "%s,%g,%g,%g,%g,%g,%g,%" PRIu64 ",%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,"
            "%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64
            ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64,
            r->scheme->name, key->delay12_ms, key->jitter12_ms, key->delay21_ms, key->jitter21_ms,
            key->delta_ms, key->tdr, key->seed, r->inconsistency_rate, r->mean_d1_minus_d2,
            r->mean_abs_d1, r->mean_abs_d2, r->mean_d1, r->mean_d2, a->sent, b->sent, a->delivered,
            b->delivered, a->lost, b->lost, a->late, b->late, a->discarded, b->discarded, a->bytes,
            b->bytes, r->samples);
}
