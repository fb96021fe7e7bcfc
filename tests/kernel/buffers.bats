#!/usr/bin/env bats
# The throughput policy's socket buffer ceilings on this machine's kernel,
# inside the test's own network namespace: net.ipv4.tcp_rmem/tcp_wmem are
# per namespace (set, check, reset exact there); net.core.rmem_max/wmem_max
# are one value for the machine, read-only in a child namespace since 6.11
# (a note), and netdev_max_backlog is not in a child namespace at all.  The
# initial namespace's values are saved first and restored on the way out if
# anything changed them (nothing here writes them).

load ../helpers

INIT_FILES="core/rmem_max core/wmem_max ipv4/tcp_rmem ipv4/tcp_wmem core/netdev_max_backlog"

save_init() {
	local f
	for f in $INIT_FILES; do
		cat "/proc/sys/net/$f" >"$NP_TMP/init.${f//\//_}"
	done
}

restore_init() {
	local f
	for f in $INIT_FILES; do
		[ -f "$NP_TMP/init.${f//\//_}" ] || continue
		cmp -s "/proc/sys/net/$f" "$NP_TMP/init.${f//\//_}" ||
			cat "$NP_TMP/init.${f//\//_}" >"/proc/sys/net/$f"
	done
}

init_unchanged() {
	local f
	for f in $INIT_FILES; do
		cmp "/proc/sys/net/$f" "$NP_TMP/init.${f//\//_}" || return 1
	done
}

setup() {
	np_veth_setup 2
	save_init
	# a small tcp ceiling in this namespace only, so the plan raises it
	ip netns exec "$NS" sh -c 'echo "4096 131072 262144" >/proc/sys/net/ipv4/tcp_rmem &&
		echo "4096 16384 262144" >/proc/sys/net/ipv4/tcp_wmem'
}

teardown() {
	[ -z "${NS2:-}" ] || ip netns del "$NS2" 2>/dev/null || true
	restore_init
	np_veth_teardown
}

nsread() { ip netns exec "$NS" cat "/proc/sys/net/$1" | tr -s ' \t' ' '; }

@test "throughput on a 10 Gb/s veth: tcp_rmem/tcp_wmem max raised in the namespace; check; reset exact" {
	[ "$(ip netns exec "$NS" cat /sys/class/net/v0/speed)" = 10000 ] || skip "veth speed not 10000"
	run npns v0 set throughput
	[ "$status" -eq 0 ]
	[[ "$output" == *"sysctl: net.ipv4.tcp_rmem max 262144 -> 626688"* ]]
	[[ "$output" == *"sysctl: net.ipv4.tcp_wmem max 262144 -> 626688"* ]]
	[ "$(nsread ipv4/tcp_rmem)" = "4096 131072 626688" ]
	[ "$(nsread ipv4/tcp_wmem)" = "4096 16384 626688" ]
	run npns v0 check
	[ "$status" -eq 0 ]
	run npns v0 set throughput
	[[ "$output" == *"no changes"* ]]
	npns v0 reset >/dev/null
	[ "$(nsread ipv4/tcp_rmem)" = "4096 131072 262144" ]
	[ "$(nsread ipv4/tcp_wmem)" = "4096 16384 262144" ]
	init_unchanged
}

@test "in a child namespace rmem_max/wmem_max are a note, netdev_max_backlog absent; nothing fails" {
	run ip netns exec "$NS" test -e /proc/sys/net/core/netdev_max_backlog
	[ "$status" -ne 0 ]
	run npns v0 set throughput --dry-run
	[ "$status" -eq 0 ]
	if [ -e "/proc/sys/net/core/rmem_max" ] &&
		ip netns exec "$NS" test -e /proc/sys/net/core/rmem_max; then
		# 6.11 and later: visible read-only (mode 0444)
		[[ "$output" == *"buffers: net.core.rmem_max/wmem_max: read-only in this network namespace"* ]]
	else
		[[ "$output" == *"buffers: net.core.rmem_max/wmem_max: not in this network namespace"* ]]
	fi
	run npns --json v0 show
	[ "$(jq -r '.sysctl.netdev_max_backlog_errno' <<<"$output")" = ENOENT ]
	[ "$(jq -c '.sysctl.tcp_rmem' <<<"$output")" = "[4096,131072,262144]" ]
	init_unchanged
}

@test "a custom socket-buffers value is set, checked and reset exactly in the namespace" {
	mkdir -p "$NP_TMP/pol"
	printf 'base = throughput\nsocket-buffers = 1048576\n' >"$NP_TMP/pol/mb.conf"
	run npns --policy-dir "$NP_TMP/pol" v0 set mb
	[ "$status" -eq 0 ]
	[ "$(nsread ipv4/tcp_rmem)" = "4096 131072 1048576" ]
	run npns --policy-dir "$NP_TMP/pol" v0 check
	[ "$status" -eq 0 ]
	npns --policy-dir "$NP_TMP/pol" v0 reset >/dev/null
	[ "$(nsread ipv4/tcp_rmem)" = "4096 131072 262144" ]
	init_unchanged
}

@test "two veths in the namespace: the largest need wins, a reset keeps the other's" {
	[ "$(ip netns exec "$NS" cat /sys/class/net/v0/speed)" = 10000 ] || skip "veth speed not 10000"
	mkdir -p "$NP_TMP/pol"
	printf 'base = throughput\nsocket-buffers = 2097152\n' >"$NP_TMP/pol/big.conf"
	npns --policy-dir "$NP_TMP/pol" v1 set big >/dev/null
	npns --policy-dir "$NP_TMP/pol" v0 set throughput >/dev/null
	[ "$(nsread ipv4/tcp_rmem)" = "4096 131072 2097152" ]
	npns --policy-dir "$NP_TMP/pol" v1 reset >/dev/null
	[ "$(nsread ipv4/tcp_rmem)" = "4096 131072 626688" ]
	[ "$(nsread ipv4/tcp_wmem)" = "4096 16384 626688" ]
	run npns --policy-dir "$NP_TMP/pol" v0 check
	[ "$status" -eq 0 ]
	npns --policy-dir "$NP_TMP/pol" v0 reset >/dev/null
	[ "$(nsread ipv4/tcp_rmem)" = "4096 131072 262144" ]
	[ "$(nsread ipv4/tcp_wmem)" = "4096 16384 262144" ]
	init_unchanged
}

@test "two namespaces, one state directory: each namespace's tcp ceilings its own, reset exact in each" {
	[ "$(ip netns exec "$NS" cat /sys/class/net/v0/speed)" = 10000 ] || skip "veth speed not 10000"
	NS2=np-test2-$$-$RANDOM
	ip netns add "$NS2"
	ip -n "$NS2" link add v0 type veth peer name v1
	ip -n "$NS2" link set v0 up
	ip -n "$NS2" link set v1 up
	# another pristine value there, and a policy that needs more
	ip netns exec "$NS2" sh -c 'echo "4096 131072 196608" >/proc/sys/net/ipv4/tcp_rmem &&
		echo "4096 16384 196608" >/proc/sys/net/ipv4/tcp_wmem'
	mkdir -p "$NP_TMP/pol"
	printf 'base = throughput\nsocket-buffers = 2097152\n' >"$NP_TMP/pol/big.conf"
	np2() { ip netns exec "$NS2" "$NETPOLICY" --state-dir "$STATE_DIR" --policy-dir "$NP_TMP/pol" "$@"; }
	np2 v0 set big >/dev/null
	run npns v0 set throughput
	[ "$status" -eq 0 ]
	# this namespace: its own need (626688), not the other namespace's
	[ "$(nsread ipv4/tcp_rmem)" = "4096 131072 626688" ]
	# each reset returns its namespace to its own earlier value
	run npns v0 reset
	[ "$status" -eq 0 ]
	[ "$(nsread ipv4/tcp_rmem)" = "4096 131072 262144" ]
	[ "$(nsread ipv4/tcp_wmem)" = "4096 16384 262144" ]
	[ "$(ip netns exec "$NS2" cat /proc/sys/net/ipv4/tcp_rmem | tr -s ' \t' ' ')" = "4096 131072 2097152" ]
	np2 v0 reset >/dev/null
	[ "$(ip netns exec "$NS2" cat /proc/sys/net/ipv4/tcp_rmem | tr -s ' \t' ' ')" = "4096 131072 196608" ]
	[ "$(ip netns exec "$NS2" cat /proc/sys/net/ipv4/tcp_wmem | tr -s ' \t' ' ')" = "4096 16384 196608" ]
	ip netns del "$NS2"
	init_unchanged
}
