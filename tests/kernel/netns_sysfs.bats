#!/usr/bin/env bats
# A sysfs mount shows the devices of the network namespace that mounted
# it: `unshare -n` and `nsenter --net` keep the old /sys, where a device of
# the same name is another namespace's.  netpolicy must never read or write
# that one.  Everything runs inside private namespaces: the "old" /sys is
# the one `ip netns exec $NS` mounted, its v0 the veth np_netns_veth made.

load ../helpers

setup() {
	np_tmpdir
	np_netns_veth 8
	BEFORE=$(veth_snapshot)
	NS2=
}

teardown() {
	[ -z "${NS2:-}" ] || ip netns del "$NS2" 2>/dev/null
	np_netns_cleanup
	np_cleanup_tmp
}

# In a new network namespace below $NS (/sys still $NS's): x0/x1 first when
# $1 is "shift" (so the new v0's ifindex differs from $NS's v0), a veth
# v0/v1 with 8 queues, then the rest of the arguments as a shell command,
# then what the new v0's steering is, read through a sysfs of its own.
in_unshared() {
	local shift=$1
	shift
	ip netns exec "$NS" unshare -n sh -c '
		[ "$1" = shift ] && ip link add x0 type veth peer name x1
		ip link add v0 numtxqueues 8 numrxqueues 8 type veth peer name v1 \
			numtxqueues 8 numrxqueues 8
		ip link set v0 up && ip link set v1 up
		shift
		"$@"; echo "rc=$?"
		unshare -m sh -c "mount -t sysfs sysfs /sys &&
			cat /sys/class/net/v0/queues/tx-0/xps_cpus"' sh "$shift" "$@"
}

@test "set in an unshare -n namespace changes its own device, not the old /sys's" {
	run in_unshared same "$NETPOLICY" --state-dir "$STATE_DIR" v0 set throughput
	echo "$output"
	[[ "$output" == *"rc=0"* ]]
	# the new namespace's v0 got its transmit steering ...
	[ "$(hex2list "${lines[-1]}")" != "" ]
	# ... and the /sys one (NS's v0) is as it was
	[ "$(veth_snapshot)" = "$BEFORE" ]
}

@test "nsenter --net into another namespace changes that namespace's device only" {
	NS2=np-test-$$-$RANDOM-2
	ip netns add "$NS2"
	ip -n "$NS2" link add v0 numtxqueues 8 numrxqueues 8 type veth \
		peer name v1 numtxqueues 8 numrxqueues 8
	ip -n "$NS2" link set v0 up
	ip -n "$NS2" link set v1 up
	other=$(NS=$NS2 veth_snapshot)
	# from NS's side (its /sys) into NS2's network namespace
	run ip netns exec "$NS" nsenter --net="/run/netns/$NS2" \
		"$NETPOLICY" --state-dir "$STATE_DIR" v0 set throughput
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(veth_snapshot)" = "$BEFORE" ]
	[ "$(NS=$NS2 veth_snapshot)" != "$other" ]
}

@test "without CAP_SYS_ADMIN the old /sys is refused by the device's ifindex, nothing changed" {
	command -v setpriv >/dev/null || skip "setpriv not installed"
	run in_unshared shift setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin \
		"$NETPOLICY" --state-dir "$STATE_DIR" v0 set throughput
	echo "$output"
	[[ "$output" == *"rc=1"* ]]
	[[ "$output" == *"/sys/class/net/v0 is another network namespace's device"* ]]
	[ "$(hex2list "${lines[-1]}")" = "" ]
	[ "$(veth_snapshot)" = "$BEFORE" ]
}

# Telling whose /sys it is makes and drops a sysfs mount, and dropping it
# waits for an RCU grace period (0.1-3 ms): once per command, not once by
# the CLI and again by the library (sysfs_ns.c keeps the verdict).
# LeakSanitizer cannot run under ptrace.
@test "whose /sys it is is asked of a fresh sysfs once per command" {
	command -v strace >/dev/null || skip "strace not installed"
	for cmd in "--json v0 show" "v0 set throughput"; do
		# shellcheck disable=SC2086
		ASAN_OPTIONS=detect_leaks=0 run ip netns exec "$NS" strace -f -qq -e trace=fsmount -o "$NP_TMP/trace" \
			"$NETPOLICY" --state-dir "$STATE_DIR" $cmd
		[ "$status" -eq 0 ]
		cat "$NP_TMP/trace"
		[ "$(grep -c 'fsmount(' "$NP_TMP/trace")" -eq 1 ]
	done
	# and where /sys is the old namespace's, the CLI's own sysfs is
	# asked again (a new superblock), and the command still works
	ASAN_OPTIONS=detect_leaks=0 run in_unshared same strace -f -qq -e trace=fsmount -o "$NP_TMP/trace2" \
		"$NETPOLICY" --state-dir "$STATE_DIR" v0 set throughput
	echo "$output"
	[[ "$output" == *"rc=0"* ]]
	[ "$(hex2list "${lines[-1]}")" != "" ]
	[ "$(grep -c 'fsmount(' "$NP_TMP/trace2")" -eq 2 ]
}
