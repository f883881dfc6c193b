/* --p1 / --p2 players and their controllers, shared by play and study. */
#include "players.h"

#include "cli.h"

#include <string.h>

void players_init(CliPlayers *p)
{
    memset(p, 0, sizeof *p);
    p->kind[0] = p->kind[1] = PLAYER_KEYS;
    p->skill = 0.9;
    p->noise = 0.5;
}

/* keys | pad | bot | script:FILE */
bool players_parse(CliPlayers *p, const char *cmd, int j, const char *v)
{
    const char *flag = j ? "--p2" : "--p1";
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
        cli_usage_error(cmd, "%s '%s': expected keys, pad, bot or script:FILE", flag, v);
        return false;
    }
    return true;
}

bool players_any_human(const CliPlayers *p)
{
    bool any = false;
    for (int j = 0; j < 2; j++)
        any |= p->kind[j] == PLAYER_KEYS || p->kind[j] == PLAYER_PAD;
    return any;
}

int players_load_scripts(CliPlayers *p, const char *cmd)
{
    NrError err = {{0}};
    for (int j = 0; j < 2; j++) {
        if (p->kind[j] != PLAYER_SCRIPT)
            continue;
        if (!inputs_load(&p->script[j], p->script_path[j], &err))
            return cli_fail(cmd, "%s", err.msg);
        if (p->script[j].first[j + 1] == p->script[j].first[j])
            return cli_fail(cmd, "%s: no line for player %d (--p%d plays its player %d lines)", p->script_path[j],
                            j + 1, j + 1, j + 1);
    }
    return CLI_OK;
}

static void free_bots(CliPlayers *p)
{
    for (int j = 0; j < 2; j++) {
        bot_free(p->bot[j]);
        p->bot[j] = NULL;
    }
}

/* Bots reseeded, scripts rewound (an InputScript controller keeps no state). */
bool players_make(CliPlayers *p, const Track *track, uint64_t seed, Controller ctl[2], NrError *err)
{
    free_bots(p);
    CarParams params;
    car_params_default(&params);
    for (int j = 0; j < 2; j++) {
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
    for (int j = 0; j < 2; j++)
        inputs_free(&p->script[j]);
}
