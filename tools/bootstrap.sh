#!/usr/bin/env bash
# Set up a fresh Debian 12 machine for netrace, build it, then run it or test it.
#   bash tools/bootstrap.sh run  [netrace args...]   install, build, run netrace
#   bash tools/bootstrap.sh test                     install, build, run every test
# Installs only the Debian packages that are missing (needs root or sudo).
# Environment: NETRACE_BUILD (build dir, default build), NETRACE_MESON_ARGS
# (extra `meson setup` arguments, e.g. -Dwerror=true).
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(gcc pkg-config meson ninja-build libsdl2-dev libsdl2-ttf-dev libsdl2-net-dev
          libsdl2-image-dev libcairo2-dev libcmocka-dev libsodium-dev fonts-dejavu-core iproute2)
missing=()
for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "netrace: installing ${missing[*]}" >&2
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

BUILD=${NETRACE_BUILD:-build}
# shellcheck disable=SC2086
if [ ! -f "$BUILD/build.ninja" ]; then
    meson setup "$BUILD" ${NETRACE_MESON_ARGS:-} >&2
elif [ -n "${NETRACE_MESON_ARGS:-}" ]; then
    meson configure "$BUILD" ${NETRACE_MESON_ARGS} >&2
fi
ninja -C "$BUILD" >&2

what=${1:-run}
shift || true
case "$what" in
    run) exec "./$BUILD/netrace" "$@" ;;
    test) exec meson test -C "$BUILD" --print-errorlogs "$@" ;;
    build) ;;
    *) echo "usage: bash tools/bootstrap.sh run|test|build [args...]" >&2; exit 2 ;;
esac
