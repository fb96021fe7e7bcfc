#!/usr/bin/env bats
# Records are a device's in its network namespace: `ip netns exec` shares
# /run, so two namespaces each with a device a0 and one state directory
# must never share a record, a journal, a lock or a --confirm marker
# (np_store.h).  Two private namespaces, a veth pair a0/a1 with 8 queues in
# each, one --state-dir.

load ../helpers

setup() {
	require_root
	command -v ip >/dev/null || skip "iproute2 not installed"
	np_tmpdir
	NS=np-test-$$-$RANDOM
	NS2=np-test-$$-$RANDOM-2
	for ns in "$NS" "$NS2"; do
		ip netns add "$ns" || skip "cannot create a network namespace"
		ip -n "$ns" link add a0 numtxqueues 8 numrxqueues 8 type veth \
			peer name a1 numtxqueues 8 numrxqueues 8
		ip -n "$ns" link set a0 up
		ip -n "$ns" link set a1 up
	done
}

teardown() {
	np_kill_watchdogs
	[ -z "${NS2:-}" ] || ip netns del "$NS2" 2>/dev/null
	np_netns_cleanup
	np_cleanup_tmp
}

in1() { ip netns exec "$NS" "$NETPOLICY" --state-dir "$STATE_DIR" "$@"; }
in2() { ip netns exec "$NS2" "$NETPOLICY" --state-dir "$STATE_DIR" "$@"; }

# a0's queue steering in namespace $1, as sysfs has it
snap() {
	ip netns exec "$1" sh -c 'cd /sys/class/net/a0 &&
		for f in queues/*/rps_cpus queues/*/xps_cpus; do echo "$f $(cat "$f")"; done'
}

@test "reset in one namespace keeps the other's snapshot and record" {
	before=$(snap "$NS")
	in1 a0 set throughput >/dev/null
	[ "$(snap "$NS")" != "$before" ]
	in2 a0 set latency >/dev/null
	run in2 a0 reset
	echo "$output"
	[ "$status" -eq 0 ]
	# the first namespace's a0 is still netpolicy's, and can be reset
	[ -e "$(np_rec a0 pristine)" ]
	[ -e "$(np_rec a0 policy)" ]
	run in1 a0 check throughput
	echo "$output"
	[ "$status" -eq 0 ]
	run in1 a0 reset
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(snap "$NS")" = "$before" ]
}

@test "set in one namespace does not replace the other's policy record" {
	in1 a0 set throughput >/dev/null
	in2 a0 set latency >/dev/null
	[ "$(in1 --json a0 show | jq -r .policy)" = throughput ]
	[ "$(in2 --json a0 show | jq -r .policy)" = latency ]
	run in1 a0 check
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(jq -r .policy "$(np_rec a0 policy)")" = throughput ]
	[ "$(jq -r .policy "$(np_rec a0 policy "$NS2")")" = latency ]
}

@test "confirm in another namespace does not cancel a pending --confirm" {
	before=$(snap "$NS")
	in1 --confirm 3 a0 set throughput >/dev/null
	run in2 a0 confirm
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"no tentative change to confirm"* ]]
	[ -e "$(np_rec a0 tentative)" ]
	# the watchdog still reverts the device that was changed
	for ((i = 0; i < 80; i++)); do [ ! -e "$(np_rec a0 tentative)" ] && break; sleep 0.1; done
	[ ! -e "$(np_rec a0 tentative)" ]
	[ "$(snap "$NS")" = "$before" ]
}

# The records of the layout before the key (the bare name): moved to the
# key of the namespace they record, left alone by another one.
legacy() {	# set in $NS, then its files under the bare name
	in1 a0 set throughput >/dev/null
	for k in pristine policy sysctl; do
		[ ! -e "$(np_rec a0 $k)" ] || mv "$(np_rec a0 $k)" "$STATE_DIR/a0.$k"
	done
	rm -f "$(np_rec a0 lock)"
	[ -e "$STATE_DIR/a0.pristine" ]
	[ -e "$STATE_DIR/a0.policy" ]
}

@test "records of the bare name are read, and moved, by the namespace they record" {
	before=$(snap "$NS")
	legacy
	# read where they are without the lock
	[ "$(in1 --json a0 show | jq -r .policy)" = throughput ]
	run in1 a0 check throughput
	[ "$status" -eq 0 ]
	# another namespace neither reads nor touches them
	[ "$(in2 --json a0 show | jq -r .policy)" = null ]
	run in2 a0 reset
	[ "$status" -eq 0 ]
	in2 a0 set latency >/dev/null
	in2 a0 reset >/dev/null
	[ -e "$STATE_DIR/a0.pristine" ]
	[ -e "$STATE_DIR/a0.policy" ]
	# the first command under the lock moves them to the key
	run in1 a0 reset
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(snap "$NS")" = "$before" ]
	[ ! -e "$STATE_DIR/a0.pristine" ]
	[ ! -e "$STATE_DIR/a0.policy" ]
	[ ! -e "$(np_rec a0 pristine)" ]
}

@test "set over records of the bare name moves them first: reset returns to the first pristine" {
	before=$(snap "$NS")
	legacy
	in1 a0 set latency >/dev/null
	[ ! -e "$STATE_DIR/a0.pristine" ]
	[ "$(jq -r .policy "$(np_rec a0 policy)")" = latency ]
	in1 a0 reset >/dev/null
	[ "$(snap "$NS")" = "$before" ]
}

# A namespace's inode is given to the next one made once it is gone: its
# records carry its cookie (SO_NETNS_COOKIE), never given twice, and are a
# stale namespace's for the next one.  $NS is deleted and namespaces are
# made (the inode is freed when the kernel has cleaned the old one up)
# until one has its inode; that one becomes $NS.
reuse_inode() {
	local ino n made=() i m
	ino=$(stat -L -c %i "/run/netns/$NS")
	ip netns del "$NS"
	for ((i = 0; i < 50; i++)); do
		n=np-test-$$-$RANDOM-r$i
		ip netns add "$n" && made+=("$n")
		[ "$(stat -L -c %i "/run/netns/$n")" = "$ino" ] && break
		sleep 0.1
	done
	NS=$n
	for m in "${made[@]}"; do [ "$m" = "$n" ] || ip netns del "$m"; done
	[ "$(stat -L -c %i "/run/netns/$NS")" = "$ino" ] || skip "the namespace inode was not given again"
	ip -n "$NS" link add a0 numtxqueues 8 numrxqueues 8 type veth \
		peer name a1 numtxqueues 8 numrxqueues 8
	ip -n "$NS" link set a0 up
}

rx_channels() { ip netns exec "$NS" ethtool -l a0 | sed -n '/Current/,$s/^RX:[[:space:]]*//p'; }

@test "a deleted namespace's records are stale for the next one given its inode" {
	# the pristine a0 of the first namespace has 4 channels, the next one's 8
	ip netns exec "$NS" ethtool -L a0 rx 4 tx 4
	in1 a0 set cpu >/dev/null
	rec=$(np_rec a0 policy)
	reuse_inode
	[ "$(np_rec a0 policy)" = "$rec" ]
	[ "$(rx_channels)" = 8 ]
	in1 --json a0 show >"$NP_TMP/show" 2>"$NP_TMP/err"
	cat "$NP_TMP/err"
	[ "$(jq -r .policy "$NP_TMP/show")" = null ]
	grep -q "records of a deleted network namespace" "$NP_TMP/err"
	run in1 a0 reset
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"moved to $STATE_DIR/a0@netns-"*".stale-"* ]]
	[ "$(rx_channels)" = 8 ]
	# left, aside: never applied, never removed
	ls "$STATE_DIR"/*.pristine.stale-* "$STATE_DIR"/*.policy.stale-*
	[ ! -e "$rec" ]
	# the new namespace's own records work as ever
	in1 a0 set cpu >/dev/null
	[ "$(rx_channels)" = 1 ]
	in1 a0 reset >/dev/null
	[ "$(rx_channels)" = 8 ]
}

@test "a refused pristine snapshot is named by the file that was read" {
	in1 a0 set cpu >/dev/null
	rec=$(np_rec a0 pristine)
	jq -c '.state = {"schema": 1}' "$rec" >"$NP_TMP/p" && cat "$NP_TMP/p" >"$rec"
	run in1 a0 reset
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"$rec"* ]]
}
