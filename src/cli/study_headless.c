/* The headless study session (study_cli.h): bots or input scripts drive
 * every race through the live runtime of `play --headless` (the world, the
 * controllers, the engine fed sample by sample with every scheme, the
 * recording written while driving), and the --ratings file stands in for
 * the players' answers. A pilot of the whole pipeline, and the tests. */
#include "study_cli.h"

#include <stdlib.h>
#include <string.h>

#define CMD STUDY_CMD

/* One race of bots / scripts to its end as fast as possible. */
static int drive(StudySession *ss, const StudyRace *race)
{
    StudyRaceSetup *rs = calloc(1, sizeof *rs);
    if (!rs)
        return cli_fail(CMD, "out of memory");
    int rc = study_session_setup(ss, race, rs, false);
    NrError err = {{0}};
    Controller ctl[PLAY_SEATS];
    memset(ctl, 0, sizeof ctl);
    LiveRace *lr = NULL;
    if (rc == CLI_OK && players_make(&ss->s->pl, rs->lc.track, race->seed, ctl, &err)) {
        rs->lc.ctl[0] = &ctl[0];
        rs->lc.ctl[1] = &ctl[1];
        lr = liverace_new(&rs->lc, &err);
    }
    bool ok = lr != NULL;
    if (ok) {
        liverace_run_headless(lr, &ok, &err);
        ok = ok && liverace_close_recording(lr, &err);
    }
    if (rc == CLI_OK && !ok) {
        rc = cli_fail(CMD, "race %d: %s", race->index, err.msg);
    } else if (rc == CLI_OK) {
        int nmarks, counts[2];
        const RecMark *marks = liverace_marks(lr, &nmarks);
        study_marks_count(marks, nmarks, counts);
        rc = study_session_race_done(ss, race, liverace_engine(lr), rs->lc.shown, counts, "csv");
    }
    liverace_free(lr);
    study_setup_free(rs);
    free(rs);
    return rc;
}

/* Both players' answers to every question of a rated race from the
 * --ratings file, player 1 first, each appended the moment it is taken; the
 * first missing one ends the session (every answer before it kept). */
static int rate(StudySession *ss, const StudyRace *race)
{
    const StudyPlan *pl = &ss->s->plan;
    for (int player = 1; player <= 2; player++)
        for (int q = 0; q < pl->nq; q++) {
            if (study_session_given(ss, race->index, player, q))
                continue; /* given before a crash: kept, not asked again */
            const StudyRating *a = studydata_find(&ss->answers, 0, race->index, player, q);
            if (!a)
                return cli_fail(CMD, "%s: no answer for race %d, player %d, question %s (the session stops here; "
                                     "--resume continues)", ss->s->ratings_path, race->index, player, pl->q[q].id);
            int rc = study_session_answer(ss, race, player, q, a->score, a->response_ms);
            if (rc != CLI_OK)
                return rc;
        }
    return CLI_OK;
}

int study_run_headless(StudySession *ss)
{
    const StudyRace *race;
    int rc = study_session_begin(ss);
    if (rc != CLI_OK)
        return rc;
    for (;;) {
        StudyNext next = study_session_next(ss, &race);
        if (next == STUDY_NEXT_DONE) {
            printf("study %s, pair %d: session complete in %s\n", ss->s->plan.name, ss->s->pair, ss->s->out_dir);
            return CLI_OK;
        }
        if (next == STUDY_NEXT_STOP) {
            printf("stopped after race %d of %d (--resume continues at race %d)\n", ss->s->stop_after,
                   ss->ord.nrace, race->index);
            return CLI_OK;
        }
        if (next == STUDY_NEXT_DRIVE)
            rc = drive(ss, race);
        else if (next == STUDY_NEXT_RATE)
            rc = rate(ss, race);
        else
            printf("break\n");
        if (rc != CLI_OK)
            return rc;
    }
}
