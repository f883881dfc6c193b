/* The lagometer's ring of MU fates and predicted samples (lagring.h). */
#include "lagring.h"

#include <string.h>

void lagring_init(LagRing *r, LagEvent *ev, int cap)
{
    memset(r, 0, sizeof *r);
    r->ev = ev;
    r->cap = cap;
    lagring_clear(r);
}

void lagring_clear(LagRing *r)
{
    r->written = 0;
    r->shown_written = 0;
    for (int c = 0; c < SCHEME_MAX_CARS; c++)
        r->newest[c] = -1;
}

static void put(LagRing *r, const LagEvent *e)
{
    r->ev[r->written & (r->cap - 1)] = *e;
    r->written++;
}

static int32_t clamp32(int64_t v)
{
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

static LagFate fate_of(RxResult res, int64_t hold_us)
{
    switch (res) {
    case RX_USED: return hold_us > 0 ? LAG_HELD : LAG_ON_TIME;
    case RX_LATE_USED: return LAG_LATE_USED;
    case RX_DISCARDED: return LAG_DISCARDED;
    case RX_REJECTED: break;
    }
    return LAG_REJECTED;
}

/* The LOST event of (car, seq) still held, newest first; NULL if none. */
static LagEvent *find_lost(LagRing *r, int car, int32_t seq)
{
    int n = lagring_count(r);
    for (int i = 1; i <= n; i++) {
        LagEvent *e = &r->ev[(r->written - i) & (r->cap - 1)];
        if (e->fate == LAG_LOST && e->car == car && e->seq == seq)
            return e;
    }
    return NULL;
}

/* Sequence gaps of a car whose scheme sends every sample: the samples
 * skipped were lost (or are late: find_lost gives them back). */
static bool note_gap(LagRing *r, const LagEvent *e, int64_t period_us)
{
    int32_t *newest = &r->newest[e->car];
    if (e->seq <= *newest) {
        LagEvent *lost = find_lost(r, e->car, e->seq);
        if (lost)
            *lost = *e; /* reordered, not lost */
        return lost != NULL;
    }
    int32_t from = *newest + 1;
    if (e->seq - from > LAG_GAP_MAX)
        from = e->seq - LAG_GAP_MAX;
    for (int32_t q = from; q < e->seq; q++)
        put(r, &(LagEvent){.sent_us = e->sent_us - (int64_t)(e->seq - q) * period_us, .seq = q, .car = e->car,
                           .fate = LAG_LOST, .kind = MU_UPDATE});
    *newest = e->seq;
    return false;
}

void lagring_arrival(LagRing *r, const Mu *mu, int64_t t_us, int64_t delay_us, int64_t hold_us, RxResult res,
                     int64_t gap_period_us)
{
    LagFate f = fate_of(res, hold_us);
    LagEvent e = {.sent_us = t_us - delay_us, .delay_us = clamp32(delay_us),
                  .hold_us = f == LAG_HELD ? clamp32(hold_us) : 0, .seq = mu->seq, .car = (int8_t)mu->car,
                  .fate = (int8_t)f, .kind = (int8_t)mu->kind};
    /* a rejected MU's car or seq may be anything: no gap bookkeeping */
    bool gaps = gap_period_us > 0 && mu->kind == MU_UPDATE && f != LAG_REJECTED;
    if (gaps && note_gap(r, &e, gap_period_us))
        return;
    put(r, &e);
}

void lagring_lost(LagRing *r, const Mu *mu, int64_t sent_us)
{
    put(r, &(LagEvent){.sent_us = sent_us, .seq = mu->seq, .car = (int8_t)mu->car, .fate = LAG_LOST,
                       .kind = (int8_t)mu->kind});
}

void lagring_shown(LagRing *r, int64_t t_us, unsigned predicted)
{
    int i = (int)(r->shown_written % LAG_SHOWN);
    r->shown_t[i] = t_us;
    r->shown_mask[i] = (uint8_t)predicted;
    r->shown_written++;
}

int lagring_count(const LagRing *r)
{
    return r->written < r->cap ? (int)r->written : r->cap;
}

const LagEvent *lagring_at(const LagRing *r, int i)
{
    return &r->ev[(r->written - lagring_count(r) + i) & (r->cap - 1)];
}

int lagring_shown_count(const LagRing *r)
{
    return r->shown_written < LAG_SHOWN ? (int)r->shown_written : LAG_SHOWN;
}

unsigned lagring_shown_at(const LagRing *r, int i, int64_t *t_us)
{
    int slot = (int)((r->shown_written - lagring_shown_count(r) + i) % LAG_SHOWN);
    *t_us = r->shown_t[slot];
    return r->shown_mask[slot];
}

void lagring_tally(const LagRing *r, int64_t from_us, int64_t to_us, int64_t out[LAG_FATES])
{
    memset(out, 0, sizeof(int64_t) * LAG_FATES);
    int n = lagring_count(r);
    for (int i = 0; i < n; i++) {
        const LagEvent *e = lagring_at(r, i);
        if (e->sent_us >= from_us && e->sent_us < to_us && e->fate >= 0 && e->fate < LAG_FATES)
            out[e->fate]++;
    }
}

const char *lagring_fate_name(int fate)
{
    static const char *const names[LAG_FATES] = {"on time", "held", "late used", "discarded", "lost", "rejected"};
    return fate >= 0 && fate < LAG_FATES ? names[fate] : "unknown";
}
