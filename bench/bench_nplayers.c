/* Engine cost against the number of cars and the topology (docs/nplayers.md):
 * an 8-car autopilot race (30 s, seed 10, built in process), raced with its
 * first N = 2, 4, 8 cars over p2p and cs (relay) with the paper's default
 * link on every line, each racing scheme alone and the four together. Prints
 * CPU microseconds per 33 ms sample, CPU milliseconds per 30 s race and
 * simulated race-seconds per CPU-second (x real time, one core; issue 19's
 * target: the 8-car race with the four at 10^4 x, 3 ms a race). A
 * measurement run by hand, the optional arguments picking one row:
 *   build/bench/bench_nplayers [REPEATS [CARS [p2p|cs [SCHEMES]]]] */
#include "autopilot.h"
#include "experiment.h"
#include "netrace_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Best of five blocks of repeats / 5 runs: CPU seconds per run. */
static double time_runs(EngineConfig *cfg, const Recording *rec, int repeats)
{
    static RunResult r[SCHEME_MAX];
    NrError err;
    double best = 1e300;
    int block = repeats / 5 > 0 ? repeats / 5 : 1;
    for (int b = 0; b < 5; b++) {
        double t0 = cpu_seconds();
        for (int i = 0; i < block; i++) {
            cfg->seed = (uint64_t)(b * block + i);
            if (!experiment_run(cfg, rec, r, &err)) {
                fprintf(stderr, "bench_nplayers: %s\n", err.msg);
                exit(1);
            }
        }
        double per = (cpu_seconds() - t0) / block;
        best = per < best ? per : best;
    }
    return best;
}

int main(int argc, char **argv)
{
    int repeats = argc > 1 ? atoi(argv[1]) : 20;
    int only_n = argc > 2 ? atoi(argv[2]) : 0;
    const char *only_topo = argc > 3 ? argv[3] : NULL;
    const char *only_set = argc > 4 ? argv[4] : NULL;
    NrError err;
    Track *track = track_load(NETRACE_SOURCE_DIR "/tracks/default.track", &err);
    AutopilotConfig ac;
    autopilot_config_default(&ac);
    ac.ncars = 8;
    ac.seed = 10;
    ac.duration_ms = 30000;
    Recording rec;
    LinkSpec link;
    if (!track || !autopilot_race(track, &ac, &rec, &err) ||
        !linkspec_parse(&link, "delay 75ms 10ms distribution paretonormal", NULL, &err)) {
        fprintf(stderr, "bench_nplayers: %s\n", err.msg);
        return 1;
    }
    double *prog[8];
    for (int c = 0; c < 8; c++) {
        prog[c] = malloc(sizeof(double) * (size_t)rec.nsamples);
        if (!prog[c] || !recording_progress(&rec, track, c, prog[c]))
            return 1;
    }
    double race_s = (double)(rec.nsamples - 1) * rec.period_ms / 1000.0;
    printf("8-car autopilot race %.1f s, %d samples; best of 5 blocks of %d runs\n", race_s, rec.nsamples,
           repeats / 5 > 0 ? repeats / 5 : 1);
    printf("%-5s %-4s %-14s %12s %10s %14s\n", "cars", "topo", "schemes", "us/sample", "ms/race", "x real time");
    const char *sets[] = {"nc", "causality", "dr", "dr-causality", "racing"};
    for (int n = 2; n <= 8; n *= 2)
        for (int topo = 0; topo < 2; topo++)
            for (int s = 0; s < 5; s++) {
                if ((only_n && n != only_n) || (only_topo && strcmp(only_topo, topo ? "cs" : "p2p") != 0) ||
                    (only_set && strcmp(only_set, sets[s]) != 0))
                    continue;
                EngineConfig cfg;
                memset(&cfg, 0, sizeof cfg);
                cfg.track = track;
                cfg.ncars = n;
                cfg.topology = topo ? ROUTE_CS : ROUTE_P2P;
                cfg.params = scheme_default_params();
                cfg.nschemes = scheme_parse_list(sets[s], cfg.schemes, SCHEME_MAX, &err);
                for (int c = 0; c < n; c++) {
                    cfg.link[c] = &link;
                    cfg.down_link[c] = &link;
                    cfg.progress[c] = prog[c];
                }
                cfg.progress_n = rec.nsamples;
                double per = time_runs(&cfg, &rec, repeats);
                printf("%-5d %-4s %-14s %12.2f %10.2f %14.0f\n", n, topo ? "cs" : "p2p", sets[s],
                       per / rec.nsamples * 1e6, per * 1e3, race_s / per);
            }
    for (int c = 0; c < 8; c++)
        free(prog[c]);
    linkspec_free(&link);
    recording_free(&rec);
    track_free(track);
    return 0;
}
