/* The race options of replay (race_opts.h): each input read once per run.
 * `replay --links FILE` learns the matrix's topology for the header's
 * defaults and then takes its lines; every trace line of it loads its
 * delays file; the recording's header gives the defaults and the lines.
 * The files are counted as the loaders open them (nr_file_open, wrapped by
 * the linker) and the header's parses (raceheader_read, wrapped): one
 * open of the matrix, one of the delays file for all its trace lines, one
 * of the recording, one parse of its header (before: 2, 2 per line, 1 and
 * 3); and the topology resolved once (race_topo_resolve). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "netrace_config.h"
#include "nr_file.h"
#include "race_opts.h"

FILE *__wrap_nr_file_open(const char *path, const char *what, NrError *err);
FILE *__real_nr_file_open(const char *path, const char *what, NrError *err);
bool __wrap_raceheader_read(RaceHeader *h, const Recording *rec, const char *path, NrError *err);
bool __real_raceheader_read(RaceHeader *h, const Recording *rec, const char *path, NrError *err);

#define OPENS_MAX 64

/* Every path the loaders opened, in order, and the header's parses. */
static struct {
    char path[OPENS_MAX][512];
    int n;
    int header_reads;
} seen;

FILE *__wrap_nr_file_open(const char *path, const char *what, NrError *err)
{
    if (seen.n < OPENS_MAX)
        snprintf(seen.path[seen.n++], sizeof seen.path[0], "%s", path);
    return __real_nr_file_open(path, what, err);
}

bool __wrap_raceheader_read(RaceHeader *h, const Recording *rec, const char *path, NrError *err)
{
    seen.header_reads++;
    return __real_raceheader_read(h, rec, path, err);
}

/* How many opens named a path ending in tail. */
static int opens_of(const char *tail)
{
    int k = 0;
    for (int i = 0; i < seen.n; i++) {
        size_t a = strlen(seen.path[i]), b = strlen(tail);
        k += a >= b && strcmp(seen.path[i] + a - b, tail) == 0;
    }
    return k;
}

/* A delays file of 75 ms on lines 1 -> 2 and 2 -> 1 for every sample of a
 * race of up to n samples, and a link matrix of both lines over it. */
static void write_fixture(const char *dir, int n, char *links, size_t cap)
{
    char delays[512];
    snprintf(delays, sizeof delays, "%s/delays.csv", dir);
    FILE *f = fopen(delays, "w");
    assert_non_null(f);
    fprintf(f, "direction,seq,delay_us\n");
    for (int d = 0; d < 2; d++)
        for (int s = 0; s < n; s++)
            fprintf(f, "%s,%d,75000\n", d ? "21" : "12", s);
    fclose(f);
    snprintf(links, cap, "%s/links.txt", dir);
    f = fopen(links, "w");
    assert_non_null(f);
    fprintf(f, "# both lines over one measured trace\n1-2 trace %s direction 12\n2-1 trace %s direction 21\n", delays,
            delays);
    fclose(f);
}

/* A new temporary dir (its name into dir) and its links.txt, open to write. */
static FILE *links_open(char *dir, char *links, size_t cap)
{
    assert_non_null(mkdtemp(dir));
    snprintf(links, cap, "%s/links.txt", dir);
    FILE *f = fopen(links, "w");
    assert_non_null(f);
    return f;
}

extern const CliCommand cmd_replay;
const CliCommand *const cli_commands[] = {&cmd_replay, NULL}; /* main.c's table, which the test has not */

/* The command's run with stdout (its table) out of the test's log. */
static int run_quiet(const CliCommand *c, int argc, char **argv)
{
    fflush(stdout);
    int keep = dup(1), null = open("/dev/null", O_WRONLY);
    assert_true(keep >= 0 && null >= 0);
    dup2(null, 1);
    close(null);
    int rc = c->run(argc, argv);
    fflush(stdout);
    dup2(keep, 1);
    close(keep);
    return rc;
}

static void replay_reads_each_input_once(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_race_opts.XXXXXX", links[600];
    assert_non_null(mkdtemp(dir));
    write_fixture(dir, 4000, links, sizeof links);
    char *argv[] = {"replay", NETRACE_SOURCE_DIR "/recordings/default.csv", "--headless", "--schemes", "nc,dr",
                    "--links", links};
    memset(&seen, 0, sizeof seen);
    assert_int_equal(run_quiet(&cmd_replay, 7, argv), CLI_OK);
    assert_int_equal(opens_of("/links.txt"), 1);
    assert_int_equal(opens_of("/delays.csv"), 1); /* its two trace lines, one read */
    assert_int_equal(opens_of("/default.csv"), 1);
    assert_int_equal(seen.header_reads, 1);
    char path[600];
    snprintf(path, sizeof path, "%s/delays.csv", dir);
    unlink(path);
    unlink(links);
    rmdir(dir);
}

/* A served race's matrix as netrace merge writes it: client-server, every
 * line over one delays file, a hop's rows each (uplinks 1s, 2s; downlinks
 * s1, s2 taken per sender as 2s1, 1s2). The file is read once for the
 * four lines and the route takes each sender's downlink rows from that
 * read (before: once per line and again per sender, 6). */
static void replay_reads_a_served_matrix_once(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_race_opts.XXXXXX", hops[600], links[600];
    assert_non_null(mkdtemp(dir));
    snprintf(hops, sizeof hops, "%s/hops.csv", dir);
    FILE *f = fopen(hops, "w");
    assert_non_null(f);
    fprintf(f, "direction,seq,delay_us\n");
    for (int s = 0; s < 1000; s++)
        fprintf(f, "1s,%d,20000\n2s,%d,30000\n1s2,%d,40000\n2s1,%d,50000\n", s, s, s, s);
    fclose(f);
    snprintf(links, sizeof links, "%s/links.txt", dir);
    f = fopen(links, "w");
    assert_non_null(f);
    fprintf(f, "1-s trace %s direction 1s\n2-s trace %s direction 2s\ns-1 trace %s direction s1\n"
               "s-2 trace %s direction s2\n", hops, hops, hops, hops);
    fclose(f);
    char *argv[] = {"replay", NETRACE_SOURCE_DIR "/recordings/default.csv", "--headless", "--schemes", "nc,dr",
                    "--topology", "cs", "--links", links};
    memset(&seen, 0, sizeof seen);
    assert_int_equal(run_quiet(&cmd_replay, 9, argv), CLI_OK);
    assert_int_equal(opens_of("/links.txt"), 1);
    assert_int_equal(opens_of("/hops.csv"), 1);
    unlink(hops);
    unlink(links);
    rmdir(dir);
}

/* The topology is resolved once per options: a second race_topo_resolve
 * (or _cars) changes nothing and gives the first one's answer. Before, it
 * found the links file's lines taken by the first and failed with an empty
 * message, and made cars 3 and 4's progress again (the first leaked). A
 * race of the four-car recording over a matrix of its 12 lines. */
static void topology_resolved_once(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_race_opts.XXXXXX", links[600];
    FILE *f = links_open(dir, links, sizeof links);
    for (int i = 1; i <= 4; i++)
        for (int j = 1; j <= 4; j++)
            if (i != j)
                fprintf(f, "%d-%d delay %dms\n", i, j, 10 * i + j);
    fclose(f);
    RaceOpts o;
    race_opts_init(&o, "nc,dr");
    o.recording = NETRACE_SOURCE_DIR "/recordings/four.csv";
    o.links_path = links;
    memset(&seen, 0, sizeof seen);
    assert_int_equal(race_opts_load(&o, "replay"), CLI_OK);
    assert_int_equal(race_header_defaults(&o, "replay"), CLI_OK);
    assert_int_equal(race_topo_resolve(&o, "replay"), CLI_OK);
    assert_int_equal(o.ncars, 4);
    const LinkSpec *l34 = linkmatrix_get(o.lines, 2, 3);
    assert_non_null(l34);
    assert_string_equal(l34->text, "delay 34ms");
    const double *p3 = o.progress[2], *p4 = o.progress[3];
    assert_non_null(p3);
    assert_non_null(p4);
    assert_int_equal(race_topo_resolve(&o, "replay"), CLI_OK);
    assert_int_equal(race_topo_resolve_cars(&o, "replay", 4), CLI_OK);
    assert_int_equal(o.ncars, 4);
    assert_ptr_equal(linkmatrix_get(o.lines, 2, 3), l34);
    assert_string_equal(linkmatrix_get(o.lines, 2, 3)->text, "delay 34ms");
    assert_ptr_equal(o.progress[2], p3);
    assert_ptr_equal(o.progress[3], p4);
    assert_int_equal(opens_of("/links.txt"), 1);
    race_opts_free(&o);
    unlink(links);
    rmdir(dir);
}

/* A matrix that cannot be read is named once, in one line, exit 1: read
 * once, its error kept for the step that reports it. */
static void replay_names_a_bad_matrix_once(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_race_opts.XXXXXX", links[600];
    FILE *f = links_open(dir, links, sizeof links);
    fprintf(f, "1-2 delay 50ms\n1-2 delay 60ms\n"); /* a line given twice */
    fclose(f);
    char *argv[] = {"replay", NETRACE_SOURCE_DIR "/recordings/default.csv", "--headless", "--schemes", "nc",
                    "--links", links};
    memset(&seen, 0, sizeof seen);
    assert_int_equal(run_quiet(&cmd_replay, 7, argv), CLI_FAIL);
    assert_int_equal(opens_of("/links.txt"), 1);
    unlink(links);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(replay_reads_each_input_once),
        cmocka_unit_test(replay_reads_a_served_matrix_once),
        cmocka_unit_test(topology_resolved_once),
        cmocka_unit_test(replay_names_a_bad_matrix_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
