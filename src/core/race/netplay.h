/* One terminal of a network race, without the network (DESIGN.md "Network
 * play"): its own car on the physics, its Terminal with every selected
 * scheme, the emulated link (DelayLine) in front of the wire, the MU packets
 * that leave it and the VIEW packets that let both ends compute the same
 * live metrics. The session (src/net/session.h) owns the transport and the
 * time and feeds this with times and received packets; every time here is a
 * parameter, so tests drive it by hand.
 *
 * Times: race time is microseconds since the lights went out, on the
 * synchronised clock (the host's). Sample seq is taken at race time
 * seq * WORLD_SAMPLE_US exactly. The Terminal's clock is race time plus a
 * skew (netplay_set_skew): 0 when the schemes run on the synchronised clock,
 * local minus synchronised with --raw-clock.
 *
 * Sending: the MUs the schemes send for one sample enter the DelayLine
 * (per scheme, the slot's shared fate: common random numbers, delayline.h)
 * at the sample's instant; whatever the line delivers by `now` goes on the
 * wire, byte-identical MUs leaving at the same instant as ONE packet whose
 * scheme mask names every scheme that sent it. So each sample goes out once
 * when the schemes agree on its content (nc and causality send the sample
 * as it is; DR schemes send when their thresholds fire; EPP schemes add
 * parity MUs or piggyback data, which differ and go as their own packets).
 * Receiving: a MU packet is handed to exactly the schemes of its mask, at
 * its arrival time.
 *
 * Live metrics (metrics.h) need both terminals' displays at one instant.
 * After each sample the terminal sends a VIEW: what each scheme shows of
 * both cars (position and the exact sample shown, if any) and its own car's
 * true progress. Both ends pair their own view of sample i with the peer's
 * and take the metrics sample in the same way, so both compute the same
 * numbers, one network delay late. Displayed progress is computed as the
 * engine does (engine.c displayed_progress): the true progress of the
 * sample shown when known, else the projection near the car's true
 * progress at that instant. A peer view that never comes (lost) is skipped
 * once a view NETPLAY_VIEW_SKIP samples later has arrived.
 *
 * The race flow (raceflow.h) is fed at metric time with the truth of both
 * cars and the shown scheme's displays at both terminals, so both ends see
 * the same finish.
 *
 * Contracts:
 *   netplay_new(cfg, err)     allocates everything (the only allocation);
 *        NULL + err on a bad config (car, schemes, shown, track grid).
 *   netplay_free(np)          NULL-safe.
 *   netplay_start(np, out)    race time 0: the terminal starts on the grid,
 *        sample 0 (the grid) is taken and sent.
 *   netplay_set_input(np, in) an external controller's input (held).
 *   netplay_set_skew(np, us)  the Terminal's clock minus race time.
 *   netplay_advance(np, t, out)  physics, controls and samples up to race
 *        time t (samples at or before t), then the DelayLine's deliveries due
 *        at or before t go on the wire. No samples once the flow is done.
 *   netplay_receive(np, p, arr_us)  a decoded packet (MU or VIEW; other kinds
 *        are ignored) that arrived at race time arr_us. Call
 *        netplay_advance(np, arr_us - 1) first: a delivery at the instant of a
 *        sample comes before it, as in the engine.
 *   netplay_check(np, chk)    fills the MU / VIEW fields of a WireCheck (car
 *        count, own car, scheme count, the Terminal clock now).
 *   netplay_metrics(np, k)    scheme k's live metrics; dir[own] counts what
 *        this terminal sent (and its emulator lost), dir[peer] what it got.
 *   netplay_flow / netplay_done (the flow reached RF_DONE) /
 *   netplay_sample_seq (the next own sample) / netplay_views_skipped /
 *   netplay_mu_sent (MU packets put on the wire) / netplay_peer_mu_sent (the
 *   peer's count in its latest view) / netplay_mu_received (distinct MU
 *   packets received) / netplay_display(np, k, car, &pose) now.
 *   netplay_pose(np, &pose) / netplay_speed(np)  the own car's physics pose
 *        and speed along its heading (cw/s) now, every step (the driving
 *        screen draws the own car where it is this frame).
 *   netplay_car(np)            the own car (0-based).
 *   netplay_shown(np)          the scheme on the players' screens.
 *   netplay_grid_pose(np, car, &pose)  car's grid slot (before anything of
 *        it is displayed: the countdown).
 *   netplay_own_shown(np, k, &pose)  the own car as scheme k shows it, at
 *        its physics pose of this step when the scheme shows the latest own
 *        sample (so it moves every frame), else the scheme's (causality's
 *        local lag shows it Delta late).
 */
#ifndef NR_NETPLAY_H
#define NR_NETPLAY_H

#include "controller.h"
#include "delayline.h"
#include "metrics.h"
#include "raceflow.h"
#include "terminal.h"
#include "wire.h"
#include "world.h"

#define NETPLAY_VIEWS 256     /* own / peer views kept for pairing (~8.4 s) */
#define NETPLAY_PROGRESS 4096 /* true progress kept per car (~135 s) */
#define NETPLAY_VIEW_SKIP 30  /* a missing peer view is given up 1 s later */

typedef struct NetPlayConfig {
    const Track *track;   /* borrowed */
    int car;              /* own car, 0-based (host 0, joiner 1) */
    const SchemeType *schemes[SCHEME_MAX];
    int nschemes;
    SchemeParams params;
    int shown;            /* the scheme on the players' screens */
    RaceFlowConfig flow;  /* laps or duration (lap_cw filled in) */
    const Controller *ctl; /* borrowed; NULL = external (netplay_set_input) */
    const LinkSpec *link; /* emulated link before the wire; NULL = none */
    uint64_t seed;        /* the link's random streams */
} NetPlayConfig;

/* What leaves the terminal. packet: a WIRE_MU or WIRE_VIEW packet (kind and
 * payload set; the session adds token and counter), send_us the instant the
 * schemes sent it (an MU: its sample's instant). sample: an own sample. */
typedef struct NetPlayOut {
    void *ctx;
    void (*packet)(void *ctx, WirePacket *p, int64_t send_us);
    void (*sample)(void *ctx, int32_t seq, const RecSample *s);
} NetPlayOut;

typedef struct NetPlay NetPlay;

NetPlay *netplay_new(const NetPlayConfig *cfg, NrError *err);
void netplay_free(NetPlay *np);
void netplay_start(NetPlay *np, const NetPlayOut *out);
void netplay_set_input(NetPlay *np, const CarInput *in);
void netplay_set_skew(NetPlay *np, int64_t skew_us);
void netplay_advance(NetPlay *np, int64_t t_us, const NetPlayOut *out);
void netplay_receive(NetPlay *np, const WirePacket *p, int64_t arr_us);
void netplay_check(const NetPlay *np, int64_t now_us, WireCheck *chk);
const Metrics *netplay_metrics(const NetPlay *np, int k);
const RaceFlow *netplay_flow(const NetPlay *np);
bool netplay_done(const NetPlay *np);
int32_t netplay_sample_seq(const NetPlay *np);
int64_t netplay_views_skipped(const NetPlay *np);
uint32_t netplay_mu_sent(const NetPlay *np);
uint32_t netplay_peer_mu_sent(const NetPlay *np);
int64_t netplay_mu_received(const NetPlay *np);
void netplay_display(const NetPlay *np, int k, int car, Pose *out);
void netplay_pose(const NetPlay *np, Pose *out);
double netplay_speed(const NetPlay *np);
int netplay_car(const NetPlay *np);
int netplay_shown(const NetPlay *np);
void netplay_grid_pose(const NetPlay *np, int car, Pose *out);
void netplay_own_shown(const NetPlay *np, int k, Pose *out);

#endif
