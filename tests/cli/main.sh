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

# Issue 13 item 2: bare netrace means replay, so do replay's flags.
expect 0 "top-level replay flags" -- env -u DISPLAY -u WAYLAND_DISPLAY "$NR" --headless --schemes nc
stdout_has "^nc " "netrace --headless prints the replay table"
expect 2 "top-level bad replay flag" -- "$NR" --size 640
stderr_has "netrace replay: --size '640'" "top-level flag errors come from replay"

# Item 8: a 'did you mean' for near misses, none for far ones.
expect 2 "mistyped command" -- "$NR" sweeep
stderr_has "unknown command 'sweeep' \(did you mean sweep\?\)" "command suggestion"
expect 2 "mistyped help topic" -- "$NR" help fairnes
stderr_has "did you mean fairness\?" "help suggestion"
expect 2 "mistyped flag" -- "$NR" replay --seeed 3
stderr_has "unknown option '--seeed' \(did you mean --seed\?\)" "flag suggestion"
expect 2 "mistyped flag with a value" -- "$NR" sweep --plto=x.png
stderr_has "did you mean --plot\?" "flag=value suggestion"
expect 2 "far-off flag" -- "$NR" epp --zzzzzzzz
if grep -q "did you mean" "$TMP/err"; then
    fail=$((fail + 1))
    echo "FAIL: a far-off flag got a suggestion"
else
    pass=$((pass + 1))
fi

# Item 8: info on a file that is neither kind says so in one line.
printf 'hello\nworld\n' >"$TMP/neither.txt"
expect 1 "info on a text file" -- "$NR" info "$TMP/neither.txt"
stderr_has "neither.txt:1: neither a netrace recording nor a track \(starts 'hello'\)" "info names the kind"
head -c 100 /dev/urandom | tr -d '\n' | sed 's/^/\x00/' >"$TMP/neither.bin"
expect 1 "info on binary data" -- "$NR" info "$TMP/neither.bin"
stderr_has "neither a netrace recording nor a track \(binary data\)" "info on binary data"
if [ "$(wc -l <"$TMP/err")" -eq 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: info error is not one line"; fi
