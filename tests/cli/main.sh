# netrace itself (no subcommand): sourced by tests/test_cli.sh.
expect 0 "help help" -- "$NR" help help
stdout_has "usage: netrace" "help help prints the general usage"
expect 2 "help with an empty name" -- "$NR" help ''
stderr_has "unknown command ''" "help '' names the empty command"
