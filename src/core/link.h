/* Network delay emulator: one direction of a link, with Linux netem's spec
 * grammar and arithmetic (delay, jitter, correlation, distribution tables,
 * random and Gilbert-Elliott loss, duplication, reordering) plus a shifted
 * gamma delay for the EPP experiments.
 *
 * Spec grammar (netem's, see README "Link specs"):
 *   delay TIME [JITTER [CORR%]] [distribution NAME|PATH]
 *   [gamma SHAPE SCALE]            delay = TIME + Gamma(SHAPE, SCALE)
 *   [loss [random] P% [CORR%] | loss gemodel P [R [1-H [1-K]]]]
 *   [duplicate P% [CORR%]] [order fifo]
 *   TIME: number with unit us|ms|s. An empty spec means no delay, no loss.
 *
 * Common random numbers: a Link draws the fate of packet slots in order with
 * link_draw(); the engine draws once per MU slot and shares the draw with
 * every scheme, so schemes differ only by their own decisions.
 *
 * Contracts:
 *   linkspec_parse(out, text, table_dir, err)  parse; table_dir NULL searches
 *        the system's iproute2 tables, then a built-in fallback. False + err
 *        naming the offending token and what was expected.
 *   linkspec_copy(dst, src)   deep copy (tables are owned by each spec).
 *   linkspec_free(s)          NULL-safe.
 *   linkspec_mean_ms(s)       expected one-way delay of a delivered packet.
 *   link_init(l, spec, seed, stream)  copies spec; deterministic per seed/stream.
 *   link_set_spec(l, spec)    live change; the random streams continue.
 *   link_draw(l, out)         fate of the next packet slot.
 *   link_free(l)
 */
#ifndef NR_LINK_H
#define NR_LINK_H

#include "nr_common.h"
#include "rng.h"

#define LINK_TEXT_MAX 256

typedef struct DistTable {
    char name[64];
    int n;
    int16_t *v; /* owned */
} DistTable;

typedef enum LinkLoss { LINK_LOSS_NONE, LINK_LOSS_RANDOM, LINK_LOSS_GEMODEL } LinkLoss;

typedef struct LinkSpec {
    int64_t delay_us;
    int64_t jitter_us;
    double delay_corr;   /* 0..1 */
    DistTable table;     /* n == 0: uniform jitter */
    bool gamma;
    double gamma_shape;
    double gamma_scale_us;
    LinkLoss loss_kind;
    double loss_p, loss_corr;          /* random loss: 0..1 */
    double ge_p, ge_r, ge_h, ge_k;     /* gemodel: p, r, 1-h, 1-k as netem */
    double dup_p, dup_corr;
    bool fifo;
    char text[LINK_TEXT_MAX]; /* canonical text of the spec */
} LinkSpec;

typedef struct LinkDraw {
    bool lost;
    int64_t delay_us;     /* may be negative: send now */
    bool dup;
    int64_t dup_delay_us;
} LinkDraw;

typedef struct LinkCorr {
    double last;
    double rho;
} LinkCorr;

typedef struct Link {
    LinkSpec spec;
    Rng rng;
    LinkCorr delay_c, loss_c, dup_c;
    int ge_state; /* 0 good, 1 bad */
    double last_delay_sample; /* correlation state for tabledist */
} Link;

bool linkspec_parse(LinkSpec *out, const char *text, const char *table_dir, NrError *err);
bool linkspec_copy(LinkSpec *dst, const LinkSpec *src);
void linkspec_free(LinkSpec *s);
double linkspec_mean_ms(const LinkSpec *s);

void link_init(Link *l, const LinkSpec *spec, uint64_t seed, uint64_t stream);
void link_set_spec(Link *l, const LinkSpec *spec);
void link_draw(Link *l, LinkDraw *out);
void link_free(Link *l);

#endif
