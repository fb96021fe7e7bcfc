#!/usr/bin/env bats
# set --dry-run through the real kernel on a veth pair: a plan made of what
# veth can do, with notes for what it cannot, and nothing changed.

load ../helpers

setup() { np_veth_setup; }

teardown() { np_veth_teardown; }

@test "throughput dry run: channels and XPS/RFS steps, unsupported knobs noted, nothing changed" {
	run npns --json v0 set throughput --dry-run
	[ "$status" -eq 0 ]
	[ "$(jq .dry_run <<<"$output")" = true ]
	[ "$(jq .changed <<<"$output")" = false ]
	knobs=$(jq -r '[.steps[].knob] | unique | join(" ")' <<<"$output")
	[[ " $knobs " == *" channels "* ]]
	[[ " $knobs " == *" xps "* ]]
	# veth has no coalescing, rings, RSS or IRQs: never planned, always noted
	[[ " $knobs " != *" coalesce "* && " $knobs " != *" rings "* && " $knobs " != *" rss "* ]]
	for k in coalesce rings rss irq-affinity; do
		jq -e --arg k "$k" '.notes[] | select(.knob == $k)' <<<"$output" >/dev/null ||
			{ echo "no note for $k"; return 1; }
	done
	jq -e '.notes[] | select(.knob == "coalesce") | select(.note | test("not supported by driver veth"))' <<<"$output"
	# one queue per core of this machine, within veth's maximum of 8
	cores=$(jq -r '.after' <<<"$(jq -c '.steps[] | select(.knob=="channels") | .changes[] | select(.what=="rx")' <<<"$output")")
	[ "$cores" -ge 1 ] && [ "$cores" -le 8 ]
	[ "$(veth_snapshot)" = "$BEFORE" ]
	[ ! -e "$(np_rec v0 pristine)" ]
}

@test "text dry run prints one line per change and the notes" {
	run npns v0 set cpu --dry-run
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ ^v0:\ cpu:\ would\ change\ [0-9]+\ values\ in\ [0-9]+\ steps$ ]]
	[[ "$output" == *"  channels: rx 8 -> 1"* ]]
	[[ "$output" == *"  channels: tx 8 -> 1"* ]]
	[[ "$output" == *"notes:"* ]]
	[ "$(veth_snapshot)" = "$BEFORE" ]
}

@test "--cpus restricts the plan; an offline CPU is refused (exit 2)" {
	run npns --json v0 set throughput --dry-run --cpus 0
	[ "$status" -eq 0 ]
	[ "$(jq -r '.steps[] | select(.knob=="channels") | .changes[] | select(.what=="rx") | .after' <<<"$output")" = 1 ]
	run npns v0 set throughput --dry-run --cpus 4095
	[ "$status" -eq 2 ]
	[[ "$output" == *"--cpus: CPU 4095 not online"* || "$output" == *"--cpus: '4095' is not a CPU list"* ]]
	run npns v0 set throughput --dry-run --cpus banana
	[ "$status" -eq 2 ]
	[[ "$output" == *"is not a CPU list"* ]]
}
