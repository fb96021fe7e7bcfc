#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The wake-up latency limit (pm-qos) on a veth pair between two private
# namespaces: bench/rr.py's request/response run with `set latency` (the
# limit on the queues' CPUs) and with a latency policy whose pm-qos is off,
# alternated; for each run the per-CPU cpuidle residency (stateK/usage and
# time, microseconds) over the run and the resume-latency files.  The files
# are the machine's: saved first, written back on exit.  Root; python3.
#
# usage: bench/pm_qos_veth.sh [NETPOLICY] [ROUNDS] [SECS]
set -euo pipefail
NP=${1:-build/netpolicy/netpolicy}
ROUNDS=${2:-3}
SECS=${3:-5}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=veth_pair.sh
. "$here/veth_pair.sh"
tmp=$(mktemp -d)
A=np-pmq-a-$$
B=np-pmq-b-$$
CPU=/sys/devices/system/cpu
for f in "$CPU"/cpu[0-9]*/power/pm_qos_resume_latency_us; do echo "$f $(cat "$f")"; done \
	>"$tmp/saved"
cleanup() {
	while read -r f v; do echo "$v" >"$f" || true; done <"$tmp/saved"
	[ -z "${RR:-}" ] || kill "$RR" 2>/dev/null || true
	veth_pair_del "$A" "$B"
	rm -rf "$tmp"
}
trap cleanup EXIT
veth_pair "$A" "$B" 10.97.0
mkdir -p "$tmp/pol"
printf 'base = latency\npm-qos = off\n' >"$tmp/pol/nolimit.conf"
ip netns exec "$B" python3 "$here/rr.py" server 5556 &
RR=$!
sleep 1
np() { ip netns exec "$A" "$NP" --state-dir "$tmp/state" --policy-dir "$tmp/pol" "$@"; }
# "cpuN stateK usage time" of every CPU and state
idle() {
	local s c k
	for s in "$CPU"/cpu[0-9]*/cpuidle/state[0-9]*; do
		c=${s#"$CPU"/}; c=${c%%/*}; k=${s##*/}
		echo "$c $k $(cat "$s/usage") $(cat "$s/time")"
	done
}
for r in $(seq 1 "$ROUNDS"); do
	for pol in latency nolimit; do
		np v0 set "$pol" >/dev/null
		limits=$(cat "$CPU"/cpu[0-9]*/power/pm_qos_resume_latency_us | tr '\n' ' ')
		idle >"$tmp/before"
		out=$(ip netns exec "$A" python3 "$here/rr.py" client 10.97.0.2 5556 "$SECS")
		idle >"$tmp/after"
		mean=$(awk '/mean_us/ { print $2 }' <<<"$out")
		printf 'round %s %-8s limits [%s] rr mean %s us\n' "$r" "$pol" "${limits% }" "$mean"
		paste "$tmp/before" "$tmp/after" | awk -v secs="$SECS" \
			'{ printf "    %s %s  entries %d  residency %.1f%%\n", $1, $2, $7 - $3,
			   100 * ($8 - $4) / (secs * 1e6) }'
	done
done
np v0 reset >/dev/null
