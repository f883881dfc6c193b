/* Nothing cut in the network window (issue 22): waiting with the join
 * code, clock sync, the race with and without the lagometer, pause,
 * results, help, failure, and the joiner's prompt for the code, at every
 * size of fit_fixture.h: every string inside its room, none over another
 * (tests/text_audit.h), as test_fit checks the replay window and the game. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit_fixture.h"
#include "netrace_config.h"
#include "netwin.h"
#include "text_audit.h"

static int audit_net(Canvas *c, const NetRace *nr, const NetWinLook *look, const char *what)
{
    int bad = 0;
    GfxAudit *a = calloc(1, sizeof *a);
    for (int i = 0; i < NSIZES; i++) {
        const Size *z = &fit_sizes[i];
        NetWinConfig cfg = {.kind = PLAYER_KEYS, .scale = z->scale};
        netwin_draw_frame(canvas_at(c, z), &cfg, nr, look, z->w, z->h, a);
        char name[160];
        snprintf(name, sizeof name, "network, %s %dx%d scale %g", what, z->w, z->h, z->scale);
        bad += text_audit_faults(a, name);
    }
    free(a);
    return bad;
}

/* The race with the lagometer (F2): 5 s of the peer's MUs of every fate,
 * the peer shown predicted now and then, the clock sync's round trips;
 * alone, under a message, the pause box and the help. */
static int audit_net_lag(Canvas *c, NetRace *nr, const NetWinLook *msg)
{
    LagEvent *ev = calloc(1024, sizeof *ev);
    LagNetHist *net = calloc(1, sizeof *net);
    LagRing ring;
    lagring_init(&ring, ev, 1024);
    const int64_t period = 33000, t0 = nr->st.race_us - 5 * NR_US_PER_S;
    static const RxResult rx[] = {RX_USED, RX_USED, RX_LATE_USED, RX_DISCARDED};
    for (int i = 0; i < 152; i++) {
        Mu mu = {.car = (int8_t)(1 - nr->me), .kind = MU_UPDATE, .seq = (int32_t)(t0 / period) + i};
        int64_t sent = (int64_t)mu.seq * period, delay = 40000 + (i % 7) * 15000;
        if (i % 11 == 5)
            lagring_lost(&ring, &mu, sent);
        else
            lagring_arrival(&ring, &mu, sent + delay, delay, i % 4 == 1 ? 30000 : 0, rx[i % 4], 0);
        lagring_shown(&ring, sent, i % 9 < 3 ? 1u << (1 - nr->me) : 0u);
        lagnet_add(net, sent, 80000 + (i % 5) * 10000, -123456789, 1234);
    }
    nr->lag = &ring;
    nr->lag_now_us = nr->st.race_us;
    nr->period_us = period;
    nr->limit_us = 100000;
    NetWinLook lag = {.lag = true, .net = net}, help = {.lag = true, .net = net, .help = true},
               lagmsg = {.lag = true, .net = net, .msg = msg->msg};
    int bad = audit_net(c, nr, &lag, "race, lagometer");
    bad += audit_net(c, nr, &lagmsg, "message, lagometer");
    bad += audit_net(c, nr, &help, "help, lagometer");
    nr->st.paused = true;
    nr->st.pause_cause = NETSESSION_PAUSE_PEER_SILENT;
    nr->st.silent_us = 4200000;
    bad += audit_net(c, nr, &lag, "pause, lagometer");
    nr->st.paused = false;
    nr->lag = NULL;
    free(net);
    free(ev);
    return bad;
}

/* The joiner's prompt for the code, with a long host name, as typed and
 * after a wrong code. */
static void code_prompt_cuts_nothing(void **state)
{
    Canvas *c = *state;
    int bad = 0;
    GfxAudit *a = calloc(1, sizeof *a);
    for (int i = 0; i < NSIZES; i++) {
        const Size *z = &fit_sizes[i];
        SDL_Renderer *r = canvas_at(c, z);
        Gfx g;
        char font[512];
        gfx_pick_font(NULL, font, sizeof font);
        gfx_init(&g, r, font[0] ? font : NULL);
        for (int wrong = 0; wrong < 2; wrong++) {
            gfx_audit_start(&g, a);
            netwin_code_draw(&g, "lab-pc-12.physics.example-university.edu", "AB3DE-FGH", wrong, z->scale, z->w, z->h);
            gfx_audit_stop(&g);
            char name[96];
            snprintf(name, sizeof name, "code prompt %dx%d scale %g", z->w, z->h, z->scale);
            bad += text_audit_faults(a, name);
        }
        gfx_free(&g);
    }
    free(a);
    assert_int_equal(bad, 0);
}

static void network_layouts_cut_nothing(void **state)
{
    Canvas *c = *state;
    NrError err = {{0}};
    Track *t = track_load(NETRACE_SOURCE_DIR "/tracks/default.track", &err);
    assert_non_null(t);
    RaceFlow rf;
    RaceFlowConfig fc = {.laps = 3, .lap_cw = track_length(t)};
    raceflow_init(&rf, &fc);
    NetRace nr;
    memset(&nr, 0, sizeof nr);
    nr.host = true;
    nr.port = 41000;
    snprintf(nr.code, sizeof nr.code, "7K3QM-X9A2C");
    nr.shown = "dr-causality";
    nr.rf = &rf;
    NetWinLook plain = {0}, help = {.help = true},
               msg = {.msg = "screenshot: /home/a-teacher/Pictures/netrace/netrace-net-20250101-120000-t0012.3.png"},
               fail = {.failed = true, .msg = "the host did not answer within 20 s (host 192.168.100.200:41000)"};
    int bad = audit_net(c, &nr, &plain, "waiting (host)");
    nr.host = false;
    bad += audit_net(c, &nr, &plain, "waiting (joiner)");
    bad += audit_net(c, &nr, &fail, "failure");
    nr.track = t;
    nr.st.phase = SESSION_SYNCING;
    snprintf(nr.st.peer, sizeof nr.st.peer, "192.168.100.200:41000");
    nr.st.offset_us = -123456789;
    nr.st.bound_us = 1234;
    nr.st.rtt_us = 250000;
    bad += audit_net(c, &nr, &plain, "sync");
    nr.st.phase = SESSION_RACING;
    nr.racing = true;
    nr.me = 1;
    nr.st.race_us = 61234567;
    rf.phase = RF_RACING;
    rf.laps[1][1] = 2;
    rf.cross_us[1][1][0] = 33123000;
    rf.cross_us[1][1][1] = 66456000;
    for (int c = 0; c < 2; c++) {
        double x, y, h, s;
        track_grid(t, c, &x, &y, &h, &s);
        nr.pose[c] = (Pose){x, y, h, -1};
    }
    bad += audit_net(c, &nr, &plain, "race");
    bad += audit_net(c, &nr, &help, "help");
    bad += audit_net(c, &nr, &msg, "message");
    bad += audit_net_lag(c, &nr, &msg);
    nr.st.paused = true;
    nr.st.pause_cause = NETSESSION_PAUSE_PEER_SILENT;
    nr.st.silent_us = 4200000;
    bad += audit_net(c, &nr, &plain, "pause");
    nr.st.paused = false;
    nr.st.phase = SESSION_FINISHED;
    for (int v = 0; v < RACEFLOW_VIEWS; v++)
        for (int c = 0; c < 2; c++) {
            rf.laps[v][c] = 3;
            for (int l = 0; l < 3; l++)
                rf.cross_us[v][c][l] = (int64_t)(l + 1) * 33000000 + c * 1234567 + v * 10000;
        }
    rf.phase = RF_DONE;
    bad += audit_net(c, &nr, &plain, "results");
    track_free(t);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(network_layouts_cut_nothing),
        cmocka_unit_test(code_prompt_cuts_nothing),
    };
    return cmocka_run_group_tests(tests, fit_setup, fit_teardown);
}
