# netrace serve + 4 netrace join on loopback (issue 19): the server seats
# four headless bots, relays their MUs and views (car 4's 20 ms later:
# --link s-4); every client exits 0,
# estimates its clock (each 50-150 ms off) within its bound, and prints
# the same live metrics, the N-car ones too; merge of the four logs and
# replay over the measured delays (--links) reproduce them. Then a fifth
# client of a full race, a client of another code, and the usage errors.
# Sourced by tests/test_cli.sh (NETRACE_CLI_PARTS=tests/net); host_port,
# code and key come from 1-race.sh.

expect 2 "serve --cars 9" -- "$NR" serve --cars 9
stderr_has "from 2 to 8" "a car count out of range is named"
expect 2 "serve --server central" -- "$NR" serve --server central
stderr_has "expected relay or sync" "the server behaviours named"
expect 2 "serve --player bot" -- "$NR" serve --player bot
stderr_has "the server drives no car" "serve has no car"
expect 2 "serve --player" -- "$NR" serve --player bot --log "$TMP/s.log"
expect 2 "serve --link 1-s" -- "$NR" serve --link 1-s 'delay 5ms'
stderr_has "the server's lines are its downlinks s-J" "a client's uplink is not the server's to emulate"
expect 2 "serve --link s-5 of 4 seats" -- "$NR" serve --cars 4 --link s-5 'delay 5ms'
stderr_has "s-5" "a downlink past the seats named"
expect 1 "serve --cars 8 on a track of fewer grid slots" -- "$NR" serve --cars 8 --port 0 --track "$SRC/tests/data/two-slots.track"
stderr_has "grid slots, a race of 8 cars needs 8" "too few grid slots named"

# serve_port FILE: the port a server printed on stderr (0 until it did)
serve_port() {
    local p=""
    for _ in $(seq 1 400); do
        p=$(sed -n 's/.*clients on UDP port \([0-9]*\).*/\1/p' "$1" 2>/dev/null)
        [ -n "$p" ] && break
        sleep 0.05
    done
    echo "${p:-0}"
}

SMS=nc,causality,dr,dr-causality
timeout 120 "$NR" serve --cars 4 --port 0 --seconds 5 --schemes "$SMS" --link s-4 'delay 20ms' --log "$TMP/s.log" >"$TMP/s.out" \
    2>"$TMP/s.err" &
SERVE_PID=$!
SPORT=$(serve_port "$TMP/s.err")
SCODE=$(code "$TMP/s.err")
CPIDS=""
for i in 1 2 3 4; do
    timeout 120 "$NR" join "127.0.0.1:$SPORT" --code "$SCODE" --headless --log "$TMP/c$i.log" \
        --clock-offset $((i * 100 - 250)) >"$TMP/c$i.out" 2>"$TMP/c$i.err" &
    CPIDS="$CPIDS $!"
done
wait "$SERVE_PID"
src=$?
if [ "$src" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: serve exit $src"; sed 's/^/  /' "$TMP/s.err"; fi
i=0
for p in $CPIDS; do
    i=$((i + 1))
    wait "$p"
    crc=$?
    if [ "$crc" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: client $i exit $crc"; sed 's/^/  /' "$TMP/c$i.err"; fi
done
if grep -q '^clients: 4$' "$TMP/s.out" && grep -q '^packets_rejected: 0$' "$TMP/s.out" &&
    grep -q '^link_s_4: delay 20ms$' "$TMP/s.out" && grep -q '^mu_downlink_lost: 0$' "$TMP/s.out" &&
    grep -q '^role: client$' "$TMP/c1.out" && grep -q '^# role: client$' "$TMP/c1.log"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: the server's summary"; sed 's/^/  /' "$TMP/s.out"; fi
# each client's clock estimate within 1 ms of the truth (--clock-offset: -150, -50, 50, 150 ms)
for i in 1 2 3 4; do
    off=$(key "$TMP/c$i.out" clock_offset_ms)
    bound=$(key "$TMP/c$i.out" clock_error_bound_ms)
    if awk -v o="$off" -v t=$((i * 100 - 250)) 'BEGIN { d = o - t; if (d < 0) d = -d; exit !(o != "" && d < 1) }'; then
        pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: client $i clock $off +- $bound ms, truth $((i * 100 - 250))"; fi
    grep -E '^(nc|causality|dr|dr-causality)\.' "$TMP/c$i.out" >"$TMP/c$i.metrics"
done
same=1
for i in 2 3 4; do cmp -s "$TMP/c1.metrics" "$TMP/c$i.metrics" || same=0; done
if [ "$same" = 1 ] && grep -q '^nc.samples: 153$' "$TMP/c1.metrics" && grep -q '^dr.disadvantage_4: ' "$TMP/c1.metrics"; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the clients' metrics differ or are short";
    diff "$TMP/c1.metrics" "$TMP/c2.metrics" | head -5; fi

expect 0 "merge the four clients' logs" -- "$NR" merge "$TMP/c3.log" "$TMP/c1.log" "$TMP/c4.log" "$TMP/c2.log" \
    --out "$TMP/srace.csv" --delays "$TMP/sdelays.csv" --links "$TMP/slinks.txt"
stdout_has "^samples: 153$" "merge: a 5 s race"
stdout_has "^car1: .*\(client, 153 samples\)$" "merge: a served race's logs are its clients'"
stdout_has "^lost43: 0$" "merge: loopback lost nothing on line 4 -> 3"
# what the lines to car 4 lost is what its downlink held when the race ended
lost4=$(( $(key "$TMP/out" lost14) + $(key "$TMP/out" lost24) + $(key "$TMP/out" lost34) ))
if [ "$lost4" = "$(key "$TMP/s.out" mu_downlink_unsent)" ]; then pass=$((pass + 1)); else fail=$((fail + 1))
    echo "FAIL: merge lost $lost4 MUs to car 4, the server held $(key "$TMP/s.out" mu_downlink_unsent) at the end"; fi
# the server's --link s-4 delayed every MU to car 4 by 20 ms, and not
# those to car 3 (its fastest came sooner: no upper bound on each, a
# loaded machine may hold a few)
if awk -F, '$1 ~ /^[0-9]4$/ && $8 < 20000 { bad = 1 } $1 ~ /^[0-9]4$/ { n4++ }
    $1 ~ /^[0-9]3$/ && (n3++ == 0 || $8 < min3) { min3 = $8 }
    END { exit bad || n4 < 100 || n3 < 100 || min3 >= 20000 }' "$TMP/sdelays.csv"; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: serve --link s-4 did not delay car 4's downlink alone"; fi
if grep -q '^# cars: 4$' "$TMP/srace.csv" && grep -q '^2-4 trace .* direction 24$' "$TMP/slinks.txt"; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the merged race is not of 4 cars, or no link matrix"; fi
expect 0 "replay the merged race over its measured delays" -- "$NR" replay "$TMP/srace.csv" --csv --schemes "$SMS" \
    --links "$TMP/slinks.txt"
# scheme inconsistency pair_rate spread disadvantage_1..4, as the clients print them
awk -F, 'function f(x) { x += 0; return sprintf("%.6f", x == 0 ? 0 : x) }
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { print $1, f($c["inconsistency_rate"]), f($c["pair_rate"]), f($c["spread"]), f($c["disadvantage_1"]),
      f($c["disadvantage_2"]), f($c["disadvantage_3"]), f($c["disadvantage_4"]) }' "$TMP/out" >"$TMP/sreplay.txt"
awk -v list="$SMS" 'function f(x) { x += 0; return sprintf("%.6f", x == 0 ? 0 : x) }
    BEGIN { n = split(list, s, ",") }
    { split($1, kv, "."); v[kv[1], kv[2]] = $2 }
    END { for (i = 1; i <= n; i++) print s[i], f(v[s[i], "inconsistency:"]), f(v[s[i], "pair_rate:"]),
          f(v[s[i], "spread:"]), f(v[s[i], "disadvantage_1:"]), f(v[s[i], "disadvantage_2:"]),
          f(v[s[i], "disadvantage_3:"]), f(v[s[i], "disadvantage_4:"]) }' "$TMP/c1.out" >"$TMP/slive.txt"
if [ "$(wc -l <"$TMP/sreplay.txt")" -eq 4 ] && cmp -s "$TMP/slive.txt" "$TMP/sreplay.txt"; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: live N-car metrics differ from the replay"
    diff "$TMP/slive.txt" "$TMP/sreplay.txt" | head -6; fi
expect 1 "merge three of the four logs" -- "$NR" merge "$TMP/c1.log" "$TMP/c2.log" "$TMP/c3.log" --out "$TMP/s3.csv"
stderr_has "log is missing" "merge names the missing car"

# With the server's log (serve --log): the merged recording names every
# client's uplink and downlink, the link matrix each hop (I-s, s-J), and
# the replay on the served topology over them gives the live metrics again.
expect 0 "merge the server's log with the clients'" -- "$NR" merge "$TMP/c2.log" "$TMP/s.log" "$TMP/c1.log" \
    "$TMP/c4.log" "$TMP/c3.log" --out "$TMP/hrace.csv" --delays "$TMP/hdelays.csv" --links "$TMP/hlinks.txt"
stdout_has "^server: .*s\.log \(server, [0-9]+ MUs arrived\)$" "merge: the server's log named"
if grep -q '^# link_s_4: delay 20ms$' "$TMP/hrace.csv" && grep -q '^# link_s_1: none$' "$TMP/hrace.csv" &&
    grep -q '^# link_3_s: none$' "$TMP/hrace.csv" && grep -q '^# topology: cs relay$' "$TMP/hrace.csv" &&
    grep -q '^s-4 trace .* direction s4$' "$TMP/hlinks.txt" && grep -q '^2-s trace .* direction 2s$' "$TMP/hlinks.txt"; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the served race's header or hops"
    grep '^# link\|^# topo' "$TMP/hrace.csv"; cat "$TMP/hlinks.txt"; fi
# the server's 20 ms on car 4's downlink is in its hop's rows (s4), not in its
# uplink's (4s). Counted, not required of every row: a measured hop is the
# emulated delay plus the clock estimate's error plus the time a process
# waited for a core, and on a loaded machine a loopback hop can wait 20 ms.
if awk -F, '$1 ~ /^[0-9]s4$/ { n++; if ($8 >= 20000) slow++ } $1 == "4s" { m++; if ($8 >= 20000) up++ }
    END { printf "hop s-4: %d of %d rows at least 20 ms; hop 4-s: %d of %d\n", slow, n, up, m
          exit !(n >= 300 && slow >= 0.9 * n && m >= 100 && up <= 0.1 * m) }' "$TMP/hdelays.csv" >"$TMP/hops.txt"
then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the downlink's delay is not on hop s-4"; cat "$TMP/hops.txt"; fi
expect 0 "replay the served race over each hop" -- "$NR" replay "$TMP/hrace.csv" --csv --schemes "$SMS" \
    --links "$TMP/hlinks.txt"
awk -F, 'function f(x) { x += 0; return sprintf("%.6f", x == 0 ? 0 : x) }
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { print $1, f($c["inconsistency_rate"]), f($c["pair_rate"]), f($c["spread"]), f($c["disadvantage_1"]),
      f($c["disadvantage_2"]), f($c["disadvantage_3"]), f($c["disadvantage_4"]) " " $c["topology"] }' "$TMP/out" >"$TMP/hreplay.txt"
sed 's/$/ cs/' "$TMP/slive.txt" >"$TMP/hlive.txt"
if [ "$(wc -l <"$TMP/hreplay.txt")" -eq 4 ] && cmp -s "$TMP/hlive.txt" "$TMP/hreplay.txt"; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: live N-car metrics differ from the replay on the served topology"
    diff "$TMP/hlive.txt" "$TMP/hreplay.txt" | head -6; fi
# a downlink's rows given on another line: one line naming the line to use
sed 's/^s-1 trace \(.*\) direction s1$/s-1 trace \1 direction s2/' "$TMP/hlinks.txt" >"$TMP/hbad.txt"
expect 1 "replay with a downlink's direction on another line" -- "$NR" replay "$TMP/hrace.csv" --headless \
    --links "$TMP/hbad.txt"
stderr_has "hbad.txt:[0-9]+: link s-1: direction s2 names the downlink s-2 \(each sender I takes its rows Is2 there\): give it on line s-2" \
    "a downlink's rows on the wrong line named"
expect 1 "merge the server's log without a client's" -- "$NR" merge "$TMP/s.log" "$TMP/c1.log" "$TMP/c3.log" \
    "$TMP/c4.log" --out "$TMP/h3.csv"
stderr_has "a race of 4 cars, 3 logs: car [1-4]'s log is missing" "merge names the missing client"

# A fifth client of a two-seat race is told so at once; a client of another
# code gets no seat and gives up saying so.
timeout 60 "$NR" serve --cars 2 --port 0 --seconds 3 --code AB12C-D34EF --log "$TMP/s2.log" >"$TMP/s2.out" 2>"$TMP/s2.err" &
SERVE_PID=$!
SPORT=$(serve_port "$TMP/s2.err")
timeout 60 "$NR" join "127.0.0.1:$SPORT" --code AB12C-D34EF --headless >"$TMP/d1.out" 2>"$TMP/d1.err" &
D1=$!
timeout 60 "$NR" join "127.0.0.1:$SPORT" --code AB12C-D34EF --headless >"$TMP/d2.out" 2>"$TMP/d2.err" &
D2=$!
for _ in $(seq 1 400); do grep -q '2 of 2 seats' "$TMP/s2.err" && break; sleep 0.05; done
expect 1 "a third client of a two-seat race" -- timeout 60 "$NR" join "127.0.0.1:$SPORT" --code AB12C-D34EF --headless
stderr_has "is full: its 2 seats are taken" "the full race said in one line"
expect 1 "a client of another race's code" -- timeout 60 "$NR" join "127.0.0.1:$SPORT" --code AB12C-D34EG --headless
stderr_has "did not take this join code" "another code said in one line"
wait "$D1"; wait "$D2"; wait "$SERVE_PID"
if grep -q '^rejected_busy: ' "$TMP/s2.out" && grep -q '^rejected_auth: ' "$TMP/s2.out"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: the server did not count the full and the foreign HELLOs"; fi
# another race's server log, two server logs: one line each
expect 1 "merge with another race's server log" -- "$NR" merge "$TMP/s2.log" "$TMP/c1.log" "$TMP/c2.log" \
    "$TMP/c3.log" "$TMP/c4.log" --out "$TMP/h4.csv"
stderr_has "s2.log: the server's log is of another race" "another race's server log named"
expect 1 "merge with two server logs" -- "$NR" merge "$TMP/s.log" "$TMP/s2.log" "$TMP/c1.log" "$TMP/c2.log" \
    "$TMP/c3.log" "$TMP/c4.log" --out "$TMP/h5.csv"
stderr_has "are both a server's log: a race has one server" "two server logs named"

# serve --bots: two of three seats taken by bots the server runs, one
# person's join (the seats in HELLO order); everyone completes, and the merge of
# the bots' logs (--bot-logs) and the client's replays what the client
# printed. The flags' bad combinations are refused in one line.
expect 2 "serve --bots 5 of 4 seats" -- "$NR" serve --cars 4 --bots 5
stderr_has "a race of 4 cars has 4 seats" "more bots than seats named"
expect 2 "serve --bot-logs without --bots" -- "$NR" serve --bot-logs "$TMP"
stderr_has "no bot to log" "bot logs without bots"
expect 2 "serve --bots with --allow another host" -- "$NR" serve --bots 1 --allow 10.0.0.9
stderr_has "the bots join from 127.0.0.1" "bots and --allow"
mkdir -p "$TMP/bots"
timeout 60 "$NR" serve --cars 3 --bots 2 --bot-logs "$TMP/bots" --port 0 --seconds 3 --schemes nc,dr \
    >"$TMP/sb.out" 2>"$TMP/sb.err" &
SERVE_PID=$!
SPORT=$(serve_port "$TMP/sb.err")
expect 0 "a person's join of a race with two bots" -- timeout 60 "$NR" join "127.0.0.1:$SPORT" \
    --code "$(code "$TMP/sb.err")" --headless --log "$TMP/b3.log"
cp "$TMP/out" "$TMP/b3.out"
wait "$SERVE_PID"
src=$?
# seats go in HELLO order, the bots' and the person's alike: one car each
pcar=$(key "$TMP/b3.out" car)
cars=$(sed -n 's/^netrace serve (bot [12]): car \([1-3]\): completed$/\1/p' "$TMP/sb.err" | sort | tr -d '\n')
if [ "$src" -eq 0 ] && [ -n "$pcar" ] && [ "$(printf '%s\n' "$pcar" ${cars:+$(echo "$cars" | fold -w1)} | sort | tr -d '\n')" = 123 ]; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: serve --bots exit $src"; sed 's/^/  /' "$TMP/sb.err"; fi
expect 0 "merge the bots' logs and the client's" -- "$NR" merge "$TMP/bots/bot-1.log" "$TMP/bots/bot-2.log" \
    "$TMP/b3.log" --out "$TMP/brace.csv" --delays "$TMP/bdelays.csv" --links "$TMP/blinks.txt"
expect 0 "replay the race with bots" -- "$NR" replay "$TMP/brace.csv" --csv --schemes nc,dr --links "$TMP/blinks.txt"
awk -F, 'function f(x) { x += 0; return sprintf("%.6f", x == 0 ? 0 : x) }
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { print $1, f($c["inconsistency_rate"]), f($c["pair_rate"]), f($c["spread"]), f($c["disadvantage_1"]),
      f($c["disadvantage_2"]), f($c["disadvantage_3"]) }' "$TMP/out" >"$TMP/breplay.txt"
awk 'function f(x) { x += 0; return sprintf("%.6f", x == 0 ? 0 : x) }
    { split($1, kv, "."); v[kv[1], kv[2]] = $2 }
    END { n = split("nc,dr", s, ","); for (i = 1; i <= n; i++) print s[i], f(v[s[i], "inconsistency:"]),
          f(v[s[i], "pair_rate:"]), f(v[s[i], "spread:"]), f(v[s[i], "disadvantage_1:"]),
          f(v[s[i], "disadvantage_2:"]), f(v[s[i], "disadvantage_3:"]) }' "$TMP/b3.out" >"$TMP/blive.txt"
if [ "$(wc -l <"$TMP/breplay.txt")" -eq 2 ] && cmp -s "$TMP/blive.txt" "$TMP/breplay.txt"; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: a race with bots: live metrics differ from the replay"
    diff "$TMP/blive.txt" "$TMP/breplay.txt" | head -6; fi
