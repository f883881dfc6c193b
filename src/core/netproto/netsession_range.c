/* The session's ranges: every time and sequence number of a received packet
 * checked against this end's own clocks before any arithmetic uses it
 * (docs/wire.md "Ranges"); a packet out of range is refused and counted as
 * `range`. wire_decode has already checked what a packet means alone; here
 * it must also fit this race now: an MU or VIEW no further ahead of this
 * end's race time than the peer can be, a sample's instant tied to its
 * sequence number, a START, RESUME or clock answer where this end's clock
 * puts it. */
#include "netsession_internal.h"

/* v in [ref - below, ref + above], decided without forming v - ref (v is
 * the peer's, anywhere in int64). */
static bool near(int64_t v, int64_t ref, int64_t below, int64_t above)
{
    if (v >= ref)
        return (uint64_t)v - (uint64_t)ref <= (uint64_t)above;
    return (uint64_t)ref - (uint64_t)v <= (uint64_t)below;
}

/* How far ahead of this end the peer's race time can be (us): it runs on
 * until it hears this end silent (pause_us) after a stall (stall_us), and a
 * resume puts both a start lead ahead. */
int64_t range_ahead_us(const NetSession *s)
{
    return s->to.pause_us + s->to.stall_us + s->to.start_lead_us;
}

/* This end's race time for the checks: 0 before the start is known. */
static int64_t here(const NetSession *s, int64_t l)
{
    return s->have_start ? race_at(s, l) : 0;
}

/* A race time the peer reports (a sample's instant, a pause point, its
 * finish): not negative, not beyond what the peer can have reached. */
static bool race_time_ok(const NetSession *s, int64_t t, int64_t l)
{
    return t >= 0 && t <= here(s, l) + range_ahead_us(s);
}

/* An MU: its sample's instant where the peer can be, its stamp that
 * instant plus the peer's one clock skew (0, or its --raw-clock offset,
 * within RANGE_SKEW_US; the same for every MU of the race). */
static bool mu_ok(NetSession *s, const Mu *mu, int64_t l)
{
    int64_t at = (int64_t)mu->seq * WORLD_SAMPLE_US; /* seq >= 0: mu_validate */
    if (!race_time_ok(s, at, l) || !near(mu->gen_us, at, RANGE_SKEW_US, RANGE_SKEW_US))
        return false;
    int64_t skew = mu->gen_us - at; /* mu->car in range: wire_decode */
    if (s->have_skew[mu->car])
        return skew == s->skew[mu->car];
    s->skew[mu->car] = skew;
    s->have_skew[mu->car] = true;
    return true;
}

/* A clock answer: to a probe this end sent (its id recent, t1 the very
 * stamp), a round trip not negative and within give_up_us, the peer's
 * stamps within RANGE_CLOCK_US of this end's so that the estimator's sums
 * cannot overflow. */
static bool sync_ok(const NetSession *s, const WireSync *y, int64_t l)
{
    if (y->id == 0 || y->id > s->probe_id || s->probe_id - y->id >= PROBES_KEEP)
        return false;
    if (s->probe_t1[y->id % PROBES_KEEP] != y->t1_us || l < y->t1_us || l - y->t1_us > s->to.give_up_us)
        return false;
    return near(y->t2_us, y->t1_us, RANGE_CLOCK_US, RANGE_CLOCK_US) && y->t3_us - y->t2_us <= l - y->t1_us;
}

static bool control_ok(const NetSession *s, const WireControl *c, int64_t l)
{
    int64_t lead = s->to.start_lead_us, ahead = range_ahead_us(s);
    switch (c->code) {
    case WIRE_START: /* the lights' synchronised instant: about a lead from now */
        return near(c->arg_us, sync_at(s, l), s->to.give_up_us, lead + ahead);
    case WIRE_RESUME: /* race time here comes at arg + here: about a lead from now */
        return near(c->arg_us, sync_at(s, l) - here(s, l), lead + ahead, lead + ahead);
    case WIRE_PAUSE:
    case WIRE_FINISH:
        return race_time_ok(s, c->arg_us, l);
    case WIRE_FULL: /* a server's seats */
        return c->arg_us >= 1 && c->arg_us <= WIRE_MAX_CARS;
    default: /* READY and BYE carry nothing */
        return true;
    }
}

bool range_ok(NetSession *s, const WirePacket *p, int64_t l)
{
    switch (p->kind) {
    case WIRE_MU:
        return mu_ok(s, &p->u.mu.mu, l);
    case WIRE_VIEW:
        return p->u.view.t_us == (int64_t)p->u.view.seq * WORLD_SAMPLE_US && race_time_ok(s, p->u.view.t_us, l);
    case WIRE_SYNC_RESP:
        return sync_ok(s, &p->u.sync, l);
    case WIRE_CONTROL:
        return control_ok(s, &p->u.control, l);
    default:
        return true;
    }
}
