# netrace fairness / accuracy: exit codes and the one error line on bad input.
# Sourced by tests/test_cli.sh (uses its expect / stderr_has / stdout_has).

expect 0 "fairness short run" -- "$NR" fairness --runs 1 --seconds 2 --out "$TMP/fair.csv"
stdout_has "^budget-det " "fairness summary lists budget-det"
if head -1 "$TMP/fair.csv" | grep -q '^algorithm,seed,t_s,mean_error,sd_error,dr_sent,err_r1,err_r2,err_r3$'; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL: fairness CSV header"
fi
# 5 algorithms x 21 snapshots (0.0 .. 2.0 s) + header
if [ "$(wc -l <"$TMP/fair.csv")" -eq 106 ]; then pass=$((pass + 1)); else
    fail=$((fail + 1))
    echo "FAIL: fairness CSV rows: $(wc -l <"$TMP/fair.csv")"
fi
expect 0 "fairness one receiver, one algorithm" -- "$NR" fairness --receivers 300 --algorithms fair-schedule --runs 1 --seconds 1
stdout_has "^fair-schedule " "fairness one algorithm"

expect 2 "fairness bad receiver list" -- "$NR" fairness --receivers 800,abc,200
stderr_has "--receivers: item 2 'abc' is not a delay" "names the bad item"
expect 2 "fairness negative delay" -- "$NR" fairness --receivers 800,-5
expect 2 "fairness empty item" -- "$NR" fairness --receivers 800,,200
expect 2 "fairness 65 receivers" -- "$NR" fairness --receivers "$(printf '10,%.0s' $(seq 64))10"
stderr_has "more than 64" "names the receiver limit"
expect 2 "fairness bad link spec" -- "$NR" fairness --link "delay 80ms" --link "delay fast"
stderr_has "receiver 2 link 'delay fast'" "names the bad link"
expect 2 "fairness link and receivers" -- "$NR" fairness --link "delay 80ms" --receivers 100
expect 2 "fairness rlink count" -- "$NR" fairness --link "delay 80ms" --link "delay 90ms" --rlink "delay 5ms"
expect 2 "fairness zero snapshot period" -- "$NR" fairness --snapshot 0
stderr_has "--snapshot" "names the period flag"
expect 2 "fairness negative snapshot period" -- "$NR" fairness --snapshot -100
expect 2 "fairness zero seconds" -- "$NR" fairness --seconds 0
expect 2 "fairness zero runs" -- "$NR" fairness --runs 0
# every series is kept: 5 x 10000 x 36001 snapshots x 3 receivers is ~100 GB
expect 2 "fairness series too large" -- "$NR" fairness --runs 10000 --seconds 3600 --recording synthetic
stderr_has "would keep .* GB of series" "names the memory bound"
expect 2 "fairness unknown algorithm" -- "$NR" fairness --algorithms base,nope
stderr_has "unknown algorithm 'nope'" "names the algorithm"
expect 2 "fairness unknown flag" -- "$NR" fairness --frobnicate 1
expect 2 "fairness missing value" -- "$NR" fairness --runs
expect 1 "fairness unreadable recording" -- "$NR" fairness --recording "$TMP/none.csv" --seconds 1
echo "keep me" >"$TMP/keep.csv"
expect 1 "fairness failed run keeps an old --out" -- "$NR" fairness --recording "$TMP/none.csv" --out "$TMP/keep.csv"
if grep -q "keep me" "$TMP/keep.csv"; then pass=$((pass + 1)); else
    fail=$((fail + 1))
    echo "FAIL: an older --out file was overwritten by a failed run"
fi
expect 1 "fairness unwritable out" -- "$NR" fairness --runs 1 --seconds 1 --out "$TMP/no/such/dir/x.csv"

expect 0 "accuracy short run" -- "$NR" accuracy --seconds 2 --out "$TMP/acc.csv"
stdout_has "^ +800\.0 " "accuracy summary has the 800 ms row"
if head -1 "$TMP/acc.csv" | grep -q '^delay_ms,t_s,local_error,global_error$'; then pass=$((pass + 1)); else
    fail=$((fail + 1))
    echo "FAIL: accuracy CSV header"
fi
expect 2 "accuracy bad delays" -- "$NR" accuracy --delays 100,x
stderr_has "--delays: item 2 'x'" "names the bad delay"
expect 2 "accuracy bad offset" -- "$NR" accuracy --clock-offset abc
expect 2 "accuracy zero seconds" -- "$NR" accuracy --seconds 0
expect 0 "fairness synthetic path" -- "$NR" fairness --recording synthetic --runs 1 --seconds 1 --algorithms base
stdout_has "synthetic path" "fairness names the synthetic path"
expect 2 "fairness car beyond the recording" -- "$NR" fairness --recording synthetic --car 2 --seconds 1
stderr_has "--car 2" "names the car"
expect 2 "fairness too long" -- "$NR" fairness --seconds 100000
expect 2 "accuracy bad velocity" -- "$NR" accuracy --velocity sideways
expect 2 "fairness snapshot longer than the run" -- "$NR" fairness --recording synthetic --snapshot 5000 --seconds 1

# A recording file in the real format, from the autopilot (2 cars).
if "$NR" autopilot --seconds 3 --seed 5 --out "$TMP/race.csv" >/dev/null 2>&1; then
    expect 0 "fairness on a recording, car 2" -- "$NR" fairness --recording "$TMP/race.csv" --car 2 --runs 2 --out "$TMP/f2.csv"
    stdout_has "2\.900 s of .*race\.csv \(car 2\)" "fairness runs the whole recording (whole snapshots)"
    expect 0 "accuracy on a recording" -- "$NR" accuracy --recording "$TMP/race.csv" --delays 0,50
    stdout_has "^ +50\.0 " "accuracy has the 50 ms row"
    expect 2 "fairness car 3 of a 2-car recording" -- "$NR" fairness --recording "$TMP/race.csv" --car 3
    printf '# netrace-recording: 1\nbroken\n' >"$TMP/bad.csv"
    expect 1 "fairness malformed recording" -- "$NR" fairness --recording "$TMP/bad.csv"
    stderr_has "bad\.csv" "names the malformed file"
fi
expect 0 "fairness plot" -- "$NR" fairness --runs 1 --seconds 2 --plot "$TMP/fair.png"
is_png "$TMP/fair.png" "fairness --plot"

# --- a recording too short to be a path is the file's fault (exit 1), not --snapshot's
printf '# netrace-recording: 1\n# track: default.track\n# period_ms: 33\n# cars: 2\n# source: human\nt_ms,car,x,y,heading,speed\n0,1,0,2,0,0\n0,2,0,-2,0,0\n' >"$TMP/one_sample.csv"
expect 1 "fairness on a one-sample recording" -- "$NR" fairness --recording "$TMP/one_sample.csv" --seconds 1 --runs 1
stderr_has "one_sample.csv: 1 sample per car: the sender's path needs at least 2" "fairness one-sample: names the file"
rm -f "$TMP/one_sample.csv"

# --- an unknown last option is named as unknown, not as missing its value
expect 2 "fairness with an unknown last option" -- "$NR" fairness --seconds 1 --frob
stderr_has "unknown option '--frob'" "fairness unknown last option: named"
expect 2 "accuracy with an unknown last option" -- "$NR" accuracy --seconds 1 --frob
stderr_has "unknown option '--frob'" "accuracy unknown last option: named"
expect 2 "fairness: an unknown option does not swallow the next flag" -- "$NR" fairness --frob --seconds 1
stderr_has "unknown option '--frob'" "fairness unknown option first: named"

# accuracy names the recording whose path is too short, as fairness does;
# one receiver is "1 receiver".
(head -7 recordings/default.csv; echo "0,1,1,2,0,0"; echo "0,2,3,2,0,0") >"$TMP/one-sample.csv"
expect 1 "accuracy on a one-sample recording" -- "$NR" accuracy --recording "$TMP/one-sample.csv"
stderr_has "one-sample.csv: the sender's path needs at least 2 samples" "accuracy names the file"
expect 0 "fairness with one receiver" -- "$NR" fairness --receivers 200 --runs 1 --seconds 2
stdout_has "^fairness: 1 receiver, " "one receiver, singular"
# the readings of Sections 4.6 and 5 (docs/fairness.md): every value runs,
# a bad one is one line and exit 2
for r in "--accumulated relative" "--accumulated since-last" "--error-source feedback" "--third-first 1" \
    "--budget-threshold auto" "--heartbeat 1000" "--measure-from 1"; do
    # shellcheck disable=SC2086
    expect 0 "fairness reading $r" -- "$NR" fairness --runs 1 --seconds 2 $r
done
stdout_has "^readings: accumulated game, error source estimate, base-third from trigger 3, heartbeat 0 ms, measured from 1 s" "fairness names the readings"
expect 0 "fairness tank-arcs" -- "$NR" fairness --runs 1 --seconds 2 --recording tank-arcs
expect 2 "fairness bad accumulated" -- "$NR" fairness --accumulated total
stderr_has "--accumulated: expected game, relative or since-last, got 'total'" "names the accumulated readings"
expect 2 "fairness bad error source" -- "$NR" fairness --error-source truth
stderr_has "--error-source: expected estimate or feedback, got 'truth'" "names the error sources"
expect 2 "fairness third-first 0" -- "$NR" fairness --third-first 0
expect 2 "fairness third-first 4" -- "$NR" fairness --third-first 4
expect 2 "fairness negative heartbeat" -- "$NR" fairness --heartbeat -5
expect 2 "fairness measure-from past the run" -- "$NR" fairness --seconds 2 --measure-from 2
stderr_has "--measure-from 2 s leaves less than one snapshot" "names the measure start"
expect 2 "fairness bad budget threshold" -- "$NR" fairness --budget-threshold automatic
stderr_has "--budget-threshold: expected auto or a number" "names auto"
expect 0 "fairness budget threshold auto" -- "$NR" fairness --runs 1 --seconds 5 --recording synthetic --budget-threshold auto
stdout_has "^budget threshold auto: [0-9.e-]+ cw, [0-9]+ triggers for the [0-9]+ wanted" "fairness names the threshold found"
