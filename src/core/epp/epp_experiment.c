/* The EPP experiment loop (Cheung & Sakamoto 2007, Tables 1-3, Fig. 5). */
#include "epp_experiment.h"
#include "epp_link.h"
#include "epp_sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const scheme_names[EPPX_COUNT] = {"raw", "EP-p", "EP-i", "xd", "xv", "xa"};

const char *epp_exp_scheme_name(int k)
{
    return k >= 0 && k < EPPX_COUNT ? scheme_names[k] : "?";
}

bool epp_condition_init(EppCondition *c, const char *delay_part, double loss, int rate_hz, NrError *err)
{
    memset(c, 0, sizeof *c);
    /* delay_part passed linkspec_parse (under 1024 characters): room for it
     * and the loss, so nothing is cut off silently. */
    char text[2048];
    if (loss > 0)
        snprintf(text, sizeof text, "%s loss %.10g%%", delay_part, loss * 100.0);
    else
        snprintf(text, sizeof text, "%s", delay_part);
    NrError e = {{0}};
    if (!linkspec_parse(&c->spec, text, NULL, &e))
        return nr_error_set(err, "link '%s': %s", text, e.msg);
    c->D = epp_horizon(linkspec_mean_ms(&c->spec) * 1000.0, rate_hz);
    epp_pd(&c->spec, rate_hz, c->D, c->pd, &c->closed);
    return true;
}

void epp_condition_free(EppCondition *c)
{
    if (c)
        linkspec_free(&c->spec);
}

/* Linear interpolation of car `car` at time t_us (clamped to the recording). */
static void trace_at(const Recording *rec, int car, int64_t t_us, double *x, double *y)
{
    double period_us = (double)rec->period_ms * 1000.0;
    double f = (double)t_us / period_us;
    int i = (int)floor(f);
    if (i >= rec->nsamples - 1) {
        const RecSample *s = recording_at(rec, car, rec->nsamples - 1);
        *x = s->x;
        *y = s->y;
        return;
    }
    double u = f - i;
    const RecSample *a = recording_at(rec, car, i), *b = recording_at(rec, car, i + 1);
    *x = a->x + u * (b->x - a->x);
    *y = a->y + u * (b->y - a->y);
}

int epp_trace_len(const Recording *rec, int rate_hz)
{
    if (rec->nsamples < 2 || rec->period_ms <= 0)
        return 0;
    int64_t dur_us = (int64_t)(rec->nsamples - 1) * rec->period_ms * 1000;
    return (int)(dur_us * rate_hz / NR_US_PER_S) + 1;
}

/* FNV-1a of a source name: a stable key for its random streams. */
static uint64_t name_key(const char *name)
{
    uint64_t h = UINT64_C(14695981039346656037);
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * UINT64_C(1099511628211);
    return h;
}

static EppCell *cell_at(const EppResults *r, int s, int rate, int loss, int bw, int k)
{
    size_t i = ((((size_t)s * r->nrate + rate) * r->nloss + loss) * r->nbw + bw) * EPPX_COUNT + k;
    return &r->cells[i];
}

const EppCell *epp_results_cell(const EppResults *r, int s, int rate, int loss, int bw, int k)
{
    return cell_at(r, s, rate, loss, bw, k);
}

int epp_results_avail(const EppResults *r, int s, int rate)
{
    return r->avail[s * r->nrate + rate];
}

void epp_results_free(EppResults *r)
{
    if (!r)
        return;
    free(r->cells);
    free(r->avail);
    memset(r, 0, sizeof *r);
}

static void add(EppCell *x, double err)
{
    x->sum += err;
    x->sum2 += err * err;
    x->runs++;
    x->valid = true;
}

/* Every scheme of one run on its traffic, into the cells of bandwidth b. */
static void run_schemes(const EppExperiment *ex, EppResults *out, const EppTraffic *tr, EppWork *work, int s,
                        int r, int q, int n, EppModel method_raw)
{
    const EppSource *S = &ex->src[s];
    const EppCondition *c = &ex->cond[r * ex->nloss + q];
    const int rate = ex->rate[r];
    const int64_t R = epp_stream_bps(rate);
    EppRunStats st;
    EppScheme sc = {.method = method_raw, .pack = EPP_PACK_NONE, .D = c->D, .rate_hz = rate};
    double raw_err = -1;
    if (ex->scheme_on[EPPX_RAW]) {
        epp_run(tr, &sc, EPP_EXP_WARMUP, n, work, &st);
        raw_err = st.err_sum / (double)st.count;
    }
    for (int b = 0; b < ex->nbw; b++) {
        int64_t C = ex->bw[b];
        if (C < R)
            continue;
        if (raw_err >= 0)
            add(cell_at(out, s, r, q, b, EPPX_RAW), raw_err);
        if (S->is_model) {
            for (int k = EPPX_EPP; k <= EPPX_EPI; k++) {
                if (!ex->scheme_on[k])
                    continue;
                sc.method = S->model;
                sc.pack = k == EPPX_EPP ? EPP_PACK_PIGGYBACK : EPP_PACK_INDEPENDENT;
                sc.c_bps = C;
                epp_run(tr, &sc, EPP_EXP_WARMUP, n, work, &st);
                add(cell_at(out, s, r, q, b, k), st.err_sum / (double)st.count);
            }
        } else if (b < ex->ntable) {
            for (int k = EPPX_XD; k <= EPPX_XA; k++) {
                if (!ex->scheme_on[k])
                    continue;
                EppModel m = (EppModel)(k - EPPX_XD);
                EppChoice ch;
                epp_choose(m, c->D, c->pd, C, R, rate, &ch);
                sc.method = m;
                sc.pack = ch.pack;
                sc.c_bps = C;
                epp_run(tr, &sc, EPP_EXP_WARMUP, n, work, &st);
                add(cell_at(out, s, r, q, b, k), st.err_sum / (double)st.count);
            }
        }
    }
}

bool epp_experiment_run(const EppExperiment *ex, EppResults *out, NrError *err)
{
    memset(out, 0, sizeof *out);
    out->nsrc = ex->nsrc;
    out->nrate = ex->nrate;
    out->nloss = ex->nloss;
    out->nbw = ex->nbw;
    size_t ncells = (size_t)(ex->nsrc ? ex->nsrc : 1) * ex->nrate * ex->nloss * ex->nbw * EPPX_COUNT;
    out->cells = calloc(ncells, sizeof *out->cells);
    out->avail = malloc(sizeof *out->avail * (size_t)(ex->nsrc ? ex->nsrc : 1) * (size_t)ex->nrate);
    int maxn = EPP_EXP_WARMUP + ex->samples;
    EppTraffic tr = {0};
    EppWork work = {0};
    if (!out->cells || !out->avail || !epp_traffic_alloc(&tr, maxn, err) || !epp_work_alloc(&work, maxn, err)) {
        epp_traffic_free(&tr);
        epp_results_free(out);
        return nr_error_set(err, "out of memory for %d updates", maxn);
    }
    for (int s = 0; s < ex->nsrc; s++) {
        const EppSource *S = &ex->src[s];
        for (int r = 0; r < ex->nrate; r++) {
            const int rate = ex->rate[r];
            int avail = S->is_model ? maxn : epp_trace_len(S->rec, rate);
            int n = avail < maxn ? avail : maxn;
            out->avail[s * ex->nrate + r] = -1;
            int64_t item = (int64_t)s * ex->nrate + r;
            if (ex->item_range && (item < ex->item_first || item >= ex->item_end))
                continue;
            if (n < EPP_EXP_WARMUP + 10) {
                out->avail[s * ex->nrate + r] = avail;
                continue;
            }
            for (int q = 0; q < ex->nloss; q++) {
                const EppCondition *c = &ex->cond[r * ex->nloss + q];
                for (int run = 0; run < ex->runs; run++) {
                    uint64_t stream = rng_hash(rng_hash(name_key(S->name), (uint64_t)rate),
                                               rng_hash((uint64_t)llround(ex->loss[q] * 1e9), (uint64_t)run));
                    Rng rng;
                    rng_seed(&rng, ex->seed, stream);
                    tr.n = n;
                    epp_traffic_times(&tr, rate);
                    EppModel method_raw;
                    if (S->is_model) {
                        epp_traffic_model(&tr, S->model, &rng, EPP_NOISE_P, EPP_NOISE_S);
                        method_raw = S->model;
                    } else {
                        /* a random stretch of the trace for each run */
                        int64_t off_n = avail - n;
                        int64_t off = off_n > 0 ? (int64_t)rng_below(&rng, (uint64_t)off_n + 1) : 0;
                        for (int j = 0; j < n; j++)
                            trace_at(S->rec, S->car, (off + j) * NR_US_PER_S / rate, &tr.x[j], &tr.y[j]);
                        method_raw = ex->raw_dr;
                    }
                    Link lu, le;
                    link_init(&lu, &c->spec, ex->seed, 2 * stream);
                    link_init(&le, &c->spec, ex->seed, 2 * stream + 1);
                    epp_traffic_draw(&tr, &lu, &le);
                    link_free(&lu);
                    link_free(&le);
                    run_schemes(ex, out, &tr, &work, s, r, q, n, method_raw);
                }
            }
        }
    }
    epp_work_free(&work);
    epp_traffic_free(&tr);
    return true;
}
