/* Flag parsing and error reporting shared by the subcommands. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
    if (!val || !*val || val[0] == '-') {
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
