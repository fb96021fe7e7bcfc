#!/usr/bin/env bats
# Driver truth (np_drivers.h) on the simulated machines: plans the real
# drivers accept, their adaptive modes recognised, knobs they report but
# cannot set left alone, and the simulator refusing what they refuse.

load ../helpers
load drivers_lib

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

changes_of() {	# changes_of JSON: "knob what" per planned change
	jq -r '.steps[] | .knob as $k | .changes[] | "\($k) \(.what)"' <<<"$1"
}

notes_of() { jq -r '.notes[] | "\(.knob): \(.note)"' <<<"$1"; }

@test "ixgbe and igb: no policy plans tx-usecs while Rx and Tx share vectors" {
	# Paired after the plan: ixgbe always, igb (I350, 8 queues max) above 4
	# queues. cpu takes few-msix to 1 queue, where igb has a Tx vector of
	# its own again (3 vectors fit its 10): there tx-usecs is planned.
	for model in ixgbe-16cpu few-msix; do
		for policy in cpu latency throughput; do
			out=$(plan_json "$model" "$policy")
			[ "$model $policy" = "few-msix cpu" ] && continue
			! changes_of "$out" | grep -qx 'coalesce tx-usecs' ||
				{ echo "$model $policy plans tx-usecs"; return 1; }
		done
	done
	out=$(plan_json few-msix latency)
	notes_of "$out" | grep -q "tx-usecs left alone: igb refuses it while Rx and Tx share a vector"
	out=$(plan_json few-msix cpu)
	[ "$(jq -r '.steps[] | select(.knob == "channels") | .changes[] | select(.what == "combined") | .after' <<<"$out")" = 1 ]
	[ "$(jq -r '.steps[] | select(.knob == "coalesce") | .changes[] | select(.what == "tx-usecs") | .after' <<<"$out")" = 3 ]
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
			! notes_of "$out" | grep -q "has no adaptive moderation" || false
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
	# igb with a tx-usecs its driver would never report while paired
	# (igb_get_coalesce() leaves it out then): the plan's target is the
	# 0 a paired igb reads, so the coalescing write carries tx-usecs 0,
	# which igb takes, instead of the 8 it would refuse
	np_model few-msix
	jq '.devices[0].coalesce.fields["tx-usecs"] = 8' "$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
	out=$(npsim --json "$(dev_of)" set latency --dry-run)
	[ "$(jq -r '.steps[] | select(.knob == "coalesce") | .changes[] | select(.what == "tx-usecs") | "\(.before) \(.after)"' <<<"$out")" = "8 0" ]
	run npsim --json "$(dev_of)" set latency
	[ "$status" -eq 0 ]
	[ "$(jq '.dropped | length' <<<"$output")" -eq 0 ]
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
	! changes_of "$out" | grep -q '^channels' || false
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
	! changes_of "$out" | grep -q '^rings' || false
	notes_of "$out" | grep -q "rings: no ring setter in driver mlx5_core: sizes stay"
	run npsim "$(dev_of)" set cpu
	[ "$status" -eq 0 ]
}

# Stop `set cpu` right after its channel change and print what the simulated
# driver left: "affinity kept|reset xps kept|reset" for the queue IRQs and
# the tx queues that stay.  $1 model, $2 driver name written into it, $3
# driver_rules (true/false).
after_channels() {
	np_model "$1"
	jq --arg d "$2" --argjson r "$3" '.driver_rules = $r | .devices[0].driver = $d
		| .devices[0].irqs |= map(if .queue != null then .affinity = "1" else . end)
		| .devices[0].queues.tx |= map(.xps_cpus = "1")' \
		"$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
	set_cpu_until_channels || return 1
	jq -r '.devices[0] |
		"affinity \(if ([.irqs[] | select(.queue != null) | .affinity] | unique) == ["1"]
			then "kept" else "reset" end) xps \(if ([.queues.tx[].xps_cpus] | unique) == ["1"]
			then "kept" else "reset" end)"' "$MODEL"
}

@test "the simulator resets on a channel change what the driver table says, no more" {
	# mlx5: completion EQs made at probe keep their affinity; XPS rewritten
	[ "$(after_channels mlx5-2s64c mlx5_core true)" = "affinity kept xps reset" ]
	# ixgbe: vectors re-requested and XPS set again
	[ "$(after_channels ixgbe-16cpu ixgbe true)" = "affinity reset xps reset" ]
	# netdevsim: netif_set_real_num_queues() only
	[ "$(after_channels ixgbe-16cpu netdevsim true)" = "affinity kept xps kept" ]
	# a driver the table does not know, or a model without driver rules:
	# the cautious guess, both reset
	[ "$(after_channels ixgbe-16cpu foo_nic true)" = "affinity reset xps reset" ]
	[ "$(after_channels mlx5-2s64c mlx5_core false)" = "affinity reset xps reset" ]
}

# bnxt_set_coalesce(): turning DIM off jumps to reset_coalesce before it
# stores anything else the request carries
bnxt_model() {
	np_model mlx5-2s64c
	jq '.devices[0].driver = "bnxt_en" | .devices[0].coalesce.fields["adaptive-rx"] = true' \
		"$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
}

@test "bnxt_en: adaptive-rx off is a request of its own, then the fixed values; they stick" {
	bnxt_model
	out=$(npsim --json "$(dev_of)" set latency --dry-run)
	# the general rule (plan/knob/coalesce.c): adaptive switches going off are a
	# request of their own, before any fixed value (the model, mlx5's
	# shape, has adaptive-tx on too)
	[ "$(jq -c '[.steps[] | select(.knob == "coalesce") | [.changes[].what]][0]' <<<"$out")" = '["adaptive-rx","adaptive-tx"]' ]
	[ "$(jq '[.steps[] | select(.knob == "coalesce")] | length' <<<"$out")" = 2 ]
	want=$(jq -r '[.steps[] | select(.knob == "coalesce")][1].changes[] | select(.what == "rx-usecs") | .after' <<<"$out")
	run npsim "$(dev_of)" set latency
	[ "$status" -eq 0 ]
	[ "$(jq -r '.devices[0].coalesce.fields["rx-usecs"]' "$MODEL")" = "$want" ]
	[ "$(jq -r '.devices[0].coalesce.fields["adaptive-rx"]' "$MODEL")" = false ]
	run npsim "$(dev_of)" check
	[ "$status" -eq 0 ]
}

@test "a driver the table does not know: the plan says which values nothing verified" {
	np_model few-msix
	jq '.devices[0].driver = "acme"' "$MODEL" >"$NP_TMP/m.json" &&
		mv "$NP_TMP/m.json" "$MODEL"
	run npsim "$(dev_of)" set latency --dry-run
	[ "$status" -eq 0 ]
	[[ "$output" == *"coalesce: values not verified for driver acme (not in the driver table): one it refuses is left out and reported, or with --strict fails the apply"* ]]
	out=$(npsim --json "$(dev_of)" set latency --dry-run)
	[ "$(jq -r '[.notes[] | select(.note | startswith("values not verified for driver acme")) | .knob] | sort | join(",")' <<<"$out")" = \
	  "$(jq -r '[.steps[].knob] | unique | map(select(. == "channels" or . == "rings" or . == "coalesce")) | join(",")' <<<"$out")" ]
	# a driver the table knows: no such note
	np_model few-msix
	run npsim "$(dev_of)" set latency --dry-run
	[[ "$output" != *"not verified"* ]]
}

# issue 33 (7): of a driver the table does not know, the notes say what the
# device or kernel reported, never what the driver lacks (it may have
# accelerated RFS, or a value of rx-usecs may be its dynamic mode)
acme_model() {	# acme_model MODEL: MODEL's first device under a driver nobody knows
	np_model "$1"
	jq '.devices[0].driver = "acme"' "$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
}

@test "a driver the table does not know: notes state what was read, not driver facts" {
	acme_model few-msix
	for policy in latency throughput mixed; do
		out=$(npsim --json "$(dev_of)" set "$policy" --dry-run 2>&1 || true)
		! grep -Eq "acme has no|has none|no adaptive moderation|no accelerated RFS: RFS" <<<"$out" ||
			{ echo "$policy: $out"; return 1; }
	done
	out=$(npsim --json "$(dev_of)" set throughput --dry-run)
	notes_of "$out" | grep -qx "rfs: the device reports rx-ntuple-filter off; whether driver acme (not in the driver table) steers RFS flows with it (accelerated RFS) is not known: left as it is"
	notes_of "$out" | grep -q "^coalesce: adaptive-rx and adaptive-tx not reported by driver acme (not in the driver table)"
	[ "$(jq '[.steps[].changes[]? | select(.what == "rx-ntuple-filter")] | length' <<<"$out")" = 0 ]
	run npsim "$(dev_of)" set mixed --dry-run
	[[ "$output" == *'mixed needs ntuple filters: reading them answered "Operation not supported" (driver acme, not in the driver table)'* ]]
	# no rx-ntuple-filter among the device's features at all
	jq 'del(.devices[0].features.list["rx-ntuple-filter"])' "$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
	out=$(npsim --json "$(dev_of)" set throughput --dry-run)
	notes_of "$out" | grep -qx "rfs: the device reports no rx-ntuple-filter feature: RFS steers in software"
	# a mixed model: what the device reported about RSS contexts
	acme_model ice-mixed
	out=$(npsim --json "$(dev_of)" set mixed --dry-run)
	notes_of "$out" | grep -q "^rss-context: the device reports no RSS contexts (driver acme, not in the driver table)"
	# the table's drivers keep the table's facts
	out=$(plan_json few-msix throughput)
	notes_of "$out" | grep -qx "rfs: driver igb has no accelerated RFS: RFS steers in software"
}

# issue 22 (b): igb frees and requests its vectors again on a channel change
# (igb_reinit_queues()), and they may come back under other numbers; the
# record's numbers are then other queues' vectors
@test "igb: reset after the vectors were renumbered restores each queue's IRQ by its role, at its new number" {
	np_model few-msix
	dev=$(dev_of)
	STATE_DIR=$NP_TMP/state
	by_name() { jq -c '[.devices[0].irqs[] | "\(.name)=\(.affinity)"] | sort' "$MODEL"; }
	pristine=$(by_name)
	run npsim "$dev" set latency --cpus 8-15
	[ "$status" -eq 0 ]
	[ "$(by_name)" != "$pristine" ]
	# the driver re-requested its queue vectors: TxRx-q is now 61 + (q + 3) % 8
	jq '.devices[0].irqs |= map(if (.name | test("TxRx")) then .irq = 61 + ((.irq - 61 + 3) % 8) else . end)' \
		"$MODEL" >"$NP_TMP/m" && mv "$NP_TMP/m" "$MODEL"
	run npsim "$dev" reset
	[ "$status" -eq 0 ]
	# named as they are at the write: TxRx-0 is 64 now, TxRx-5 is 61
	[[ "$output" == *"irq-affinity: 64 eno1-TxRx-0 8 -> 0"* ]]
	[[ "$output" == *"irq-affinity: 61 eno1-TxRx-5 13 -> 5"* ]]
	[ "$(by_name)" = "$pristine" ]
	# a second reset has nothing to do
	run npsim --json "$dev" reset
	[ "$status" -eq 0 ]
	[ "$(jq .changed <<<"$output")" = false ]
}
