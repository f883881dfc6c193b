/* No control (racing paper Section 3): every MU is sent; the receiver shows
 * each MU the moment it arrives, even one overtaken by a newer MU. */
#include "scheme_util.h"

typedef struct Nc {
    int own;
    MuKept shown[SCHEME_MAX_CARS]; /* [own] = latest own sample, [other c] = c's latest arrival */
} Nc;

static void nc_init(void *self, const SchemeParams *p, int own_car, int ncars, const Mu *grid)
{
    (void)p;
    Nc *s = self;
    s->own = own_car;
    for (int c = 0; c < ncars; c++)
        s->shown[c] = mu_kept(&grid[c]);
}

static void nc_set_params(void *self, const SchemeParams *p)
{
    (void)self;
    (void)p;
}

static void nc_on_local(void *self, const Mu *mu, int64_t now_us, Transport *tx)
{
    (void)now_us;
    Nc *s = self;
    s->shown[s->own] = mu_kept(mu);
    transport_send(tx, mu);
}

static RxResult nc_on_receive(void *self, const Mu *mu, int64_t now_us)
{
    (void)now_us;
    Nc *s = self;
    s->shown[mu->car] = mu_kept(mu);
    return RX_USED;
}

static void nc_display(const void *self, int car, int64_t now_us, Pose *out)
{
    (void)now_us;
    const Nc *s = self;
    pose_from_kept(&s->shown[car], out);
}

static void nc_display_all(const void *self, int ncars, int64_t now_us, Pose *out)
{
    (void)now_us;
    const Nc *s = self;
    for (int c = 0; c < ncars; c++)
        pose_from_kept(&s->shown[c], &out[c]);
}

const SchemeType scheme_nc = {
    .name = "nc",
    .title = "NC",
    .abbr = "NC",
    .summary = "no control: every MU sent, shown on arrival",
    .state_size = sizeof(Nc),
    .every_sample = true,
    .init = nc_init,
    .set_params = nc_set_params,
    .on_local = nc_on_local,
    .on_receive = nc_on_receive,
    .display = nc_display,
    .display_all = nc_display_all,
};
