#!/usr/bin/env bats
# netpolicy plan on a fresh machine: no configuration file.  --root DIR (the
# test build's) puts the default configuration path
# (/etc/netpolicy/netpolicy.conf) below DIR.

load ../helpers
bats_require_minimum_version 1.5.0

setup() {
	np_tmpdir
	np_model virtio-4q
	DEV=$(jq -r '.devices[0].ifname' "$MODEL")
	# a second device without hardware (a veth-like one: no bus_info)
	jq '.devices += [(.devices[0] | .ifname = "vnet9" | .ifindex = 99 | .bus_info = "" | .irqs = [] | .driver = "veth")]' \
		"$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
	ROOT=$NP_TMP/root
	mkdir -p "$ROOT"
}
teardown() { np_cleanup_tmp; }

# --root is the test build's (tests/netpolicy-test): never the installed binary's
nproot() { np_json_kept "$NETPOLICY_TEST_BIN" --state-dir "$STATE_DIR" --model "$MODEL" --root "$ROOT" "$@"; }

state_of() {
	npsim --json "$1" show | jq -S 'del(.policy, .policy_cpus, .drift)'
}

@test "plan --dry-run without a configuration: the default policy for every device with hardware queues" {
	run nproot plan --dry-run
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"No $ROOT$NP_CONFDIR/netpolicy.conf: the plan of the default policy (throughput)"* ]]
	want=$(npsim "$DEV" set throughput --dry-run)
	[[ "$output" == *"$want"* ]]
	run nproot --json plan --dry-run
	[ "$status" -eq 0 ]
	[ "$(jq -r '.default_policy' <<<"$output")" = throughput ]
	[ "$(jq -r '[.devices[].ifname] | join(" ")' <<<"$output")" = "$DEV" ]	# not vnet9
	[ "$(jq -r '.devices[0].policy' <<<"$output")" = throughput ]
}

@test "plan without --dry-run and without a configuration: one line saying what to write where, nothing changed" {
	before=$(state_of "$DEV")
	run --separate-stderr nproot plan
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$(wc -l <<<"$stderr")" -eq 1 ]
	[[ "$stderr" == *"no $ROOT$NP_CONFDIR/netpolicy.conf: write it"*"policy = NAME"*"netpolicy.conf(5)"* ]]
	[ "$(state_of "$DEV")" = "$before" ]
}

@test "the configuration is read from /etc/netpolicy/netpolicy.conf" {
	mkdir -p "$ROOT$NP_CONFDIR"
	printf '[%s]\npolicy = latency\n' "$DEV" >"$ROOT$NP_CONFDIR/netpolicy.conf"
	run nproot --json plan
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(jq -r .config <<<"$output")" = "$ROOT$NP_CONFDIR/netpolicy.conf" ]
	run npsim "$DEV" check latency
	[ "$status" -eq 0 ]
	run "$NETPOLICY" --help
	[[ "$output" == *"$NP_CONFDIR/netpolicy.conf"* ]]
}
