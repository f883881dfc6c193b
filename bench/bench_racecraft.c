/* Racecraft of two bots: lead changes, closest approach and gaps over many
 * seeded 30 s races on the default track (World + bots, the autopilot's
 * race). A measurement run by hand (not a test):
 *   build/bench/bench_racecraft [SEEDS [SKILL1 SKILL2 NOISE [SECONDS]]]
 * prints one line per seed (lead changes counted as sign changes of the
 * progress difference every 33 ms sample, minimum centre distance in cw,
 * final gap) and the distribution of lead changes. */
#include "bot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "netrace_config.h"

int main(int argc, char **argv)
{
    int seeds = argc > 1 ? atoi(argv[1]) : 200;
    int trace = 0; /* a negative SEEDS traces that one seed every 10 samples */
    if (seeds < 0) {
        trace = -seeds;
        seeds = trace;
    }
    double sk[2] = {0.9, 0.9}, nz = 0.5, secs = 30;
    if (argc > 4) {
        sk[0] = atof(argv[2]);
        sk[1] = atof(argv[3]);
        nz = atof(argv[4]);
    }
    if (argc > 5)
        secs = atof(argv[5]);
    if (seeds < 1 || !(secs > 0)) {
        fprintf(stderr, "usage: bench_racecraft [SEEDS [SKILL1 SKILL2 NOISE [SECONDS]]]\n");
        return 2;
    }
    NrError err;
    Track *t = track_load(NETRACE_SOURCE_DIR "/tracks/default.track", &err);
    if (!t) {
        fprintf(stderr, "bench_racecraft: %s\n", err.msg);
        return 1;
    }
    int hist[64] = {0};
    double sum = 0, worst_min = INFINITY;
    int64_t end = (int64_t)(secs * 1e6);
    for (int seed = trace ? trace : 1; seed <= seeds; seed++) {
        World w;
        world_init(&w, t, 2, &err);
        Bot *b[2];
        for (int i = 0; i < 2; i++)
            b[i] = bot_new(t, &w.params, (BotDriver){sk[i], nz}, (uint64_t)seed, (uint64_t)i + 1, &err);
        CarInput in[2] = {{0, 0, 0}, {0, 0, 0}};
        int changes = 0, sign = 0;
        double dmin = INFINITY;
        int close = 0, nsamp = 0, grass = 0;
        while (w.t_us <= end) {
            if (w.t_us % WORLD_SAMPLE_US == 0) {
                double diff = world_progress(&w, 0) - world_progress(&w, 1);
                int sg = diff > 0 ? 1 : diff < 0 ? -1 : 0;
                if (sg != 0 && sign != 0 && sg != sign) {
                    changes++;
                    if (trace)
                        printf("change %2d at t %5.2f s  s %6.1f  offsets %+5.2f %+5.2f  speeds %4.1f %4.1f\n", changes,
                               w.t_us * 1e-6, world_progress(&w, 0), world_offset(&w, 0), world_offset(&w, 1),
                               w.car[0].v, w.car[1].v);
                }
                if (sg != 0)
                    sign = sg;
                double d = hypot(w.car[0].x - w.car[1].x, w.car[0].y - w.car[1].y);
                dmin = fmin(dmin, d);
                close += fabs(diff) < 3.0;
                grass += world_on_grass(&w, 0) + world_on_grass(&w, 1);
                nsamp++;
                if (trace && w.t_us % (10 * WORLD_SAMPLE_US) == 0)
                    printf("t %5.2f  s %6.1f diff %+6.2f  off %+5.2f %+5.2f  v %5.1f %5.1f  d %.2f  k %+.3f\n",
                           w.t_us * 1e-6, world_progress(&w, 0), diff, world_offset(&w, 0), world_offset(&w, 1),
                           w.car[0].v, w.car[1].v, d, track_curvature(t, world_progress(&w, 0)));
            }
            if (w.t_us % WORLD_CONTROL_US == 0)
                for (int i = 0; i < 2; i++)
                    bot_input(b[i], &w, i, &in[i]);
            world_step(&w, in);
        }
        printf("seed %4d  changes %2d  min_dist %.3f  gap %+.2f  laps %.2f %.2f  within3 %.2f  grass %.3f\n", seed, changes, dmin,
               world_progress(&w, 0) - world_progress(&w, 1), world_progress(&w, 0) / track_length(t),
               world_progress(&w, 1) / track_length(t), (double)close / nsamp, grass / (2.0 * nsamp));
        hist[changes < 63 ? changes : 63]++;
        sum += changes;
        worst_min = fmin(worst_min, dmin);
        bot_free(b[0]);
        bot_free(b[1]);
    }
    if (trace) {
        track_free(t);
        return 0;
    }
    printf("mean %.2f  min centre distance %.3f\n", sum / seeds, worst_min);
    int in_range = 0;
    for (int k = 0; k < 64; k++) {
        if (hist[k])
            printf("  %2d changes: %d\n", k, hist[k]);
        if (k >= 8 && k <= 12)
            in_range += hist[k];
    }
    printf("8-12 changes: %d of %d seeds\n", in_range, seeds);
    track_free(t);
    return 0;
}
