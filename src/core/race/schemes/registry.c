/* The scheme registry: every scheme netrace knows, found by name. */
#include "scheme.h"

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
    NULL,
};

/* The racing paper's four schemes, the default set of replay and sweep. */
static const char *const racing[] = {"nc", "causality", "dr", "dr-causality", NULL};

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
    };
    return p;
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
        if (strcmp(name, "all") == 0) {
            for (int i = 0; registry[i] && n >= 0; i++)
                n = add_unique(registry[i], out, n, max, err);
        } else if (strcmp(name, "racing") == 0) {
            for (int i = 0; racing[i] && n >= 0; i++)
                n = add_unique(scheme_find(racing[i]), out, n, max, err);
        } else {
            const SchemeType *t = scheme_find(name);
            if (!t) {
                char known[512] = "";
                size_t used = 0;
                for (int i = 0; registry[i]; i++) {
                    int w = snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                                     registry[i]->name);
                    if (w < 0 || (size_t)w >= sizeof known - used)
                        break;
                    used += (size_t)w;
                }
                nr_error_set(err, "unknown scheme '%s' (known: %s, all, racing)", name, known);
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
