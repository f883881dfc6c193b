/* The lagometer's data (issue 22): what became of the MUs bound to one
 * terminal under one scheme, and the samples at which that terminal showed
 * another car at a predicted position rather than a received one. A ring of
 * fixed size: nothing is allocated per event, old events are overwritten.
 * The engine keeps one per local terminal per scheme when asked
 * (EngineConfig.lagometer) and fills it from the one receive path
 * (engine_step.c: terminal_receive's result is the scheme's own decision)
 * and from the medium's fate at sending (a lost MU); engine_lag reads it.
 *
 * An MU's fate (LagFate), as the receiving scheme decided it:
 *   LAG_ON_TIME    used on arrival (nc, DR: shown or predicted from at once);
 *   LAG_HELD       taken before its output time and held until it
 *                  (causality: generation + Delta; hold_us says how long);
 *   LAG_LATE_USED  arrived after its output time and used anyway (DR +
 *                  causality at the next output, local lag on arrival);
 *   LAG_DISCARDED  arrived after its output time and discarded (causality);
 *   LAG_LOST       never arrived: the emulated medium lost it (or dropped it
 *                  from a full queue) when it was sent, or, over a real
 *                  network, a later sample of a scheme that sends every
 *                  sample (SchemeType.every_sample) arrived first (an MU that
 *                  turns up after all replaces its LOST event);
 *   LAG_REJECTED   refused by the receive boundary (mu.h).
 *
 * Times are race time in microseconds (the engine's global clock): sent_us
 * is the MU's generation instant, as the terminal sees it (arrival minus the
 * one-way delay it observed on its own clock: exact with synchronised
 * clocks, off by the clock error otherwise, which the schemes see too).
 *
 * Contracts:
 *   lagring_init(r, ev, cap)   r uses ev[cap] (cap a power of two >= 2,
 *        borrowed) and starts empty.
 *   lagring_clear(r)           empty (a new heat): events, shown samples and
 *        the newest sequence numbers.
 *   lagring_arrival(r, mu, t_us, delay_us, hold_us, res, gap_period_us)
 *        mu arrived at race time t_us after delay_us (observed) and the
 *        scheme said res; hold_us = output - arrival for RX_USED (<= 0:
 *        on time). gap_period_us > 0 infers losses from sequence gaps of
 *        update MUs (every_sample schemes over a real network): every seq
 *        between the newest one of that car and mu's becomes LAG_LOST at
 *        its sample instant (sent_us - gap * period), at most LAG_GAP_MAX
 *        of one gap; an MU older than the newest replaces its own LAG_LOST
 *        event if one is still held.
 *   lagring_lost(r, mu, sent_us)  mu, sent at sent_us, will never arrive.
 *   lagring_shown(r, t_us, predicted)  at the sample of t_us the terminal
 *        showed car c predicted (bit c of predicted): DR extrapolation.
 *   lagring_count(r) / lagring_at(r, i)  the events held, i = 0 the oldest
 *        written (events are in the order they were written, not by
 *        sent_us: a loss is known after later arrivals).
 *   lagring_shown_count(r) / lagring_shown_at(r, i, &t_us)  the samples
 *        held, oldest first; returns the predicted mask.
 *   lagring_tally(r, from_us, to_us, out)  out[f] = events of fate f with
 *        sent_us in [from_us, to_us).
 *   lagring_fate_name(f)       "on time", "held", "late used", "discarded",
 *        "lost", "rejected".
 */
#ifndef NR_LAGRING_H
#define NR_LAGRING_H

#include "scheme.h"

#define LAG_SHOWN 256            /* samples of the predicted masks (~8.4 s at 33 ms) */
#define LAG_EVENTS_PER_SENDER 512 /* events per other car (~8.4 s of updates and parity) */
#define LAG_GAP_MAX 64           /* losses inferred from one gap at most */

typedef enum LagFate {
    LAG_ON_TIME = 0,
    LAG_HELD,
    LAG_LATE_USED,
    LAG_DISCARDED,
    LAG_LOST,
    LAG_REJECTED,
    LAG_FATES
} LagFate;

typedef struct LagEvent {
    int64_t sent_us;  /* generation instant, race time */
    int32_t delay_us; /* one-way delay observed (0 for a lost MU) */
    int32_t hold_us;  /* LAG_HELD: output - arrival; else 0 */
    int32_t seq;      /* the MU's sample */
    int8_t car;       /* the sending car, 0-based */
    int8_t fate;      /* LagFate */
    int8_t kind;      /* MuKind */
} LagEvent;

typedef struct LagRing {
    LagEvent *ev; /* cap entries, borrowed */
    int cap;
    int64_t written;
    int64_t shown_t[LAG_SHOWN];
    uint8_t shown_mask[LAG_SHOWN];
    int64_t shown_written;
    int32_t newest[SCHEME_MAX_CARS]; /* newest update seq received per car, -1 */
} LagRing;

void lagring_init(LagRing *r, LagEvent *ev, int cap);
void lagring_clear(LagRing *r);
void lagring_arrival(LagRing *r, const Mu *mu, int64_t t_us, int64_t delay_us, int64_t hold_us, RxResult res,
                     int64_t gap_period_us);
void lagring_lost(LagRing *r, const Mu *mu, int64_t sent_us);
void lagring_shown(LagRing *r, int64_t t_us, unsigned predicted);
int lagring_count(const LagRing *r);
const LagEvent *lagring_at(const LagRing *r, int i);
int lagring_shown_count(const LagRing *r);
unsigned lagring_shown_at(const LagRing *r, int i, int64_t *t_us);
void lagring_tally(const LagRing *r, int64_t from_us, int64_t to_us, int64_t out[LAG_FATES]);
const char *lagring_fate_name(int fate);

#endif
