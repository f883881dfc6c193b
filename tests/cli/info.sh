# netrace info: sourced by tests/test_cli.sh (uses expect,
# stderr_has, stdout_has, $NR, $TMP; the working directory is the source tree).

# --- info on the bundled files
expect 0 "info on the default track" -- "$NR" info tracks/default.track
stdout_has "^format: netrace-track 1$" "track info: format"
stdout_has "^name: Default Circuit$" "track info: name"
stdout_has "^length: [0-9]+\.[0-9]{2}$" "track info: length"
stdout_has "^width: 8$" "track info: width"
stdout_has "^points: [0-9]+$" "track info: points"
stdout_has "^grid_slots: 8$" "track info: grid slots"

expect 0 "info on the default race" -- "$NR" info recordings/default.csv
stdout_has "^format: netrace-recording 1$" "recording info: format"
stdout_has "^track: default.track$" "recording info: track"
stdout_has "^source: autopilot$" "recording info: source"
stdout_has "^cars: 2$" "recording info: cars"
stdout_has "^period_ms: 33$" "recording info: period"
stdout_has "^samples: 910$" "recording info: samples (0 to 29.997 s every 33 ms)"
stdout_has "^duration_s: 29\.997$" "recording info: duration"
stdout_has "^truncated: no$" "recording info: not truncated"
stdout_has "^lead_changes: (8|9|10|11|12)$" "recording info: 8-12 lead changes"
stdout_has "^marks: 0$" "recording info: no marks"
# centre distances recomputed from the CSV by awk (not by the code under test)
awk -F, '!/^#/ && $1 ~ /^[0-9]+$/ { if ($2 == 1) { x = $3; y = $4 } else printf "%.9f\n", sqrt(($3 - x) ^ 2 + ($4 - y) ^ 2) }' \
    recordings/default.csv | sort -g > "$TMP/dist"
n=$(wc -l < "$TMP/dist")
want1=$(awk -v n="$n" '$1 < 1 { c++ } END { printf "%.3f", c / n }' "$TMP/dist")
want2=$(awk -v n="$n" '$1 < 2 { c++ } END { printf "%.3f", c / n }' "$TMP/dist")
wantmed=$(awk -v n="$n" '{ d[NR] = $1 } END { printf "%.3f", n % 2 ? d[(n + 1) / 2] : (d[n / 2] + d[n / 2 + 1]) / 2 }' "$TMP/dist")
wantmin=$(head -1 "$TMP/dist" | awk '{ printf "%.3f", $1 }')
stdout_has "^closer_1cw: $want1$" "recording info: share closer than 1 cw ($want1 by awk)"
stdout_has "^closer_2cw: $want2$" "recording info: share closer than 2 cw ($want2 by awk)"
stdout_has "^median_distance_cw: $wantmed$" "recording info: median distance ($wantmed by awk)"
stdout_has "^min_distance_cw: $wantmin$" "recording info: min distance ($wantmin by awk)"

# marks: '# mark: T_MS,PLAYER,KIND[,NOTE]' lines between the rows; the first
# release's '# mark: T_MS [LABEL]' still reads (kind mark; the label is the
# player when it names one, else the note)
{ sed -n 1,207p recordings/default.csv; echo "# mark: 5500"; sed -n 208,300p recordings/default.csv
  echo "# mark: 4000,2,dissatisfied"; sed -n 301,400p recordings/default.csv
  echo "# mark: 3000 the host"; echo "# mark: 3000 joiner"; sed -n '401,$p' recordings/default.csv; } >"$TMP/marked.csv"
cp tracks/default.track "$TMP/"
expect 0 "info on a marked race" -- "$NR" info "$TMP/marked.csv"
stdout_has "^marks: 4$" "marked race: four marks"
stdout_has "^mark_times_s: 3.000 3.000 4.000 5.500$" "marked race: their times, in time order"
stdout_has "^mark: 3000,0,mark,the host$" "marked race: a first release's label that names nobody is the note"
stdout_has "^mark: 3000,2,mark$" "marked race: a first release's joiner is player 2"
stdout_has "^mark: 4000,2,dissatisfied$" "marked race: player 2's dissatisfaction"
stdout_has "^mark: 5500,0,mark$" "marked race: a first release's mark without a label"
stdout_has "^samples: 910$" "marked race: every sample still read"
expect 0 "replay of a marked race" -- "$NR" replay "$TMP/marked.csv" --headless --schemes nc
stdout_has "^marks:  4 at 3.000 s \(mark: the host\), 3.000 s \(player 2 mark\), 4.000 s \(player 2 dissatisfied\), 5.500 s \(mark\)$" \
    "replay names the marks"

expect 0 "info finds bundled files from another directory" -- env -C "$TMP" "$NR" info recordings/default.csv
stdout_has "^lead_changes: [0-9]+$" "info from elsewhere resolves the track"

# --- usage errors
expect 2 "info without FILE" -- "$NR" info
stderr_has "FILE is missing" "info without FILE says so"
expect 2 "info with two files" -- "$NR" info tracks/default.track recordings/default.csv
expect 2 "info with an unknown option" -- "$NR" info --frobnicate
stderr_has "unknown option '--frobnicate'" "info names the unknown option"
expect 0 "help info" -- "$NR" help info
stdout_has "lead_changes" "help info lists the keys"
stdout_has "closer_2cw" "help info lists the gap keys"

# --- bad recordings: one line with FILE:LINE and the reason, exit 1
H='# netrace-recording: 1
# track: default.track
# period_ms: 33
# cars: 2
# source: human
t_ms,car,x,y,heading,speed'
bad_rec() { # NAME CONTENT PATTERN DESCRIPTION
    printf '%s' "$2" >"$TMP/$1"
    expect 1 "$4" -- "$NR" info "$TMP/$1"
    stderr_has "$3" "$4: message"
    local lines
    lines=$(wc -l <"$TMP/err")
    if [ "$lines" -eq 1 ]; then pass=$((pass + 1)); else
        fail=$((fail + 1))
        echo "FAIL: $4: $lines lines on stderr, expected 1"
    fi
}
expect 1 "info on a missing file" -- "$NR" info "$TMP/nosuch.csv"
stderr_has "nosuch.csv: no such file" "missing file named"
bad_rec empty.csv "" "empty.csv:1: empty file" "empty file"
bad_rec version.csv "# netrace-recording: 7
" "version.csv:1: recording format version 7 is not supported" "wrong version"
bad_rec carid.csv "$H
0,1,0,0,0,0
0,3,0,0,0,0
" "carid.csv:8: unknown car id 3" "unknown car id"
bad_rec nonnum.csv "$H
0,1,0,zero,0,0
" "nonnum.csv:7: field y is 'zero', expected a number" "non-numeric field"
bad_rec nan.csv "$H
0,1,NaN,0,0,0
" "nan.csv:7: field x is 'NaN', expected a finite number" "NaN field"
bad_rec inf.csv "$H
0,1,0,0,0,inf
" "inf.csv:7: field speed is 'inf', expected a finite number" "inf field"
bad_rec order.csv "$H
0,1,0,0,0,0
0,2,0,0,0,0
33,1,0,0,0,0
33,2,0,0,0,0
0,1,0,0,0,0
" "order.csv:11: rows out of time order" "rows out of time order"
bad_rec dup.csv "$H
0,1,0,0,0,0
0,1,0,0,0,0
" "dup.csv:8: duplicate sample: car 1 at t_ms 0" "duplicate sample"
bad_rec missing.csv "$H
0,1,0,0,0,0
33,1,0,0,0,0
33,2,0,0,0,0
" "missing.csv:8: car 2 has no sample at t_ms 0" "missing car at a sample time"
bad_rec mark.csv "$H
0,1,0,0,0,0
# mark: -12
0,2,0,0,0,0
" "mark.csv:8: mark '-12'" "a mark line that is not one"
bad_rec notrack.csv "# netrace-recording: 1
# track: nosuch.track
# period_ms: 33
# cars: 2
# source: human
t_ms,car,x,y,heading,speed
" "track 'nosuch.track' not found" "recording naming a missing track"

# A cut last line (killed writer) is accepted and reported.
head -c 5000 recordings/default.csv >"$TMP/cut.csv"
expect 0 "info on a truncated recording" -- "$NR" info "$TMP/cut.csv"
stdout_has "^truncated: yes$" "truncated recording says so"

# --- bad tracks
bad_track() { # NAME CONTENT PATTERN DESCRIPTION
    printf '%s' "$2" >"$TMP/$1"
    expect 1 "$4" -- "$NR" info "$TMP/$1"
    stderr_has "$3" "$4: message"
}
bad_track few.track "netrace-track 1
name x
width 4
point 0 0
point 100 0
" "few.track:5: 2 points, a closed centre line needs at least 3" "track with fewer than 3 points"
bad_track cross.track "netrace-track 1
name x
width 4
point 0 0
point 60 60
point 60 0
point 0 60
" "cross.track:[0-9]+: self-intersecting centre line" "self-intersecting track"
bad_track zero.track "netrace-track 1
name x
width 0
point 0 0
point 400 0
point 200 300
" "zero.track:3: width 0 out of range" "zero-width track"
bad_track tver.track "netrace-track 9
" "tver.track:1: track format version 9 is not supported" "track version"
bad_track tnan.track "netrace-track 1
name x
width 4
point nan 0
" "tnan.track:4: X is 'nan', expected a finite number" "track NaN"
bad_track junk.track "hello
" "junk.track:1: neither a netrace recording nor a track \(starts 'hello'\)" "neither track nor recording"
# an unrecognised file's bytes never reach the terminal raw (issue 24): an
# escape sequence (colour, window title, bell) is shown as \xHH
printf 'hi\033[31mRED\033]0;t\007\n' >"$TMP/esc.txt"
expect 1 "info on a file of escape sequences" -- "$NR" info "$TMP/esc.txt"
stderr_has "starts 'hi.x1b\[31mRED.x1b\]0;t.x07'" "escapes shown as \\xHH"
if grep -q "$(printf '\033')" "$TMP/err"; then fail=$((fail + 1)); echo "FAIL: info echoed a raw ESC"; else
    pass=$((pass + 1)); fi


# info checks a recording as replay does: a position of 1e308 is refused in
# one line, not printed as a distance of inf.
(head -7 recordings/default.csv; printf '0,1,1,2,0,0\n0,2,1e308,2,0,0\n33,1,1,2,0,0\n33,2,-1e308,2,0,0\n') \
    >"$TMP/huge.csv"
expect 1 "info on a recording out of range" -- "$NR" info "$TMP/huge.csv"
stderr_has "huge.csv: car 2 at t_ms 0: x = 1e\+308 is out of range" "info names the sample out of range"
