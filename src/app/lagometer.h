/* The lagometer (issue 22): a strip of the last seconds of the MUs bound to
 * one terminal under one scheme, drawn into one rectangle from the engine's
 * ring (lagring.h): each MU a column at its generation instant, as tall as
 * its one-way delay, coloured by its fate (on time; held, the time held
 * stacked on the delay up to its output time; late but used; discarded;
 * lost: a full-height column), a band along the top where the terminal
 * showed another car at a predicted position (DR extrapolating), Delta as
 * a grey line, the marks as vertical lines, and in network play the round trip
 * of the clock synchronisation as a curve with the clock offset in text.
 * The vertical scale is the smallest of 100, 200, 300, 500 ms, 1, 2, 3, 5,
 * 10 s ... that holds every column and Delta. With room for text (three
 * lines), a title, the scale and a legend of the fates' shares in the
 * strip (refreshed 4 times a second of race time); without, only the
 * picture (the overview's thumbnails). It reads only what it is given.
 *
 * Contracts:
 *   lagometer_draw(g, in, r)   draws the strip into r (nothing when r is
 *        smaller than 8 x 6 px); in->ring NULL: the panel says the MUs are
 *        not known here (a peer's screen in network play).
 *   lagometer_scale(in)        the strip's own scale (us), as described above.
 *   lagometer_screen_rect(screen, base)  where a driving screen (play,
 *        host / join) shows it: bottom left, beside the minimap; on a
 *        short screen (lagometer_screen_compact) a compact strip of 3.4
 *        lines, so the own car and the cars just behind it keep room.
 *   lagometer_screen_compact(screen, base)  a short screen: the full strip
 *        would leave less than 22 lines of base px above it (the 2 x 2
 *        cells of 3-4 players; at 1024x768 it left 211 of a cell's 384 px);
 *        the caller sets in->compact: the title kept, the legend dropped.
 *   lagometer_view_rect(view, base, focused)  where the overview shows it
 *        in one terminal's screen: along the bottom (a third of a
 *        thumbnail; 30 % of a focused screen, above its lap caption).
 *   lagnet_add(h, t_us, rtt_us, offset_us, bound_us)  one clock estimate
 *        at race time t_us into the network history (one per sample
 *        period at most: a later one of the same period replaces it; the
 *        older half dropped when full: constant memory).
 *   lagometer_legend(i)        the help's lines about the strip (NULL past
 *        the last).
 */
#ifndef NR_LAGOMETER_H
#define NR_LAGOMETER_H

#include "gfx.h"
#include "lagring.h"
#include "recording.h"

#define LAG_SPAN_US (5 * NR_US_PER_S) /* what the strip shows */
#define LAG_NET_SAMPLES 512           /* clock estimates kept (~17 s at one per sample) */

/* Network play: the session's clock estimates over time. */
typedef struct LagNetHist {
    int n;
    int64_t t_us[LAG_NET_SAMPLES];   /* race time, oldest first */
    int64_t rtt_us[LAG_NET_SAMPLES]; /* the chosen exchange's round trip then */
    int64_t offset_us, bound_us;     /* the latest offset (this clock minus the host's) and its bound */
    bool have;                       /* an exchange has been made */
} LagNetHist;

typedef struct LagometerIn {
    const LagRing *ring;   /* NULL: not known here */
    int own;               /* the terminal's car (its own bit of a predicted mask is ignored) */
    int64_t now_us;        /* race time at the right edge */
    int64_t period_us;     /* sampling period: a column's width */
    int64_t limit_us;      /* Delta of a scheme that holds MUs, drawn as a line; 0 none */
    const RecMark *marks;  /* in time order */
    int nmarks;
    int64_t mark_origin_us; /* race time of a mark's t_ms 0 (a replay's heat start) */
    const LagNetHist *net; /* network play; NULL otherwise */
    const char *title;     /* "P1 · Causality"; NULL none */
    int64_t scale_us;      /* the delay scale; 0: lagometer_scale's (strips side by side share one) */
    bool compact;          /* a compact strip: the title without the legend from 3 lines of height */
} LagometerIn;

void lagometer_draw(Gfx *g, const LagometerIn *in, SDL_FRect r);
int64_t lagometer_scale(const LagometerIn *in);
SDL_FRect lagometer_screen_rect(const SDL_FRect *screen, int base);
bool lagometer_screen_compact(const SDL_FRect *screen, int base);
SDL_FRect lagometer_view_rect(const SDL_FRect *view, int base, bool focused);
void lagnet_add(LagNetHist *h, int64_t t_us, int64_t rtt_us, int64_t offset_us, int64_t bound_us);
const char *lagometer_legend(int i);

#endif
