#!/usr/bin/env bats
# Every command against simulated machines (--model): golden dry-run plans,
# apply/reset/check, idempotence, JSON contracts.  Regenerate the golden files
# with tests/fixtures/golden/regen.sh after an intended planner change.

load ../helpers

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

dev_of() { jq -r '.devices[0].ifname' "$MODEL"; }

@test "golden dry-run plans (text and JSON) for every model and policy" {
	local model policy dev fail=0
	while read -r model; do
		for policy in cpu latency busy-poll throughput; do
			np_model "$model"
			dev=$(dev_of)
			npsim "$dev" set "$policy" --dry-run >"$NP_TMP/out.txt"
			npsim --json "$dev" set "$policy" --dry-run >"$NP_TMP/out.json"
			diff -u "$FIXTURES/golden/$model.$policy.txt" "$NP_TMP/out.txt" || fail=1
			diff -u "$FIXTURES/golden/$model.$policy.json" "$NP_TMP/out.json" || fail=1
		done
	done <"$FIXTURES/golden/models.list"
	[ "$fail" -eq 0 ]
}

@test "a dry run changes nothing in the model" {
	np_model mlx5-2s64c
	cp "$MODEL" "$NP_TMP/orig.json"
	npsim "$(dev_of)" set throughput --dry-run >/dev/null
	cmp "$MODEL" "$NP_TMP/orig.json"
	[ ! -e "$STATE_DIR" ]
}

@test "show on a model: text and JSON describe the same device" {
	np_model mlx5-2s64c
	run npsim "$(dev_of)" show
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "ens1f0np0: driver mlx5_core"* ]]
	[[ "$output" == *"channels:      combined 63 (max 63)"$'\n'* ]]
	[[ "$output" == *"NUMA node"* || "$output" == *"numa node:     1"* ]]
	run npsim --json "$(dev_of)" show
	[ "$(jq -r .channels.combined <<<"$output")" = 63 ]
	[ "$(jq -r '.irqs | map(select(.queue != null)) | length' <<<"$output")" -ge 63 ]
	[ "$(jq -r .numa_node <<<"$output")" = 1 ]
}

@test "set, then set again: the second plans and writes nothing" {
	for model in mlx5-2s64c ixgbe-16cpu virtio-4q isolated; do
		for policy in cpu latency busy-poll throughput; do
			np_model "$model"
			run npsim --json "$(dev_of)" set "$policy"
			[ "$status" -eq 0 ] || { echo "$model $policy: $output"; return 1; }
			run npsim --json "$(dev_of)" set "$policy"
			[ "$status" -eq 0 ]
			[ "$(jq .changed <<<"$output")" = false ] || { echo "$model $policy not idempotent"; return 1; }
			[ "$(jq .writes <<<"$output")" = 0 ]
			run npsim "$(dev_of)" check
			[ "$status" -eq 0 ]
		done
	done
}

@test "set then reset restores every knob of every model exactly" {
	while read -r model; do
		for policy in cpu latency busy-poll throughput; do
			np_model "$model"
			npsim --json "$(dev_of)" show | jq 'del(.policy, .policy_cpus, .drift)' >"$NP_TMP/before"
			npsim "$(dev_of)" set "$policy" >/dev/null
			npsim "$(dev_of)" reset >/dev/null
			npsim --json "$(dev_of)" show | jq 'del(.policy, .policy_cpus, .drift)' >"$NP_TMP/after"
			diff -u "$NP_TMP/before" "$NP_TMP/after" || { echo "$model $policy"; return 1; }
		done
	done <"$FIXTURES/golden/models.list"
}

@test "check: exit 5 and the diff after drift; exit 0 once set again" {
	np_model ixgbe-16cpu
	dev=$(dev_of)
	npsim "$dev" set throughput >/dev/null
	# someone (irqbalance, say) moves an IRQ behind netpolicy's back
	irq=$(jq -r '.devices[0].irqs | map(select(.queue == 0))[0].irq' "$MODEL")
	want=$(jq -r '.devices[0].irqs | map(select(.queue == 0))[0].affinity' "$MODEL")
	jq '(.devices[0].irqs[] | select(.queue == 0)).affinity = "0-15"' "$MODEL" >"$NP_TMP/m" && mv "$NP_TMP/m" "$MODEL"
	run npsim "$dev" check
	[ "$status" -eq 5 ]
	[[ "$output" == *"irq-affinity: $irq "*" 0-15 -> $want"* ]]
	run npsim --json "$dev" check
	[ "$status" -eq 5 ]
	[ "$(jq .drift <<<"$output")" = true ]
	run npsim --json "$dev" show
	[ "$(jq -r .policy <<<"$output")" = throughput ]
	[ "$(jq -r .drift <<<"$output")" -gt 0 ]
}

@test "check without an applied policy asks for one (exit 2)" {
	np_model virtio-4q
	run npsim "$(dev_of)" check
	[ "$status" -eq 2 ]
	[[ "$output" == *"no policy applied by netpolicy"* ]]
}

@test "isolated CPUs never get IRQs unless --cpus names them" {
	np_model isolated
	iso=$(jq -r .topology.isolated "$MODEL")
	run npsim --json "$(dev_of)" set latency --dry-run
	# every planned IRQ CPU is outside the isolated set
	for cpu in $(jq -r '.steps[] | select(.knob=="irq-affinity") | .changes[].after' <<<"$output"); do
		python3 -c "
import sys
def parse(s):
    out=set()
    for part in filter(None, s.split(',')):
        a,_,b=part.partition('-'); out.update(range(int(a), int(b or a)+1))
    return out
sys.exit(1 if parse('$cpu') & parse('$iso') else 0)" || { echo "IRQ on isolated CPU $cpu"; return 1; }
	done
	run npsim --json "$(dev_of)" set latency --dry-run --cpus 2-3
	[ "$(jq -r '[.steps[] | select(.knob=="irq-affinity") | .changes[].after] | unique | join(" ")' <<<"$output")" = "2 3" ]
}

@test "a model file that is not JSON is a one-line input error (exit 2)" {
	echo '{"netpolicy_model": 1, "devices": [' >"$NP_TMP/bad.json"
	MODEL=$NP_TMP/bad.json
	run npsim eth0 show
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "netpolicy: eth0: "*"bad.json"* ]]
}

@test "a model with a wrong type names the JSON path" {
	np_model virtio-4q
	jq '.devices[0].channels.max_combined = "four"' "$MODEL" >"$NP_TMP/m.json"
	MODEL=$NP_TMP/m.json
	run npsim enp0s3 show
	[ "$status" -eq 2 ]
	[[ "$output" == *"devices[0].channels.max_combined"* ]]
}

@test "an unknown device in a model: exit 1" {
	np_model virtio-4q
	run npsim nosuch0 show
	[ "$status" -eq 1 ]
	[[ "$output" == "netpolicy: nosuch0: no such device"* ]]
}

@test "the state directory must not be writable by others" {
	np_model virtio-4q
	mkdir -m 0777 "$STATE_DIR"
	run npsim enp0s3 set throughput
	[ "$status" -eq 1 ]
	[[ "$output" == *"must be owned by uid"*"not writable by others"* ]]
}

# issue 22: the report is what changed, also what the driver changed itself
# with the channel change (the simulated ixgbe re-spreads its default RSS
# table over the new queues, as the kernel's drivers do), marked so
@test "a report lists what the driver changed with the channel change, marked by the driver" {
	np_model ixgbe-16cpu
	npsim "$(dev_of)" set cpu >/dev/null
	# from 1 queue to 8: the dry run plans the table; the driver makes it
	# with the channel change, so the run writes none
	out=$(npsim --json "$(dev_of)" set throughput --dry-run)
	[ "$(jq '[.steps[] | select(.knob == "rss" and .by == null)] | length' <<<"$out")" -eq 1 ]
	run npsim --json "$(dev_of)" set throughput
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.steps[] | select(.by) | {knob, by, c: (.changes[0] | [.what, .before.queues, .after.queues])}]' <<<"$output")" = \
	  '[{"knob":"rss","by":"driver","c":["indir",1,8]}]' ]
	# written steps carry no "by"; the document still validates
	[ "$(jq '[.steps[] | select(.knob == "channels" and .by == null)] | length' <<<"$output")" -eq 1 ]
	npsim "$(dev_of)" reset >/dev/null
	npsim "$(dev_of)" set cpu >/dev/null
	run npsim "$(dev_of)" set throughput
	[ "$status" -eq 0 ]
	[[ "$output" == *"  rss: indir even over 1 queues -> even over 8 queues (by the driver)"* ]]
	# a set again: nothing, no driver line
	run npsim "$(dev_of)" set throughput
	[[ "$output" == *"no changes"* ]]
	[[ "$output" != *"by the driver"* ]]
}
