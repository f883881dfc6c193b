# Hostile traffic at a live host over a real socket (10^6 of every reject
# class are counted in simulated time by tests/test_netsession.c): 10^5
# datagrams from tests/net_flood.c (random, truncated, empty, oversized,
# spoofed: right magic and wrong token, absurd fields, all in clear, and
# forged sealed envelopes: an outsider without the join code) while two bots
# race. The flood done, the joiner is killed and the host stopped: the host
# must not crash (this runs under the sanitizer build too) and must have
# read and counted every datagram before it reports, so that sent =
# counted + the kernel's drops, exactly, whatever the load. The killed
# joiner's log is a readable .part.
# Sourced by tests/test_cli.sh (NETRACE_CLI_PARTS=tests/net).

# wait_rows FILE PATTERN: until a line of FILE matches (at most 20 s)
wait_rows() { for _ in $(seq 1 400); do grep -qE "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done; return 1; }

FLOOD=${NETRACE_FLOOD:-}
if [ -x "$FLOOD" ]; then
    printf 't_ms,player,throttle,brake,steer\n0,1,1,0,0\n3000,1,0.7,0,0.05\n' >"$TMP/p1.script"
    timeout 150 "$NR" host --port 0 --seconds 120 --headless --schemes nc,dr,epp-xv --log "$TMP/fh.log" --code 7k3qm-x9a2c \
        --player "script:$TMP/p1.script" >"$TMP/fh.out" 2>"$TMP/fh.err" &
    FH=$!
    FPORT=$(host_port "$TMP/fh.err")
    "$NR" join "127.0.0.1:$FPORT" --code 7K3QM-X9A2C --headless --raw-clock --log "$TMP/fj.log" >"$TMP/fj.out" 2>"$TMP/fj.err" &
    FJ=$!
    wait_rows "$TMP/fh.log.part" '^own,100,'
    timeout 120 "$FLOOD" "$FPORT" "$TMP/fh.log.part" 100000 7 >"$TMP/flood.out" 2>&1
    kill -KILL "$FJ"
    wait "$FJ" 2>/dev/null
    kill -TERM "$FH"
    wait "$FH"; frc=$?
    sent=$(key "$TMP/flood.out" sent)
    rej=$(key "$TMP/fh.out" packets_rejected)
    drops=$(key "$TMP/fh.out" kernel_drops) # the host socket's own counter
    if [ "$frc" -eq 1 ] && grep -q 'quit before the end of the race (signal 15)' "$TMP/fh.err"; then
        pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the host stopped after the flood: exit $frc"; tail -3 "$TMP/fh.err"; fi
    if [ "$sent" = 100000 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: flood sent '$sent'"; fi
    if [ -n "$rej" ] && [ "${drops:--1}" -ge 0 ] && [ $((rej + drops)) -eq "$sent" ]; then
        pass=$((pass + 1))
        [ "$drops" -gt 0 ] && echo "NOTE: the kernel dropped $drops datagrams before the host read them (a loaded machine)"
    else
        fail=$((fail + 1)); echo "FAIL: sent $sent hostile datagrams, the host counted '$rej', the kernel dropped $drops"
    fi
    for r in short oversized unsealed auth; do
        if [ "$(key "$TMP/fh.out" "rejected_$r")" -gt 0 ] 2>/dev/null; then pass=$((pass + 1)); else
            fail=$((fail + 1)); echo "FAIL: no datagram rejected as $r"; fi
    done
    # the reject rows of the finalised log say the same
    if [ "$(awk -F, '$1 == "reject" { c[$3] = $4 } END { for (r in c) s += c[r]; print s }' "$TMP/fh.log")" = "$rej" ]; then
        pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the log's reject counts differ from the summary"; fi
    # the killed joiner's log (it ran --raw-clock): kept as .part, header and
    # at least 100 own samples
    if [ -f "$TMP/fj.log.part" ] && head -1 "$TMP/fj.log.part" | grep -q '^# netlog: 1$' &&
        grep -q '^# clock: raw$' "$TMP/fj.log.part" && grep -q '^# clock: synchronised$' "$TMP/fh.log" &&
        [ "$(grep -c '^own,' "$TMP/fj.log.part")" -ge 100 ]; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL: the killed joiner's .part log"; fi
    # the host drove its script: full throttle from the grid, so the car moved
    if awk -F, '$1 == "own" && $2 == 60 { exit !($9 > 1) }' "$TMP/fh.log"; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL: the host's scripted car did not move"; fi
else
    fail=$((fail + 1)); echo "FAIL: NETRACE_FLOOD does not name the net_flood tool"
fi
