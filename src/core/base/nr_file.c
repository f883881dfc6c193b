/* Bounded opening and line reading of untrusted input files (nr_file.h). */
#include "nr_file.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

static bool check_mode(const char *path, const char *what, mode_t mode, NrError *err)
{
    if (S_ISDIR(mode))
        return nr_error_set(err, "%s: is a directory, expected %s", path, what);
    if (!S_ISREG(mode))
        return nr_error_set(err, "%s: is not a regular file (a device, FIFO or socket), expected %s", path, what);
    return true;
}

bool nr_file_check(const char *path, const char *what, NrError *err)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return nr_error_set(err, "%s: cannot open %s: %s", path, what, strerror(errno));
    return check_mode(path, what, st.st_mode, err);
}

FILE *nr_file_open(const char *path, const char *what, NrError *err)
{
    if (!nr_file_check(path, what, err))
        return NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        nr_error_set(err, "%s: cannot open %s: %s", path, what, strerror(errno));
        return NULL;
    }
    /* The path may have been replaced between the check and the open. */
    struct stat st;
    if (fstat(fileno(f), &st) != 0) {
        nr_error_set(err, "%s: cannot open %s: %s", path, what, strerror(errno));
        fclose(f);
        return NULL;
    }
    if (!check_mode(path, what, st.st_mode, err)) {
        fclose(f);
        return NULL;
    }
    return f;
}

NrLine nr_line_read(FILE *f, char *buf, size_t cap, size_t *len)
{
    size_t n = 0;
    int c = EOF;
    while (n + 1 < cap && (c = getc(f)) != EOF) {
        if (c == '\0') {
            buf[n] = '\0';
            *len = n;
            return NR_LINE_NUL;
        }
        buf[n++] = (char)c;
        if (c == '\n')
            break;
    }
    buf[n] = '\0';
    *len = n;
    if (c == EOF && ferror(f))
        return NR_LINE_ERROR;
    if (n == 0)
        return NR_LINE_EOF;
    if (buf[n - 1] != '\n' && n + 1 >= cap) {
        /* Full buffer without a newline: too long unless the file ends here. */
        int next = getc(f);
        if (next == EOF)
            return ferror(f) ? NR_LINE_ERROR : NR_LINE_OK;
        ungetc(next, f);
        return NR_LINE_LONG;
    }
    return NR_LINE_OK;
}

char *nr_trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

static char *csv_trim(char *s)
{
    s = nr_trim(s);
    size_t n = strlen(s);
    if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
        s[n - 1] = '\0';
        s++;
    }
    return s;
}

int nr_csv_split(char *line, char **field, int max)
{
    int n = 0;
    for (char *p = line;;) {
        if (n == max)
            return -1;
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        field[n++] = csv_trim(p);
        if (!comma)
            return n;
        p = comma + 1;
    }
}
