/* Reading measured delays and fitting netem's delay model to them. */
#include "linkfit.h"
#include "nr_file.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool push(DelaySeries *s, double ms, const char *path, long no, NrError *err)
{
    if (s->n == DELAYS_MAX)
        return nr_error_set(err, "%s:%ld: more than %d slots", path, no, DELAYS_MAX);
    if (s->n == s->cap) {
        int64_t cap = s->cap ? s->cap * 2 : 4096;
        double *v = realloc(s->ms, sizeof(double) * (size_t)cap);
        if (!v)
            return nr_error_set(err, "%s:%ld: out of memory", path, no);
        s->ms = v;
        s->cap = cap;
    }
    s->ms[s->n++] = ms;
    return true;
}

/* A merge --delays / trace CSV: direction dir's update delays by seq, the
 * seqs without one lost. */
static bool read_trace(FILE *f, const char *path, int dir, DelaySeries *out, NrError *err)
{
    LinkTrace t;
    memset(&t, 0, sizeof t);
    rewind(f);
    if (!linktrace_read(&t, f, path, err))
        return false;
    int d = dir == 21 ? 1 : 0;
    bool ok = t.n[d] > 0 || nr_error_set(err, "%s: no delay of direction %d", path, dir);
    int32_t first = ok ? t.slot[d][0].seq : 0;
    for (int i = 0; ok && i < t.n[d]; i++) {
        const LinkTraceSlot *sl = &t.slot[d][i];
        while (ok && out->n < (int64_t)(sl->seq - first))
            ok = push(out, NAN, path, 0, err);
        if (ok)
            ok = push(out, sl->delay_us >= 0 ? (double)sl->delay_us / 1000.0 : NAN, path, 0, err);
    }
    linktrace_free(&t);
    return ok;
}

/* One line of the one-value format: a delay in ms, `lost`, or `dup MS`. */
static bool read_value(DelaySeries *out, char *s, const char *path, long no, bool may_be_header, bool *header,
                       NrError *err)
{
    double v;
    *header = false;
    if (strcmp(s, "lost") == 0)
        return push(out, NAN, path, no, err);
    if (strncmp(s, "dup ", 4) == 0)
        return true; /* a duplicate's delay: the slot is counted once */
    if (!nr_parse_double(s, &v)) {
        if (may_be_header && strpbrk(s, "abcdefghijklmnopqrstuvwxyz_") && !strpbrk(s, ".0123456789")) {
            *header = true;
            return true;
        }
        return nr_error_set(err, "%s:%ld: expected a delay in ms or 'lost', got '%.40s'", path, no, s);
    }
    if (!isfinite(v) || v < 0)
        return nr_error_set(err, "%s:%ld: delay %.40s: expected a finite number of ms >= 0", path, no, s);
    /* a link spec holds at most LINK_TIME_MAX_US: a longer delay has no fit */
    if (v > (double)LINK_TIME_MAX_US / 1000.0)
        return nr_error_set(err, "%s:%ld: delay %.40s: expected at most %.3f ms (a link's longest delay)", path, no,
                            s, (double)LINK_TIME_MAX_US / 1000.0);
    return push(out, v, path, no, err);
}

bool delays_read(FILE *f, const char *path, int dir, DelaySeries *out, NrError *err)
{
    memset(out, 0, sizeof *out);
    char line[NR_LINE_MAX];
    size_t len;
    bool first = true, ok = true;
    long no = 0;
    for (;;) {
        NrLine r = nr_line_read(f, line, sizeof line, &len);
        no++;
        if (r == NR_LINE_EOF)
            break;
        if (r != NR_LINE_OK) {
            ok = nr_error_set(err, "%s:%ld: %s", path, no,
                              r == NR_LINE_LONG ? "line too long" : r == NR_LINE_NUL ? "NUL byte" : "read error");
            break;
        }
        char *s = nr_trim(line);
        if (!*s || *s == '#')
            continue;
        if (first && strstr(s, "delay_us")) {
            ok = read_trace(f, path, dir, out, err);
            break;
        }
        bool header;
        ok = read_value(out, s, path, no, first, &header, err);
        first = false;
        if (!ok)
            break;
    }
    int64_t delivered = 0;
    for (int64_t i = 0; ok && i < out->n; i++)
        delivered += !isnan(out->ms[i]);
    if (ok && delivered == 0)
        ok = nr_error_set(err, "%s: no delivered delay", path);
    if (!ok)
        delays_free(out);
    return ok;
}

void delays_free(DelaySeries *s)
{
    free(s->ms);
    memset(s, 0, sizeof *s);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Two-sample Kolmogorov-Smirnov distance of sorted x (n) and y (m). */
static double ks_distance(const double *x, int64_t n, const double *y, int64_t m)
{
    int64_t i = 0, j = 0;
    double d = 0;
    while (i < n && j < m) {
        double v = x[i] < y[j] ? x[i] : y[j];
        while (i < n && x[i] == v)
            i++;
        while (j < m && y[j] == v)
            j++;
        double gap = fabs((double)i / (double)n - (double)j / (double)m);
        d = gap > d ? gap : d;
    }
    return d;
}

/* Candidate c's mu and sigma from the sample's moments, its model values
 * (sorted, clipped at 0 as netem sends a negative delay at once) and KS. */
static bool fit_candidate(FitCandidate *c, const double *x, int64_t n, double mean, double sd, const char *table_dir,
                          double *y, NrError *err)
{
    int64_t m = 4096;
    if (strcmp(c->table, "uniform") == 0) {
        c->sigma_ms = sd * sqrt(3.0); /* uniform on [mu - s, mu + s) has sd s / sqrt 3 */
        c->mu_ms = mean;
        for (int64_t k = 0; k < m; k++)
            y[k] = c->mu_ms + c->sigma_ms * (2.0 * ((double)k + 0.5) / (double)m - 1.0);
    } else {
        DistTable t;
        memset(&t, 0, sizeof t);
        if (!disttable_find(&t, c->table, table_dir, err))
            return false;
        double s1 = 0, s2 = 0;
        for (int i = 0; i < t.n; i++) {
            double v = (double)t.v[i] / LINK_DIST_SCALE;
            s1 += v;
            s2 += v * v;
        }
        double tm = s1 / t.n, tsd = sqrt(fmax(s2 / t.n - tm * tm, 0.0));
        c->sigma_ms = tsd > 0 ? sd / tsd : 0;
        c->mu_ms = mean - c->sigma_ms * tm;
        m = t.n;
        for (int i = 0; i < t.n; i++)
            y[i] = c->mu_ms + c->sigma_ms * (double)t.v[i] / LINK_DIST_SCALE;
        disttable_free(&t);
    }
    for (int64_t k = 0; k < m; k++)
        y[k] = y[k] > 0 ? y[k] : 0;
    qsort(y, (size_t)m, sizeof y[0], cmp_double);
    c->ks = ks_distance(x, n, y, m);
    return true;
}

/* Loss rate and runs of lost slots; Gilbert's model when they are bursty. */
static void fit_loss(const DelaySeries *s, LinkFit *f)
{
    f->lost = 0;
    f->runs = 0;
    for (int64_t i = 0; i < s->n; i++)
        if (isnan(s->ms[i])) {
            f->lost++;
            f->runs += i == 0 || !isnan(s->ms[i - 1]);
        }
    f->loss_rate = (double)f->lost / (double)s->n;
    f->mean_burst = f->runs ? (double)f->lost / (double)f->runs : 0;
    f->bursty = f->runs >= 10 && f->loss_rate < 1.0 && f->mean_burst > 1.5 / (1.0 - f->loss_rate);
    if (f->bursty) {
        f->ge_r = 1.0 / f->mean_burst;
        f->ge_p = f->loss_rate * f->ge_r / (1.0 - f->loss_rate);
    }
}

/* Appends to the spec; the text stops at its size (never past it). */
static void spec_add(LinkFit *f, size_t *w, const char *fmt, double a, double b, const char *t)
{
    if (*w >= sizeof f->spec - 1)
        return;
    int n = t ? snprintf(f->spec + *w, sizeof f->spec - *w, fmt, t) : snprintf(f->spec + *w, sizeof f->spec - *w, fmt, a, b);
    if (n > 0)
        *w += (size_t)n < sizeof f->spec - *w ? (size_t)n : sizeof f->spec - 1 - *w;
}

static void write_spec(LinkFit *f)
{
    const FitCandidate *c = &f->cand[f->best];
    size_t w = 0;
    if (f->sd_ms > 0)
        spec_add(f, &w, "delay %.3fms %.3fms", c->mu_ms, c->sigma_ms, NULL);
    else
        spec_add(f, &w, "delay %.3fms", c->mu_ms, 0, NULL);
    if (f->sd_ms > 0 && strcmp(c->table, "uniform") != 0)
        spec_add(f, &w, " distribution %s", 0, 0, c->table);
    if (f->bursty)
        spec_add(f, &w, " loss gemodel %.4f%% %.4f%%", 100 * f->ge_p, 100 * f->ge_r, NULL);
    else if (f->lost > 0)
        spec_add(f, &w, " loss %.4f%%", 100 * f->loss_rate, 0, NULL);
}

bool linkfit_run(const DelaySeries *s, const char *table_dir, LinkFit *out, NrError *err)
{
    static const char *const tables[LINKFIT_CANDIDATES] = {"normal", "pareto", "paretonormal", "uniform"};
    memset(out, 0, sizeof *out);
    out->slots = s->n;
    double *x = malloc(sizeof(double) * (size_t)(s->n > 0 ? s->n : 1));
    double *y = malloc(sizeof(double) * LINK_DIST_MAX);
    bool ok = x && y ? true : nr_error_set(err, "out of memory");
    int64_t n = 0;
    double sum = 0, sum2 = 0;
    for (int64_t i = 0; ok && i < s->n; i++)
        if (!isnan(s->ms[i])) {
            x[n++] = s->ms[i];
            sum += s->ms[i];
        }
    if (ok && n < 2)
        ok = nr_error_set(err, "%lld delivered delays: at least 2 are needed", (long long)n);
    if (ok) {
        out->delivered = n;
        out->mean_ms = sum / (double)n;
        for (int64_t i = 0; i < n; i++)
            sum2 += (x[i] - out->mean_ms) * (x[i] - out->mean_ms);
        out->sd_ms = sqrt(sum2 / (double)n);
        qsort(x, (size_t)n, sizeof x[0], cmp_double);
    }
    for (int c = 0; ok && c < LINKFIT_CANDIDATES; c++) {
        out->cand[c].table = tables[c];
        ok = fit_candidate(&out->cand[c], x, n, out->mean_ms, out->sd_ms, table_dir, y, err);
        if (ok && out->cand[c].ks < out->cand[out->best].ks)
            out->best = c;
    }
    if (ok) {
        fit_loss(s, out);
        write_spec(out);
    }
    free(x);
    free(y);
    return ok;
}
