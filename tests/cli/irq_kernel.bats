#!/usr/bin/env bats
# Queue IRQs from the kernel first (issue 33, item 4): where netdev
# napi-get reports a NAPI's IRQ and queue-get the NAPI's queues, that is the
# queue's IRQ, whatever the driver named it; the names are the fallback.
# The models here are what discovery sees on such a device: vectors named
# "enp3s0:rx-N", which no pattern knows, and the NAPIs' IRQs (or none).

load ../helpers

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

# unknown_names [NAPI-JQ]: igc-4q under a driver nobody knows, its queue
# vectors named "enp3s0:rx-N" and tied by no name (source "none"), all on
# CPUs 0-7; NAPI-JQ makes the NAPIs (default: all four report their IRQ)
unknown_names() {
	local napis=${1:-'[range(0; 4) | {id: (8193 + .), irq: (61 + .), rx_queue: ., tx_queue: .}]'}
	np_model igc-4q
	jq ".devices[0].driver = \"acme\"
	  | .devices[0].irqs |= map(.affinity = \"0-7\" | if .queue == null then . else
	      .name = \"enp3s0:rx-\(.queue)\" | .kind = \"other\" | .queue = null
	      | .source = \"none\" end)
	  | .devices[0].napis = $napis" "$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
}

irq_affinity() { jq -r --argjson i "$1" '.devices[0].irqs[] | select(.irq == $i) | .affinity' "$MODEL"; }

@test "queue IRQs whose names no pattern knows are placed by the kernel's NAPI map" {
	unknown_names
	run npsim --json enp3s0 set throughput
	[ "$status" -eq 0 ]
	[ "$(jq '[.dropped[]?] | length' <<<"$output")" = 0 ]
	for q in 0 1 2 3; do
		[ "$(irq_affinity $((61 + q)))" = "$q" ] || { echo "IRQ $((61 + q)): $(irq_affinity $((61 + q)))"; return 1; }
	done
	[ "$(irq_affinity 60)" = "0-7" ]
	run npsim enp3s0 check
	[ "$status" -eq 0 ]
	# show says where each mapping came from
	out=$(npsim --json enp3s0 show)
	[ "$(jq -c '[.irqs | sort_by(.irq)[] | [.irq, .kind, .queue, .source, .napi_id]]' <<<"$out")" = \
	  '[[60,"other",null,"name",null],[61,"txrx",0,"kernel",8193],[62,"txrx",1,"kernel",8194],[63,"txrx",2,"kernel",8195],[64,"txrx",3,"kernel",8196]]' ]
	run npsim enp3s0 show
	[[ "$output" == *"61:0(kernel)"* && "$output" == *"64:3(kernel)"* ]]
	run npsim enp3s0 reset
	[ "$status" -eq 0 ]
	[ "$(irq_affinity 61)" = "0-7" ]
}

@test "no NAPI reports an IRQ: the note names the vectors nothing ties to a queue" {
	unknown_names '[range(0; 4) | {id: (8193 + .), rx_queue: ., tx_queue: .}]'
	out=$(npsim --json enp3s0 set throughput --dry-run)
	[ "$(jq '[.steps[] | select(.knob == "irq-affinity")] | length' <<<"$out")" = 0 ]
	jq -r '.notes[] | "\(.knob): \(.note)"' <<<"$out" | grep -qx "irq-affinity: IRQs 61 (enp3s0:rx-0), 62 (enp3s0:rx-1), 63 (enp3s0:rx-2), 64 (enp3s0:rx-3): the device's, but no NAPI the kernel reports and no name pattern of driver acme ties them to a queue: left alone"
	run npsim enp3s0 show
	# long lines wrap at 80 columns: compare with the wraps undone
	flat=$(tr -s ' \n' '  ' <<<"$output")
	[[ "$flat" == *"other irq: 61 enp3s0:rx-0 (affinity 0-7): no queue's by the kernel's NAPI map nor by its name"* ]]
}

@test "queues whose NAPI reports no IRQ are named; the others placed" {
	unknown_names '[range(0; 4) | {id: (8193 + .), rx_queue: ., tx_queue: .} + (if . < 2 then {irq: (61 + .)} else {} end)]'
	out=$(npsim --json enp3s0 set throughput --dry-run)
	[ "$(jq -c '[.steps[] | select(.knob == "irq-affinity") | .changes[].what]' <<<"$out")" = '["61 enp3s0:rx-0","62 enp3s0:rx-1"]' ]
	notes=$(jq -r '.notes[] | "\(.knob): \(.note)"' <<<"$out")
	grep -qx "irq-affinity: no IRQ found for rx queues 2-3 (neither the kernel's NAPI map nor the names tie one): their interrupts are not placed" <<<"$notes"
	grep -q "^irq-affinity: IRQs 63 (enp3s0:rx-2), 64 (enp3s0:rx-3): the device's" <<<"$notes"
}

@test "a model's IRQ source is checked: \"none\" ties no queue" {
	np_model igc-4q
	jq '.devices[0].irqs[1].source = "none"' "$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
	run npsim enp3s0 show
	[ "$status" -ne 0 ]
	[[ "$output" == *'"none" ties no queue'* ]]
	jq '.devices[0].irqs[1].source = "dns"' "$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
	run npsim enp3s0 show
	[ "$status" -ne 0 ]
	[[ "$output" == *'expected "kernel", "name" or "none"'* ]]
}
