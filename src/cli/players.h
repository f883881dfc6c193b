/* The players of a driven race as `play` and `study` take them: --p1 / --p2
 * keys | pad | bot | script:FILE, the bots' --skill / --noise, and the core
 * controllers made from them.
 *
 * Contracts:
 *   players_init(p)              both players keys; skill 0.9, noise 0.5.
 *   players_parse(p, cmd, j, v)  player j (0, 1) from the flag value v;
 *        false after a usage error naming --p1 / --p2.
 *   players_any_human(p)         a player is keys or pad.
 *   players_load_scripts(p, cmd) loads every script:FILE; CLI_OK, or
 *        CLI_FAIL after one line (unreadable, or no line for its player).
 *   players_make(p, track, seed, ctl, err)  bots (seeded by seed, stream =
 *        the car) and script controllers into ctl[j] for the bot and script
 *        players; the previous bots are freed; scripts keep no state, so a
 *        new race starts them from their first line. False + err.
 *   players_free(p)              the bots and scripts; p reusable.
 */
#ifndef NR_PLAYERS_H
#define NR_PLAYERS_H

#include "bot.h"
#include "inputs.h"
#include "play.h"

typedef struct CliPlayers {
    PlayerKind kind[2];
    const char *script_path[2];
    InputScript script[2];
    Bot *bot[2];
    double skill, noise;
} CliPlayers;

void players_init(CliPlayers *p);
bool players_parse(CliPlayers *p, const char *cmd, int j, const char *v);
bool players_any_human(const CliPlayers *p);
int players_load_scripts(CliPlayers *p, const char *cmd);
bool players_make(CliPlayers *p, const Track *track, uint64_t seed, Controller ctl[2], NrError *err);
void players_free(CliPlayers *p);

#endif
