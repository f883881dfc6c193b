/* Track worst cases: loading a long, wide track and projecting points far
 * from its centre line (the middle of a large circle). A benchmark, run by
 * hand (not a test): build/bench/bench_track [QUERIES] */
#include "track.h"

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <time.h>

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A circle of the given circumference (car widths) as track text. */
static char *circle_text(double length, double width)
{
    const int n = 64;
    size_t cap = 128 + (size_t)n * 64;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    double r = length / (2.0 * 3.14159265358979323846);
    int w = snprintf(s, cap, "netrace-track 1\nname circle\nwidth %g\n", width);
    for (int i = 0; i < n && w > 0 && (size_t)w < cap; i++) {
        double a = 2.0 * 3.14159265358979323846 * i / n;
        w += snprintf(s + w, cap - (size_t)w, "point %.6f %.6f\n", r * cos(a), r * sin(a));
    }
    return s;
}

int main(int argc, char **argv)
{
    long q = argc > 1 ? strtol(argv[1], NULL, 10) : 2000;
    if (q <= 0) {
        fprintf(stderr, "usage: bench_track [QUERIES]\n");
        return 2;
    }
    const double widths[] = {8, 100, 1000};
    printf("%-28s %12s %16s %16s\n", "track", "load ms", "centre us/query", "on-track us/query");
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        char *text = circle_text(15000, widths[i]);
        NrError err;
        double t0 = cpu_seconds();
        Track *t = text ? track_parse(text, "circle", &err) : NULL;
        double t1 = cpu_seconds();
        free(text);
        if (!t) {
            fprintf(stderr, "bench_track: %s\n", err.msg);
            return 1;
        }
        double sink = 0;
        for (long k = 0; k < q; k++) /* points near the centre, 2000+ cw from the line */
            sink += track_progress(t, 0.001 * (double)(k % 100), 0.001 * (double)(k / 100 % 100), 0);
        double t2 = cpu_seconds();
        double r = 15000 / (2.0 * 3.14159265358979323846);
        for (long k = 0; k < q; k++) /* on the centre line, walking along it */
            sink += track_progress(t, r * cos(k * 1e-3), r * sin(k * 1e-3), r * k * 1e-3);
        double t3 = cpu_seconds();
        printf("circle 15000 cw, width %-5g %12.1f %16.2f %16.3f%s\n", widths[i], (t1 - t0) * 1e3,
               (t2 - t1) * 1e6 / (double)q, (t3 - t2) * 1e6 / (double)q, sink == 42 ? " " : "");
        track_free(t);
    }
    return 0;
}
