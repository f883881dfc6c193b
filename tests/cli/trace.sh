# The `trace FILE` link form: measured delays replayed per (direction, seq).
# Sourced by tests/test_cli.sh (uses expect, stderr_has, stdout_has, $NR, $TMP).

# A hand-written trace: 12 seq 0 at 40 ms, seq 1 at 50 ms, seq 2 missing,
# seq 3 at 30 ms plus a copy at 61 ms; 21 seq 0 at 70 ms.
cat >"$TMP/hand.csv" <<'EOF'
# netrace delays 1
direction,seq,kind,sent_us,arrival_us,delay_us
12,0,update,0,40000,40000
12,1,update,33000,83000,50000
12,3,update,99000,160000,61000
12,3,update,99000,129000,30000
21,0,update,0,70000,70000
EOF
expect 0 "delays over a trace" -- "$NR" delays --link "trace $TMP/hand.csv" -n 5
# seq 4 is after the last seq (3): past the end, not lost
printf '40.000\n50.000\nlost\n30.000\ndup 61.000\npast end\n' >"$TMP/hand.want"
if cmp -s "$TMP/out" "$TMP/hand.want"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: delays prints the trace's fates of direction 12"; sed 's/^/  got: /' "$TMP/out"; fi
expect 0 "delays over a trace, direction 21" -- "$NR" delays --link "trace $TMP/hand.csv direction 21" -n 2
printf '70.000\npast end\n' >"$TMP/hand21.want"
if cmp -s "$TMP/out" "$TMP/hand21.want"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: direction 21 takes the 21 rows"; fi
expect 0 "delays --stats over a trace" -- "$NR" delays --link "trace $TMP/hand.csv" -n 4 --stats
stdout_has "^expected_mean: 40\.000$" "trace expected mean: (40 + 50 + 30) / 3 ms"
stdout_has "^expected_loss_rate: 0\.250000$" "trace expected loss: seq 2 of 0..3"
# Issue 22: a trace of 1,225 slots drawn -n 2000 said loss_rate 0.389 (the
# 775 slots past its end counted as lost) against expected 0.
awk 'BEGIN { print "direction,seq,delay_us"; for (i = 0; i < 1225; i++) print "12," i ",40000" }' >"$TMP/short.csv"
expect 0 "delays --stats past a trace's end" -- "$NR" delays --link "trace $TMP/short.csv" -n 2000 --stats
stdout_has "^loss_rate: 0\.000000$" "past the end: not lost"
stdout_has "^past_end: 775$" "past the end: 2000 - 1225 slots counted apart"
stdout_has "^delivered: 1225$" "past the end: every slot of the trace delivered"
stderr_has "last seq is 1224: 775 of the 2000 slots are past its end" "past the end: said on stderr"
expect 0 "delays --stats with loss inside the trace, past the end" -- "$NR" delays --link "trace $TMP/hand.csv" -n 8 --stats
stdout_has "^loss_rate: 0\.250000$" "the rate over the trace's 4 slots: seq 2 lost"
stdout_has "^dup_rate: 0\.250000$" "the dup rate over the trace's 4 slots: seq 3"
stdout_has "^past_end: 4$" "slots 4..7 past the end"

# A trace of constant 75 ms both ways is the link `delay 75ms`: every
# scheme's metrics equal, EPP's parity packets included.
awk 'BEGIN { print "direction,seq,delay_us"; for (i = 0; i < 910; i++) { print "12," i ",75000"; print "21," i ",75000" } }' \
    >"$TMP/const.csv"
"$NR" replay --headless --csv --schemes all --link12 "trace $TMP/const.csv" --link21 "trace $TMP/const.csv" \
    2>/dev/null | cut -d, -f1,9- >"$TMP/tr.csv"
"$NR" replay --headless --csv --schemes all --link12 "delay 75ms" --link21 "delay 75ms" \
    2>/dev/null | cut -d, -f1,9- >"$TMP/dl.csv"
if [ -s "$TMP/tr.csv" ] && cmp -s "$TMP/tr.csv" "$TMP/dl.csv"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: a constant trace replays like the constant delay"; fi

# The draws of a random link written out as a trace replay the same race:
# `delays --seed S` gives direction 12's fates of `replay --seed S`
# (stream 0), one row per delivered copy.
L="delay 75ms 30ms distribution paretonormal loss 5% duplicate 3%"
"$NR" delays --link "$L" --seed 11 -n 910 2>/dev/null | awk '
    BEGIN { print "direction,seq,delay_us"; s = -1 }
    $1 == "dup" { split($2, a, "."); print "12," s "," a[1] * 1000 + a[2]; next }
    { s++ }
    $1 == "lost" { next }
    { split($1, a, "."); print "12," s "," a[1] * 1000 + a[2] }' >"$TMP/drawn.csv"
S=nc,causality,dr,dr-causality,dr-local
"$NR" replay --headless --csv --schemes $S --seed 11 --link12 "$L" --link21 "delay 40ms" \
    2>/dev/null | cut -d, -f1,9- >"$TMP/rnd.csv"
"$NR" replay --headless --csv --schemes $S --seed 11 --link12 "trace $TMP/drawn.csv" --link21 "delay 40ms" \
    2>/dev/null | cut -d, -f1,9- >"$TMP/trc.csv"
if grep -q '^nc,.*,910$' "$TMP/rnd.csv" && cmp -s "$TMP/rnd.csv" "$TMP/trc.csv"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: a random link's draws as a trace replay the same metrics"; fi

# Missing seqs are lost: 12 has every seq but those ending in 3 (91 of 910),
# 50 ms; 21 every seq at 10 ms. The last two 12 packets (seq 908, 909) and
# the last 21 one are due after the race's last sample.
awk 'BEGIN { print "seq,direction,delay_us"; for (i = 0; i < 910; i++) { if (i % 10 != 3) print i ",12,50000"; print i ",21,10000" } }' \
    >"$TMP/holes.csv"
expect 0 "replay over a trace with holes" -- "$NR" replay --headless --csv --schemes nc \
    --link12 "trace $TMP/holes.csv" --link21 "trace $TMP/holes.csv"
# sent12,sent21,delivered12,delivered21,lost12,lost21
stdout_has "^nc,.*,910,910,817,909,91,0,0,0," "trace holes are lost, the rest delivered"

# A link script line and sweep's --link21 take the form too.
printf '0 both trace %s\n5 12 delay 10ms\n' "$TMP/holes.csv" >"$TMP/trace.script"
expect 0 "link script with a trace" -- "$NR" replay --headless --schemes nc --link-script "$TMP/trace.script"
stdout_has "^script: at 0 s link 12\+21: trace $TMP/holes.csv" "the script line shows the trace"
expect 0 "sweep with a trace on link21" -- "$NR" sweep --delays 50 --jitters 10 --runs 1 --schemes nc \
    --link21 "trace $TMP/holes.csv"
stdout_has "link21: trace $TMP/holes.csv" "sweep names the trace"

# Bad traces: exit 2 (a flag) or 1 (a script line), one line FILE:LINE: what.
printf 'direction,seq,delay_us\n12,0,40000\n19,1,5\n' >"$TMP/baddir.csv"
expect 2 "replay bad trace direction" -- "$NR" replay --headless --link12 "trace $TMP/baddir.csv"
stderr_has "^netrace replay: --link12: $TMP/baddir.csv:3: direction '19': expected two terminals IJ of 1 to 8 such as 12 \(terminal 1 to 2\) or 21, or a served race's hop Is or IsJ$" \
    "bad direction named with file and line"
printf 'direction,seq\n12,0\n' >"$TMP/nocol.csv"
expect 2 "delays trace without delay_us" -- "$NR" delays --link "trace $TMP/nocol.csv"
stderr_has "nocol.csv:1: no column 'delay_us'" "missing column named"
expect 2 "trace of a missing file" -- "$NR" replay --headless --link21 "trace $TMP/none.csv"
stderr_has "--link21: $TMP/none.csv: cannot open a delays file" "missing trace file named"
expect 2 "trace of a directory" -- "$NR" delays --link "trace $TMP"
stderr_has "is a directory, expected a delays file" "directory refused"
expect 2 "trace with loss" -- "$NR" delays --link "trace $TMP/hand.csv loss 2%"
stderr_has "trace with loss: a trace gives every delay and loss" "trace combined with netem options refused"
printf '0 12 trace %s\n' "$TMP/baddir.csv" >"$TMP/bad.script"
expect 1 "link script with a bad trace" -- "$NR" replay --headless --link-script "$TMP/bad.script"
stderr_has "bad.script:1: link spec: $TMP/baddir.csv:3: direction '19'" "script line and trace line named"
