# netrace play with three and four cars (issue 19): the headless N-car race
# over p2p and client-server against the replay of its recording, the
# recorded inputs re-simulating it, the N-car table, and one line for each
# bad input (a fifth player, too many cars, keys for seat 3, a script for a
# player the race does not have, a line the topology does not have).
# Sourced by tests/test_cli.sh (uses expect, stderr_has, stdout_has, $NR, $TMP).

printf 't_ms,player,throttle,brake,steer\n0,1,1,0,0\n' >"$TMP/n-p1.inputs"
printf '3 12 delay 300ms 20ms\n' >"$TMP/n.script"

same_files() { # A B DESCRIPTION: byte-identical, and not empty
    if cmp -s "$1" "$2" && [ -s "$1" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL: $3"; fi
}

# Four bots over client-server (relay): recorded, then replayed with the
# same links and seed; the --series files are the same bytes.
CS4=(--topology cs --link 2-s 'delay 40ms 10ms distribution paretonormal' --link s-4 'delay 120ms 20ms' --seed 6)
expect 0 "play four bots over cs" -- "$NR" play --headless --cars 4 --p1 bot --p2 bot --seconds 8 \
    --schemes racing --out "$TMP/four.csv" --series "$TMP/four-live.csv" "${CS4[@]}"
stdout_has "^topology: cs, 4 terminals, server relay" "the N-car parameters"
stdout_has "^link s-4: delay 120ms 20ms" "every line of the topology is listed"
stdout_has "^scheme +incons +pairs +spread +dis1 +dis2 +dis3 +dis4 " "replay's N-car table"
stdout_has "^order at terminal 4:( [1-4]){4}$" "the order at each terminal"
stdout_has "^order in the truth:( [1-4]){4}$" "and in the truth"
expect 0 "info on the four-car recording" -- "$NR" info "$TMP/four.csv"
stdout_has "^cars: 4" "four cars recorded"
stdout_has "^topology: cs relay" "the topology in the header"
expect 0 "replay of the four-car race" -- "$NR" replay "$TMP/four.csv" --headless --schemes racing \
    --series "$TMP/four-replay.csv" "${CS4[@]}"
same_files "$TMP/four-live.csv" "$TMP/four-replay.csv" "play --cars 4 and replay of its recording give different --series"
head -1 "$TMP/four-live.csv" >"$TMP/four-head"
if grep -q ',pair_rate,spread$' "$TMP/four-head"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: the N-car series has the pair_rate and spread columns"; fi
# the recorded inputs re-simulate the race bit for bit, every seat a script
IN4="script:$TMP/four.inputs.csv"
expect 0 "four-car race re-simulated from its inputs" -- env SOURCE_DATE_EPOCH=0 "$NR" play --headless \
    --p1 "$IN4" --p2 "$IN4" --p3 "$IN4" --p4 "$IN4" --seconds 8 --schemes racing --out "$TMP/four-again.csv" \
    --series "$TMP/four-again-series.csv" "${CS4[@]}"
grep -v '^# created' "$TMP/four.csv" >"$TMP/four-a"
grep -v '^# created' "$TMP/four-again.csv" >"$TMP/four-b"
same_files "$TMP/four-a" "$TMP/four-b" "the four-car inputs do not re-simulate the same recording"
same_files "$TMP/four-live.csv" "$TMP/four-again-series.csv" "the re-simulated four-car race has other metrics"

# Three cars over p2p with a link matrix file, laps: the same through replay.
printf '1-2 delay 10ms\n1-3 delay 150ms 20ms\n2-1 delay 10ms\n2-3 delay 150ms 20ms\n3-1 delay 90ms\n3-2 delay 90ms\n' \
    >"$TMP/three.links"
expect 0 "play three cars with a link matrix" -- "$NR" play --headless --p3 bot --p1 bot --p2 bot --laps 1 \
    --schemes nc,dr --links "$TMP/three.links" --out "$TMP/three.csv" --series "$TMP/three-live.csv"
stdout_has "^link 1-3: delay 150ms 20ms" "the matrix's lines are used"
expect 0 "replay of the three-car race" -- "$NR" replay "$TMP/three.csv" --headless --schemes nc,dr \
    --links "$TMP/three.links" --series "$TMP/three-replay.csv"
same_files "$TMP/three-live.csv" "$TMP/three-replay.csv" "play --p3 and replay of its recording give different --series"
expect 0 "info on the three-car recording" -- "$NR" info "$TMP/three.csv"
stdout_has "^link_1_2: delay 10ms" "the header names the line 1->2"
stdout_has "^link_3_2: delay 90ms" "and every other line of the matrix"
# replay REC re-runs the race's own condition from the header: no --links
expect 0 "replay of the three-car race from its header" -- "$NR" replay "$TMP/three.csv" --headless --schemes nc,dr \
    --series "$TMP/three-header.csv"
stdout_has "^link 2-3: delay 150ms 20ms" "the header's lines are the replay's"
same_files "$TMP/three-live.csv" "$TMP/three-header.csv" "replay of the three-car recording by its header differs"
# every terminal's clock, the cs lines, Delta and the seed travel too; a flag still wins
CL=(--topology cs --server sync --link 1-s 'delay 30ms 5ms' --link s-3 'delay 60ms' --clock 2=7,-40 --clock 3=-3
    --delta 150 --seed 5)
expect 0 "play three bots over cs sync with clocks" -- "$NR" play --headless --cars 3 --p1 bot --p2 bot --p3 bot \
    --seconds 3 --schemes nc,causality --out "$TMP/cl3.csv" --series "$TMP/cl3-live.csv" "${CL[@]}"
stdout_has "^clock 2: \+7.000 ms, -40.000 ppm$" "the live race's clock lines"
expect 0 "info on the cs recording" -- "$NR" info "$TMP/cl3.csv"
stdout_has "^clock_2: 7,-40$" "terminal 2's clock in the header"
stdout_has "^link_s_3: delay 60ms$" "a downlink in the header"
expect 0 "replay of the cs race from its header" -- "$NR" replay "$TMP/cl3.csv" --headless --schemes nc,causality \
    --series "$TMP/cl3-replay.csv"
stdout_has "^topology: cs, 3 terminals, server sync" "the header's topology and server"
stdout_has "^delta 150 ms, T_dr 0.25 cw, seed 5$" "the header's Delta and seed"
same_files "$TMP/cl3-live.csv" "$TMP/cl3-replay.csv" "replay of the cs recording by its header differs"
expect 0 "a flag over the header" -- "$NR" replay "$TMP/cl3.csv" --headless --schemes nc --link s-3 'delay 5ms' \
    --clock 2=0
stdout_has "^link s-3: delay 5ms$" "--link wins over the header's line"
stdout_has "^clock 2: \+0.000 ms, \+0.000 ppm$" "--clock wins over the header's clock"
# a bad condition line: one line naming the file, its line and key, exit 1
sed 's/^# link_s_3: .*/# link_s_3: delay 5 parsecs/' "$TMP/cl3.csv" >"$TMP/cl3-bad.csv"
expect 1 "replay of a recording with a bad line" -- "$NR" replay "$TMP/cl3-bad.csv" --headless
stderr_has "cl3-bad.csv:1[0-9]: link_s_3 'delay 5 parsecs': " "the bad line named"
expect 1 "info of it" -- "$NR" info "$TMP/cl3-bad.csv"
stderr_has "cl3-bad.csv:1[0-9]: link_s_3 " "info names it too"

# Two players keep the two-player outputs: no order lines, the old table.
expect 0 "two bots" -- "$NR" play --headless --p1 bot --p2 bot --seconds 2 --out none --schemes nc
stdout_has "^scheme +incons +d1-d2 " "two players print the two-player table"
if grep -q '^order' "$TMP/out"; then fail=$((fail + 1)); echo "FAIL: two players print no order lines"; else
    pass=$((pass + 1)); fi

# Bad input: one line each, no crash.
expect 2 "--p5" -- "$NR" play --headless --p1 bot --p2 bot --p5 bot
stderr_has "^netrace play: --p5: at most 4 players \(--p1 \.\. --p4\)" "a fifth player refused"
expect 2 "--cars 9" -- "$NR" play --headless --p1 bot --p2 bot --cars 9
stderr_has "--cars" "too many cars named"
expect 2 "--cars 5" -- "$NR" play --headless --p1 bot --p2 bot --cars 5
stderr_has "--cars" "five cars refused"
expect 2 "--p3 keys" -- "$NR" play --p3 keys
stderr_has "--p3 keys: the keyboard drives players 1 and 2" "keys for seat 3 refused"
expect 2 "--p4 past --cars 3" -- "$NR" play --headless --p1 bot --p2 bot --cars 3 --p4 bot
stderr_has "--p4: the race has 3 cars \(--cars 3\)" "a seat past --cars refused"
printf 't_ms,player,throttle,brake,steer\n0,1,1,0,0\n0,4,1,0,0\n' >"$TMP/four-players.inputs"
expect 1 "a script naming player 4 in a 3-car race" -- "$NR" play --headless --p1 "script:$TMP/four-players.inputs" \
    --p2 bot --p3 bot --out none
stderr_has "four-players.inputs: lines for player 4, but the race has 3 cars" "the script's extra player named"
expect 1 "a script without seat 3's lines" -- "$NR" play --headless --p1 bot --p2 bot --p3 "script:$TMP/n-p1.inputs" \
    --out none
stderr_has "no line for player 3 \(--p3 plays its player 3 lines\)" "seat 3's missing lines named"
expect 2 "--link to terminal 5 of 4" -- "$NR" play --headless --cars 4 --p1 bot --p2 bot --link 1-5 'delay 10ms'
stderr_has "--link" "a line past the race named"
printf '1-2 delay 10ms\n2-1 delay 10ms\n1-3 delay 10ms\n' >"$TMP/short.links"
expect 1 "a link matrix with a missing pair" -- "$NR" play --headless --p3 bot --p1 bot --p2 bot --links "$TMP/short.links"
stderr_has "short.links" "the matrix file named"
# a link script on three cars (issue 19): the driven race and the replay of
# its recording with the same script give the same series
printf '2 3-1 loss 100%%\n3 all delay 40ms\n4 2-3 delay 250ms\n' >"$TMP/n3.script"
expect 0 "--link-script with three cars" -- "$NR" play --headless --p3 bot --p1 bot --p2 bot --seconds 6 \
    --out "$TMP/n3.csv" --series "$TMP/n3-live.csv" --link-script "$TMP/n3.script"
stdout_has "^script: at 2 s link 3-1: loss 100%" "the script's changes listed"
expect 0 "replay of it with the script" -- "$NR" replay "$TMP/n3.csv" --headless --series "$TMP/n3-replay.csv" \
    --link-script "$TMP/n3.script"
expect 0 "three cars: play and replay with a script agree" -- cmp -s "$TMP/n3-live.csv" "$TMP/n3-replay.csv"
printf '1 4-1 loss 100%%\n' >"$TMP/n4.script"
expect 1 "--link-script naming terminal 4 of 3" -- "$NR" play --headless --p3 bot --p1 bot --p2 bot \
    --link-script "$TMP/n4.script"
stderr_has "n4.script:1: no line 4-1 in this race \(3 terminals" "the script's line named"
expect 2 "--clock of terminal 4 of 3" -- "$NR" play --headless --p3 bot --p1 bot --p2 bot --clock 4=10
stderr_has "--clock 4: the race has 3 terminals" "the clock's terminal named"
expect 2 "--server without cs" -- "$NR" play --headless --p1 bot --p2 bot --server sync
stderr_has "--server applies to --topology cs" "a server without cs refused"
expect 2 "a topology comparison" -- "$NR" play --headless --p1 bot --p2 bot --topology p2p,cs
stderr_has "lists compare them in netrace sweep" "play races one topology"
expect 2 "--p12" -- "$NR" play --p12 bot
stderr_has "--p12: at most 4 players" "a two-digit seat refused"

# The window with four seats on the dummy driver: the 2 x 2 grid's frames.
expect 0 "four screens on the dummy driver" -- env SDL_VIDEODRIVER=dummy timeout 120 "$NR" play --cars 4 \
    --p1 bot --p2 bot --bench-frames 20 --size 640x360 --out none --topology cs --server sync
stdout_has "^bench: 20 frames, play: 4 driving screens \(scheme nc\), 640x360" "four driving screens"
expect 0 "four screens and the overview" -- env SDL_VIDEODRIVER=dummy timeout 120 "$NR" play --p4 bot --p3 pad \
    --p1 bot --p2 bot --bench-frames 20 --size 640x360 --out none --watch
stdout_has "^bench: 20 frames, play: 4 driving screens \(scheme nc\), 640x360 \+ overview" "the overview with four cars"

# Two cars with a --link line: the parameter lines, the CSV's link columns
# and the Delta warning name the line raced, not the --link12 / --link21
# default (they named the default before).
expect 0 "replay of two cars with --link 1-2" -- "$NR" replay --headless --link 1-2 'delay 10ms' --schemes nc
stdout_has "^link12: delay 10ms$" "the line 1-2 given by --link is printed"
expect 0 "play of two cars with --link 2-1" -- "$NR" play --headless --p1 bot --p2 bot --seconds 2 --out none \
    --link 2-1 'delay 210ms' --schemes nc,causality --csv
stdout_has "^nc,75,10,210,0," "the CSV's 2-1 columns are the --link line's"
stderr_has "mean delay 210.0 ms of link 2->1" "the Delta warning reads the --link line"
