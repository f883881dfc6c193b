# netrace replay / sweep: headless table, CSV shape, plots, and bad input.
# Sourced by tests/test_cli.sh (uses its expect / stderr_has / stdout_has).

lines_are() { # FILE N DESCRIPTION
    if [ "$(wc -l <"$1")" -eq "$2" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1))
        echo "FAIL: $3: $(wc -l <"$1") lines, expected $2"
    fi
}

expect 0 "replay headless" -- "$NR" replay --headless
stdout_has "^link12: delay 75ms 10ms distribution paretonormal$" "replay prints the paper's default link"
for s in nc causality dr dr-causality; do stdout_has "^$s " "replay lists $s"; done
expect 0 "replay csv, all schemes" -- "$NR" replay --headless --csv --schemes all --seed 3
stdout_has "^scheme,delay12_ms,jitter12_ms,delay21_ms,jitter21_ms,delta_ms,tdr,seed,inconsistency_rate," "replay csv header"
stdout_has "^dr-local,75,10,75,10,100,0.25,3," "replay csv row of dr-local"
"$NR" replay --headless --csv --seed 3 >"$TMP/a.csv" 2>/dev/null
"$NR" replay --headless --csv --seed 3 >"$TMP/b.csv" 2>/dev/null
if cmp -s "$TMP/a.csv" "$TMP/b.csv"; then pass=$((pass + 1)); else
    fail=$((fail + 1))
    echo "FAIL: replay is not deterministic for one seed"
fi
# A mean that rounds to zero prints unsigned: "-0.0000" reads as a bias the
# table cannot show (the EPP schemes' means are that small on some seeds).
for s in 4 7 10 12; do "$NR" replay --headless --schemes all --seed "$s" 2>/dev/null; done >"$TMP/tables"
if grep -q '^epp-' "$TMP/tables" && ! grep -qE ' -0\.0+ ' "$TMP/tables"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: a replay table prints -0.0000"; fi
expect 0 "replay series" -- "$NR" replay --headless --schemes nc,dr --series "$TMP/series.csv"
lines_are "$TMP/series.csv" $((2 * 910 + 1)) "series: one row per scheme and sample"
expect 0 "replay snapshot" -- "$NR" replay --headless --snapshot 10 "$TMP/snap.png"
is_png "$TMP/snap.png" "replay --snapshot"

expect 2 "replay bad link" -- "$NR" replay --headless --link12 "delay 75 10ms"
stderr_has "--link12: .*missing unit" "replay names the bad link token"
expect 2 "replay loss over 100%" -- "$NR" replay --headless --link21 "delay 10ms loss 120%"
expect 2 "replay unknown scheme" -- "$NR" replay --headless --schemes nc,warp
stderr_has "unknown scheme 'warp'" "replay names the unknown scheme"
expect 2 "replay bad delta" -- "$NR" replay --headless --delta -5
expect 2 "replay delta above what the buffers hold" -- "$NR" replay --headless --delta 4001
expect 0 "replay largest delta" -- "$NR" replay --headless --delta 4000 --schemes causality
expect 2 "replay delta beyond the buffers with a slow clock" -- "$NR" replay --headless --delta 4000 --clock2 0,-100000
stderr_has "^netrace replay: --delta: 4000 ms is more than the schemes' buffers hold" "delta bound with a slow clock named"
expect 2 "replay bad tdr" -- "$NR" replay --headless --tdr abc
expect 2 "replay bad clock" -- "$NR" replay --headless --clock2 5,x
expect 2 "replay unknown flag" -- "$NR" replay --headless --warp
expect 2 "replay two files" -- "$NR" replay --headless a.csv b.csv
expect 1 "replay missing recording" -- "$NR" replay --headless "$TMP/none.csv"
stderr_has "none.csv" "replay names the missing file"
printf '# netrace-recording: 1\n# track: default.track\n# period_ms: 33\n# cars: 1\n# source: autopilot\n# created: x\nt_ms,car,x,y,heading,speed\n0,1,0,0,0,0\n' >"$TMP/one.csv"
cp tracks/default.track "$TMP/default.track"
expect 1 "replay one-car recording" -- "$NR" replay --headless "$TMP/one.csv"
stderr_has "two cars" "replay says a race needs two cars"

expect 0 "sweep small" -- "$NR" sweep --runs 2 --delays 50:100:25 --jitters 10,30 --out "$TMP/sweep.csv" --plot "$TMP/sweep.png"
# points: jitter 10 at 50, 75, 100; jitter 30 at 50, 75, 100 -> 6 x 2 seeds x 4 schemes + header
lines_are "$TMP/sweep.csv" $((6 * 2 * 4 + 1)) "sweep CSV rows"
is_png "$TMP/sweep.png" "sweep --plot"
expect 0 "sweep skips jitter above mean" -- "$NR" sweep --runs 1 --delays 0,25 --jitters 30,10 --schemes nc --out "$TMP/skip.csv"
lines_are "$TMP/skip.csv" 2 "sweep keeps only 25ms/10ms"
expect 2 "sweep no point left" -- "$NR" sweep --delays 0,10 --jitters 30
expect 2 "sweep runs 0" -- "$NR" sweep --runs 0
expect 2 "sweep bad range" -- "$NR" sweep --delays 200:0:25
expect 2 "sweep link12 not allowed" -- "$NR" sweep --link12 "delay 5ms"
expect 2 "sweep bad distribution" -- "$NR" sweep --runs 1 --distribution nosuchtable
echo old >"$TMP/keep.csv"
expect 2 "sweep bad flag keeps old output" -- "$NR" sweep --out "$TMP/keep.csv" --runs x
if [ "$(cat "$TMP/keep.csv")" = "old" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1))
    echo "FAIL: a failed sweep overwrote its --out file"
fi

# Without any display the main job prints the table instead of running a
# window nobody sees (SDL would pick its offscreen driver by itself).
expect 0 "no display: headless fallback" -- env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER timeout 60 "$NR"
stdout_has "^dr-causality " "no display: the gauge table"
stderr_has "no display" "no display: says why"

# Issue 13 item 6: --link-script in replay and sweep; bad lines named with their number.
printf '# an outage of a second\n1 both loss 100%%\n2 both delay 50ms\n' >"$TMP/outage.script"
expect 0 "replay --link-script" -- "$NR" replay --headless --schemes nc --link-script "$TMP/outage.script"
stdout_has "^script: at 1 s link 12\+21: loss 100% \(.*outage.script:2\)" "replay lists the script"
stdout_has "^nc +[0-9.]+ +[-0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9]+ +[0-9]+ +30 +30 " "the outage loses one second of MUs each way"
expect 0 "sweep --link-script" -- "$NR" sweep --delays 50 --jitters 0 --runs 1 --schemes nc --link-script "$TMP/outage.script"
printf '1 12 delay 1ms\nfoo 21 delay 2ms\n' >"$TMP/bad.script"
expect 1 "bad link script" -- "$NR" replay --headless --link-script "$TMP/bad.script"
stderr_has "bad.script:2: time 'foo'" "bad script line named"
expect 1 "missing link script" -- "$NR" sweep --link-script "$TMP/none.script"
stderr_has "none.script: cannot open" "missing script named"
expect 0 "snapshot with a link script" -- env -u DISPLAY "$NR" replay --schemes nc --link-script "$TMP/outage.script" \
    --snapshot 1.5 "$TMP/ls1.png" --snapshot 0.5 "$TMP/ls0.png" --size 320x200
is_png "$TMP/ls1.png" "snapshot with a script"

# Issue 22: causality with Delta below the emulated delay ran silently (the
# other car never left the grid): one line per slow link naming the schemes,
# Delta and the link's mean delay (75 ms paretonormal: 74.7 ms by its table).
expect 0 "replay causality, Delta below the delay" -- "$NR" replay --headless --schemes nc,causality,dr-causality --delta 50
stderr_has "^netrace replay: warning: causality, dr-causality: Delta 50 ms is below the mean delay 74\.7 ms of link 1->2" "Delta warning: replay 1->2"
stderr_has "Delta 50 ms is below the mean delay 74\.7 ms of link 2->1" "Delta warning: replay 2->1"
expect 0 "replay causality, Delta above the delay" -- "$NR" replay --headless --schemes causality --delta 100
if grep -q warning "$TMP/err"; then fail=$((fail + 1)); echo "FAIL: Delta 100 ms over 75 ms warned"; else pass=$((pass + 1)); fi
expect 0 "replay nc, Delta below the delay" -- "$NR" replay --headless --schemes nc,dr --delta 50
if grep -q warning "$TMP/err"; then fail=$((fail + 1)); echo "FAIL: no Delta scheme, yet a warning"; else pass=$((pass + 1)); fi
expect 0 "play causality, Delta below the delay" -- "$NR" play --headless --p1 bot --p2 bot --seconds 1 --scheme causality \
    --delta 40 --link21 "delay 20ms" --out none
stderr_has "^netrace play: warning: causality(, dr-causality)?: Delta 40 ms is below the mean delay 74\.7 ms of link 1->2" "Delta warning: play"
if grep -q "link 2->1" "$TMP/err"; then fail=$((fail + 1)); echo "FAIL: play warned for 2->1 at 20 ms"; else pass=$((pass + 1)); fi
expect 0 "sweep causality past Delta" -- "$NR" sweep --runs 1 --delays 50,150 --jitters 0 --schemes causality
stderr_has "^netrace sweep: warning: causality: Delta 100 ms is below the mean delay 150\.0 ms of link 1->2 at the sweep's largest delay" "Delta warning: sweep"
