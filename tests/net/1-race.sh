# netrace host / join: usage errors, then a race of two bots between two
# processes on loopback, the joiner's clock 250 ms ahead: both exit 0, the
# clock estimate lands within 1 ms of 250 ms, both terminals computed the
# same live metrics, and both logs hold what docs/netlog.md promises.
# Sourced by tests/test_cli.sh (NETRACE_CLI_PARTS=tests/net).

expect 2 "join without a host" -- "$NR" join --headless
stderr_has "give the host" "join names what is missing"
expect 2 "join sets no race" -- "$NR" join 127.0.0.1 --seconds 5 --headless
stderr_has "host's to set" "the race is the host's"
expect 2 "host with a human player --headless" -- "$NR" host --player keys --headless
stderr_has "races a bot or a script" "keys say what to use instead"
expect 1 "host's window without a display" -- env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER "$NR" host --port 0
stderr_has "no window could be opened" "no display: one line, what to do instead"
expect 2 "--keys with a bot" -- "$NR" host --player bot --keys "$TMP/none.keys" --port 0
expect 2 "host bad link" -- "$NR" host --link "delay 5 parsecs" --headless
stderr_has "^netrace host: --link" "bad link named"
expect 2 "host bad port" -- "$NR" host --port 70000 --headless
expect 2 "join --allow is the host's" -- "$NR" join 127.0.0.1 --allow 127.0.0.1 --headless
expect 1 "host --allow a name that does not resolve" -- "$NR" host --allow no-such-host.invalid --headless
stderr_has "no-such-host.invalid" "the unresolved name is named"
expect 2 "join bad port" -- "$NR" join 127.0.0.1:0 --headless
expect 2 "host bad player" -- "$NR" host --player robot --headless
expect 2 "host bad scheme" -- "$NR" host --scheme warp --headless
expect 2 "host unknown option" -- "$NR" host --frobnicate
expect 2 "host laps and seconds" -- "$NR" host --laps 2 --seconds 30 --headless
stderr_has "one or the other" "a race is laps or seconds"
expect 1 "host log in a missing folder" -- timeout 20 "$NR" host --port 0 --headless --log "$TMP/no/such/dir/h.log"
stderr_has "cannot write" "an unwritable log is named before anyone joins"
expect 2 "host --watch --headless" -- "$NR" host --watch --headless
stderr_has "drop --headless" "--watch goes with the window"

# host_port FILE: the port a host printed on stderr (0 until it did)
host_port() {
    local p=""
    for _ in $(seq 1 200); do
        p=$(sed -n 's/.*waiting for a joiner on UDP port \([0-9]*\).*/\1/p' "$1" 2>/dev/null)
        [ -n "$p" ] && break
        sleep 0.05
    done
    echo "${p:-0}"
}
# key FILE NAME: the value of a key: value line
key() { sed -n "s/^$2: //p" "$1"; }

timeout 120 "$NR" host --port 0 --seconds 10 --headless --schemes nc,causality,dr,epp-xv --log "$TMP/h.log" --allow 127.0.0.1 \
    >"$TMP/h.out" 2>"$TMP/h.err" &
HOST_PID=$!
PORT=$(host_port "$TMP/h.err")
# the joiner adds an emulated 30 ms to what it sends (--link before the wire)
expect 0 "join a race on loopback" -- timeout 120 "$NR" join "127.0.0.1:$PORT" --clock-offset 250 --headless \
    --log "$TMP/j.log" --link "delay 30ms"
cp "$TMP/out" "$TMP/j.out"
wait "$HOST_PID"
hrc=$?
if [ "$hrc" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: host exit $hrc"; sed 's/^/  /' "$TMP/h.err"; fi
off=$(key "$TMP/j.out" clock_offset_ms)
if awk -v o="$off" 'BEGIN { exit !(o != "" && o > 249 && o < 251) }'; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: clock estimate '$off' ms, expected 250 +- 1"; fi
bound=$(key "$TMP/j.out" clock_error_bound_ms)
if awk -v o="$off" -v b="$bound" 'BEGIN { d = o - 250; if (d < 0) d = -d; exit !(d <= b) }'; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the truth 250 ms is outside $off +- $bound ms"; fi
# both terminals computed the same live metrics, over the whole race
grep -E '^(nc|causality|dr|epp-xv)\.' "$TMP/h.out" >"$TMP/h.metrics"
grep -E '^(nc|causality|dr|epp-xv)\.' "$TMP/j.out" >"$TMP/j.metrics"
if cmp -s "$TMP/h.metrics" "$TMP/j.metrics" && grep -q '^nc.samples: 30[0-9]$' "$TMP/h.metrics"; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: host and joiner metrics differ or are short";
    diff "$TMP/h.metrics" "$TMP/j.metrics" | head -5; fi
for f in h j; do
    for k in packets_rejected mu_lost views_skipped; do
        if [ "$(key "$TMP/$f.out" $k)" = 0 ]; then pass=$((pass + 1)); else
            fail=$((fail + 1)); echo "FAIL: $f: $k is $(key "$TMP/$f.out" $k), expected 0"; fi
    done
    log="$TMP/$f.log"
    if [ -f "$log" ] && [ ! -e "$log.part" ] && head -1 "$log" | grep -q '^# netlog: 1$'; then
        pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $f.log not finalised"; fi
    # own samples 0..N at t = seq * 33 ms; received MUs with send and arrival times
    if awk -F, '$1 == "own" { if ($2 != n || $3 != n * 33000) bad = 1; n++ } END { exit !(n >= 300 && !bad) }' "$log"; then
        pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $f.log own rows"; fi
    lo=-1000; [ "$f" = h ] && lo=29000 # the joiner's MUs come 30 ms late (its --link)
    if awk -F, -v lo="$lo" '$1 == "rx" && $3 == "mu" { n++; d = $5 - $6; if (d < lo || d > lo + 100000) bad = 1 } END { exit !(n >= 300 && !bad) }' "$log"; then
        pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $f.log rx rows (delays outside -1..100 ms on loopback? (the clock error may make one slightly negative))"; fi
    if grep -q '^event,.*,end,completed$' "$log" && grep -q '^metric,nc,samples,' "$log"; then
        pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $f.log end and metrics"; fi
done
if grep -q '^# link: delay 30ms$' "$TMP/j.log" && grep -q '^# link: none$' "$TMP/h.log"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: the logs' link headers"; fi
# every MU the host put on the wire arrived at the joiner (loopback), by counter
awk -F, '$1 == "tx" { print $2 }' "$TMP/h.log" | sort -n >"$TMP/h.tx"
awk -F, '$1 == "rx" && $3 == "mu" { print $2 }' "$TMP/j.log" | sort -n >"$TMP/j.rx"
if cmp -s "$TMP/h.tx" "$TMP/j.rx" && [ -s "$TMP/h.tx" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: host tx rows and joiner rx rows differ"; fi

# The driving window (keys) on SDL's dummy video driver against a headless
# bot: the window rides on the session's loop through the whole race; the
# results stay up until the player closes them (here: SIGTERM), and the
# window's terminal computed the same metrics as the headless one.
SDL_VIDEODRIVER=dummy timeout 120 "$NR" host --port 0 --seconds 3 --schemes nc,dr --watch >"$TMP/wh.out" \
    2>"$TMP/wh.err" &
HOST_PID=$!
PORT=$(host_port "$TMP/wh.err")
expect 0 "join a host that drives with keys in its window" -- timeout 120 "$NR" join "127.0.0.1:$PORT" --headless
cp "$TMP/out" "$TMP/wj.out"
sleep 0.5
kill -TERM "$HOST_PID" 2>/dev/null
wait "$HOST_PID"
hrc=$?
grep -E '^(nc|dr)\.' "$TMP/wh.out" >"$TMP/wh.metrics"
grep -E '^(nc|dr)\.' "$TMP/wj.out" >"$TMP/wj.metrics"
if [ "$hrc" -eq 0 ] && cmp -s "$TMP/wh.metrics" "$TMP/wj.metrics" && grep -q '^nc.samples: 9[0-9]$' "$TMP/wh.metrics"; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: windowed host exit $hrc, or its metrics differ from the joiner's";
    sed 's/^/  /' "$TMP/wh.err" | head -5; fi

# The drift this terminal's clock runs at, in the sign of --clock-drift (the
# summary printed the host's against the joiner's: -99 for +100).
timeout 120 "$NR" host --port 0 --seconds 10 --headless --schemes nc >"$TMP/dh.out" 2>"$TMP/dh.err" &
HOST_PID=$!
PORT=$(host_port "$TMP/dh.err")
expect 0 "join with a clock 100 ppm fast" -- timeout 120 "$NR" join "127.0.0.1:$PORT" --headless --clock-drift 100
wait "$HOST_PID"
drift=$(key "$TMP/out" clock_drift_ppm)
if awk -v d="$drift" 'BEGIN { exit !(d != "" && d > 50 && d < 150) }'; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: clock_drift_ppm '$drift' for --clock-drift 100"; fi
