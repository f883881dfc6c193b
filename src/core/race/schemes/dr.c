/* First-order dead reckoning with global-clock timestamps (racing paper
 * Section 3; accuracy paper's time-stamped DR). The sender transmits when its
 * own prediction error exceeds T_dr; the receiver extrapolates the last MU by
 * the velocity of the last two received MUs over the time since the MU's
 * timestamp. Convergence at once, or linear over converge_us when set. The
 * own car is displayed at its real position. */
#include "scheme_util.h"

typedef struct Dr {
    int own;
    DrSender snd;
    MuKept own_now;
    int64_t converge_us;
    DrPred rx[SCHEME_MAX_CARS];            /* by car; [own] unused */
    int64_t conv_start_us[SCHEME_MAX_CARS]; /* receiver clock */
    double conv_dx[SCHEME_MAX_CARS], conv_dy[SCHEME_MAX_CARS];
} Dr;

static void dr_init(void *self, const SchemeParams *p, int own_car, int ncars, const Mu *grid)
{
    Dr *s = self;
    s->own = own_car;
    drsender_init(&s->snd, &grid[own_car], p->tdr_cw);
    s->own_now = mu_kept(&grid[own_car]);
    for (int c = 0; c < ncars; c++)
        if (c != own_car)
            drpred_reset(&s->rx[c], &grid[c]);
    s->converge_us = p->converge_us;
}

static void dr_set_params(void *self, const SchemeParams *p)
{
    Dr *s = self;
    s->snd.tdr_cw = p->tdr_cw;
    s->converge_us = p->converge_us;
}

static void dr_on_local(void *self, const Mu *mu, int64_t now_us, Transport *tx)
{
    (void)now_us;
    Dr *s = self;
    Mu out;
    s->own_now = mu_kept(mu);
    if (drsender_sample(&s->snd, mu, &out))
        transport_send(tx, &out);
}

/* Remaining convergence offset of car c at t: the jump a new MU caused,
 * fading out. */
static void dr_offset(const Dr *s, int c, int64_t t_us, double *dx, double *dy)
{
    *dx = *dy = 0.0;
    if (s->converge_us <= 0 || t_us >= s->conv_start_us[c] + s->converge_us)
        return;
    double f = 1.0 - (double)(t_us - s->conv_start_us[c]) / (double)s->converge_us;
    if (f > 1.0)
        f = 1.0;
    *dx = s->conv_dx[c] * f;
    *dy = s->conv_dy[c] * f;
}

static RxResult dr_on_receive(void *self, const Mu *mu, int64_t now_us)
{
    Dr *s = self;
    int c = mu->car;
    double ox, oy, odx, ody, nx, ny;
    drpred_at(&s->rx[c], now_us, &ox, &oy, NULL);
    dr_offset(s, c, now_us, &odx, &ody);
    MuKept k = mu_kept(mu);
    if (!drpred_push(&s->rx[c], &k))
        return RX_DISCARDED; /* older than what the receiver already has */
    drpred_at(&s->rx[c], now_us, &nx, &ny, NULL);
    s->conv_start_us[c] = now_us;
    s->conv_dx[c] = ox + odx - nx;
    s->conv_dy[c] = oy + ody - ny;
    return RX_USED;
}

/* Car `car` as shown at now; the heading of a predicted car only when
 * `heading` (display_all leaves it 0: scheme.h). */
static void dr_show(const Dr *s, int car, int64_t now_us, bool heading, Pose *out)
{
    if (car == s->own) {
        pose_from_kept(&s->own_now, out);
        return;
    }
    double dx, dy;
    const DrPred *rx = &s->rx[car];
    out->heading = 0.0;
    drpred_at(rx, now_us, &out->x, &out->y, heading ? &out->heading : NULL);
    dr_offset(s, car, now_us, &dx, &dy);
    out->x += dx;
    out->y += dy;
    out->seq = (now_us == rx->last.gen_us && dx == 0.0 && dy == 0.0) ? rx->last.seq : -1;
}

static void dr_display(const void *self, int car, int64_t now_us, Pose *out)
{
    dr_show(self, car, now_us, true, out);
}

static void dr_display_all(const void *self, int ncars, int64_t now_us, Pose *out)
{
    for (int c = 0; c < ncars; c++)
        dr_show(self, c, now_us, false, &out[c]);
}

const SchemeType scheme_dr = {
    .name = "dr",
    .title = "DR",
    .abbr = "DR",
    .summary = "dead reckoning, T_dr threshold, timestamped (global clock)",
    .state_size = sizeof(Dr),
    .init = dr_init,
    .set_params = dr_set_params,
    .on_local = dr_on_local,
    .on_receive = dr_on_receive,
    .display = dr_display,
    .display_all = dr_display_all,
};
