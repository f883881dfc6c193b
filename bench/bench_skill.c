/* The bot's pace and line by skill: one bot alone on the default track
 * (World + bot, no other car), per skill the flying lap (the second lap,
 * from the first crossing of the line after the start to the next) and how
 * far the car strays from the bot's own racing line (|offset - line| every
 * 33 ms sample of that lap, mean and largest) and how often its centre is on
 * the grass. A measurement run by hand (not a test):
 *   build/bench/bench_skill [SEEDS [NOISE [SKILL...]]]
 * default 20 seeds, noise 0.5, skills -1 -0.5 0 0.5 0.9 1. */
#include "bot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "netrace_config.h"

typedef struct Lap {
    double lap_s;          /* the flying lap; NAN when not driven in 4 minutes */
    double dev_mean, dev_max; /* cw off the racing line over that lap */
    double grass;          /* share of its samples on the grass */
} Lap;

/* One bot alone from grid slot 0: its second lap. */
static Lap flying_lap(const Track *t, double skill, double noise, uint64_t seed)
{
    NrError err;
    World w;
    Lap out = {NAN, 0, 0, 0};
    if (!world_init_solo(&w, t, 0, &err))
        return out;
    Bot *b = bot_new(t, &w.params, (BotDriver){skill, noise}, seed, 1, &err);
    if (!b)
        return out;
    double len = track_length(t);
    CarInput in = {0, 0, 0};
    int64_t lap_start = -1;
    int n = 0, grass = 0;
    double dev_sum = 0;
    while (w.t_us < 240 * NR_US_PER_S) {
        double s = world_progress(&w, 0);
        if (lap_start < 0 && s >= len)
            lap_start = w.t_us;
        if (lap_start >= 0 && s >= 2 * len) {
            out.lap_s = (double)(w.t_us - lap_start) / 1e6;
            break;
        }
        if (lap_start >= 0 && w.t_us % WORLD_SAMPLE_US == 0) {
            double d = fabs(world_offset(&w, 0) - bot_line(b, s));
            dev_sum += d;
            out.dev_max = fmax(out.dev_max, d);
            grass += world_on_grass(&w, 0);
            n++;
        }
        if (w.t_us % WORLD_CONTROL_US == 0)
            bot_input(b, &w, 0, &in);
        world_step(&w, &in);
    }
    out.dev_mean = n ? dev_sum / n : NAN;
    out.grass = n ? (double)grass / n : NAN;
    bot_free(b);
    return out;
}

int main(int argc, char **argv)
{
    int seeds = argc > 1 ? atoi(argv[1]) : 20;
    double noise = argc > 2 ? atof(argv[2]) : 0.5;
    double dflt[] = {-1, -0.5, 0, 0.5, 0.9, 1};
    int nsk = argc > 3 ? argc - 3 : (int)(sizeof dflt / sizeof dflt[0]);
    if (seeds < 1 || !(noise >= 0 && noise <= 1)) {
        fprintf(stderr, "usage: bench_skill [SEEDS [NOISE [SKILL...]]]\n");
        return 2;
    }
    NrError err;
    Track *t = track_load(NETRACE_SOURCE_DIR "/tracks/default.track", &err);
    if (!t) {
        fprintf(stderr, "bench_skill: %s\n", err.msg);
        return 1;
    }
    printf("default track, noise %g, seeds 1-%d: the second lap of a bot alone\n", noise, seeds);
    printf("skill   lap mean  lap min  lap max  off-line mean  off-line max  grass\n");
    for (int k = 0; k < nsk; k++) {
        double skill = argc > 3 ? atof(argv[3 + k]) : dflt[k];
        double sum = 0, lo = INFINITY, hi = 0, dev = 0, devmax = 0, grass = 0;
        int done = 0;
        for (int seed = 1; seed <= seeds; seed++) {
            Lap l = flying_lap(t, skill, noise, (uint64_t)seed);
            if (isnan(l.lap_s))
                continue;
            done++;
            sum += l.lap_s;
            lo = fmin(lo, l.lap_s);
            hi = fmax(hi, l.lap_s);
            dev += l.dev_mean;
            devmax = fmax(devmax, l.dev_max);
            grass += l.grass;
        }
        if (done == 0) {
            printf("%5.2f   no lap driven (a skill outside the bot's range?)\n", skill);
            continue;
        }
        printf("%5.2f   %6.2f s %6.2f s %6.2f s  %9.2f cw  %10.2f cw  %4.1f %%%s\n", skill, sum / done, lo, hi,
               dev / done, devmax, 100.0 * grass / done, done < seeds ? " (some seeds drove no lap)" : "");
    }
    track_free(t);
    return 0;
}
