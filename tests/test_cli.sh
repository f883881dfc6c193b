#!/usr/bin/env bash
# Command-line behaviour: help, version, exit codes and one-line errors.
# usage: test_cli.sh PATH/TO/netrace   (run from anywhere; uses NETRACE_SOURCE_DIR)
set -u
NR=${1:?path to netrace}
SRC=${NETRACE_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$SRC" || exit 1
TMP=$(mktemp -d)
trap '[ -n "${KEEP_TMP:-}" ] || rm -rf "$TMP"' EXIT
pass=0
fail=0

# expect CODE DESCRIPTION -- command...   (stderr saved in $TMP/err, stdout in $TMP/out)
expect() {
    local code=$1 desc=$2
    shift 3
    "$@" >"$TMP/out" 2>"$TMP/err"
    local got=$?
    if [ "$got" -eq "$code" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $desc: exit $got, expected $code"
        sed 's/^/  stderr: /' "$TMP/err" | head -5
    fi
}
# stderr_has PATTERN DESCRIPTION: the last command's stderr matches
stderr_has() {
    if grep -qE -- "$1" "$TMP/err"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $2: stderr lacks /$1/"
        sed 's/^/  stderr: /' "$TMP/err" | head -5
    fi
}
stdout_has() {
    if grep -qE -- "$1" "$TMP/out"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $2: stdout lacks /$1/"
        sed 's/^/  stdout: /' "$TMP/out" | head -5
    fi
}

is_png() { # FILE DESCRIPTION: the file starts with the PNG signature
    if [ "$(head -c 8 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $2: $1 is not a PNG"
    fi
}
expect 0 "--help" -- "$NR" --help
stdout_has "usage: netrace" "--help prints usage"
expect 0 "--version" -- "$NR" --version
stdout_has "^netrace [0-9]+\.[0-9]+\.[0-9]+" "--version prints a version"
expect 2 "unknown command" -- "$NR" frobnicate
stderr_has "unknown command 'frobnicate'" "unknown command named"
expect 2 "unknown option" -- "$NR" --frobnicate
stderr_has "unknown option '--frobnicate'" "unknown option named"
expect 2 "help of unknown command" -- "$NR" help frobnicate

# Sections added by each subcommand live in tests/cli/*.sh and use the same
# helpers; NETRACE_CLI_PARTS names another folder of sections (the network
# tests run as their own meson test, in parallel with this one).
for part in "$SRC"/"${NETRACE_CLI_PARTS:-tests/cli}"/*.sh; do
    [ -e "$part" ] || continue
    # shellcheck source=/dev/null
    . "$part"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
