#!/usr/bin/env bats
# The bytes netpolicy sends for per-queue coalescing (ETHTOOL_PERQUEUE with
# ETHTOOL_SCOALESCE: ethtool netlink has no per-queue coalescing) are the
# bytes `ethtool --per-queue DEV queue_mask M --coalesce ...` sends.  No
# driver here has per-queue coalescing (veth answers EOPNOTSUPP), so both
# programs run under tests/capture/np_capture.so, which logs every
# SIOCETHTOOL payload and answers the per-queue ioctls as ice would
# (NP_CAPTURE_FAKE=1); the device lookup goes to the real kernel, on a veth
# pair in a private namespace.  Both read the queue first (GCOALESCE) and
# send the whole struct back with the fields asked for changed.

load ../helpers
load capture

setup() { capture_setup; }

teardown() { np_veth_teardown; }

# The ETHTOOL_PERQUEUE (0x4b) requests in log $1, in order, one per line.
perqueue() { awk '$1 == "ioctl" && $2 == "0x4b" { print $3 }' "$1"; }

# same_requests "ethtool args" "np_steer args": the same GCOALESCE then
# SCOALESCE requests, byte for byte.
same_requests() {
	local e=$NP_TMP/ethtool.log n=$NP_TMP/netpolicy.log
	rm -f "$e" "$n"
	# shellcheck disable=SC2086
	captured "$e" ethtool $1 >/dev/null
	# shellcheck disable=SC2086
	run captured "$n" "$STEER" $2
	[ "$status" -eq 0 ] || { echo "np_steer: $output"; return 1; }
	echo "ethtool:   $(perqueue "$e" | cut -c1-24) ($(perqueue "$e" | wc -l) requests)"
	echo "netpolicy: $(perqueue "$n" | cut -c1-24) ($(perqueue "$n" | wc -l) requests)"
	[ "$(perqueue "$e" | wc -l)" -eq 2 ]
	[ "$(perqueue "$e")" = "$(perqueue "$n")" ]
}

@test "per-queue set of the latency class's values on queue 2: as ethtool --per-queue queue_mask 0x4 --coalesce" {
	same_requests "--per-queue v0 queue_mask 0x4 --coalesce rx-usecs 0 tx-usecs 8 adaptive-rx off adaptive-tx off" \
		"qcoal v0 2 rx-usecs 0 tx-usecs 8 adaptive-rx 0 adaptive-tx 0"
	# header: cmd ETHTOOL_PERQUEUE (0x4b), sub_command SCOALESCE (0x0f), bit 2
	[ "$(perqueue "$NP_TMP/netpolicy.log" | tail -1 | cut -c1-24)" = 4b0000000f00000004000000 ]
}

@test "per-queue set on a queue in the second mask word, other fields kept as read" {
	HIGH=20 same_requests "--per-queue v0 queue_mask 0x100000000 --coalesce rx-usecs 12" \
		"qcoal v0 32 rx-usecs 12"
	HIGH=20 same_requests "--per-queue v0 queue_mask 0x8 --coalesce adaptive-rx on rx-usecs 50 tx-usecs 50" \
		"qcoal v0 3 adaptive-rx 1 rx-usecs 50 tx-usecs 50"
}

@test "per-queue read: the GCOALESCE reply parsed per queue, as the kernel lays it out" {
	e=$NP_TMP/n.log
	HIGH=7 run captured "$e" "$STEER" qcoal-get v0 3 rx-usecs tx-usecs adaptive-rx rx-usecs-high
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "rx-0 rx-usecs 50 tx-usecs 50 adaptive-rx 1 rx-usecs-high 7" ]
	[ "${lines[2]}" = "rx-2 rx-usecs 50 tx-usecs 50 adaptive-rx 1 rx-usecs-high 7" ]
	# one request: GCOALESCE (0x0e) for queues 0-2 (mask 0x7)
	[ "$(perqueue "$e" | wc -l)" -eq 1 ]
	[ "$(perqueue "$e" | cut -c1-24)" = 4b0000000e00000007000000 ]
}

@test "a real veth: per-queue coalescing is refused (EOPNOTSUPP), and netpolicy plans none" {
	run ip netns exec "$NS" "$STEER" qcoal v0 0 rx-usecs 10
	[ "$status" -eq 1 ]
	[[ "$output" == *"not supported"* ]]
	run npns --json v0 set latency --dry-run
	[ "$status" -eq 0 ]
	[ "$(jq '[.steps[] | select(.knob == "queue-coalesce")] | length' <<<"$output")" -eq 0 ]
}
