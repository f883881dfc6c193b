/* `serve --bots K`: bot clients in threads of this process (net_bots.h). */
#include "net_bots.h"

#include "session.h"
#include "wire.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

struct NetBots;

typedef struct NetBot {
    struct NetBots *all;
    Session *s;
    Bot *bot;
    BotDriver driver;
    char cmd[32]; /* "serve (bot I)": the name its messages go under */
    char log[4096];
    pthread_t thread;
    bool running, ok;
} NetBot;

struct NetBots {
    int k;
    volatile sig_atomic_t stop; /* set by net_bots_stop: each bot says BYE */
    NetBot b[WIRE_MAX_CARS];
};

/* A bot on the race's track for the car WELCOME gave (make_controller). */
static bool bot_make(void *ctx, const Track *track, int car, uint64_t seed, Controller *out, NrError *err)
{
    NetBot *b = ctx;
    CarParams params;
    car_params_default(&params);
    bot_free(b->bot);
    b->bot = bot_new(track, &params, b->driver, seed, (uint64_t)car, err);
    if (!b->bot)
        return false;
    *out = bot_controller(b->bot);
    return true;
}

static void *bot_run(void *arg)
{
    NetBot *b = arg;
    b->ok = session_run(b->s, &b->all->stop);
    return NULL;
}

/* Bot i's session: a joiner of 127.0.0.1:port with the server's code. */
static bool bot_open(NetBots *all, const char *cmd, int i, uint16_t port, const char *code, const char *log_dir,
                     NrError *err)
{
    NetBot *b = &all->b[i];
    b->all = all;
    snprintf(b->cmd, sizeof b->cmd, "%.8s (bot %d)", cmd, i + 1);
    if (log_dir && (size_t)snprintf(b->log, sizeof b->log, "%s/bot-%d.log", log_dir, i + 1) >= sizeof b->log)
        return nr_error_set(err, "--bot-logs '%.64s...': the path is too long", log_dir);
    SessionConfig sc = {.peer = "127.0.0.1", .peer_port = port, .code = code, .cmd = b->cmd,
                        .log_path = log_dir ? b->log : NULL, .make_controller = bot_make, .ctx = b};
    b->s = session_new(&sc, err);
    return b->s != NULL;
}

NetBots *net_bots_start(const char *cmd, int k, uint16_t port, const char *code, BotDriver driver, const char *log_dir,
                        NrError *err)
{
    if (k < 1 || k > WIRE_MAX_CARS) {
        nr_error_set(err, "%d bots: expected 1 to %d", k, WIRE_MAX_CARS);
        return NULL;
    }
    NetBots *all = calloc(1, sizeof *all);
    if (!all) {
        nr_error_set(err, "out of memory");
        return NULL;
    }
    for (int i = 0; i < k; i++)
        all->b[i].driver = driver;
    bool ok = true;
    for (int i = 0; i < k && ok; i++, all->k = i)
        ok = bot_open(all, cmd, i, port, code, log_dir, err);
    for (int i = 0; i < all->k && ok; i++) {
        all->b[i].running = pthread_create(&all->b[i].thread, NULL, bot_run, &all->b[i]) == 0;
        if (!all->b[i].running)
            ok = nr_error_set(err, "bot %d: no thread could be started", i + 1);
    }
    if (!ok) {
        net_bots_stop(all);
        net_bots_finish(all, NULL);
        return NULL;
    }
    return all;
}

void net_bots_stop(NetBots *b)
{
    if (b)
        b->stop = SIGTERM;
}

bool net_bots_finish(NetBots *all, FILE *f)
{
    if (!all)
        return true;
    bool ok = true;
    for (int i = 0; i < all->k; i++) {
        NetBot *b = &all->b[i];
        if (b->running)
            pthread_join(b->thread, NULL);
        else if (b->s)
            b->ok = false;
        ok &= b->ok;
        if (f && b->s)
            fprintf(f, "netrace %s: car %d: %s\n", b->cmd, netsession_own_car(session_core(b->s)) + 1,
                    b->ok ? "completed" : session_error(b->s));
        session_free(b->s);
        bot_free(b->bot);
    }
    free(all);
    return ok;
}
