#!/usr/bin/env bash
# The N-player experiment of docs/nplayers.md: for 2 and 4 players, the
# inconsistency rate and the fairness spread against the mean delay of
# every line out of terminal 1 (25-200 ms, jitter 10 ms, pareto-normal; the
# other lines 75 ms 10 ms), for the racing paper's four schemes, over p2p,
# cs relay and cs sync side by side (the server's downlinks 0 ms, so a path
# through the server costs what the sender's uplink costs, as a p2p line).
# Writes OUTDIR/{2,4}.{csv,png,txt}.
#   bash bench/nplayers_experiment.sh [BUILD] [OUTDIR] [RUNS]
set -euo pipefail
build=${1:-build}
out=${2:-nplayers-experiment}
runs=${3:-10}
mkdir -p "$out"
nr="./$build/netrace"
for n in 2 4; do
    rec=recordings/default.csv
    [ "$n" = 4 ] && rec=recordings/four.csv
    down=()
    for j in $(seq 1 "$n"); do down+=(--link "s-$j" 'delay 0ms'); done
    rm -f "$out/$n.csv" "$out/$n.png"
    "$nr" sweep --recording "$rec" --jitters 10 --runs "$runs" --topology p2p,cs --server relay,sync "${down[@]}" \
        --out "$out/$n.csv" --plot "$out/$n.png" >"$out/$n.txt"
done
