/* A live race killed with SIGKILL at random moments loses at most a second
 * of race time (issue "Reliability" 6): the recording writer and the inputs
 * writer of driven races, run by a child process that reports every sample
 * it has handed to the writers through an unbuffered pipe; the parent kills
 * it, reads what it reported, and loads the .part files it left. */
#define _DEFAULT_SOURCE
#include "bot.h"
#include "inputs.h"
#include "recording.h"
#include "rng.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "netrace_config.h"

/* The child: a two-bot race on the physics, every 33 ms sample appended to
 * the recording and every input to the inputs file, then the sample's time
 * written to fd. Never returns. */
static void child_race(const char *rec_path, const char *in_path, int fd)
{
    NrError err;
    Track *t = track_load(NETRACE_SOURCE_DIR "/tracks/default.track", &err);
    World w;
    if (!t || !world_init(&w, t, 2, &err))
        _exit(3);
    Recording meta = {.version = RECORDING_VERSION, .period_ms = 33, .ncars = 2};
    snprintf(meta.track, sizeof meta.track, "default.track");
    snprintf(meta.source, sizeof meta.source, "autopilot");
    RecWriter *rw = recwriter_open(rec_path, &meta, &err);
    InputsWriter *iw = inputs_writer_open(in_path, &err);
    Bot *b[2] = {bot_new(t, &w.params, (BotDriver){0.9, 0.5}, 1, 1, &err),
                 bot_new(t, &w.params, (BotDriver){0.9, 0.5}, 1, 2, &err)};
    if (!rw || !iw || !b[0] || !b[1])
        _exit(4);
    CarInput in[2] = {{0, 0, 0}, {0, 0, 0}};
    for (;;) {
        if (w.t_us % WORLD_SAMPLE_US == 0) {
            for (int c = 0; c < 2; c++) {
                RecSample s;
                world_sample(&w, c, &s);
                if (!recwriter_append(rw, c, &s, &err))
                    _exit(5);
            }
            int32_t t_ms = (int32_t)(w.t_us / 1000);
            if (write(fd, &t_ms, sizeof t_ms) != (ssize_t)sizeof t_ms)
                _exit(6);
        }
        if (w.t_us % WORLD_CONTROL_US == 0)
            for (int c = 0; c < 2; c++) {
                bot_input(b[c], &w, c, &in[c]);
                if (!inputs_writer_add(iw, (int32_t)(w.t_us / 1000), c, &in[c], &err))
                    _exit(7);
            }
        world_step(&w, in);
    }
}

static void killed_race_loses_at_most_a_second(void **state)
{
    (void)state;
    Rng r;
    rng_seed(&r, 2026, 0);
    char dir[] = "/tmp/netrace-kill-XXXXXX";
    assert_non_null(mkdtemp(dir));
    for (int trial = 0; trial < 12; trial++) {
        char rec[256], inp[256], part[300];
        snprintf(rec, sizeof rec, "%s/race%d.csv", dir, trial);
        snprintf(inp, sizeof inp, "%s/race%d.inputs.csv", dir, trial);
        int fds[2];
        assert_int_equal(pipe(fds), 0);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            close(fds[0]);
            child_race(rec, inp, fds[1]);
        }
        close(fds[1]);
        /* Kill after a random number of reported samples (0.3 s to 5 min of
         * race time), then drain what the child reported before it died. */
        long kill_after = 10 + (long)rng_below(&r, 9000);
        long got = 0;
        int32_t last = -1, t_ms;
        while (read(fds[0], &t_ms, sizeof t_ms) == (ssize_t)sizeof t_ms) {
            last = t_ms;
            if (++got == kill_after)
                kill(pid, SIGKILL);
        }
        close(fds[0]);
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        /* The recording: a .part (never finalised), readable, missing at most
         * the last second of what the child had handed over. */
        snprintf(part, sizeof part, "%s.part", rec);
        assert_int_equal(access(rec, F_OK), -1);
        Recording out;
        NrError err;
        if (!recording_load(&out, part, &err))
            fail_msg("trial %d: %s", trial, err.msg);
        int32_t kept = out.nsamples > 0 ? recording_at(&out, 0, out.nsamples - 1)->t_ms : -1;
        if (!(kept <= last && last - kept <= 1000 + 33))
            fail_msg("trial %d: reported up to %ld ms, the .part keeps up to %ld ms", trial, (long)last,
                     (long)kept);
        recording_free(&out);
        /* The inputs: readable too, and reaching as far (inputs change every
         * control period, so their last line is within a second as well;
         * at ~7 kB per second of race the 4 kB stdio buffer goes out even
         * more often than the writer's own flush every second). */
        snprintf(part, sizeof part, "%s.part", inp);
        InputScript s;
        if (!inputs_load(&s, part, &err))
            fail_msg("trial %d: %s", trial, err.msg);
        int32_t kept_in = inputs_end_ms(&s);
        if (!(kept_in <= last + 33 && last - kept_in <= 1000 + 33))
            fail_msg("trial %d: reported up to %ld ms, the inputs keep up to %ld ms", trial, (long)last,
                     (long)kept_in);
        inputs_free(&s);
        remove(part);
        snprintf(part, sizeof part, "%s.part", rec);
        remove(part);
    }
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(killed_race_loses_at_most_a_second),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
