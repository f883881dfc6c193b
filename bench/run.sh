#!/usr/bin/env bash
# Every benchmark on a release build (-O3, LTO), as quoted in the README.
# usage: bench/run.sh [--frames]   (--frames also times the window under Xvfb)
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-release
[ -f "$build/build.ninja" ] || meson setup "$build" --buildtype=release -Db_lto=true -Dtests=false >/dev/null
ninja -C "$build" >/dev/null
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "== engine throughput (race-seconds per CPU-second, one scheme per run)"
"./$build/bench/bench_engine" recordings/default.csv tracks/default.track 2000
echo "== default sweep"
bash bench/sweep.sh "$build" 5
echo "== link emulator"
"./$build/bench/bench_link"
echo "== car physics (two cars)"
"./$build/bench/bench_physics"
echo "== the bot's lap by skill (one bot alone, the second lap)"
"./$build/bench/bench_skill"
echo "== network terminal's own processing (no sockets)"
"./$build/bench/bench_netplay"
echo "== track worst cases (long, wide circle; points at its centre)"
"./$build/bench/bench_track"
if [ "${1:-}" = "--frames" ]; then
    echo "== window frame times (Xvfb, software renderer)"
    Xvfb :97 -screen 0 1920x1080x24 >/dev/null 2>&1 &
    xpid=$!
    sleep 1
    for schemes in racing all; do
        DISPLAY=:97 "./$build/netrace" replay --schemes "$schemes" --bench-frames 1000 --size 1280x720 | grep '^bench'
    done
    # every screen's lagometer on (issue 22: p99 at most 8 ms on a quiet machine)
    DISPLAY=:97 "./$build/netrace" replay --schemes all --lagometer --bench-frames 1000 --size 1280x720 | grep '^bench'
    kill "$xpid"
fi
