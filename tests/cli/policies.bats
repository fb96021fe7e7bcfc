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
	[[ "$output" == *"    rings                    = burst        ($POL/fast.conf:4)"* ]]
	[[ "$output" == *"    coalesce.tx-usecs        = 20           ($POL/fast.conf:3)"* ]]
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
	check_err 'base = throughput\nrings = huge\n' "2:9: 'huge' is not a value of rings (valid: keep burst)"
	check_err 'base = throughput\n  colour = blue\n' "2:3: unknown key 'colour' (netpolicy-policy(5) lists them)"
	check_err 'base = throughput\ncoalesce.rx-usecs = -1\n' "2:21: coalesce.rx-usecs: '-1' is not a number (0-4294967295)"
	check_err 'base = throughput\ncoalesce.rx-warp = 1\n' "2:1: unknown coalescing parameter 'rx-warp'"
	check_err '# no base\nrings = burst\n' "2:1: the first setting must be 'base = POLICY' (cpu, latency, ...)"
	check_err 'base = turbo\n' "1:8: base: 'turbo' is not a built-in policy"
	check_err 'rings = burst\nbase = cpu\n' "1:1: the first setting must be 'base = POLICY' (cpu, latency, ...)"
	check_err 'base = cpu\nnapi yes\n' "2:1: expected 'key = value'"
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
