/* What a driving window and the end-of-race summary read of a session
 * (netsession.h): status, race, schemes and the key: value lines
 * (docs/netplay.md "The summary"). */
#include "netsession_internal.h"

#include <stdlib.h>
#include <string.h>

void netsession_status(const NetSession *s, int64_t l, NetSessionStatus *out)
{
    static const NetSessionPhase phases[] = {NETSESSION_WAITING, NETSESSION_SYNCING,  NETSESSION_COUNTDOWN,
                                             NETSESSION_RACING,  NETSESSION_FINISHED, NETSESSION_OVER};
    memset(out, 0, sizeof *out);
    out->phase = phases[s->phase];
    out->paused = s->paused;
    out->pause_cause = s->paused ? s->pause_cause : NETSESSION_PAUSE_NONE;
    out->stalled_us = s->paused && s->pause_cause == NETSESSION_PAUSE_STALLED ? s->stalled_us : 0;
    if (s->have_start) /* race time runs on the synchronised clock; frozen in a pause */
        out->race_us = s->phase >= PH_RACE ? race_at(s, l) : sync_at(s, l) - s->start_sync;
    bool est = !s->cfg.host && clocksync_count(&s->cs) > 0;
    out->offset_us = est ? -clocksync_offset(&s->cs, l) : 0;
    out->bound_us = est ? clocksync_error_bound(&s->cs, l) : 0;
    out->rtt_us = clocksync_count(&s->cs) > 0 ? clocksync_rtt(&s->cs) : 0;
    int64_t heard = peers_heard(s);
    out->silent_us = heard > 0 && heard != INT64_MAX ? l - heard : 0;
    out->received = s->received;
    out->rejected = s->rejected_total;
    if (s->npeers > 0)
        netaddr_text(&s->peers[0].addr, out->peer, sizeof out->peer);
    out->ncars = s->ncars;
    out->own_car = s->own_car;
    out->seated = s->npeers;
    out->seats = s->seats;
    out->topology = s->welcome.topology;
}

const Track *netsession_track(const NetSession *s)
{
    return s->track;
}

bool netsession_is_host(const NetSession *s)
{
    return s->cfg.host;
}

int netsession_scheme_count(const NetSession *s)
{
    return s->nschemes;
}

const SchemeType *netsession_scheme(const NetSession *s, int k)
{
    return k >= 0 && k < s->nschemes ? s->schemes[k] : NULL;
}

int netsession_pauses(const NetSession *s)
{
    return s->pauses;
}

bool netsession_peer_left(const NetSession *s)
{
    return s->peer_bye;
}

int netsession_car_count(const NetSession *s)
{
    return s->ncars;
}

int netsession_own_car(const NetSession *s)
{
    return s->own_car;
}

int netsession_seated(const NetSession *s)
{
    return s->npeers;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static double rtt_median(const NetSession *s)
{
    int n = s->nrtt < RTT_KEEP ? s->nrtt : RTT_KEEP;
    double p50 = 0;
    int64_t *c = n > 0 ? malloc(sizeof *c * (size_t)n) : NULL;
    if (c) {
        memcpy(c, s->rtt, sizeof *c * (size_t)n);
        qsort(c, (size_t)n, sizeof *c, cmp_i64);
        p50 = n % 2 ? (double)c[n / 2] : ((double)c[n / 2 - 1] + (double)c[n / 2]) / 2.0;
        free(c);
    }
    return p50;
}

static void print_race(const NetSession *s, FILE *f)
{
    int64_t sent = netterm_peer_mu_sent(s->np), got = netterm_mu_received(s->np);
    fprintf(f, "samples: %d\n", (int)netterm_sample_seq(s->np));
    fprintf(f, "mu_sent: %u\n", netterm_mu_sent(s->np));
    fprintf(f, "mu_received: %lld\n", (long long)got);
    fprintf(f, "mu_lost: %lld\n", (long long)(sent > got ? sent - got : 0));
    fprintf(f, "views_skipped: %lld\n", (long long)netterm_views_skipped(s->np));
    for (int k = 0; k < s->nschemes; k++) {
        const Metrics *m = netterm_metrics(s->np, k);
        const char *nm = s->schemes[k]->name;
        fprintf(f, "%s.samples: %lld\n", nm, (long long)m->samples);
        fprintf(f, "%s.inconsistency: %.6f\n", nm, metrics_inconsistency_rate(m));
        fprintf(f, "%s.mean_d1_d2: %.6f\n", nm, metrics_mean_d1_minus_d2(m));
        fprintf(f, "%s.mean_abs_d1: %.6f\n", nm, metrics_mean_abs_d1(m));
        fprintf(f, "%s.mean_abs_d2: %.6f\n", nm, metrics_mean_abs_d2(m));
        if (s->ncars == 2)
            continue; /* the N-car measures (docs/nplayers.md); two cars print what they did */
        fprintf(f, "%s.pair_rate: %.6f\n", nm, metrics_pair_rate(m));
        fprintf(f, "%s.spread: %.6f\n", nm, metrics_fairness_spread(m));
        for (int c = 0; c < s->ncars; c++)
            fprintf(f, "%s.disadvantage_%d: %.6f\n", nm, c + 1, metrics_disadvantage(m, c));
    }
}

void netsession_print(const NetSession *s, int64_t l, FILE *f)
{
    /* the host's synchronised clock is its own: its offset is 0 by definition */
    bool est = !s->cfg.host && clocksync_count(&s->cs) > 0;
    fprintf(f, "role: %s\n", s->cfg.server ? "server" : s->cfg.host ? "host" : s->welcome.topology ? "client" : "joiner");
    if (s->ncars > 2 || s->welcome.topology) { /* two-player summaries stay as they were */
        fprintf(f, "cars: %d\n", s->ncars);
        if (s->own_car >= 0)
            fprintf(f, "car: %d\n", s->own_car + 1);
        fprintf(f, "topology: %s\n", s->welcome.topology ? (s->welcome.server ? "cs sync" : "cs relay") : "p2p");
    }
    /* this terminal's clock minus the synchronised (host's) clock */
    fprintf(f, "clock_offset_ms: %.3f\n", est ? -(double)clocksync_offset(&s->cs, l) / 1000.0 : 0.0);
    fprintf(f, "clock_error_bound_ms: %.3f\n", est ? (double)clocksync_error_bound(&s->cs, l) / 1000.0 : 0.0);
    /* the same sign as clock_offset_ms and --clock-drift: this terminal's
     * clock against the host's (clocksync measures the host's against ours) */
    fprintf(f, "clock_drift_ppm: %.2f\n", est ? -clocksync_drift_ppm(&s->cs) : 0.0);
    fprintf(f, "clock_exchanges: %lld\n", (long long)clocksync_count(&s->cs));
    fprintf(f, "rtt_p50_ms: %.3f\n", rtt_median(s) / 1000.0);
    fprintf(f, "pauses: %d\n", s->pauses);
    fprintf(f, "packets_received: %lld\n", (long long)s->received);
    fprintf(f, "packets_rejected: %lld\n", (long long)s->rejected_total);
    for (int r = 1; r < REJECT_REASONS; r++)
        if (s->rejected[r])
            fprintf(f, "rejected_%s: %lld\n", reject_name(r), (long long)s->rejected[r]);
    if (s->np)
        print_race(s, f);
    if (s->cfg.server)
        serve_print(s, f);
}
