/* The network window's one contact with the session and the network
 * terminal (netwin_race.h). */
#include "netwin_race.h"

#include "netterm.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void netwin_race_pose(bool countdown, const Pose *shown, const Pose *grid, Pose *out)
{
    /* a DR scheme's prediction between updates has no sample (seq -1): it
     * is what the screen shows, not "nothing yet" */
    *out = countdown ? *grid : *shown;
}

/* Car c as scheme k shows it at this terminal (the own car at its physics
 * pose when the scheme shows the latest own sample). */
static void shown_pose(const NetTerminal *np, int k, int c, bool countdown, Pose *out)
{
    Pose shown, grid;
    if (c == netterm_car(np))
        netterm_own_shown(np, k, &shown);
    else
        netterm_display(np, k, c, &shown);
    netterm_grid_pose(np, c, &grid);
    netwin_race_pose(countdown, &shown, &grid, out);
}

void netwin_race_read(Session *s, NetRace *nr)
{
    memset(nr, 0, sizeof *nr);
    session_status(s, &nr->st);
    nr->track = session_track(s);
    nr->host = session_is_host(s);
    nr->port = session_port(s);
    session_code(s, nr->code);
    const NetTerminal *np = session_netterm(s);
    if (!np || nr->st.phase < SESSION_COUNTDOWN)
        return;
    nr->racing = true;
    nr->me = netterm_car(np);
    int k = netterm_shown(np);
    const SchemeType *st = session_scheme(s, k);
    nr->shown = st ? st->name : "?";
    bool countdown = nr->st.phase == SESSION_COUNTDOWN;
    nr->ncars = netterm_car_count(np);
    for (int c = 0; c < nr->ncars; c++)
        shown_pose(np, k, c, countdown, &nr->pose[c]);
    nr->speed = netterm_speed(np);
    nr->contact = netterm_contact(np);
    nr->rf = netterm_flow(np);
    const Engine *e = netterm_engine(np);
    nr->lag = engine_lag(e, k, nr->me);
    nr->lag_now_us = engine_now(e);
    nr->period_us = WORLD_SAMPLE_US;
    nr->limit_us = st && st->holds_delta ? engine_params(e)->delta_us : 0;
}

bool netwin_race_mark(Session *s, const char *kind, int64_t *race_us, bool *logged)
{
    return session_mark(s, kind, race_us, logged);
}

/* Scheme k's latest metric sample, appended when the metrics moved on. */
static void add_history(NetHistory *h, int k, const Metrics *m)
{
    if (m->samples == h->seen[k])
        return;
    h->seen[k] = m->samples;
    if (h->n[k] == NETWIN_HIST) { /* drop the older half: constant memory, as the engine's history */
        int drop = NETWIN_HIST / 2;
        memmove(h->s[k], h->s[k] + drop, sizeof h->s[k][0] * (size_t)(NETWIN_HIST - drop));
        h->n[k] -= drop;
    }
    int last = (m->recent_head + METRICS_RECENT_MAX - 1) % METRICS_RECENT_MAX;
    MetricSample *ms = &h->s[k][h->n[k]++];
    ms->t_us = m->recent_n > 0 ? m->recent_t[last] : 0;
    ms->d1 = m->d1;
    ms->d2 = m->d2;
    ms->inconsistent = m->inconsistent_now;
    ms->rate = metrics_inconsistency_rate(m);
    ms->mean_d1_d2 = metrics_mean_d1_minus_d2(m);
}

/* This terminal's view of scheme k as the engine states one (engine.h
 * EngineView): progress projected near each car's true progress as the
 * race flow last knew it, laps from it, the leader the car further on. */
static void own_view(const NetTerminal *np, const Track *t, int k, bool countdown, EngineView *v)
{
    const RaceFlow *rf = netterm_flow(np);
    double len = track_length(t);
    for (int c = 0; c < 2; c++) {
        shown_pose(np, k, c, countdown, &v->pose[c]);
        v->progress[c] = track_progress(t, v->pose[c].x, v->pose[c].y, rf->progress[RACEFLOW_TRUTH][c]);
        v->lap[c] = v->progress[c] > 0 ? (int)floor(v->progress[c] / len) : 0;
    }
    v->leader = v->progress[0] > v->progress[1] ? 0 : 1;
}

bool netwin_race_peer(const Engine *e, int k, int peer, int64_t now_us, RaceData *d)
{
    int32_t seq = engine_remote_view(e, k, peer, &d->view[k][peer]);
    d->known[k][peer] = seq >= 0;
    /* sample seq is at race time seq * WORLD_SAMPLE_US (netterm.h) */
    int64_t late = seq >= 0 ? now_us - (int64_t)seq * WORLD_SAMPLE_US : 0;
    d->late_us[peer] = late > 0 ? late : 0;
    return seq >= 0;
}

bool netwin_race_data(Session *s, NetHistory *hist, RaceData *d)
{
    const NetTerminal *np = session_netterm(s);
    const Track *t = session_track(s);
    SessionStatus st;
    session_status(s, &st);
    if (!np || !t || st.ncars > 2) /* the overview's RaceData holds two terminals' screens */
        return false;
    int me = netterm_car(np);
    d->n = session_scheme_count(s);
    d->now_us = st.race_us > 0 ? st.race_us : 0;
    d->late_us[me] = 0;
    for (int k = 0; k < d->n; k++) {
        d->scheme[k] = session_scheme(s, k);
        d->metrics[k] = netterm_metrics(np, k);
        add_history(hist, k, d->metrics[k]);
        d->history[k] = hist->s[k];
        d->nhistory[k] = hist->n[k];
        own_view(np, t, k, st.phase < SESSION_RACING, &d->view[k][me]);
        d->known[k][me] = true;
        d->lag[k][me] = engine_lag(netterm_engine(np), k, me);
        d->lag[k][1 - me] = NULL; /* what reached the peer is the peer's to know */
        if (!netwin_race_peer(netterm_engine(np), k, 1 - me, d->now_us, d))
            d->view[k][1 - me] = d->view[k][me]; /* not drawn (unknown), but the trails read it */
    }
    d->end_us = d->now_us; /* the charts span the race so far */
    d->period_us = WORLD_SAMPLE_US;
    d->delta_us = engine_params(netterm_engine(np))->delta_us;
    return true;
}

const char *netwin_race_pause_text(const SessionStatus *st, char *why, size_t n)
{
    switch (st->pause_cause) {
    case NETSESSION_PAUSE_STALLED: /* the peer heard nothing from here meanwhile */
        snprintf(why, n, "this terminal stalled: it was not run for %.1f s", (double)st->stalled_us / 1e6);
        return "both ends stop at one race time, then go on together";
    case NETSESSION_PAUSE_PEER:
        snprintf(why, n, "the peer paused: it stalled, or heard nothing from here");
        return "both ends stop at one race time, then go on together";
    default:
        snprintf(why, n, "the peer has been silent for %.1f s", (double)st->silent_us / 1e6);
        return "the race goes on when it is heard again; 15 s of silence ends it";
    }
}

const char *netwin_race_wait_text(const NetRace *nr, char *l2, char *l3, size_t n)
{
    if (nr->host) {
        snprintf(l2, n, "join code  %s", nr->code[0] ? nr->code : "(none: in clear)");
        if (nr->st.seats > 1) /* a p2p race of N: the seats taken so far */
            snprintf(l3, n, "%d of %d joiners in: on each other machine netrace join THIS-HOST:%u, then the code",
                     nr->st.seated, nr->st.seats, nr->port);
        else
            snprintf(l3, n, "on the other machine: netrace join THIS-HOST:%u, then type the code", nr->port);
        return nr->st.seats > 1 ? "Waiting for joiners" : "Waiting for a joiner";
    }
    snprintf(l2, n, "join code  %s", nr->code[0] ? nr->code : "(none: in clear)");
    /* a wrong code looks like silence: the host drops what it cannot open */
    snprintf(l3, n, "no answer yet from the host (a wrong code gets none)");
    return "Joining the race";
}

const char *netwin_race_error(const Session *s)
{
    return session_error(s);
}

void netwin_race_input(Session *s, const CarInput *in)
{
    session_set_input(s, in);
}

typedef struct FrameHook {
    bool (*frame)(void *ctx);
    void *ctx;
} FrameHook;

static bool on_frame(void *ctx, Session *s)
{
    (void)s;
    FrameHook *h = ctx;
    return h->frame(h->ctx);
}

bool netwin_race_run(Session *s, bool (*frame)(void *ctx), void *ctx, volatile sig_atomic_t *stop)
{
    FrameHook h = {frame, ctx};
    session_set_frame(s, on_frame, &h);
    bool ok = session_run(s, stop);
    session_set_frame(s, NULL, NULL);
    return ok;
}

void netwin_race_attach(Session *s, bool (*frame)(void *ctx, Session *s), void *ctx)
{
    session_set_frame(s, frame, ctx);
}

const NetStudyRace *netwin_race_study(const Session *s)
{
    return session_study(s);
}

int netwin_race_own_car(Session *s)
{
    return netsession_own_car(session_core(s)) + 1;
}

void netwin_race_study_rested(Session *s)
{
    session_study_rested(s);
}
