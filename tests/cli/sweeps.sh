# sweep --vary, --shard and join-shards (docs/sweeps.md); sourced by test_cli.sh.

# --vary: the issue's example runs, one CSV column per varied parameter, a plot.
expect 0 "sweep --vary loss12 x delta" -- "$NR" sweep --vary loss12=0:20:5 --vary delta=50,100,150 --runs 1 \
    --threads 1 --out "$TMP/vary.csv" --plot "$TMP/vary.png"
is_png "$TMP/vary.png" "sweep --vary plot"
if [ "$(head -1 "$TMP/vary.csv" | cut -d, -f1-3)" = "loss12,delta,scheme" ] &&
   [ "$(($(wc -l < "$TMP/vary.csv") - 1))" -eq $((5 * 3 * 1 * 4)) ]; then
    pass=$((pass + 1))
else
    fail=$((fail + 1)); echo "FAIL: sweep --vary CSV: expected columns loss12,delta,scheme and 5 x 3 x 1 seed x 4 schemes rows"
fi
# the loss column sets the link: at loss12 0 nothing is lost on 1->2 (lost12 is column 21)
if awk -F, 'NR > 1 && $1 == 0 && $21 != 0 { bad = 1 } END { exit bad }' "$TMP/vary.csv"; then
    pass=$((pass + 1))
else
    fail=$((fail + 1)); echo "FAIL: sweep --vary loss12=0 lost packets"
fi

# Issue 22 trial D8: --vary delta, delay12 and delay21 warned nothing where
# the plain --delta did: one line per point whose Delta is below a link's
# mean delay (the base links 75 ms paretonormal: 74.7 ms by its table)
expect 0 "sweep --vary delta below the delay" -- "$NR" sweep --vary delta=50,100 --runs 1 --threads 1 \
    --schemes nc,causality
stderr_has "^netrace sweep: warning: at delta=50 ms: causality: Delta 50 ms is below the mean delay 74\.7 ms of link 1->2" "--vary delta: the point warned"
if [ "$(grep -c warning "$TMP/err")" -eq 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: --vary delta: one warning expected (delta 100 is over the links)"; fi
expect 0 "sweep --vary delay12 past Delta" -- "$NR" sweep --vary delay12=50,300 --runs 1 --threads 1 \
    --schemes causality,nc
stderr_has "^netrace sweep: warning: at delay12=300 ms: causality: Delta 100 ms is below the mean delay [0-9.]+ ms of link 1->2" "--vary delay12: the point warned"
if [ "$(grep -c warning "$TMP/err")" -eq 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: --vary delay12: one warning expected"; fi
expect 0 "sweep --vary delay21 x delta" -- "$NR" sweep --vary delay21=300 --vary delta=100,400 --runs 1 --threads 1 \
    --schemes dr-causality
stderr_has "^netrace sweep: warning: at delay21=300 ms, delta=100 ms: dr-causality: Delta 100 ms is below the mean delay [0-9.]+ ms of link 2->1" "--vary delay21: the point warned"
if [ "$(grep -c warning "$TMP/err")" -eq 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: --vary delay21: one warning expected (delta 400 is over 300 ms)"; fi

# Three shards joined (given out of order) are the unsharded run, byte for byte.
for i in 1 2 3; do
    expect 0 "sweep --vary shard $i/3" -- "$NR" sweep --vary loss12=0:20:5 --vary delta=50,100,150 --runs 1 \
        --threads 1 --shard "$i/3" --out "$TMP/vary$i.csv"
done
expect 0 "join-shards" -- "$NR" join-shards --out "$TMP/joined.csv" "$TMP/vary3.csv" "$TMP/vary1.csv" "$TMP/vary2.csv"
if cmp -s "$TMP/joined.csv" "$TMP/vary.csv"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: joined shards differ from the full --vary run"; fi
# the same for the paper's delay sweep
expect 0 "sweep full" -- "$NR" sweep --delays 0,50,100 --jitters 10 --runs 2 --threads 1 --out "$TMP/d.csv"
for i in 1 2 3; do
    expect 0 "sweep shard $i/3" -- "$NR" sweep --delays 0,50,100 --jitters 10 --runs 2 --threads 1 --shard "$i/3" --out "$TMP/d$i.csv"
done
expect 0 "join-shards delay sweep" -- "$NR" join-shards --out "$TMP/dj.csv" "$TMP/d1.csv" "$TMP/d2.csv" "$TMP/d3.csv"
if cmp -s "$TMP/dj.csv" "$TMP/d.csv"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: joined delay-sweep shards differ"; fi

# Bad input: one line, exit 2 (usage) or 1 (files).
expect 2 "vary unknown parameter" -- "$NR" sweep --vary los12=0:5:1
stderr_has "unknown parameter 'los12' \(did you mean loss12\?\)" "vary suggestion"
expect 2 "vary empty list" -- "$NR" sweep --vary loss12=
stderr_has "empty list" "vary empty list named"
expect 2 "vary bad range" -- "$NR" sweep --vary delta=100:50:10
expect 2 "vary zero step" -- "$NR" sweep --vary delta=0:100:0
expect 2 "vary out of range" -- "$NR" sweep --vary loss=0:200:50
expect 2 "vary not a number" -- "$NR" sweep --vary tdr=0.1,x
expect 2 "vary twice" -- "$NR" sweep --vary tdr=0.1 --vary tdr=0.2
expect 2 "vary with --delays" -- "$NR" sweep --vary tdr=0.1 --delays 10
expect 2 "shard 4/3" -- "$NR" sweep --shard 4/3 --out "$TMP/x.csv"
stderr_has "--shard: expected I/N" "shard 4/3 named"
expect 2 "shard 0/3" -- "$NR" sweep --shard 0/3 --out "$TMP/x.csv"
expect 2 "shard text" -- "$NR" sweep --shard one/3 --out "$TMP/x.csv"
expect 2 "shard without --out" -- "$NR" sweep --shard 1/3
expect 1 "join a missing part" -- "$NR" join-shards --out "$TMP/j2.csv" "$TMP/d1.csv" "$TMP/d3.csv"
expect 1 "join a part twice" -- "$NR" join-shards --out "$TMP/j2.csv" "$TMP/d1.csv" "$TMP/d1.csv" "$TMP/d3.csv"
expect 1 "join an unsharded CSV" -- "$NR" join-shards --out "$TMP/j2.csv" "$TMP/d.csv"
expect 1 "join different headers" -- "$NR" join-shards --out "$TMP/j2.csv" "$TMP/d1.csv" "$TMP/vary2.csv" "$TMP/d3.csv"
expect 2 "join without --out" -- "$NR" join-shards "$TMP/d1.csv"

# fairness --shard: three parts joined are the unsharded CSV.
expect 0 "fairness full" -- "$NR" fairness --runs 2 --seconds 10 --out "$TMP/f.csv"
for i in 1 2 3; do
    expect 0 "fairness shard $i/3" -- "$NR" fairness --runs 2 --seconds 10 --shard "$i/3" --out "$TMP/f$i.csv"
done
expect 0 "join-shards fairness" -- "$NR" join-shards --out "$TMP/fj.csv" "$TMP/f2.csv" "$TMP/f3.csv" "$TMP/f1.csv"
if cmp -s "$TMP/fj.csv" "$TMP/f.csv"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: joined fairness shards differ"; fi
expect 2 "fairness shard 4/3" -- "$NR" fairness --shard 4/3 --out "$TMP/x.csv"
expect 2 "fairness shard with --plot" -- "$NR" fairness --shard 1/3 --out "$TMP/x.csv" --plot "$TMP/x.png"

# epp --shard: parts of the (source, rate) items, joined == the whole CSV.
expect 0 "epp full" -- "$NR" epp --runs 2 --samples 150 --sweep none --out "$TMP/e.csv"
for i in 1 2 3; do
    expect 0 "epp shard $i/3" -- "$NR" epp --runs 2 --samples 150 --sweep none --shard "$i/3" --out "$TMP/e$i.csv"
done
expect 0 "join-shards epp" -- "$NR" join-shards --out "$TMP/ej.csv" "$TMP/e1.csv" "$TMP/e2.csv" "$TMP/e3.csv"
if cmp -s "$TMP/ej.csv" "$TMP/e.csv"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: joined epp shards differ"; fi
expect 2 "epp shard 0/3" -- "$NR" epp --shard 0/3 --out "$TMP/x.csv"
expect 2 "epp shard without --out" -- "$NR" epp --shard 1/3

# fairness --vary: the receivers' delays; one column per varied parameter.
expect 0 "fairness --vary" -- "$NR" fairness --vary r3=100:300:100 --vary jitter=50,100 --runs 2 --seconds 10 \
    --out "$TMP/fv.csv"
if [ "$(head -1 "$TMP/fv.csv" | cut -d, -f1-3)" = "r3,jitter,algorithm" ] &&
   [ "$(($(wc -l < "$TMP/fv.csv") - 1))" -eq $((3 * 2 * 5 * 2 * 101)) ]; then
    pass=$((pass + 1))
else
    fail=$((fail + 1)); echo "FAIL: fairness --vary CSV: expected r3,jitter,algorithm and 3 x 2 points x 5 algorithms x 2 runs x 101 snapshots"
fi
# a point of the grid is the plain run with those receivers
expect 0 "fairness one point" -- "$NR" fairness --receivers 800,500,200 --jitter 100 --runs 2 --seconds 10 --out "$TMP/fp.csv"
if [ "$(grep '^200,100,' "$TMP/fv.csv" | cut -d, -f3- | md5sum)" = "$(tail -n +2 "$TMP/fp.csv" | md5sum)" ]; then
    pass=$((pass + 1))
else
    fail=$((fail + 1)); echo "FAIL: fairness --vary point r3=200 jitter=100 differs from the plain run"
fi
expect 2 "fairness vary unknown" -- "$NR" fairness --vary r9=100
stderr_has "unknown parameter 'r9'" "fairness vary unknown named"
expect 2 "fairness vary empty" -- "$NR" fairness --vary jitter=
expect 2 "fairness vary with --link" -- "$NR" fairness --vary jitter=10 --link "delay 10ms"
# a part claiming more shards than are given is refused before it is placed
printf '# netrace-shard: 50/100\nscheme\n' >"$TMP/big.csv"
expect 1 "join a part of 100 shards alone" -- "$NR" join-shards --out "$TMP/j3.csv" "$TMP/big.csv"
stderr_has "1 parts given, the shards are 100" "join names the missing parts"

# With the N-player sweep (docs/nplayers.md): an N-car sweep's shards join
# to its whole run; --vary of an N-car or cs race and --shard of a topology
# comparison are refused in one line.
expect 0 "sweep 4 cars full" -- "$NR" sweep --recording recordings/four.csv --delays 50,100 --jitters 10 --runs 2 \
    --threads 1 --out "$TMP/n4.csv"
for i in 1 2; do
    expect 0 "sweep 4 cars shard $i/2" -- "$NR" sweep --recording recordings/four.csv --delays 50,100 --jitters 10 \
        --runs 2 --threads 1 --shard "$i/2" --out "$TMP/n4_$i.csv"
done
expect 0 "join-shards 4 cars" -- "$NR" join-shards --out "$TMP/n4j.csv" "$TMP/n4_1.csv" "$TMP/n4_2.csv"
if cmp -s "$TMP/n4j.csv" "$TMP/n4.csv"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: joined 4-car shards differ"; fi
expect 2 "vary 4 cars" -- "$NR" sweep --recording recordings/four.csv --vary delta=50,100
stderr_has "--vary sweeps one two-car p2p race \(here 4 cars\)" "vary 4 cars named"
expect 2 "vary cs" -- "$NR" sweep --topology cs --vary delta=50,100
stderr_has "here 2 cars, cs" "vary cs named"
expect 2 "shard topology list" -- "$NR" sweep --topology p2p,cs --shard 1/2 --out "$TMP/ts.csv"
stderr_has "--shard splits one race configuration" "shard topology list named"
