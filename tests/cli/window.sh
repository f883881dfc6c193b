# netrace replay's window flags and --snapshot: PNGs of the requested size
# without a display, one-line errors for bad flags, the table when no window.
# Sourced by tests/test_cli.sh (uses expect, stderr_has, stdout_has, $NR, $TMP).

expect 0 "autopilot race for the window tests" -- "$NR" autopilot --seconds 4 --seed 3 --out "$TMP/win.csv"

expect 0 "replay --snapshot" -- env -u DISPLAY -u WAYLAND_DISPLAY "$NR" replay "$TMP/win.csv" \
    --snapshot 1.5 "$TMP/a.png" --snapshot 0.5 "$TMP/b.png" --size 640x360
stderr_has "wrote .*a.png \(snapshot at t = 1\.485 s, 640x360\)" "replay reports the first snapshot"
stdout_has "^nc " "replay --snapshot still prints the gauge table"
if [ "$(head -c 8 "$TMP/a.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] &&
    [ "$(od -An -tx1 -j16 -N8 "$TMP/b.png" | tr -d ' \n')" = "0000028000000168" ]; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL: snapshots are PNGs of 640x360 (IHDR width 0x280, height 0x168)"
fi

# the lagometer drawn into a snapshot: a picture other than the plain one
expect 0 "replay --snapshot --lagometer" -- env -u DISPLAY -u WAYLAND_DISPLAY "$NR" replay "$TMP/win.csv" \
    --snapshot 1.5 "$TMP/lag.png" --size 640x360 --lagometer
if [ -s "$TMP/lag.png" ] && ! cmp -s "$TMP/lag.png" "$TMP/a.png"; then pass=$((pass + 1)); else
    fail=$((fail + 1))
    echo "FAIL: --lagometer changes the snapshot"
fi

expect 2 "--size without x" -- "$NR" replay "$TMP/win.csv" --headless --size 640
stderr_has "--size '640': expected WIDTHxHEIGHT" "bad --size named"
expect 2 "--size too small" -- "$NR" replay "$TMP/win.csv" --headless --size 10x10
expect 2 "--snapshot without a file" -- "$NR" replay "$TMP/win.csv" --snapshot 1
stderr_has "--snapshot takes a race time" "--snapshot arguments named"
expect 2 "--snapshot negative time" -- "$NR" replay "$TMP/win.csv" --snapshot -1 "$TMP/c.png"
expect 1 "--snapshot unwritable" -- "$NR" replay "$TMP/win.csv" --snapshot 1 "$TMP/no/such/dir/c.png"
stderr_has "no/such/dir/c.png" "unwritable snapshot path named"
expect 2 "--speed out of range" -- "$NR" replay "$TMP/win.csv" --headless --speed 20
expect 2 "--bench-frames 0" -- "$NR" replay "$TMP/win.csv" --bench-frames 0
expect 2 "--bench-frames with --headless" -- "$NR" replay "$TMP/win.csv" --headless --bench-frames 5
stderr_has "drop --headless" "--bench-frames needs the window"
expect 2 "--focus unknown scheme" -- "$NR" replay "$TMP/win.csv" --focus frobnicate
stderr_has "--focus 'frobnicate'" "unknown focus named"

# No display: one line says so and the headless table follows (exit 0).
expect 0 "replay without a display" -- env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER "$NR" replay "$TMP/win.csv"
stderr_has "no display.*no window" "missing display named"
stdout_has "^causality " "table printed without a display"
if [ "$(wc -l <"$TMP/err")" -eq 1 ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: one stderr line without a display"; fi
# The dummy driver shows nothing: no window either, never a hang.
expect 0 "replay on the dummy video driver" -- env SDL_VIDEODRIVER=dummy timeout 20 "$NR" replay "$TMP/win.csv"
stderr_has "shows nothing" "invisible video driver named"

# A missing font: one line, the snapshot is still written.
expect 0 "snapshot without a font" -- env NETRACE_FONT=/nonexistent.ttf "$NR" replay "$TMP/win.csv" \
    --snapshot 1 "$TMP/nofont.png" --size 320x200
stderr_has "font" "missing font named"
if [ -s "$TMP/nofont.png" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: snapshot written without a font"; fi

# The window loop itself on SDL's dummy video driver: --bench-frames renders,
# prints its statistics and (with --shots) saves the last frame.
mkdir -p "$TMP/shots"
expect 0 "window loop on the dummy driver" -- env SDL_VIDEODRIVER=dummy timeout 60 "$NR" replay "$TMP/win.csv" \
    --bench-frames 5 --shots "$TMP/shots" --size 800x450
stdout_has "^bench: 5 frames, overview of [0-9]+ schemes, 800x450" "bench names frames and size"
stdout_has "p50 [0-9.]+ ms, p99 [0-9.]+ ms" "bench prints p50 and p99"
stdout_has "CPU [0-9.]+ ms/frame" "bench prints CPU per frame"
if ls "$TMP/shots"/netrace-*.png >/dev/null 2>&1; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: --shots saves the last bench frame"; fi
