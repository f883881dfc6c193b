/* A server's race (netsession.h, `netrace serve`; docs/netplay.md "Serve"):
 * no car of its own; every MU and VIEW of a client is relayed to the other
 * clients, as the client-server topology of the emulated race defines the
 * server (route.h, docs/nplayers.md "Topologies"): `relay` forwards each MU
 * on arrival; `sync`, the centralised causality control, forwards it to
 * every client at one common output time, its sample's instant + Delta on
 * the race clock, or on arrival when it comes later. VIEWs are the
 * measurement, not the game: relayed on arrival in both. The packet goes
 * on as it came (its token, its sender's packet counter, which the merge
 * matches), sealed again for each client's link. */
#include "netsession_internal.h"

#include <stdlib.h>
#include <string.h>

/* The scheme list (MU masks and VIEWs are checked against it) and, for
 * sync, the queue of held MUs. */
bool serve_setup(NetSession *s, NrError *err)
{
    const WireWelcome *w = &s->welcome;
    s->nschemes = scheme_parse_list(w->schemes, s->schemes, SCHEME_MAX, err);
    if (s->nschemes < 1)
        return false;
    s->chk.nschemes = s->nschemes;
    if (w->server == 1) {
        s->relay = malloc(sizeof *s->relay * RELAY_KEEP);
        if (!s->relay)
            return nr_error_set(err, "out of memory");
    }
    return true;
}

/* The packet to every client but its sender. */
static void relay_out(NetSession *s, int from, const uint8_t *b, int n)
{
    for (int i = 0; i < s->npeers; i++)
        if (i != from)
            send_raw_to(s, i, b, (size_t)n);
}

/* Held in output order (equal times: arrival order, as the emulated
 * server's queue). */
static void relay_hold(NetSession *s, int from, int64_t due, const uint8_t *b, int n)
{
    if (s->nrelay == RELAY_KEEP) { /* no room: the MU is lost, counted */
        s->relay_dropped++;
        return;
    }
    int at = s->nrelay;
    while (at > 0 && s->relay[at - 1].due_race > due)
        at--;
    memmove(s->relay + at + 1, s->relay + at, sizeof *s->relay * (size_t)(s->nrelay - at));
    Relay *r = &s->relay[at];
    r->due_race = due;
    r->from = from;
    r->n = n;
    memcpy(r->bytes, b, (size_t)n);
    s->nrelay++;
}

void serve_receive(NetSession *s, int from, const WirePacket *p, const uint8_t *bytes, int n, int64_t l)
{
    if (p->kind == WIRE_VIEW) {
        s->relayed_view++;
        relay_out(s, from, bytes, n);
        return;
    }
    s->relayed_mu++;
    int64_t due = (int64_t)p->u.mu.mu.seq * WORLD_SAMPLE_US + s->welcome.delta_us;
    if (s->welcome.server == 1 && due > race_at(s, l)) {
        relay_hold(s, from, due, bytes, n);
        return;
    }
    relay_out(s, from, bytes, n);
}

/* Race time `race` has come: the held MUs due by then go out. */
void serve_advance(NetSession *s, int64_t race)
{
    if (race > s->race_last)
        s->race_last = race;
    int done = 0;
    while (done < s->nrelay && s->relay[done].due_race <= race) {
        const Relay *r = &s->relay[done++];
        relay_out(s, r->from, r->bytes, r->n);
    }
    if (done > 0) {
        s->nrelay -= done;
        memmove(s->relay, s->relay + done, sizeof *s->relay * (size_t)s->nrelay);
    }
}

int64_t serve_next_due(const NetSession *s)
{
    return s->nrelay > 0 ? s->relay[0].due_race : INT64_MAX;
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
    if (s->welcome.server == 1)
        fprintf(f, "mu_held_dropped: %lld\n", (long long)s->relay_dropped);
}
