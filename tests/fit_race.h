/* The fit tests' races (test_fit.c, test_fit_scale.c): a bundled
 * recording or a few bots' race, replayed under a list of schemes with a
 * 75 ms link both ways, its history kept for the charts.
 *
 *   race_open(f, recording, schemes)  recording: a file in recordings/ or
 *                                     "autopilot N" (N bots, 20 s)
 *   race_close(f)                     frees what race_open made */
#ifndef NR_FIT_RACE_H
#define NR_FIT_RACE_H

#include <stdio.h>
#include <string.h>

#include "app_internal.h"
#include "autopilot.h"
#include "netrace_config.h"

typedef struct Race {
    Track *track;
    Recording rec;
    LinkSpec link;
    Replay *rp;
} Race;

/* A bundled recording, or "autopilot N": N bots for 20 s on the default track. */
static inline bool race_load(Race *f, const char *recording, NrError *err)
{
    char path[1024];
    int ncars = 0;
    if (sscanf(recording, "autopilot %d", &ncars) == 1) {
        Track *t = track_load(NETRACE_SOURCE_DIR "/tracks/default.track", err);
        AutopilotConfig ac;
        autopilot_config_default(&ac);
        ac.ncars = ncars;
        ac.duration_ms = 20000;
        ac.track_file = "default.track";
        bool ok = t && autopilot_race(t, &ac, &f->rec, err);
        track_free(t);
        return ok;
    }
    snprintf(path, sizeof path, "%s/recordings/%s", NETRACE_SOURCE_DIR, recording);
    return recording_load(&f->rec, path, err);
}

static inline bool race_open(Race *f, const char *recording, const char *schemes)
{
    memset(f, 0, sizeof *f);
    NrError err = {{0}};
    char path[1024];
    if (!race_load(f, recording, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return false;
    }
    snprintf(path, sizeof path, "%s/tracks/%s", NETRACE_SOURCE_DIR, f->rec.track);
    f->track = track_load(path, &err);
    if (!f->track || !linkspec_parse(&f->link, "delay 75ms 10ms distribution paretonormal", NULL, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return false;
    }
    EngineConfig ec;
    memset(&ec, 0, sizeof ec);
    ec.track = f->track;
    ec.ncars = f->rec.ncars;
    for (int c = 0; c < f->rec.ncars; c++)
        ec.link[c] = &f->link;
    ec.seed = 1;
    ec.params = scheme_default_params();
    ec.nschemes = scheme_parse_list(schemes, ec.schemes, SCHEME_MAX, &err);
    ec.keep_history = true;
    ec.lagometer = true; /* F2's strips have rings to draw */
    f->rp = ec.nschemes > 0 ? replay_new(&ec, &f->rec, false, &err) : NULL;
    if (!f->rp)
        fprintf(stderr, "%s\n", err.msg);
    return f->rp != NULL;
}

static inline void race_close(Race *f)
{
    replay_free(f->rp);
    recording_free(&f->rec);
    linkspec_free(&f->link);
    track_free(f->track);
}

#endif
