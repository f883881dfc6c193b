/* Link spec parser: netem's grammar (iproute2's tc/q_netem.c read as a
 * reference) and our trace form, into a LinkSpec with its canonical text.
 * The draws are link.c's. docs/link.md lists what differs from netem. */
#include "link.h"
#include "linkpreset.h"

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

/* The words of a spec and the next one to read. */
typedef struct Toks {
    char **tok;
    int nt, i;
} Toks;

static bool need(const Toks *t, const char *kw, const char *what, NrError *err)
{
    if (t->i < t->nt)
        return true;
    return nr_error_set(err, "'%s' at the end: expected %s after it", kw, what);
}

/* The next word when it is a number (an optional argument), else NULL. */
static const char *next_number(const Toks *t)
{
    return t->i < t->nt && looks_numeric(t->tok[t->i]) ? t->tok[t->i] : NULL;
}

/* The start of every keyword: given at most once (*seen) and followed by
 * its argument (what, in the message when it is missing). */
static bool first_use(bool *seen, const Toks *t, const char *kw, const char *what, NrError *err)
{
    if (*seen)
        return nr_error_set(err, "'%s' given twice: expected it at most once", kw);
    *seen = true;
    return need(t, kw, what, err);
}

/* delay TIME [JITTER [CORR%]] */
static bool kw_delay(LinkSpec *s, Parsed *pp, Toks *t, const char *kw, NrError *err)
{
    if (!first_use(&pp->has_delay, t, kw, "a TIME such as 75ms", err) ||
        !parse_time(t->tok[t->i++], "delay", &s->delay_us, err))
        return false;
    if (next_number(t)) {
        if (!parse_time(t->tok[t->i++], "jitter", &s->jitter_us, err))
            return false;
        pp->has_jitter = true;
        if (next_number(t)) {
            if (!parse_percent(t->tok[t->i++], "delay correlation", &s->delay_corr, err))
                return false;
            pp->has_dcorr = true;
        }
    }
    return true;
}

/* distribution NAME|PATH */
static bool kw_distribution(LinkSpec *s, Parsed *pp, Toks *t, const char *kw, NrError *err)
{
    (void)s;
    if (!first_use(&pp->has_dist, t, kw, "a table NAME (normal, pareto, paretonormal, experimental) or PATH",
                   err))
        return false;
    pp->dist = t->tok[t->i++];
    return true;
}

/* gamma SHAPE SCALE (the shifted gamma of the EPP experiments) */
static bool kw_gamma(LinkSpec *s, Parsed *pp, Toks *t, const char *kw, NrError *err)
{
    if (!first_use(&pp->has_gamma, t, kw, "SHAPE SCALE such as 3 10ms", err))
        return false;
    const char *st = t->tok[t->i++];
    char *end = NULL;
    double shape = strtod(st, &end);
    if (end == st || *end != '\0' || !looks_numeric(st) || !isfinite(shape) || shape <= 0.0 || shape > 1e6)
        return nr_error_set(err, "gamma shape '%s': expected a number > 0 such as 3", st);
    if (!need(t, "gamma SHAPE", "SCALE, a TIME such as 10ms", err))
        return false;
    int64_t scale_us = 0;
    const char *sc = t->tok[t->i++];
    if (!parse_time(sc, "gamma scale", &scale_us, err))
        return false;
    if (scale_us <= 0)
        return nr_error_set(err, "gamma scale '%s': expected a time > 0 such as 10ms", sc);
    s->gamma = true;
    s->gamma_shape = shape;
    s->gamma_scale_us = (double)scale_us;
    return true;
}

/* loss gemodel P [R [1-H [1-K]]], after the word gemodel */
static bool loss_gemodel(LinkSpec *s, Toks *t, NrError *err)
{
    if (!need(t, "loss gemodel", "P, the good-to-bad probability such as 1%", err) ||
        !parse_percent(t->tok[t->i++], "loss gemodel p", &s->ge_p, err))
        return false;
    /* tc's defaults: r = 1 - p, 1-h = 100% (all lost in the bad state),
     * 1-k = 0% (none lost in the good state). */
    s->ge_r = 1.0 - s->ge_p;
    s->ge_h = 1.0;
    s->ge_k = 0.0;
    if (next_number(t) && !parse_percent(t->tok[t->i++], "loss gemodel r", &s->ge_r, err))
        return false;
    if (next_number(t) && !parse_percent(t->tok[t->i++], "loss gemodel 1-h", &s->ge_h, err))
        return false;
    if (next_number(t) && !parse_percent(t->tok[t->i++], "loss gemodel 1-k", &s->ge_k, err))
        return false;
    s->loss_kind = LINK_LOSS_GEMODEL;
    return true;
}

/* loss [random] P% [CORR%] | loss gemodel ... */
static bool kw_loss(LinkSpec *s, Parsed *pp, Toks *t, const char *kw, NrError *err)
{
    if (!first_use(&pp->has_loss, t, kw, "P% or 'random P%' or 'gemodel P'", err))
        return false;
    const char *m = t->tok[t->i];
    if (strcmp(m, "gemodel") == 0) {
        t->i++;
        return loss_gemodel(s, t, err);
    }
    if (strcmp(m, "state") == 0)
        return nr_error_set(err, "'loss state' (netem's 4-state model) is not supported: expected "
                                 "'loss random P%%' or 'loss gemodel P [R [1-H [1-K]]]'");
    if (strcmp(m, "random") != 0 && !looks_numeric(m))
        return nr_error_set(err, "loss '%s': expected P%%, 'random P%%' or 'gemodel P [R [1-H [1-K]]]'", m);
    if (strcmp(m, "random") == 0) {
        t->i++;
        if (!need(t, "loss random", "P% such as 2%", err))
            return false;
    }
    if (!parse_percent(t->tok[t->i++], "loss", &s->loss_p, err))
        return false;
    if (next_number(t)) {
        if (!parse_percent(t->tok[t->i++], "loss correlation", &s->loss_corr, err))
            return false;
        pp->has_lcorr = true;
    }
    s->loss_kind = LINK_LOSS_RANDOM;
    return true;
}

/* duplicate P% [CORR%] */
static bool kw_duplicate(LinkSpec *s, Parsed *pp, Toks *t, const char *kw, NrError *err)
{
    if (!first_use(&pp->has_dup, t, kw, "P% such as 1%", err) ||
        !parse_percent(t->tok[t->i++], "duplicate", &s->dup_p, err))
        return false;
    if (next_number(t)) {
        if (!parse_percent(t->tok[t->i++], "duplicate correlation", &s->dup_corr, err))
            return false;
        pp->has_dupcorr = true;
    }
    return true;
}

/* order fifo|due */
static bool kw_order(LinkSpec *s, Parsed *pp, Toks *t, const char *kw, NrError *err)
{
    if (!first_use(&pp->has_order, t, kw, "'fifo' or 'due'", err))
        return false;
    const char *o = t->tok[t->i++];
    if (strcmp(o, "fifo") == 0)
        s->fifo = true;
    else if (strcmp(o, "due") == 0)
        s->fifo = false;
    else
        return nr_error_set(err, "order '%s': expected 'fifo' (keep sending order) or 'due' "
                                 "(leave by due time, netem's default)", o);
    return true;
}

/* trace FILE */
static bool kw_trace(LinkSpec *s, Parsed *pp, Toks *t, const char *kw, NrError *err)
{
    (void)s;
    if (!first_use(&pp->has_trace, t, kw, "a delays FILE (docs/link.md \"Trace\")", err))
        return false;
    pp->trace = t->tok[t->i++];
    return true;
}

/* direction 12|21 (of a trace) */
static bool kw_direction(LinkSpec *s, Parsed *pp, Toks *t, const char *kw, NrError *err)
{
    if (!first_use(&pp->has_dir, t, kw, "12 or 21", err))
        return false;
    const char *d = t->tok[t->i++];
    s->trace.named = linktrace_direction(d);
    if (!s->trace.named)
        return nr_error_set(err, "direction '%s': expected two terminals IJ of 1 to %d such as 12 (terminal 1 "
                            "to 2) or 21, or a served race's hop Is, sJ or IsJ", d, LINK_TRACE_TERMINALS);
    return true;
}

typedef bool (*KeywordFn)(LinkSpec *s, Parsed *pp, Toks *t, const char *kw, NrError *err);

/* Every keyword netrace reads, with netem's synonyms (latency, drop). */
static const struct {
    const char *name;
    KeywordFn fn;
} keywords[] = {
    {"delay", kw_delay},   {"latency", kw_delay},       {"distribution", kw_distribution},
    {"gamma", kw_gamma},   {"loss", kw_loss},           {"drop", kw_loss},
    {"duplicate", kw_duplicate}, {"order", kw_order},   {"trace", kw_trace},
    {"direction", kw_direction},
};

/* netem options netrace does not emulate. */
static const char *const unsupported[] = {"corrupt", "reorder", "gap", "rate", "slot", "limit", "seed", "ecn"};

static bool parse_tokens(LinkSpec *s, Parsed *pp, char **tok, int nt, NrError *err)
{
    Toks t = {tok, nt, 0};
    while (t.i < t.nt) {
        const char *kw = t.tok[t.i++];
        KeywordFn fn = NULL;
        for (size_t k = 0; k < sizeof keywords / sizeof keywords[0] && !fn; k++)
            if (strcmp(kw, keywords[k].name) == 0)
                fn = keywords[k].fn;
        if (fn) {
            if (!fn(s, pp, &t, kw, err))
                return false;
            continue;
        }
        if (strcmp(kw, "none") == 0)
            return nr_error_set(err, "'none' must be the whole spec: expected no other words with it");
        for (size_t k = 0; k < sizeof unsupported / sizeof unsupported[0]; k++)
            if (strcmp(kw, unsupported[k]) == 0)
                return nr_error_set(err, "netem option '%s' is not supported by netrace: expected one of %s", kw,
                                    KEYWORDS);
        if (looks_numeric(kw))
            return nr_error_set(err, "unexpected number '%s': expected a keyword (%s)", kw, KEYWORDS);
        return nr_error_set(err, "unknown keyword '%s': expected one of %s", kw, KEYWORDS);
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
        if (s->trace.named) {
            char d[8];
            linktrace_direction_text(s->trace.named, d, sizeof d);
            append(buf, sizeof buf, " direction %s", d);
        }
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
    return linkspec_parse_files(out, text, table_dir, NULL, err);
}

bool linkspec_parse_files(LinkSpec *out, const char *text, const char *table_dir, LinkTraceFiles *files,
                          NrError *err)
{
    spec_empty(out);
    if (!text)
        text = "";
    size_t len = strlen(text);
    if (len >= SPEC_MAX)
        return nr_error_set(err, "link spec has %zu characters: expected at most %d", len, SPEC_MAX - 1);
    /* preset:NAME [MORE] is the preset's spec followed by MORE (linkpreset.h). */
    char expanded[SPEC_MAX];
    const char *start = text + strspn(text, " \t\r\n");
    if (strncmp(start, "preset:", 7) == 0) {
        if (!linkpreset_expand(start, expanded, sizeof expanded, err))
            return false;
        text = expanded;
        len = strlen(text);
    }
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
        if (!linktrace_load_files(&s.trace, pp.trace, named, files, err))
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


bool linkspec_via_server(const LinkSpec *down, int from, LinkSpec *out, NrError *err)
{
    int named = down->trace.named;
    if (!down->trace.on || named / 10 != LINK_TRACE_SERVER)
        return linkspec_copy(out, down) || nr_error_set(err, "out of memory");
    char want[8], text[LINK_TEXT_MAX + 8];
    linktrace_direction_text(named, want, sizeof want); /* "sJ" */
    const char *at = strstr(down->text, " direction ");
    size_t head = at ? (size_t)(at - down->text) : 0, skip = strlen(" direction ") + strlen(want);
    spec_empty(out);
    if (!at || strncmp(at + strlen(" direction "), want, strlen(want)) != 0)
        return nr_error_set(err, "%s: no direction %s in the text", down->text, want);
    if (!down->trace.via || from < 1 || from > LINK_TRACE_TERMINALS || from == named % 10)
        return nr_error_set(err, "%s: no rows of a sender %d kept", down->text, from);
    snprintf(text, sizeof text, "%.*s direction %ds%d%s", (int)head, down->text, from, named % 10, at + skip);
    if (strlen(text) >= LINK_TEXT_MAX)
        return nr_error_set(err, "link spec too long: canonical form has %zu characters, expected at most %d",
                            strlen(text), LINK_TEXT_MAX - 1);
    LinkSpec hop = *down; /* the sender's rows, read with the downlink's (t->via) */
    hop.trace = down->trace.via[from - 1];
    if (!linkspec_copy(out, &hop))
        return nr_error_set(err, "out of memory");
    memcpy(out->text, text, strlen(text) + 1);
    return true;
}
