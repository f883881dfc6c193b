# Hostile traffic at a live host (issue "Network play", must hold): 10^6
# datagrams from tests/net_flood.c (random, truncated, oversized, spoofed:
# right magic and wrong token, the right token with absurd fields, and
# well-formed packets with the token from another address) while two bots
# race. The host must not crash (this runs under the sanitizer build in CI
# too), must count every one, and the race must go on unaffected: both
# exit 0 with the same live metrics and nothing lost.
# Sourced by tests/test_cli.sh (NETRACE_CLI_PARTS=tests/net).

FLOOD=${NETRACE_FLOOD:-}
if [ -x "$FLOOD" ]; then
    # the race outlasts the flood (~30 s at its pace of 40,000 a second at most)
    timeout 150 "$NR" host --port 0 --seconds 50 --headless --schemes nc,dr,epp-xv --log "$TMP/fh.log" \
        >"$TMP/fh.out" 2>"$TMP/fh.err" &
    FH=$!
    FPORT=$(host_port "$TMP/fh.err")
    timeout 150 "$NR" join "127.0.0.1:$FPORT" --headless --log "$TMP/fj.log" >"$TMP/fj.out" 2>"$TMP/fj.err" &
    FJ=$!
    for _ in $(seq 1 400); do grep -q '^own,' "$TMP/fh.log.part" 2>/dev/null && break; sleep 0.05; done
    # the kernel's drop counter of the host's socket (/proc/net/udp, last column)
    hex=$(printf ':%04X' "$FPORT")
    drops0=$(awk -v p="$hex" 'NR > 1 && substr($2, length($2) - 4) == p { print $NF }' /proc/net/udp)
    timeout 120 "$FLOOD" "$FPORT" "$TMP/fh.log.part" 1000000 7 >"$TMP/flood.out" 2>&1
    drops1=$(awk -v p="$hex" 'NR > 1 && substr($2, length($2) - 4) == p { print $NF }' /proc/net/udp)
    wait "$FH"; frc=$?
    wait "$FJ"; jrc=$?
    sent=$(key "$TMP/flood.out" sent)
    rej=$(key "$TMP/fh.out" packets_rejected)
    drops=$(( ${drops1:-0} - ${drops0:-0} ))
    if [ "$frc" -eq 0 ] && [ "$jrc" -eq 0 ]; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL: under the flood: host exit $frc, joiner exit $jrc"; tail -3 "$TMP/fh.err"; fi
    if [ "$sent" = 1000000 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: flood sent '$sent'"; fi
    if [ "$drops" -eq 0 ] && [ "$rej" = "$sent" ]; then
        pass=$((pass + 1))
    elif [ "$drops" -gt 0 ] && [ "${rej:-0}" -le "$sent" ] && [ "${rej:-0}" -ge $((sent - drops)) ]; then
        pass=$((pass + 1)) # every datagram the host read was counted; the kernel dropped the rest
        echo "NOTE: the kernel dropped $drops datagrams before the host read them (a loaded machine)"
    else
        fail=$((fail + 1)); echo "FAIL: sent $sent hostile datagrams, the host counted '$rej' (kernel drops $drops)"
    fi
    for r in short oversized magic length token field mu address; do
        if [ "$(key "$TMP/fh.out" "rejected_$r")" -gt 0 ] 2>/dev/null; then pass=$((pass + 1)); else
            fail=$((fail + 1)); echo "FAIL: no datagram rejected as $r"; fi
    done
    # the reject rows of the log say the same
    if [ "$(awk -F, '$1 == "reject" { c[$3] = $4 } END { for (r in c) s += c[r]; print s }' "$TMP/fh.log")" = "$rej" ]; then
        pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the log's reject counts differ from the summary"; fi
    if [ "$drops" -eq 0 ]; then
        grep -E '^(nc|dr|epp-xv)\.' "$TMP/fh.out" >"$TMP/fh.metrics"
        grep -E '^(nc|dr|epp-xv)\.' "$TMP/fj.out" >"$TMP/fj.metrics"
        if cmp -s "$TMP/fh.metrics" "$TMP/fj.metrics" && [ "$(key "$TMP/fh.out" mu_lost)" = 0 ] &&
            [ "$(key "$TMP/fh.out" views_skipped)" = 0 ]; then pass=$((pass + 1)); else
            fail=$((fail + 1)); echo "FAIL: the flood disturbed the race (metrics differ or packets lost)"; fi
    fi
else
    fail=$((fail + 1)); echo "FAIL: NETRACE_FLOOD does not name the net_flood tool"
fi
