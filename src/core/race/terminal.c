/* One player's side of a race: its car, clock and scheme instances, behind
 * the receive boundary (DESIGN.md "Live play"). */
#include "terminal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct Terminal Terminal;

/* What a scheme's Transport points at: its terminal, its index, and the sink
 * of the terminal_local call in progress. */
typedef struct TermTx {
    Terminal *t;
    int k;
} TermTx;

struct Terminal {
    int car, ncars, n;
    int peer[TERMINAL_MAX_CARS - 1]; /* every other terminal */
    int64_t window_us;
    SchemeParams params;
    const SchemeType *type[SCHEME_MAX];
    void *inst[SCHEME_MAX];
    TermTx txctx[SCHEME_MAX];
    Transport tx[SCHEME_MAX];
    const TerminalSink *sink; /* valid during terminal_local only */
    const TerminalFan *fan;   /* valid during terminal_local_fan only */
    int nbatch;               /* its sends not yet handed over */
    int batch_k[TERMINAL_FAN_BATCH];
    Mu batch_mu[TERMINAL_FAN_BATCH];
    bool started;             /* terminal_start ran: the instances are live */
    int64_t rejected[MU_CHECK_COUNT];
};

bool terminal_clock_parse(const char *text, TerminalClock *c)
{
    char buf[64];
    if (strlen(text) >= sizeof buf)
        return false;
    strcpy(buf, text);
    char *comma = strchr(buf, ',');
    if (comma)
        *comma = '\0';
    double off, ppm = 0.0;
    if (!nr_parse_double(buf, &off) || !(fabs(off) <= TERMINAL_CLOCK_MAX_MS) ||
        (comma && (!nr_parse_double(comma + 1, &ppm) || !(fabs(ppm) <= TERMINAL_CLOCK_MAX_PPM))))
        return false;
    /* rounded: 1.005 ms is 1004.999... us in binary, 1005 us meant */
    *c = (TerminalClock){llround(off * 1000.0), ppm};
    return true;
}

int64_t terminal_clock_local(const TerminalClock *c, int64_t t_us)
{
    if (c->drift_ppm == 0.0)
        return t_us + c->offset_us;
    return t_us + c->offset_us + (int64_t)llround((double)t_us * c->drift_ppm * 1e-6);
}

static void flush_fan(Terminal *t)
{
    if (t->nbatch > 0)
        t->fan->send_many(t->fan->ctx, t->batch_k, t->batch_mu, t->nbatch);
    t->nbatch = 0;
}

static void term_send(void *ctx, const Mu *mu)
{
    TermTx *x = ctx;
    Terminal *t = x->t;
    if (t->fan) { /* kept: the whole instant's sends leave together */
        if (t->nbatch == TERMINAL_FAN_BATCH)
            flush_fan(t);
        t->batch_k[t->nbatch] = x->k;
        t->batch_mu[t->nbatch++] = *mu;
        return;
    }
    for (int i = 0; i < t->ncars - 1; i++)
        t->sink->send(t->sink->ctx, x->k, t->peer[i], mu);
}

Terminal *terminal_new(const TerminalConfig *cfg, NrError *err)
{
    if (cfg->ncars < 2 || cfg->ncars > TERMINAL_MAX_CARS) {
        nr_error_set(err, "terminal: %d cars (expected 2 to %d)", cfg->ncars, TERMINAL_MAX_CARS);
        return NULL;
    }
    if (cfg->car < 0 || cfg->car >= cfg->ncars) {
        nr_error_set(err, "terminal: car %d outside 0 to %d", cfg->car, cfg->ncars - 1);
        return NULL;
    }
    if (cfg->nschemes < 1 || cfg->nschemes > SCHEME_MAX || !cfg->schemes) {
        nr_error_set(err, "terminal: between 1 and %d schemes", SCHEME_MAX);
        return NULL;
    }
    Terminal *t = calloc(1, sizeof *t);
    if (!t) {
        nr_error_set(err, "terminal: out of memory");
        return NULL;
    }
    t->car = cfg->car;
    t->ncars = cfg->ncars;
    for (int c = 0, i = 0; c < t->ncars; c++)
        if (c != t->car)
            t->peer[i++] = c;
    t->n = cfg->nschemes;
    t->params = cfg->params;
    t->window_us = cfg->rx_window_us > 0 ? cfg->rx_window_us : MU_WINDOW_DEFAULT_US;
    for (int k = 0; k < t->n; k++) {
        t->type[k] = cfg->schemes[k];
        t->inst[k] = calloc(1, scheme_state_size(t->type[k], t->ncars));
        if (!t->inst[k]) {
            terminal_free(t);
            nr_error_set(err, "terminal: out of memory");
            return NULL;
        }
        t->txctx[k] = (TermTx){t, k};
        t->tx[k] = (Transport){&t->txctx[k], term_send};
    }
    /* The instances stay zeroed bytes until terminal_start (init wants
     * zeroed state: the first start need not clear them again). */
    return t;
}

void terminal_free(Terminal *t)
{
    if (!t)
        return;
    for (int k = 0; k < t->n; k++)
        free(t->inst[k]);
    free(t);
}

void terminal_start(Terminal *t, const Mu *grid, int64_t local_us)
{
    Mu g[TERMINAL_MAX_CARS];
    for (int c = 0; c < t->ncars; c++) {
        g[c] = grid[c];
        g[c].gen_us = local_us;
    }
    for (int k = 0; k < t->n; k++) {
        if (t->started)
            memset(t->inst[k], 0, scheme_state_size(t->type[k], t->ncars));
        t->type[k]->init(t->inst[k], &t->params, t->car, t->ncars, g);
    }
    t->started = true;
}

/* Every scheme's sender half, in scheme order. */
static void run_local(Terminal *t, const Mu *mu, int64_t local_us)
{
    for (int k = 0; k < t->n; k++)
        t->type[k]->on_local(t->inst[k], mu, local_us, &t->tx[k]);
}

void terminal_local(Terminal *t, const Mu *mu, int64_t local_us, const TerminalSink *sink)
{
    if (!t->started)
        return;
    t->sink = sink;
    run_local(t, mu, local_us);
    t->sink = NULL;
}

void terminal_local_fan(Terminal *t, const Mu *mu, int64_t local_us, const TerminalFan *fan)
{
    if (!t->started)
        return;
    t->fan = fan;
    t->nbatch = 0;
    run_local(t, mu, local_us);
    flush_fan(t);
    t->fan = NULL;
}

RxResult terminal_receive(Terminal *t, int k, const Mu *mu, int64_t local_us)
{
    MuCheck c = mu_validate(mu, t->ncars, t->car, local_us, t->window_us);
    if (c != MU_OK) {
        t->rejected[c]++;
        return RX_REJECTED;
    }
    if (!t->started)
        return RX_DISCARDED;
    return t->type[k]->on_receive(t->inst[k], mu, local_us);
}

void terminal_receive_many(Terminal *t, const int *k, int n, const Mu *mu, bool fields_ok, int64_t local_us,
                           RxResult *out)
{
    MuCheck c = mu_validate_known(mu, fields_ok, t->ncars, t->car, local_us, t->window_us);
    for (int i = 0; i < n; i++) {
        if (c != MU_OK) {
            t->rejected[c]++;
            out[i] = RX_REJECTED;
        } else {
            out[i] = t->started ? t->type[k[i]]->on_receive(t->inst[k[i]], mu, local_us) : RX_DISCARDED;
        }
    }
}

int64_t terminal_rejected(const Terminal *t, MuCheck check)
{
    if (check != MU_OK)
        return check > 0 && check < MU_CHECK_COUNT ? t->rejected[check] : 0;
    int64_t sum = 0;
    for (int c = 1; c < MU_CHECK_COUNT; c++)
        sum += t->rejected[c];
    return sum;
}

void terminal_reset_counters(Terminal *t)
{
    memset(t->rejected, 0, sizeof t->rejected);
}

void terminal_display(const Terminal *t, int k, int car, int64_t local_us, Pose *out)
{
    if (!t->started) {
        *out = (Pose){0.0, 0.0, 0.0, -1};
        return;
    }
    t->type[k]->display(t->inst[k], car, local_us, out);
}

void terminal_display_all(const Terminal *t, int k, int64_t local_us, Pose *out)
{
    const SchemeType *type = t->type[k];
    if (t->started && type->display_all) {
        type->display_all(t->inst[k], t->ncars, local_us, out);
        return;
    }
    for (int c = 0; c < t->ncars; c++)
        terminal_display(t, k, c, local_us, &out[c]);
}

int64_t terminal_output_time(const Terminal *t, int k, const Mu *mu, int64_t local_us)
{
    if (!t->started || !t->type[k]->output_time)
        return local_us;
    return t->type[k]->output_time(t->inst[k], mu, local_us);
}

void terminal_set_params(Terminal *t, const SchemeParams *p)
{
    t->params = *p;
    for (int k = 0; k < t->n; k++)
        t->type[k]->set_params(t->inst[k], p);
}

int terminal_car(const Terminal *t)
{
    return t->car;
}

int terminal_scheme_count(const Terminal *t)
{
    return t->n;
}

const SchemeType *terminal_scheme(const Terminal *t, int k)
{
    return t->type[k];
}
