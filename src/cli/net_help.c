/* The commands `netrace host`, `join` and `serve`: their usage and help
 * texts (docs/netplay.md); the runs are cmd_net.c's. */
#include "net_lines.h"

#define NET_COMMON_HELP                                                                              \
    "  --player WHO      keys (default; WASD or the arrows), pad, bot (the default --headless) or\n"   \
    "                    script:FILE (docs/driving.md): who drives this terminal's car\n"            \
    "  --keys FILE, --pad-mappings FILE, --size WxH, --fullscreen  the window (docs/play.md)\n"      \
    "  --scale X         text X times larger, 0.5 .. 3 (Ctrl + / - in the window)\n"                \
    "  --camera MODE     north (default) or rotate with the car; C toggles. --mute: no sound (M)\n"     \
    "  --watch           every scheme's live gauges beside the race (Tab in the window)\n"          \
    "  --lagometer       start with the lagometer shown (F2 in the window; F3 drops a mark)\n"      \
    "  --link SPEC       emulated delay and loss added to what this terminal sends (netem grammar)\n" \
    "  --link I-J SPEC   the line from car I (this terminal's) to car J alone (over --link SPEC)\n"  \
    "  --clock-offset MS, --clock-drift PPM  an artificial clock error (tests the clock sync)\n"      \
    "  --raw-clock       run the schemes on the local clock instead of the synchronised one\n"        \
    "  --code CODE       the join code (the host draws and shows one without it; the joiner's\n"  \
    "                    must be the host's; its window asks without it, --headless needs it):\n"  \
    "                    every datagram sealed with it (docs/netplay.md)\n"                        \
    "  --log FILE        the terminal log (docs/netlog.md), crash-safe\n"                            \
    "  --headless        no window (a bot or a script drives): key: value lines at the end\n"

const CliCommand cmd_host = {
    .name = "host",
    .summary = "offer a network race over UDP and drive car 1 (2 to 8 cars, peer to peer)",
    .usage = "netrace host [--cars N] [--port P] [--allow HOST] [--code CODE] [--player keys|pad|bot|script:FILE]\n"
             "  [--scheme NAME] [--schemes LIST] [--laps N | --seconds S] [--track FILE] [--delta MS] [--tdr W]\n"
             "  [--seed S] [--link SPEC] [--link 1-J SPEC] [--clock-offset MS] [--clock-drift PPM] [--raw-clock]\n"
             "  [--log FILE] [--headless] [--bots K [--bot-logs DIR]]",
    .help = "Waits for `netrace join` on UDP port P (default 41000), sends it the track, the\n"
            "schemes and the settings, synchronises the clocks, starts the countdown at one\n"
            "synchronised instant and races. Every scheme of --schemes runs on the same real\n"
            "packets; both terminals compute the same live metrics (docs/netplay.md).\n"
            "With --cars N (3 to 8) it seats N - 1 joiners (cars 2 to N, in the order they\n"
            "say HELLO; one more is told the race is full), introduces them to each other and\n"
            "every pair races directly, peer to peer; the host is every joiner's clock\n"
            "(docs/netplay.md \"Peer-to-peer races of N\"). Each terminal logs; `netrace\n"
            "merge` of all N logs gives the race that `replay --links` reproduces.\n\n"
            "  --cars N          the race's cars (2 to 8; default 2); the track needs N grid slots\n"
            "  --port P          UDP port to listen on (default 41000; 0: any free one, printed)\n"
            "  --allow HOST      take joiners only from HOST (else the first to say HELLO)\n"
            "  --bots K          K joiners' seats taken by bots this process runs (0 to N - 1;\n"
            "                    they join from 127.0.0.1 at once, seated in HELLO order as\n"
            "                    anyone; a joiner on another machine reaches them at the\n"
            "                    host's address, their own ports)\n"
            "  --bot-logs DIR    each bot's terminal log, DIR/bot-I.log (for `netrace merge`)\n" NET_COMMON_HELP,
    .run = net_host_main,
};

const CliCommand cmd_join = {
    .name = "join",
    .summary = "join a network race at HOST[:PORT] (a host's or a server's: its seat)",
    .usage = "netrace join HOST[:PORT] [--code CODE] [--port P] [--player keys|pad|bot|script:FILE] [--link SPEC]\n"
             "  [--link I-J SPEC] [--clock-offset MS] [--clock-drift PPM] [--raw-clock] [--log FILE] [--headless]",
    .help = "Joins the race a `netrace host` offers (car 2 to N: the order the host seats\n"
            "its joiners; with more than two cars every pair races directly, peer to peer)\n"
            "or a seat of a `netrace serve` race of N cars (car 1 to N). One too many is\n"
            "told the race is full. The track and settings come from the host or server,\n"
            "so the joiner needs no files; through a server, --link is the uplink. --link\n"
            "I-J lines are checked once the car is known (I must be this terminal's).\n\n"
            "  --port P          own UDP port (default: any free one)\n" NET_COMMON_HELP,
    .run = net_join_main,
};

const CliCommand cmd_serve = {
    .name = "serve",
    .summary = "offer a client-server race of 2 to 8 cars over UDP (headless, no car of its own)",
    .usage = "netrace serve [--cars N] [--server relay|sync] [--port P] [--allow HOST] [--code CODE]\n"
             "  [--scheme NAME] [--schemes LIST] [--laps N | --seconds S] [--track FILE] [--delta MS] [--tdr W]\n"
             "  [--seed S] [--link SPEC] [--link s-J SPEC] [--log FILE] [--bots K [--bot-logs DIR]]",
    .help = "A dedicated server for a race of N cars over the client-server topology\n"
            "(docs/netplay.md \"Serve\", docs/nplayers.md). It shows the join code, seats N\n"
            "`netrace join` clients (car 1 to N in the order they say HELLO; one more is told\n"
            "the race is full), sends each the track and the settings, is their clock\n"
            "reference, starts the countdown once all are ready and relays every client's\n"
            "MUs and views to the others:\n"
            "  relay  each MU on arrival;\n"
            "  sync   each MU at its sample's instant + Delta (or on arrival when later): one\n"
            "         common output time for every client (centralised causality control).\n"
            "Each client logs its terminal (join --log), the server what reached it (--log);\n"
            "`netrace merge` of the N logs (and the server's) gives the race and the measured\n"
            "delays that `replay` reproduces (with the server's log: each uplink and downlink).\n\n"
            "  --cars N          seats (2 to 8; default 2); the track needs N grid slots\n"
            "  --server MODE     relay (default) or sync\n"
            "  --bots K          K seats taken by bots this process runs (0 to N; they join\n"
            "                    from 127.0.0.1 at once, seated in HELLO order as anyone)\n"
            "  --bot-logs DIR    each bot's terminal log, DIR/bot-I.log (for `netrace merge`)\n"
            "  --link s-J SPEC   emulate the downlink to client J: each MU relayed to it is\n"
            "                    delayed / lost as SPEC says (netem grammar; views are not)\n"
            "  --link SPEC       the same for every client's downlink\n"
            "  --log FILE        the server's log (docs/netlog.md): the MUs as they reached\n"
            "                    it, each client's downlink; `netrace merge` takes it\n"
            "  --port P          UDP port to listen on (default 41000; 0: any free one, printed)\n"
            "  --allow HOST      seat clients from HOST only (any port)\n"
            "  --code CODE       the join code (default: drawn and shown)\n"
            "  the race: --track, --laps / --seconds, --schemes, --scheme, --delta, --tdr, --seed\n"
            "            as `netrace host`",
    .run = net_serve_main,
};
