/* The session's state, shared by its two files: session.c (handshake,
 * clock exchange, the loop) and session_view.c (what a driving window and
 * the summary read). Private to src/net. */
#ifndef NR_SESSION_INTERNAL_H
#define NR_SESSION_INTERNAL_H

#include "session.h"

#include "clocksync.h"
#include "netclock.h"
#include "netlog.h"
#include "netterm.h"
#include "netudp.h"
#include "rng.h"
#include "wire.h"

#define SESSION_NAP_US 200 /* the loop's wait when nothing is due: the latency it adds */
#define RTT_KEEP 8192 /* exchanges kept for the median round trip */
#define REJECT_REASONS (WIRE_RESULT_COUNT + 2)
#define REJECT_ADDRESS WIRE_RESULT_COUNT /* a datagram from another address */
#define REJECT_BUSY (WIRE_RESULT_COUNT + 1) /* a HELLO once a joiner is in */

typedef enum Phase { PH_HANDSHAKE, PH_SYNC, PH_COUNTDOWN, PH_RACE, PH_FINISHED, PH_OVER } Phase;

struct Session {
    SessionConfig cfg;
    char err[NR_ERROR_MAX];
    NetUdp *sock;
    NetClock clock;
    NetAddr peer;
    bool have_peer;
    NetAddr allow; /* host: the only host a HELLO is taken from (have_allow) */
    bool have_allow;
    uint64_t token, nonce;
    uint32_t pkt_seq, probe_id;
    Rng rng;
    Phase phase;
    /* race settings (the host's own, the joiner's from WELCOME) */
    WireWelcome welcome;
    char *track_text;
    uint32_t track_got;
    uint8_t *chunk_seen; /* one flag per TRACK chunk */
    Track *track;
    const SchemeType *schemes[SCHEME_MAX];
    int nschemes;
    Controller ctl;
    NetTerminal *np;
    /* clocks */
    ClockSync cs;
    int64_t rtt[RTT_KEEP];
    int nrtt;
    int64_t next_probe_local;
    int64_t start_sync;    /* synchronised instant of race time 0 */
    bool have_start;
    bool peer_racing;      /* the joiner's race traffic arrived (host stops START) */
    int64_t next_start_local;
    /* faults */
    int64_t last_heard_local;
    bool paused, host_paused; /* host_paused: the joiner was told PAUSE */
    int pauses;            /* times the race paused on a silent peer */
    int64_t paused_race;
    int resume_sends;
    int64_t next_resume_local;
    bool peer_finished, peer_bye;
    int64_t finished_local;
    /* counters */
    int64_t received, rejected[REJECT_REASONS], rejected_total;
    NetLog *log;
    int64_t next_log_flush;
    WireCheck chk;
    /* a driving window */
    SessionFrame frame;
    void *frame_ctx;
    int64_t next_frame_local;
    CarInput input;
};

static inline int64_t local_now(const Session *s)
{
    return netclock_now_us(&s->clock);
}

/* Synchronised clock at local time t: the host's own; the joiner's local
 * clock plus the estimated offset. */
static inline int64_t sync_at(const Session *s, int64_t local)
{
    return s->cfg.host ? local : local + clocksync_offset(&s->cs, local);
}

static inline int64_t race_at(const Session *s, int64_t local)
{
    return sync_at(s, local) - s->start_sync;
}

#endif
