# netrace merge: two hand-made terminal logs (tests/data/net-*.log) joined
# into a race recording and the measured delays; bad logs refused.
# Sourced by tests/test_cli.sh (uses expect, stderr_has, stdout_has, $NR, $TMP).

H=tests/data/net-host.log
J=tests/data/net-join.log
expect 0 "merge two logs" -- "$NR" merge "$H" "$J" --out "$TMP/net.csv" --delays "$TMP/net-delays.csv"
stdout_has "^samples: 3$" "merge: the samples both logs have"
stdout_has "^car1: $H \(host, 4 samples\)$" "merge names car 1's log"
stdout_has "^lost12: 1$" "merge: the update of seq 2 never reached car 2"
stdout_has "^received21: 2$" "merge: car 1 received two MUs of seqs 0..2"
stderr_has "merged the 3 samples both logs have \($H has 4, $J has 3\)" "merge says where the race was cut"
cat >"$TMP/net.want" <<'EOF'
# netrace-recording: 1
# track: default.track
# period_ms: 33
# cars: 2
# source: network
# created: 2026-11-23T15:00:00Z
t_ms,car,x,y,heading,speed
0,1,-3,2,0,0
0,2,-6,-2,0,0
33,1,-2.9963,2,-0.0011,0.17
33,2,-5.9963,-2,0.0011,0.167
66,1,-2.9866,2,-0.004,0.356
66,2,-5.9866,-2,0.004,0.35
EOF
if cmp -s "$TMP/net.csv" "$TMP/net.want"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: merged recording differs from the hand-made one"; diff "$TMP/net.want" "$TMP/net.csv" | head -5; fi
# The delays by hand: 12 = what the joiner received (0 at 25 ms, 1 at 73 -
# 33 ms, the parity of 2 at 67 - 66 ms); 21 = what the host received.
cat >"$TMP/net-delays.want" <<'EOF'
# netrace delays 1: measured one-way delays (docs/link.md "Trace")
# schemes: nc,epp-xd
direction,seq,kind,pkt_seq,schemes,sent_us,arrival_us,delay_us
12,0,update,1,3,0,25000,25000
12,1,update,2,3,33000,73000,40000
12,2,parity,4,2,66000,67000,1000
21,0,update,1,3,0,41000,41000
21,1,update,2,3,33000,68000,35000
EOF
if cmp -s "$TMP/net-delays.csv" "$TMP/net-delays.want"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: merged delays differ from the hand-made ones"; diff "$TMP/net-delays.want" "$TMP/net-delays.csv" | head -5; fi
# The merged race replays over its own delays (the track found beside it).
cp tracks/default.track "$TMP/default.track"
expect 0 "replay the merged race over its trace" -- "$NR" replay "$TMP/net.csv" --headless --schemes nc \
    --link12 "trace $TMP/net-delays.csv" --link21 "trace $TMP/net-delays.csv"
stdout_has "^nc +[0-9.]+ +[-0-9.]+ +[0-9.]+ +[0-9.]+ +3 +3 +1 +1 " "replay: 3 sent each way, one lost each way"

# Either order, the same files; a killed joiner's .part merges to its end.
expect 0 "merge in the other order" -- "$NR" merge "$J" "$H" --out "$TMP/net2.csv"
if cmp -s "$TMP/net2.csv" "$TMP/net.want"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: merge depends on the order of the logs"; fi
# The host killed while writing its sample 3 (the .part ends mid-row).
{ sed '/^own,3,/,$d' "$H"; printf 'own,3,99000,99'; } >"$TMP/host.log.part"
expect 0 "merge a cut log" -- "$NR" merge "$TMP/host.log.part" "$J" --out "$TMP/net3.csv"
stderr_has "merged the 3 samples both logs have .*: the shorter log was cut short" "merge says the log was cut"
stdout_has "\(host, 3 samples, cut short\)" "merge marks the cut log"
if cmp -s "$TMP/net3.csv" "$TMP/net.want"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: the cut log merges the same 3 samples"; fi

# Bad use and bad logs: one line each.
expect 2 "merge without --out" -- "$NR" merge "$H" "$J"
stderr_has "--out RACE.csv is required" "merge wants --out"
expect 2 "merge of one log" -- "$NR" merge "$H" --out "$TMP/x.csv"
expect 2 "merge of a log with itself" -- "$NR" merge "$H" "$H" --out "$TMP/x.csv"
stderr_has "given twice" "merge refuses one log twice"
expect 2 "merge onto its input" -- "$NR" merge "$H" "$J" --out "$H"
expect 2 "merge --out = --delays" -- "$NR" merge "$H" "$J" --out "$TMP/y.csv" --delays "$TMP/y.csv"
sed 's/^# token: .*/# token: 1234/' "$J" >"$TMP/other.log"
expect 1 "merge of two sessions" -- "$NR" merge "$H" "$TMP/other.log" --out "$TMP/x.csv"
stderr_has "session tokens 00c0ffee12345678 and 1234 differ: the logs are of two sessions" "merge names the tokens"
if [ ! -e "$TMP/x.csv" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: a refused merge wrote its output"; fi
sed 's/^own,1,33000,/own,2,33000,/' "$H" >"$TMP/gap.log"
expect 1 "merge of a log with a gap" -- "$NR" merge "$TMP/gap.log" "$J" --out "$TMP/x.csv"
stderr_has "gap.log:20: own seq 2: expected 1 \(own samples in order from 0\)" "merge names file, line and gap"
expect 1 "merge of a recording" -- "$NR" merge recordings/default.csv "$J" --out "$TMP/x.csv"
stderr_has "default.csv:1: expected '# netlog: 1' first: not a terminal log" "merge refuses a non-log"
expect 1 "merge of a missing log" -- "$NR" merge "$TMP/none.log" "$J" --out "$TMP/x.csv"
stderr_has "none.log: cannot open a terminal log" "merge names the missing log"
: >"$TMP/x.csv.part"
expect 1 "merge keeps a crashed run's .part" -- "$NR" merge "$H" "$J" --out "$TMP/x.csv"

# merge writes only what replay and info accept, and never over a recording.
sed 's/^own,1,33000,33010,5033010,-2.9963,/own,1,33000,33010,5033010,1e308,/' "$H" >"$TMP/huge-host.log"
expect 1 "merge a log with a position of 1e308" -- "$NR" merge "$TMP/huge-host.log" "$J" --out "$TMP/huge-merged.csv"
stderr_has "x = 1e\+308 is out of range" "the sample out of range is named"
if [ ! -e "$TMP/huge-merged.csv" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: merge wrote a refused race"; fi
expect 2 "merge over an existing recording" -- "$NR" merge "$H" "$J" --out "$TMP/net.csv"
stderr_has "exists \(not overwritten" "merge keeps what is recorded"
