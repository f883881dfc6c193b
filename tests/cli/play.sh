# netrace play: the headless race against the replay of its recording (the
# same --series bytes), the recorded inputs re-simulating the race, usage
# errors, scripts, and the game's window on SDL's dummy driver.
# Sourced by tests/test_cli.sh (uses expect, stderr_has, stdout_has, $NR, $TMP).

# A script for player 1: full throttle, a little left, a lift, then right.
cat >"$TMP/p1.inputs" <<'EOF'
t_ms,player,throttle,brake,steer
# player 1 only
0,1,1,0,0
2000,1,1,0,0.15
3000,1,0.6,0,0
4500,1,1,0,-0.1
EOF
printf 't_ms,player,throttle,brake,steer\n0,1,0,0,0\n0,2,0,0,0\n' >"$TMP/idle.inputs"
LINK='delay 120ms 30ms distribution paretonormal loss 1%'

# Live race vs the replay of its recording: the same links and seed give the
# same --series bytes (DESIGN.md: a live race and the replay of its recording
# give the same metrics bit for bit).
expect 0 "play --headless script vs bot" -- env SOURCE_DATE_EPOCH=0 "$NR" play --headless --p1 "script:$TMP/p1.inputs" \
    --p2 bot --seconds 8 --out "$TMP/live.csv" --series "$TMP/live-series.csv" --link12 "$LINK" --seed 4
stdout_has "^finish: car [12] first \(truth\)" "headless play names the winner"
stderr_has "^wrote .*/live.csv$" "headless play announces its recording"
stderr_has "^wrote .*/live.inputs.csv$" "and its inputs"
stdout_has "^nc " "headless play prints replay's table"
expect 0 "replay of the driven race" -- "$NR" replay "$TMP/live.csv" --headless --series "$TMP/replay-series.csv" \
    --link12 "$LINK" --seed 4
if cmp -s "$TMP/live-series.csv" "$TMP/replay-series.csv" && [ "$(wc -l <"$TMP/live-series.csv")" -gt 1000 ]; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL: play --headless and replay of its recording give different --series"
fi
# the same through the table: replay's and play's rows agree
"$NR" play --headless --p1 "script:$TMP/p1.inputs" --p2 bot --seconds 8 --out none --link12 "$LINK" --seed 4 \
    | grep -E '^(nc|dr|causality) ' >"$TMP/live-table"
"$NR" replay "$TMP/live.csv" --headless --link12 "$LINK" --seed 4 | grep -E '^(nc|dr|causality) ' >"$TMP/replay-table"
if cmp -s "$TMP/live-table" "$TMP/replay-table" && [ -s "$TMP/live-table" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: play and replay tables differ"; fi

# A first-time player who drives 3 s and stops on the track (issue 22's
# trial): the bot behind gets round and finishes first. It used to take its
# climb out of backing up for being stuck, back up again, and reverse round
# the track until the race's 600 s ran out.
expect 0 "play --headless: the bot gets round a stopped player" -- "$NR" play --headless \
    --p1 "script:tests/data/stop-on-track.inputs.csv" --p2 bot --laps 1 --out none
stdout_has "^finish: car 2 first \(truth\)" "the bot finishes ahead of the stopped player"

# Issue 13 item 6 in play: a link script changes the links at race times in
# the live race exactly as in the replay of its recording.
printf '# lag spike, then an outage\n3 12 delay 300ms 20ms\n5 both loss 100%%\n6 both delay 50ms\n' >"$TMP/play.script"
expect 0 "play --headless with a link script" -- "$NR" play --headless --p1 "script:$TMP/p1.inputs" --p2 bot \
    --seconds 8 --out "$TMP/scripted.csv" --series "$TMP/scripted-live.csv" --link12 "$LINK" --seed 4 \
    --link-script "$TMP/play.script"
stdout_has "^script: at 5 s link 12\+21: loss 100%" "headless play lists the script's changes"
expect 0 "replay with the same link script" -- "$NR" replay "$TMP/scripted.csv" --headless --seed 4 \
    --series "$TMP/scripted-replay.csv" --link12 "$LINK" --link-script "$TMP/play.script"
if cmp -s "$TMP/scripted-live.csv" "$TMP/scripted-replay.csv" && ! cmp -s "$TMP/scripted-live.csv" \
    "$TMP/live-series.csv"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: play --link-script and replay --link-script differ (or the script did nothing)"; fi
# The outage by hand: 33 ms samples at k * 33 ms in [5 s, 6 s) are k = 152..181,
# 30 samples; NC sends every one, and a lossless 50 ms link loses no other.
expect 0 "an outage loses exactly its samples" -- "$NR" play --headless --p1 bot --p2 bot --seconds 8 --out none \
    --link12 "delay 50ms" --link21 "delay 50ms" --link-script "$TMP/play.script" --schemes nc
stdout_has "^nc( +[-0-9.]+){6} +30 +30 " "NC lost 30 MUs each way in the 1 s outage"
printf '2 12 delay fast\n' >"$TMP/bad-play.script"
expect 1 "play with a bad link script" -- "$NR" play --headless --p1 bot --p2 bot --out none \
    --link-script "$TMP/bad-play.script"
stderr_has "bad-play.script:1" "a bad script line is named"

# The recording: source, period, cars; the inputs beside it.
expect 0 "info on the driven race" -- "$NR" info "$TMP/live.csv"
stdout_has "^source: autopilot" "a race without a person is source autopilot"
stdout_has "^complete: yes" "the recording was finalised"
if [ -f "$TMP/live.inputs.csv" ] && [ ! -e "$TMP/live.csv.part" ] && head -1 "$TMP/live.inputs.csv" |
    grep -q '^t_ms,player,throttle,brake,steer$'; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: the inputs file is written beside the recording"; fi

# The recorded inputs re-simulate the race bit for bit.
expect 0 "re-simulated from its inputs" -- env SOURCE_DATE_EPOCH=0 "$NR" play --headless \
    --p1 "script:$TMP/live.inputs.csv" --p2 "script:$TMP/live.inputs.csv" --seconds 8 --out "$TMP/again.csv" \
    --link12 "$LINK" --seed 4
if cmp -s "$TMP/live.csv" "$TMP/again.csv"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: the recorded inputs do not re-simulate the same race"; fi

# Laps: the race runs until both cars finish (as the terminals see it).
expect 0 "bots race one lap" -- "$NR" play --headless --p1 bot --p2 bot --laps 1 --out none --schemes dr --csv
stdout_has "^scheme,delay12_ms" "--csv prints the sweep's header"
stdout_has "^dr," "--csv prints the scheme's row"

# Usage errors: one line naming the flag, exit 2.
expect 2 "--p1 unknown" -- "$NR" play --headless --p1 frob --p2 bot
stderr_has "--p1 'frob': expected keys, pad, bot or script:FILE" "bad player named"
expect 2 "play mistyped flag" -- "$NR" play --wach
stderr_has "did you mean --watch" "play suggests the flag meant"
expect 2 "--headless with a keyboard player" -- "$NR" play --headless --p1 keys --p2 bot
stderr_has "--headless races bots and scripts" "headless needs bots"
expect 2 "--scheme unknown" -- "$NR" play --headless --p1 bot --p2 bot --scheme frob
stderr_has "--scheme 'frob' is not a scheme" "unknown scheme named"
expect 2 "--laps 0" -- "$NR" play --headless --p1 bot --p2 bot --laps 0
expect 2 "--series without --headless" -- "$NR" play --p1 bot --p2 bot --series "$TMP/x.csv"
stderr_has "go with --headless" "--series needs --headless"
expect 2 "--link12 bad" -- "$NR" play --headless --p1 bot --p2 bot --link12 "delay fast"
stderr_has "--link12" "bad link named"
expect 2 "--out exists" -- "$NR" play --headless --p1 bot --p2 bot --seconds 2 --out "$TMP/live.csv"
stderr_has "exists \(not overwritten" "an existing recording is not overwritten"
expect 2 "--skill out of range" -- "$NR" play --headless --p1 bot --p2 bot --skill 2
expect 2 "--skill below the novice" -- "$NR" play --headless --p1 bot --p2 bot --skill -1.01
stderr_has "--skill: expected a number from -1 to 1" "--skill's range said"
expect 0 "--skill -1: the novice races" -- "$NR" play --headless --p1 bot --p2 bot --skill -1 --seconds 2 --out none
# Scripts: a missing file, a bad line, no line for the player.
expect 1 "script missing" -- "$NR" play --headless --p1 "script:$TMP/nope.inputs" --p2 bot --out none
stderr_has "nope.inputs" "missing script named"
printf 't_ms,player,throttle,brake,steer\n0,1,1,0,0\n10,1,2,0,0\n' >"$TMP/bad.inputs"
expect 1 "script bad line" -- "$NR" play --headless --p1 "script:$TMP/bad.inputs" --p2 bot --out none
stderr_has "bad.inputs:3:" "bad script line named with its number"
expect 1 "script without the player's lines" -- "$NR" play --headless --p1 bot --p2 "script:$TMP/p1.inputs" --out none
stderr_has "no line for player 2" "a script without the player's lines named"

# The window: no display, one line; on the dummy driver --bench-frames runs
# the game loop (bots racing) and reports frame times; without assets the
# cars are plain shapes, one line per missing file.
expect 1 "play without a display" -- env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER "$NR" play --p1 bot --p2 bot --out none
stderr_has "no display" "missing display named"
mkdir -p "$TMP/playshots"
expect 0 "play window loop on the dummy driver" -- env SDL_VIDEODRIVER=dummy timeout 120 "$NR" play --p1 bot --p2 bot \
    --bench-frames 40 --size 640x360 --out "$TMP/bench.csv" --shots "$TMP/playshots" --watch
stdout_has "^bench: 40 frames, play: 2 driving screens \(scheme nc\), 640x360 \+ overview of [0-9]+ schemes" "bench line"
stdout_has "p50 [0-9.]+ ms, p99 [0-9.]+ ms" "bench prints p50 and p99"
if ls "$TMP/playshots"/netrace-play-*.png >/dev/null 2>&1; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: --shots saves the last bench frame of play"; fi
expect 0 "the bench race's recording" -- "$NR" info "$TMP/bench.csv"
stdout_has "^complete: yes" "the window's recording is finalised on exit"
expect 0 "play without assets" -- env SDL_VIDEODRIVER=dummy timeout 120 "$NR" play --p1 bot --p2 bot --bench-frames 5 \
    --assets "$TMP/no-assets" --out none
stderr_has "asset .*car1.png not found.*plain shapes" "a missing sprite named"
# Issue 22: the camera's orientation and the sound, from flags; the window
# loop runs with both (the dummy audio driver plays the sound nowhere).
expect 2 "--camera sideways" -- "$NR" play --p1 bot --p2 bot --camera sideways --out none
stderr_has "--camera 'sideways': expected north or rotate" "a bad --camera named"
expect 0 "play with --camera rotate --mute" -- env SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy timeout 120 "$NR" play \
    --p1 bot --p2 bot --bench-frames 5 --camera rotate --mute --out none
expect 0 "play with sound on the dummy audio driver" -- env SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy timeout 120 \
    "$NR" play --p1 bot --p2 bot --bench-frames 5 --out none
if grep -qiE "alsa|sound" "$TMP/err"; then fail=$((fail + 1)); echo "FAIL: a word about sound with a device"; else
    pass=$((pass + 1)); fi
# SDL's own choice of driver: on a machine without sound (this one) nothing
# is opened and nothing printed (ALSA's library would print its failure)
expect 0 "play with the system's audio driver" -- env -u SDL_AUDIODRIVER SDL_VIDEODRIVER=dummy timeout 120 \
    "$NR" play --p1 bot --p2 bot --bench-frames 5 --out none
if grep -qE "^ALSA" "$TMP/err"; then fail=$((fail + 1)); echo "FAIL: ALSA's failure printed"; else
    pass=$((pass + 1)); fi
printf 'p1.throttle W\np1.jump Space\n' >"$TMP/keys.conf"
expect 1 "key map with a bad line" -- env SDL_VIDEODRIVER=dummy timeout 60 "$NR" play --p1 keys --p2 bot \
    --bench-frames 2 --keys "$TMP/keys.conf" --out none
stderr_has "keys.conf:2: unknown action 'p1.jump'" "bad key map line named with its number"

# assets/ is what tools/make_assets draws, byte for byte.
MA="$(dirname "$NR")/tools/make_assets"
if [ -x "$MA" ]; then
    mkdir -p "$TMP/assets"
    expect 0 "make_assets" -- "$MA" "$TMP/assets"
    for f in car1.png car2.png car3.png car4.png icon.png; do
        if cmp -s "$TMP/assets/$f" "assets/$f"; then pass=$((pass + 1)); else
            fail=$((fail + 1)); echo "FAIL: assets/$f is not tools/make_assets' output"; fi
    done
fi

# A race nobody finishes still ends (laps x 600 s of race time).
expect 0 "a race nobody drives ends" -- "$NR" play --headless --p1 "script:$TMP/idle.inputs" \
    --p2 "script:$TMP/idle.inputs" --laps 1 --out none --schemes nc
stdout_has "^race: .*\(600\.0 s" "the stopped race ends at 600 s"

# SIGTERM mid-race (SDL turns it into a quit): the recording is finalised.
# The signal is sent once the race is being recorded (the .part exists).
env SDL_VIDEODRIVER=dummy "$NR" play --p1 bot --p2 bot --bench-frames 1000000 --size 320x200 \
    --out "$TMP/term.csv" >"$TMP/out" 2>"$TMP/err" &
pid=$!
for _ in $(seq 1 300); do
    [ -e "$TMP/term.csv.part" ] && break
    sleep 0.1
done
sleep 0.5
kill -TERM "$pid" 2>/dev/null
wait "$pid"
code=$?
if [ "$code" -eq 0 ] && [ -f "$TMP/term.csv" ] && [ ! -e "$TMP/term.csv.part" ] && [ -f "$TMP/term.inputs.csv" ]; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: SIGTERM mid-race leaves the recording finalised (exit $code)"; fi
expect 0 "the recording cut by SIGTERM" -- "$NR" info "$TMP/term.csv"
stdout_has "^complete: yes" "cut recording reads complete"

# A gamepad mapping file with a bad line: named with its line, exit 1.
printf '# mappings\n03000000aaaa0000bbbb000000000000,Lab Wheel,a:b0,leftx:a0,platform:Linux,\nnot a mapping\n' \
    >"$TMP/pads.txt"
expect 1 "bad pad mappings" -- env SDL_VIDEODRIVER=dummy timeout 60 "$NR" play --p1 pad --p2 bot --bench-frames 2 \
    --pad-mappings "$TMP/pads.txt" --out none
stderr_has "pads.txt:3: not a gamepad mapping" "bad mapping line named"

# Issue 22 trial: play's usage (printed on a usage error) lacked --shots and
# --assets that `netrace help play` describes: every flag of the help's own
# lines is in the usage
"$NR" play --no-such-flag 2>"$TMP/play-usage" >/dev/null
missing=""
for f in $("$NR" help play | awk '/^Keys:/ { exit } /^  --/ { p = 1 } p' | grep -o -- '--[a-z0-9][a-z0-9-]*[a-z0-9]\b' |
    sort -u); do
    grep -q -- "$f[] |]" "$TMP/play-usage" || missing="$missing $f"
done
if [ -z "$missing" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: play's usage lacks:$missing"; fi
