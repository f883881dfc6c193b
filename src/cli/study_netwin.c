/* The runners of a study over the network (study_cli.h): the host's or the
 * joiner's steps looped in real time, headless or with the window (netwin.h
 * "A study": every race's session on one window, this end's player rating
 * on its screen). */
#include "study_cli.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Sleeps until local time `until` of clock (a runner between sessions). */
static void wait_until(const NetClock *clock, int64_t until)
{
    int64_t d = until - netclock_now_us(clock);
    if (d <= 0)
        return;
    struct timespec ts = {(time_t)(d / NR_US_PER_S), (long)(d % NR_US_PER_S) * 1000};
    nanosleep(&ts, NULL);
}

bool study_screen_open(StudyScreen *sc, const NetWinConfig *wc, const NetClock *clock, volatile sig_atomic_t *stop)
{
    sc->wc = *wc;
    sc->wc.study = &sc->hooks;
    sc->clock = clock;
    sc->shown = NULL;
    sc->next_frame = 0;
    int rc;
    sc->nw = netwin_open(&sc->wc, stop, &rc);
    if (!sc->nw)
        cli_fail(STUDY_CMD, rc == 4 ? "the key map or the pad mappings were refused"
                                    : "no window could be opened: give --headless with bots and --ratings FILE");
    return sc->nw != NULL;
}

bool study_screen_step(StudyScreen *sc, Session *s)
{
    if (s != sc->shown) { /* the next race's session (its loop calls the frames), or none */
        netwin_attach(sc->nw, s);
        sc->shown = s;
    }
    int64_t now = netclock_now_us(sc->clock);
    if (!s && now >= sc->next_frame) {
        sc->next_frame = now + SESSION_FRAME_US;
        netwin_frame(sc->nw);
    }
    return !netwin_closed(sc->nw);
}

int64_t study_screen_wake(const StudyScreen *sc)
{
    return sc->shown ? INT64_MAX : sc->next_frame;
}

void study_screen_end(StudyScreen *sc, bool complete, const char *why, bool until_closed)
{
    if (!sc->nw)
        return;
    netwin_attach(sc->nw, NULL);
    netwin_study_over(sc->nw, complete, why);
    while (until_closed && netwin_frame(sc->nw))
        wait_until(sc->clock, netclock_now_us(sc->clock) + SESSION_FRAME_US);
    netwin_close(sc->nw);
    sc->nw = NULL;
}

static int64_t earliest(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* One end's steps, whichever end. */
typedef struct EndSteps {
    void *end;
    bool (*step)(void *end);
    Session *(*session)(void *end);
    int64_t (*wake)(const void *end);
} EndSteps;

static bool host_step(void *h)
{
    return study_net_host_step(h);
}

static Session *host_session(void *h)
{
    return study_net_host_session(h);
}

static int64_t host_wake(const void *h)
{
    return study_net_host_wake(h);
}

static bool join_step(void *j)
{
    return study_net_join_step(j);
}

static Session *join_session(void *j)
{
    return study_net_join_session(j);
}

static int64_t join_wake(const void *j)
{
    return study_net_join_wake(j);
}

/* The end stepped in real time until over, *stop or the window closed
 * (sc->nw; then true). */
static bool run_steps(const EndSteps *e, StudyScreen *sc, const NetClock *clock, volatile sig_atomic_t *stop)
{
    bool closed = false;
    while (e->step(e->end) && !(stop && *stop)) {
        Session *s = e->session(e->end);
        if (sc->nw && !study_screen_step(sc, s)) {
            closed = true;
            break;
        }
        if (s)
            session_wait(s);
        else
            wait_until(clock, earliest(e->wake(e->end), sc->nw ? study_screen_wake(sc) : INT64_MAX));
    }
    return closed || (sc->nw && netwin_closed(sc->nw)); /* during a race: its session ended */
}

int study_run_host(StudySession *ss, const StudyNetOpts *o, const NetWinConfig *wc, volatile sig_atomic_t *stop)
{
    NetClock real;
    netclock_real(&real, 0, 0.0);
    const NetClock *clock = o->clock ? o->clock : &real;
    StudyScreen sc = {0};
    if (wc && !study_screen_open(&sc, wc, clock, stop))
        return CLI_FAIL; /* before the host's first step: DIR not begun */
    StudyNetHost *h = study_net_host_new(ss, o);
    if (!h) {
        study_screen_end(&sc, false, NULL, false);
        return CLI_FAIL;
    }
    if (wc)
        study_net_host_hooks(h, &sc.hooks);
    EndSteps e = {h, host_step, host_session, host_wake};
    bool closed = run_steps(&e, &sc, clock, stop);
    if (stop && *stop)
        printf("stopped by signal %d: --resume continues\n", (int)*stop);
    else if (closed)
        printf("the window was closed: --resume continues\n");
    bool complete = study_net_host_complete(h);
    int rc = study_net_host_end(h);
    study_screen_end(&sc, complete && rc == CLI_OK, NULL, complete && !closed && !(stop && *stop));
    return rc;
}

int study_run_join(const StudyNetOpts *o, CliPlayers *pl, const NetWinConfig *wc, volatile sig_atomic_t *stop)
{
    NetClock real;
    netclock_real(&real, 0, 0.0);
    const NetClock *clock = o->clock ? o->clock : &real;
    StudyScreen sc = {0};
    if (wc && !study_screen_open(&sc, wc, clock, stop))
        return CLI_FAIL;
    StudyNetJoin *j = study_net_join_new(o, pl);
    if (!j) {
        study_screen_end(&sc, false, NULL, false);
        return CLI_FAIL;
    }
    if (wc)
        study_net_join_hooks(j, &sc.hooks);
    EndSteps e = {j, join_step, join_session, join_wake};
    bool closed = run_steps(&e, &sc, clock, stop);
    if (stop && *stop)
        printf("stopped by signal %d: the host's --resume continues the study\n", (int)*stop);
    else if (closed)
        printf("the window was closed: the host's --resume continues the study\n");
    bool complete = study_net_join_over(j);
    int rc = study_net_join_end(j);
    if (complete && rc == CLI_OK)
        printf("the study is complete\n");
    study_screen_end(&sc, complete && rc == CLI_OK, NULL, complete && !closed && !(stop && *stop));
    return rc;
}

static volatile sig_atomic_t net_stop;

static void on_signal(int sig)
{
    net_stop = sig;
}

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* The window of this end: seat's player, the window flags of pc. */
static void window_config(const StudyCli *s, const PlayConfig *pc, int seat, NetWinConfig *wc)
{
    memset(wc, 0, sizeof *wc);
    wc->kind = s->pl.kind[seat];
    wc->keys_path = pc->keys_path;
    wc->pad_mappings = pc->pad_mappings;
    wc->width = pc->width;
    wc->height = pc->height;
    wc->fullscreen = pc->fullscreen;
    wc->scale = pc->scale;
    wc->shot_dir = pc->shot_dir;
    wc->title = seat == 0 ? "netrace study (host)" : "netrace study (join)";
}

static bool drives_by_hand(PlayerKind k)
{
    return k == PLAYER_KEYS || k == PLAYER_PAD;
}

int study_host_main(StudySession *ss, const PlayConfig *pc, bool headless)
{
    StudyCli *s = ss->s;
    StudyNetOpts o = {.code = s->net_code, .port = (uint16_t)(s->net_port >= 0 ? s->net_port : SESSION_DEFAULT_PORT),
                      .allow = s->net_allow, .window = !headless, .external_input = drives_by_hand(s->pl.kind[0])};
    NetWinConfig wc;
    window_config(s, pc, 0, &wc);
    catch_signals();
    fprintf(stderr, "netrace study: the host of pair %d on UDP port %u: on the other machine netrace study --join "
                    "THIS-HOST:%u\n", s->pair, (unsigned)o.port, (unsigned)o.port);
    return study_run_host(ss, &o, headless ? NULL : &wc, &net_stop);
}

int study_join_main(StudyCli *s, const PlayConfig *pc, bool headless)
{
    char host[256], typed[WIRECRYPT_CODE_CHARS + 1];
    uint16_t host_port;
    if (!cli_peer_parse(STUDY_CMD, s->net_join, host, sizeof host, SESSION_DEFAULT_PORT, &host_port))
        return CLI_USAGE;
    if (s->out_dir && mkdir(s->out_dir, 0777) != 0 && errno != EEXIST)
        return cli_fail(STUDY_CMD, "--out %s: cannot make it: %s", s->out_dir, strerror(errno));
    char *made = s->join_dir;
    if (!s->out_dir) { /* the logs go to the host (its recordings): they need a folder here first */
        const char *tmp = getenv("TMPDIR");
        snprintf(made, sizeof s->join_dir, "%s/netrace-study-join-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
        if (!mkdtemp(made))
            return cli_fail(STUDY_CMD, "%s: cannot make a folder for the race logs (give --out DIR): %s", made,
                            strerror(errno));
        s->out_dir = made;
        fprintf(stderr, "netrace study: the race logs go to %s (--out DIR names another)\n", made);
    }
    NetWinConfig wc;
    window_config(s, pc, 1, &wc);
    catch_signals();
    const char *code = s->net_code;
    if (!code) { /* the window asks once for every race */
        int arc = netwin_ask_code(&wc, host, typed, &net_stop);
        if (arc == 3)
            return cli_fail(STUDY_CMD, "no window could be opened: give --code CODE with --headless");
        if (arc != 0)
            return cli_fail(STUDY_CMD, "no join code given: the study was left");
        code = typed;
    }
    StudyNetOpts o = {.code = code, .port = (uint16_t)(s->net_port >= 0 ? s->net_port : 0), .host = host,
                      .host_port = host_port, .out_dir = s->out_dir, .ratings_path = s->ratings_path,
                      .window = !headless, .external_input = drives_by_hand(s->pl.kind[1])};
    return study_run_join(&o, &s->pl, headless ? NULL : &wc, &net_stop);
}
