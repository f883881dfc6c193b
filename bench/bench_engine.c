/* Engine throughput per scheme: simulated race-seconds per CPU-second on the
 * bundled race with the paper's default links.
 * usage: bench_engine [RECORDING] [TRACK] [REPEATS] [SCHEME|all] [lagometer]
 * (lagometer: the engine keeps the lagometer's rings, as the windows do) */
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

int main(int argc, char **argv)
{
    const char *rec_path = argc > 1 ? argv[1] : NETRACE_SOURCE_DIR "/recordings/default.csv";
    const char *track_path = argc > 2 ? argv[2] : NETRACE_SOURCE_DIR "/tracks/default.track";
    int repeats = argc > 3 ? atoi(argv[3]) : 300;
    if (repeats < 1)
        repeats = 1;
    Recording rec;
    NrError err;
    if (!recording_load(&rec, rec_path, &err)) {
        fprintf(stderr, "bench_engine: %s\n", err.msg);
        return 1;
    }
    Track *track = track_load(track_path, &err);
    if (!track) {
        fprintf(stderr, "bench_engine: %s\n", err.msg);
        return 1;
    }
    LinkSpec link;
    if (!linkspec_parse(&link, "delay 75ms 10ms distribution paretonormal", NULL, &err)) {
        fprintf(stderr, "bench_engine: %s\n", err.msg);
        return 1;
    }
    double *prog[2];
    for (int c = 0; c < 2; c++) {
        prog[c] = malloc(sizeof(double) * (size_t)rec.nsamples);
        if (!prog[c] || !recording_progress(&rec, track, c, prog[c])) {
            fprintf(stderr, "bench_engine: cannot compute progress\n");
            return 1;
        }
    }
    double race_s = (double)(rec.nsamples - 1) * rec.period_ms / 1000.0;
    printf("race %.1f s, %d samples per car, %d runs per scheme (best of 10 blocks)\n", race_s, rec.nsamples, repeats);
    printf("%-18s %14s %14s\n", "scheme", "us per run", "x real time");
    const char *only = argc > 4 && strcmp(argv[4], "all") != 0 ? argv[4] : NULL;
    bool lagometer = argc > 5 && strcmp(argv[5], "lagometer") == 0;
    if (lagometer)
        printf("with the lagometer's rings\n");
    for (const SchemeType *const *t = scheme_registry(); *t; t++) {
        if (only && strcmp(only, (*t)->name) != 0)
            continue;
        EngineConfig cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.track = track;
        cfg.link[0] = cfg.link[1] = &link;
        cfg.params = scheme_default_params();
        cfg.schemes[0] = *t;
        cfg.nschemes = 1;
        cfg.progress[0] = prog[0];
        cfg.progress[1] = prog[1];
        cfg.progress_n = rec.nsamples;
        cfg.lagometer = lagometer;
        /* Best of ten blocks: the CPU time of a block is what the engine
         * costs when nothing else steals the core. */
        RunResult r;
        double best = 1e300;
        int block = repeats / 10 > 0 ? repeats / 10 : 1;
        if (repeats < 10)
            block = repeats;
        for (int b = 0; b < 10; b++) {
            double t0 = cpu_seconds();
            for (int i = 0; i < block; i++) {
                cfg.seed = (uint64_t)(b * block + i);
                if (!experiment_run(&cfg, &rec, &r, &err)) {
                    fprintf(stderr, "bench_engine: %s\n", err.msg);
                    return 1;
                }
            }
            double per = (cpu_seconds() - t0) / block;
            best = per < best ? per : best;
        }
        double cpu = best * repeats;
        printf("%-18s %14.1f %14.0f\n", (*t)->name, cpu / repeats * 1e6, race_s * repeats / cpu);
    }
    free(prog[0]);
    free(prog[1]);
    linkspec_free(&link);
    track_free(track);
    recording_free(&rec);
    return 0;
}
