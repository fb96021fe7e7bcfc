#!/usr/bin/env bats
# Device names that look like options: the kernel allows `-v` and
# `--state-dir=x` (ip link add name -v ...).  set --confirm on them
# applies, and the watchdog it starts (netpolicy ... -- IFNAME __revert)
# takes the name as the device, not as an option: after the deadline the
# device is back as it was and the marker gone.  A veth pair with those
# names in a private namespace.

load ../helpers

setup() {
	require_root
	command -v ip >/dev/null || skip "iproute2 not installed"
	np_tmpdir
	NS=np-test-$$-$RANDOM
	ip netns add "$NS" || skip "cannot create a network namespace"
	ip -n "$NS" link add name -v numtxqueues 8 numrxqueues 8 type veth \
		peer name --state-dir=x numtxqueues 8 numrxqueues 8
	ip -n "$NS" link set dev -v up
	ip -n "$NS" link set dev --state-dir=x up
}

teardown() {
	np_netns_cleanup
	np_cleanup_tmp
}

# The device's queues and steering files, from sysfs (no tool parses the name).
snapshot() {
	ip netns exec "$NS" sh -c 'cd "/sys/class/net/$1" && ls -d queues/* &&
		for f in queues/*/rps_cpus queues/*/rps_flow_cnt queues/*/xps_cpus; do
			echo "$f $(cat "$f" 2>&1)"; done' sh "$1"
}

confirm_reverts() {
	local dev=$1 before i
	before=$(snapshot "$dev")
	# options before "--": after it every word is the device or the command
	# 4 s: the marker is checked after set returns, on a loaded machine
	run npns --confirm 4 -- "$dev" set throughput
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(snapshot "$dev")" != "$before" ]
	[ -e "$(np_rec $dev tentative)" ]
	for ((i = 0; i < 150; i++)); do
		[ ! -e "$(np_rec $dev tentative)" ] && break
		sleep 0.1
	done
	[ ! -e "$(np_rec $dev tentative)" ]
	[ "$(snapshot "$dev")" = "$before" ]
	# no state directory named by the device was used
	[ ! -e x ] && [ ! -e "$NP_TMP/x" ]
}

@test "a device named -v: set --confirm is reverted by its watchdog" {
	confirm_reverts -v
}

@test "a device named --state-dir=x: set --confirm is reverted by its watchdog" {
	confirm_reverts --state-dir=x
}
