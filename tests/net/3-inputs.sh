# The driving window's input files at host / join (issue 24): a pad
# mappings file of 1 GB (refused by its size before a line is read) and
# one of 10^6 lines (61 MB, refused the same way; 10^6 short lines that
# fit the 4 MiB are refused at the first that is not a mapping) end the
# terminal at once with one line naming the file (the host's line that it
# waits comes first), exit 1, nothing sent (before: the file's line with
# no command named, then 'no window could be opened'); SIGTERM
# while the largest file accepted (4,096 mappings, SDL's linear lookup of
# each) loads ends it too. SDL's dummy video driver (named explicitly).
# Sourced by tests/test_cli.sh (NETRACE_CLI_PARTS=tests/net).

truncate -s 1G "$TMP/huge.map"
expect 1 "host --pad-mappings of 1 GB" -- env SDL_VIDEODRIVER=dummy timeout 20 "$NR" host --port 0 --player pad \
    --pad-mappings "$TMP/huge.map" --code 7K3QM-X9A2C
stderr_has "^netrace host: .*huge.map: 1073741824 bytes, more than the 4194304" "the 1 GB file named by its size"
if [ "$(grep -vc 'waiting for a joiner' "$TMP/err")" = 1 ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: more than one line for a refused pad mappings file"; cat "$TMP/err"; fi
rm -f "$TMP/huge.map"

yes '03000000aaaa0000bbbb000000000000,Lab Wheel,a:b0,leftx:a0,platform:Linux,' | head -n 1000000 >"$TMP/million.map"
expect 1 "join --pad-mappings of 10^6 lines" -- env SDL_VIDEODRIVER=dummy timeout 20 "$NR" join 127.0.0.1:1 \
    --player pad --pad-mappings "$TMP/million.map" --code 7K3QM-X9A2C
stderr_has "^netrace join: .*million.map: [0-9]+ bytes, more than the 4194304" "10^6 mappings named by their size"
if [ "$(wc -l <"$TMP/err")" = 1 ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: more than one line for 10^6 pad mappings"; cat "$TMP/err"; fi
yes x | head -n 1000000 >"$TMP/million.map"
expect 1 "play --pad-mappings of 10^6 short lines" -- env SDL_VIDEODRIVER=dummy timeout 20 "$NR" play --p1 pad \
    --p2 bot --bench-frames 2 --pad-mappings "$TMP/million.map" --out none
stderr_has "million.map:1: not a gamepad mapping" "the first of 10^6 lines, not a mapping, named"
rm -f "$TMP/million.map"

# SIGTERM while the largest accepted file loads (or just after): the host
# ends with its one line, as a quit
for i in $(seq 0 4095); do
    printf '03000000%08x0000%012x,Pad %d,a:b0,b:b1,leftx:a0,platform:Linux,\n' "$i" "$i" "$i"
done >"$TMP/max.map"
SDL_VIDEODRIVER=dummy timeout 60 "$NR" host --port 0 --player pad --pad-mappings "$TMP/max.map" \
    --code 7K3QM-X9A2C >"$TMP/term.out" 2>"$TMP/term.err" &
TPID=$!
host_port "$TMP/term.err" >/dev/null
kill -TERM "$TPID"
wait "$TPID"; trc=$?
if { [ "$trc" -eq 1 ] && grep -q 'quit before the end of the race' "$TMP/term.err"; } ||
    [ "$trc" -eq 143 ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: SIGTERM while the pad mappings load: exit $trc"; tail -3 "$TMP/term.err"; fi
rm -f "$TMP/max.map"
