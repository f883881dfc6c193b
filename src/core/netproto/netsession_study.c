/* A study race in the session (netsession.h "Studies"; docs/studies.md
 * "Over the network"): the host offers the race with its study step and
 * questions (WELCOME, STUDY QUESTION), the joiner's player answers after
 * the finish (STUDY ANSWER until acknowledged), says it is done (STUDY
 * DONE until the host's BYE), and the host ends the session once both
 * players' answers are kept; the mark key (the log's `mark` rows). */
#include "netsession_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool netsession_mark(NetSession *s, int64_t now_us, const char *kind, int64_t *race_us, bool *logged)
{
    size_t n = strlen(kind);
    *logged = false;
    if (!s->have_start || n == 0 || n >= RECORDING_MARK_KIND || strspn(kind, "abcdefghijklmnopqrstuvwxyz_") != n)
        return false;
    /* as the status says it: frozen in a pause, negative in the countdown */
    *race_us = s->phase >= PH_RACE ? race_at(s, now_us) : sync_at(s, now_us) - s->start_sync;
    *logged = s->log_open && s->cfg.log.mark;
    if (*logged) /* the sink flushes it: a mark given is a mark kept */
        s->cfg.log.mark(s->cfg.log.ctx, now_us, *race_us, kind);
    if (strcmp(kind, RECORDING_MARK_DISSATISFIED) == 0)
        s->marks_own++;
    return true;
}

int netsession_marks(const NetSession *s)
{
    return s->marks_own;
}

/* The host's WELCOME: its study step and the joiner's link. */
void study_welcome(NetSession *s)
{
    const NetStudyRace *st = s->cfg.study;
    if (!st || st->race == 0)
        return;
    WireWelcome *w = &s->welcome;
    s->study = *st;
    snprintf(w->peer_link, sizeof w->peer_link, "%s", st->peer_link);
    w->study_race = st->race;
    w->study_races = st->races;
    w->study_flags = (uint8_t)((st->practice ? WIRE_STUDY_PRACTICE : WIRE_STUDY_RATED) |
                               (st->blind ? WIRE_STUDY_BLIND : 0) | (st->rate_only ? WIRE_STUDY_RATE_ONLY : 0) |
                               (st->log ? WIRE_STUDY_LOG : 0) | (st->brk ? WIRE_STUDY_BREAK : 0));
    s->study_rest = st->brk && !st->rate_only;
    w->study_nq = (uint8_t)(st->rated ? st->nq : 0);
    w->study_given = (uint8_t)(st->rated ? st->given & ((1u << st->nq) - 1) : 0);
    s->study_acked = w->study_given; /* kept before: acknowledged to any repeat */
    s->study_heard = w->study_given;
}

/* The host, after WELCOME and the track: the race's questions. */
void study_send_questions(NetSession *s, int to)
{
    for (int i = 0; i < s->welcome.study_nq; i++) {
        WirePacket p;
        memset(&p, 0, sizeof p);
        p.kind = WIRE_STUDY;
        p.u.study = (WireStudy){.op = WIRE_STUDY_QUESTION, .index = (uint8_t)i, .race = s->study.race,
                                .qkind = (uint8_t)s->study.q[i].kind};
        snprintf(p.u.study.id, sizeof p.u.study.id, "%s", s->study.q[i].id);
        snprintf(p.u.study.text, sizeof p.u.study.text, "%s", s->study.q[i].text);
        send_to(s, to, &p);
    }
}

/* The joiner's WELCOME: the study step (its questions come in STUDY). */
void study_welcomed(NetSession *s)
{
    const WireWelcome *w = &s->welcome;
    memset(&s->study, 0, sizeof s->study);
    s->study_q_seen = 0;
    snprintf(s->study.peer_link, sizeof s->study.peer_link, "%s", w->peer_link);
    if (w->study_race == 0)
        return;
    s->study.race = w->study_race;
    s->study.races = w->study_races;
    s->study.practice = (w->study_flags & WIRE_STUDY_PRACTICE) != 0;
    s->study.rated = (w->study_flags & WIRE_STUDY_RATED) != 0;
    s->study.blind = (w->study_flags & WIRE_STUDY_BLIND) != 0;
    s->study.rate_only = (w->study_flags & WIRE_STUDY_RATE_ONLY) != 0;
    s->study.log = (w->study_flags & WIRE_STUDY_LOG) != 0;
    s->study.brk = (w->study_flags & WIRE_STUDY_BREAK) != 0;
    s->study_rest = s->study.brk && !s->study.rate_only;
    s->study.nq = w->study_nq;
    s->study.given = w->study_given;
    s->study_given = s->study_acked = w->study_given; /* never asked again */
}

/* A rate-only race: no race, from the handshake straight to finished. */
bool study_rate_only(NetSession *s)
{
    if (!s->study.rate_only)
        return false;
    s->phase = PH_FINISHED;
    s->finished_local = s->now;
    s->study_race_said = true; /* no race */
    session_say(s, NETSESSION_EV_FINISHED, "");
    return true;
}

bool study_questions_here(const NetSession *s)
{
    return s->study_q_seen == (1u << s->study.nq) - 1;
}

static void send_study(NetSession *s, int op, int index, int score, int64_t value)
{
    WirePacket p;
    memset(&p, 0, sizeof p);
    p.kind = WIRE_STUDY;
    p.u.study = (WireStudy){.op = (uint8_t)op, .index = (uint8_t)index, .score = (int8_t)score,
                            .race = s->study.race, .value = value};
    send_packet(s, &p);
}

static void push_answer_event(NetSession *s, int kind, int index, int score, int64_t value)
{
    NetSessionEvent *e = NULL;
    session_say(s, (NetSessionEventKind)kind, "");
    if (s->nev > 0) /* the event just queued: its fields */
        e = &s->events[(s->ev_head + s->nev - 1) % EVENTS_KEEP];
    if (e) {
        e->index = index;
        e->score = score;
        e->value = value;
    }
}

/* The joiner's LOG chunks from the window's start (the acknowledged
 * offset, or where the last send stopped) up to NETSESSION_LOG_WINDOW
 * chunks ahead of the acknowledgement. */
static void send_log_window(NetSession *s)
{
    uint32_t end = s->study_log_acked + NETSESSION_LOG_WINDOW * WIRE_TRACK_CHUNK;
    end = end < s->study_log_n ? end : s->study_log_n;
    uint32_t off = s->study_log_sent > s->study_log_acked ? s->study_log_sent : s->study_log_acked;
    for (; off < end; off += WIRE_TRACK_CHUNK) {
        WirePacket p;
        wire_chunk(&p, WIRE_LOG, s->study_log, s->study_log_n, off);
        send_packet(s, &p);
    }
    s->study_log_sent = off > s->study_log_sent ? off : s->study_log_sent;
}

/* A STUDY packet of this race. The joiner takes questions while it sets
 * up and acknowledgements after; the host takes answers and the end. */
void study_receive(NetSession *s, const WireStudy *st)
{
    if (s->study.race == 0 || st->race != s->study.race)
        return; /* another race's (a late repeat): nothing to do */
    if (!s->cfg.host && st->op == WIRE_STUDY_QUESTION && st->index < s->study.nq) {
        NetStudyQuestion *q = &s->study.q[st->index];
        snprintf(q->id, sizeof q->id, "%s", st->id);
        snprintf(q->text, sizeof q->text, "%s", st->text);
        q->kind = st->qkind;
        s->study_q_seen |= 1u << st->index;
    } else if (!s->cfg.host && st->op == WIRE_STUDY_ACK && st->index < s->study.nq) {
        s->study_acked |= 1u << st->index;
    } else if (s->cfg.host && st->op == WIRE_STUDY_ANSWER && s->study.rated && st->index < s->study.nq &&
               s->phase == PH_FINISHED) {
        bool yesno = s->study.q[st->index].kind == 1;
        if (yesno ? st->score > 1 : st->score < 1)
            return; /* no answer to this question */
        if (s->study_acked & (1u << st->index)) { /* kept already: its acknowledgement was lost */
            send_study(s, WIRE_STUDY_ACK, st->index, 0, 0);
        } else { /* the app keeps it, then acknowledges (a repeat: an event again, the app's keep is idempotent) */
            s->study_heard |= 1u << st->index;
            push_answer_event(s, NETSESSION_EV_STUDY_ANSWER, st->index, st->score, st->value);
        }
    } else if (!s->cfg.host && st->op == WIRE_STUDY_LOG_ACK && s->study_log && st->value <= s->study_log_n) {
        if ((uint32_t)st->value > s->study_log_acked) { /* the window moves on */
            s->study_log_acked = (uint32_t)st->value;
            send_log_window(s);
        }
    } else if (s->cfg.host && st->op == WIRE_STUDY_LOG_NONE && s->study.log && !s->study_log_done) {
        s->study_log_done = true; /* the joiner has none: the race goes without its recording */
        free(s->study_log);
        s->study_log = NULL;
        push_answer_event(s, NETSESSION_EV_STUDY_LOG, 0, 0, -1);
    } else if (s->cfg.host && st->op == WIRE_STUDY_DONE && s->phase == PH_FINISHED) {
        s->study_peer_done = true; /* said again until the BYE: an event each time, as for answers */
        s->study_peer_marks = (int)st->value;
        push_answer_event(s, NETSESSION_EV_STUDY_DONE, 0, 0, st->value);
    }
}

/* Host: a LOG chunk of the joiner's log, kept when it is the next in order
 * (of the total the first one said); the bytes kept are acknowledged to
 * every chunk, so a lost acknowledgement costs one repeat. */
void study_log_chunk(NetSession *s, const WireTrack *t)
{
    if (!s->cfg.host || s->study.race == 0 || !s->study.log || s->phase < PH_FINISHED)
        return;
    if (!s->study_log_done) {
        if (!s->study_log && t->total <= WIRE_LOG_MAX_BYTES) { /* the first: the total's room, once */
            s->study_log = calloc((size_t)t->total + 1, 1);
            s->study_log_n = s->study_log ? t->total : 0;
        }
        if (s->study_log && t->total == s->study_log_n && t->offset == s->study_log_acked) {
            memcpy(s->study_log + t->offset, t->data, t->n);
            s->study_log_acked += t->n;
        }
        if (s->study_log && s->study_log_acked == s->study_log_n) {
            s->study_log_done = true;
            push_answer_event(s, NETSESSION_EV_STUDY_LOG, 0, 0, s->study_log_n);
        }
    }
    send_study(s, WIRE_STUDY_LOG_ACK, 0, 0, s->study_log_acked);
}

bool netsession_study_send_log(NetSession *s, int64_t now_us, const char *bytes, size_t n)
{
    (void)now_us;
    if (s->cfg.host || s->study.race == 0 || !s->study.log || s->study_log_given || s->phase != PH_FINISHED)
        return false;
    s->study_log_given = true;
    if (bytes && n > 0 && n <= WIRE_LOG_MAX_BYTES && !memchr(bytes, 0, n) && (s->study_log = malloc(n))) {
        memcpy(s->study_log, bytes, n);
        s->study_log_n = (uint32_t)n;
        send_log_window(s);
    } else { /* none to send: said until the BYE */
        send_study(s, WIRE_STUDY_LOG_NONE, 0, 0, 0);
    }
    s->study_next_send = s->now + s->to.retry_us;
    return true;
}

void netsession_study_rested(NetSession *s, int64_t now_us)
{
    (void)now_us;
    if (!s->study_rest)
        return;
    s->study_rest = false;
    if (s->cfg.host && !s->have_start && s->phase == PH_SYNC && PEERS_ALL(s, ready)) /* the joiner rested first */
        schedule_start(s, s->now + s->to.start_lead_us);
}

const char *netsession_study_log(const NetSession *s, size_t *n)
{
    *n = s->cfg.host && s->study_log_done && s->study_log ? s->study_log_n : 0;
    return s->cfg.host && s->study_log_done ? s->study_log : NULL;
}

bool netsession_study_answer(NetSession *s, int64_t now_us, int index, int score, int64_t response_ms)
{
    (void)now_us;
    if (s->cfg.host || !s->study.rated || s->phase != PH_FINISHED || index < 0 || index >= s->study.nq ||
        (s->study_given & (1u << index)))
        return false;
    bool yesno = s->study.q[index].kind == 1;
    if ((yesno ? (score < 0 || score > 1) : (score < 1 || score > 5)) || response_ms < -1)
        return false;
    s->study_given |= 1u << index;
    s->study_score[index] = score;
    s->study_ms[index] = response_ms;
    send_study(s, WIRE_STUDY_ANSWER, index, score, response_ms);
    s->study_next_send = s->now + s->to.retry_us;
    return true;
}

void netsession_study_done(NetSession *s, int64_t now_us, int marks)
{
    (void)now_us;
    if (s->cfg.host || s->study.race == 0 || s->phase != PH_FINISHED || s->study_done)
        return;
    s->study_done = true;
    s->study_marks = marks < 0 ? 0 : marks > RECORDING_MAX_MARKS ? RECORDING_MAX_MARKS : marks;
    send_study(s, WIRE_STUDY_DONE, 0, 0, s->study_marks);
    s->study_next_send = s->now + s->to.retry_us;
}

int netsession_study_pending(const NetSession *s)
{
    int n = 0;
    for (int i = 0; i < s->study.nq; i++)
        n += (s->study_given & ~s->study_acked & (1u << i)) != 0;
    return n;
}

void netsession_study_ack(NetSession *s, int64_t now_us, int index)
{
    (void)now_us;
    if (!s->cfg.host || index < 0 || index >= s->study.nq || !(s->study_heard & (1u << index)))
        return;
    s->study_acked |= 1u << index;
    send_study(s, WIRE_STUDY_ACK, index, 0, 0);
}

void netsession_study_close(NetSession *s, int64_t now_us)
{
    (void)now_us;
    if (!s->cfg.host || s->phase != PH_FINISHED)
        return;
    s->study_closed = true;
}

const NetStudyRace *netsession_study(const NetSession *s)
{
    return s->study.race > 0 ? &s->study : NULL;
}

/* The session stays finished for the study: the host until it closes the
 * race, the joiner until the host's BYE. */
bool study_holds(const NetSession *s)
{
    if (s->study.race == 0 || s->cfg.server)
        return false;
    return s->cfg.host ? !s->study_closed : !s->peer_bye;
}

/* The joiner repeats what the host has not acknowledged: its answers, and
 * the end until the BYE. */
void study_tick(NetSession *s, int64_t l)
{
    if (s->cfg.host || s->study.race == 0 || s->phase != PH_FINISHED || l < s->study_next_send)
        return;
    bool any = false;
    for (int i = 0; i < s->study.nq; i++)
        if (s->study_given & ~s->study_acked & (1u << i)) {
            send_study(s, WIRE_STUDY_ANSWER, i, s->study_score[i], s->study_ms[i]);
            any = true;
        }
    if (s->study_done) {
        send_study(s, WIRE_STUDY_DONE, 0, 0, s->study_marks);
        any = true;
    }
    if (s->study_log_given && !s->study_log) { /* none: until the BYE */
        send_study(s, WIRE_STUDY_LOG_NONE, 0, 0, 0);
        any = true;
    } else if (s->study_log && s->study_log_acked < s->study_log_n) {
        if (s->study_log_acked == s->study_log_tick) { /* no news for a retry period: from the acknowledged again */
            s->study_log_sent = s->study_log_acked;
            send_log_window(s);
        }
        s->study_log_tick = s->study_log_acked;
        any = true;
    }
    s->study_next_send = any ? l + s->to.retry_us : INT64_MAX;
}

int64_t study_next_due(const NetSession *s)
{
    return !s->cfg.host && s->study.race > 0 && s->phase == PH_FINISHED ? s->study_next_send : INT64_MAX;
}
