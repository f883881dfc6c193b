#!/usr/bin/env bash
# Wall time of the default sweep (every point x 10 seeds x 4 schemes), best of N.
# usage: bench/sweep.sh [BUILD_DIR] [N]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
n=${2:-5}
best=""
for _ in $(seq "$n"); do
    s=$(date +%s.%N)
    "./$build/netrace" sweep >/dev/null
    e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
done
tmp=$(mktemp)
"./$build/netrace" sweep --out "$tmp" >/dev/null
rows=$(($(wc -l <"$tmp") - 1))
rm -f "$tmp"
printf 'default sweep: %s scheme-runs, best of %s: %.3f s wall on %s cores\n' "$rows" "$n" "$best" "$(nproc)"
