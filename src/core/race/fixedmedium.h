/* FixedMedium: a medium (medium.h) that delivers every MU exactly delay_us
 * after it was sent, in sending order, never losing one: the simplest
 * carrier, beside the DelayLine, and what tests use to check that the engine
 * and the terminals depend on the Medium interface only.
 *
 * Contracts:
 *   fixedmedium_init(f, delay_us, cap, err)  a FIFO of cap MUs (allocated
 *        here only); delay_us >= 0. False + err on bad arguments or out of
 *        memory (f is then safe to free).
 *   fixedmedium_free(f)     NULL-safe.
 *   fixedmedium_medium(f)   the Medium value (ctx = f, borrowed).
 *   A send into a full FIFO returns MEDIUM_OVERFLOW and queues nothing.
 */
#ifndef NR_FIXEDMEDIUM_H
#define NR_FIXEDMEDIUM_H

#include "medium.h"

typedef struct FixedMedium {
    int64_t delay_us;
    MediumDelivery *v; /* ring */
    int head, n, cap;
} FixedMedium;

bool fixedmedium_init(FixedMedium *f, int64_t delay_us, int cap, NrError *err);
void fixedmedium_free(FixedMedium *f);
Medium fixedmedium_medium(FixedMedium *f);

#endif
