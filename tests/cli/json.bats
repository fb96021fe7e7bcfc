#!/usr/bin/env bats
# The output contract of netpolicy-json(7): a schema version on every
# document, typed values, complete CPU lists in one form, and text that says
# whether something would change or did.

load ../helpers

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

@test "every command's JSON document starts with the schema version" {
	np_model few-msix
	local cmd
	for cmd in "show" "eno1 show" "eno1 set throughput --dry-run" "eno1 set throughput" \
		   "eno1 check" "eno1 reset --dry-run" "eno1 reset" "policies"; do
		# shellcheck disable=SC2086
		run npsim --json $cmd
		[ "$status" -eq 0 ] || { echo "$cmd: exit $status"; false; }
		[ "$(jq -c 'keys_unsorted[0], .schema' <<<"$output")" = $'"schema"\n1' ] ||
			{ echo "$cmd: $output" | head -5; false; }
	done
	npsim eno1 set latency --confirm 30 >/dev/null 2>&1
	run npsim --json eno1 confirm
	[ "$status" -eq 0 ]
	[ "$(jq .schema <<<"$output")" = 1 ]
}

@test "plan changes carry typed values: numbers, booleans, CPU lists, null for a new queue" {
	np_model few-msix
	run npsim --json eno1 set cpu --dry-run
	[ "$status" -eq 0 ]
	# channels 8 -> 1: numbers, not strings
	[ "$(jq -c '[.steps[] | select(.knob == "channels") | .changes[0] | .type, .before, .after]' <<<"$output")" = '["uint",8,1]' ]
	# every change says its type and its values have that JSON type
	[ "$(jq '[.steps[].changes[] | select(
		(.type == "uint" and (.after | type) != "number") or
		(.type == "bool" and (.after | type) != "boolean") or
		(.type == "cpus" and (.after | type) != "string") or
		(.type == "indir" and (.after | type) != "object"))] | length' <<<"$output")" = 0 ]
	[ "$(jq '[.steps[].changes[] | .before | select(type == "string" and . == "-")] | length' <<<"$output")" = 0 ]
}

@test "an empty CPU set is the same empty cpulist in plans and in states" {
	np_model few-msix
	# few-msix starts with no XPS: a plan's "before" of XPS is the state's ""
	[ "$(npsim --json eno1 show | jq -r '.queues.tx[0].xps_cpus')" = "" ]
	[ "$(npsim --json eno1 set latency --dry-run |
	     jq -c '[.steps[] | select(.knob == "xps") | .changes[0].before] | unique')" = '[""]' ]
}

@test "CPU lists are complete on a 1024-CPU machine: the plan's lists are what is applied" {
	np_model wide-1024
	npsim --json eno1 set throughput --dry-run >"$NP_TMP/plan.json"
	[ "$(jq '[.steps[].changes[] | select(.type == "cpus") | .after | select(length > 80)] | length' "$NP_TMP/plan.json")" -gt 0 ]
	! grep -q '\.\.\.' "$NP_TMP/plan.json" || false
	npsim eno1 set throughput >/dev/null
	# what the plan said each XPS mask would be is what the device now has
	jq -c '[.steps[] | select(.knob == "xps") | .changes[0] | {q: (.what | ltrimstr("tx-") | tonumber), m: .after}]' \
		"$NP_TMP/plan.json" >"$NP_TMP/want"
	npsim --json eno1 show | jq -c '[.queues.tx[] | select(.xps_cpus != "") | {q: .queue, m: .xps_cpus}]' >"$NP_TMP/got"
	diff "$NP_TMP/want" "$NP_TMP/got"
}

@test "text: a dry run says 'would change', an apply 'changed', a check 'differs in'" {
	np_model few-msix
	run npsim eno1 set throughput --dry-run
	[[ "${lines[0]}" == "eno1: throughput: would change "*" values in "*" steps" ]]
	run npsim eno1 check throughput
	[ "$status" -eq 5 ]
	[[ "${lines[0]}" == "eno1: throughput: differs in "*" values in "*" steps" ]]
	run npsim eno1 set throughput
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "eno1: throughput: changed "*" values in "*" steps" ]]
	run npsim eno1 reset --dry-run
	[[ "${lines[0]}" == "eno1: reset: would change "*" values in "*" steps" ]]
	run npsim eno1 reset
	[[ "${lines[0]}" == "eno1: reset: changed "*" values in "*" steps" ]]
}

@test "netpolicy-json(7) documents every member of every command's document" {
	local man=$NP_SRCDIR/man/netpolicy-json.7 cmd key missing=
	[ -f "$man" ]
	np_model few-msix
	# the members as the page writes them: \(dqkey\(dq or .B key
	documented() { grep -q -e "\\\\(dq$1\\\\(dq" -e "\"$1\":" -e "^\\.B[RI]* $1\\b" -e "^\\.B[RI]* .* $1\\b" "$man"; }
	for cmd in "show" "eno1 show" "eno1 set throughput --dry-run" "eno1 check cpu" "eno1 set throughput" \
		   "eno1 check" "eno1 reset --dry-run" "eno1 reset" "eno1 reset" "policies"; do
		# shellcheck disable=SC2086
		for key in $(npsim --json $cmd | jq -r 'keys[]'); do
			# a show document is a device state: netpolicy-model(5)
			[[ $cmd == "eno1 show" && $key != @(policy|policy_cpus|drift|mixed|other_owners|schema) ]] && continue
			documented "$key" || missing+=" $cmd:$key"
		done
	done
	npsim eno1 set latency --confirm 30 >/dev/null 2>&1
	for key in $(npsim --json eno1 confirm | jq -r 'keys[]'); do
		documented "$key" || missing+=" confirm:$key"
	done
	for key in $(npsim --json eno1 set cpu --dry-run | jq -r '.steps[0].changes[0] | keys[]') \
		   $(npsim --json policies | jq -r '.policies[0] | keys[]'); do
		documented "$key" || missing+=" $key"
	done
	# a mixed device's classes
	np_model mlx5-mixed
	npsim ens1f0np0 set mixed --flow latency:tcp:6379 >/dev/null
	for key in $(npsim --json ens1f0np0 show | jq -r '.mixed | keys[], (.classes | keys[]),
			(.classes.latency | keys[]), (.classes.latency.queues | keys[])'); do
		documented "$key" || missing+=" show mixed:$key"
	done
	[ -z "$missing" ] || { echo "undocumented:$missing"; false; }
}
