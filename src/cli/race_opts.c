/* Parsing and loading of the options shared by replay and sweep. */
#include "race_opts.h"

#include "cli_load.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void race_opts_engine_config_2(const RaceOpts *o, EngineConfig *cfg);

void race_opts_init(RaceOpts *o, const char *schemes)
{
    memset(o, 0, sizeof *o);
    o->recording = RACE_DEFAULT_RECORDING;
    o->link_text[0] = RACE_DEFAULT_LINK;
    o->link_text[1] = RACE_DEFAULT_LINK;
    o->schemes_text = schemes;
    o->seed = 1;
    o->params = scheme_default_params();
    o->ncars = 2;
}

static bool parse_clock(const char *cmd, const char *flag, const char *val, TerminalClock *c)
{
    if (!terminal_clock_parse(val, c)) {
        cli_usage_error(cmd, "%s: expected OFFSET_MS[,DRIFT_PPM] (|offset| at most 10^6 ms, |drift| 10^5 ppm), got '%s'",
                        flag, val);
        return false;
    }
    return true;
}

/* The settings of the schemes after the papers (scheme.h, docs/schemes.md). */
static int adapt_flag(RaceOpts *o, int argc, char **argv, int *i, const char *cmd)
{
    static const char *const ms_flags[] = {"--adapt-margin", "--adapt-min", "--adapt-max"};
    const char *a = argv[*i], *v = NULL;
    SchemeParams *p = &o->params;
    int64_t *ms_field[] = {&p->adapt_margin_us, &p->adapt_min_us, &p->adapt_max_us};
    double d;
    int64_t n;
    for (int k = 0; k < 3; k++) {
        if (!cli_flag_is(a, ms_flags[k]))
            continue;
        if (!cli_value(argc, argv, i, cmd, &v) ||
            !cli_int(cmd, ms_flags[k], v, 0, SCHEME_DELTA_MAX_US / NR_US_PER_MS, &n))
            return RACE_FLAG_BAD;
        *ms_field[k] = n * NR_US_PER_MS;
        return RACE_FLAG_TAKEN;
    }
    if (cli_flag_is(a, "--adapt-quantile")) {
        if (!cli_value(argc, argv, i, cmd, &v) || !cli_double(cmd, "--adapt-quantile", v, 0.0, 1.0, &d))
            return RACE_FLAG_BAD;
        p->adapt_quantile = d;
    } else if (cli_flag_is(a, "--adapt-window")) {
        if (!cli_value(argc, argv, i, cmd, &v) || !cli_int(cmd, "--adapt-window", v, 1, LAGEST_WINDOW_MAX, &n))
            return RACE_FLAG_BAD;
        p->adapt_window = (int32_t)n;
    } else if (cli_flag_is(a, "--adapt-slew")) {
        if (!cli_value(argc, argv, i, cmd, &v) || !cli_double(cmd, "--adapt-slew", v, 1e-6, 1.0, &d))
            return RACE_FLAG_BAD;
        p->adapt_slew = d;
    } else {
        return RACE_FLAG_NOT_MINE;
    }
    return RACE_FLAG_TAKEN;
}

int race_opts_flag(RaceOpts *o, int argc, char **argv, int *i, const char *cmd)
{
    const char *a = argv[*i], *v = NULL;
    double d;
    int64_t n;
    if (cli_flag_is(a, "--link12") || cli_flag_is(a, "--link21")) {
        if (!cli_value(argc, argv, i, cmd, &v))
            return RACE_FLAG_BAD;
        o->link_text[a[6] == '1' ? 0 : 1] = v;
        o->link_given[a[6] == '1' ? 0 : 1] = true;
    } else if (cli_flag_is(a, "--link-script")) {
        if (!cli_value(argc, argv, i, cmd, &v))
            return RACE_FLAG_BAD;
        o->script_path = v;
    } else if (cli_flag_is(a, "--delta")) {
        if (!cli_value(argc, argv, i, cmd, &v) ||
            !cli_int(cmd, "--delta", v, 0, SCHEME_DELTA_MAX_US / NR_US_PER_MS, &n))
            return RACE_FLAG_BAD;
        o->params.delta_us = n * NR_US_PER_MS;
        o->params_given |= RACEHEADER_DELTA;
    } else if (cli_flag_is(a, "--tdr")) {
        if (!cli_value(argc, argv, i, cmd, &v) || !cli_double(cmd, "--tdr", v, 0.0, 1000.0, &d))
            return RACE_FLAG_BAD;
        o->params.tdr_cw = d;
        o->params_given |= RACEHEADER_TDR;
    } else if (cli_flag_is(a, "--converge")) {
        if (!cli_value(argc, argv, i, cmd, &v) || !cli_int(cmd, "--converge", v, 0, 10000, &n))
            return RACE_FLAG_BAD;
        o->params.converge_us = n * NR_US_PER_MS;
        o->params_given |= RACEHEADER_CONVERGE;
    } else if (cli_flag_is(a, "--schemes")) {
        if (!cli_value(argc, argv, i, cmd, &v))
            return RACE_FLAG_BAD;
        o->schemes_text = v;
    } else if (cli_flag_is(a, "--seed")) {
        if (!cli_value(argc, argv, i, cmd, &v) || !cli_u64(cmd, "--seed", v, &o->seed))
            return RACE_FLAG_BAD;
        o->params_given |= RACEHEADER_SEED;
    } else if (cli_flag_is(a, "--clock1") || cli_flag_is(a, "--clock2")) {
        int t = a[7] == '1' ? 0 : 1;
        if (!cli_value(argc, argv, i, cmd, &v) || !parse_clock(cmd, t ? "--clock2" : "--clock1", v, &o->clock[t]))
            return RACE_FLAG_BAD;
        o->clock_given |= 1u << t;
    } else if (cli_flag_is(a, "--clock")) {
        if (!cli_value(argc, argv, i, cmd, &v))
            return RACE_FLAG_BAD;
        int t = v[0] - '1';
        if (t < 0 || t >= ENGINE_MAX_CARS || v[1] != '=')
            return cli_usage_error(cmd, "--clock '%s': expected I=OFFSET_MS[,DRIFT_PPM], terminal I 1 to %d "
                                        "(e.g. --clock 3=20,50)",
                                   v, ENGINE_MAX_CARS),
                   RACE_FLAG_BAD;
        if (!parse_clock(cmd, "--clock", v + 2, &o->clock[t]))
            return RACE_FLAG_BAD;
        o->clock_given |= 1u << t;
    } else {
        return adapt_flag(o, argc, argv, i, cmd);
    }
    return RACE_FLAG_TAKEN;
}

int race_opts_parse(RaceOpts *o, const char *cmd)
{
    NrError err = {{0}};
    for (int d = 0; d < 2; d++) {
        if (!o->link_parsed[d] && !linkspec_parse(&o->link[d], o->link_text[d], NULL, &err))
            return cli_usage_error(cmd, "--link%s: %s", d == 0 ? "12" : "21", err.msg);
        o->link_parsed[d] = true;
    }
    if (!scheme_params_check(&o->params, &err))
        return cli_usage_error(cmd, "--adapt-*: %s", err.msg);
    if (o->script_path && !linkscript_load(&o->script, o->script_path, NULL, &err))
        return cli_fail(cmd, "--link-script %s", err.msg);
    o->nschemes = scheme_parse_list(o->schemes_text, o->schemes, SCHEME_MAX, &err);
    if (o->nschemes < 0)
        return cli_usage_error(cmd, "--schemes: %s", err.msg);
    return CLI_OK;
}

int race_opts_check_delta(const RaceOpts *o, const char *cmd)
{
    int64_t dmax = engine_delta_max_us(o->rec.period_ms, o->clock, ENGINE_MAX_CARS); /* unset: no drift */
    if (o->params.delta_us > dmax)
        return cli_usage_error(cmd, "--delta: %ld ms is more than the schemes' buffers hold at %s's %ld ms "
                               "period and these clocks (at most %ld ms)",
                               (long)(o->params.delta_us / NR_US_PER_MS), o->recording, (long)o->rec.period_ms,
                               (long)(dmax / NR_US_PER_MS));
    return CLI_OK;
}

int race_opts_load(RaceOpts *o, const char *cmd)
{
    NrError err = {{0}};
    int prc = race_opts_parse(o, cmd);
    if (prc != CLI_OK)
        return prc;
    char path[4096];
    if (!cli_resolve_path(o->recording, path, sizeof path))
        return cli_fail(cmd, "%s: no such recording", o->recording);
    o->header = malloc(sizeof *o->header);
    if (!o->header)
        return cli_fail(cmd, "out of memory");
    if (!cli_load_race(path, &o->rec, &o->track, o->header, &err))
        return cli_fail(cmd, "%s", err.msg);
    if (!cli_find_track(path, o->rec.track, o->track_path, sizeof o->track_path))
        o->track_path[0] = '\0';
    if (o->rec.ncars < 2)
        return cli_fail(cmd, "%s: a race needs two cars, the recording has %d", path, o->rec.ncars);
    int drc = race_opts_check_delta(o, cmd);
    if (drc != CLI_OK)
        return drc;
    for (int c = 0; c < 2; c++) {
        o->progress[c] = malloc(sizeof(double) * (size_t)o->rec.nsamples);
        if (!o->progress[c] || !recording_progress(&o->rec, o->track, c, o->progress[c]))
            return cli_fail(cmd, "%s: cannot compute the cars' progress", path);
    }
    return CLI_OK;
}

void race_opts_engine_config(const RaceOpts *o, EngineConfig *cfg)
{
    race_opts_engine_config_2(o, cfg);
    race_topo_config(o, cfg);
}

/* The two-player part: links 1-2 and 2-1, clocks, the first two cars. */
static void race_opts_engine_config_2(const RaceOpts *o, EngineConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->track = o->track;
    cfg->period_ms = o->rec.period_ms;
    cfg->ncars = 2;
    cfg->link[0] = &o->link[0];
    cfg->link[1] = &o->link[1];
    cfg->seed = o->seed;
    cfg->params = o->params;
    for (int k = 0; k < o->nschemes; k++)
        cfg->schemes[k] = o->schemes[k];
    cfg->nschemes = o->nschemes;
    cfg->clock[0] = o->clock[0];
    cfg->clock[1] = o->clock[1];
    cfg->progress[0] = o->progress[0];
    cfg->progress[1] = o->progress[1];
    cfg->progress_n = o->rec.nsamples;
}

int race_opts_check_clocks(const RaceOpts *o, int ncars, const char *cmd)
{
    for (int t = ncars; t < ENGINE_MAX_CARS; t++)
        if (o->clock_given & (1u << t))
            return cli_usage_error(cmd, "--clock %d: the race has %d terminals", t + 1, ncars);
    return CLI_OK;
}

void race_opts_free(RaceOpts *o)
{
    linkscript_free(&o->script);
    for (int d = 0; d < 2; d++)
        if (o->link_parsed[d])
            linkspec_free(&o->link[d]);
    for (int c = 0; c < ENGINE_MAX_CARS; c++) {
        free(o->progress[c]);
        o->progress[c] = NULL;
    }
    linkmatrix_free(o->lines);
    free(o->lines);
    o->lines = NULL;
    linkmatrix_free(o->links_file);
    free(o->links_file);
    o->links_file = NULL;
    raceheader_free(o->header);
    free(o->header);
    o->header = NULL;
    if (o->link_default_parsed)
        linkspec_free(&o->link_default);
    o->link_default_parsed = false;
    recording_free(&o->rec);
    track_free(o->track);
    o->track = NULL;
}

int race_opts_check_out(const RaceOpts *o, const char *cmd, const char *flag, const char *path)
{
    const char *inputs[2] = {o->recording, o->track_path[0] ? o->track_path : NULL};
    return cli_out_check(cmd, flag, path, inputs, 2);
}

int race_name_width(const RunResult *r, int n)
{
    /* The name column is 14 wide, wider only when a longer name is listed
     * (adaptive-causality), so the papers' tables keep their bytes. */
    int w = 14;
    for (int k = 0; k < n; k++)
        if ((int)strlen(r[k].scheme->name) > w)
            w = (int)strlen(r[k].scheme->name);
    return w;
}

void race_print_table(FILE *f, const RunResult *r, int n)
{
    int w = race_name_width(r, n);
    fprintf(f, "%-*s %8s %9s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s\n", w, "scheme", "incons",
            "d1-d2", "|d1|", "|d2|", "sent12", "sent21", "lost12", "lost21", "late12", "late21",
            "disc12", "disc21");
    for (int k = 0; k < n; k++) {
        const DirCounters *a = &r[k].dir[0], *b = &r[k].dir[1];
        fprintf(f,
                "%-*s %8.4f %9.4f %7.3f %7.3f %7" PRId64 " %7" PRId64 " %7" PRId64 " %7" PRId64
                " %7" PRId64 " %7" PRId64 " %7" PRId64 " %7" PRId64 "\n",
                w, r[k].scheme->name, r[k].inconsistency_rate, nr_unsigned_zero(r[k].mean_d1_minus_d2, 4), r[k].mean_abs_d1,
                r[k].mean_abs_d2, a->sent, b->sent, a->lost, b->lost, a->late, b->late, a->discarded,
                b->discarded);
    }
}

void race_print_script(FILE *f, const RaceOpts *o)
{
    char name[48];
    for (int i = 0; i < o->script.n; i++)
        fprintf(f, "script: at %g s link %s: %s (%s:%d)\n", (double)o->script.ch[i].t_us / 1e6,
                linkscript_line_name(&o->script.ch[i], name, sizeof name), o->script.ch[i].spec.text, o->script_path,
                o->script.ch[i].line);
}

void race_print_params(FILE *f, const RaceOpts *o)
{
    fprintf(f, "link12: %s\nlink21: %s\n", race_topo_line(o, 0, 1)->text, race_topo_line(o, 1, 0)->text);
    race_print_script(f, o);
    fprintf(f, "delta %.0f ms, T_dr %.3g cw, seed %" PRIu64 "\n\n", (double)o->params.delta_us / 1000.0,
            o->params.tdr_cw, o->seed);
}

void race_print_csv(FILE *f, const RaceOpts *o, const RunResult *r, int n)
{
    const LinkSpec *l12 = race_topo_line(o, 0, 1), *l21 = race_topo_line(o, 1, 0);
    RunKey key = {
        .delay12_ms = (double)l12->delay_us / 1000.0,
        .jitter12_ms = (double)l12->jitter_us / 1000.0,
        .delay21_ms = (double)l21->delay_us / 1000.0,
        .jitter21_ms = (double)l21->jitter_us / 1000.0,
        .delta_ms = (double)o->params.delta_us / 1000.0,
        .tdr = o->params.tdr_cw,
        .seed = o->seed,
    };
    bool wide = race_topo_wide(o);
    result_csv_header_fields(f);
    if (wide)
        race_topo_csv_extra_header(f, o->ncars);
    fputc('\n', f);
    for (int k = 0; k < n; k++) {
        result_csv_row_fields(f, &key, &r[k]);
        if (wide)
            race_topo_csv_extra(f, o, &r[k]);
        fputc('\n', f);
    }
}

bool race_write_series(const char *cmd, const char *path, const Engine *e, int *rc)
{
    NrPartFile out;
    FILE *f = cli_out_open(cmd, &out, path, rc);
    if (!f)
        return false;
    /* More than two cars or client-server: the N-car columns too. */
    bool wide = engine_car_count(e) > 2 || engine_topology(e) == ROUTE_CS;
    fputs(wide ? "scheme,t_ms,d1,d2,inconsistent,inconsistency_rate,mean_d1_minus_d2,pair_rate,spread\n"
               : "scheme,t_ms,d1,d2,inconsistent,inconsistency_rate,mean_d1_minus_d2\n",
          f);
    for (int k = 0; k < engine_scheme_count(e); k++) {
        int n;
        const MetricSample *h = engine_history(e, k, &n);
        for (int i = 0; i < n; i++) {
            fprintf(f, "%s,%" PRId64 ",%.6f,%.6f,%d,%.6f,%.6f", engine_scheme(e, k)->name, h[i].t_us / NR_US_PER_MS,
                    h[i].d1, h[i].d2, h[i].inconsistent ? 1 : 0, h[i].rate, h[i].mean_d1_d2);
            if (wide)
                fprintf(f, ",%.6f,%.6f", h[i].pair_rate, h[i].spread);
            fputc('\n', f);
        }
    }
    bool ok = cli_out_close(cmd, &out, true, rc);
    if (ok)
        cli_wrote(path);
    return ok;
}

/* One line when the link's mean delay (ms) exceeds Delta
 * (scheme_delta_late: the one check); at names the sweep's point ("" for
 * the race's own Delta). */
static bool warn_link(const SchemeType *const *s, int n, const char *cmd, const char *at, int64_t delta_us,
                      const char *link, double mean_ms)
{
    char names[256];
    if (!scheme_delta_late(s, n, delta_us, mean_ms, names, sizeof names))
        return false;
    fprintf(stderr,
            "netrace %s: warning: %s%s: Delta %.0f ms is below the mean delay %.1f ms of link %s: most "
            "remote updates arrive after Delta and are discarded\n",
            cmd, at, names, (double)delta_us / (double)NR_US_PER_MS, mean_ms, link);
    return true;
}

bool race_warn_delta_at(const SchemeType *const *s, int n, const char *cmd, const char *at, int64_t delta_us,
                        const LinkSpec *l12, const LinkSpec *l21)
{
    double m12 = linkspec_mean_ms(l12), m21 = linkspec_mean_ms(l21);
    return warn_link(s, n, cmd, at, delta_us, m12 >= m21 ? "1->2" : "2->1", fmax(m12, m21));
}

void race_warn_delta(const RaceOpts *o, const char *cmd, const LinkSpec *swept, int nswept)
{
    if (race_topo_wide(o))
        return;
    if (!swept && o->link_parsed[0])
        warn_link(o->schemes, o->nschemes, cmd, "", o->params.delta_us, "1->2", linkspec_mean_ms(race_topo_line(o, 0, 1)));
    double most = -1;
    for (int p = 0; p < nswept; p++)
        most = fmax(most, linkspec_mean_ms(&swept[p]));
    if (swept && nswept > 0)
        warn_link(o->schemes, o->nschemes, cmd, "", o->params.delta_us, "1->2 at the sweep's largest delay", most);
    if (o->link_parsed[1])
        warn_link(o->schemes, o->nschemes, cmd, "", o->params.delta_us, "2->1", linkspec_mean_ms(race_topo_line(o, 1, 0)));
}
