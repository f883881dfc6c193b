# netrace itself (no subcommand): sourced by tests/test_cli.sh.
expect 0 "help help" -- "$NR" help help
stdout_has "usage: netrace" "help help prints the general usage"
expect 2 "help with an empty name" -- "$NR" help ''
stderr_has "unknown command ''" "help '' names the empty command"

# Comma lists: every command splits them the same way (cli_list).
for args in "epp --loss 5%,,10%" "epp --rate 10," "epp --bandwidth ,10k" "sweep --delays 25,,50" \
    "fairness --receivers 800,,200" "accuracy --delays 100,"; do
    # shellcheck disable=SC2086
    expect 2 "empty list item: $args" -- "$NR" $args
    stderr_has "empty item [0-9]+ in" "empty list item named: $args"
done
expect 2 "too many list items" -- "$NR" sweep --jitters "$(seq -s, 0 64)"
stderr_has "--jitters: more than 64 items" "list limit named"
