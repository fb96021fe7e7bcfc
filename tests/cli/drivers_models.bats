#!/usr/bin/env bats
# Issue 21: a machine model per driver of the table that had none (bnxt_en,
# ena, gve, iavf, vmxnet3, cxgb4, be2net; gen-models.py says what hardware
# or cloud instance each stands for), every policy planned on it, and the
# facts the driver table (libnetpolicy/drivers/drivers.c, drivers_more.c)
# encodes checked in those plans.  Each test says which fact it guards.
#
# The simulator takes an IRQ's kind and queue from the model (it reads no
# /proc/interrupts), so the models carry what np_irq_match() makes of the
# driver's names; that classification itself is tests/unit/test_irq.c's.

load ../helpers
load drivers_lib

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

MODELS=(bnxt-8q ena-8q gve-8q iavf-4q vmxnet3-4q cxgb4-8q be2net-8q)

# the planned changes of KNOB, "what" each, sorted and on one line
whats() {
	jq -r --arg k "$2" '[.steps[] | select(.knob == $k) | .changes[].what] | unique | join(",")' <<<"$1"
}

state_of() {	# the device as JSON, without netpolicy's own bookkeeping
	npsim --json "$1" show | jq -S 'del(.policy, .policy_cpus, .drift, .mixed)'
}

# every IRQ of the model moved to all CPUs (as after irqbalance or a
# reboot without affinity hints), so a plan has to place each queue's IRQ
irqs_everywhere() {
	jq --arg all "$(jq -r '.topology.online' "$MODEL")" \
		'.devices[0].irqs |= map(.affinity = $all)' "$MODEL" >"$NP_TMP/m.json" &&
		mv "$NP_TMP/m.json" "$MODEL"
}

@test "every new model: each policy plans and applies; reset gives back the model's device state exactly" {
	local m p dev s0
	for m in "${MODELS[@]}"; do
		for p in cpu latency throughput; do
			np_model "$m"
			rm -rf "$STATE_DIR"
			dev=$(dev_of)
			run npsim --json "$dev" set "$p" --dry-run
			[ "$status" -eq 0 ] || { echo "$m $p plan: $output"; return 1; }
			s0=$(state_of "$dev")
			run npsim "$dev" set "$p"
			[ "$status" -eq 0 ] || { echo "$m $p set: $output"; return 1; }
			run npsim "$dev" reset
			[ "$status" -eq 0 ] || { echo "$m $p reset: $output"; return 1; }
			[ "$(state_of "$dev")" = "$s0" ] || { echo "$m $p: reset left a difference"; return 1; }
		done
	done
}

@test "every new model: the driver is in the table, so no plan says its values are unverified" {
	# fact: each driver has an entry (a driver missing from the table gets
	# "values not verified for driver ..." on channels, rings and coalesce)
	local m p out
	for m in "${MODELS[@]}"; do
		for p in cpu latency throughput; do
			out=$(plan_json "$m" "$p")
			run grep -q "not verified" <<<"$(notes_of "$out")"
			[ "$status" -ne 0 ] || { echo "$m $p: $(notes_of "$out")"; return 1; }
		done
	done
}

@test "gve: usecs above 8190 (GVE_MAX_ITR_INTERVAL_DQO) are not planned; the note says why" {
	# fact: gve_ranges (rx/tx-usecs 0-8190, -EINVAL above)
	out=$(site gve-8q 'base = latency\ncoalesce.rx-usecs = 10000\n')
	[ "$(coal_after "$out" rx-usecs)" = 8190 ]
	notes_of "$out" | grep -q "coalesce: rx-usecs 10000 is not a value gve takes .*: 8190 used"
}

@test "gve: the IRQ planned for rx queue q is notification block N/2+q, tx queue q block q" {
	# fact (model, as np_irq_split_blocks() makes of the table's
	# NP_IRQN_BLOCKS naming): 16 blocks, 0-7 Tx queues, 8-15 Rx queues
	np_model gve-8q
	dev=$(dev_of)
	[ "$(npsim --json "$dev" show | jq -r '[.irqs[] | select(.name | startswith("gve-ntfy-blk"))
		| "\(.name | capture("blk(?<n>[0-9]+)@").n):\(.kind):\(.queue)"] | join(" ")')" = \
	  "0:tx:0 1:tx:1 2:tx:2 3:tx:3 4:tx:4 5:tx:5 6:tx:6 7:tx:7 8:rx:0 9:rx:1 10:rx:2 11:rx:3 12:rx:4 13:rx:5 14:rx:6 15:rx:7" ]
	irqs_everywhere
	out=$(npsim --json "$dev" set latency --dry-run)
	# latency keeps 4 queue pairs: blocks 0-3 (Tx) and 8-11 (Rx), rx queue
	# q's block on the CPU of tx queue q's
	[ "$(jq -r '[.steps[] | select(.knob == "irq-affinity") | .changes[]
		| "\(.what | capture("blk(?<n>[0-9]+)@").n)>\(.after)"] | join(" ")' <<<"$out")" = \
	  "0>0 1>1 2>2 3>3 8>0 9>1 10>2 11>3" ]
	# the management vector is the device's, no queue's: never placed
	[ "$(jq '[.steps[] | select(.knob == "irq-affinity") | .changes[]
		| select(.what | test("mgmnt"))] | length' <<<"$out")" -eq 0 ]
}

# Stop `set cpu` on model $1 right after its channel change, every queue
# IRQ first moved to CPU 1, and print the distinct affinities the simulated
# driver left on them (drivers.bats after_channels(), for one model).
queue_irqs_after_channels() {
	np_model "$1"
	jq '.devices[0].irqs |= map(if .queue != null then .affinity = "1" else . end)' \
		"$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
	set_cpu_until_channels || return 1
	jq -r '[.devices[0].irqs[] | select(.queue != null) | .affinity] | unique | join(" ")' "$MODEL"
}

@test "gve: channels are planned as separate rx and tx, and the blocks keep their affinity across the change" {
	out=$(plan_json gve-8q cpu)
	# model: gve_get_channels() reports rx/tx apart, no combined
	[ "$(whats "$out" channels)" = "rx,tx" ]
	# fact: chan_affinity NP_CHAN_KEEPS (blocks allocated once at probe):
	# no note that the vectors come back, and the simulated driver leaves
	# every block where it was (without the fact it resets them)
	run grep -q "requests its vectors again" <<<"$(notes_of "$out")"
	[ "$status" -ne 0 ]
	[ "$(queue_irqs_after_channels gve-8q)" = 1 ]
	# ena, NP_CHAN_RESETS, for contrast: its IO vectors come back elsewhere
	[ "$(queue_irqs_after_channels ena-8q)" != 1 ]
}

@test "ena: only rx-usecs, tx-usecs and adaptive-rx are planned; channels combined only" {
	local p out
	for p in cpu latency throughput; do
		out=$(plan_json ena-8q "$p")
		# model: supported_coalesce_params = USECS | USE_ADAPTIVE_RX
		run jq -e '[.steps[] | select(.knob == "coalesce") | .changes[].what]
			- ["rx-usecs", "tx-usecs", "adaptive-rx"] | length == 0' <<<"$out"
		[ "$status" -eq 0 ] || { echo "$p: $(whats "$out" coalesce)"; return 1; }
		# model: ena_set_channels() takes combined only (max_rx/max_tx 0)
		[ -z "$(whats "$out" channels)" ] || [ "$(whats "$out" channels)" = combined ]
	done
	out=$(plan_json ena-8q latency)
	notes_of "$out" | grep -q "coalesce: rx-frames, tx-frames, adaptive-tx not supported by driver ena"
}

@test "ena: a channel change re-requests the IO vectors, so the IRQs are planned again by name; the management vector is left alone" {
	# fact: chan_affinity NP_CHAN_RESETS (ena_update_queue_count() tears
	# the IO queues and their IRQs down and up again)
	np_model ena-8q
	dev=$(dev_of)
	irqs_everywhere
	out=$(npsim --json "$dev" set latency --dry-run)
	[ "$(whats "$out" channels)" = combined ]
	notes_of "$out" | grep -q "irq-affinity: driver ena requests its vectors again on a channel change"
	# the Tx-Rx vectors are combined ones (model: "<ifname>-Tx-Rx-<n>" -> txrx n)
	[ "$(npsim --json "$dev" show | jq -r '[.irqs[] | "\(.kind):\(.queue)"] | join(" ")')" = \
	  "other:null txrx:0 txrx:1 txrx:2 txrx:3 txrx:4 txrx:5 txrx:6 txrx:7" ]
	run npsim "$dev" set latency
	[ "$status" -eq 0 ]
	# after the apply the four queues kept each have their vector on its CPU
	# and ena-mgmnt is where it was
	[ "$(jq -r '[.devices[0].irqs[] | "\(.name)=\(.affinity)"] | join(" ")' "$MODEL")" = \
	  "ena-mgmnt@pci:0000:00:05.0=0-7 ens5-Tx-Rx-0=0 ens5-Tx-Rx-1=1 ens5-Tx-Rx-2=2 ens5-Tx-Rx-3=3 ens5-Tx-Rx-4=0-7 ens5-Tx-Rx-5=0-7 ens5-Tx-Rx-6=0-7 ens5-Tx-Rx-7=0-7" ]
}

@test "bnxt_en: with DIM on, adaptive-rx off is a request of its own; a channel change re-requests the vectors" {
	# fact: adaptive_off_alone (bnxt_set_coalesce() jumps to reset_coalesce
	# before storing the values a request turning DIM off carries)
	out=$(plan_json bnxt-8q latency)
	[ "$(jq -c '[.steps[] | select(.knob == "coalesce") | [.changes[].what]][0]' <<<"$out")" = '["adaptive-rx"]' ]
	[ "$(jq '[.steps[] | select(.knob == "coalesce")] | length' <<<"$out")" -eq 2 ]
	# fact: chan_affinity NP_CHAN_RESETS (bnxt_free_irq() / bnxt_request_irq())
	out=$(plan_json bnxt-8q cpu)
	[ "$(whats "$out" channels)" = combined ]
	notes_of "$out" | grep -q "irq-affinity: driver bnxt_en requests its vectors again on a channel change"
	# fact: no ranges (the firmware clamps; the driver rounds): a large
	# value is planned as asked, with no "not a value" note
	out=$(site bnxt-8q 'base = latency\ncoalesce.rx-usecs = 10000\n')
	[ "$(coal_after "$out" rx-usecs)" = 10000 ]
	run grep -q "is not a value" <<<"$(notes_of "$out")"
	[ "$status" -ne 0 ]
}

@test "iavf: the queue vectors placed are iavf-<ifname>-TxRx-<n>; the mailbox vector is left alone" {
	# fact (model, as the table's NP_IRQN_DRIVER_IFNAME naming reads them):
	# TxRx n is queue pair n, "iavf-<BDF>:mbx" no queue's
	np_model iavf-4q
	dev=$(dev_of)
	[ "$(npsim --json "$dev" show | jq -r '[.irqs[] | "\(.name)>\(.kind):\(.queue)"] | join(" ")')" = \
	  "iavf-0000:06:00.0:mbx>other:null iavf-enp6s0-TxRx-0>txrx:0 iavf-enp6s0-TxRx-1>txrx:1 iavf-enp6s0-TxRx-2>txrx:2 iavf-enp6s0-TxRx-3>txrx:3" ]
	irqs_everywhere
	out=$(npsim --json "$dev" set throughput --dry-run)
	[ "$(jq -r '[.steps[] | select(.knob == "irq-affinity") | .changes[] | "\(.what)>\(.after)"] | join(" ")' <<<"$out")" = \
	  "41 iavf-enp6s0-TxRx-0>0 42 iavf-enp6s0-TxRx-1>1 43 iavf-enp6s0-TxRx-2>2 44 iavf-enp6s0-TxRx-3>3" ]
}

@test "vmxnet3: no channel change is planned under any policy, and the note says why" {
	# fact: no_set_channels (vmxnet3_ethtool.c has no set_channels; the
	# model reports channels like any driver's)
	local p out
	for p in cpu latency throughput; do
		out=$(plan_json vmxnet3-4q "$p")
		[ -z "$(whats "$out" channels)" ]
		notes_of "$out" | grep -q "channels: no channel setter in driver vmxnet3: keeping 4 rx / 4 tx queues"
		# model: supported_coalesce_params has no tx-usecs
		whats "$out" coalesce | grep -vq tx-usecs
	done
}

@test "cxgb4: no refusal in set_coalesce: a large rx-usecs is planned as asked; no channel change" {
	# fact: no ranges (cxgb4_set_rspq_intr_params() takes the nearest
	# hold-off timer: the driver rounds, it does not refuse)
	out=$(site cxgb4-8q 'base = latency\ncoalesce.rx-usecs = 10000\n')
	[ "$(coal_after "$out" rx-usecs)" = 10000 ]
	run grep -q "is not a value" <<<"$(notes_of "$out")"
	[ "$status" -ne 0 ]
	# model: no channel ops
	[ -z "$(whats "$out" channels)" ]
	notes_of "$out" | grep -q "channels: not supported by driver cxgb4"
}

@test "be2net: a channel change re-requests the vectors; rings are never planned; usecs are not refused" {
	# fact: chan_affinity NP_CHAN_RESETS (be_update_queues() closes the NIC)
	out=$(plan_json be2net-8q cpu)
	[ "$(whats "$out" channels)" = combined ]
	notes_of "$out" | grep -q "irq-affinity: driver be2net requests its vectors again on a channel change"
	# model: no set_ringparam (rings settable false)
	[ -z "$(whats "$out" rings)" ]
	notes_of "$out" | grep -q "rings: no ring setter in driver be2net: sizes stay"
	# fact: no ranges (be_set_coalesce() clamps to rx-usecs-high and
	# BE_MAX_EQD: the driver rounds)
	out=$(site be2net-8q 'base = latency\ncoalesce.rx-usecs = 10000\n')
	[ "$(coal_after "$out" rx-usecs)" = 10000 ]
	run grep -q "is not a value" <<<"$(notes_of "$out")"
	[ "$status" -ne 0 ]
}
