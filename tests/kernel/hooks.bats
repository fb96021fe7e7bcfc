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

# ifupdown runs if-up.d with `run-parts --exit-on-error`: a hook that exits
# non-zero aborts ifup (the interface is not recorded in ifstate) and the
# hooks after it never run.  A typo in netpolicy.conf is not the link's
# fault: it is logged (logger, replaced here by one that records its
# arguments) and the hook exits 0.
@test "a typo in netpolicy.conf does not fail run-parts --exit-on-error: logged, exit 0, later hooks run" {
	printf '[v0]\npolicy = throughputt\n' >"$CONF"
	run npns plan --config "$CONF" v1
	[ "$status" -ne 0 ]		# netpolicy itself does report the typo
	parts=$NP_TMP/if-up.d bin=$NP_TMP/bin
	mkdir -p "$parts" "$bin"
	cp "$HOOK" "$parts/netpolicy"
	printf '#!/bin/sh\necho "$IFACE" >>%s/after.ran\n' "$NP_TMP" >"$parts/zz-after"
	printf '#!/bin/sh\nprintf "%%s\\n" "$*" >>%s/logged\n' "$NP_TMP" >"$bin/logger"
	chmod +x "$parts/zz-after" "$bin/logger"
	for dev in v1 mgmt0 v0; do	# not named, absent, named with the typo
		run ip netns exec "$NS" env -i PATH="$bin:$PATH" NETPOLICY="$NETPOLICY" \
			NETPOLICY_OPTS="--state-dir $STATE_DIR" NETPOLICY_CONFIG="$CONF" \
			IFACE=$dev MODE=start PHASE=post-up run-parts --exit-on-error "$parts"
		echo "$dev: $output"
		[ "$status" -eq 0 ]
	done
	[ "$(cat "$NP_TMP/after.ran")" = "$(printf 'v1\nmgmt0\nv0')" ]
	cat "$NP_TMP/logged"
	[ "$(grep -c 'netpolicy plan .* exited' "$NP_TMP/logged")" -eq 3 ]
	grep -q 'throughputt' "$NP_TMP/logged"
	# and a missing netpolicy binary is logged the same way
	run ip netns exec "$NS" env -i PATH="$bin:$PATH" NETPOLICY=/nonexistent/netpolicy \
		NETPOLICY_CONFIG="$CONF" IFACE=v1 MODE=start PHASE=post-up run-parts --exit-on-error "$parts"
	[ "$status" -eq 0 ]
	grep -q 'netpolicy plan v1 exited 127' "$NP_TMP/logged"
}
