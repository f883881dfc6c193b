/* A server's race (netsession.h, `netrace serve`; docs/netplay.md "Serve"):
 * no car of its own; every MU and VIEW of a client is relayed to the other
 * clients, as the client-server topology of the emulated race defines the
 * server (route.h, docs/nplayers.md "Topologies"): `relay` forwards each MU
 * on arrival; `sync`, the centralised causality control, forwards it to
 * every client at one common output time, its sample's instant + Delta on
 * the race clock, or on arrival when it comes later. VIEWs are the
 * measurement, not the game: relayed on arrival in both. The packet goes
 * on as it came (its token, its sender's packet counter, which the merge
 * matches), sealed again for each client's link. With `--link s-J` (or
 * `--link SPEC` for every client) the server emulates its downlink to
 * client J as the cs topology's downlink (route.h): each MU relayed to J
 * drawn a fate on that line (netem's arithmetic, link.h) and held until
 * its delay has passed; views are the measurement and go on at once. */
#include "netsession_internal.h"

#include <stdlib.h>
#include <string.h>

/* The emulated downlink to car j (`--link s-J`, else `--link SPEC` for
 * every client; NULL none): its random stream is the car's. */
static const LinkSpec *down_spec(const NetSession *s, int j)
{
    const LinkMatrix *m = s->cfg.lines;
    if (m && m->set[LINKMATRIX_SERVER][j])
        return &m->spec[LINKMATRIX_SERVER][j];
    return s->cfg.link;
}

/* The server's log (`serve --log`, docs/netlog.md "The server's log"):
 * the terminals' format, role server, car 0, each client's downlink
 * `link_s_J`; its rx rows are the MUs as they reached the server. */
static bool serve_log_open(NetSession *s, NrError *err)
{
    const WireWelcome *w = &s->welcome;
    if (!s->cfg.log.open)
        return true;
    Track *t = track_parse(s->cfg.track_text, s->cfg.track_file, err);
    if (!t)
        return false;
    NetLogMeta m = {
        .role = "server", .car = 0, .ncars = s->ncars, .topology = "cs", .server = w->server ? "sync" : "relay",
        .session_id = seal_session_id(s), .track_name = track_name(t), .track_file = s->cfg.track_file,
        .track_bytes = w->track_bytes, .period_ms = w->period_ms, .laps = w->laps,
        .seconds = w->seconds_ms / 1000.0, .schemes = w->schemes, .shown = s->schemes[w->shown_scheme]->name,
        .params = scheme_default_params(), .seed = w->seed, .link = s->cfg.link ? s->cfg.link->text : "none",
    };
    m.params.delta_us = w->delta_us;
    m.params.tdr_cw = w->tdr_cw;
    m.params.converge_us = w->converge_us;
    for (int j = 0; j < s->ncars && j < WIRE_MAX_CARS; j++) {
        const LinkSpec *d = down_spec(s, j);
        m.line_link[j] = d ? d->text : "none"; /* every client's downlink: the server's log names them all */
    }
    bool ok = s->cfg.log.open(s->cfg.log.ctx, &m, err);
    track_free(t);
    s->log_open = ok;
    return ok;
}

/* The scheme list (MU masks and VIEWs are checked against it), for sync
 * the queue of held MUs, and the downlinks with their queue. */
bool serve_setup(NetSession *s, NrError *err)
{
    const WireWelcome *w = &s->welcome;
    s->nschemes = scheme_parse_list(w->schemes, s->schemes, SCHEME_MAX, err);
    if (s->nschemes < 1)
        return false;
    s->chk.nschemes = s->nschemes;
    if (w->server == 1 && !(s->relay = malloc(sizeof *s->relay * RELAY_KEEP)))
        return nr_error_set(err, "out of memory");
    for (int j = 0; j < s->ncars; j++) {
        const LinkSpec *spec = down_spec(s, j);
        if (!spec || strcmp(spec->text, "none") == 0)
            continue; /* no delay, no loss: relayed as it comes */
        if (!(s->down[j] = calloc(1, sizeof *s->down[j])))
            return nr_error_set(err, "out of memory");
        link_init(s->down[j], spec, w->seed, UINT64_C(0x646f776e) + (uint64_t)j); /* stream "down" + car */
        if (!s->downq && !(s->downq = malloc(sizeof *s->downq * RELAY_KEEP)))
            return nr_error_set(err, "out of memory");
    }
    return serve_log_open(s, err);
}

/* Held in output order (equal times: arrival order, as the emulated
 * server's queue). */
static void hold(NetSession *s, Relay *q, int *nq, const Relay *r)
{
    if (*nq == RELAY_KEEP) { /* no room: the MU is lost, counted */
        s->relay_dropped++;
        return;
    }
    int at = *nq;
    while (at > 0 && q[at - 1].due_race > r->due_race)
        at--;
    memmove(q + at + 1, q + at, sizeof *q * (size_t)(*nq - at));
    q[at] = *r;
    (*nq)++;
}

/* The packet to client i: on through its downlink when it has one (an MU:
 * the line's fate, held until its delay has passed), at once else. */
static void down_send(NetSession *s, int i, int from, const uint8_t *b, int n, int64_t race)
{
    Link *line = s->down[s->peers[i].car];
    if (!line || n < WIRE_HEADER_BYTES || b[5] != WIRE_MU) { /* views are the measurement: never delayed */
        send_raw_to(s, i, b, (size_t)n);
        return;
    }
    LinkDraw f;
    link_draw(line, &f);
    if (f.lost) {
        s->down_lost++;
        return;
    }
    Relay r = {.due_race = link_fifo_due(line, race + f.delay_us), .from = from, .to = i, .n = n};
    memcpy(r.bytes, b, (size_t)n);
    hold(s, s->downq, &s->ndownq, &r);
    if (f.dup) {
        r.due_race = link_fifo_due(line, race + f.dup_delay_us);
        hold(s, s->downq, &s->ndownq, &r);
    }
}

/* The packet to every client but its sender. */
static void relay_out(NetSession *s, int from, const uint8_t *b, int n, int64_t race)
{
    for (int i = 0; i < s->npeers; i++)
        if (i != from)
            down_send(s, i, from, b, n, race);
}

void serve_receive(NetSession *s, int from, const WirePacket *p, const uint8_t *bytes, int n, int64_t l)
{
    int64_t race = race_at(s, l);
    if (p->kind == WIRE_VIEW) {
        s->relayed_view++;
        relay_out(s, from, bytes, n, race);
        return;
    }
    s->relayed_mu++;
    if (s->log_open && s->cfg.log.rx) /* the MU's arrival: where its uplink ends (docs/netlog.md) */
        s->cfg.log.rx(s->cfg.log.ctx, p, l, race, (int64_t)p->u.mu.mu.seq * WORLD_SAMPLE_US, n);
    int64_t due = (int64_t)p->u.mu.mu.seq * WORLD_SAMPLE_US + s->welcome.delta_us;
    if (s->welcome.server == 1 && due > race) {
        Relay r = {.due_race = due, .from = from, .to = -1, .n = n};
        memcpy(r.bytes, bytes, (size_t)n);
        hold(s, s->relay, &s->nrelay, &r);
        return;
    }
    relay_out(s, from, bytes, n, race);
}

/* The held packets of queue q due by race time `race` out, in order. */
static void release(NetSession *s, Relay *q, int *nq, int64_t race)
{
    int done = 0;
    while (done < *nq && q[done].due_race <= race) {
        const Relay *r = &q[done++];
        if (r->to >= 0)
            send_raw_to(s, r->to, r->bytes, (size_t)r->n);
        else /* a sync server's: now through the downlinks (into the other queue) */
            relay_out(s, r->from, r->bytes, r->n, r->due_race);
    }
    if (done > 0) {
        *nq -= done;
        memmove(q, q + done, sizeof *q * (size_t)*nq);
    }
}

/* Race time `race` has come: the held MUs due by then go out, a sync
 * server's first (their downlinks may hold them on). */
void serve_advance(NetSession *s, int64_t race)
{
    if (race > s->race_last)
        s->race_last = race;
    release(s, s->relay, &s->nrelay, race);
    release(s, s->downq, &s->ndownq, race);
}

int64_t serve_next_due(const NetSession *s)
{
    int64_t a = s->nrelay > 0 ? s->relay[0].due_race : INT64_MAX;
    int64_t b = s->ndownq > 0 ? s->downq[0].due_race : INT64_MAX;
    return a < b ? a : b;
}

/* Every client finished: FINISH (the earliest client's race time) to
 * all, then each says BYE once it has every view; a client leaving before
 * the end ends the race for all. */
void serve_finish_tick(NetSession *s, int64_t l)
{
    if (s->phase == PH_RACE) {
        serve_advance(s, race_at(s, l));
        if (PEERS_ALL(s, finished)) {
            s->phase = PH_FINISHED;
            s->finished_local = l;
            for (int i = 0; i < 3; i++)
                send_control(s, WIRE_FINISH, s->peer_finish_race);
            session_event(s, "finish", "");
            session_say(s, NETSESSION_EV_FINISHED, "");
        }
    }
    if (s->phase == PH_FINISHED && (PEERS_ALL(s, bye) || l - s->finished_local > s->to.linger_us)) {
        for (int i = 0; i < 3; i++)
            send_control(s, WIRE_BYE, 0);
        session_event(s, "bye", "finished");
        s->phase = PH_OVER;
        session_say(s, NETSESSION_EV_OVER, "");
        return;
    }
    for (int i = 0; i < s->npeers && s->phase < PH_FINISHED && s->phase >= PH_SYNC; i++)
        if (s->peers[i].bye) {
            char msg[160];
            snprintf(msg, sizeof msg, "car %d left before the end of the race", s->peers[i].car + 1);
            send_control(s, WIRE_BYE, 0);
            session_fail(s, "bye", "peer left", msg);
            return;
        }
}

void serve_print(const NetSession *s, FILE *f)
{
    fprintf(f, "clients: %d\n", s->npeers);
    for (int i = 0; i < s->npeers; i++) {
        char a[64];
        netaddr_text(&s->peers[i].addr, a, sizeof a);
        fprintf(f, "client_%d: %s\n", s->peers[i].car + 1, a);
    }
    fprintf(f, "mu_relayed: %lld\n", (long long)s->relayed_mu);
    fprintf(f, "views_relayed: %lld\n", (long long)s->relayed_view);
    if (s->welcome.server == 1 || s->downq)
        fprintf(f, "mu_held_dropped: %lld\n", (long long)s->relay_dropped);
    for (int j = 0; j < s->ncars; j++)
        if (s->down[j])
            fprintf(f, "link_s_%d: %s\n", j + 1, s->down[j]->spec.text);
    if (s->downq) { /* lost on a line, and still held there when the race ended (never sent) */
        fprintf(f, "mu_downlink_lost: %lld\n", (long long)s->down_lost);
        fprintf(f, "mu_downlink_unsent: %d\n", s->ndownq);
    }
}
