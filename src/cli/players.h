/* The players of a driven race as `play` and `study` take them: --p1 ..
 * --p4 keys | pad | bot | script:FILE, the bots' --skill / --noise, and the
 * core controllers made from them.
 *
 * Contracts:
 *   players_init(p)              two seats; players 1 and 2 keys, 3 and 4
 *        bots; skill 0.9, noise 0.5.
 *   players_flag(a, &j)          a is --pN: true with j = N - 1 (any N >= 1;
 *        players_parse refuses a seat past PLAY_SEATS).
 *   players_parse(p, cmd, j, v)  player j (0 .. PLAY_SEATS - 1) from the
 *        flag value v; false after a usage error naming --pN (keys for a
 *        seat the keyboard does not drive, a seat past PLAY_SEATS).
 *   p->nseats                    the race's players (2 .. PLAY_SEATS; the
 *        caller sets it once the car count is known): the functions below
 *        read seats 0 .. nseats - 1 only.
 *   players_any_human(p)         a player is keys or pad.
 *   players_load_scripts(p, cmd) loads every script:FILE; CLI_OK, or
 *        CLI_FAIL after one line (unreadable, no line for its player, or a
 *        line for a player past the race's nseats).
 *   players_make(p, track, seed, ctl, err)  bots (seeded by seed, stream =
 *        the car) and script controllers into ctl[j] for the bot and script
 *        players; the previous bots are freed; scripts keep no state, so a
 *        new race starts them from their first line. False + err.
 *   players_free(p)              the bots and scripts; p reusable.
 *   players_window_flag(pc, argc, argv, &i, cmd)  the window flags play and
 *        study share: --keys FILE, --pad-mappings FILE, --assets DIR,
 *        --shots DIR (must exist), --size WxH, --fullscreen into pc.
 *        RACE_FLAG_TAKEN, RACE_FLAG_NOT_MINE, or RACE_FLAG_BAD after a
 *        usage error.
 */
#ifndef NR_PLAYERS_H
#define NR_PLAYERS_H

#include "bot.h"
#include "inputs.h"
#include "play.h"

typedef struct CliPlayers {
    int nseats;
    PlayerKind kind[PLAY_SEATS];
    bool given[PLAY_SEATS]; /* --pN on the command line */
    const char *script_path[PLAY_SEATS];
    InputScript script[PLAY_SEATS];
    Bot *bot[PLAY_SEATS];
    double skill, noise;
} CliPlayers;

void players_init(CliPlayers *p);
bool players_flag(const char *a, int *j);
bool players_parse(CliPlayers *p, const char *cmd, int j, const char *v);
bool players_any_human(const CliPlayers *p);
int players_load_scripts(CliPlayers *p, const char *cmd);
bool players_make(CliPlayers *p, const Track *track, uint64_t seed, Controller ctl[PLAY_SEATS], NrError *err);
void players_free(CliPlayers *p);
int players_window_flag(PlayConfig *pc, int argc, char **argv, int *i, const char *cmd);

#endif
