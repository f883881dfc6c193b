/* Car physics throughput: world steps per CPU second for two cars on the
 * default track, with fixed inputs and with two bots driving. A benchmark,
 * run by hand (not a test): build/bench/bench_physics [SECONDS_OF_RACE] */
#include "bot.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "netrace_config.h"

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    double race_s = argc > 1 ? atof(argv[1]) : 600;
    if (!(race_s > 0)) {
        fprintf(stderr, "usage: bench_physics [SECONDS_OF_RACE]\n");
        return 2;
    }
    NrError err;
    Track *t = track_load(NETRACE_SOURCE_DIR "/tracks/default.track", &err);
    if (!t) {
        fprintf(stderr, "bench_physics: %s\n", err.msg);
        return 1;
    }
    int64_t end = (int64_t)(race_s * 1e6);
    for (int bots = 0; bots < 2; bots++) {
        World w;
        world_init(&w, t, 2, &err);
        Bot *b[2] = {NULL, NULL};
        for (int i = 0; bots && i < 2; i++)
            b[i] = bot_new(t, &w.params, (BotDriver){0.9, 0.5}, 1, (uint64_t)i + 1, &err);
        CarInput in[2] = {{0.8, 0, 0.05}, {0.8, 0, -0.05}};
        long steps = 0;
        double t0 = cpu_seconds();
        while (w.t_us < end) {
            if (bots && w.t_us % WORLD_CONTROL_US == 0)
                for (int i = 0; i < 2; i++)
                    bot_input(b[i], &w, i, &in[i]);
            world_step(&w, in);
            steps++;
        }
        double dt = cpu_seconds() - t0;
        printf("%-28s %10.0f steps/s  %8.0fx real time  (%ld steps)\n",
               bots ? "two cars, two bots driving" : "two cars, fixed inputs", steps / dt,
               race_s / dt, steps);
        bot_free(b[0]);
        bot_free(b[1]);
    }
    track_free(t);
    return 0;
}
