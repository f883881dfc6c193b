/* The study fields of the wire (wire.h, docs/wire.md "STUDY"): WELCOME's
 * study fields' check and the STUDY packet's encoder and decoder. */
#include "recording.h"
#include "wire.h"
#include "wire_cursor.h"

/* WELCOME's study fields: all zero outside a study; in one, the race
 * within the session, practice or rated (a rated race has its questions),
 * blind or not. */
bool wire_welcome_study_ok(const WireWelcome *w)
{
    if (w->study_race == 0)
        return w->study_races == 0 && w->study_flags == 0 && w->study_nq == 0 && w->study_given == 0;
    bool practice = w->study_flags & WIRE_STUDY_PRACTICE, rated = w->study_flags & WIRE_STUDY_RATED;
    bool rate_only = w->study_flags & WIRE_STUDY_RATE_ONLY;
    bool log = w->study_flags & WIRE_STUDY_LOG; /* a practice race comes again for its log alone */
    return w->study_race >= 1 && w->study_race <= w->study_races && w->study_races <= WIRE_STUDY_RACES &&
           (w->study_flags & ~63u) == 0 && practice != rated && (rated ? w->study_nq >= 1 : w->study_nq == 0) &&
           w->study_nq <= WIRE_STUDY_QUESTIONS && (!rate_only || rated || log) && (w->study_given >> w->study_nq) == 0;
}

bool wire_study_encode(Cur *c, const WirePacket *p)
{
    const WireStudy *s = &p->u.study;
    if (strnlen(s->id, WIRE_STUDY_ID) >= WIRE_STUDY_ID || strnlen(s->text, WIRE_STUDY_TEXT) >= WIRE_STUDY_TEXT)
        return false;
    put(c, s->op, 1);
    put(c, s->index, 1);
    put(c, s->qkind, 1);
    put(c, (uint8_t)s->score, 1);
    put(c, (uint32_t)s->race, 4);
    put(c, (uint64_t)s->value, 8);
    put_text(c, s->id, WIRE_STUDY_ID);
    put_text(c, s->text, WIRE_STUDY_TEXT);
    return true;
}

/* STUDY: each op its own fields, every other one zero; a question's id
 * and text printable and not empty, an answer's score and response time
 * in range, a race within a session. */
WireResult wire_study_decode(Cur *c, const WireCheck *chk, WirePacket *out)
{
    (void)chk;
    WireStudy *s = &out->u.study;
    s->op = (uint8_t)get(c, 1);
    s->index = (uint8_t)get(c, 1);
    s->qkind = (uint8_t)get(c, 1);
    s->score = (int8_t)get(c, 1);
    s->race = (int32_t)get(c, 4);
    s->value = (int64_t)get(c, 8);
    if (!get_text(c, s->id, WIRE_STUDY_ID) || !get_text(c, s->text, WIRE_STUDY_TEXT))
        return WIRE_BAD_FIELD;
    bool ok = s->race >= 1 && s->race <= WIRE_STUDY_RACES && s->index < WIRE_STUDY_QUESTIONS;
    bool texts = s->id[0] != '\0' && s->text[0] != '\0', none = s->id[0] == '\0' && s->text[0] == '\0';
    switch (s->op) {
    case WIRE_STUDY_QUESTION:
        return ok && texts && s->qkind <= 1 && s->score == 0 && s->value == 0 ? WIRE_OK : WIRE_BAD_FIELD;
    case WIRE_STUDY_ANSWER:
        ok &= s->score >= 0 && s->score <= 5 && s->value >= -1 && s->value <= 24 * 3600 * INT64_C(1000);
        return ok && none && s->qkind == 0 ? WIRE_OK : WIRE_BAD_FIELD;
    case WIRE_STUDY_ACK:
        return ok && none && s->qkind == 0 && s->score == 0 && s->value == 0 ? WIRE_OK : WIRE_BAD_FIELD;
    case WIRE_STUDY_DONE:
        ok &= s->index == 0 && s->value >= 0 && s->value <= RECORDING_MAX_MARKS;
        return ok && none && s->qkind == 0 && s->score == 0 ? WIRE_OK : WIRE_BAD_FIELD;
    case WIRE_STUDY_LOG_ACK: /* at most a log's size (TRACK's limit: LOG has its layout) */
    case WIRE_STUDY_LOG_NONE:
        ok &= s->index == 0 && s->value >= 0 && s->value <= (s->op == WIRE_STUDY_LOG_ACK ? WIRE_LOG_MAX_BYTES : 0);
        return ok && none && s->qkind == 0 && s->score == 0 ? WIRE_OK : WIRE_BAD_FIELD;
    default:
        return WIRE_BAD_FIELD;
    }
}
