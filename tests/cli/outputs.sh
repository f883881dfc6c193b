# Output files of every command: never replace an input, never a directory,
# never clobber an existing PATH.part. Sourced by tests/test_cli.sh.
O=$TMP/outputs
mkdir -p "$O"
cp recordings/default.csv "$O/in.csv"
cp tracks/default.track "$O/in.track"
cp "$O/in.csv" "$O/in.orig"
cp "$O/in.track" "$O/track.orig"
same_input() { # DESCRIPTION: the inputs are intact and no .part is left
    if cmp -s "$O/in.csv" "$O/in.orig" && cmp -s "$O/in.track" "$O/track.orig" &&
        ! ls "$O"/*.part >/dev/null 2>&1; then pass=$((pass + 1)); else
        fail=$((fail + 1))
        echo "FAIL: $1: an input file changed or a .part was left"
    fi
}
expect 2 "replay --series onto its recording" -- "$NR" replay "$O/in.csv" --headless --series "$O/in.csv"
stderr_has "is the input file" "replay --series onto its recording: message"
same_input "replay --series onto its recording"
expect 2 "replay --series to a directory" -- "$NR" replay "$O/in.csv" --headless --series "$O"
stderr_has "is a directory" "replay --series to a directory: message"
same_input "replay --series to a directory"
expect 2 "sweep --out onto its recording" -- "$NR" sweep --recording "$O/in.csv" --out "$O/in.csv" --runs 1 --delays 10 --jitters 0
stderr_has "is the input file" "sweep --out onto its recording: message"
same_input "sweep --out onto its recording"
expect 2 "epp --out onto a trace" -- "$NR" epp --trace "$O/in.csv" --out "$O/in.csv" --models none --runs 1 --samples 10 --sweep none
stderr_has "is the input file" "epp --out onto a trace: message"
same_input "epp --out onto a trace"
expect 2 "fairness --out onto its recording" -- "$NR" fairness --recording "$O/in.csv" --out "$O/in.csv" --seconds 1 --runs 1
stderr_has "is the input file" "fairness --out onto its recording: message"
same_input "fairness --out onto its recording"
expect 2 "accuracy --out onto its recording" -- "$NR" accuracy --recording "$O/in.csv" --out "$O/in.csv" --seconds 1
stderr_has "is the input file" "accuracy --out onto its recording: message"
same_input "accuracy --out onto its recording"
expect 2 "accuracy --out to a directory" -- "$NR" accuracy --recording "$O/in.csv" --out "$O" --seconds 1
stderr_has "is a directory" "accuracy --out to a directory: message"
expect 2 "autopilot --out onto its track" -- "$NR" autopilot --seconds 1 --seed 1 --track "$O/in.track" --out "$O/in.track"
stderr_has "is the input file" "autopilot --out onto its track: message"
same_input "autopilot --out onto its track"
# An existing OUT.part (a killed run's, or anyone's file) is never truncated.
echo keep >"$O/o.csv.part"
expect 1 "accuracy with OUT.part present" -- "$NR" accuracy --recording "$O/in.csv" --out "$O/o.csv" --seconds 1
stderr_has "o.csv.part exists" "accuracy with OUT.part present: message"
if [ "$(cat "$O/o.csv.part")" = keep ] && [ ! -e "$O/o.csv" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: an existing OUT.part was overwritten"; fi
rm -f "$O/o.csv.part"
expect 0 "replay --series to a new file" -- "$NR" replay "$O/in.csv" --headless --series "$O/s.csv"
if head -1 "$O/s.csv" | grep -q '^scheme,t_ms' && [ ! -e "$O/s.csv.part" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: replay --series did not write s.csv"; fi
rm -rf "$O"
# A special file (a FIFO here; /dev/stdout alike) would be replaced by the
# rename, not written into.
mkdir -p "$O" && mkfifo "$O/fifo"
expect 2 "accuracy --out to a FIFO" -- "$NR" accuracy --out "$O/fifo" --seconds 1
stderr_has "fifo: is not a regular file" "accuracy --out to a FIFO: message"
if [ -p "$O/fifo" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the FIFO was replaced"; fi
rm -rf "$O"

# Finite but absurd values (1e300 cw, 1e308 cw/s) only overflow the simulations
# into nan: every simulating command refuses them with the file, car and time.
printf '# netrace-recording: 1\n# track: default.track\n# period_ms: 33\n# cars: 2\n# source: human\nt_ms,car,x,y,heading,speed\n0,1,0,2,0,0\n0,2,0,-2,0,0\n33,1,1e300,2,0,0\n33,2,0,-2,0,0\n66,1,0,2,0,0\n66,2,0,-2,0,1e308\n' >"$TMP/absurd.csv"
expect 1 "replay of an absurd recording" -- "$NR" replay "$TMP/absurd.csv" --headless
stderr_has "absurd.csv: car 1 at t_ms 33: x = 1e\+300 is out of range" "replay absurd: names car, time, field"
expect 1 "accuracy on an absurd recording" -- "$NR" accuracy --recording "$TMP/absurd.csv"
stderr_has "absurd.csv: car 1 at t_ms 33: x" "accuracy absurd: message"
expect 1 "epp on an absurd trace" -- "$NR" epp --trace "$TMP/absurd.csv" --models none --runs 1 --samples 10 --sweep none
stderr_has "absurd.csv: car 1 at t_ms 33: x" "epp absurd: message"
rm -f "$TMP/absurd.csv"


# PNG outputs (--plot, --snapshot) follow the same rules.
O=$TMP/outputs
mkdir -p "$O"
cp recordings/default.csv "$O/in.csv"
cp "$O/in.csv" "$O/in.orig"
cp tracks/default.track "$O/in.track"
cp "$O/in.track" "$O/track.orig"
expect 2 "sweep --plot onto its recording" -- "$NR" sweep --recording "$O/in.csv" --plot "$O/in.csv" --runs 1 --delays 10 --jitters 0
stderr_has "--plot .*in.csv: is the input file" "sweep --plot onto its recording: message"
same_input "sweep --plot onto its recording"
expect 2 "fairness --plot onto its recording" -- "$NR" fairness --recording "$O/in.csv" --plot "$O/in.csv" --runs 1 --seconds 2
stderr_has "--plot .*in.csv: is the input file" "fairness --plot onto its recording: message"
same_input "fairness --plot onto its recording"
# A snapshot must be named .png (refused before anything else otherwise), so
# the recording is given a .png name to reach the input-file check.
cp "$O/in.csv" "$O/rec.png"
expect 2 "replay --snapshot onto its recording" -- "$NR" replay "$O/rec.png" --snapshot 1 "$O/rec.png"
stderr_has "--snapshot .*rec.png: is the input file" "replay --snapshot onto its recording: message"
cmp -s "$O/rec.png" "$O/in.orig" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: --snapshot replaced its recording"; }
rm -f "$O/rec.png"
expect 2 "replay --snapshot onto its .csv recording" -- "$NR" replay "$O/in.csv" --snapshot 1 "$O/in.csv"
same_input "replay --snapshot onto its recording"
echo keep >"$O/p.png.part"
expect 1 "fairness --plot with OUT.part present" -- "$NR" fairness --recording "$O/in.csv" --plot "$O/p.png" --runs 1 --seconds 2
stderr_has "p.png.part" "fairness --plot with OUT.part present: names it"
if [ "$(cat "$O/p.png.part")" = keep ] && [ ! -e "$O/p.png" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: an existing PNG.part was overwritten"; fi
rm -f "$O/p.png.part"
expect 0 "fairness --plot to a new file" -- "$NR" fairness --recording "$O/in.csv" --plot "$O/p.png" --runs 1 --seconds 2
if [ -s "$O/p.png" ] && [ ! -e "$O/p.png.part" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: fairness --plot did not leave exactly p.png"; fi
rm -rf "$O"

# The recording's track is an input too (found beside the recording here).
O=$TMP/outputs
mkdir -p "$O"
cp recordings/default.csv "$O/in.csv"
cp tracks/default.track "$O/default.track"
cp "$O/default.track" "$O/track.orig"
expect 2 "replay --series onto the recording's track" -- "$NR" replay "$O/in.csv" --headless --series "$O/default.track"
stderr_has "--series .*default.track: is the input file" "replay --series onto the track: message"
expect 2 "sweep --out onto the recording's track" -- "$NR" sweep --recording "$O/in.csv" --out "$O/default.track" --runs 1 --delays 10 --jitters 0
stderr_has "--out .*default.track: is the input file" "sweep --out onto the track: message"
if cmp -s "$O/default.track" "$O/track.orig"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: the recording's track was overwritten"; fi
rm -rf "$O"

# Issue 13 item 8: every command that writes a file says so.
expect 0 "sweep --out" -- "$NR" sweep --delays 50 --jitters 0 --runs 1 --schemes nc --out "$TMP/said.csv"
stderr_has "^wrote .*said.csv$" "sweep says what it wrote"
expect 0 "autopilot --out" -- "$NR" autopilot --seconds 2 --seed 5 --out "$TMP/said-race.csv"
stderr_has "^wrote .*said-race.csv$" "autopilot says what it wrote"
expect 0 "replay --series" -- "$NR" replay "$TMP/said-race.csv" --headless --schemes nc --series "$TMP/said-series.csv"
stderr_has "^wrote .*said-series.csv$" "replay --series says what it wrote"

# Issue 13 item 7 and issue 22: every result command plots PNG, SVG or PDF
# by the file's extension (never PNG bytes under another name); the SVG
# parses as XML, the PDF starts with %PDF, the title names the race file
# without its directory.
is_svg() { # FILE DESCRIPTION
    if python3 -c 'import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
sys.exit(0 if r.tag == "{http://www.w3.org/2000/svg}svg" else 1)' "$1" 2>/dev/null; then
        pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2: $1 is not an SVG document"; fi
}
is_pdf() { # FILE DESCRIPTION
    if [ "$(head -c 5 "$1" 2>/dev/null)" = "%PDF-" ] && tail -c 8 "$1" | grep -q '%%EOF'; then
        pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2: $1 is not a PDF"; fi
}
k=0
for c in "sweep --delays 50 --jitters 0 --runs 2 --schemes nc" "fairness --runs 2 --seconds 2" \
    "accuracy --seconds 2" "epp --runs 2 --samples 50 --no-traces --sweep 10k"; do
    k=$((k + 1))
    # shellcheck disable=SC2086
    expect 2 "--plot x.jpg refused: $c" -- "$NR" $c --plot "$TMP/x.jpg"
    stderr_has "x.jpg: unknown plot format: name the file .png, .svg or .pdf" "--plot x.jpg named: $c"
    [ "$(grep -vc '^ ' "$TMP/err")" -le 2 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: $c x.jpg: more than the line and usage"; }
    [ ! -e "$TMP/x.jpg" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: $c wrote x.jpg"; }
    for f in svg pdf PNG; do
        # shellcheck disable=SC2086
        expect 0 "--plot .$f: $c" -- "$NR" $c --plot "$TMP/plot$k.$f"
    done
    is_svg "$TMP/plot$k.svg" "--plot .svg: $c"
    is_pdf "$TMP/plot$k.pdf" "--plot .pdf: $c"
    is_png "$TMP/plot$k.PNG" "--plot .PNG: $c"
done
# The figure's title is the PDF's /Title too: it names in.csv, not $O/in.csv.
mkdir -p "$TMP/races"
cp recordings/default.csv "$TMP/races/in.csv"
expect 0 "fairness --plot names the race" -- "$NR" fairness --runs 1 --seconds 2 --recording "$TMP/races/in.csv" --plot "$TMP/named.pdf"
if grep -aq "/Title (netrace fairness: in.csv," "$TMP/named.pdf" && ! grep -aqF "$TMP/races" "$TMP/named.pdf"; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the plot's title is not 'netrace fairness: in.csv, ...'"; fi
# A file name that is not UTF-8 (Latin-1 0xFF) made cairo refuse the whole
# figure ("input string not valid UTF-8"): the byte is drawn as '?'.
cp recordings/default.csv "$TMP/races/r$(printf '\377').csv"
expect 0 "plot titled with a non-UTF-8 file name" -- "$NR" fairness --runs 1 --seconds 1 \
    --recording "$TMP/races/r$(printf '\377').csv" --plot "$TMP/latin1.pdf"
grep -aq "/Title (netrace fairness: r?.csv," "$TMP/latin1.pdf" && pass=$((pass + 1)) ||
    { fail=$((fail + 1)); echo "FAIL: the non-UTF-8 byte is not '?' in the title"; }
expect 0 "accuracy --plot" -- "$NR" accuracy --seconds 2 --plot "$TMP/acc.png"
is_png "$TMP/acc.png" "accuracy --plot"
stderr_has "^wrote .*acc.png$" "accuracy says what it plotted"
expect 0 "epp --plot" -- "$NR" epp --runs 1 --samples 50 --no-traces --sweep 5k,10k --plot "$TMP/epp.png"
is_png "$TMP/epp.png" "epp --plot"
stderr_has "^wrote .*epp.png$" "epp says what it plotted"
# The notices go to stderr: replay --csv with --series keeps stdout a CSV
# table (every line with the header's number of commas).
expect 0 "replay --csv --series: stdout is the table only" -- "$NR" replay --headless --csv --schemes racing --series "$TMP/csv-series.csv"
hdr=$(head -1 "$TMP/out" | tr -cd , | wc -c)
if [ "$(awk -F, -v n="$hdr" 'NF - 1 != n' "$TMP/out" | wc -l)" -eq 0 ] && [ "$(wc -l <"$TMP/out")" -eq 5 ]; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL: replay --csv --series: stdout is not a pure CSV table"
    sed 's/^/  stdout: /' "$TMP/out" | tail -3
fi
stderr_has "^wrote .*csv-series.csv$" "replay --csv --series says what it wrote on stderr"
