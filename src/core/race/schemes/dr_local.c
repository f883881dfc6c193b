/* Dead reckoning without timestamps (accuracy paper, the traditional
 * method): the receiver places the car at the MU's position when the MU
 * arrives and extrapolates with the MU's velocity from its own receipt time.
 * Same sender rule as `dr`. */
#include "scheme_util.h"

#include <math.h>

typedef struct DrLocal {
    int own;
    DrSender snd;
    Mu own_now;
    Mu last[SCHEME_MAX_CARS];         /* by car: last received DR vector */
    int64_t recv_us[SCHEME_MAX_CARS]; /* its receipt time, receiver clock */
} DrLocal;

static void dl_init(void *self, const SchemeParams *p, int own_car, int ncars, const Mu *grid)
{
    DrLocal *s = self;
    s->own = own_car;
    drsender_init(&s->snd, &grid[own_car], p->tdr_cw);
    s->own_now = grid[own_car];
    for (int c = 0; c < ncars; c++) {
        s->last[c] = grid[c];
        s->last[c].vx = s->last[c].vy = 0.0;
        s->recv_us[c] = grid[c].gen_us;
    }
}

static void dl_set_params(void *self, const SchemeParams *p)
{
    DrLocal *s = self;
    s->snd.tdr_cw = p->tdr_cw;
}

static void dl_on_local(void *self, const Mu *mu, int64_t now_us, Transport *tx)
{
    (void)now_us;
    DrLocal *s = self;
    Mu out;
    s->own_now = *mu;
    if (drsender_sample(&s->snd, mu, &out))
        transport_send(tx, &out);
}

static RxResult dl_on_receive(void *self, const Mu *mu, int64_t now_us)
{
    DrLocal *s = self;
    if (mu->seq <= s->last[mu->car].seq)
        return RX_DISCARDED; /* sequence numbers say it is stale */
    s->last[mu->car] = *mu;
    s->recv_us[mu->car] = now_us;
    return RX_USED;
}

static void dl_display(const void *self, int car, int64_t now_us, Pose *out)
{
    const DrLocal *s = self;
    if (car == s->own) {
        pose_from_mu(&s->own_now, out);
        return;
    }
    const Mu *last = &s->last[car];
    double dt = (double)(now_us - s->recv_us[car]) / (double)NR_US_PER_S;
    out->x = last->x + last->vx * dt;
    out->y = last->y + last->vy * dt;
    out->heading = (last->vx != 0.0 || last->vy != 0.0) ? atan2(last->vy, last->vx) : last->heading;
    out->seq = -1;
}

const SchemeType scheme_dr_local = {
    .name = "dr-local",
    .title = "DR local",
    .abbr = "DR loc",
    .summary = "dead reckoning without timestamps: extrapolate from receipt time",
    .state_size = sizeof(DrLocal),
    .init = dl_init,
    .set_params = dl_set_params,
    .on_local = dl_on_local,
    .on_receive = dl_on_receive,
    .display = dl_display,
};
