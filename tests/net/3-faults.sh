# Faults: a joiner stopped for 4.5 s (SIGSTOP) pauses the race at the host,
# which resumes it when the joiner is heard again: both finish, exit 0. A
# joiner killed (SIGKILL) mid-race: the host pauses, then ends after 15 s of
# silence with exit 1 and its log finalised; the killed joiner's log is a
# readable .part. Both scenarios run side by side.
# Sourced by tests/test_cli.sh (NETRACE_CLI_PARTS=tests/net).

# wait_rows FILE PATTERN: until a line of FILE matches (at most 20 s)
wait_rows() { for _ in $(seq 1 400); do grep -qE "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done; return 1; }

printf 't_ms,player,throttle,brake,steer\n0,1,1,0,0\n3000,1,0.7,0,0.05\n' >"$TMP/p1.script"
timeout 120 "$NR" host --port 0 --seconds 14 --headless --schemes nc,dr --log "$TMP/ph.log" --player "script:$TMP/p1.script" \
    >"$TMP/ph.out" 2>"$TMP/ph.err" &
PH=$!
timeout 120 "$NR" host --port 0 --seconds 60 --headless --schemes nc --log "$TMP/kh.log" \
    >"$TMP/kh.out" 2>"$TMP/kh.err" &
KH=$!
# a host that takes its joiner only from 127.0.0.2: a joiner from 127.0.0.1
# is refused ("address") and gives up after 15 s without an answer
timeout 60 "$NR" host --port 0 --seconds 10 --headless --allow 127.0.0.2 >"$TMP/ah.out" 2>"$TMP/ah.err" &
AH=$!
APORT=$(host_port "$TMP/ah.err")
"$NR" join "127.0.0.1:$APORT" --headless >"$TMP/aj.out" 2>"$TMP/aj.err" &
AJ=$!
PPORT=$(host_port "$TMP/ph.err")
KPORT=$(host_port "$TMP/kh.err")
"$NR" join "127.0.0.1:$PPORT" --headless --log "$TMP/pj.log" >"$TMP/pj.out" 2>"$TMP/pj.err" &
PJ=$!
"$NR" join "127.0.0.1:$KPORT" --headless --raw-clock --log "$TMP/kj.log" >"$TMP/kj.out" 2>"$TMP/kj.err" &
KJ=$!
wait_rows "$TMP/pj.log.part" '^own,100,'
kill -STOP "$PJ"
wait_rows "$TMP/kj.log.part" '^own,100,'
kill -KILL "$KJ"
sleep 4.5
kill -CONT "$PJ"
wait "$PJ"; pjrc=$?
wait "$PH"; phrc=$?
wait "$KH"; khrc=$?
wait "$KJ" 2>/dev/null
wait "$AJ"; ajrc=$?
kill -TERM "$AH"
wait "$AH"; ahrc=$?
if [ "$ajrc" -eq 1 ] && grep -q 'no answer from 127.0.0.1:[0-9]* within 15 s' "$TMP/aj.err" && [ "$ahrc" -eq 1 ] &&
    [ "$(key "$TMP/ah.out" rejected_address)" -ge 10 ] 2>/dev/null && [ "$(key "$TMP/ah.out" packets_received)" = 0 ]; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: --allow 127.0.0.2 and a joiner from 127.0.0.1 (joiner $ajrc, host $ahrc)"
    cat "$TMP/aj.err" "$TMP/ah.err" "$TMP/ah.out" | head -20; fi
if [ "$phrc" -eq 0 ] && [ "$pjrc" -eq 0 ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: after a pause: host exit $phrc, joiner exit $pjrc"; cat "$TMP/ph.err" "$TMP/pj.err"; fi
if grep -q 'silent for 3 s: race paused' "$TMP/ph.err" && grep -q 'race resumed' "$TMP/ph.err" &&
    grep -q '^event,.*,pause,silence$' "$TMP/ph.log" && grep -q '^event,.*,resume,' "$TMP/pj.log"; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the pause and resume are not said or logged"; fi
# a race that paused says its metrics are not those of an unbroken race
if grep -q '^pauses: [1-9]' "$TMP/ph.out" && grep -q 'not comparable' "$TMP/ph.err"; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the host does not say its race paused"; fi
if [ "$(key "$TMP/ph.out" samples)" = "$(key "$TMP/pj.out" samples)" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: after the pause the two ends raced different lengths"; fi
if [ "$khrc" -eq 1 ] && grep -q 'silent for 15 s' "$TMP/kh.err"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: a killed joiner: host exit $khrc"; cat "$TMP/kh.err"; fi
if [ -f "$TMP/kh.log" ] && grep -q '^event,.*,silence,' "$TMP/kh.log" && grep -q '^metric,nc,samples,' "$TMP/kh.log"; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the host's log after silence"; fi
# the killed joiner's log (it ran --raw-clock): kept as .part, header and at
# least 100 own samples
if [ -f "$TMP/kj.log.part" ] && head -1 "$TMP/kj.log.part" | grep -q '^# netlog: 1$' &&
    grep -q '^# clock: raw$' "$TMP/kj.log.part" && grep -q '^# clock: synchronised$' "$TMP/kh.log" &&
    [ "$(grep -c '^own,' "$TMP/kj.log.part")" -ge 100 ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: the killed joiner's .part log"; fi
# the host drove its script: full throttle from the grid, so the car moved
if awk -F, '$1 == "own" && $2 == 60 { exit !($9 > 1) }' "$TMP/ph.log"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: the host's scripted car did not move"; fi
