/* The pause protocol's shared steps (docs/netplay.md "Pause"): an end
 * stops at a point, hears the peers' PAUSE, hears the host's RESUME
 * (netsession.h; the timed side is netsession.c's pause_tick). */
#include "netsession_internal.h"

#include <stdio.h>

/* This end stops its race time at `point` at the latest (the largest point
 * either end has said); counted once per pause, whose cause is the first. */
void pause_at(NetSession *s, int64_t point, NetPauseCause cause, const char *why)
{
    if (s->phase != PH_RACE)
        return;
    int64_t here = race_at(s, s->now);
    if (point < here)
        point = here;
    if (!s->paused) {
        s->paused = true;
        s->pauses++;
        s->pause_cause = cause;
        s->paused_since = s->now;
        s->cap = point;
        for (int i = 0; i < s->npeers; i++)
            s->peers[i].at_cap = false;
        s->resume_left = 0;
        s->next_pause_say = s->now;
        char msg[160];
        snprintf(msg, sizeof msg, "%s: race paused", why);
        session_say(s, NETSESSION_EV_PAUSED, msg);
        session_event(s, "pause", why);
    } else if (point > s->cap) {
        s->cap = point;
        for (int i = 0; i < s->npeers; i++)
            s->peers[i].at_cap = false;
        s->next_pause_say = s->now;
    }
}

/* Peer `from` said PAUSE(point): it stands at point (a joiner's or
 * client's word) or asks to stop there (the host's or server's). */
void pause_heard(NetSession *s, int from, int64_t point)
{
    if (s->phase != PH_RACE)
        return;
    if (!s->paused && point <= s->resumed_from) {
        /* a PAUSE of the pause already over: late, reordered, or the
         * joiner missed every RESUME (the host says it again) */
        if (s->cfg.host)
            s->resume_left = s->to.resume_sends;
        return;
    }
    pause_at(s, point, NETSESSION_PAUSE_PEER,
             s->cfg.server ? "a client paused" : s->cfg.host ? "the joiner paused" : "the host paused");
    if (s->cfg.host && point == s->cap)
        s->peers[from].at_cap = true;
}

/* The host's RESUME: race time P (where both stand) comes at the
 * synchronised instant start_sync + P. */
void resume_heard(NetSession *s, int64_t start_sync)
{
    if (s->cfg.host || s->phase != PH_RACE || !s->paused || race_at(s, s->now) != s->cap)
        return;
    s->start_sync = start_sync;
    s->shift_us = 0;
    s->resumed_from = s->cap;
    s->cap = INT64_MAX;
    s->paused = false;
    session_say(s, NETSESSION_EV_RESUMED, "the host resumed the race");
    session_event(s, "resume", "host");
}

