#!/usr/bin/env bats
# NAPI through the real kernel's netdev generic netlink family (netdev.yaml:
# napi-get, queue-get, napi-set) on a veth pair in a private namespace.  veth
# has NAPI instances only with GRO/XDP or threaded NAPI (drivers/net/veth.c
# veth_napi_add / veth_set_threaded): threaded mode gives each rx queue a
# NAPI and a kthread "napi/<ifname>-<napi id>" (Documentation/networking/
# napi.rst, "Threaded NAPI").

load ../helpers

setup() {
	np_tmpdir
	np_netns_veth 2
}

teardown() {
	np_netns_cleanup
	np_cleanup_tmp
}

# napi-get exists since 6.8; the kernel here is checked, not assumed
needs_napi_get() {
	local v
	v=$(uname -r | awk -F. '{ printf "%d%03d", $1, $2 }')
	[ "$v" -ge 6008 ] || skip "kernel $(uname -r) has no napi-get"
}

@test "napi: a veth without GRO, XDP or threads has no NAPI instance" {
	needs_napi_get
	run npns --json v0 show
	[ "$status" -eq 0 ]
	[ "$(jq -c .napis <<<"$output")" = "[]" ]
	[ "$(jq -r .napi.threaded <<<"$output")" = 0 ]
}

# veth makes its NAPIs when GRO goes on (drivers/net/veth.c veth_set_features());
# threaded on a veth without them: EOPNOTSUPP (dev_set_threaded)
veth_threaded() {
	ip netns exec "$NS" ethtool -K v0 gro on
	ip netns exec "$NS" sh -c 'echo 1 > /sys/class/net/v0/threaded'
}

@test "napi: threaded NAPI: every instance with its kthread, as /proc names it" {
	needs_napi_get
	veth_threaded
	run npns --json v0 show
	[ "$status" -eq 0 ]
	echo "$output" >"$NP_TMP/show.json"
	[ "$(jq -r .napi.threaded "$NP_TMP/show.json")" = 1 ]
	# one NAPI per rx queue (veth_napi_add_range)
	[ "$(jq '.napis | length' "$NP_TMP/show.json")" = 2 ]
	for row in $(jq -r '.napis[] | "\(.id):\(.pid)"' "$NP_TMP/show.json"); do
		id=${row%%:*} pid=${row#*:}
		[ "$pid" != null ]
		[ "$(cat "/proc/$pid/comm")" = "napi/v0-$id" ]
	done
	# veth's NAPIs have no IRQ
	[ "$(jq '[.napis[] | select(.irq != null)] | length' "$NP_TMP/show.json")" = 0 ]
}
