#!/usr/bin/env bats
# The mixed policy on a real driver without ntuple filters: veth's
# ethtool_ops (drivers/net/veth.c, veth_ethtool_ops) have no get_rxnfc or
# set_rxnfc, so the kernel answers ETHTOOL_GRXCLSRLCNT with EOPNOTSUPP
# (net/ethtool/ioctl.c, ethtool_get_rxnfc).  set mixed must say so, exit 1,
# and leave the device exactly as it was, with no record.

load ../helpers

setup() { np_veth_setup 4; }
teardown() { np_veth_teardown; }

state() { npns --json v0 show | jq -S 'del(.policy, .policy_cpus, .drift, .mixed)'; }

@test "veth: set mixed fails with the specific error, exit 1, nothing changed" {
	before=$(state)
	run npns v0 set mixed --flow latency:tcp:6379
	[ "$status" -eq 1 ]
	[ "$output" = "netpolicy: v0: ntuple: mixed needs ntuple filters: driver veth has none" ]
	[ "$(state)" = "$before" ]
	[ ! -e "$(np_rec v0 pristine)" ] && [ ! -e "$(np_rec v0 policy)" ]
	# the same with --dry-run and --json: the one line, no document
	run npns --json v0 set mixed --flow latency:tcp:6379 --dry-run
	[ "$status" -eq 1 ]
	[[ "$output" == *"mixed needs ntuple filters: driver veth has none"* ]]
	[ "$(state)" = "$before" ]
}

@test "veth: a device in another policy stays in it when set mixed fails" {
	npns v0 set throughput
	before=$(state)
	rec=$(cat "$(np_rec v0 policy)")
	run npns v0 set mixed --flow latency:tcp:6379 --flow cpu:udp:53
	[ "$status" -eq 1 ]
	[ "$(state)" = "$before" ]
	[ "$(cat "$(np_rec v0 policy)")" = "$rec" ]
	run npns v0 check
	[ "$status" -eq 0 ]
}
