/* Flag parsing and error reporting shared by the subcommands. */
#include "cli.h"
#include "cli_load.h"
#include "plot.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

const CliCommand *cli_find_command(const char *name)
{
    for (int i = 0; cli_commands[i]; i++)
        if (strcmp(cli_commands[i]->name, name) == 0)
            return cli_commands[i];
    return NULL;
}

static void print_usage(FILE *f, const char *cmd)
{
    const CliCommand *c = cmd ? cli_find_command(cmd) : NULL;
    if (c && c->usage) {
        const char *p = c->usage;
        bool first = true;
        while (*p) {
            const char *nl = strchr(p, '\n');
            size_t n = nl ? (size_t)(nl - p) : strlen(p);
            fprintf(f, "%s%.*s\n", first ? "usage: " : "       ", (int)n, p);
            first = false;
            p += n + (nl ? 1 : 0);
        }
    } else {
        fprintf(f, "usage: netrace [COMMAND] [ARGS...]   (netrace --help lists commands)\n");
    }
}

/* "netrace CMD: message" on stderr. */
static void report(const char *cmd, const char *fmt, va_list ap)
{
    fprintf(stderr, "netrace%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(cmd, fmt, ap);
    va_end(ap);
    print_usage(stderr, cmd);
    return CLI_USAGE;
}

int cli_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(cmd, fmt, ap);
    va_end(ap);
    return CLI_FAIL;
}

/* Levenshtein distance between a and b (insert, delete, substitute: 1 each);
 * words longer than 63 characters count as far from everything. */
static int edit_distance(const char *a, size_t na, const char *b, size_t nb)
{
    if (na > 63 || nb > 63)
        return 1000;
    int row[64];
    for (size_t j = 0; j <= nb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= na; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= nb; j++) {
            int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[nb];
}

/* Close enough to be a typo: at most a third of the longer word, at least 1,
 * at most 3 edits. */
static bool near_miss(int d, size_t na, size_t nb)
{
    size_t n = na > nb ? na : nb;
    int lim = (int)(n / 3);
    lim = lim < 1 ? 1 : lim > 3 ? 3 : lim;
    return d <= lim;
}

const char *cli_suggest_word(const char *word, const char *const *names)
{
    const char *best = NULL;
    int bd = 0;
    size_t nw = strlen(word);
    for (int i = 0; names[i]; i++) {
        const char *name = names[i];
        int d = edit_distance(word, nw, name, strlen(name));
        if (near_miss(d, nw, strlen(name)) && (!best || d < bd)) {
            best = name;
            bd = d;
        }
    }
    return best;
}

const char *cli_suggest_command(const char *word)
{
    const char *names[64];
    int n = 0;
    for (int i = 0; cli_commands[i] && n < 63; i++)
        names[n++] = cli_commands[i]->name;
    names[n] = NULL;
    return cli_suggest_word(word, names);
}

/* The flag of cmd's usage and help text nearest to arg (the part before '='
 * of "--flag=value"), copied into buf; false when none is near. */
static bool suggest_flag(const char *cmd, const char *arg, char *buf, size_t n)
{
    const CliCommand *c = cmd ? cli_find_command(cmd) : NULL;
    if (!c)
        return false;
    size_t na = strcspn(arg, "=");
    int bd = -1;
    const char *texts[2] = {c->usage, c->help};
    for (int t = 0; t < 2; t++)
        for (const char *p = texts[t]; p && (p = strstr(p, "--")) != NULL;) {
            size_t len = 2;
            while (p[len] && (isalnum((unsigned char)p[len]) || p[len] == '-'))
                len++;
            int d = edit_distance(arg, na, p, len);
            if (len > 2 && d > 0 && near_miss(d, na, len) && (bd < 0 || d < bd) && len < n) {
                memcpy(buf, p, len);
                buf[len] = '\0';
                bd = d;
            }
            p += len;
        }
    return bd >= 0;
}

int cli_unknown_option(const char *cmd, const char *arg)
{
    char near[64];
    if (suggest_flag(cmd, arg, near, sizeof near))
        return cli_usage_error(cmd, "unknown option '%s' (did you mean %s?)", arg, near);
    return cli_usage_error(cmd, "unknown option '%s'", arg);
}

/* true when path is a name followed by ext (".png"), in any case */
static bool has_ext(const char *path, const char *ext)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base), e = strlen(ext);
    if (n <= e)
        return false;
    for (size_t i = 0; i < e; i++)
        if (tolower((unsigned char)base[n - e + i]) != ext[i])
            return false;
    return true;
}

int cli_png_check(const char *cmd, const char *flag, const char *path)
{
    if (!has_ext(path, ".png"))
        return cli_usage_error(cmd, "%s %s: written as PNG only: name the file .png", flag, path);
    return CLI_OK;
}

int cli_plot_check(const char *cmd, const char *path)
{
    NrError err = {{0}};
    if (!plot_path_ok(path, &err))
        return cli_usage_error(cmd, "--plot %s", err.msg);
    return CLI_OK;
}

void cli_strip_dirs(const char *in, char *out, size_t n)
{
    size_t o = 0;
    for (const char *p = in; *p && o + 1 < n;) {
        /* a word: up to the next space, kept from after its last '/' */
        size_t len = strcspn(p, " ");
        const char *w = p, *end = p + len;
        for (const char *q = p; q < end; q++)
            if (*q == '/' && q + 1 < end)
                w = q + 1;
        while (w < end && o + 1 < n)
            out[o++] = *w++;
        p = end;
        while (*p == ' ' && o + 1 < n)
            out[o++] = *p++;
    }
    if (n > 0)
        out[o] = 0;
}

void cli_wrote(const char *path)
{
    /* A notice, not a result: on stderr, so that stdout carries only the
     * results (replay --csv > table.csv stays a CSV file). */
    fprintf(stderr, "wrote %s\n", path);
}

bool cli_flag_is(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

bool cli_value(int argc, char **argv, int *i, const char *cmd, const char **val)
{
    const char *arg = argv[*i];
    const char *eq = strchr(arg, '=');
    if (eq && arg[0] == '-') {
        *val = eq + 1;
        return true;
    }
    if (*i + 1 >= argc) {
        cli_usage_error(cmd, "%s needs a value", arg);
        return false;
    }
    *i += 1;
    *val = argv[*i];
    return true;
}

bool cli_int(const char *cmd, const char *flag, const char *val, int64_t lo, int64_t hi, int64_t *out)
{
    int64_t v;
    if (!nr_parse_int64(val, &v) || v < lo || v > hi) {
        cli_usage_error(cmd, "%s: expected a whole number from %lld to %lld, got '%s'", flag,
                        (long long)lo, (long long)hi, val);
        return false;
    }
    *out = v;
    return true;
}

bool cli_double(const char *cmd, const char *flag, const char *val, double lo, double hi, double *out)
{
    double v;
    if (!nr_parse_double(val, &v) || v < lo || v > hi) {
        cli_usage_error(cmd, "%s: expected a number from %g to %g, got '%s'", flag, lo, hi, val);
        return false;
    }
    *out = v;
    return true;
}

bool cli_u64(const char *cmd, const char *flag, const char *val, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    if (!val || !isdigit((unsigned char)val[0])) { /* strtoull would take " 5", "+5" and "-5" */
        cli_usage_error(cmd, "%s: expected a non-negative whole number, got '%s'", flag, val ? val : "");
        return false;
    }
    unsigned long long v = strtoull(val, &end, 10);
    if (*end != '\0' || errno == ERANGE) {
        cli_usage_error(cmd, "%s: expected a non-negative whole number, got '%s'", flag, val);
        return false;
    }
    *out = (uint64_t)v;
    return true;
}

bool cli_peer_parse(const char *cmd, const char *v, char *host, size_t hn, uint16_t default_port, uint16_t *port)
{
    const char *colon = strrchr(v, ':');
    size_t len = colon ? (size_t)(colon - v) : strlen(v);
    if (len == 0 || len >= hn) {
        cli_usage_error(cmd, "'%s': expected HOST or HOST:PORT", v);
        return false;
    }
    memcpy(host, v, len);
    host[len] = '\0';
    *port = default_port;
    if (colon) {
        int64_t p;
        if (!cli_int(cmd, "port", colon + 1, 1, 65535, &p))
            return false;
        *port = (uint16_t)p;
    }
    return true;
}

bool cli_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int cli_out_distinct(const char *cmd, const char *flag_a, const char *path_a, const char *flag_b,
                     const char *path_b)
{
    if (!path_a || !path_b)
        return CLI_OK;
    if (strcmp(path_a, path_b) == 0 || cli_same_file(path_a, path_b))
        return cli_usage_error(cmd, "%s and %s both name %s: give two different files", flag_a, flag_b, path_b);
    return CLI_OK;
}

int cli_dir_check(const char *cmd, const char *flag, const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return cli_usage_error(cmd, "%s %s: %s", flag, dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return cli_usage_error(cmd, "%s %s: is not a directory", flag, dir);
    if (access(dir, W_OK | X_OK) != 0)
        return cli_usage_error(cmd, "%s %s: cannot write there: %s", flag, dir, strerror(errno));
    return CLI_OK;
}

int cli_out_check(const char *cmd, const char *flag, const char *path, const char *const *inputs, int n)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return cli_usage_error(cmd, "%s %s: is a directory, expected a file name", flag, path);
    /* The new file is renamed over PATH: that would replace a device, FIFO
     * or socket node (e.g. /dev/stdout) instead of writing into it. */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return cli_usage_error(cmd, "%s %s: is not a regular file, expected a file name", flag, path);
    for (int k = 0; k < n; k++) {
        char in[4096];
        if (!inputs[k])
            continue;
        cli_resolve_path(inputs[k], in, sizeof in);
        if (cli_same_file(path, in))
            return cli_usage_error(cmd, "%s %s: is the input file %s; refusing to overwrite it", flag, path, in);
    }
    return CLI_OK;
}

FILE *cli_out_open(const char *cmd, NrPartFile *out, const char *path, int *rc)
{
    if (nr_part_open(out, path, NR_PART_REPLACE) == NR_PART_OK)
        return out->f;
    if (out->status == NR_PART_TOO_LONG)
        *rc = cli_fail(cmd, "%s: path too long", path);
    else if (out->status == NR_PART_EXISTS)
        *rc = cli_fail(cmd, "%s: %s exists (left by a killed run?); remove it or choose another name", path,
                       out->part);
    else
        *rc = cli_fail(cmd, "%s: cannot write %s: %s", path, out->part, nr_part_reason(out));
    return NULL;
}

bool cli_out_close(const char *cmd, NrPartFile *out, bool ok, int *rc)
{
    if (!ok) {
        nr_part_abort(out);
        return false;
    }
    NrPartStatus st = nr_part_close(out);
    if (st == NR_PART_OK)
        return true;
    if (st == NR_PART_WRITE)
        *rc = cli_fail(cmd, "%s: write error: %s", out->path, nr_part_reason(out));
    else
        *rc = cli_fail(cmd, "%s: cannot rename %s into place: %s", out->path, out->part, nr_part_reason(out));
    nr_part_abort(out);
    return false;
}

int cli_list(const char *cmd, const char *flag, const char *val, char *buf, size_t bufsz, char **items, int max)
{
    size_t len = strlen(val);
    if (len >= bufsz) {
        cli_usage_error(cmd, "%s: list too long (at most %zu characters)", flag, bufsz - 1);
        return -1;
    }
    memcpy(buf, val, len + 1);
    int n = 0;
    char *p = buf;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (*p == '\0') {
            cli_usage_error(cmd, "%s: empty item %d in '%s'; expected values separated by single commas", flag,
                            n + 1, val);
            return -1;
        }
        if (n >= max) {
            cli_usage_error(cmd, "%s: more than %d items; expected 1 to %d", flag, max, max);
            return -1;
        }
        items[n++] = p;
        if (!comma)
            return n;
        p = comma + 1;
    }
}

bool cli_created_text(const char *cmd, char *out, size_t n)
{
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    time_t when;
    if (sde && *sde) {
        int64_t v;
        if (!nr_parse_int64(sde, &v) || v < 0 || v > INT64_C(253402300799)) {
            cli_usage_error(cmd, "SOURCE_DATE_EPOCH is '%s', expected seconds since 1970 (0 to 253402300799)", sde);
            return false;
        }
        when = (time_t)v;
    } else {
        when = time(NULL);
    }
    struct tm tm;
    if (!gmtime_r(&when, &tm) || strftime(out, n, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        snprintf(out, n, "unknown");
    return true;
}
