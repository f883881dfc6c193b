/* `netrace epp`'s flags: lists of losses, rates, bandwidths, models and
 * schemes, the traces, with the EPP paper's tables as defaults. */
#include "epp_opts.h"
#include "link.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* "10000", "10k", "2.5k", "1M" -> bps; false unless a positive finite number. */
static bool parse_bps(const char *s, double *out)
{
    char buf[64];
    size_t n = strlen(s);
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, s, n + 1);
    double mult = 1.0;
    char last = buf[n - 1];
    if (last == 'k' || last == 'K') {
        mult = 1e3;
        buf[n - 1] = '\0';
    } else if (last == 'M' || last == 'm') {
        mult = 1e6;
        buf[n - 1] = '\0';
    }
    double v;
    if (!nr_parse_double(buf, &v))
        return false;
    *out = v * mult;
    return true;
}

/* LIST of VALUE or A..B[:STEP] items (STEP defaults to 2.5k). */
static bool parse_bw_list(const char *flag, const char *val, int64_t *out, int *n)
{
    char buf[512], *items[MAX_LIST];
    int nitems = cli_list(CMD, flag, val, buf, sizeof buf, items, MAX_LIST);
    if (nitems < 0)
        return false;
    *n = 0;
    for (int it = 0; it < nitems; it++) {
        char *item = items[it];
        char *dots = strstr(item, "..");
        double a, b, step = 2500.0;
        if (dots) {
            *dots = '\0';
            char *hi = dots + 2;
            char *colon = strchr(hi, ':');
            if (colon) {
                *colon = '\0';
                if (!parse_bps(colon + 1, &step) || !(step > 0)) {
                    cli_usage_error(CMD, "%s: bad step '%s' in '%s'; expected a positive bandwidth like 2.5k",
                                    flag, colon + 1, val);
                    return false;
                }
            }
            if (!parse_bps(item, &a) || !parse_bps(hi, &b)) {
                cli_usage_error(CMD, "%s: bad range in '%s'; expected A..B[:STEP] like 5k..20k:2.5k", flag, val);
                return false;
            }
        } else {
            if (!parse_bps(item, &a)) {
                cli_usage_error(CMD, "%s: bad bandwidth '%s'; expected bits/s like 10000, 10k or 5k..20k:2.5k",
                                flag, item);
                return false;
            }
            b = a;
        }
        if (!(a > 0) || !(b > 0) || a > 1e10 || b > 1e10) {
            cli_usage_error(CMD, "%s: bandwidth must be positive (and at most 10G), got '%s'", flag, val);
            return false;
        }
        if (b < a) {
            cli_usage_error(CMD, "%s: range '%s' ends below its start", flag, val);
            return false;
        }
        for (double v = a; v <= b * (1 + 1e-12); v += step) {
            if (*n >= MAX_LIST) {
                cli_usage_error(CMD, "%s: more than %d bandwidths", flag, MAX_LIST);
                return false;
            }
            int64_t bps = (int64_t)llround(v);
            bool dup = false;
            for (int i = 0; i < *n; i++)
                dup |= out[i] == bps;
            if (!dup)
                out[(*n)++] = bps;
            if (a == b)
                break;
        }
    }
    return true;
}

static bool parse_loss_list(const char *val, Opts *o)
{
    char buf[512], *items[MAX_LIST];
    int nitems = cli_list(CMD, "--loss", val, buf, sizeof buf, items, MAX_LIST);
    if (nitems < 0)
        return false;
    o->nloss = 0;
    for (int it = 0; it < nitems; it++) {
        char *item = items[it];
        size_t n = strlen(item);
        bool pct = n > 0 && item[n - 1] == '%';
        if (pct)
            item[n - 1] = '\0';
        double v;
        if (!nr_parse_double(item, &v) || (pct ? v / 100.0 : v) < 0.0 || (pct ? v / 100.0 : v) >= 1.0) {
            cli_usage_error(CMD, "--loss: bad loss '%s%s'; expected a percentage like 5%% or a fraction in [0, 1)",
                            item, pct ? "%" : "");
            return false;
        }
        o->loss[o->nloss++] = pct ? v / 100.0 : v;
    }
    return true;
}

static bool parse_rate_list(const char *val, Opts *o)
{
    char buf[512], *items[MAX_LIST];
    int nitems = cli_list(CMD, "--rate", val, buf, sizeof buf, items, MAX_LIST);
    if (nitems < 0)
        return false;
    o->nrate = 0;
    for (int it = 0; it < nitems; it++) {
        char *item = items[it];
        int64_t v;
        if (!nr_parse_int64(item, &v) || v <= 0 || v > 1000) {
            cli_usage_error(CMD, "--rate: bad update rate '%s'; expected whole updates per second, 1 to 1000", item);
            return false;
        }
        o->rate[o->nrate++] = (int)v;
    }
    return true;
}

static bool parse_models(const char *val, Opts *o)
{
    o->nmodels = 0;
    if (strcmp(val, "none") == 0)
        return true;
    char buf[128], *items[MAX_LIST];
    int nitems = cli_list(CMD, "--models", val, buf, sizeof buf, items, MAX_LIST);
    if (nitems < 0)
        return false;
    for (int it = 0; it < nitems; it++) {
        char *item = items[it];
        int m = -1;
        for (int i = 0; i < 3; i++)
            if (strcmp(item, epp_model_name((EppModel)i)) == 0)
                m = i;
        if (m < 0) {
            cli_usage_error(CMD, "--models: unknown motion model '%s'; expected rd, rv, ra or none", item);
            return false;
        }
        bool dup = false;
        for (int i = 0; i < o->nmodels; i++)
            dup |= o->models[i] == (EppModel)m;
        if (!dup)
            o->models[o->nmodels++] = (EppModel)m;
    }
    return true;
}

static bool parse_schemes(const char *val, Opts *o)
{
    char buf[256], *items[MAX_LIST];
    int nitems = cli_list(CMD, "--schemes", val, buf, sizeof buf, items, MAX_LIST);
    if (nitems < 0)
        return false;
    memset(o->scheme_on, 0, sizeof o->scheme_on);
    for (int it = 0; it < nitems; it++) {
        char *item = items[it];
        int s = -1;
        for (int i = 0; i < SC_COUNT; i++)
            if (strcasecmp(item, epp_exp_scheme_name(i)) == 0)
                s = i;
        if (s < 0) {
            cli_usage_error(CMD, "--schemes: unknown scheme '%s'; expected raw, EP-p, EP-i, xd, xv or xa", item);
            return false;
        }
        o->scheme_on[s] = true;
    }
    return true;
}

/* The EPP paper's tables: every model and scheme, loss 5 % and 10 %, 10 and
 * 15 updates/s, 10 kbit/s, its link; 100 runs of 1000 locations. */
static void set_defaults(Opts *o)
{
    memset(o, 0, sizeof *o);
    o->models[0] = EPP_RD;
    o->models[1] = EPP_RV;
    o->models[2] = EPP_RA;
    o->nmodels = 3;
    for (int i = 0; i < SC_COUNT; i++)
        o->scheme_on[i] = true;
    o->loss[0] = 0.05;
    o->loss[1] = 0.10;
    o->nloss = 2;
    o->rate[0] = 10;
    o->rate[1] = 15;
    o->nrate = 2;
    o->bw[0] = 10000;
    o->nbw = 1;
    o->link = "delay 50ms gamma 3 10ms";
    o->raw_dr = EPP_RV;
    o->runs = 100;
    o->samples = 1000;
    o->seed = 1;
}

/* The flags of what is simulated (each takes a value). */
static const char *const what_flags[] = {"--models", "--schemes", "--loss", "--rate", "--bandwidth",
                                         "--sweep", "--link", "--trace", NULL};
/* The flags of how it runs and what it writes (each takes a value). */
static const char *const how_flags[] = {"--raw-dr", "--runs", "--samples", "--seed", "--out", "--plot", "--shard", NULL};

static bool flag_in(const char *a, const char *const *names)
{
    for (int k = 0; names[k]; k++)
        if (cli_flag_is(a, names[k]))
            return true;
    return false;
}

/* One of what_flags with its value v; *sweep keeps --sweep's text for
 * later (it is read once the rates are known). */
static int what_flag(Opts *o, const char *a, const char *v, const char **sweep)
{
    bool ok = true;
    if (cli_flag_is(a, "--models")) {
        ok = parse_models(v, o);
    } else if (cli_flag_is(a, "--schemes")) {
        ok = parse_schemes(v, o);
    } else if (cli_flag_is(a, "--loss")) {
        ok = parse_loss_list(v, o);
    } else if (cli_flag_is(a, "--rate")) {
        ok = parse_rate_list(v, o);
    } else if (cli_flag_is(a, "--bandwidth")) {
        ok = parse_bw_list("--bandwidth", v, o->bw, &o->nbw);
    } else if (cli_flag_is(a, "--sweep")) {
        *sweep = v;
    } else if (cli_flag_is(a, "--link")) {
        o->link = v;
    } else { /* --trace */
        if (o->ntraces >= MAX_TRACES)
            return cli_usage_error(CMD, "--trace: more than %d files", MAX_TRACES);
        o->traces[o->ntraces++] = v;
    }
    return ok ? CLI_OK : CLI_USAGE;
}

/* One of how_flags with its value v. */
static int how_flag(Opts *o, const char *a, const char *v)
{
    int64_t n;
    if (cli_flag_is(a, "--raw-dr")) {
        if (strcmp(v, "cd") == 0)
            o->raw_dr = EPP_RD;
        else if (strcmp(v, "cv") == 0)
            o->raw_dr = EPP_RV;
        else if (strcmp(v, "ca") == 0)
            o->raw_dr = EPP_RA;
        else
            return cli_usage_error(CMD, "--raw-dr: unknown predictor '%s'; expected cd, cv or ca", v);
    } else if (cli_flag_is(a, "--runs")) {
        if (!cli_int(CMD, "--runs", v, 1, 100000, &n))
            return CLI_USAGE;
        o->runs = (int)n;
    } else if (cli_flag_is(a, "--samples")) {
        if (!cli_int(CMD, "--samples", v, 1, 1000000, &n))
            return CLI_USAGE;
        o->samples = (int)n;
    } else if (cli_flag_is(a, "--seed")) {
        if (!cli_u64(CMD, "--seed", v, &o->seed))
            return CLI_USAGE;
    } else if (cli_flag_is(a, "--out")) {
        if (!*v)
            return cli_usage_error(CMD, "--out: empty file name");
        o->out = v;
    } else if (cli_flag_is(a, "--shard")) {
        if (!shard_parse(CMD, v, &o->shard))
            return CLI_USAGE;
    } else { /* --plot */
        if (cli_plot_check(CMD, v) != CLI_OK)
            return CLI_USAGE;
        o->plot = v;
    }
    return CLI_OK;
}

/* What the flags leave to check together: something to simulate, the
 * sweep's bandwidths, and no bandwidth below the update stream's rate. */
static int check_args(Opts *o, const char *sweep)
{
    if (o->nmodels == 0 && o->no_traces)
        return cli_usage_error(CMD, "--models none with --no-traces leaves nothing to simulate");
    if (o->shard.n && (o->plot || !o->out))
        return cli_usage_error(CMD, "--shard needs --out and no --plot: join the parts' CSVs with 'netrace "
                                    "join-shards', plot an unsharded run");
    if (strcmp(sweep, "none") == 0)
        o->nsweep = 0;
    else if (!parse_bw_list("--sweep", sweep, o->sweep, &o->nsweep))
        return CLI_USAGE;
    for (int r = 0; r < o->nrate; r++) {
        int64_t R = epp_stream_bps(o->rate[r]);
        for (int b = 0; b < o->nbw; b++)
            if (o->bw[b] < R)
                return cli_usage_error(CMD,
                                       "--bandwidth %lld bps is below the update stream's own rate R = %lld bps at "
                                       "%d updates/s (R = rate x (H + L) x 8, H = %d B, L = %d B)",
                                       (long long)o->bw[b], (long long)R, o->rate[r], EPP_HEADER_BYTES,
                                       EPP_PAYLOAD_BYTES);
    }
    return CLI_OK;
}

int epp_parse_args(int argc, char **argv, Opts *o)
{
    set_defaults(o);
    const char *sweep = "5k..20k:2.5k";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        if (strcmp(a, "--no-traces") == 0) {
            o->no_traces = true;
            continue;
        }
        bool what = flag_in(a, what_flags);
        if (!what && !flag_in(a, how_flags))
            return cli_unknown_option(CMD, a);
        if (!cli_value(argc, argv, &i, CMD, &v))
            return CLI_USAGE;
        int rc = what ? what_flag(o, a, v, &sweep) : how_flag(o, a, v);
        if (rc != CLI_OK)
            return rc;
    }
    return check_args(o, sweep);
}
