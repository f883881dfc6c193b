# netrace host --cars 4 --bots 2 + 1 netrace join on loopback (issue 19):
# two of the joiners' seats taken by bots the host's process runs, the
# third by a person's terminal (a headless bot here, its clock 80 ms off,
# its line 4 -> 2 slowed by --link). Every terminal exits 0 and prints the
# same live metrics, the host says each bot completed, merge of the host's,
# the bots' and the joiner's logs and replay over the measured delays
# reproduce them. Then the flags' bad combinations. The address a remote
# joiner takes for a bot (the host's, the bot's port: netaddr_as_seen) is
# tested in tests/test_netp2p.c. Sourced by tests/test_cli.sh
# (NETRACE_CLI_PARTS=tests/net); host_port, code, key come from 1-race.sh,
# p2p_port from 4-p2p.sh.

expect 2 "host --bots 4 of a 4-car race" -- "$NR" host --cars 4 --bots 4 --headless --port 0
stderr_has "a race of 4 cars has 3 seats beside the host's" "the seats a host's bots can take"
expect 2 "host --bot-logs without --bots" -- "$NR" host --cars 3 --bot-logs "$TMP" --headless --port 0
stderr_has "no bot to log" "bot logs need bots"
expect 2 "host --bots with --allow elsewhere" -- "$NR" host --cars 3 --bots 1 --allow 10.1.2.3 --headless --port 0
stderr_has "the bots join from 127.0.0.1" "bots need loopback allowed"
expect 2 "join --bots" -- "$NR" join 127.0.0.1:1 --code AB12C-D34EF --bots 1 --headless

BMS=nc,causality,dr,dr-causality
mkdir -p "$TMP/hb"
timeout 120 "$NR" host --cars 4 --bots 2 --bot-logs "$TMP/hb" --port 0 --headless --seconds 5 --schemes "$BMS" \
    --log "$TMP/hb/h.log" >"$TMP/hb/h.out" 2>"$TMP/hb/h.err" &
HOST_PID=$!
BPORT=$(p2p_port "$TMP/hb/h.err")
BCODE=$(code "$TMP/hb/h.err")
for _ in $(seq 1 400); do grep -q '2 of 3 seats' "$TMP/hb/h.err" && break; sleep 0.05; done
expect 0 "a person's terminal beside the host's bots" -- timeout 120 "$NR" join "127.0.0.1:$BPORT" --code "$BCODE" \
    --headless --log "$TMP/hb/j.log" --clock-offset 80 --link 4-2 'delay 25ms'
cp "$TMP/out" "$TMP/hb/j.out"
wait "$HOST_PID"
hrc=$?
if [ "$hrc" -eq 0 ] && [ "$(grep -c '^netrace host (bot [12]): car [234]: completed$' "$TMP/hb/h.err")" = 2 ]; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: host exit $hrc or its bots' lines"; sed 's/^/  /' "$TMP/hb/h.err"; fi
if grep -q '^car: 4$' "$TMP/hb/j.out"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: the person's terminal is not car 4 (the bots came first)"; fi
# the protocol's clock guarantee: the 80 ms within the estimate's bound
off=$(key "$TMP/hb/j.out" clock_offset_ms)
bound=$(key "$TMP/hb/j.out" clock_error_bound_ms)
if awk -v o="$off" -v b="$bound" 'BEGIN { d = o - 80; if (d < 0) d = -d; exit !(o != "" && d <= b) }'; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the truth 80 ms is outside $off +- $bound ms"; fi
grep -E '^(nc|causality|dr|dr-causality)\.' "$TMP/hb/h.out" >"$TMP/hb/h.metrics"
grep -E '^(nc|causality|dr|dr-causality)\.' "$TMP/hb/j.out" >"$TMP/hb/j.metrics"
if cmp -s "$TMP/hb/h.metrics" "$TMP/hb/j.metrics" && grep -q '^nc.samples: 153$' "$TMP/hb/h.metrics" &&
    grep -q '^dr.disadvantage_4: ' "$TMP/hb/h.metrics"; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the host's and the joiner's metrics differ or are short"
    diff "$TMP/hb/h.metrics" "$TMP/hb/j.metrics" | head -5; fi
expect 0 "merge the host's, the bots' and the joiner's logs" -- "$NR" merge "$TMP/hb/h.log" "$TMP/hb/bot-1.log" \
    "$TMP/hb/bot-2.log" "$TMP/hb/j.log" --out "$TMP/hb/race.csv" --delays "$TMP/hb/delays.csv" \
    --links "$TMP/hb/links.txt"
stdout_has "^samples: 153$" "merge: a 5 s race"
stdout_has "^lost42: 0$" "merge: loopback lost nothing on line 4 -> 2"
if grep -q '^# link_4_2: delay 25ms$' "$TMP/hb/race.csv" && grep -q '^# link_4_3: none$' "$TMP/hb/race.csv"; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the merged header's lines"; grep '^# link' "$TMP/hb/race.csv"; fi
expect 0 "replay the merged race over its measured delays" -- "$NR" replay "$TMP/hb/race.csv" --csv --schemes "$BMS" \
    --links "$TMP/hb/links.txt"
awk -F, 'function f(x) { x += 0; return sprintf("%.6f", x == 0 ? 0 : x) }
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { print $1, f($c["inconsistency_rate"]), f($c["pair_rate"]), f($c["spread"]), f($c["disadvantage_1"]),
      f($c["disadvantage_2"]), f($c["disadvantage_3"]), f($c["disadvantage_4"]) }' "$TMP/out" >"$TMP/hb/replay.txt"
awk -v list="$BMS" 'function f(x) { x += 0; return sprintf("%.6f", x == 0 ? 0 : x) }
    BEGIN { n = split(list, s, ",") }
    { split($1, kv, "."); v[kv[1], kv[2]] = $2 }
    END { for (i = 1; i <= n; i++) print s[i], f(v[s[i], "inconsistency:"]), f(v[s[i], "pair_rate:"]),
          f(v[s[i], "spread:"]), f(v[s[i], "disadvantage_1:"]), f(v[s[i], "disadvantage_2:"]),
          f(v[s[i], "disadvantage_3:"]), f(v[s[i], "disadvantage_4:"]) }' "$TMP/hb/j.out" >"$TMP/hb/live.txt"
if [ "$(wc -l <"$TMP/hb/replay.txt")" -eq 4 ] && cmp -s "$TMP/hb/live.txt" "$TMP/hb/replay.txt"; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: live metrics of host + bots + joiner differ from the replay"
    diff "$TMP/hb/live.txt" "$TMP/hb/replay.txt" | head -6; fi
