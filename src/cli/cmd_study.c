/* `netrace study`: a study with human subjects run from its plan: the order
 * of a pair (--order), the session in the window (the players drive and
 * rate) or headless (--headless: bots or scripts, answers from a file), the
 * report of one or many sessions (--report). */
#include "study_cli.h"

#include "wirecrypt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void study_print_order(FILE *f, const StudyCli *s, const StudyOrder *ord)
{
    const StudyPlan *pl = &s->plan;
    int rated = 0;
    for (int i = 0; i < ord->nrace; i++)
        rated += ord->race[i].kind != STUDY_RACE_PRACTICE;
    fprintf(f, "study %s, pair %d: %d races (%d practice, %d rated); Williams row %d of %d, labels permuted by "
            "seed %llu; players %s\n", pl->name, ord->pair, ord->nrace, ord->nrace - rated, rated,
            ord->first_row + 1, pl->nrated % 2 ? 2 * pl->nrated : pl->nrated, (unsigned long long)pl->seed,
            pl->blind ? "blind to the condition" : "shown the condition");
    for (int i = 0; i < ord->nrace; i++) {
        const StudyRace *r = &ord->race[i];
        const StudyCondition *c = &pl->cond[r->cond];
        char len[32];
        if (c->duration_us > 0)
            snprintf(len, sizeof len, "%g s", (double)c->duration_us / 1e6);
        else
            snprintf(len, sizeof len, "%d lap%s", c->laps, c->laps == 1 ? "" : "s");
        fprintf(f, "race %3d  %-8s  %-10s  %-12s  %s, %s; link12 %s; link21 %s; delta %lld ms; tdr %g cw\n",
                r->index, studyorder_kind_name(r->kind), c->label, c->scheme, c->track, len, c->link[0],
                c->link[1], (long long)(c->delta_us / NR_US_PER_MS), c->tdr_cw);
        if (r->break_after)
            fprintf(f, "break\n");
    }
}

static int finish(StudyCli *s, int rc)
{
    players_free(&s->pl);
    return rc;
}

/* --report DIR... [--csv FILE] [--plot FIG.png|svg|pdf] */
static int report_main(int argc, char **argv)
{
    const char *csv = NULL, *plot = NULL;
    char *dirs[256];
    int n = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--report") == 0)
            continue;
        if (cli_flag_is(a, "--csv")) {
            if (!cli_value(argc, argv, &i, STUDY_CMD, &csv))
                return CLI_USAGE;
        } else if (cli_flag_is(a, "--plot")) {
            if (!cli_value(argc, argv, &i, STUDY_CMD, &plot))
                return CLI_USAGE;
        } else if (a[0] == '-') {
            return cli_unknown_option(STUDY_CMD, a);
        } else if (n == (int)(sizeof dirs / sizeof dirs[0])) {
            return cli_usage_error(STUDY_CMD, "--report: at most %d folders", n);
        } else {
            dirs[n++] = argv[i];
        }
    }
    if (n == 0)
        return cli_usage_error(STUDY_CMD, "--report: name one or more session folders");
    if (plot && cli_plot_check(STUDY_CMD, plot) != CLI_OK)
        return CLI_USAGE;
    if (csv && plot && cli_out_distinct(STUDY_CMD, "--csv", csv, "--plot", plot) != CLI_OK)
        return CLI_USAGE;
    return study_report(dirs, n, csv, plot);
}

/* The flags of --order and of a session; *order / *headless say which,
 * pc takes the window's. */
static int parse_flags(StudyCli *s, PlayConfig *pc, int argc, char **argv, bool *order, bool *headless)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        int64_t n;
        double d;
        int w = players_window_flag(pc, argc, argv, &i, STUDY_CMD);
        if (w == RACE_FLAG_BAD)
            return CLI_USAGE;
        if (w == RACE_FLAG_TAKEN) {
            s->window_flag = a;
        } else if (cli_flag_is(a, "--scale")) { /* as play's: the text scale of every screen */
            if (!cli_value(argc, argv, &i, STUDY_CMD, &v) ||
                !cli_double(STUDY_CMD, "--scale", v, GFX_SCALE_MIN, GFX_SCALE_MAX, &pc->scale))
                return CLI_USAGE;
            s->window_flag = a;
        } else if (cli_flag_is(a, "--pair") || cli_flag_is(a, "--stop-after")) {
            bool pair = a[2] == 'p';
            if (!cli_value(argc, argv, &i, STUDY_CMD, &v) ||
                !cli_int(STUDY_CMD, pair ? "--pair" : "--stop-after", v, 1,
                         pair ? STUDYORDER_MAX_PAIR : STUDY_MAX_RACES, &n))
                return CLI_USAGE;
            *(pair ? &s->pair : &s->stop_after) = (int)n;
        } else if (cli_flag_is(a, "--p1") || cli_flag_is(a, "--p2")) {
            if (!cli_value(argc, argv, &i, STUDY_CMD, &v) || !players_parse(&s->pl, STUDY_CMD, a[3] == '2', v))
                return CLI_USAGE;
        } else if (cli_flag_is(a, "--skill") || cli_flag_is(a, "--noise")) {
            bool sk = a[2] == 's';
            if (!cli_value(argc, argv, &i, STUDY_CMD, &v) ||
                !cli_double(STUDY_CMD, sk ? "--skill" : "--noise", v, sk ? BOT_SKILL_MIN : 0.0, 1.0, &d))
                return CLI_USAGE;
            *(sk ? &s->pl.skill : &s->pl.noise) = d;
        } else if (cli_flag_is(a, "--out")) {
            if (!cli_value(argc, argv, &i, STUDY_CMD, &s->out_dir))
                return CLI_USAGE;
        } else if (cli_flag_is(a, "--ratings")) {
            if (!cli_value(argc, argv, &i, STUDY_CMD, &s->ratings_path))
                return CLI_USAGE;
        } else if (cli_flag_is(a, "--join") || cli_flag_is(a, "--code") || cli_flag_is(a, "--allow")) {
            const char **to = a[2] == 'j' ? &s->net_join : a[2] == 'c' ? &s->net_code : &s->net_allow;
            if (!cli_value(argc, argv, &i, STUDY_CMD, to))
                return CLI_USAGE;
        } else if (cli_flag_is(a, "--port")) {
            if (!cli_value(argc, argv, &i, STUDY_CMD, &v) || !cli_int(STUDY_CMD, "--port", v, 0, 65535, &n))
                return CLI_USAGE;
            s->net_port = (int)n;
        } else if (strcmp(a, "--host") == 0) {
            s->net_host = true;
        } else if (strcmp(a, "--order") == 0) {
            *order = true;
        } else if (strcmp(a, "--headless") == 0) {
            *headless = true;
        } else if (strcmp(a, "--resume") == 0) {
            s->resume = true;
        } else if (a[0] == '-' && a[1]) {
            return cli_unknown_option(STUDY_CMD, a);
        } else if (s->plan_path) {
            return cli_usage_error(STUDY_CMD, "one plan only ('%s' and '%s')", s->plan_path, a);
        } else {
            s->plan_path = a;
        }
    }
    return CLI_OK;
}

/* A session needs its folder; headless, bot or script players and their
 * answers; in the window, the players' own answers. */
static int check_session_flags(const StudyCli *s, bool headless)
{
    if (!s->out_dir)
        return cli_usage_error(STUDY_CMD, "--out DIR: the session's folder is missing");
    if (!*s->out_dir || strlen(s->out_dir) > 4000)
        return cli_usage_error(STUDY_CMD, "--out: expected a folder path of 1 to 4000 bytes");
    if (!headless) {
        if (s->ratings_path)
            return cli_usage_error(STUDY_CMD, "--ratings FILE goes with --headless: in the window the players "
                                              "answer on their rating screens");
        return CLI_OK;
    }
    if (s->window_flag)
        return cli_usage_error(STUDY_CMD, "%s is the window's: drop it with --headless", s->window_flag);
    if (!s->ratings_path)
        return cli_usage_error(STUDY_CMD, "--ratings FILE: a headless session takes the players' answers from a "
                                          "file (lines race,player,question,score)");
    if (players_any_human(&s->pl))
        return cli_usage_error(STUDY_CMD, "--headless races bots and scripts: give --p1 and --p2 as bot or "
                                          "script:FILE");
    return CLI_OK;
}

/* Over the network: each end's own flags. The joiner has no plan, no DIR
 * of the study (its --out keeps its logs), and drives car 2. */
static int check_net_flags(const StudyCli *s, bool headless)
{
    if (!s->net_host && !s->net_join) {
        if (s->net_code || s->net_allow || s->net_port >= 0)
            return cli_usage_error(STUDY_CMD, "--code, --port and --allow go with --host or --join");
        return CLI_OK;
    }
    if (s->net_host && s->net_join)
        return cli_usage_error(STUDY_CMD, "--host or --join: one end each");
    if (s->net_host && s->pl.given[1])
        return cli_usage_error(STUDY_CMD, "--p2 drives the joiner's car: give it on the joiner's command");
    if (!s->net_join)
        return CLI_OK;
    if (s->plan_path || s->pair || s->resume || s->stop_after || s->net_allow)
        return cli_usage_error(STUDY_CMD, "the joiner takes the host's races: drop the plan, --pair, --resume, "
                                          "--stop-after and --allow (the host's)");
    if (s->pl.given[0])
        return cli_usage_error(STUDY_CMD, "the joiner drives car 2: --p2 (--p1 is the host's)");
    if (s->net_code && !wirecrypt_code_normalise(s->net_code, (char[WIRECRYPT_CODE_CHARS + 1]){0}))
        return cli_usage_error(STUDY_CMD, "--code '%.24s': expected %d characters of %s (dashes, case ignored)",
                               s->net_code, WIRECRYPT_CODE_CHARS, WIRECRYPT_ALPHABET);
    if (headless && !s->net_code)
        return cli_usage_error(STUDY_CMD, "give the join code the host shows: --code CODE");
    if (headless && !s->ratings_path)
        return cli_usage_error(STUDY_CMD, "--ratings FILE: a headless joiner takes its player's answers from a "
                                          "file (player 2 lines)");
    if (!headless && s->ratings_path)
        return cli_usage_error(STUDY_CMD, "--ratings FILE goes with --headless");
    if (headless && (s->pl.kind[1] == PLAYER_KEYS || s->pl.kind[1] == PLAYER_PAD))
        return cli_usage_error(STUDY_CMD, "--headless races a bot or a script: --p2 bot or script:FILE");
    return CLI_OK;
}

/* The session, headless or in the window, here or as the host of a
 * network study; DIR as it was left either way. */
static int run_session(StudyCli *s, PlayConfig *pc, bool headless)
{
    StudySession *ss = calloc(1, sizeof *ss);
    if (!ss)
        return cli_fail(STUDY_CMD, "out of memory");
    int rc = study_session_open(ss, s);
    if (rc == CLI_OK && s->net_host)
        rc = study_host_main(ss, pc, headless);
    else if (rc == CLI_OK)
        rc = headless ? study_run_headless(ss) : study_run_window(ss, pc);
    study_session_free(ss);
    free(ss);
    return rc;
}

static int study_main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--report") == 0)
            return report_main(argc, argv);
    StudyCli s;
    memset(&s, 0, sizeof s);
    s.net_port = -1;
    players_init(&s.pl);
    bool order = false, headless = false;
    for (int i = 1; i < argc; i++)
        headless |= strcmp(argv[i], "--headless") == 0;
    if (headless) /* the pilot's players: bots; in the window, two people on the keys */
        s.pl.kind[0] = s.pl.kind[1] = PLAYER_BOT;
    PlayConfig pc;
    memset(&pc, 0, sizeof pc);
    int rc = parse_flags(&s, &pc, argc, argv, &order, &headless);
    if (rc == CLI_OK)
        rc = check_net_flags(&s, headless);
    if (rc != CLI_OK)
        return finish(&s, rc);
    if (s.net_join) {
        if ((rc = players_load_scripts(&s.pl, STUDY_CMD)) != CLI_OK)
            return finish(&s, rc);
        return finish(&s, study_join_main(&s, &pc, headless));
    }
    if (!s.plan_path)
        return finish(&s, cli_usage_error(STUDY_CMD, "name the study plan (e.g. studies/example.study)"));
    if (s.pair == 0)
        return finish(&s, cli_usage_error(STUDY_CMD, "--pair N: which pair of subjects (1, 2, ...)"));
    if (order && (headless || s.out_dir || s.ratings_path || s.resume || s.window_flag || s.net_host))
        return finish(&s, cli_usage_error(STUDY_CMD, "--order prints the order only: drop the session's flags"));
    if (!order && (rc = check_session_flags(&s, headless)) != CLI_OK)
        return finish(&s, rc);
    NrError err = {{0}};
    if (!studyplan_load(&s.plan, s.plan_path, &err))
        return finish(&s, cli_fail(STUDY_CMD, "%s", err.msg));
    if (order) {
        StudyOrder ord;
        if (!studyorder_make(&s.plan, s.pair, &ord, &err))
            return finish(&s, cli_usage_error(STUDY_CMD, "--pair: %s", err.msg));
        study_print_order(stdout, &s, &ord);
        return finish(&s, CLI_OK);
    }
    if ((rc = players_load_scripts(&s.pl, STUDY_CMD)) != CLI_OK)
        return finish(&s, rc);
    return finish(&s, run_session(&s, &pc, headless));
}

const CliCommand cmd_study = {
    .name = "study",
    .summary = "a study with human subjects: counterbalanced orders, ratings, MOS report",
    .usage = "netrace study PLAN --pair N --order\n"
             "netrace study PLAN --pair N --out DIR [--p1 keys|pad|bot|script:FILE] [--p2 ...] [--keys FILE]\n"
             "  [--pad-mappings FILE] [--size WxH] [--fullscreen] [--scale X] [--shots DIR] [--resume] [--stop-after RACE]\n"
             "netrace study PLAN --pair N --out DIR --headless --ratings FILE [--p1 bot|script:FILE] [--p2 ...]\n"
             "  [--skill X] [--noise X] [--resume] [--stop-after RACE]\n"
             "netrace study PLAN --pair N --out DIR --host [--port P] [--allow HOST] [--code CODE] [--p1 ...]\n"
             "  [the window's or --headless --ratings FILE] [--resume] [--stop-after RACE]\n"
             "netrace study --join HOST[:PORT] [--code CODE] [--port P] [--out DIR] [--p2 keys|pad|bot|script:FILE]\n"
             "  [the window's or --headless --ratings FILE]\n"
             "netrace study --report DIR... [--csv FILE] [--plot FIG.png|svg|pdf]",
    .help = "A study plan (docs/studies.md; studies/example.study) lists conditions (scheme,\n"
            "links, Delta, T_dr, track, laps or seconds), practice races, a hidden repeat,\n"
            "breaks and the questions (default: ITU-T P.800 / P.910 five-grade ACR for\n"
            "operability, fairness, overall; acceptable yes/no). Each pair of subjects drives\n"
            "the conditions in a Williams-design order chosen by --pair.\n\n"
            "  --order           print the pair's races (the experimenter's view) and stop\n"
            "  --out DIR         the session's folder: plan copy, order.csv, every race's\n"
            "                    recording and inputs, ratings.csv, metrics.csv\n"
            "  (the window)      every race in one window, no experimenter input between races:\n"
            "                    a card per race, the countdown, the race (blind: no scheme, no\n"
            "                    link on the players' screens), a rating screen on each player's\n"
            "                    half; the terminal names each race's condition. --p1, --p2 as\n"
            "                    in play (default keys); bots drive, their people still rate\n"
            "  --scale X         the window's text X times larger, 0.5 .. 3 (Ctrl + / - in it)\n"
            "  --headless        bots or scripts drive (--p1, --p2 as in play; default bot),\n"
            "                    --ratings FILE answers for them: race,player,question,score\n"
            "  --resume          continue DIR at the first race without complete ratings\n"
            "  --stop-after R    end the session after race R (continue with --resume)\n"
            "  --host            over the network: this machine runs the plan and player 1\n"
            "                    (--port P, default 41000; --allow HOST; --code CODE, else one\n"
            "                    drawn and printed for every race); both players' answers in DIR\n"
            "  --join HOST[:P]   the other machine: player 2 (--p2), no plan; its window asks\n"
            "                    for the code (--code); --out DIR keeps its race logs (else a\n"
            "                    folder under TMPDIR), each sent to the host: DIR gets every\n"
            "                    race's recording and inputs\n"
            "  --report DIR...   MOS with 95 % intervals per condition and question, the hidden\n"
            "                    repeat's agreement, scores against inconsistency and fairness;\n"
            "                    --csv FILE (long format), --plot FIG.png|svg|pdf\n"
            "Rating keys: P1 W / S choose, D or Left Shift confirm; P2 Up / Down, Right or Right\n"
            "Shift; a pad's d-pad and A. While racing the mark key (P1 Left Shift, P2 Right\n"
            "Shift, a pad's Y) marks a moment of dissatisfaction (docs/studies.md).",
    .run = study_main,
};
