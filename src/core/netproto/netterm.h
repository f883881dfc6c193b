/* One terminal of a network race, without the network (DESIGN.md "Network
 * play"): a thin adapter over the one Engine (engine.h) and the one physics
 * loop (raceloop.h). Its own car runs on the physics (a solo World); the
 * Engine has this terminal local (its Terminal with every selected scheme,
 * the emulated link, a DelayLine, in front of the wire) and the peer remote
 * (its displays arrive as VIEW packets). The adapter turns what the engine
 * forwards to the peer into MU packets, its own views into VIEW packets,
 * and received packets into engine_receive / engine_put_view. The session
 * (src/net/session.h) owns the transport and the time and feeds this with
 * times and received packets; every time here is a parameter, so tests
 * drive it by hand.
 *
 * Times: race time is microseconds since the lights went out, on the
 * synchronised clock (the host's). Sample seq is taken at race time
 * seq * WORLD_SAMPLE_US exactly. The Terminal's clock is race time plus a
 * skew (netterm_set_skew, the engine's clock of this terminal): 0 when the
 * schemes run on the synchronised clock, local minus synchronised with
 * --raw-clock.
 *
 * Sending: the MUs the schemes send for one sample enter the DelayLine
 * (per scheme, the slot's shared fate: common random numbers, delayline.h)
 * at the sample's instant; whatever the line delivers by `now` goes on the
 * wire, byte-identical MUs leaving at the same instant for the same
 * terminal as ONE packet whose scheme mask names every scheme that sent it. So each sample goes out once
 * when the schemes agree on its content (nc and causality send the sample
 * as it is; DR schemes send when their thresholds fire; EPP schemes add
 * parity MUs or piggyback data, which differ and go as their own packets).
 * Receiving: a MU packet is handed to exactly the schemes of its mask, at
 * its arrival time, through the engine (counted in dir[sender] as any
 * delivery). With N cars every other terminal is remote; over cs the
 * engine's medium is the topology's uplink (link[own]) and relay with no
 * downlink delay, so each MU leaves once for every destination (the real
 * server relays it), with the uplink's one fate (route.h). Over p2p each
 * line out of this terminal has its own emulated link (cfg.pair_link, else
 * cfg.link) and fate, and each MU goes to its one destination.
 *
 * Live metrics: after each sample the terminal sends a VIEW (over p2p one
 * to each other terminal, each with the MU packets sent to that one), its
 * engine view of that sample: what each scheme shows of both cars (position and
 * the exact sample shown, if any) and its own car's true progress. The
 * engine pairs its own view of sample i with the peer's and takes the
 * metrics sample as every engine does (engine.h), so both ends compute the
 * same numbers, one network delay late, equal to a replay of the race over
 * the same delays. A peer view that never comes is skipped once a view
 * ENGINE_VIEW_SKIP samples later has arrived.
 *
 * The race flow (raceflow.h) is fed at each metric sample, by the engine's on_sample
 * hook, with the truth of both cars and the shown scheme's displays at both
 * terminals, so both ends see the same finish.
 *
 * Contracts:
 *   netterm_new(cfg, err)     allocates everything (the only allocation);
 *        NULL + err on a bad config (car, schemes, shown, track grid).
 *   netterm_free(nt)          NULL-safe.
 *   netterm_start(nt, out)    race time 0: the terminal starts on the grid,
 *        sample 0 (the grid) is taken and sent.
 *   netterm_set_input(nt, in) an external controller's input (held).
 *   netterm_set_skew(nt, us)  the Terminal's clock minus race time.
 *   netterm_advance(nt, t, out)  physics, controls and samples up to race
 *        time t (samples at or before t), then the DelayLine's deliveries due
 *        at or before t go on the wire. No samples once the flow is done.
 *   netterm_receive(nt, p, arr_us)  a decoded packet (MU or VIEW; other kinds
 *        are ignored) that arrived at race time arr_us. Call
 *        netterm_advance(nt, arr_us - 1) first: a delivery at the instant of a
 *        sample comes before it, as in the engine.
 *   netterm_check(nt, chk)    fills the MU / VIEW fields of a WireCheck (car
 *        count, own car, scheme count, the Terminal clock now).
 *   netterm_metrics(nt, k)    scheme k's live metrics; dir[own] counts what
 *        this terminal sent (and its emulator lost), dir[peer] what it got.
 *   netterm_flow / netterm_done (the flow reached RF_DONE) /
 *   netterm_sample_seq (the next own sample) / netterm_views_skipped /
 *   netterm_mu_sent (MU packets put on the wire) / netterm_peer_mu_sent (the
 *   others' counts in their latest views: of the packets to this terminal
 *   over p2p, of all over cs) / netterm_mu_received (distinct MU
 *   packets received) / netterm_display(nt, k, car, &pose) now.
 *   netterm_pose(nt, &pose) / netterm_speed(nt)  the own car's physics pose
 *        and speed along its heading (cw/s) now, every step (the driving
 *        screen draws the own car where it is this frame).
 *   netterm_contact(nt)        the own car's contacts with the wall
 *        (world.h WorldContact: the window's feedback of a hit).
 *   netterm_car(nt)            the own car (0-based).
 *   netterm_shown(nt)          the scheme on the players' screens.
 *   netterm_grid_pose(nt, car, &pose)  car's grid slot (before anything of
 *        it is displayed: the countdown).
 *   netterm_own_shown(nt, k, &pose)  the own car as scheme k shows it, at
 *        its physics pose of this step when the scheme shows the latest own
 *        sample (so it moves every frame), else the scheme's (causality's
 *        local lag shows it Delta late).
 *   netterm_engine(nt)         the engine (read-only).
 *   netterm_car_count(nt)      the race's cars.
 */
#ifndef NR_NETTERM_H
#define NR_NETTERM_H

#include "controller.h"
#include "engine.h"
#include "raceflow.h"
#include "raceloop.h"
#include "wire.h"

/* A view of a terminal arrives in parts (wire.h WireView); this many
 * samples of each other terminal are assembled at once. */
#define NETTERM_ASSEMBLE 8

typedef struct NetTermConfig {
    const Track *track;   /* borrowed */
    int car;              /* own car, 0-based (host 0, joiner 1; a client its seat) */
    int ncars;            /* the race's cars, 2..WIRE_MAX_CARS (0 = 2) */
    bool cs;              /* client-server: what this terminal sends goes once, to the server
                             (the emulated link is the uplink), which relays it to every other */
    const SchemeType *schemes[SCHEME_MAX];
    int nschemes;
    SchemeParams params;
    int shown;            /* the scheme on the players' screens */
    RaceFlowConfig flow;  /* laps or duration (lap_cw filled in) */
    const Controller *ctl; /* borrowed; NULL = external (netterm_set_input) */
    const LinkSpec *link; /* emulated link before the wire; NULL = none */
    /* p2p: the line to car j (NULL: link); two cars: the one line's, as link */
    const LinkSpec *pair_link[WIRE_MAX_CARS];
    uint64_t seed;        /* the link's random streams */
    bool lagometer;       /* the engine keeps the lagometer's rings (engine_lag) */
} NetTermConfig;

/* What leaves the terminal. packet: a WIRE_MU or WIRE_VIEW packet (kind and
 * payload set; the session adds token and counter), send_us the instant the
 * schemes sent it (an MU: its sample's instant), to the terminal of car
 * `to` (p2p) or -1 every other (cs: the server relays it). sample: an own
 * sample. */
typedef struct NetTermOut {
    void *ctx;
    void (*packet)(void *ctx, WirePacket *p, int64_t send_us, int to);
    void (*sample)(void *ctx, int32_t seq, const RecSample *s);
    /* the own car's input from race time t_us on (clamped as the physics
     * takes it), at a control time where it changed (and at the first);
     * NULL: not wanted. A race re-simulates from these (inputs.h). */
    void (*input)(void *ctx, int64_t t_us, const CarInput *in);
} NetTermOut;

typedef struct NetTerminal NetTerminal;

NetTerminal *netterm_new(const NetTermConfig *cfg, NrError *err);
void netterm_free(NetTerminal *nt);
void netterm_start(NetTerminal *nt, const NetTermOut *out);
void netterm_set_input(NetTerminal *nt, const CarInput *in);
void netterm_set_skew(NetTerminal *nt, int64_t skew_us);
void netterm_advance(NetTerminal *nt, int64_t t_us, const NetTermOut *out);
void netterm_receive(NetTerminal *nt, const WirePacket *p, int64_t arr_us);
void netterm_check(const NetTerminal *nt, int64_t now_us, WireCheck *chk);
const Metrics *netterm_metrics(const NetTerminal *nt, int k);
const RaceFlow *netterm_flow(const NetTerminal *nt);
bool netterm_done(const NetTerminal *nt);
int32_t netterm_sample_seq(const NetTerminal *nt);
int64_t netterm_views_skipped(const NetTerminal *nt);
uint32_t netterm_mu_sent(const NetTerminal *nt);
uint32_t netterm_peer_mu_sent(const NetTerminal *nt);
int64_t netterm_mu_received(const NetTerminal *nt);
void netterm_display(const NetTerminal *nt, int k, int car, Pose *out);
void netterm_pose(const NetTerminal *nt, Pose *out);
double netterm_speed(const NetTerminal *nt);
const WorldContact *netterm_contact(const NetTerminal *nt);
int netterm_car(const NetTerminal *nt);
int netterm_shown(const NetTerminal *nt);
const Engine *netterm_engine(const NetTerminal *nt);
void netterm_grid_pose(const NetTerminal *nt, int car, Pose *out);
void netterm_own_shown(const NetTerminal *nt, int k, Pose *out);
int netterm_car_count(const NetTerminal *nt);

#endif
