#!/usr/bin/env bats
# Policy switches and a preset xps_rxqs through the real kernel: veth pairs
# in a private network namespace (channels, rps/xps files, NAPI files).
# The machine-wide sysctls exist only in the initial netns, so their part is
# in tests/cli/switch.bats (sim); nothing here touches the host's.

load ../helpers

setup() { np_veth_setup; }

teardown() { np_veth_teardown; }

@test "a preset xps_rxqs is cleared and the planned xps_cpus applies" {
	ip netns exec "$NS" sh -c 'echo 1 > /sys/class/net/v0/queues/tx-0/xps_rxqs' ||
		skip "xps_rxqs not writable here"
	run npns v0 set throughput --dry-run
	[ "$status" -eq 0 ]
	[[ "$output" == *"xps: tx-0 rxqs 0 -> none"* ]]
	[[ "$output" == *"xps_rxqs set on tx-0: cleared"* ]]
	run npns v0 set throughput
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ "$(hex2list "$(ip netns exec "$NS" cat /sys/class/net/v0/queues/tx-0/xps_rxqs)")" = "" ]
	run npns v0 check
	[ "$status" -eq 0 ]
	# reset puts the administrator's map back
	npns v0 reset
	[ "$(hex2list "$(ip netns exec "$NS" cat /sys/class/net/v0/queues/tx-0/xps_rxqs)")" = 0 ]
}

@test "every policy switch ends where setting the second from pristine does" {
	local a b fail=0
	for a in cpu latency throughput; do
		for b in cpu latency throughput; do
			[ "$a" = "$b" ] && continue
			npns v0 set "$b" >/dev/null
			direct=$(veth_snapshot)
			npns v0 reset >/dev/null
			npns v0 set "$a" >/dev/null
			npns v0 set "$b" >/dev/null
			if [ "$(veth_snapshot)" != "$direct" ]; then
				echo "# $a then $b differs from $b alone:"
				diff <(echo "$direct") <(veth_snapshot) | sed 's/^/#   /'
				fail=1
			fi
			npns v0 reset >/dev/null
		done
	done
	[ "$fail" -eq 0 ]
}

@test "two veth pairs: set, set, reset one, check the other passes" {
	ip -n "$NS" link add v2 numtxqueues 4 numrxqueues 4 type veth \
		peer name v3 numtxqueues 4 numrxqueues 4
	ip -n "$NS" link set v2 up
	ip -n "$NS" link set v3 up
	npns v0 set latency >/dev/null
	npns v2 set latency >/dev/null
	run npns v0 reset
	[ "$status" -eq 0 ]
	run npns v2 check latency
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	run npns v2 reset
	[ "$status" -eq 0 ]
}
