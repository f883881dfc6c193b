# netrace merge and the trace link form on a live race: host and joiner on
# loopback with bots for 10 s, each adding emulated delay, jitter and loss
# to what it sends (so MUs are lost, reordered and late), the joiner's clock
# 250 ms ahead; their logs merged; the merged race replayed over its own
# measured delays: every scheme's metrics equal those both terminals
# computed live. Sourced by tests/test_cli.sh (NETRACE_CLI_PARTS=tests/net).

# merge_port FILE: the UDP port a host printed on stderr (0 until it did)
merge_port() {
    local p=""
    for _ in $(seq 1 200); do
        p=$(sed -n 's/.*waiting for a joiner on UDP port \([0-9]*\).*/\1/p' "$1" 2>/dev/null)
        [ -n "$p" ] && break
        sleep 0.05
    done
    echo "${p:-0}"
}

MS=nc,causality,dr,dr-causality,dr-local,epp-xv
timeout 120 "$NR" host --port 0 --seconds 10 --headless --schemes "$MS" \
    --link "delay 60ms 30ms distribution paretonormal loss 10%" --log "$TMP/mh.log" \
    >"$TMP/mh.out" 2>"$TMP/mh.err" &
MHOST=$!
MPORT=$(merge_port "$TMP/mh.err")
expect 0 "join a race over emulated links" -- timeout 120 "$NR" join "127.0.0.1:$MPORT" --clock-offset 250 \
    --link "delay 40ms 10ms loss 5%" --headless --log "$TMP/mj.log"
cp "$TMP/out" "$TMP/mj.out"
wait "$MHOST"
mrc=$?
if [ "$mrc" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: host exit $mrc"; fi

expect 0 "merge the terminals' logs" -- "$NR" merge "$TMP/mh.log" "$TMP/mj.log" --out "$TMP/mrace.csv" \
    --delays "$TMP/mdelays.csv"
stdout_has "^samples: 30[0-9]$" "merge: a 10 s race"
stdout_has "^lost12: 0$" "merge: loopback lost nothing on the wire"
# the host's emulated 10 % loss happens before the wire: those seqs have no
# row (about 275 of 305 arrive)
n12=$(awk -F, '$1 == "12" && $3 == "update" && !seen[$2]++ { n++ } END { print n + 0 }' "$TMP/mdelays.csv")
if [ "$n12" -ge 230 ] && [ "$n12" -le 300 ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: $n12 seqs of direction 12 in the delays, expected about 275 of 305"; fi
if grep -q '^# source: network$' "$TMP/mrace.csv"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: the merged recording's source is not network"; fi

# The session's parameters from the host's log, for the replay.
hkey() { sed -n "s/^# $1: //p" "$TMP/mh.log"; }
expect 0 "replay the merged race over its measured delays" -- "$NR" replay "$TMP/mrace.csv" --headless --csv \
    --schemes "$MS" --delta "$(hkey delta_ms)" --tdr "$(hkey tdr_cw)" --converge "$(hkey converge_ms)" \
    --seed "$(hkey seed)" --link12 "trace $TMP/mdelays.csv" --link21 "trace $TMP/mdelays.csv"
cp "$TMP/out" "$TMP/mreplay.csv"
# scheme samples inconsistency mean_d1_d2 mean_abs_d1 mean_abs_d2, one line per scheme
# (numbers as printed, six decimals, -0 as 0)
awk -F, 'function f(x) { x += 0; return sprintf("%.6f", x == 0 ? 0 : x) }
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { print $1, $c["samples"], f($c["inconsistency_rate"]), f($c["mean_d1_minus_d2"]),
      f($c["mean_abs_d1"]), f($c["mean_abs_d2"]) }' "$TMP/mreplay.csv" >"$TMP/mreplay.txt"
for t in mh mj; do
    awk -v list="$MS" 'function f(x) { x += 0; return sprintf("%.6f", x == 0 ? 0 : x) }
        BEGIN { n = split(list, s, ",") }
        { split($1, kv, "."); v[kv[1], kv[2]] = $2 }
        END { for (i = 1; i <= n; i++) print s[i], v[s[i], "samples:"], f(v[s[i], "inconsistency:"]),
              f(v[s[i], "mean_d1_d2:"]), f(v[s[i], "mean_abs_d1:"]), f(v[s[i], "mean_abs_d2:"]) }' \
        "$TMP/$t.out" >"$TMP/$t.live.txt"
    if [ "$(wc -l <"$TMP/mreplay.txt")" -eq 6 ] && cmp -s "$TMP/$t.live.txt" "$TMP/mreplay.txt"; then
        pass=$((pass + 1)); else fail=$((fail + 1))
        echo "FAIL: $t: live metrics differ from the replay over the measured delays"
        diff "$TMP/$t.live.txt" "$TMP/mreplay.txt" | head -8; fi
done
