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

# per-queue rx-usecs of every queue, counted: "VALUE xCOUNT ..."
queue_rx_usecs() {
	npsim --json "$DEV" show | jq -r '[.queues.rx[].coalesce["rx-usecs"]] | group_by(.)
		| map("\(.[0]) x\(length)") | join(" ")'
}

@test "one timer on a device with per-queue values: each queue's answer is recorded, check passes" {
	# found by the sweep (seed 2026: ice-100g busy-poll; couple; set_rings
	# refused): the device-wide write gives every queue the driver's coupled
	# rx-usecs 8, and check called each queue's 8 drift from the planned 0
	np_model ice-100g
	DEV=$(jq -r '.devices[0].ifname' "$MODEL")
	behave '.devices[0].coalesce.fields["tx-usecs"] = .devices[0].coalesce.fields["rx-usecs"]
		| .faults = [{op: "set_coalesce", mode: "couple"}, {op: "set_rings", every: true, errno: "EOPNOTSUPP"}]'
	run npsim --json "$DEV" set busy-poll
	[ "$status" -eq 0 ]
	[[ "$(jq -r '.rounded' <<<"$output")" == *"coalesce rx-usecs: driver set 8 for 0"* ]]
	[ "$(queue_rx_usecs)" = "8 x24" ]
	run npsim "$DEV" check
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" != *"queue-coalesce"*"->"* ]]
	run npsim "$DEV" reset
	[ "$status" -eq 0 ]
	[ "$(state_of)" = "$PRISTINE" ]
}

@test "a per-queue value the driver rounds: its answer, recorded for check, not drift" {
	# the device-wide values are the policy's already; queue 3 alone is
	# written, and the driver keeps its timer's resolution (4 us)
	np_model ice-100g
	DEV=$(jq -r '.devices[0].ifname' "$MODEL")
	mkdir -p "$NP_TMP/pol"
	printf 'base = busy-poll\ncoalesce.rx-usecs = 6\n' >"$NP_TMP/pol/six.conf"
	behave '.devices[0].coalesce.fields = {"rx-usecs": 6, "tx-usecs": 8, "adaptive-rx": false,
		"adaptive-tx": false, "rx-usecs-high": 0} | .devices[0].queues.rx[3].coalesce = {"rx-usecs": 50}
		| .faults = [{op: "set_queue_coalesce", mode: "round"}]'
	run npsim --policy-dir "$NP_TMP/pol" --json "$DEV" set six
	[ "$status" -eq 0 ]
	[[ "$(jq -r '.rounded' <<<"$output")" == *"queue-coalesce rx-3 rx-usecs: driver set 4 for 6"* ]]
	[ "$(queue_rx_usecs)" = "4 x1 6 x23" ]
	run npsim --policy-dir "$NP_TMP/pol" "$DEV" check
	echo "$output"
	[ "$status" -eq 0 ]
	# only that field is the driver's from now on: another writer's
	# tx-usecs on a queue is still drift
	jq '.devices[0].queues.rx[5].coalesce["tx-usecs"] = 20' "$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
	run npsim --policy-dir "$NP_TMP/pol" "$DEV" check
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"rx-5 tx-usecs 20 -> 8"* ]]
}
