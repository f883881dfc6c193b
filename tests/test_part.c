/* The one atomic .part writer (base/nr_part.h): what lands on disk after
 * open, flush, close and abort, and what is never replaced. */
#define _DEFAULT_SOURCE
#include "nr_part.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct Dir {
    char root[64];
    char path[128], part[136];
} Dir;

static int dir_setup(void **state)
{
    Dir *d = calloc(1, sizeof *d);
    if (!d)
        return -1;
    snprintf(d->root, sizeof d->root, "/tmp/netrace_part_XXXXXX");
    if (!mkdtemp(d->root)) {
        free(d);
        return -1;
    }
    snprintf(d->path, sizeof d->path, "%s/out.csv", d->root);
    snprintf(d->part, sizeof d->part, "%s/out.csv.part", d->root);
    *state = d;
    return 0;
}

static int dir_teardown(void **state)
{
    Dir *d = *state;
    unlink(d->path);
    unlink(d->part);
    rmdir(d->root);
    free(d);
    return 0;
}

/* The whole content of path ("" when it cannot be read: NULL). */
static char *slurp(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t got = fread(buf, 1, n - 1, f);
    buf[got] = '\0';
    fclose(f);
    return buf;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void written_then_renamed(void **state)
{
    Dir *d = *state;
    NrPartFile pf;
    assert_int_equal(nr_part_open(&pf, d->path, 0), NR_PART_OK);
    assert_string_equal(pf.part, d->part);
    fputs("a,b\n1,2\n", pf.f);
    assert_int_equal(access(d->path, F_OK), -1); /* nothing under PATH yet */
    assert_int_equal(nr_part_close(&pf), NR_PART_OK);
    assert_null(pf.f);
    char buf[64];
    assert_string_equal(slurp(d->path, buf, sizeof buf), "a,b\n1,2\n");
    assert_int_equal(access(d->part, F_OK), -1);
    nr_part_abort(&pf); /* after a good close: removes nothing */
    assert_int_equal(access(d->path, F_OK), 0);
}

/* NR_PART_PRIVATE: the .part and the renamed file are 0600 even under a
 * umask of 0 (which leaves an ordinary one 0666). */
static void private_is_owner_only(void **state)
{
    Dir *d = *state;
    mode_t old = umask(0);
    NrPartFile pf;
    struct stat st;
    assert_int_equal(nr_part_open(&pf, d->path, NR_PART_PRIVATE), NR_PART_OK);
    assert_int_equal(stat(d->part, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_int_equal(nr_part_close(&pf), NR_PART_OK);
    assert_int_equal(stat(d->path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    unlink(d->path);
    assert_int_equal(nr_part_open(&pf, d->path, 0), NR_PART_OK);
    assert_int_equal(nr_part_close(&pf), NR_PART_OK);
    assert_int_equal(stat(d->path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0666);
    umask(old);
}

/* A crash after a flush leaves the flushed rows readable in PATH.part. */
static void flush_reaches_the_part_file(void **state)
{
    Dir *d = *state;
    NrPartFile pf;
    assert_int_equal(nr_part_open(&pf, d->path, 0), NR_PART_OK);
    fputs("row 1\n", pf.f);
    assert_int_equal(nr_part_flush(&pf), NR_PART_OK);
    char buf[64];
    assert_string_equal(slurp(d->part, buf, sizeof buf), "row 1\n");
    nr_part_abort(&pf);
    assert_int_equal(access(d->part, F_OK), -1);
    assert_int_equal(access(d->path, F_OK), -1);
}

static void existing_part_is_never_replaced(void **state)
{
    Dir *d = *state;
    put(d->part, "crashed race\n");
    NrPartFile pf;
    assert_int_equal(nr_part_open(&pf, d->path, NR_PART_REPLACE), NR_PART_EXISTS);
    assert_null(pf.f);
    assert_string_equal(nr_part_reason(&pf), "exists");
    nr_part_abort(&pf); /* must not remove someone else's .part */
    char buf[64];
    assert_string_equal(slurp(d->part, buf, sizeof buf), "crashed race\n");
    assert_int_equal(access(d->path, F_OK), -1);
}

static void final_file_kept_unless_replace(void **state)
{
    Dir *d = *state;
    put(d->path, "older\n");
    NrPartFile pf;
    assert_int_equal(nr_part_open(&pf, d->path, 0), NR_PART_FINAL_EXISTS);
    assert_null(pf.f);
    assert_int_equal(access(d->part, F_OK), -1);
    /* allowed: replaced at close, not before */
    assert_int_equal(nr_part_open(&pf, d->path, NR_PART_REPLACE), NR_PART_OK);
    fputs("newer\n", pf.f);
    char buf[64];
    assert_string_equal(slurp(d->path, buf, sizeof buf), "older\n");
    assert_int_equal(nr_part_close(&pf), NR_PART_OK);
    assert_string_equal(slurp(d->path, buf, sizeof buf), "newer\n");
}

/* PATH appearing while the .part is written (another run) is not replaced:
 * close refuses and keeps the .part, abort removes it. */
static void final_file_appearing_meanwhile_is_kept(void **state)
{
    Dir *d = *state;
    NrPartFile pf;
    assert_int_equal(nr_part_open(&pf, d->path, 0), NR_PART_OK);
    fputs("mine\n", pf.f);
    put(d->path, "theirs\n");
    assert_int_equal(nr_part_close(&pf), NR_PART_FINAL_EXISTS);
    char buf[64];
    assert_string_equal(slurp(d->path, buf, sizeof buf), "theirs\n");
    assert_string_equal(slurp(d->part, buf, sizeof buf), "mine\n");
    nr_part_abort(&pf);
    assert_int_equal(access(d->part, F_OK), -1);
    assert_string_equal(slurp(d->path, buf, sizeof buf), "theirs\n");
}

static void abort_keeps_the_older_file(void **state)
{
    Dir *d = *state;
    put(d->path, "older\n");
    NrPartFile pf;
    assert_int_equal(nr_part_open(&pf, d->path, NR_PART_REPLACE), NR_PART_OK);
    fputs("half", pf.f);
    nr_part_abort(&pf);
    assert_null(pf.f);
    char buf[64];
    assert_string_equal(slurp(d->path, buf, sizeof buf), "older\n");
    assert_int_equal(access(d->part, F_OK), -1);
}

/* A write that fails (the descriptor made read-only underneath the stream)
 * is reported by close with its errno; the .part stays until abort. */
static void write_error_is_reported_and_not_renamed(void **state)
{
    Dir *d = *state;
    NrPartFile pf;
    assert_int_equal(nr_part_open(&pf, d->path, 0), NR_PART_OK);
    int ro = open("/dev/null", O_RDONLY);
    assert_true(ro >= 0);
    assert_true(dup2(ro, fileno(pf.f)) >= 0);
    close(ro);
    fputs("lost\n", pf.f);
    assert_int_equal(nr_part_close(&pf), NR_PART_WRITE);
    assert_int_equal(pf.errnum, EBADF);
    assert_string_equal(nr_part_reason(&pf), strerror(EBADF));
    assert_null(pf.f);
    assert_int_equal(access(d->path, F_OK), -1);
    assert_int_equal(access(d->part, F_OK), 0);
    nr_part_abort(&pf);
    assert_int_equal(access(d->part, F_OK), -1);
}

static void bad_paths(void **state)
{
    Dir *d = *state;
    NrPartFile pf;
    char missing[160];
    snprintf(missing, sizeof missing, "%s/no/dir/x.csv", d->root);
    assert_int_equal(nr_part_open(&pf, missing, 0), NR_PART_CREATE);
    assert_int_equal(pf.errnum, ENOENT);
    assert_string_equal(nr_part_reason(&pf), strerror(ENOENT));
    nr_part_abort(&pf);

    char *lng = malloc(NR_PART_PATH_MAX + 1);
    assert_non_null(lng);
    memset(lng, 'a', NR_PART_PATH_MAX);
    lng[NR_PART_PATH_MAX] = '\0';
    assert_int_equal(nr_part_open(&pf, lng, 0), NR_PART_TOO_LONG);
    assert_string_equal(nr_part_reason(&pf), "path too long");
    free(lng);
}

static void part_names(void **state)
{
    (void)state;
    assert_true(nr_part_named("race.csv.part"));
    assert_true(nr_part_named(".part"));
    assert_false(nr_part_named("race.csv"));
    assert_false(nr_part_named("part"));
    assert_false(nr_part_named("race.part.csv"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(written_then_renamed, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(flush_reaches_the_part_file, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(existing_part_is_never_replaced, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(final_file_kept_unless_replace, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(final_file_appearing_meanwhile_is_kept, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(abort_keeps_the_older_file, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(write_error_is_reported_and_not_renamed, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(bad_paths, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(private_is_owner_only, dir_setup, dir_teardown),
        cmocka_unit_test(part_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
