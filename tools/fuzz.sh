#!/usr/bin/env bash
# Builds every libFuzzer harness tests/fuzz/fuzz_*.c with AddressSanitizer and
# UndefinedBehaviorSanitizer, and runs each for SECONDS (default 60) from its
# seeds. Exit status: 0 no finding, 1 a finding (input kept under
# build-fuzz/findings/NAME/), 2 set-up failure. See tests/fuzz/README.md.
# usage: tools/fuzz.sh [SECONDS [NAME...]]   (NAME: run only fuzz_NAME.c)
# FUZZ_RUNS=N also stops a harness after N executions (a long run: 10^7 or
# 10 minutes each is FUZZ_RUNS=10000000 tools/fuzz.sh 600).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
case "$secs" in '' | *[!0-9]*) echo "usage: tools/fuzz.sh [SECONDS [NAME...]]" >&2; exit 2 ;; esac
shift || true
only=" $* "
CC=${FUZZ_CC:-}
if [ -z "$CC" ]; then
    for c in clang clang-16 clang-15 clang-14; do command -v "$c" >/dev/null && { CC=$c; break; }; done
fi
# A compiler alone is not enough: libFuzzer's runtime is a package of its
# own (libclang-rt-14-dev on Debian 12). Link a tiny harness to find out.
fuzz_ok() {
    local t
    t=$(mktemp -d)
    printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$t/f.c"
    "$1" -fsanitize=fuzzer,address,undefined "$t/f.c" -o "$t/f" >/dev/null 2>&1
    local rc=$?
    rm -rf "$t"
    return $rc
}
if [ -z "$CC" ] || ! fuzz_ok "$CC"; then
    echo "fuzz.sh: installing clang-14 and libFuzzer (libclang-rt-14-dev)" >&2
    SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang-14 libclang-rt-14-dev >/dev/null ||
        { echo "fuzz.sh: cannot install clang-14 and libclang-rt-14-dev" >&2; exit 2; }
    CC=clang-14
    fuzz_ok "$CC" || { echo "fuzz.sh: $CC cannot build a libFuzzer harness" >&2; exit 2; }
fi
out=build-fuzz
mkdir -p "$out/obj" "$out/bin"
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
incs=$(find src/core -type d | sed 's/^/-I/' | tr '\n' ' ')
cflags="-std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 $san $incs"
# The core once, instrumented for coverage; every harness links it.
objs=()
for src in $(find src/core -name '*.c' | sort); do
    o="$out/obj/$(echo "$src" | tr / _).o"
    if [ ! -f "$o" ] || [ "$src" -nt "$o" ] || [ -n "$(find src/core -name '*.h' -newer "$o" | head -1)" ]; then
        $CC $cflags -fsanitize=fuzzer-no-link -c "$src" -o "$o"
    fi
    objs+=("$o")
done
# -timeout=30: the longest track the loader accepts (100,000 cw, linear time)
# takes ~0.7 s to load in a release build and several seconds under the
# sanitizers; a long fuzz run met one over 10 s (a legal input, not a hang).
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
status=0
printf '%-12s %12s %10s %8s %s\n' harness executions exec/s corpus result
for h in tests/fuzz/fuzz_*.c; do
    name=$(basename "$h" .c)
    name=${name#fuzz_}
    [ "$only" = "  " ] || [[ "$only" == *" $name "* ]] || continue
    extra=$(sed -n 's/.*fuzz-sources:\(.*\)\*\/.*/\1/p' "$h" | head -1)
    pkgs=$(sed -n 's/.*fuzz-pkgs:\(.*\)\*\/.*/\1/p' "$h" | head -1)
    pkgflags=""
    if [ -n "$pkgs" ]; then
        # shellcheck disable=SC2086
        pkgflags="$(pkg-config --cflags --libs $pkgs) $(echo $extra | xargs -n1 dirname | sort -u | sed 's/^/-I/' | tr '\n' ' ')"
    fi
    bin="$out/bin/fuzz_$name"
    # shellcheck disable=SC2086
    # the core's netproto folder needs libsodium (wirecrypt.c)
    $CC $cflags -fsanitize=fuzzer "$h" $extra "${objs[@]}" $pkgflags $(pkg-config --libs libsodium) -lm -o "$bin"
    corpus="$out/corpus/$name"
    seeds="$out/seeds/$name"
    mkdir -p "$corpus" "$seeds" "$out/findings/$name"
    [ -d "tests/fuzz/corpus/$name" ] && cp -f "tests/fuzz/corpus/$name"/* "$seeds"/ 2>/dev/null || true
    if [ -f "tests/fuzz/$name.seeds" ]; then
        while IFS= read -r glob; do
            [ -n "$glob" ] || continue
            # shellcheck disable=SC2086
            for f in $glob; do [ -f "$f" ] && cp -f "$f" "$seeds/$(echo "$f" | tr / _)"; done
        done <"tests/fuzz/$name.seeds"
    fi
    dict=()
    runs=()
    [ -n "${FUZZ_RUNS:-}" ] && runs=(-runs="$FUZZ_RUNS")
    [ -f "tests/fuzz/$name.dict" ] && dict=(-dict="tests/fuzz/$name.dict")
    log="$out/fuzz_$name.log"
    set +e
    "$bin" "$corpus" "$seeds" "${dict[@]}" "${runs[@]}" -max_total_time="$secs" -timeout=30 -rss_limit_mb=2048 \
        -max_len=65536 -artifact_prefix="$out/findings/$name/" -print_final_stats=1 >"$log" 2>&1
    rc=$?
    set -e
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    files=$(find "$corpus" -type f | wc -l)
    if [ "$rc" -eq 0 ]; then
        result=ok
    else
        result="FINDING (exit $rc): $(ls "$out/findings/$name" | head -1); log $log"
        status=1
        grep -m3 -E "ERROR|SUMMARY|runtime error" "$log" >&2 || tail -5 "$log" >&2
    fi
    printf '%-12s %12s %10s %8s %s\n' "$name" "${execs:-?}" "${speed:-?}" "$files" "$result"
done
exit $status
