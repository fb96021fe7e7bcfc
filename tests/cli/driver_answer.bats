#!/usr/bin/env bats
# The driver's answer (netpolicy(8), "What degrades"): what the device says
# right after netpolicy's own write is the driver's, never another writer's.
# A field the driver kept is left out and reported; a receive delay the
# driver moved the other way (Rx and Tx on one timer) is undone and the
# field that caused it left out; requests are ordered the way drivers
# validate them (adaptive off first, usecs before adaptive on), in apply,
# rollback and reset alike.  Behaviours: netpolicy-model(5), FAULTS.

load ../helpers

setup() {
	np_tmpdir
	np_model mlx5-2s64c
	DEV=$(jq -r '.devices[0].ifname' "$MODEL")
}
teardown() { np_cleanup_tmp; }

behave() {	# behave JQ-FILTER: change the model (its faults, its values)
	jq "$1" "$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
	PRISTINE=$(state_of)
}

state_of() {
	npsim --json "$DEV" show | jq -S 'del(.policy, .policy_cpus, .drift)'
}

coal() { npsim --json "$DEV" show | jq -c "[.coalesce.fields | $1]"; }

@test "a driver that keeps tx-usecs silently: its answer, left out and reported, not another writer" {
	behave '.faults = [{op: "set_coalesce", mode: "keep", field: "tx-usecs"}]'
	run npsim --json "$DEV" set latency
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.dropped[] | [.knob, .field, has("errno")]]' <<<"$output")" = '[["coalesce","tx-usecs",false]]' ]
	[[ "$(jq -r '.dropped[0].reason' <<<"$output")" == *"tx-usecs: the driver kept 16, wanted 8"* ]]
	[[ "$output" != *"another writer"* ]]
	[ "$(coal '.["rx-usecs"], .["tx-usecs"], .["adaptive-rx"]')" = '[0,16,false]' ]
	run npsim "$DEV" check
	[ "$status" -eq 0 ]
	run npsim "$DEV" reset
	[ "$status" -eq 0 ]
	[ "$(state_of)" = "$PRISTINE" ]
}

@test "Rx and Tx on one timer: a higher receive delay than before is undone, tx-usecs left out" {
	# 1 us before; latency wants rx-usecs 0 and tx-usecs 8, and a driver
	# that takes tx-usecs for both would end at an 8 us receive delay
	behave '.devices[0].coalesce.fields["rx-usecs"] = 1 | .devices[0].coalesce.fields["tx-usecs"] = 1
		| .faults = [{op: "set_coalesce", mode: "couple"}]'
	run npsim --json "$DEV" set latency
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.dropped[] | [.knob, .field]]' <<<"$output")" = '[["coalesce","tx-usecs"]]' ]
	[[ "$(jq -r '.dropped[0].reason' <<<"$output")" == *"rx-usecs 8 for 0 (1 before)"* ]]
	# the receive delay is the policy's; tx-usecs followed it (the driver's)
	[ "$(coal '.["rx-usecs"], .["tx-usecs"]')" = '[0,0]' ]
	[[ "$(jq -r '.rounded' <<<"$output")" == *"coalesce tx-usecs: driver set 0 for 1"* ]]
	run npsim "$DEV" check
	[ "$status" -eq 0 ]
	run npsim "$DEV" reset
	[ "$status" -eq 0 ]
	[ "$(state_of)" = "$PRISTINE" ]
}

@test "usecs refused while adaptive is on: adaptive off first, usecs before adaptive on; reset works" {
	behave '.faults = [{op: "set_coalesce", mode: "adaptive_usecs"}]'
	run npsim -v "$DEV" set latency
	[ "$status" -eq 0 ]
	[[ "$output" != *dropped* ]]
	# adaptive off alone, then the values
	[[ "$output" == *"coalesce adaptive-rx"*"coalesce rx-usecs"* ]]
	[ "$(coal '.["rx-usecs"], .["adaptive-rx"]')" = '[0,false]' ]
	# back to adaptive on with its usecs: usecs first, then adaptive on
	run npsim "$DEV" reset
	[ "$status" -eq 0 ]
	[ "$(state_of)" = "$PRISTINE" ]
}

@test "usecs refused while adaptive is on: a rollback orders its requests the same way" {
	# latency turns adaptive off and sets usecs; the run then fails in a
	# way that stands (ENOBUFS at the first sysfs write, after the
	# coalescing), and the rollback must set usecs back before it turns
	# adaptive on again
	behave '.faults = [{op: "set_coalesce", mode: "adaptive_usecs"},
			   {op: "write_attr", after: 0, errno: "ENOBUFS"}]'
	run npsim "$DEV" set latency
	[ "$status" -eq 3 ] || { echo "exit $status: $output"; return 1; }
	[[ "$output" == *"rolled back, the device is as it was"* ]]
	[ "$(state_of)" = "$PRISTINE" ]
}
