/* `netrace serve --bots K` / `host --bots K`: K of a race's seats taken by
 * bots this process runs itself, each a `netrace join` terminal
 * (src/net/session.h, a bot driving its car) on a UDP socket of its own,
 * joining the server or host at 127.0.0.1 with its code, in a thread of
 * its own (docs/netplay.md "Serve", "Bots on the host"); cmd ("serve",
 * "host") names their messages, "CMD (bot I)".
 *
 * Contracts:
 *   net_bots_start(cmd, k, port, code, driver, log_dir, err)  k bot sessions (1
 *        to WIRE_MAX_CARS, each driving as driver says) made on this thread (the socket layer's set-up is
 *        not thread-safe), then each run in its thread; log_dir (NULL: no
 *        logs) gets bot-I.log for bot I (1-based, not its car: that comes
 *        from WELCOME). NULL + err when a session cannot be made or a
 *        thread started (the ones already running are stopped and freed).
 *   net_bots_stop(b)          asks every bot to quit (BYE), as a signal.
 *   net_bots_finish(b, f)     waits for every bot, writes one line per bot
 *        to f (its car, completed or why not), frees all; true when every
 *        bot completed its race. NULL-safe (true).
 */
#ifndef NR_NET_BOTS_H
#define NR_NET_BOTS_H

#include "bot.h"
#include "nr_common.h"

#include <stdint.h>
#include <stdio.h>

typedef struct NetBots NetBots;

NetBots *net_bots_start(const char *cmd, int k, uint16_t port, const char *code, BotDriver driver, const char *log_dir,
                        NrError *err);
void net_bots_stop(NetBots *b);
bool net_bots_finish(NetBots *b, FILE *f);

#endif
