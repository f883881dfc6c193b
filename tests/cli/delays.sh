# netrace delays: one-way delays from a link spec; bad specs exit 2 with one line.
# Sourced by tests/test_cli.sh (uses expect, stderr_has, stdout_has, $NR, $TMP).

expect 0 "delays constant" -- "$NR" delays --link "delay 10ms" -n 3
stdout_has "^10\.000$" "delays prints ms with 3 decimals"
if [ "$(wc -l <"$TMP/out")" -eq 3 ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: delays -n 3 prints 3 lines"; fi

expect 0 "delays all lost" -- "$NR" delays --link "loss 100%" -n 4
if [ "$(grep -c '^lost$' "$TMP/out")" -eq 4 ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: loss 100% prints 4 'lost' lines"; fi

expect 0 "delays duplicates" -- "$NR" delays --link "delay 1ms duplicate 100%" -n 2
if [ "$(grep -c '^dup 1\.000$' "$TMP/out")" -eq 2 ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: duplicate 100% prints a 'dup' line per packet"; fi

expect 0 "delays uniform range" -- "$NR" delays --link "delay 20ms 5ms" -n 500 --seed 4
if awk '$1 < 15 || $1 >= 25 { bad = 1 } END { exit bad }' "$TMP/out"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: delay 20ms 5ms stays in [15, 25) ms"; fi

# Same seed, same output; another seed, another output.
"$NR" delays --link "delay 75ms 10ms distribution paretonormal loss 5%" -n 200 --seed 9 >"$TMP/a" 2>/dev/null
"$NR" delays --link "delay 75ms 10ms distribution paretonormal loss 5%" -n 200 --seed 9 >"$TMP/b" 2>/dev/null
"$NR" delays --link "delay 75ms 10ms distribution paretonormal loss 5%" -n 200 --seed 10 >"$TMP/c" 2>/dev/null
if cmp -s "$TMP/a" "$TMP/b" && ! cmp -s "$TMP/a" "$TMP/c"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: delays is deterministic per seed"; fi

expect 0 "delays --stats" -- "$NR" delays --link "delay 10ms loss 100%" -n 10 --stats
stdout_has "^count: 10$" "stats count"
stdout_has "^loss_rate: 1\.0+$" "stats loss_rate"
expect 0 "delays --stats keys" -- "$NR" delays --link "delay 30ms" -n 100 --stats
for key in count mean sd min p1 p50 p99 max loss_rate; do
    stdout_has "^$key: " "stats has $key"
done
stdout_has "^mean: 30\.000$" "stats mean of a constant delay"
stdout_has "^sd: 0\.000$" "stats sd of a constant delay"

# Bad input: exit 2, one line naming the token and what was expected.
expect 2 "delays unknown keyword" -- "$NR" delays --link "delay 10ms frob"
stderr_has "unknown keyword 'frob'" "unknown keyword named"
expect 2 "delays negative jitter" -- "$NR" delays --link "delay 10ms -2ms"
stderr_has "negative jitter '-2ms'" "negative jitter named"
expect 2 "delays loss over 100%" -- "$NR" delays --link "loss 101%"
stderr_has "loss '101%': expected a percentage from 0% to 100%" "loss > 100% named"
expect 2 "delays missing unit" -- "$NR" delays --link "delay 75"
stderr_has "delay '75': missing unit" "missing unit named"
expect 2 "delays unreadable dist" -- "$NR" delays --link "delay 75ms 10ms distribution $TMP/none.dist"
stderr_has "$TMP/none.dist: cannot open" "unreadable .dist named"
printf '# table\n1 2 3\n4 five 6\n' >"$TMP/bad.dist"
expect 2 "delays malformed dist" -- "$NR" delays --link "delay 75ms 10ms distribution $TMP/bad.dist"
stderr_has "bad.dist:3: expected integers from -32768 to 32767, got 'five'" "malformed .dist line named"
: >"$TMP/empty.dist"
expect 2 "delays empty dist" -- "$NR" delays --link "delay 75ms 10ms distribution $TMP/empty.dist"
stderr_has "empty.dist:1: no table entries" "empty .dist named"
expect 2 "delays bad -n" -- "$NR" delays -n 0
stderr_has "-n: expected a whole number" "bad -n named"
expect 2 "delays unknown flag" -- "$NR" delays --frob
stderr_has "unknown option '--frob'" "unknown flag named"
expect 0 "delays --tables fallback" -- "$NR" delays --link "delay 75ms 10ms distribution normal" --tables "$TMP" -n 2
expect 2 "delays --tables no experimental" -- "$NR" delays --link "delay 75ms 10ms distribution experimental" --tables "$TMP" -n 2
stderr_has "distribution 'experimental'" "missing table named"
