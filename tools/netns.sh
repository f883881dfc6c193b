#!/bin/bash
# Two test hosts on one machine for network play: network namespaces nrA and
# nrB joined by a veth pair, addresses 10.201.0.1 (nrA) and 10.201.0.2 (nrB),
# created here and nowhere else. Needs root. Used to measure the clock
# synchronisation over a real (virtual) link, README "Network play".
#   bash tools/netns.sh up      create (idempotent)
#   bash tools/netns.sh down    remove
#   ip netns exec nrA ./build/netrace host --port 41000 ...
#   ip netns exec nrB ./build/netrace join 10.201.0.1:41000 ...
set -eu
case "${1:-}" in
up)
    ip netns list | grep -q '^nrA' || ip netns add nrA
    ip netns list | grep -q '^nrB' || ip netns add nrB
    if ! ip -n nrA link show nrvA >/dev/null 2>&1; then
        ip link add nrvA type veth peer name nrvB
        ip link set nrvA netns nrA
        ip link set nrvB netns nrB
        ip -n nrA addr add 10.201.0.1/24 dev nrvA
        ip -n nrB addr add 10.201.0.2/24 dev nrvB
    fi
    for n in A B; do
        ip -n "nr$n" link set lo up
        ip -n "nr$n" link set "nrv$n" up
    done
    echo "nrA 10.201.0.1 <-> nrB 10.201.0.2"
    ;;
down)
    ip netns del nrA 2>/dev/null || true
    ip netns del nrB 2>/dev/null || true
    ;;
*)
    echo "usage: bash tools/netns.sh up|down" >&2
    exit 2
    ;;
esac
