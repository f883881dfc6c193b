/* Opening and reading the text files netrace takes as input, bounded: only
 * regular files, lines of at most NR_LINE_MAX bytes, no NUL bytes.
 *
 * Every file a user names is untrusted: a device (/dev/zero), a FIFO or a
 * directory given where a file is expected must be refused at once with one
 * line, not read until memory runs out or reported as "no such file".
 *
 * Contracts:
 *   nr_file_open(path, what, err)  fopen(path, "rb") of a regular file.
 *        NULL + err "PATH: cannot open WHAT: reason", "PATH: is a directory,
 *        expected WHAT" or "PATH: is not a regular file (a device, FIFO or
 *        socket), expected WHAT". WHAT names the expected content ("a
 *        recording", "a distribution table", ...). Checks the path before
 *        opening (a FIFO would block the open) and the opened file after.
 *   nr_file_check(path, what, err) the same checks without opening: true when
 *        PATH is an existing regular file.
 *   nr_line_read(f, buf, cap, &len)  reads one line into buf (cap bytes,
 *        NUL-terminated, newline kept). Returns NR_LINE_OK, NR_LINE_EOF (no
 *        byte read), NR_LINE_LONG (the line has cap - 1 bytes or more and
 *        no newline yet: the rest is not read), NR_LINE_NUL (a NUL byte) or
 *        NR_LINE_ERROR (read error). len = bytes stored.
 *   nr_trim(s)  s without leading blanks and trailing blanks / CR / newline
 *        (cut in place); returns the first kept character.
 *   nr_csv_split(line, field, max)  splits line in place at its commas into
 *        field[0..n), each trimmed of blanks, a CR / newline and one pair of
 *        surrounding double quotes (R's write.csv quotes); returns n, or -1
 *        when the line has more than max fields. No quoted commas.
 */
#ifndef NR_FILE_H
#define NR_FILE_H

#include "nr_common.h"

#include <stdio.h>

/* Longest line of any netrace text file (recordings, tracks, tables,
 * scripts, configs): their longest legitimate lines are a few hundred bytes. */
#define NR_LINE_MAX 4096

typedef enum NrLine { NR_LINE_OK, NR_LINE_EOF, NR_LINE_LONG, NR_LINE_NUL, NR_LINE_ERROR } NrLine;

FILE *nr_file_open(const char *path, const char *what, NrError *err);
bool nr_file_check(const char *path, const char *what, NrError *err);
NrLine nr_line_read(FILE *f, char *buf, size_t cap, size_t *len);
char *nr_trim(char *s);
int nr_csv_split(char *line, char **field, int max);

#endif
