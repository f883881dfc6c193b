# Races of N cars and the topologies in replay (docs/nplayers.md): the
# four-car bundled race, the N-car table and CSV columns, and bad input.
# Sourced by tests/test_cli.sh (uses expect, stderr_has, stdout_has, $NR, $TMP).

F=recordings/four.csv
expect 0 "replay of four cars" -- "$NR" replay "$F" --headless --schemes nc
stdout_has "^topology: p2p, 4 terminals$" "four cars: the topology line"
stdout_has "^link 4-3: delay 75ms 10ms distribution paretonormal$" "four cars: every ordered pair"
stdout_has "dis4" "four cars: each player's disadvantage"
# 4 terminals x 3 peers x 910 samples
stdout_has "^nc .* 10920 " "four cars: nc sends every MU to the 3 others"
expect 0 "replay cs sync" -- "$NR" replay "$F" --headless --schemes nc --topology cs --server sync
stdout_has "^topology: cs, 4 terminals, server sync$" "cs: the server named"
stdout_has "^link 2-s: " "cs: the uplinks"
expect 0 "replay four cars csv" -- "$NR" replay "$F" --csv --schemes nc --cars 3
stdout_has ",ncars,topology,server,pair_rate,spread,disadvantage_1,disadvantage_2,disadvantage_3$" "csv: the N-car columns"
stdout_has ",3,p2p,none," "csv: three cars p2p"
expect 2 "more cars than the recording" -- "$NR" replay "$F" --headless --cars 5
stderr_has "--cars 5: recordings/four.csv has 4 cars" "names the recording's car count"
expect 2 "a link beyond N" -- "$NR" replay "$F" --headless --link 1-5 'delay 1ms'
stderr_has "link 1-5 is not a line of this race \(4 terminals" "names the terminal beyond N"
expect 2 "a bad link pair" -- "$NR" replay "$F" --headless --link 1-1 'delay 1ms'
stderr_has "expected I-J, two different terminals" "names the pair grammar"
printf '1-2 delay 10ms\n1-3 delay 10ms\n' >"$TMP/matrix.txt"
expect 1 "a link matrix with a missing pair" -- "$NR" replay "$F" --headless --links "$TMP/matrix.txt"
stderr_has "link 1-4 is missing" "names the missing pair"
printf '1-2 delay 10ms\n1-2 delay 20ms\n' >"$TMP/twice.txt"
expect 1 "a link matrix with a pair twice" -- "$NR" replay "$F" --headless --links "$TMP/twice.txt"
stderr_has "twice.txt:2: link 1-2 given twice" "names the line"
expect 2 "link12 in cs" -- "$NR" replay "$F" --headless --topology cs --link12 'delay 1ms'
expect 2 "server without cs" -- "$NR" replay "$F" --headless --server sync
expect 2 "unknown topology" -- "$NR" replay "$F" --headless --topology mesh
stderr_has "--topology: expected p2p or cs" "names the topology"
# link scripts name any line (issue 19): 12 is still 1-2; I-J, I-s, s-J, all
printf '1 12 delay 10ms\n2 3-1 loss 100%%\n' >"$TMP/script.txt"
expect 0 "a link script on four cars" -- "$NR" replay "$F" --headless --schemes nc --link-script "$TMP/script.txt"
printf '0 2-s loss 100%%\n' >"$TMP/uplink.txt"
expect 0 "cs: the uplink of client 2 out" -- "$NR" replay "$F" --headless --schemes nc --topology cs \
    --link-script "$TMP/uplink.txt"
# every MU of terminal 2 after sample 0 (909 of them) lost for its 3 receivers
stdout_has "^nc .* 10920 +2727 " "cs: 3 x 909 copies lost on the uplink"
printf '1 4-1 loss 100%%\n' >"$TMP/beyond.txt"
expect 1 "a script line beyond N" -- "$NR" replay "$F" --headless --cars 3 --link-script "$TMP/beyond.txt"
stderr_has "beyond.txt:1: no line 4-1 in this race \(3 terminals, p2p" "names the script's line"
expect 1 "a p2p name in cs" -- "$NR" replay "$F" --headless --topology cs --link-script "$TMP/script.txt"
stderr_has "script.txt:1: 12 names the p2p links" "12 is a p2p link"
expect 1 "a script line of one compared topology" -- "$NR" sweep --recording "$F" --delays 50 --jitters 10 \
    --runs 1 --schemes nc --topology p2p,cs --link-script "$TMP/script.txt"
stderr_has "cs race" "the sweep checks every topology"
# per-terminal clocks: --clock 1=X is --clock1 X; terminal 3's clock changes the race
"$NR" replay "$F" --csv --schemes causality --clock1 20,50 >"$TMP/c1.csv"
"$NR" replay "$F" --csv --schemes causality --clock 1=20,50 >"$TMP/c2.csv"
"$NR" replay "$F" --csv --schemes causality >"$TMP/c0.csv"
"$NR" replay "$F" --csv --schemes causality --clock 3=-40 >"$TMP/c3.csv"
expect 0 "--clock 1= is --clock1" -- cmp -s "$TMP/c1.csv" "$TMP/c2.csv"
expect 1 "--clock 3= moves terminal 3" -- cmp -s "$TMP/c0.csv" "$TMP/c3.csv"
# the parameter lines name each terminal's clock once any is off the global one
expect 0 "replay of 4 with terminal 3's clock" -- "$NR" replay "$F" --headless --schemes nc --clock 3=-40,25
stdout_has "^clock 3: -40.000 ms, \+25.000 ppm$" "terminal 3's clock printed"
stdout_has "^clock 4: \+0.000 ms, \+0.000 ppm$" "every terminal's clock printed"
if [ "$(grep -c '^clock [1-4]: ' "$TMP/out")" = 4 ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: four clock lines expected"; fi
expect 0 "replay of 4, every clock global" -- "$NR" replay "$F" --headless --schemes nc
if ! grep -q '^clock ' "$TMP/out"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: clock lines printed without a clock given"; fi
expect 2 "a clock beyond N" -- "$NR" replay "$F" --headless --clock 5=10
stderr_has "--clock 5: the race has 4 terminals" "names the terminal"
expect 2 "a bad clock" -- "$NR" replay "$F" --headless --clock 3:10
stderr_has "expected I=OFFSET_MS" "names the grammar"
# sweep: topologies compared on the same seeds, one CSV
expect 0 "sweep compares topologies" -- "$NR" sweep --recording "$F" --delays 50,100 --jitters 10 --runs 1 \
    --schemes nc --topology p2p,cs --server relay,sync --out "$TMP/cmp.csv"
stdout_has "^== cs sync$" "sweep: a summary per topology"
expect 0 "sweep: 2 points x 3 topologies + header" -- test "$(wc -l <"$TMP/cmp.csv")" -eq 7
expect 0 "sweep: cs sync rows" -- grep -q ",4,cs,sync," "$TMP/cmp.csv"
# the window draws N cars (issue 19): a snapshot of the four-car race, focused
expect 0 "snapshot of four cars" -- "$NR" replay "$F" --schemes racing --focus dr --snapshot 12 "$TMP/four.png" --size 640x360
stderr_has "wrote .*four.png \(snapshot at t = 11.979 s, 640x360\)" "the four-car snapshot written"
expect 0 "the snapshot is a PNG" -- grep -q PNG "$TMP/four.png"
expect 0 "snapshot of a cs race" -- "$NR" replay "$F" --schemes nc --topology cs --snapshot 5 "$TMP/cs.png" --size 640x360
expect 2 "replay takes one topology" -- "$NR" replay "$F" --headless --topology p2p,cs
stderr_has "lists compare them in netrace sweep" "replay names the sweep"
expect 2 "a bad topology list" -- "$NR" sweep --recording "$F" --topology p2p,mesh
