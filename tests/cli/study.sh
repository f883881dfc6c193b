# netrace study: the example plan's orders (Williams positions over a full
# set of pairs), a bad plan line, the headless session of two pairs with
# scripted answers, resume after a stop between races, in the middle of a
# race's ratings and after a race killed half way (byte-identical to an
# uninterrupted session), the recordings' condition lines against replay, and
# the report against a hand computation.
# Sourced by tests/test_cli.sh (uses expect, stderr_has, stdout_has, $NR, $TMP).

SP=studies/example.study
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $1"; }

expect 0 "study --order" -- "$NR" study "$SP" --pair 1 --order
stdout_has "^study example, pair 1: 6 races \(1 practice, 5 rated\); Williams row 1 of 4" "order: the header"
stdout_has "^race +1 +practice +P +nc " "order: the practice race first"
stdout_has "^race +[2-6] +repeat +B " "order: the hidden repeat of B"
stdout_has "^break$" "order: the plan's break"
# Four pairs make the square: each rated condition once in each rated position.
for pair in 1 2 3 4; do
    "$NR" study "$SP" --pair "$pair" --order | awk '$3 == "rated" { n++; print n ":" $4 }'
done | sort -u >"$TMP/study-positions"
if [ "$(wc -l <"$TMP/study-positions")" -eq 16 ] && [ "$(cut -d: -f2 "$TMP/study-positions" | sort | uniq -c |
    awk '{print $1}' | sort -u)" = "4" ]; then ok; else ko "four pairs' orders are not a Latin square"; fi
"$NR" study "$SP" --pair 1 --order >"$TMP/order-a"
"$NR" study "$SP" --pair 1 --order >"$TMP/order-b"
if cmp -s "$TMP/order-a" "$TMP/order-b"; then ok; else ko "the order of a pair is not reproducible"; fi

# Bad plans and flags: one line naming file, line and field.
printf 'netrace-study 1\nname x\ncondition A\n  scheme warp\n' >"$TMP/bad.study"
expect 1 "study with a bad plan line" -- "$NR" study "$TMP/bad.study" --pair 1 --order
stderr_has "bad.study:4: field scheme: 'warp' is not a scheme" "bad plan: file, line, field"
if [ "$(wc -l <"$TMP/err")" -eq 1 ]; then ok; else ko "bad plan: more than one line"; fi
expect 1 "study with a directory as its plan" -- "$NR" study "$TMP" --pair 1 --order
expect 2 "study without --pair" -- "$NR" study "$SP" --order
expect 2 "study --pair 0" -- "$NR" study "$SP" --pair 0 --order
expect 2 "study --ratings without --headless" -- "$NR" study "$SP" --pair 1 --out "$TMP/x" --ratings /dev/null
stderr_has "--ratings FILE goes with --headless" "the window takes the players' answers: said so"
expect 2 "study --headless without --ratings" -- "$NR" study "$SP" --pair 1 --out "$TMP/x" --headless
expect 2 "study --headless with a window flag" -- "$NR" study "$SP" --pair 1 --out "$TMP/x" --headless \
    --ratings /dev/null --size 800x600
stderr_has "--size is the window's" "a window flag with --headless: named"
# The window on no display (the dummy driver shows nothing): one line, exit
# 1, and no session folder left behind to refuse the next start.
expect 1 "study in the window without a display" -- "$NR" study "$SP" --pair 1 --out "$TMP/nowin"
stderr_has "no window" "no display: said so"
[ ! -e "$TMP/nowin" ] && ok || ko "a window that could not open left a session folder"
expect 2 "study with keys headless" -- "$NR" study "$SP" --pair 1 --out "$TMP/x" --headless --ratings /dev/null \
    --p1 keys
expect 2 "study unknown option" -- "$NR" study "$SP" --pair 1 --orde
expect 2 "study --report without folders" -- "$NR" study --report

# Answers by hand: every question of a condition scores its base (A 4, B 3,
# C 4, D 2), pair 1's player 1 one more, pair 2's player 2 one less; so each
# condition's four scores are base+1, base, base, base-1. acceptable: yes
# when the base is 3 or more. The repeat of B: as the original, except pair
# 1's player 2 answers operability 2 instead of 3.
answers() { # PAIR -> the answers file of that pair's order
    "$NR" study "$SP" --pair "$1" --order | awk -v pair="$1" '
        BEGIN { base["A"] = 4; base["B"] = 3; base["C"] = 4; base["D"] = 2; print "race,player,question,score" }
        $1 == "race" && $3 != "practice" {
            for (p = 1; p <= 2; p++) {
                s = base[$4] + (pair == 1 && p == 1) - (pair == 2 && p == 2)
                o = s - ($3 == "repeat" && pair == 1 && p == 2)
                printf "%d,%d,operability,%d\n%d,%d,fairness,%d\n%d,%d,overall,%d\n%d,%d,acceptable,%s\n",
                    $2, p, o, $2, p, s, $2, p, s, $2, p, (base[$4] >= 3 ? "yes" : "no")
            }
        }'
}
answers 1 >"$TMP/ans1.csv"
answers 2 >"$TMP/ans2.csv"
export SOURCE_DATE_EPOCH=0
expect 0 "study session of pair 1" -- "$NR" study "$SP" --pair 1 --out "$TMP/s1" --headless --ratings "$TMP/ans1.csv"
stdout_has "^race 2 of 6: rated B \(scheme nc; link12 delay 200ms" "session: the experimenter sees the condition"
# Issue 22 trial D3: condition D (causality, Delta 100 ms over a 200 ms
# link) ran silently: one line at load, one with its race, nothing else
stderr_has "^netrace study: warning: studies/example.study:38: condition D: causality: Delta 100 ms is below the mean delay [0-9.]+ ms of link 1->2" "session: condition D's causality warned at load"
stderr_has "^netrace study: warning: race [2-6], condition D: causality: Delta 100 ms is below" "session: condition D's race warned"
if [ "$(grep -c warning "$TMP/err")" -eq 2 ]; then ok; else ko "session: expected 2 warnings (condition D at load and its race)"; fi
stdout_has "session complete" "session: complete"
expect 0 "study session of pair 2" -- "$NR" study "$SP" --pair 2 --out "$TMP/s2" --headless --ratings "$TMP/ans2.csv"
for f in plan.study order.csv session.txt ratings.csv metrics.csv race-001.csv race-006.csv race-006.inputs.csv; do
    if [ -s "$TMP/s1/$f" ]; then ok; else ko "session: $f missing"; fi
done
# 5 rated races x 2 players x 4 questions, and the header
if [ "$(wc -l <"$TMP/s1/ratings.csv")" -eq 41 ]; then ok; else ko "ratings.csv: expected 41 lines"; fi
grep -q '^example,1,2,2,B,rated,operability,3,NA$' "$TMP/s1/ratings.csv" && ok || ko "ratings.csv: race 2's row"
# every scheme of every race, 7 metrics each, and the two players' mark counts
n_schemes=$("$NR" replay --headless --csv | tail -n +2 | wc -l)
if [ "$(wc -l <"$TMP/s1/metrics.csv")" -eq $((1 + 6 * (7 * n_schemes + 2))) ]; then ok; else
    ko "metrics.csv: expected 6 races x (7 metrics x $n_schemes schemes + 2 mark counts)"; fi
grep -q '^example,1,3,D,rated,causality,1,marks_p1,0$' "$TMP/s1/metrics.csv" && ok || ko "metrics.csv: race 3 marks"
for k in "study: example" "pair: 1" "race: 3" "condition: D" "race_kind: rated" "scheme: causality" \
    "link12: delay 200ms 30ms distribution paretonormal" "delta_ms: 100" "tdr_cw: 0.25"; do
    grep -q "^# $k$" "$TMP/s1/race-003.csv" && ok || ko "race-003.csv lacks '# $k'"
done
expect 0 "info on a study recording" -- "$NR" info "$TMP/s1/race-003.csv"
stdout_has "^condition: D$" "info names the recording's condition"
stdout_has "^scheme: causality$" "info names the scheme shown"
# play's recordings carry their condition too
expect 0 "play --headless records its condition" -- "$NR" play --headless --p1 bot --p2 bot --seconds 2 \
    --scheme dr --link12 "delay 150ms 20ms" --delta 120 --tdr 0.5 --seed 9 --out "$TMP/cond.csv"
for k in "scheme: dr" "link12: delay 150ms 20ms" "link21: delay 75ms 10ms distribution paretonormal" \
    "delta_ms: 120" "tdr_cw: 0.5" "converge_ms: 0" "seed: 9"; do
    grep -q "^# $k$" "$TMP/cond.csv" && ok || ko "play's recording lacks '# $k'"
done
if grep -q "^# study:" "$TMP/cond.csv"; then ko "play's recording claims a study"; else ok; fi
# The live race and the replay of its recording with the header's links and
# seed give the same metrics (one runtime): the shown scheme's inconsistency.
seed=$(sed -n 's/^# seed: //p' "$TMP/s1/race-003.csv")
live=$(grep '^example,1,3,D,rated,causality,1,inconsistency_rate,' "$TMP/s1/metrics.csv" | cut -d, -f9)
"$NR" replay "$TMP/s1/race-003.csv" --headless --csv --schemes causality --seed "$seed" \
    --link12 "delay 200ms 30ms distribution paretonormal" --link21 "delay 75ms 10ms distribution paretonormal" \
    >"$TMP/replay3.csv"
col=$(head -1 "$TMP/replay3.csv" | tr , '\n' | grep -n '^inconsistency_rate$' | cut -d: -f1)
replayed=$(sed -n 2p "$TMP/replay3.csv" | cut -d, -f"$col")
# (replay's CSV prints 6 decimals)
if [ -n "$live" ] && awk -v a="$live" -v b="$replayed" 'BEGIN { exit !(a - b <= 5e-7 && b - a <= 5e-7) }'; then ok; else
    ko "race 3: live inconsistency $live, replay $replayed"; fi

same_session() { # DIR DESCRIPTION: DIR holds exactly what the uninterrupted s1 holds
    local f bad=""
    for f in "$TMP"/s1/*; do cmp -s "$f" "$1/$(basename "$f")" || bad="$bad $(basename "$f")"; done
    if [ -z "$bad" ]; then ok; else ko "$2: differs from the uninterrupted session:$bad"; fi
}
# Killed between two races (--stop-after), then resumed.
expect 0 "study stopped after race 3" -- "$NR" study "$SP" --pair 1 --out "$TMP/r1" --headless \
    --ratings "$TMP/ans1.csv" --stop-after 3
stdout_has "stopped after race 3 of 6 \(--resume continues at race 4\)" "stop-after says where to go on"
[ ! -e "$TMP/r1/race-004.csv" ] && ok || ko "stop-after 3 drove race 4"
expect 0 "study resumed after a stop" -- "$NR" study "$SP" --pair 1 --out "$TMP/r1" --headless \
    --ratings "$TMP/ans1.csv" --resume
same_session "$TMP/r1" "resume after a stop between races"
# Stopped in the middle of race 4's ratings (the answers end there).
grep -v '^4,2,fairness' "$TMP/ans1.csv" >"$TMP/ans1-cut.csv"
expect 1 "study with an answer missing" -- "$NR" study "$SP" --pair 1 --out "$TMP/r2" --headless \
    --ratings "$TMP/ans1-cut.csv"
stderr_has "ans1-cut.csv: no answer for race 4, player 2, question fairness" "missing answer named"
if [ "$(wc -l <"$TMP/r2/ratings.csv")" -eq $((1 + 2 * 8 + 5)) ]; then ok; else
    ko "mid-rating stop: every answer before the missing one kept"; fi
expect 0 "study resumed mid-rating" -- "$NR" study "$SP" --pair 1 --out "$TMP/r2" --headless \
    --ratings "$TMP/ans1.csv" --resume
stdout_has "^race 5 of 6" "resume mid-rating: race 4 not driven again"
if grep -q '^race 4 of 6' "$TMP/out"; then ko "resume mid-rating drove race 4 again"; else ok; fi
same_session "$TMP/r2" "resume in the middle of a race's ratings"
# A race killed half way leaves race-005.csv.part: kept aside, never overwritten.
expect 0 "study stopped after race 4" -- "$NR" study "$SP" --pair 1 --out "$TMP/r3" --headless \
    --ratings "$TMP/ans1.csv" --stop-after 4
printf '# netrace-recording: 1\nhalf a race\n' >"$TMP/r3/race-005.csv.part"
printf 'example,1,1,5,B,ra' >>"$TMP/r3/ratings.csv" # an answer cut by the kill: never whole, dropped
expect 0 "study resumed after a killed race" -- "$NR" study "$SP" --pair 1 --out "$TMP/r3" --headless \
    --ratings "$TMP/ans1.csv" --resume
stderr_has "race 5 did not finish; kept its .csv.part as .*race-005.aborted-1.csv.part" "the killed race is kept"
if [ "$(cat "$TMP/r3/race-005.aborted-1.csv.part")" = "$(printf '# netrace-recording: 1\nhalf a race')" ]; then ok; else
    ko "the killed race's file changed"; fi
rm "$TMP/r3/race-005.aborted-1.csv.part"
same_session "$TMP/r3" "resume after a race killed half way"
# A new session never writes into a used folder; resume checks pair and plan.
expect 2 "study into a used folder" -- "$NR" study "$SP" --pair 1 --out "$TMP/s1" --headless --ratings "$TMP/ans1.csv"
stderr_has "exists and is not an empty folder" "used folder: said so"
expect 1 "study resume with another pair" -- "$NR" study "$SP" --pair 2 --out "$TMP/s1" --headless \
    --ratings "$TMP/ans2.csv" --resume
stderr_has "not the session of pair 2" "resume: another pair refused"
sed 's/^seed 7/seed 8/' "$SP" >"$TMP/changed.study"
expect 1 "study resume with a changed plan" -- "$NR" study "$TMP/changed.study" --pair 1 --out "$TMP/s1" \
    --headless --ratings "$TMP/ans1.csv" --resume
stderr_has "differs from the one the session began with" "resume: a changed plan refused"
sed 's/^track default.track/track nowhere.track/' "$SP" >"$TMP/notrack.study"
expect 1 "study with a missing track" -- "$NR" study "$TMP/notrack.study" --pair 1 --out "$TMP/r6" --headless \
    --ratings "$TMP/ans1.csv"
stderr_has "notrack.study:[0-9]+: condition P: track nowhere.track not found" "missing track named before racing"
[ ! -e "$TMP/r6" ] && ok || ko "a session with a missing track created its folder"
printf '2,1,operability,4\n1,1,operability,4\n' >"$TMP/ans-practice.csv"
expect 1 "study answers for a practice race" -- "$NR" study "$SP" --pair 1 --out "$TMP/r4" --headless \
    --ratings "$TMP/ans-practice.csv"
stderr_has "race 1, a practice race" "answers for a practice race refused"
# An input script drives player 1 (play's --p1 script:FILE): its inputs come back in every race's inputs file.
printf 't_ms,player,throttle,brake,steer\n0,1,0.5,0,0\n' >"$TMP/study-p1.inputs"
answers 3 >"$TMP/ans3.csv"
expect 0 "study with a script player" -- "$NR" study "$SP" --pair 3 --out "$TMP/r7" --headless \
    --ratings "$TMP/ans3.csv" --p1 "script:$TMP/study-p1.inputs" --stop-after 2
grep -q '^0,1,0.5,0,0$' "$TMP/r7/race-002.inputs.csv" && ok || ko "the script's input is not in race 2's inputs"
unset SOURCE_DATE_EPOCH

# The report of both pairs against the hand computation above: each
# condition's scores base+1, base, base, base-1 -> MOS = base, sd =
# sqrt(2/3) = 0.82, half = t(0.975, 3) 3.182 * 0.8165 / 2 = 1.30, the
# interval clipped to the scale 1..5 (A: 4 + 1.30 -> 5; D: 2 - 1.30 -> 1).
expect 0 "study --report of two pairs" -- "$NR" study --report "$TMP/s1" "$TMP/s2" --csv "$TMP/report.csv" \
    --plot "$TMP/report.png"
stdout_has "^study example: 2 sessions, 80 answers" "report: sessions and answers"
stdout_has "^A +nc +operability +4 +4\.00 +0\.82 +\[2\.70, 5\.00\]" "report: MOS of A by hand"
stdout_has "^D +causality +overall +4 +2\.00 +0\.82 +\[1\.00, 3\.30\]" "report: MOS of D by hand"
grep -q '^example,A,operability,ci95_high,5,4$' "$TMP/report.csv" && ok || ko "report CSV: A's interval clipped at 5"
stdout_has "^C +dr +acceptable +4 +1\.00 +0\.00 +\[1\.00, 1\.00\]" "report: C always acceptable"
# the repeat: 4 answers per question, one operability answer 1 off
stdout_has "^  operability +n +4 +mean \|difference\| 0\.25 +identical 75 %" "report: repeat agreement"
stdout_has "^  fairness +n +4 +mean \|difference\| 0\.00 +identical 100 %" "report: repeat identical"
grep -q '^example,B,overall,mos,3,4$' "$TMP/report.csv" && ok || ko "report CSV: MOS of B"
# bots mark nothing: 0 marks in each of A's 4 player-races
stdout_has "^  A +n +4 +mean 0\.00 +95% interval \[0\.00, 0\.00\]" "report: marks per player and race"
grep -q '^example,A,,marks_per_race,0,4$' "$TMP/report.csv" && ok || ko "report CSV: marks of A"
grep -q '^example,A,operability,ci95_low,2\.70' "$TMP/report.csv" && ok || ko "report CSV: interval of A"
is_png "$TMP/report.png" "report plot"
expect 0 "study --report --plot .pdf" -- "$NR" study --report "$TMP/s1" "$TMP/s2" --plot "$TMP/report.pdf"
[ "$(head -c 5 "$TMP/report.pdf")" = "%PDF-" ] && ok || ko "report plot as PDF"
expect 1 "study --report of one folder twice" -- "$NR" study --report "$TMP/s1" "$TMP/r1"
stderr_has "pair 1 is already in another folder" "report: a pair counted twice refused"
expect 1 "study --report of no session" -- "$NR" study --report "$TMP"
stderr_has "plan.study" "report: not a session folder"
# A session stopped after its first rated race (B): the other conditions have no answers yet.
SOURCE_DATE_EPOCH=0 "$NR" study "$SP" --pair 1 --out "$TMP/r5" --headless --ratings "$TMP/ans1.csv" --stop-after 2 \
    >/dev/null 2>&1
expect 0 "study --report of a session just begun" -- "$NR" study --report "$TMP/r5"
stdout_has "^A +nc +operability +0 +NA +NA +\[NA, NA\]" "report: no answers yet is NA, not nan"
stdout_has "^B +nc +operability +2 +3\.50 +0\.71 " "report: B's two answers (4 and 3)"
expect 2 "study --report --plot not PNG" -- "$NR" study --report "$TMP/s1" --plot "$TMP/r.jpg"
