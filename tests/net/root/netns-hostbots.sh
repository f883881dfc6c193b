#!/bin/bash
# netrace host --cars 4 --bots 2 and one netrace join across two "machines":
# two network namespaces joined by a veth pair (10.77.0.1/24 and
# 10.77.0.2/24, addresses this script creates and removes), so that the
# joiner reaches the host and its bots over a real interface, not loopback
# (the address a remote joiner takes for a bot: netaddr_as_seen). Checks:
# every terminal exits 0, the host says each bot completed, the host and
# the joiner print the same live metrics, merge of the four logs and
# replay over the measured delays reproduce them. Then a served race over
# the same veth (serve --log, a client in the other namespace): merge of
# the server's log with the clients' and the replay on the served topology
# over each hop give the client's live metrics.
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
# seated ERR: PORT and CODE from a host's or server's stderr once its bots
# took 2 of the 3 seats left to a joiner
seated() {
    PORT=""
    for _ in $(seq 1 400); do
        PORT=$(sed -n 's/.* on UDP port \([0-9]*\).*/\1/p' "$1")
        [ -n "$PORT" ] && grep -q '2 of 3 seats' "$1" && break
        sleep 0.05
    done
    CODE=$(sed -n 's/.*join code \([0-9A-Z-]*\).*/\1/p' "$1")
}
# same_as_live OUT REPLAY.csv NCARS WHAT: every scheme of $MS as the
# terminal's summary OUT printed it (inconsistency, pair rate, spread, each
# car's disadvantage, six decimals) equals the replay's --csv row; printed.
same_as_live() {
    local cols="" i
    for i in $(seq 1 "$3"); do cols="$cols disadvantage_$i"; done
    awk -F, -v cols="$cols" 'function f(x) { x += 0; return sprintf("%.6f", x == 0 ? 0 : x) }
        BEGIN { nc = split("inconsistency_rate pair_rate spread" cols, want, " ") }
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { line = $1; for (i = 1; i <= nc; i++) line = line " " f($c[want[i]]); print line }' "$2" >"$2.txt"
    awk -v list="$MS" -v cols="$cols" 'function f(x) { x += 0; return sprintf("%.6f", x == 0 ? 0 : x) }
        BEGIN { n = split(list, s, ","); nc = split("inconsistency pair_rate spread" cols, want, " ") }
        { split($1, kv, "."); v[kv[1], kv[2]] = $2 }
        END { for (k = 1; k <= n; k++) { line = s[k]; for (i = 1; i <= nc; i++) line = line " " f(v[s[k], want[i] ":"])
              print line } }' "$1" >"$1.live"
    if [ "$(wc -l <"$2.txt")" -eq "$(echo "$MS" | tr ',' '\n' | wc -l)" ] && cmp -s "$1.live" "$2.txt"; then ok; else
        bad "$4"; diff "$1.live" "$2.txt" | head -6; fi
    echo "live (scheme inconsistency pair_rate spread d1..d$3):"
    sed 's/^/  /' "$1.live"
}

MS=nc,causality,dr,dr-causality
mkdir -p "$TMP/hb"
ip netns exec "$NSA" timeout 120 "$NR" host --cars 4 --bots 2 --bot-logs "$TMP/hb" --port 0 --headless --seconds 5 \
    --schemes "$MS" --log "$TMP/hb/h.log" >"$TMP/h.out" 2>"$TMP/h.err" &
HOST_PID=$!
seated "$TMP/h.err"
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
same_as_live "$TMP/j.out" "$TMP/replay.csv" 4 "live metrics differ from the replay"

# A served race across the same veth: serve --cars 3 --bots 2 --server sync
# --log in A (car 3's downlink 30 ms), a client in B (its uplink 15 ms);
# merge of the server's log with the clients' names every uplink and
# downlink, and the replay on the served topology over each measured hop
# gives the client's live metrics.
mkdir -p "$TMP/sv"
ip netns exec "$NSA" timeout 120 "$NR" serve --cars 3 --bots 2 --bot-logs "$TMP/sv" --port 0 --seconds 5 \
    --schemes "$MS" --server sync --link s-3 'delay 30ms 5ms' --log "$TMP/sv/s.log" >"$TMP/s.out" 2>"$TMP/s.err" &
HOST_PID=$!
seated "$TMP/s.err"
ip netns exec "$NSB" timeout 120 "$NR" join "10.77.0.1:$PORT" --code "$CODE" --headless --log "$TMP/sv/c.log" \
    --clock-offset -60 --link 3-s 'delay 15ms' >"$TMP/c.out" 2>"$TMP/c.err"
jrc=$?
wait "$HOST_PID"
src=$?
HOST_PID=
if [ "$jrc" = 0 ] && [ "$src" = 0 ] && [ "$(key "$TMP/c.out" car)" = 3 ]; then ok; else
    bad "serve exit $src, client exit $jrc or car $(key "$TMP/c.out" car)"; sed 's/^/  /' "$TMP/s.err" "$TMP/c.err"; fi
"$NR" merge "$TMP/sv/s.log" "$TMP/sv/bot-1.log" "$TMP/sv/bot-2.log" "$TMP/sv/c.log" --out "$TMP/srace.csv" \
    --delays "$TMP/sdelays.csv" --links "$TMP/slinks.txt" >"$TMP/sm.out" 2>"$TMP/sm.err" || bad "merge with the server's log"
if grep -q '^# link_3_s: delay 15ms$' "$TMP/srace.csv" && grep -q '^# link_s_3: delay 30ms 5ms$' "$TMP/srace.csv" &&
    grep -q '^# link_s_1: none$' "$TMP/srace.csv" && grep -q '^# topology: cs sync$' "$TMP/srace.csv"; then ok; else
    bad "the served race's header"; grep '^# link\|^# topo' "$TMP/srace.csv" | sed 's/^/  /'; fi
awk -F, '{ k = "" } $1 ~ /^[0-9]s$/ { k = "up " $1 } $1 ~ /^[0-9]s[0-9]$/ { k = "down s" substr($1, 3) }
    k != "" { n[k]++; t[k] += $8 } END { for (k in n) printf "  %s: %d MUs, mean %.3f ms\n", k, n[k], t[k] / n[k] / 1000 }' \
    "$TMP/sdelays.csv" | sort
"$NR" replay "$TMP/srace.csv" --csv --schemes "$MS" --links "$TMP/slinks.txt" >"$TMP/sreplay.csv" 2>"$TMP/sreplay.err" ||
    bad "replay of the served race"
if awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["topology"] != "cs" || $c["server"] != "sync" { exit 1 }' \
    "$TMP/sreplay.csv"; then ok; else bad "the replay did not run the served topology"; fi
same_as_live "$TMP/c.out" "$TMP/sreplay.csv" 3 "the client's live metrics differ from the replay over the hops"
echo "netns-hostbots: $pass passed, $fail failed"
[ "$fail" = 0 ]
