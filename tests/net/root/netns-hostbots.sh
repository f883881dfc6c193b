#!/bin/bash
# netrace host --cars 4 --bots 2 and one netrace join across two "machines":
# two network namespaces joined by a veth pair (10.77.0.1/24 and
# 10.77.0.2/24, addresses this script creates and removes), so that the
# joiner reaches the host and its bots over a real interface, not loopback
# (the address a remote joiner takes for a bot: netaddr_as_seen). Checks:
# every terminal exits 0, the host says each bot completed, the host and
# the joiner print the same live metrics, merge of the four logs and
# replay over the measured delays reproduce them.
#
# Needs root (ip netns, ip link); not part of `meson test` for that reason.
# Run by hand:   sudo tests/net/root/netns-hostbots.sh build/netrace
# Exit 0 all passed, 1 a check failed, 77 skipped (not root, or no ip netns).

NR=${1:?usage: netns-hostbots.sh PATH/TO/netrace}
NR=$(cd "$(dirname "$NR")" && pwd)/$(basename "$NR")
skip() { echo "netns-hostbots: skipped: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root (ip netns add, ip link add)"
command -v ip >/dev/null || skip "no ip command (iproute2)"
NSA=nrtest-$$-a
NSB=nrtest-$$-b
VA=nr$$a
VB=nr$$b
ip netns add "$NSA" 2>/dev/null || skip "ip netns add failed (no network namespaces here)"
TMP=$(mktemp -d)
cleanup() {
    [ -n "$HOST_PID" ] && kill "$HOST_PID" 2>/dev/null
    ip netns del "$NSA" 2>/dev/null
    ip netns del "$NSB" 2>/dev/null
    [ -n "$KEEP" ] || rm -rf "$TMP"
}
trap cleanup EXIT
ip netns add "$NSB" || { echo "FAIL: ip netns add $NSB"; exit 1; }
ip link add "$VA" type veth peer name "$VB" || { echo "FAIL: ip link add veth"; exit 1; }
ip link set "$VA" netns "$NSA" && ip link set "$VB" netns "$NSB" &&
    ip -n "$NSA" addr add 10.77.0.1/24 dev "$VA" && ip -n "$NSB" addr add 10.77.0.2/24 dev "$VB" &&
    ip -n "$NSA" link set "$VA" up && ip -n "$NSB" link set "$VB" up &&
    ip -n "$NSA" link set lo up && ip -n "$NSB" link set lo up || { echo "FAIL: setting up the veth pair"; exit 1; }

pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
key() { sed -n "s/^$2: //p" "$1"; }

MS=nc,causality,dr,dr-causality
mkdir -p "$TMP/hb"
ip netns exec "$NSA" timeout 120 "$NR" host --cars 4 --bots 2 --bot-logs "$TMP/hb" --port 0 --headless --seconds 5 \
    --schemes "$MS" --log "$TMP/hb/h.log" >"$TMP/h.out" 2>"$TMP/h.err" &
HOST_PID=$!
PORT=""
for _ in $(seq 1 400); do
    PORT=$(sed -n 's/.*joiners on UDP port \([0-9]*\).*/\1/p' "$TMP/h.err")
    [ -n "$PORT" ] && grep -q '2 of 3 seats' "$TMP/h.err" && break
    sleep 0.05
done
CODE=$(sed -n 's/.*join code \([0-9A-Z-]*\).*/\1/p' "$TMP/h.err")
[ -n "$PORT" ] && [ -n "$CODE" ] || { bad "the host printed no port or code"; sed 's/^/  /' "$TMP/h.err"; exit 1; }
ip netns exec "$NSB" timeout 120 "$NR" join "10.77.0.1:$PORT" --code "$CODE" --headless --log "$TMP/hb/j.log" \
    --clock-offset 80 --link 4-2 'delay 25ms' >"$TMP/j.out" 2>"$TMP/j.err"
jrc=$?
wait "$HOST_PID"
hrc=$?
HOST_PID=
if [ "$jrc" = 0 ]; then ok; else bad "join exit $jrc"; sed 's/^/  /' "$TMP/j.err"; fi
if [ "$hrc" = 0 ] && [ "$(grep -c '^netrace host (bot [12]): car [234]: completed$' "$TMP/h.err")" = 2 ]; then ok
else bad "host exit $hrc or its bots' lines"; sed 's/^/  /' "$TMP/h.err"; fi
echo "host:   exit $hrc, $(grep -c "completed$" "$TMP/h.err") bots completed"
echo "joiner: car $(key "$TMP/j.out" car), clock $(key "$TMP/j.out" clock_offset_ms) +- $(key "$TMP/j.out" clock_error_bound_ms) ms (truth 80)"
if [ "$(key "$TMP/j.out" car)" = 4 ]; then ok; else bad "the joiner is not car 4"; fi
# the joiner reached the host over the veth (10.77.0.1) and the host's bots
# there too (they joined the host at 127.0.0.1: netaddr_as_seen), every
# datagram taken
if grep -q "^# peer: 10\.77\.0\.1:$PORT\$" "$TMP/hb/j.log" && grep -q '^packets_rejected: 0$' "$TMP/j.out" &&
    [ "$(awk -F, '$1 == "rx" && $3 == "mu" { c[$7] = 1 } END { print c[1] + c[2] + c[3] }' "$TMP/hb/j.log")" = 3 ]; then ok
else bad "the joiner did not take MUs from the host and both bots at 10.77.0.1"; fi
off=$(key "$TMP/j.out" clock_offset_ms)
bound=$(key "$TMP/j.out" clock_error_bound_ms)
if awk -v o="$off" -v b="$bound" 'BEGIN { d = o - 80; if (d < 0) d = -d; exit !(o != "" && d <= b) }'; then ok; else
    bad "the truth 80 ms is outside $off +- $bound ms"; fi
grep -E '^(nc|causality|dr|dr-causality)\.' "$TMP/h.out" >"$TMP/h.metrics"
grep -E '^(nc|causality|dr|dr-causality)\.' "$TMP/j.out" >"$TMP/j.metrics"
if cmp -s "$TMP/h.metrics" "$TMP/j.metrics" && grep -q '^nc.samples: 153$' "$TMP/h.metrics" &&
    grep -q '^dr.disadvantage_4: ' "$TMP/h.metrics"; then ok; else
    bad "the host's and the joiner's metrics differ or are short"; diff "$TMP/h.metrics" "$TMP/j.metrics" | head -5; fi
"$NR" merge "$TMP/hb/h.log" "$TMP/hb/bot-1.log" "$TMP/hb/bot-2.log" "$TMP/hb/j.log" --out "$TMP/race.csv" \
    --delays "$TMP/delays.csv" --links "$TMP/links.txt" >"$TMP/m.out" 2>"$TMP/m.err"
if [ $? = 0 ] && grep -q '^samples: 153$' "$TMP/m.out"; then ok; else bad "merge"; sed 's/^/  /' "$TMP/m.err"; fi
grep -E '^(lost|sent)[0-9]+:' "$TMP/m.out" | tr '\n' ' '
echo
# line 4 -> 2 held 25 ms by the joiner's --link; the veth adds tens of microseconds
awk -F, '$1 ~ /^[0-9][0-9]$/ { n[$1]++; s[$1] += $8 } END { for (d in n) printf "  line %s: %d MUs, mean delay %.3f ms\n", d, n[d], s[d] / n[d] / 1000 }' \
    "$TMP/delays.csv" | sort
# when the joiner put its MUs to car 2 on the wire (--link 4-2 'delay 25ms'): a figure, not a check
awk -F, '$1 == "tx" && $8 == 2 { d = ($7 - $6) / 1000; n++; s += d; if (d > hi) hi = d; if (n == 1 || d < lo) lo = d }
    END { printf "  joiner -> car 2 on the wire %.3f to %.3f ms (mean %.3f) after the sample\n", lo, hi, s / n }' "$TMP/hb/j.log"
"$NR" replay "$TMP/race.csv" --csv --schemes "$MS" --links "$TMP/links.txt" >"$TMP/replay.csv" 2>"$TMP/replay.err" ||
    bad "replay"
awk -F, 'function f(x) { x += 0; return sprintf("%.6f", x == 0 ? 0 : x) }
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { print $1, f($c["inconsistency_rate"]), f($c["pair_rate"]), f($c["spread"]), f($c["disadvantage_1"]),
      f($c["disadvantage_2"]), f($c["disadvantage_3"]), f($c["disadvantage_4"]) }' "$TMP/replay.csv" >"$TMP/replay.txt"
awk -v list="$MS" 'function f(x) { x += 0; return sprintf("%.6f", x == 0 ? 0 : x) }
    BEGIN { n = split(list, s, ",") }
    { split($1, kv, "."); v[kv[1], kv[2]] = $2 }
    END { for (i = 1; i <= n; i++) print s[i], f(v[s[i], "inconsistency:"]), f(v[s[i], "pair_rate:"]),
          f(v[s[i], "spread:"]), f(v[s[i], "disadvantage_1:"]), f(v[s[i], "disadvantage_2:"]),
          f(v[s[i], "disadvantage_3:"]), f(v[s[i], "disadvantage_4:"]) }' "$TMP/j.out" >"$TMP/live.txt"
if [ "$(wc -l <"$TMP/replay.txt")" -eq 4 ] && cmp -s "$TMP/live.txt" "$TMP/replay.txt"; then ok; else
    bad "live metrics differ from the replay"; diff "$TMP/live.txt" "$TMP/replay.txt" | head -6; fi
echo "live (scheme inconsistency pair_rate spread d1 d2 d3 d4):"
sed 's/^/  /' "$TMP/live.txt"
echo "netns-hostbots: $pass passed, $fail failed"
[ "$fail" = 0 ]
