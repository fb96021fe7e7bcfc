#!/usr/bin/env bats
# Staying applied: the link-up hook netpolicy ships (contrib/netpolicy-link-up,
# installed for ifupdown, NetworkManager and networkd-dispatcher) brings a
# configured device back to its policy after a link down/up, on a veth pair
# in a private namespace.  A link down/up on a real NIC re-requests its IRQs
# (ndo_open) and some drivers reset queue settings; here the loss is made
# by hand while the link is down, as such a driver would.

load ../helpers

setup() {
	np_veth_setup 4
	HOOK=$NP_BUILDDIR/contrib/hooks/ifupdown/netpolicy
	[ -x "$HOOK" ] || skip "hook not built"
	CONF=$NP_TMP/netpolicy.conf
	printf '[v0]\npolicy = throughput\n' >"$CONF"
}

teardown() { np_veth_teardown; }

hook() {	# hook ENV... -- ARGS...: the shipped hook inside the namespace
	local env=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do env+=("$1"); shift; done
	shift
	ip netns exec "$NS" env -i PATH="$PATH" NETPOLICY="$NETPOLICY" \
		NETPOLICY_OPTS="--state-dir $STATE_DIR" NETPOLICY_CONFIG="$CONF" "${env[@]}" \
		"$HOOK" "$@"
}

lose_policy() {	# what a driver that resets its queues on down/up leaves
	ip -n "$NS" link set v0 down
	ip netns exec "$NS" sh -c 'for f in /sys/class/net/v0/queues/*/xps_cpus \
		/sys/class/net/v0/queues/*/rps_cpus; do echo 0 >"$f"; done'
	ip netns exec "$NS" ethtool -L v0 rx 1 tx 1 2>/dev/null || true
}

@test "ifupdown post-up: the policy is back after link down/up" {
	hook IFACE=v0 MODE=start PHASE=post-up --
	run npns v0 check throughput
	[ "$status" -eq 0 ]
	lose_policy
	ip -n "$NS" link set v0 up
	run npns v0 check throughput
	[ "$status" -eq 5 ]		# lost: the hook is what brings it back
	hook IFACE=v0 MODE=start PHASE=post-up --
	run npns v0 check throughput
	echo "$output"
	[ "$status" -eq 0 ]
	# idempotent: a second run changes nothing
	run npns --json plan --config "$CONF" v0
	[ "$status" -eq 0 ]
	[ "$(jq .changed <<<"$output")" = false ]
}

@test "NetworkManager dispatcher (IFACE up) and networkd-dispatcher (IFACE, STATE) re-apply too" {
	hook IFACE=v0 MODE=start PHASE=post-up --
	lose_policy
	ip -n "$NS" link set v0 up
	hook NM_DISPATCHER_ACTION=up -- v0 up
	run npns v0 check throughput
	[ "$status" -eq 0 ]
	lose_policy
	ip -n "$NS" link set v0 up
	hook NM_DISPATCHER_ACTION=down -- v0 down	# other actions: nothing
	run npns v0 check throughput
	[ "$status" -eq 5 ]
	hook IFACE=v0 STATE=carrier --
	run npns v0 check throughput
	[ "$status" -eq 0 ]
}

@test "the hook leaves alone devices the configuration does not name, and runs without a configuration" {
	before=$(veth_snapshot)
	run hook IFACE=v1 MODE=start PHASE=post-up --
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	rm "$CONF"
	run hook IFACE=v0 MODE=start PHASE=post-up --
	[ "$status" -eq 0 ]
	[ "$(veth_snapshot)" = "$before" ]
}
