#!/usr/bin/env bats
# Custom policies (netpolicy-policy(5)): files that start from a built-in and
# override its values, used by set, check, plan and listed by policies.

load ../helpers
bats_require_minimum_version 1.5.0

setup() {
	np_tmpdir
	POL=$NP_TMP/policies.d
	mkdir -p "$POL"
}
teardown() { np_cleanup_tmp; }

npp() { npsim --policy-dir "$POL" "$@"; }

@test "a custom policy works end to end: set, check, show, the values applied" {
	np_model few-msix
	cat >"$POL/bulk.conf" <<-EOF
	# latency with some moderation (igb: fixed usecs, no adaptive mode)
	base = latency
	summary = bulk transfers
	coalesce.rx-usecs = 100
	rfs-entries = 65536
	EOF
	run npp eno1 set bulk --dry-run
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "eno1: bulk: would change "* ]]
	[[ "$output" == *"  coalesce: rx-usecs 3 -> 100"* ]]
	[[ "$output" == *"  sysctl: net.core.rps_sock_flow_entries 0 -> 65536"* ]]
	# everything else as latency has it (RFS's per-queue counts follow
	# the table size)
	npsim eno1 set latency --dry-run | grep -v "rx-usecs\|rps_sock_flow_entries\|flow-cnt\|^eno1" >"$NP_TMP/t"
	npp eno1 set bulk --dry-run | grep -v "rx-usecs\|rps_sock_flow_entries\|flow-cnt\|^eno1" | diff "$NP_TMP/t" -
	run npp eno1 set bulk
	[ "$status" -eq 0 ]
	[ "$(jq '.devices[0].coalesce.fields["rx-usecs"]' "$MODEL")" = 100 ]
	# check and show find the recorded policy through the same directory
	run npp eno1 check
	[ "$status" -eq 0 ]
	[ "$output" = "eno1: matches policy bulk" ]
	[ "$(npp --json eno1 show | jq -c '[.policy, .drift]')" = '["bulk",0]' ]
}

@test "policies lists custom policies with where each value comes from" {
	printf 'base = latency\n\ncoalesce.tx-usecs = 20\nrings = burst\n' >"$POL/fast.conf"
	run "$NETPOLICY" --policy-dir "$POL" policies
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\nfast\n'* ]]
	[[ "$output" == *"from $POL/fast.conf, based on latency"* ]]
	# a line too wide for 80 columns (the test's long directory) goes on
	# under its value: compared with the lines joined
	flat=$(tr -s ' \n' '  ' <<<"$output")
	[[ "$flat" == *" rings = burst ($POL/fast.conf:4)"* ]]
	[[ "$flat" == *" coalesce.tx-usecs = 20 ($POL/fast.conf:3)"* ]]
	[[ "$output" == *"    channels                 = local-cores  (built-in)"* ]]
	run "$NETPOLICY" --policy-dir "$POL" --json policies
	[ "$(jq -c '.policies[] | select(.name == "fast") | [.base, .file, .values.rings, .origin.rings, .origin.channels, .values["coalesce.tx-usecs"]]' <<<"$output")" = \
	  "[\"latency\",\"$POL/fast.conf\",\"burst\",\"$POL/fast.conf:4\",\"built-in\",20]" ]
	[ "$(jq -r '[.policies[].name] | join(" ")' <<<"$output")" = "cpu latency busy-poll throughput mixed fast" ]
}

@test "a file named after a built-in adjusts it" {
	np_model few-msix
	printf 'coalesce.rx-usecs = 77\n' >"$POL/latency.conf"
	run npp eno1 set latency --dry-run
	[[ "$output" == *"  coalesce: rx-usecs 3 -> 77"* ]]
	run "$NETPOLICY" --policy-dir "$POL" --json policies
	[ "$(jq -c '[.policies[] | select(.name == "latency") | .values["coalesce.rx-usecs"], .origin["coalesce.rx-usecs"]]' <<<"$output")" = \
	  "[77,\"$POL/latency.conf:1\"]" ]
}

@test "mistakes name the file, the line and the column; nothing is changed" {
	np_model few-msix
	cp "$MODEL" "$NP_TMP/orig.json"
	check_err() {	# check_err CONTENT EXPECTED
		printf "$1" >"$POL/bad.conf"
		run npp eno1 set bad
		[ "$status" -eq 2 ] || { echo "exit $status: $output"; return 1; }
		[ "$output" = "netpolicy: eno1: $POL/bad.conf:$2" ] || { echo "got: $output"; return 1; }
	}
	check_err 'base = throughput\nrings = huge\n' "2:9: 'huge' is not a value of rings (valid: a number from 1, keep burst max)"
	check_err 'base = throughput\n  colour = blue\n' "2:3: unknown key 'colour' (netpolicy-policy(5) lists them)"
	check_err 'base = throughput\ncoalesce.rx-usecs = -1\n' "2:21: coalesce.rx-usecs: '-1' is not a number (0-4294967295)"
	check_err 'base = throughput\ncoalesce.rx-warp = 1\n' "2:1: unknown coalescing parameter 'rx-warp'"
	check_err '# no base\nrings = burst\n' "2:1: the first setting must be 'base = POLICY' (cpu, latency, ...)"
	check_err 'base = turbo\n' "1:8: base: 'turbo' is not a built-in policy"
	check_err 'rings = burst\nbase = cpu\n' "1:1: the first setting must be 'base = POLICY' (cpu, latency, ...)"
	check_err 'base = cpu\nnapi yes\n' "2:1: expected 'key = value'"
	# what follows a NUL byte is not silently ignored
	check_err 'base = cpu\nrings = burst\0colour = blue\n' "2:14: a NUL byte"
	check_err 'base = cpu\nnapi = maybe\n' "2:8: napi: 'maybe' is not yes or no"
	cmp "$MODEL" "$NP_TMP/orig.json"
	# and policies reports the same
	run "$NETPOLICY" --policy-dir "$POL" policies
	[ "$status" -eq 2 ]
	[[ "$output" == *"$POL/bad.conf:2:8: napi: 'maybe' is not yes or no"* ]]
}

@test "netpolicy.conf can name a custom policy" {
	np_model few-msix
	printf 'base = cpu\nchannels = local-cores\n' >"$POL/wide.conf"
	printf '[eno1]\npolicy = wide\n' >"$NP_TMP/c.conf"
	run npp plan --config "$NP_TMP/c.conf" --dry-run
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "eno1: wide: would change "* ]]
	# without the directory the name is unknown: a mistake in the file
	run npsim --policy-dir "$NP_TMP/none" plan --config "$NP_TMP/c.conf" --dry-run
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown policy 'wide'"* ]]
}

@test "policies --json round-trips: each policy's values, as a file, plan exactly as the policy" {
	"$NETPOLICY" --policy-dir "$POL" --json policies >"$NP_TMP/p.json"
	# every built-in rebuilt from another built-in and the JSON's values
	for name in $(jq -r '.policies[].name' "$NP_TMP/p.json"); do
		other=$(jq -r --arg n "$name" '[.policies[].name | select(. != $n)][0]' "$NP_TMP/p.json")
		# the other's coalescing fields this one does not set: "keep"
		jq -r --arg n "$name" --arg b "$other" '
			(.policies[] | select(.name == $b) | .values | keys) as $bk |
			.policies[] | select(.name == $n) |
			"base = \($b)", "summary = \(.summary)",
			(.values | to_entries[] | "\(.key) = \(.value | if type == "boolean" then (if . then "yes" else "no" end) else tostring end)"),
			(.values as $v | $bk[] | select(startswith("coalesce.") and ($v[.] == null)) | "\(.) = keep")' \
			"$NP_TMP/p.json" >"$POL/copy-$name.conf"
	done
	for model in $(cat "$FIXTURES/golden/models.list"); do
		np_model "$model"
		dev=$(jq -r '.devices[0].ifname' "$MODEL")
		for name in cpu latency busy-poll throughput; do
			npp --json "$dev" set "$name" --dry-run | jq -S 'del(.policy)' >"$NP_TMP/a"
			npp --json "$dev" set "copy-$name" --dry-run | jq -S 'del(.policy)' >"$NP_TMP/b"
			diff -u "$NP_TMP/a" "$NP_TMP/b" || { echo "$model: copy-$name plans differently"; false; }
		done
	done
	# and the copies list the same values as the originals
	"$NETPOLICY" --policy-dir "$POL" --json policies >"$NP_TMP/q.json"
	for name in cpu latency busy-poll throughput; do
		[ "$(jq -cS --arg n "$name" '.policies[] | select(.name == $n) | [.summary, .values]' "$NP_TMP/q.json")" = \
		  "$(jq -cS --arg n "copy-$name" '.policies[] | select(.name == $n) | [.summary, .values]' "$NP_TMP/q.json")" ]
	done
}

@test "a custom mixed policy's flow, default-class and weight: what set uses without --flow, --default, --weight" {
	cat >"$POL/web.conf" <<-EOF
	base = mixed
	flow = latency:tcp:6379
	# a comment between the flows
	flow = cpu:udp:53
	default-class = cpu
	weight = cpu=3
	EOF
	rules() { npsim --json "$1" show | jq -c '[.ntuple.rules[] | del(.location)] | sort_by(.flow)'; }
	np_model mlx5-mixed
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	STATE_DIR=$NP_TMP/cli
	run npsim "$dev" set mixed --flow latency:tcp:6379 --flow cpu:udp:53 --default cpu --weight cpu=3
	[ "$status" -eq 0 ]
	want=$(rules "$dev")
	want_mixed=$(npsim --json "$dev" show | jq -c '.mixed | del(.policy)')
	np_model mlx5-mixed
	STATE_DIR=$NP_TMP/file
	run npp "$dev" set web
	[ "$status" -eq 0 ]
	got=$(rules "$dev")
	[ "$(jq 'length' <<<"$got")" -eq 3 ]	# the two flows' and the fixture's foreign one
	[ "$got" = "$want" ]
	[ "$(npp --json "$dev" show | jq -c '.mixed | del(.policy)')" = "$want_mixed" ]
	[ "$(npp --json "$dev" show | jq -c '[.policy, .mixed.default, .drift]')" = '["web","cpu",0]' ]
	# the command line wins, key by key: --flow replaces the file's flows,
	# the file's default class stays
	np_model mlx5-mixed
	STATE_DIR=$NP_TMP/both
	run npp --json "$dev" set web --flow throughput:tcp:5201
	[ "$status" -eq 0 ]
	[ "$(npp --json "$dev" show | jq -c '[.mixed.flows, .mixed.default]')" = '[["throughput:tcp:5201"],"cpu"]' ]
	# policies lists them with their lines, and --json round-trips them
	run "$NETPOLICY" --policy-dir "$POL" --json policies
	[ "$status" -eq 0 ]
	[ "$(jq -c '.policies[] | select(.name == "web") | [.values.flow, .values["default-class"], .values.weight, .origin.flow, .origin.weight]' <<<"$output")" = \
	  "[[\"latency:tcp:6379\",\"cpu:udp:53\"],\"cpu\",\"cpu=3\",\"$POL/web.conf:2\",\"$POL/web.conf:6\"]" ]
	jq -r '.policies[] | select(.name == "web") | "base = \(.base)",
		(.values | to_entries[] | .key as $k | (.value | if type == "array" then .[] else . end) |
		 "\($k) = \(if type == "boolean" then (if . then "yes" else "no" end) else tostring end)")' \
		<<<"$output" >"$POL/web2.conf"
	run "$NETPOLICY" --policy-dir "$POL" --json policies
	[ "$(jq -cS '.policies[] | select(.name == "web") | .values' <<<"$output")" = \
	  "$(jq -cS '.policies[] | select(.name == "web2") | .values' <<<"$output")" ]
	np_model mlx5-mixed
	STATE_DIR=$NP_TMP/copy
	run npp "$dev" set web2
	[ "$status" -eq 0 ]
	[ "$(rules "$dev")" = "$want" ]
}

@test "a custom mixed policy's mistakes name the file, the line and the column; not under another base" {
	np_model mlx5-mixed
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	cp "$MODEL" "$NP_TMP/orig.json"
	check_err() {	# check_err CONTENT EXPECTED
		printf "$1" >"$POL/bad.conf"
		run npp "$dev" set bad
		[ "$status" -eq 2 ] || { echo "exit $status: $output"; return 1; }
		[ "$output" = "netpolicy: $dev: $POL/bad.conf:$2" ] || { echo "got: $output"; return 1; }
	}
	check_err 'base = mixed\nflow = latency:tcp:6379\nflow = fast:tcp:80\n' \
		"3:8: flow \"fast:tcp:80\": column 1: unknown class 'fast' (latency, throughput, cpu)"
	check_err 'base = mixed\nflow = latency:tcp:99999\n' \
		"2:8: flow \"latency:tcp:99999\": column 13: expected a port number (1-65535)"
	check_err 'base = mixed\ndefault-class = turbo\n' "2:17: unknown class 'turbo' (latency, throughput, cpu)"
	check_err 'base = mixed\nweight = latency=x\n' "2:10: weight 'latency=x': expected a number from 1 to 64"
	check_err 'base = mixed\ndefault-class = cpu\ndefault-class = latency\n' "3:17: default-class given twice"
	check_err 'base = throughput\nflow = latency:tcp:6379\n' \
		"2:1: flow, default-class and weight are for a policy based on mixed, not on throughput"
	check_err 'base = throughput\n  weight = latency=2\n' \
		"2:3: flow, default-class and weight are for a policy based on mixed, not on throughput"
	cmp "$MODEL" "$NP_TMP/orig.json"
}

# A record whose custom policy file was removed since the apply: before,
# show said "policy": null (an untouched device, to facts and the role's
# reset loop) while reset had steps, and metrics said read_ok 0 next to
# policy_info.  It is that policy, marked missing, everywhere.
@test "a custom policy whose file is gone: shown as that policy marked missing (text, JSON, metrics), and reset works" {
	np_model few-msix
	printf 'base = latency\ncoalesce.rx-usecs = 100\n' >"$POL/c2.conf"
	npp eno1 set c2 >/dev/null
	rm "$POL/c2.conf"
	run npp --json eno1 show
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.policy, .policy_missing, .drift]' <<<"$output")" = '["c2",true,null]' ]
	run npp --json show
	[ "$status" -eq 0 ]
	[ "$(jq -c '.devices[] | select(.ifname == "eno1") | [.policy, .policy_missing]' <<<"$output")" = '["c2",true]' ]
	run npp eno1 show
	[ "$status" -eq 0 ]
	[[ "$output" == *"policy:        c2 (missing: no such policy any more; reset undoes it)"* ]]
	run npp eno1 metrics
	echo "$output"
	[ "$status" -eq 0 ]
	grep -qx 'netpolicy_device_read_ok{device="eno1"} 1' <<<"$output"
	grep -qx 'netpolicy_policy_missing{device="eno1"} 1' <<<"$output"
	grep -q '^netpolicy_policy_info{device="eno1",policy="c2"' <<<"$output"
	! grep -q '^netpolicy_policy_matches' <<<"$output" || false
	# reset restores the device from its record, which needs no policy
	run npp eno1 reset
	echo "$output"
	[ "$status" -eq 0 ]
	run npp --json eno1 show
	[ "$(jq -c '[.policy, .policy_missing]' <<<"$output")" = '[null,false]' ]
	[ "$(jq '.devices[0].coalesce.fields["rx-usecs"]' "$MODEL")" = 3 ]
}

@test "RFS where the socket table cannot be read (a child netns): no per-queue flow tables" {
	np_model ixgbe-16cpu
	jq '.sysctl.rps_sock_flow_entries = null | .sysctl.rps_sock_flow_entries_error = "No such file or directory"
	    | .sysctl.rps_sock_flow_entries_errno = "ENOENT"' "$MODEL" >"$MODEL.new" && mv "$MODEL.new" "$MODEL"
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	run npsim "$dev" set latency --dry-run
	[ "$status" -eq 0 ]
	[[ "$output" == *"RFS cannot steer, the queues' rps_flow_cnt stay 0"* ]]
	[[ "$output" != *"flow-cnt"* ]]
	run npsim --json "$dev" set latency
	[ "$status" -eq 0 ]
	[ "$(jq '[.devices[0].queues.rx[].rps_flow_cnt] | max' "$MODEL")" = 0 ]
	run npsim "$dev" check latency
	[ "$status" -eq 0 ]
}
