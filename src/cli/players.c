/* --p1 .. --p4 players and their controllers, shared by play and study. */
#include "players.h"

#include "cli.h"
#include "race_opts.h"

#include <stdio.h>

#include <stdlib.h>
#include <string.h>

void players_init(CliPlayers *p)
{
    memset(p, 0, sizeof *p);
    p->nseats = 2;
    for (int j = 0; j < PLAY_SEATS; j++)
        p->kind[j] = j < 2 ? PLAYER_KEYS : PLAYER_BOT;
    p->skill = 0.9;
    p->noise = 0.5;
}

bool players_flag(const char *a, int *j)
{
    if (strncmp(a, "--p", 3) != 0 || a[3] < '1' || a[3] > '9')
        return false;
    const char *end = a + 3;
    while (*end >= '0' && *end <= '9')
        end++;
    if (*end != '\0' && *end != '=')
        return false;
    long n = strtol(a + 3, NULL, 10);
    *j = n > 99 ? 99 : (int)n - 1;
    return true;
}

/* keys | pad | bot | script:FILE */
bool players_parse(CliPlayers *p, const char *cmd, int j, const char *v)
{
    char flag[16];
    snprintf(flag, sizeof flag, "--p%d", j + 1);
    if (j < 0 || j >= PLAY_SEATS) {
        cli_usage_error(cmd, "%s: at most %d players (--p1 .. --p%d)", flag, PLAY_SEATS, PLAY_SEATS);
        return false;
    }
    if (strcmp(v, "keys") == 0 && j >= 2) {
        cli_usage_error(cmd, "%s keys: the keyboard drives players 1 and 2; give %s pad, bot or script:FILE", flag,
                        flag);
        return false;
    }
    if (strcmp(v, "keys") == 0)
        p->kind[j] = PLAYER_KEYS;
    else if (strcmp(v, "pad") == 0)
        p->kind[j] = PLAYER_PAD;
    else if (strcmp(v, "bot") == 0)
        p->kind[j] = PLAYER_BOT;
    else if (strncmp(v, "script:", 7) == 0 && v[7]) {
        p->kind[j] = PLAYER_SCRIPT;
        p->script_path[j] = v + 7;
    } else {
        cli_usage_error(cmd, "%s '%s': expected %spad, bot or script:FILE", flag, v, j < 2 ? "keys, " : "");
        return false;
    }
    p->given[j] = true;
    return true;
}

bool players_any_human(const CliPlayers *p)
{
    bool any = false;
    for (int j = 0; j < p->nseats; j++)
        any |= p->kind[j] == PLAYER_KEYS || p->kind[j] == PLAYER_PAD;
    return any;
}

int players_load_scripts(CliPlayers *p, const char *cmd)
{
    NrError err = {{0}};
    for (int j = 0; j < p->nseats; j++) {
        if (p->kind[j] != PLAYER_SCRIPT)
            continue;
        InputScript *s = &p->script[j];
        if (!inputs_load(s, p->script_path[j], &err))
            return cli_fail(cmd, "%s", err.msg);
        if (s->first[j + 1] == s->first[j])
            return cli_fail(cmd, "%s: no line for player %d (--p%d plays its player %d lines)", p->script_path[j],
                            j + 1, j + 1, j + 1);
        /* lines sorted by player: the last line names the highest player */
        int top = s->n > 0 ? s->lines[s->n - 1].player + 1 : 0;
        if (top > p->nseats)
            return cli_fail(cmd, "%s: lines for player %d, but the race has %d cars", p->script_path[j], top,
                            p->nseats);
    }
    return CLI_OK;
}

static void free_bots(CliPlayers *p)
{
    for (int j = 0; j < PLAY_SEATS; j++) {
        bot_free(p->bot[j]);
        p->bot[j] = NULL;
    }
}

/* Bots reseeded, scripts rewound (an InputScript controller keeps no state). */
bool players_make(CliPlayers *p, const Track *track, uint64_t seed, Controller ctl[PLAY_SEATS], NrError *err)
{
    free_bots(p);
    CarParams params;
    car_params_default(&params);
    for (int j = 0; j < p->nseats; j++) {
        if (p->kind[j] == PLAYER_BOT) {
            BotDriver d = {.skill = p->skill, .noise = p->noise};
            p->bot[j] = bot_new(track, &params, d, seed, (uint64_t)j, err);
            if (!p->bot[j])
                return false;
            ctl[j] = bot_controller(p->bot[j]);
        } else if (p->kind[j] == PLAYER_SCRIPT) {
            ctl[j] = inputs_controller(&p->script[j]);
        }
    }
    return true;
}

void players_free(CliPlayers *p)
{
    free_bots(p);
    for (int j = 0; j < PLAY_SEATS; j++)
        inputs_free(&p->script[j]);
}

int players_window_flag(PlayConfig *pc, int argc, char **argv, int *i, const char *cmd)
{
    const char *a = argv[*i], *v = NULL;
    bool ok = true;
    if (cli_flag_is(a, "--keys")) {
        ok = cli_value(argc, argv, i, cmd, &pc->keys_path);
    } else if (cli_flag_is(a, "--pad-mappings")) {
        ok = cli_value(argc, argv, i, cmd, &pc->pad_mappings);
    } else if (cli_flag_is(a, "--assets")) {
        ok = cli_value(argc, argv, i, cmd, &pc->assets_dir);
    } else if (cli_flag_is(a, "--shots")) {
        ok = cli_value(argc, argv, i, cmd, &pc->shot_dir) && cli_dir_check(cmd, "--shots", pc->shot_dir) == CLI_OK;
    } else if (cli_flag_is(a, "--size")) {
        char extra;
        if (!cli_value(argc, argv, i, cmd, &v))
            return RACE_FLAG_BAD;
        if (sscanf(v, "%dx%d%c", &pc->width, &pc->height, &extra) != 2 || pc->width < 320 || pc->height < 200 ||
            pc->width > 16384 || pc->height > 16384) {
            cli_usage_error(cmd, "--size '%s': expected WIDTHxHEIGHT, at least 320x200", v);
            return RACE_FLAG_BAD;
        }
    } else if (strcmp(a, "--fullscreen") == 0) {
        pc->fullscreen = true;
    } else {
        return RACE_FLAG_NOT_MINE;
    }
    return ok ? RACE_FLAG_TAKEN : RACE_FLAG_BAD;
}
