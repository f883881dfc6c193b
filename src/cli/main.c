/* netrace entry point: dispatches subcommands from the command registry. */
#include "cli.h"
#include "netrace_config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

extern const CliCommand cmd_replay;
extern const CliCommand cmd_sweep;
extern const CliCommand cmd_join_shards;
extern const CliCommand cmd_delays;
extern const CliCommand cmd_fit;
extern const CliCommand cmd_merge;
extern const CliCommand cmd_autopilot;
extern const CliCommand cmd_info;
extern const CliCommand cmd_epp;

/* The registry: one entry per subcommand, each defined in its own cmd_*.c. */
extern const CliCommand cmd_fairness;
extern const CliCommand cmd_accuracy;
extern const CliCommand cmd_play;
extern const CliCommand cmd_study;
extern const CliCommand cmd_host;
extern const CliCommand cmd_join;
extern const CliCommand cmd_serve;

const CliCommand *const cli_commands[] = {
    &cmd_replay,
    &cmd_play,
    &cmd_study,
    &cmd_host,
    &cmd_join,
    &cmd_serve,
    &cmd_sweep,
    &cmd_join_shards,
    &cmd_delays,
    &cmd_fit,
    &cmd_merge,
    &cmd_autopilot,
    &cmd_info,
    &cmd_epp,
    &cmd_fairness,
    &cmd_accuracy,
    NULL,
};

static void print_help(FILE *f)
{
    fprintf(f,
            "netrace %s - consistency and fairness control testbed for networked racing games\n\n"
            "usage: netrace [COMMAND] [ARGS...]\n"
            "       netrace help COMMAND\n\n"
            "With no command, netrace replays the bundled race with every scheme side by side\n"
            "(the window when a display is available, the headless summary otherwise);\n"
            "replay's flags work without the word: netrace --size 1920x1080, netrace --headless.\n\n"
            "commands:\n",
            NETRACE_VERSION);
    for (int i = 0; cli_commands[i]; i++)
        fprintf(f, "  %-12s %s\n", cli_commands[i]->name, cli_commands[i]->summary);
    fprintf(f, "\noptions:\n  --help       this text\n  --version    print the version\n");
}

static int help_command(const char *name)
{
    const CliCommand *c = cli_find_command(name);
    if (!c) {
        const char *near = cli_suggest_command(name);
        if (near)
            return cli_usage_error(NULL, "unknown command '%s' (did you mean %s?)", name, near);
        return cli_usage_error(NULL, "unknown command '%s'", name);
    }
    printf("netrace %s - %s\n\n", c->name, c->summary);
    const char *p = c->usage;
    bool first = true;
    while (p && *p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        printf("%s%.*s\n", first ? "usage: " : "       ", (int)n, p);
        first = false;
        p += n + (nl ? 1 : 0);
    }
    if (c->help)
        printf("\n%s\n", c->help);
    return CLI_OK;
}

/* Everything a command prints to stdout must reach it: a full disk or a
 * closed pipe shows only when the buffer is flushed, after the command has
 * returned success. Returns rc, or CLI_FAIL after one line when stdout failed. */
static int finish_stdout(int rc)
{
    bool bad = fflush(stdout) != 0 || ferror(stdout);
    int e = errno;
    if (fclose(stdout) != 0 && !bad) {
        bad = true;
        e = errno;
    }
    if (!bad)
        return rc;
    fprintf(stderr, "netrace: error writing standard output: %s\n", strerror(e));
    return rc != CLI_OK ? rc : CLI_FAIL;
}

static int dispatch(int argc, char **argv);

int main(int argc, char **argv)
{
    return finish_stdout(dispatch(argc, argv));
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        const CliCommand *c = cli_find_command("replay");
        if (!c) {
            print_help(stdout);
            return CLI_OK;
        }
        char *args[] = {(char *)"replay", NULL};
        return c->run(1, args);
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        print_help(stdout);
        return CLI_OK;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("netrace %s\n", NETRACE_VERSION);
        return CLI_OK;
    }
    if (strcmp(cmd, "help") == 0) {
        if (argc < 3 || (argc == 3 && strcmp(argv[2], "help") == 0)) {
            print_help(stdout);
            return CLI_OK;
        }
        if (argc > 3)
            return cli_usage_error(NULL, "help takes one command name");
        return help_command(argv[2]);
    }
    const CliCommand *c = cli_find_command(cmd);
    if (!c && cmd[0] == '-' && cmd[1] != '\0') {
        /* bare netrace means replay, so do its flags: netrace --size 1920x1080 */
        c = cli_find_command("replay");
        if (c) {
            for (int i = 1; i < argc; i++)
                if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
                    return help_command("replay");
            argv[0] = (char *)"replay";
            return c->run(argc, argv);
        }
    }
    if (!c) {
        const char *near = cli_suggest_command(cmd);
        if (near)
            return cli_usage_error(NULL, "unknown command '%s' (did you mean %s?)", cmd, near);
        return cli_usage_error(NULL, "unknown command '%s'", cmd);
    }
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return help_command(cmd);
    return c->run(argc - 1, argv + 1);
}
