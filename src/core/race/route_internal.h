/* Shared by route.c (the queue and its traffic) and route_setup.c (setup,
 * reset, live line changes); not a public header. */
#ifndef NR_ROUTE_INTERNAL_H
#define NR_ROUTE_INTERNAL_H

#include "route.h"

/* Nothing queued; every line's and sender's newest record forgotten (the
 * lines' own state is the caller's). */
void route_forget_queue(RouteMedium *r);

#endif
