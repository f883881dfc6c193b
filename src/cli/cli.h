/* Command-line plumbing shared by every subcommand.
 *
 * Exit codes: 0 success, 1 runtime failure (unreadable or malformed input
 * file), 2 usage error (unknown flag, bad value, bad link spec).
 *
 * Contracts:
 *   cli_usage_error(cmd, fmt, ...)  prints "netrace CMD: message" and the
 *        command's usage line to stderr; returns 2.
 *   cli_fail(cmd, fmt, ...)         prints "netrace CMD: message"; returns 1.
 *   cli_value(argc, argv, &i, cmd, &val)  takes the value of the flag at
 *        argv[i] (either "--flag value" or "--flag=value"); false (after
 *        printing a usage error) when it is missing.
 *   cli_flag_is(arg, name)          arg is "name" or "name=..."
 *   cli_int / cli_double / cli_u64  parse a flag value within [lo, hi];
 *        print a usage error naming the flag and return false otherwise.
 *   cli_list(cmd, flag, val, buf, bufsz, items, max)  splits the flag value
 *        "a,b,c" in place into buf (a copy of val): items[0..n-1], n >= 1.
 *        Returns n, or -1 after a usage error naming the flag when the value
 *        is longer than bufsz - 1, has an empty item, or more than max items.
 *   cli_find_command(name)          registry lookup; NULL when unknown.
 *   cli_suggest_command(word)       the command a mistyped word most likely
 *        meant (edit distance), or NULL when none is close.
 *   cli_unknown_option(cmd, arg)    usage error "unknown option 'ARG'", with
 *        "(did you mean --FLAG?)" when one of cmd's documented flags is
 *        within a few edits; returns 2.
 *   cli_peer_parse(cmd, v, host, hn, default_port, &port)  HOST[:PORT] into
 *        host (hn bytes) and port (default_port without one); false after
 *        a usage error.
 *   cli_merge(j)                    `netrace merge` of j's logs (below).
 *   cli_out_open / cli_out_close    output files: PATH.part, renamed into place
 *        when complete (see below).
 */
#ifndef NR_CLI_H
#define NR_CLI_H

#include "nr_common.h"
#include "nr_part.h"

#include <stdio.h>

#define CLI_OK 0
#define CLI_FAIL 1
#define CLI_USAGE 2

typedef struct CliCommand {
    const char *name;
    const char *summary;
    const char *usage; /* one or more lines, without "usage: " */
    const char *help;  /* paragraph(s) for `netrace help CMD` */
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
} CliCommand;

extern const CliCommand *const cli_commands[];

const CliCommand *cli_find_command(const char *name);
/* --plot PATH must end in .png, .svg or .pdf (plot_path_ok): a usage error
 * (2) otherwise, before anything is computed; CLI_OK when it does. */
int cli_plot_check(const char *cmd, const char *path);
/* A flag that writes a PNG only (--snapshot): a usage error naming FLAG
 * unless PATH ends in .png (any case). */
int cli_png_check(const char *cmd, const char *flag, const char *path);
/* in with every space-separated word that holds a '/' cut to what follows
 * its last '/' (out, n bytes, always terminated): a plot title names the
 * race file "default.csv", never "/tmp/x/recordings/default.csv". */
void cli_strip_dirs(const char *in, char *out, size_t n);
/* A folder the window writes into later (--shots DIR): checked at start,
 * so that F12 in the middle of a race does not find it missing. A usage
 * error (2) naming FLAG and DIR when DIR does not exist, is not a
 * directory or is not writable; CLI_OK otherwise. */
int cli_dir_check(const char *cmd, const char *flag, const char *dir);
/* "wrote PATH" on stderr: every command that writes a file says so. */
void cli_wrote(const char *path);
const char *cli_suggest_command(const char *word);
/* The name of the NULL-terminated names nearest to word, NULL when none is
 * near enough to be a typo. */
const char *cli_suggest_word(const char *word, const char *const *names);
int cli_unknown_option(const char *cmd, const char *arg);
int cli_usage_error(const char *cmd, const char *fmt, ...) NR_PRINTF(2, 3);
int cli_fail(const char *cmd, const char *fmt, ...) NR_PRINTF(2, 3);
bool cli_flag_is(const char *arg, const char *name);
bool cli_value(int argc, char **argv, int *i, const char *cmd, const char **val);
bool cli_int(const char *cmd, const char *flag, const char *val, int64_t lo, int64_t hi, int64_t *out);
bool cli_double(const char *cmd, const char *flag, const char *val, double lo, double hi, double *out);
bool cli_peer_parse(const char *cmd, const char *v, char *host, size_t hn, uint16_t default_port, uint16_t *port);
bool cli_u64(const char *cmd, const char *flag, const char *val, uint64_t *out);
int cli_list(const char *cmd, const char *flag, const char *val, char *buf, size_t bufsz, char **items, int max);

/* A recording's 'created' field (ISO 8601 UTC): SOURCE_DATE_EPOCH when set
 * (reproducible builds), else now. False after a usage error naming a bad
 * SOURCE_DATE_EPOCH. */
bool cli_created_text(const char *cmd, char *out, size_t n);

/* true when a and b name the same existing file (same device and inode). */
bool cli_same_file(const char *a, const char *b);
/* Checks an output PATH given with FLAG before anything is computed: a usage
 * error (returns CLI_USAGE) when PATH exists but is not a regular file (a
 * directory, a device such as /dev/stdout), or is the same file as one
 * of the n inputs (each looked up as cli_resolve_path does; NULL entries are
 * skipped); CLI_OK otherwise. */
int cli_out_check(const char *cmd, const char *flag, const char *path, const char *const *inputs, int n);
/* Two output flags of one command must name two files: a usage error
 * (CLI_USAGE) when PATH_A and PATH_B are the same name or the same existing
 * file (the later write would replace the earlier); CLI_OK otherwise or
 * when either is NULL. */
int cli_out_distinct(const char *cmd, const char *flag_a, const char *path_a, const char *flag_b,
                     const char *path_b);
/* Opens out (nr_part.h) for PATH: PATH.part, never replacing an existing
 * one (a crashed run's, or someone's file); PATH itself is replaced at close.
 * Returns out->f, or NULL after printing the reason (*rc = CLI_FAIL). */
FILE *cli_out_open(const char *cmd, NrPartFile *out, const char *path, int *rc);
/* Closes out and, when ok and every write succeeded, renames PATH.part to
 * PATH; else removes PATH.part and prints the reason (*rc = CLI_FAIL; when
 * !ok the caller has printed it already). Returns whether PATH now holds the
 * new file. */
bool cli_out_close(const char *cmd, NrPartFile *out, bool ok, int *rc);

/* `netrace merge` of n terminal logs (cmd_merge.c): the recording at out,
 * the delays and link matrix when named, every car's inputs when named;
 * quiet: no "wrote" and key: value lines (a caller that says its own).
 * CLI_OK or an exit code after one line. */
typedef struct CliMerge {
    const char *cmd;
    const char *const *paths;
    int n;
    const char *out, *delays, *links, *inputs;
    bool quiet;
} CliMerge;
int cli_merge(const CliMerge *j);

#endif
