# netrace epp: exit codes and one-line errors on bad flags; a tiny run.
expect 2 "epp unknown model" -- "$NR" epp --models rd,rx
stderr_has "unknown motion model 'rx'" "epp names the unknown model"
expect 2 "epp unknown scheme" -- "$NR" epp --schemes raw,EP-x
stderr_has "unknown scheme 'EP-x'" "epp names the unknown scheme"
expect 2 "epp zero rate" -- "$NR" epp --rate 0
stderr_has "--rate: bad update rate '0'" "epp names the zero rate"
expect 2 "epp negative rate" -- "$NR" epp --rate 10,-15
stderr_has "--rate: bad update rate '-15'" "epp names the negative rate"
expect 2 "epp zero bandwidth" -- "$NR" epp --bandwidth 0
stderr_has "bandwidth must be positive" "epp rejects a zero bandwidth"
expect 2 "epp negative bandwidth" -- "$NR" epp --bandwidth=-10k
stderr_has "bandwidth must be positive" "epp rejects a negative bandwidth"
expect 2 "epp garbage bandwidth" -- "$NR" epp --bandwidth 10q
stderr_has "bad bandwidth '10q'" "epp names the bad bandwidth"
expect 2 "epp bandwidth below R" -- "$NR" epp --bandwidth 6k
stderr_has "below the update stream's own rate R = 6360 bps at 15 updates/s" "epp names R"
expect 2 "epp inverted range" -- "$NR" epp --sweep 20k..5k
stderr_has "ends below its start" "epp rejects an inverted range"
expect 2 "epp zero step" -- "$NR" epp --sweep 5k..20k:0
stderr_has "bad step '0'" "epp rejects a zero step"
expect 2 "epp loss 100%" -- "$NR" epp --loss 100%
stderr_has "--loss: bad loss '100%'" "epp names the bad loss"
expect 2 "epp loss garbage" -- "$NR" epp --loss five
expect 2 "epp zero runs" -- "$NR" epp --runs 0
stderr_has "--runs" "epp names --runs"
expect 2 "epp bad samples" -- "$NR" epp --samples x
expect 2 "epp bad seed" -- "$NR" epp --seed -1
expect 2 "epp bad raw-dr" -- "$NR" epp --raw-dr zz
stderr_has "unknown predictor 'zz'" "epp names the predictor"
expect 2 "epp loss inside --link" -- "$NR" epp --link "delay 50ms loss 5%"
stderr_has "give the loss rates with --loss" "epp explains where the loss goes"
expect 2 "epp bad link" -- "$NR" epp --link "delay fifty"
stderr_has "--link" "epp names --link"
expect 2 "epp unknown option" -- "$NR" epp --frobnicate
stderr_has "unknown option '--frobnicate'" "epp names the option"
expect 2 "epp missing value" -- "$NR" epp --rate
expect 1 "epp missing trace" -- "$NR" epp --trace "$TMP/none.csv" --models none --runs 1 --samples 50
expect 1 "epp unwritable out" -- "$NR" epp --no-traces --runs 1 --samples 50 --sweep none --out "$TMP/no/such/dir/e.csv"
stderr_has "cannot write" "epp names the unwritable output"
expect 0 "epp tiny run" -- "$NR" epp --no-traces --runs 2 --samples 100 --rate 10 --sweep 5k,10k --out "$TMP/epp.csv"
stdout_has "^Table 1: motion models, 10 updates/s" "epp prints Table 1"
stdout_has "^Fig. 5" "epp prints Fig. 5"
if head -1 "$TMP/epp.csv" | grep -qx "source,loss,rate_hz,bandwidth_bps,scheme,mean_error,runs" &&
   grep -q "^ra,0.1,10,5000,EP-i," "$TMP/epp.csv"; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL: epp --out writes the long-format CSV"
fi
printf '# not a recording\n1,2,3\n' >"$TMP/bad.csv"
expect 1 "epp malformed trace" -- "$NR" epp --models none --trace "$TMP/bad.csv" --runs 1 --samples 50
expect 0 "epp autopilot recording" -- "$NR" autopilot --seconds 10 --seed 1 --out "$TMP/ap.csv"
expect 0 "epp trace run" -- "$NR" epp --models none --trace "$TMP/ap.csv" --runs 2 --samples 60 --rate 10 --loss 10%
stdout_has "^Table 1: recorded traces, 10 updates/s" "epp prints the trace table"
stdout_has "^xv +[0-9.]+ \((p|i)\)" "epp marks eq. 23's packetisation"
# Issue 22: with several recordings the trace table was one 376-character
# line per scheme: now blocks of 4 columns, every line 100 characters or less
# (the four header lines above the tables run to 104).
expect 0 "epp several traces" -- "$NR" epp --models none --trace "$TMP/ap.csv" --trace recordings/default.csv \
    --trace recordings/four.csv --runs 1 --samples 30 --rate 10 --sweep none
if [ "$(awk 'NR > 7 && length($0) > 100' "$TMP/out" | wc -l)" -eq 0 ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: epp table lines over 100 characters"; awk 'NR > 7 && length($0) > 100' "$TMP/out" | head -2; fi
[ "$(grep -c '^xv ' "$TMP/out")" -ge 2 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: epp trace table not in blocks"; }

# --- nothing to simulate is a usage error, not an empty success
expect 2 "epp with no models and no traces" -- "$NR" epp --models none --no-traces
stderr_has "nothing to simulate" "epp nothing to simulate: says so"

# --- '--link none' (no delay, docs/link.md) is a valid delay part
expect 0 "epp --link none" -- "$NR" epp --link none --no-traces --runs 1 --samples 50 --rate 10 --loss 5% --sweep none
stdout_has "loss 5%: T = 100.0 ms, D = 1, p\[D..D\+3\] = 0.9500 0.9500 0.9500 0.9500" "epp --link none: D = 1, p = 1 - q"

# --- a long --link (padding) keeps the loss that --loss appends to it
pad=$(printf '%600s' '')
expect 0 "epp long --link" -- "$NR" epp --link "delay 50ms gamma 3 10ms$pad" --no-traces --runs 1 --samples 50 --rate 10 --loss 10% --sweep none
stdout_has "loss 10%: T = 100.0 ms, D = 1, p\[D..D\+3\] = 0.7878 0.9000" "epp long --link: the loss is applied"
