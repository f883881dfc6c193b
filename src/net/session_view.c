/* What a driving window and the end-of-race summary read of a session
 * (session.h): its status, race, schemes and the key: value lines. */
#include "session_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- a driving window's view of the session ------------------------------- */

void session_set_frame(Session *s, SessionFrame fn, void *ctx)
{
    s->frame = fn;
    s->frame_ctx = ctx;
}

void session_status(const Session *s, SessionStatus *out)
{
    static const SessionPhase phases[] = {SESSION_WAITING,  SESSION_SYNCING,  SESSION_COUNTDOWN,
                                          SESSION_RACING,   SESSION_FINISHED, SESSION_OVER};
    memset(out, 0, sizeof *out);
    int64_t l = local_now(s);
    out->phase = phases[s->phase];
    out->paused = s->paused;
    out->race_us = s->have_start ? (s->paused ? s->paused_race : race_at(s, l)) : 0;
    bool est = !s->cfg.host && clocksync_count(&s->cs) > 0;
    out->offset_us = est ? -clocksync_offset(&s->cs, l) : 0;
    out->bound_us = est ? clocksync_error_bound(&s->cs, l) : 0;
    out->rtt_us = clocksync_count(&s->cs) > 0 ? clocksync_rtt(&s->cs) : 0;
    out->silent_us = s->last_heard_local > 0 ? l - s->last_heard_local : 0;
    out->received = s->received;
    out->rejected = s->rejected_total;
    if (s->have_peer)
        netaddr_text(&s->peer, out->peer, sizeof out->peer);
}

struct NetTerminal *session_netterm(Session *s)
{
    return s->np;
}

const Track *session_track(const Session *s)
{
    return s->track;
}

bool session_is_host(const Session *s)
{
    return s->cfg.host;
}

int session_scheme_count(const Session *s)
{
    return s->nschemes;
}

const SchemeType *session_scheme(const Session *s, int k)
{
    return k >= 0 && k < s->nschemes ? s->schemes[k] : NULL;
}

void session_set_input(Session *s, const CarInput *in)
{
    s->input = *in;
    if (s->np)
        netterm_set_input(s->np, in);
}

/* ---- summary -------------------------------------------------------------- */

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int session_pauses(const Session *s)
{
    return s->pauses;
}

void session_print(const Session *s, FILE *f)
{
    int64_t l = local_now(s);
    int n = s->nrtt < RTT_KEEP ? s->nrtt : RTT_KEEP;
    double p50 = 0;
    if (n > 0) {
        int64_t *c = malloc(sizeof *c * (size_t)n);
        if (c) {
            memcpy(c, s->rtt, sizeof *c * (size_t)n);
            qsort(c, (size_t)n, sizeof *c, cmp_i64);
            p50 = n % 2 ? (double)c[n / 2] : ((double)c[n / 2 - 1] + (double)c[n / 2]) / 2.0;
            free(c);
        }
    }
    /* the host's synchronised clock is its own: its offset is 0 by definition */
    bool est = !s->cfg.host && clocksync_count(&s->cs) > 0;
    fprintf(f, "role: %s\n", s->cfg.host ? "host" : "joiner");
    /* this terminal's clock minus the synchronised (host's) clock */
    fprintf(f, "clock_offset_ms: %.3f\n", est ? -(double)clocksync_offset(&s->cs, l) / 1000.0 : 0.0);
    fprintf(f, "clock_error_bound_ms: %.3f\n", est ? (double)clocksync_error_bound(&s->cs, l) / 1000.0 : 0.0);
    /* the same sign as clock_offset_ms and --clock-drift: this terminal's
     * clock against the host's (clocksync measures the host's against ours) */
    fprintf(f, "clock_drift_ppm: %.2f\n", est ? -clocksync_drift_ppm(&s->cs) : 0.0);
    fprintf(f, "clock_exchanges: %lld\n", (long long)clocksync_count(&s->cs));
    fprintf(f, "rtt_p50_ms: %.3f\n", p50 / 1000.0);
    fprintf(f, "pauses: %d\n", s->pauses);
    fprintf(f, "packets_received: %lld\n", (long long)s->received);
    fprintf(f, "packets_rejected: %lld\n", (long long)s->rejected_total);
    for (int r = 1; r < REJECT_REASONS; r++)
        if (s->rejected[r])
            fprintf(f, "rejected_%s: %lld\n",
                    r == REJECT_ADDRESS ? "address" : r == REJECT_BUSY ? "busy" : wire_result_name((WireResult)r),
                    (long long)s->rejected[r]);
    if (!s->np)
        return;
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
    }
}
