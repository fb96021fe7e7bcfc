#!/usr/bin/env bats
# Graceful refusal: a driver that refuses a knob (any errno but the few
# that leave the device's state unknown, netpolicy(8) "What degrades") gets
# the policy without that knob, or without the one field of a coalescing
# request it refused, applied all or nothing, with the knob and the kernel's
# reason reported; `check` accepts the result.  --strict keeps
# all-or-nothing.

load ../helpers

setup() {
	np_tmpdir
	np_model mlx5-2s64c
	DEV=$(jq -r '.devices[0].ifname' "$MODEL")
}
teardown() { np_cleanup_tmp; }

fault() {	# fault FAULT-JSON: the model's only injected fault
	jq --argjson f "$1" '.faults = [$f]' "$MODEL" >"$NP_TMP/f.json" && mv "$NP_TMP/f.json" "$MODEL"
}

state_of() {	# the device as JSON, without netpolicy's own bookkeeping
	npsim --json "$DEV" show | jq -S 'del(.policy, .policy_cpus, .drift)'
}

@test "a refused refinement is dropped and reported; the rest applies and check passes" {
	# the driver refuses every coalescing request, whatever its fields
	fault '{"op":"set_coalesce","after":0,"errno":"EINVAL","extack":"rx-usecs out of range"}'
	jq '.faults += [(.faults[0] | .after = 1), (.faults[0] | .after = 2)]' "$MODEL" >"$NP_TMP/f.json" &&
		mv "$NP_TMP/f.json" "$MODEL"
	run npsim "$DEV" set latency
	[ "$status" -eq 0 ]
	[[ "$output" == *"$DEV: dropped coalesce (the driver refused it: coalesce: "*"rx-usecs out of range)"* ]]
	# one line for the knob: the field tried alone first is part of it
	[ "$(grep -c dropped <<<"$output")" -eq 1 ]
	# everything else of the plan is there: channels and IRQs moved
	[ "$(npsim --json "$DEV" show | jq '.channels.combined')" -eq 32 ]
	run npsim "$DEV" check
	[ "$status" -eq 0 ]
	[[ "$output" == "$DEV: matches policy latency" ]]
	# the record says what was left out, and a second set writes nothing
	[[ ",$(jq -r .drop "$STATE_DIR/$DEV.policy")," == *,coalesce,* ]]
	run npsim --json "$DEV" set latency
	[ "$status" -eq 0 ]
	[ "$(jq '.changed' <<<"$output")" = false ]
	[ "$(jq '.writes' <<<"$output")" -eq 0 ]
}

@test "a refused field is left out alone: the request's other fields apply, check passes" {
	fault '{"op":"set_coalesce","field":"rx-usecs","errno":"ERANGE","extack":"rx-usecs out of range"}'
	run npsim --json "$DEV" set latency
	[ "$status" -eq 0 ]
	[ "$(jq -c '.dropped' <<<"$output")" = \
	  '[{"knob":"coalesce","field":"rx-usecs","errno":"ERANGE","reason":"coalesce: rx-usecs out of range"}]' ]
	[ "$(jq '.rolled_back' <<<"$output")" = false ]
	# rx-usecs as it was, the other fields of the plan applied
	[ "$(npsim --json "$DEV" show | jq -c '.coalesce.fields | [.["rx-usecs"], .["rx-frames"], .["adaptive-rx"]]')" = '[8,1,false]' ]
	[ "$(jq -r .drop "$STATE_DIR/$DEV.policy")" = coalesce.rx-usecs ]
	run npsim --json "$DEV" check
	[ "$status" -eq 0 ]
	[ "$(jq '.drift' <<<"$output")" = false ]
	run npsim "$DEV" set latency
	[ "$status" -eq 0 ]
	[[ "$output" != *dropped* ]]
}

@test "a refused field in text: knob, field and the kernel's reason" {
	fault '{"op":"set_coalesce","field":"tx-frames","errno":"EOPNOTSUPP","extack":"tx-frames not supported"}'
	run npsim "$DEV" set latency
	[ "$status" -eq 0 ]
	[[ "$output" == *"$DEV: dropped coalesce tx-frames (the driver refused it: coalesce: tx-frames not supported)"* ]]
	[ "$(npsim --json "$DEV" show | jq -c '.coalesce.fields | [.["tx-frames"], .["rx-usecs"]]')" = '[32,0]' ]
}

@test "--strict with a refused field: all or nothing, rolled back (exit 3)" {
	before=$(state_of)
	fault '{"op":"set_coalesce","field":"rx-frames","errno":"ERANGE","extack":"rx-frames above 60"}'
	run npsim "$DEV" set latency --strict
	[ "$status" -eq 3 ]
	[[ "$output" == *"rx-frames above 60"*"rolled back, the device is as it was"* ]]
	[[ "$output" != *dropped* ]]
	[ "$(state_of)" = "$before" ]
	[ ! -e "$STATE_DIR/$DEV.policy" ]
}

@test "model: a fault's field names a coalescing field of a failing set_coalesce" {
	fault '{"op":"set_coalesce","field":"rx-bogus","errno":"EINVAL"}'
	run npsim "$DEV" show
	[ "$status" -ne 0 ]
	[[ "$output" == *"field: expected a coalescing field"* ]]
	fault '{"op":"set_rings","field":"rx-usecs","errno":"EINVAL"}'
	run npsim "$DEV" show
	[ "$status" -ne 0 ]
	[[ "$output" == *"field: only a failing set_coalesce names a field"* ]]
}

@test "the dropped knob and the kernel's reason are in the JSON result" {
	fault '{"op":"set_coalesce","after":0,"errno":"EOPNOTSUPP"}'
	jq '.faults += [(.faults[0] | .after = 1), (.faults[0] | .after = 2)]' "$MODEL" >"$NP_TMP/f.json" &&
		mv "$NP_TMP/f.json" "$MODEL"
	run npsim --json "$DEV" set latency
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.dropped[].knob]' <<<"$output")" = '["coalesce"]' ]
	[ "$(jq -c '.dropped[0] | [has("field"), .errno]' <<<"$output")" = '[false,"EOPNOTSUPP"]' ]
	[[ "$(jq -r '.dropped[0].reason' <<<"$output")" == "coalesce: "* ]]
	[ "$(jq '.rolled_back' <<<"$output")" = false ]
	[ "$(jq '.changed' <<<"$output")" = true ]
	run npsim --json "$DEV" check
	[ "$status" -eq 0 ]
	[ "$(jq '.drift' <<<"$output")" = false ]
}

@test "--strict keeps all or nothing: a refused refinement rolls back (exit 3)" {
	before=$(state_of)
	fault '{"op":"set_coalesce","after":0,"errno":"EINVAL","extack":"rx-usecs out of range"}'
	run npsim "$DEV" set latency --strict
	[ "$status" -eq 3 ]
	[[ "$output" == *"coalesce: "*"rx-usecs out of range"*"rolled back, the device is as it was"* ]]
	[ "$(state_of)" = "$before" ]
	[ ! -e "$STATE_DIR/$DEV.policy" ]
}

@test "a refused core knob is left out too: the rest applies (exit 0)" {
	fault '{"op":"set_channels","after":0,"errno":"EOPNOTSUPP","extack":"no channel setter"}'
	run npsim --json "$DEV" set latency
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.dropped[] | [.knob, .errno]]' <<<"$output")" = '[["channels","EOPNOTSUPP"]]' ]
	run npsim "$DEV" check
	[ "$status" -eq 0 ]
}

@test "any errno from a knob is a refusal; a failure that leaves the state unknown rolls back" {
	fault '{"op":"set_coalesce","every":true,"errno":"EBUSY"}'
	run npsim --json "$DEV" set latency
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.dropped[] | [.knob, .errno]] | unique' <<<"$output")" = '[["coalesce","EBUSY"]]' ]
	npsim "$DEV" reset >/dev/null
	before=$(state_of)
	for e in ENOBUFS ENOMEM EINTR EPROTO; do
		fault "{\"op\":\"set_coalesce\",\"every\":true,\"errno\":\"$e\"}"
		run npsim "$DEV" set latency
		[ "$status" -eq 3 ] || { echo "$e: exit $status: $output"; return 1; }
		[[ "$output" == *"rolled back, the device is as it was"* ]]
		[ "$(state_of)" = "$before" ]
	done
}

@test "another policy, or a reset, tries the dropped knob again" {
	fault '{"op":"set_coalesce","after":0,"errno":"EINVAL"}'
	run npsim "$DEV" set latency
	[ "$status" -eq 0 ]
	run npsim --json "$DEV" set throughput
	[ "$status" -eq 0 ]
	[ "$(jq '.dropped | length' <<<"$output")" -eq 0 ]
	[ "$(jq -r .drop "$STATE_DIR/$DEV.policy")" = "" ]
	run npsim "$DEV" check
	[ "$status" -eq 0 ]
}

@test "--strict is an option of set and plan only" {
	run npsim "$DEV" check --strict
	[ "$status" -eq 2 ]
	[[ "$output" == *"option --strict does not apply"* ]]
}
