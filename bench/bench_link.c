/* Delay emulator throughput: link_draw() calls per second for typical specs.
 * A benchmark, run by hand (not a test): build/bench/bench_link [N] */
#include "link.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 20000000L;
    if (n <= 0) {
        fprintf(stderr, "usage: bench_link [DRAWS]\n");
        return 2;
    }
    const char *specs[] = {
        "delay 75ms",
        "delay 75ms 10ms",
        "delay 75ms 10ms distribution paretonormal",
        "delay 75ms 10ms 25% distribution paretonormal loss 2% 25% duplicate 1%",
        "delay 75ms 10ms distribution paretonormal loss gemodel 1% 10% 70% 0.1%",
        "delay 50ms gamma 3 10ms loss 5%",
    };
    printf("%-72s %14s %10s\n", "spec", "draws/s", "ns/draw");
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        LinkSpec s;
        NrError err;
        if (!linkspec_parse(&s, specs[i], NULL, &err)) {
            fprintf(stderr, "bench_link: %s\n", err.msg);
            return 1;
        }
        Link l;
        link_init(&l, &s, 1, 0);
        int64_t sink = 0;
        double t0 = cpu_seconds();
        for (long k = 0; k < n; k++) {
            LinkDraw d;
            link_draw(&l, &d);
            sink += d.delay_us + d.lost;
        }
        double dt = cpu_seconds() - t0;
        printf("%-72s %14.0f %10.2f%s\n", specs[i], (double)n / dt, dt * 1e9 / (double)n,
               sink == 42 ? " " : "");
        link_free(&l);
        linkspec_free(&s);
    }
    return 0;
}
