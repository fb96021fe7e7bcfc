#!/usr/bin/env bats
# Driver truth (np_drivers.h) on the simulated machines: plans the real
# drivers accept, their adaptive modes recognised, knobs they report but
# cannot set left alone, and the simulator refusing what they refuse.

load ../helpers

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

dev_of() { jq -r '.devices[0].ifname' "$MODEL"; }

plan_json() {	# plan_json MODEL POLICY: the dry-run plan as JSON
	np_model "$1"
	npsim --json "$(dev_of)" set "$2" --dry-run
}

changes_of() {	# changes_of JSON: "knob what" per planned change
	jq -r '.steps[] | .knob as $k | .changes[] | "\($k) \(.what)"' <<<"$1"
}

notes_of() { jq -r '.notes[] | "\(.knob): \(.note)"' <<<"$1"; }

@test "ixgbe and igb: no policy plans tx-usecs while Rx and Tx share vectors" {
	for model in ixgbe-16cpu few-msix; do
		for policy in cpu latency throughput; do
			out=$(plan_json "$model" "$policy")
			! changes_of "$out" | grep -qx 'coalesce tx-usecs' ||
				{ echo "$model $policy plans tx-usecs"; return 1; }
		done
	done
	out=$(plan_json few-msix latency)
	notes_of "$out" | grep -q "tx-usecs left alone: igb refuses it while Rx and Tx share a vector"
}

@test "adaptive moderation recognised: ixgbe rx-usecs 1, igb and e1000e rx-usecs 3" {
	for m in ixgbe-16cpu:1:ixgbe few-msix:3:igb vm-1cpu:3:e1000e; do
		IFS=: read -r model v drv <<<"$m"
		for policy in cpu throughput; do
			out=$(plan_json "$model" "$policy")
			# already in its adaptive mode: nothing to change, no fixed value
			! changes_of "$out" | grep -qx 'coalesce rx-usecs' ||
				{ echo "$model $policy overwrites the adaptive mode"; return 1; }
			notes_of "$out" | grep -q "rx-usecs $v selects $drv's .*ITR: its adaptive moderation"
			! notes_of "$out" | grep -q "has no adaptive moderation"
		done
	done
}

@test "a device in fixed mode is put into the driver's adaptive mode by an adaptive policy" {
	np_model few-msix
	jq '.devices[0].coalesce.fields["rx-usecs"] = 250' "$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
	run npsim "$(dev_of)" set throughput
	[ "$status" -eq 0 ]
	[ "$(npsim --json "$(dev_of)" show | jq '.coalesce.fields["rx-usecs"]')" -eq 3 ]
}

@test "latency on ixgbe says what rx-usecs 0 costs there" {
	out=$(plan_json ixgbe-16cpu latency)
	changes_of "$out" | grep -qx 'coalesce rx-usecs'
	notes_of "$out" | grep -q "rx-usecs 0 on ixgbe: with LRO on, disables RSC (hardware LRO) and resets the adapter"
	notes_of "$out" | grep -q "rx-usecs 1 was ixgbe's dynamic ITR: replaced by a fixed value"
}

@test "every policy applies on the ixgbe and igb models, and check passes" {
	for model in ixgbe-16cpu few-msix vm-1cpu; do
		for policy in cpu latency throughput; do
			np_model "$model"
			rm -rf "$STATE_DIR"
			run npsim "$(dev_of)" set "$policy"
			[ "$status" -eq 0 ] || { echo "$model $policy: $output"; return 1; }
			[[ "$output" != *dropped* ]]
			run npsim "$(dev_of)" check
			[ "$status" -eq 0 ] || { echo "$model $policy check: $output"; return 1; }
		done
	done
}

@test "the simulator refuses what igb refuses: tx-usecs while paired, usecs 4-9" {
	np_model few-msix
	# a driver not in the table gets the policy's values (no allow-list)
	jq '.devices[0].driver = "acme"' "$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
	out=$(npsim --json "$(dev_of)" set latency --dry-run)
	changes_of "$out" | grep -qx 'coalesce tx-usecs'
	# igb with a tx-usecs its driver would never report while paired:
	np_model few-msix
	jq '.devices[0].coalesce.fields["tx-usecs"] = 8' "$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
	# any coalescing write now carries tx-usecs 8 to the driver: refused
	# (EINVAL), a refinement: dropped, reported, check passes
	run npsim "$(dev_of)" set latency
	[ "$status" -eq 0 ]
	[[ "$output" == *"dropped coalesce (the driver refused it: coalesce: tx-usecs: igb refuses it while Rx and Tx share a vector)"* ]]
	run npsim "$(dev_of)" check
	[ "$status" -eq 0 ]
	# a model can turn the driver rules off
	np_model few-msix
	jq '.devices[0].coalesce.fields["tx-usecs"] = 8 | .driver_rules = false' "$MODEL" >"$NP_TMP/m.json" &&
		mv "$NP_TMP/m.json" "$MODEL"
	run npsim --json "$(dev_of)" set latency
	[ "$status" -eq 0 ]
	[ "$(jq '.dropped | length' <<<"$output")" -eq 0 ]
}

vmxnet3_model() {	# the 4-queue VM with vmxnet3: channels reported, no setter
	np_model virtio-4q
	jq '.devices[0].driver = "vmxnet3"' "$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
}

@test "vmxnet3: set cpu plans no channel change, says why, applies, check passes" {
	vmxnet3_model
	out=$(npsim --json "$(dev_of)" set cpu --dry-run)
	! changes_of "$out" | grep -q '^channels'
	notes_of "$out" | grep -q "channels: no channel setter in driver vmxnet3: keeping 4 rx / 4 tx queues"
	run npsim "$(dev_of)" set cpu
	[ "$status" -eq 0 ]
	[[ "$output" != *"rolled back"* ]]
	run npsim "$(dev_of)" check
	[ "$status" -eq 0 ]
}

@test "show says what is settable: channels without a setter are read-only" {
	vmxnet3_model
	run npsim "$(dev_of)" show
	[ "$status" -eq 0 ]
	[[ "$output" == *"channels:"*"[read-only: the driver has no setter]"* ]]
	[ "$(npsim --json "$(dev_of)" show | jq '.channels.settable')" = false ]
	np_model virtio-4q
	[ "$(npsim --json "$(dev_of)" show | jq '.channels.settable')" = true ]
}

@test "a model's settable: false is the probe's answer: refused by the simulator, not planned" {
	np_model mlx5-2s64c
	jq '.devices[0].rings.settable = false' "$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
	out=$(npsim --json "$(dev_of)" set cpu --dry-run)
	! changes_of "$out" | grep -q '^rings'
	notes_of "$out" | grep -q "rings: no ring setter in driver mlx5_core: sizes stay"
	run npsim "$(dev_of)" set cpu
	[ "$status" -eq 0 ]
}
