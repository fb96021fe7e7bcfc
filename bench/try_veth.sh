#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `netpolicy DEV try` on a veth pair (8 queues) between two private network
# namespaces: every built-in policy against the default, with iperf3
# (throughput) and bench/rr.py (TCP request/response latency).  Prints each
# report as netpolicy gives it.  Root; iperf3 and python3.
#
# usage: bench/try_veth.sh [NETPOLICY] [ROUNDS] [SECS]
set -euo pipefail
NP=${1:-build/netpolicy/netpolicy}
ROUNDS=${2:-5}
SECS=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=veth_pair.sh
. "$here/veth_pair.sh"
tmp=$(mktemp -d)
A=np-bench-a-$$
B=np-bench-b-$$
cleanup() {
	[ ! -s "$tmp/iperf3.pid" ] || kill "$(cat "$tmp/iperf3.pid")" 2>/dev/null || true
	[ -z "${RR:-}" ] || kill "$RR" 2>/dev/null || true
	veth_pair_del "$A" "$B"
	rm -rf "$tmp"
}
trap cleanup EXIT
veth_pair "$A" "$B" 10.98.0
ip netns exec "$B" iperf3 -s -D -I "$tmp/iperf3.pid"
ip netns exec "$B" python3 "$here/rr.py" server 5555 &
RR=$!
sleep 1
# The README's two commands, with this bench's rounds and duration: the
# metric is a value of the workload's JSON output.
echo "== iperf3 -J -t $SECS, $ROUNDS rounds (bits/s received, higher is better)"
ip netns exec "$A" "$NP" --state-dir "$tmp/state" v0 try --rounds "$ROUNDS" --settle 1 \
	--metric-json end.sum_received.bits_per_second -- iperf3 -c 10.98.0.2 -J -t "$SECS"
echo "== rr.py --json $SECS s, $ROUNDS rounds (mean latency in us, lower is better)"
ip netns exec "$A" "$NP" --state-dir "$tmp/state" v0 try --rounds "$ROUNDS" --settle 1 \
	--metric-json mean_us --lower-is-better \
	-- python3 "$here/rr.py" client 10.98.0.2 5555 "$SECS" --json
