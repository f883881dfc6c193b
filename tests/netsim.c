/* The two-terminal simulation of the network session tests (netsim.h). */
#include "netsim.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

NetAddr addr_of(uint8_t last, uint16_t port)
{
    NetAddr a;
    uint8_t *h = (uint8_t *)&a.host, *p = (uint8_t *)&a.port;
    h[0] = 10, h[1] = 0, h[2] = 0, h[3] = last;
    p[0] = (uint8_t)(port >> 8), p[1] = (uint8_t)port;
    return a;
}

char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *b = calloc(1 << 20, 1);
    size_t n = fread(b, 1, (1 << 20) - 1, f);
    fclose(f);
    b[n] = '\0';
    return b;
}

bool sim_make_bot(void *ctx, const Track *track, int car, uint64_t seed, Controller *out, NrError *err)
{
    Term *t = ctx;
    CarParams params;
    car_params_default(&params);
    BotDriver d = {.skill = 0.9, .noise = 0.5};
    t->bot = bot_new(track, &params, d, seed, (uint64_t)car, err);
    if (!t->bot)
        return false;
    *out = bot_controller(t->bot);
    return true;
}

/* A slow frame: the driver's loop is busy stall_us of true time; the port
 * goes on stamping arrivals meanwhile (as the receive thread does). */
static bool frame(void *ctx, Session *s)
{
    Term *t = ctx;
    SessionStatus st;
    session_status(s, &st);
    if (t->stall_at_race > 0 && st.phase == SESSION_RACING && st.race_us >= t->stall_at_race) {
        t->stall_until = t->sim->truth + t->stall_us;
        t->stall_at_race = 0;
    }
    return true;
}


/* The sniffer: bytes and datagrams per sender, the joiner's latest, the
 * token field of any packet in clear but HELLO. */
static void sniff(void *ctx, const NetAddr *from, const NetAddr *to, const uint8_t *b, int n)
{
    (void)to;
    Sim *m = ctx;
    for (int i = 0; i < m->nterm; i++)
        if (netaddr_equal(from, &m->t[i].addr)) {
            m->sent_bytes[i] += n;
            m->sent_count[i]++;
        }
    if (netaddr_equal(from, &m->t[1].addr) && n <= (int)sizeof m->caught[0]) {
        int k = m->ncaught++ % SIM_CATCH;
        memcpy(m->caught[k], b, (size_t)n);
        m->caught_n[k] = n;
    }
    if (n >= WIRE_HEADER_BYTES && memcmp(b, WIRE_MAGIC, 4) == 0 && b[5] != WIRE_HELLO) {
        m->sniffed = 0;
        for (int i = 0; i < 8; i++)
            m->sniffed |= (uint64_t)b[8 + i] << (8 * i);
    }
}

/* Terminal i's session: host (0) and joiner (1), or the server (0) and
 * its clients (1..). */
static void term_open(Sim *m, const SimOpts *o, int i)
{
    Term *t = &m->t[i];
    NetAddr other = addr_of(9, 1);
    bool serve = o->cars > 0 && !o->p2p, server = serve && i == 0, extra = o->cars > 0 && i >= m->first + m->ncars;
    SessionConfig c = {
        .host = i == 0 && !serve, .server = server, .ncars = i == 0 ? o->cars : 0, .server_mode = o->server_mode,
        .cmd = server ? "serve" : i ? "join" : "host", .track_text = m->track_text, .track_file = "default.track",
        .schemes = o->schemes, .params = scheme_default_params(), .seconds_ms = o->seconds_ms, .seed = 7,
        .clock_offset_us = o->offset_us[i], .clock_drift_ppm = o->drift_ppm[i],
        .log_path = (o->logs && !server && !(i && o->host_log_only)) || (server && o->server_log) ? t->log : NULL,
        .make_controller = sim_make_bot, .ctx = t, .net_port = t->port, .clock = &t->clock,
        .peer_addr = i == 0 ? NULL : o->p2p && i <= o->bots_on_host ? &m->host_loop : &m->t[0].addr, .allow_addr = i == 0 && o->allow_other ? &other : NULL,
        .entropy = (uint64_t)(1234 + i), .say = t->say, .no_seal = o->clear,
        .code = i && o->join_code && (o->cars == 0 || extra) ? o->join_code : SIM_CODE, .lines = o->lines[i],
    };
    NrError err = {{0}};
    t->s = session_new(&c, &err);
    if (!t->s)
        fail_msg("terminal %d: %s", i, err.msg);
    session_set_frame(t->s, frame, t);
}

void sim_open(Sim *m, const SimOpts *o)
{
    memset(m, 0, sizeof *m);
    m->truth = T0;
    m->nterm = o->cars > 0 ? (o->p2p ? 0 : 1) + o->cars + o->extra_clients : 2;
    m->first = o->cars > 0 && !o->p2p ? 1 : 0;
    m->ncars = o->cars > 0 ? o->cars : 2;
    assert_true(m->nterm <= SIM_TERMS);
    m->hub = nethub_new(o->hub_seed ? o->hub_seed : 42, &m->truth);
    m->host_loop = addr_of(1, 41000);
    ((uint8_t *)&m->host_loop.host)[0] = 127;
    nethub_tap(m->hub, sniff, m);
    char path[4096];
    const char *src = getenv("NETRACE_SOURCE_DIR");
    snprintf(path, sizeof path, "%s/tracks/default.track", src ? src : ".");
    m->track_text = read_all(path);
    snprintf(m->dir, sizeof m->dir, "/tmp/netsession-XXXXXX");
    assert_non_null(mkdtemp(m->dir));
    for (int i = 0; i < m->nterm; i++) {
        Term *t = &m->t[i];
        t->sim = m;
        bool on_host = o->p2p && i >= 1 && i <= o->bots_on_host;
        t->addr = addr_of((uint8_t)(on_host ? 1 : 1 + i), (uint16_t)(41000 + i));
        netclock_sim(&t->clock, &m->truth, o->offset_us[i], o->drift_ppm[i]);
        t->port = nethub_port(m->hub, t->addr, &t->clock);
        nethub_set_link(t->port, &o->link[i]);
        t->say = tmpfile();
        if (o->cars > 0)
            snprintf(t->log, sizeof t->log, "%s/c%d.log", m->dir, i);
        else
            snprintf(t->log, sizeof t->log, "%s/%s.log", m->dir, i ? "j" : "h");
    }
    for (int i = 0; i < m->nterm; i++)
        term_open(m, o, i);
}

void sim_close(Sim *m)
{
    for (int i = 0; i < m->nterm; i++) {
        session_free(m->t[i].s);
        bot_free(m->t[i].bot);
        fclose(m->t[i].say);
        remove(m->t[i].log);
        char part[300];
        snprintf(part, sizeof part, "%s.part", m->t[i].log);
        remove(part);
    }
    rmdir(m->dir);
    nethub_free(m->hub);
    free(m->track_text);
}

static bool can_run(const Term *t, int64_t now)
{
    return !t->done && !t->dead && now >= t->frozen_until && now >= t->stall_until;
}

/* The true time at which t's clock reads local (rounded up). */
static int64_t to_true(const Term *t, int64_t local)
{
    if (local == INT64_MAX)
        return INT64_MAX;
    double x = (double)(local - t->clock.offset_us) / (1.0 + t->clock.drift_ppm * 1e-6);
    return (int64_t)ceil(x);
}

/* Runs both terminals until both are over or true time `end`; `each`
 * (optional) is called once per turn before the terminals run. */
void sim_run(Sim *m, int64_t end, void (*each)(Sim *m, void *ctx), void *ctx)
{
    while (m->truth <= end) {
        if (each)
            each(m, ctx);
        bool all = true;
        for (int i = 0; i < m->nterm; i++) {
            Term *t = &m->t[i];
            if (t->frozen_until > 0 && m->truth >= t->frozen_until) {
                nethub_freeze(t->port, false);
                t->frozen_until = 0;
            }
            if (can_run(t, m->truth) && !session_step(t->s)) {
                t->done = true;
                t->ok = session_finish(t->s);
            }
            all &= t->done || t->dead;
        }
        if (all)
            return;
        for (int i = 0; i < m->nterm; i++) { /* a closed terminal's socket: what reaches it is gone */
            Term *t = &m->t[i];
            uint8_t buf[WIRE_MAX_BYTES + 64];
            NetAddr from;
            int64_t stamp;
            while (t->done && !t->dead && netport_recv(t->port, INT64_MAX, buf, sizeof buf, &from, &stamp) >= 0)
                ;
        }
        int64_t next = nethub_next_due(m->hub);
        for (int i = 0; i < m->nterm; i++) {
            Term *t = &m->t[i];
            if (t->done || t->dead)
                continue;
            int64_t w = can_run(t, m->truth) ? to_true(t, session_next_wake(t->s))
                                             : (t->frozen_until > t->stall_until ? t->frozen_until : t->stall_until);
            next = w < next ? w : next;
        }
        m->truth = next > m->truth ? next : m->truth + 1;
    }
}

void assert_same_metrics(Sim *m)
{
    NetTerminal *a = session_netterm(m->t[0].s), *b = session_netterm(m->t[1].s);
    assert_non_null(a);
    assert_non_null(b);
    for (int k = 0; k < session_scheme_count(m->t[0].s); k++) {
        const Metrics *x = netterm_metrics(a, k), *y = netterm_metrics(b, k);
        assert_true(x->samples > 0);
        assert_int_equal(x->samples, y->samples);
        assert_true(metrics_mean_d1_minus_d2(x) == metrics_mean_d1_minus_d2(y));
        assert_true(metrics_inconsistency_rate(x) == metrics_inconsistency_rate(y));
        assert_true(metrics_mean_abs_d1(x) == metrics_mean_abs_d1(y));
    }
}

/* netrace merge of both logs and replay of the merged race over its
 * measured delays (as tests/net/merge-live.sh): every scheme's metrics as
 * printed equal the live ones of both terminals. */
void assert_replay_matches(Sim *m, const char *schemes)
{
    const char *bin = getenv("NETRACE_BIN");
    assert_non_null(bin);
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "'%s' merge '%s' '%s' --out '%s/race.csv' --delays '%s/d.csv' >/dev/null 2>&1 && "
             "'%s' replay '%s/race.csv' --headless --csv --schemes %s --seed 7 --link12 'trace %s/d.csv' "
             "--link21 'trace %s/d.csv' > '%s/replay.csv'",
             bin, m->t[0].log, m->t[1].log, m->dir, m->dir, bin, m->dir, schemes, m->dir, m->dir, m->dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s/replay.csv", m->dir);
    char *csv = read_all(cmd), *line = strchr(csv, '\n');
    NetTerminal *np = session_netterm(m->t[0].s);
    for (int k = 0; k < session_scheme_count(m->t[0].s); k++) {
        assert_non_null(line);
        line++;
        /* scheme,delay12,jitter12,delay21,jitter21,delta,tdr,seed,incons,d1-d2,|d1|,|d2|,... */
        char name[32];
        double f[12];
        assert_int_equal(sscanf(line, "%31[^,],%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", name, &f[0], &f[1], &f[2],
                                &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9], &f[10]),
                         12);
        const Metrics *x = netterm_metrics(np, k);
        char live[128], rep[128];
        snprintf(live, sizeof live, "%s %.6f %.6f %.6f %.6f", session_scheme(m->t[0].s, k)->name,
                 metrics_inconsistency_rate(x), metrics_mean_d1_minus_d2(x), metrics_mean_abs_d1(x),
                 metrics_mean_abs_d2(x));
        snprintf(rep, sizeof rep, "%s %.6f %.6f %.6f %.6f", name, f[7], f[8], f[9], f[10]);
        assert_string_equal(live, rep);
        line = strchr(line, '\n');
    }
    free(csv);
    snprintf(cmd, sizeof cmd, "rm -f '%s/race.csv' '%s/d.csv' '%s/replay.csv'", m->dir, m->dir, m->dir);
    assert_int_equal(system(cmd), 0);
}

uint64_t sim_token(const Sim *m)
{
    return m->sniffed;
}

/* Every racing terminal (a served race's clients, a p2p race's host and
 * joiners) computed the same live metrics, the N-car ones too (compared as
 * numbers, bit for bit). */
void assert_same_metrics_n(Sim *m)
{
    NetTerminal *a = session_netterm(m->t[m->first].s);
    assert_non_null(a);
    int ncars = m->ncars;
    for (int i = m->first + 1; i < m->first + ncars; i++) {
        NetTerminal *b = session_netterm(m->t[i].s);
        assert_non_null(b);
        for (int k = 0; k < session_scheme_count(m->t[m->first].s); k++) {
            const Metrics *x = netterm_metrics(a, k), *y = netterm_metrics(b, k);
            assert_true(x->samples > 0);
            assert_int_equal(x->samples, y->samples);
            assert_true(metrics_inconsistency_rate(x) == metrics_inconsistency_rate(y));
            assert_true(metrics_pair_rate(x) == metrics_pair_rate(y));
            assert_true(metrics_fairness_spread(x) == metrics_fairness_spread(y));
            for (int c = 0; c < ncars; c++)
                assert_true(metrics_disadvantage(x, c) == metrics_disadvantage(y, c));
        }
    }
}

/* netrace merge of every racing terminal's log (and the server's when
 * `served`: then the replay runs on the served topology, each hop over
 * its measured delays) and replay over the link matrix of the measured
 * delays: each scheme's N-car figures as printed equal the first racing
 * terminal's live ones. */
static void replay_matches(Sim *m, const char *schemes, bool served)
{
    const char *bin = getenv("NETRACE_BIN");
    assert_non_null(bin);
    char cmd[8192], logs[4096] = "";
    size_t len = 0;
    if (served)
        len += (size_t)snprintf(logs, sizeof logs, " '%s'", m->t[0].log);
    for (int i = m->first; i < m->first + m->ncars; i++)
        len += (size_t)snprintf(logs + len, sizeof logs - len, " '%s'", m->t[i].log);
    snprintf(cmd, sizeof cmd,
             "'%s' merge%s --out '%s/race.csv' --delays '%s/d.csv' --links '%s/links.txt' >/dev/null && "
             "'%s' replay '%s/race.csv' --csv --schemes %s --seed 7 --links '%s/links.txt' > '%s/replay.csv'",
             bin, logs, m->dir, m->dir, m->dir, bin, m->dir, schemes, m->dir, m->dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s/replay.csv", m->dir);
    char *csv = read_all(cmd), *line = strchr(csv, '\n');
    const Term *t = &m->t[m->first];
    NetTerminal *np = session_netterm(t->s);
    int ncars = m->ncars;
    for (int k = 0; k < session_scheme_count(t->s); k++) {
        assert_non_null(line);
        line++;
        /* scheme, 7 parameters, incons (8), ..., samples (26), ncars, topology, server, pair_rate (30),
         * spread, disadvantage_1.. */
        char *f[48];
        char row[2048];
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        assert_true(n < sizeof row);
        memcpy(row, line, n);
        row[n] = '\0';
        int nf = 0;
        for (char *save = NULL, *tok = strtok_r(row, ",", &save); tok && nf < 48; tok = strtok_r(NULL, ",", &save))
            f[nf++] = tok;
        assert_int_equal(nf, 32 + ncars);
        if (served) /* the clients' and the server's hops, not end-to-end lines */
            assert_string_equal(f[28], "cs");
        const Metrics *x = netterm_metrics(np, k);
        char live[512], rep[512];
        int lw = snprintf(live, sizeof live, "%s %.6f %.6f %.6f", session_scheme(t->s, k)->name,
                          metrics_inconsistency_rate(x), metrics_pair_rate(x), metrics_fairness_spread(x));
        int rw = snprintf(rep, sizeof rep, "%s %s %s %s", f[0], f[8], f[30], f[31]);
        for (int c = 0; c < ncars; c++) {
            lw += snprintf(live + lw, sizeof live - (size_t)lw, " %.6f", metrics_disadvantage(x, c));
            rw += snprintf(rep + rw, sizeof rep - (size_t)rw, " %s", f[32 + c]);
        }
        printf("live   %s\nreplay %s\n", live, rep);
        assert_string_equal(live, rep);
        line = strchr(line, '\n');
    }
    free(csv);
    snprintf(cmd, sizeof cmd, "rm -f '%s/race.csv' '%s/d.csv' '%s/links.txt' '%s/replay.csv'", m->dir, m->dir, m->dir,
             m->dir);
    assert_int_equal(system(cmd), 0);
}

void assert_replay_matches_n(Sim *m, const char *schemes)
{
    replay_matches(m, schemes, false);
}

void assert_replay_matches_served(Sim *m, const char *schemes)
{
    replay_matches(m, schemes, true);
}

void sim_dump(Sim *m)
{
    for (int i = 0; i < m->nterm; i++) {
        SessionStatus st;
        session_status(m->t[i].s, &st);
        printf("term %d done %d ok %d phase %d race %lld err '%s'\n", i, m->t[i].done, m->t[i].ok, st.phase,
               (long long)st.race_us, session_error(m->t[i].s));
        session_print(m->t[i].s, stdout);
        rewind(m->t[i].say);
        char line[256];
        while (fgets(line, sizeof line, m->t[i].say))
            printf("  say: %s", line);
    }
}

void sim_expect_completed(Sim *m, const char *extra, int64_t samples)
{
    if (getenv("NETSIM_DEBUG"))
        sim_dump(m);
    for (int i = 0; i < m->first + m->ncars; i++) {
        if (!m->t[i].done || !m->t[i].ok)
            fail_msg("terminal %d: %s", i, m->t[i].done ? session_error(m->t[i].s) : "not over");
        /* nothing refused but a TRACK chunk the jitter put before its WELCOME (no token yet: sent again) */
        NetSession *ns = session_core(m->t[i].s);
        int64_t other = i == 0 && extra ? netsession_rejected(ns, extra) : 0;
        assert_int_equal(netsession_rejected(ns, NULL) - other, netsession_rejected(ns, "token"));
        assert_true(netsession_rejected(ns, NULL) - other <= 8);
    }
    assert_int_equal(netterm_metrics(session_netterm(m->t[m->first].s), 0)->samples, samples);
}
