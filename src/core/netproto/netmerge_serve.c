/* The server's log of a served race (`serve --log`) in the merge of its
 * clients' logs (netmerge.h; docs/netlog.md "The server's log"): the
 * downlinks' condition for the recording and each MU's two hops, client
 * I -> server and server -> client J, for a replay on the client-server
 * topology (route.h) over the network's own delays. */
#include "netmerge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool netmerge_check_server(const TermLog *srv, const TermLog *const *logs, int n, NrError *err)
{
    const TermLog *a = logs[0];
    if (!srv->server)
        return nr_error_set(err, "not a server's log (role %s)", srv->role);
    if (strcmp(srv->token, a->token) != 0)
        return nr_error_set(err, "the server's log is of another race (session %s; the clients': %s)", srv->token,
                            a->token);
    if (strcmp(a->topology, "p2p") == 0)
        return nr_error_set(err, "a server's log with a peer-to-peer race's logs: the race had no server");
    if (strcmp(srv->topology, a->topology) != 0 || srv->ncars != n || srv->period_ms != a->period_ms ||
        strcmp(srv->track, a->track) != 0 || strcmp(srv->schemes, a->schemes) != 0)
        return nr_error_set(err, "the server's log (%s, %d cars, %d ms, track '%s', schemes '%s') differs from the "
                            "clients' (%s, %d cars, %d ms, track '%s', schemes '%s')", srv->topology, srv->ncars,
                            srv->period_ms, srv->track, srv->schemes, a->topology, n, a->period_ms, a->track,
                            a->schemes);
    for (int i = 0; i < n; i++)
        if (strcmp(logs[i]->role, "client") != 0 && strcmp(logs[i]->role, "joiner") != 0)
            return nr_error_set(err, "the log of car %d is a %s's: a served race's terminals are its clients",
                                logs[i]->car, logs[i]->role);
    return true;
}

bool netmerge_server_links(const TermLog *srv, int n, Recording *rec)
{
    bool ok = true;
    for (int j = 1; j <= n; j++) {
        char key[RECORDING_META_KEY];
        snprintf(key, sizeof key, "link_s_%d", j);
        const char *spec = srv->line_link[j - 1][0] ? srv->line_link[j - 1] : srv->link;
        if (spec[0])
            ok &= recording_meta_add(rec, key, spec);
    }
    return ok;
}

static int cmp_arrival(const void *pa, const void *pb)
{
    const TermLogPkt *x = pa, *y = pb;
    if (x->from != y->from)
        return x->from - y->from;
    if (x->pkt_seq != y->pkt_seq)
        return (x->pkt_seq > y->pkt_seq) - (x->pkt_seq < y->pkt_seq);
    return (x->arr_sync_us > y->arr_sync_us) - (x->arr_sync_us < y->arr_sync_us);
}

/* The earliest arrival at the server of car `from`'s packet pkt_seq in
 * the sorted rows (NULL: none reached it). */
static const TermLogPkt *server_arrival(const TermLogPkt *v, int64_t nv, int from, int64_t pkt_seq)
{
    int64_t lo = 0, hi = nv;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (v[mid].from < from || (v[mid].from == from && v[mid].pkt_seq < pkt_seq))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < nv && v[lo].from == from && v[lo].pkt_seq == pkt_seq ? &v[lo] : NULL;
}

/* The server's rule of output, read from its log once per merge: whether
 * it held MUs to their sample + Delta (sync) and its Delta. */
typedef struct ServerRule {
    bool sync;
    int64_t delta_us;
} ServerRule;

static ServerRule server_rule(const TermLog *srv)
{
    double delta_ms = srv->delta_ms[0] ? strtod(srv->delta_ms, NULL) : 0.0;
    return (ServerRule){.sync = strcmp(srv->topology, "cs sync") == 0,
                        .delta_us = (int64_t)(delta_ms * 1000.0 + (delta_ms >= 0 ? 0.5 : -0.5))};
}

/* When the emulated server puts an MU on its downlinks (route.c
 * server_output): on arrival (relay), or at its sample + Delta (sync) when
 * that is later; the arrival no earlier than the sample (a replay sends
 * a negative delay at once). */
static int64_t server_output(const ServerRule *rule, const TermLogPkt *p)
{
    int64_t arrive = p->arr_sync_us > p->send_sync_us ? p->arr_sync_us : p->send_sync_us;
    int64_t due = p->send_sync_us + rule->delta_us;
    return rule->sync && due > arrive ? due : arrive;
}

bool netmerge_hops(const TermLog *srv, const TermLog *const *logs, int n, NetDelayRow **rows, int64_t *nrows,
                   NrError *err)
{
    int ns = netmerge_samples_all(logs, n);
    int64_t total = *nrows + srv->nrx;
    for (int i = 0; i < n; i++)
        total += logs[i]->nrx;
    TermLogPkt *up = malloc((size_t)(srv->nrx > 0 ? srv->nrx : 1) * sizeof *up);
    NetDelayRow *v = realloc(*rows, (size_t)(total > 0 ? total : 1) * sizeof *v);
    if (!up || !v) {
        free(up);
        if (v)
            *rows = v;
        return nr_error_set(err, "out of memory for %lld delay rows", (long long)total);
    }
    *rows = v;
    int64_t m = *nrows, nup = 0;
    for (int64_t i = 0; i < srv->nrx; i++) { /* client I -> server: where the uplink ends */
        const TermLogPkt *p = &srv->rx[i];
        if (p->seq >= ns || p->from < 1 || p->from > n)
            continue;
        up[nup++] = *p;
        v[m++] = (NetDelayRow){.dir = NETMERGE_HOP_DIR + p->from * 10, .from = p->from, .to = 0, .seq = p->seq,
                               .parity = p->parity, .pkt_seq = p->pkt_seq, .schemes = p->schemes,
                               .sent_us = p->send_sync_us, .arrival_us = p->arr_sync_us,
                               .delay_us = p->arr_sync_us - p->send_sync_us, .hop = NETMERGE_UP};
    }
    qsort(up, (size_t)nup, sizeof *up, cmp_arrival);
    ServerRule rule = server_rule(srv);
    for (int l = 0; l < n; l++) /* server -> client J: from the server's output of the MU to J's receipt */
        for (int64_t i = 0; i < logs[l]->nrx; i++) {
            const TermLogPkt *p = &logs[l]->rx[i];
            const TermLogPkt *at = p->seq < ns ? server_arrival(up, nup, p->from, p->pkt_seq) : NULL;
            if (!at)
                continue; /* the server's log has no arrival (cut short): lost on the uplink in a replay */
            int64_t out = server_output(&rule, at);
            v[m++] = (NetDelayRow){.dir = NETMERGE_HOP_DIR + p->from * 100 + logs[l]->car, .from = p->from,
                                   .to = logs[l]->car, .seq = p->seq, .parity = p->parity, .pkt_seq = p->pkt_seq,
                                   .schemes = p->schemes, .sent_us = out, .arrival_us = p->arr_sync_us,
                                   .delay_us = p->arr_sync_us - out, .hop = NETMERGE_DOWN};
        }
    free(up);
    *nrows = m;
    netmerge_sort_delays(v, m);
    return true;
}
