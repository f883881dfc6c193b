/* Link spec parser (netem grammar) and the per-slot draw (netem arithmetic).
 *
 * The arithmetic follows Linux net/sched/sch_netem.c (tabledist, get_crandom,
 * loss_event, loss_gilb_ell, netem_enqueue) and the grammar iproute2's
 * tc/q_netem.c; both read as references, reimplemented here on integer
 * microseconds instead of nanoseconds. docs/link.md lists what differs. */
#include "link.h"

#include <ctype.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SPEC_MAX 1024
#define TOKENS_MAX 64
#define KEYWORDS "delay, distribution, gamma, loss, duplicate, order, trace"

/* ---- Small helpers ------------------------------------------------------- */

/* netem scales a probability in [0, 1] to a 32-bit fraction: rint(p * ~0U). */
static uint32_t prob_u32(double p)
{
    if (!(p > 0.0))
        return 0;
    if (p >= 1.0)
        return UINT32_MAX;
    return (uint32_t)rint(p * (double)UINT32_MAX);
}

static uint32_t rand_u32(Rng *r)
{
    return (uint32_t)(rng_u64(r) >> 32);
}

/* A token that netem would treat as the optional number after a keyword
 * (NEXT_IS_NUMBER); we also catch signed numbers to report them clearly. */
static bool looks_numeric(const char *s)
{
    if (*s == '-' || *s == '+')
        s++;
    return isdigit((unsigned char)s[0]) || (s[0] == '.' && isdigit((unsigned char)s[1]));
}

static void fmt_time(char *buf, size_t n, int64_t us)
{
    if (us != 0 && us % NR_US_PER_S == 0)
        snprintf(buf, n, "%llds", (long long)(us / NR_US_PER_S));
    else if (us % NR_US_PER_MS == 0)
        snprintf(buf, n, "%lldms", (long long)(us / NR_US_PER_MS));
    else
        snprintf(buf, n, "%lldus", (long long)us);
}

/* TIME: a number and a unit (us, usec, usecs, ms, msec, msecs, s, sec, secs,
 * ns, nsec, nsecs; case-insensitive as in tc). Rounded to whole us. */
static bool parse_time(const char *tok, const char *what, int64_t *out, NrError *err)
{
    char *end = NULL;
    double v = strtod(tok, &end);
    if (end == tok || !looks_numeric(tok))
        return nr_error_set(err, "%s '%s': expected a time such as 75ms (units us, ms, s)", what, tok);
    if (*end == '\0')
        return nr_error_set(err, "%s '%s': missing unit: expected a time such as %sms (units us, ms, s)",
                            what, tok, tok);
    double mult;
    if (strcasecmp(end, "s") == 0 || strcasecmp(end, "sec") == 0 || strcasecmp(end, "secs") == 0)
        mult = 1e6;
    else if (strcasecmp(end, "ms") == 0 || strcasecmp(end, "msec") == 0 || strcasecmp(end, "msecs") == 0)
        mult = 1e3;
    else if (strcasecmp(end, "us") == 0 || strcasecmp(end, "usec") == 0 || strcasecmp(end, "usecs") == 0)
        mult = 1.0;
    else if (strcasecmp(end, "ns") == 0 || strcasecmp(end, "nsec") == 0 || strcasecmp(end, "nsecs") == 0)
        mult = 1e-3;
    else
        return nr_error_set(err, "%s '%s': unknown unit '%s': expected us, ms or s", what, tok, end);
    if (!isfinite(v))
        return nr_error_set(err, "%s '%s': expected a finite time", what, tok);
    if (v < 0)
        return nr_error_set(err, "negative %s '%s': expected a time >= 0 such as 10ms", what, tok);
    double us = rint(v * mult);
    if (us > (double)LINK_TIME_MAX_US)
        return nr_error_set(err, "%s '%s': too large: expected at most 2147s", what, tok);
    *out = (int64_t)us;
    return true;
}

/* PERCENT: a number with an optional '%' (tc accepts both), 0..100. */
static bool parse_percent(const char *tok, const char *what, double *out, NrError *err)
{
    char *end = NULL;
    double v = strtod(tok, &end);
    if (end == tok || !looks_numeric(tok) || (*end != '\0' && strcmp(end, "%") != 0))
        return nr_error_set(err, "%s '%s': expected a percentage such as 5%%", what, tok);
    if (!isfinite(v) || v < 0.0 || v > 100.0)
        return nr_error_set(err, "%s '%s': expected a percentage from 0%% to 100%%", what, tok);
    *out = v / 100.0;
    return true;
}

/* ---- Parsing ----------------------------------------------------------------- */

typedef struct Parsed {
    bool has_delay, has_dist, has_loss, has_dup, has_order, has_gamma, has_jitter, has_dcorr;
    bool has_lcorr, has_dupcorr, has_trace, has_dir;
    const char *dist, *trace;
} Parsed;

static bool need(int i, int nt, const char *kw, const char *what, NrError *err)
{
    if (i < nt)
        return true;
    return nr_error_set(err, "'%s' at the end: expected %s after it", kw, what);
}

static bool twice(const char *kw, NrError *err)
{
    return nr_error_set(err, "'%s' given twice: expected it at most once", kw);
}

static bool parse_tokens(LinkSpec *s, Parsed *pp, char **tok, int nt, NrError *err)
{
    for (int i = 0; i < nt;) {
        const char *kw = tok[i++];
        if (strcmp(kw, "delay") == 0 || strcmp(kw, "latency") == 0) {
            if (pp->has_delay)
                return twice(kw, err);
            pp->has_delay = true;
            if (!need(i, nt, kw, "a TIME such as 75ms", err) ||
                !parse_time(tok[i++], "delay", &s->delay_us, err))
                return false;
            if (i < nt && looks_numeric(tok[i])) {
                if (!parse_time(tok[i++], "jitter", &s->jitter_us, err))
                    return false;
                pp->has_jitter = true;
                if (i < nt && looks_numeric(tok[i])) {
                    if (!parse_percent(tok[i++], "delay correlation", &s->delay_corr, err))
                        return false;
                    pp->has_dcorr = true;
                }
            }
        } else if (strcmp(kw, "distribution") == 0) {
            if (pp->has_dist)
                return twice(kw, err);
            pp->has_dist = true;
            if (!need(i, nt, kw, "a table NAME (normal, pareto, paretonormal, experimental) or PATH", err))
                return false;
            pp->dist = tok[i++];
        } else if (strcmp(kw, "gamma") == 0) {
            if (pp->has_gamma)
                return twice(kw, err);
            pp->has_gamma = true;
            if (!need(i, nt, kw, "SHAPE SCALE such as 3 10ms", err))
                return false;
            const char *st = tok[i++];
            char *end = NULL;
            double shape = strtod(st, &end);
            if (end == st || *end != '\0' || !looks_numeric(st) || !isfinite(shape) || shape <= 0.0 ||
                shape > 1e6)
                return nr_error_set(err, "gamma shape '%s': expected a number > 0 such as 3", st);
            if (!need(i, nt, "gamma SHAPE", "SCALE, a TIME such as 10ms", err))
                return false;
            int64_t scale_us = 0;
            const char *sc = tok[i++];
            if (!parse_time(sc, "gamma scale", &scale_us, err))
                return false;
            if (scale_us <= 0)
                return nr_error_set(err, "gamma scale '%s': expected a time > 0 such as 10ms", sc);
            s->gamma = true;
            s->gamma_shape = shape;
            s->gamma_scale_us = (double)scale_us;
        } else if (strcmp(kw, "loss") == 0 || strcmp(kw, "drop") == 0) {
            if (pp->has_loss)
                return twice(kw, err);
            pp->has_loss = true;
            if (!need(i, nt, kw, "P% or 'random P%' or 'gemodel P'", err))
                return false;
            const char *m = tok[i];
            if (strcmp(m, "gemodel") == 0) {
                i++;
                if (!need(i, nt, "loss gemodel", "P, the good-to-bad probability such as 1%", err) ||
                    !parse_percent(tok[i++], "loss gemodel p", &s->ge_p, err))
                    return false;
                /* tc's defaults: r = 1 - p, 1-h = 100% (all lost in the bad
                 * state), 1-k = 0% (none lost in the good state). */
                s->ge_r = 1.0 - s->ge_p;
                s->ge_h = 1.0;
                s->ge_k = 0.0;
                if (i < nt && looks_numeric(tok[i]) && !parse_percent(tok[i++], "loss gemodel r", &s->ge_r, err))
                    return false;
                if (i < nt && looks_numeric(tok[i]) && !parse_percent(tok[i++], "loss gemodel 1-h", &s->ge_h, err))
                    return false;
                if (i < nt && looks_numeric(tok[i]) && !parse_percent(tok[i++], "loss gemodel 1-k", &s->ge_k, err))
                    return false;
                s->loss_kind = LINK_LOSS_GEMODEL;
            } else if (strcmp(m, "random") == 0 || looks_numeric(m)) {
                if (strcmp(m, "random") == 0) {
                    i++;
                    if (!need(i, nt, "loss random", "P% such as 2%", err))
                        return false;
                }
                if (!parse_percent(tok[i++], "loss", &s->loss_p, err))
                    return false;
                if (i < nt && looks_numeric(tok[i])) {
                    if (!parse_percent(tok[i++], "loss correlation", &s->loss_corr, err))
                        return false;
                    pp->has_lcorr = true;
                }
                s->loss_kind = LINK_LOSS_RANDOM;
            } else if (strcmp(m, "state") == 0) {
                return nr_error_set(err, "'loss state' (netem's 4-state model) is not supported: expected "
                                    "'loss random P%%' or 'loss gemodel P [R [1-H [1-K]]]'");
            } else {
                return nr_error_set(err, "loss '%s': expected P%%, 'random P%%' or 'gemodel P [R [1-H [1-K]]]'", m);
            }
        } else if (strcmp(kw, "duplicate") == 0) {
            if (pp->has_dup)
                return twice(kw, err);
            pp->has_dup = true;
            if (!need(i, nt, kw, "P% such as 1%", err) || !parse_percent(tok[i++], "duplicate", &s->dup_p, err))
                return false;
            if (i < nt && looks_numeric(tok[i])) {
                if (!parse_percent(tok[i++], "duplicate correlation", &s->dup_corr, err))
                    return false;
                pp->has_dupcorr = true;
            }
        } else if (strcmp(kw, "order") == 0) {
            if (pp->has_order)
                return twice(kw, err);
            pp->has_order = true;
            if (!need(i, nt, kw, "'fifo' or 'due'", err))
                return false;
            const char *o = tok[i++];
            if (strcmp(o, "fifo") == 0)
                s->fifo = true;
            else if (strcmp(o, "due") == 0)
                s->fifo = false;
            else
                return nr_error_set(err, "order '%s': expected 'fifo' (keep sending order) or 'due' "
                                    "(leave by due time, netem's default)", o);
        } else if (strcmp(kw, "trace") == 0) {
            if (pp->has_trace)
                return twice(kw, err);
            pp->has_trace = true;
            if (!need(i, nt, kw, "a delays FILE (docs/link.md \"Trace\")", err))
                return false;
            pp->trace = tok[i++];
        } else if (strcmp(kw, "direction") == 0) {
            if (pp->has_dir)
                return twice(kw, err);
            pp->has_dir = true;
            if (!need(i, nt, kw, "12 or 21", err))
                return false;
            const char *d = tok[i++];
            if (strcmp(d, "12") == 0)
                s->trace.named = 12;
            else if (strcmp(d, "21") == 0)
                s->trace.named = 21;
            else
                return nr_error_set(err, "direction '%s': expected 12 (terminal 1 to 2) or 21", d);
        } else if (strcmp(kw, "none") == 0) {
            return nr_error_set(err, "'none' must be the whole spec: expected no other words with it");
        } else if (strcmp(kw, "corrupt") == 0 || strcmp(kw, "reorder") == 0 || strcmp(kw, "gap") == 0 ||
                   strcmp(kw, "rate") == 0 || strcmp(kw, "slot") == 0 || strcmp(kw, "limit") == 0 ||
                   strcmp(kw, "seed") == 0 || strcmp(kw, "ecn") == 0) {
            return nr_error_set(err, "netem option '%s' is not supported by netrace: expected one of %s",
                                kw, KEYWORDS);
        } else if (looks_numeric(kw)) {
            return nr_error_set(err, "unexpected number '%s': expected a keyword (%s)", kw, KEYWORDS);
        } else {
            return nr_error_set(err, "unknown keyword '%s': expected one of %s", kw, KEYWORDS);
        }
    }
    return true;
}

static void append(char *buf, size_t n, const char *fmt, ...) NR_PRINTF(3, 4);

static void append(char *buf, size_t n, const char *fmt, ...)
{
    size_t len = strlen(buf);
    if (len + 1 >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, n - len, fmt, ap);
    va_end(ap);
}

/* The shortest "%g" text of a probability as a percentage that
 * parse_percent reads back to the same double: "%g" alone keeps 6 digits,
 * so a derived value such as gemodel's default R = 1 - P (91.8% for
 * P = 8.2% is 0.91800000000000004, not 0.918) came back different. */
static const char *pct_text(char *out, size_t n, double p)
{
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(out, n, "%.*g", prec, p * 100.0);
        if (strtod(out, NULL) / 100.0 == p)
            break;
    }
    return out;
}

/* The same for a plain number (gamma's shape). */
static const char *num_text(char *out, size_t n, double v)
{
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(out, n, "%.*g", prec, v);
        if (strtod(out, NULL) == v)
            break;
    }
    return out;
}

/* The canonical text: keywords in grammar order, times in the largest exact
 * unit, percentages with '%'. Parsing it again yields the same spec. */
static bool canonical_text(LinkSpec *s, const Parsed *pp, NrError *err)
{
    char buf[SPEC_MAX + 64];
    char t1[32], t2[32], q[4][40];
    buf[0] = '\0';
    if (pp->has_delay || s->gamma) {
        fmt_time(t1, sizeof t1, s->delay_us);
        append(buf, sizeof buf, "delay %s", t1);
        if (s->jitter_us > 0 || pp->has_jitter) {
            fmt_time(t2, sizeof t2, s->jitter_us);
            append(buf, sizeof buf, " %s", t2);
            if (pp->has_dcorr && s->delay_corr > 0)
                append(buf, sizeof buf, " %s%%", pct_text(q[0], sizeof q[0], s->delay_corr));
        }
    }
    if (pp->has_dist)
        append(buf, sizeof buf, "%sdistribution %s", buf[0] ? " " : "", pp->dist);
    if (s->gamma) {
        fmt_time(t1, sizeof t1, (int64_t)s->gamma_scale_us);
        append(buf, sizeof buf, " gamma %s %s", num_text(q[0], sizeof q[0], s->gamma_shape), t1);
    }
    if (s->loss_kind == LINK_LOSS_RANDOM) {
        append(buf, sizeof buf, "%sloss %s%%", buf[0] ? " " : "", pct_text(q[0], sizeof q[0], s->loss_p));
        if (pp->has_lcorr && s->loss_corr > 0)
            append(buf, sizeof buf, " %s%%", pct_text(q[0], sizeof q[0], s->loss_corr));
    } else if (s->loss_kind == LINK_LOSS_GEMODEL) {
        append(buf, sizeof buf, "%sloss gemodel %s%% %s%% %s%% %s%%", buf[0] ? " " : "",
               pct_text(q[0], sizeof q[0], s->ge_p), pct_text(q[1], sizeof q[1], s->ge_r),
               pct_text(q[2], sizeof q[2], s->ge_h), pct_text(q[3], sizeof q[3], s->ge_k));
    }
    if (pp->has_dup) {
        append(buf, sizeof buf, "%sduplicate %s%%", buf[0] ? " " : "", pct_text(q[0], sizeof q[0], s->dup_p));
        if (pp->has_dupcorr && s->dup_corr > 0)
            append(buf, sizeof buf, " %s%%", pct_text(q[0], sizeof q[0], s->dup_corr));
    }
    if (pp->has_trace) {
        append(buf, sizeof buf, "trace %s", pp->trace);
        if (s->trace.named)
            append(buf, sizeof buf, " direction %d", s->trace.named);
    }
    if (s->fifo)
        append(buf, sizeof buf, "%sorder fifo", buf[0] ? " " : "");
    if (!buf[0])
        snprintf(buf, sizeof buf, "none");
    if (strlen(buf) >= LINK_TEXT_MAX)
        return nr_error_set(err, "link spec too long: canonical form has %zu characters, expected at most %d",
                            strlen(buf), LINK_TEXT_MAX - 1);
    snprintf(s->text, sizeof s->text, "%s", buf);
    return true;
}

static void spec_empty(LinkSpec *s)
{
    *s = (LinkSpec){0};
    snprintf(s->text, sizeof s->text, "none");
}

bool linkspec_parse(LinkSpec *out, const char *text, const char *table_dir, NrError *err)
{
    spec_empty(out);
    if (!text)
        text = "";
    size_t len = strlen(text);
    if (len >= SPEC_MAX)
        return nr_error_set(err, "link spec has %zu characters: expected at most %d", len, SPEC_MAX - 1);
    char work[SPEC_MAX];
    memcpy(work, text, len + 1);
    char *tok[TOKENS_MAX];
    int nt = 0;
    char *save = NULL;
    for (char *t = strtok_r(work, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
        if (nt == TOKENS_MAX)
            return nr_error_set(err, "link spec has more than %d words: expected a netem spec such as "
                                "'delay 75ms 10ms distribution paretonormal'", TOKENS_MAX);
        tok[nt++] = t;
    }
    if (nt == 0 || (nt == 1 && strcmp(tok[0], "none") == 0))
        return true;

    LinkSpec s;
    spec_empty(&s);
    Parsed pp = {0};
    if (!parse_tokens(&s, &pp, tok, nt, err))
        return false;
    if (s.gamma && s.jitter_us > 0)
        return nr_error_set(err, "gamma with jitter: expected 'delay TIME gamma SHAPE SCALE' without a JITTER");
    if (s.gamma && pp.has_dist)
        return nr_error_set(err, "gamma with distribution '%s': expected one of them", pp.dist);
    if (pp.has_trace && (pp.has_delay || pp.has_dist || pp.has_gamma || pp.has_loss || pp.has_dup))
        return nr_error_set(err, "trace with %s: a trace gives every delay and loss; expected only "
                            "'direction' and 'order' with it",
                            pp.has_delay ? "delay" : pp.has_dist ? "distribution" : pp.has_gamma ? "gamma"
                            : pp.has_loss ? "loss" : "duplicate");
    if (pp.has_dir && !pp.has_trace)
        return nr_error_set(err, "direction without trace: expected 'trace FILE direction 12|21'");
    if (!canonical_text(&s, &pp, err))
        return false;
    if (pp.has_dist && !disttable_find(&s.table, pp.dist, table_dir, err))
        return false;
    if (pp.has_trace) {
        int named = s.trace.named;
        if (!linktrace_load(&s.trace, pp.trace, err))
            return false;
        s.trace.named = named;
    }
    *out = s;
    return true;
}

bool linkspec_copy(LinkSpec *dst, const LinkSpec *src)
{
    LinkSpec c = *src;
    if (!disttable_copy(&c.table, &src->table)) {
        spec_empty(dst);
        return false;
    }
    if (!linktrace_copy(&c.trace, &src->trace)) {
        disttable_free(&c.table);
        spec_empty(dst);
        return false;
    }
    *dst = c;
    return true;
}

void linkspec_free(LinkSpec *s)
{
    if (!s)
        return;
    disttable_free(&s->table);
    linktrace_free(&s->trace);
    spec_empty(s);
}

/* ---- netem arithmetic ------------------------------------------------------- */

/* sch_netem.c get_crandom: next = ((2^32 - (rho+1)) * fresh + (rho+1) * last)
 * >> 32, which approximates (1 - rho) * fresh + rho * last. */
uint32_t link_corr_next(LinkCorr *c, uint32_t fresh)
{
    if (c->rho == 0)
        return fresh;
    uint64_t rho = (uint64_t)c->rho + 1;
    uint64_t v = ((uint64_t)fresh * ((UINT64_C(1) << 32) - rho) + (uint64_t)c->last * rho) >> 32;
    c->last = (uint32_t)v;
    return (uint32_t)v;
}

/* sch_netem.c tabledist. Without a table: uniform on the integers
 * [mu - sigma, mu + sigma) by rnd mod 2 sigma. With a table: mu + sigma * t /
 * 8192 for t = table[rnd mod n], with sigma split into sigma / 8192 and
 * sigma % 8192 so the product stays small, and the remainder's share rounded
 * half away from zero (+-4096 then truncating division). */
int64_t link_tabledist(int64_t mu_us, int64_t sigma_us, uint32_t rnd, const DistTable *t)
{
    if (sigma_us <= 0)
        return mu_us;
    if (!t || t->n <= 0 || !t->v) {
        /* As netem: a 2 sigma beyond 32 bits takes the widest spread. The
         * parser caps jitter below that; this guards hand-built specs. */
        if (sigma_us > (int64_t)(UINT32_MAX / 2))
            return mu_us + (int64_t)rnd - (int64_t)(UINT32_MAX / 2);
        return (int64_t)(rnd % (uint32_t)(2 * sigma_us)) + mu_us - sigma_us;
    }
    if (sigma_us > LINK_TIME_MAX_US) /* hand-built spec: keep the products in range */
        sigma_us = LINK_TIME_MAX_US;
    int64_t v = t->v[rnd % (uint32_t)t->n];
    int64_t x = (sigma_us % LINK_DIST_SCALE) * v;
    if (x >= 0)
        x += LINK_DIST_SCALE / 2;
    else
        x -= LINK_DIST_SCALE / 2;
    return x / LINK_DIST_SCALE + (sigma_us / LINK_DIST_SCALE) * v + mu_us;
}

/* ---- Expectations ---------------------------------------------------------- */

/* The direction link_draw and the expectations take from a trace. */
static int trace_dir(const LinkSpec *s)
{
    return s->trace.named == 21;
}

double linkspec_mean_ms(const LinkSpec *s)
{
    if (s->trace.on) {
        const LinkTrace *t = &s->trace;
        int d = trace_dir(s);
        double sum = 0;
        int64_t n = 0;
        for (int i = 0; i < t->n[d]; i++)
            if (t->slot[d][i].delay_us != LINK_TRACE_NONE) {
                sum += t->slot[d][i].delay_us;
                n++;
            }
        return n ? sum / (double)n / 1000.0 : 0.0;
    }
    if (s->gamma)
        return ((double)s->delay_us + s->gamma_shape * s->gamma_scale_us) / 1000.0;
    int64_t mu = s->delay_us, sg = s->jitter_us;
    if (sg <= 0)
        return (double)(mu > 0 ? mu : 0) / 1000.0;
    if (s->table.n > 0) {
        double sum = 0;
        for (int i = 0; i < s->table.n; i++) {
            int64_t d = link_tabledist(mu, sg, (uint32_t)i, &s->table);
            sum += (double)(d > 0 ? d : 0);
        }
        return sum / s->table.n / 1000.0;
    }
    /* Uniform on the integers a..b = mu - sigma .. mu + sigma - 1, clamped
     * at 0: the mean of max(0, v). */
    double a = (double)(mu - sg), b = (double)(mu + sg - 1), n = 2.0 * (double)sg;
    if (a >= 0)
        return (a + b) / 2.0 / 1000.0;
    if (b <= 0)
        return 0.0;
    return b * (b + 1.0) / 2.0 / n / 1000.0;
}

double linkspec_loss_rate(const LinkSpec *s)
{
    if (s->trace.on) {
        const LinkTrace *t = &s->trace;
        int d = trace_dir(s);
        int64_t got = 0;
        for (int i = 0; i < t->n[d]; i++)
            got += t->slot[d][i].delay_us != LINK_TRACE_NONE;
        double slots = t->n[d] ? (double)t->slot[d][t->n[d] - 1].seq + 1.0 : 0.0;
        return slots > 0 ? 1.0 - (double)got / slots : 1.0;
    }
    if (s->loss_kind == LINK_LOSS_RANDOM)
        return s->loss_p;
    if (s->loss_kind == LINK_LOSS_GEMODEL) {
        /* Two-state Markov chain: pi_bad = p / (p + r); a packet is lost with
         * 1-k in the good state and 1-h in the bad state. */
        double pr = s->ge_p + s->ge_r;
        double bad = pr > 0 ? s->ge_p / pr : 0.0;
        return (1.0 - bad) * s->ge_k + bad * s->ge_h;
    }
    return 0.0;
}

int64_t linkspec_order_due(const LinkSpec *s, int64_t *last_due_us, int64_t due_us)
{
    if (s->fifo && due_us < *last_due_us)
        due_us = *last_due_us;
    if (due_us > *last_due_us)
        *last_due_us = due_us;
    return due_us;
}

/* ---- The link ----------------------------------------------------------------- */

static void link_apply_spec(Link *l)
{
    const LinkSpec *s = &l->spec;
    l->delay_c.rho = prob_u32(s->delay_corr);
    l->loss_c.rho = s->loss_kind == LINK_LOSS_RANDOM ? prob_u32(s->loss_corr) : 0;
    l->dup_c.rho = prob_u32(s->dup_corr);
    l->loss_u32 = s->loss_kind == LINK_LOSS_RANDOM ? prob_u32(s->loss_p) : 0;
    l->dup_u32 = prob_u32(s->dup_p);
    /* tc hands the kernel h = ~0 - (1-h) (q_netem.c), and the kernel loses a
     * bad-state packet when rnd > h; the default 1-h = 100% is h = 0. */
    l->ge_a1 = prob_u32(s->ge_p);
    l->ge_a2 = prob_u32(s->ge_r);
    l->ge_a3 = UINT32_MAX - prob_u32(s->ge_h);
    l->ge_a4 = prob_u32(s->ge_k);
}

void link_init(Link *l, const LinkSpec *spec, uint64_t seed, uint64_t stream)
{
    *l = (Link){0};
    if (!linkspec_copy(&l->spec, spec)) {
        /* Out of memory for the table copy: keep the scalars, jitter becomes
         * uniform. Never happens at the sizes involved (32 KiB). */
        l->spec = *spec;
        l->spec.table = (DistTable){0};
    }
    rng_seed(&l->rng, seed, stream);
    /* netem's init_crandom seeds each correlation state with a random value. */
    l->delay_c.last = rand_u32(&l->rng);
    l->loss_c.last = rand_u32(&l->rng);
    l->dup_c.last = rand_u32(&l->rng);
    l->ge_state = 0;
    l->fifo_last_due_us = INT64_MIN;
    link_apply_spec(l);
}

void link_set_spec(Link *l, const LinkSpec *spec)
{
    if (spec == &l->spec)
        return;
    bool was_ge = l->spec.loss_kind == LINK_LOSS_GEMODEL;
    linkspec_free(&l->spec);
    if (!linkspec_copy(&l->spec, spec)) {
        l->spec = *spec;
        l->spec.table = (DistTable){0};
    }
    if (!was_ge || spec->loss_kind != LINK_LOSS_GEMODEL)
        l->ge_state = 0;
    link_apply_spec(l);
}

void link_free(Link *l)
{
    if (!l)
        return;
    linkspec_free(&l->spec);
}

void link_draw_slot(Link *l, int dir, int32_t seq, bool aux, LinkDraw *out)
{
    if (l->spec.trace.on)
        linktrace_fate(&l->spec.trace, dir, seq, aux, out);
    else
        link_draw(l, out);
}

int64_t link_fifo_due(Link *l, int64_t due_us)
{
    return linkspec_order_due(&l->spec, &l->fifo_last_due_us, due_us);
}

/* sch_netem.c loss_event: random loss compares a correlated 32-bit value with
 * the threshold; Gilbert-Elliott decides the loss from the state the packet
 * finds (after drawing the transition, as loss_gilb_ell does). */
static bool loss_event(Link *l)
{
    switch (l->spec.loss_kind) {
    case LINK_LOSS_RANDOM:
        return l->loss_u32 && l->loss_u32 >= link_corr_next(&l->loss_c, rand_u32(&l->rng));
    case LINK_LOSS_GEMODEL:
        if (l->ge_state == 0) {
            if (rand_u32(&l->rng) < l->ge_a1)
                l->ge_state = 1;
            return rand_u32(&l->rng) < l->ge_a4;
        }
        if (rand_u32(&l->rng) < l->ge_a2)
            l->ge_state = 0;
        return rand_u32(&l->rng) > l->ge_a3;
    case LINK_LOSS_NONE:
        break;
    }
    return false;
}

static int64_t delay_draw(Link *l)
{
    const LinkSpec *s = &l->spec;
    int64_t d;
    if (s->gamma) {
        /* EPP paper's shifted gamma: kappa + Gamma(alpha, lambda), in us. */
        double g = rng_gamma(&l->rng, s->gamma_shape, s->gamma_scale_us);
        if (g > 1e15)
            g = 1e15;
        d = s->delay_us + (int64_t)llround(g);
    } else if (s->jitter_us <= 0) {
        d = s->delay_us; /* tabledist draws no random number for sigma 0 */
    } else {
        d = link_tabledist(s->delay_us, s->jitter_us, link_corr_next(&l->delay_c, rand_u32(&l->rng)),
                           &s->table);
    }
    return d > 0 ? d : 0; /* a due time in the past leaves at once */
}

/* netem_enqueue's order: the duplicate decision, the loss of the packet; a
 * surviving duplicate is re-enqueued first (its own loss and delay draws),
 * then the packet's delay. Duplicate + loss leaves one copy, as in netem. */
void link_draw(Link *l, LinkDraw *out)
{
    if (l->spec.trace.on) {
        linktrace_fate(&l->spec.trace, trace_dir(&l->spec), l->trace_seq, false, out);
        if (l->trace_seq < INT32_MAX)
            l->trace_seq++;
        return;
    }
    *out = (LinkDraw){0};
    int count = 1;
    if (l->dup_u32 && l->dup_u32 >= link_corr_next(&l->dup_c, rand_u32(&l->rng)))
        count++;
    if (loss_event(l))
        count--;
    if (count == 0) {
        out->lost = true;
        return;
    }
    if (count == 2 && !loss_event(l)) {
        out->dup = true;
        out->dup_delay_us = delay_draw(l);
    }
    out->delay_us = delay_draw(l);
}
