/* A study over the network with the joiner's player in its window
 * (netwin.h "A study", SDL's dummy driver; study_rig.h): its rating
 * screens answered by keys pushed into SDL's queue, the blind HUD, a mark
 * while racing, no join code between races; and a plan's break held on
 * its screen until its player presses a key. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "study_rig.h"

static void push_key(SDL_Scancode sc)
{
    SDL_Event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = SDL_KEYDOWN;
    ev.key.keysym.scancode = sc;
    ev.key.keysym.sym = SDL_GetKeyFromScancode(sc);
    SDL_PushEvent(&ev);
    ev.type = SDL_KEYUP;
    SDL_PushEvent(&ev);
}

/* The joiner's subject at its window after a frame: one key at most, as
 * a person presses them (none while the last one waits in SDL's queue).
 * Racing in race 2 it marks once (Left Shift); on the rating screen, past
 * the guard, W / S towards its answer (the first press: 3 Fair, or Yes /
 * No as it points), D to confirm. keys[race][q]: the keys it pressed. */
static void joiner_subject(const NetWin *nw, int64_t *marked_us, int keys[4][4])
{
    const NetWinStudyState *st = &nw->st;
    if (SDL_PeepEvents(NULL, 0, SDL_PEEKEVENT, SDL_KEYDOWN, SDL_KEYDOWN) > 0 || !nw->session)
        return;
    NetRace nr;
    netwin_race_read(nw->session, &nr);
    if (st->phase == NWS_RACE && st->race.race == 2 && nr.st.phase == SESSION_RACING && *marked_us < 0 &&
        nr.st.race_us >= 500 * NR_US_PER_MS) {
        char hud[64];
        netwin_study_hud(nw, hud, sizeof hud);
        assert_true(st->race.blind);
        assert_string_equal(hud, "race 2 of 3"); /* blind: no scheme, no link, no clock */
        push_key(SDL_SCANCODE_LSHIFT);
        *marked_us = nr.st.race_us;
        return;
    }
    const StudyRater *rt = &st->rater;
    if (st->phase != NWS_RATE || studyrate_done(rt, st->race.nq) || st->clock_us - rt->shown_us < STUDYRATE_GUARD_US)
        return;
    const StudyQuestion *q = &st->q[rt->q];
    int want = wanted(st->race.race, 2, rt->q);
    int target = q->kind == STUDY_Q_YESNO ? 1 - want : 5 - want; /* the option's index, top to bottom */
    SDL_Scancode k = rt->choice < 0   ? (q->kind == STUDY_Q_YESNO && target == 1 ? SDL_SCANCODE_S : SDL_SCANCODE_W)
                     : rt->choice > target ? SDL_SCANCODE_W
                     : rt->choice < target ? SDL_SCANCODE_S
                                           : SDL_SCANCODE_D;
    keys[st->race.race][rt->q]++;
    push_key(k);
}

/* The joiner's mark of race 2, by hand: its log's row (kind dissatisfied,
 * flushed), merge of the two logs gives the recording's mark of player 2
 * at the race time of the key's frame (the next frame after the press:
 * within 100 ms) with the study's keys (study, pair, race, condition,
 * race_kind), `info` lists it, the report counts it (race 2's
 * condition: player 1 none, player 2 one: 0.5 a player-race; the other:
 * 0). */
static void check_merged_mark(const char *dir, int64_t marked_us)
{
    assert_true(marked_us >= 500 * NR_US_PER_MS);
    char hp[256], jp[256], out[256], cmd[1024];
    snprintf(hp, sizeof hp, "%s/race-002.host.log", dir);
    snprintf(jp, sizeof jp, "%s-joiner/race-002.joiner.log", dir);
    char *jl = slurp(jp);
    assert_non_null(jl);
    assert_non_null(strstr(jl, "\n# columns mark: row,local_us,sync_us,kind\n"));
    assert_non_null(strstr(jl, ",dissatisfied\n"));
    free(jl);
    TermLog h, j;
    NrError err;
    if (!termlog_load(&h, hp, &err) || !termlog_load(&j, jp, &err))
        fail_msg("%s", err.msg);
    Recording rec;
    if (!netmerge_recording(&h, &j, &rec, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(rec.nmarks, 1);
    assert_int_equal(rec.marks[0].player, 2);
    assert_string_equal(rec.marks[0].kind, "dissatisfied");
    int64_t at_ms = marked_us / NR_US_PER_MS;
    assert_true(rec.marks[0].t_ms >= at_ms && rec.marks[0].t_ms <= at_ms + 100);
    snprintf(out, sizeof out, "%s/merged-002.csv", dir);
    assert_true(recording_save(&rec, out, &err));
    const char *bin = getenv("NETRACE_BIN");
    if (bin) { /* info reads it back as written */
        snprintf(cmd, sizeof cmd, "'%s' info '%s' 2>&1 | grep -qx 'mark: %lld,2,dissatisfied'", bin, out,
                 (long long)rec.marks[0].t_ms);
        assert_int_equal(system(cmd), 0);
    }
    /* the study's own keys from the host's log, as a study on one machine
     * writes them; the condition is the plan's (A nc, B dr) */
    const char *want[4][2] = {{"study", "nettest"}, {"pair", "1"}, {"race", "2"}, {"race_kind", "rated"}};
    for (int k = 0; k < 4; k++) {
        const char *v = recording_meta_get(&rec, want[k][0]);
        if (!v || strcmp(v, want[k][1]) != 0)
            fail_msg("%s: '%s', expected '%s'", want[k][0], v ? v : "(none)", want[k][1]);
    }
    const char *cond = recording_meta_get(&rec, "condition"), *scheme = recording_meta_get(&rec, "scheme");
    assert_true(cond && scheme);
    assert_string_equal(scheme, strcmp(cond, "A") == 0 ? "nc" : "dr");
    assert_true(strcmp(cond, "A") == 0 || strcmp(cond, "B") == 0);
    recording_free(&rec);
    termlog_free(&h);
    termlog_free(&j);
    char csv[256];
    snprintf(csv, sizeof csv, "%s/report.csv", dir);
    char *dirs[1] = {(char *)dir};
    FILE *keep = stdout;
    stdout = fopen("/dev/null", "w");
    int rc = study_report(dirs, 1, csv, NULL);
    fclose(stdout);
    stdout = keep;
    assert_int_equal(rc, CLI_OK);
    char *rep = slurp(csv);
    assert_non_null(rep);
    const char *half = "\nnettest,%c,,marks_per_race,0.5,2\n", *none = "\nnettest,%c,,marks_per_race,0,2\n";
    char row[4][64];
    for (int k = 0; k < 4; k++)
        snprintf(row[k], sizeof row[k], k % 2 ? none : half, "ABBA"[k]);
    bool a_marked = strstr(rep, row[0]) && strstr(rep, row[1]);
    bool b_marked = strstr(rep, row[2]) && strstr(rep, row[3]);
    if (!a_marked && !b_marked)
        fail_msg("report.csv: expected race 2's condition 0.5 marks per player-race, the other 0:\n%s", rep);
    free(rep);
}

/* A rig whose joiner had its window: the study over at both ends, the
 * last screen, both ends' exit codes OK. */
static void window_rig_close(Rig *g, StudyScreen *sc)
{
    assert_true(study_net_join_over(g->j));
    study_screen_end(sc, true, NULL, false);
    int hrc, jrc;
    rig_close(g, &hrc, &jrc);
    assert_int_equal(hrc, CLI_OK);
    assert_int_equal(jrc, CLI_OK);
}

/* The joiner's player rates in its window (the dummy video driver, frames
 * of SESSION_FRAME_US on the joiner's simulated clock, keys pushed into
 * SDL's queue); the host's from its file. DIR gets both players' answers,
 * the joiner's with the response times of its screen's clock: the guard
 * (15 frames) and one frame per key after the first, by hand; its mark in
 * race 2 counted in the metrics. */
static void test_joiner_window(void **state)
{
    (void)state;
    char dir[128], p[256];
    snprintf(dir, sizeof dir, "%s/s3", root);
    Rig g;
    rig_open(&g, dir, false, "join-answers.csv", true);
    NetWinConfig wc = {.kind = PLAYER_BOT, .width = 640, .height = 360, .frame_dt_us = SESSION_FRAME_US};
    StudyScreen sc = {0};
    assert_true(study_screen_open(&sc, &wc, &g.je.clock, NULL));
    study_net_join_hooks(g.j, &sc.hooks);
    int64_t marked_us = -1; /* the race time when its mark key went down */
    int keys[4][4] = {{0}};
    GfxAudit *seen = calloc(1, sizeof *seen); /* the strings each frame drew */
    int waits = 0, codes = 0;
    while (turn(&g)) {
        gfx_audit_start(&sc.nw->gfx0, seen);
        assert_true(study_screen_step(&sc, study_net_join_session(g.j)));
        gfx_audit_stop(&sc.nw->gfx0);
        for (int i = 0; i < seen->n; i++) {
            waits += strstr(seen->rec[i].text, "waiting for the other machine") != NULL;
            codes += strstr(seen->rec[i].text, "7K3QM") != NULL || strstr(seen->rec[i].text, "join code") != NULL;
        }
        joiner_subject(sc.nw, &marked_us, keys);
        next_time(&g, study_screen_wake(&sc));
    }
    assert_true(waits > 0);     /* the screens between races were drawn */
    assert_int_equal(codes, 0); /* and the secret code on none of them (the joiner typed it) */
    /* the wait drawn by hand as a host's screen: the code before its first
     * race only (the experimenter may read it out), never between races */
    NetRace nr;
    memset(&nr, 0, sizeof nr);
    nr.host = true;
    snprintf(nr.code, sizeof nr.code, "%s", CODE);
    NetWinStudyState kept = sc.nw->st;
    sc.nw->st.over = false;
    sc.nw->st.phase = NWS_WAIT;
    for (int had = 0; had < 2; had++) {
        sc.nw->st.have_race = had;
        gfx_audit_start(&sc.nw->gfx0, seen);
        assert_true(netwin_study_draws(sc.nw, &nr, 640, 360));
        gfx_audit_stop(&sc.nw->gfx0);
        codes = 0;
        for (int i = 0; i < seen->n; i++)
            codes += strstr(seen->rec[i].text, "7K3QM") != NULL;
        assert_int_equal(codes, had ? 0 : 1);
    }
    sc.nw->st = kept;
    free(seen);
    window_rig_close(&g, &sc);
    snprintf(p, sizeof p, "%s/ratings.csv", dir);
    char *text = slurp(p);
    assert_non_null(text);
    static const char *const ids[4] = {"operability", "fairness", "overall", "acceptable"};
    for (int r = 2; r <= 3; r++)
        for (int q = 0; q < 4; q++) {
            char want[96];
            long long ms = (15LL + keys[r][q] - 1) * SESSION_FRAME_US / 1000;
            snprintf(want, sizeof want, ",rated,%s,%d,%lld\n", ids[q], wanted(r, 2, q), ms);
            char row[32];
            snprintf(row, sizeof row, "nettest,1,2,%d,", r);
            const char *at = strstr(text, row);
            while (at && strncmp(strchr(at + strlen(row), ','), want, strlen(want)) != 0)
                at = strstr(at + 1, row);
            if (!at)
                fail_msg("no row %s...%s in %s", row, want, p);
        }
    free(text);
    snprintf(p, sizeof p, "%s/metrics.csv", dir);
    char *met = slurp(p);
    assert_non_null(met);
    assert_true(strstr(met, ",marks_p2,1\n") != NULL);
    free(met);
    check_merged_mark(dir, marked_us);
}

/* A plan's break over the network (before race 3): the joiner's window
 * shows the break and the race waits for its player through 20 s of
 * simulated time (past the 15 s deadlines: the host still hears the
 * joiner's clock probes), no countdown, nothing failed; a key, and race 3
 * is driven and rated. The headless host rested at once. */
static void test_break_holds(void **state)
{
    (void)state;
    char dir[128];
    snprintf(dir, sizeof dir, "%s/s5", root);
    plan_file = "plan-break.txt";
    Rig g;
    rig_open(&g, dir, false, "join-answers.csv", true);
    plan_file = "plan.txt";
    /* a frame every 200 ms of the joiner's clock: 20 s of rest is 100 frames, not 600 */
    NetWinConfig wc = {.kind = PLAYER_BOT, .width = 640, .height = 360, .frame_dt_us = 200 * NR_US_PER_MS};
    StudyScreen sc = {0};
    assert_true(study_screen_open(&sc, &wc, &g.je.clock, NULL));
    study_net_join_hooks(g.j, &sc.hooks);
    int64_t marked_us = -1, rest_from = -1;
    int keys[4][4] = {{0}}, rest_frames = 0;
    GfxAudit *seen = calloc(1, sizeof *seen);
    for (;;) { /* frames are drawn in the session's steps too: the audit spans the turn */
        gfx_audit_start(&sc.nw->gfx0, seen);
        if (sc.nw->view)
            gfx_audit_start(&sc.nw->view->gfx, seen);
        bool more = turn(&g) && study_screen_step(&sc, study_net_join_session(g.j));
        gfx_audit_stop(&sc.nw->gfx0);
        if (sc.nw->view)
            gfx_audit_stop(&sc.nw->view->gfx);
        if (!more)
            break;
        Session *s = study_net_join_session(g.j);
        const NetStudyRace *st = s ? session_study(s) : NULL;
        if (st && st->race == 3 && !sc.nw->st.rested) {
            assert_true(st->brk);
            SessionStatus ss;
            session_status(s, &ss);
            assert_true(ss.phase < SESSION_COUNTDOWN); /* no race while its player rests */
            for (int i = 0; i < seen->n; i++)
                rest_frames += strstr(seen->rec[i].text, "Break: race 3 of 3 is next") != NULL;

            if (rest_from < 0)
                rest_from = g.truth;
            if (g.truth - rest_from >= 20 * NR_US_PER_S && SDL_PeepEvents(NULL, 0, SDL_PEEKEVENT, SDL_KEYDOWN,
                                                                          SDL_KEYDOWN) == 0)
                push_key(SDL_SCANCODE_W); /* its throttle key: done resting */
        } else {
            joiner_subject(sc.nw, &marked_us, keys);
        }
        next_time(&g, study_screen_wake(&sc));
    }
    free(seen);
    assert_true(rest_from > 0);
    assert_true(rest_frames > 75); /* the break on its screen all along (20 s of 200 ms frames) */
    window_rig_close(&g, &sc);
    char p[256];
    snprintf(p, sizeof p, "%s/race-003.csv", dir); /* driven after the break */
    struct stat sb;
    assert_int_equal(stat(p, &sb), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_joiner_window),
        cmocka_unit_test(test_break_holds),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
