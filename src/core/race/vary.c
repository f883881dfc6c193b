/* The sweep's parameter table, value lists and full-factorial grid. */
#include "vary.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Ranges: delays and jitters as the link grammar takes them (whole ms up
 * to 100 s), Delta as the schemes' buffers hold it, loss a percentage. */
static const VaryParam params[] = {
    {"delay12", "ms", VARY_DELAY, 1, 0, 100000, "mean delay of link 1->2"},
    {"jitter12", "ms", VARY_JITTER, 1, 0, 100000, "jitter of link 1->2"},
    {"loss12", "%", VARY_LOSS, 1, 0, 100, "random loss of link 1->2"},
    {"delay21", "ms", VARY_DELAY, 2, 0, 100000, "mean delay of link 2->1"},
    {"jitter21", "ms", VARY_JITTER, 2, 0, 100000, "jitter of link 2->1"},
    {"loss21", "%", VARY_LOSS, 2, 0, 100, "random loss of link 2->1"},
    {"loss", "%", VARY_LOSS, 3, 0, 100, "loss of both links"},
    {"burst", "packets", VARY_BURST, 3, 1, 1000,
     "mean loss burst of both links: 1 random, > 1 Gilbert-Elliott of the same loss rate"},
    {"delta", "ms", VARY_DELTA, 0, 0, (double)(SCHEME_DELTA_MAX_US / NR_US_PER_MS), "Delta of causality control"},
    {"tdr", "cw", VARY_TDR, 0, 0, 1000, "DR threshold"},
    {"converge", "ms", VARY_CONVERGE, 0, 0, 10000, "DR convergence time"},
    /* issue 19 adds topology (p2p, cs) and the server's behaviour here */
    {NULL, NULL, 0, 0, 0, 0, NULL},
};

const VaryParam *vary_params(void)
{
    return params;
}

const VaryParam *vary_find_in(const VaryParam *table, const char *name)
{
    for (const VaryParam *p = table; p->name; p++)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

const VaryParam *vary_find(const char *name)
{
    return vary_find_in(params, name);
}

static bool parse_num(const char *s, double *out)
{
    char *end;
    if (!*s)
        return false;
    *out = strtod(s, &end);
    return *end == '\0' && isfinite(*out);
}

static bool add_value(VaryAxis *a, double v, NrError *err)
{
    const VaryParam *p = a->param;
    if (!(v >= p->lo && v <= p->hi))
        return nr_error_set(err, "--vary %s: %g is outside %g to %g %s", p->name, v, p->lo, p->hi, p->unit);
    if (a->n >= VARY_MAX_VALUES)
        return nr_error_set(err, "--vary %s: more than %d values", p->name, VARY_MAX_VALUES);
    a->v[a->n++] = v;
    return true;
}

/* A:B:STEP: A, A + STEP, ... up to B inclusive (a 1e-9 relative slack lets
 * 0:1:0.1 end at 1 despite binary fractions). */
static bool parse_range(VaryAxis *a, char *list, NrError *err)
{
    char *c1 = strchr(list, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    double lo, hi, step;
    if (!c2 || strchr(c2 + 1, ':'))
        return nr_error_set(err, "--vary %s: expected A:B:STEP, got '%s'", a->param->name, list);
    *c1 = *c2 = '\0';
    if (!parse_num(list, &lo) || !parse_num(c1 + 1, &hi) || !parse_num(c2 + 1, &step) || step <= 0 || hi < lo)
        return nr_error_set(err, "--vary %s: expected A:B:STEP with numbers A <= B and STEP > 0", a->param->name);
    double count = floor((hi - lo) / step * (1 + 1e-9) + 1e-9) + 1;
    if (count > VARY_MAX_VALUES)
        return nr_error_set(err, "--vary %s: %.0f values, at most %d", a->param->name, count, VARY_MAX_VALUES);
    for (int i = 0; i < (int)count; i++)
        if (!add_value(a, lo + step * i, err))
            return false;
    return true;
}

bool vary_parse(const char *text, VaryAxis *axis, NrError *err)
{
    return vary_parse_in(params, text, axis, err);
}

bool vary_parse_in(const VaryParam *table, const char *text, VaryAxis *axis, NrError *err)
{
    char buf[1024], *eq;
    memset(axis, 0, sizeof *axis);
    if (strlen(text) >= sizeof buf)
        return nr_error_set(err, "--vary: '%.40s...' is too long", text);
    strcpy(buf, text);
    if (!(eq = strchr(buf, '=')))
        return nr_error_set(err, "--vary: expected NAME=LIST, got '%s'", text);
    *eq = '\0';
    if (!(axis->param = vary_find_in(table, buf)))
        return nr_error_set(err, "--vary: unknown parameter '%s'", buf);
    char *list = eq + 1;
    if (!*list)
        return nr_error_set(err, "--vary %s: empty list", buf);
    if (strchr(list, ':'))
        return parse_range(axis, list, err);
    for (char *item = list;;) {
        char *comma = strchr(item, ',');
        if (comma)
            *comma = '\0';
        double v;
        if (!parse_num(item, &v))
            return nr_error_set(err, "--vary %s: '%s' is not a number", axis->param->name, item);
        if (!add_value(axis, v, err))
            return false;
        if (!comma)
            return true;
        item = comma + 1;
    }
}

int64_t vary_grid_size(const VaryAxis *axes, int n)
{
    int64_t size = n > 0 ? 1 : 0;
    for (int i = 0; i < n; i++) {
        size *= axes[i].n;
        if (size > VARY_MAX_POINTS)
            return 0;
    }
    return size;
}

void vary_point(const VaryAxis *axes, int n, int64_t index, double *values)
{
    for (int i = 0; i < n; i++) {
        values[i] = axes[i].v[index % axes[i].n];
        index /= axes[i].n;
    }
}

static bool apply_link(LinkSpec *s, const VaryParam *p, double v, NrError *err)
{
    if (s->trace.on)
        return nr_error_set(err, "--vary %s: the link is a measured trace ('%s')", p->name, s->text);
    if (p->field == VARY_DELAY) {
        s->delay_us = (int64_t)llround(v * 1000.0);
    } else if (p->field == VARY_JITTER) {
        if (s->gamma)
            return nr_error_set(err, "--vary %s: a gamma link has no jitter ('%s')", p->name, s->text);
        s->jitter_us = (int64_t)llround(v * 1000.0);
    } else if (p->field == VARY_LOSS) {
        if (s->loss_kind == LINK_LOSS_GEMODEL)
            return nr_error_set(err, "--vary %s: the link's loss is a gemodel ('%s'): use --vary burst", p->name,
                                s->text);
        /* 0 % is no loss at all: the link then draws no loss numbers. */
        s->loss_kind = v > 0 ? LINK_LOSS_RANDOM : LINK_LOSS_NONE;
        s->loss_p = v / 100.0;
    }
    return true;
}

bool vary_apply(VaryTarget *t, const VaryParam *p, double value, NrError *err)
{
    switch (p->field) {
    case VARY_DELTA:
        t->params.delta_us = (int64_t)llround(value * 1000.0);
        return true;
    case VARY_TDR:
        t->params.tdr_cw = value;
        return true;
    case VARY_CONVERGE:
        t->params.converge_us = (int64_t)llround(value * 1000.0);
        return true;
    case VARY_BURST:
        t->burst = value;
        return true;
    default:
        for (int d = 0; d < 2; d++)
            if ((p->dirs & (1 << d)) && !apply_link(&t->link[d], p, value, err))
                return false;
        return true;
    }
}

/* Gilbert's two-state model (netem's gemodel with 1-h = 1, 1-k = 0): every
 * packet in the bad state is lost, none in the good one; mean burst B = 1/r,
 * loss rate L = p / (p + r), so r = 1/B and p = L r / (1 - L) (capped at 1:
 * a rate above 1/(1 + r) cannot be reached with bursts that long). */
void vary_finish(VaryTarget *t)
{
    if (!(t->burst > 1.0))
        return;
    for (int d = 0; d < 2; d++) {
        LinkSpec *s = &t->link[d];
        if (s->loss_kind != LINK_LOSS_RANDOM || s->loss_p >= 1.0)
            continue;
        double r = 1.0 / t->burst, p = s->loss_p * r / (1.0 - s->loss_p);
        s->loss_kind = LINK_LOSS_GEMODEL;
        s->ge_p = p < 1.0 ? p : 1.0;
        s->ge_r = r;
        s->ge_h = 1.0;
        s->ge_k = 0.0;
    }
}
