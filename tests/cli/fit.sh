# netrace fit and link presets (docs/link.md "Fit", "Presets"); sourced by test_cli.sh.

# Round trip: 20,000 draws of a spec through `delays`, then `fit`: the same
# table, mean and jitter within 2 %; a Gilbert-Elliott loss found as one.
# fit_ok SPEC TABLE MU SIGMA [gemodel]
fit_ok() {
    "$NR" delays --link "$1" -n 20000 --seed 7 >"$TMP/fit.txt" 2>/dev/null
    expect 0 "fit of '$1'" -- "$NR" fit "$TMP/fit.txt"
    if awk -v tab="$2" -v mu="$3" -v sg="$4" -v ge="${5:-}" '
        /^spec: / {
            spec = $0
            m = $3; sub(/ms$/, "", m); s = $4; sub(/ms$/, "", s)
            ok = (m - mu < 0.02 * mu && mu - m < 0.02 * mu && s - sg < 0.02 * sg && sg - s < 0.02 * sg)
            ok = ok && index(spec, "distribution " tab) > 0
            if (ge != "") ok = ok && index(spec, "loss gemodel") > 0
        }
        END { exit !ok }' "$TMP/out"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); echo "FAIL: fit round trip of '$1': $(head -1 "$TMP/out")"
    fi
}
fit_ok "delay 75ms 10ms distribution normal" normal 75 10
fit_ok "delay 75ms 10ms distribution pareto" pareto 75 10
fit_ok "delay 75ms 10ms distribution paretonormal" paretonormal 75 10
# gemodel p = 1 %, r = 25 %: loss rate 1 / 26 = 3.8 %, mean burst 4 packets
fit_ok "delay 75ms 10ms distribution paretonormal loss gemodel 1% 25%" paretonormal 75 10 gemodel
# independent loss stays random loss
"$NR" delays --link "delay 40ms 8ms distribution normal loss 3%" -n 20000 --seed 7 >"$TMP/fit.txt"
expect 0 "fit random loss" -- "$NR" fit "$TMP/fit.txt"
stdout_has "^spec: delay .* loss 3\.[0-9]+%$" "fit keeps independent loss random"

# A merge --delays file (trace CSV) of direction 21.
expect 0 "fit of a trace CSV" -- "$NR" fit tests/data/hand-trace.csv --direction 21

# Bad input: one line naming file and line, exit 1.
printf '75.1\n74.2\nabc\n' >"$TMP/bad1.txt"
expect 1 "fit text" -- "$NR" fit "$TMP/bad1.txt"
stderr_has "bad1.txt:3: expected a delay in ms" "fit text named"
printf '75.1\n-3\n' >"$TMP/bad2.txt"
expect 1 "fit negative" -- "$NR" fit "$TMP/bad2.txt"
stderr_has "bad2.txt:2: delay -3" "fit negative named"
printf 'delay_ms\n75.1\nnan\n' >"$TMP/bad3.txt"
expect 1 "fit NaN" -- "$NR" fit "$TMP/bad3.txt"
stderr_has "bad3.txt:3: .*nan" "fit NaN named"
# A delay no link can hold (the fuzzer's 7.5e248 ms overran the fitted
# spec's text before it was refused here).
printf '75.e247\n.59\nlost\n74.2\nlost\n' >"$TMP/bad5.txt"
expect 1 "fit a delay past a link's longest" -- "$NR" fit "$TMP/bad5.txt"
stderr_has "bad5.txt:1: delay 75.e247: expected at most 2147483.647 ms" "fit too long named"
printf 'lost\nlost\n' >"$TMP/bad4.txt"
expect 1 "fit nothing delivered" -- "$NR" fit "$TMP/bad4.txt"
expect 1 "fit missing file" -- "$NR" fit "$TMP/none.txt"
expect 1 "fit a directory" -- "$NR" fit "$TMP"
expect 2 "fit without a file" -- "$NR" fit
expect 2 "fit bad direction" -- "$NR" fit "$TMP/fit.txt" --direction 13

# Presets wherever a link spec goes.
expect 0 "delays preset" -- "$NR" delays --link preset:satellite -n 1000 --stats
stdout_has "^mean: 2[78][0-9]\." "satellite preset's mean near 280 ms"
expect 0 "preset plus more" -- "$NR" delays --link "preset:dsl loss 2%" -n 10
expect 2 "unknown preset" -- "$NR" delays --link preset:5g
stderr_has "unknown link preset '5g' \(known: lan" "unknown preset named"
expect 0 "replay with presets" -- "$NR" replay --headless --link12 preset:dsl --link21 preset:racing-paper --schemes nc
