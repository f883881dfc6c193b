# netrace autopilot: sourced by tests/test_cli.sh (uses expect, stderr_has,
# stdout_has, $NR, $TMP; the working directory is the source tree).
printf 'netrace-track 1\nname x\nwidth 4\npoint 0 0\npoint 100 0\n' >"$TMP/few.track"

# --- autopilot
# The bundled races and their documented commands (docs/formats.md).
regen() { # NAME -- autopilot flags...
    local name=$1
    shift 2
    expect 0 "autopilot regenerates recordings/$name.csv" -- env SOURCE_DATE_EPOCH=0 "$NR" autopilot --seconds 30 "$@" --out "$TMP/re-$name.csv"
    expect 0 "regenerated $name.csv is bit-for-bit the shipped one" -- cmp "$TMP/re-$name.csv" "recordings/$name.csv"
}
regen default -- --seed 168
regen close -- --seed 26
regen pullaway -- --seed 7 --skill 0.8,1 --noise 0.3
regen typical -- --seed 17
regen four -- --seed 10 --cars 4
# --inputs: the inputs of every car, an input script (header, players 1 and 2 from t = 0)
expect 0 "autopilot writes the inputs" -- env SOURCE_DATE_EPOCH=0 "$NR" autopilot --seconds 1 --seed 5 --out "$TMP/in-rec.csv" --inputs "$TMP/in.csv"
stderr_has "^wrote .*/in.csv$" "autopilot announces the inputs file too"
expect 0 "inputs header" -- grep -qx "t_ms,player,throttle,brake,steer" "$TMP/in.csv"
expect 0 "inputs of player 1 at 0 ms" -- grep -q "^0,1," "$TMP/in.csv"
expect 0 "inputs of player 2 at 0 ms" -- grep -q "^0,2," "$TMP/in.csv"
expect 0 "no inputs after the race" -- awk -F, 'NR > 1 && $1 > 1000 { exit 1 }' "$TMP/in.csv"
expect 2 "autopilot --inputs same as --out" -- "$NR" autopilot --seconds 1 --seed 1 --out "$TMP/same.csv" --inputs "$TMP/same.csv"
stderr_has "both name" "autopilot names the clash of --out and --inputs"
expect 2 "autopilot --inputs empty" -- "$NR" autopilot --seconds 1 --seed 1 --out "$TMP/x.csv" --inputs ""
printf 'crashed race\n' >"$TMP/in2.csv.part"
expect 1 "autopilot refuses to clobber the inputs' .part" -- "$NR" autopilot --seconds 1 --seed 1 --out "$TMP/y.csv" --inputs "$TMP/in2.csv"
stderr_has "in2.csv.part: cannot create" "autopilot names the inputs' .part file"
expect 1 "no recording when the inputs cannot be written" -- test -e "$TMP/y.csv"
expect 0 "autopilot from another directory" -- env -C "$TMP" SOURCE_DATE_EPOCH=0 "$NR" autopilot --seconds 2 --seed 9 --out "$TMP/short.csv" --skill 0.5,1 --noise 0.2
expect 0 "info on a short autopilot race" -- "$NR" info "$TMP/short.csv"
stdout_has "^samples: 61$" "2 s race has 61 samples"
expect 2 "autopilot without flags" -- "$NR" autopilot
stderr_has "--seconds, --seed and --out are required" "autopilot names required flags"
expect 2 "autopilot bad seconds" -- "$NR" autopilot --seconds abc --seed 1 --out "$TMP/x.csv"
stderr_has "--seconds: expected a number" "autopilot names the bad flag"
expect 2 "autopilot bad seed" -- "$NR" autopilot --seconds 1 --seed -1 --out "$TMP/x.csv"
expect 2 "autopilot skill out of range" -- "$NR" autopilot --seconds 1 --seed 1 --skill 2 --out "$TMP/x.csv"
stderr_has "--skill: expected a number from -1 to 1" "autopilot skill range"
expect 2 "autopilot too many cars" -- "$NR" autopilot --seconds 1 --seed 1 --cars 9 --out "$TMP/x.csv"
stderr_has "--cars: expected a whole number from 1 to 8" "autopilot cars beyond 8"
expect 2 "autopilot unknown flag" -- "$NR" autopilot --seconds 1 --seed 1 --out "$TMP/x.csv" --turbo
expect 2 "autopilot bad SOURCE_DATE_EPOCH" -- env SOURCE_DATE_EPOCH=yesterday "$NR" autopilot --seconds 1 --seed 1 --out "$TMP/x.csv"
stderr_has "SOURCE_DATE_EPOCH" "autopilot names SOURCE_DATE_EPOCH"
expect 1 "autopilot bad track" -- "$NR" autopilot --seconds 1 --seed 1 --out "$TMP/x.csv" --track "$TMP/few.track"
stderr_has "few.track:5:" "autopilot reports the track's line"
expect 1 "autopilot unwritable output" -- "$NR" autopilot --seconds 1 --seed 1 --out "$TMP/no/dir/x.csv"
stderr_has "cannot create" "autopilot says it cannot create"
printf 'crashed race\n' >"$TMP/keep.csv.part"
expect 1 "autopilot refuses to clobber a .part file" -- "$NR" autopilot --seconds 1 --seed 1 --out "$TMP/keep.csv"
stderr_has "keep.csv.part: exists" "autopilot names the .part file"
expect 0 ".part file kept intact" -- grep -q "crashed race" "$TMP/keep.csv.part"
