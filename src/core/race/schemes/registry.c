/* The scheme registry: every scheme netrace knows, found by name. */
#include "scheme.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

extern const SchemeType scheme_nc;
extern const SchemeType scheme_causality;
extern const SchemeType scheme_dr;
extern const SchemeType scheme_dr_causality;
extern const SchemeType scheme_dr_local;
extern const SchemeType scheme_epp_xd;
extern const SchemeType scheme_epp_xv;
extern const SchemeType scheme_epp_xa;
extern const SchemeType scheme_epp_raw_cv;
extern const SchemeType scheme_epp_raw_ca;
extern const SchemeType scheme_epp_xv_p;
extern const SchemeType scheme_epp_xa_p;
extern const SchemeType scheme_adaptive_causality;
extern const SchemeType scheme_local_lag;
extern const SchemeType scheme_group_sync;
extern const SchemeType scheme_equalize;

static const SchemeType *const registry[] = {
    &scheme_nc,
    &scheme_causality,
    &scheme_dr,
    &scheme_dr_causality,
    &scheme_dr_local,
    &scheme_epp_xd,
    &scheme_epp_xv,
    &scheme_epp_xa,
    &scheme_epp_raw_cv,
    &scheme_epp_raw_ca,
    &scheme_epp_xv_p,
    &scheme_epp_xa_p,
    &scheme_adaptive_causality,
    &scheme_local_lag,
    &scheme_group_sync,
    &scheme_equalize,
    NULL,
};

/* The papers' twelve ("all": replay's and play's default set, kept as it was
 * so that their outputs stay the same), the racing paper's four ("racing",
 * sweep's default), the four schemes after the papers ("after") and every
 * scheme ("every"). */
static const char *const papers[] = {"nc", "causality", "dr", "dr-causality", "dr-local", "epp-xd",
                                     "epp-xv", "epp-xa", "epp-raw-cv", "epp-raw-ca", "epp-xv-p", "epp-xa-p",
                                     NULL};
static const char *const racing[] = {"nc", "causality", "dr", "dr-causality", NULL};
static const char *const after[] = {"adaptive-causality", "local-lag", "group-sync", "equalize", NULL};

typedef struct SchemeGroup {
    const char *name;
    const char *const *members; /* NULL: the whole registry */
} SchemeGroup;

static const SchemeGroup groups[] = {
    {"all", papers}, {"racing", racing}, {"after", after}, {"every", NULL}, {NULL, NULL},
};

const SchemeType *const *scheme_registry(void)
{
    return registry;
}

const SchemeType *scheme_find(const char *name)
{
    for (int i = 0; registry[i]; i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

SchemeParams scheme_default_params(void)
{
    SchemeParams p = {
        .delta_us = 100 * NR_US_PER_MS,
        .tdr_cw = 0.25,
        .converge_us = 0,
        .period_us = 33 * NR_US_PER_MS,
        .adapt_quantile = 0.95,
        .adapt_window = 64,
        .adapt_margin_us = 10 * NR_US_PER_MS,
        .adapt_min_us = 0,
        .adapt_max_us = 1000 * NR_US_PER_MS,
        .adapt_slew = 0.5,
    };
    return p;
}

bool scheme_params_check(const SchemeParams *p, NrError *err)
{
    if (!(p->adapt_quantile >= 0.0 && p->adapt_quantile <= 1.0))
        return nr_error_set(err, "adapt quantile %g is outside 0 to 1", p->adapt_quantile);
    if (p->adapt_window < 1 || p->adapt_window > LAGEST_WINDOW_MAX)
        return nr_error_set(err, "adapt window %d is outside 1 to %d MUs", (int)p->adapt_window, LAGEST_WINDOW_MAX);
    if (p->adapt_margin_us < 0 || p->adapt_margin_us > SCHEME_DELTA_MAX_US)
        return nr_error_set(err, "adapt margin %" PRId64 " ms is outside 0 to %" PRId64 " ms",
                            p->adapt_margin_us / NR_US_PER_MS, SCHEME_DELTA_MAX_US / NR_US_PER_MS);
    if (p->adapt_min_us < 0 || p->adapt_max_us > SCHEME_DELTA_MAX_US || p->adapt_min_us > p->adapt_max_us)
        return nr_error_set(err, "adapt bounds %" PRId64 "..%" PRId64 " ms: expected 0 <= min <= max <= %" PRId64 " ms",
                            p->adapt_min_us / NR_US_PER_MS, p->adapt_max_us / NR_US_PER_MS,
                            SCHEME_DELTA_MAX_US / NR_US_PER_MS);
    if (!(p->adapt_slew > 0.0 && p->adapt_slew <= 1.0))
        return nr_error_set(err, "adapt slew %g is outside (0, 1] ms per ms", p->adapt_slew);
    return true;
}

static int add_unique(const SchemeType *t, const SchemeType **out, int n, int max, NrError *err)
{
    for (int i = 0; i < n; i++)
        if (out[i] == t)
            return n;
    if (n >= max) {
        nr_error_set(err, "too many schemes (at most %d)", max);
        return -1;
    }
    out[n] = t;
    return n + 1;
}

int scheme_parse_list(const char *list, const SchemeType **out, int max, NrError *err)
{
    int n = 0;
    const char *p = list;
    if (!p || !*p) {
        nr_error_set(err, "empty scheme list");
        return -1;
    }
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char name[64];
        if (len == 0 || len >= sizeof name) {
            nr_error_set(err, "bad scheme list '%s': expected comma-separated names", list);
            return -1;
        }
        memcpy(name, p, len);
        name[len] = '\0';
        const SchemeGroup *g = groups;
        while (g->name && strcmp(g->name, name) != 0)
            g++;
        if (g->name && g->members) {
            for (int i = 0; g->members[i] && n >= 0; i++)
                n = add_unique(scheme_find(g->members[i]), out, n, max, err);
        } else if (g->name) {
            for (int i = 0; registry[i] && n >= 0; i++)
                n = add_unique(registry[i], out, n, max, err);
        } else {
            const SchemeType *t = scheme_find(name);
            if (!t) {
                char known[1024] = "";
                size_t used = 0;
                for (int i = 0; registry[i]; i++) {
                    int w = snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                                     registry[i]->name);
                    if (w < 0 || (size_t)w >= sizeof known - used)
                        break;
                    used += (size_t)w;
                }
                nr_error_set(err, "unknown scheme '%s' (known: %s, all, racing, after, every)", name, known);
                return -1;
            }
            n = add_unique(t, out, n, max, err);
        }
        if (n < 0)
            return -1;
        p += len;
        if (*p == ',' && *++p == '\0') {
            nr_error_set(err, "bad scheme list '%s': expected comma-separated names", list);
            return -1;
        }
    }
    return n;
}

/* Sec. 3's Delta-causality shows a remote MU at its generation + Delta and
 * discards one that arrives later: over a link whose mean one-way delay
 * exceeds Delta most MUs are discarded. */
int scheme_delta_late(const SchemeType *const *s, int n, int64_t delta_us, double mean_ms, char *names, size_t cap)
{
    if (names && cap)
        names[0] = '\0';
    if (!(mean_ms > (double)delta_us / (double)NR_US_PER_MS))
        return 0;
    int late = 0;
    size_t used = 0;
    for (int k = 0; k < n; k++) {
        if (!s[k]->holds_delta)
            continue;
        late++;
        size_t len = strlen(s[k]->name);
        if (names && used + len + 3 < cap)
            used += (size_t)snprintf(names + used, cap - used, "%s%s", used ? ", " : "", s[k]->name);
    }
    return late;
}
